// C entry points of the batch normalization family: argument checks and logging, then internal
// C++. The V1 calls pass their single parameter descriptor as all four of the V2 ones.
#include <miopen/api_logging.hpp>
#include <miopen/batchnorm.hpp>
#include <miopen/elementwise.hpp>
#include <miopen/errors.hpp>
#include <miopen/handle.hpp>
#include <miopen/miopen.h>
#include <miopen/miopen_impl.h>
#include <miopen/tensor.hpp>

using miopen::check;
using miopen::deref;
using miopen::Handle;
using miopen::TensorDescriptor;
using miopen::tryCatch;
using miopen::elementwise::hostScalar;

namespace {

const TensorDescriptor& tensor(const miopenTensorDescriptor_t d, const char* what)
{
    return deref<TensorDescriptor>(d, what).checkSet(what);
}

miopenBatchNormMode_t bnMode(const miopenBatchNormMode_t& m)
{
    return miopen::checkedEnum(m, miopen::kBatchNormModes, "batchnorm mode");
}

miopen::BnParamDescs paramDescs(miopenTensorDescriptor_t scale,
                                miopenTensorDescriptor_t bias,
                                miopenTensorDescriptor_t mean,
                                miopenTensorDescriptor_t var)
{
    return {&tensor(scale, "scaleDesc"), &tensor(bias, "biasDesc"), &tensor(mean, "meanDesc"),
            &tensor(var, "varianceDesc")};
}

miopenStatus_t forwardTraining(const char* api, miopenHandle_t handle, const miopenBatchNormMode_t& mode,
                               const void* alpha, const void* beta, miopenTensorDescriptor_t xDesc,
                               const void* x, miopenTensorDescriptor_t yDesc, void* y,
                               miopenTensorDescriptor_t scaleDesc, miopenTensorDescriptor_t biasDesc,
                               miopenTensorDescriptor_t meanDesc, miopenTensorDescriptor_t varDesc,
                               const void* scale, const void* bias, double expAvgFactor, void* runningMean,
                               void* runningVar, double epsilon, void* savedMean, void* savedInvVar)
{
    return tryCatch(api, [&] {
        auto& h      = deref<Handle>(handle, "handle");
        const auto m = bnMode(mode);
        const float a = hostScalar(alpha, "alpha"), b = hostScalar(beta, "beta");
        const auto& xd = tensor(xDesc, "xDesc");
        const auto& yd = tensor(yDesc, "yDesc");
        const auto pd  = paramDescs(scaleDesc, biasDesc, meanDesc, varDesc);
        check(x != nullptr && y != nullptr && scale != nullptr && bias != nullptr, "x, y, bnScale or bnBias is null");
        MIOPEN_LOG_DRIVER_CMD("LogCmdBNorm",
                                 miopen::bnDriverArgs(xd, *pd.mean, m, miopen::BnDriverDirection::ForwardTraining,
                                                      savedMean != nullptr && savedInvVar != nullptr,
                                                      runningMean != nullptr && runningVar != nullptr));
        miopen::KernelTimer timer(h);
        miopen::bnForwardTraining(h, m, a, b, xd, x, yd, y, pd, scale, bias, expAvgFactor, runningMean, runningVar,
                                  epsilon, savedMean, savedInvVar);
    });
}

miopenStatus_t forwardInference(const char* api, miopenHandle_t handle, const miopenBatchNormMode_t& mode,
                                const void* alpha, const void* beta, miopenTensorDescriptor_t xDesc,
                                const void* x, miopenTensorDescriptor_t yDesc, void* y,
                                miopenTensorDescriptor_t scaleDesc, miopenTensorDescriptor_t biasDesc,
                                miopenTensorDescriptor_t meanDesc, miopenTensorDescriptor_t varDesc,
                                const void* scale, const void* bias, const void* estMean, const void* estVar,
                                double epsilon)
{
    return tryCatch(api, [&] {
        auto& h      = deref<Handle>(handle, "handle");
        const auto m = bnMode(mode);
        const float a = hostScalar(alpha, "alpha"), b = hostScalar(beta, "beta");
        const auto& xd = tensor(xDesc, "xDesc");
        const auto& yd = tensor(yDesc, "yDesc");
        const auto pd  = paramDescs(scaleDesc, biasDesc, meanDesc, varDesc);
        check(x != nullptr && y != nullptr && scale != nullptr && bias != nullptr, "x, y, bnScale or bnBias is null");
        MIOPEN_LOG_DRIVER_CMD("LogCmdBNorm",
                                 miopen::bnDriverArgs(xd, *pd.mean, m, miopen::BnDriverDirection::ForwardInference, false,
                                                      estMean != nullptr && estVar != nullptr));
        miopen::KernelTimer timer(h);
        miopen::bnForwardInference(h, m, a, b, xd, x, yd, y, pd, scale, bias, estMean, estVar, epsilon);
    });
}

miopenStatus_t backward(const char* api, miopenHandle_t handle, const miopenBatchNormMode_t& mode,
                        const void* alphaDataDiff, const void* betaDataDiff, const void* alphaParamDiff,
                        const void* betaParamDiff, miopenTensorDescriptor_t xDesc, const void* x,
                        miopenTensorDescriptor_t dyDesc, const void* dy, miopenTensorDescriptor_t dxDesc, void* dx,
                        miopenTensorDescriptor_t scaleDesc, miopenTensorDescriptor_t biasDesc,
                        miopenTensorDescriptor_t meanDesc, miopenTensorDescriptor_t varDesc, const void* scale,
                        void* dScale, void* dBias, double epsilon, const void* savedMean, const void* savedInvVar)
{
    return tryCatch(api, [&] {
        auto& h      = deref<Handle>(handle, "handle");
        const auto m = bnMode(mode);
        const float ad = hostScalar(alphaDataDiff, "alphaDataDiff"), bd = hostScalar(betaDataDiff, "betaDataDiff");
        const float ap = hostScalar(alphaParamDiff, "alphaParamDiff"), bp = hostScalar(betaParamDiff, "betaParamDiff");
        const auto& xd  = tensor(xDesc, "xDesc");
        const auto& dyd = tensor(dyDesc, "dyDesc");
        const auto& dxd = tensor(dxDesc, "dxDesc");
        const auto pd   = paramDescs(scaleDesc, biasDesc, meanDesc, varDesc);
        check(x != nullptr && dy != nullptr && dx != nullptr && scale != nullptr && dScale != nullptr && dBias != nullptr,
              "x, dy, dx, bnScale, resultBnScaleDiff or resultBnBiasDiff is null");
        MIOPEN_LOG_DRIVER_CMD("LogCmdBNorm",
                                 miopen::bnDriverArgs(xd, *pd.mean, m, miopen::BnDriverDirection::Backward,
                                                      savedMean != nullptr && savedInvVar != nullptr, false));
        miopen::KernelTimer timer(h);
        miopen::bnBackward(h, m, ad, bd, ap, bp, xd, x, dyd, dy, dxd, dx, pd, scale, dScale, dBias, epsilon, savedMean,
                           savedInvVar);
    });
}

} // namespace

