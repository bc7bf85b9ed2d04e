// hipDNN forwarding of the pooling family (issue 11; forwarding_pooling.cpp, docs/wrapper.md
// "Pooling"): miopenPoolingForward and miopenPoolingBackward as one resample node each.
// Internal to libMIOpen.so.
#pragma once

#include <miopen/miopen.h>

#include <cstddef>

namespace miopen {
namespace wrapper {
namespace fwd {

// One pooling call. Forward: x is read, y written. Backward: dy is read, dx written; y and x are
// the caller's (Private reads neither; their descriptors must match dy's and dx's lengths).
struct PoolCall
{
    const char* entry = nullptr;
    bool backward     = false;
    miopenHandle_t handle            = nullptr;
    miopenPoolingDescriptor_t pool   = nullptr;
    const void* alpha = nullptr;
    const void* beta  = nullptr;
    miopenTensorDescriptor_t xDesc = nullptr, yDesc = nullptr, dyDesc = nullptr, dxDesc = nullptr;
    const void* x  = nullptr;
    const void* y  = nullptr; // backward only (y itself is written by forward: `written`)
    const void* dy = nullptr;
    void* written  = nullptr; // y (forward) or dx (backward)
    bool doBackward = false;  // forward only
    void* workspace = nullptr;
    std::size_t workspaceSize = 0; // forward only
};

// As tryForward (forwarding.hpp): true when the call took the hipDNN route and *status is its
// result; false when the caller must serve it with the _impl. Never throws.
bool tryForwardPooling(const PoolCall& call, miopenStatus_t* status) noexcept;

} // namespace fwd
} // namespace wrapper
} // namespace miopen
