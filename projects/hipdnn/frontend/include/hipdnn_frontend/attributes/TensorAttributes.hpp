// A tensor of a frontend graph: uid, name, data type, dims, strides, virtual/output flags and an
// optional pass-by-value scalar.
#pragma once

#include <hipdnn_frontend/Types.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace hipdnn_frontend::graph
{

class TensorAttributes
{
public:
    TensorAttributes() = default;

    TensorAttributes& set_uid(int64_t uid)
    {
        _uid = uid;
        return *this;
    }
    TensorAttributes& clear_uid()
    {
        _uid.reset();
        return *this;
    }
    TensorAttributes& set_name(const std::string& name)
    {
        _name = name;
        return *this;
    }
    TensorAttributes& set_data_type(DataType type)
    {
        _dataType = type;
        return *this;
    }
    TensorAttributes& set_dim(const std::vector<int64_t>& dims)
    {
        _dims = dims;
        return *this;
    }
    TensorAttributes& set_stride(const std::vector<int64_t>& strides)
    {
        _strides = strides;
        return *this;
    }
    TensorAttributes& set_is_virtual(bool isVirtual)
    {
        _virtual = isVirtual;
        return *this;
    }
    /// An output is a non-virtual tensor the caller provides memory for.
    TensorAttributes& set_output(bool isOutput)
    {
        _virtual = !isOutput;
        return *this;
    }
    /// Makes the tensor a pass-by-value scalar (dims [1], not in the variant pack).
    TensorAttributes& set_value(float value)
    {
        _value = value;
        if(_dims.empty())
        {
            _dims = {1};
            _strides = {1};
        }
        if(_dataType == DataType::NOT_SET)
        {
            _dataType = DataType::FLOAT;
        }
        return *this;
    }

    bool has_uid() const { return _uid.has_value(); }
    int64_t get_uid() const { return _uid.value_or(0); }
    const std::string& get_name() const { return _name; }
    DataType get_data_type() const { return _dataType; }
    const std::vector<int64_t>& get_dim() const { return _dims; }
    const std::vector<int64_t>& get_stride() const { return _strides; }
    bool get_is_virtual() const { return _virtual; }
    const std::optional<float>& get_value() const { return _value; }
    bool get_is_pass_by_value() const { return _value.has_value(); }

private:
    std::optional<int64_t> _uid;
    std::string _name;
    DataType _dataType = DataType::NOT_SET;
    std::vector<int64_t> _dims;
    std::vector<int64_t> _strides;
    bool _virtual = false;
    std::optional<float> _value;
};

} // namespace hipdnn_frontend::graph
