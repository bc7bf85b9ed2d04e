// The state behind the C API of hip_host (hip_api.cpp): the registries of live allocations,
// streams and events, and the description of the one device (this CPU). Every operation is
// synchronous: a copy or a memset is done when the call returns, so streams and events only need
// to be known (valid handles), never drained. Methods return hipError_t and never throw except
// std::bad_alloc from the registries' own bookkeeping, which the C API turns into a status.
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
    Device,  // hipMalloc
    Managed, // hipMallocManaged
    Host     // hipHostMalloc / hipMallocHost (pinned, device-accessible)
};

struct Allocation
{
    std::size_t size = 0;
    AllocationKind kind = AllocationKind::Device;
    unsigned flags = 0;
};

/// Physical facts of this machine, read once (DeviceInfo.cpp).
const hipDeviceProp_t& deviceProperties();
/// Physical RAM available now, bytes.
std::size_t availableMemory();

class HostRuntime
{
public:
    static HostRuntime& instance();

    hipError_t allocate(void** ptr, std::size_t size, AllocationKind kind, unsigned flags);
    /// Frees ptr when it is a live allocation of one of the given kinds (null is a no-op).
    hipError_t release(void* ptr, AllocationKind kind, AllocationKind alsoKind);
    /// Whether [ptr, ptr + size) lies inside one live allocation (any kind).
    bool isDeviceRange(const void* ptr, std::size_t size) const;
    /// The live allocation holding ptr, with its base address; false when none.
    bool lookup(const void* ptr, void** base, Allocation* out) const;

    hipError_t createStream(hipStream_t* stream, unsigned flags);
    hipError_t destroyStream(hipStream_t stream);
    /// The null stream is valid; any other must be live.
    bool isStream(hipStream_t stream) const;

    hipError_t createEvent(hipEvent_t* event, unsigned flags);
    hipError_t destroyEvent(hipEvent_t event);
    hipError_t recordEvent(hipEvent_t event, hipStream_t stream);
    bool isEvent(hipEvent_t event) const;
    hipError_t elapsed(float* ms, hipEvent_t start, hipEvent_t stop) const;

    /// Frees every allocation, destroys every stream and event.
    void reset();

    ~HostRuntime();

private:
    HostRuntime() = default;
    void releaseAllLocked();

    mutable std::mutex _mutex;
    std::map<std::uintptr_t, Allocation> _allocations; // base address -> allocation
    std::unordered_set<ihipStream_t*> _streams;
    std::unordered_set<ihipEvent_t*> _events;
};

} // namespace hip_host
