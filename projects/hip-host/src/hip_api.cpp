// The C entry points of hip_host (<hip/hip_runtime_api.h>). One shape for all: the body runs
// inside guarded(), which turns any exception into a status (none crosses the C boundary) and
// keeps a failure as the thread's last error; the logic lives in hip_host_private.
#include "HostRuntime.hpp"
#include "LegacyDeviceProp.hpp"
#include "Status.hpp"
#include "Transfers.hpp"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <new>

using hip_host::AllocationKind;
using hip_host::HostRuntime;

namespace {

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
    hip_host::noteFailure(status);
    return status;
}

hipError_t checkDevice(int deviceId) { return deviceId == 0 ? hipSuccess : hipErrorInvalidDevice; }

// A C caller may pass any int as a hipError_t: it is looked up as an int.
int errorCode(hipError_t error)
{
    static_assert(sizeof(hipError_t) == sizeof(int), "hipError_t is an int-sized enum");
    int code = 0;
    std::memcpy(&code, &error, sizeof code);
    return code;
}

// A stream operation: the stream is checked, then the operation runs now.
template <class Op>
hipError_t onStream(hipStream_t stream, Op&& op)
{
    const hipError_t st = hip_host::checkStream(stream);
    return st != hipSuccess ? st : op();
}

// A host callback in stream order: everything enqueued before it is done, so it runs now.
template <class Call>
hipError_t hostCallback(hipStream_t stream, Call&& call)
{
    const hipError_t st = hip_host::checkStream(stream);
    if(st != hipSuccess)
        return st;
    call();
    return hipSuccess;
}

} // namespace

