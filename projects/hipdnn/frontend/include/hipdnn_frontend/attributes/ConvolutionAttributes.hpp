// Attributes of conv_fprop, conv_dgrad and conv_wgrad (padding, stride, dilation per spatial
// dimension; CROSS_CORRELATION by default).
#pragma once

#include <hipdnn_frontend/Types.hpp>

#include <string>
#include <vector>

namespace hipdnn_frontend::graph
{

template <typename Derived>
class ConvolutionAttributesBase
{
public:
    Derived& set_name(const std::string& name) { _name = name; return self(); }
    Derived& set_compute_data_type(DataType type) { _computeType = type; return self(); }
    /// Symmetric padding (pre = post).
    Derived& set_padding(const std::vector<int64_t>& padding)
    {
        _prePadding = padding;
        _postPadding = padding;
        return self();
    }
    Derived& set_pre_padding(const std::vector<int64_t>& padding) { _prePadding = padding; return self(); }
    Derived& set_post_padding(const std::vector<int64_t>& padding) { _postPadding = padding; return self(); }
    Derived& set_stride(const std::vector<int64_t>& stride) { _stride = stride; return self(); }
    Derived& set_dilation(const std::vector<int64_t>& dilation) { _dilation = dilation; return self(); }
    Derived& set_convolution_mode(ConvolutionMode mode) { _mode = mode; return self(); }

    const std::string& get_name() const { return _name; }
    DataType get_compute_data_type() const { return _computeType; }
    const std::vector<int64_t>& get_pre_padding() const { return _prePadding; }
    const std::vector<int64_t>& get_post_padding() const { return _postPadding; }
    const std::vector<int64_t>& get_stride() const { return _stride; }
    const std::vector<int64_t>& get_dilation() const { return _dilation; }
    ConvolutionMode get_convolution_mode() const { return _mode; }

private:
    Derived& self() { return static_cast<Derived&>(*this); }

    std::string _name;
    DataType _computeType = DataType::NOT_SET;
    std::vector<int64_t> _prePadding;
    std::vector<int64_t> _postPadding;
    std::vector<int64_t> _stride;
    std::vector<int64_t> _dilation;
    ConvolutionMode _mode = ConvolutionMode::CROSS_CORRELATION;
};

class ConvFpropAttributes : public ConvolutionAttributesBase<ConvFpropAttributes>
{
};
class ConvDgradAttributes : public ConvolutionAttributesBase<ConvDgradAttributes>
{
};
class ConvWgradAttributes : public ConvolutionAttributesBase<ConvWgradAttributes>
{
};

} // namespace hipdnn_frontend::graph
