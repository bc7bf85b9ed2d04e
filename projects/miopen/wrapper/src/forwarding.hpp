// hipDNN forwarding of the convolution and batchnorm families (RFC 4.4, Phase 2; issue 9). The
// custom stubs of the forwarding set call tryForward() / tryForwardBatchnorm() when the route word
// is set; it decides the call's route (forwarding mode, MIOPEN_DISABLE_HIPDNN_FOR, argument
// validity, up-front declines), and on the hipDNN route translates the MIOpen descriptors into a
// hipDNN frontend graph, builds or reuses a cached plan and executes it. A call that reached the
// hipDNN route is never retried on Private.
//
// Environment (read once per process, besides routing.hpp's):
//   HIPDNN_BACKEND_LIBRARY_PATH          directory of libhipdnn_backend.so.1, searched first
//   MIOPEN_HIPDNN_PLAN_CACHE_SIZE        plans kept per family (LRU), default 256
//   MIOPEN_HIPDNN_PREFERRED_ENGINE       engine name to rank first (diagnostics and tests)
//   MIOPEN_HIPDNN_COUNTERS_FILE          after every forwarding-set call, rewrite this file with
//                                        the per-entry counters and last route (tests)
//   MIOPEN_HIPDNN_TEST_NO_DEFAULT_SEARCH=1  test only: do not look next to libMIOpen.so
#pragma once

#include <miopen/miopen.h>

#include <cstddef>
#include <cstdint>

namespace miopen {
namespace wrapper {
namespace fwd {

enum class Op
{
    Forward,
    BackwardData,
    BackwardWeights,
    BiasActivation,
};

// One call of the forwarding set, tensors in MIOpen's regular roles: x (N, C, ...),
// w (K, C/G, ...), y (N, K, ...). The op writes y (Forward, BiasActivation), x (BackwardData) or
// w (BackwardWeights); the other two are read.
struct ConvCall
{
    const char* entry = nullptr;
    Op op             = Op::Forward;
    bool immediate    = false;
    miopenHandle_t handle = nullptr;
    miopenTensorDescriptor_t xDesc = nullptr, wDesc = nullptr, yDesc = nullptr;
    const void* x = nullptr;
    const void* w = nullptr;
    const void* y = nullptr;
    void* written = nullptr;
    miopenConvolutionDescriptor_t conv = nullptr;
    const void* alpha = nullptr; // plain calls: alpha and beta; BiasActivation: alpha1
    const void* beta  = nullptr;
    int algo          = 0;
    std::uint64_t solutionId = 0;
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

// true: the call took the hipDNN route and *status is its result (success or a translated hipDNN
// failure). false: the caller must serve it with miopenFoo_impl (routed to Private, declined, or
// arguments Private must judge). Never throws.
bool tryForward(const ConvCall& call, miopenStatus_t* status) noexcept;

// ---- the batchnorm family (forwarding_batchnorm.cpp) -------------------------------------------

enum class BnOp
{
    Inference, // miopenBatchNormalizationForwardInference[_V2]
    Training,  // miopenBatchNormalizationForwardTraining[_V2]
    Backward,  // miopenBatchNormalizationBackward[_V2]
};

// One batchnorm call, with the V1 calls' single parameter descriptor passed as all four of the
// V2 ones (as Private does). Backward: y/yDesc are dy, written/dxDesc dx.
struct BnCall
{
    const char* entry = nullptr;
    BnOp op           = BnOp::Inference;
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
    const void* bias  = nullptr;      // forward only
    void* dScale      = nullptr;      // Backward only
    void* dBias       = nullptr;
    void* mean        = nullptr;      // Inference: estimated mean; Training: running mean (read and written)
    void* variance    = nullptr;      // Inference: estimated variance; Training: running variance
    void* savedMean   = nullptr;      // Training: written; Backward: read
    void* savedInvVariance = nullptr;
    double expAvgFactor = 0.0;        // Training only
    double epsilon      = 0.0;
};

bool tryForwardBatchnorm(const BnCall& call, miopenStatus_t* status) noexcept;

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
