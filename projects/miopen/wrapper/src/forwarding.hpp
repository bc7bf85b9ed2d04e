// hipDNN forwarding (RFC 4.4): the call record of each op family and the entry into the forwarding
// skeleton. The stubs of the forwarding set are generated (generator/policy.txt declares each
// entry point's family and which parameter fills which field of its record); when the route word
// is set, a stub packs its record and calls tryForward(), which decides the call's route
// (forwarding mode, MIOPEN_DISABLE_HIPDNN_FOR, argument validity, up-front declines) and, on the
// hipDNN route, runs the call as a cached hipDNN plan (forwarding_skeleton.hpp). A call that
// reached the hipDNN route is never retried on Private.
//
// Environment (read once per process, besides routing.hpp's):
//   HIPDNN_BACKEND_LIBRARY_PATH          directory of libhipdnn_backend.so.1, searched first
//   MIOPEN_HIPDNN_PLAN_CACHE_SIZE        plans kept per family (LRU), default 256
//   MIOPEN_HIPDNN_PREFERRED_ENGINE       engine name to rank first (diagnostics and tests)
//   MIOPEN_HIPDNN_COUNTERS_FILE          after every forwarding-set call, rewrite this file with
//                                        the per-entry counters and last route (tests)
//   MIOPEN_HIPDNN_TEST_NO_DEFAULT_SEARCH=1  test only: do not look next to libMIOpen.so
//
// Internal to libMIOpen.so (hidden visibility).
#pragma once

#include "forwarding_set.hpp" // generated: EntryId

#include <miopen/miopen.h>

#include <cstddef>
#include <cstdint>

