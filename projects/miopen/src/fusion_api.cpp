// C entry points of the fusion family: argument checks and logging, then internal C++.
#include <miopen/activation.hpp>
#include <miopen/api_logging.hpp>
#include <miopen/batchnorm.hpp>
#include <miopen/convolution.hpp>
#include <miopen/elementwise.hpp>
#include <miopen/errors.hpp>
#include <miopen/fusion.hpp>
#include <miopen/handle.hpp>
#include <miopen/logger.hpp>
#include <miopen/miopen.h>
#include <miopen/miopen_impl.h>
#include <miopen/tensor.hpp>

#include <cstring>
#include <memory>

using miopen::check;
using miopen::deref;
using miopen::fail;
using miopen::FusionOp;
using miopen::FusionOpArgs;
using miopen::FusionOpKind;
using miopen::FusionPlan;
using miopen::Handle;
using miopen::OperatorArgs;
using miopen::TensorDescriptor;
using miopen::tryCatch;

namespace {

const TensorDescriptor& tensor(const miopenTensorDescriptor_t d, const char* what)
{
    return deref<TensorDescriptor>(d, what).checkSet(what);
}

// Optional float scalar: null reads as `dflt`.
float scalarOr(const void* p, float dflt)
{
    if(p == nullptr)
        return dflt;
    float v;
    std::memcpy(&v, p, sizeof v);
    return v;
}

miopenConvAlgorithm_t fwdAlgorithm(const miopenConvFwdAlgorithm_t& a)
{
    return static_cast<miopenConvAlgorithm_t>(
        miopen::rawEnum(miopen::checkedEnum(a, {0, 1, 2, 3, 5}, "convolution forward algorithm")));
}

// Appends an operator made by `make` to the plan and returns it through `out`.
template <class Make>
miopenStatus_t addOp(const char* api, miopenFusionPlanDescriptor_t plan, miopenFusionOpDescriptor_t* out, Make&& make)
{
    return tryCatch(api, [&] {
        auto& p = deref<FusionPlan>(plan, "fusePlanDesc");
        check(out != nullptr, "operator output pointer is null");
        auto op = std::make_unique<FusionOp>();
        make(*op);
        *out = &p.addOp(std::move(op));
    });
}

// The operator `op`, which must be of kind `k`.
const FusionOp& opOfKind(miopenFusionOpDescriptor_t op, FusionOpKind k)
{
    const auto& o = deref<FusionOp>(op, "fusion operator");
    if(o.kind != k)
        fail(miopenStatusBadParm, std::string("the operator is a ") + miopen::fusionOpKindName(o.kind) + ", not a " +
                                      miopen::fusionOpKindName(k));
    return o;
}

template <class Fill>
miopenStatus_t setArgs(const char* api, miopenOperatorArgs_t args, miopenFusionOpDescriptor_t op, FusionOpKind k,
                       const void* alpha, const void* beta, Fill&& fill)
{
    return tryCatch(api, [&] {
        auto& a        = deref<OperatorArgs>(args, "args");
        const auto& o  = opOfKind(op, k);
        FusionOpArgs r;
        r.alpha = scalarOr(alpha, 1.0f);
        r.beta  = scalarOr(beta, 0.0f);
        fill(r);
        a.set(&o, r);
    });
}

} // namespace

extern "C" miopenStatus_t miopenCreateFusionPlan_impl(miopenFusionPlanDescriptor_t* fusePlanDesc,
                                                      const miopenFusionDirection_t fuseDirection,
                                                      const miopenTensorDescriptor_t inputDesc)
{
    MIOPEN_LOG_FUNCTION(fusePlanDesc, fuseDirection, inputDesc);
    return tryCatch(__func__, [&] {
        check(fusePlanDesc != nullptr, "fusePlanDesc output pointer is null");
        const auto dir   = miopen::checkedEnum(fuseDirection, {0, 1}, "fusion direction");
        const auto& in   = tensor(inputDesc, "inputDesc");
        *fusePlanDesc    = new FusionPlan(dir, in);
    });
}

