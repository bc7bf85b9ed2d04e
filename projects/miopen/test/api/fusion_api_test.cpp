// Fusion plans through the public C API: each fused plan against the unfused sequence of public
// calls on seeded random shapes; plans without a fused implementation compile to UnsupportedOp;
// the fused convolution + residual + bias + activation call against its unfused equivalent.
#include "api/act_bn_test_util.hpp"
#include "common/api_helpers.hpp"
#include "common/forwarding_route.hpp"

#include <algorithm>
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
    // In the forwarding runs (api.cmake) alpha1 != 1 and a z input are declined to Private up front.
    const test::route::Probe blended;
    ASSERT_MIOPEN_OK(miopenConvolutionBiasActivationForward(h, &alpha1, *xd, x.data(), *wd, w.data(), conv,
                                                            miopenConvolutionFwdAlgoGEMM, nullptr, 0, &alpha2, *yd, z.data(), *bd,
                                                            b.data(), relu, *yd, y.data()));
    EXPECT_TRUE(blended.check("miopenConvolutionBiasActivationForward", test::route::Expected::declined("alpha1!=1")));
    // Unfused: y = alpha1 * conv; y += alpha2 * z (OpTensor); bias; relu.
    std::vector<float> ref = unfused(nullptr, false);
    for(std::size_t i = 0; i < yCount; ++i)
        ref[i] = alpha1 * ref[i] + alpha2 * z[i];
    const float one = 1.0f, zero = 0.0f;
    ASSERT_MIOPEN_OK(miopenConvolutionForwardBias(h, &one, *bd, b.data(), &one, *yd, ref.data()));
    ASSERT_MIOPEN_OK(miopenActivationForward(h, relu, &one, *yd, ref.data(), &zero, *yd, ref.data()));
    expectNear(y, ref, 1e-5);
    // z aliasing y.
    std::vector<float> yz = z;
    ASSERT_MIOPEN_OK(miopenConvolutionBiasActivationForward(h, &alpha1, *xd, x.data(), *wd, w.data(), conv,
                                                            miopenConvolutionFwdAlgoGEMM, nullptr, 0, &alpha2, *yd, yz.data(), *bd,
                                                            b.data(), relu, *yd, yz.data()));
    expectNear(yz, ref, 1e-5);
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

} // namespace