extern "C" {

// ---- errors and versions -------------------------------------------------------------------------

const char* hipGetErrorString(hipError_t error)
{
    const char* text = hip_host::errorString(errorCode(error));
    return text != nullptr ? text : "unknown error";
}

const char* hipGetErrorName(hipError_t error)
{
    const char* name = hip_host::errorName(errorCode(error));
    return name != nullptr ? name : "hipErrorUnknown";
}

hipError_t hipGetLastError(void) { return hip_host::takeLastError(); }

hipError_t hipPeekAtLastError(void) { return hip_host::peekLastError(); }

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

hipError_t hipInit(unsigned int flags)
{
    return guarded([&] { return flags == 0 ? hipSuccess : hipErrorInvalidValue; });
}

// ---- device --------------------------------------------------------------------------------------

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

hipError_t hipDeviceGet(hipDevice_t* device, int ordinal)
{
    return guarded([&] {
        if(device == nullptr)
            return hipErrorInvalidValue;
        if(checkDevice(ordinal) != hipSuccess)
            return hipErrorInvalidDevice;
        *device = ordinal;
        return hipSuccess;
    });
}

// hipGetDeviceProperties is the header's name of this symbol (HIP 6's R0600 struct).
hipError_t hipGetDevicePropertiesR0600(hipDeviceProp_tR0600* prop, int deviceId)
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

hipError_t hipChooseDeviceR0600(int* device, const hipDeviceProp_tR0600* prop)
{
    return guarded([&] {
        if(device == nullptr || prop == nullptr)
            return hipErrorInvalidValue;
        *device = 0;
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
        return hip_host::deviceAttribute(attr, pi);
    });
}

hipError_t hipDeviceGetName(char* name, int len, hipDevice_t device)
{
    return guarded([&] {
        if(checkDevice(device) != hipSuccess)
            return hipErrorInvalidDevice;
        if(name == nullptr || len <= 0)
            return hipErrorInvalidValue;
        const char* full = hip_host::deviceProperties().name;
        const std::size_t n = std::min(std::strlen(full), static_cast<std::size_t>(len) - 1);
        std::memcpy(name, full, n);
        name[n] = '\0';
        return hipSuccess;
    });
}

hipError_t hipDeviceGetPCIBusId(char* pciBusId, int len, int device)
{
    return guarded([&] {
        if(checkDevice(device) != hipSuccess)
            return hipErrorInvalidDevice;
        if(pciBusId == nullptr || len <= 0)
            return hipErrorInvalidValue;
        std::snprintf(pciBusId, static_cast<std::size_t>(len), "%s", hip_host::pciBusId());
        // As HIP: written (truncated) whatever len, but 13 bytes are needed.
        return len <= 12 ? hipErrorInvalidValue : hipSuccess;
    });
}

hipError_t hipDeviceGetByPCIBusId(int* device, const char* pciBusId)
{
    return guarded([&] {
        if(device == nullptr || pciBusId == nullptr)
            return hipErrorInvalidValue;
        unsigned domain = 0, bus = 0, dev = 0, function = 0;
        if(std::sscanf(pciBusId, "%x:%x:%x.%x", &domain, &bus, &dev, &function) != 4)
            return hipErrorInvalidValue;
        const hipDeviceProp_t& p = hip_host::deviceProperties();
        if(domain != static_cast<unsigned>(p.pciDomainID) || bus != static_cast<unsigned>(p.pciBusID) ||
           dev != static_cast<unsigned>(p.pciDeviceID) || function != 0)
            return hipErrorInvalidValue;
        *device = 0;
        return hipSuccess;
    });
}

hipError_t hipDeviceComputeCapability(int* major, int* minor, hipDevice_t device)
{
    return guarded([&] {
        if(checkDevice(device) != hipSuccess)
            return hipErrorInvalidDevice;
        if(major == nullptr || minor == nullptr)
            return hipErrorInvalidValue;
        *major = hip_host::deviceProperties().major;
        *minor = hip_host::deviceProperties().minor;
        return hipSuccess;
    });
}

hipError_t hipDeviceTotalMem(size_t* bytes, hipDevice_t device)
{
    return guarded([&] {
        if(checkDevice(device) != hipSuccess)
            return hipErrorInvalidDevice;
        if(bytes == nullptr)
            return hipErrorInvalidValue;
        *bytes = hip_host::deviceProperties().totalGlobalMem;
        return hipSuccess;
    });
}

hipError_t hipSetDeviceFlags(unsigned flags)
{
    return guarded([&] {
        constexpr unsigned kKnown = hipDeviceScheduleMask | hipDeviceMapHost | hipDeviceLmemResizeToMax;
        const unsigned schedule   = flags & hipDeviceScheduleMask;
        // At most one scheduling flag (Spin, Yield, BlockingSync are single bits).
        if((flags & ~kKnown) != 0 || (schedule & (schedule - 1)) != 0)
            return hipErrorInvalidValue;
        HostRuntime::instance().setDeviceFlags(flags);
        return hipSuccess;
    });
}

hipError_t hipGetDeviceFlags(unsigned int* flags)
{
    return guarded([&] {
        if(flags == nullptr)
            return hipErrorInvalidValue;
        *flags = HostRuntime::instance().deviceFlags();
        return hipSuccess;
    });
}

hipError_t hipDeviceGetLimit(size_t* pValue, enum hipLimit_t limit)
{
    return guarded([&] {
        if(pValue == nullptr)
            return hipErrorInvalidValue;
        return HostRuntime::instance().limit(limit, pValue);
    });
}

hipError_t hipDeviceSetLimit(enum hipLimit_t limit, size_t value)
{
    return guarded([&] { return HostRuntime::instance().setLimit(limit, value); });
}

hipError_t hipDeviceGetStreamPriorityRange(int* leastPriority, int* greatestPriority)
{
    return guarded([&] {
        if(leastPriority != nullptr)
            *leastPriority = hip_host::kLeastStreamPriority;
        if(greatestPriority != nullptr)
            *greatestPriority = hip_host::kGreatestStreamPriority;
        return hipSuccess;
    });
}

hipError_t hipDeviceCanAccessPeer(int* canAccessPeer, int deviceId, int peerDeviceId)
{
    return guarded([&] {
        if(canAccessPeer == nullptr)
            return hipErrorInvalidValue;
        if(checkDevice(deviceId) != hipSuccess || checkDevice(peerDeviceId) != hipSuccess)
            return hipErrorInvalidDevice;
        *canAccessPeer = 0; // a device is not a peer of itself
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

// ---- memory --------------------------------------------------------------------------------------

hipError_t hipMalloc(void** ptr, size_t size)
{
    return guarded([&] { return HostRuntime::instance().allocate(ptr, size, AllocationKind::Device, 0); });
}

hipError_t hipFree(void* ptr)
{
    return guarded([&] { return HostRuntime::instance().release(ptr, AllocationKind::Device, AllocationKind::Managed); });
}

hipError_t hipMallocAsync(void** devPtr, size_t size, hipStream_t stream)
{
    return guarded([&] {
        if(devPtr == nullptr)
            return hipErrorInvalidValue;
        return onStream(stream, [&] { return HostRuntime::instance().allocate(devPtr, size, AllocationKind::Device, 0); });
    });
}

hipError_t hipFreeAsync(void* devPtr, hipStream_t stream)
{
    return guarded([&] {
        if(devPtr == nullptr)
            return hipErrorInvalidValue;
        return onStream(stream, [&] {
            return HostRuntime::instance().release(devPtr, AllocationKind::Device, AllocationKind::Managed);
        });
    });
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

hipError_t hipHostAlloc(void** ptr, size_t size, unsigned int flags)
{
    return guarded([&] {
        constexpr unsigned kKnown = hipHostAllocPortable | hipHostAllocMapped | hipHostAllocWriteCombined;
        if(ptr == nullptr || (flags & ~kKnown) != 0)
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

hipError_t hipHostRegister(void* hostPtr, size_t sizeBytes, unsigned int flags)
{
    return guarded([&] {
        constexpr unsigned kKnown = hipHostRegisterPortable | hipHostRegisterMapped | hipHostRegisterIoMemory |
                                    hipHostRegisterReadOnly;
        if((flags & ~kKnown) != 0)
            return hipErrorInvalidValue;
        return HostRuntime::instance().registerHost(hostPtr, sizeBytes, flags);
    });
}

hipError_t hipHostUnregister(void* hostPtr)
{
    return guarded([&] { return HostRuntime::instance().unregisterHost(hostPtr); });
}

hipError_t hipHostGetDevicePointer(void** devPtr, void* hostPtr, unsigned int flags)
{
    return guarded([&] {
        if(devPtr == nullptr || flags != 0)
            return hipErrorInvalidValue;
        if(hostPtr == nullptr || !HostRuntime::instance().lookup(hostPtr, nullptr, nullptr))
            return hipErrorInvalidValue;
        *devPtr = hostPtr; // device memory is host memory: the same address
        return hipSuccess;
    });
}

hipError_t hipHostGetFlags(unsigned int* flagsPtr, void* hostPtr)
{
    return guarded([&] {
        hip_host::Allocation a;
        if(flagsPtr == nullptr || hostPtr == nullptr || !HostRuntime::instance().lookup(hostPtr, nullptr, &a) ||
           (a.kind != AllocationKind::Host && a.kind != AllocationKind::Registered))
            return hipErrorInvalidValue;
        *flagsPtr = a.flags;
        return hipSuccess;
    });
}

hipError_t hipMemPtrGetInfo(void* ptr, size_t* size)
{
    return guarded([&] {
        hip_host::Allocation a;
        if(size == nullptr || ptr == nullptr || !HostRuntime::instance().lookup(ptr, nullptr, &a))
            return hipErrorInvalidValue;
        *size = a.size;
        return hipSuccess;
    });
}

hipError_t hipMemGetAddressRange(hipDeviceptr_t* pbase, size_t* psize, hipDeviceptr_t dptr)
{
    return guarded([&] {
        void* base = nullptr;
        hip_host::Allocation a;
        if(dptr == nullptr || !HostRuntime::instance().lookup(dptr, &base, &a))
            return hipErrorNotFound;
        if(pbase != nullptr)
            *pbase = base;
        if(psize != nullptr)
            *psize = a.size;
        return hipSuccess;
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

// ---- copies and fills ----------------------------------------------------------------------------

hipError_t hipMemcpy(void* dst, const void* src, size_t sizeBytes, hipMemcpyKind kind)
{
    return guarded([&] { return hip_host::copy(dst, src, sizeBytes, kind); });
}

hipError_t hipMemcpyAsync(void* dst, const void* src, size_t sizeBytes, hipMemcpyKind kind, hipStream_t stream)
{
    return guarded([&] { return onStream(stream, [&] { return hip_host::copy(dst, src, sizeBytes, kind); }); });
}

hipError_t hipMemcpyWithStream(void* dst, const void* src, size_t sizeBytes, hipMemcpyKind kind, hipStream_t stream)
{
    return guarded([&] { return onStream(stream, [&] { return hip_host::copy(dst, src, sizeBytes, kind); }); });
}

hipError_t hipMemcpyHtoD(hipDeviceptr_t dst, void* src, size_t sizeBytes)
{
    return guarded([&] { return hip_host::copy(dst, src, sizeBytes, hipMemcpyHostToDevice); });
}

hipError_t hipMemcpyDtoH(void* dst, hipDeviceptr_t src, size_t sizeBytes)
{
    return guarded([&] { return hip_host::copy(dst, src, sizeBytes, hipMemcpyDeviceToHost); });
}

hipError_t hipMemcpyDtoD(hipDeviceptr_t dst, hipDeviceptr_t src, size_t sizeBytes)
{
    return guarded([&] { return hip_host::copy(dst, src, sizeBytes, hipMemcpyDeviceToDevice); });
}

hipError_t hipMemcpyHtoDAsync(hipDeviceptr_t dst, void* src, size_t sizeBytes, hipStream_t stream)
{
    return guarded([&] { return onStream(stream, [&] { return hip_host::copy(dst, src, sizeBytes, hipMemcpyHostToDevice); }); });
}

hipError_t hipMemcpyDtoHAsync(void* dst, hipDeviceptr_t src, size_t sizeBytes, hipStream_t stream)
{
    return guarded([&] { return onStream(stream, [&] { return hip_host::copy(dst, src, sizeBytes, hipMemcpyDeviceToHost); }); });
}

hipError_t hipMemcpyDtoDAsync(hipDeviceptr_t dst, hipDeviceptr_t src, size_t sizeBytes, hipStream_t stream)
{
    return guarded([&] { return onStream(stream, [&] { return hip_host::copy(dst, src, sizeBytes, hipMemcpyDeviceToDevice); }); });
}

hipError_t hipMemcpy2D(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width, size_t height,
                       hipMemcpyKind kind)
{
    return guarded([&] { return hip_host::copy2D(dst, dpitch, src, spitch, width, height, kind); });
}

hipError_t hipMemcpy2DAsync(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width, size_t height,
                            hipMemcpyKind kind, hipStream_t stream)
{
    return guarded([&] {
        return onStream(stream, [&] { return hip_host::copy2D(dst, dpitch, src, spitch, width, height, kind); });
    });
}

hipError_t hipMemcpyPeer(void* dst, int dstDeviceId, const void* src, int srcDeviceId, size_t sizeBytes)
{
    return guarded([&] {
        if(checkDevice(dstDeviceId) != hipSuccess || checkDevice(srcDeviceId) != hipSuccess)
            return hipErrorInvalidDevice;
        return hip_host::copy(dst, src, sizeBytes, hipMemcpyDeviceToDevice);
    });
}

hipError_t hipMemcpyPeerAsync(void* dst, int dstDeviceId, const void* src, int srcDevice, size_t sizeBytes,
                              hipStream_t stream)
{
    return guarded([&] {
        if(checkDevice(dstDeviceId) != hipSuccess || checkDevice(srcDevice) != hipSuccess)
            return hipErrorInvalidDevice;
        return onStream(stream, [&] { return hip_host::copy(dst, src, sizeBytes, hipMemcpyDeviceToDevice); });
    });
}

hipError_t hipMemset(void* dst, int value, size_t sizeBytes)
{
    const auto byte = static_cast<unsigned char>(value);
    return guarded([&] { return hip_host::fill(dst, &byte, 1, sizeBytes); });
}

hipError_t hipMemsetAsync(void* dst, int value, size_t sizeBytes, hipStream_t stream)
{
    const auto byte = static_cast<unsigned char>(value);
    return guarded([&] { return onStream(stream, [&] { return hip_host::fill(dst, &byte, 1, sizeBytes); }); });
}

hipError_t hipMemsetD8(hipDeviceptr_t dest, unsigned char value, size_t count)
{
    return guarded([&] { return hip_host::fill(dest, &value, sizeof value, count); });
}

hipError_t hipMemsetD8Async(hipDeviceptr_t dest, unsigned char value, size_t count, hipStream_t stream)
{
    return guarded([&] { return onStream(stream, [&] { return hip_host::fill(dest, &value, sizeof value, count); }); });
}

hipError_t hipMemsetD16(hipDeviceptr_t dest, unsigned short value, size_t count)
{
    return guarded([&] { return hip_host::fill(dest, &value, sizeof value, count); });
}

hipError_t hipMemsetD16Async(hipDeviceptr_t dest, unsigned short value, size_t count, hipStream_t stream)
{
    return guarded([&] { return onStream(stream, [&] { return hip_host::fill(dest, &value, sizeof value, count); }); });
}

hipError_t hipMemsetD32(hipDeviceptr_t dest, int value, size_t count)
{
    return guarded([&] { return hip_host::fill(dest, &value, sizeof value, count); });
}

hipError_t hipMemsetD32Async(hipDeviceptr_t dst, int value, size_t count, hipStream_t stream)
{
    return guarded([&] { return onStream(stream, [&] { return hip_host::fill(dst, &value, sizeof value, count); }); });
}

// ---- streams -------------------------------------------------------------------------------------

hipError_t hipStreamCreate(hipStream_t* stream)
{
    return guarded([&] { return HostRuntime::instance().createStream(stream, hipStreamDefault, 0); });
}

hipError_t hipStreamCreateWithFlags(hipStream_t* stream, unsigned int flags)
{
    return guarded([&] { return HostRuntime::instance().createStream(stream, flags, 0); });
}

hipError_t hipStreamCreateWithPriority(hipStream_t* stream, unsigned int flags, int priority)
{
    return guarded([&] { return HostRuntime::instance().createStream(stream, flags, priority); });
}

hipError_t hipStreamGetFlags(hipStream_t stream, unsigned int* flags)
{
    return guarded([&] {
        // As HIP: the null stream has no flags to report.
        if(flags == nullptr || stream == nullptr)
            return hipErrorInvalidValue;
        int priority = 0;
        return HostRuntime::instance().streamInfo(stream, flags, &priority);
    });
}

hipError_t hipStreamGetPriority(hipStream_t stream, int* priority)
{
    return guarded([&] {
        if(priority == nullptr)
            return hipErrorInvalidValue;
        unsigned flags = 0;
        return HostRuntime::instance().streamInfo(stream, &flags, priority);
    });
}

hipError_t hipStreamDestroy(hipStream_t stream)
{
    return guarded([&] { return HostRuntime::instance().destroyStream(stream); });
}

hipError_t hipStreamSynchronize(hipStream_t stream)
{
    return guarded([&] { return hip_host::checkStream(stream); });
}

hipError_t hipStreamQuery(hipStream_t stream)
{
    return guarded([&] { return hip_host::checkStream(stream); });
}

hipError_t hipStreamWaitEvent(hipStream_t stream, hipEvent_t event, unsigned int flags)
{
    return guarded([&] {
        if(!HostRuntime::instance().isEvent(event) || hip_host::checkStream(stream) != hipSuccess)
            return hipErrorInvalidHandle;
        // A recorded event is complete, an unrecorded one is nothing to wait for.
        return flags == 0 ? hipSuccess : hipErrorInvalidValue;
    });
}

hipError_t hipStreamAddCallback(hipStream_t stream, hipStreamCallback_t callback, void* userData, unsigned int flags)
{
    return guarded([&] {
        if(callback == nullptr || flags != 0)
            return hipErrorInvalidValue;
        return hostCallback(stream, [&] { callback(stream, hipSuccess, userData); });
    });
}

hipError_t hipLaunchHostFunc(hipStream_t stream, hipHostFn_t fn, void* userData)
{
    return guarded([&] {
        if(fn == nullptr)
            return hipErrorInvalidValue;
        return hostCallback(stream, [&] { fn(userData); });
    });
}

// ---- events --------------------------------------------------------------------------------------

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

// ---- the earlier ABI -----------------------------------------------------------------------------

// The plain hipGetDeviceProperties symbol, as libhip_host.so.1 exported it before its header
// followed HIP 6 (the header now names hipGetDevicePropertiesR0600): it fills the earlier,
// shorter struct that programs built against that header pass.
#undef hipGetDeviceProperties
HIP_HOST_EXPORT hipError_t hipGetDeviceProperties(hip_host::LegacyDeviceProp* prop, int deviceId);
hipError_t hipGetDeviceProperties(hip_host::LegacyDeviceProp* prop, int deviceId)
{
    return guarded([&] {
        if(prop == nullptr)
            return hipErrorInvalidValue;
        if(checkDevice(deviceId) != hipSuccess)
            return hipErrorInvalidDevice;
        hip_host::legacyDeviceProperties(prop);
        return hipSuccess;
    });
}

} // extern "C"
