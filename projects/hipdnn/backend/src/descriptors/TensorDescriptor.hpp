// HIPDNN_BACKEND_TENSOR_DESCRIPTOR: uid, data type, dims, strides (required), name, virtual flag,
// pass-by-value scalar, byte alignment.
#pragma once

#include "BackendDescriptor.hpp"

#include <hipdnn_data_sdk/flatbuffer_utilities/DataObjects.hpp>

#include <optional>
#include <vector>

namespace hipdnn_backend
{

/// True when a tensor's element count or byte span (1 + sum (dim - 1) * stride, the larger of the
/// two, times the element size) overflows int64: engines size buffers and index with them.
/// Dims positive and strides non-negative are checked before.
template <typename Dims>
bool tensorSizeOverflows(const Dims& dims, const Dims& strides, int64_t elementBytes)
{
    int64_t elements = 1;
    int64_t span = 1;
    for(size_t i = 0; i < static_cast<size_t>(dims.size()); ++i)
    {
        int64_t reach = 0;
        const int64_t d = dims[static_cast<decltype(dims.size())>(i)];
        const int64_t s = strides[static_cast<decltype(dims.size())>(i)];
        if(__builtin_mul_overflow(elements, d, &elements) || __builtin_mul_overflow(d - 1, s, &reach)
           || __builtin_add_overflow(span, reach, &span))
        {
            return true;
        }
    }
    int64_t bytes = 0;
    return __builtin_mul_overflow(elements > span ? elements : span, elementBytes, &bytes);
}

class TensorDescriptor : public BackendDescriptor
{
public:
    TensorDescriptor()
        : BackendDescriptor(HIPDNN_BACKEND_TENSOR_DESCRIPTOR)
    {
    }

    int64_t uid() const { return _uid.value_or(0); }
    bool isVirtual() const { return _virtual; }
    /// Adds this tensor to a graph being serialized.
    flatbuffers::Offset<hipdnn_data_sdk::data_objects::TensorAttributes>
        serialize(flatbuffers::FlatBufferBuilder& fbb) const;
    /// True when both describe the same tensor (same uid, type, shape, flags, value).
    bool sameAs(const TensorDescriptor& other) const;

protected:
    void doSetAttribute(hipdnnBackendAttributeName_t name,
                        hipdnnBackendAttributeType_t type,
                        int64_t count,
                        const void* values) override;
    void doGetAttribute(hipdnnBackendAttributeName_t name,
                        hipdnnBackendAttributeType_t type,
                        int64_t requested,
                        int64_t* count,
                        void* values) const override;
    void doFinalize() override;

private:
    std::optional<int64_t> _uid;
    std::string _name;
    std::optional<hipdnn_data_sdk::data_objects::DataType> _dataType;
    std::vector<int64_t> _dims;
    std::vector<int64_t> _strides;
    bool _virtual = false;
    bool _runtimePassByValue = false;
    int64_t _alignment = 16;
    // Pass-by-value scalar: its attribute type and value.
    std::optional<hipdnnBackendAttributeType_t> _valueType;
    double _realValue = 0.0;
    int64_t _intValue = 0;
};

} // namespace hipdnn_backend