namespace miopen {
namespace wrapper {
namespace fwd {

// ---- convolution (forwarding_convolution.cpp) --------------------------------------------------

enum class ConvOp
{
    Forward,
    BackwardData,
    BackwardWeights,
    BiasActivation,
};

// Tensors in MIOpen's regular roles: x (N, C, ...), w (K, C/G, ...), y (N, K, ...). The op writes
// y (Forward, BiasActivation), x (BackwardData) or w (BackwardWeights); the other two are read.
struct ConvolutionCall
{
    EntryId id{};
    ConvOp op      = ConvOp::Forward;
    bool immediate = false;
    miopenHandle_t handle          = nullptr;
    miopenTensorDescriptor_t xDesc = nullptr, wDesc = nullptr, yDesc = nullptr;
    const void* x = nullptr;
    const void* w = nullptr;
    const void* y = nullptr;
    void* written = nullptr;
    miopenConvolutionDescriptor_t conv = nullptr;
    const void* alpha = nullptr; // plain calls: alpha and beta; BiasActivation: alpha1
    const void* beta  = nullptr;
    int algo          = 0; // the raw bits of the direction's algorithm enumeration
    std::uint64_t solutionId  = 0;
    void* workspace           = nullptr;
    std::size_t workspaceSize = 0;
    // BiasActivation only.
    const void* alpha2                 = nullptr;
    miopenTensorDescriptor_t zDesc     = nullptr;
    const void* z                      = nullptr;
    miopenTensorDescriptor_t biasDesc  = nullptr;
    const void* bias                   = nullptr;
    miopenActivationDescriptor_t activ = nullptr;
};

// ---- batchnorm (forwarding_batchnorm.cpp) ------------------------------------------------------

enum class BnOp
{
    Inference, // miopenBatchNormalizationForwardInference[_V2]
    Training,  // miopenBatchNormalizationForwardTraining[_V2]
    Backward,  // miopenBatchNormalizationBackward[_V2]
};

// Backward: y/yDesc are dy, written/dxDesc dx.
struct BatchnormCall
{
    EntryId id{};
    BnOp op               = BnOp::Inference;
    miopenHandle_t handle = nullptr;
    int mode              = 0; // the raw bits of miopenBatchNormMode_t
    const void* alpha = nullptr; // Backward: alphaDataDiff / betaDataDiff
    const void* beta  = nullptr;
    const void* alphaParam = nullptr; // Backward only
    const void* betaParam  = nullptr;
    miopenTensorDescriptor_t xDesc = nullptr, yDesc = nullptr, dxDesc = nullptr;
    const void* x = nullptr;
    const void* y = nullptr; // Backward: dy
    void* written = nullptr; // y (forward) or dx (backward)
    miopenTensorDescriptor_t scaleDesc = nullptr, biasDesc = nullptr, meanDesc = nullptr, varDesc = nullptr;
    const void* scale = nullptr;
    const void* bias  = nullptr; // forward only
    void* dScale      = nullptr; // Backward only
    void* dBias       = nullptr;
    void* mean        = nullptr; // Inference: estimated mean; Training: running mean (read and written)
    void* variance    = nullptr; // Inference: estimated variance; Training: running variance
    void* savedMean   = nullptr; // Training: written; Backward: read
    void* savedInvVariance = nullptr;
    double expAvgFactor    = 0.0; // Training only
    double epsilon         = 0.0;
};

// ---- fusion plans (forwarding_fusion.cpp; the records of plans and arguments: forwarding_fusion.hpp)

struct FusionCall
{
    EntryId id{};
    miopenHandle_t handle               = nullptr;
    miopenFusionPlanDescriptor_t plan   = nullptr;
    miopenTensorDescriptor_t inputDesc  = nullptr;
    const void* input                   = nullptr;
    miopenTensorDescriptor_t outputDesc = nullptr;
    void* output                        = nullptr;
    miopenOperatorArgs_t args           = nullptr;
};

// ---- pooling (forwarding_pooling.cpp) ----------------------------------------------------------

// Forward: x is read, y written. Backward: dy is read, dx written; y and x are the caller's
// (Private reads neither; their descriptors must match dy's and dx's lengths).
struct PoolingCall
{
    EntryId id{};
    bool backward                  = false;
    miopenHandle_t handle          = nullptr;
    miopenPoolingDescriptor_t pool = nullptr;
    const void* alpha = nullptr;
    const void* beta  = nullptr;
    miopenTensorDescriptor_t xDesc = nullptr, yDesc = nullptr, dyDesc = nullptr, dxDesc = nullptr;
    const void* x  = nullptr;
    const void* y  = nullptr; // backward only (y itself is written by forward: `written`)
    const void* dy = nullptr;
    void* written  = nullptr; // y (forward) or dx (backward)
    bool doBackward           = false; // forward only
    void* workspace           = nullptr;
    std::size_t workspaceSize = 0; // forward only
};

// ---- softmax (forwarding_softmax.cpp) ----------------------------------------------------------

// Forward: x is read, y (`written`) written. Backward: y and dy are read, dx (`written`) written.
struct SoftmaxCall
{
    EntryId id{};
    bool backward         = false;
    miopenHandle_t handle = nullptr;
    const void* alpha     = nullptr;
    const void* beta      = nullptr;
    miopenTensorDescriptor_t xDesc = nullptr, yDesc = nullptr, dyDesc = nullptr, dxDesc = nullptr;
    const void* x  = nullptr; // forward
    const void* y  = nullptr; // backward
    const void* dy = nullptr; // backward
    void* written  = nullptr;
    int algorithm  = MIOPEN_SOFTMAX_ACCURATE; // raw bits (the caller may pass a value outside the enum)
    int mode       = MIOPEN_SOFTMAX_MODE_CHANNEL;
};

// ---- activation and tensor ops (forwarding_pointwise.cpp) --------------------------------------

enum class PwOp
{
    ActivationForward,  // y = alpha * f(x) + beta * y
    ActivationBackward, // dx = alpha * f'(x) * dy + beta * dx
    OpTensor,           // C = op(alpha1 * A, alpha2 * B) + beta * C
    ScaleTensor,        // y = alpha * y
};

// Tensors in the roles below (unused ones null):
//   ActivationForward   a = x, c = y
//   ActivationBackward  a = dy, b = x, y = the forward output (read by Private only), c = dx
//   OpTensor            a = A, b = B, c = C
//   ScaleTensor         c = y (read and written), alpha of y's element type
struct PointwiseCall
{
    EntryId id{};
    PwOp op               = PwOp::ActivationForward;
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

// true: the call took the hipDNN route and *status is its result (success or a translated hipDNN
// failure). false: the caller must serve it with miopenFoo_impl (routed to Private, declined, or
// arguments Private must judge). Never throws.
bool tryForward(const ConvolutionCall& call, miopenStatus_t* status) noexcept;
bool tryForward(const BatchnormCall& call, miopenStatus_t* status) noexcept;
bool tryForward(const FusionCall& call, miopenStatus_t* status) noexcept;
bool tryForward(const PoolingCall& call, miopenStatus_t* status) noexcept;
bool tryForward(const SoftmaxCall& call, miopenStatus_t* status) noexcept;
bool tryForward(const PointwiseCall& call, miopenStatus_t* status) noexcept;

// ---- wrapper state the hand-written stubs keep (forwarding_core.cpp) ---------------------------

// A handle is going away: drop the wrapper's state for it (its hipDNN handle, workspace).
void onDestroy(miopenHandle_t handle) noexcept;

// Kernel time of the handle's last compute call when it was forwarded (profiling on); false when
// Private's own time is the answer.
bool forwardedKernelTime(miopenHandle_t handle, float* time) noexcept;
void onEnableProfiling(miopenHandle_t handle, bool enable) noexcept;

// miopenGetLastForwardedError.
miopenStatus_t lastForwardedError(int* hipdnnStatus, const char** message) noexcept;

// "[hipDNN-forwarded] <text>" when the last forwarding-set call on this thread was forwarded and
// failed with `status`; nullptr otherwise.
const char* forwardedErrorString(miopenStatus_t status) noexcept;

} // namespace fwd
} // namespace wrapper
} // namespace miopen