extern "C" miopenStatus_t miopenDestroyFusionPlan_impl(miopenFusionPlanDescriptor_t fusePlanDesc)
{
    MIOPEN_LOG_FUNCTION(fusePlanDesc);
    return tryCatch(__func__, [&] { miopen::destroyObject<FusionPlan>(fusePlanDesc, "fusePlanDesc"); });
}

extern "C" miopenStatus_t miopenCompileFusionPlan_impl(miopenHandle_t handle, miopenFusionPlanDescriptor_t fusePlanDesc)
{
    MIOPEN_LOG_FUNCTION(handle, fusePlanDesc);
    miopenStatus_t result = miopenStatusSuccess;
    const miopenStatus_t thrown = tryCatch(__func__, [&] {
        deref<Handle>(handle, "handle");
        std::string why;
        result = deref<FusionPlan>(fusePlanDesc, "fusePlanDesc").compile(why);
        if(result != miopenStatusSuccess)
        {
            MIOPEN_LOG_I("fusion plan not compiled: " << why);
            miopen::setLastErrorMessage(__func__, why.c_str());
        }
    });
    return thrown != miopenStatusSuccess ? thrown : result;
}

extern "C" miopenStatus_t miopenFusionPlanGetOp_impl(miopenFusionPlanDescriptor_t fusePlanDesc,
                                                     const int op_idx,
                                                     miopenFusionOpDescriptor_t* op)
{
    MIOPEN_LOG_FUNCTION(fusePlanDesc, op_idx, op);
    return tryCatch(__func__, [&] {
        const auto& p = deref<FusionPlan>(fusePlanDesc, "fusePlanDesc");
        check(op != nullptr, "op output pointer is null");
        *op = &p.op(op_idx);
    });
}

extern "C" miopenStatus_t miopenFusionPlanGetWorkSpaceSize_impl(miopenHandle_t handle,
                                                                miopenFusionPlanDescriptor_t fusePlanDesc,
                                                                size_t* workSpaceSize,
                                                                miopenConvFwdAlgorithm_t algo)
{
    MIOPEN_LOG_FUNCTION(handle, fusePlanDesc, workSpaceSize, algo);
    return tryCatch(__func__, [&] {
        deref<Handle>(handle, "handle");
        deref<FusionPlan>(fusePlanDesc, "fusePlanDesc");
        check(workSpaceSize != nullptr, "workSpaceSize is null");
        fwdAlgorithm(algo);
        // Execution takes its scratch from the handle's allocator: no caller workspace.
        *workSpaceSize = 0;
    });
}

extern "C" miopenStatus_t miopenFusionPlanConvolutionGetAlgo_impl(miopenFusionPlanDescriptor_t fusePlanDesc,
                                                                  const int requestAlgoCount,
                                                                  int* returnedAlgoCount,
                                                                  miopenConvFwdAlgorithm_t* returnedAlgos)
{
    MIOPEN_LOG_FUNCTION(fusePlanDesc, requestAlgoCount, returnedAlgoCount, returnedAlgos);
    return tryCatch(__func__, [&] {
        const auto& p = deref<FusionPlan>(fusePlanDesc, "fusePlanDesc");
        check(returnedAlgoCount != nullptr && returnedAlgos != nullptr, "returnedAlgoCount or returnedAlgos is null");
        check(requestAlgoCount >= 1, "requestAlgoCount must be >= 1");
        const auto algos = p.convAlgorithms();
        const int n      = std::min(requestAlgoCount, static_cast<int>(algos.size()));
        for(int i = 0; i < n; ++i)
            returnedAlgos[i] = static_cast<miopenConvFwdAlgorithm_t>(algos[static_cast<std::size_t>(i)]);
        *returnedAlgoCount = n;
    });
}

extern "C" miopenStatus_t miopenFusionPlanConvolutionSetAlgo_impl(miopenFusionPlanDescriptor_t fusePlanDesc,
                                                                  miopenConvFwdAlgorithm_t algo)
{
    MIOPEN_LOG_FUNCTION(fusePlanDesc, algo);
    return tryCatch(__func__, [&] {
        auto& p = deref<FusionPlan>(fusePlanDesc, "fusePlanDesc");
        p.setConvAlgorithm(fwdAlgorithm(algo));
    });
}

