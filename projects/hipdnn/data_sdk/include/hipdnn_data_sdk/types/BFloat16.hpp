// bfloat16 storage type (the upper 16 bits of a float) with round-to-nearest-even conversion.
#pragma once

#include <cstdint>
#include <cstring>
#include <limits>

namespace hipdnn_data_sdk::types
{

class bfloat16
{
public:
    bfloat16() = default;
    bfloat16(float value) : _bits(fromFloat(value)) {} // NOLINT(google-explicit-constructor)
    explicit bfloat16(double value) : _bits(fromFloat(static_cast<float>(value))) {}
    explicit bfloat16(int value) : _bits(fromFloat(static_cast<float>(value))) {}

    operator float() const { return toFloat(_bits); } // NOLINT(google-explicit-constructor)

    static bfloat16 fromBits(uint16_t bits)
    {
        bfloat16 b;
        b._bits = bits;
        return b;
    }
    uint16_t bits() const { return _bits; }

    bfloat16& operator+=(bfloat16 o) { return *this = bfloat16(float(*this) + float(o)); }
    bfloat16& operator-=(bfloat16 o) { return *this = bfloat16(float(*this) - float(o)); }
    bfloat16& operator*=(bfloat16 o) { return *this = bfloat16(float(*this) * float(o)); }
    bfloat16& operator/=(bfloat16 o) { return *this = bfloat16(float(*this) / float(o)); }

    static uint16_t fromFloat(float value)
    {
        uint32_t f;
        std::memcpy(&f, &value, sizeof(f));
        if((f & 0x7fffffffu) > 0x7f800000u)
        {
            return static_cast<uint16_t>((f >> 16) | 0x40u); // quiet NaN
        }
        const uint32_t roundingBias = 0x7fffu + ((f >> 16) & 1u);
        return static_cast<uint16_t>((f + roundingBias) >> 16);
    }

    static float toFloat(uint16_t b)
    {
        const uint32_t f = static_cast<uint32_t>(b) << 16;
        float value;
        std::memcpy(&value, &f, sizeof(value));
        return value;
    }

private:
    uint16_t _bits = 0;
};

} // namespace hipdnn_data_sdk::types

namespace std
{
template <>
class numeric_limits<hipdnn_data_sdk::types::bfloat16>
{
public:
    static constexpr bool is_specialized = true;
    static constexpr bool is_integer = false;
    static constexpr bool has_infinity = true;
    static constexpr bool has_quiet_NaN = true;
    static constexpr int digits = 8;
    static hipdnn_data_sdk::types::bfloat16 epsilon() { return hipdnn_data_sdk::types::bfloat16::fromBits(0x3c00); }
    static hipdnn_data_sdk::types::bfloat16 max() { return hipdnn_data_sdk::types::bfloat16::fromBits(0x7f7f); }
    static hipdnn_data_sdk::types::bfloat16 lowest() { return hipdnn_data_sdk::types::bfloat16::fromBits(0xff7f); }
    static hipdnn_data_sdk::types::bfloat16 min() { return hipdnn_data_sdk::types::bfloat16::fromBits(0x0080); }
    static hipdnn_data_sdk::types::bfloat16 infinity() { return hipdnn_data_sdk::types::bfloat16::fromBits(0x7f80); }
    static hipdnn_data_sdk::types::bfloat16 quiet_NaN() { return hipdnn_data_sdk::types::bfloat16::fromBits(0x7fc0); }
};
} // namespace std
