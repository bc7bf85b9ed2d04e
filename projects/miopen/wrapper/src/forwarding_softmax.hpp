// hipDNN forwarding of the softmax family (issue 11; forwarding_softmax.cpp, docs/wrapper.md
// "Softmax"): miopenSoftmaxForward[_V2] and miopenSoftmaxBackward[_V2] as composite graphs of
// reduction and pointwise nodes. Internal to libMIOpen.so.
#pragma once

#include <miopen/miopen.h>

namespace miopen {
namespace wrapper {
namespace fwd {

// One softmax call; the V1 calls pass ACCURATE and CHANNEL (upstream's defaults). Forward: x is
// read, y (`written`) written. Backward: y and dy are read, dx (`written`) written.
struct SmCall
{
    const char* entry = nullptr;
    bool backward     = false;
    miopenHandle_t handle = nullptr;
    const void* alpha = nullptr;
    const void* beta  = nullptr;
    miopenTensorDescriptor_t xDesc = nullptr, yDesc = nullptr, dyDesc = nullptr, dxDesc = nullptr;
    const void* x  = nullptr; // forward
    const void* y  = nullptr; // backward
    const void* dy = nullptr; // backward
    void* written  = nullptr;
    int algorithm  = MIOPEN_SOFTMAX_ACCURATE; // raw bits (the caller may pass a value outside the enum)
    int mode       = MIOPEN_SOFTMAX_MODE_CHANNEL;
};

// As tryForward (forwarding.hpp). Never throws.
bool tryForwardSoftmax(const SmCall& call, miopenStatus_t* status) noexcept;

} // namespace fwd
} // namespace wrapper
} // namespace miopen
