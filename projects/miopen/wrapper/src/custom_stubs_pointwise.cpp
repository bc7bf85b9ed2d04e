// Hand-written stubs (policy "custom") of the activation and tensor-op families of the forwarding
// set (forwarding_pointwise.hpp): with the route word zero each is a plain call of its _impl;
// otherwise tryForwardPointwise() decides, and the _impl serves what it leaves to Private.
#include <miopen/miopen.h>
#include <miopen/miopen_impl.h>

#include "forwarding_pointwise.hpp"
#include "wrapper_runtime.hpp"

#include <cstring>

namespace {

inline bool slow() { return __builtin_expect(miopen::wrapper::gRouteWord.load(std::memory_order_relaxed) != 0, 0); }

using miopen::wrapper::fwd::PwCall;
using miopen::wrapper::fwd::PwOp;

// Out of line so the fast path of each stub stays a test and a tail call.
__attribute__((noinline)) bool pointwise(const PwCall& c, miopenStatus_t* status)
{
    return miopen::wrapper::fwd::tryForwardPointwise(c, status);
}

} // namespace

extern "C" miopenStatus_t miopenActivationForward(miopenHandle_t handle,
                                                  const miopenActivationDescriptor_t activDesc,
                                                  const void* alpha,
                                                  const miopenTensorDescriptor_t xDesc,
                                                  const void* x,
                                                  const void* beta,
                                                  const miopenTensorDescriptor_t yDesc,
                                                  void* y)
{
    if(slow())
    {
        PwCall c;
        c.entry = "miopenActivationForward", c.op = PwOp::ActivationForward, c.handle = handle;
        c.activ = activDesc, c.alpha = alpha, c.beta = beta;
        c.aDesc = xDesc, c.a = x, c.cDesc = yDesc, c.c = y;
        miopenStatus_t st = miopenStatusSuccess;
        if(pointwise(c, &st))
            return st;
    }
    return miopenActivationForward_impl(handle, activDesc, alpha, xDesc, x, beta, yDesc, y);
}

extern "C" miopenStatus_t miopenActivationBackward(miopenHandle_t handle,
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
    if(slow())
    {
        PwCall c;
        c.entry = "miopenActivationBackward", c.op = PwOp::ActivationBackward, c.handle = handle;
        c.activ = activDesc, c.alpha = alpha, c.beta = beta;
        c.yDesc = yDesc, c.y = y, c.aDesc = dyDesc, c.a = dy, c.bDesc = xDesc, c.b = x, c.cDesc = dxDesc, c.c = dx;
        miopenStatus_t st = miopenStatusSuccess;
        if(pointwise(c, &st))
            return st;
    }
    return miopenActivationBackward_impl(handle, activDesc, alpha, yDesc, y, dyDesc, dy, xDesc, x, beta, dxDesc, dx);
}

extern "C" miopenStatus_t miopenOpTensor(miopenHandle_t handle,
                                         miopenTensorOp_t tensorOp,
                                         const void* alpha1,
                                         const miopenTensorDescriptor_t aDesc,
                                         const void* A,
                                         const void* alpha2,
                                         const miopenTensorDescriptor_t bDesc,
                                         const void* B,
                                         const void* beta,
                                         const miopenTensorDescriptor_t cDesc,
                                         void* C)
{
    if(slow())
    {
        PwCall c;
        c.entry = "miopenOpTensor", c.op = PwOp::OpTensor, c.handle = handle;
        static_assert(sizeof(tensorOp) == sizeof(int), "enum arguments are 32-bit");
        std::memcpy(&c.tensorOp, &tensorOp, sizeof c.tensorOp); // the caller may pass any int
        c.alpha = alpha1, c.alpha2 = alpha2, c.beta = beta;
        c.aDesc = aDesc, c.a = A, c.bDesc = bDesc, c.b = B, c.cDesc = cDesc, c.c = C;
        miopenStatus_t st = miopenStatusSuccess;
        if(pointwise(c, &st))
            return st;
    }
    return miopenOpTensor_impl(handle, tensorOp, alpha1, aDesc, A, alpha2, bDesc, B, beta, cDesc, C);
}

extern "C" miopenStatus_t miopenScaleTensor(miopenHandle_t handle,
                                            const miopenTensorDescriptor_t yDesc,
                                            void* y,
                                            const void* alpha)
{
    if(slow())
    {
        PwCall c;
        c.entry = "miopenScaleTensor", c.op = PwOp::ScaleTensor, c.handle = handle;
        c.alpha = alpha, c.cDesc = yDesc, c.c = y;
        miopenStatus_t st = miopenStatusSuccess;
        if(pointwise(c, &st))
            return st;
    }
    return miopenScaleTensor_impl(handle, yDesc, y, alpha);
}
