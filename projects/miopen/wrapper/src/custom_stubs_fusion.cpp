// Hand-written stubs (policy "custom") of the fusion-plan API (forwarding_fusion.hpp). Private's
// plans and argument objects are opaque to the wrapper, so on the slow path (route word set) each
// stub that creates, changes or destroys one records what Private accepted (only after Private
// returned miopenStatusSuccess: a call Private refused leaves no record), and
// miopenExecuteFusionPlan goes to hipDNN when routed there. With the route word zero every stub is
// one plain call of its _impl.
#include <miopen/miopen.h>
#include <miopen/miopen_impl.h>

#include "forwarding_fusion.hpp"
#include "wrapper_runtime.hpp"

#include <cstring>

namespace {

namespace fu = miopen::wrapper::fwd::fusion;

using miopen::wrapper::rawEnum;
inline bool slow() { return miopen::wrapper::routeWordSet(); }


// A float scalar in host memory (Private reads alpha/beta as float; null means the default).
float scalarOr(const void* p, float fallback)
{
    if(p == nullptr)
        return fallback;
    float v = 0.0f;
    std::memcpy(&v, p, sizeof v);
    return v;
}

// The slow-path prologue: a version skew at load refuses the call (wrapper_runtime.hpp).
#define MIOPEN_FUSION_REFUSED(name) (slow() && miopen::wrapper::slowPath(name))

} // namespace

extern "C" miopenStatus_t miopenCreateFusionPlan(miopenFusionPlanDescriptor_t* fusePlanDesc,
                                                 const miopenFusionDirection_t fuseDirection,
                                                 const miopenTensorDescriptor_t inputDesc)
{
    if(!slow())
        return miopenCreateFusionPlan_impl(fusePlanDesc, fuseDirection, inputDesc);
    if(miopen::wrapper::slowPath("miopenCreateFusionPlan"))
        return miopenStatusVersionMismatch;
    const miopenStatus_t st = miopenCreateFusionPlan_impl(fusePlanDesc, fuseDirection, inputDesc);
    if(st == miopenStatusSuccess)
        fu::onCreatePlan(*fusePlanDesc, rawEnum(fuseDirection), inputDesc);
    return st;
}

extern "C" miopenStatus_t miopenDestroyFusionPlan(miopenFusionPlanDescriptor_t fusePlanDesc)
{
    if(!slow())
        return miopenDestroyFusionPlan_impl(fusePlanDesc);
    if(miopen::wrapper::slowPath("miopenDestroyFusionPlan"))
        return miopenStatusVersionMismatch;
    const miopenStatus_t st = miopenDestroyFusionPlan_impl(fusePlanDesc);
    if(st == miopenStatusSuccess)
        fu::onDestroyPlan(fusePlanDesc);
    return st;
}

extern "C" miopenStatus_t miopenCompileFusionPlan(miopenHandle_t handle, miopenFusionPlanDescriptor_t fusePlanDesc)
{
    if(!slow())
        return miopenCompileFusionPlan_impl(handle, fusePlanDesc);
    if(miopen::wrapper::slowPath("miopenCompileFusionPlan"))
        return miopenStatusVersionMismatch;
    const miopenStatus_t st = miopenCompileFusionPlan_impl(handle, fusePlanDesc);
    // Private drops its compiled form whenever a compile fails inside the plan (fusion.cpp,
    // FusionPlan::compile). Any failure clears the record's flag: where Private refused before
    // reaching the plan (a bad handle) and kept it compiled, executions then go to Private
    // (invalid-arguments:not-compiled) and Private serves them: the safe side.
    fu::onCompilePlan(fusePlanDesc, st == miopenStatusSuccess);
    return st;
}

extern "C" miopenStatus_t miopenCreateOpConvForward(miopenFusionPlanDescriptor_t fusePlanDesc,
                                                    miopenFusionOpDescriptor_t* convOp,
                                                    miopenConvolutionDescriptor_t convDesc,
                                                    const miopenTensorDescriptor_t wDesc)
{
    if(!slow())
        return miopenCreateOpConvForward_impl(fusePlanDesc, convOp, convDesc, wDesc);
    if(MIOPEN_FUSION_REFUSED("miopenCreateOpConvForward"))
        return miopenStatusVersionMismatch;
    const miopenStatus_t st = miopenCreateOpConvForward_impl(fusePlanDesc, convOp, convDesc, wDesc);
    if(st == miopenStatusSuccess)
        fu::onCreateOp(fusePlanDesc, *convOp, fu::OpKind::Conv, convDesc, wDesc, 0);
    return st;
}

