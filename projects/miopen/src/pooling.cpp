#include <miopen/float_storage.hpp>
#include <miopen/logger.hpp>
#include <miopen/pooling.hpp>
#include <miopen/threading.hpp>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <limits>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

namespace miopen {
namespace {

// 2-D pooling is computed as 3-D pooling with a depth of 1 (window 1, padding 0, stride 1), so
// one set of loops serves both; the index formulas of miopen.h agree for a depth of 1.
struct Geometry
{
    std::size_t n = 0, c = 0;
    std::int64_t in[3]  = {1, 1, 1};
    std::int64_t out[3] = {1, 1, 1};
    std::int64_t k[3]   = {1, 1, 1};
    std::int64_t pad[3] = {0, 0, 0};
    std::int64_t str[3] = {1, 1, 1};

    std::int64_t inPlane() const { return in[0] * in[1] * in[2]; }
    std::int64_t outPlane() const { return out[0] * out[1] * out[2]; }
    std::int64_t windowSize() const { return k[0] * k[1] * k[2]; }
};

// Element strides of a N, C, spatial... tensor, widened to N, C, D, H, W (depth stride 0 in 2-D).
struct Strides
{
    std::size_t n = 0, c = 0, s[3] = {0, 0, 0};
};

Strides stridesOf(const TensorDescriptor& d)
{
    Strides s;
    s.n          = d.stride(0);
    s.c          = d.stride(1);
    const auto r = d.numDims() - 2;
    for(std::size_t i = 0; i < r; ++i)
        s.s[3 - r + i] = d.stride(2 + i);
    return s;
}

Geometry geometryOf(const PoolingDescriptor& p, const TensorDescriptor& x)
{
    Geometry g;
    g.n          = x.len(0);
    g.c          = x.len(1);
    const auto r = p.spatialDims();
    const auto y = p.outputLengths(x);
    for(std::size_t i = 0; i < r; ++i)
    {
        const std::size_t j = 3 - r + i;
        g.in[j]             = static_cast<std::int64_t>(x.len(2 + i));
        g.out[j]            = static_cast<std::int64_t>(y[2 + i]);
        g.k[j]              = p.window()[i];
        g.pad[j]            = p.pads()[i];
        g.str[j]            = p.strides()[i];
    }
    return g;
}

std::uint64_t indexTypeMax(miopenIndexType_t t)
{
    switch(t)
    {
    case miopenIndexUint8: return std::numeric_limits<std::uint8_t>::max();
    case miopenIndexUint16: return std::numeric_limits<std::uint16_t>::max();
    case miopenIndexUint32: return std::numeric_limits<std::uint32_t>::max();
    case miopenIndexUint64: return std::numeric_limits<std::uint64_t>::max();
    }
    fail(miopenStatusBadParm, "unknown index type");
}

template <class F>
void visitIndexType(miopenIndexType_t t, F&& f)
{
    switch(t)
    {
    case miopenIndexUint8: f(std::uint8_t{}); return;
    case miopenIndexUint16: f(std::uint16_t{}); return;
    case miopenIndexUint32: f(std::uint32_t{}); return;
    case miopenIndexUint64: f(std::uint64_t{}); return;
    }
    fail(miopenStatusBadParm, "unknown index type");
}

void checkUnitScalars(const void* alpha, const void* beta)
{
    check(alpha != nullptr, "alpha is null");
    check(beta != nullptr, "beta is null");
    float a, b;
    std::memcpy(&a, alpha, sizeof a);
    std::memcpy(&b, beta, sizeof b);
    if(a != 1.0f || b != 0.0f)
        fail(miopenStatusUnknownError,
             "pooling supports only alpha = 1 and beta = 0 (got alpha = " + std::to_string(a) +
                 ", beta = " + std::to_string(b) + ")");
}

std::string lensString(const std::vector<std::size_t>& l)
{
    std::string s;
    for(std::size_t i = 0; i < l.size(); ++i)
        s += (i ? "x" : "") + std::to_string(l[i]);
    return s;
}

// Planes per parallel chunk so a chunk holds at least ~32K element operations.
std::size_t planeGrain(std::int64_t opsPerPlane)
{
    const auto ops = static_cast<std::size_t>(std::max<std::int64_t>(1, opsPerPlane));
    return std::max<std::size_t>(1, (std::size_t{1} << 15) / ops);
}

std::int64_t clampLow(std::int64_t v) { return v < 0 ? 0 : v; }

// What a forward row computes: the maximum alone, the maximum and its index (do_backward), or a
// sum that the finish divides by the mode's divisor.
enum class RowKind
{
    Max,
    MaxIndexed,
    Average,
};

struct RowArgs
{
    const Geometry& g;
    const Strides& xs;
    const Strides& ys;
    bool maskIndex;
    miopenPoolingMode_t mode;
};

// The outputs of a row whose window tap kw lies inside the input, [lo, hi): the ow with
// 0 <= ow * stride - pad + kw < in.
struct TapRange
{
    std::int64_t lo, hi;
};

TapRange tapRange(std::int64_t kw, std::int64_t stride, std::int64_t pad, std::int64_t in, std::int64_t out)
{
    const std::int64_t first = pad - kw;          // ow * stride >= first
    const std::int64_t last  = in - 1 + pad - kw; // ow * stride <= last
    return {first <= 0 ? 0 : (first + stride - 1) / stride, last < 0 ? 0 : std::min(out, last / stride + 1)};
}

// One window tap over a run of outputs: acc[i] op= x at src[i * step]. kStep is the step when
// known at compile time (1 or 2, so the loads vectorise), 0 when it is `step`. The strict >
// keeps the earlier tap on a tie, and `v > a ? v : a` is one max instruction that keeps `a` when
// either is NaN, as the scalar loop did.
template <class Tag, std::size_t kStep>
void sumTap(float* __restrict acc, const typename Tag::Bits* __restrict src, std::size_t step, std::int64_t count)
{
    const std::size_t s = kStep != 0 ? kStep : step;
    for(std::int64_t i = 0; i < count; ++i)
        acc[i] += Tag::load(src[static_cast<std::size_t>(i) * s]);
}

template <class Tag, std::size_t kStep>
void maxTap(float* __restrict acc, const typename Tag::Bits* __restrict src, std::size_t step, std::int64_t count)
{
    const std::size_t s = kStep != 0 ? kStep : step;
    for(std::int64_t i = 0; i < count; ++i)
    {
        const float v = Tag::load(src[static_cast<std::size_t>(i) * s]);
        acc[i]        = v > acc[i] ? v : acc[i];
    }
}

// As maxTap, also setting best[i] = tap where the tap becomes the maximum. The blend is integer
// masks of the width of the compare (a select between two types does not vectorise).
template <class Tag, class Tap, std::size_t kStep>
void maxTapIndexed(float* __restrict acc,
                   Tap* __restrict best,
                   const typename Tag::Bits* __restrict src,
                   std::size_t step,
                   std::int64_t count,
                   Tap tap)
{
    const std::size_t s = kStep != 0 ? kStep : step;
    for(std::int64_t i = 0; i < count; ++i)
    {
        const float v   = Tag::load(src[static_cast<std::size_t>(i) * s]);
        const float cur = acc[i];
        const Tap m     = static_cast<Tap>(-static_cast<Tap>(v > cur));
        acc[i]          = v > cur ? v : cur;
        best[i]         = static_cast<Tap>((tap & m) | (best[i] & ~m));
    }
}

// Pooling forward by output rows (n, c, od, oh), the rows split over the threads. Within a row
// the window taps (d, h, w) run in window order as the outer loops and the row's outputs as the
// inner one: a strided walk along one input row with no per-element index arithmetic or mode
// test. Every output still meets its taps in window order, so sums add in the order of a
// per-output loop (same bits) and the strict > keeps the first maximum (same index). Rows of
// fewer than kMinTapMajorRow outputs run output-major instead, with the same order per output.
// MaxIndexed tracks per output a Tap number that is the same for the whole row: the Mask index
// itself, or for Image the index less ow * stride; the finish adds that back and writes the
// index type. kNoTap marks an output whose elements were all at most the lowest value (index 0).
// Rows narrower than this run output-major (see forwardRows).
constexpr std::int64_t kMinTapMajorRow = 8;

template <class Tag, RowKind K, class Index = std::uint8_t, class Tap = std::int32_t>
void forwardRows(const RowArgs& a, const typename Tag::Bits* xp, typename Tag::Bits* yp, Index* wp)
{
    using Bits                     = typename Tag::Bits;
    constexpr Tap kNoTap           = std::numeric_limits<Tap>::min();
    const Geometry& g              = a.g;
    const std::int64_t ow          = g.out[2];
    const std::size_t rowsPerPlane = static_cast<std::size_t>(g.out[0] * g.out[1]);
    const std::size_t rows         = g.n * g.c * rowsPerPlane;
    const std::size_t step         = static_cast<std::size_t>(g.str[2]) * a.xs.s[2];
    const std::size_t grain        = std::max<std::size_t>(
        1, (std::size_t{1} << 15) / static_cast<std::size_t>(std::max<std::int64_t>(1, ow * g.windowSize())));
    parallelFor(
        rows,
        [&](std::size_t begin, std::size_t end) {
            std::vector<float> accRow(static_cast<std::size_t>(ow));
            std::vector<Tap> bestRow(K == RowKind::MaxIndexed ? static_cast<std::size_t>(ow) : 0);
            float* acc = accRow.data();
            Tap* best  = bestRow.data();
            for(std::size_t row = begin; row < end; ++row)
            {
                const std::size_t plane = row / rowsPerPlane;
                const auto rowInPlane   = static_cast<std::int64_t>(row % rowsPerPlane);
                const std::int64_t od = rowInPlane / g.out[1], oh = rowInPlane % g.out[1];
                const std::size_t n = plane / g.c, c = plane % g.c;
                const Bits* xPlane  = xp + n * a.xs.n + c * a.xs.c;
                Bits* yRow = yp + n * a.ys.n + c * a.ys.c + static_cast<std::size_t>(od) * a.ys.s[0] +
                             static_cast<std::size_t>(oh) * a.ys.s[1];
                const std::int64_t d0 = od * g.str[0] - g.pad[0];
                const std::int64_t h0 = oh * g.str[1] - g.pad[1];
                const std::int64_t d1 = std::min(d0 + g.k[0], g.in[0]);
                const std::int64_t h1 = std::min(h0 + g.k[1], g.in[1]);
                std::fill(acc, acc + ow, K == RowKind::Average ? 0.0f : Tag::kLowest);
                if constexpr(K == RowKind::MaxIndexed)
                    std::fill(best, best + ow, kNoTap);
                if(ow < kMinTapMajorRow)
                {
                    // Few outputs per row (global pooling): per output, its taps in window order,
                    // the run along an input row innermost; the tap-major loops would pay their
                    // per-tap set-up for one or two outputs.
                    for(std::int64_t o = 0; o < ow; ++o)
                    {
                        const std::int64_t w0  = o * g.str[2] - g.pad[2];
                        const std::int64_t kw0 = clampLow(-w0), kw1 = std::min(g.k[2], g.in[2] - w0);
                        float r                = acc[o];
                        Tap bt                 = kNoTap;
                        for(std::int64_t d = clampLow(d0); d < d1; ++d)
                            for(std::int64_t h = clampLow(h0); h < h1; ++h)
                            {
                                const Bits* xRow = xPlane + static_cast<std::size_t>(d) * a.xs.s[0] +
                                                   static_cast<std::size_t>(h) * a.xs.s[1];
                                const std::int64_t tapBase = a.maskIndex ? ((d - d0) * g.k[1] + (h - h0)) * g.k[2]
                                                                         : (d * g.in[1] + h) * g.in[2] - g.pad[2];
                                for(std::int64_t kw = kw0; kw < kw1; ++kw)
                                {
                                    const float v = Tag::load(xRow[static_cast<std::size_t>(w0 + kw) * a.xs.s[2]]);
                                    if constexpr(K == RowKind::Average)
                                        r += v;
                                    else
                                    {
                                        const bool gt = v > r;
                                        r             = gt ? v : r;
                                        if constexpr(K == RowKind::MaxIndexed)
                                            bt = gt ? static_cast<Tap>(tapBase + kw) : bt;
                                    }
                                }
                            }
                        acc[o] = r;
                        if constexpr(K == RowKind::MaxIndexed)
                            best[o] = bt;
                    }
                }
                else
                {
                    for(std::int64_t d = clampLow(d0); d < d1; ++d)
                        for(std::int64_t h = clampLow(h0); h < h1; ++h)
                        {
                            const Bits* xRow = xPlane + static_cast<std::size_t>(d) * a.xs.s[0] +
                                               static_cast<std::size_t>(h) * a.xs.s[1];
                            for(std::int64_t kw = 0; kw < g.k[2]; ++kw)
                            {
                                const TapRange t = tapRange(kw, g.str[2], g.pad[2], g.in[2], ow);
                                if(t.lo >= t.hi)
                                    continue;
                                const std::int64_t w = t.lo * g.str[2] - g.pad[2] + kw; // first input column
                                const Bits* src      = xRow + static_cast<std::size_t>(w) * a.xs.s[2];
                                const std::int64_t count = t.hi - t.lo;
                                const Tap tap            = static_cast<Tap>(
                                    a.maskIndex ? ((d - d0) * g.k[1] + (h - h0)) * g.k[2] + kw
                                                           : (d * g.in[1] + h) * g.in[2] + kw - g.pad[2]);
                                auto run = [&](auto stepConst) {
                                    constexpr std::size_t kStep = decltype(stepConst)::value;
                                    if constexpr(K == RowKind::Average)
                                        sumTap<Tag, kStep>(acc + t.lo, src, step, count);
                                    else if constexpr(K == RowKind::Max)
                                        maxTap<Tag, kStep>(acc + t.lo, src, step, count);
                                    else
                                        maxTapIndexed<Tag, Tap, kStep>(acc + t.lo, best + t.lo, src, step, count, tap);
                                };
                                if(step == 1)
                                    run(std::integral_constant<std::size_t, 1>{});
                                else if(step == 2)
                                    run(std::integral_constant<std::size_t, 2>{});
                                else
                                    run(std::integral_constant<std::size_t, 0>{});
                            }
                        }
                }
                for(std::int64_t o = 0; o < ow; ++o)
                {
                    float res = acc[o];
                    if constexpr(K == RowKind::Average)
                    {
                        if(a.mode == miopenPoolingAverage)
                        {
                            const std::int64_t w0     = o * g.str[2] - g.pad[2];
                            const std::int64_t w1     = std::min(w0 + g.k[2], g.in[2]);
                            const std::int64_t inside = (d1 - clampLow(d0)) * (h1 - clampLow(h0)) * (w1 - clampLow(w0));
                            res /= static_cast<float>(inside > 0 ? inside : 1);
                        }
                        else
                            res /= static_cast<float>(g.windowSize());
                    }
                    yRow[static_cast<std::size_t>(o) * a.ys.s[2]] = Tag::store(res);
                }
                if constexpr(K == RowKind::MaxIndexed)
                {
                    // The workspace is packed as y: this row's indices are contiguous.
                    Index* ws = wp + row * static_cast<std::size_t>(ow);
                    for(std::int64_t o = 0; o < ow; ++o)
                        ws[o] = best[o] == kNoTap ? Index{0}
                                : a.maskIndex     ? static_cast<Index>(best[o])
                                                  : static_cast<Index>(best[o] + o * g.str[2]);
                }
            }
        },
        grain);
}

// Whether the Tap numbers of forwardRows fit an int32 (otherwise int64 is used): the Mask index
// is below the window size; the Image tap lies in [-pad, in plane + window width).
bool tapsFitInt32(const Geometry& g, bool maskIndex)
{
    constexpr std::int64_t kLimit = std::numeric_limits<std::int32_t>::max() - 1;
    return maskIndex ? g.windowSize() < kLimit : g.inPlane() + g.k[2] < kLimit && g.pad[2] < kLimit;
}

} // namespace

std::size_t indexTypeSize(miopenIndexType_t t)
{
    switch(t)
    {
    case miopenIndexUint8: return 1;
    case miopenIndexUint16: return 2;
    case miopenIndexUint32: return 4;
    case miopenIndexUint64: return 8;
    }
    fail(miopenStatusBadParm, "unknown index type");
}

void PoolingDescriptor::set(miopenPoolingMode_t mode,
                            const std::vector<int>& window,
                            const std::vector<int>& pads,
                            const std::vector<int>& strides)
{
    const auto r = window.size();
    check(r == 2 || r == 3, "pooling rank must be 2 or 3");
    check(pads.size() == r && strides.size() == r, "pooling arrays differ in length");
    for(std::size_t i = 0; i < r; ++i)
    {
        check(window[i] >= 1, "pooling window lengths must be >= 1");
        check(strides[i] >= 1, "pooling strides must be >= 1");
        check(pads[i] >= 0, "pooling padding must be >= 0");
    }
    _mode      = mode;
    _window    = window;
    _pads      = pads;
    _strides   = strides;
    _indexType = miopenIndexUint8;
    _indexMode = r == 3 ? miopenPoolingWorkspaceIndexImage : miopenPoolingWorkspaceIndexMask;
    _isSet     = true;
}

const PoolingDescriptor& PoolingDescriptor::checkSet(const char* what) const
{
    if(!_isSet)
        fail(miopenStatusNotInitialized, std::string(what) + " was never set");
    return *this;
}

std::vector<std::size_t> PoolingDescriptor::outputLengths(const TensorDescriptor& x) const
{
    checkSet("pooling descriptor");
    const auto r = spatialDims();
    if(x.numDims() != r + 2)
        fail(miopenStatusBadParm, std::to_string(r) + "-D pooling needs a " + std::to_string(r + 2) +
                                      "-D tensor, got " + std::to_string(x.numDims()) + "-D");
    std::vector<std::size_t> out{x.len(0), x.len(1)};
    for(std::size_t i = 0; i < r; ++i)
    {
        // Signed arithmetic and truncating division, as upstream (a window larger than the padded
        // input still gives one output).
        const auto in = static_cast<std::int64_t>(x.len(2 + i));
        const std::int64_t o =
            (in + 2 * static_cast<std::int64_t>(_pads[i]) - _window[i]) / _strides[i] + 1;
        out.push_back(static_cast<std::size_t>(std::max<std::int64_t>(1, o)));
    }
    return out;
}

std::size_t PoolingDescriptor::workspaceSize(const TensorDescriptor& y) const
{
    checkSet("pooling descriptor");
    return _mode == miopenPoolingMax ? y.elementCount() * indexTypeSize(_indexType) : 0;
}

void PoolingDescriptor::forward(const Handle& /*handle*/,
                                const void* alpha,
                                const TensorDescriptor& xDesc,
                                const void* x,
                                const void* beta,
                                const TensorDescriptor& yDesc,
                                void* y,
                                bool saveIndex,
                                void* workspace,
                                std::size_t workspaceBytes) const
{
    checkSet("poolDesc");
    checkUnitScalars(alpha, beta);
    check(x != nullptr, "x is null");
    check(y != nullptr, "y is null");
    const auto expected = outputLengths(xDesc);
    if(yDesc.lens() != expected)
        fail(miopenStatusBadParm, "y has lengths " + lensString(yDesc.lens()) + ", pooling of x gives " +
                                      lensString(expected));
    check(xDesc.type() == yDesc.type(), "x and y differ in data type");
    checkDistinctAddresses(yDesc, "y");

    const Geometry g   = geometryOf(*this, xDesc);
    const bool isMax   = _mode == miopenPoolingMax;
    const bool writeWs = saveIndex && isMax;
    if(writeWs)
    {
        check(workspace != nullptr, "workSpace is null but max pooling with do_backward needs it");
        if(workspaceBytes < workspaceSize(yDesc))
            fail(miopenStatusBadParm, "workSpaceSize " + std::to_string(workspaceBytes) + " < " +
                                          std::to_string(workspaceSize(yDesc)) + " bytes needed");
        const auto count = static_cast<std::uint64_t>(
            _indexMode == miopenPoolingWorkspaceIndexMask ? g.windowSize() : g.inPlane());
        if(indexTypeMax(_indexType) <= count)
            fail(miopenStatusUnknownError,
                 "index type too narrow for max pooling backward: " + std::to_string(count) +
                     " positions, index maximum " + std::to_string(indexTypeMax(_indexType)));
    }

    const Strides xs     = stridesOf(xDesc);
    const Strides ys     = stridesOf(yDesc);
    const bool maskIndex = _indexMode == miopenPoolingWorkspaceIndexMask;

    storage::visit(xDesc.type(), "pooling", [&](auto tag) {
        using Tag       = decltype(tag);
        using Bits      = typename Tag::Bits;
        const auto* xp  = static_cast<const Bits*>(x);
        auto* yp        = static_cast<Bits*>(y);
        const RowArgs a{g, xs, ys, maskIndex, _mode};
        if(writeWs)
            visitIndexType(_indexType, [&](auto indexZero) {
                using Index = decltype(indexZero);
                auto* wp    = static_cast<Index*>(workspace);
                if(tapsFitInt32(g, maskIndex))
                    forwardRows<Tag, RowKind::MaxIndexed, Index, std::int32_t>(a, xp, yp, wp);
                else
                    forwardRows<Tag, RowKind::MaxIndexed, Index, std::int64_t>(a, xp, yp, wp);
            });
        else if(isMax)
            forwardRows<Tag, RowKind::Max>(a, xp, yp, static_cast<std::uint8_t*>(nullptr));
        else
            forwardRows<Tag, RowKind::Average>(a, xp, yp, static_cast<std::uint8_t*>(nullptr));
    });
}

void PoolingDescriptor::backward(const Handle& /*handle*/,
                                 const void* alpha,
                                 const TensorDescriptor& yDesc,
                                 const TensorDescriptor& dyDesc,
                                 const void* dy,
                                 const TensorDescriptor& xDesc,
                                 const void* beta,
                                 const TensorDescriptor& dxDesc,
                                 void* dx,
                                 const void* workspace) const
{
    checkSet("poolDesc");
    checkUnitScalars(alpha, beta);
    check(dy != nullptr, "dy is null");
    check(dx != nullptr, "dx is null");
    check(xDesc.lens() == dxDesc.lens(), "x and dx differ in lengths");
    check(yDesc.lens() == dyDesc.lens(), "y and dy differ in lengths");
    const auto expected = outputLengths(dxDesc);
    if(dyDesc.lens() != expected)
        fail(miopenStatusBadParm, "dy has lengths " + lensString(dyDesc.lens()) +
                                      ", pooling of dx gives " + lensString(expected));
    check(dyDesc.type() == dxDesc.type() && yDesc.type() == dxDesc.type() &&
              xDesc.type() == dxDesc.type(),
          "pooling tensors differ in data type");
    checkDistinctAddresses(dxDesc, "dx");
    const bool isMax = _mode == miopenPoolingMax;
    if(isMax)
        check(workspace != nullptr, "workSpace (the indices of the forward pass) is null");

    const Geometry g      = geometryOf(*this, dxDesc);
    const Strides dys     = stridesOf(dyDesc);
    const Strides dxs     = stridesOf(dxDesc);
    const bool maskIndex  = _indexMode == miopenPoolingWorkspaceIndexMask;
    const auto mode       = _mode;
    const auto inPlane    = static_cast<std::size_t>(g.inPlane());
    const std::size_t nThreads = threadCount();

    storage::visit(dxDesc.type(), "pooling backward", [&](auto tag) {
        using Tag  = decltype(tag);
        using Bits = typename Tag::Bits;
        const auto* dyp = static_cast<const Bits*>(dy);
        auto* dxp       = static_cast<Bits*>(dx);
        visitIndexType(_indexType, [&](auto indexZero) {
            using Index     = decltype(indexZero);
            const auto* wp  = static_cast<const Index*>(workspace);
            std::vector<std::vector<float>> scratch(nThreads);
            const auto planes = g.n * g.c;
            parallelForIndexed(
                planes,
                [&](std::size_t chunk, std::size_t begin, std::size_t end) {
                    auto& acc = scratch[chunk];
                    acc.resize(inPlane);
                    for(std::size_t plane = begin; plane < end; ++plane)
                    {
                        std::fill(acc.begin(), acc.end(), 0.0f);
                        const std::size_t n = plane / g.c, c = plane % g.c;
                        const Bits* dyPlane = dyp + n * dys.n + c * dys.c;
                        std::size_t wsPos   = plane * static_cast<std::size_t>(g.outPlane());
                        for(std::int64_t od = 0; od < g.out[0]; ++od)
                            for(std::int64_t oh = 0; oh < g.out[1]; ++oh)
                                for(std::int64_t ow = 0; ow < g.out[2]; ++ow, ++wsPos)
                                {
                                    const float grad =
                                        Tag::load(dyPlane[static_cast<std::size_t>(od) * dys.s[0] +
                                                          static_cast<std::size_t>(oh) * dys.s[1] +
                                                          static_cast<std::size_t>(ow) * dys.s[2]]);
                                    const std::int64_t d0 = od * g.str[0] - g.pad[0];
                                    const std::int64_t h0 = oh * g.str[1] - g.pad[1];
                                    const std::int64_t w0 = ow * g.str[2] - g.pad[2];
                                    if(isMax)
                                    {
                                        const auto idx = static_cast<std::uint64_t>(wp[wsPos]);
                                        std::int64_t d, h, w;
                                        if(maskIndex)
                                        {
                                            const auto kd = static_cast<std::int64_t>(
                                                idx / static_cast<std::uint64_t>(g.k[1] * g.k[2]));
                                            if(kd >= g.k[0])
                                                continue; // names no position of the window
                                            const auto r = static_cast<std::int64_t>(
                                                idx % static_cast<std::uint64_t>(g.k[1] * g.k[2]));
                                            d = d0 + kd;
                                            h = h0 + r / g.k[2];
                                            w = w0 + r % g.k[2];
                                        }
                                        else
                                        {
                                            if(idx >= static_cast<std::uint64_t>(g.inPlane()))
                                                continue;
                                            const auto i = static_cast<std::int64_t>(idx);
                                            d = i / (g.in[1] * g.in[2]);
                                            h = (i / g.in[2]) % g.in[1];
                                            w = i % g.in[2];
                                        }
                                        if(d < 0 || h < 0 || w < 0 || d >= g.in[0] || h >= g.in[1] ||
                                           w >= g.in[2])
                                            continue; // a padded position: no input receives it
                                        acc[static_cast<std::size_t>((d * g.in[1] + h) * g.in[2] + w)] += grad;
                                        continue;
                                    }
                                    const std::int64_t d1 = std::min(d0 + g.k[0], g.in[0]);
                                    const std::int64_t h1 = std::min(h0 + g.k[1], g.in[1]);
                                    const std::int64_t w1 = std::min(w0 + g.k[2], g.in[2]);
                                    std::int64_t divisor  = g.windowSize();
                                    if(mode == miopenPoolingAverage)
                                    {
                                        divisor = (d1 - clampLow(d0)) * (h1 - clampLow(h0)) *
                                                  (w1 - clampLow(w0));
                                        divisor = divisor > 0 ? divisor : 1;
                                    }
                                    const float share = grad / static_cast<float>(divisor);
                                    for(std::int64_t d = clampLow(d0); d < d1; ++d)
                                        for(std::int64_t h = clampLow(h0); h < h1; ++h)
                                            for(std::int64_t w = clampLow(w0); w < w1; ++w)
                                                acc[static_cast<std::size_t>((d * g.in[1] + h) * g.in[2] + w)] +=
                                                    share;
                                }
                        Bits* dxPlane = dxp + n * dxs.n + c * dxs.c;
                        std::size_t i = 0;
                        for(std::int64_t d = 0; d < g.in[0]; ++d)
                            for(std::int64_t h = 0; h < g.in[1]; ++h)
                                for(std::int64_t w = 0; w < g.in[2]; ++w, ++i)
                                    dxPlane[static_cast<std::size_t>(d) * dxs.s[0] +
                                            static_cast<std::size_t>(h) * dxs.s[1] +
                                            static_cast<std::size_t>(w) * dxs.s[2]] = Tag::store(acc[i]);
                    }
                },
                planeGrain(g.outPlane() * (isMax ? 1 : g.windowSize()) + g.inPlane()));
        });
    });
}

namespace {

const char* poolingModeName(miopenPoolingMode_t m)
{
    switch(m)
    {
    case miopenPoolingMax: return "miopenPoolingMax";
    case miopenPoolingAverage: return "miopenPoolingAverage";
    case miopenPoolingAverageInclusive: return "miopenPoolingAverageInclusive";
    }
    return "unknown";
}

const char* indexTypeName(miopenIndexType_t t)
{
    switch(t)
    {
    case miopenIndexUint8: return "miopenIndexUint8";
    case miopenIndexUint16: return "miopenIndexUint16";
    case miopenIndexUint32: return "miopenIndexUint32";
    case miopenIndexUint64: return "miopenIndexUint64";
    }
    return "unknown";
}

template <class T>
void joinX(std::ostream& os, const std::vector<T>& v)
{
    for(std::size_t i = 0; i < v.size(); ++i)
        os << (i ? "x" : "") << v[i];
}

} // namespace

std::string PoolingDescriptor::toString() const
{
    if(!_isSet)
        return "{unset}";
    std::ostringstream ss;
    ss << '{' << poolingModeName(_mode) << ", window ";
    joinX(ss, _window);
    ss << ", pads ";
    joinX(ss, _pads);
    ss << ", strides ";
    joinX(ss, _strides);
    ss << ", " << indexTypeName(_indexType) << ", "
       << (_indexMode == miopenPoolingWorkspaceIndexImage ? "miopenPoolingWorkspaceIndexImage"
                                                           : "miopenPoolingWorkspaceIndexMask")
       << '}';
    return ss.str();
}

std::string PoolingDescriptor::driverArgs(const TensorDescriptor& x, bool forward) const
{
    std::ostringstream ss;
    ss << driverBaseArg("pool", x.type()) << " -M " << static_cast<int>(_indexMode) << " --input ";
    joinX(ss, x.lens());
    ss << ',';
    joinX(ss, x.strides());
    // Window, pads and strides: (h, w), or (d, h, w) with the depth flags -Z, -o, -s.
    const bool is3d = _window.size() == 3;
    const std::size_t o = is3d ? 1 : 0;
    if(is3d)
        ss << " -Z " << _window[0];
    ss << " -y " << _window[o] << " -x " << _window[o + 1];
    if(is3d)
        ss << " -o " << _pads[0];
    ss << " -p " << _pads[o] << " -q " << _pads[o + 1];
    if(is3d)
        ss << " -s " << _strides[0];
    ss << " -v " << _strides[o] << " -u " << _strides[o + 1] << " -m "
       << (_mode == miopenPoolingMax ? "max" : _mode == miopenPoolingAverage ? "avg" : "avg_in") << " -F "
       << (forward ? 1 : 0) << " -t 1";
    if(_indexType != miopenIndexUint8)
        ss << " -I " << indexTypeName(_indexType);
    return ss.str();
}

} // namespace miopen
