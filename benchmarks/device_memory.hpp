// Device memory for the benchmarks, aligned as a MIOpen program gets it from hipMalloc: 256 bytes
// (hip-host's hipMalloc, like HIP's on AMD GPUs). std::vector's own storage is only 16-byte
// aligned (glibc places a large block 16 bytes into its first page), so every 64-byte vector
// access of a library would straddle two cache lines: on 2026-12-06 oneDNN's forward of
// ResNet-50's conv2_x 3x3 layer (N=32, fp32) ran 15.5 ms on such buffers and 12.0 ms on aligned
// ones, MIOpen's (pass-through) 15.2 and 13.0 ms; the engine ranking measures on aligned scratch
// tensors. hip-host's hipMalloc gives the same alignment; this allocator spares the benchmarks
// linking hip-host.
// Header-only.
#ifndef BENCHMARKS_DEVICE_MEMORY_HPP
#define BENCHMARKS_DEVICE_MEMORY_HPP

#include <algorithm>
#include <cstddef>
#include <cstdlib>
#include <new>
#include <vector>

namespace bench {

constexpr std::size_t kDeviceAlignment = 256;

template <class T>
struct DeviceAllocator
{
    using value_type = T;
    DeviceAllocator() = default;
    template <class U>
    DeviceAllocator(const DeviceAllocator<U>&) noexcept
    {
    }
    T* allocate(std::size_t n)
    {
        if(n > (static_cast<std::size_t>(-1) - kDeviceAlignment) / sizeof(T))
            throw std::bad_alloc();
        const std::size_t bytes =
            std::max(kDeviceAlignment, (n * sizeof(T) + kDeviceAlignment - 1) / kDeviceAlignment * kDeviceAlignment);
        void* p = std::aligned_alloc(kDeviceAlignment, bytes);
        if(p == nullptr)
            throw std::bad_alloc();
        return static_cast<T*>(p);
    }
    void deallocate(T* p, std::size_t) noexcept { std::free(p); }
    template <class U>
    bool operator==(const DeviceAllocator<U>&) const noexcept
    {
        return true;
    }
    template <class U>
    bool operator!=(const DeviceAllocator<U>&) const noexcept
    {
        return false;
    }
};

/// A std::vector in device-aligned memory.
template <class T>
using DeviceVector = std::vector<T, DeviceAllocator<T>>;

} // namespace bench

#endif // BENCHMARKS_DEVICE_MEMORY_HPP
