// Tensor descriptors and tensor operations through the public C API. miopenOpTensor and
// miopenScaleTensor calls assert their route (common/forwarding_route.hpp): with forwarding enabled
// dense fp32/fp16/bf16 calls go to hipDNN as pointwise graphs, the rest are declined with a reason.
#include "api/act_bn_test_util.hpp"
#include "common/api_helpers.hpp"
#include "common/forwarding_route.hpp"

#include <cmath>
#include <cstring>
#include <random>
#include <string>

namespace {

TEST(TensorApi, Set4dAndGet4dRoundTrip)
{
    test::Tensor t;
    ASSERT_MIOPEN_OK(miopenSet4dTensorDescriptor(t, miopenHalf, 2, 3, 4, 5));
    miopenDataType_t dt;
    int n, c, h, w, ns, cs, hs, ws;
    ASSERT_MIOPEN_OK(miopenGet4dTensorDescriptor(t, &dt, &n, &c, &h, &w, &ns, &cs, &hs, &ws));
    EXPECT_EQ(dt, miopenHalf);
    EXPECT_EQ((std::vector<int>{n, c, h, w, ns, cs, hs, ws}), (std::vector<int>{2, 3, 4, 5, 60, 20, 5, 1}));
    size_t bytes = 0;
    ASSERT_MIOPEN_OK(miopenGetTensorNumBytes(t, &bytes));
    EXPECT_EQ(bytes, 2u * 120u);
}

TEST(TensorApi, Set4dExKeepsStrides)
{
    test::Tensor t;
    ASSERT_MIOPEN_OK(miopenSet4dTensorDescriptorEx(t, miopenFloat, 2, 3, 4, 5, 100, 1, 15, 3));
    int dims[4], strides[4];
    miopenDataType_t dt;
    ASSERT_MIOPEN_OK(miopenGetTensorDescriptor(t, &dt, dims, strides));
    EXPECT_EQ((std::vector<int>(strides, strides + 4)), (std::vector<int>{100, 1, 15, 3}));
    size_t bytes = 0;
    ASSERT_MIOPEN_OK(miopenGetTensorNumBytes(t, &bytes));
    EXPECT_EQ(bytes, 4u * (1 + 100 + 2 + 45 + 12));
}

TEST(TensorApi, NdWithLayoutGivesChannelsLastStrides)
{
    test::Tensor t;
    const int lens[4] = {2, 3, 4, 5};
    ASSERT_MIOPEN_OK(miopenSetNdTensorDescriptorWithLayout(t, miopenFloat, miopenTensorNHWC, lens, 4));
    int size = 0;
    ASSERT_MIOPEN_OK(miopenGetTensorDescriptorSize(t, &size));
    ASSERT_EQ(size, 4);
    int dims[4], strides[4];
    miopenDataType_t dt;
    ASSERT_MIOPEN_OK(miopenGetTensorDescriptor(t, &dt, dims, strides));
    EXPECT_EQ((std::vector<int>(dims, dims + 4)), (std::vector<int>{2, 3, 4, 5}));
    EXPECT_EQ((std::vector<int>(strides, strides + 4)), (std::vector<int>{60, 1, 15, 3}));
    const int lens5[5] = {1, 2, 3, 4, 5};
    ASSERT_MIOPEN_OK(miopenSetNdTensorDescriptorWithLayout(t, miopenFloat, miopenTensorNDHWC, lens5, 5));
    int d5[5], s5[5];
    ASSERT_MIOPEN_OK(miopenGetTensorDescriptor(t, &dt, d5, s5));
    EXPECT_EQ((std::vector<int>(s5, s5 + 5)), (std::vector<int>{120, 1, 40, 10, 2}));
    EXPECT_EQ(miopenSetNdTensorDescriptorWithLayout(t, miopenFloat, miopenTensorNHWC, lens5, 5), miopenStatusBadParm);
    EXPECT_EQ(miopenSetNdTensorDescriptorWithLayout(t, miopenFloat, miopenTensorCHWN, lens, 4), miopenStatusBadParm);
}

TEST(TensorApi, EightDimsAndV2)
{
    test::Tensor t;
    const int lens[8] = {2, 1, 2, 1, 2, 1, 2, 3};
    ASSERT_MIOPEN_OK(miopenSetTensorDescriptor(t, miopenFloat, 8, lens, nullptr));
    int strides[8], dims[8];
    miopenDataType_t dt;
    ASSERT_MIOPEN_OK(miopenGetTensorDescriptor(t, &dt, dims, strides));
    EXPECT_EQ(strides[7], 1);
    EXPECT_EQ(strides[0], 24);
    const size_t big[2] = {size_t(1) << 31, 2};
    ASSERT_MIOPEN_OK(miopenSetTensorDescriptorV2(t, miopenHalf, 2, big, nullptr));
    size_t bytes = 0;
    ASSERT_MIOPEN_OK(miopenGetTensorNumBytes(t, &bytes));
    EXPECT_EQ(bytes, (size_t(1) << 31) * 2 * 2);
    // Lengths beyond int cannot be read back through the int API.
    EXPECT_EQ(miopenGetTensorDescriptor(t, &dt, dims, strides), miopenStatusBadParm);
}

TEST(TensorApi, OpsThroughTheApi)
{
    test::Handle h;
    test::Tensor d(miopenFloat, {2, 3, 2, 2}, {});
    test::Tensor bd(miopenFloat, {1, 3, 1, 1}, {});
    std::vector<float> a(24), b(3), c(24, 5.0f);
    for(std::size_t i = 0; i < a.size(); ++i)
        a[i] = static_cast<float>(i) - 10.0f;
    b = {1.0f, -2.0f, 3.0f};
    const float one = 1.0f, two = 2.0f, zero = 0.0f;
    const test::route::Probe opProbe;
    ASSERT_MIOPEN_OK(miopenOpTensor(h, miopenTensorOpAdd, &one, d, a.data(), &two, bd, b.data(), &zero, d, c.data()));
    EXPECT_TRUE(opProbe.check("miopenOpTensor", test::route::Expected::forwarded()));
    for(std::size_t i = 0; i < a.size(); ++i)
        EXPECT_FLOAT_EQ(c[i], a[i] + 2.0f * b[(i / 4) % 3]);
    const test::route::Probe scaleProbe;
    ASSERT_MIOPEN_OK(miopenScaleTensor(h, d, c.data(), &two));
    EXPECT_TRUE(scaleProbe.check("miopenScaleTensor", test::route::Expected::forwarded()));
    for(std::size_t i = 0; i < a.size(); ++i)
        EXPECT_FLOAT_EQ(c[i], 2.0f * (a[i] + 2.0f * b[(i / 4) % 3]));
    const float v = 3.5f;
    ASSERT_MIOPEN_OK(miopenSetTensor(h, d, c.data(), &v));
    for(float x : c)
        EXPECT_EQ(x, 3.5f);
    // NCHW -> NHWC with a dtype change to half.
    test::Tensor nhwc;
    const int lens[4] = {2, 3, 2, 2};
    ASSERT_MIOPEN_OK(miopenSetNdTensorDescriptorWithLayout(nhwc, miopenHalf, miopenTensorNHWC, lens, 4));
    std::vector<std::uint16_t> out(24, 0);
    ASSERT_MIOPEN_OK(miopenTransformTensor(h, &one, d, a.data(), &zero, nhwc, out.data()));
    for(int n = 0; n < 2; ++n)
        for(int ch = 0; ch < 3; ++ch)
            for(int e = 0; e < 4; ++e)
                EXPECT_EQ(out[static_cast<std::size_t>(n * 12 + e * 3 + ch)],
                          test::floatToHalfBits(a[static_cast<std::size_t>(n * 12 + ch * 4 + e)]));
}

// C = op(alpha1 A, alpha2 B) + beta C against plain loops in double: every op, seeded random shapes
// (NCHW and NHWC), B broadcast (full, per channel, per pixel, one value), unit and non-unit
// scalars, C aliasing A, canaries after C; fp32, fp16, bf16.
class OpTensorTest : public ::testing::TestWithParam<miopenDataType_t>
{
};

std::uint16_t bitsOf(miopenDataType_t t, float v) { return t == miopenHalf ? test::floatToHalfBits(v) : test::floatToBf16Bits(v); }

TEST_P(OpTensorTest, EveryOpBroadcastAlphaBetaRoutesAndMatches)
{
    const miopenDataType_t t = GetParam();
    const std::size_t es     = test::typeSize(t);
    test::Handle h;
    std::mt19937 rng(777u + static_cast<unsigned>(t));
    struct Scalars
    {
        float a1, a2, beta;
    };
    const Scalars scalars[] = {{1.0f, 1.0f, 0.0f}, {0.5f, -2.0f, 0.0f}, {1.0f, 1.0f, 0.75f}, {-1.5f, 0.25f, -1.0f}};
    constexpr std::size_t kCanary = 8;
    for(int op = miopenTensorOpAdd; op <= miopenTensorOpMax; ++op)
        for(int bcast = 0; bcast < 4; ++bcast)
            for(const Scalars& sc : scalars)
                for(const bool nhwc : {false, true})
                    for(const bool inPlace : {false, true})
                    {
                        std::uniform_int_distribution<int> d(1, 5);
                        const std::vector<int> lens = {d(rng), d(rng) + 1, d(rng), d(rng) + 1};
                        std::vector<int> bl = lens;
                        if(bcast == 1)
                            bl = {1, lens[1], 1, 1};
                        else if(bcast == 2)
                            bl = {1, 1, lens[2], lens[3]};
                        else if(bcast == 3)
                            bl = {1, 1, 1, 1};
                        auto stridesOf = [nhwc](const std::vector<int>& l) {
                            return nhwc ? std::vector<int>{l[1] * l[2] * l[3], 1, l[3] * l[1], l[1]}
                                        : std::vector<int>{l[1] * l[2] * l[3], l[2] * l[3], l[3], 1};
                        };
                        const std::vector<int> cs = stridesOf(lens), bs = stridesOf(bl);
                        const std::size_t n  = static_cast<std::size_t>(lens[0] * lens[1] * lens[2] * lens[3]);
                        const std::size_t nb = static_cast<std::size_t>(bl[0] * bl[1] * bl[2] * bl[3]);
                        test::Tensor cd(t, lens, cs), bd(t, bl, bs);
                        std::vector<unsigned char> a(n * es), b(nb * es), c((n + kCanary) * es);
                        test::fillRandom(t, a.data(), n, rng);
                        test::fillRandom(t, b.data(), nb, rng);
                        test::fillRandom(t, c.data(), n + kCanary, rng);
                        if(inPlace)
                            std::memcpy(c.data(), a.data(), n * es);
                        const std::vector<unsigned char> cPrior = c, aIn = inPlace ? std::vector<unsigned char>(c.begin(), c.begin() + static_cast<std::ptrdiff_t>(n * es)) : a;
                        const void* aPtr = inPlace ? static_cast<const void*>(c.data()) : a.data();
                        const std::string what = "op " + std::to_string(op) + " bcast " + std::to_string(bcast) +
                                                 " a1 " + std::to_string(sc.a1) + " a2 " + std::to_string(sc.a2) +
                                                 " beta " + std::to_string(sc.beta) + (nhwc ? " NHWC" : " NCHW") +
                                                 (inPlace ? " in place" : "");
                        const test::route::Probe probe;
                        ASSERT_MIOPEN_OK(miopenOpTensor(h, static_cast<miopenTensorOp_t>(op), &sc.a1, cd, aPtr, &sc.a2, bd,
                                                        b.data(), &sc.beta, cd, c.data()))
                            << what;
                        EXPECT_TRUE(probe.check("miopenOpTensor", test::route::Expected::forwarded())) << what;
                        double worst = 0.0;
                        for(int i0 = 0; i0 < lens[0]; ++i0)
                            for(int i1 = 0; i1 < lens[1]; ++i1)
                                for(int i2 = 0; i2 < lens[2]; ++i2)
                                    for(int i3 = 0; i3 < lens[3]; ++i3)
                                    {
                                        const int idx[4] = {i0, i1, i2, i3};
                                        std::size_t co = 0, bo = 0;
                                        for(int k = 0; k < 4; ++k)
                                        {
                                            const auto uk = static_cast<std::size_t>(k);
                                            co += static_cast<std::size_t>(idx[k] * cs[uk]);
                                            bo += static_cast<std::size_t>((bl[uk] == 1 ? 0 : idx[k]) * bs[uk]);
                                        }
                                        const double x = sc.a1 * static_cast<double>(test::load(t, aIn.data(), co));
                                        const double y = sc.a2 * static_cast<double>(test::load(t, b.data(), bo));
                                        const double r = (op == miopenTensorOpAdd   ? x + y
                                                          : op == miopenTensorOpMul ? x * y
                                                          : op == miopenTensorOpMin ? std::min(x, y)
                                                                                    : std::max(x, y)) +
                                                         sc.beta * test::load(t, cPrior.data(), co);
                                        worst = std::max(worst, std::fabs(test::load(t, c.data(), co) - r) /
                                                                    std::max(1.0, std::fabs(r)));
                                    }
                        EXPECT_LE(worst, 4 * test::tolerance(t)) << what;
                        EXPECT_EQ(0, std::memcmp(c.data() + n * es, cPrior.data() + n * es, kCanary * es))
                            << "canary " << what;
                    }
}

// y = alpha * y in place (alpha of y's type), seeded random shapes; canaries after y.
TEST_P(OpTensorTest, ScaleTensorRoutesAndMatches)
{
    const miopenDataType_t t = GetParam();
    const std::size_t es     = test::typeSize(t);
    test::Handle h;
    std::mt19937 rng(555u + static_cast<unsigned>(t));
    for(int rep = 0; rep < 6; ++rep)
    {
        std::uniform_int_distribution<int> d(1, 7);
        const std::vector<int> lens = {d(rng), d(rng), d(rng), d(rng)};
        const std::size_t n = static_cast<std::size_t>(lens[0] * lens[1] * lens[2] * lens[3]);
        test::Tensor yd(t, lens, {});
        std::vector<unsigned char> y((n + 8) * es);
        test::fillRandom(t, y.data(), n + 8, rng);
        const std::vector<unsigned char> y0 = y;
        const float alpha = rep % 2 == 0 ? -1.75f : 0.5f;
        std::vector<unsigned char> alphaBytes(es);
        if(t == miopenFloat)
            std::memcpy(alphaBytes.data(), &alpha, es);
        else
        {
            const std::uint16_t bits = bitsOf(t, alpha);
            std::memcpy(alphaBytes.data(), &bits, es);
        }
        const test::route::Probe probe;
        ASSERT_MIOPEN_OK(miopenScaleTensor(h, yd, y.data(), alphaBytes.data()));
        EXPECT_TRUE(probe.check("miopenScaleTensor", test::route::Expected::forwarded()));
        for(std::size_t i = 0; i < n; ++i)
        {
            const double r = alpha * static_cast<double>(test::load(t, y0.data(), i));
            EXPECT_NEAR(test::load(t, y.data(), i), r, test::tolerance(t) * std::max(1.0, std::fabs(r))) << i;
        }
        EXPECT_EQ(0, std::memcmp(y.data() + n * es, y0.data() + n * es, 8 * es));
    }
}

INSTANTIATE_TEST_SUITE_P(Types, OpTensorTest, ::testing::Values(miopenFloat, miopenHalf, miopenBFloat16),
                         [](const ::testing::TestParamInfo<miopenDataType_t>& p) {
                             return std::string(p.param == miopenFloat ? "FP32" : p.param == miopenHalf ? "FP16" : "BF16");
                         });

// What the forwarding declines, with its reason; the result is Private's either way.
TEST(TensorApi, TensorOpDeclines)
{
    test::Handle h;
    // Double: hipDNN's pointwise nodes compute in fp32.
    test::Tensor dd(miopenDouble, {2, 3}, {});
    std::vector<double> a = {1, 2, 3, 4, 5, 6}, b = {6, 5, 4, 3, 2, 1}, c(6, 0.0);
    const double one = 1.0, zero = 0.0;
    const test::route::Probe dblProbe;
    ASSERT_MIOPEN_OK(miopenOpTensor(h, miopenTensorOpMax, &one, dd, a.data(), &one, dd, b.data(), &zero, dd, c.data()));
    EXPECT_TRUE(dblProbe.check("miopenOpTensor", test::route::Expected::declined("double")));
    for(std::size_t i = 0; i < c.size(); ++i)
        EXPECT_EQ(c[i], std::max(a[i], b[i]));
    // A padded (non-dense) C.
    test::Tensor pd(miopenFloat, {2, 3}, {4, 1});
    std::vector<float> fa(8, 1.5f), fb(8, 2.0f), fc(8, 0.0f);
    const float fone = 1.0f, fzero = 0.0f;
    const test::route::Probe padProbe;
    ASSERT_MIOPEN_OK(miopenOpTensor(h, miopenTensorOpMul, &fone, pd, fa.data(), &fone, pd, fb.data(), &fzero, pd, fc.data()));
    EXPECT_TRUE(padProbe.check("miopenOpTensor", test::route::Expected::declined("layout")));
    EXPECT_EQ(fc[0], 3.0f);
    EXPECT_EQ(fc[3], 0.0f); // the padding is not written
    // Int32 scale.
    test::Tensor id(miopenInt32, {5}, {});
    std::vector<std::int32_t> iv = {1, -2, 3, -4, 5};
    const std::int32_t three = 3;
    const test::route::Probe intProbe;
    ASSERT_MIOPEN_OK(miopenScaleTensor(h, id, iv.data(), &three));
    EXPECT_TRUE(intProbe.check("miopenScaleTensor", test::route::Expected::declined("int32")));
    EXPECT_EQ(iv, (std::vector<std::int32_t>{3, -6, 9, -12, 15}));
}

TEST(TensorApi, SeqTensorDescriptorLifetime)
{
    miopenSeqTensorDescriptor_t s = nullptr;
    ASSERT_MIOPEN_OK(miopenCreateSeqTensorDescriptor(&s));
    EXPECT_MIOPEN_OK(miopenDestroySeqTensorDescriptor(s));
}

} // namespace
