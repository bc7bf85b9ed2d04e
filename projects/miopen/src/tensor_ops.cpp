// Element-wise tensor operations (see tensor_ops.hpp for the contracts).
//
// Structure: each public function validates everything first (nothing is touched before the last
// check passes), then builds a StridedWalk over the output's index space, with one stride vector
// per operand (0 where an operand is broadcast), and runs a typed row kernel over it. The walk
// drops length-1 dims and merges dims that are contiguous in every operand, so packed tensors run
// as one long row; large walks are split by element index over the thread pool.
#include <miopen/tensor_ops.hpp>

#include <miopen/datatype.hpp>
#include <miopen/errors.hpp>
#include <miopen/threading.hpp>

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <string>
#include <type_traits>
#include <vector>

namespace miopen {
namespace {

// Walks with more elements than this run on the thread pool; each chunk has at least kGrain.
constexpr std::size_t kParallelThreshold = std::size_t{1} << 16;
constexpr std::size_t kParallelGrain     = std::size_t{1} << 14;

// ---------------------------------------------------------------------------------------------
// Element types: storage, the type arithmetic is done in, load and store (round to nearest even).

struct HalfElement
{
    using Storage = std::uint16_t;
    using Value   = float;
    static Value load(const Storage* p) noexcept { return halfToFloat(*p); }
    static void store(Storage* p, Value v) noexcept { *p = floatToHalf(v); }
};

struct BFloat16Element
{
    using Storage = std::uint16_t;
    using Value   = float;
    static Value load(const Storage* p) noexcept { return bfloat16ToFloat(*p); }
    static void store(Storage* p, Value v) noexcept { *p = floatToBfloat16(v); }
};

struct FloatElement
{
    using Storage = float;
    using Value   = float;
    static Value load(const Storage* p) noexcept { return *p; }
    static void store(Storage* p, Value v) noexcept { *p = v; }
};

struct DoubleElement
{
    using Storage = double;
    using Value   = double;
    static Value load(const Storage* p) noexcept { return *p; }
    static void store(Storage* p, Value v) noexcept { *p = v; }
};

bool isFloatingElement(miopenDataType_t t)
{
    return t == miopenHalf || t == miopenBFloat16 || t == miopenFloat || t == miopenDouble;
}

// Calls f(Element{}) for a floating type. Callers validate the type first.
template <class F>
void visitFloating(miopenDataType_t t, F&& f)
{
    switch(t)
    {
    case miopenHalf: f(HalfElement{}); return;
    case miopenBFloat16: f(BFloat16Element{}); return;
    case miopenFloat: f(FloatElement{}); return;
    case miopenDouble: f(DoubleElement{}); return;
    default: break;
    }
    fail(miopenStatusInternalError, "tensor_ops: unexpected non-floating type in dispatch");
}

// Unsigned integer of the element's size, for moving bits without interpreting them.
template <class F>
void visitBitsOfSize(std::size_t bytes, F&& f)
{
    switch(bytes)
    {
    case 1: f(std::uint8_t{}); return;
    case 2: f(std::uint16_t{}); return;
    case 4: f(std::uint32_t{}); return;
    case 8: f(std::uint64_t{}); return;
    default: break;
    }
    fail(miopenStatusInternalError, "tensor_ops: unexpected element size");
}

// Scalars given as float, or as double when `asDouble`.
double readScalar(const void* p, bool asDouble)
{
    if(asDouble)
    {
        double d;
        std::memcpy(&d, p, sizeof d);
        return d;
    }
    float f;
    std::memcpy(&f, p, sizeof f);
    return f;
}

std::string lensString(const TensorDescriptor& d)
{
    std::string s;
    for(std::size_t i = 0; i < d.numDims(); ++i)
    {
        if(i != 0)
            s += 'x';
        s += std::to_string(d.len(i));
    }
    return s;
}

// ---------------------------------------------------------------------------------------------
// The walk: an index space (the output's lengths) and per-operand element strides.

template <std::size_t N>
struct StridedWalk
{
    std::size_t rank  = 0;
    std::size_t count = 1;
    std::array<std::size_t, kMaxTensorDims> lens{};
    std::array<std::array<std::ptrdiff_t, kMaxTensorDims>, N> strides{};
};

// `operands[k]` is operand k's descriptor; its stride counts as 0 in dims where it has length 1
// and the output does not (broadcast). Every operand has the output's rank.
template <std::size_t N>
StridedWalk<N> makeWalk(const TensorDescriptor& out,
                        const std::array<const TensorDescriptor*, N>& operands)
{
    StridedWalk<N> w;
    for(std::size_t d = 0; d < out.numDims(); ++d)
    {
        const std::size_t len = out.len(d);
        if(len == 1)
            continue;
        std::array<std::ptrdiff_t, N> s{};
        for(std::size_t k = 0; k < N; ++k)
            s[k] =
                operands[k]->len(d) == 1 ? 0 : static_cast<std::ptrdiff_t>(operands[k]->stride(d));

        bool mergeable = w.rank > 0;
        for(std::size_t k = 0; k < N && mergeable; ++k)
            mergeable = w.strides[k][w.rank - 1] == s[k] * static_cast<std::ptrdiff_t>(len);
        if(mergeable)
        {
            w.lens[w.rank - 1] *= len;
            for(std::size_t k = 0; k < N; ++k)
                w.strides[k][w.rank - 1] = s[k];
        }
        else
        {
            w.lens[w.rank] = len;
            for(std::size_t k = 0; k < N; ++k)
                w.strides[k][w.rank] = s[k];
            ++w.rank;
        }
        w.count *= len;
    }
    if(w.rank == 0)
    { // a single element
        w.rank    = 1;
        w.lens[0] = 1;
    }
    return w;
}

// Calls row(offsets, n, steps) for runs of consecutive innermost elements: offsets[k] is operand
// k's element offset of the run's first element, steps[k] its innermost stride.
template <std::size_t N, class Row>
void runWalk(const StridedWalk<N>& w, const Row& row)
{
    const std::size_t inner = w.rank - 1;
    std::array<std::ptrdiff_t, N> steps{};
    for(std::size_t k = 0; k < N; ++k)
        steps[k] = w.strides[k][inner];

    auto chunk = [&](std::size_t begin, std::size_t end) {
        std::array<std::size_t, kMaxTensorDims> idx{};
        std::array<std::ptrdiff_t, N> offsets{};
        std::size_t rest = begin;
        for(std::size_t d = w.rank; d-- > 0;)
        {
            idx[d] = rest % w.lens[d];
            rest /= w.lens[d];
            for(std::size_t k = 0; k < N; ++k)
                offsets[k] += static_cast<std::ptrdiff_t>(idx[d]) * w.strides[k][d];
        }
        for(std::size_t pos = begin; pos < end;)
        {
            const std::size_t n = std::min(w.lens[inner] - idx[inner], end - pos);
            row(offsets, n, steps);
            pos += n;
            idx[inner] += n;
            for(std::size_t k = 0; k < N; ++k)
                offsets[k] += static_cast<std::ptrdiff_t>(n) * steps[k];
            for(std::size_t d = inner; d > 0 && idx[d] == w.lens[d]; --d)
            {
                for(std::size_t k = 0; k < N; ++k)
                    offsets[k] += w.strides[k][d - 1] -
                                  static_cast<std::ptrdiff_t>(w.lens[d]) * w.strides[k][d];
                idx[d] = 0;
                ++idx[d - 1];
            }
        }
    };

    if(w.count > kParallelThreshold)
        parallelFor(w.count, chunk, kParallelGrain);
    else
        chunk(0, w.count);
}

// ---------------------------------------------------------------------------------------------
// Memory checks.

// Element offsets of every element `desc` addresses (index order).
std::vector<std::size_t> elementOffsets(const TensorDescriptor& desc)
{
    const StridedWalk<1> w = makeWalk<1>(desc, {&desc});
    std::vector<std::size_t> out;
    out.reserve(w.count);
    std::array<std::size_t, kMaxTensorDims> idx{};
    std::size_t offset = 0;
    for(std::size_t i = 0; i < w.count; ++i)
    {
        out.push_back(offset);
        for(std::size_t d = w.rank; d-- > 0;)
        {
            ++idx[d];
            offset += static_cast<std::size_t>(w.strides[0][d]);
            if(idx[d] < w.lens[d])
                break;
            offset -= w.lens[d] * static_cast<std::size_t>(w.strides[0][d]);
            idx[d] = 0;
        }
    }
    return out;
}

// True when no two index tuples of `desc` address the same element.
bool addressesAreDistinct(const TensorDescriptor& desc)
{
    // Sufficient: with dims sorted by stride, each stride clears the span of the smaller ones.
    std::vector<std::pair<std::size_t, std::size_t>> dims; // (stride, len)
    for(std::size_t d = 0; d < desc.numDims(); ++d)
        if(desc.len(d) > 1)
            dims.emplace_back(desc.stride(d), desc.len(d));
    std::sort(dims.begin(), dims.end());
    std::size_t span = 1;
    bool nested      = true;
    for(const auto& [stride, len] : dims)
    {
        if(stride < span)
        {
            nested = false;
            break;
        }
        span += (len - 1) * stride;
    }
    if(nested)
        return true;
    // Otherwise decide exactly.
    std::vector<std::size_t> offsets = elementOffsets(desc);
    std::sort(offsets.begin(), offsets.end());
    return std::adjacent_find(offsets.begin(), offsets.end()) == offsets.end();
}

// True when the two descriptors address exactly the same elements of the same memory in the same
// index order, so an element-wise operation may read one and write the other in place.
bool isSameView(const TensorDescriptor& w,
                const void* pw,
                const TensorDescriptor& r,
                const void* pr)
{
    if(pw != pr || w.type() != r.type() || w.lens() != r.lens())
        return false;
    for(std::size_t d = 0; d < w.numDims(); ++d)
        if(w.len(d) > 1 && w.stride(d) != r.stride(d))
            return false;
    return true;
}

// True when some byte of an element `w` addresses is also a byte of an element `r` addresses.
// Requires `w`'s elements to be distinct (addressesAreDistinct).
bool viewsOverlap(const TensorDescriptor& w,
                  const void* pw,
                  const TensorDescriptor& r,
                  const void* pr)
{
    const auto wBegin         = reinterpret_cast<std::uintptr_t>(pw);
    const auto rBegin         = reinterpret_cast<std::uintptr_t>(pr);
    const std::uintptr_t wEnd = wBegin + w.numBytes();
    const std::uintptr_t rEnd = rBegin + r.numBytes();
    if(wEnd <= rBegin || rEnd <= wBegin)
        return false;

    // The spans intersect; compare element by element (strided views may interleave).
    const std::size_t wSize = dataTypeSize(w.type());
    const std::size_t rSize = dataTypeSize(r.type());
    std::vector<std::uintptr_t> writes;
    {
        const std::vector<std::size_t> offsets = elementOffsets(w);
        writes.reserve(offsets.size());
        for(const std::size_t o : offsets)
            writes.push_back(wBegin + o * wSize);
    }
    std::sort(writes.begin(), writes.end());
    for(const std::size_t o : elementOffsets(r))
    {
        const std::uintptr_t start = rBegin + o * rSize;
        // The last write element that starts before this read element ends.
        auto it = std::lower_bound(writes.begin(), writes.end(), start + rSize);
        if(it != writes.begin() && *std::prev(it) + wSize > start)
            return true;
    }
    return false;
}

void checkOutputDistinct(const TensorDescriptor& desc, const char* what)
{
    if(!addressesAreDistinct(desc))
        fail(miopenStatusBadParm,
             std::string(what) + " addresses some elements more than once (strides " +
                 desc.toString() + ")");
}

// `w` is written while `r` is read: allowed when disjoint or the very same view.
void checkNoPartialOverlap(const TensorDescriptor& w,
                           const void* pw,
                           const char* wName,
                           const TensorDescriptor& r,
                           const void* pr,
                           const char* rName)
{
    if(isSameView(w, pw, r, pr))
        return;
    if(viewsOverlap(w, pw, r, pr))
        fail(miopenStatusBadParm,
             std::string(wName) + " overlaps " + rName +
                 " in memory; only the identical view (same pointer, type, lengths and strides) "
                 "may be shared");
}

void checkNotNull(const void* p, const char* what)
{
    if(p == nullptr)
        fail(miopenStatusBadParm, std::string(what) + " is null");
}

// ---------------------------------------------------------------------------------------------
// OpTensor kernels.

struct AddOp
{
    template <class V>
    static V apply(V a, V b) noexcept
    {
        return a + b;
    }
};
struct MulOp
{
    template <class V>
    static V apply(V a, V b) noexcept
    {
        return a * b;
    }
};
struct MinOp
{
    template <class V>
    static V apply(V a, V b) noexcept
    {
        return a < b ? a : b;
    }
};
struct MaxOp
{
    template <class V>
    static V apply(V a, V b) noexcept
    {
        return a > b ? a : b;
    }
};

template <class F>
void visitOp(miopenTensorOp_t op, F&& f)
{
    switch(op)
    {
    case miopenTensorOpAdd: f(AddOp{}); return;
    case miopenTensorOpMul: f(MulOp{}); return;
    case miopenTensorOpMin: f(MinOp{}); return;
    case miopenTensorOpMax: f(MaxOp{}); return;
    }
    fail(miopenStatusInternalError, "tensor_ops: unexpected tensor op in dispatch");
}

template <class E, class Op, bool BetaIsZero>
void opTensorRows(const StridedWalk<3>& walk,
                  const void* a,
                  const void* b,
                  void* c,
                  typename E::Value alpha1,
                  typename E::Value alpha2,
                  typename E::Value beta)
{
    using S       = typename E::Storage;
    using V       = typename E::Value;
    const S* aPtr = static_cast<const S*>(a);
    const S* bPtr = static_cast<const S*>(b);
    S* cPtr       = static_cast<S*>(c);
    runWalk(walk,
            [&](const std::array<std::ptrdiff_t, 3>& off,
                std::size_t n,
                const std::array<std::ptrdiff_t, 3>& step) {
                const S* pa = aPtr + off[0];
                const S* pb = bPtr + off[1];
                S* pc       = cPtr + off[2];
                for(std::size_t i = 0; i < n; ++i)
                {
                    V r = Op::apply(V(alpha1 * E::load(pa)), V(alpha2 * E::load(pb)));
                    if constexpr(!BetaIsZero)
                        r += beta * E::load(pc);
                    E::store(pc, r);
                    pa += step[0];
                    pb += step[1];
                    pc += step[2];
                }
            });
}

// ---------------------------------------------------------------------------------------------
// TransformTensor kernels.

template <class X, class Y, class V, bool BetaIsZero>
void transformRows(const StridedWalk<2>& walk, const void* x, void* y, V alpha, V beta)
{
    using XS       = typename X::Storage;
    using YS       = typename Y::Storage;
    const XS* xPtr = static_cast<const XS*>(x);
    YS* yPtr       = static_cast<YS*>(y);
    runWalk(walk,
            [&](const std::array<std::ptrdiff_t, 2>& off,
                std::size_t n,
                const std::array<std::ptrdiff_t, 2>& step) {
                const XS* px = xPtr + off[0];
                YS* py       = yPtr + off[1];
                for(std::size_t i = 0; i < n; ++i)
                {
                    V r = alpha * static_cast<V>(X::load(px));
                    if constexpr(!BetaIsZero)
                        r += beta * static_cast<V>(Y::load(py));
                    Y::store(py, static_cast<typename Y::Value>(r));
                    px += step[0];
                    py += step[1];
                }
            });
}

// Copies the bits of every element (same type on both sides).
void copyElements(const TensorDescriptor& xDesc,
                  const void* x,
                  const TensorDescriptor& yDesc,
                  void* y)
{
    const StridedWalk<2> walk = makeWalk<2>(yDesc, {&xDesc, &yDesc});
    visitBitsOfSize(dataTypeSize(yDesc.type()), [&](auto bits) {
        using B       = decltype(bits);
        const B* xPtr = static_cast<const B*>(x);
        B* yPtr       = static_cast<B*>(y);
        runWalk(walk,
                [&](const std::array<std::ptrdiff_t, 2>& off,
                    std::size_t n,
                    const std::array<std::ptrdiff_t, 2>& step) {
                    const B* px = xPtr + off[0];
                    B* py       = yPtr + off[1];
                    for(std::size_t i = 0; i < n; ++i)
                    {
                        *py = *px;
                        px += step[0];
                        py += step[1];
                    }
                });
    });
}

} // namespace

// ---------------------------------------------------------------------------------------------

void opTensor(const Handle& /*handle*/,
              miopenTensorOp_t op,
              const void* alpha1,
              const TensorDescriptor& aDesc,
              const void* a,
              const void* alpha2,
              const TensorDescriptor& bDesc,
              const void* b,
              const void* beta,
              const TensorDescriptor& cDesc,
              void* c)
{
    // A C caller may pass any int: read the argument's bits, since loading an out-of-range value
    // as the C++ enum would be undefined.
    int opCode = 0;
    static_assert(sizeof opCode == sizeof op, "miopenTensorOp_t is int-sized");
    std::memcpy(&opCode, &op, sizeof opCode);
    if(opCode != miopenTensorOpAdd && opCode != miopenTensorOpMul && opCode != miopenTensorOpMin &&
       opCode != miopenTensorOpMax)
        fail(miopenStatusBadParm,
             "tensorOp " + std::to_string(opCode) + " is not one of Add, Mul, Min, Max");
    checkNotNull(alpha1, "alpha1");
    checkNotNull(alpha2, "alpha2");
    checkNotNull(beta, "beta");
    checkNotNull(a, "A");
    checkNotNull(b, "B");
    checkNotNull(c, "C");
    aDesc.checkSet("aDesc");
    bDesc.checkSet("bDesc");
    cDesc.checkSet("cDesc");

    const miopenDataType_t type = cDesc.type();
    if(aDesc.type() != type || bDesc.type() != type)
        fail(miopenStatusBadParm,
             std::string("A, B and C must have one data type; got ") + dataTypeName(aDesc.type()) +
                 ", " + dataTypeName(bDesc.type()) + ", " + dataTypeName(type));
    if(!isFloatingElement(type))
        fail(miopenStatusBadParm,
             std::string("data type ") + dataTypeName(type) +
                 " is not supported (half, bfloat16, float, double)");
    if(aDesc.numDims() != cDesc.numDims() || bDesc.numDims() != cDesc.numDims())
        fail(miopenStatusBadParm,
             "A, B and C must have the same number of dims; got " +
                 std::to_string(aDesc.numDims()) + ", " + std::to_string(bDesc.numDims()) + ", " +
                 std::to_string(cDesc.numDims()));
    if(aDesc.lens() != cDesc.lens())
        fail(miopenStatusBadParm,
             "A and C lengths differ: " + lensString(aDesc) + " vs " + lensString(cDesc));
    for(std::size_t d = 0; d < cDesc.numDims(); ++d)
        if(bDesc.len(d) != 1 && bDesc.len(d) != cDesc.len(d))
            fail(miopenStatusBadParm,
                 "B length in dim " + std::to_string(d) + " must be 1 or C's: B is " +
                     lensString(bDesc) + ", C is " + lensString(cDesc));
    checkOutputDistinct(cDesc, "cDesc");
    checkNoPartialOverlap(cDesc, c, "C", aDesc, a, "A");
    checkNoPartialOverlap(cDesc, c, "C", bDesc, b, "B");

    const bool asDouble       = type == miopenDouble;
    const double alpha1Value  = readScalar(alpha1, asDouble);
    const double alpha2Value  = readScalar(alpha2, asDouble);
    const double betaValue    = readScalar(beta, asDouble);
    const StridedWalk<3> walk = makeWalk<3>(cDesc, {&aDesc, &bDesc, &cDesc});

    visitFloating(type, [&](auto element) {
        using E = decltype(element);
        using V = typename E::Value;
        visitOp(op, [&](auto opTag) {
            using Op = decltype(opTag);
            if(betaValue == 0.0)
                opTensorRows<E, Op, true>(walk, a, b, c, V(alpha1Value), V(alpha2Value), V(0));
            else
                opTensorRows<E, Op, false>(
                    walk, a, b, c, V(alpha1Value), V(alpha2Value), V(betaValue));
        });
    });
}

void setTensor(const Handle& /*handle*/, const TensorDescriptor& yDesc, void* y, const void* alpha)
{
    checkNotNull(y, "y");
    checkNotNull(alpha, "alpha");
    yDesc.checkSet("yDesc");
    const miopenDataType_t type = yDesc.type();
    if(!isFloatingElement(type) && type != miopenInt8 && type != miopenInt32)
        fail(miopenStatusBadParm,
             std::string("data type ") + dataTypeName(type) +
                 " is not supported (half, bfloat16, float, double, int8, int32)");

    const StridedWalk<1> walk = makeWalk<1>(yDesc, {&yDesc});
    visitBitsOfSize(dataTypeSize(type), [&](auto bits) {
        using B = decltype(bits);
        B value;
        std::memcpy(&value, alpha, sizeof value);
        B* yPtr = static_cast<B*>(y);
        runWalk(walk,
                [&](const std::array<std::ptrdiff_t, 1>& off,
                    std::size_t n,
                    const std::array<std::ptrdiff_t, 1>& step) {
                    B* p = yPtr + off[0];
                    for(std::size_t i = 0; i < n; ++i, p += step[0])
                        *p = value;
                });
    });
}

void scaleTensor(const Handle& /*handle*/,
                 const TensorDescriptor& yDesc,
                 void* y,
                 const void* alpha)
{
    checkNotNull(y, "y");
    checkNotNull(alpha, "alpha");
    yDesc.checkSet("yDesc");
    const miopenDataType_t type = yDesc.type();
    if(!isFloatingElement(type) && type != miopenInt32)
        fail(miopenStatusBadParm,
             std::string("data type ") + dataTypeName(type) +
                 " is not supported (half, bfloat16, float, double, int32)");
    checkOutputDistinct(yDesc, "yDesc");

    const StridedWalk<1> walk = makeWalk<1>(yDesc, {&yDesc});
    if(type == miopenInt32)
    {
        std::int32_t factor;
        std::memcpy(&factor, alpha, sizeof factor);
        const auto f       = static_cast<std::uint32_t>(factor);
        std::int32_t* yPtr = static_cast<std::int32_t*>(y);
        runWalk(walk,
                [&](const std::array<std::ptrdiff_t, 1>& off,
                    std::size_t n,
                    const std::array<std::ptrdiff_t, 1>& step) {
                    std::int32_t* p = yPtr + off[0];
                    for(std::size_t i = 0; i < n; ++i, p += step[0])
                    { // wraps modulo 2^32, without signed overflow
                        const std::uint32_t product = static_cast<std::uint32_t>(*p) * f;
                        std::memcpy(p, &product, sizeof product);
                    }
                });
        return;
    }
    visitFloating(type, [&](auto element) {
        using E = decltype(element);
        using S = typename E::Storage;
        using V = typename E::Value;
        S factorBits;
        std::memcpy(&factorBits, alpha, sizeof factorBits);
        const V factor = E::load(&factorBits);
        S* yPtr        = static_cast<S*>(y);
        runWalk(walk,
                [&](const std::array<std::ptrdiff_t, 1>& off,
                    std::size_t n,
                    const std::array<std::ptrdiff_t, 1>& step) {
                    S* p = yPtr + off[0];
                    for(std::size_t i = 0; i < n; ++i, p += step[0])
                        E::store(p, E::load(p) * factor);
                });
    });
}

void transformTensor(const Handle& /*handle*/,
                     const void* alpha,
                     const TensorDescriptor& xDesc,
                     const void* x,
                     const void* beta,
                     const TensorDescriptor& yDesc,
                     void* y)
{
    checkNotNull(alpha, "alpha");
    checkNotNull(beta, "beta");
    checkNotNull(x, "x");
    checkNotNull(y, "y");
    xDesc.checkSet("xDesc");
    yDesc.checkSet("yDesc");

    if(xDesc.numDims() != yDesc.numDims())
        fail(miopenStatusBadParm,
             "x and y must have the same number of dims; got " + std::to_string(xDesc.numDims()) +
                 " and " + std::to_string(yDesc.numDims()));
    if(xDesc.lens() != yDesc.lens())
        fail(miopenStatusBadParm,
             "x and y lengths differ: " + lensString(xDesc) + " vs " + lensString(yDesc));

    const miopenDataType_t xType = xDesc.type();
    const miopenDataType_t yType = yDesc.type();
    const bool xFloating         = isFloatingElement(xType);
    const bool yFloating         = isFloatingElement(yType);
    const bool xInteger          = xType == miopenInt8 || xType == miopenInt32;
    const bool yInteger          = yType == miopenInt8 || yType == miopenInt32;
    if(!(xFloating || xInteger) || !(yFloating || yInteger))
        fail(miopenStatusBadParm,
             std::string("data types ") + dataTypeName(xType) + " -> " + dataTypeName(yType) +
                 " are not supported (half, bfloat16, float, double; int8 and int32 copies)");
    if((xInteger || yInteger) && xType != yType)
        fail(miopenStatusBadParm,
             std::string("x and y data types differ (") + dataTypeName(xType) + " -> " +
                 dataTypeName(yType) + "); only floating types convert");

    const bool asDouble     = xType == miopenDouble || yType == miopenDouble;
    const double alphaValue = readScalar(alpha, asDouble);
    const double betaValue  = readScalar(beta, asDouble);
    const bool isCopy       = xType == yType && alphaValue == 1.0 && betaValue == 0.0;
    if(xInteger && !isCopy)
        fail(miopenStatusNotImplemented,
             std::string("y = alpha * x + beta * y is implemented for ") + dataTypeName(xType) +
                 " only as a copy (alpha == 1, beta == 0)");
    checkOutputDistinct(yDesc, "yDesc");
    checkNoPartialOverlap(yDesc, y, "y", xDesc, x, "x");

    if(isCopy)
    {
        copyElements(xDesc, x, yDesc, y);
        return;
    }
    const StridedWalk<2> walk = makeWalk<2>(yDesc, {&xDesc, &yDesc});
    visitFloating(xType, [&](auto xElement) {
        using X = decltype(xElement);
        visitFloating(yType, [&](auto yElement) {
            using Y = decltype(yElement);
            using V = std::conditional_t<std::is_same_v<typename X::Value, double> ||
                                             std::is_same_v<typename Y::Value, double>,
                                         double,
                                         float>;
            if(betaValue == 0.0)
                transformRows<X, Y, V, true>(walk, x, y, V(alphaValue), V(0));
            else
                transformRows<X, Y, V, false>(walk, x, y, V(alphaValue), V(betaValue));
        });
    });
}

} // namespace miopen
