// Element-wise tensor operations (opTensor, setTensor, scaleTensor, transformTensor) against an
// independent reference: plain loops over a multi-index, in double, reading the results with the
// test's own decoders. Shapes, strides (with gaps, any dim order), scalars and data are seeded
// random. Every buffer carries guard bytes and NaN-filled gaps; after each call the bytes that
// are not elements of the output must be unchanged, and inputs must be unchanged entirely.
#include <miopen/datatype.hpp>
#include <miopen/errors.hpp>
#include <miopen/handle.hpp>
#include <miopen/tensor.hpp>
#include <miopen/tensor_ops.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <limits>
#include <numeric>
#include <random>
#include <sstream>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace {

using miopen::TensorDescriptor;

constexpr std::size_t kGuardBytes = 64;
// Every byte outside the elements starts as 0xFF: NaN in half, bfloat16, float and double, so an
// operation that read a gap would poison its result.
constexpr unsigned char kFill = 0xFF;

const miopenDataType_t kFloatingTypes[] = {miopenFloat, miopenHalf, miopenBFloat16, miopenDouble};

// ---------------------------------------------------------------------------------------------
// Element access, independent of the library's conversions for reading.

std::size_t sizeOf(miopenDataType_t t)
{
    switch(t)
    {
    case miopenHalf:
    case miopenBFloat16: return 2;
    case miopenFloat:
    case miopenInt32: return 4;
    case miopenDouble:
    case miopenInt64: return 8;
    default: return 1;
    }
}

const char* nameOf(miopenDataType_t t)
{
    switch(t)
    {
    case miopenHalf: return "half";
    case miopenBFloat16: return "bf16";
    case miopenFloat: return "float";
    case miopenDouble: return "double";
    case miopenInt8: return "int8";
    case miopenInt32: return "int32";
    case miopenInt64: return "int64";
    default: return "other";
    }
}

double decodeHalf(std::uint16_t h)
{
    const int exponent = (h >> 10) & 0x1f;
    const int mantissa = h & 0x3ff;
    double magnitude   = 0;
    if(exponent == 0)
        magnitude = std::ldexp(mantissa, -24);
    else if(exponent == 31)
        magnitude = mantissa != 0 ? std::numeric_limits<double>::quiet_NaN()
                                  : std::numeric_limits<double>::infinity();
    else
        magnitude = std::ldexp(mantissa + 1024, exponent - 25);
    return (h & 0x8000) != 0 ? -magnitude : magnitude;
}

double decodeBFloat16(std::uint16_t b)
{
    const std::uint32_t bits = static_cast<std::uint32_t>(b) << 16;
    float f;
    std::memcpy(&f, &bits, sizeof f);
    return f;
}

template <class T>
T loadBits(const unsigned char* p)
{
    T v;
    std::memcpy(&v, p, sizeof v);
    return v;
}

template <class T>
void storeBits(unsigned char* p, T v)
{
    std::memcpy(p, &v, sizeof v);
}

double readValue(miopenDataType_t t, const unsigned char* p)
{
    switch(t)
    {
    case miopenHalf: return decodeHalf(loadBits<std::uint16_t>(p));
    case miopenBFloat16: return decodeBFloat16(loadBits<std::uint16_t>(p));
    case miopenFloat: return loadBits<float>(p);
    case miopenDouble: return loadBits<double>(p);
    case miopenInt8: return loadBits<std::int8_t>(p);
    case miopenInt32: return loadBits<std::int32_t>(p);
    default: ADD_FAILURE() << "readValue: type " << nameOf(t); return 0;
    }
}

// Encodes v (already representable or to be rounded by the library's own rounding: these are
// inputs, whose decoded value is what the reference uses).
void writeValue(miopenDataType_t t, unsigned char* p, double v)
{
    switch(t)
    {
    case miopenHalf: storeBits(p, miopen::floatToHalf(static_cast<float>(v))); break;
    case miopenBFloat16: storeBits(p, miopen::floatToBfloat16(static_cast<float>(v))); break;
    case miopenFloat: storeBits(p, static_cast<float>(v)); break;
    case miopenDouble: storeBits(p, v); break;
    case miopenInt8: storeBits(p, static_cast<std::int8_t>(v)); break;
    case miopenInt32: storeBits(p, static_cast<std::int32_t>(v)); break;
    default: ADD_FAILURE() << "writeValue: type " << nameOf(t);
    }
}

// Relative rounding of a stored result, and the smallest meaningful absolute error.
double relativeTolerance(miopenDataType_t t)
{
    switch(t)
    {
    case miopenHalf: return 1e-3;
    case miopenBFloat16: return 1e-2;
    case miopenFloat: return 1e-6;
    default: return 1e-12;
    }
}

double absoluteTolerance(miopenDataType_t t) { return t == miopenHalf ? 1e-7 : 1e-30; }

// ---------------------------------------------------------------------------------------------
// Multi-index helpers and guarded buffers.

void forEachIndex(const std::vector<std::size_t>& lens,
                  const std::function<void(const std::vector<std::size_t>&)>& f)
{
    std::vector<std::size_t> idx(lens.size(), 0);
    for(;;)
    {
        f(idx);
        std::size_t d = lens.size();
        while(d > 0)
        {
            --d;
            if(++idx[d] < lens[d])
                break;
            idx[d] = 0;
            if(d == 0)
                return;
        }
    }
}

std::size_t offsetOf(const std::vector<std::size_t>& idx, const std::vector<std::size_t>& strides)
{
    std::size_t o = 0;
    for(std::size_t d = 0; d < idx.size(); ++d)
        o += idx[d] * strides[d];
    return o;
}

std::string vecString(const std::vector<std::size_t>& v)
{
    std::ostringstream s;
    for(std::size_t i = 0; i < v.size(); ++i)
        s << (i != 0 ? "," : "") << v[i];
    return "{" + s.str() + "}";
}

std::size_t spanOf(const std::vector<std::size_t>& lens, const std::vector<std::size_t>& strides)
{
    std::size_t span = 1;
    for(std::size_t d = 0; d < lens.size(); ++d)
        span += (lens[d] - 1) * strides[d];
    return span;
}

// A tensor in its own buffer: kGuardBytes of fill on either side of the element space.
struct TestTensor
{
    TestTensor() = default;
    TestTensor(miopenDataType_t type, std::vector<std::size_t> l, std::vector<std::size_t> s)
        : desc(type, l, s), lens(std::move(l)), strides(std::move(s))
    {
        bytes.assign(2 * kGuardBytes + spanOf(lens, strides) * sizeOf(type), kFill);
    }

