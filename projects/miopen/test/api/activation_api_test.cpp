// Activation through the public C API, every mode forward and backward in fp32/fp16/bf16, against
// the hipDNN test SDK's pointwise reference where a hipDNN mode matches and a plain double
// formula (upstream's definition) otherwise. Every call asserts its route (common/forwarding_route.hpp):
// with MIOPEN_HIPDNN_FORWARDING enabled, dense calls whose mode has a pointwise form are forwarded
// (alpha / beta as scalar nodes), the rest declined with their reason; disabled, all pass through.
#include "api/act_bn_test_util.hpp"
#include "common/api_helpers.hpp"
#include "common/forwarding_route.hpp"

#include <hipdnn_test_sdk/utilities/pointwise/CpuReferencePointwise.hpp>

#include <cmath>
#include <cstring>
#include <random>
#include <string>
#include <vector>

namespace {

using test::load;
using test::Layout;
using test::makeLayout;
using test::tolerance;
using hipdnn_test_sdk::utilities::CpuReferencePointwise;
using hipdnn_test_sdk::utilities::PointwiseMode;
using hipdnn_test_sdk::utilities::PointwiseParams;

struct ModeCase
{
    miopenActivationMode_t mode;
    double a, b, g;
};

const std::vector<ModeCase>& modes()
{
    static const std::vector<ModeCase> k = {
        {miopenActivationPASTHRU, 0.0, 0.0, 0.0},  {miopenActivationLOGISTIC, 0.0, 0.0, 0.0},
        {miopenActivationTANH, 1.3, 0.8, 0.0},     {miopenActivationRELU, 0.0, 0.0, 0.0},
        {miopenActivationSOFTRELU, 0.0, 0.0, 0.0}, {miopenActivationABS, 0.0, 0.0, 0.0},
        {miopenActivationPOWER, 1.5, 0.5, 2.5},    {miopenActivationCLIPPEDRELU, 0.4, 0.0, 0.0},
        {miopenActivationLEAKYRELU, 0.1, 0.0, 0.0}, {miopenActivationELU, 0.8, 0.0, 0.0},
    };
    return k;
}

double refForward(const ModeCase& m, double x)
{
    PointwiseParams p;
    switch(m.mode)
    {
    case miopenActivationPASTHRU: return CpuReferencePointwise::apply(PointwiseMode::IDENTITY, x, 0, 0, p);
    case miopenActivationLOGISTIC: return CpuReferencePointwise::apply(PointwiseMode::SIGMOID_FWD, x, 0, 0, p);
    case miopenActivationTANH: return m.b * CpuReferencePointwise::apply(PointwiseMode::TANH_FWD, m.a * x, 0, 0, p);
    case miopenActivationRELU: return CpuReferencePointwise::apply(PointwiseMode::RELU_FWD, x, 0, 0, p);
    case miopenActivationSOFTRELU: return CpuReferencePointwise::apply(PointwiseMode::SOFTPLUS_FWD, x, 0, 0, p);
    case miopenActivationABS: return CpuReferencePointwise::apply(PointwiseMode::ABS, x, 0, 0, p);
    case miopenActivationPOWER:
    {
        const double v = m.a + m.b * x;
        return v <= 1.1920929e-07 ? 0.0 : std::pow(v, m.g);
    }
    case miopenActivationCLIPPEDRELU: p.reluUpperClip = m.a; return CpuReferencePointwise::apply(PointwiseMode::RELU_FWD, x, 0, 0, p);
    case miopenActivationLEAKYRELU: p.reluLowerClipSlope = m.a; return CpuReferencePointwise::apply(PointwiseMode::RELU_FWD, x, 0, 0, p);
    case miopenActivationELU: p.eluAlpha = m.a; return CpuReferencePointwise::apply(PointwiseMode::ELU_FWD, x, 0, 0, p);
    }
    return 0.0;
}

// dL/dx for dy, x (y is derived from x in double).
double refBackward(const ModeCase& m, double dy, double x)
{
    PointwiseParams p;
    switch(m.mode)
    {
    case miopenActivationPASTHRU: return dy;
    case miopenActivationLOGISTIC: return CpuReferencePointwise::apply(PointwiseMode::SIGMOID_BWD, dy, x, 0, p);
    case miopenActivationTANH: return m.b * m.a * CpuReferencePointwise::apply(PointwiseMode::TANH_BWD, dy, m.a * x, 0, p);
    case miopenActivationRELU: return CpuReferencePointwise::apply(PointwiseMode::RELU_BWD, dy, x, 0, p);
    case miopenActivationSOFTRELU: return CpuReferencePointwise::apply(PointwiseMode::SOFTPLUS_BWD, dy, x, 0, p);
    case miopenActivationABS: return x > 0 ? dy : -dy;
    case miopenActivationPOWER:
    {
        const double v = m.a + m.b * x;
        return v <= 1.1920929e-07 ? 0.0 : dy * m.g * m.b * std::pow(v, m.g - 1.0);
    }
    case miopenActivationCLIPPEDRELU: return (x > 0 && x <= m.a) ? dy : 0.0;
    case miopenActivationLEAKYRELU: p.reluLowerClipSlope = m.a; return CpuReferencePointwise::apply(PointwiseMode::RELU_BWD, dy, x, 0, p);
    case miopenActivationELU: p.eluAlpha = m.a; return CpuReferencePointwise::apply(PointwiseMode::ELU_BWD, dy, x, 0, p);
    }
    return 0.0;
}

class ActivationTest : public ::testing::TestWithParam<miopenDataType_t>
{
};

TEST_P(ActivationTest, EveryModeForwardAndBackwardMatchesReference)
{
    const miopenDataType_t t = GetParam();
    const std::size_t es     = test::typeSize(t);
    test::Handle h;
    std::mt19937 rng(1234u + static_cast<unsigned>(t));
    for(const auto& m : modes())
    {
        std::uniform_int_distribution<int> d(1, 7);
        const std::vector<int> lens = {d(rng), d(rng), d(rng), d(rng) + 2};
        const Layout xl = makeLayout(lens, 0), yl = makeLayout(lens, 3); // y, dy, dx padded
        test::Tensor xd(t, xl.lens, xl.strides), yd(t, yl.lens, yl.strides);
        std::vector<unsigned char> x(xl.span() * es), y(yl.span() * es), dy(yl.span() * es), dx(yl.span() * es);
        test::fillRandom(t, x.data(), xl.span(), rng);
        test::fillRandom(t, dy.data(), yl.span(), rng);
        miopenActivationDescriptor_t ad;
        ASSERT_MIOPEN_OK(miopenCreateActivationDescriptor(&ad));
        ASSERT_MIOPEN_OK(miopenSetActivationDescriptor(ad, m.mode, m.a, m.b, m.g));
        miopenActivationMode_t gm;
        double ga, gb, gg;
        ASSERT_MIOPEN_OK(miopenGetActivationDescriptor(ad, &gm, &ga, &gb, &gg));
        EXPECT_EQ(gm, m.mode);
        EXPECT_EQ(ga, m.a);
        EXPECT_EQ(gb, m.b);
        EXPECT_EQ(gg, m.g);
        const float one = 1.0f, zero = 0.0f;
        // y, dy and dx are padded: not a dense tensor, which the forwarding declines.
        const test::route::Probe fwdProbe;
        ASSERT_MIOPEN_OK(miopenActivationForward(h, ad, &one, xd, x.data(), &zero, yd, y.data()));
        EXPECT_TRUE(fwdProbe.check("miopenActivationForward", test::route::Expected::declined("layout")));
        const test::route::Probe bwdProbe;
        ASSERT_MIOPEN_OK(miopenActivationBackward(h, ad, &one, yd, y.data(), yd, dy.data(), xd, x.data(), &zero, yd, dx.data()));
        EXPECT_TRUE(bwdProbe.check("miopenActivationBackward", test::route::Expected::declined("layout")));
        const std::size_t n = static_cast<std::size_t>(lens[0] * lens[1] * lens[2] * lens[3]);
        double worstF = 0.0, worstB = 0.0;
        for(std::size_t i = 0; i < n; ++i)
        {
            const double xv = load(t, x.data(), xl.offset(i));
            const double rf = refForward(m, xv);
            const double gf = load(t, y.data(), yl.offset(i));
            worstF          = std::max(worstF, std::fabs(gf - rf) / std::max(1.0, std::fabs(rf)));
            const double rb = refBackward(m, load(t, dy.data(), yl.offset(i)), xv);
            const double gb2 = load(t, dx.data(), yl.offset(i));
            // Backward of y-based modes sees y rounded to t: allow a few roundings of slack.
            worstB = std::max(worstB, std::fabs(gb2 - rb) / std::max(1.0, std::fabs(rb)));
        }
        EXPECT_LE(worstF, tolerance(t)) << "forward mode " << m.mode;
        EXPECT_LE(worstB, 4 * tolerance(t)) << "backward mode " << m.mode;
        miopenDestroyActivationDescriptor(ad);
    }
}

TEST_P(ActivationTest, AlphaBetaBlendAndInPlace)
{
    const miopenDataType_t t = GetParam();
    const std::size_t es     = test::typeSize(t);
    test::Handle h;
    std::mt19937 rng(99u);
    const std::vector<int> lens = {2, 3, 5, 7};
    const Layout l = makeLayout(lens, 0);
    test::Tensor d(t, l.lens, l.strides);
    std::vector<unsigned char> x(l.span() * es), y(l.span() * es), yIn;
    test::fillRandom(t, x.data(), l.span(), rng);
    test::fillRandom(t, y.data(), l.span(), rng);
    yIn = y;
    miopenActivationDescriptor_t ad;
    ASSERT_MIOPEN_OK(miopenCreateActivationDescriptor(&ad));
    ASSERT_MIOPEN_OK(miopenSetActivationDescriptor(ad, miopenActivationLEAKYRELU, 0.2, 0, 0));
    const float alpha = 0.5f, beta = -1.5f;
    const test::route::Probe blendProbe;
    ASSERT_MIOPEN_OK(miopenActivationForward(h, ad, &alpha, d, x.data(), &beta, d, y.data()));
    EXPECT_TRUE(blendProbe.check("miopenActivationForward", test::route::Expected::forwarded()));
    for(std::size_t i = 0; i < l.span(); ++i)
    {
        const double xv = load(t, x.data(), i);
        const double r  = alpha * (xv > 0 ? xv : 0.2 * xv) + beta * load(t, yIn.data(), i);
        EXPECT_NEAR(load(t, y.data(), i), r, 3 * tolerance(t) * std::max(1.0, std::fabs(r)));
    }
    // In place: x and y the same buffer.
    std::vector<unsigned char> z = x;
    const float one = 1.0f, zero = 0.0f;
    const test::route::Probe inPlaceProbe;
    ASSERT_MIOPEN_OK(miopenActivationForward(h, ad, &one, d, z.data(), &zero, d, z.data()));
    EXPECT_TRUE(inPlaceProbe.check("miopenActivationForward", test::route::Expected::forwarded()));
    for(std::size_t i = 0; i < l.span(); ++i)
    {
        const double xv = load(t, x.data(), i);
        EXPECT_NEAR(load(t, z.data(), i), xv > 0 ? xv : 0.2 * xv, tolerance(t));
    }
    miopenDestroyActivationDescriptor(ad);
}

// The decline reason of a dense call of mode m (forwarding_activation.hpp), "" when forwarded.
std::string declineReason(const ModeCase& m, bool backward)
{
    if(m.mode == miopenActivationTANH && (m.a != 1.0 || m.b != 1.0))
        return "activation-tanh-scaled";
    if(m.mode == miopenActivationPOWER)
        return "activation-power";
    if(m.mode == miopenActivationABS && backward)
        return "activation-abs-backward";
    if(m.mode == miopenActivationCLIPPEDRELU && backward)
        return "activation-clipped-backward";
    return "";
}

test::route::Expected expectedRoute(const std::string& reason)
{
    return reason.empty() ? test::route::Expected::forwarded() : test::route::Expected::declined(reason);
}

// Dense tensors (NCHW and NHWC, seeded random shapes), every mode, unit and non-unit alpha / beta,
// forward and backward, with canaries after each output: the forwarded graphs (scalar MUL nodes,
// the prior output blended in) against the test SDK's pointwise reference.
TEST_P(ActivationTest, DenseEveryModeAlphaBetaRoutesAndMatchesReference)
{
    const miopenDataType_t t = GetParam();
    const std::size_t es     = test::typeSize(t);
    test::Handle h;
    std::mt19937 rng(4321u + static_cast<unsigned>(t));
    struct Blend
    {
        float alpha, beta;
    };
    const Blend blends[] = {{1.0f, 0.0f}, {0.75f, 0.0f}, {1.0f, -0.5f}, {-1.25f, 0.5f}};
    constexpr std::size_t kCanary = 16;
    for(const auto& m : modes())
        for(const Blend& bl : blends)
            for(const bool nhwc : {false, true})
            {
                std::uniform_int_distribution<int> d(1, 6);
                const std::vector<int> lens = {d(rng), d(rng) + 1, d(rng), d(rng) + 2};
                Layout l = makeLayout(lens, 0);
                if(nhwc)
                    l.strides = {lens[1] * lens[2] * lens[3], 1, lens[3] * lens[1], lens[1]};
                const std::size_t n = l.span();
                test::Tensor desc(t, l.lens, l.strides);
                std::vector<unsigned char> x(n * es), dy(n * es), y((n + kCanary) * es), dx((n + kCanary) * es);
                test::fillRandom(t, x.data(), n, rng);
                test::fillRandom(t, dy.data(), n, rng);
                test::fillRandom(t, y.data(), n + kCanary, rng); // the prior y (beta) and its canaries
                test::fillRandom(t, dx.data(), n + kCanary, rng);
                const std::vector<unsigned char> yPrior = y, dxPrior = dx;
                miopenActivationDescriptor_t ad;
                ASSERT_MIOPEN_OK(miopenCreateActivationDescriptor(&ad));
                ASSERT_MIOPEN_OK(miopenSetActivationDescriptor(ad, m.mode, m.a, m.b, m.g));
                const std::string what = "mode " + std::to_string(m.mode) + " alpha " + std::to_string(bl.alpha) +
                                         " beta " + std::to_string(bl.beta) + (nhwc ? " NHWC" : " NCHW");
                const test::route::Probe fwdProbe;
                ASSERT_MIOPEN_OK(miopenActivationForward(h, ad, &bl.alpha, desc, x.data(), &bl.beta, desc, y.data()))
                    << what;
                EXPECT_TRUE(fwdProbe.check("miopenActivationForward", expectedRoute(declineReason(m, false)))) << what;
                // The backward reads the forward output of alpha = 1, beta = 0.
                std::vector<unsigned char> yUnit(n * es);
                const float one = 1.0f, zero = 0.0f;
                ASSERT_MIOPEN_OK(miopenActivationForward(h, ad, &one, desc, x.data(), &zero, desc, yUnit.data()));
                const test::route::Probe bwdProbe;
                ASSERT_MIOPEN_OK(miopenActivationBackward(h, ad, &bl.alpha, desc, yUnit.data(), desc, dy.data(), desc,
                                                          x.data(), &bl.beta, desc, dx.data()))
                    << what;
                EXPECT_TRUE(bwdProbe.check("miopenActivationBackward", expectedRoute(declineReason(m, true)))) << what;
                double worstF = 0.0, worstB = 0.0;
                for(std::size_t i = 0; i < static_cast<std::size_t>(lens[0] * lens[1] * lens[2] * lens[3]); ++i)
                {
                    const std::size_t o = l.offset(i);
                    const double xv     = load(t, x.data(), o);
                    const double rf     = bl.alpha * refForward(m, xv) + bl.beta * load(t, yPrior.data(), o);
                    worstF = std::max(worstF, std::fabs(load(t, y.data(), o) - rf) / std::max(1.0, std::fabs(rf)));
                    const double rb =
                        bl.alpha * refBackward(m, load(t, dy.data(), o), xv) + bl.beta * load(t, dxPrior.data(), o);
                    worstB = std::max(worstB, std::fabs(load(t, dx.data(), o) - rb) / std::max(1.0, std::fabs(rb)));
                }
                EXPECT_LE(worstF, 4 * tolerance(t)) << "forward " << what;
                EXPECT_LE(worstB, 8 * tolerance(t)) << "backward " << what;
                EXPECT_EQ(0, std::memcmp(y.data() + n * es, yPrior.data() + n * es, kCanary * es)) << "y canary " << what;
                EXPECT_EQ(0, std::memcmp(dx.data() + n * es, dxPrior.data() + n * es, kCanary * es))
                    << "dx canary " << what;
                miopenDestroyActivationDescriptor(ad);
            }
}

INSTANTIATE_TEST_SUITE_P(Types, ActivationTest, ::testing::Values(miopenFloat, miopenHalf, miopenBFloat16),
                         [](const ::testing::TestParamInfo<miopenDataType_t>& p) {
                             return std::string(p.param == miopenFloat ? "FP32" : p.param == miopenHalf ? "FP16" : "BF16");
                         });

} // namespace
