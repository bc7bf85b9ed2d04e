// HIPDNN_BACKEND_TENSOR_DESCRIPTOR: uid, data type, dims, strides (required), name, virtual flag,
// pass-by-value scalar, byte alignment.
#pragma once

#include "BackendDescriptor.hpp"

#include <hipdnn_data_sdk/flatbuffer_utilities/DataObjects.hpp>

#include <optional>
#include <vector>

namespace hipdnn_backend
{

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