extern "C" miopenStatus_t miopenCreateOpConvForward_impl(miopenFusionPlanDescriptor_t fusePlanDesc,
                                                         miopenFusionOpDescriptor_t* convOp,
                                                         miopenConvolutionDescriptor_t convDesc,
                                                         const miopenTensorDescriptor_t wDesc)
{
    MIOPEN_LOG_FUNCTION(fusePlanDesc, convOp, convDesc, wDesc);
    return addOp(__func__, fusePlanDesc, convOp, [&](FusionOp& o) {
        o.kind = FusionOpKind::ConvForward;
        o.conv = deref<miopen::ConvolutionDescriptor>(convDesc, "convDesc").checkSet("convDesc");
        o.desc = tensor(wDesc, "wDesc");
    });
}

extern "C" miopenStatus_t miopenCreateOpActivationForward_impl(miopenFusionPlanDescriptor_t fusePlanDesc,
                                                               miopenFusionOpDescriptor_t* activFwdOp,
                                                               miopenActivationMode_t mode)
{
    MIOPEN_LOG_FUNCTION(fusePlanDesc, activFwdOp, mode);
    return addOp(__func__, fusePlanDesc, activFwdOp, [&](FusionOp& o) {
        o.kind      = FusionOpKind::ActivForward;
        o.activMode = miopen::checkedEnum(mode, miopen::kActivationModes, "activation mode");
    });
}

extern "C" miopenStatus_t miopenCreateOpActivationBackward_impl(miopenFusionPlanDescriptor_t fusePlanDesc,
                                                                miopenFusionOpDescriptor_t* activBwdOp,
                                                                miopenActivationMode_t mode)
{
    MIOPEN_LOG_FUNCTION(fusePlanDesc, activBwdOp, mode);
    return addOp(__func__, fusePlanDesc, activBwdOp, [&](FusionOp& o) {
        o.kind      = FusionOpKind::ActivBackward;
        o.activMode = miopen::checkedEnum(mode, miopen::kActivationModes, "activation mode");
    });
}

extern "C" miopenStatus_t miopenCreateOpBiasForward_impl(miopenFusionPlanDescriptor_t fusePlanDesc,
                                                         miopenFusionOpDescriptor_t* biasOp,
                                                         const miopenTensorDescriptor_t bDesc)
{
    MIOPEN_LOG_FUNCTION(fusePlanDesc, biasOp, bDesc);
    return addOp(__func__, fusePlanDesc, biasOp, [&](FusionOp& o) {
        o.kind = FusionOpKind::BiasForward;
        o.desc = tensor(bDesc, "bDesc");
    });
}

extern "C" miopenStatus_t miopenCreateOpBatchNormInference_impl(miopenFusionPlanDescriptor_t fusePlanDesc,
                                                                miopenFusionOpDescriptor_t* bnOp,
                                                                const miopenBatchNormMode_t bn_mode,
                                                                const miopenTensorDescriptor_t bnScaleBiasMeanVarDesc)
{
    MIOPEN_LOG_FUNCTION(fusePlanDesc, bnOp, bn_mode, bnScaleBiasMeanVarDesc);
    return addOp(__func__, fusePlanDesc, bnOp, [&](FusionOp& o) {
        o.kind   = FusionOpKind::BnInference;
        o.bnMode = miopen::checkedEnum(bn_mode, miopen::kBatchNormModes, "batchnorm mode");
        o.desc   = tensor(bnScaleBiasMeanVarDesc, "bnScaleBiasMeanVarDesc");
    });
}