extern "C" miopenStatus_t miopenCreateOpActivationForward(miopenFusionPlanDescriptor_t fusePlanDesc,
                                                          miopenFusionOpDescriptor_t* activFwdOp,
                                                          miopenActivationMode_t mode)
{
    if(!slow())
        return miopenCreateOpActivationForward_impl(fusePlanDesc, activFwdOp, mode);
    if(MIOPEN_FUSION_REFUSED("miopenCreateOpActivationForward"))
        return miopenStatusVersionMismatch;
    const miopenStatus_t st = miopenCreateOpActivationForward_impl(fusePlanDesc, activFwdOp, mode);
    if(st == miopenStatusSuccess)
        fu::onCreateOp(fusePlanDesc, *activFwdOp, fu::OpKind::ActivForward, nullptr, nullptr, rawEnum(mode));
    return st;
}

extern "C" miopenStatus_t miopenCreateOpActivationBackward(miopenFusionPlanDescriptor_t fusePlanDesc,
                                                           miopenFusionOpDescriptor_t* activBwdOp,
                                                           miopenActivationMode_t mode)
{
    if(!slow())
        return miopenCreateOpActivationBackward_impl(fusePlanDesc, activBwdOp, mode);
    if(MIOPEN_FUSION_REFUSED("miopenCreateOpActivationBackward"))
        return miopenStatusVersionMismatch;
    const miopenStatus_t st = miopenCreateOpActivationBackward_impl(fusePlanDesc, activBwdOp, mode);
    if(st == miopenStatusSuccess)
        fu::onCreateOp(fusePlanDesc, *activBwdOp, fu::OpKind::ActivBackward, nullptr, nullptr, rawEnum(mode));
    return st;
}

extern "C" miopenStatus_t miopenCreateOpBiasForward(miopenFusionPlanDescriptor_t fusePlanDesc,
                                                    miopenFusionOpDescriptor_t* biasOp,
                                                    const miopenTensorDescriptor_t bDesc)
{
    if(!slow())
        return miopenCreateOpBiasForward_impl(fusePlanDesc, biasOp, bDesc);
    if(MIOPEN_FUSION_REFUSED("miopenCreateOpBiasForward"))
        return miopenStatusVersionMismatch;
    const miopenStatus_t st = miopenCreateOpBiasForward_impl(fusePlanDesc, biasOp, bDesc);
    if(st == miopenStatusSuccess)
        fu::onCreateOp(fusePlanDesc, *biasOp, fu::OpKind::Bias, nullptr, bDesc, 0);
    return st;
}

extern "C" miopenStatus_t miopenCreateOpBatchNormInference(miopenFusionPlanDescriptor_t fusePlanDesc,
                                                           miopenFusionOpDescriptor_t* bnOp,
                                                           const miopenBatchNormMode_t bn_mode,
                                                           const miopenTensorDescriptor_t bnScaleBiasMeanVarDesc)
{
    if(!slow())
        return miopenCreateOpBatchNormInference_impl(fusePlanDesc, bnOp, bn_mode, bnScaleBiasMeanVarDesc);
    if(MIOPEN_FUSION_REFUSED("miopenCreateOpBatchNormInference"))
        return miopenStatusVersionMismatch;
    const miopenStatus_t st = miopenCreateOpBatchNormInference_impl(fusePlanDesc, bnOp, bn_mode, bnScaleBiasMeanVarDesc);
    if(st == miopenStatusSuccess)
        fu::onCreateOp(fusePlanDesc, *bnOp, fu::OpKind::BnInference, nullptr, bnScaleBiasMeanVarDesc, rawEnum(bn_mode));
    return st;
}

extern "C" miopenStatus_t miopenCreateOpBatchNormForward(miopenFusionPlanDescriptor_t fusePlanDesc,
                                                         miopenFusionOpDescriptor_t* bnFwdOp,
                                                         const miopenBatchNormMode_t bn_mode,
                                                         bool runningMeanVariance)
{
    if(!slow())
        return miopenCreateOpBatchNormForward_impl(fusePlanDesc, bnFwdOp, bn_mode, runningMeanVariance);
    if(MIOPEN_FUSION_REFUSED("miopenCreateOpBatchNormForward"))
        return miopenStatusVersionMismatch;
    const miopenStatus_t st = miopenCreateOpBatchNormForward_impl(fusePlanDesc, bnFwdOp, bn_mode, runningMeanVariance);
    if(st == miopenStatusSuccess)
        fu::onCreateOp(fusePlanDesc, *bnFwdOp, fu::OpKind::BnForward, nullptr, nullptr, rawEnum(bn_mode));
    return st;
}