extern "C" miopenStatus_t miopenDeriveBNTensorDescriptor_impl(miopenTensorDescriptor_t derivedBnDesc,
                                                         const miopenTensorDescriptor_t xDesc,
                                                         miopenBatchNormMode_t bn_mode)
{
    MIOPEN_LOG_FUNCTION(derivedBnDesc, xDesc, bn_mode);
    return tryCatch(__func__, [&] {
        auto& out       = deref<TensorDescriptor>(derivedBnDesc, "derivedBnDesc");
        const auto& xd  = tensor(xDesc, "xDesc");
        const auto d    = miopen::deriveBnDescriptor(xd, bnMode(bn_mode));
        out.set(d.type(), d.lens(), d.strides());
    });
}

extern "C" miopenStatus_t miopenBatchNormalizationForwardTraining_impl(miopenHandle_t handle,
                                                                  miopenBatchNormMode_t bn_mode,
                                                                  void* alpha,
                                                                  void* beta,
                                                                  const miopenTensorDescriptor_t xDesc,
                                                                  const void* x,
                                                                  const miopenTensorDescriptor_t yDesc,
                                                                  void* y,
                                                                  const miopenTensorDescriptor_t bnScaleBiasMeanVarDesc,
                                                                  void* bnScale,
                                                                  void* bnBias,
                                                                  double expAvgFactor,
                                                                  void* resultRunningMean,
                                                                  void* resultRunningVariance,
                                                                  double epsilon,
                                                                  void* resultSaveMean,
                                                                  void* resultSaveInvVariance)
{
    MIOPEN_LOG_FUNCTION(handle, bn_mode, alpha, beta, xDesc, x, yDesc, y, bnScaleBiasMeanVarDesc, bnScale, bnBias,
                        expAvgFactor, resultRunningMean, resultRunningVariance, epsilon, resultSaveMean,
                        resultSaveInvVariance);
    return forwardTraining(__func__, handle, bn_mode, alpha, beta, xDesc, x, yDesc, y, bnScaleBiasMeanVarDesc,
                           bnScaleBiasMeanVarDesc, bnScaleBiasMeanVarDesc, bnScaleBiasMeanVarDesc, bnScale, bnBias,
                           expAvgFactor, resultRunningMean, resultRunningVariance, epsilon, resultSaveMean,
                           resultSaveInvVariance);
}

