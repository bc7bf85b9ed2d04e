// Element types: sizes, names, and float conversion for the reduced precisions. Computation on
// half and bfloat16 is done in fp32; stores round to nearest even.
#pragma once

#include <miopen/miopen.h>

#include <cstdint>
#include <cstring>
#include <string>

namespace miopen {

std::size_t dataTypeSize(miopenDataType_t type); // throws BadParm for unknown types
const char* dataTypeName(miopenDataType_t type); // "FP32", "FP16", "BF16", "INT8", ...
bool isFloatingType(miopenDataType_t type);      // half, bfloat16, float, double

inline float halfToFloat(std::uint16_t h) noexcept
{
    const std::uint32_t sign = (h & 0x8000U) << 16;
    std::uint32_t exp        = (h >> 10) & 0x1fU;
    std::uint32_t mant       = h & 0x3ffU;
    std::uint32_t bits;
    if(exp == 0)
    {
        if(mant == 0)
            bits = sign;
        else
        { // subnormal: normalise
            exp = 127 - 15 + 1;
            while((mant & 0x400U) == 0)
            {
                mant <<= 1;
                --exp;
            }
            mant &= 0x3ffU;
            bits = sign | (exp << 23) | (mant << 13);
        }
    }
    else if(exp == 0x1f)
        bits = sign | 0x7f800000U | (mant << 13);
    else
        bits = sign | ((exp + 127 - 15) << 23) | (mant << 13);
    float f;
    std::memcpy(&f, &bits, sizeof f);
    return f;
}

inline std::uint16_t floatToHalf(float f) noexcept
{
    std::uint32_t x;
    std::memcpy(&x, &f, sizeof x);
    const std::uint32_t sign = (x >> 16) & 0x8000U;
    const std::uint32_t absx = x & 0x7fffffffU;
    if(absx >= 0x7f800000U) // inf or nan
        return static_cast<std::uint16_t>(sign | 0x7c00U | (absx > 0x7f800000U ? 0x200U : 0U));
    if(absx >= 0x477ff000U) // rounds to >= 65520: overflow to inf
        return static_cast<std::uint16_t>(sign | 0x7c00U);
    if(absx < 0x38800000U)
    { // result is subnormal or zero: value * 2^24 rounded to nearest even
        float a;
        std::memcpy(&a, &absx, sizeof a);
        const float scaled = a * 16777216.0f; // exact
        auto q             = static_cast<std::uint32_t>(scaled);
        const float rem    = scaled - static_cast<float>(q);
        if(rem > 0.5f || (rem == 0.5f && (q & 1U)))
            ++q;
        return static_cast<std::uint16_t>(sign | q);
    }
    const std::uint32_t exp  = (absx >> 23) - 127 + 15;
    std::uint32_t mant       = absx & 0x7fffffU;
    std::uint32_t h          = (exp << 10) | (mant >> 13);
    const std::uint32_t rest = mant & 0x1fffU;
    if(rest > 0x1000U || (rest == 0x1000U && (h & 1U)))
        ++h; // may carry into the exponent, which is correct
    return static_cast<std::uint16_t>(sign | h);
}

inline float bfloat16ToFloat(std::uint16_t b) noexcept
{
    const std::uint32_t bits = static_cast<std::uint32_t>(b) << 16;
    float f;
    std::memcpy(&f, &bits, sizeof f);
    return f;
}

inline std::uint16_t floatToBfloat16(float f) noexcept
{
    std::uint32_t x;
    std::memcpy(&x, &f, sizeof x);
    if((x & 0x7fffffffU) > 0x7f800000U) // nan: keep it quiet
        return static_cast<std::uint16_t>((x >> 16) | 0x40U);
    const std::uint32_t lsb = (x >> 16) & 1U;
    x += 0x7fffU + lsb;
    return static_cast<std::uint16_t>(x >> 16);
}

// Loads element `i` of a buffer of `type` as float / stores a float into it.
float loadAsFloat(miopenDataType_t type, const void* base, std::size_t i);
void storeFromFloat(miopenDataType_t type, void* base, std::size_t i, float v);
double loadAsDouble(miopenDataType_t type, const void* base, std::size_t i);
void storeFromDouble(miopenDataType_t type, void* base, std::size_t i, double v);

// Converts n contiguous elements between types (float staging for the GEMM paths).
void convertToFloat(miopenDataType_t type, const void* src, float* dst, std::size_t n);
void convertFromFloat(miopenDataType_t type, const float* src, void* dst, std::size_t n);

} // namespace miopen
