// An independent plain-loop CPU reference for convolution: forward, backward data and backward
// weights, 1..3 spatial dims, groups, pads, strides, dilations, any tensor strides (so any
// layout), computed in double.
//
// Self-contained on purpose: it includes no MIOpen internal header (only <miopen/miopen.h> for the
// data type enum), so every test in the repository can check any implementation against it.
//
// Conventions (regular convolution roles, as in MIOpen):
//   x  (N, C, in spatial...)     w (K, C/G, filter spatial...)     y (N, K, out spatial...)
//   out = floor((in + 2*pad - dil*(f-1) - 1) / stride) + 1
// A tensor is given as a double array plus lengths and strides in elements, both in N, C,
// spatial... order (for the filter: K, C/G, spatial...). Only the logical elements of the written
// tensor are stored; padding between strided elements is left untouched.
#pragma once

#include <miopen/miopen.h>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

namespace conv_reference {

struct Tensor
{
    std::vector<std::size_t> lens;    // N, C, spatial... (filter: K, C/G, spatial...)
    std::vector<std::size_t> strides; // elements, same order as lens

    std::size_t elementCount() const
    {
        std::size_t n = 1;
        for(auto l : lens)
            n *= l;
        return n;
    }
    // Elements spanned by the tensor: 1 + sum((len - 1) * stride).
    std::size_t elementSpace() const
    {
        std::size_t s = 1;
        for(std::size_t i = 0; i < lens.size(); ++i)
            s += (lens[i] - 1) * strides[i];
        return s;
    }
};

struct ConvParams
{
    std::vector<int> pads;      // one per spatial dim
    std::vector<int> strides;   // one per spatial dim
    std::vector<int> dilations; // one per spatial dim
    int groups = 1;

