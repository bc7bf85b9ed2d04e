// Fusion plans through the public C API: each fused plan against the unfused sequence of public
// calls on seeded random shapes; plans without a fused implementation compile to UnsupportedOp;
// the fused convolution + residual + bias + activation call against its unfused equivalent.
#include "api/act_bn_test_util.hpp"
#include "common/api_helpers.hpp"
#include "common/forwarding_route.hpp"

#include <algorithm>
#include <map>
#include <string>
#include <thread>
#include <cmath>
#include <memory>
#include <random>
#include <tuple>
#include <vector>

namespace {

struct Plan
{
    miopenFusionPlanDescriptor_t p = nullptr;
    Plan(miopenFusionDirection_t dir, miopenTensorDescriptor_t in) { EXPECT_MIOPEN_OK(miopenCreateFusionPlan(&p, dir, in)); }
    ~Plan() { miopenDestroyFusionPlan(p); }
    operator miopenFusionPlanDescriptor_t() const { return p; }
};

struct Args
{
    miopenOperatorArgs_t a = nullptr;
    Args() { EXPECT_MIOPEN_OK(miopenCreateOperatorArgs(&a)); }
    ~Args() { miopenDestroyOperatorArgs(a); }
    operator miopenOperatorArgs_t() const { return a; }
};

struct Activ
{
    miopenActivationDescriptor_t d = nullptr;
    Activ(miopenActivationMode_t m, double a, double b, double g)
    {
        EXPECT_MIOPEN_OK(miopenCreateActivationDescriptor(&d));
        EXPECT_MIOPEN_OK(miopenSetActivationDescriptor(d, m, a, b, g));
    }
    ~Activ() { miopenDestroyActivationDescriptor(d); }
    operator miopenActivationDescriptor_t() const { return d; }
};

void expectNear(const std::vector<float>& got, const std::vector<float>& ref, double tol)
{
    ASSERT_EQ(got.size(), ref.size());
    double worst = 0.0;
    for(std::size_t i = 0; i < got.size(); ++i)
        worst = std::max(worst, std::fabs(static_cast<double>(got[i]) - ref[i]) / std::max(1.0, std::fabs(static_cast<double>(ref[i]))));
    EXPECT_LE(worst, tol);
}

std::vector<float> randomFloats(std::size_t n, std::mt19937& rng, float lo = -1.0f, float hi = 1.0f)
{
    std::uniform_real_distribution<float> d(lo, hi);
    std::vector<float> v(n);
    for(auto& e : v)
        e = d(rng);
    return v;
}

struct ConvShape
{
    int n, c, h, w, k, r, s, pad, stride;
};

ConvShape randomConv(std::mt19937& rng)
{
    std::uniform_int_distribution<int> d(1, 4);
    ConvShape cs{d(rng), d(rng) + 1, d(rng) + 5, d(rng) + 5, d(rng) + 1, 3, 3, d(rng) % 2, d(rng) % 2 + 1};
    if(rng() % 3 == 0)
        cs.r = cs.s = 1;
    return cs;
}

// Fixture with one random convolution problem (fp32, NCHW).
class ConvFusion : public ::testing::TestWithParam<int>
{
protected:
    void SetUp() override
    {
        rng.seed(4242u + static_cast<unsigned>(GetParam()));
        cs = randomConv(rng);
        ASSERT_MIOPEN_OK(miopenInitConvolutionDescriptor(conv, miopenConvolution, cs.pad, cs.pad, cs.stride, cs.stride, 1, 1));
        xd = std::make_unique<test::Tensor>(miopenFloat, std::vector<int>{cs.n, cs.c, cs.h, cs.w}, std::vector<int>{});
        wd = std::make_unique<test::Tensor>(miopenFloat, std::vector<int>{cs.k, cs.c, cs.r, cs.s}, std::vector<int>{});
        int on, oc, oh, ow;
        ASSERT_MIOPEN_OK(miopenGetConvolutionForwardOutputDim(conv, *xd, *wd, &on, &oc, &oh, &ow));
        yLens = {on, oc, oh, ow};
        yd = std::make_unique<test::Tensor>(miopenFloat, yLens, std::vector<int>{});
        bd = std::make_unique<test::Tensor>(miopenFloat, std::vector<int>{1, cs.k, 1, 1}, std::vector<int>{});
        x  = randomFloats(static_cast<std::size_t>(cs.n * cs.c * cs.h * cs.w), rng);
        w  = randomFloats(static_cast<std::size_t>(cs.k * cs.c * cs.r * cs.s), rng);
        b  = randomFloats(static_cast<std::size_t>(cs.k), rng);
        yCount = static_cast<std::size_t>(on * oc * oh * ow);
    }

    // Bound for comparing the fused plan with the unfused calls. Both pin the GEMM algorithm in
    // pass-through, but with hipDNN forwarding enabled the unfused convolution runs on the
    // engine's own solver choice, so the bound is the accumulated fp32 rounding of a reduction of
    // length C*R*S with the stated Winograd factor 16 (the bound the other API tests use).
    double bound() const { return std::max(1e-5, 16.0 * cs.c * cs.r * cs.s * std::ldexp(1.0, -24)); }

    // The unfused sequence: conv, bias, activation.
    std::vector<float> unfused(miopenActivationDescriptor_t act, bool withBias)
    {
        std::vector<float> y(yCount);
        const float one = 1.0f, zero = 0.0f;
        size_t ws = 0;
        EXPECT_MIOPEN_OK(miopenConvolutionForwardGetWorkSpaceSize(h, *wd, *xd, conv, *yd, &ws));
        std::vector<unsigned char> wsb(ws + 1);
        EXPECT_MIOPEN_OK(miopenConvolutionForward(h, &one, *xd, x.data(), *wd, w.data(), conv, miopenConvolutionFwdAlgoGEMM,
                                                  &zero, *yd, y.data(), wsb.data(), ws));
        if(withBias)
        {
            EXPECT_MIOPEN_OK(miopenConvolutionForwardBias(h, &one, *bd, b.data(), &one, *yd, y.data()));
        }
        if(act != nullptr)
        {
            EXPECT_MIOPEN_OK(miopenActivationForward(h, act, &one, *yd, y.data(), &zero, *yd, y.data()));
        }
        return y;
    }

