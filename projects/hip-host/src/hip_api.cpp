// The C entry points of hip_host (<hip/hip_runtime_api.h>). One shape for all: arguments are
// checked first, the body runs inside guarded(), which turns any exception into a status (none
// crosses the C boundary) and keeps a failure as the thread's last error.
#include "HostRuntime.hpp"

#include <cstring>
#include <new>

using hip_host::AllocationKind;
using hip_host::HostRuntime;

namespace {

thread_local hipError_t tLastError = hipSuccess;

template <class Body>
hipError_t guarded(Body&& body) noexcept
{
    hipError_t status = hipErrorUnknown;
    try
    {
        status = body();
    }
    catch(const std::bad_alloc&)
    {
        status = hipErrorOutOfMemory;
    }
    catch(...)
    {
        status = hipErrorUnknown;
    }
    if(status != hipSuccess)
        tLastError = status;
    return status;
}

struct ErrorText
{
    hipError_t value;
    const char* name;
    const char* text;
};

// The primary name of each value (aliases such as hipErrorMemoryAllocation share a value).
constexpr ErrorText kErrors[] = {
    {hipSuccess, "hipSuccess", "no error"},
    {hipErrorInvalidValue, "hipErrorInvalidValue", "invalid argument"},
    {hipErrorOutOfMemory, "hipErrorOutOfMemory", "out of memory"},
    {hipErrorNotInitialized, "hipErrorNotInitialized", "initialization error"},
    {hipErrorDeinitialized, "hipErrorDeinitialized", "driver shutting down"},
    {hipErrorInvalidConfiguration, "hipErrorInvalidConfiguration", "invalid configuration argument"},
    {hipErrorInvalidPitchValue, "hipErrorInvalidPitchValue", "invalid pitch argument"},
    {hipErrorInvalidSymbol, "hipErrorInvalidSymbol", "invalid device symbol"},
    {hipErrorInvalidDevicePointer, "hipErrorInvalidDevicePointer", "invalid device pointer"},
    {hipErrorInvalidMemcpyDirection, "hipErrorInvalidMemcpyDirection", "invalid copy direction for memcpy"},
    {hipErrorInsufficientDriver, "hipErrorInsufficientDriver", "driver version is insufficient for runtime version"},
    {hipErrorInvalidDeviceFunction, "hipErrorInvalidDeviceFunction", "invalid device function"},
    {hipErrorNoDevice, "hipErrorNoDevice", "no ROCm-capable device is detected"},
    {hipErrorInvalidDevice, "hipErrorInvalidDevice", "invalid device ordinal"},
    {hipErrorInvalidImage, "hipErrorInvalidImage", "device kernel image is invalid"},
    {hipErrorInvalidContext, "hipErrorInvalidContext", "invalid device context"},
    {hipErrorFileNotFound, "hipErrorFileNotFound", "file not found"},
    {hipErrorInvalidHandle, "hipErrorInvalidHandle", "invalid resource handle"},
    {hipErrorIllegalState, "hipErrorIllegalState", "the operation cannot be performed in the present state"},
    {hipErrorNotFound, "hipErrorNotFound", "named symbol not found"},
    {hipErrorNotReady, "hipErrorNotReady", "device not ready"},
    {hipErrorIllegalAddress, "hipErrorIllegalAddress", "an illegal memory access was encountered"},
    {hipErrorLaunchFailure, "hipErrorLaunchFailure", "unspecified launch failure"},
    {hipErrorNotSupported, "hipErrorNotSupported", "operation not supported"},
    {hipErrorUnknown, "hipErrorUnknown", "unknown error"},
    {hipErrorRuntimeMemory, "hipErrorRuntimeMemory", "runtime memory call returned error"},
    {hipErrorRuntimeOther, "hipErrorRuntimeOther", "runtime call other than memory returned error"},
    {hipErrorTbd, "hipErrorTbd", "unspecified error"},
};

// A C caller may pass any int as a hipError_t: the entry points copy it into an int and look that
// up (loading a value outside the enumeration's range as hipError_t is undefined in C++; UBSan's
// -fsanitize=enum reports it).
static_assert(sizeof(hipError_t) == sizeof(int), "hipError_t is an int-sized enum");
const ErrorText* findError(int e)
{
    for(const auto& t : kErrors)
        if(static_cast<int>(t.value) == e)
            return &t;
    return nullptr;
}

hipError_t checkDevice(int deviceId) { return deviceId == 0 ? hipSuccess : hipErrorInvalidDevice; }

// The pointer checks of a copy of `size` bytes in direction `kind`: a "device" side must be a
// range of one live allocation (hipMemcpyDefault infers the direction, so any pointers go).
hipError_t checkCopy(void* dst, const void* src, size_t size, hipMemcpyKind kind)
{
    switch(kind)
    {
    case hipMemcpyHostToHost:
    case hipMemcpyHostToDevice:
    case hipMemcpyDeviceToHost:
    case hipMemcpyDeviceToDevice:
    case hipMemcpyDeviceToDeviceNoCU:
    case hipMemcpyDefault: break;
    default: return hipErrorInvalidMemcpyDirection;
    }
    if(size == 0)
        return hipSuccess;
    if(dst == nullptr || src == nullptr)
        return hipErrorInvalidValue;
    const auto& rt = HostRuntime::instance();
    const bool dstDevice = kind == hipMemcpyHostToDevice || kind == hipMemcpyDeviceToDevice || kind == hipMemcpyDeviceToDeviceNoCU;
    const bool srcDevice = kind == hipMemcpyDeviceToHost || kind == hipMemcpyDeviceToDevice || kind == hipMemcpyDeviceToDeviceNoCU;
    if((dstDevice && !rt.isDeviceRange(dst, size)) || (srcDevice && !rt.isDeviceRange(src, size)))
        return hipErrorInvalidValue;
    return hipSuccess;
}

hipError_t copy(void* dst, const void* src, size_t size, hipMemcpyKind kind)
{
    const hipError_t st = checkCopy(dst, src, size, kind);
    if(st == hipSuccess && size != 0)
        std::memmove(dst, src, size);
    return st;
}

hipError_t fill(void* dst, int value, size_t size)
{
    if(size == 0)
        return hipSuccess;
    if(!HostRuntime::instance().isDeviceRange(dst, size))
        return hipErrorInvalidValue;
    std::memset(dst, value & 0xff, size);
    return hipSuccess;
}

hipError_t checkStream(hipStream_t stream)
{
    return HostRuntime::instance().isStream(stream) ? hipSuccess : hipErrorInvalidHandle;
}

} // namespace

