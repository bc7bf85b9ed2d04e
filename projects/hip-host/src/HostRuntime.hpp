// The state behind the C API of hip_host (hip_api.cpp): the registries of live allocations,
// host registrations, streams and events, the device's flags and limits, and the description of
// the one device (this CPU). Every operation is synchronous: a copy or a memset is done when the
// call returns and a host callback runs before its enqueueing call returns, so streams and events
// only need to be known (valid handles), never drained. Methods return hipError_t and never throw
// except std::bad_alloc from the registries' own bookkeeping, which the C API turns into a status.
#pragma once

#include <hip/hip_runtime_api.h>

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <map>
#include <mutex>
#include <unordered_set>

struct ihipStream_t
{
    unsigned flags = 0;
    int priority   = 0;
};

struct ihipEvent_t
{
    unsigned flags = 0;
    bool recorded  = false;
    std::chrono::steady_clock::time_point at{};
};

namespace hip_host {

enum class AllocationKind
{
    Device,    // hipMalloc / hipMallocAsync
    Managed,   // hipMallocManaged
    Host,      // hipHostMalloc / hipHostAlloc / hipMallocHost (pinned, device-accessible)
    Registered // hipHostRegister: the caller's memory, never freed here
};

struct Allocation
{
    std::size_t size = 0;
    AllocationKind kind = AllocationKind::Device;
    unsigned flags = 0;
};

/// HIP's stream priority range on AMD: lower numbers are higher priorities.
constexpr int kLeastStreamPriority    = 1;
constexpr int kGreatestStreamPriority = -1;

/// Physical facts of this machine, read once (DeviceInfo.cpp).
const hipDeviceProp_t& deviceProperties();
/// Physical RAM available now, bytes.
std::size_t availableMemory();
/// hipDeviceGetAttribute of device 0: hipErrorInvalidValue for an attribute not described.
hipError_t deviceAttribute(hipDeviceAttribute_t attr, int* value);
/// "dddd:bb:dd.f" of device 0.
const char* pciBusId();
/// The default of hipLimitStackSize: this process's thread stack size.
std::size_t defaultStackSize();

/// Whether stream names the default stream (null, hipStreamLegacy, hipStreamPerThread).
inline bool isDefaultStream(hipStream_t stream)
{
    return stream == nullptr || stream == hipStreamLegacy || stream == hipStreamPerThread;
}

class HostRuntime
{
public:
    static HostRuntime& instance();

    hipError_t allocate(void** ptr, std::size_t size, AllocationKind kind, unsigned flags);
    /// Frees ptr when it is a live allocation of one of the given kinds (null is a no-op).
    hipError_t release(void* ptr, AllocationKind kind, AllocationKind alsoKind);
    /// Records [ptr, ptr + size) as registered host memory.
    hipError_t registerHost(void* ptr, std::size_t size, unsigned flags);
    hipError_t unregisterHost(void* ptr);
    /// Whether [ptr, ptr + size) lies inside one live allocation or registration (any kind).
    bool isDeviceRange(const void* ptr, std::size_t size) const;
    /// The live allocation or registration holding ptr, with its base address; false when none.
    bool lookup(const void* ptr, void** base, Allocation* out) const;

    hipError_t createStream(hipStream_t* stream, unsigned flags, int priority);
    hipError_t destroyStream(hipStream_t stream);
    /// The default stream is valid; any other must be live.
    bool isStream(hipStream_t stream) const;
    /// Flags and priority of a live stream (hipErrorInvalidHandle otherwise).
    hipError_t streamInfo(hipStream_t stream, unsigned* flags, int* priority) const;

    hipError_t createEvent(hipEvent_t* event, unsigned flags);
    hipError_t destroyEvent(hipEvent_t event);
    hipError_t recordEvent(hipEvent_t event, hipStream_t stream);
    bool isEvent(hipEvent_t event) const;
    hipError_t elapsed(float* ms, hipEvent_t start, hipEvent_t stop) const;

    void setDeviceFlags(unsigned flags);
    unsigned deviceFlags() const;
    hipError_t limit(enum hipLimit_t which, std::size_t* value) const;
    hipError_t setLimit(enum hipLimit_t which, std::size_t value);

    /// Frees every allocation, forgets every registration, destroys every stream and event,
    /// resets the device flags and limits.
    void reset();

    ~HostRuntime();

private:
    HostRuntime() = default;
    void releaseAllLocked();
    /// Whether [addr, addr + size) overlaps any allocation or registration.
    bool overlapsLocked(std::uintptr_t addr, std::size_t size) const;

    mutable std::mutex _mutex;
    std::map<std::uintptr_t, Allocation> _allocations; // base address -> allocation or registration
    std::unordered_set<ihipStream_t*> _streams;
    std::unordered_set<ihipEvent_t*> _events;
    unsigned _deviceFlags = hipDeviceScheduleAuto;
    bool _stackSizeSet    = false;
    std::size_t _stackSize      = 0;
    std::size_t _mallocHeapSize = 0;
};

} // namespace hip_host
