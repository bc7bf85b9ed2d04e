// Hand-written stubs (policy "custom") of the pooling and softmax families' forwarding set
// (issue 11): miopenPoolingForward, miopenPoolingBackward and miopenSoftmax{Forward,Backward}[_V2].
// With the route word zero each is a plain call of its _impl; otherwise tryForwardPooling /
// tryForwardSoftmax decides (forwarding_pooling.hpp, forwarding_softmax.hpp), and the _impl serves
// every call it does not take. The V1 softmax calls pass upstream's defaults (ACCURATE, CHANNEL).
// Kept apart from custom_stubs.cpp so families merge independently.
#include <miopen/miopen.h>
#include <miopen/miopen_impl.h>

#include "forwarding_pooling.hpp"
#include "forwarding_softmax.hpp"
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

miopen::wrapper::fwd::SmCall smForward(const char* entry, miopenHandle_t handle, const void* alpha,
                                       miopenTensorDescriptor_t xDesc, const void* x, const void* beta,
                                       miopenTensorDescriptor_t yDesc, void* y, int algorithm, int mode)
{
    miopen::wrapper::fwd::SmCall c;
    c.entry = entry, c.handle = handle, c.alpha = alpha, c.beta = beta, c.xDesc = xDesc, c.x = x;
    c.yDesc = yDesc, c.written = y, c.algorithm = algorithm, c.mode = mode;
    return c;
}

miopen::wrapper::fwd::SmCall smBackward(const char* entry, miopenHandle_t handle, const void* alpha,
                                        miopenTensorDescriptor_t yDesc, const void* y,
                                        miopenTensorDescriptor_t dyDesc, const void* dy, const void* beta,
                                        miopenTensorDescriptor_t dxDesc, void* dx, int algorithm, int mode)
{
    miopen::wrapper::fwd::SmCall c;
    c.entry = entry, c.backward = true, c.handle = handle, c.alpha = alpha, c.beta = beta, c.yDesc = yDesc;
    c.y = y, c.dyDesc = dyDesc, c.dy = dy, c.dxDesc = dxDesc, c.written = dx, c.algorithm = algorithm, c.mode = mode;
    return c;
}

} // namespace

extern "C" miopenStatus_t miopenPoolingForward(miopenHandle_t handle,
                                               const miopenPoolingDescriptor_t poolDesc,
                                               const void* alpha,
                                               const miopenTensorDescriptor_t xDesc,
                                               const void* x,
                                               const void* beta,
                                               const miopenTensorDescriptor_t yDesc,
                                               void* y,
                                               bool do_backward,
                                               void* workSpace,
                                               size_t workSpaceSize)
{
    if(slow())
    {
        miopen::wrapper::fwd::PoolCall c;
        c.entry = "miopenPoolingForward", c.handle = handle, c.pool = poolDesc, c.alpha = alpha, c.beta = beta;
        c.xDesc = xDesc, c.x = x, c.yDesc = yDesc, c.written = y;
        c.doBackward = do_backward, c.workspace = workSpace, c.workspaceSize = workSpaceSize;
        miopenStatus_t st = miopenStatusSuccess;
        if(miopen::wrapper::fwd::tryForwardPooling(c, &st))
            return st;
    }
    return miopenPoolingForward_impl(handle, poolDesc, alpha, xDesc, x, beta, yDesc, y, do_backward, workSpace,
                                     workSpaceSize);
}

extern "C" miopenStatus_t miopenPoolingBackward(miopenHandle_t handle,
                                                const miopenPoolingDescriptor_t poolDesc,
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
                                                void* workSpace)
{
    if(slow())
    {
        miopen::wrapper::fwd::PoolCall c;
        c.entry = "miopenPoolingBackward", c.backward = true, c.handle = handle, c.pool = poolDesc, c.alpha = alpha;
        c.beta = beta, c.yDesc = yDesc, c.y = y, c.dyDesc = dyDesc, c.dy = dy, c.xDesc = xDesc, c.x = x;
        c.dxDesc = dxDesc, c.written = dx, c.workspace = workSpace;
        miopenStatus_t st = miopenStatusSuccess;
        if(miopen::wrapper::fwd::tryForwardPooling(c, &st))
            return st;
    }
    return miopenPoolingBackward_impl(handle, poolDesc, alpha, yDesc, y, dyDesc, dy, xDesc, x, beta, dxDesc, dx,
                                      workSpace);
}

