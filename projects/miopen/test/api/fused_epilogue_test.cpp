// The fused convolution epilogue run batch chunk by batch chunk (fusion.cpp: the convolution is
// applied a few images at a time and each chunk's bias / batchnorm / activation runs right after
// it), against the unfused public calls. The pool is fixed at 2 threads (the CI machine's), so
// the chunk budget is 4 MiB of output, and the shapes are chosen so that one image's output is
// 1.5 MiB: the batch of 3 splits into chunks of 2 and 1. Each case stays small (1x1
// convolutions, <= ~10 MFLOP).
#include "api/act_bn_test_util.hpp"
#include "common/api_helpers.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <memory>
#include <string>
#include <random>
#include <vector>

namespace {

// Before main(), so before the library creates its thread pool.
const bool kTwoThreads = [] {
    setenv("MIOPEN_NUM_THREADS", "2", 1);
    return true;
}();

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

// Values of a buffer of type t as float.
std::vector<float> asFloats(miopenDataType_t t, const std::vector<unsigned char>& b, std::size_t n)
{
    std::vector<float> out(n);
    for(std::size_t i = 0; i < n; ++i)
        out[i] = test::load(t, b.data(), i);
    return out;
}

void expectClose(const std::vector<float>& got, const std::vector<float>& ref, double tol)
{
    ASSERT_EQ(got.size(), ref.size());
    double worst = 0.0;
    std::size_t at = 0;
    for(std::size_t i = 0; i < got.size(); ++i)
    {
        const double d = std::fabs(static_cast<double>(got[i]) - ref[i]) / std::max(1.0, std::fabs(double(ref[i])));
        if(!(d <= worst))
        {
            worst = std::isnan(d) ? 1e30 : d;
            at    = i;
        }
    }
    EXPECT_LE(worst, tol) << "worst element " << at << ": " << got[at] << " vs " << ref[at];
}

struct Case
{
    miopenDataType_t type;
    int n, c, k, hw; // 1x1 convolution, stride 1, pad 0
};

// fp32: 24 x 128 x 128 x 4 B = 1.5 MiB per image: chunks of 2 images, 3 = 2 + 1.
// fp16: 48 x 128 x 128 x 2 B = 1.5 MiB per image: the same split. bf16 likewise.
const Case kCases[] = {
    {miopenFloat, 3, 2, 24, 128},
    {miopenHalf, 3, 2, 48, 128},
    {miopenBFloat16, 3, 2, 48, 128},
};

class FusedEpilogueChunks : public ::testing::TestWithParam<int>
{
protected:
    void SetUp() override
    {
        cs  = kCases[GetParam()];
        ts  = test::typeSize(cs.type);
        xdp = std::make_unique<test::Tensor>(cs.type, std::vector<int>{cs.n, cs.c, cs.hw, cs.hw}, std::vector<int>{});
        wdp = std::make_unique<test::Tensor>(cs.type, std::vector<int>{cs.k, cs.c, 1, 1}, std::vector<int>{});
        bdp = std::make_unique<test::Tensor>(cs.type, std::vector<int>{1, cs.k, 1, 1}, std::vector<int>{});
        ydp = std::make_unique<test::Tensor>(cs.type, std::vector<int>{cs.n, cs.k, cs.hw, cs.hw}, std::vector<int>{});
        nx  = static_cast<std::size_t>(cs.n * cs.c * cs.hw * cs.hw);
        nw  = static_cast<std::size_t>(cs.k * cs.c);
        ny  = static_cast<std::size_t>(cs.n * cs.k * cs.hw * cs.hw);
        std::mt19937 rng(1000 + GetParam());
        x.resize(nx * ts);
        w.resize(nw * ts);
        b.resize(static_cast<std::size_t>(cs.k) * ts);
        z.resize(ny * ts);
        test::fillRandom(cs.type, x.data(), nx, rng);
        test::fillRandom(cs.type, w.data(), nw, rng);
        test::fillRandom(cs.type, b.data(), static_cast<std::size_t>(cs.k), rng);
        test::fillRandom(cs.type, z.data(), ny, rng);
        ASSERT_MIOPEN_OK(miopenInitConvolutionDescriptor(conv, miopenConvolution, 0, 0, 1, 1, 1, 1));
    }