extern "C" miopenStatus_t miopenBatchNormalizationForwardTraining_V2_impl(miopenHandle_t handle,
                                                                     miopenBatchNormMode_t bn_mode,
                                                                     void* alpha,
                                                                     void* beta,
                                                                     const miopenTensorDescriptor_t xDesc,
                                                                     const void* x,
                                                                     const miopenTensorDescriptor_t yDesc,
                                                                     void* y,
                                                                     const miopenTensorDescriptor_t scaleDesc,
                                                                     const miopenTensorDescriptor_t biasVarDesc,
                                                                     const miopenTensorDescriptor_t savedMeanDesc,
                                                                     const miopenTensorDescriptor_t savedVarDesc,
                                                                     void* bnScale,
                                                                     void* bnBias,
                                                                     double expAvgFactor,
                                                                     void* resultRunningMean,
                                                                     void* resultRunningVariance,
                                                                     double epsilon,
                                                                     void* resultSaveMean,
                                                                     void* resultSaveInvVariance)
{
    MIOPEN_LOG_FUNCTION(handle, bn_mode, alpha, beta, xDesc, x, yDesc, y, scaleDesc, biasVarDesc, savedMeanDesc,
                        savedVarDesc, bnScale, bnBias, expAvgFactor, resultRunningMean, resultRunningVariance,
                        epsilon, resultSaveMean, resultSaveInvVariance);
    return forwardTraining(__func__, handle, bn_mode, alpha, beta, xDesc, x, yDesc, y, scaleDesc, biasVarDesc,
                           savedMeanDesc, savedVarDesc, bnScale, bnBias, expAvgFactor, resultRunningMean,
                           resultRunningVariance, epsilon, resultSaveMean, resultSaveInvVariance);
}

extern "C" miopenStatus_t miopenBatchNormalizationForwardInference_impl(miopenHandle_t handle,
                                                                   miopenBatchNormMode_t bn_mode,
                                                                   void* alpha,
                                                                   void* beta,
                                                                   const miopenTensorDescriptor_t xDesc,
                                                                   const void* x,
                                                                   const miopenTensorDescriptor_t yDesc,
                                                                   void* y,
                                                                   const miopenTensorDescriptor_t bnScaleBiasMeanVarDesc,
                                                                   void* bnScale,
                                                                   void* bnBias,
                                                                   void* estimatedMean,
                                                                   void* estimatedVariance,
                                                                   double epsilon)
{
    MIOPEN_LOG_FUNCTION(handle, bn_mode, alpha, beta, xDesc, x, yDesc, y, bnScaleBiasMeanVarDesc, bnScale, bnBias,
                        estimatedMean, estimatedVariance, epsilon);
    return forwardInference(__func__, handle, bn_mode, alpha, beta, xDesc, x, yDesc, y, bnScaleBiasMeanVarDesc,
                            bnScaleBiasMeanVarDesc, bnScaleBiasMeanVarDesc, bnScaleBiasMeanVarDesc, bnScale, bnBias,
                            estimatedMean, estimatedVariance, epsilon);
}

extern "C" miopenStatus_t miopenBatchNormalizationForwardInference_V2_impl(miopenHandle_t handle,
                                                                      miopenBatchNormMode_t bn_mode,
                                                                      void* alpha,
                                                                      void* beta,
                                                                      const miopenTensorDescriptor_t xDesc,
                                                                      const void* x,
                                                                      const miopenTensorDescriptor_t yDesc,
                                                                      void* y,
                                                                      const miopenTensorDescriptor_t scaleDesc,
                                                                      const miopenTensorDescriptor_t biasDesc,
                                                                      const miopenTensorDescriptor_t estMeanDesc,
                                                                      const miopenTensorDescriptor_t estVarianceDesc,
                                                                      void* bnScale,
                                                                      void* bnBias,
                                                                      void* estimatedMean,
                                                                      void* estimatedVariance,
                                                                      double epsilon)
{
    MIOPEN_LOG_FUNCTION(handle, bn_mode, alpha, beta, xDesc, x, yDesc, y, scaleDesc, biasDesc, estMeanDesc,
                        estVarianceDesc, bnScale, bnBias, estimatedMean, estimatedVariance, epsilon);
    return forwardInference(__func__, handle, bn_mode, alpha, beta, xDesc, x, yDesc, y, scaleDesc, biasDesc,
                            estMeanDesc, estVarianceDesc, bnScale, bnBias, estimatedMean, estimatedVariance, epsilon);
}

