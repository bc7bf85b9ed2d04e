// Hand-written stubs (policy "custom"): entry points for which the wrapper keeps state of its own
// once calls are forwarded — a handle's forwarded plans (miopenDestroy), the stream a forwarded
// call runs on (miopenSetStream), the kernel time of a forwarded call (miopenGetKernelTime) and the
// wrapper's own statuses (miopenGetErrorString). In pass-through they have the generated shape.
#include <miopen/miopen.h>
#include <miopen/miopen_impl.h>

#include "wrapper_runtime.hpp"

#define MIOPEN_CUSTOM_STUB(name, call)                                               \
    do                                                                               \
    {                                                                                \
        if(__builtin_expect(miopen::wrapper::gRouteWord.load(std::memory_order_relaxed) != 0, 0)) \
            miopen::wrapper::slowPath(name);                                         \
        return call;                                                                 \
    } while(false)

extern "C" miopenStatus_t miopenDestroy(miopenHandle_t handle)
{
    MIOPEN_CUSTOM_STUB("miopenDestroy", miopenDestroy_impl(handle));
}

extern "C" miopenStatus_t miopenSetStream(miopenHandle_t handle, miopenAcceleratorQueue_t streamID)
{
    MIOPEN_CUSTOM_STUB("miopenSetStream", miopenSetStream_impl(handle, streamID));
}

extern "C" miopenStatus_t miopenGetKernelTime(miopenHandle_t handle, float* time)
{
    MIOPEN_CUSTOM_STUB("miopenGetKernelTime", miopenGetKernelTime_impl(handle, time));
}

extern "C" const char* miopenGetErrorString(miopenStatus_t error)
{
    MIOPEN_CUSTOM_STUB("miopenGetErrorString", miopenGetErrorString_impl(error));
}
