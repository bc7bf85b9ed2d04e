// Hand-written stubs (policy "custom"): entry points for which the wrapper keeps state of its own
// once calls are forwarded — a handle's forwarded state (miopenDestroy), profiling and the kernel
// time of a forwarded call (miopenEnableProfiling, miopenGetKernelTime), the error strings of
// forwarded calls (miopenGetErrorString) — and the forwarding set itself, which goes to hipDNN when
// routed there (forwarding.hpp). With the route word zero every one of them is a plain call of its
// _impl. Plus the wrapper-only miopenGetLastForwardedError (no _impl twin).
#include <miopen/miopen.h>
#include <miopen/miopen_impl.h>

#include "forwarding.hpp"
#include "wrapper_runtime.hpp"

#include <cstring>

namespace {

inline bool slow() { return __builtin_expect(miopen::wrapper::gRouteWord.load(std::memory_order_relaxed) != 0, 0); }

// The raw bits of an enum argument (the caller may pass a value outside the enumeration).
template <class E>
int rawEnum(E e)
{
    int v = 0;
    static_assert(sizeof(E) == sizeof(int), "enum arguments are 32-bit");
    std::memcpy(&v, &e, sizeof v);
    return v;
}

using miopen::wrapper::fwd::BnCall;
using miopen::wrapper::fwd::BnOp;
using miopen::wrapper::fwd::ConvCall;
using miopen::wrapper::fwd::Op;

// A batchnorm call's common part (the V1 calls pass their one parameter descriptor four times).
BnCall bnCall(const char* entry, BnOp op, miopenHandle_t handle, miopenBatchNormMode_t mode, const void* alpha,
              const void* beta, miopenTensorDescriptor_t xDesc, const void* x, miopenTensorDescriptor_t yDesc,
              const void* y, miopenTensorDescriptor_t scaleDesc, miopenTensorDescriptor_t biasDesc,
              miopenTensorDescriptor_t meanDesc, miopenTensorDescriptor_t varDesc, const void* scale, double epsilon)
{
    BnCall c;
    c.entry = entry, c.op = op, c.handle = handle, c.mode = rawEnum(mode), c.alpha = alpha, c.beta = beta;
    c.xDesc = xDesc, c.x = x, c.yDesc = yDesc, c.y = y;
    c.scaleDesc = scaleDesc, c.biasDesc = biasDesc, c.meanDesc = meanDesc, c.varDesc = varDesc;
    c.scale = scale, c.epsilon = epsilon;
    return c;
}

} // namespace

// A version skew at load (wrapper_runtime.hpp, refuseAllCalls) makes slowPath() answer true: the
// call returns miopenStatusVersionMismatch and never reaches Private.
#define MIOPEN_CUSTOM_STUB(name, call)                           \
    do                                                           \
    {                                                            \
        if(slow() && miopen::wrapper::slowPath(name))            \
            return miopenStatusVersionMismatch;                  \
        return call;                                             \
    } while(false)

extern "C" miopenStatus_t miopenDestroy(miopenHandle_t handle)
{
    if(slow())
    {
        if(miopen::wrapper::slowPath("miopenDestroy"))
            return miopenStatusVersionMismatch;
        miopen::wrapper::fwd::onDestroy(handle);
    }
    return miopenDestroy_impl(handle);
}

extern "C" miopenStatus_t miopenSetStream(miopenHandle_t handle, miopenAcceleratorQueue_t streamID)
{
    // Forwarded calls read the stream from Private at each call (miopenGetStream_impl).
    MIOPEN_CUSTOM_STUB("miopenSetStream", miopenSetStream_impl(handle, streamID));
}

extern "C" miopenStatus_t miopenEnableProfiling(miopenHandle_t handle, bool enable)
{
    const miopenStatus_t st = [&] { MIOPEN_CUSTOM_STUB("miopenEnableProfiling", miopenEnableProfiling_impl(handle, enable)); }();
    if(st == miopenStatusSuccess && slow())
        miopen::wrapper::fwd::onEnableProfiling(handle, enable);
    return st;
}

extern "C" miopenStatus_t miopenGetKernelTime(miopenHandle_t handle, float* time)
{
    if(slow())
    {
        if(miopen::wrapper::slowPath("miopenGetKernelTime"))
            return miopenStatusVersionMismatch;
        if(miopen::wrapper::fwd::forwardedKernelTime(handle, time))
            return miopenStatusSuccess;
    }
    return miopenGetKernelTime_impl(handle, time);
}

