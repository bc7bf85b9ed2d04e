// Attributes of the resample (pooling) nodes: Graph::resample (forward, optionally writing the
// max-pooling index tensor) and Graph::resample_bwd (the gradient, reading the index tensor for
// max pooling). Per spatial dimension: window, stride, pre/post padding (post defaults to pre).
#pragma once

#include <hipdnn_frontend/Types.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace hipdnn_frontend::graph
{

/// What forward and backward share.
template <typename Derived>
class ResampleAttributesBase
{
public:
    Derived& set_name(const std::string& name) { _name = name; return self(); }
    Derived& set_compute_data_type(DataType type) { _computeType = type; return self(); }
    Derived& set_resampling_mode(ResampleMode mode) { _mode = mode; return self(); }
    Derived& set_resample_mode(ResampleMode mode) { _mode = mode; return self(); }
    Derived& set_padding_mode(PaddingMode mode) { _paddingMode = mode; return self(); }
    Derived& set_window(std::vector<int64_t> window) { _window = std::move(window); return self(); }
    Derived& set_stride(std::vector<int64_t> stride) { _stride = std::move(stride); return self(); }
    Derived& set_pre_padding(std::vector<int64_t> padding) { _prePadding = std::move(padding); return self(); }
    Derived& set_post_padding(std::vector<int64_t> padding) { _postPadding = std::move(padding); return self(); }

    const std::string& get_name() const { return _name; }
    DataType get_compute_data_type() const { return _computeType; }
    ResampleMode get_resample_mode() const { return _mode; }
    PaddingMode get_padding_mode() const { return _paddingMode; }
    const std::vector<int64_t>& get_window() const { return _window; }
    const std::vector<int64_t>& get_stride() const { return _stride; }
    const std::vector<int64_t>& get_pre_padding() const { return _prePadding; }
    const std::vector<int64_t>& get_post_padding() const { return _postPadding; }

private:
    Derived& self() { return static_cast<Derived&>(*this); }

    std::string _name;
    DataType _computeType = DataType::NOT_SET;
    ResampleMode _mode = ResampleMode::NOT_SET;
    PaddingMode _paddingMode = PaddingMode::NOT_SET;
    std::vector<int64_t> _window, _stride, _prePadding, _postPadding;
};

class ResampleFwdAttributes : public ResampleAttributesBase<ResampleFwdAttributes>
{
public:
    /// Max pooling also outputs the index tensor (INT32, y's dims): the flattened spatial
    /// position of each chosen element in x (-1 for a padded position).
    ResampleFwdAttributes& set_generate_index(bool generate) { _generateIndex = generate; return *this; }
    bool get_generate_index() const { return _generateIndex; }

private:
    bool _generateIndex = false;
};

class ResampleBwdAttributes : public ResampleAttributesBase<ResampleBwdAttributes>
{
};

typedef ResampleFwdAttributes Resample_attributes;     // NOLINT(readability-identifier-naming)
typedef ResampleFwdAttributes Resample_fwd_attributes; // NOLINT(readability-identifier-naming)
typedef ResampleBwdAttributes Resample_bwd_attributes; // NOLINT(readability-identifier-naming)

} // namespace hipdnn_frontend::graph
