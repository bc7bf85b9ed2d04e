#include "Transfers.hpp"

#include "HostRuntime.hpp"

#include <cstring>
#include <limits>

namespace hip_host {

namespace {

constexpr std::size_t kMaxSize = std::numeric_limits<std::size_t>::max();

// A C caller may pass any int as a hipMemcpyKind: it is checked as an int (loading a value outside
// the enumeration's range as the enum type is undefined in C++).
hipError_t checkKind(hipMemcpyKind kind)
{
    static_assert(sizeof(hipMemcpyKind) == sizeof(int), "hipMemcpyKind is an int-sized enum");
    int k = 0;
    std::memcpy(&k, &kind, sizeof k);
    switch(k)
    {
    case hipMemcpyHostToHost:
    case hipMemcpyHostToDevice:
    case hipMemcpyDeviceToHost:
    case hipMemcpyDeviceToDevice:
    case hipMemcpyDeviceToDeviceNoCU:
    case hipMemcpyDefault: return hipSuccess;
    default: return hipErrorInvalidMemcpyDirection;
    }
}

bool dstIsDevice(hipMemcpyKind kind)
{
    return kind == hipMemcpyHostToDevice || kind == hipMemcpyDeviceToDevice || kind == hipMemcpyDeviceToDeviceNoCU;
}

bool srcIsDevice(hipMemcpyKind kind)
{
    return kind == hipMemcpyDeviceToHost || kind == hipMemcpyDeviceToDevice || kind == hipMemcpyDeviceToDeviceNoCU;
}

// The pointer checks of a copy touching `dstExtent` bytes at dst and `srcExtent` bytes at src: a
// "device" side must be a range of one live allocation (hipMemcpyDefault infers the direction,
// so any pointers go).
hipError_t checkSides(void* dst, std::size_t dstExtent, const void* src, std::size_t srcExtent, hipMemcpyKind kind)
{
    if(dst == nullptr || src == nullptr)
        return hipErrorInvalidValue;
    const auto& rt = HostRuntime::instance();
    if((dstIsDevice(kind) && !rt.isDeviceRange(dst, dstExtent)) || (srcIsDevice(kind) && !rt.isDeviceRange(src, srcExtent)))
        return hipErrorInvalidValue;
    return hipSuccess;
}

// Bytes a pitched region of `height` rows of `width` bytes spans; false on overflow.
bool pitchedExtent(std::size_t pitch, std::size_t width, std::size_t height, std::size_t* extent)
{
    const std::size_t rows = height - 1;
    if(rows != 0 && pitch > (kMaxSize - width) / rows)
        return false;
    *extent = pitch * rows + width;
    return true;
}

} // namespace

hipError_t checkStream(hipStream_t stream)
{
    return HostRuntime::instance().isStream(stream) ? hipSuccess : hipErrorInvalidHandle;
}

hipError_t copy(void* dst, const void* src, std::size_t size, hipMemcpyKind kind)
{
    hipError_t st = checkKind(kind);
    if(st != hipSuccess || size == 0)
        return st;
    st = checkSides(dst, size, src, size, kind);
    if(st == hipSuccess)
        std::memmove(dst, src, size);
    return st;
}

hipError_t copy2D(void* dst, std::size_t dpitch, const void* src, std::size_t spitch, std::size_t width,
                  std::size_t height, hipMemcpyKind kind)
{
    hipError_t st = checkKind(kind);
    if(st != hipSuccess || width == 0 || height == 0)
        return st;
    if(width > dpitch || width > spitch)
        return hipErrorInvalidPitchValue;
    std::size_t dstExtent = 0, srcExtent = 0;
    if(!pitchedExtent(dpitch, width, height, &dstExtent) || !pitchedExtent(spitch, width, height, &srcExtent))
        return hipErrorInvalidValue;
    st = checkSides(dst, dstExtent, src, srcExtent, kind);
    if(st != hipSuccess)
        return st;
    auto* d       = static_cast<unsigned char*>(dst);
    const auto* s = static_cast<const unsigned char*>(src);
    for(std::size_t row = 0; row < height; ++row)
        std::memmove(d + row * dpitch, s + row * spitch, width);
    return hipSuccess;
}

hipError_t fill(void* dst, const void* pattern, std::size_t elementSize, std::size_t count)
{
    if(count == 0)
        return hipSuccess;
    if(count > kMaxSize / elementSize)
        return hipErrorInvalidValue;
    const std::size_t bytes = count * elementSize;
    if(!HostRuntime::instance().isDeviceRange(dst, bytes))
        return hipErrorInvalidValue;
    auto* d = static_cast<unsigned char*>(dst);
    if(elementSize == 1)
    {
        std::memset(d, *static_cast<const unsigned char*>(pattern), bytes);
        return hipSuccess;
    }
    // The first element, then doubling copies of what is already written.
    std::memcpy(d, pattern, elementSize);
    std::size_t done = elementSize;
    while(done < bytes)
    {
        const std::size_t n = done < bytes - done ? done : bytes - done;
        std::memcpy(d + done, d, n);
        done += n;
    }
    return hipSuccess;
}

} // namespace hip_host