extern "C" miopenStatus_t miopenCreateOpBatchNormForward_impl(miopenFusionPlanDescriptor_t fusePlanDesc,
                                                              miopenFusionOpDescriptor_t* bnFwdOp,
                                                              const miopenBatchNormMode_t bn_mode,
                                                              bool runningMeanVariance)
{
    MIOPEN_LOG_FUNCTION(fusePlanDesc, bnFwdOp, bn_mode, runningMeanVariance);
    return addOp(__func__, fusePlanDesc, bnFwdOp, [&](FusionOp& o) {
        o.kind                = FusionOpKind::BnForwardTraining;
        o.bnMode              = miopen::checkedEnum(bn_mode, miopen::kBatchNormModes, "batchnorm mode");
        o.runningMeanVariance = runningMeanVariance;
    });
}

extern "C" miopenStatus_t miopenCreateOpBatchNormBackward_impl(miopenFusionPlanDescriptor_t fusePlanDesc,
                                                               miopenFusionOpDescriptor_t* bnBwdOp,
                                                               const miopenBatchNormMode_t bn_mode)
{
    MIOPEN_LOG_FUNCTION(fusePlanDesc, bnBwdOp, bn_mode);
    return addOp(__func__, fusePlanDesc, bnBwdOp, [&](FusionOp& o) {
        o.kind   = FusionOpKind::BnBackward;
        o.bnMode = miopen::checkedEnum(bn_mode, miopen::kBatchNormModes, "batchnorm mode");
    });
}

extern "C" miopenStatus_t miopenCreateOperatorArgs_impl(miopenOperatorArgs_t* args)
{
    MIOPEN_LOG_FUNCTION(args);
    return tryCatch(__func__, [&] { miopen::createObject<OperatorArgs>(args, "operator arguments"); });
}

extern "C" miopenStatus_t miopenDestroyOperatorArgs_impl(miopenOperatorArgs_t args)
{
    MIOPEN_LOG_FUNCTION(args);
    return tryCatch(__func__, [&] { miopen::destroyObject<OperatorArgs>(args, "args"); });
}

extern "C" miopenStatus_t miopenSetOpArgsConvForward_impl(miopenOperatorArgs_t args,
                                                          const miopenFusionOpDescriptor_t convOp,
                                                          const void* alpha,
                                                          const void* beta,
                                                          const void* w)
{
    MIOPEN_LOG_FUNCTION(args, convOp, alpha, beta, w);
    return setArgs(__func__, args, convOp, FusionOpKind::ConvForward, alpha, beta, [&](FusionOpArgs& r) {
        check(w != nullptr, "w is null");
        r.w = w;
    });
}

extern "C" miopenStatus_t miopenSetOpArgsActivForward_impl(miopenOperatorArgs_t args,
                                                           const miopenFusionOpDescriptor_t activFwdOp,
                                                           const void* alpha,
                                                           const void* beta,
                                                           double activAlpha,
                                                           double activBeta,
                                                           double activGamma)
{
    MIOPEN_LOG_FUNCTION(args, activFwdOp, alpha, beta, activAlpha, activBeta, activGamma);
    return setArgs(__func__, args, activFwdOp, FusionOpKind::ActivForward, alpha, beta, [&](FusionOpArgs& r) {
        r.activ = {deref<FusionOp>(activFwdOp, "activFwdOp").activMode, activAlpha, activBeta, activGamma};
    });
}

extern "C" miopenStatus_t miopenSetOpArgsActivBackward_impl(miopenOperatorArgs_t args,
                                                            const miopenFusionOpDescriptor_t activBwdOp,
                                                            const void* alpha,
                                                            const void* beta,
                                                            const void* y,
                                                            const void* reserved,
                                                            double activAlpha,
                                                            double activBeta,
                                                            double activGamma)
{
    MIOPEN_LOG_FUNCTION(args, activBwdOp, alpha, beta, y, reserved, activAlpha, activBeta, activGamma);
    return setArgs(__func__, args, activBwdOp, FusionOpKind::ActivBackward, alpha, beta, [&](FusionOpArgs& r) {
        check(y != nullptr, "y is null");
        r.y     = y;
        r.activ = {deref<FusionOp>(activBwdOp, "activBwdOp").activMode, activAlpha, activBeta, activGamma};
    });
}

