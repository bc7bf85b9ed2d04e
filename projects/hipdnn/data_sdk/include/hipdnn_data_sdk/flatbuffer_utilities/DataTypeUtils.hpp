// Sizes and names of wire data types.
#pragma once

#include <hipdnn_data_sdk/flatbuffer_utilities/DataObjects.hpp>

#include <cstddef>

namespace hipdnn_data_sdk::flatbuffer_utilities
{

using hipdnn_data_sdk::data_objects::DataType;

/// Bytes per element, or 0 for UNSET and sub-byte types (which have no byte size).
inline size_t dataTypeSize(DataType type)
{
    switch(type)
    {
    case DataType::FLOAT: return 4;
    case DataType::HALF: return 2;
    case DataType::BFLOAT16: return 2;
    case DataType::DOUBLE: return 8;
    case DataType::UINT8: return 1;
    case DataType::INT32: return 4;
    case DataType::INT8: return 1;
    case DataType::FP8_E4M3:
    case DataType::FP8_E5M2:
    case DataType::FP8_E8M0:
    case DataType::FP8_E4M3_FNUZ:
    case DataType::FP8_E5M2_FNUZ: return 1;
    case DataType::INT64: return 8;
    default: return 0;
    }
}

inline const char* dataTypeName(DataType type)
{
    const char* name = hipdnn_data_sdk::data_objects::EnumNameDataType(type);
    return (name != nullptr && *name != '\0') ? name : "INVALID";
}

} // namespace hipdnn_data_sdk::flatbuffer_utilities
