// C entry points of the activation family: argument checks and logging, then internal C++.
#include <miopen/activation.hpp>
#include <miopen/api_logging.hpp>
#include <miopen/elementwise.hpp>
#include <miopen/errors.hpp>
#include <miopen/handle.hpp>
#include <miopen/miopen.h>
#include <miopen/miopen_impl.h>
#include <miopen/tensor.hpp>

using miopen::ActivationDescriptor;
using miopen::check;
using miopen::deref;
using miopen::Handle;
using miopen::TensorDescriptor;
using miopen::tryCatch;

namespace {

const TensorDescriptor& tensor(const miopenTensorDescriptor_t d, const char* what)
{
    return deref<TensorDescriptor>(d, what).checkSet(what);
}

} // namespace

extern "C" miopenStatus_t miopenCreateActivationDescriptor_impl(miopenActivationDescriptor_t* activDesc)
{
    MIOPEN_LOG_FUNCTION(activDesc);
    return tryCatch(__func__, [&] { miopen::createObject<ActivationDescriptor>(activDesc, "activation descriptor"); });
}

extern "C" miopenStatus_t miopenSetActivationDescriptor_impl(const miopenActivationDescriptor_t activDesc,
                                                        miopenActivationMode_t mode,
                                                        double activAlpha,
                                                        double activBeta,
                                                        double activGamma)
{
    MIOPEN_LOG_FUNCTION(activDesc, mode, activAlpha, activBeta, activGamma);
    return tryCatch(__func__, [&] {
        auto& d = deref<ActivationDescriptor>(activDesc, "activDesc");
        miopen::ActivationParams p;
        p.mode  = miopen::checkedEnum(mode, miopen::kActivationModes, "activation mode");
        p.alpha = activAlpha;
        p.beta  = activBeta;
        p.gamma = activGamma;
        d.set(p);
    });
}

extern "C" miopenStatus_t miopenGetActivationDescriptor_impl(const miopenActivationDescriptor_t activDesc,
                                                        miopenActivationMode_t* mode,
                                                        double* activAlpha,
                                                        double* activBeta,
                                                        double* activGamma)
{
    MIOPEN_LOG_FUNCTION(activDesc, mode, activAlpha, activBeta, activGamma);
    return tryCatch(__func__, [&] {
        const auto& p = deref<ActivationDescriptor>(activDesc, "activDesc").params();
        check(mode != nullptr && activAlpha != nullptr && activBeta != nullptr && activGamma != nullptr,
              "an output pointer is null");
        *mode       = p.mode;
        *activAlpha = p.alpha;
        *activBeta  = p.beta;
        *activGamma = p.gamma;
    });
}

extern "C" miopenStatus_t miopenActivationForward_impl(miopenHandle_t handle,
                                                  const miopenActivationDescriptor_t activDesc,
                                                  const void* alpha,
                                                  const miopenTensorDescriptor_t xDesc,
                                                  const void* x,
                                                  const void* beta,
                                                  const miopenTensorDescriptor_t yDesc,
                                                  void* y)
{
    MIOPEN_LOG_FUNCTION(handle, activDesc, alpha, xDesc, x, beta, yDesc, y);
    return tryCatch(__func__, [&] {
        auto& h       = deref<Handle>(handle, "handle");
        const auto& p = deref<ActivationDescriptor>(activDesc, "activDesc").params();
        const float a = miopen::elementwise::hostScalar(alpha, "alpha");
        const float b = miopen::elementwise::hostScalar(beta, "beta");
        const auto& xd = tensor(xDesc, "xDesc");
        const auto& yd = tensor(yDesc, "yDesc");
        check(x != nullptr && y != nullptr, "x or y is null");
        MIOPEN_LOG_DRIVER_CMD("LogCmdActivation", miopen::activationDriverArgs(xd, p, true));
        miopen::KernelTimer timer(h);
        miopen::activationForward(h, p, a, xd, x, b, yd, y);
    });
}

extern "C" miopenStatus_t miopenActivationBackward_impl(miopenHandle_t handle,
                                                   const miopenActivationDescriptor_t activDesc,
                                                   const void* alpha,
                                                   const miopenTensorDescriptor_t yDesc,
                                                   const void* y,
                                                   const miopenTensorDescriptor_t dyDesc,
                                                   const void* dy,
                                                   const miopenTensorDescriptor_t xDesc,
                                                   const void* x,
                                                   const void* beta,
                                                   const miopenTensorDescriptor_t dxDesc,
                                                   void* dx)
{
    MIOPEN_LOG_FUNCTION(handle, activDesc, alpha, yDesc, y, dyDesc, dy, xDesc, x, beta, dxDesc, dx);
    return tryCatch(__func__, [&] {
        auto& h       = deref<Handle>(handle, "handle");
        const auto& p = deref<ActivationDescriptor>(activDesc, "activDesc").params();
        const float a = miopen::elementwise::hostScalar(alpha, "alpha");
        const float b = miopen::elementwise::hostScalar(beta, "beta");
        const auto& yd  = tensor(yDesc, "yDesc");
        const auto& dyd = tensor(dyDesc, "dyDesc");
        const auto& xd  = tensor(xDesc, "xDesc");
        const auto& dxd = tensor(dxDesc, "dxDesc");
        check(x != nullptr && y != nullptr && dy != nullptr && dx != nullptr, "x, y, dy or dx is null");
        MIOPEN_LOG_DRIVER_CMD("LogCmdActivation", miopen::activationDriverArgs(xd, p, false));
        miopen::KernelTimer timer(h);
        miopen::activationBackward(h, p, a, yd, y, dyd, dy, xd, x, b, dxd, dx);
    });
}

extern "C" miopenStatus_t miopenDestroyActivationDescriptor_impl(miopenActivationDescriptor_t activDesc)
{
    MIOPEN_LOG_FUNCTION(activDesc);
    return tryCatch(__func__, [&] { miopen::destroyObject<ActivationDescriptor>(activDesc, "activDesc"); });
}