    // The unfused sequence: y = act(conv(x, w) + bias [+ alpha2 * z]) through the public calls.
    std::vector<unsigned char> separate(miopenActivationDescriptor_t act, const std::vector<unsigned char>* zIn,
                                        float alpha2)
    {
        const test::Tensor &xd = *xdp, &wd = *wdp, &bd = *bdp, &yd = *ydp;
        std::vector<unsigned char> y(ny * ts);
        std::size_t wsBytes = 0;
        EXPECT_MIOPEN_OK(miopenConvolutionForwardGetWorkSpaceSize(h, wd, xd, conv, yd, &wsBytes));
        std::vector<char> ws(wsBytes + 1);
        const float one = 1.0f, zero = 0.0f;
        EXPECT_MIOPEN_OK(miopenConvolutionForward(h, &one, xd, x.data(), wd, w.data(), conv,
                                                  miopenConvolutionFwdAlgoGEMM, &zero, yd, y.data(), ws.data(),
                                                  wsBytes));
        if(zIn != nullptr)
        {
            const float a2 = alpha2;
            std::vector<unsigned char> sum(ny * ts);
            EXPECT_MIOPEN_OK(miopenOpTensor(h, miopenTensorOpAdd, &one, yd, y.data(), &a2, yd, zIn->data(), &zero, yd,
                                            sum.data()));
            y = sum;
        }
        EXPECT_MIOPEN_OK(miopenConvolutionForwardBias(h, &one, bd, b.data(), &one, yd, y.data()));
        EXPECT_MIOPEN_OK(miopenActivationForward(h, act, &one, yd, y.data(), &zero, yd, y.data()));
        return y;
    }

