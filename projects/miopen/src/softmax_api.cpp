// C entry points of the softmax family: argument checks and logging, then internal C++.
#include <miopen/api_logging.hpp>
#include <miopen/errors.hpp>
#include <miopen/handle.hpp>
#include <miopen/miopen.h>
#include <miopen/miopen_impl.h>
#include <miopen/softmax.hpp>
#include <miopen/tensor.hpp>

using miopen::deref;
using miopen::Handle;
using miopen::TensorDescriptor;
using miopen::tryCatch;

namespace {

const TensorDescriptor& tensor(const miopenTensorDescriptor_t d, const char* what)
{
    return deref<TensorDescriptor>(d, what).checkSet(what);
}

miopenSoftmaxAlgorithm_t algorithmArg(const miopenSoftmaxAlgorithm_t& a)
{
    return miopen::checkedEnum(a, {MIOPEN_SOFTMAX_FAST, MIOPEN_SOFTMAX_ACCURATE, MIOPEN_SOFTMAX_LOG},
                               "softmax algorithm");
}

miopenSoftmaxMode_t modeArg(const miopenSoftmaxMode_t& m)
{
    return miopen::checkedEnum(m, {MIOPEN_SOFTMAX_MODE_INSTANCE, MIOPEN_SOFTMAX_MODE_CHANNEL}, "softmax mode");
}

miopenStatus_t forward(const char* api,
                       miopenHandle_t handle,
                       const void* alpha,
                       miopenTensorDescriptor_t xDesc,
                       const void* x,
                       const void* beta,
                       miopenTensorDescriptor_t yDesc,
                       void* y,
                       const miopenSoftmaxAlgorithm_t& algorithm,
                       const miopenSoftmaxMode_t& mode)
{
    return tryCatch(api, [&] {
        auto& h        = deref<Handle>(handle, "handle");
        const auto a   = algorithmArg(algorithm);
        const auto m   = modeArg(mode);
        const auto& xd = tensor(xDesc, "xDesc");
        const auto& yd = tensor(yDesc, "yDesc");
        MIOPEN_LOG_DRIVER_CMD("LogCmdSoftmax", miopen::softmaxDriverArgs(xd, a, m, alpha, beta, true));
        miopen::KernelTimer timer(h);
        miopen::softmaxForward(h, alpha, beta, xd, x, yd, y, a, m);
    });
}

miopenStatus_t backward(const char* api,
                        miopenHandle_t handle,
                        const void* alpha,
                        miopenTensorDescriptor_t yDesc,
                        const void* y,
                        miopenTensorDescriptor_t dyDesc,
                        const void* dy,
                        const void* beta,
                        miopenTensorDescriptor_t dxDesc,
                        void* dx,
                        const miopenSoftmaxAlgorithm_t& algorithm,
                        const miopenSoftmaxMode_t& mode)
{
    return tryCatch(api, [&] {
        auto& h         = deref<Handle>(handle, "handle");
        const auto a    = algorithmArg(algorithm);
        const auto m    = modeArg(mode);
        const auto& yd  = tensor(yDesc, "yDesc");
        const auto& dyd = tensor(dyDesc, "dyDesc");
        const auto& dxd = tensor(dxDesc, "dxDesc");
        MIOPEN_LOG_DRIVER_CMD("LogCmdSoftmax", miopen::softmaxDriverArgs(dxd, a, m, alpha, beta, false));
        miopen::KernelTimer timer(h);
        miopen::softmaxBackward(h, alpha, yd, y, dyd, dy, beta, dxd, dx, a, m);
    });
}

} // namespace

extern "C" miopenStatus_t miopenSoftmaxForward_impl(miopenHandle_t handle,
                                               const void* alpha,
                                               const miopenTensorDescriptor_t xDesc,
                                               const void* x,
                                               const void* beta,
                                               const miopenTensorDescriptor_t yDesc,
                                               void* y)
{
    MIOPEN_LOG_FUNCTION(handle, alpha, xDesc, x, beta, yDesc, y);
    return forward(__func__, handle, alpha, xDesc, x, beta, yDesc, y, MIOPEN_SOFTMAX_ACCURATE,
                   MIOPEN_SOFTMAX_MODE_CHANNEL);
}

extern "C" miopenStatus_t miopenSoftmaxBackward_impl(miopenHandle_t handle,
                                                const void* alpha,
                                                const miopenTensorDescriptor_t yDesc,
                                                const void* y,
                                                const miopenTensorDescriptor_t dyDesc,
                                                const void* dy,
                                                const void* beta,
                                                const miopenTensorDescriptor_t dxDesc,
                                                void* dx)
{
    MIOPEN_LOG_FUNCTION(handle, alpha, yDesc, y, dyDesc, dy, beta, dxDesc, dx);
    return backward(__func__, handle, alpha, yDesc, y, dyDesc, dy, beta, dxDesc, dx, MIOPEN_SOFTMAX_ACCURATE,
                    MIOPEN_SOFTMAX_MODE_CHANNEL);
}

extern "C" miopenStatus_t miopenSoftmaxForward_V2_impl(miopenHandle_t handle,
                                                  const void* alpha,
                                                  const miopenTensorDescriptor_t xDesc,
                                                  const void* x,
                                                  const void* beta,
                                                  const miopenTensorDescriptor_t yDesc,
                                                  void* y,
                                                  miopenSoftmaxAlgorithm_t algorithm,
                                                  miopenSoftmaxMode_t mode)
{
    MIOPEN_LOG_FUNCTION(handle, alpha, xDesc, x, beta, yDesc, y, algorithm, mode);
    return forward(__func__, handle, alpha, xDesc, x, beta, yDesc, y, algorithm, mode);
}

extern "C" miopenStatus_t miopenSoftmaxBackward_V2_impl(miopenHandle_t handle,
                                                   const void* alpha,
                                                   const miopenTensorDescriptor_t yDesc,
                                                   const void* y,
                                                   const miopenTensorDescriptor_t dyDesc,
                                                   const void* dy,
                                                   const void* beta,
                                                   const miopenTensorDescriptor_t dxDesc,
                                                   void* dx,
                                                   miopenSoftmaxAlgorithm_t algorithm,
                                                   miopenSoftmaxMode_t mode)
{
    MIOPEN_LOG_FUNCTION(handle, alpha, yDesc, y, dyDesc, dy, beta, dxDesc, dx, algorithm, mode);
    return backward(__func__, handle, alpha, yDesc, y, dyDesc, dy, beta, dxDesc, dx, algorithm, mode);
}