    std::mt19937 rng;
    ConvShape cs{};
    test::Handle h;
    test::Conv conv;
    std::unique_ptr<test::Tensor> xd, wd, yd, bd;
    std::vector<int> yLens;
    std::vector<float> x, w, b;
    std::size_t yCount = 0;
};

TEST_P(ConvFusion, ConvBiasActivationPlanMatchesUnfusedCalls)
{
    const struct
    {
        miopenActivationMode_t m;
        double a, b, g;
    } acts[] = {{miopenActivationRELU, 0, 0, 0}, {miopenActivationLEAKYRELU, 0.1, 0, 0}, {miopenActivationTANH, 1.1, 0.9, 0}};
    for(const auto& ac : acts)
    {
        Plan plan(miopenVerticalFusion, *xd);
        miopenFusionOpDescriptor_t convOp, biasOp, actOp, got;
        ASSERT_MIOPEN_OK(miopenCreateOpConvForward(plan, &convOp, conv, *wd));
        ASSERT_MIOPEN_OK(miopenCreateOpBiasForward(plan, &biasOp, *bd));
        ASSERT_MIOPEN_OK(miopenCreateOpActivationForward(plan, &actOp, ac.m));
        ASSERT_MIOPEN_OK(miopenFusionPlanGetOp(plan, 1, &got));
        EXPECT_EQ(got, biasOp);
        EXPECT_EQ(miopenStatusBadParm, miopenFusionPlanGetOp(plan, 3, &got));
        int count = 0;
        miopenConvFwdAlgorithm_t algos[8];
        ASSERT_MIOPEN_OK(miopenFusionPlanConvolutionGetAlgo(plan, 8, &count, algos));
        ASSERT_GE(count, 1);
        // Compare like with like: the unfused reference runs the GEMM algorithm.
        ASSERT_NE(std::find(algos, algos + count, miopenConvolutionFwdAlgoGEMM), algos + count);
        ASSERT_MIOPEN_OK(miopenFusionPlanConvolutionSetAlgo(plan, miopenConvolutionFwdAlgoGEMM));
        ASSERT_MIOPEN_OK(miopenCompileFusionPlan(h, plan));
        size_t ws = 1;
        ASSERT_MIOPEN_OK(miopenFusionPlanGetWorkSpaceSize(h, plan, &ws, miopenConvolutionFwdAlgoGEMM));
        EXPECT_EQ(ws, 0u);
        Args args;
        const float one = 1.0f, zero = 0.0f;
        ASSERT_MIOPEN_OK(miopenSetOpArgsConvForward(args, convOp, &one, &zero, w.data()));
        ASSERT_MIOPEN_OK(miopenSetOpArgsBiasForward(args, biasOp, &one, &zero, b.data()));
        ASSERT_MIOPEN_OK(miopenSetOpArgsActivForward(args, actOp, &one, &zero, ac.a, ac.b, ac.g));
        std::vector<float> y(yCount, 7.0f);
        ASSERT_MIOPEN_OK(miopenExecuteFusionPlan(h, plan, *xd, x.data(), *yd, y.data(), args));
        Activ act(ac.m, ac.a, ac.b, ac.g);
        expectNear(y, unfused(act, true), bound());
    }
}

TEST_P(ConvFusion, ConvActivationAndConvBatchNormActivationPlans)
{
    const float one = 1.0f, zero = 0.0f;
    {
        Plan plan(miopenVerticalFusion, *xd);
        miopenFusionOpDescriptor_t convOp, actOp;
        ASSERT_MIOPEN_OK(miopenCreateOpConvForward(plan, &convOp, conv, *wd));
        ASSERT_MIOPEN_OK(miopenCreateOpActivationForward(plan, &actOp, miopenActivationELU));
        ASSERT_MIOPEN_OK(miopenFusionPlanConvolutionSetAlgo(plan, miopenConvolutionFwdAlgoGEMM)); // as the reference
        ASSERT_MIOPEN_OK(miopenCompileFusionPlan(h, plan));
        Args args;
        ASSERT_MIOPEN_OK(miopenSetOpArgsConvForward(args, convOp, &one, &zero, w.data()));
        ASSERT_MIOPEN_OK(miopenSetOpArgsActivForward(args, actOp, &one, &zero, 0.7, 0, 0));
        std::vector<float> y(yCount);
        ASSERT_MIOPEN_OK(miopenExecuteFusionPlan(h, plan, *xd, x.data(), *yd, y.data(), args));
        Activ act(miopenActivationELU, 0.7, 0, 0);
        expectNear(y, unfused(act, false), bound());
    }
    {
        // conv -> bias -> batchnorm inference (spatial) -> relu.
        test::Tensor bn(miopenFloat, {1, cs.k, 1, 1}, {});
        const auto sc = randomFloats(static_cast<std::size_t>(cs.k), rng, 0.5f, 1.5f), bi = randomFloats(static_cast<std::size_t>(cs.k), rng);
        const auto mean = randomFloats(static_cast<std::size_t>(cs.k), rng), var = randomFloats(static_cast<std::size_t>(cs.k), rng, 0.5f, 2.0f);
        Plan plan(miopenVerticalFusion, *xd);
        miopenFusionOpDescriptor_t convOp, biasOp, bnOp, actOp;
        ASSERT_MIOPEN_OK(miopenCreateOpConvForward(plan, &convOp, conv, *wd));
        ASSERT_MIOPEN_OK(miopenCreateOpBiasForward(plan, &biasOp, *bd));
        ASSERT_MIOPEN_OK(miopenCreateOpBatchNormInference(plan, &bnOp, miopenBNSpatial, bn));
        ASSERT_MIOPEN_OK(miopenCreateOpActivationForward(plan, &actOp, miopenActivationRELU));
        ASSERT_MIOPEN_OK(miopenFusionPlanConvolutionSetAlgo(plan, miopenConvolutionFwdAlgoGEMM)); // as the reference
        ASSERT_MIOPEN_OK(miopenCompileFusionPlan(h, plan));
        Args args;
        ASSERT_MIOPEN_OK(miopenSetOpArgsConvForward(args, convOp, &one, &zero, w.data()));
        ASSERT_MIOPEN_OK(miopenSetOpArgsBiasForward(args, biasOp, &one, &zero, b.data()));
        ASSERT_MIOPEN_OK(miopenSetOpArgsBatchNormInference(args, bnOp, &one, &zero, sc.data(), bi.data(), mean.data(), var.data(), 1e-5));
        ASSERT_MIOPEN_OK(miopenSetOpArgsActivForward(args, actOp, &one, &zero, 0, 0, 0));
        std::vector<float> y(yCount);
        ASSERT_MIOPEN_OK(miopenExecuteFusionPlan(h, plan, *xd, x.data(), *yd, y.data(), args));
        std::vector<float> ref = unfused(nullptr, true);
        std::vector<float> bnOut(yCount);
        float o = 1.0f, z = 0.0f;
        ASSERT_MIOPEN_OK(miopenBatchNormalizationForwardInference(h, miopenBNSpatial, &o, &z, *yd, ref.data(), *yd, bnOut.data(), bn,
                                                                  const_cast<float*>(sc.data()), const_cast<float*>(bi.data()),
                                                                  const_cast<float*>(mean.data()), const_cast<float*>(var.data()), 1e-5));
        Activ relu(miopenActivationRELU, 0, 0, 0);
        ASSERT_MIOPEN_OK(miopenActivationForward(h, relu, &one, *yd, bnOut.data(), &zero, *yd, bnOut.data()));
        expectNear(y, bnOut, bound());
    }
}

TEST_P(ConvFusion, ConvolutionBiasActivationForwardMatchesUnfused)
{
    const float alpha1 = 0.75f, alpha2 = -0.5f;
    const auto z = randomFloats(yCount, rng);
    Activ relu(miopenActivationRELU, 0, 0, 0);
    std::vector<float> y(yCount);
    // In the forwarding runs (api.cmake) alpha1 != 1 and a z input are forwarded (MUL / ADD nodes).
    const test::route::Probe blended;
    ASSERT_MIOPEN_OK(miopenConvolutionBiasActivationForward(h, &alpha1, *xd, x.data(), *wd, w.data(), conv,
                                                            miopenConvolutionFwdAlgoGEMM, nullptr, 0, &alpha2, *yd, z.data(), *bd,
                                                            b.data(), relu, *yd, y.data()));
    EXPECT_TRUE(blended.check("miopenConvolutionBiasActivationForward", test::route::Expected::forwarded()));
    // Unfused: y = alpha1 * conv; y += alpha2 * z (OpTensor); bias; relu.
    std::vector<float> ref = unfused(nullptr, false);
    for(std::size_t i = 0; i < yCount; ++i)
        ref[i] = alpha1 * ref[i] + alpha2 * z[i];
    const float one = 1.0f, zero = 0.0f;
    ASSERT_MIOPEN_OK(miopenConvolutionForwardBias(h, &one, *bd, b.data(), &one, *yd, ref.data()));
    ASSERT_MIOPEN_OK(miopenActivationForward(h, relu, &one, *yd, ref.data(), &zero, *yd, ref.data()));
    expectNear(y, ref, 1e-5);
    // z aliasing y (the engine must read z before it writes y).
    std::vector<float> yz = z;
    const test::route::Probe aliased;
    ASSERT_MIOPEN_OK(miopenConvolutionBiasActivationForward(h, &alpha1, *xd, x.data(), *wd, w.data(), conv,
                                                            miopenConvolutionFwdAlgoGEMM, nullptr, 0, &alpha2, *yd, yz.data(), *bd,
                                                            b.data(), relu, *yd, yz.data()));
    EXPECT_TRUE(aliased.check("miopenConvolutionBiasActivationForward", test::route::Expected::forwarded()));
    expectNear(yz, ref, 1e-5);
    // alpha1 = alpha2 = 1 with z aliasing y: no MUL nodes, so the oneDNN engine (binary-add post-op)
    // may take it; it must still read z before writing y.
    {
        const float unit1 = 1.0f;
        std::vector<float> ref1 = unfused(nullptr, false);
        for(std::size_t i = 0; i < yCount; ++i)
            ref1[i] += z[i];
        const float one1 = 1.0f, zero1 = 0.0f;
        ASSERT_MIOPEN_OK(miopenConvolutionForwardBias(h, &one1, *bd, b.data(), &one1, *yd, ref1.data()));
        ASSERT_MIOPEN_OK(miopenActivationForward(h, relu, &one1, *yd, ref1.data(), &zero1, *yd, ref1.data()));
        std::vector<float> yz1 = z;
        const test::route::Probe aliased1;
        ASSERT_MIOPEN_OK(miopenConvolutionBiasActivationForward(h, &unit1, *xd, x.data(), *wd, w.data(), conv,
                                                                miopenConvolutionFwdAlgoGEMM, nullptr, 0, &unit1, *yd,
                                                                yz1.data(), *bd, b.data(), relu, *yd, yz1.data()));
        EXPECT_TRUE(aliased1.check("miopenConvolutionBiasActivationForward", test::route::Expected::forwarded()));
        expectNear(yz1, ref1, bound());
    }
    // alpha1 = 1 and no z: conv + bias + ReLU, the case hipDNN expresses (forwarded when enabled).
    const float unit = 1.0f;
    std::vector<float> yf(yCount);
    const test::route::Probe plain;
    ASSERT_MIOPEN_OK(miopenConvolutionBiasActivationForward(h, &unit, *xd, x.data(), *wd, w.data(), conv,
                                                            miopenConvolutionFwdAlgoGEMM, nullptr, 0, &alpha2, *yd, nullptr, *bd,
                                                            b.data(), relu, *yd, yf.data()));
    EXPECT_TRUE(plain.check("miopenConvolutionBiasActivationForward", test::route::Expected::forwarded()));
    expectNear(yf, unfused(relu, true), bound());
    // As upstream, only RELU (declined to Private, which refuses it, when forwarding is enabled).
    Activ tanhAct(miopenActivationTANH, 1, 1, 0);
    const test::route::Probe tanhProbe;
    EXPECT_EQ(miopenStatusNotImplemented,
              miopenConvolutionBiasActivationForward(h, &unit, *xd, x.data(), *wd, w.data(), conv, miopenConvolutionFwdAlgoGEMM, nullptr, 0,
                                                     &alpha2, *yd, nullptr, *bd, b.data(), tanhAct, *yd, y.data()));
    EXPECT_TRUE(tanhProbe.check("miopenConvolutionBiasActivationForward", test::route::Expected::declined("activation")));
}

// Every activation mode but RELU stays on Private (which refuses it, as upstream), with the decline
// reason of the shared activation translation where it has none for the mode, else `activation`;
// alpha1 and z do not change that.
TEST_P(ConvFusion, BiasActivationModesOtherThanReluStayOnPrivate)
{
    struct ModeCase
    {
        miopenActivationMode_t mode;
        double a, b, g;
        const char* reason;
    };
    const ModeCase cases[] = {{miopenActivationPASTHRU, 0, 0, 0, "activation"},
                              {miopenActivationLOGISTIC, 0, 0, 0, "activation"},
                              {miopenActivationTANH, 1, 1, 0, "activation"},
                              {miopenActivationTANH, 2, 0.5, 0, "activation-tanh-scaled"},
                              {miopenActivationSOFTRELU, 0, 0, 0, "activation"},
                              {miopenActivationABS, 0, 0, 0, "activation"},
                              {miopenActivationPOWER, 1, 1, 2, "activation-power"},
                              {miopenActivationCLIPPEDRELU, 0.5, 0, 0, "activation"},
                              {miopenActivationLEAKYRELU, 0.1, 0, 0, "activation"},
                              {miopenActivationELU, 0.5, 0, 0, "activation"}};
    const auto z = randomFloats(yCount, rng);
    const float alpha1 = GetParam() % 2 == 0 ? 1.0f : 0.5f, alpha2 = 0.25f;
    std::vector<float> y(yCount);
    for(const auto& mc : cases)
    {
        SCOPED_TRACE("activation mode " + std::to_string(static_cast<int>(mc.mode)));
        Activ act(mc.mode, mc.a, mc.b, mc.g);
        const test::route::Probe probe;
        EXPECT_EQ(miopenStatusNotImplemented,
                  miopenConvolutionBiasActivationForward(h, &alpha1, *xd, x.data(), *wd, w.data(), conv,
                                                         miopenConvolutionFwdAlgoGEMM, nullptr, 0, &alpha2, *yd,
                                                         GetParam() % 2 == 0 ? nullptr : z.data(), *bd, b.data(), act,
                                                         *yd, y.data()));
        EXPECT_TRUE(probe.check("miopenConvolutionBiasActivationForward", test::route::Expected::declined(mc.reason)));
    }
}

INSTANTIATE_TEST_SUITE_P(Seeds, ConvFusion, ::testing::Range(0, 4));

class BnActivFusion : public ::testing::TestWithParam<std::tuple<miopenDataType_t, miopenBatchNormMode_t>>
{
protected:
    miopenHandle_t h() const { return _h; }

private:
    test::Handle _h;
};

TEST_P(BnActivFusion, BatchNormInferenceActivationPlanMatchesUnfusedCalls)
{
    const auto [t, mode] = GetParam();
    std::mt19937 rng(31u + static_cast<unsigned>(t) * 3u + static_cast<unsigned>(mode));
    const std::vector<int> lens = {3, 4, 5, 6};
    test::Tensor xd(t, lens, {});
    test::Tensor bn;
    ASSERT_MIOPEN_OK(miopenDeriveBNTensorDescriptor(bn, xd, mode));
    const std::size_t n = 3 * 4 * 5 * 6, f = mode == miopenBNSpatial ? 4 : 4 * 5 * 6;
    std::vector<unsigned char> x(n * test::typeSize(t));
    test::fillRandom(t, x.data(), n, rng);
    auto sc = randomFloats(f, rng, 0.5f, 1.5f), bi = randomFloats(f, rng), mean = randomFloats(f, rng), var = randomFloats(f, rng, 0.5f, 2.0f);
    Plan plan(miopenVerticalFusion, xd);
    miopenFusionOpDescriptor_t bnOp, actOp;
    ASSERT_MIOPEN_OK(miopenCreateOpBatchNormInference(plan, &bnOp, mode, bn));
    ASSERT_MIOPEN_OK(miopenCreateOpActivationForward(plan, &actOp, miopenActivationCLIPPEDRELU));
    ASSERT_MIOPEN_OK(miopenCompileFusionPlan(h(), plan));
    Args args;
    const float one = 1.0f, zero = 0.0f;
    ASSERT_MIOPEN_OK(miopenSetOpArgsBatchNormInference(args, bnOp, &one, &zero, sc.data(), bi.data(), mean.data(), var.data(), 1e-4));
    ASSERT_MIOPEN_OK(miopenSetOpArgsActivForward(args, actOp, &one, &zero, 0.8, 0, 0));
    std::vector<unsigned char> y(x.size()), ref(x.size());
    ASSERT_MIOPEN_OK(miopenExecuteFusionPlan(h(), plan, xd, x.data(), xd, y.data(), args));
    float o = 1.0f, z = 0.0f;
    ASSERT_MIOPEN_OK(miopenBatchNormalizationForwardInference(h(), mode, &o, &z, xd, x.data(), xd, ref.data(), bn, sc.data(), bi.data(),
                                                              mean.data(), var.data(), 1e-4));
    Activ act(miopenActivationCLIPPEDRELU, 0.8, 0, 0);
    ASSERT_MIOPEN_OK(miopenActivationForward(h(), act, &one, xd, ref.data(), &zero, xd, ref.data()));
    // The fused path rounds once, the unfused one twice (after BN and after the activation).
    const test::Layout l = test::makeLayout(lens, 0);
    const auto gv = test::toDoubles(t, y.data(), l), rv = test::toDoubles(t, ref.data(), l);
    for(std::size_t i = 0; i < n; ++i)
        ASSERT_NEAR(gv[i], rv[i], 2 * test::tolerance(t)) << i;
}

INSTANTIATE_TEST_SUITE_P(All, BnActivFusion,
                         ::testing::Combine(::testing::Values(miopenFloat, miopenHalf, miopenBFloat16),
                                            ::testing::Values(miopenBNSpatial, miopenBNPerActivation)));

TEST(FusionPlan, UnfusablePlansCompileToUnsupportedOp)
{
    test::Handle h;
    test::Tensor xd(miopenFloat, {2, 3, 8, 8}, {}), wd(miopenFloat, {4, 3, 3, 3}, {}), bd(miopenFloat, {1, 4, 1, 1}, {});
    test::Tensor bn(miopenFloat, {1, 3, 1, 1}, {});
    test::Conv conv;
    ASSERT_MIOPEN_OK(miopenInitConvolutionDescriptor(conv, miopenConvolution, 1, 1, 1, 1, 1, 1));
    miopenFusionOpDescriptor_t op;
    {
        Plan p(miopenVerticalFusion, xd); // activation backward alone
        ASSERT_MIOPEN_OK(miopenCreateOpActivationBackward(p, &op, miopenActivationRELU));
        EXPECT_EQ(miopenStatusUnsupportedOp, miopenCompileFusionPlan(h, p));
    }
    {
        Plan p(miopenHorizontalFusion, xd); // horizontal
        ASSERT_MIOPEN_OK(miopenCreateOpConvForward(p, &op, conv, wd));
        ASSERT_MIOPEN_OK(miopenCreateOpActivationForward(p, &op, miopenActivationRELU));
        EXPECT_EQ(miopenStatusUnsupportedOp, miopenCompileFusionPlan(h, p));
    }
    {
        Plan p(miopenVerticalFusion, xd); // activation before the convolution
        ASSERT_MIOPEN_OK(miopenCreateOpActivationForward(p, &op, miopenActivationRELU));
        ASSERT_MIOPEN_OK(miopenCreateOpConvForward(p, &op, conv, wd));
        EXPECT_EQ(miopenStatusUnsupportedOp, miopenCompileFusionPlan(h, p));
    }
    {
        Plan p(miopenVerticalFusion, xd); // a single operator: nothing to fuse
        ASSERT_MIOPEN_OK(miopenCreateOpConvForward(p, &op, conv, wd));
        EXPECT_EQ(miopenStatusUnsupportedOp, miopenCompileFusionPlan(h, p));
    }
    {
        Plan p(miopenVerticalFusion, xd); // batchnorm training + activation
        ASSERT_MIOPEN_OK(miopenCreateOpBatchNormForward(p, &op, miopenBNSpatial, true));
        ASSERT_MIOPEN_OK(miopenCreateOpActivationForward(p, &op, miopenActivationRELU));
        EXPECT_EQ(miopenStatusUnsupportedOp, miopenCompileFusionPlan(h, p));
    }
    {
        Plan p(miopenVerticalFusion, xd); // batchnorm backward + activation backward
        ASSERT_MIOPEN_OK(miopenCreateOpBatchNormBackward(p, &op, miopenBNSpatial));
        ASSERT_MIOPEN_OK(miopenCreateOpActivationBackward(p, &op, miopenActivationRELU));
        EXPECT_EQ(miopenStatusUnsupportedOp, miopenCompileFusionPlan(h, p));
    }
    {
        Plan p(miopenVerticalFusion, xd); // bias before the convolution, then a fusable tail
        ASSERT_MIOPEN_OK(miopenCreateOpBiasForward(p, &op, bd));
        ASSERT_MIOPEN_OK(miopenCreateOpActivationForward(p, &op, miopenActivationRELU));
        EXPECT_EQ(miopenStatusUnsupportedOp, miopenCompileFusionPlan(h, p));
    }
    {
        // Not compiled: execution refuses.
        Plan p(miopenVerticalFusion, xd);
        miopenFusionOpDescriptor_t bnOp, actOp;
        ASSERT_MIOPEN_OK(miopenCreateOpBatchNormInference(p, &bnOp, miopenBNSpatial, bn));
        ASSERT_MIOPEN_OK(miopenCreateOpActivationForward(p, &actOp, miopenActivationRELU));
        Args args;
        std::vector<float> buf(2 * 3 * 8 * 8);
        EXPECT_EQ(miopenStatusBadParm, miopenExecuteFusionPlan(h, p, xd, buf.data(), xd, buf.data(), args));
        ASSERT_MIOPEN_OK(miopenCompileFusionPlan(h, p));
        // Compiled but arguments missing.
        EXPECT_EQ(miopenStatusBadParm, miopenExecuteFusionPlan(h, p, xd, buf.data(), xd, buf.data(), args));
    }
}

// ---- miopenExecuteFusionPlan forwarded to hipDNN (issue 11) -----------------------------------------
// In the forwarding runs (api.cmake) a compiled conv [bias] [RELU] plan or batchnorm inference +
// activation plan runs as one hipDNN graph; everything else is declined to Private with its
// reason, and what Private must judge keeps Private's status. With forwarding disabled the same
// checks see pass-through. Numerics against plain loops here, independent of the library.

// The invalid-arguments route of one call (Private judged it): exactly one more `invalid` count
// with that reason; with forwarding disabled, no count at all.
class InvalidProbe
{
public:
    InvalidProbe() : _before(test::route::readCounters()) {}
    ::testing::AssertionResult check(const std::string& entry, const std::string& why) const
    {
        const auto now = test::route::readCounters();
        const auto b   = _before.count(entry) != 0 ? _before.at(entry) : test::route::EntryCounts{};
        const auto a   = now.count(entry) != 0 ? now.at(entry) : test::route::EntryCounts{};
        const long inv = a.invalid - b.invalid, other = (a.forwarded - b.forwarded) + (a.declined - b.declined);
        if(!test::route::forwardingEnabled())
            return inv == 0 && other == 0 ? ::testing::AssertionSuccess()
                                          : ::testing::AssertionFailure() << "counted with forwarding disabled";
        if(inv != 1 || other != 0 || a.last != "route=miopen reason=invalid-arguments:" + why)
            return ::testing::AssertionFailure() << entry << ": invalid+" << inv << " other+" << other << ", last '"
                                                 << a.last << "', expected invalid-arguments:" << why;
        return ::testing::AssertionSuccess();
    }

private:
    std::map<std::string, test::route::EntryCounts> _before;
};

double activate(miopenActivationMode_t m, double a, double x)
{
    switch(m)
    {
    case miopenActivationRELU: return x > 0 ? x : 0.0;
    case miopenActivationCLIPPEDRELU: return std::min(a, std::max(0.0, x));
    case miopenActivationLEAKYRELU: return x > 0 ? x : a * x;
    case miopenActivationLOGISTIC: return 1.0 / (1.0 + std::exp(-x));
    case miopenActivationELU: return x > 0 ? x : a * (std::exp(x) - 1.0);
    case miopenActivationTANH: return std::tanh(x); // alpha = beta = 1
    case miopenActivationSOFTRELU: return std::log1p(std::exp(x));
    case miopenActivationABS: return std::fabs(x);
    case miopenActivationPASTHRU: return x;
    default: ADD_FAILURE() << "no reference for activation mode " << m; return x;
    }
}

// Plain-loop NCHW convolution (groups 1, dilation 1) [+ bias] [+ RELU], in double.
std::vector<double> convReference(const ConvShape& cs, const std::vector<int>& y, const std::vector<float>& x,
                                  const std::vector<float>& w, const float* bias, bool relu)
{
    std::vector<double> out(static_cast<std::size_t>(y[0] * y[1] * y[2] * y[3]));
    for(int n = 0; n < y[0]; ++n)
        for(int k = 0; k < y[1]; ++k)
            for(int oh = 0; oh < y[2]; ++oh)
                for(int ow = 0; ow < y[3]; ++ow)
                {
                    double acc = bias != nullptr ? bias[k] : 0.0;
                    for(int c = 0; c < cs.c; ++c)
                        for(int r = 0; r < cs.r; ++r)
                            for(int s = 0; s < cs.s; ++s)
                            {
                                const int ih = oh * cs.stride - cs.pad + r, iw = ow * cs.stride - cs.pad + s;
                                if(ih < 0 || iw < 0 || ih >= cs.h || iw >= cs.w)
                                    continue;
                                acc += static_cast<double>(x[static_cast<std::size_t>(((n * cs.c + c) * cs.h + ih) * cs.w + iw)]) *
                                       w[static_cast<std::size_t>(((k * cs.c + c) * cs.r + r) * cs.s + s)];
                            }
                    out[static_cast<std::size_t>(((n * y[1] + k) * y[2] + oh) * y[3] + ow)] = relu && acc < 0 ? 0.0 : acc;
                }
    return out;
}

void expectNearRef(const std::vector<float>& got, const std::vector<double>& ref, double tol)
{
    ASSERT_EQ(got.size(), ref.size());
    for(std::size_t i = 0; i < got.size(); ++i)
        ASSERT_LE(std::fabs(got[i] - ref[i]), tol * std::max(1.0, std::fabs(ref[i]))) << "element " << i;
}

TEST_P(ConvFusion, ForwardedConvPlansMatchPlainLoops)
{
    const float one = 1.0f, zero = 0.0f;
    // conv + bias + RELU, conv + RELU, conv + bias: each one hipDNN graph when forwarding is on.
    for(int variant = 0; variant < 3; ++variant)
    {
        const bool withBias = variant != 1, withRelu = variant != 2;
        Plan plan(miopenVerticalFusion, *xd);
        miopenFusionOpDescriptor_t convOp = nullptr, biasOp = nullptr, actOp = nullptr;
        ASSERT_MIOPEN_OK(miopenCreateOpConvForward(plan, &convOp, conv, *wd));
        if(withBias)
        {
            ASSERT_MIOPEN_OK(miopenCreateOpBiasForward(plan, &biasOp, *bd));
        }
        if(withRelu)
        {
            ASSERT_MIOPEN_OK(miopenCreateOpActivationForward(plan, &actOp, miopenActivationRELU));
        }
        ASSERT_MIOPEN_OK(miopenCompileFusionPlan(h, plan));
        Args args;
        ASSERT_MIOPEN_OK(miopenSetOpArgsConvForward(args, convOp, &one, &zero, w.data()));
        if(withBias)
        {
            ASSERT_MIOPEN_OK(miopenSetOpArgsBiasForward(args, biasOp, &one, &zero, b.data()));
        }
        if(withRelu)
        {
            ASSERT_MIOPEN_OK(miopenSetOpArgsActivForward(args, actOp, &one, &zero, 0, 0, 0));
        }
        std::vector<float> y(yCount, 7.0f);
        const test::route::Probe probe;
        ASSERT_MIOPEN_OK(miopenExecuteFusionPlan(h, plan, *xd, x.data(), *yd, y.data(), args));
        EXPECT_TRUE(probe.check("miopenExecuteFusionPlan", test::route::Expected::forwarded())) << "variant " << variant;
        expectNearRef(y, convReference(cs, yLens, x, w, withBias ? b.data() : nullptr, withRelu), bound());
        // The same plan again (a plan-cache hit) with new weights: the arguments are read per call.
        auto w2 = randomFloats(w.size(), rng);
        ASSERT_MIOPEN_OK(miopenSetOpArgsConvForward(args, convOp, &one, &zero, w2.data()));
        const test::route::Probe again;
        ASSERT_MIOPEN_OK(miopenExecuteFusionPlan(h, plan, *xd, x.data(), *yd, y.data(), args));
        EXPECT_TRUE(again.check("miopenExecuteFusionPlan", test::route::Expected::forwarded()));
        expectNearRef(y, convReference(cs, yLens, x, w2, withBias ? b.data() : nullptr, withRelu), bound());
    }
}

TEST_P(ConvFusion, UnforwardablePlansAreDeclinedWithTheirReason)
{
    const float one = 1.0f, zero = 0.0f, half = 0.5f;
    // Activations other than RELU after a convolution: forwarded (the engines' conv epilogue).
    const struct
    {
        miopenActivationMode_t m;
        double a, b;
    } modes[] = {{miopenActivationLOGISTIC, 0, 0},    {miopenActivationTANH, 1, 1}, {miopenActivationCLIPPEDRELU, 0.5, 0},
                 {miopenActivationLEAKYRELU, 0.1, 0}, {miopenActivationELU, 0.7, 0}, {miopenActivationSOFTRELU, 0, 0},
                 {miopenActivationABS, 0, 0},         {miopenActivationPASTHRU, 0, 0}};
    for(const auto& mode : modes)
    {
        Plan plan(miopenVerticalFusion, *xd);
        miopenFusionOpDescriptor_t convOp, actOp;
        ASSERT_MIOPEN_OK(miopenCreateOpConvForward(plan, &convOp, conv, *wd));
        ASSERT_MIOPEN_OK(miopenCreateOpActivationForward(plan, &actOp, mode.m));
        ASSERT_MIOPEN_OK(miopenCompileFusionPlan(h, plan));
        Args args;
        ASSERT_MIOPEN_OK(miopenSetOpArgsConvForward(args, convOp, &one, &zero, w.data()));
        ASSERT_MIOPEN_OK(miopenSetOpArgsActivForward(args, actOp, &one, &zero, mode.a, mode.b, 0));
        std::vector<float> y(yCount);
        const test::route::Probe probe;
        ASSERT_MIOPEN_OK(miopenExecuteFusionPlan(h, plan, *xd, x.data(), *yd, y.data(), args));
        EXPECT_TRUE(probe.check("miopenExecuteFusionPlan", test::route::Expected::forwarded())) << mode.m;
        auto ref = convReference(cs, yLens, x, w, nullptr, false);
        for(auto& v : ref)
            v = activate(mode.m, mode.a, v);
        expectNearRef(y, ref, bound());
    }
    {
        // The convolution's alpha scales its result: not expressed by the graph.
        Plan scaled(miopenVerticalFusion, *xd);
        miopenFusionOpDescriptor_t convOp, actOp;
        std::vector<float> y(yCount);
        ASSERT_MIOPEN_OK(miopenCreateOpConvForward(scaled, &convOp, conv, *wd));
        ASSERT_MIOPEN_OK(miopenCreateOpActivationForward(scaled, &actOp, miopenActivationRELU));
        ASSERT_MIOPEN_OK(miopenCompileFusionPlan(h, scaled));
        Args sargs;
        ASSERT_MIOPEN_OK(miopenSetOpArgsConvForward(sargs, convOp, &half, &zero, w.data()));
        ASSERT_MIOPEN_OK(miopenSetOpArgsActivForward(sargs, actOp, &one, &zero, 0, 0, 0));
        const test::route::Probe alphaProbe;
        ASSERT_MIOPEN_OK(miopenExecuteFusionPlan(h, scaled, *xd, x.data(), *yd, y.data(), sargs));
        EXPECT_TRUE(alphaProbe.check("miopenExecuteFusionPlan", test::route::Expected::declined("alpha!=1")));
        auto ref = convReference(cs, yLens, x, w, nullptr, false);
        for(auto& v : ref)
            v = std::max(0.0, 0.5 * v);
        expectNearRef(y, ref, bound());
    }
    {
        // conv -> bias -> batchnorm inference -> RELU: no engine fuses a convolution with batchnorm.
        test::Tensor bn(miopenFloat, {1, cs.k, 1, 1}, {});
        const auto sc = randomFloats(static_cast<std::size_t>(cs.k), rng, 0.5f, 1.5f), bi = randomFloats(static_cast<std::size_t>(cs.k), rng);
        const auto mean = randomFloats(static_cast<std::size_t>(cs.k), rng), var = randomFloats(static_cast<std::size_t>(cs.k), rng, 0.5f, 2.0f);
        Plan plan(miopenVerticalFusion, *xd);
        miopenFusionOpDescriptor_t convOp, biasOp, bnOp, actOp;
        ASSERT_MIOPEN_OK(miopenCreateOpConvForward(plan, &convOp, conv, *wd));
        ASSERT_MIOPEN_OK(miopenCreateOpBiasForward(plan, &biasOp, *bd));
        ASSERT_MIOPEN_OK(miopenCreateOpBatchNormInference(plan, &bnOp, miopenBNSpatial, bn));
        ASSERT_MIOPEN_OK(miopenCreateOpActivationForward(plan, &actOp, miopenActivationRELU));
        ASSERT_MIOPEN_OK(miopenCompileFusionPlan(h, plan));
        Args args;
        ASSERT_MIOPEN_OK(miopenSetOpArgsConvForward(args, convOp, &one, &zero, w.data()));
        ASSERT_MIOPEN_OK(miopenSetOpArgsBiasForward(args, biasOp, &one, &zero, b.data()));
        ASSERT_MIOPEN_OK(miopenSetOpArgsBatchNormInference(args, bnOp, &one, &zero, sc.data(), bi.data(), mean.data(), var.data(), 1e-5));
        ASSERT_MIOPEN_OK(miopenSetOpArgsActivForward(args, actOp, &one, &zero, 0, 0, 0));
        std::vector<float> y(yCount);
        const test::route::Probe probe;
        ASSERT_MIOPEN_OK(miopenExecuteFusionPlan(h, plan, *xd, x.data(), *yd, y.data(), args));
        EXPECT_TRUE(probe.check("miopenExecuteFusionPlan", test::route::Expected::declined("conv-batchnorm")));
        auto ref = convReference(cs, yLens, x, w, b.data(), false);
        const std::size_t plane = yCount / static_cast<std::size_t>(cs.k * yLens[0]);
        for(std::size_t i = 0; i < ref.size(); ++i)
        {
            const std::size_t k = (i / plane) % static_cast<std::size_t>(cs.k);
            ref[i] = std::max(0.0, sc[k] * (ref[i] - mean[k]) / std::sqrt(var[k] + 1e-5) + bi[k]);
        }
        expectNearRef(y, ref, bound());
    }
}

TEST_P(ConvFusion, BadInputKeepsPrivatesStatusAndRecordsFollowTheObjects)
{
    const float one = 1.0f, zero = 0.0f;
    std::vector<float> y(yCount);
    {
        Plan plan(miopenVerticalFusion, *xd);
        miopenFusionOpDescriptor_t convOp, actOp;
        ASSERT_MIOPEN_OK(miopenCreateOpConvForward(plan, &convOp, conv, *wd));
        ASSERT_MIOPEN_OK(miopenCreateOpActivationForward(plan, &actOp, miopenActivationRELU));
        Args args;
        ASSERT_MIOPEN_OK(miopenSetOpArgsConvForward(args, convOp, &one, &zero, w.data()));
        {
            const InvalidProbe probe; // not compiled
            EXPECT_EQ(miopenStatusBadParm, miopenExecuteFusionPlan(h, plan, *xd, x.data(), *yd, y.data(), args));
            EXPECT_TRUE(probe.check("miopenExecuteFusionPlan", "not-compiled"));
        }
        ASSERT_MIOPEN_OK(miopenCompileFusionPlan(h, plan));
        {
            const InvalidProbe probe; // the activation's arguments were never set
            EXPECT_EQ(miopenStatusBadParm, miopenExecuteFusionPlan(h, plan, *xd, x.data(), *yd, y.data(), args));
            EXPECT_TRUE(probe.check("miopenExecuteFusionPlan", "missing-op-args"));
        }
        ASSERT_MIOPEN_OK(miopenSetOpArgsActivForward(args, actOp, &one, &zero, 0, 0, 0));
        {
            const InvalidProbe probe; // the output descriptor is not the plan's
            test::Tensor wrongY(miopenFloat, {yLens[0] + 1, yLens[1], yLens[2], yLens[3]}, {});
            EXPECT_EQ(miopenStatusBadParm, miopenExecuteFusionPlan(h, plan, *xd, x.data(), wrongY, y.data(), args));
            EXPECT_TRUE(probe.check("miopenExecuteFusionPlan", "output-descriptor"));
        }
        {
            const InvalidProbe probe; // another input descriptor
            test::Tensor other(miopenFloat, {cs.n + 1, cs.c, cs.h, cs.w}, {});
            EXPECT_EQ(miopenStatusBadParm, miopenExecuteFusionPlan(h, plan, other, x.data(), *yd, y.data(), args));
            EXPECT_TRUE(probe.check("miopenExecuteFusionPlan", "input-descriptor"));
        }
        {
            const InvalidProbe probe;
            EXPECT_EQ(miopenStatusBadParm, miopenExecuteFusionPlan(h, plan, *xd, nullptr, *yd, y.data(), args));
            EXPECT_TRUE(probe.check("miopenExecuteFusionPlan", "null-data-pointer"));
        }
    }
    {
        // An operator appended after a successful compile: Private drops the compiled form, and so
        // does the wrapper's record.
        Plan plan(miopenVerticalFusion, *xd);
        miopenFusionOpDescriptor_t convOp, biasOp, actOp;
        ASSERT_MIOPEN_OK(miopenCreateOpConvForward(plan, &convOp, conv, *wd));
        ASSERT_MIOPEN_OK(miopenCreateOpBiasForward(plan, &biasOp, *bd));
        ASSERT_MIOPEN_OK(miopenCompileFusionPlan(h, plan));
        ASSERT_MIOPEN_OK(miopenCreateOpActivationForward(plan, &actOp, miopenActivationRELU));
        Args args;
        ASSERT_MIOPEN_OK(miopenSetOpArgsConvForward(args, convOp, &one, &zero, w.data()));
        ASSERT_MIOPEN_OK(miopenSetOpArgsBiasForward(args, biasOp, &one, &zero, b.data()));
        ASSERT_MIOPEN_OK(miopenSetOpArgsActivForward(args, actOp, &one, &zero, 0, 0, 0));
        const InvalidProbe probe;
        EXPECT_EQ(miopenStatusBadParm, miopenExecuteFusionPlan(h, plan, *xd, x.data(), *yd, y.data(), args));
        EXPECT_TRUE(probe.check("miopenExecuteFusionPlan", "not-compiled"));
        // Compiled again: forwarded, with all three operators.
        ASSERT_MIOPEN_OK(miopenCompileFusionPlan(h, plan));
        const test::route::Probe fwd;
        ASSERT_MIOPEN_OK(miopenExecuteFusionPlan(h, plan, *xd, x.data(), *yd, y.data(), args));
        EXPECT_TRUE(fwd.check("miopenExecuteFusionPlan", test::route::Expected::forwarded()));
        expectNearRef(y, convReference(cs, yLens, x, w, b.data(), true), bound());
    }
    // Plans and argument objects destroyed and created again (often at the same addresses): the
    // new ones are what runs, never a stale record.
    for(int round = 0; round < 3; ++round)
    {
        const bool withBias = round != 1;
        Plan plan(miopenVerticalFusion, *xd);
        miopenFusionOpDescriptor_t convOp, biasOp = nullptr, actOp;
        ASSERT_MIOPEN_OK(miopenCreateOpConvForward(plan, &convOp, conv, *wd));
        if(withBias)
        {
            ASSERT_MIOPEN_OK(miopenCreateOpBiasForward(plan, &biasOp, *bd));
        }
        ASSERT_MIOPEN_OK(miopenCreateOpActivationForward(plan, &actOp, miopenActivationRELU));
        ASSERT_MIOPEN_OK(miopenCompileFusionPlan(h, plan));
        Args args;
        ASSERT_MIOPEN_OK(miopenSetOpArgsConvForward(args, convOp, &one, &zero, w.data()));
        ASSERT_MIOPEN_OK(miopenSetOpArgsActivForward(args, actOp, &one, &zero, 0, 0, 0));
        if(round == 2)
        {
            // The bias's arguments missing from a fresh object: Private's status, whatever the
            // previous object (destroyed) held.
            const InvalidProbe probe;
            EXPECT_EQ(miopenStatusBadParm, miopenExecuteFusionPlan(h, plan, *xd, x.data(), *yd, y.data(), args));
            EXPECT_TRUE(probe.check("miopenExecuteFusionPlan", "missing-op-args"));
            continue;
        }
        if(withBias)
        {
            ASSERT_MIOPEN_OK(miopenSetOpArgsBiasForward(args, biasOp, &one, &zero, b.data()));
        }
        const test::route::Probe probe;
        ASSERT_MIOPEN_OK(miopenExecuteFusionPlan(h, plan, *xd, x.data(), *yd, y.data(), args));
        EXPECT_TRUE(probe.check("miopenExecuteFusionPlan", test::route::Expected::forwarded()));
        expectNearRef(y, convReference(cs, yLens, x, w, withBias ? b.data() : nullptr, true), bound());
    }
}

class ConvFusionReduced : public ::testing::TestWithParam<miopenDataType_t>
{
};

// conv + bias + RELU in fp16 and bf16: forwarded, against the plain loops on the same (rounded)
// inputs, with one rounding of the output to the type plus the fp32 accumulation bound.
TEST_P(ConvFusionReduced, ConvBiasReluPlanForwardedInReducedPrecision)
{
    const miopenDataType_t t = GetParam();
    for(int seed = 0; seed < 3; ++seed)
    {
        std::mt19937 rng(5150u + static_cast<unsigned>(seed) + 17u * static_cast<unsigned>(t));
        const ConvShape cs = randomConv(rng);
        test::Handle h;
        test::Conv conv;
        ASSERT_MIOPEN_OK(miopenInitConvolutionDescriptor(conv, miopenConvolution, cs.pad, cs.pad, cs.stride, cs.stride, 1, 1));
        test::Tensor xd(t, {cs.n, cs.c, cs.h, cs.w}, {}), wd(t, {cs.k, cs.c, cs.r, cs.s}, {}), bd(t, {1, cs.k, 1, 1}, {});
        int on, oc, oh, ow;
        ASSERT_MIOPEN_OK(miopenGetConvolutionForwardOutputDim(conv, xd, wd, &on, &oc, &oh, &ow));
        const std::vector<int> yLens = {on, oc, oh, ow};
        test::Tensor yd(t, yLens, {});
        const std::size_t nx = static_cast<std::size_t>(cs.n * cs.c * cs.h * cs.w), nw = static_cast<std::size_t>(cs.k * cs.c * cs.r * cs.s),
                          nb = static_cast<std::size_t>(cs.k), ny = static_cast<std::size_t>(on * oc * oh * ow);
        const std::size_t es = test::typeSize(t);
        std::vector<unsigned char> x(nx * es), w(nw * es), b(nb * es), y(ny * es);
        test::fillRandom(t, x.data(), nx, rng);
        test::fillRandom(t, w.data(), nw, rng);
        test::fillRandom(t, b.data(), nb, rng);
        Plan plan(miopenVerticalFusion, xd);
        miopenFusionOpDescriptor_t convOp, biasOp, actOp;
        ASSERT_MIOPEN_OK(miopenCreateOpConvForward(plan, &convOp, conv, wd));
        ASSERT_MIOPEN_OK(miopenCreateOpBiasForward(plan, &biasOp, bd));
        ASSERT_MIOPEN_OK(miopenCreateOpActivationForward(plan, &actOp, miopenActivationRELU));
        ASSERT_MIOPEN_OK(miopenCompileFusionPlan(h, plan));
        Args args;
        const float one = 1.0f, zero = 0.0f;
        ASSERT_MIOPEN_OK(miopenSetOpArgsConvForward(args, convOp, &one, &zero, w.data()));
        ASSERT_MIOPEN_OK(miopenSetOpArgsBiasForward(args, biasOp, &one, &zero, b.data()));
        ASSERT_MIOPEN_OK(miopenSetOpArgsActivForward(args, actOp, &one, &zero, 0, 0, 0));
        const test::route::Probe probe;
        ASSERT_MIOPEN_OK(miopenExecuteFusionPlan(h, plan, xd, x.data(), yd, y.data(), args));
        EXPECT_TRUE(probe.check("miopenExecuteFusionPlan", test::route::Expected::forwarded()));
        std::vector<float> xf(nx), wf(nw), bf(nb);
        for(std::size_t i = 0; i < nx; ++i)
            xf[i] = test::load(t, x.data(), i);
        for(std::size_t i = 0; i < nw; ++i)
            wf[i] = test::load(t, w.data(), i);
        for(std::size_t i = 0; i < nb; ++i)
            bf[i] = test::load(t, b.data(), i);
        const auto ref = convReference(cs, yLens, xf, wf, bf.data(), true);
        const double tol = test::tolerance(t) + 16.0 * cs.c * cs.r * cs.s * std::ldexp(1.0, -24);
        for(std::size_t i = 0; i < ny; ++i)
            ASSERT_NEAR(test::load(t, y.data(), i), ref[i], 2 * tol * std::max(1.0, std::fabs(ref[i]))) << "element " << i;
    }
}

INSTANTIATE_TEST_SUITE_P(Types, ConvFusionReduced, ::testing::Values(miopenHalf, miopenBFloat16));

TEST(FusionForwarding, OnePlanFromSeveralThreads)
{
    // One compiled plan and per-thread argument objects, executed concurrently (the records are
    // shared under the wrapper's mutex; each thread's output against the plain loops).
    const ConvShape cs{2, 3, 9, 9, 4, 3, 3, 1, 1};
    test::Handle h;
    test::Conv conv;
    ASSERT_MIOPEN_OK(miopenInitConvolutionDescriptor(conv, miopenConvolution, 1, 1, 1, 1, 1, 1));
    test::Tensor xd(miopenFloat, {2, 3, 9, 9}, {}), wd(miopenFloat, {4, 3, 3, 3}, {}), yd(miopenFloat, {2, 4, 9, 9}, {}),
        bd(miopenFloat, {1, 4, 1, 1}, {});
    std::mt19937 rng(77u);
    const auto x = randomFloats(2 * 3 * 9 * 9, rng), b = randomFloats(4, rng);
    Plan plan(miopenVerticalFusion, xd);
    miopenFusionOpDescriptor_t convOp, biasOp, actOp;
    ASSERT_MIOPEN_OK(miopenCreateOpConvForward(plan, &convOp, conv, wd));
    ASSERT_MIOPEN_OK(miopenCreateOpBiasForward(plan, &biasOp, bd));
    ASSERT_MIOPEN_OK(miopenCreateOpActivationForward(plan, &actOp, miopenActivationRELU));
    ASSERT_MIOPEN_OK(miopenCompileFusionPlan(h, plan));
    constexpr int kThreads = 4;
    std::vector<std::vector<float>> ws(kThreads), ys(kThreads, std::vector<float>(2 * 4 * 9 * 9));
    for(auto& w : ws)
        w = randomFloats(4 * 3 * 3 * 3, rng);
    std::vector<miopenStatus_t> st(kThreads, miopenStatusUnknownError);
    std::vector<std::thread> threads;
    for(int t = 0; t < kThreads; ++t)
        threads.emplace_back([&, t] {
            miopenHandle_t th = nullptr;
            if(miopenCreate(&th) != miopenStatusSuccess)
                return;
            miopenOperatorArgs_t args = nullptr;
            const float one = 1.0f, zero = 0.0f;
            st[static_cast<std::size_t>(t)] = miopenCreateOperatorArgs(&args);
            for(int i = 0; i < 5 && st[static_cast<std::size_t>(t)] == miopenStatusSuccess; ++i)
            {
                miopenStatus_t s = miopenSetOpArgsConvForward(args, convOp, &one, &zero, ws[static_cast<std::size_t>(t)].data());
                if(s == miopenStatusSuccess)
                    s = miopenSetOpArgsBiasForward(args, biasOp, &one, &zero, b.data());
                if(s == miopenStatusSuccess)
                    s = miopenSetOpArgsActivForward(args, actOp, &one, &zero, 0, 0, 0);
                if(s == miopenStatusSuccess)
                    s = miopenExecuteFusionPlan(th, plan, xd, x.data(), yd, ys[static_cast<std::size_t>(t)].data(), args);
                st[static_cast<std::size_t>(t)] = s;
            }
            miopenDestroyOperatorArgs(args);
            miopenDestroy(th);
        });
    for(auto& th : threads)
        th.join();
    for(int t = 0; t < kThreads; ++t)
    {
        ASSERT_EQ(miopenStatusSuccess, st[static_cast<std::size_t>(t)]) << "thread " << t;
        expectNearRef(ys[static_cast<std::size_t>(t)], convReference(cs, {2, 4, 9, 9}, x, ws[static_cast<std::size_t>(t)], b.data(), true),
                      1e-5);
    }
}

class BnActivForwarding : public ::testing::TestWithParam<std::tuple<miopenDataType_t, int>>
{
};

TEST_P(BnActivForwarding, BatchNormInferenceActivationPlanRunsAsOneGraph)
{
    const auto [t, seed] = GetParam();
    std::mt19937 rng(900u + static_cast<unsigned>(seed) * 7u + static_cast<unsigned>(t));
    std::uniform_int_distribution<int> d(1, 5);
    const std::vector<int> lens = {d(rng), d(rng) + 1, d(rng) + 2, d(rng) + 3};
    const std::size_t n = static_cast<std::size_t>(lens[0] * lens[1] * lens[2] * lens[3]);
    const auto c = static_cast<std::size_t>(lens[1]);
    test::Handle h;
    test::Tensor xd(t, lens, {});
    test::Tensor bn(miopenFloat, {1, lens[1], 1, 1}, {});
    std::vector<unsigned char> x(n * test::typeSize(t));
    test::fillRandom(t, x.data(), n, rng);
    const auto sc = randomFloats(c, rng, 0.5f, 1.5f), bi = randomFloats(c, rng), mean = randomFloats(c, rng),
               var = randomFloats(c, rng, 0.5f, 2.0f);
    const double eps = 1e-4;
    // RELU runs on either engine; the others on the MIOpen engine (oneDNN 2.6's batchnorm fuses
    // RELU only).
    const struct
    {
        miopenActivationMode_t m;
        double a;
    } acts[] = {{miopenActivationRELU, 0}, {miopenActivationCLIPPEDRELU, 0.6}, {miopenActivationLOGISTIC, 0}};
    for(const auto& ac : acts)
    {
        Plan plan(miopenVerticalFusion, xd);
        miopenFusionOpDescriptor_t bnOp, actOp;
        ASSERT_MIOPEN_OK(miopenCreateOpBatchNormInference(plan, &bnOp, miopenBNSpatial, bn));
        ASSERT_MIOPEN_OK(miopenCreateOpActivationForward(plan, &actOp, ac.m));
        ASSERT_MIOPEN_OK(miopenCompileFusionPlan(h, plan));
        Args args;
        const float one = 1.0f, zero = 0.0f;
        ASSERT_MIOPEN_OK(miopenSetOpArgsBatchNormInference(args, bnOp, &one, &zero, sc.data(), bi.data(), mean.data(), var.data(), eps));
        ASSERT_MIOPEN_OK(miopenSetOpArgsActivForward(args, actOp, &one, &zero, ac.a, 0, 0));
        std::vector<unsigned char> y(x.size());
        const test::route::Probe probe;
        ASSERT_MIOPEN_OK(miopenExecuteFusionPlan(h, plan, xd, x.data(), xd, y.data(), args));
        EXPECT_TRUE(probe.check("miopenExecuteFusionPlan", test::route::Expected::forwarded())) << "mode " << ac.m;
        const std::size_t plane = n / (c * static_cast<std::size_t>(lens[0]));
        for(std::size_t i = 0; i < n; ++i)
        {
            const std::size_t k = (i / plane) % c;
            const double v   = sc[k] * (test::load(t, x.data(), i) - mean[k]) / std::sqrt(var[k] + eps) + bi[k];
            const double ref = activate(ac.m, ac.a, v);
            ASSERT_NEAR(test::load(t, y.data(), i), ref, 2 * test::tolerance(t) * std::max(1.0, std::fabs(ref)))
                << "mode " << ac.m << " element " << i;
        }
    }
}

INSTANTIATE_TEST_SUITE_P(Seeds, BnActivForwarding,
                         ::testing::Combine(::testing::Values(miopenFloat, miopenHalf, miopenBFloat16), ::testing::Range(0, 2)));

TEST(FusionForwarding, BatchNormPlansDeclinedWithTheirReason)
{
    test::Handle h;
    const std::vector<int> lens = {2, 3, 4, 5};
    test::Tensor xd(miopenFloat, lens, {});
    std::mt19937 rng(5u);
    const auto x = randomFloats(2 * 3 * 4 * 5, rng);
    const float one = 1.0f, zero = 0.0f;
    std::vector<float> y(x.size());
    {
        // Per-activation batchnorm: hipDNN's inference node is per channel.
        test::Tensor bn(miopenFloat, {1, 3, 4, 5}, {});
        const auto sc = randomFloats(60, rng, 0.5f, 1.5f), bi = randomFloats(60, rng), mean = randomFloats(60, rng),
                   var = randomFloats(60, rng, 0.5f, 2.0f);
        Plan plan(miopenVerticalFusion, xd);
        miopenFusionOpDescriptor_t bnOp, actOp;
        ASSERT_MIOPEN_OK(miopenCreateOpBatchNormInference(plan, &bnOp, miopenBNPerActivation, bn));
        ASSERT_MIOPEN_OK(miopenCreateOpActivationForward(plan, &actOp, miopenActivationRELU));
        ASSERT_MIOPEN_OK(miopenCompileFusionPlan(h, plan));
        Args args;
        ASSERT_MIOPEN_OK(miopenSetOpArgsBatchNormInference(args, bnOp, &one, &zero, sc.data(), bi.data(), mean.data(), var.data(), 1e-5));
        ASSERT_MIOPEN_OK(miopenSetOpArgsActivForward(args, actOp, &one, &zero, 0, 0, 0));
        const test::route::Probe probe;
        ASSERT_MIOPEN_OK(miopenExecuteFusionPlan(h, plan, xd, x.data(), xd, y.data(), args));
        EXPECT_TRUE(probe.check("miopenExecuteFusionPlan", test::route::Expected::declined("per-activation-mode")));
        for(std::size_t i = 0; i < y.size(); ++i)
        {
            const std::size_t f = i % 60;
            ASSERT_NEAR(y[i], std::max(0.0, sc[f] * (x[i] - mean[f]) / std::sqrt(var[f] + 1e-5) + bi[f]), 1e-5);
        }
    }
    test::Tensor bn(miopenFloat, {1, 3, 1, 1}, {});
    const auto sc = randomFloats(3, rng, 0.5f, 1.5f), bi = randomFloats(3, rng), mean = randomFloats(3, rng),
               var = randomFloats(3, rng, 0.5f, 2.0f);
    {
        // A scaled TANH: no pointwise parameters express beta * tanh(alpha * x).
        Plan plan(miopenVerticalFusion, xd);
        miopenFusionOpDescriptor_t bnOp, actOp;
        ASSERT_MIOPEN_OK(miopenCreateOpBatchNormInference(plan, &bnOp, miopenBNSpatial, bn));
        ASSERT_MIOPEN_OK(miopenCreateOpActivationForward(plan, &actOp, miopenActivationTANH));
        ASSERT_MIOPEN_OK(miopenCompileFusionPlan(h, plan));
        Args args;
        ASSERT_MIOPEN_OK(miopenSetOpArgsBatchNormInference(args, bnOp, &one, &zero, sc.data(), bi.data(), mean.data(), var.data(), 1e-5));
        ASSERT_MIOPEN_OK(miopenSetOpArgsActivForward(args, actOp, &one, &zero, 1.5, 0.5, 0));
        const test::route::Probe probe;
        ASSERT_MIOPEN_OK(miopenExecuteFusionPlan(h, plan, xd, x.data(), xd, y.data(), args));
        EXPECT_TRUE(probe.check("miopenExecuteFusionPlan", test::route::Expected::declined("activation-tanh-scaled")));
        for(std::size_t i = 0; i < y.size(); ++i)
        {
            const std::size_t k = (i / 20) % 3;
            ASSERT_NEAR(y[i], 0.5 * std::tanh(1.5 * (sc[k] * (x[i] - mean[k]) / std::sqrt(var[k] + 1e-5) + bi[k])), 1e-5);
        }
    }
    {
        // Batchnorm training + activation: Private does not compile it; executing it is declined
        // up front (no graph expresses it) and Private's status comes back.
        Plan plan(miopenVerticalFusion, xd);
        miopenFusionOpDescriptor_t bnOp, actOp;
        ASSERT_MIOPEN_OK(miopenCreateOpBatchNormForward(plan, &bnOp, miopenBNSpatial, false));
        ASSERT_MIOPEN_OK(miopenCreateOpActivationForward(plan, &actOp, miopenActivationRELU));
        EXPECT_EQ(miopenStatusUnsupportedOp, miopenCompileFusionPlan(h, plan));
        Args args;
        const test::route::Probe probe;
        EXPECT_EQ(miopenStatusBadParm, miopenExecuteFusionPlan(h, plan, xd, x.data(), xd, y.data(), args));
        EXPECT_TRUE(probe.check("miopenExecuteFusionPlan", test::route::Expected::declined("batchnorm-training")));
    }
    {
        Plan plan(miopenVerticalFusion, xd); // bias with no convolution
        test::Tensor bd(miopenFloat, {1, 3, 1, 1}, {});
        miopenFusionOpDescriptor_t biasOp, actOp;
        ASSERT_MIOPEN_OK(miopenCreateOpBiasForward(plan, &biasOp, bd));
        ASSERT_MIOPEN_OK(miopenCreateOpActivationForward(plan, &actOp, miopenActivationRELU));
        EXPECT_EQ(miopenStatusUnsupportedOp, miopenCompileFusionPlan(h, plan));
        Args args;
        const test::route::Probe probe;
        EXPECT_EQ(miopenStatusBadParm, miopenExecuteFusionPlan(h, plan, xd, x.data(), xd, y.data(), args));
        EXPECT_TRUE(probe.check("miopenExecuteFusionPlan", test::route::Expected::declined("bias-without-conv")));
    }
}

} // namespace
