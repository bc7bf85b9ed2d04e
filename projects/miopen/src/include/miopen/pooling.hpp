// Pooling: the descriptor (mode, window, padding, stride, index type, workspace index mode) and
// the forward and backward operations. The public contract is in miopen.h (Pooling section);
// every function validates all its arguments before it writes anything.
#pragma once

#include <miopen/handle.hpp>
#include <miopen/miopen.h>
#include <miopen/object.hpp>
#include <miopen/tensor.hpp>

#include <cstddef>
#include <string>
#include <vector>

namespace miopen {

class PoolingDescriptor : public Object<miopenPoolingDescriptor, ObjectKind::Pooling>
{
public:
    PoolingDescriptor() = default;

    // Validates (rank 2 or 3, window and stride >= 1, padding >= 0) and sets; as upstream, the
    // index type becomes uint8 and the index mode Mask (rank 2) or Image (rank 3). Throws BadParm
    // and leaves the descriptor unchanged on bad input.
    void set(miopenPoolingMode_t mode,
             const std::vector<int>& window,
             const std::vector<int>& pads,
             const std::vector<int>& strides);
    void setIndexType(miopenIndexType_t t) noexcept { _indexType = t; }
    void setWorkspaceIndexMode(miopenPoolingWorkspaceIndexMode_t m) noexcept { _indexMode = m; }

    bool isSet() const noexcept { return _isSet; }
    // Throws NotInitialized when the descriptor was never set.
    const PoolingDescriptor& checkSet(const char* what) const;

    miopenPoolingMode_t mode() const noexcept { return _mode; }
    miopenIndexType_t indexType() const noexcept { return _indexType; }
    miopenPoolingWorkspaceIndexMode_t indexMode() const noexcept { return _indexMode; }
    std::size_t spatialDims() const noexcept { return _window.size(); }
    const std::vector<int>& window() const noexcept { return _window; }
    const std::vector<int>& pads() const noexcept { return _pads; }
    const std::vector<int>& strides() const noexcept { return _strides; }

    // "{miopenPoolingMax, window 3x3, pads 1x1, strides 2x2, miopenIndexUint8,
    // miopenPoolingWorkspaceIndexMask}" or "{unset}" (API logging).
    std::string toString() const;
    // MIOpenDriver flags reproducing a call on x (MIOPEN_ENABLE_LOGGING_CMD), as upstream's
    // Pooling_logging_cmd: "pool[fp16|bfp16] -M <index mode> --input <lens>,<strides> [-Z d] -y h
    // -x w [-o pad_d] -p pad_h -q pad_w [-s stride_d] -v stride_h -u stride_w -m max|avg|avg_in
    // -F 1|0 -t 1" (-F 1 forward, 0 forward and backward), then "-I <index type>" when it is not
    // the default miopenIndexUint8.
    std::string driverArgs(const TensorDescriptor& x, bool forward) const;

    // Output lengths (N, C, spatial...) for input x. Throws BadParm unless x has rank
    // spatialDims() + 2.
    std::vector<std::size_t> outputLengths(const TensorDescriptor& x) const;

    // Bytes of the index workspace for output y: elements * index size for max pooling, else 0.
    std::size_t workspaceSize(const TensorDescriptor& y) const;

    // y = pool(x); with saveIndex and max mode, also the indices into workspace (>= workspaceSize
    // bytes). Only alpha == 1 and beta == 0 are supported (UnknownError otherwise, as upstream).
    void forward(const Handle& handle,
                 const void* alpha,
                 const TensorDescriptor& xDesc,
                 const void* x,
                 const void* beta,
                 const TensorDescriptor& yDesc,
                 void* y,
                 bool saveIndex,
                 void* workspace,
                 std::size_t workspaceBytes) const;

    // dx = d pool / dx applied to dy (dx overwritten); max mode reads the saved indices.
    void backward(const Handle& handle,
                  const void* alpha,
                  const TensorDescriptor& yDesc,
                  const TensorDescriptor& dyDesc,
                  const void* dy,
                  const TensorDescriptor& xDesc,
                  const void* beta,
                  const TensorDescriptor& dxDesc,
                  void* dx,
                  const void* workspace) const;

private:
    bool _isSet                                = false;
    miopenPoolingMode_t _mode                  = miopenPoolingMax;
    miopenIndexType_t _indexType               = miopenIndexUint8;
    miopenPoolingWorkspaceIndexMode_t _indexMode = miopenPoolingWorkspaceIndexMask;
    std::vector<int> _window;
    std::vector<int> _pads;
    std::vector<int> _strides;
};

// Size in bytes of one index of the given type (1, 2, 4, 8).
std::size_t indexTypeSize(miopenIndexType_t t);

} // namespace miopen
