#include "HostRuntime.hpp"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <limits>

namespace hip_host {

namespace {

// hipMalloc's alignment on AMD GPUs; MIOpen kernels and tests may rely on it.
constexpr std::size_t kAlignment = 256;

static_assert(sizeof(enum hipLimit_t) == sizeof(int), "hipLimit_t is an int-sized enum");

} // namespace

HostRuntime& HostRuntime::instance()
{
    // Never destroyed: programs may free memory from static destructors after main returns.
    static HostRuntime* const runtime = new HostRuntime();
    return *runtime;
}

HostRuntime::~HostRuntime()
{
    std::lock_guard<std::mutex> lock(_mutex);
    releaseAllLocked();
}

hipError_t HostRuntime::allocate(void** ptr, std::size_t size, AllocationKind kind, unsigned flags)
{
    if(ptr == nullptr)
        return hipErrorInvalidValue;
    *ptr = nullptr;
    if(size == 0)
        return hipSuccess;
    // More than the machine's physical memory is "device memory exhausted", whatever overcommit
    // would let malloc promise.
    if(size > deviceProperties().totalGlobalMem || size > std::numeric_limits<std::size_t>::max() - kAlignment)
        return hipErrorOutOfMemory;
    const std::size_t rounded = (size + kAlignment - 1) / kAlignment * kAlignment;
    void* p = std::aligned_alloc(kAlignment, rounded);
    if(p == nullptr)
        return hipErrorOutOfMemory;
    try
    {
        const auto addr = reinterpret_cast<std::uintptr_t>(p);
        std::lock_guard<std::mutex> lock(_mutex);
        // A registration overlapping fresh memory is stale (the caller freed registered memory
        // without hipHostUnregister and the C library handed it back): forget it.
        for(auto it = _allocations.lower_bound(addr + rounded); it != _allocations.begin();)
        {
            --it;
            if(it->first + it->second.size <= addr)
                break;
            if(it->second.kind == AllocationKind::Registered)
                it = _allocations.erase(it);
        }
        _allocations[addr] = Allocation{size, kind, flags};
    }
    catch(...)
    {
        std::free(p);
        return hipErrorOutOfMemory;
    }
    *ptr = p;
    return hipSuccess;
}

hipError_t HostRuntime::release(void* ptr, AllocationKind kind, AllocationKind alsoKind)
{
    if(ptr == nullptr)
        return hipSuccess;
    {
        std::lock_guard<std::mutex> lock(_mutex);
        const auto it = _allocations.find(reinterpret_cast<std::uintptr_t>(ptr));
        if(it == _allocations.end() || (it->second.kind != kind && it->second.kind != alsoKind))
            return hipErrorInvalidValue;
        _allocations.erase(it);
    }
    std::free(ptr);
    return hipSuccess;
}

hipError_t HostRuntime::registerHost(void* ptr, std::size_t size, unsigned flags)
{
    const auto addr = reinterpret_cast<std::uintptr_t>(ptr);
    if(ptr == nullptr || size == 0 || size > std::numeric_limits<std::uintptr_t>::max() - addr)
        return hipErrorInvalidValue;
    std::lock_guard<std::mutex> lock(_mutex);
    if(overlapsLocked(addr, size))
        return hipErrorHostMemoryAlreadyRegistered;
    _allocations[addr] = Allocation{size, AllocationKind::Registered, flags};
    return hipSuccess;
}

hipError_t HostRuntime::unregisterHost(void* ptr)
{
    if(ptr == nullptr)
        return hipErrorInvalidValue;
    std::lock_guard<std::mutex> lock(_mutex);
    const auto it = _allocations.find(reinterpret_cast<std::uintptr_t>(ptr));
    if(it == _allocations.end() || it->second.kind != AllocationKind::Registered)
        return hipErrorHostMemoryNotRegistered;
    _allocations.erase(it); // the memory is the caller's: nothing to free
    return hipSuccess;
}

bool HostRuntime::overlapsLocked(std::uintptr_t addr, std::size_t size) const
{
    // The first entry starting at or after the range's end cannot overlap; the one before it
    // overlaps when it ends after the range starts.
    auto it = _allocations.lower_bound(addr + size);
    if(it == _allocations.begin())
        return false;
    --it;
    return it->first + it->second.size > addr;
}

bool HostRuntime::lookup(const void* ptr, void** base, Allocation* out) const
{
    const auto addr = reinterpret_cast<std::uintptr_t>(ptr);
    std::lock_guard<std::mutex> lock(_mutex);
    auto it = _allocations.upper_bound(addr);
    if(it == _allocations.begin())
        return false;
    --it;
    if(addr - it->first >= it->second.size)
        return false;
    if(base != nullptr)
        *base = reinterpret_cast<void*>(it->first);
    if(out != nullptr)
        *out = it->second;
    return true;
}

bool HostRuntime::isDeviceRange(const void* ptr, std::size_t size) const
{
    void* base = nullptr;
    Allocation a;
    if(ptr == nullptr || !lookup(ptr, &base, &a))
        return false;
    const std::size_t offset = reinterpret_cast<std::uintptr_t>(ptr) - reinterpret_cast<std::uintptr_t>(base);
    return size <= a.size - offset;
}

hipError_t HostRuntime::createStream(hipStream_t* stream, unsigned flags, int priority)
{
    if(stream == nullptr || (flags & ~static_cast<unsigned>(hipStreamNonBlocking)) != 0)
        return hipErrorInvalidValue;
    auto* s     = new ihipStream_t();
    s->flags    = flags;
    s->priority = std::clamp(priority, kGreatestStreamPriority, kLeastStreamPriority);
    try
    {
        std::lock_guard<std::mutex> lock(_mutex);
        _streams.insert(s);
    }
    catch(...)
    {
        delete s;
        return hipErrorOutOfMemory;
    }
    *stream = s;
    return hipSuccess;
}

hipError_t HostRuntime::destroyStream(hipStream_t stream)
{
    std::lock_guard<std::mutex> lock(_mutex);
    if(stream == nullptr || _streams.erase(stream) == 0)
        return hipErrorInvalidHandle;
    delete stream;
    return hipSuccess;
}

bool HostRuntime::isStream(hipStream_t stream) const
{
    if(isDefaultStream(stream))
        return true;
    std::lock_guard<std::mutex> lock(_mutex);
    return _streams.count(stream) != 0;
}

hipError_t HostRuntime::streamInfo(hipStream_t stream, unsigned* flags, int* priority) const
{
    if(isDefaultStream(stream))
    {
        *flags    = hipStreamDefault;
        *priority = 0;
        return hipSuccess;
    }
    std::lock_guard<std::mutex> lock(_mutex);
    if(_streams.count(stream) == 0)
        return hipErrorInvalidHandle;
    *flags    = stream->flags;
    *priority = stream->priority;
    return hipSuccess;
}

hipError_t HostRuntime::createEvent(hipEvent_t* event, unsigned flags)
{
    constexpr unsigned kRelease = hipEventDisableSystemFence | hipEventReleaseToDevice | hipEventReleaseToSystem;
    constexpr unsigned kKnown   = hipEventBlockingSync | hipEventDisableTiming | hipEventInterprocess | kRelease;
    if(event == nullptr || (flags & ~kKnown) != 0)
        return hipErrorInvalidValue;
    // As HIP: at most one of the release/fence flags.
    const unsigned release = flags & kRelease;
    if((release & (release - 1)) != 0)
        return hipErrorInvalidValue;
    // As HIP: an interprocess event must also disable timing.
    if((flags & hipEventInterprocess) != 0 && (flags & hipEventDisableTiming) == 0)
        return hipErrorInvalidValue;
    auto* e  = new ihipEvent_t();
    e->flags = flags;
    try
    {
        std::lock_guard<std::mutex> lock(_mutex);
        _events.insert(e);
    }
    catch(...)
    {
        delete e;
        return hipErrorOutOfMemory;
    }
    *event = e;
    return hipSuccess;
}

hipError_t HostRuntime::destroyEvent(hipEvent_t event)
{
    std::lock_guard<std::mutex> lock(_mutex);
    if(event == nullptr || _events.erase(event) == 0)
        return hipErrorInvalidHandle;
    delete event;
    return hipSuccess;
}

hipError_t HostRuntime::recordEvent(hipEvent_t event, hipStream_t stream)
{
    std::lock_guard<std::mutex> lock(_mutex);
    if(event == nullptr || _events.count(event) == 0 || (!isDefaultStream(stream) && _streams.count(stream) == 0))
        return hipErrorInvalidHandle;
    // Everything enqueued on the stream before is already complete: the event completes now.
    event->at       = std::chrono::steady_clock::now();
    event->recorded = true;
    return hipSuccess;
}

bool HostRuntime::isEvent(hipEvent_t event) const
{
    std::lock_guard<std::mutex> lock(_mutex);
    return event != nullptr && _events.count(event) != 0;
}

hipError_t HostRuntime::elapsed(float* ms, hipEvent_t start, hipEvent_t stop) const
{
    if(ms == nullptr)
        return hipErrorInvalidValue;
    std::lock_guard<std::mutex> lock(_mutex);
    if(start == nullptr || stop == nullptr || _events.count(start) == 0 || _events.count(stop) == 0)
        return hipErrorInvalidHandle;
    if(!start->recorded || !stop->recorded || ((start->flags | stop->flags) & hipEventDisableTiming) != 0)
        return hipErrorInvalidHandle;
    *ms = std::chrono::duration<float, std::milli>(stop->at - start->at).count();
    return hipSuccess;
}

void HostRuntime::setDeviceFlags(unsigned flags)
{
    std::lock_guard<std::mutex> lock(_mutex);
    _deviceFlags = flags;
}

unsigned HostRuntime::deviceFlags() const
{
    std::lock_guard<std::mutex> lock(_mutex);
    return _deviceFlags;
}

hipError_t HostRuntime::limit(enum hipLimit_t which, std::size_t* value) const
{
    int w = 0;
    std::memcpy(&w, &which, sizeof w); // any int a C caller passes, read as an int
    std::lock_guard<std::mutex> lock(_mutex);
    switch(w)
    {
    case hipLimitStackSize: *value = _stackSizeSet ? _stackSize : defaultStackSize(); return hipSuccess;
    case hipLimitMallocHeapSize: *value = _mallocHeapSize; return hipSuccess;
    case hipLimitPrintfFifoSize: return hipErrorUnsupportedLimit;
    default: return hipErrorInvalidValue;
    }
}

hipError_t HostRuntime::setLimit(enum hipLimit_t which, std::size_t value)
{
    int w = 0;
    std::memcpy(&w, &which, sizeof w); // any int a C caller passes, read as an int
    std::lock_guard<std::mutex> lock(_mutex);
    switch(w)
    {
    case hipLimitStackSize:
        _stackSize    = value;
        _stackSizeSet = true;
        return hipSuccess;
    case hipLimitMallocHeapSize: _mallocHeapSize = value; return hipSuccess;
    case hipLimitPrintfFifoSize: return hipErrorUnsupportedLimit;
    default: return hipErrorInvalidValue;
    }
}

void HostRuntime::reset()
{
    std::lock_guard<std::mutex> lock(_mutex);
    releaseAllLocked();
    _deviceFlags    = hipDeviceScheduleAuto;
    _stackSizeSet   = false;
    _stackSize      = 0;
    _mallocHeapSize = 0;
}

void HostRuntime::releaseAllLocked()
{
    for(const auto& entry : _allocations)
        if(entry.second.kind != AllocationKind::Registered) // registered memory is the caller's
            std::free(reinterpret_cast<void*>(entry.first));
    _allocations.clear();
    for(auto* s : _streams)
        delete s;
    _streams.clear();
    for(auto* e : _events)
        delete e;
    _events.clear();
}

} // namespace hip_host