extern "C" const char* miopenGetErrorString(miopenStatus_t error)
{
    if(slow())
    {
        (void)miopen::wrapper::slowPath("miopenGetErrorString"); // a string: nothing to refuse with
        if(const char* s = miopen::wrapper::fwd::forwardedErrorString(error))
            return s;
    }
    return miopenGetErrorString_impl(error);
}

extern "C" miopenStatus_t miopenGetLastForwardedError(int* hipdnnStatus, const char** message)
{
    if(slow())
        (void)miopen::wrapper::slowPath("miopenGetLastForwardedError"); // the wrapper's own record
    return miopen::wrapper::fwd::lastForwardedError(hipdnnStatus, message);
}

// ---- the forwarding set -------------------------------------------------------------------------

extern "C" miopenStatus_t miopenConvolutionForward(miopenHandle_t handle,
                                                   const void* alpha,
                                                   const miopenTensorDescriptor_t xDesc,
                                                   const void* x,
                                                   const miopenTensorDescriptor_t wDesc,
                                                   const void* w,
                                                   const miopenConvolutionDescriptor_t convDesc,
                                                   miopenConvFwdAlgorithm_t algo,
                                                   const void* beta,
                                                   const miopenTensorDescriptor_t yDesc,
                                                   void* y,
                                                   void* workSpace,
                                                   size_t workSpaceSize)
{
    if(slow())
    {
        ConvCall c;
        c.entry = "miopenConvolutionForward";
        c.op    = Op::Forward;
        c.handle = handle;
        c.xDesc = xDesc, c.wDesc = wDesc, c.yDesc = yDesc;
        c.x = x, c.w = w, c.y = y, c.written = y;
        c.conv = convDesc, c.alpha = alpha, c.beta = beta, c.algo = rawEnum(algo);
        c.workspace = workSpace, c.workspaceSize = workSpaceSize;
        miopenStatus_t st = miopenStatusSuccess;
        if(miopen::wrapper::fwd::tryForward(c, &st))
            return st;
    }
    return miopenConvolutionForward_impl(handle, alpha, xDesc, x, wDesc, w, convDesc, algo, beta, yDesc, y, workSpace,
                                         workSpaceSize);
}

extern "C" miopenStatus_t miopenConvolutionBackwardData(miopenHandle_t handle,
                                                        const void* alpha,
                                                        const miopenTensorDescriptor_t dyDesc,
                                                        const void* dy,
                                                        const miopenTensorDescriptor_t wDesc,
                                                        const void* w,
                                                        const miopenConvolutionDescriptor_t convDesc,
                                                        miopenConvBwdDataAlgorithm_t algo,
                                                        const void* beta,
                                                        const miopenTensorDescriptor_t dxDesc,
                                                        void* dx,
                                                        void* workSpace,
                                                        size_t workSpaceSize)
{
    if(slow())
    {
        ConvCall c;
        c.entry = "miopenConvolutionBackwardData";
        c.op    = Op::BackwardData;
        c.handle = handle;
        c.xDesc = dxDesc, c.wDesc = wDesc, c.yDesc = dyDesc;
        c.x = dx, c.w = w, c.y = dy, c.written = dx;
        c.conv = convDesc, c.alpha = alpha, c.beta = beta, c.algo = rawEnum(algo);
        c.workspace = workSpace, c.workspaceSize = workSpaceSize;
        miopenStatus_t st = miopenStatusSuccess;
        if(miopen::wrapper::fwd::tryForward(c, &st))
            return st;
    }
    return miopenConvolutionBackwardData_impl(handle, alpha, dyDesc, dy, wDesc, w, convDesc, algo, beta, dxDesc, dx,
                                              workSpace, workSpaceSize);
}

