// Convolution descriptor: geometry, mode, groups, attributes, find mode.
#pragma once

#include <miopen/object.hpp>
#include <miopen/tensor.hpp>

#include <string>
#include <vector>

namespace miopen {

class ConvolutionDescriptor : public Object<miopenConvolutionDescriptor, ObjectKind::Convolution>
{
public:
    ConvolutionDescriptor() = default;
    ConvolutionDescriptor(int spatialDim,
                          miopenConvolutionMode_t mode,
                          std::vector<int> pads,
                          std::vector<int> strides,
                          std::vector<int> dilations);

    // Validates (spatialDim 1..3, pads >= 0, strides/dilations >= 1, mode 0..3) and sets.
    // Group and depthwise modes map to miopenConvolution (the group count is separate).
    void init(int spatialDim,
              miopenConvolutionMode_t mode,
              const int* pads,
              const int* strides,
              const int* dilations);

    bool isSet() const noexcept { return _isSet; }
    const ConvolutionDescriptor& checkSet(const char* what) const;

    int spatialDim() const noexcept { return _spatialDim; }
    miopenConvolutionMode_t mode() const noexcept { return _mode; }
    bool isTranspose() const noexcept { return _mode == miopenTranspose; }
    const std::vector<int>& pads() const noexcept { return _pads; }
    const std::vector<int>& strides() const noexcept { return _strides; }
    const std::vector<int>& dilations() const noexcept { return _dilations; }
    const std::vector<int>& transposeOutputPads() const noexcept { return _transOutPads; }
    int groupCount() const noexcept { return _groupCount; }

    void setGroupCount(int g);
    void setTransposeOutputPads(int spatialDim, const int* adj);
    void setAttribute(miopenConvolutionAttrib_t attr, int value);
    int attribute(miopenConvolutionAttrib_t attr) const;
    bool isDeterministic() const noexcept;
    void setFindMode(int mode);
    int findMode() const noexcept { return _findMode; }

    // "{conv2d, miopenConvolution, pads 1x1, strides 1x1, dilations 1x1, groups 1}" (transpose:
    // also ", output pads 0x0"), or "{unset}" (API logging).
    std::string toString() const;

    // Output tensor of the forward operation (convolution, or transpose convolution) of x with
    // w, checking channel/group consistency. Throws BadParm on a mismatch.
    TensorDescriptor forwardOutputTensor(const TensorDescriptor& x,
                                         const TensorDescriptor& w,
                                         miopenDataType_t yType) const;
    std::vector<std::size_t> forwardOutputLengths(const TensorDescriptor& x,
                                                  const TensorDescriptor& w) const;

private:
    bool _isSet                    = false;
    int _spatialDim                = 2;
    miopenConvolutionMode_t _mode  = miopenConvolution;
    std::vector<int> _pads         = {0, 0};
    std::vector<int> _strides      = {1, 1};
    std::vector<int> _dilations    = {1, 1};
    std::vector<int> _transOutPads = {0, 0};
    int _groupCount                = 1;
    int _fp16AltImpl               = -1;
    int _deterministic             = 0;
    int _mathType                  = miopenMathDefault;
    int _findMode                  = 5; // miopenConvolutionFindModeDefault
};

} // namespace miopen
