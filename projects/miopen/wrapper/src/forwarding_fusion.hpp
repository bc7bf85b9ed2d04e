// hipDNN forwarding of the fusion-plan API (issue 11; docs/wrapper.md "Fusion plans").
//
// MIOpen Private's fusion plans and operator-argument objects are opaque to the wrapper, so the
// custom stubs of the fusion entry points (custom_stubs_fusion.cpp) keep the wrapper's own record
// of each: what a call created or set, written after Private accepted the call and forgotten when
// Private destroys the object. The records are kept only on the slow path (route word set); with
// forwarding disabled every fusion stub is one plain call of its _impl.
//
// miopenExecuteFusionPlan (a generated stub: FusionCall, forwarding.hpp) of a compiled plan then
// runs as ONE hipDNN graph:
//   convolution [-> bias] [-> activation]  ->  conv_fprop -> [pointwise ADD] -> [pointwise activation]
//   batchnorm inference -> activation      ->  batchnorm_inference_variance_ext -> pointwise activation
// Other plans (batchnorm training / backward, activation backward, a convolution with batchnorm,
// horizontal plans, ...) are declined to Private with a reason.
// Internal to libMIOpen.so.
#pragma once

#include <miopen/miopen.h>

namespace miopen {
namespace wrapper {
namespace fwd {
namespace fusion {

// ---- records (called by the stubs after Private returned miopenStatusSuccess) ------------------

enum class OpKind
{
    Conv,
    Bias,
    ActivForward,
    ActivBackward,
    BnInference,
    BnForward,
    BnBackward,
};

void onCreatePlan(miopenFusionPlanDescriptor_t plan, int direction, miopenTensorDescriptor_t input) noexcept;
void onDestroyPlan(miopenFusionPlanDescriptor_t plan) noexcept;
void onCompilePlan(miopenFusionPlanDescriptor_t plan, bool compiled) noexcept;

// One appended operator. `desc` is the weights (Conv), bias (Bias) or statistics (BnInference)
// descriptor; `conv` the convolution descriptor (Conv); `mode` the activation or batchnorm mode.
void onCreateOp(miopenFusionPlanDescriptor_t plan, miopenFusionOpDescriptor_t op, OpKind kind,
                miopenConvolutionDescriptor_t conv, miopenTensorDescriptor_t desc, int mode) noexcept;

void onCreateArgs(miopenOperatorArgs_t args) noexcept;
void onDestroyArgs(miopenOperatorArgs_t args) noexcept;

// The arguments of one operator; setting again replaces the record (as Private).
struct OpArgs
{
    bool hasAlpha = false;
    float alpha   = 1.0f; // the convolution's alpha scales its result (null means 1, as Private)
    const void* w     = nullptr; // Conv
    const void* bias  = nullptr; // Bias; BnInference: the batchnorm bias
    const void* scale = nullptr; // BnInference
    const void* mean  = nullptr;
    const void* var   = nullptr;
    double epsilon    = 0.0;
    double activAlpha = 0.0, activBeta = 0.0, activGamma = 0.0; // ActivForward
};
void onSetArgs(miopenOperatorArgs_t args, miopenFusionOpDescriptor_t op, const OpArgs& a) noexcept;

} // namespace fusion
} // namespace fwd
} // namespace wrapper
} // namespace miopen