extern "C" miopenStatus_t miopenConvolutionBackwardWeights(miopenHandle_t handle,
                                                           const void* alpha,
                                                           const miopenTensorDescriptor_t dyDesc,
                                                           const void* dy,
                                                           const miopenTensorDescriptor_t xDesc,
                                                           const void* x,
                                                           const miopenConvolutionDescriptor_t convDesc,
                                                           miopenConvBwdWeightsAlgorithm_t algo,
                                                           const void* beta,
                                                           const miopenTensorDescriptor_t dwDesc,
                                                           void* dw,
                                                           void* workSpace,
                                                           size_t workSpaceSize)
{
    if(slow())
    {
        ConvCall c;
        c.entry = "miopenConvolutionBackwardWeights";
        c.op    = Op::BackwardWeights;
        c.handle = handle;
        c.xDesc = xDesc, c.wDesc = dwDesc, c.yDesc = dyDesc;
        c.x = x, c.w = dw, c.y = dy, c.written = dw;
        c.conv = convDesc, c.alpha = alpha, c.beta = beta, c.algo = rawEnum(algo);
        c.workspace = workSpace, c.workspaceSize = workSpaceSize;
        miopenStatus_t st = miopenStatusSuccess;
        if(miopen::wrapper::fwd::tryForward(c, &st))
            return st;
    }
    return miopenConvolutionBackwardWeights_impl(handle, alpha, dyDesc, dy, xDesc, x, convDesc, algo, beta, dwDesc, dw,
                                                 workSpace, workSpaceSize);
}

extern "C" miopenStatus_t miopenConvolutionForwardImmediate(miopenHandle_t handle,
                                                            const miopenTensorDescriptor_t wDesc,
                                                            const void* w,
                                                            const miopenTensorDescriptor_t xDesc,
                                                            const void* x,
                                                            const miopenConvolutionDescriptor_t convDesc,
                                                            const miopenTensorDescriptor_t yDesc,
                                                            void* y,
                                                            void* workSpace,
                                                            size_t workSpaceSize,
                                                            const uint64_t solution_id)
{
    if(slow())
    {
        ConvCall c;
        c.entry = "miopenConvolutionForwardImmediate";
        c.op    = Op::Forward;
        c.immediate = true;
        c.handle = handle;
        c.xDesc = xDesc, c.wDesc = wDesc, c.yDesc = yDesc;
        c.x = x, c.w = w, c.y = y, c.written = y;
        c.conv = convDesc, c.solutionId = solution_id;
        c.workspace = workSpace, c.workspaceSize = workSpaceSize;
        miopenStatus_t st = miopenStatusSuccess;
        if(miopen::wrapper::fwd::tryForward(c, &st))
            return st;
    }
    return miopenConvolutionForwardImmediate_impl(handle, wDesc, w, xDesc, x, convDesc, yDesc, y, workSpace,
                                                  workSpaceSize, solution_id);
}

extern "C" miopenStatus_t miopenConvolutionBackwardDataImmediate(miopenHandle_t handle,
                                                                 const miopenTensorDescriptor_t dyDesc,
                                                                 const void* dy,
                                                                 const miopenTensorDescriptor_t wDesc,
                                                                 const void* w,
                                                                 const miopenConvolutionDescriptor_t convDesc,
                                                                 const miopenTensorDescriptor_t dxDesc,
                                                                 void* dx,
                                                                 void* workSpace,
                                                                 size_t workSpaceSize,
                                                                 const uint64_t solution_id)
{
    if(slow())
    {
        ConvCall c;
        c.entry = "miopenConvolutionBackwardDataImmediate";
        c.op    = Op::BackwardData;
        c.immediate = true;
        c.handle = handle;
        c.xDesc = dxDesc, c.wDesc = wDesc, c.yDesc = dyDesc;
        c.x = dx, c.w = w, c.y = dy, c.written = dx;
        c.conv = convDesc, c.solutionId = solution_id;
        c.workspace = workSpace, c.workspaceSize = workSpaceSize;
        miopenStatus_t st = miopenStatusSuccess;
        if(miopen::wrapper::fwd::tryForward(c, &st))
            return st;
    }
    return miopenConvolutionBackwardDataImmediate_impl(handle, dyDesc, dy, wDesc, w, convDesc, dxDesc, dx, workSpace,
                                                       workSpaceSize, solution_id);
}