extern "C" miopenStatus_t miopenSetOpArgsBatchNormInference_impl(miopenOperatorArgs_t args,
                                                                 const miopenFusionOpDescriptor_t bnOp,
                                                                 const void* alpha,
                                                                 const void* beta,
                                                                 const void* bnScale,
                                                                 const void* bnBias,
                                                                 const void* estimatedMean,
                                                                 const void* estimatedVariance,
                                                                 double epsilon)
{
    MIOPEN_LOG_FUNCTION(args, bnOp, alpha, beta, bnScale, bnBias, estimatedMean, estimatedVariance, epsilon);
    return setArgs(__func__, args, bnOp, FusionOpKind::BnInference, alpha, beta, [&](FusionOpArgs& r) {
        check(bnScale != nullptr && bnBias != nullptr && estimatedMean != nullptr && estimatedVariance != nullptr,
              "bnScale, bnBias, estimatedMean or estimatedVariance is null");
        check(epsilon >= 0.0, "epsilon must not be negative");
        r.scale   = bnScale;
        r.bias    = bnBias;
        r.mean    = estimatedMean;
        r.var     = estimatedVariance;
        r.epsilon = epsilon;
    });
}

extern "C" miopenStatus_t miopenSetOpArgsBatchNormForward_impl(miopenOperatorArgs_t args,
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
    MIOPEN_LOG_FUNCTION(args, bnOp, alpha, beta, bnScale, bnBias, savedMean, savedInvVariance, runningMean,
                        runningVariance, expAvgFactor, epsilon);
    return setArgs(__func__, args, bnOp, FusionOpKind::BnForwardTraining, alpha, beta, [&](FusionOpArgs& r) {
        check(bnScale != nullptr && bnBias != nullptr, "bnScale or bnBias is null");
        if(deref<FusionOp>(bnOp, "bnOp").runningMeanVariance)
            check(runningMean != nullptr && runningVariance != nullptr,
                  "the operator keeps running statistics: runningMean and runningVariance are required");
        r.scale        = bnScale;
        r.bias         = bnBias;
        r.savedMean    = savedMean;
        r.savedInvVar  = savedInvVariance;
        r.runningMean  = runningMean;
        r.runningVar   = runningVariance;
        r.expAvgFactor = expAvgFactor;
        r.epsilon      = epsilon;
    });
}

extern "C" miopenStatus_t miopenSetOpArgsBatchNormBackward_impl(miopenOperatorArgs_t args,
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
    MIOPEN_LOG_FUNCTION(args, bnOp, alpha, beta, x, bnScale, bnBias, resultBnScaleDiff, resultBnBiasDiff, savedMean,
                        savedInvVariance);
    return setArgs(__func__, args, bnOp, FusionOpKind::BnBackward, alpha, beta, [&](FusionOpArgs& r) {
        check(x != nullptr && bnScale != nullptr && resultBnScaleDiff != nullptr && resultBnBiasDiff != nullptr,
              "x, bnScale, resultBnScaleDiff or resultBnBiasDiff is null");
        r.x      = x;
        r.scale  = bnScale;
        r.bias   = bnBias;
        r.dScale = resultBnScaleDiff;
        r.dBias  = resultBnBiasDiff;
        r.mean   = savedMean;
        r.var    = savedInvVariance;
    });
}

extern "C" miopenStatus_t miopenSetOpArgsBiasForward_impl(miopenOperatorArgs_t args,
                                                          const miopenFusionOpDescriptor_t biasOp,
                                                          const void* alpha,
                                                          const void* beta,
                                                          const void* bias)
{
    MIOPEN_LOG_FUNCTION(args, biasOp, alpha, beta, bias);
    return setArgs(__func__, args, biasOp, FusionOpKind::BiasForward, alpha, beta, [&](FusionOpArgs& r) {
        check(bias != nullptr, "bias is null");
        r.bias = bias;
    });
}

