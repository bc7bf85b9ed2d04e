// The handle: stream (stored only; work is synchronous on the CPU), allocator, profiling.
#pragma once

#include <miopen/object.hpp>

#include <chrono>
#include <cstddef>
#include <memory>

namespace miopen {

class Handle;

// Memory from the handle's allocator, released on destruction.
class Allocation
{
public:
    Allocation() = default;
    Allocation(const Handle* handle, void* ptr, std::size_t bytes) : _handle(handle), _ptr(ptr), _bytes(bytes) {}
    Allocation(Allocation&& o) noexcept { *this = std::move(o); }
    Allocation& operator=(Allocation&& o) noexcept;
    Allocation(const Allocation&) = delete;
    Allocation& operator=(const Allocation&) = delete;
    ~Allocation();

    void* get() const noexcept { return _ptr; }
    std::size_t size() const noexcept { return _bytes; }
    template <class T>
    T* as() const noexcept { return static_cast<T*>(_ptr); }

private:
    const Handle* _handle = nullptr;
    void* _ptr            = nullptr;
    std::size_t _bytes    = 0;
};

class Handle : public Object<miopenHandle, ObjectKind::Handle>
{
public:
    Handle() = default;
    explicit Handle(miopenAcceleratorQueue_t stream) : _stream(stream) {}

    miopenAcceleratorQueue_t stream() const noexcept { return _stream; }
    void setStream(miopenAcceleratorQueue_t s) noexcept { _stream = s; }

    void setAllocator(miopenAllocatorFunction alloc, miopenDeallocatorFunction dealloc, void* ctx);
    // Allocates through the user allocator (or the default one); throws AllocFailed on null.
    // Zero bytes gives an empty Allocation.
    Allocation allocate(std::size_t bytes) const;
    void deallocate(void* p) const noexcept;

    void enableProfiling(bool on) noexcept { _profiling = on; }
    bool isProfiling() const noexcept { return _profiling; }
    float kernelTimeMs() const noexcept { return _lastKernelMs; }
    void setKernelTimeMs(float ms) noexcept { _lastKernelMs = ms; }

private:
    miopenAcceleratorQueue_t _stream      = nullptr;
    miopenAllocatorFunction _allocator    = nullptr;
    miopenDeallocatorFunction _deallocator = nullptr;
    void* _allocatorContext               = nullptr;
    bool _profiling                       = false;
    float _lastKernelMs                   = 0.0f;
};

// Times a compute call and records it on the handle when profiling is enabled.
class KernelTimer
{
public:
    explicit KernelTimer(Handle& h) : _handle(h), _start(std::chrono::steady_clock::now()) {}
    ~KernelTimer()
    {
        if(_handle.isProfiling())
        {
            const auto d = std::chrono::steady_clock::now() - _start;
            _handle.setKernelTimeMs(std::chrono::duration<float, std::milli>(d).count());
        }
    }
    KernelTimer(const KernelTimer&) = delete;
    KernelTimer& operator=(const KernelTimer&) = delete;

private:
    Handle& _handle;
    std::chrono::steady_clock::time_point _start;
};

} // namespace miopen