extern "C" {

const char* hipGetErrorString(hipError_t error)
{
    int code = 0;
    std::memcpy(&code, &error, sizeof code);
    const ErrorText* t = findError(code);
    return t != nullptr ? t->text : "unknown error";
}

const char* hipGetErrorName(hipError_t error)
{
    int code = 0;
    std::memcpy(&code, &error, sizeof code);
    const ErrorText* t = findError(code);
    return t != nullptr ? t->name : "hipErrorUnknown";
}

hipError_t hipGetLastError(void)
{
    const hipError_t e = tLastError;
    tLastError         = hipSuccess;
    return e;
}

hipError_t hipPeekAtLastError(void) { return tLastError; }

hipError_t hipRuntimeGetVersion(int* runtimeVersion)
{
    return guarded([&] {
        if(runtimeVersion == nullptr)
            return hipErrorInvalidValue;
        *runtimeVersion = HIP_VERSION;
        return hipSuccess;
    });
}

hipError_t hipDriverGetVersion(int* driverVersion)
{
    return guarded([&] {
        if(driverVersion == nullptr)
            return hipErrorInvalidValue;
        *driverVersion = HIP_VERSION;
        return hipSuccess;
    });
}

hipError_t hipGetDeviceCount(int* count)
{
    return guarded([&] {
        if(count == nullptr)
            return hipErrorInvalidValue;
        *count = 1;
        return hipSuccess;
    });
}

hipError_t hipGetDevice(int* deviceId)
{
    return guarded([&] {
        if(deviceId == nullptr)
            return hipErrorInvalidValue;
        *deviceId = 0;
        return hipSuccess;
    });
}

hipError_t hipSetDevice(int deviceId)
{
    return guarded([&] { return checkDevice(deviceId); });
}

hipError_t hipGetDeviceProperties(hipDeviceProp_t* prop, int deviceId)
{
    return guarded([&] {
        if(prop == nullptr)
            return hipErrorInvalidValue;
        if(checkDevice(deviceId) != hipSuccess)
            return hipErrorInvalidDevice;
        *prop = hip_host::deviceProperties();
        return hipSuccess;
    });
}

hipError_t hipDeviceGetAttribute(int* pi, hipDeviceAttribute_t attr, int deviceId)
{
    return guarded([&] {
        if(pi == nullptr)
            return hipErrorInvalidValue;
        if(checkDevice(deviceId) != hipSuccess)
            return hipErrorInvalidDevice;
        const hipDeviceProp_t& p = hip_host::deviceProperties();
        int v = 0;
        switch(attr)
        {
        case hipDeviceAttributeEccEnabled: v = 0; break;
        case hipDeviceAttributeCanMapHostMemory: v = p.canMapHostMemory; break;
        case hipDeviceAttributeClockRate: v = p.clockRate; break;
        case hipDeviceAttributeComputeMode: v = p.computeMode; break;
        case hipDeviceAttributeConcurrentKernels: v = p.concurrentKernels; break;
        case hipDeviceAttributeConcurrentManagedAccess: v = p.concurrentManagedAccess; break;
        case hipDeviceAttributeIntegrated: v = p.integrated; break;
        case hipDeviceAttributeL2CacheSize: v = p.l2CacheSize; break;
        case hipDeviceAttributeComputeCapabilityMajor: v = p.major; break;
        case hipDeviceAttributeComputeCapabilityMinor: v = p.minor; break;
        case hipDeviceAttributeManagedMemory: v = p.managedMemory; break;
        case hipDeviceAttributeMaxBlockDimX: v = p.maxThreadsDim[0]; break;
        case hipDeviceAttributeMaxBlockDimY: v = p.maxThreadsDim[1]; break;
        case hipDeviceAttributeMaxBlockDimZ: v = p.maxThreadsDim[2]; break;
        case hipDeviceAttributeMaxGridDimX: v = p.maxGridSize[0]; break;
        case hipDeviceAttributeMaxGridDimY: v = p.maxGridSize[1]; break;
        case hipDeviceAttributeMaxGridDimZ: v = p.maxGridSize[2]; break;
        case hipDeviceAttributeMaxThreadsPerBlock: v = p.maxThreadsPerBlock; break;
        case hipDeviceAttributeMaxThreadsPerMultiProcessor: v = p.maxThreadsPerMultiProcessor; break;
        case hipDeviceAttributeMultiprocessorCount:
        case hipDeviceAttributePhysicalMultiProcessorCount: v = p.multiProcessorCount; break;
        case hipDeviceAttributePageableMemoryAccess: v = p.pageableMemoryAccess; break;
        case hipDeviceAttributePciBusId: v = p.pciBusID; break;
        case hipDeviceAttributePciDeviceId: v = p.pciDeviceID; break;
        case hipDeviceAttributePciDomainId: v = p.pciDomainID; break;
        case hipDeviceAttributeMaxSharedMemoryPerBlock: v = static_cast<int>(p.sharedMemPerBlock); break;
        case hipDeviceAttributeMaxSharedMemoryPerMultiprocessor: v = static_cast<int>(p.maxSharedMemoryPerMultiProcessor); break;
        case hipDeviceAttributeUnifiedAddressing: v = p.unifiedAddressing; break;
        case hipDeviceAttributeWarpSize: v = p.warpSize; break;
        case hipDeviceAttributeIsLargeBar: v = p.isLargeBar; break;
        case hipDeviceAttributeFineGrainSupport: v = 1; break;
        default: return hipErrorInvalidValue;
        }
        *pi = v;
        return hipSuccess;
    });
}

hipError_t hipDeviceSynchronize(void)
{
    // Every operation completed before its call returned.
    return hipSuccess;
}

hipError_t hipDeviceReset(void)
{
    return guarded([&] {
        HostRuntime::instance().reset();
        return hipSuccess;
    });
}

hipError_t hipMemGetInfo(size_t* free, size_t* total)
{
    return guarded([&] {
        if(free == nullptr || total == nullptr)
            return hipErrorInvalidValue;
        *total = hip_host::deviceProperties().totalGlobalMem;
        *free  = hip_host::availableMemory();
        return hipSuccess;
    });
}

hipError_t hipMalloc(void** ptr, size_t size)
{
    return guarded([&] { return HostRuntime::instance().allocate(ptr, size, AllocationKind::Device, 0); });
}

hipError_t hipFree(void* ptr)
{
    return guarded([&] { return HostRuntime::instance().release(ptr, AllocationKind::Device, AllocationKind::Managed); });
}

hipError_t hipMallocManaged(void** devPtr, size_t size, unsigned int flags)
{
    return guarded([&] {
        if(flags != hipMemAttachGlobal && flags != hipMemAttachHost)
            return hipErrorInvalidValue;
        return HostRuntime::instance().allocate(devPtr, size, AllocationKind::Managed, flags);
    });
}

hipError_t hipHostMalloc(void** ptr, size_t size, unsigned int flags)
{
    return guarded([&] {
        constexpr unsigned kKnown = hipHostMallocPortable | hipHostMallocMapped | hipHostMallocWriteCombined |
                                    hipHostMallocNumaUser | hipHostMallocCoherent | hipHostMallocNonCoherent;
        if((flags & ~kKnown) != 0 ||
           ((flags & hipHostMallocCoherent) != 0 && (flags & hipHostMallocNonCoherent) != 0))
            return hipErrorInvalidValue;
        return HostRuntime::instance().allocate(ptr, size, AllocationKind::Host, flags);
    });
}

hipError_t hipHostFree(void* ptr)
{
    return guarded([&] { return HostRuntime::instance().release(ptr, AllocationKind::Host, AllocationKind::Host); });
}

hipError_t hipMallocHost(void** ptr, size_t size) { return hipHostMalloc(ptr, size, hipHostMallocDefault); }

hipError_t hipFreeHost(void* ptr) { return hipHostFree(ptr); }

hipError_t hipMemcpy(void* dst, const void* src, size_t sizeBytes, hipMemcpyKind kind)
{
    return guarded([&] { return copy(dst, src, sizeBytes, kind); });
}

hipError_t hipMemcpyAsync(void* dst, const void* src, size_t sizeBytes, hipMemcpyKind kind, hipStream_t stream)
{
    return guarded([&] {
        const hipError_t st = checkStream(stream);
        return st != hipSuccess ? st : copy(dst, src, sizeBytes, kind);
    });
}

hipError_t hipMemset(void* dst, int value, size_t sizeBytes)
{
    return guarded([&] { return fill(dst, value, sizeBytes); });
}

hipError_t hipMemsetAsync(void* dst, int value, size_t sizeBytes, hipStream_t stream)
{
    return guarded([&] {
        const hipError_t st = checkStream(stream);
        return st != hipSuccess ? st : fill(dst, value, sizeBytes);
    });
}

hipError_t hipPointerGetAttributes(hipPointerAttribute_t* attributes, const void* ptr)
{
    return guarded([&] {
        if(attributes == nullptr || ptr == nullptr)
            return hipErrorInvalidValue;
        std::memset(attributes, 0, sizeof(*attributes));
        void* base = nullptr;
        hip_host::Allocation a;
        if(!HostRuntime::instance().lookup(ptr, &base, &a))
        {
            attributes->type = hipMemoryTypeUnregistered;
            return hipSuccess;
        }
        // Device memory is host memory: both views are the same address.
        void* p                   = const_cast<void*>(ptr);
        attributes->type          = a.kind == AllocationKind::Device    ? hipMemoryTypeDevice
                                    : a.kind == AllocationKind::Managed ? hipMemoryTypeManaged
                                                                        : hipMemoryTypeHost;
        attributes->device          = 0;
        attributes->devicePointer   = p;
        attributes->hostPointer     = a.kind == AllocationKind::Device ? nullptr : p;
        attributes->isManaged       = a.kind == AllocationKind::Managed ? 1 : 0;
        attributes->allocationFlags = a.flags;
        return hipSuccess;
    });
}

hipError_t hipStreamCreate(hipStream_t* stream)
{
    return guarded([&] { return HostRuntime::instance().createStream(stream, hipStreamDefault); });
}

hipError_t hipStreamCreateWithFlags(hipStream_t* stream, unsigned int flags)
{
    return guarded([&] { return HostRuntime::instance().createStream(stream, flags); });
}

hipError_t hipStreamDestroy(hipStream_t stream)
{
    return guarded([&] { return HostRuntime::instance().destroyStream(stream); });
}

hipError_t hipStreamSynchronize(hipStream_t stream)
{
    return guarded([&] { return checkStream(stream); });
}

hipError_t hipStreamQuery(hipStream_t stream)
{
    return guarded([&] { return checkStream(stream); });
}

hipError_t hipEventCreate(hipEvent_t* event)
{
    return guarded([&] { return HostRuntime::instance().createEvent(event, hipEventDefault); });
}

hipError_t hipEventCreateWithFlags(hipEvent_t* event, unsigned flags)
{
    return guarded([&] { return HostRuntime::instance().createEvent(event, flags); });
}

hipError_t hipEventRecord(hipEvent_t event, hipStream_t stream)
{
    return guarded([&] { return HostRuntime::instance().recordEvent(event, stream); });
}

hipError_t hipEventSynchronize(hipEvent_t event)
{
    return guarded([&] { return HostRuntime::instance().isEvent(event) ? hipSuccess : hipErrorInvalidHandle; });
}

hipError_t hipEventQuery(hipEvent_t event)
{
    return guarded([&] { return HostRuntime::instance().isEvent(event) ? hipSuccess : hipErrorInvalidHandle; });
}

hipError_t hipEventDestroy(hipEvent_t event)
{
    return guarded([&] { return HostRuntime::instance().destroyEvent(event); });
}

hipError_t hipEventElapsedTime(float* ms, hipEvent_t start, hipEvent_t stop)
{
    return guarded([&] { return HostRuntime::instance().elapsed(ms, start, stop); });
}

} // extern "C"