extern "C" miopenStatus_t miopenConvolutionBackwardWeightsImmediate(miopenHandle_t handle,
                                                                    const miopenTensorDescriptor_t dyDesc,
                                                                    const void* dy,
                                                                    const miopenTensorDescriptor_t xDesc,
                                                                    const void* x,
                                                                    const miopenConvolutionDescriptor_t convDesc,
                                                                    const miopenTensorDescriptor_t dwDesc,
                                                                    void* dw,
                                                                    void* workSpace,
                                                                    size_t workSpaceSize,
                                                                    const uint64_t solution_id)
{
    if(slow())
    {
        ConvCall c;
        c.entry = "miopenConvolutionBackwardWeightsImmediate";
        c.op    = Op::BackwardWeights;
        c.immediate = true;
        c.handle = handle;
        c.xDesc = xDesc, c.wDesc = dwDesc, c.yDesc = dyDesc;
        c.x = x, c.w = dw, c.y = dy, c.written = dw;
        c.conv = convDesc, c.solutionId = solution_id;
        c.workspace = workSpace, c.workspaceSize = workSpaceSize;
        miopenStatus_t st = miopenStatusSuccess;
        if(miopen::wrapper::fwd::tryForward(c, &st))
            return st;
    }
    return miopenConvolutionBackwardWeightsImmediate_impl(handle, dyDesc, dy, xDesc, x, convDesc, dwDesc, dw,
                                                          workSpace, workSpaceSize, solution_id);
}

extern "C" miopenStatus_t miopenConvolutionBiasActivationForward(miopenHandle_t handle,
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
    if(slow())
    {
        ConvCall c;
        c.entry = "miopenConvolutionBiasActivationForward";
        c.op    = Op::BiasActivation;
        c.handle = handle;
        c.xDesc = xDesc, c.wDesc = wDesc, c.yDesc = yDesc;
        c.x = x, c.w = w, c.y = y, c.written = y;
        c.conv = convDesc, c.alpha = alpha1, c.algo = rawEnum(algo);
        c.workspace = workspace, c.workspaceSize = workspaceSizeInBytes;
        c.alpha2 = alpha2, c.zDesc = zDesc, c.z = z, c.biasDesc = biasDesc, c.bias = bias, c.activ = activationDesc;
        miopenStatus_t st = miopenStatusSuccess;
        if(miopen::wrapper::fwd::tryForward(c, &st))
            return st;
    }
    return miopenConvolutionBiasActivationForward_impl(handle, alpha1, xDesc, x, wDesc, w, convDesc, algo, workspace,
                                                       workspaceSizeInBytes, alpha2, zDesc, z, biasDesc, bias,
                                                       activationDesc, yDesc, y);
}

// ---- the forwarding set: batchnorm -------------------------------------------------------------

