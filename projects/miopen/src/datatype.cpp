#include <miopen/datatype.hpp>
#include <miopen/errors.hpp>

#include <cstdint>
#include <string>

namespace miopen {

std::size_t dataTypeSize(miopenDataType_t type)
{
    switch(type)
    {
    case miopenHalf:
    case miopenBFloat16: return 2;
    case miopenFloat:
    case miopenInt32: return 4;
    case miopenInt8:
    case miopenFloat8:
    case miopenBFloat8: return 1;
    case miopenDouble:
    case miopenInt64: return 8;
    }
    fail(miopenStatusBadParm, "unknown data type " + std::to_string(static_cast<int>(type)));
}

const char* dataTypeName(miopenDataType_t type)
{
    switch(type)
    {
    case miopenHalf: return "FP16";
    case miopenFloat: return "FP32";
    case miopenInt32: return "INT32";
    case miopenInt8: return "INT8";
    case miopenBFloat16: return "BF16";
    case miopenDouble: return "FP64";
    case miopenFloat8: return "FP8";
    case miopenBFloat8: return "BFP8";
    case miopenInt64: return "INT64";
    }
    return "UNKNOWN";
}

bool isFloatingType(miopenDataType_t type)
{
    return type == miopenHalf || type == miopenBFloat16 || type == miopenFloat ||
           type == miopenDouble;
}

namespace {
template <class T>
T loadRaw(const void* base, std::size_t i)
{
    T v;
    std::memcpy(&v, static_cast<const unsigned char*>(base) + i * sizeof(T), sizeof(T));
    return v;
}
template <class T>
void storeRaw(void* base, std::size_t i, T v)
{
    std::memcpy(static_cast<unsigned char*>(base) + i * sizeof(T), &v, sizeof(T));
}

template <class T>
T saturate(double v, double lo, double hi)
{
    if(v != v)
        return T(0);
    if(v < lo)
        v = lo;
    if(v > hi)
        v = hi;
    return static_cast<T>(v < 0 ? v - 0.5 : v + 0.5); // round half away from zero
}
} // namespace

double loadAsDouble(miopenDataType_t type, const void* base, std::size_t i)
{
    switch(type)
    {
    case miopenHalf: return halfToFloat(loadRaw<std::uint16_t>(base, i));
    case miopenBFloat16: return bfloat16ToFloat(loadRaw<std::uint16_t>(base, i));
    case miopenFloat: return loadRaw<float>(base, i);
    case miopenDouble: return loadRaw<double>(base, i);
    case miopenInt32: return loadRaw<std::int32_t>(base, i);
    case miopenInt8: return loadRaw<std::int8_t>(base, i);
    case miopenInt64: return static_cast<double>(loadRaw<std::int64_t>(base, i));
    default: break;
    }
    fail(miopenStatusNotImplemented, std::string("loads of ") + dataTypeName(type));
}

void storeFromDouble(miopenDataType_t type, void* base, std::size_t i, double v)
{
    switch(type)
    {
    case miopenHalf: storeRaw(base, i, floatToHalf(static_cast<float>(v))); return;
    case miopenBFloat16: storeRaw(base, i, floatToBfloat16(static_cast<float>(v))); return;
    case miopenFloat: storeRaw(base, i, static_cast<float>(v)); return;
    case miopenDouble: storeRaw(base, i, v); return;
    case miopenInt32: storeRaw(base, i, saturate<std::int32_t>(v, -2147483648.0, 2147483647.0)); return;
    case miopenInt8: storeRaw(base, i, saturate<std::int8_t>(v, -128.0, 127.0)); return;
    case miopenInt64:
        storeRaw(base, i, saturate<std::int64_t>(v, -9.2233720368547758e18, 9.2233720368547748e18));
        return;
    default: break;
    }
    fail(miopenStatusNotImplemented, std::string("stores of ") + dataTypeName(type));
}

float loadAsFloat(miopenDataType_t type, const void* base, std::size_t i)
{
    switch(type)
    {
    case miopenHalf: return halfToFloat(loadRaw<std::uint16_t>(base, i));
    case miopenBFloat16: return bfloat16ToFloat(loadRaw<std::uint16_t>(base, i));
    case miopenFloat: return loadRaw<float>(base, i);
    default: return static_cast<float>(loadAsDouble(type, base, i));
    }
}

void storeFromFloat(miopenDataType_t type, void* base, std::size_t i, float v)
{
    switch(type)
    {
    case miopenHalf: storeRaw(base, i, floatToHalf(v)); return;
    case miopenBFloat16: storeRaw(base, i, floatToBfloat16(v)); return;
    case miopenFloat: storeRaw(base, i, v); return;
    default: storeFromDouble(type, base, i, static_cast<double>(v)); return;
    }
}

void convertToFloat(miopenDataType_t type, const void* src, float* dst, std::size_t n)
{
    switch(type)
    {
    case miopenFloat: std::memcpy(dst, src, n * sizeof(float)); return;
    case miopenHalf:
    {
        const auto* s = static_cast<const std::uint16_t*>(src);
        for(std::size_t i = 0; i < n; ++i)
            dst[i] = halfToFloat(s[i]);
        return;
    }
    case miopenBFloat16:
    {
        const auto* s = static_cast<const std::uint16_t*>(src);
        for(std::size_t i = 0; i < n; ++i)
            dst[i] = bfloat16ToFloat(s[i]);
        return;
    }
    default:
        for(std::size_t i = 0; i < n; ++i)
            dst[i] = loadAsFloat(type, src, i);
        return;
    }
}

void convertFromFloat(miopenDataType_t type, const float* src, void* dst, std::size_t n)
{
    switch(type)
    {
    case miopenFloat: std::memcpy(dst, src, n * sizeof(float)); return;
    case miopenHalf:
    {
        auto* d = static_cast<std::uint16_t*>(dst);
        for(std::size_t i = 0; i < n; ++i)
            d[i] = floatToHalf(src[i]);
        return;
    }
    case miopenBFloat16:
    {
        auto* d = static_cast<std::uint16_t*>(dst);
        for(std::size_t i = 0; i < n; ++i)
            d[i] = floatToBfloat16(src[i]);
        return;
    }
    default:
        for(std::size_t i = 0; i < n; ++i)
            storeFromFloat(type, dst, i, src[i]);
        return;
    }
}

} // namespace miopen