    Case cs{};
    std::size_t ts = 0, nx = 0, nw = 0, ny = 0;
    test::Handle h;
    test::Conv conv;
    std::unique_ptr<test::Tensor> xdp, wdp, bdp, ydp;
    std::vector<unsigned char> x, w, b, z;
};

// Rounding: the fused path rounds once (after the activation), the separate calls after each call.
double tol(miopenDataType_t t) { return t == miopenFloat ? 1e-5 : (t == miopenHalf ? 1e-2 : 6e-2); }

TEST_P(FusedEpilogueChunks, PlanConvBiasActivation)
{
    const test::Tensor &xd = *xdp, &wd = *wdp, &bd = *bdp, &yd = *ydp;
    Activ act(miopenActivationLEAKYRELU, 0.25, 0, 0);
    miopenFusionPlanDescriptor_t plan = nullptr;
    ASSERT_MIOPEN_OK(miopenCreateFusionPlan(&plan, miopenVerticalFusion, xd));
    miopenFusionOpDescriptor_t convOp = nullptr, biasOp = nullptr, actOp = nullptr;
    ASSERT_MIOPEN_OK(miopenCreateOpConvForward(plan, &convOp, conv, wd));
    ASSERT_MIOPEN_OK(miopenCreateOpBiasForward(plan, &biasOp, bd));
    ASSERT_MIOPEN_OK(miopenCreateOpActivationForward(plan, &actOp, miopenActivationLEAKYRELU));
    ASSERT_MIOPEN_OK(miopenFusionPlanConvolutionSetAlgo(plan, miopenConvolutionFwdAlgoGEMM));
    ASSERT_MIOPEN_OK(miopenCompileFusionPlan(h, plan));
    miopenOperatorArgs_t args = nullptr;
    ASSERT_MIOPEN_OK(miopenCreateOperatorArgs(&args));
    const float one = 1.0f, zero = 0.0f;
    ASSERT_MIOPEN_OK(miopenSetOpArgsConvForward(args, convOp, &one, &zero, w.data()));
    ASSERT_MIOPEN_OK(miopenSetOpArgsBiasForward(args, biasOp, &one, &zero, b.data()));
    ASSERT_MIOPEN_OK(miopenSetOpArgsActivForward(args, actOp, &one, &zero, 0.25, 0, 0));
    test::GuardedBuffer y(ny * ts);
    ASSERT_MIOPEN_OK(miopenExecuteFusionPlan(h, plan, xd, x.data(), yd, y.data(), args));
    EXPECT_TRUE(y.guardsIntact());
    const auto ref = separate(act, nullptr, 0.0f);
    expectClose(asFloats(cs.type, y.snapshot(), ny), asFloats(cs.type, ref, ny), tol(cs.type));
    miopenDestroyOperatorArgs(args);
    miopenDestroyFusionPlan(plan);
}

TEST_P(FusedEpilogueChunks, ConvBiasActivationWithResidual)
{
    const test::Tensor &xd = *xdp, &wd = *wdp, &bd = *bdp, &yd = *ydp;
    Activ relu(miopenActivationRELU, 0, 0, 0);
    const float one = 1.0f, alpha2 = 0.5f;
    test::GuardedBuffer y(ny * ts);
    ASSERT_MIOPEN_OK(miopenConvolutionBiasActivationForward(h, &one, xd, x.data(), wd, w.data(), conv,
                                                            miopenConvolutionFwdAlgoGEMM, nullptr, 0, &alpha2, yd,
                                                            z.data(), bd, b.data(), relu, yd, y.data()));
    EXPECT_TRUE(y.guardsIntact());
    const auto ref = separate(relu, &z, alpha2);
    expectClose(asFloats(cs.type, y.snapshot(), ny), asFloats(cs.type, ref, ny), tol(cs.type));
}

// z == y: each chunk of z must be read before the convolution of that chunk overwrites it.
TEST_P(FusedEpilogueChunks, ConvBiasActivationResidualInPlace)
{
    const test::Tensor &xd = *xdp, &wd = *wdp, &bd = *bdp, &yd = *ydp;
    Activ relu(miopenActivationRELU, 0, 0, 0);
    const float one = 1.0f, alpha2 = 1.0f;
    std::vector<unsigned char> y = z;
    ASSERT_MIOPEN_OK(miopenConvolutionBiasActivationForward(h, &one, xd, x.data(), wd, w.data(), conv,
                                                            miopenConvolutionFwdAlgoGEMM, nullptr, 0, &alpha2, yd,
                                                            y.data(), bd, b.data(), relu, yd, y.data()));
    const auto ref = separate(relu, &z, alpha2);
    expectClose(asFloats(cs.type, y, ny), asFloats(cs.type, ref, ny), tol(cs.type));
}

INSTANTIATE_TEST_SUITE_P(Types, FusedEpilogueChunks, ::testing::Range(0, 3),
                         [](const ::testing::TestParamInfo<int>& p) {
                             return std::string(p.param == 0 ? "fp32" : p.param == 1 ? "fp16" : "bf16");
                         });

// conv -> bias -> batchnorm (per activation) -> activation, chunked, against the separate calls:
// the per-activation batchnorm parameters are indexed per channel and pixel in every chunk.
TEST(FusedEpilogueChunksBn, PlanConvBiasBnPerActivationActivation)
{
    test::Handle h;
    const int n = 3, c = 2, k = 24, hw = 128;
    test::Tensor xd(miopenFloat, {n, c, hw, hw}, {});
    test::Tensor wd(miopenFloat, {k, c, 1, 1}, {});
    test::Tensor bd(miopenFloat, {1, k, 1, 1}, {});
    test::Tensor yd(miopenFloat, {n, k, hw, hw}, {});
    test::Tensor pd(miopenFloat, {1, k, hw, hw}, {});
    test::Conv conv;
    ASSERT_MIOPEN_OK(miopenInitConvolutionDescriptor(conv, miopenConvolution, 0, 0, 1, 1, 1, 1));
    std::mt19937 rng(77);
    const std::size_t nx = static_cast<std::size_t>(n * c * hw * hw), ny = static_cast<std::size_t>(n * k * hw * hw);
    const std::size_t np = static_cast<std::size_t>(k * hw * hw);
    std::vector<float> x(nx), w(static_cast<std::size_t>(k * c)), b(static_cast<std::size_t>(k)), scale(np),
        shift(np), mean(np), var(np);
    for(auto* v : {&x, &w, &b, &scale, &shift, &mean})
        test::fillRandom(miopenFloat, v->data(), v->size(), rng);
    std::uniform_real_distribution<float> pos(0.5f, 2.0f);
    for(auto& v : var)
        v = pos(rng);

    miopenFusionPlanDescriptor_t plan = nullptr;
    ASSERT_MIOPEN_OK(miopenCreateFusionPlan(&plan, miopenVerticalFusion, xd));
    miopenFusionOpDescriptor_t convOp = nullptr, biasOp = nullptr, bnOp = nullptr, actOp = nullptr;
    ASSERT_MIOPEN_OK(miopenCreateOpConvForward(plan, &convOp, conv, wd));
    ASSERT_MIOPEN_OK(miopenCreateOpBiasForward(plan, &biasOp, bd));
    ASSERT_MIOPEN_OK(miopenCreateOpBatchNormInference(plan, &bnOp, miopenBNPerActivation, pd));
    ASSERT_MIOPEN_OK(miopenCreateOpActivationForward(plan, &actOp, miopenActivationELU));
    ASSERT_MIOPEN_OK(miopenFusionPlanConvolutionSetAlgo(plan, miopenConvolutionFwdAlgoGEMM));
    ASSERT_MIOPEN_OK(miopenCompileFusionPlan(h, plan));
    miopenOperatorArgs_t args = nullptr;
    ASSERT_MIOPEN_OK(miopenCreateOperatorArgs(&args));
    const float one = 1.0f, zero = 0.0f;
    const double eps = 1e-5;
    ASSERT_MIOPEN_OK(miopenSetOpArgsConvForward(args, convOp, &one, &zero, w.data()));
    ASSERT_MIOPEN_OK(miopenSetOpArgsBiasForward(args, biasOp, &one, &zero, b.data()));
    ASSERT_MIOPEN_OK(miopenSetOpArgsBatchNormInference(args, bnOp, &one, &zero, scale.data(), shift.data(),
                                                       mean.data(), var.data(), eps));
    ASSERT_MIOPEN_OK(miopenSetOpArgsActivForward(args, actOp, &one, &zero, 0.75, 0, 0));
    std::vector<float> y(ny);
    ASSERT_MIOPEN_OK(miopenExecuteFusionPlan(h, plan, xd, x.data(), yd, y.data(), args));

    std::vector<float> ref(ny);
    std::size_t wsBytes = 0;
    ASSERT_MIOPEN_OK(miopenConvolutionForwardGetWorkSpaceSize(h, wd, xd, conv, yd, &wsBytes));
    std::vector<char> ws(wsBytes + 1);
    ASSERT_MIOPEN_OK(miopenConvolutionForward(h, &one, xd, x.data(), wd, w.data(), conv, miopenConvolutionFwdAlgoGEMM,
                                              &zero, yd, ref.data(), ws.data(), wsBytes));
    ASSERT_MIOPEN_OK(miopenConvolutionForwardBias(h, &one, bd, b.data(), &one, yd, ref.data()));
    ASSERT_MIOPEN_OK(miopenBatchNormalizationForwardInference(h, miopenBNPerActivation, const_cast<float*>(&one),
                                                              const_cast<float*>(&zero), yd, ref.data(), yd,
                                                              ref.data(), pd, scale.data(), shift.data(), mean.data(),
                                                              var.data(), eps));
    Activ elu(miopenActivationELU, 0.75, 0, 0);
    ASSERT_MIOPEN_OK(miopenActivationForward(h, elu, &one, yd, ref.data(), &zero, yd, ref.data()));
    expectClose(y, ref, 1e-5);
    miopenDestroyOperatorArgs(args);
    miopenDestroyFusionPlan(plan);
}

} // namespace