    int spatialDims() const { return static_cast<int>(pads.size()); }
};

// Output length of one spatial dim (0 when the dilated filter does not fit).
inline std::size_t outputLength(std::size_t in, std::size_t filter, int pad, int stride, int dilation)
{
    const long long padded = static_cast<long long>(in) + 2LL * pad;
    const long long eff    = static_cast<long long>(dilation) * (static_cast<long long>(filter) - 1) + 1;
    if(padded < eff)
        return 0;
    return static_cast<std::size_t>((padded - eff) / stride + 1);
}

// Packed strides for lengths in N, C, spatial... order and a memory order given as a string of
// dimension letters, e.g. "NCHW", "NHWC", "NCDHW", "NDHWC", "NCW", "NWC", or any permutation
// ("CHWN"). The letters name N, C and then the spatial dims (D, H, W as far as present).
inline std::vector<std::size_t> packedStrides(const std::vector<std::size_t>& lens, const std::string& order)
{
    const std::size_t rank = lens.size();
    if(order.size() != rank || rank < 3)
        throw std::invalid_argument("conv_reference::packedStrides: order '" + order + "' does not match rank");
    const std::string spatialNames = rank == 3 ? "W" : rank == 4 ? "HW" : "DHW";
    auto dimOf                     = [&](char ch) -> std::size_t {
        if(ch == 'N' || ch == 'K')
            return 0;
        if(ch == 'C')
            return 1;
        const auto p = spatialNames.find(ch);
        if(p == std::string::npos)
            throw std::invalid_argument(std::string("conv_reference::packedStrides: bad letter ") + ch);
        return 2 + p;
    };
    std::vector<std::size_t> strides(rank, 0);
    std::size_t s = 1;
    for(std::size_t i = rank; i-- > 0;)
    {
        const std::size_t d = dimOf(order[i]);
        strides[d]          = s;
        s *= lens[d];
    }
    return strides;
}

inline Tensor makeTensor(const std::vector<std::size_t>& lens, const std::string& order)
{
    return Tensor{lens, packedStrides(lens, order)};
}

namespace detail {

// Geometry normalised to 3 spatial dims (missing outer dims have length 1).
struct Geo3
{
    std::size_t n = 0, c = 0, k = 0, g = 1;
    std::size_t in[3]{1, 1, 1}, out[3]{1, 1, 1}, fil[3]{1, 1, 1};
    long long pad[3]{0, 0, 0}, str[3]{1, 1, 1}, dil[3]{1, 1, 1};
    std::size_t xs[5]{}, ws[5]{}, ys[5]{}; // strides: N/K, C, D, H, W
};

inline void spread(const Tensor& t, std::size_t* lens3, std::size_t* strides5)
{
    const std::size_t sd = t.lens.size() - 2;
    strides5[0]          = t.strides[0];
    strides5[1]          = t.strides[1];
    for(std::size_t i = 0; i < 3; ++i)
    {
        const std::size_t off = 3 - sd; // spatial dim j of the tensor lands at 3-sd+j
        if(i < off)
        {
            if(lens3)
                lens3[i] = 1;
            strides5[2 + i] = 0;
        }
        else
        {
            if(lens3)
                lens3[i] = t.lens[2 + i - off];
            strides5[2 + i] = t.strides[2 + i - off];
        }
    }
}

inline Geo3 makeGeo(const ConvParams& p, const Tensor& x, const Tensor& w, const Tensor& y)
{
    const std::size_t sd = static_cast<std::size_t>(p.spatialDims());
    if(sd < 1 || sd > 3)
        throw std::invalid_argument("conv_reference: 1..3 spatial dims");
    if(p.strides.size() != sd || p.dilations.size() != sd || x.lens.size() != sd + 2 ||
       w.lens.size() != sd + 2 || y.lens.size() != sd + 2 || x.strides.size() != sd + 2 ||
       w.strides.size() != sd + 2 || y.strides.size() != sd + 2)
        throw std::invalid_argument("conv_reference: rank mismatch");
    if(p.groups < 1)
        throw std::invalid_argument("conv_reference: groups must be >= 1");
    Geo3 g;
    g.n = x.lens[0];
    g.c = x.lens[1];
    g.k = w.lens[0];
    g.g = static_cast<std::size_t>(p.groups);
    if(y.lens[0] != g.n || y.lens[1] != g.k || g.c % g.g != 0 || g.k % g.g != 0 || w.lens[1] * g.g != g.c)
        throw std::invalid_argument("conv_reference: channel/group mismatch");
    spread(x, g.in, g.xs);
    spread(w, g.fil, g.ws);
    spread(y, g.out, g.ys);
    const std::size_t off = 3 - sd;
    for(std::size_t i = 0; i < sd; ++i)
    {
        g.pad[off + i] = p.pads[i];
        g.str[off + i] = p.strides[i];
        g.dil[off + i] = p.dilations[i];
        if(p.strides[i] < 1 || p.dilations[i] < 1 || p.pads[i] < 0)
            throw std::invalid_argument("conv_reference: bad stride/dilation/pad");
        if(outputLength(x.lens[2 + i], w.lens[2 + i], p.pads[i], p.strides[i], p.dilations[i]) != y.lens[2 + i])
            throw std::invalid_argument("conv_reference: output length mismatch in dim " + std::to_string(i));
    }
    return g;
}

inline std::size_t at(const std::size_t* s, std::size_t a, std::size_t b, std::size_t d, std::size_t h, std::size_t w)
{
    return a * s[0] + b * s[1] + d * s[2] + h * s[3] + w * s[4];
}

} // namespace detail

// y = conv(x, w)
inline void forward(const ConvParams& p,
                    const Tensor& x, const double* xData,
                    const Tensor& w, const double* wData,
                    const Tensor& y, double* yData)
{
    const detail::Geo3 g  = detail::makeGeo(p, x, w, y);
    const std::size_t cpg = g.c / g.g, kpg = g.k / g.g;
    for(std::size_t n = 0; n < g.n; ++n)
        for(std::size_t k = 0; k < g.k; ++k)
        {
            const std::size_t grp = k / kpg;
            for(std::size_t od = 0; od < g.out[0]; ++od)
                for(std::size_t oh = 0; oh < g.out[1]; ++oh)
                    for(std::size_t ow = 0; ow < g.out[2]; ++ow)
                    {
                        double acc = 0.0;
                        for(std::size_t c = 0; c < cpg; ++c)
                            for(std::size_t fd = 0; fd < g.fil[0]; ++fd)
                            {
                                const long long id = static_cast<long long>(od) * g.str[0] - g.pad[0] +
                                                     static_cast<long long>(fd) * g.dil[0];
                                if(id < 0 || id >= static_cast<long long>(g.in[0]))
                                    continue;
                                for(std::size_t fh = 0; fh < g.fil[1]; ++fh)
                                {
                                    const long long ih = static_cast<long long>(oh) * g.str[1] - g.pad[1] +
                                                         static_cast<long long>(fh) * g.dil[1];
                                    if(ih < 0 || ih >= static_cast<long long>(g.in[1]))
                                        continue;
                                    for(std::size_t fw = 0; fw < g.fil[2]; ++fw)
                                    {
                                        const long long iw = static_cast<long long>(ow) * g.str[2] - g.pad[2] +
                                                             static_cast<long long>(fw) * g.dil[2];
                                        if(iw < 0 || iw >= static_cast<long long>(g.in[2]))
                                            continue;
                                        acc += xData[detail::at(g.xs, n, grp * cpg + c, static_cast<std::size_t>(id),
                                                                static_cast<std::size_t>(ih),
                                                                static_cast<std::size_t>(iw))] *
                                               wData[detail::at(g.ws, k, c, fd, fh, fw)];
                                    }
                                }
                            }
                        yData[detail::at(g.ys, n, k, od, oh, ow)] = acc;
                    }
        }
}

// dx = conv_backward_data(dy, w)
inline void backwardData(const ConvParams& p,
                         const Tensor& dx, double* dxData,
                         const Tensor& w, const double* wData,
                         const Tensor& dy, const double* dyData)
{
    const detail::Geo3 g  = detail::makeGeo(p, dx, w, dy);
    const std::size_t cpg = g.c / g.g, kpg = g.k / g.g;
    // For input index i and filter tap f the output index is (i + pad - f*dil) / stride when
    // that divides exactly and lies in range.
    auto outIndex = [&](int dim, std::size_t i, std::size_t f, std::size_t& o) {
        const long long t = static_cast<long long>(i) + g.pad[dim] - static_cast<long long>(f) * g.dil[dim];
        if(t < 0 || t % g.str[dim] != 0)
            return false;
        const long long q = t / g.str[dim];
        if(q >= static_cast<long long>(g.out[dim]))
            return false;
        o = static_cast<std::size_t>(q);
        return true;
    };
    for(std::size_t n = 0; n < g.n; ++n)
        for(std::size_t c = 0; c < g.c; ++c)
        {
            const std::size_t grp = c / cpg;
            for(std::size_t id = 0; id < g.in[0]; ++id)
                for(std::size_t ih = 0; ih < g.in[1]; ++ih)
                    for(std::size_t iw = 0; iw < g.in[2]; ++iw)
                    {
                        double acc = 0.0;
                        for(std::size_t kk = 0; kk < kpg; ++kk)
                        {
                            const std::size_t k = grp * kpg + kk;
                            for(std::size_t fd = 0; fd < g.fil[0]; ++fd)
                            {
                                std::size_t od;
                                if(!outIndex(0, id, fd, od))
                                    continue;
                                for(std::size_t fh = 0; fh < g.fil[1]; ++fh)
                                {
                                    std::size_t oh;
                                    if(!outIndex(1, ih, fh, oh))
                                        continue;
                                    for(std::size_t fw = 0; fw < g.fil[2]; ++fw)
                                    {
                                        std::size_t ow;
                                        if(!outIndex(2, iw, fw, ow))
                                            continue;
                                        acc += dyData[detail::at(g.ys, n, k, od, oh, ow)] *
                                               wData[detail::at(g.ws, k, c - grp * cpg, fd, fh, fw)];
                                    }
                                }
                            }
                        }
                        dxData[detail::at(g.xs, n, c, id, ih, iw)] = acc;
                    }
        }
}

// dw = conv_backward_weights(x, dy)
inline void backwardWeights(const ConvParams& p,
                            const Tensor& x, const double* xData,
                            const Tensor& dw, double* dwData,
                            const Tensor& dy, const double* dyData)
{
    const detail::Geo3 g  = detail::makeGeo(p, x, dw, dy);
    const std::size_t cpg = g.c / g.g, kpg = g.k / g.g;
    for(std::size_t k = 0; k < g.k; ++k)
    {
        const std::size_t grp = k / kpg;
        for(std::size_t c = 0; c < cpg; ++c)
            for(std::size_t fd = 0; fd < g.fil[0]; ++fd)
                for(std::size_t fh = 0; fh < g.fil[1]; ++fh)
                    for(std::size_t fw = 0; fw < g.fil[2]; ++fw)
                    {
                        double acc = 0.0;
                        for(std::size_t n = 0; n < g.n; ++n)
                            for(std::size_t od = 0; od < g.out[0]; ++od)
                            {
                                const long long id = static_cast<long long>(od) * g.str[0] - g.pad[0] +
                                                     static_cast<long long>(fd) * g.dil[0];
                                if(id < 0 || id >= static_cast<long long>(g.in[0]))
                                    continue;
                                for(std::size_t oh = 0; oh < g.out[1]; ++oh)
                                {
                                    const long long ih = static_cast<long long>(oh) * g.str[1] - g.pad[1] +
                                                         static_cast<long long>(fh) * g.dil[1];
                                    if(ih < 0 || ih >= static_cast<long long>(g.in[1]))
                                        continue;
                                    for(std::size_t ow = 0; ow < g.out[2]; ++ow)
                                    {
                                        const long long iw = static_cast<long long>(ow) * g.str[2] - g.pad[2] +
                                                             static_cast<long long>(fw) * g.dil[2];
                                        if(iw < 0 || iw >= static_cast<long long>(g.in[2]))
                                            continue;
                                        acc += xData[detail::at(g.xs, n, grp * cpg + c, static_cast<std::size_t>(id),
                                                                static_cast<std::size_t>(ih),
                                                                static_cast<std::size_t>(iw))] *
                                               dyData[detail::at(g.ys, n, k, od, oh, ow)];
                                    }
                                }
                            }
                        dwData[detail::at(g.ws, k, c, fd, fh, fw)] = acc;
                    }
    }
}

// ---- Element conversion (self-contained; IEEE half, bfloat16, int8, int32, float, double) ----

inline double halfBitsToDouble(std::uint16_t h)
{
    const int sign = (h >> 15) & 1;
    const int exp  = (h >> 10) & 0x1f;
    const int mant = h & 0x3ff;
    double v;
    if(exp == 0)
        v = std::ldexp(static_cast<double>(mant), -24);
    else if(exp == 31)
        v = mant ? std::nan("") : HUGE_VAL;
    else
        v = std::ldexp(static_cast<double>(mant + 1024), exp - 25);
    return sign ? -v : v;
}

inline double bfloat16BitsToDouble(std::uint16_t b)
{
    const std::uint32_t bits = static_cast<std::uint32_t>(b) << 16;
    float f;
    std::memcpy(&f, &bits, sizeof f);
    return f;
}

inline std::size_t elementSize(miopenDataType_t t)
{
    switch(t)
    {
    case miopenHalf:
    case miopenBFloat16: return 2;
    case miopenFloat:
    case miopenInt32: return 4;
    case miopenInt8: return 1;
    case miopenDouble: return 8;
    default: throw std::invalid_argument("conv_reference: unsupported data type");
    }
}

// Element i of a buffer of type t, as double.
inline double loadElement(miopenDataType_t t, const void* base, std::size_t i)
{
    const auto* b = static_cast<const unsigned char*>(base);
    switch(t)
    {
    case miopenHalf: {
        std::uint16_t v;
        std::memcpy(&v, b + 2 * i, 2);
        return halfBitsToDouble(v);
    }
    case miopenBFloat16: {
        std::uint16_t v;
        std::memcpy(&v, b + 2 * i, 2);
        return bfloat16BitsToDouble(v);
    }
    case miopenFloat: {
        float v;
        std::memcpy(&v, b + 4 * i, 4);
        return v;
    }
    case miopenInt32: {
        std::int32_t v;
        std::memcpy(&v, b + 4 * i, 4);
        return v;
    }
    case miopenInt8: return static_cast<double>(static_cast<std::int8_t>(b[i]));
    case miopenDouble: {
        double v;
        std::memcpy(&v, b + 8 * i, 8);
        return v;
    }
    default: throw std::invalid_argument("conv_reference: unsupported data type");
    }
}

// The first n elements of a buffer of type t, as doubles (n = Tensor::elementSpace()).
inline std::vector<double> toDouble(miopenDataType_t t, const void* base, std::size_t n)
{
    std::vector<double> v(n);
    for(std::size_t i = 0; i < n; ++i)
        v[i] = loadElement(t, base, i);
    return v;
}

// ---- Comparison helpers ----

// Largest |ref| over the logical elements of a tensor.
inline double maxAbs(const Tensor& t, const std::vector<double>& data)
{
    double m = 0.0;
    std::vector<std::size_t> idx(t.lens.size(), 0);
    const std::size_t count = t.elementCount();
    for(std::size_t e = 0; e < count; ++e)
    {
        std::size_t off = 0;
        for(std::size_t d = 0; d < idx.size(); ++d)
            off += idx[d] * t.strides[d];
        m = std::fmax(m, std::fabs(data[off]));
        for(std::size_t d = idx.size(); d-- > 0;)
        {
            if(++idx[d] < t.lens[d])
                break;
            idx[d] = 0;
        }
    }
    return m;
}

// Largest |a - b| over the logical elements (NaN in either counts as infinite error).
inline double maxAbsDiff(const Tensor& t, const std::vector<double>& a, const std::vector<double>& b)
{
    double m = 0.0;
    std::vector<std::size_t> idx(t.lens.size(), 0);
    const std::size_t count = t.elementCount();
    for(std::size_t e = 0; e < count; ++e)
    {
        std::size_t off = 0;
        for(std::size_t d = 0; d < idx.size(); ++d)
            off += idx[d] * t.strides[d];
        const double diff = std::fabs(a[off] - b[off]);
        m                 = std::isnan(diff) ? HUGE_VAL : std::fmax(m, diff);
        for(std::size_t d = idx.size(); d-- > 0;)
        {
            if(++idx[d] < t.lens[d])
                break;
            idx[d] = 0;
        }
    }
    return m;
}

} // namespace conv_reference
