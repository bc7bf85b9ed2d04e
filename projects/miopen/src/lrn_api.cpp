// C entry points of the LRN family: argument checks and logging, then internal C++.
#include <miopen/api_logging.hpp>
#include <miopen/errors.hpp>
#include <miopen/handle.hpp>
#include <miopen/lrn.hpp>
#include <miopen/miopen.h>
#include <miopen/miopen_impl.h>
#include <miopen/tensor.hpp>

using miopen::check;
using miopen::deref;
using miopen::Handle;
using miopen::LrnDescriptor;
using miopen::TensorDescriptor;
using miopen::tryCatch;

namespace {

LrnDescriptor& lrn(miopenLRNDescriptor_t d) { return deref<LrnDescriptor>(d, "lrnDesc"); }

const TensorDescriptor& tensor(const miopenTensorDescriptor_t d, const char* what)
{
    return deref<TensorDescriptor>(d, what).checkSet(what);
}

} // namespace

extern "C" miopenStatus_t miopenCreateLRNDescriptor_impl(miopenLRNDescriptor_t* lrnDesc)
{
    MIOPEN_LOG_FUNCTION(lrnDesc);
    return tryCatch(__func__, [&] { miopen::createObject<LrnDescriptor>(lrnDesc, "LRN descriptor"); });
}

extern "C" miopenStatus_t miopenSetLRNDescriptor_impl(const miopenLRNDescriptor_t lrnDesc,
                                                 miopenLRNMode_t mode,
                                                 unsigned int lrnN,
                                                 double lrnAlpha,
                                                 double lrnBeta,
                                                 double lrnK)
{
    MIOPEN_LOG_FUNCTION(lrnDesc, mode, lrnN, lrnAlpha, lrnBeta, lrnK);
    return tryCatch(__func__, [&] {
        auto& d = lrn(lrnDesc);
        d.set(miopen::checkedEnum(mode, {miopenLRNWithinChannel, miopenLRNCrossChannel}, "LRN mode"), lrnN,
              lrnAlpha, lrnBeta, lrnK);
    });
}

extern "C" miopenStatus_t miopenGetLRNDescriptor_impl(const miopenLRNDescriptor_t lrnDesc,
                                                 miopenLRNMode_t* mode,
                                                 unsigned int* lrnN,
                                                 double* lrnAlpha,
                                                 double* lrnBeta,
                                                 double* lrnK)
{
    MIOPEN_LOG_FUNCTION(lrnDesc, mode, lrnN, lrnAlpha, lrnBeta, lrnK);
    return tryCatch(__func__, [&] {
        const auto& d = lrn(lrnDesc).checkSet("lrnDesc");
        check(mode != nullptr && lrnN != nullptr && lrnAlpha != nullptr && lrnBeta != nullptr && lrnK != nullptr,
              "an output pointer is null");
        *mode     = d.mode();
        *lrnN     = d.n();
        *lrnAlpha = d.alpha();
        *lrnBeta  = d.beta();
        *lrnK     = d.k();
    });
}

extern "C" miopenStatus_t miopenLRNGetWorkSpaceSize_impl(const miopenTensorDescriptor_t yDesc, size_t* workSpaceSize)
{
    MIOPEN_LOG_FUNCTION(yDesc, workSpaceSize);
    return tryCatch(__func__, [&] {
        const auto& y = tensor(yDesc, "yDesc");
        check(workSpaceSize != nullptr, "workSpaceSize is null");
        *workSpaceSize = miopen::lrnWorkspaceSize(y);
    });
}

// As upstream, the alpha and beta scalars are not used by the LRN operations.
extern "C" miopenStatus_t miopenLRNForward_impl(miopenHandle_t handle,
                                           const miopenLRNDescriptor_t lrnDesc,
                                           const void* alpha,
                                           const miopenTensorDescriptor_t xDesc,
                                           const void* x,
                                           const void* beta,
                                           const miopenTensorDescriptor_t yDesc,
                                           void* y,
                                           bool do_backward,
                                           void* workSpace)
{
    MIOPEN_LOG_FUNCTION(handle, lrnDesc, alpha, xDesc, x, beta, yDesc, y, do_backward, workSpace);
    return tryCatch(__func__, [&] {
        auto& h        = deref<Handle>(handle, "handle");
        const auto& d  = lrn(lrnDesc).checkSet("lrnDesc");
        const auto& xd = tensor(xDesc, "xDesc");
        const auto& yd = tensor(yDesc, "yDesc");
        MIOPEN_LOG_DRIVER_CMD("LogCmdLRN", d.driverArgs(xd, true));
        miopen::KernelTimer timer(h);
        d.forward(h, xd, x, yd, y, do_backward, workSpace);
    });
}

extern "C" miopenStatus_t miopenLRNBackward_impl(miopenHandle_t handle,
                                            const miopenLRNDescriptor_t lrnDesc,
                                            const void* alpha,
                                            const miopenTensorDescriptor_t yDesc,
                                            const void* y,
                                            const miopenTensorDescriptor_t dyDesc,
                                            const void* dy,
                                            const miopenTensorDescriptor_t xDesc,
                                            const void* x,
                                            const void* beta,
                                            const miopenTensorDescriptor_t dxDesc,
                                            void* dx,
                                            const void* workSpace)
{
    MIOPEN_LOG_FUNCTION(handle, lrnDesc, alpha, yDesc, y, dyDesc, dy, xDesc, x, beta, dxDesc, dx, workSpace);
    return tryCatch(__func__, [&] {
        auto& h         = deref<Handle>(handle, "handle");
        const auto& d   = lrn(lrnDesc).checkSet("lrnDesc");
        const auto& yd  = tensor(yDesc, "yDesc");
        const auto& dyd = tensor(dyDesc, "dyDesc");
        const auto& xd  = tensor(xDesc, "xDesc");
        const auto& dxd = tensor(dxDesc, "dxDesc");
        MIOPEN_LOG_DRIVER_CMD("LogCmdLRN", d.driverArgs(xd, false));
        miopen::KernelTimer timer(h);
        d.backward(h, yd, y, dyd, dy, xd, x, dxd, dx, workSpace);
    });
}

extern "C" miopenStatus_t miopenDestroyLRNDescriptor_impl(miopenLRNDescriptor_t lrnDesc)
{
    MIOPEN_LOG_FUNCTION(lrnDesc);
    return tryCatch(__func__, [&] { miopen::destroyObject<LrnDescriptor>(lrnDesc, "lrnDesc"); });
}
