// hipDNN forwarding of the activation and tensor-op families (forwarding_pointwise.cpp; docs/wrapper.md
// "Activation and tensor ops"): miopenActivationForward / miopenActivationBackward, miopenOpTensor and
// miopenScaleTensor as hipDNN pointwise graphs. Internal to libMIOpen.so.
#pragma once

#include <miopen/miopen.h>

namespace miopen {
namespace wrapper {
namespace fwd {

enum class PwOp
{
    ActivationForward,  // y = alpha * f(x) + beta * y
    ActivationBackward, // dx = alpha * f'(x) * dy + beta * dx
    OpTensor,           // C = op(alpha1 * A, alpha2 * B) + beta * C
    ScaleTensor,        // y = alpha * y
};

// One call of the two families, tensors in the roles below (unused ones null):
//   ActivationForward   a = x, c = y
//   ActivationBackward  a = dy, b = x, y = the forward output (read by Private only), c = dx
//   OpTensor            a = A, b = B, c = C
//   ScaleTensor         c = y (read and written), alpha of y's element type
struct PwCall
{
    const char* entry = nullptr;
    PwOp op           = PwOp::ActivationForward;
    miopenHandle_t handle = nullptr;
    miopenActivationDescriptor_t activ = nullptr;
    int tensorOp                       = 0; // the raw bits of miopenTensorOp_t
    const void* alpha  = nullptr;           // OpTensor: alpha1
    const void* alpha2 = nullptr;           // OpTensor only
    const void* beta   = nullptr;
    miopenTensorDescriptor_t aDesc = nullptr, bDesc = nullptr, yDesc = nullptr, cDesc = nullptr;
    const void* a = nullptr;
    const void* b = nullptr;
    const void* y = nullptr;
    void* c       = nullptr;
};

// true: the call took the hipDNN route and *status is its result. false: the caller serves it
// with miopenFoo_impl (routed to Private, declined, or arguments Private must judge). Never throws.
bool tryForwardPointwise(const PwCall& call, miopenStatus_t* status) noexcept;

} // namespace fwd
} // namespace wrapper
} // namespace miopen
