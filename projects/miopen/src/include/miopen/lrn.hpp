// Local response normalization: the descriptor (mode, lrnN, alpha, beta, K) and the forward and
// backward operations. The public contract (formulas included) is in miopen.h (LRN section);
// every function validates all its arguments before it writes anything.
#pragma once

#include <miopen/handle.hpp>
#include <miopen/miopen.h>
#include <miopen/object.hpp>
#include <miopen/tensor.hpp>

#include <cstddef>
#include <string>

namespace miopen {

class LrnDescriptor : public Object<miopenLRNDescriptor, ObjectKind::Lrn>
{
public:
    LrnDescriptor() = default;

    // Throws BadParm (descriptor unchanged) for lrnN == 0.
    void set(miopenLRNMode_t mode, unsigned int n, double alpha, double beta, double k);

    bool isSet() const noexcept { return _isSet; }
    // Throws NotInitialized when the descriptor was never set.
    const LrnDescriptor& checkSet(const char* what) const;

    miopenLRNMode_t mode() const noexcept { return _mode; }
    unsigned int n() const noexcept { return _n; }
    double alpha() const noexcept { return _alpha; }
    double beta() const noexcept { return _beta; }
    double k() const noexcept { return _k; }

    // "{miopenLRNCrossChannel, N 5, alpha 0.0001, beta 0.75, K 1}" or "{unset}" (API logging).
    std::string toString() const;
    // MIOpenDriver flags reproducing a call on x (MIOPEN_ENABLE_LOGGING_CMD), as upstream's
    // LogCmdLRN: "lrn[fp16|bfp16] -A alpha -B beta -F 1|2 -H H -K k -N n -W W -c C -m <mode> -n N"
    // (-F 1 forward, 2 backward).
    std::string driverArgs(const TensorDescriptor& x, bool forward) const;

    // y = LRN(x); with saveScale, the per-element scales (one float each, packed N, C, H, W order)
    // go to workspace.
    void forward(const Handle& handle,
                 const TensorDescriptor& xDesc,
                 const void* x,
                 const TensorDescriptor& yDesc,
                 void* y,
                 bool saveScale,
                 void* workspace) const;

    // dx from y, dy, x and the scales a forward call saved.
    void backward(const Handle& handle,
                  const TensorDescriptor& yDesc,
                  const void* y,
                  const TensorDescriptor& dyDesc,
                  const void* dy,
                  const TensorDescriptor& xDesc,
                  const void* x,
                  const TensorDescriptor& dxDesc,
                  void* dx,
                  const void* workspace) const;

private:
    bool _isSet           = false;
    miopenLRNMode_t _mode = miopenLRNCrossChannel;
    unsigned int _n       = 0;
    double _alpha         = 0.0;
    double _beta          = 0.0;
    double _k             = 0.0;
};

// Bytes of the scale workspace for y: upstream's lengths[0] * strides[0] * sizeof(float), but
// never less than one float per element.
std::size_t lrnWorkspaceSize(const TensorDescriptor& y);

} // namespace miopen