    miopenDataType_t type() const { return desc.type(); }
    unsigned char* data() { return bytes.data() + kGuardBytes; }
    const unsigned char* data() const { return bytes.data() + kGuardBytes; }
    unsigned char* at(const std::vector<std::size_t>& idx)
    {
        return data() + offsetOf(idx, strides) * sizeOf(type());
    }
    std::string describe() const
    {
        return std::string(nameOf(type())) + " lens " + vecString(lens) + " strides " +
               vecString(strides);
    }

    TensorDescriptor desc;
    std::vector<std::size_t> lens;
    std::vector<std::size_t> strides;
    std::vector<unsigned char> bytes;
};

// Reads element idx of a tensor from a snapshot of its buffer.
double valueIn(const TestTensor& t,
               const std::vector<unsigned char>& snapshot,
               const std::vector<std::size_t>& idx)
{
    return readValue(t.type(),
                     snapshot.data() + kGuardBytes + offsetOf(idx, t.strides) * sizeOf(t.type()));
}

// Every byte of `t` that is not part of an element it addresses equals `before`.
void expectOnlyElementsChanged(const TestTensor& t, const std::vector<unsigned char>& before)
{
    std::vector<bool> isElement(t.bytes.size(), false);
    const std::size_t esize = sizeOf(t.type());
    forEachIndex(t.lens, [&](const std::vector<std::size_t>& idx) {
        const std::size_t first = kGuardBytes + offsetOf(idx, t.strides) * esize;
        for(std::size_t i = 0; i < esize; ++i)
            isElement[first + i] = true;
    });
    std::size_t changed      = 0;
    std::size_t firstChanged = 0;
    for(std::size_t i = 0; i < t.bytes.size(); ++i)
        if(!isElement[i] && t.bytes[i] != before[i] && changed++ == 0)
            firstChanged = i;
    EXPECT_EQ(changed, 0u) << "bytes outside the elements of " << t.describe()
                           << " changed; first at byte " << firstChanged << " (guard is "
                           << kGuardBytes << " bytes)";
}

// ---------------------------------------------------------------------------------------------
// Random shapes, strides and data.

std::vector<std::size_t> randomLens(std::mt19937& rng, std::size_t rank, std::size_t maxLen)
{
    std::uniform_int_distribution<std::size_t> len(1, maxLen);
    std::vector<std::size_t> lens(rank);
    for(auto& l : lens)
        l = len(rng);
    return lens;
}