extern "C" miopenStatus_t miopenSoftmaxForward(miopenHandle_t handle,
                                               const void* alpha,
                                               const miopenTensorDescriptor_t xDesc,
                                               const void* x,
                                               const void* beta,
                                               const miopenTensorDescriptor_t yDesc,
                                               void* y)
{
    if(slow())
    {
        miopenStatus_t st = miopenStatusSuccess;
        if(miopen::wrapper::fwd::tryForwardSoftmax(smForward("miopenSoftmaxForward", handle, alpha, xDesc, x, beta, yDesc,
                                                             y, MIOPEN_SOFTMAX_ACCURATE, MIOPEN_SOFTMAX_MODE_CHANNEL),
                                                   &st))
            return st;
    }
    return miopenSoftmaxForward_impl(handle, alpha, xDesc, x, beta, yDesc, y);
}

extern "C" miopenStatus_t miopenSoftmaxBackward(miopenHandle_t handle,
                                                const void* alpha,
                                                const miopenTensorDescriptor_t yDesc,
                                                const void* y,
                                                const miopenTensorDescriptor_t dyDesc,
                                                const void* dy,
                                                const void* beta,
                                                const miopenTensorDescriptor_t dxDesc,
                                                void* dx)
{
    if(slow())
    {
        miopenStatus_t st = miopenStatusSuccess;
        if(miopen::wrapper::fwd::tryForwardSoftmax(smBackward("miopenSoftmaxBackward", handle, alpha, yDesc, y, dyDesc,
                                                              dy, beta, dxDesc, dx, MIOPEN_SOFTMAX_ACCURATE,
                                                              MIOPEN_SOFTMAX_MODE_CHANNEL),
                                                   &st))
            return st;
    }
    return miopenSoftmaxBackward_impl(handle, alpha, yDesc, y, dyDesc, dy, beta, dxDesc, dx);
}

extern "C" miopenStatus_t miopenSoftmaxForward_V2(miopenHandle_t handle,
                                                  const void* alpha,
                                                  const miopenTensorDescriptor_t xDesc,
                                                  const void* x,
                                                  const void* beta,
                                                  const miopenTensorDescriptor_t yDesc,
                                                  void* y,
                                                  miopenSoftmaxAlgorithm_t algorithm,
                                                  miopenSoftmaxMode_t mode)
{
    if(slow())
    {
        miopenStatus_t st = miopenStatusSuccess;
        if(miopen::wrapper::fwd::tryForwardSoftmax(smForward("miopenSoftmaxForward_V2", handle, alpha, xDesc, x, beta,
                                                             yDesc, y, rawEnum(algorithm), rawEnum(mode)),
                                                   &st))
            return st;
    }
    return miopenSoftmaxForward_V2_impl(handle, alpha, xDesc, x, beta, yDesc, y, algorithm, mode);
}

extern "C" miopenStatus_t miopenSoftmaxBackward_V2(miopenHandle_t handle,
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
    if(slow())
    {
        miopenStatus_t st = miopenStatusSuccess;
        if(miopen::wrapper::fwd::tryForwardSoftmax(smBackward("miopenSoftmaxBackward_V2", handle, alpha, yDesc, y,
                                                              dyDesc, dy, beta, dxDesc, dx, rawEnum(algorithm),
                                                              rawEnum(mode)),
                                                   &st))
            return st;
    }
    return miopenSoftmaxBackward_V2_impl(handle, alpha, yDesc, y, dyDesc, dy, beta, dxDesc, dx, algorithm, mode);
}