extern "C" miopenStatus_t miopenCreateOpBatchNormBackward(miopenFusionPlanDescriptor_t fusePlanDesc,
                                                          miopenFusionOpDescriptor_t* bnBwdOp,
                                                          const miopenBatchNormMode_t bn_mode)
{
    if(!slow())
        return miopenCreateOpBatchNormBackward_impl(fusePlanDesc, bnBwdOp, bn_mode);
    if(MIOPEN_FUSION_REFUSED("miopenCreateOpBatchNormBackward"))
        return miopenStatusVersionMismatch;
    const miopenStatus_t st = miopenCreateOpBatchNormBackward_impl(fusePlanDesc, bnBwdOp, bn_mode);
    if(st == miopenStatusSuccess)
        fu::onCreateOp(fusePlanDesc, *bnBwdOp, fu::OpKind::BnBackward, nullptr, nullptr, rawEnum(bn_mode));
    return st;
}

extern "C" miopenStatus_t miopenCreateOperatorArgs(miopenOperatorArgs_t* args)
{
    if(!slow())
        return miopenCreateOperatorArgs_impl(args);
    if(miopen::wrapper::slowPath("miopenCreateOperatorArgs"))
        return miopenStatusVersionMismatch;
    const miopenStatus_t st = miopenCreateOperatorArgs_impl(args);
    if(st == miopenStatusSuccess)
        fu::onCreateArgs(*args);
    return st;
}

extern "C" miopenStatus_t miopenDestroyOperatorArgs(miopenOperatorArgs_t args)
{
    if(!slow())
        return miopenDestroyOperatorArgs_impl(args);
    if(miopen::wrapper::slowPath("miopenDestroyOperatorArgs"))
        return miopenStatusVersionMismatch;
    const miopenStatus_t st = miopenDestroyOperatorArgs_impl(args);
    if(st == miopenStatusSuccess)
        fu::onDestroyArgs(args);
    return st;
}

extern "C" miopenStatus_t miopenSetOpArgsConvForward(miopenOperatorArgs_t args,
                                                     const miopenFusionOpDescriptor_t convOp,
                                                     const void* alpha,
                                                     const void* beta,
                                                     const void* w)
{
    if(!slow())
        return miopenSetOpArgsConvForward_impl(args, convOp, alpha, beta, w);
    if(miopen::wrapper::slowPath("miopenSetOpArgsConvForward"))
        return miopenStatusVersionMismatch;
    const miopenStatus_t st = miopenSetOpArgsConvForward_impl(args, convOp, alpha, beta, w);
    if(st == miopenStatusSuccess)
    {
        fu::OpArgs a;
        a.hasAlpha = true;
        a.alpha    = scalarOr(alpha, 1.0f);
        a.w        = w;
        fu::onSetArgs(args, convOp, a);
    }
    return st;
}

extern "C" miopenStatus_t miopenSetOpArgsActivForward(miopenOperatorArgs_t args,
                                                      const miopenFusionOpDescriptor_t activFwdOp,
                                                      const void* alpha,
                                                      const void* beta,
                                                      double activAlpha,
                                                      double activBeta,
                                                      double activGamma)
{
    if(!slow())
        return miopenSetOpArgsActivForward_impl(args, activFwdOp, alpha, beta, activAlpha, activBeta, activGamma);
    if(miopen::wrapper::slowPath("miopenSetOpArgsActivForward"))
        return miopenStatusVersionMismatch;
    const miopenStatus_t st =
        miopenSetOpArgsActivForward_impl(args, activFwdOp, alpha, beta, activAlpha, activBeta, activGamma);
    if(st == miopenStatusSuccess)
    {
        fu::OpArgs a;
        a.activAlpha = activAlpha, a.activBeta = activBeta, a.activGamma = activGamma;
        fu::onSetArgs(args, activFwdOp, a);
    }
    return st;
}

extern "C" miopenStatus_t miopenSetOpArgsActivBackward(miopenOperatorArgs_t args,
                                                       const miopenFusionOpDescriptor_t activBwdOp,
                                                       const void* alpha,
                                                       const void* beta,
                                                       const void* y,
                                                       const void* reserved,
                                                       double activAlpha,
                                                       double activBeta,
                                                       double activGamma)
{
    if(!slow())
        return miopenSetOpArgsActivBackward_impl(args, activBwdOp, alpha, beta, y, reserved, activAlpha, activBeta,
                                                 activGamma);
    if(miopen::wrapper::slowPath("miopenSetOpArgsActivBackward"))
        return miopenStatusVersionMismatch;
    const miopenStatus_t st = miopenSetOpArgsActivBackward_impl(args, activBwdOp, alpha, beta, y, reserved,
                                                                activAlpha, activBeta, activGamma);
    if(st == miopenStatusSuccess)
        fu::onSetArgs(args, activBwdOp, fu::OpArgs{}); // a plan with it is declined: presence is enough
    return st;
}

