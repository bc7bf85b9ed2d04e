#include "TensorDescriptor.hpp"

#include "AttributeIo.hpp"

#include <hipdnn_data_sdk/flatbuffer_utilities/DataTypeUtils.hpp>

#include <string>

namespace hipdnn_backend
{

namespace dobj = hipdnn_data_sdk::data_objects;

void TensorDescriptor::doSetAttribute(hipdnnBackendAttributeName_t name,
                                      hipdnnBackendAttributeType_t type,
                                      int64_t count,
                                      const void* values)
{
    switch(name)
    {
    case HIPDNN_ATTR_TENSOR_UNIQUE_ID:
        _uid = readScalar<int64_t>(name, type, HIPDNN_TYPE_INT64, count, values);
        return;
    case HIPDNN_ATTR_TENSOR_NAME_EXT:
    {
        const auto chars = readArray<char>(name, type, HIPDNN_TYPE_CHAR, count, values);
        _name.assign(chars.begin(), std::find(chars.begin(), chars.end(), '\0'));
        return;
    }
    case HIPDNN_ATTR_TENSOR_DATA_TYPE:
        _dataType = readDataType(name, type, count, values);
        return;
    case HIPDNN_ATTR_TENSOR_DIMENSIONS:
        _dims = readArray<int64_t>(name, type, HIPDNN_TYPE_INT64, count, values);
        return;
    case HIPDNN_ATTR_TENSOR_STRIDES:
        _strides = readArray<int64_t>(name, type, HIPDNN_TYPE_INT64, count, values);
        return;
    case HIPDNN_ATTR_TENSOR_IS_VIRTUAL:
        _virtual = readBool(name, type, count, values);
        return;
    case HIPDNN_ATTR_TENSOR_IS_RUNTIME_PASS_BY_VALUE_EXT:
        _runtimePassByValue = readBool(name, type, count, values);
        return;
    case HIPDNN_ATTR_TENSOR_BYTE_ALIGNMENT:
        _alignment = readScalar<int64_t>(name, type, HIPDNN_TYPE_INT64, count, values);
        throwIf(_alignment <= 0, HIPDNN_STATUS_BAD_PARAM, "byte alignment must be positive");
        return;
    case HIPDNN_ATTR_TENSOR_VALUE_EXT:
        expectCount(name, count, 1);
        if(type == HIPDNN_TYPE_FLOAT || type == HIPDNN_TYPE_DOUBLE)
        {
            _realValue = readReal(name, type, count, values);
        }
        else if(type == HIPDNN_TYPE_INT64)
        {
            _intValue = readScalar<int64_t>(name, type, HIPDNN_TYPE_INT64, count, values);
        }
        else if(type == HIPDNN_TYPE_INT32)
        {
            _intValue = readScalar<int32_t>(name, type, HIPDNN_TYPE_INT32, count, values);
        }
        else
        {
            throw HipdnnException(HIPDNN_STATUS_BAD_PARAM,
                                  "tensor value must be FLOAT, DOUBLE, INT32 or INT64");
        }
        _valueType = type;
        return;
    default:
        throwUnknownAttribute(name);
    }
}

void TensorDescriptor::doGetAttribute(hipdnnBackendAttributeName_t name,
                                      hipdnnBackendAttributeType_t type,
                                      int64_t requested,
                                      int64_t* count,
                                      void* values) const
{
    switch(name)
    {
    case HIPDNN_ATTR_TENSOR_UNIQUE_ID:
        writeScalar(name, type, HIPDNN_TYPE_INT64, requested, count, values, *_uid);
        return;
    case HIPDNN_ATTR_TENSOR_NAME_EXT:
        writeString(name, type, requested, count, values, _name);
        return;
    case HIPDNN_ATTR_TENSOR_DATA_TYPE:
        writeScalar(name, type, HIPDNN_TYPE_DATA_TYPE, requested, count, values,
                    fromWireDataType(*_dataType));
        return;
    case HIPDNN_ATTR_TENSOR_DIMENSIONS:
        writeArray(name, type, HIPDNN_TYPE_INT64, requested, count, values, _dims);
        return;
    case HIPDNN_ATTR_TENSOR_STRIDES:
        writeArray(name, type, HIPDNN_TYPE_INT64, requested, count, values, _strides);
        return;
    case HIPDNN_ATTR_TENSOR_IS_VIRTUAL:
        writeScalar(name, type, HIPDNN_TYPE_BOOLEAN, requested, count, values, _virtual);
        return;
    case HIPDNN_ATTR_TENSOR_IS_BY_VALUE:
        writeScalar(name, type, HIPDNN_TYPE_BOOLEAN, requested, count, values, _valueType.has_value());
        return;
    case HIPDNN_ATTR_TENSOR_BYTE_ALIGNMENT:
        writeScalar(name, type, HIPDNN_TYPE_INT64, requested, count, values, _alignment);
        return;
    default:
        throwUnknownAttribute(name);
    }
}

void TensorDescriptor::doFinalize()
{
    throwIf(!_uid.has_value(), HIPDNN_STATUS_BAD_PARAM, "tensor unique id is not set");
    throwIf(!_dataType.has_value(), HIPDNN_STATUS_BAD_PARAM,
            "tensor uid " + std::to_string(*_uid) + ": data type is not set");
    throwIf(_dims.empty(), HIPDNN_STATUS_BAD_PARAM,
            "tensor uid " + std::to_string(*_uid) + ": dimensions are not set");
    throwIf(_strides.size() != _dims.size(), HIPDNN_STATUS_BAD_PARAM,
            "tensor uid " + std::to_string(*_uid) + ": " + std::to_string(_strides.size())
                + " strides for " + std::to_string(_dims.size()) + " dimensions");
    for(size_t i = 0; i < _dims.size(); ++i)
    {
        throwIf(_dims[i] <= 0, HIPDNN_STATUS_BAD_PARAM,
                "tensor uid " + std::to_string(*_uid) + ": dimension " + std::to_string(i)
                    + " is not positive");
        throwIf(_strides[i] < 0, HIPDNN_STATUS_BAD_PARAM,
                "tensor uid " + std::to_string(*_uid) + ": stride " + std::to_string(i)
                    + " is negative");
    }
    throwIf(hipdnn_data_sdk::flatbuffer_utilities::dataTypeSize(*_dataType) == 0,
            HIPDNN_STATUS_NOT_SUPPORTED,
            "tensor uid " + std::to_string(*_uid) + ": data type "
                + hipdnn_data_sdk::flatbuffer_utilities::dataTypeName(*_dataType)
                + " has no byte size");
    throwIf(tensorSizeOverflows(_dims, _strides,
                                static_cast<int64_t>(hipdnn_data_sdk::flatbuffer_utilities::dataTypeSize(*_dataType))),
            HIPDNN_STATUS_BAD_PARAM,
            "tensor uid " + std::to_string(*_uid) + ": element count or byte size overflows int64");
    throwIf(_virtual && _valueType.has_value(), HIPDNN_STATUS_BAD_PARAM,
            "tensor uid " + std::to_string(*_uid) + " cannot be both virtual and pass-by-value");
}

flatbuffers::Offset<dobj::TensorAttributes>
    TensorDescriptor::serialize(flatbuffers::FlatBufferBuilder& fbb) const
{
    auto nameOffset = fbb.CreateString(_name);
    auto stridesOffset = fbb.CreateVector(_strides);
    auto dimsOffset = fbb.CreateVector(_dims);
    dobj::TensorValue valueType = dobj::TensorValue::NONE;
    flatbuffers::Offset<void> valueOffset;
    if(_valueType.has_value())
    {
        // Scalars are stored as structs inside the union.
        switch(*_dataType)
        {
        case dobj::DataType::HALF:
        {
            dobj::Float16Value v(static_cast<float>(_realValue));
            valueOffset = fbb.CreateStruct(v).Union();
            valueType = dobj::TensorValue::Float16Value;
            break;
        }
        case dobj::DataType::BFLOAT16:
        {
            dobj::BFloat16Value v(static_cast<float>(_realValue));
            valueOffset = fbb.CreateStruct(v).Union();
            valueType = dobj::TensorValue::BFloat16Value;
            break;
        }
        case dobj::DataType::DOUBLE:
        {
            dobj::Float64Value v(*_valueType == HIPDNN_TYPE_DOUBLE || *_valueType == HIPDNN_TYPE_FLOAT
                                     ? _realValue
                                     : static_cast<double>(_intValue));
            valueOffset = fbb.CreateStruct(v).Union();
            valueType = dobj::TensorValue::Float64Value;
            break;
        }
        case dobj::DataType::INT32:
        {
            dobj::Int32Value v(static_cast<int32_t>(_intValue));
            valueOffset = fbb.CreateStruct(v).Union();
            valueType = dobj::TensorValue::Int32Value;
            break;
        }
        case dobj::DataType::INT64:
        {
            dobj::Int64Value v(_intValue);
            valueOffset = fbb.CreateStruct(v).Union();
            valueType = dobj::TensorValue::Int64Value;
            break;
        }
        default:
        {
            dobj::Float32Value v(*_valueType == HIPDNN_TYPE_DOUBLE || *_valueType == HIPDNN_TYPE_FLOAT
                                     ? static_cast<float>(_realValue)
                                     : static_cast<float>(_intValue));
            valueOffset = fbb.CreateStruct(v).Union();
            valueType = dobj::TensorValue::Float32Value;
            break;
        }
        }
    }
    dobj::TensorAttributesBuilder builder(fbb);
    builder.add_uid(*_uid);
    builder.add_name(nameOffset);
    builder.add_data_type(*_dataType);
    builder.add_strides(stridesOffset);
    builder.add_dims(dimsOffset);
    builder.add_virtual_(_virtual);
    if(_valueType.has_value())
    {
        builder.add_value_type(valueType);
        builder.add_value(valueOffset);
    }
    builder.add_is_runtime_pass_by_value(_runtimePassByValue);
    builder.add_alignment(_alignment);
    return builder.Finish();
}

bool TensorDescriptor::sameAs(const TensorDescriptor& o) const
{
    return _uid == o._uid && _dataType == o._dataType && _dims == o._dims && _strides == o._strides
           && _virtual == o._virtual && _valueType == o._valueType && _realValue == o._realValue
           && _intValue == o._intValue;
}

} // namespace hipdnn_backend