extern "C" miopenStatus_t miopenExecuteFusionPlan_impl(const miopenHandle_t handle,
                                                       const miopenFusionPlanDescriptor_t fusePlanDesc,
                                                       const miopenTensorDescriptor_t inputDesc,
                                                       const void* input,
                                                       const miopenTensorDescriptor_t outputDesc,
                                                       void* output,
                                                       miopenOperatorArgs_t args)
{
    MIOPEN_LOG_FUNCTION(handle, fusePlanDesc, inputDesc, input, outputDesc, output, args);
    return tryCatch(__func__, [&] {
        auto& h       = deref<Handle>(handle, "handle");
        const auto& p = deref<FusionPlan>(fusePlanDesc, "fusePlanDesc");
        const auto& in  = tensor(inputDesc, "inputDesc");
        const auto& out = tensor(outputDesc, "outputDesc");
        const auto& a   = deref<OperatorArgs>(args, "args");
        check(input != nullptr && output != nullptr, "input or output is null");
        if(miopen::isCmdLoggingEnabled())
        {
            // Upstream logs an error (and no command) for a sequence without a driver mode.
            std::string cmd;
            try
            {
                cmd = p.driverArgs();
            }
            catch(...)
            {
            }
            if(cmd.empty())
                MIOPEN_LOG_W("no MIOpenDriver command for this fusion plan: " << p.toString());
            else
                miopen::logDriverCommand("LogCmdFusion", cmd);
        }
        p.execute(h, in, input, out, output, a);
    });
}

extern "C" miopenStatus_t miopenConvolutionBiasActivationForward_impl(miopenHandle_t handle,
                                                                      const void* alpha1,
                                                                      const miopenTensorDescriptor_t xDesc,
                                                                      const void* x,
                                                                      const miopenTensorDescriptor_t wDesc,
                                                                      const void* w,
                                                                      const miopenConvolutionDescriptor_t convDesc,
                                                                      miopenConvFwdAlgorithm_t algo,
                                                                      void* workspace,
                                                                      size_t workspaceSizeInBytes,
                                                                      const void* alpha2,
                                                                      const miopenTensorDescriptor_t zDesc,
                                                                      const void* z,
                                                                      const miopenTensorDescriptor_t biasDesc,
                                                                      const void* bias,
                                                                      const miopenActivationDescriptor_t activationDesc,
                                                                      const miopenTensorDescriptor_t yDesc,
                                                                      void* y)
{
    MIOPEN_LOG_FUNCTION(handle, alpha1, xDesc, x, wDesc, w, convDesc, algo, workspace, workspaceSizeInBytes, alpha2,
                        zDesc, z, biasDesc, bias, activationDesc, yDesc, y);
    return tryCatch(__func__, [&] {
        auto& h         = deref<Handle>(handle, "handle");
        const auto a    = fwdAlgorithm(algo);
        const auto& xd  = tensor(xDesc, "xDesc");
        const auto& wd  = tensor(wDesc, "wDesc");
        const auto& cd  = deref<miopen::ConvolutionDescriptor>(convDesc, "convDesc").checkSet("convDesc");
        const auto& bd  = tensor(biasDesc, "biasDesc");
        const auto& yd  = tensor(yDesc, "yDesc");
        const auto& act = deref<miopen::ActivationDescriptor>(activationDesc, "activationDesc").params();
        const TensorDescriptor* zd = z != nullptr ? &tensor(zDesc, "zDesc") : nullptr;
        check(x != nullptr && w != nullptr && bias != nullptr && y != nullptr, "x, w, bias or y is null");
        // Without z this is fusion mode 4 (conv + bias + activation); with z there is no driver
        // command (upstream's plan for this call has four operators and no mode either).
        if(z == nullptr)
            MIOPEN_LOG_DRIVER_CMD("LogCmdFusion",
                                  miopen::convFusionDriverArgs(
                                      4, miopen::conv::ApiProblem(miopen::conv::ApiDirection::Forward, xd, wd, yd, cd)));
        miopen::KernelTimer timer(h);
        miopen::convBiasActivForward(h, scalarOr(alpha1, 1.0f), xd, x, wd, w, cd, a, scalarOr(alpha2, 1.0f), zd, z,
                                     bd, bias, act, yd, y);
    });
}
