// IEEE 754 binary16 storage type with float conversions (round to nearest even, NaN and
// infinities preserved, subnormals handled). Arithmetic happens in float.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

namespace hipdnn_data_sdk::types
{

class half
{
public:
    half() = default;
    half(float value) : _bits(fromFloat(value)) {} // NOLINT(google-explicit-constructor)
    explicit half(double value) : _bits(fromFloat(static_cast<float>(value))) {}
    explicit half(int value) : _bits(fromFloat(static_cast<float>(value))) {}

    operator float() const { return toFloat(_bits); } // NOLINT(google-explicit-constructor)

    static half fromBits(uint16_t bits)
    {
        half h;
        h._bits = bits;
        return h;
    }
    uint16_t bits() const { return _bits; }

    half& operator+=(half o) { return *this = half(float(*this) + float(o)); }
    half& operator-=(half o) { return *this = half(float(*this) - float(o)); }
    half& operator*=(half o) { return *this = half(float(*this) * float(o)); }
    half& operator/=(half o) { return *this = half(float(*this) / float(o)); }

    static uint16_t fromFloat(float value)
    {
        uint32_t f;
        std::memcpy(&f, &value, sizeof(f));
        const uint32_t sign = (f >> 16) & 0x8000u;
        const uint32_t absBits = f & 0x7fffffffu;
        if(absBits >= 0x7f800000u)
        {
            // Inf stays Inf; NaN stays a quiet NaN.
            return static_cast<uint16_t>(sign | 0x7c00u | (absBits > 0x7f800000u ? 0x200u : 0u));
        }
        if(absBits >= 0x477ff000u)
        {
            // Rounds to a value >= 65520: overflow to infinity.
            return static_cast<uint16_t>(sign | 0x7c00u);
        }
        if(absBits < 0x38800000u)
        {
            // Result is subnormal (or zero) in half: scale into the 10-bit mantissa and round.
            if(absBits < 0x33000000u)
            {
                return static_cast<uint16_t>(sign); // below half of the smallest subnormal
            }
            // value = mantissa * 2^(exponent - 150); the half subnormal unit is 2^-24, so the
            // result is mantissa >> (126 - exponent), with exponent in [102, 112].
            const uint32_t exponent = absBits >> 23;
            const uint32_t mantissa = (absBits & 0x7fffffu) | 0x800000u;
            const uint32_t rshift = 126u - exponent;
            uint32_t result = mantissa >> rshift;
            const uint32_t remainder = mantissa & ((1u << rshift) - 1u);
            const uint32_t halfway = 1u << (rshift - 1u);
            if(remainder > halfway || (remainder == halfway && (result & 1u) != 0u))
            {
                ++result;
            }
            return static_cast<uint16_t>(sign | result);
        }
        // Normal: rebias exponent (127 -> 15) and round the 13 dropped mantissa bits.
        uint32_t result = ((absBits - 0x38000000u) >> 13);
        const uint32_t remainder = absBits & 0x1fffu;
        if(remainder > 0x1000u || (remainder == 0x1000u && (result & 1u) != 0u))
        {
            ++result; // may carry into the exponent, which is the correct rounding
        }
        return static_cast<uint16_t>(sign | result);
    }

    static float toFloat(uint16_t h)
    {
        const uint32_t sign = static_cast<uint32_t>(h & 0x8000u) << 16;
        const uint32_t exponent = (h >> 10) & 0x1fu;
        uint32_t mantissa = h & 0x3ffu;
        uint32_t f;
        if(exponent == 0)
        {
            if(mantissa == 0)
            {
                f = sign;
            }
            else
            {
                // Subnormal half: normalize.
                int e = -1;
                do
                {
                    ++e;
                    mantissa <<= 1;
                } while((mantissa & 0x400u) == 0);
                f = sign | (static_cast<uint32_t>(112 - e) << 23) | ((mantissa & 0x3ffu) << 13);
            }
        }
        else if(exponent == 0x1f)
        {
            f = sign | 0x7f800000u | (mantissa << 13);
        }
        else
        {
            f = sign | ((exponent + 112u) << 23) | (mantissa << 13);
        }
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
class numeric_limits<hipdnn_data_sdk::types::half>
{
public:
    static constexpr bool is_specialized = true;
    static constexpr bool is_integer = false;
    static constexpr bool has_infinity = true;
    static constexpr bool has_quiet_NaN = true;
    static constexpr int digits = 11;
    static hipdnn_data_sdk::types::half epsilon() { return hipdnn_data_sdk::types::half::fromBits(0x1400); }
    static hipdnn_data_sdk::types::half max() { return hipdnn_data_sdk::types::half::fromBits(0x7bff); }
    static hipdnn_data_sdk::types::half lowest() { return hipdnn_data_sdk::types::half::fromBits(0xfbff); }
    static hipdnn_data_sdk::types::half min() { return hipdnn_data_sdk::types::half::fromBits(0x0400); }
    static hipdnn_data_sdk::types::half infinity() { return hipdnn_data_sdk::types::half::fromBits(0x7c00); }
    static hipdnn_data_sdk::types::half quiet_NaN() { return hipdnn_data_sdk::types::half::fromBits(0x7e00); }
};
} // namespace std
