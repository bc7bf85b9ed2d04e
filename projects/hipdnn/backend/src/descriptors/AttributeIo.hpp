// Reading attribute values passed to SetAttribute and writing values for GetAttribute, with the
// type and count checks every descriptor applies.
#pragma once

#include "BackendDescriptor.hpp"

#include <hipdnn_data_sdk/flatbuffer_utilities/DataObjects.hpp>

#include <cstdio>
#include <cstring>
#include <type_traits>
#include <string>
#include <vector>

namespace hipdnn_backend
{

inline std::string attributeLabel(hipdnnBackendAttributeName_t name)
{
    return "attribute " + std::to_string(static_cast<int>(name));
}

// The checks below build their message only when they fail (they run on every attribute call).
inline void expectType(hipdnnBackendAttributeName_t name,
                       hipdnnBackendAttributeType_t actual,
                       hipdnnBackendAttributeType_t expected)
{
    if(actual != expected)
    {
        throw HipdnnException(HIPDNN_STATUS_BAD_PARAM,
                              attributeLabel(name) + " has type " + std::to_string(static_cast<int>(expected))
                                  + ", got type " + std::to_string(static_cast<int>(actual)));
    }
}

inline void expectCount(hipdnnBackendAttributeName_t name, int64_t actual, int64_t expected)
{
    if(actual != expected)
    {
        throw HipdnnException(HIPDNN_STATUS_BAD_PARAM, attributeLabel(name) + " takes " + std::to_string(expected)
                                                           + " element(s), got " + std::to_string(actual));
    }
}

template <typename T>
T readScalar(hipdnnBackendAttributeName_t name,
             hipdnnBackendAttributeType_t type,
             hipdnnBackendAttributeType_t expected,
             int64_t count,
             const void* values)
{
    static_assert(!std::is_enum_v<T> && !std::is_same_v<T, bool>, "use readEnum / readBool");
    expectType(name, type, expected);
    expectCount(name, count, 1);
    T value;
    std::memcpy(&value, values, sizeof(T));
    return value;
}

/// An enum value from caller memory, range-checked before it is ever loaded as the enum.
template <typename E>
E readEnum(hipdnnBackendAttributeName_t name,
           hipdnnBackendAttributeType_t type,
           hipdnnBackendAttributeType_t expected,
           int64_t count,
           const void* values,
           long long lo,
           long long hi,
           const char* what)
{
    expectType(name, type, expected);
    expectCount(name, count, 1);
    std::underlying_type_t<E> raw;
    std::memcpy(&raw, values, sizeof(raw));
    if(static_cast<long long>(raw) < lo || static_cast<long long>(raw) > hi)
    {
        throw HipdnnException(HIPDNN_STATUS_BAD_PARAM,
                              std::string("invalid ") + what + " " + std::to_string(static_cast<long long>(raw)));
    }
    return static_cast<E>(raw);
}

/// A bool from caller memory: any non-zero byte is true.
inline bool readBool(hipdnnBackendAttributeName_t name,
                     hipdnnBackendAttributeType_t type,
                     int64_t count,
                     const void* values)
{
    expectType(name, type, HIPDNN_TYPE_BOOLEAN);
    expectCount(name, count, 1);
    unsigned char raw = 0;
    std::memcpy(&raw, values, 1);
    return raw != 0;
}

template <typename T>
std::vector<T> readArray(hipdnnBackendAttributeName_t name,
                         hipdnnBackendAttributeType_t type,
                         hipdnnBackendAttributeType_t expected,
                         int64_t count,
                         const void* values)
{
    expectType(name, type, expected);
    std::vector<T> out(static_cast<size_t>(count));
    if(count > 0)
    {
        std::memcpy(out.data(), values, sizeof(T) * static_cast<size_t>(count));
    }
    return out;
}

/// A float-like scalar given as FLOAT or DOUBLE.
inline double readReal(hipdnnBackendAttributeName_t name,
                       hipdnnBackendAttributeType_t type,
                       int64_t count,
                       const void* values)
{
    if(type == HIPDNN_TYPE_DOUBLE)
    {
        return readScalar<double>(name, type, HIPDNN_TYPE_DOUBLE, count, values);
    }
    return readScalar<float>(name, type, HIPDNN_TYPE_FLOAT, count, values);
}

/// One descriptor handle of the expected kind.
template <typename T>
std::shared_ptr<T> readDescriptor(hipdnnBackendAttributeName_t name,
                                  hipdnnBackendAttributeType_t type,
                                  int64_t count,
                                  const void* values,
                                  hipdnnBackendDescriptorType_t expected,
                                  bool requireFinalized = true)
{
    const auto handle = readScalar<hipdnnBackendDescriptor_t>(
        name, type, HIPDNN_TYPE_BACKEND_DESCRIPTOR, count, values);
    char label[40];
    std::snprintf(label, sizeof(label), "attribute %d", static_cast<int>(name));
    return DescriptorRegistry::getAs<T>(handle, expected, label, requireFinalized);
}

template <typename T>
void writeArray(hipdnnBackendAttributeName_t name,
                hipdnnBackendAttributeType_t type,
                hipdnnBackendAttributeType_t expected,
                int64_t requested,
                int64_t* count,
                void* values,
                const std::vector<T>& data)
{
    expectType(name, type, expected);
    if(count != nullptr)
    {
        *count = static_cast<int64_t>(data.size());
    }
    const size_t n = std::min(static_cast<size_t>(requested), data.size());
    if(n > 0)
    {
        std::memcpy(values, data.data(), n * sizeof(T));
    }
}

template <typename T>
void writeScalar(hipdnnBackendAttributeName_t name,
                 hipdnnBackendAttributeType_t type,
                 hipdnnBackendAttributeType_t expected,
                 int64_t requested,
                 int64_t* count,
                 void* values,
                 const T& value)
{
    expectType(name, type, expected);
    if(requested < 1)
    {
        throw HipdnnException(HIPDNN_STATUS_BAD_PARAM, attributeLabel(name) + " needs requestedElementCount >= 1");
    }
    if(count != nullptr)
    {
        *count = 1;
    }
    std::memcpy(values, &value, sizeof(T));
}

inline void writeString(hipdnnBackendAttributeName_t name,
                        hipdnnBackendAttributeType_t type,
                        int64_t requested,
                        int64_t* count,
                        void* values,
                        const std::string& text)
{
    expectType(name, type, HIPDNN_TYPE_CHAR);
    const int64_t needed = static_cast<int64_t>(text.size()) + 1;
    if(count != nullptr)
    {
        *count = needed;
    }
    if(requested > 0)
    {
        if(requested < needed)
        {
            throw HipdnnException(HIPDNN_STATUS_BAD_PARAM_SIZE_INSUFFICIENT,
                                  attributeLabel(name) + " needs " + std::to_string(needed) + " chars");
        }
        std::memcpy(values, text.c_str(), static_cast<size_t>(needed));
    }
}

using FbDataType = hipdnn_data_sdk::data_objects::DataType;

/// hipdnnDataType_t (C API numbering) -> wire DataType; BAD_PARAM for an invalid value.
inline FbDataType toWireDataType(hipdnnDataType_t type)
{
    switch(type)
    {
    case HIPDNN_DATA_FLOAT: return FbDataType::FLOAT;
    case HIPDNN_DATA_DOUBLE: return FbDataType::DOUBLE;
    case HIPDNN_DATA_HALF: return FbDataType::HALF;
    case HIPDNN_DATA_INT8: return FbDataType::INT8;
    case HIPDNN_DATA_INT32: return FbDataType::INT32;
    case HIPDNN_DATA_UINT8: return FbDataType::UINT8;
    case HIPDNN_DATA_BFLOAT16: return FbDataType::BFLOAT16;
    case HIPDNN_DATA_FP8_E4M3: return FbDataType::FP8_E4M3;
    case HIPDNN_DATA_FP8_E5M2: return FbDataType::FP8_E5M2;
    case HIPDNN_DATA_FP8_E8M0: return FbDataType::FP8_E8M0;
    case HIPDNN_DATA_FP4_E2M1: return FbDataType::FP4_E2M1;
    case HIPDNN_DATA_INT4: return FbDataType::INT4;
    case HIPDNN_DATA_FP6_E2M3_EXT: return FbDataType::FP6_E2M3;
    case HIPDNN_DATA_FP6_E3M2_EXT: return FbDataType::FP6_E3M2;
    case HIPDNN_DATA_INT64: return FbDataType::INT64;
    case HIPDNN_DATA_FP8_E4M3_FNUZ: return FbDataType::FP8_E4M3_FNUZ;
    case HIPDNN_DATA_FP8_E5M2_FNUZ: return FbDataType::FP8_E5M2_FNUZ;
    }
    throw HipdnnException(HIPDNN_STATUS_BAD_PARAM,
                          "invalid hipdnnDataType_t " + std::to_string(static_cast<int>(type)));
}

inline hipdnnDataType_t fromWireDataType(FbDataType type)
{
    for(int t = HIPDNN_DATA_FLOAT; t <= HIPDNN_DATA_FP8_E5M2_FNUZ; ++t)
    {
        if(toWireDataType(static_cast<hipdnnDataType_t>(t)) == type)
        {
            return static_cast<hipdnnDataType_t>(t);
        }
    }
    throw HipdnnException(HIPDNN_STATUS_BAD_PARAM, "data type is not set");
}

inline FbDataType readDataType(hipdnnBackendAttributeName_t name,
                               hipdnnBackendAttributeType_t type,
                               int64_t count,
                               const void* values)
{
    return toWireDataType(readEnum<hipdnnDataType_t>(name, type, HIPDNN_TYPE_DATA_TYPE, count, values,
                                                     HIPDNN_DATA_FLOAT, HIPDNN_DATA_FP8_E5M2_FNUZ,
                                                     "hipdnnDataType_t"));
}

} // namespace hipdnn_backend
