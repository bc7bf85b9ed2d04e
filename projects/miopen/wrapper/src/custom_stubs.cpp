// Hand-written stubs (policy "custom"): entry points for which the wrapper keeps state of its own
// once calls are forwarded — a handle's forwarded state (miopenDestroy), profiling and the kernel
// time of a forwarded call (miopenEnableProfiling, miopenGetKernelTime), the error strings of
// forwarded calls (miopenGetErrorString). With the route word zero every one of them is a plain
// call of its _impl. Plus the wrapper-only miopenGetLastForwardedError (no _impl twin). The stubs
// of the forwarding set are generated (forwarding_stubs.cpp, from generator/policy.txt).
#include <miopen/miopen.h>
#include <miopen/miopen_impl.h>

#include "forwarding.hpp"
#include "wrapper_runtime.hpp"

namespace {

inline bool slow() { return miopen::wrapper::routeWordSet(); }

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
