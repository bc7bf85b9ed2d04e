// Batch normalization over dimension 1 of a rank >= 3 tensor (spatial and per-activation modes):
// forward training, forward inference, backward; float computation with double accumulation.
#pragma once

#include <miopen/handle.hpp>
#include <miopen/tensor.hpp>

#include <cstddef>
#include <initializer_list>
#include <string>
#include <vector>

namespace miopen {

// Valid miopenBatchNormMode_t values (PerActivation 0, Spatial 1), for checkedEnum.
inline constexpr std::initializer_list<int> kBatchNormModes = {0, 1};

// The descriptors of the four parameter tensors (V1 calls pass the same one four times).
// scale: bnScale (and resultBnScaleDiff); bias: bnBias (and resultBnBiasDiff); mean and var:
// running/estimated/saved mean and variance (or inverse variance) as the call defines them.
struct BnParamDescs
{
    const TensorDescriptor* scale;
    const TensorDescriptor* bias;
    const TensorDescriptor* mean;
    const TensorDescriptor* var;
};

// The parameter tensor shape for x and mode: float, 1xCx1.. (spatial) or 1xCxspatial.. packed.
TensorDescriptor deriveBnDescriptor(const TensorDescriptor& xDesc, miopenBatchNormMode_t mode);

void bnForwardTraining(const Handle& handle,
                       miopenBatchNormMode_t mode,
                       float alpha,
                       float beta,
                       const TensorDescriptor& xDesc,
                       const void* x,
                       const TensorDescriptor& yDesc,
                       void* y,
                       const BnParamDescs& params,
                       const void* scale,
                       const void* bias,
                       double expAvgFactor,
                       void* runningMean,
                       void* runningVar,
                       double epsilon,
                       void* savedMean,
                       void* savedInvVar);

// estimatedMean/estimatedVar null: batch statistics are used.
void bnForwardInference(const Handle& handle,
                        miopenBatchNormMode_t mode,
                        float alpha,
                        float beta,
                        const TensorDescriptor& xDesc,
                        const void* x,
                        const TensorDescriptor& yDesc,
                        void* y,
                        const BnParamDescs& params,
                        const void* scale,
                        const void* bias,
                        const void* estimatedMean,
                        const void* estimatedVar,
                        double epsilon);

// savedMean/savedInvVar both non-null: used; otherwise recomputed from x.
void bnBackward(const Handle& handle,
                miopenBatchNormMode_t mode,
                float alphaData,
                float betaData,
                float alphaParam,
                float betaParam,
                const TensorDescriptor& xDesc,
                const void* x,
                const TensorDescriptor& dyDesc,
                const void* dy,
                const TensorDescriptor& dxDesc,
                void* dx,
                const BnParamDescs& params,
                const void* scale,
                void* dScale,
                void* dBias,
                double epsilon,
                const void* savedMean,
                const void* savedInvVar);

// Inference as a per-feature affine map y = a[f] * x + b[f], where f = c (spatial) or
// c * S + s (per-activation; S = product of the spatial lengths, s the packed spatial index).
// Used by the fusion epilogues. Validates the parameter descriptors against xDesc.
struct BnAffine
{
    bool perActivation = false;
    std::size_t spatial = 1; // S
    std::vector<float> a, b;
};
BnAffine bnInferenceAffine(miopenBatchNormMode_t mode,
                           const TensorDescriptor& xDesc,
                           const BnParamDescs& params,
                           const void* scale,
                           const void* bias,
                           const void* estimatedMean,
                           const void* estimatedVar,
                           double epsilon);

// The call a MIOPEN_ENABLE_LOGGING_CMD line reproduces.
enum class BnDriverDirection
{
    ForwardTraining,
    ForwardInference,
    Backward,
};

// MIOpenDriver flags reproducing a batchnorm call (upstream's LogCmdBNorm):
//   "<base> -n N -c C [-D D] -H H -W W -m <mode> --forw 1|2|0 -b 0|1 [-s 1] [-r 1] --layout L"
// base: bnorm, bnormfp16, bnormbfp16 (x and meanDesc of one 16-bit type), bnormfp16fp32,
// bnormbfp16fp32 (16-bit x, float parameters). --forw 1 training, 2 inference, 0 with -b 1
// backward. -s 1: saved mean and inverse variance are given (training writes them, backward
// reads them); -r 1: running mean and variance are given (training updates them, inference reads
// them) -- the meaning of the driver's -s/--save and -r/--run flags (upstream's logger swaps the
// two letters). forBnDriver false: only " -n ... -m <mode>" (leading space), as upstream's fusion
// command (CBAInfer -F 2) appends them.
std::string bnDriverArgs(const TensorDescriptor& x,
                         const TensorDescriptor& meanDesc,
                         miopenBatchNormMode_t mode,
                         BnDriverDirection dir,
                         bool saved,
                         bool running,
                         bool forBnDriver = true);

// Checks that each parameter descriptor fits xDesc and mode (rank, lengths, float or x's type).
void checkBnParamDescs(miopenBatchNormMode_t mode, const TensorDescriptor& xDesc, const BnParamDescs& params);

} // namespace miopen
