// Attributes of a pointwise node: the mode and its optional parameters.
#pragma once

#include <hipdnn_frontend/Types.hpp>

#include <optional>
#include <string>

namespace hipdnn_frontend::graph
{

class PointwiseAttributes
{
public:
    PointwiseAttributes& set_name(const std::string& name) { _name = name; return *this; }
    PointwiseAttributes& set_compute_data_type(DataType type) { _computeType = type; return *this; }
    PointwiseAttributes& set_mode(PointwiseMode mode) { _mode = mode; return *this; }
    PointwiseAttributes& set_relu_lower_clip(float v) { _reluLowerClip = v; return *this; }
    PointwiseAttributes& set_relu_upper_clip(float v) { _reluUpperClip = v; return *this; }
    PointwiseAttributes& set_relu_lower_clip_slope(float v) { _reluLowerClipSlope = v; return *this; }
    PointwiseAttributes& set_swish_beta(float v) { _swishBeta = v; return *this; }
    PointwiseAttributes& set_elu_alpha(float v) { _eluAlpha = v; return *this; }
    PointwiseAttributes& set_softplus_beta(float v) { _softplusBeta = v; return *this; }
    PointwiseAttributes& set_axis(int64_t axis) { _axis = axis; return *this; }

    const std::string& get_name() const { return _name; }
    DataType get_compute_data_type() const { return _computeType; }
    PointwiseMode get_mode() const { return _mode; }
    const std::optional<float>& get_relu_lower_clip() const { return _reluLowerClip; }
    const std::optional<float>& get_relu_upper_clip() const { return _reluUpperClip; }
    const std::optional<float>& get_relu_lower_clip_slope() const { return _reluLowerClipSlope; }
    const std::optional<float>& get_swish_beta() const { return _swishBeta; }
    const std::optional<float>& get_elu_alpha() const { return _eluAlpha; }
    const std::optional<float>& get_softplus_beta() const { return _softplusBeta; }
    const std::optional<int64_t>& get_axis() const { return _axis; }

private:
    std::string _name;
    DataType _computeType = DataType::NOT_SET;
    PointwiseMode _mode = PointwiseMode::NOT_SET;
    std::optional<float> _reluLowerClip;
    std::optional<float> _reluUpperClip;
    std::optional<float> _reluLowerClipSlope;
    std::optional<float> _swishBeta;
    std::optional<float> _eluAlpha;
    std::optional<float> _softplusBeta;
    std::optional<int64_t> _axis;
};

} // namespace hipdnn_frontend::graph
