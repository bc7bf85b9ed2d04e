// Copies and fills between host and "device" memory (both host memory here), with HIP's argument
// checks: a device side must be a range of one live allocation or registration.
#pragma once

#include <hip/hip_runtime_api.h>

#include <cstddef>

namespace hip_host {

/// hipErrorInvalidHandle unless stream is the default stream or a live one.
hipError_t checkStream(hipStream_t stream);

/// hipMemcpy: size bytes from src to dst in direction kind.
hipError_t copy(void* dst, const void* src, std::size_t size, hipMemcpyKind kind);

/// hipMemcpy2D: height rows of width bytes, dpitch / spitch bytes apart.
hipError_t copy2D(void* dst, std::size_t dpitch, const void* src, std::size_t spitch, std::size_t width,
                  std::size_t height, hipMemcpyKind kind);

/// hipMemset / hipMemsetD8/16/32: count elements of elementSize bytes (1, 2 or 4) at dst set to
/// the element at pattern.
hipError_t fill(void* dst, const void* pattern, std::size_t elementSize, std::size_t count);

} // namespace hip_host