// Strides of a random dim order (innermost first), packed or with random gaps between dims and
// sometimes between elements.
std::vector<std::size_t> randomStrides(std::mt19937& rng, const std::vector<std::size_t>& lens)
{
    std::vector<std::size_t> order(lens.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::shuffle(order.begin(), order.end(), rng);
    const bool packed = std::uniform_int_distribution<int>(0, 3)(rng) == 0;
    std::uniform_int_distribution<std::size_t> gap(0, 3);
    std::vector<std::size_t> strides(lens.size());
    std::size_t next = packed ? 1 : std::uniform_int_distribution<std::size_t>(1, 2)(rng);
    for(auto it = order.rbegin(); it != order.rend(); ++it)
    {
        strides[*it] = next;
        next         = next * lens[*it] + (packed ? 0 : gap(rng));
    }
    return strides;
}

// Packed strides for lens given in N, C, spatial order, stored in the memory order `layout`.
std::vector<std::size_t> layoutStrides(const std::vector<std::size_t>& lens,
                                       const std::string& layout)
{
    const std::string canonical = lens.size() == 4 ? "NCHW" : "NCDHW";
    std::vector<std::size_t> strides(lens.size());
    std::size_t running = 1;
    for(std::size_t pos = layout.size(); pos-- > 0;)
    {
        const std::size_t dim = canonical.find(layout[pos]);
        strides[dim]          = running;
        running *= lens[dim];
    }
    return strides;
}

double randomValue(std::mt19937& rng) { return std::uniform_real_distribution<double>(-2, 2)(rng); }

void fillRandom(std::mt19937& rng, TestTensor& t)
{
    forEachIndex(t.lens, [&](const std::vector<std::size_t>& idx) {
        if(t.type() == miopenInt8)
            writeValue(t.type(), t.at(idx), std::uniform_int_distribution<int>(-128, 127)(rng));
        else if(t.type() == miopenInt32)
            writeValue(t.type(), t.at(idx), static_cast<double>(rng()) - 2147483648.0);
        else
            writeValue(t.type(), t.at(idx), randomValue(rng));
    });
}

void fillNaN(TestTensor& t)
{
    forEachIndex(t.lens, [&](const std::vector<std::size_t>& idx) {
        writeValue(t.type(), t.at(idx), std::numeric_limits<double>::quiet_NaN());
    });
}

// Scalars as the operations take them: float, or double for double tensors.
struct Scalar
{
    Scalar(double v, bool asDouble) : d(v), f(static_cast<float>(v)), isDouble(asDouble) {}
    const void* ptr() const { return isDouble ? static_cast<const void*>(&d) : &f; }
    double value() const { return isDouble ? d : static_cast<double>(f); }
    double d;
    float f;
    bool isDouble;
};

double applyOp(miopenTensorOp_t op, double a, double b)
{
    switch(op)
    {
    case miopenTensorOpAdd: return a + b;
    case miopenTensorOpMul: return a * b;
    case miopenTensorOpMin: return a < b ? a : b;
    case miopenTensorOpMax: return a > b ? a : b;
    }
    return std::numeric_limits<double>::quiet_NaN();
}

const char* opName(miopenTensorOp_t op)
{
    switch(op)
    {
    case miopenTensorOpAdd: return "Add";
    case miopenTensorOpMul: return "Mul";
    case miopenTensorOpMin: return "Min";
    case miopenTensorOpMax: return "Max";
    }
    return "?";
}

// ---------------------------------------------------------------------------------------------
// Checkers: run an operation on prepared tensors and compare with the reference.

struct OpTensorCase
{
    miopenTensorOp_t op;
    TestTensor* a;
    TestTensor* b;
    TestTensor* c; // may be a or b (in place)
    double alpha1;
    double alpha2;
    double beta;
};

// Runs opTensor and checks every element of C, the canaries, and that A and B are unchanged.
void runAndCheckOpTensor(const OpTensorCase& tc)
{
    const miopenDataType_t type = tc.c->type();
    const bool asDouble         = type == miopenDouble;
    const Scalar alpha1(tc.alpha1, asDouble);
    const Scalar alpha2(tc.alpha2, asDouble);
    const Scalar beta(tc.beta, asDouble);
    const std::vector<unsigned char> aBefore = tc.a->bytes;
    const std::vector<unsigned char> bBefore = tc.b->bytes;
    const std::vector<unsigned char> cBefore = tc.c->bytes;

    miopen::Handle handle;
    miopen::opTensor(handle,
                     tc.op,
                     alpha1.ptr(),
                     tc.a->desc,
                     tc.a->data(),
                     alpha2.ptr(),
                     tc.b->desc,
                     tc.b->data(),
                     beta.ptr(),
                     tc.c->desc,
                     tc.c->data());

    if(tc.a != tc.c)
    {
        EXPECT_EQ(tc.a->bytes, aBefore) << "A changed";
    }
    if(tc.b != tc.c)
    {
        EXPECT_EQ(tc.b->bytes, bBefore) << "B changed";
    }
    expectOnlyElementsChanged(*tc.c, cBefore);

    std::size_t mismatches = 0;
    std::ostringstream first;
    forEachIndex(tc.c->lens, [&](const std::vector<std::size_t>& idx) {
        std::vector<std::size_t> bIdx = idx;
        for(std::size_t d = 0; d < bIdx.size(); ++d)
            if(tc.b->lens[d] == 1)
                bIdx[d] = 0;
        const double a  = valueIn(*tc.a, aBefore, idx);
        const double b  = valueIn(*tc.b, bBefore, bIdx);
        const double aS = alpha1.value() * a;
        const double bS = alpha2.value() * b;
        double expected = applyOp(tc.op, aS, bS);
        double scale    = std::fabs(aS) + std::fabs(bS);
        if(beta.value() != 0)
        {
            const double c = valueIn(*tc.c, cBefore, idx);
            expected += beta.value() * c;
            scale += std::fabs(beta.value() * c);
        }
        const double got = readValue(type, tc.c->at(idx));
        const double tol = relativeTolerance(type) * scale + absoluteTolerance(type);
        if(!(std::fabs(got - expected) <= tol) && mismatches++ == 0)
            first << "at " << vecString(idx) << ": got " << got << ", expected " << expected
                  << " (a " << a << ", b " << b << ", tolerance " << tol << ")";
    });
    EXPECT_EQ(mismatches, 0u) << opName(tc.op) << " alpha1 " << alpha1.value() << " alpha2 "
                              << alpha2.value() << " beta " << beta.value() << "; A "
                              << tc.a->describe() << ", B " << tc.b->describe() << ", C "
                              << tc.c->describe() << "; first mismatch " << first.str();
}

void runAndCheckTransform(TestTensor& x, TestTensor& y, double alphaIn, double betaIn)
{
    const bool asDouble = x.type() == miopenDouble || y.type() == miopenDouble;
    const Scalar alpha(alphaIn, asDouble);
    const Scalar beta(betaIn, asDouble);
    const std::vector<unsigned char> xBefore = x.bytes;
    const std::vector<unsigned char> yBefore = y.bytes;
    const bool exactCopy = x.type() == y.type() && alpha.value() == 1 && beta.value() == 0;

    miopen::Handle handle;
    miopen::transformTensor(handle, alpha.ptr(), x.desc, x.data(), beta.ptr(), y.desc, y.data());

    if(&x != &y)
    {
        EXPECT_EQ(x.bytes, xBefore) << "x changed";
    }
    expectOnlyElementsChanged(y, yBefore);

    const double computeTolerance = asDouble ? 1e-12 : 1e-6;
    const double relTol           = std::max(relativeTolerance(y.type()), computeTolerance);
    std::size_t mismatches        = 0;
    std::ostringstream first;
    const std::size_t xSize = sizeOf(x.type());
    forEachIndex(y.lens, [&](const std::vector<std::size_t>& idx) {
        const unsigned char* xp = xBefore.data() + kGuardBytes + offsetOf(idx, x.strides) * xSize;
        bool ok                 = true;
        double got = 0, expected = 0;
        if(exactCopy)
        {
            ok       = std::memcmp(xp, y.at(idx), xSize) == 0;
            got      = readValue(y.type(), y.at(idx));
            expected = readValue(x.type(), xp);
        }
        else
        {
            const double xv = readValue(x.type(), xp);
            expected        = alpha.value() * xv;
            double scale    = std::fabs(expected);
            if(beta.value() != 0)
            {
                const double yv = valueIn(y, yBefore, idx);
                expected += beta.value() * yv;
                scale += std::fabs(beta.value() * yv);
            }
            got = readValue(y.type(), y.at(idx));
            ok  = std::fabs(got - expected) <= relTol * scale + absoluteTolerance(y.type());
        }
        if(!ok && mismatches++ == 0)
            first << "at " << vecString(idx) << ": got " << got << ", expected " << expected;
    });
    EXPECT_EQ(mismatches, 0u) << "alpha " << alpha.value() << " beta " << beta.value() << "; x "
                              << x.describe() << ", y " << y.describe() << "; first mismatch "
                              << first.str();
}

// ---------------------------------------------------------------------------------------------
// OpTensor

class OpTensorRandom
    : public ::testing::TestWithParam<std::tuple<miopenDataType_t, miopenTensorOp_t>>
{
};

TEST_P(OpTensorRandom, MatchesReferenceOnRandomStridedBroadcastShapes)
{
    const auto [type, op] = GetParam();
    std::mt19937 rng(1000u + 16u * static_cast<unsigned>(type) + static_cast<unsigned>(op));
    for(int iter = 0; iter < 40; ++iter)
    {
        SCOPED_TRACE("iteration " + std::to_string(iter));
        const std::size_t rank         = std::uniform_int_distribution<std::size_t>(1, 5)(rng);
        const auto lens                = randomLens(rng, rank, 6);
        std::vector<std::size_t> bLens = lens;
        for(auto& l : bLens)
            if(std::uniform_int_distribution<int>(0, 2)(rng) == 0)
                l = 1;
        TestTensor a(type, lens, randomStrides(rng, lens));
        TestTensor b(type, bLens, randomStrides(rng, bLens));
        TestTensor c(type, lens, randomStrides(rng, lens));
        fillRandom(rng, a);
        fillRandom(rng, b);
        const int scalarKind = std::uniform_int_distribution<int>(0, 2)(rng);
        double beta          = 0;
        if(scalarKind == 0)
            fillNaN(c); // beta == 0 must not read C
        else
        {
            fillRandom(rng, c);
            beta = randomValue(rng);
        }
        runAndCheckOpTensor({op, &a, &b, &c, randomValue(rng), randomValue(rng), beta});
    }
}

INSTANTIATE_TEST_SUITE_P(AllTypesAndOps,
                         OpTensorRandom,
                         ::testing::Combine(::testing::ValuesIn(kFloatingTypes),
                                            ::testing::Values(miopenTensorOpAdd,
                                                              miopenTensorOpMul,
                                                              miopenTensorOpMin,
                                                              miopenTensorOpMax)),
                         [](const auto& paramInfo) {
                             return std::string(nameOf(std::get<0>(paramInfo.param))) + "_" +
                                    opName(std::get<1>(paramInfo.param));
                         });

TEST(OpTensor, ForwardBiasNHWCLargeRunsInParallelAndMatches)
{
    // 99,840 elements: above the parallel threshold. C = 1 * A + 1 * bias + 0.5 * C.
    std::mt19937 rng(7);
    const std::vector<std::size_t> lens{2, 3, 128, 130};
    TestTensor a(miopenFloat, lens, layoutStrides(lens, "NCHW"));
    TestTensor b(miopenFloat, {1, 3, 1, 1}, {3, 1, 1, 1});
    TestTensor c(miopenFloat, lens, layoutStrides(lens, "NHWC"));
    fillRandom(rng, a);
    fillRandom(rng, b);
    fillRandom(rng, c);
    runAndCheckOpTensor({miopenTensorOpAdd, &a, &b, &c, 1.0, 1.0, 0.5});
}

TEST(OpTensor, LargeStridedHalfWithBetaZeroAndNaNOutput)
{
    std::mt19937 rng(8);
    const std::vector<std::size_t> lens{3, 5, 70, 90}; // 94,500 elements
    TestTensor a(miopenHalf, lens, randomStrides(rng, lens));
    TestTensor b(miopenHalf, {3, 1, 70, 1}, randomStrides(rng, {3, 1, 70, 1}));
    TestTensor c(miopenHalf, lens, randomStrides(rng, lens));
    fillRandom(rng, a);
    fillRandom(rng, b);
    fillNaN(c);
    runAndCheckOpTensor({miopenTensorOpMul, &a, &b, &c, 0.75, -1.5, 0.0});
}

TEST(OpTensor, InPlaceOnAAndOnB)
{
    std::mt19937 rng(9);
    for(const auto type : kFloatingTypes)
    {
        SCOPED_TRACE(nameOf(type));
        const std::vector<std::size_t> lens{2, 3, 4, 5};
        TestTensor a(type, lens, randomStrides(rng, lens));
        TestTensor b(type, {1, 3, 1, 5}, randomStrides(rng, {1, 3, 1, 5}));
        fillRandom(rng, a);
        fillRandom(rng, b);
        runAndCheckOpTensor({miopenTensorOpAdd, &a, &b, &a, 1.5, -0.5, 0.25}); // C is A

        TestTensor a2(type, lens, randomStrides(rng, lens));
        TestTensor b2(type, lens, randomStrides(rng, lens));
        fillRandom(rng, a2);
        fillRandom(rng, b2);
        runAndCheckOpTensor({miopenTensorOpMax, &a2, &b2, &b2, 1.0, 2.0, 0.0}); // C is B
    }
}

TEST(OpTensor, MinMaxFollowTheComparisonOrder)
{
    // Min/Max are a < b ? a : b and a > b ? a : b (as upstream): with a NaN operand the result
    // is b, except when b itself is NaN.
    const float nan = std::numeric_limits<float>::quiet_NaN();
    float a[3]      = {1.0f, nan, 3.0f};
    float b[3]      = {2.0f, 5.0f, nan};
    float c[3]      = {0, 0, 0};
    const TensorDescriptor d(miopenFloat, {3});
    const float one = 1.0f, zero = 0.0f;
    miopen::Handle handle;
    miopen::opTensor(handle, miopenTensorOpMin, &one, d, a, &one, d, b, &zero, d, c);
    EXPECT_EQ(c[0], 1.0f);
    EXPECT_EQ(c[1], 5.0f);
    EXPECT_TRUE(std::isnan(c[2]));
    miopen::opTensor(handle, miopenTensorOpMax, &one, d, a, &one, d, b, &zero, d, c);
    EXPECT_EQ(c[0], 2.0f);
    EXPECT_EQ(c[1], 5.0f);
    EXPECT_TRUE(std::isnan(c[2]));
}

TEST(OpTensor, InterleavedViewsOfOneBufferAreAccepted)
{
    // A on the even elements of a buffer, C on the odd ones: their spans intersect but no
    // element is shared, so this is not an overlap.
    std::vector<float> buffer(2 * 24 + 1, 0.0f);
    for(std::size_t i = 0; i < 24; ++i)
        buffer[2 * i] = static_cast<float>(i);
    const std::vector<float> bias{10, 20, 30};
    const TensorDescriptor view(miopenFloat, {2, 3, 4}, {24, 8, 2});
    const TensorDescriptor biasDesc(miopenFloat, {1, 3, 1});
    const float one = 1.0f, zero = 0.0f;
    miopen::Handle handle;
    miopen::opTensor(handle,
                     miopenTensorOpAdd,
                     &one,
                     view,
                     buffer.data(),
                     &one,
                     biasDesc,
                     bias.data(),
                     &zero,
                     view,
                     buffer.data() + 1);
    for(std::size_t i = 0; i < 24; ++i)
    {
        EXPECT_EQ(buffer[2 * i], static_cast<float>(i));
        EXPECT_EQ(buffer[2 * i + 1], static_cast<float>(i) + bias[(i / 4) % 3]) << i;
    }
}

// ---------------------------------------------------------------------------------------------
// SetTensor and ScaleTensor

class SetTensorRandom : public ::testing::TestWithParam<miopenDataType_t>
{
};

TEST_P(SetTensorRandom, WritesAlphaBitsToEveryElementOnly)
{
    const miopenDataType_t type = GetParam();
    std::mt19937 rng(2000u + static_cast<unsigned>(type));
    for(int iter = 0; iter < 30; ++iter)
    {
        SCOPED_TRACE("iteration " + std::to_string(iter));
        const std::size_t rank = std::uniform_int_distribution<std::size_t>(1, 6)(rng);
        const auto lens        = randomLens(rng, rank, 6);
        TestTensor y(type, lens, randomStrides(rng, lens));
        fillRandom(rng, y);
        unsigned char alpha[8] = {};
        writeValue(type, alpha, type == miopenInt8 || type == miopenInt32 ? -77 : randomValue(rng));
        const std::vector<unsigned char> before = y.bytes;
        miopen::Handle handle;
        miopen::setTensor(handle, y.desc, y.data(), alpha);
        expectOnlyElementsChanged(y, before);
        std::size_t wrong = 0;
        forEachIndex(y.lens, [&](const std::vector<std::size_t>& idx) {
            wrong += std::memcmp(y.at(idx), alpha, sizeOf(type)) != 0 ? 1 : 0;
        });
        EXPECT_EQ(wrong, 0u) << y.describe();
    }
}

INSTANTIATE_TEST_SUITE_P(
    AllTypes,
    SetTensorRandom,
    ::testing::Values(
        miopenFloat, miopenHalf, miopenBFloat16, miopenDouble, miopenInt8, miopenInt32),
    [](const auto& paramInfo) { return std::string(nameOf(paramInfo.param)); });

TEST(SetTensor, LargeTensorAndSelfOverlappingDescriptor)
{
    // 2 * 300 * 200 elements with gaps: the parallel path.
    TestTensor y(miopenFloat, {2, 300, 200}, {300 * 203, 203, 1});
    const float alpha                       = -3.25f;
    const std::vector<unsigned char> before = y.bytes;
    miopen::Handle handle;
    miopen::setTensor(handle, y.desc, y.data(), &alpha);
    expectOnlyElementsChanged(y, before);
    std::size_t wrong = 0;
    forEachIndex(y.lens, [&](const std::vector<std::size_t>& idx) {
        wrong += loadBits<float>(y.at(idx)) != alpha ? 1 : 0;
    });
    EXPECT_EQ(wrong, 0u);

    // Two indices addressing one element store the same value: allowed for set.
    TestTensor overlapping(miopenFloat, {3, 4}, {1, 1});
    miopen::setTensor(handle, overlapping.desc, overlapping.data(), &alpha);
    for(std::size_t i = 0; i < 6; ++i)
        EXPECT_EQ(loadBits<float>(overlapping.data() + 4 * i), alpha);
}

class ScaleTensorRandom : public ::testing::TestWithParam<miopenDataType_t>
{
};

TEST_P(ScaleTensorRandom, MultipliesEveryElementOnly)
{
    const miopenDataType_t type = GetParam();
    std::mt19937 rng(3000u + static_cast<unsigned>(type));
    for(int iter = 0; iter < 30; ++iter)
    {
        SCOPED_TRACE("iteration " + std::to_string(iter));
        const std::size_t rank = std::uniform_int_distribution<std::size_t>(1, 5)(rng);
        const auto lens        = randomLens(rng, rank, 6);
        TestTensor y(type, lens, randomStrides(rng, lens));
        unsigned char alpha[8] = {};
        if(type == miopenInt32)
        { // small values: the products stay in range here (wrapping is tested separately)
            forEachIndex(y.lens, [&](const std::vector<std::size_t>& idx) {
                writeValue(type, y.at(idx), std::uniform_int_distribution<int>(-1000, 1000)(rng));
            });
            writeValue(type, alpha, std::uniform_int_distribution<int>(-50, 50)(rng));
        }
        else
        {
            fillRandom(rng, y);
            writeValue(type, alpha, randomValue(rng));
        }
        const double factor                     = readValue(type, alpha);
        const std::vector<unsigned char> before = y.bytes;
        miopen::Handle handle;
        miopen::scaleTensor(handle, y.desc, y.data(), alpha);
        expectOnlyElementsChanged(y, before);
        std::size_t wrong = 0;
        std::ostringstream first;
        forEachIndex(y.lens, [&](const std::vector<std::size_t>& idx) {
            const double expected = valueIn(y, before, idx) * factor;
            const double got      = readValue(type, y.at(idx));
            const double tol =
                relativeTolerance(type) * std::fabs(expected) + absoluteTolerance(type);
            if(!(std::fabs(got - expected) <= tol) && wrong++ == 0)
                first << vecString(idx) << ": got " << got << ", expected " << expected;
        });
        EXPECT_EQ(wrong, 0u) << y.describe() << " alpha " << factor << "; first " << first.str();
    }
}

INSTANTIATE_TEST_SUITE_P(
    AllTypes,
    ScaleTensorRandom,
    ::testing::Values(miopenFloat, miopenHalf, miopenBFloat16, miopenDouble, miopenInt32),
    [](const auto& paramInfo) { return std::string(nameOf(paramInfo.param)); });

TEST(ScaleTensor, Int32ProductsWrapModulo2To32)
{
    std::int32_t y[3]         = {0x40000001, -7, std::numeric_limits<std::int32_t>::min()};
    const std::int32_t factor = 4;
    const TensorDescriptor d(miopenInt32, {3});
    miopen::Handle handle;
    miopen::scaleTensor(handle, d, y, &factor);
    EXPECT_EQ(y[0], 4); // 0x100000004 mod 2^32
    EXPECT_EQ(y[1], -28);
    EXPECT_EQ(y[2], 0); // -2^33 mod 2^32
}

// ---------------------------------------------------------------------------------------------
// TransformTensor

class TransformTensorRandom
    : public ::testing::TestWithParam<std::tuple<miopenDataType_t, miopenDataType_t>>
{
};

TEST_P(TransformTensorRandom, MatchesReferenceAcrossStridesAndTypes)
{
    const auto [xType, yType] = GetParam();
    std::mt19937 rng(4000u + 16u * static_cast<unsigned>(xType) + static_cast<unsigned>(yType));
    for(int iter = 0; iter < 30; ++iter)
    {
        SCOPED_TRACE("iteration " + std::to_string(iter));
        const std::size_t rank = std::uniform_int_distribution<std::size_t>(1, 5)(rng);
        const auto lens        = randomLens(rng, rank, 6);
        TestTensor x(xType, lens, randomStrides(rng, lens));
        TestTensor y(yType, lens, randomStrides(rng, lens));
        fillRandom(rng, x);
        const int kind = std::uniform_int_distribution<int>(0, 2)(rng);
        double alpha = randomValue(rng), beta = 0;
        if(kind == 0)
        { // plain conversion / copy
            alpha = 1;
            fillNaN(y);
        }
        else if(kind == 1)
            fillNaN(y); // beta == 0: y must not be read
        else
        {
            fillRandom(rng, y);
            beta = randomValue(rng);
        }
        runAndCheckTransform(x, y, alpha, beta);
    }
}

INSTANTIATE_TEST_SUITE_P(AllFloatingPairs,
                         TransformTensorRandom,
                         ::testing::Combine(::testing::ValuesIn(kFloatingTypes),
                                            ::testing::ValuesIn(kFloatingTypes)),
                         [](const auto& paramInfo) {
                             return std::string(nameOf(std::get<0>(paramInfo.param))) + "_to_" +
                                    nameOf(std::get<1>(paramInfo.param));
                         });

TEST(TransformTensor, LayoutChangesNCHWAndNHWCBothWays)
{
    std::mt19937 rng(11);
    const std::vector<std::pair<std::string, std::string>> pairs{
        {"NCHW", "NHWC"}, {"NHWC", "NCHW"}, {"NCDHW", "NDHWC"}, {"NDHWC", "NCDHW"}};
    for(const auto& [from, to] : pairs)
    {
        SCOPED_TRACE(from + " -> " + to);
        const std::vector<std::size_t> lens = from.size() == 4
                                                  ? std::vector<std::size_t>{2, 5, 6, 7}
                                                  : std::vector<std::size_t>{2, 3, 4, 5, 6};
        TestTensor x(miopenFloat, lens, layoutStrides(lens, from));
        TestTensor y(miopenFloat, lens, layoutStrides(lens, to));
        fillRandom(rng, x);
        runAndCheckTransform(x, y, 1.0, 0.0); // exact copy
        TestTensor yHalf(miopenHalf, lens, layoutStrides(lens, to));
        runAndCheckTransform(x, yHalf, 1.0, 0.0); // layout and type at once
        TestTensor yBf16(miopenBFloat16, lens, layoutStrides(lens, to));
        fillRandom(rng, yBf16);
        runAndCheckTransform(x, yBf16, -0.5, 2.0);
    }
}

TEST(TransformTensor, LargeNCHWToNHWCHalfToFloat)
{
    std::mt19937 rng(12);
    const std::vector<std::size_t> lens{4, 16, 40, 41}; // 104,960 elements
    TestTensor x(miopenHalf, lens, layoutStrides(lens, "NCHW"));
    TestTensor y(miopenFloat, lens, layoutStrides(lens, "NHWC"));
    fillRandom(rng, x);
    fillRandom(rng, y);
    runAndCheckTransform(x, y, 0.5, -1.25);
}

TEST(TransformTensor, IntegerCopiesAreExact)
{
    std::mt19937 rng(13);
    for(const auto type : {miopenInt8, miopenInt32})
    {
        for(int iter = 0; iter < 10; ++iter)
        {
            SCOPED_TRACE(std::string(nameOf(type)) + " iteration " + std::to_string(iter));
            const std::size_t rank = std::uniform_int_distribution<std::size_t>(1, 5)(rng);
            const auto lens        = randomLens(rng, rank, 6);
            TestTensor x(type, lens, randomStrides(rng, lens));
            TestTensor y(type, lens, randomStrides(rng, lens));
            fillRandom(rng, x);
            runAndCheckTransform(x, y, 1.0, 0.0);
        }
    }
}

TEST(TransformTensor, InPlaceOnTheSameViewAndInterleavedViews)
{
    std::mt19937 rng(14);
    const std::vector<std::size_t> lens{3, 4, 5};
    TestTensor t(miopenFloat, lens, randomStrides(rng, lens));
    fillRandom(rng, t);
    runAndCheckTransform(t, t, 2.0, 0.5); // y is x: y = 2.5 * y

    // x on even floats, y (half) on the odd halves of the same words: disjoint bytes.
    std::vector<float> words(20);
    std::iota(words.begin(), words.end(), 1.0f);
    const TensorDescriptor xDesc(miopenFloat, {10}, {2});
    const TensorDescriptor yDesc(miopenHalf, {10}, {4});
    auto* yBase     = reinterpret_cast<std::uint16_t*>(words.data() + 1);
    const float one = 1.0f, zero = 0.0f;
    miopen::Handle handle;
    miopen::transformTensor(handle, &one, xDesc, words.data(), &zero, yDesc, yBase);
    for(std::size_t i = 0; i < 10; ++i)
    {
        EXPECT_EQ(words[2 * i], static_cast<float>(2 * i + 1));
        EXPECT_EQ(decodeHalf(yBase[4 * i]), static_cast<double>(2 * i + 1)) << i;
    }
}

// ---------------------------------------------------------------------------------------------
// Bad input: each case gives its status and a message, and leaves every buffer untouched.

// The arguments of one call, valid as the fixture gives them; each bad case breaks one.
struct OpArgs
{
    int op; // an int, as a C caller may pass any value
    const void* alpha1;
    const TensorDescriptor* aDesc;
    const void* a;
    const void* alpha2;
    const TensorDescriptor* bDesc;
    const void* b;
    const void* beta;
    const TensorDescriptor* cDesc;
    void* c;
};

struct TransformArgs
{
    const void* alpha;
    const TensorDescriptor* xDesc;
    const void* x;
    const void* beta;
    const TensorDescriptor* yDesc;
    void* y;
};

struct BadInputFixture
{
    BadInputFixture()
        : a(miopenFloat, {2, 3, 4, 5}, {60, 20, 5, 1}),
          b(miopenFloat, {1, 3, 1, 1}, {3, 1, 1, 1}),
          c(miopenFloat, {2, 3, 4, 5}, {60, 1, 15, 3}),
          half(miopenHalf, {2, 3, 4, 5}, {60, 20, 5, 1}),
          i8(miopenInt8, {2, 3, 4, 5}, {60, 20, 5, 1}),
          i8b(miopenInt8, {2, 3, 4, 5}, {60, 20, 5, 1}),
          i32(miopenInt32, {2, 3, 4, 5}, {60, 20, 5, 1}),
          i32b(miopenInt32, {2, 3, 4, 5}, {60, 20, 5, 1}),
          i64(miopenInt64, {2, 3, 4, 5}, {60, 20, 5, 1})
    {
        std::mt19937 rng(99);
        for(TestTensor* t : all())
            if(t->type() != miopenInt64)
                fillRandom(rng, *t);
    }

    std::vector<TestTensor*> all() { return {&a, &b, &c, &half, &i8, &i8b, &i32, &i32b, &i64}; }

    // C = A + bias + C, with C in another layout than A.
    OpArgs opArgs()
    {
        return {miopenTensorOpAdd,
                &one,
                &a.desc,
                a.data(),
                &one,
                &b.desc,
                b.data(),
                &one,
                &c.desc,
                c.data()};
    }
    void run(const OpArgs& x)
    {
        miopen::opTensor(handle,
                         static_cast<miopenTensorOp_t>(x.op),
                         x.alpha1,
                         *x.aDesc,
                         x.a,
                         x.alpha2,
                         *x.bDesc,
                         x.b,
                         x.beta,
                         *x.cDesc,
                         x.c);
    }

    // y (NHWC) = x (NCHW), float.
    TransformArgs transformArgs() { return {&one, &a.desc, a.data(), &zero, &c.desc, c.data()}; }
    void run(const TransformArgs& x)
    {
        miopen::transformTensor(handle, x.alpha, *x.xDesc, x.x, x.beta, *x.yDesc, x.y);
    }

    miopen::Handle handle;
    TestTensor a, b, c, half, i8, i8b, i32, i32b, i64;
    TensorDescriptor unset;
    const float one  = 1.0f;
    const float two  = 2.0f;
    const float zero = 0.0f;
};

struct BadCase
{
    const char* name;
    miopenStatus_t status;
    const char* messageFragment;
    std::function<void(BadInputFixture&)> call;
};

// Descriptors the cases point at (static: the argument structs hold pointers).
const TensorDescriptor kRank3(miopenFloat, {2, 3, 20});
const TensorDescriptor kBiasRank3(miopenFloat, {1, 3, 1});
const TensorDescriptor kLens2344(miopenFloat, {2, 3, 4, 4});
const TensorDescriptor kLens2435(miopenFloat, {2, 4, 3, 5});
const TensorDescriptor kBiasBadLen(miopenFloat, {1, 1, 1, 2});
const TensorDescriptor kShort(miopenFloat, {2, 3, 4, 4}, {60, 20, 5, 1});
const TensorDescriptor kNHWC(miopenFloat, {2, 3, 4, 5}, {60, 1, 15, 3});
const TensorDescriptor kBiasInC(miopenFloat, {2, 3, 4, 1}, {60, 1, 15, 3}); // C's w == 0 plane
const TensorDescriptor kSelfOverlap(miopenFloat, {2, 3, 4, 5}, {60, 20, 1, 1});
const TensorDescriptor kSelfOverlap2d(miopenFloat, {3, 4}, {2, 1});
const TensorDescriptor kHalfPacked(miopenHalf, {2, 3, 4, 5});

// One bad argument of opTensor / transformTensor, everything else as the fixture gives it.
template <class Break>
std::function<void(BadInputFixture&)> badOp(Break breakIt)
{
    return [breakIt](BadInputFixture& f) {
        OpArgs x = f.opArgs();
        breakIt(f, x);
        f.run(x);
    };
}

template <class Break>
std::function<void(BadInputFixture&)> badTransform(Break breakIt)
{
    return [breakIt](BadInputFixture& f) {
        TransformArgs x = f.transformArgs();
        breakIt(f, x);
        f.run(x);
    };
}

const std::vector<BadCase>& badCases()
{
    using F                           = BadInputFixture;
    constexpr miopenStatus_t kBad     = miopenStatusBadParm;
    constexpr miopenStatus_t kNotInit = miopenStatusNotInitialized;
    constexpr miopenStatus_t kNotImpl = miopenStatusNotImplemented;
    static const std::vector<BadCase> cases{
        // opTensor
        {"op_out_of_range", kBad, "tensorOp 7", badOp([](F&, OpArgs& x) { x.op = 7; })},
        {"op_null_alpha1", kBad, "alpha1 is null", badOp([](F&, OpArgs& x) {
             x.alpha1 = nullptr;
         })},
        {"op_null_alpha2", kBad, "alpha2 is null", badOp([](F&, OpArgs& x) {
             x.alpha2 = nullptr;
         })},
        {"op_null_beta", kBad, "beta is null", badOp([](F&, OpArgs& x) { x.beta = nullptr; })},
        {"op_null_A", kBad, "A is null", badOp([](F&, OpArgs& x) { x.a = nullptr; })},
        {"op_null_B", kBad, "B is null", badOp([](F&, OpArgs& x) { x.b = nullptr; })},
        {"op_null_C", kBad, "C is null", badOp([](F&, OpArgs& x) { x.c = nullptr; })},
        {"op_unset_aDesc", kNotInit, "aDesc", badOp([](F& f, OpArgs& x) { x.aDesc = &f.unset; })},
        {"op_unset_bDesc", kNotInit, "bDesc", badOp([](F& f, OpArgs& x) { x.bDesc = &f.unset; })},
        {"op_unset_cDesc", kNotInit, "cDesc", badOp([](F& f, OpArgs& x) { x.cDesc = &f.unset; })},
        {"op_A_type_differs", kBad, "one data type", badOp([](F& f, OpArgs& x) {
             x.aDesc = &f.half.desc;
             x.a     = f.half.data();
         })},
        {"op_B_type_differs", kBad, "one data type", badOp([](F& f, OpArgs& x) {
             x.bDesc = &f.half.desc;
             x.b     = f.half.data();
         })},
        {"op_int32_unsupported", kBad, "not supported", badOp([](F& f, OpArgs& x) {
             x.aDesc = x.bDesc = &f.i32.desc;
             x.a = x.b = f.i32.data();
             x.cDesc   = &f.i32b.desc;
             x.c       = f.i32b.data();
         })},
        {"op_A_rank_differs", kBad, "number of dims", badOp([](F&, OpArgs& x) {
             x.aDesc = &kRank3;
         })},
        {"op_B_rank_differs", kBad, "number of dims", badOp([](F&, OpArgs& x) {
             x.bDesc = &kBiasRank3;
         })},
        {"op_A_lengths_differ", kBad, "A and C lengths differ", badOp([](F&, OpArgs& x) {
             x.aDesc = &kLens2344;
         })},
        {"op_B_length_not_1_or_C", kBad, "B length in dim 3", badOp([](F&, OpArgs& x) {
             x.bDesc = &kBiasBadLen;
         })},
        {"op_C_partially_overlaps_A", kBad, "C overlaps A", badOp([](F& f, OpArgs& x) {
             // C is A's view shifted by one element: it would read elements already written.
             x.aDesc = x.cDesc = &kShort;
             x.c               = f.a.data() + sizeof(float);
         })},
        {"op_C_same_memory_as_A_other_layout", kBad, "C overlaps A", badOp([](F& f, OpArgs& x) {
             x.cDesc = &kNHWC;
             x.c     = f.a.data();
         })},
        {"op_C_overlaps_broadcast_B", kBad, "C overlaps B", badOp([](F& f, OpArgs& x) {
             x.bDesc = &kBiasInC;
             x.b     = f.c.data();
         })},
        {"op_C_self_overlapping", kBad, "more than once", badOp([](F&, OpArgs& x) {
             x.cDesc = &kSelfOverlap;
         })},
        // setTensor
        {"set_null_y",
         kBad,
         "y is null",
         [](F& f) { miopen::setTensor(f.handle, f.c.desc, nullptr, &f.one); }},
        {"set_null_alpha",
         kBad,
         "alpha is null",
         [](F& f) { miopen::setTensor(f.handle, f.c.desc, f.c.data(), nullptr); }},
        {"set_unset_desc",
         kNotInit,
         "yDesc",
         [](F& f) { miopen::setTensor(f.handle, f.unset, f.c.data(), &f.one); }},
        {"set_int64_unsupported",
         kBad,
         "not supported",
         [](F& f) {
             const std::int64_t v = 5;
             miopen::setTensor(f.handle, f.i64.desc, f.i64.data(), &v);
         }},
        // scaleTensor
        {"scale_null_y",
         kBad,
         "y is null",
         [](F& f) { miopen::scaleTensor(f.handle, f.c.desc, nullptr, &f.two); }},
        {"scale_null_alpha",
         kBad,
         "alpha is null",
         [](F& f) { miopen::scaleTensor(f.handle, f.c.desc, f.c.data(), nullptr); }},
        {"scale_unset_desc",
         kNotInit,
         "yDesc",
         [](F& f) { miopen::scaleTensor(f.handle, f.unset, f.c.data(), &f.two); }},
        {"scale_int8_unsupported",
         kBad,
         "not supported",
         [](F& f) {
             const std::int8_t v = 2;
             miopen::scaleTensor(f.handle, f.i8.desc, f.i8.data(), &v);
         }},
        {"scale_self_overlapping",
         kBad,
         "more than once",
         [](F& f) { miopen::scaleTensor(f.handle, kSelfOverlap2d, f.c.data(), &f.two); }},
        // transformTensor
        {"transform_null_alpha", kBad, "alpha is null", badTransform([](F&, TransformArgs& x) {
             x.alpha = nullptr;
         })},
        {"transform_null_beta", kBad, "beta is null", badTransform([](F&, TransformArgs& x) {
             x.beta = nullptr;
         })},
        {"transform_null_x", kBad, "x is null", badTransform([](F&, TransformArgs& x) {
             x.x = nullptr;
         })},
        {"transform_null_y", kBad, "y is null", badTransform([](F&, TransformArgs& x) {
             x.y = nullptr;
         })},
        {"transform_unset_xDesc", kNotInit, "xDesc", badTransform([](F& f, TransformArgs& x) {
             x.xDesc = &f.unset;
         })},
        {"transform_unset_yDesc", kNotInit, "yDesc", badTransform([](F& f, TransformArgs& x) {
             x.yDesc = &f.unset;
         })},
        {"transform_rank_differs", kBad, "number of dims", badTransform([](F&, TransformArgs& x) {
             x.xDesc = &kRank3;
         })},
        {"transform_lengths_differ", kBad, "lengths differ", badTransform([](F&, TransformArgs& x) {
             x.xDesc = &kLens2435;
         })},
        {"transform_int8_to_float",
         kBad,
         "only floating types convert",
         badTransform([](F& f, TransformArgs& x) {
             x.xDesc = &f.i8.desc;
             x.x     = f.i8.data();
         })},
        {"transform_int8_to_int32",
         kBad,
         "only floating types convert",
         badTransform([](F& f, TransformArgs& x) {
             x.xDesc = &f.i8.desc;
             x.x     = f.i8.data();
             x.yDesc = &f.i32.desc;
             x.y     = f.i32.data();
         })},
        {"transform_int8_scaled",
         kNotImpl,
         "only as a copy",
         badTransform([](F& f, TransformArgs& x) {
             x.xDesc = &f.i8.desc;
             x.x     = f.i8.data();
             x.yDesc = &f.i8b.desc;
             x.y     = f.i8b.data();
             x.alpha = &f.two;
         })},
        {"transform_int32_with_beta",
         kNotImpl,
         "only as a copy",
         badTransform([](F& f, TransformArgs& x) {
             x.xDesc = &f.i32.desc;
             x.x     = f.i32.data();
             x.yDesc = &f.i32b.desc;
             x.y     = f.i32b.data();
             x.beta  = &f.one;
         })},
        {"transform_int64_unsupported",
         kBad,
         "not supported",
         badTransform([](F& f, TransformArgs& x) {
             x.xDesc = &f.i64.desc;
             x.x     = f.i64.data();
         })},
        {"transform_y_partially_overlaps_x",
         kBad,
         "y overlaps x",
         badTransform([](F& f, TransformArgs& x) {
             x.xDesc = x.yDesc = &kShort;
             x.y               = f.a.data() + sizeof(float);
         })},
        {"transform_y_same_memory_other_type",
         kBad,
         "y overlaps x",
         badTransform([](F& f, TransformArgs& x) {
             x.yDesc = &kHalfPacked;
             x.y     = f.a.data();
         })},
        {"transform_y_self_overlapping",
         kBad,
         "more than once",
         badTransform([](F&, TransformArgs& x) { x.yDesc = &kSelfOverlap; })},
    };
    return cases;
}

// Runs `call` as a C entry point would and returns its status.
miopenStatus_t statusOf(const std::function<void()>& call)
{
    return miopen::tryCatch("test", call);
}

class BadInput : public ::testing::TestWithParam<std::size_t>
{
};

TEST_P(BadInput, GivesItsStatusAndMessageAndTouchesNothing)
{
    const BadCase& bc = badCases().at(GetParam());
    BadInputFixture f;
    std::vector<std::vector<unsigned char>> before;
    for(TestTensor* t : f.all())
        before.push_back(t->bytes);

    const miopenStatus_t status = statusOf([&] { bc.call(f); });

    EXPECT_EQ(status, bc.status) << bc.name << ": " << miopen::lastErrorMessage();
    EXPECT_NE(std::string(miopen::lastErrorMessage()).find(bc.messageFragment), std::string::npos)
        << bc.name << ": message '" << miopen::lastErrorMessage() << "' lacks '"
        << bc.messageFragment << "'";
    const auto all = f.all();
    for(std::size_t i = 0; i < all.size(); ++i)
        EXPECT_EQ(all[i]->bytes, before[i])
            << bc.name << ": buffer " << all[i]->describe() << " changed";
}

INSTANTIATE_TEST_SUITE_P(Table,
                         BadInput,
                         ::testing::Range(std::size_t{0}, badCases().size()),
                         [](const auto& paramInfo) {
                             return std::string(badCases().at(paramInfo.param).name);
                         });

TEST(BadInputTable, TheUnbrokenCallsSucceed)
{
    // The table's cases each break one argument of calls that are otherwise valid.
    BadInputFixture f;
    EXPECT_EQ(statusOf([&] { f.run(f.opArgs()); }), miopenStatusSuccess)
        << miopen::lastErrorMessage();
    EXPECT_EQ(statusOf([&] { f.run(f.transformArgs()); }), miopenStatusSuccess)
        << miopen::lastErrorMessage();
    const std::int8_t v = 3;
    EXPECT_EQ(statusOf([&] { miopen::setTensor(f.handle, f.i8.desc, f.i8.data(), &v); }),
              miopenStatusSuccess);
    EXPECT_EQ(statusOf([&] { miopen::scaleTensor(f.handle, f.c.desc, f.c.data(), &f.two); }),
              miopenStatusSuccess);
    TransformArgs copyInt8{&f.one, &f.i8.desc, f.i8.data(), &f.zero, &f.i8b.desc, f.i8b.data()};
    EXPECT_EQ(statusOf([&] { f.run(copyInt8); }), miopenStatusSuccess)
        << miopen::lastErrorMessage();
}

} // namespace
