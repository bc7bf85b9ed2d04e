// Naive direct convolution (upstream ids 85/86/87): the solvers that cover everything.
//
// Coverage: 1..3 spatial dims, groups, any pads/strides/dilations, arbitrary tensor strides (so
// any layout, also mixed layouts between the three tensors), fp32, fp16, bf16 in all three
// directions and int8 forward (int8 input and filter; int32 or float output).
//
// Accumulation: fp32 accumulates in double (these solvers double as the library's reference
// path, so they are made as exact as is cheap); fp16 and bf16 accumulate in fp32 and round once
// on the store (nearest even); int8 accumulates in int32.
//
// Every output element is computed by one thread as one gathered sum in a fixed order, so the
// results are bitwise reproducible and independent of the thread count.
#include <miopen/conv/solvers.hpp>
#include <miopen/datatype.hpp>
#include <miopen/errors.hpp>
#include <miopen/threading.hpp>

#include "conv_geometry.hpp"

#include <algorithm>
#include <cstdint>
#include <string>

namespace miopen {
namespace conv {
namespace {

using detail::Geometry;

// ---- Element types: storage type, accumulator type, load and store. ----

struct Fp32
{
    using T   = float;
    using Acc = double;
    static Acc load(T v) noexcept { return v; }
};
struct Fp16
{
    using T   = std::uint16_t;
    using Acc = float;
    static Acc load(T v) noexcept { return halfToFloat(v); }
};
struct Bf16
{
    using T   = std::uint16_t;
    using Acc = float;
    static Acc load(T v) noexcept { return bfloat16ToFloat(v); }
};
struct Int8
{
    using T   = std::int8_t;
    using Acc = std::int32_t;
    static Acc load(T v) noexcept { return v; }
};

// Output stores from an accumulator.
struct StoreFp32
{
    using T = float;
    template <class A>
    static T store(A a) noexcept { return static_cast<float>(a); }
};
struct StoreFp16
{
    using T = std::uint16_t;
    static T store(float a) noexcept { return floatToHalf(a); }
};
struct StoreBf16
{
    using T = std::uint16_t;
    static T store(float a) noexcept { return floatToBfloat16(a); }
};
struct StoreInt32
{
    using T = std::int32_t;
    static T store(std::int32_t a) noexcept { return a; }
};

// Taps f in [lo, hi) of one dim whose input index o*stride - pad + f*dil lies in [0, in).
inline void forwardTaps(const Geometry& g, int d, std::size_t o, std::size_t& lo, std::size_t& hi)
{
    const long base = static_cast<long>(o) * g.str[d] - g.pad[d];
    long first      = 0;
    if(base < 0)
        first = (-base + g.dil[d] - 1) / g.dil[d];
    long last = static_cast<long>(g.fil[d]); // exclusive
    const long maxIn = static_cast<long>(g.in[d]) - 1 - base;
    if(maxIn < 0)
        last = 0;
    else
        last = std::min(last, maxIn / g.dil[d] + 1);
    lo = static_cast<std::size_t>(first);
    hi = static_cast<std::size_t>(std::max(first, last));
}

// ---- Kernels ----

template <class In, class Out>
void forwardKernel(const Geometry& g, const void* xv, const void* wv, void* yv)
{
    const auto* x = static_cast<const typename In::T*>(xv);
    const auto* w = static_cast<const typename In::T*>(wv);
    auto* y       = static_cast<typename Out::T*>(yv);
    parallelFor(g.n * g.k, [&](std::size_t begin, std::size_t end) {
        for(std::size_t item = begin; item < end; ++item)
        {
            const std::size_t n   = item / g.k;
            const std::size_t k   = item % g.k;
            const std::size_t grp = k / g.kPerGroup;
            const auto* xg        = x + n * g.xs[0] + grp * g.cPerGroup * g.xs[1];
            const auto* wk        = w + k * g.ws[0];
            for(std::size_t od = 0; od < g.out[0]; ++od)
            {
                std::size_t d0, d1;
                forwardTaps(g, 0, od, d0, d1);
                const long id0 = static_cast<long>(od) * g.str[0] - g.pad[0];
                for(std::size_t oh = 0; oh < g.out[1]; ++oh)
                {
                    std::size_t h0, h1;
                    forwardTaps(g, 1, oh, h0, h1);
                    const long ih0 = static_cast<long>(oh) * g.str[1] - g.pad[1];
                    for(std::size_t ow = 0; ow < g.out[2]; ++ow)
                    {
                        std::size_t w0, w1;
                        forwardTaps(g, 2, ow, w0, w1);
                        const long iw0         = static_cast<long>(ow) * g.str[2] - g.pad[2];
                        typename In::Acc acc   = 0;
                        for(std::size_t c = 0; c < g.cPerGroup; ++c)
                            for(std::size_t fd = d0; fd < d1; ++fd)
                            {
                                const auto idd = static_cast<std::size_t>(id0 + static_cast<long>(fd) * g.dil[0]);
                                for(std::size_t fh = h0; fh < h1; ++fh)
                                {
                                    const auto ih = static_cast<std::size_t>(ih0 + static_cast<long>(fh) * g.dil[1]);
                                    const auto* xr = xg + c * g.xs[1] + idd * g.xs[2] + ih * g.xs[3];
                                    const auto* wr = wk + c * g.ws[1] + fd * g.ws[2] + fh * g.ws[3];
                                    for(std::size_t fw = w0; fw < w1; ++fw)
                                    {
                                        const auto iw = static_cast<std::size_t>(iw0 + static_cast<long>(fw) * g.dil[2]);
                                        acc += In::load(xr[iw * g.xs[4]]) * In::load(wr[fw * g.ws[4]]);
                                    }
                                }
                            }
                        y[n * g.ys[0] + k * g.ys[1] + od * g.ys[2] + oh * g.ys[3] + ow * g.ys[4]] = Out::store(acc);
                    }
                }
            }
        }
    });
}

// Output index o with o*stride - pad + f*dil == i, if any.
inline bool backwardIndex(const Geometry& g, int d, std::size_t i, std::size_t f, std::size_t& o)
{
    const long t = static_cast<long>(i) + g.pad[d] - static_cast<long>(f) * g.dil[d];
    if(t < 0 || t % g.str[d] != 0)
        return false;
    const long q = t / g.str[d];
    if(q >= static_cast<long>(g.out[d]))
        return false;
    o = static_cast<std::size_t>(q);
    return true;
}

template <class In, class Out>
void backwardDataKernel(const Geometry& g, const void* dyv, const void* wv, void* dxv)
{
    const auto* dy = static_cast<const typename In::T*>(dyv);
    const auto* w  = static_cast<const typename In::T*>(wv);
    auto* dx       = static_cast<typename Out::T*>(dxv);
    parallelFor(g.n * g.c, [&](std::size_t begin, std::size_t end) {
        for(std::size_t item = begin; item < end; ++item)
        {
            const std::size_t n   = item / g.c;
            const std::size_t c   = item % g.c;
            const std::size_t grp = c / g.cPerGroup;
            const std::size_t cg  = c % g.cPerGroup;
            for(std::size_t id = 0; id < g.in[0]; ++id)
                for(std::size_t ih = 0; ih < g.in[1]; ++ih)
                    for(std::size_t iw = 0; iw < g.in[2]; ++iw)
                    {
                        typename In::Acc acc = 0;
                        for(std::size_t kk = 0; kk < g.kPerGroup; ++kk)
                        {
                            const std::size_t k = grp * g.kPerGroup + kk;
                            const auto* dyk     = dy + n * g.ys[0] + k * g.ys[1];
                            const auto* wk      = w + k * g.ws[0] + cg * g.ws[1];
                            for(std::size_t fd = 0; fd < g.fil[0]; ++fd)
                            {
                                std::size_t od;
                                if(!backwardIndex(g, 0, id, fd, od))
                                    continue;
                                for(std::size_t fh = 0; fh < g.fil[1]; ++fh)
                                {
                                    std::size_t oh;
                                    if(!backwardIndex(g, 1, ih, fh, oh))
                                        continue;
                                    for(std::size_t fw = 0; fw < g.fil[2]; ++fw)
                                    {
                                        std::size_t ow;
                                        if(!backwardIndex(g, 2, iw, fw, ow))
                                            continue;
                                        acc += In::load(dyk[od * g.ys[2] + oh * g.ys[3] + ow * g.ys[4]]) *
                                               In::load(wk[fd * g.ws[2] + fh * g.ws[3] + fw * g.ws[4]]);
                                    }
                                }
                            }
                        }
                        dx[n * g.xs[0] + c * g.xs[1] + id * g.xs[2] + ih * g.xs[3] + iw * g.xs[4]] = Out::store(acc);
                    }
        }
    });
}

template <class In, class Out>
void backwardWeightsKernel(const Geometry& g, const void* xv, const void* dyv, void* dwv)
{
    const auto* x  = static_cast<const typename In::T*>(xv);
    const auto* dy = static_cast<const typename In::T*>(dyv);
    auto* dw       = static_cast<typename Out::T*>(dwv);
    parallelFor(g.k * g.cPerGroup, [&](std::size_t begin, std::size_t end) {
        for(std::size_t item = begin; item < end; ++item)
        {
            const std::size_t k   = item / g.cPerGroup;
            const std::size_t cg  = item % g.cPerGroup;
            const std::size_t grp = k / g.kPerGroup;
            const std::size_t c   = grp * g.cPerGroup + cg;
            for(std::size_t fd = 0; fd < g.fil[0]; ++fd)
                for(std::size_t fh = 0; fh < g.fil[1]; ++fh)
                    for(std::size_t fw = 0; fw < g.fil[2]; ++fw)
                    {
                        typename In::Acc acc = 0;
                        for(std::size_t n = 0; n < g.n; ++n)
                        {
                            const auto* xc  = x + n * g.xs[0] + c * g.xs[1];
                            const auto* dyk = dy + n * g.ys[0] + k * g.ys[1];
                            for(std::size_t od = 0; od < g.out[0]; ++od)
                            {
                                const long idd = static_cast<long>(od) * g.str[0] - g.pad[0] +
                                                 static_cast<long>(fd) * g.dil[0];
                                if(idd < 0 || idd >= static_cast<long>(g.in[0]))
                                    continue;
                                for(std::size_t oh = 0; oh < g.out[1]; ++oh)
                                {
                                    const long ih = static_cast<long>(oh) * g.str[1] - g.pad[1] +
                                                    static_cast<long>(fh) * g.dil[1];
                                    if(ih < 0 || ih >= static_cast<long>(g.in[1]))
                                        continue;
                                    // Output columns whose input column lies in range.
                                    const long base = static_cast<long>(fw) * g.dil[2] - g.pad[2];
                                    std::size_t ow0 = 0;
                                    if(base < 0)
                                        ow0 = static_cast<std::size_t>((-base + g.str[2] - 1) / g.str[2]);
                                    const long lastIn = static_cast<long>(g.in[2]) - 1 - base;
                                    std::size_t ow1   = 0;
                                    if(lastIn >= 0)
                                        ow1 = std::min(g.out[2], static_cast<std::size_t>(lastIn / g.str[2] + 1));
                                    const auto* xr  = xc + static_cast<std::size_t>(idd) * g.xs[2] +
                                                     static_cast<std::size_t>(ih) * g.xs[3];
                                    const auto* dyr = dyk + od * g.ys[2] + oh * g.ys[3];
                                    for(std::size_t ow = ow0; ow < ow1; ++ow)
                                    {
                                        const auto iw = static_cast<std::size_t>(
                                            static_cast<long>(ow) * g.str[2] + base);
                                        acc += In::load(xr[iw * g.xs[4]]) * In::load(dyr[ow * g.ys[4]]);
                                    }
                                }
                            }
                        }
                        dw[k * g.ws[0] + cg * g.ws[1] + fd * g.ws[2] + fh * g.ws[3] + fw * g.ws[4]] = Out::store(acc);
                    }
        }
    });
}

// ---- Solvers ----

Applicability commonChecks(const ProblemDescription& p, Direction expected)
{
    if(p.direction() != expected)
        return Applicability::no(std::string("direction is ") + directionName(p.direction()) + ", this solver computes " +
                                 directionName(expected));
    const miopenDataType_t t = p.dataType();
    if(t == miopenInt8)
    {
        if(expected != Direction::Forward)
            return Applicability::no("int8 is supported for Forward only");
        const miopenDataType_t o = p.out().type();
        if(o != miopenInt32 && o != miopenFloat)
            return Applicability::no(std::string("int8 forward needs an int32 or float output, not ") + dataTypeName(o));
        return Applicability::yes();
    }
    if(t != miopenFloat && t != miopenHalf && t != miopenBFloat16)
        return Applicability::no(std::string("data type ") + dataTypeName(t) + " is not supported (fp32, fp16, bf16, int8 forward)");
    if(p.in().type() != t || p.weights().type() != t || p.out().type() != t)
        return Applicability::no("the three tensors must share the data type");
    if(p.spatialDims() < 1 || p.spatialDims() > 3)
        return Applicability::no("only 1..3 spatial dims are supported");
    return Applicability::yes();
}

class NaiveFwd final : public Solver
{
public:
    std::uint64_t id() const noexcept override { return 85; }
    const char* name() const noexcept override { return "ConvDirectNaiveConvFwd"; }
    miopenConvAlgorithm_t algorithm() const noexcept override { return miopenConvolutionAlgoDirect; }
    bool computes(Direction d) const noexcept override { return d == Direction::Forward; }
    Applicability isApplicable(const ProblemDescription& p) const override
    {
        return commonChecks(p, Direction::Forward);
    }
    std::size_t workspaceSize(const ProblemDescription&) const override { return 0; }
    void run(const Handle&, const ProblemDescription& p, const ConvTensors& t, void*, std::size_t) const override
    {
        check(t.in != nullptr && t.wei != nullptr && t.outOut != nullptr, "naive forward: null buffer");
        const Geometry g = detail::makeGeometry(p);
        switch(p.dataType())
        {
        case miopenFloat: forwardKernel<Fp32, StoreFp32>(g, t.in, t.wei, t.outOut); break;
        case miopenHalf: forwardKernel<Fp16, StoreFp16>(g, t.in, t.wei, t.outOut); break;
        case miopenBFloat16: forwardKernel<Bf16, StoreBf16>(g, t.in, t.wei, t.outOut); break;
        case miopenInt8:
            if(p.out().type() == miopenInt32)
                forwardKernel<Int8, StoreInt32>(g, t.in, t.wei, t.outOut);
            else
                forwardKernel<Int8, StoreFp32>(g, t.in, t.wei, t.outOut);
            break;
        default: fail(miopenStatusBadParm, "naive forward: unsupported data type");
        }
    }
};

class NaiveBwd final : public Solver
{
public:
    std::uint64_t id() const noexcept override { return 86; }
    const char* name() const noexcept override { return "ConvDirectNaiveConvBwd"; }
    miopenConvAlgorithm_t algorithm() const noexcept override { return miopenConvolutionAlgoDirect; }
    bool computes(Direction d) const noexcept override { return d == Direction::BackwardData; }
    Applicability isApplicable(const ProblemDescription& p) const override
    {
        return commonChecks(p, Direction::BackwardData);
    }
    std::size_t workspaceSize(const ProblemDescription&) const override { return 0; }
    void run(const Handle&, const ProblemDescription& p, const ConvTensors& t, void*, std::size_t) const override
    {
        check(t.out != nullptr && t.wei != nullptr && t.inOut != nullptr, "naive backward data: null buffer");
        const Geometry g = detail::makeGeometry(p);
        switch(p.dataType())
        {
        case miopenFloat: backwardDataKernel<Fp32, StoreFp32>(g, t.out, t.wei, t.inOut); break;
        case miopenHalf: backwardDataKernel<Fp16, StoreFp16>(g, t.out, t.wei, t.inOut); break;
        case miopenBFloat16: backwardDataKernel<Bf16, StoreBf16>(g, t.out, t.wei, t.inOut); break;
        default: fail(miopenStatusBadParm, "naive backward data: unsupported data type");
        }
    }
};

class NaiveWrw final : public Solver
{
public:
    std::uint64_t id() const noexcept override { return 87; }
    const char* name() const noexcept override { return "ConvDirectNaiveConvWrw"; }
    miopenConvAlgorithm_t algorithm() const noexcept override { return miopenConvolutionAlgoDirect; }
    bool computes(Direction d) const noexcept override { return d == Direction::BackwardWeights; }
    Applicability isApplicable(const ProblemDescription& p) const override
    {
        return commonChecks(p, Direction::BackwardWeights);
    }
    std::size_t workspaceSize(const ProblemDescription&) const override { return 0; }
    void run(const Handle&, const ProblemDescription& p, const ConvTensors& t, void*, std::size_t) const override
    {
        check(t.in != nullptr && t.out != nullptr && t.weiOut != nullptr, "naive backward weights: null buffer");
        const Geometry g = detail::makeGeometry(p);
        switch(p.dataType())
        {
        case miopenFloat: backwardWeightsKernel<Fp32, StoreFp32>(g, t.in, t.out, t.weiOut); break;
        case miopenHalf: backwardWeightsKernel<Fp16, StoreFp16>(g, t.in, t.out, t.weiOut); break;
        case miopenBFloat16: backwardWeightsKernel<Bf16, StoreBf16>(g, t.in, t.out, t.weiOut); break;
        default: fail(miopenStatusBadParm, "naive backward weights: unsupported data type");
        }
    }
};

} // namespace

std::vector<const Solver*> naiveSolvers()
{
    static const NaiveFwd fwd;
    static const NaiveBwd bwd;
    static const NaiveWrw wrw;
    return {&fwd, &bwd, &wrw};
}

} // namespace conv
} // namespace miopen
