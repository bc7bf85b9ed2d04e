// Bad input for every activation, batchnorm and fusion entry point: the documented status, no
// crash, and every caller buffer (guarded by canaries) left untouched.
#include "common/api_helpers.hpp"

#include <functional>
#include <string>
#include <vector>

namespace {

using test::GuardedBuffer;

struct Fixture
{
    test::Handle h;
    test::Tensor x{miopenFloat, {2, 3, 4, 4}, {}};
    test::Tensor xOther{miopenFloat, {2, 3, 4, 5}, {}}; // other lengths
    test::Tensor xHalf{miopenHalf, {2, 3, 4, 4}, {}};   // other type
    test::Tensor xInt{miopenInt8, {2, 3, 4, 4}, {}};    // unsupported type
    test::Tensor x2d{miopenFloat, {2, 3}, {}};          // rank 2
    test::Tensor bn{miopenFloat, {1, 3, 1, 1}, {}};
    test::Tensor bnWrong{miopenFloat, {1, 4, 1, 1}, {}};
    test::Tensor w{miopenFloat, {4, 3, 3, 3}, {}};
    test::Tensor y{miopenFloat, {2, 4, 2, 2}, {}};
    test::Tensor b{miopenFloat, {1, 4, 1, 1}, {}};
    test::Tensor unset;
    test::Conv conv;
    miopenActivationDescriptor_t act = nullptr, actUnset = nullptr, actTanh = nullptr;
    miopenFusionPlanDescriptor_t plan = nullptr, planFusable = nullptr;
    miopenFusionOpDescriptor_t convOp = nullptr, actOp = nullptr, bnOp = nullptr;
    miopenOperatorArgs_t args = nullptr;
    GuardedBuffer xb{2 * 3 * 4 * 4 * 4}, yb{2 * 3 * 4 * 4 * 4}, p1{64}, p2{64}, p3{64}, p4{64}, wb{4 * 3 * 3 * 3 * 4},
        cb{2 * 4 * 2 * 2 * 4}, bb{64};
    float one = 1.0f, zero = 0.0f;

