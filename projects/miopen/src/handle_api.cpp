// C entry points of the handle family: argument checks and logging, then internal C++.
#include <miopen/api_logging.hpp>
#include <miopen/errors.hpp>
#include <miopen/handle.hpp>
#include <miopen/miopen.h>
#include <miopen/miopen_impl.h>
#include <miopen/version.h>

#include <cstring>

using miopen::deref;
using miopen::Handle;
using miopen::tryCatch;

extern "C" const char* miopenGetErrorString_impl(miopenStatus_t error)
{
    // A C caller may pass any int. Read it as an int: loading a value outside the enumeration's
    // range as miopenStatus_t is undefined in C++ (UBSan's -fsanitize=enum reports it).
    static_assert(sizeof(error) == sizeof(int), "miopenStatus_t is an int-sized enum");
    int code = 0;
    std::memcpy(&code, &error, sizeof code);
    switch(code)
    {
    case miopenStatusSuccess: return "miopenStatusSuccess";
    case miopenStatusNotInitialized: return "miopenStatusNotInitialized";
    case miopenStatusInvalidValue: return "miopenStatusInvalidValue";
    case miopenStatusBadParm: return "miopenStatusBadParm";
    case miopenStatusAllocFailed: return "miopenStatusAllocFailed";
    case miopenStatusInternalError: return "miopenStatusInternalError";
    case miopenStatusNotImplemented: return "miopenStatusNotImplemented";
    case miopenStatusUnknownError: return "miopenStatusUnknownError";
    case miopenStatusUnsupportedOp: return "miopenStatusUnsupportedOp";
    case miopenStatusGpuOperationsSkipped: return "miopenStatusGpuOperationsSkipped";
    case miopenStatusVersionMismatch: return "miopenStatusVersionMismatch";
    }
    return "Unknown error status";
}

extern "C" miopenStatus_t miopenGetVersion_impl(size_t* major, size_t* minor, size_t* patch)
{
    return tryCatch(__func__, [&] {
        miopen::check(major != nullptr && minor != nullptr && patch != nullptr,
                      "version output pointer is null");
        *major = MIOPEN_VERSION_MAJOR;
        *minor = MIOPEN_VERSION_MINOR;
        *patch = MIOPEN_VERSION_PATCH;
    });
}

extern "C" miopenStatus_t miopenCreate_impl(miopenHandle_t* handle)
{
    MIOPEN_LOG_FUNCTION(handle);
    return tryCatch(__func__, [&] { miopen::createObject<Handle>(handle, "handle"); });
}

extern "C" miopenStatus_t miopenCreateWithStream_impl(miopenHandle_t* handle,
                                                 miopenAcceleratorQueue_t stream)
{
    MIOPEN_LOG_FUNCTION(handle, stream);
    return tryCatch(__func__, [&] {
        miopen::createObject<Handle>(handle, "handle");
        static_cast<Handle*>(*handle)->setStream(stream);
    });
}

extern "C" miopenStatus_t miopenDestroy_impl(miopenHandle_t handle)
{
    MIOPEN_LOG_FUNCTION(handle);
    return tryCatch(__func__, [&] { miopen::destroyObject<Handle>(handle, "handle"); });
}

extern "C" miopenStatus_t miopenSetStream_impl(miopenHandle_t handle, miopenAcceleratorQueue_t streamID)
{
    MIOPEN_LOG_FUNCTION(handle, streamID);
    return tryCatch(__func__, [&] { deref<Handle>(handle, "handle").setStream(streamID); });
}

extern "C" miopenStatus_t miopenGetStream_impl(miopenHandle_t handle, miopenAcceleratorQueue_t* streamID)
{
    MIOPEN_LOG_FUNCTION(handle, streamID);
    return tryCatch(__func__, [&] {
        auto& h = deref<Handle>(handle, "handle");
        miopen::check(streamID != nullptr, "stream output pointer is null");
        *streamID = h.stream();
    });
}

extern "C" miopenStatus_t miopenSetAllocator_impl(miopenHandle_t handle,
                                             miopenAllocatorFunction allocator,
                                             miopenDeallocatorFunction deallocator,
                                             void* allocatorContext)
{
    MIOPEN_LOG_FUNCTION(handle, allocator, deallocator, allocatorContext);
    return tryCatch(__func__, [&] {
        deref<Handle>(handle, "handle").setAllocator(allocator, deallocator, allocatorContext);
    });
}

extern "C" miopenStatus_t miopenGetKernelTime_impl(miopenHandle_t handle, float* time)
{
    MIOPEN_LOG_FUNCTION(handle, time);
    return tryCatch(__func__, [&] {
        auto& h = deref<Handle>(handle, "handle");
        miopen::check(time != nullptr, "time output pointer is null");
        *time = h.kernelTimeMs();
    });
}

extern "C" miopenStatus_t miopenEnableProfiling_impl(miopenHandle_t handle, bool enable)
{
    MIOPEN_LOG_FUNCTION(handle, enable);
    return tryCatch(__func__, [&] { deref<Handle>(handle, "handle").enableProfiling(enable); });
}