namespace {

miopenStatus_t bnTraining(const char* entry, miopenHandle_t handle, miopenBatchNormMode_t mode, void* alpha,
                          void* beta, miopenTensorDescriptor_t xDesc, const void* x, miopenTensorDescriptor_t yDesc,
                          void* y, miopenTensorDescriptor_t scaleDesc, miopenTensorDescriptor_t biasDesc,
                          miopenTensorDescriptor_t meanDesc, miopenTensorDescriptor_t varDesc, void* scale, void* bias,
                          double expAvgFactor, void* runningMean, void* runningVariance, double epsilon,
                          void* savedMean, void* savedInvVariance, bool* forwarded)
{
    BnCall c = bnCall(entry, BnOp::Training, handle, mode, alpha, beta, xDesc, x, yDesc, y, scaleDesc, biasDesc,
                      meanDesc, varDesc, scale, epsilon);
    c.written = y, c.bias = bias, c.expAvgFactor = expAvgFactor;
    c.mean = runningMean, c.variance = runningVariance, c.savedMean = savedMean, c.savedInvVariance = savedInvVariance;
    miopenStatus_t st = miopenStatusSuccess;
    *forwarded        = miopen::wrapper::fwd::tryForwardBatchnorm(c, &st);
    return st;
}

miopenStatus_t bnInference(const char* entry, miopenHandle_t handle, miopenBatchNormMode_t mode, void* alpha,
                           void* beta, miopenTensorDescriptor_t xDesc, const void* x, miopenTensorDescriptor_t yDesc,
                           void* y, miopenTensorDescriptor_t scaleDesc, miopenTensorDescriptor_t biasDesc,
                           miopenTensorDescriptor_t meanDesc, miopenTensorDescriptor_t varDesc, void* scale,
                           void* bias, void* estimatedMean, void* estimatedVariance, double epsilon, bool* forwarded)
{
    BnCall c = bnCall(entry, BnOp::Inference, handle, mode, alpha, beta, xDesc, x, yDesc, y, scaleDesc, biasDesc,
                      meanDesc, varDesc, scale, epsilon);
    c.written = y, c.bias = bias, c.mean = estimatedMean, c.variance = estimatedVariance;
    miopenStatus_t st = miopenStatusSuccess;
    *forwarded        = miopen::wrapper::fwd::tryForwardBatchnorm(c, &st);
    return st;
}

miopenStatus_t bnBackward(const char* entry, miopenHandle_t handle, miopenBatchNormMode_t mode,
                          const void* alphaDataDiff, const void* betaDataDiff, const void* alphaParamDiff,
                          const void* betaParamDiff, miopenTensorDescriptor_t xDesc, const void* x,
                          miopenTensorDescriptor_t dyDesc, const void* dy, miopenTensorDescriptor_t dxDesc, void* dx,
                          miopenTensorDescriptor_t scaleDesc, miopenTensorDescriptor_t biasDesc,
                          miopenTensorDescriptor_t meanDesc, miopenTensorDescriptor_t varDesc, const void* scale,
                          void* dScale, void* dBias, double epsilon, const void* savedMean,
                          const void* savedInvVariance, bool* forwarded)
{
    BnCall c = bnCall(entry, BnOp::Backward, handle, mode, alphaDataDiff, betaDataDiff, xDesc, x, dyDesc, dy, scaleDesc,
                      biasDesc, meanDesc, varDesc, scale, epsilon);
    c.alphaParam = alphaParamDiff, c.betaParam = betaParamDiff, c.dxDesc = dxDesc, c.written = dx;
    c.dScale = dScale, c.dBias = dBias;
    c.savedMean = const_cast<void*>(savedMean), c.savedInvVariance = const_cast<void*>(savedInvVariance);
    miopenStatus_t st = miopenStatusSuccess;
    *forwarded        = miopen::wrapper::fwd::tryForwardBatchnorm(c, &st);
    return st;
}

} // namespace

extern "C" miopenStatus_t miopenBatchNormalizationForwardTraining(miopenHandle_t handle,
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
    if(slow())
    {
        bool forwarded          = false;
        const miopenStatus_t st = bnTraining("miopenBatchNormalizationForwardTraining", handle, bn_mode, alpha, beta,
                                             xDesc, x, yDesc, y, bnScaleBiasMeanVarDesc, bnScaleBiasMeanVarDesc,
                                             bnScaleBiasMeanVarDesc, bnScaleBiasMeanVarDesc, bnScale, bnBias,
                                             expAvgFactor, resultRunningMean, resultRunningVariance, epsilon,
                                             resultSaveMean, resultSaveInvVariance, &forwarded);
        if(forwarded)
            return st;
    }
    return miopenBatchNormalizationForwardTraining_impl(handle, bn_mode, alpha, beta, xDesc, x, yDesc, y,
                                                        bnScaleBiasMeanVarDesc, bnScale, bnBias, expAvgFactor,
                                                        resultRunningMean, resultRunningVariance, epsilon,
                                                        resultSaveMean, resultSaveInvVariance);
}

extern "C" miopenStatus_t miopenBatchNormalizationForwardTraining_V2(miopenHandle_t handle,
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
    if(slow())
    {
        bool forwarded          = false;
        const miopenStatus_t st = bnTraining("miopenBatchNormalizationForwardTraining_V2", handle, bn_mode, alpha, beta,
                                             xDesc, x, yDesc, y, scaleDesc, biasVarDesc, savedMeanDesc, savedVarDesc,
                                             bnScale, bnBias, expAvgFactor, resultRunningMean, resultRunningVariance,
                                             epsilon, resultSaveMean, resultSaveInvVariance, &forwarded);
        if(forwarded)
            return st;
    }
    return miopenBatchNormalizationForwardTraining_V2_impl(handle, bn_mode, alpha, beta, xDesc, x, yDesc, y, scaleDesc,
                                                           biasVarDesc, savedMeanDesc, savedVarDesc, bnScale, bnBias,
                                                           expAvgFactor, resultRunningMean, resultRunningVariance,
                                                           epsilon, resultSaveMean, resultSaveInvVariance);
}