extern "C" miopenStatus_t miopenBatchNormalizationBackward_impl(miopenHandle_t handle,
                                                           miopenBatchNormMode_t bn_mode,
                                                           const void* alphaDataDiff,
                                                           const void* betaDataDiff,
                                                           const void* alphaParamDiff,
                                                           const void* betaParamDiff,
                                                           const miopenTensorDescriptor_t xDesc,
                                                           const void* x,
                                                           const miopenTensorDescriptor_t dyDesc,
                                                           const void* dy,
                                                           const miopenTensorDescriptor_t dxDesc,
                                                           void* dx,
                                                           const miopenTensorDescriptor_t bnScaleBiasDiffDesc,
                                                           const void* bnScale,
                                                           void* resultBnScaleDiff,
                                                           void* resultBnBiasDiff,
                                                           double epsilon,
                                                           const void* savedMean,
                                                           const void* savedInvVariance)
{
    MIOPEN_LOG_FUNCTION(handle, bn_mode, alphaDataDiff, betaDataDiff, alphaParamDiff, betaParamDiff, xDesc, x, dyDesc,
                        dy, dxDesc, dx, bnScaleBiasDiffDesc, bnScale, resultBnScaleDiff, resultBnBiasDiff, epsilon,
                        savedMean, savedInvVariance);
    return backward(__func__, handle, bn_mode, alphaDataDiff, betaDataDiff, alphaParamDiff, betaParamDiff, xDesc, x,
                    dyDesc, dy, dxDesc, dx, bnScaleBiasDiffDesc, bnScaleBiasDiffDesc, bnScaleBiasDiffDesc,
                    bnScaleBiasDiffDesc, bnScale, resultBnScaleDiff, resultBnBiasDiff, epsilon, savedMean,
                    savedInvVariance);
}

extern "C" miopenStatus_t miopenBatchNormalizationBackward_V2_impl(miopenHandle_t handle,
                                                              miopenBatchNormMode_t bn_mode,
                                                              const void* alphaDataDiff,
                                                              const void* betaDataDiff,
                                                              const void* alphaParamDiff,
                                                              const void* betaParamDiff,
                                                              const miopenTensorDescriptor_t xDesc,
                                                              const void* x,
                                                              const miopenTensorDescriptor_t dyDesc,
                                                              const void* dy,
                                                              const miopenTensorDescriptor_t dxDesc,
                                                              void* dx,
                                                              const miopenTensorDescriptor_t scaleDesc,
                                                              const miopenTensorDescriptor_t biasDesc,
                                                              const miopenTensorDescriptor_t savedMeanDesc,
                                                              const miopenTensorDescriptor_t savedVarDesc,
                                                              const void* bnScale,
                                                              void* resultBnScaleDiff,
                                                              void* resultBnBiasDiff,
                                                              double epsilon,
                                                              const void* savedMean,
                                                              const void* savedInvVariance)
{
    MIOPEN_LOG_FUNCTION(handle, bn_mode, alphaDataDiff, betaDataDiff, alphaParamDiff, betaParamDiff, xDesc, x, dyDesc,
                        dy, dxDesc, dx, scaleDesc, biasDesc, savedMeanDesc, savedVarDesc, bnScale, resultBnScaleDiff,
                        resultBnBiasDiff, epsilon, savedMean, savedInvVariance);
    return backward(__func__, handle, bn_mode, alphaDataDiff, betaDataDiff, alphaParamDiff, betaParamDiff, xDesc, x,
                    dyDesc, dy, dxDesc, dx, scaleDesc, biasDesc, savedMeanDesc, savedVarDesc, bnScale,
                    resultBnScaleDiff, resultBnBiasDiff, epsilon, savedMean, savedInvVariance);
}