    Fixture()
    {
        EXPECT_MIOPEN_OK(miopenInitConvolutionDescriptor(conv, miopenConvolution, 0, 0, 1, 1, 1, 1));
        EXPECT_MIOPEN_OK(miopenCreateActivationDescriptor(&act));
        EXPECT_MIOPEN_OK(miopenSetActivationDescriptor(act, miopenActivationRELU, 0, 0, 0));
        EXPECT_MIOPEN_OK(miopenCreateActivationDescriptor(&actUnset));
        EXPECT_MIOPEN_OK(miopenCreateActivationDescriptor(&actTanh));
        EXPECT_MIOPEN_OK(miopenSetActivationDescriptor(actTanh, miopenActivationTANH, 1, 1, 0));
        EXPECT_MIOPEN_OK(miopenCreateFusionPlan(&plan, miopenVerticalFusion, x));
        EXPECT_MIOPEN_OK(miopenCreateOpConvForward(plan, &convOp, conv, w));
        EXPECT_MIOPEN_OK(miopenCreateFusionPlan(&planFusable, miopenVerticalFusion, x));
        EXPECT_MIOPEN_OK(miopenCreateOpBatchNormInference(planFusable, &bnOp, miopenBNSpatial, bn));
        EXPECT_MIOPEN_OK(miopenCreateOpActivationForward(planFusable, &actOp, miopenActivationRELU));
        EXPECT_MIOPEN_OK(miopenCreateOperatorArgs(&args));
    }
    ~Fixture()
    {
        miopenDestroyActivationDescriptor(act);
        miopenDestroyActivationDescriptor(actUnset);
        miopenDestroyActivationDescriptor(actTanh);
        miopenDestroyFusionPlan(plan);
        miopenDestroyFusionPlan(planFusable);
        miopenDestroyOperatorArgs(args);
    }
    std::vector<GuardedBuffer*> buffers() { return {&xb, &yb, &p1, &p2, &p3, &p4, &wb, &cb, &bb}; }
    miopenTensorDescriptor_t wrongKind() const
    {
        return reinterpret_cast<miopenTensorDescriptor_t>(static_cast<miopenConvolutionDescriptor_t>(conv));
    }
    // The mode travels as an int: an invalid mode held in (and read from) a miopenBatchNormMode_t
    // variable is undefined in C++ (UBSan's -fsanitize=enum); the cast at the call makes a prvalue.
    miopenStatus_t train(int m, miopenTensorDescriptor_t xd, miopenTensorDescriptor_t pd, const void* xp, void* scale)
    {
        return miopenBatchNormalizationForwardTraining(h, static_cast<miopenBatchNormMode_t>(m), &one, &zero, xd, xp, xd, yb.data(), pd, scale, p2.data(), 0.1,
                                                       p3.data(), p4.data(), 1e-5, nullptr, nullptr);
    }
};

struct BadCase
{
    const char* name;
    miopenStatus_t expected;
    std::function<miopenStatus_t(Fixture&)> call;
};

template <class E>
E bad(int v)
{
    return static_cast<E>(v);
}

const std::vector<BadCase>& cases()
{
    static const std::vector<BadCase> k = {
        // Activation.
        {"CreateActivation null", miopenStatusBadParm, [](Fixture&) { return miopenCreateActivationDescriptor(nullptr); }},
        {"SetActivation null", miopenStatusBadParm, [](Fixture&) { return miopenSetActivationDescriptor(nullptr, miopenActivationRELU, 0, 0, 0); }},
        {"SetActivation bad mode", miopenStatusBadParm, [](Fixture& f) { return miopenSetActivationDescriptor(f.actUnset, bad<miopenActivationMode_t>(10), 0, 0, 0); }},
        {"SetActivation wrong kind", miopenStatusBadParm, [](Fixture& f) {
             return miopenSetActivationDescriptor(reinterpret_cast<miopenActivationDescriptor_t>(f.wrongKind()), miopenActivationRELU, 0, 0, 0); }},
        {"GetActivation unset", miopenStatusNotInitialized, [](Fixture& f) {
             miopenActivationMode_t m; double a; return miopenGetActivationDescriptor(f.actUnset, &m, &a, &a, &a); }},
        {"GetActivation null out", miopenStatusBadParm, [](Fixture& f) { double a; return miopenGetActivationDescriptor(f.act, nullptr, &a, &a, &a); }},
        {"DestroyActivation null", miopenStatusBadParm, [](Fixture&) { return miopenDestroyActivationDescriptor(nullptr); }},
        {"ActivFwd null handle", miopenStatusBadParm, [](Fixture& f) { return miopenActivationForward(nullptr, f.act, &f.one, f.x, f.xb.data(), &f.zero, f.x, f.yb.data()); }},
        {"ActivFwd null alpha", miopenStatusBadParm, [](Fixture& f) { return miopenActivationForward(f.h, f.act, nullptr, f.x, f.xb.data(), &f.zero, f.x, f.yb.data()); }},
        {"ActivFwd null x", miopenStatusBadParm, [](Fixture& f) { return miopenActivationForward(f.h, f.act, &f.one, f.x, nullptr, &f.zero, f.x, f.yb.data()); }},
        {"ActivFwd unset desc", miopenStatusNotInitialized, [](Fixture& f) { return miopenActivationForward(f.h, f.actUnset, &f.one, f.x, f.xb.data(), &f.zero, f.x, f.yb.data()); }},
        {"ActivFwd unset tensor", miopenStatusNotInitialized, [](Fixture& f) { return miopenActivationForward(f.h, f.act, &f.one, f.unset, f.xb.data(), &f.zero, f.x, f.yb.data()); }},
        {"ActivFwd shape mismatch", miopenStatusBadParm, [](Fixture& f) { return miopenActivationForward(f.h, f.act, &f.one, f.x, f.xb.data(), &f.zero, f.xOther, f.yb.data()); }},
        {"ActivFwd type mismatch", miopenStatusBadParm, [](Fixture& f) { return miopenActivationForward(f.h, f.act, &f.one, f.x, f.xb.data(), &f.zero, f.xHalf, f.yb.data()); }},
        {"ActivFwd int8", miopenStatusBadParm, [](Fixture& f) { return miopenActivationForward(f.h, f.act, &f.one, f.xInt, f.xb.data(), &f.zero, f.xInt, f.yb.data()); }},
        {"ActivBwd null dy", miopenStatusBadParm, [](Fixture& f) {
             return miopenActivationBackward(f.h, f.act, &f.one, f.x, f.xb.data(), f.x, nullptr, f.x, f.xb.data(), &f.zero, f.x, f.yb.data()); }},
        {"ActivBwd shape mismatch", miopenStatusBadParm, [](Fixture& f) {
             return miopenActivationBackward(f.h, f.act, &f.one, f.x, f.xb.data(), f.x, f.xb.data(), f.x, f.xb.data(), &f.zero, f.xOther, f.yb.data()); }},
        {"ActivBwd wrong kind", miopenStatusBadParm, [](Fixture& f) {
             return miopenActivationBackward(f.h, f.act, &f.one, f.wrongKind(), f.xb.data(), f.x, f.xb.data(), f.x, f.xb.data(), &f.zero, f.x, f.yb.data()); }},
        // Batchnorm.
        {"DeriveBN null", miopenStatusBadParm, [](Fixture& f) { return miopenDeriveBNTensorDescriptor(nullptr, f.x, miopenBNSpatial); }},
        {"DeriveBN bad mode", miopenStatusBadParm, [](Fixture& f) { return miopenDeriveBNTensorDescriptor(f.unset, f.x, bad<miopenBatchNormMode_t>(2)); }},
        {"DeriveBN rank 2", miopenStatusBadParm, [](Fixture& f) { return miopenDeriveBNTensorDescriptor(f.unset, f.x2d, miopenBNSpatial); }},
        {"DeriveBN unset x", miopenStatusNotInitialized, [](Fixture& f) { return miopenDeriveBNTensorDescriptor(f.bnWrong, f.unset, miopenBNSpatial); }},
        {"Train null handle", miopenStatusBadParm, [](Fixture& f) {
             return miopenBatchNormalizationForwardTraining(nullptr, miopenBNSpatial, &f.one, &f.zero, f.x, f.xb.data(), f.x, f.yb.data(), f.bn,
                                                            f.p1.data(), f.p2.data(), 0.1, nullptr, nullptr, 1e-5, nullptr, nullptr); }},
        {"Train bad mode", miopenStatusBadParm, [](Fixture& f) { return f.train(-1, f.x, f.bn, f.xb.data(), f.p1.data()); }},
        {"Train wrong param shape", miopenStatusBadParm, [](Fixture& f) { return f.train(miopenBNSpatial, f.x, f.bnWrong, f.xb.data(), f.p1.data()); }},
        {"Train per-act with spatial params", miopenStatusBadParm, [](Fixture& f) { return f.train(miopenBNPerActivation, f.x, f.bn, f.xb.data(), f.p1.data()); }},
        {"Train null scale", miopenStatusBadParm, [](Fixture& f) { return f.train(miopenBNSpatial, f.x, f.bn, f.xb.data(), nullptr); }},
        {"Train null x", miopenStatusBadParm, [](Fixture& f) { return f.train(miopenBNSpatial, f.x, f.bn, nullptr, f.p1.data()); }},
        {"Train int8", miopenStatusBadParm, [](Fixture& f) { return f.train(miopenBNSpatial, f.xInt, f.bn, f.xb.data(), f.p1.data()); }},
        {"Train unset params", miopenStatusNotInitialized, [](Fixture& f) { return f.train(miopenBNSpatial, f.x, f.unset, f.xb.data(), f.p1.data()); }},
        {"TrainV2 wrong bias desc", miopenStatusBadParm, [](Fixture& f) {
             return miopenBatchNormalizationForwardTraining_V2(f.h, miopenBNSpatial, &f.one, &f.zero, f.x, f.xb.data(), f.x, f.yb.data(), f.bn,
                                                               f.bnWrong, f.bn, f.bn, f.p1.data(), f.p2.data(), 0.1, nullptr, nullptr, 1e-5,
                                                               nullptr, nullptr); }},
        {"Infer shape mismatch", miopenStatusBadParm, [](Fixture& f) {
             return miopenBatchNormalizationForwardInference(f.h, miopenBNSpatial, &f.one, &f.zero, f.x, f.xb.data(), f.xOther, f.yb.data(), f.bn,
                                                             f.p1.data(), f.p2.data(), f.p3.data(), f.p4.data(), 1e-5); }},
        {"Infer null alpha", miopenStatusBadParm, [](Fixture& f) {
             return miopenBatchNormalizationForwardInference(f.h, miopenBNSpatial, nullptr, &f.zero, f.x, f.xb.data(), f.x, f.yb.data(), f.bn,
                                                             f.p1.data(), f.p2.data(), f.p3.data(), f.p4.data(), 1e-5); }},
        {"InferV2 unset var desc", miopenStatusNotInitialized, [](Fixture& f) {
             return miopenBatchNormalizationForwardInference_V2(f.h, miopenBNSpatial, &f.one, &f.zero, f.x, f.xb.data(), f.x, f.yb.data(), f.bn,
                                                                f.bn, f.bn, f.unset, f.p1.data(), f.p2.data(), f.p3.data(), f.p4.data(), 1e-5); }},
        {"Backward null dscale", miopenStatusBadParm, [](Fixture& f) {
             return miopenBatchNormalizationBackward(f.h, miopenBNSpatial, &f.one, &f.zero, &f.one, &f.zero, f.x, f.xb.data(), f.x, f.xb.data(),
                                                     f.x, f.yb.data(), f.bn, f.p1.data(), nullptr, f.p3.data(), 1e-5, nullptr, nullptr); }},
        {"Backward type mismatch", miopenStatusBadParm, [](Fixture& f) {
             return miopenBatchNormalizationBackward(f.h, miopenBNSpatial, &f.one, &f.zero, &f.one, &f.zero, f.x, f.xb.data(), f.xHalf, f.xb.data(),
                                                     f.x, f.yb.data(), f.bn, f.p1.data(), f.p2.data(), f.p3.data(), 1e-5, nullptr, nullptr); }},
        {"BackwardV2 bad mode", miopenStatusBadParm, [](Fixture& f) {
             return miopenBatchNormalizationBackward_V2(f.h, bad<miopenBatchNormMode_t>(5), &f.one, &f.zero, &f.one, &f.zero, f.x, f.xb.data(), f.x,
                                                        f.xb.data(), f.x, f.yb.data(), f.bn, f.bn, f.bn, f.bn, f.p1.data(), f.p2.data(),
                                                        f.p3.data(), 1e-5, nullptr, nullptr); }},
        // Fusion.
        {"CreatePlan null", miopenStatusBadParm, [](Fixture& f) { return miopenCreateFusionPlan(nullptr, miopenVerticalFusion, f.x); }},
        {"CreatePlan bad direction", miopenStatusBadParm, [](Fixture& f) { miopenFusionPlanDescriptor_t p; return miopenCreateFusionPlan(&p, bad<miopenFusionDirection_t>(2), f.x); }},
        {"CreatePlan unset input", miopenStatusNotInitialized, [](Fixture& f) { miopenFusionPlanDescriptor_t p; return miopenCreateFusionPlan(&p, miopenVerticalFusion, f.unset); }},
        {"DestroyPlan null", miopenStatusBadParm, [](Fixture&) { return miopenDestroyFusionPlan(nullptr); }},
        {"DestroyPlan wrong kind", miopenStatusBadParm, [](Fixture& f) { return miopenDestroyFusionPlan(reinterpret_cast<miopenFusionPlanDescriptor_t>(f.args)); }},
        {"Compile null handle", miopenStatusBadParm, [](Fixture& f) { return miopenCompileFusionPlan(nullptr, f.planFusable); }},
        {"Compile null plan", miopenStatusBadParm, [](Fixture& f) { return miopenCompileFusionPlan(f.h, nullptr); }},
        {"Compile single op", miopenStatusUnsupportedOp, [](Fixture& f) { return miopenCompileFusionPlan(f.h, f.plan); }},
        {"GetOp out of range", miopenStatusBadParm, [](Fixture& f) { miopenFusionOpDescriptor_t o; return miopenFusionPlanGetOp(f.plan, 1, &o); }},
        {"GetOp negative", miopenStatusBadParm, [](Fixture& f) { miopenFusionOpDescriptor_t o; return miopenFusionPlanGetOp(f.plan, -1, &o); }},
        {"GetOp null out", miopenStatusBadParm, [](Fixture& f) { return miopenFusionPlanGetOp(f.plan, 0, nullptr); }},
        {"GetWorkSpace null out", miopenStatusBadParm, [](Fixture& f) { return miopenFusionPlanGetWorkSpaceSize(f.h, f.plan, nullptr, miopenConvolutionFwdAlgoGEMM); }},
        {"GetWorkSpace bad algo", miopenStatusBadParm, [](Fixture& f) { size_t s; return miopenFusionPlanGetWorkSpaceSize(f.h, f.plan, &s, bad<miopenConvFwdAlgorithm_t>(4)); }},
        {"GetAlgo no conv", miopenStatusBadParm, [](Fixture& f) { int n; miopenConvFwdAlgorithm_t a[4]; return miopenFusionPlanConvolutionGetAlgo(f.planFusable, 4, &n, a); }},
        {"GetAlgo zero count", miopenStatusBadParm, [](Fixture& f) { int n; miopenConvFwdAlgorithm_t a[4]; return miopenFusionPlanConvolutionGetAlgo(f.plan, 0, &n, a); }},
        {"GetAlgo null out", miopenStatusBadParm, [](Fixture& f) { int n; return miopenFusionPlanConvolutionGetAlgo(f.plan, 4, &n, nullptr); }},
        {"SetAlgo bad value", miopenStatusBadParm, [](Fixture& f) { return miopenFusionPlanConvolutionSetAlgo(f.plan, bad<miopenConvFwdAlgorithm_t>(9)); }},
        {"SetAlgo null plan", miopenStatusBadParm, [](Fixture&) { return miopenFusionPlanConvolutionSetAlgo(nullptr, miopenConvolutionFwdAlgoGEMM); }},
        {"OpConv null out", miopenStatusBadParm, [](Fixture& f) { return miopenCreateOpConvForward(f.plan, nullptr, f.conv, f.w); }},
        {"OpConv unset weights", miopenStatusNotInitialized, [](Fixture& f) { miopenFusionOpDescriptor_t o; return miopenCreateOpConvForward(f.plan, &o, f.conv, f.unset); }},
        {"OpConv null conv", miopenStatusBadParm, [](Fixture& f) { miopenFusionOpDescriptor_t o; return miopenCreateOpConvForward(f.plan, &o, nullptr, f.w); }},
        {"OpActivFwd bad mode", miopenStatusBadParm, [](Fixture& f) { miopenFusionOpDescriptor_t o; return miopenCreateOpActivationForward(f.plan, &o, bad<miopenActivationMode_t>(11)); }},
        {"OpActivBwd null plan", miopenStatusBadParm, [](Fixture&) { miopenFusionOpDescriptor_t o; return miopenCreateOpActivationBackward(nullptr, &o, miopenActivationRELU); }},
        {"OpBias unset", miopenStatusNotInitialized, [](Fixture& f) { miopenFusionOpDescriptor_t o; return miopenCreateOpBiasForward(f.plan, &o, f.unset); }},
        {"OpBnInfer bad mode", miopenStatusBadParm, [](Fixture& f) { miopenFusionOpDescriptor_t o; return miopenCreateOpBatchNormInference(f.plan, &o, bad<miopenBatchNormMode_t>(3), f.bn); }},
        {"OpBnFwd null out", miopenStatusBadParm, [](Fixture& f) { return miopenCreateOpBatchNormForward(f.plan, nullptr, miopenBNSpatial, true); }},
        {"OpBnBwd bad mode", miopenStatusBadParm, [](Fixture& f) { miopenFusionOpDescriptor_t o; return miopenCreateOpBatchNormBackward(f.plan, &o, bad<miopenBatchNormMode_t>(7)); }},
        {"CreateArgs null", miopenStatusBadParm, [](Fixture&) { return miopenCreateOperatorArgs(nullptr); }},
        {"DestroyArgs null", miopenStatusBadParm, [](Fixture&) { return miopenDestroyOperatorArgs(nullptr); }},
        {"ArgsConv null w", miopenStatusBadParm, [](Fixture& f) { return miopenSetOpArgsConvForward(f.args, f.convOp, &f.one, &f.zero, nullptr); }},
        {"ArgsConv wrong op kind", miopenStatusBadParm, [](Fixture& f) { return miopenSetOpArgsConvForward(f.args, f.actOp, &f.one, &f.zero, f.wb.data()); }},
        {"ArgsActivFwd null args", miopenStatusBadParm, [](Fixture& f) { return miopenSetOpArgsActivForward(nullptr, f.actOp, &f.one, &f.zero, 0, 0, 0); }},
        {"ArgsActivBwd wrong op", miopenStatusBadParm, [](Fixture& f) { return miopenSetOpArgsActivBackward(f.args, f.actOp, &f.one, &f.zero, f.yb.data(), nullptr, 0, 0, 0); }},
        {"ArgsBnInfer null mean", miopenStatusBadParm, [](Fixture& f) {
             return miopenSetOpArgsBatchNormInference(f.args, f.bnOp, &f.one, &f.zero, f.p1.data(), f.p2.data(), nullptr, f.p4.data(), 1e-5); }},
        {"ArgsBnFwd wrong op", miopenStatusBadParm, [](Fixture& f) {
             return miopenSetOpArgsBatchNormForward(f.args, f.bnOp, &f.one, &f.zero, f.p1.data(), f.p2.data(), nullptr, nullptr, nullptr, nullptr, 0.1, 1e-5); }},
        {"ArgsBnBwd null op", miopenStatusBadParm, [](Fixture& f) {
             return miopenSetOpArgsBatchNormBackward(f.args, nullptr, &f.one, &f.zero, f.xb.data(), f.p1.data(), f.p2.data(), f.p3.data(), f.p4.data(), nullptr, nullptr); }},
        {"ArgsBias wrong op", miopenStatusBadParm, [](Fixture& f) { return miopenSetOpArgsBiasForward(f.args, f.convOp, &f.one, &f.zero, f.bb.data()); }},
        {"Execute not compiled", miopenStatusBadParm, [](Fixture& f) { return miopenExecuteFusionPlan(f.h, f.plan, f.x, f.xb.data(), f.y, f.cb.data(), f.args); }},
        {"Execute null args", miopenStatusBadParm, [](Fixture& f) { return miopenExecuteFusionPlan(f.h, f.planFusable, f.x, f.xb.data(), f.x, f.yb.data(), nullptr); }},
        {"Execute output mismatch", miopenStatusBadParm, [](Fixture& f) {
             if(miopenCompileFusionPlan(f.h, f.planFusable) != miopenStatusSuccess)
                 return miopenStatusInternalError;
             return miopenExecuteFusionPlan(f.h, f.planFusable, f.x, f.xb.data(), f.xOther, f.yb.data(), f.args); }},
        {"Execute missing args", miopenStatusBadParm, [](Fixture& f) {
             if(miopenCompileFusionPlan(f.h, f.planFusable) != miopenStatusSuccess)
                 return miopenStatusInternalError;
             return miopenExecuteFusionPlan(f.h, f.planFusable, f.x, f.xb.data(), f.x, f.yb.data(), f.args); }},
        {"CBA not RELU", miopenStatusNotImplemented, [](Fixture& f) {
             return miopenConvolutionBiasActivationForward(f.h, &f.one, f.x, f.xb.data(), f.w, f.wb.data(), f.conv, miopenConvolutionFwdAlgoGEMM,
                                                           nullptr, 0, &f.zero, f.y, nullptr, f.b, f.bb.data(), f.actTanh, f.y, f.cb.data()); }},
        {"CBA null bias", miopenStatusBadParm, [](Fixture& f) {
             return miopenConvolutionBiasActivationForward(f.h, &f.one, f.x, f.xb.data(), f.w, f.wb.data(), f.conv, miopenConvolutionFwdAlgoGEMM,
                                                           nullptr, 0, &f.zero, f.y, nullptr, f.b, nullptr, f.act, f.y, f.cb.data()); }},
        {"CBA wrong output", miopenStatusBadParm, [](Fixture& f) {
             return miopenConvolutionBiasActivationForward(f.h, &f.one, f.x, f.xb.data(), f.w, f.wb.data(), f.conv, miopenConvolutionFwdAlgoGEMM,
                                                           nullptr, 0, &f.zero, f.y, nullptr, f.b, f.bb.data(), f.act, f.x, f.cb.data()); }},
        {"CBA bad algo", miopenStatusBadParm, [](Fixture& f) {
             return miopenConvolutionBiasActivationForward(f.h, &f.one, f.x, f.xb.data(), f.w, f.wb.data(), f.conv, bad<miopenConvFwdAlgorithm_t>(42),
                                                           nullptr, 0, &f.zero, f.y, nullptr, f.b, f.bb.data(), f.act, f.y, f.cb.data()); }},
        {"CBA unset activation", miopenStatusNotInitialized, [](Fixture& f) {
             return miopenConvolutionBiasActivationForward(f.h, &f.one, f.x, f.xb.data(), f.w, f.wb.data(), f.conv, miopenConvolutionFwdAlgoGEMM,
                                                           nullptr, 0, &f.zero, f.y, nullptr, f.b, f.bb.data(), f.actUnset, f.y, f.cb.data()); }},
    };
    return k;
}

class ActBnFusionBadInput : public ::testing::TestWithParam<std::size_t>
{
};

TEST_P(ActBnFusionBadInput, ReturnsStatusAndLeavesBuffersUntouched)
{
    const BadCase& c = cases()[GetParam()];
    Fixture f;
    std::vector<std::vector<unsigned char>> before;
    for(auto* b : f.buffers())
        before.push_back(b->snapshot());
    EXPECT_EQ(c.expected, c.call(f)) << c.name;
    const auto bufs = f.buffers();
    for(std::size_t i = 0; i < bufs.size(); ++i)
    {
        EXPECT_TRUE(bufs[i]->guardsIntact()) << c.name << ": canary of buffer " << i;
        EXPECT_EQ(before[i], bufs[i]->snapshot()) << c.name << ": buffer " << i << " was written";
    }
}

INSTANTIATE_TEST_SUITE_P(Cases, ActBnFusionBadInput, ::testing::Range<std::size_t>(0, cases().size()),
                         [](const ::testing::TestParamInfo<std::size_t>& p) {
                             std::string n = cases()[p.param].name;
                             for(auto& ch : n)
                                 if(!std::isalnum(static_cast<unsigned char>(ch)))
                                     ch = '_';
                             return n;
                         });

} // namespace
