// Softmax forward and backward (algorithms ACCURATE, FAST, LOG; modes INSTANCE, CHANNEL). The
// public contract is in miopen.h (Softmax section); every function validates all its arguments
// before it writes anything.
#pragma once

#include <miopen/handle.hpp>
#include <miopen/miopen.h>
#include <miopen/tensor.hpp>

#include <string>

namespace miopen {

// y = alpha * softmax(x) + beta * y over the groups `mode` defines. alpha and beta point to
// floats; beta == 0 leaves y unread. y may be x itself.
void softmaxForward(const Handle& handle,
                    const void* alpha,
                    const void* beta,
                    const TensorDescriptor& xDesc,
                    const void* x,
                    const TensorDescriptor& yDesc,
                    void* y,
                    miopenSoftmaxAlgorithm_t algorithm,
                    miopenSoftmaxMode_t mode);

// MIOpenDriver flags reproducing a softmax call on x (dx for backward) (MIOPEN_ENABLE_LOGGING_CMD),
// as upstream's LogCmdSoftmax: "softmax[fp16|bfp16] -n N -c C -H H -W W -F 1|2 -a <algorithm>
// -m <mode> -A <alpha> -B <beta>" (alpha and beta as std::to_string of the floats; 1 and 0
// when null).
std::string softmaxDriverArgs(const TensorDescriptor& x,
                              miopenSoftmaxAlgorithm_t algorithm,
                              miopenSoftmaxMode_t mode,
                              const void* alpha,
                              const void* beta,
                              bool forward);

// dx = alpha * softmax'(y, dy) + beta * dx. dx may be dy itself.
void softmaxBackward(const Handle& handle,
                     const void* alpha,
                     const TensorDescriptor& yDesc,
                     const void* y,
                     const TensorDescriptor& dyDesc,
                     const void* dy,
                     const void* beta,
                     const TensorDescriptor& dxDesc,
                     void* dx,
                     miopenSoftmaxAlgorithm_t algorithm,
                     miopenSoftmaxMode_t mode);

} // namespace miopen