extern "C" miopenStatus_t miopenSetOpArgsBatchNormInference(miopenOperatorArgs_t args,
                                                            const miopenFusionOpDescriptor_t bnOp,
                                                            const void* alpha,
                                                            const void* beta,
                                                            const void* bnScale,
                                                            const void* bnBias,
                                                            const void* estimatedMean,
                                                            const void* estimatedVariance,
                                                            double epsilon)
{
    if(!slow())
        return miopenSetOpArgsBatchNormInference_impl(args, bnOp, alpha, beta, bnScale, bnBias, estimatedMean,
                                                      estimatedVariance, epsilon);
    if(miopen::wrapper::slowPath("miopenSetOpArgsBatchNormInference"))
        return miopenStatusVersionMismatch;
    const miopenStatus_t st = miopenSetOpArgsBatchNormInference_impl(args, bnOp, alpha, beta, bnScale, bnBias,
                                                                     estimatedMean, estimatedVariance, epsilon);
    if(st == miopenStatusSuccess)
    {
        fu::OpArgs a;
        a.scale = bnScale, a.bias = bnBias, a.mean = estimatedMean, a.var = estimatedVariance;
        a.epsilon = epsilon;
        fu::onSetArgs(args, bnOp, a);
    }
    return st;
}

extern "C" miopenStatus_t miopenSetOpArgsBatchNormForward(miopenOperatorArgs_t args,
                                                          const miopenFusionOpDescriptor_t bnOp,
                                                          const void* alpha,
                                                          const void* beta,
                                                          const void* bnScale,
                                                          const void* bnBias,
                                                          void* savedMean,
                                                          void* savedInvVariance,
                                                          void* runningMean,
                                                          void* runningVariance,
                                                          double expAvgFactor,
                                                          double epsilon)
{
    if(!slow())
        return miopenSetOpArgsBatchNormForward_impl(args, bnOp, alpha, beta, bnScale, bnBias, savedMean,
                                                    savedInvVariance, runningMean, runningVariance, expAvgFactor,
                                                    epsilon);
    if(miopen::wrapper::slowPath("miopenSetOpArgsBatchNormForward"))
        return miopenStatusVersionMismatch;
    const miopenStatus_t st =
        miopenSetOpArgsBatchNormForward_impl(args, bnOp, alpha, beta, bnScale, bnBias, savedMean, savedInvVariance,
                                             runningMean, runningVariance, expAvgFactor, epsilon);
    if(st == miopenStatusSuccess)
        fu::onSetArgs(args, bnOp, fu::OpArgs{}); // a plan with it is declined: presence is enough
    return st;
}

extern "C" miopenStatus_t miopenSetOpArgsBatchNormBackward(miopenOperatorArgs_t args,
                                                           const miopenFusionOpDescriptor_t bnOp,
                                                           const void* alpha,
                                                           const void* beta,
                                                           const void* x,
                                                           const void* bnScale,
                                                           const void* bnBias,
                                                           void* resultBnScaleDiff,
                                                           void* resultBnBiasDiff,
                                                           const void* savedMean,
                                                           const void* savedInvVariance)
{
    if(!slow())
        return miopenSetOpArgsBatchNormBackward_impl(args, bnOp, alpha, beta, x, bnScale, bnBias, resultBnScaleDiff,
                                                     resultBnBiasDiff, savedMean, savedInvVariance);
    if(miopen::wrapper::slowPath("miopenSetOpArgsBatchNormBackward"))
        return miopenStatusVersionMismatch;
    const miopenStatus_t st = miopenSetOpArgsBatchNormBackward_impl(args, bnOp, alpha, beta, x, bnScale, bnBias,
                                                                    resultBnScaleDiff, resultBnBiasDiff, savedMean,
                                                                    savedInvVariance);
    if(st == miopenStatusSuccess)
        fu::onSetArgs(args, bnOp, fu::OpArgs{}); // a plan with it is declined: presence is enough
    return st;
}

extern "C" miopenStatus_t miopenSetOpArgsBiasForward(miopenOperatorArgs_t args,
                                                     const miopenFusionOpDescriptor_t biasOp,
                                                     const void* alpha,
                                                     const void* beta,
                                                     const void* bias)
{
    if(!slow())
        return miopenSetOpArgsBiasForward_impl(args, biasOp, alpha, beta, bias);
    if(miopen::wrapper::slowPath("miopenSetOpArgsBiasForward"))
        return miopenStatusVersionMismatch;
    const miopenStatus_t st = miopenSetOpArgsBiasForward_impl(args, biasOp, alpha, beta, bias);
    if(st == miopenStatusSuccess)
    {
        fu::OpArgs a;
        a.bias = bias;
        fu::onSetArgs(args, biasOp, a);
    }
    return st;
}