extern "C" miopenStatus_t miopenBatchNormalizationForwardInference(miopenHandle_t handle,
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
    if(slow())
    {
        bool forwarded          = false;
        const miopenStatus_t st = bnInference("miopenBatchNormalizationForwardInference", handle, bn_mode, alpha, beta,
                                              xDesc, x, yDesc, y, bnScaleBiasMeanVarDesc, bnScaleBiasMeanVarDesc,
                                              bnScaleBiasMeanVarDesc, bnScaleBiasMeanVarDesc, bnScale, bnBias,
                                              estimatedMean, estimatedVariance, epsilon, &forwarded);
        if(forwarded)
            return st;
    }
    return miopenBatchNormalizationForwardInference_impl(handle, bn_mode, alpha, beta, xDesc, x, yDesc, y,
                                                         bnScaleBiasMeanVarDesc, bnScale, bnBias, estimatedMean,
                                                         estimatedVariance, epsilon);
}

extern "C" miopenStatus_t miopenBatchNormalizationForwardInference_V2(miopenHandle_t handle,
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
    if(slow())
    {
        bool forwarded          = false;
        const miopenStatus_t st = bnInference("miopenBatchNormalizationForwardInference_V2", handle, bn_mode, alpha,
                                              beta, xDesc, x, yDesc, y, scaleDesc, biasDesc, estMeanDesc,
                                              estVarianceDesc, bnScale, bnBias, estimatedMean, estimatedVariance,
                                              epsilon, &forwarded);
        if(forwarded)
            return st;
    }
    return miopenBatchNormalizationForwardInference_V2_impl(handle, bn_mode, alpha, beta, xDesc, x, yDesc, y, scaleDesc,
                                                            biasDesc, estMeanDesc, estVarianceDesc, bnScale, bnBias,
                                                            estimatedMean, estimatedVariance, epsilon);
}

extern "C" miopenStatus_t miopenBatchNormalizationBackward(miopenHandle_t handle,
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
    if(slow())
    {
        bool forwarded          = false;
        const miopenStatus_t st = bnBackward("miopenBatchNormalizationBackward", handle, bn_mode, alphaDataDiff,
                                             betaDataDiff, alphaParamDiff, betaParamDiff, xDesc, x, dyDesc, dy, dxDesc,
                                             dx, bnScaleBiasDiffDesc, bnScaleBiasDiffDesc, bnScaleBiasDiffDesc,
                                             bnScaleBiasDiffDesc, bnScale, resultBnScaleDiff, resultBnBiasDiff, epsilon,
                                             savedMean, savedInvVariance, &forwarded);
        if(forwarded)
            return st;
    }
    return miopenBatchNormalizationBackward_impl(handle, bn_mode, alphaDataDiff, betaDataDiff, alphaParamDiff,
                                                 betaParamDiff, xDesc, x, dyDesc, dy, dxDesc, dx, bnScaleBiasDiffDesc,
                                                 bnScale, resultBnScaleDiff, resultBnBiasDiff, epsilon, savedMean,
                                                 savedInvVariance);
}

extern "C" miopenStatus_t miopenBatchNormalizationBackward_V2(miopenHandle_t handle,
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
    if(slow())
    {
        bool forwarded          = false;
        const miopenStatus_t st = bnBackward("miopenBatchNormalizationBackward_V2", handle, bn_mode, alphaDataDiff,
                                             betaDataDiff, alphaParamDiff, betaParamDiff, xDesc, x, dyDesc, dy, dxDesc,
                                             dx, scaleDesc, biasDesc, savedMeanDesc, savedVarDesc, bnScale,
                                             resultBnScaleDiff, resultBnBiasDiff, epsilon, savedMean, savedInvVariance,
                                             &forwarded);
        if(forwarded)
            return st;
    }
    return miopenBatchNormalizationBackward_V2_impl(handle, bn_mode, alphaDataDiff, betaDataDiff, alphaParamDiff,
                                                    betaParamDiff, xDesc, x, dyDesc, dy, dxDesc, dx, scaleDesc, biasDesc,
                                                    savedMeanDesc, savedVarDesc, bnScale, resultBnScaleDiff,
                                                    resultBnBiasDiff, epsilon, savedMean, savedInvVariance);
}
