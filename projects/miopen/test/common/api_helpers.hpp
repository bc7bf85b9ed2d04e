// RAII wrappers and helpers for tests of the public C API.
#pragma once

#include <miopen/miopen.h>

#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

namespace test {

#define ASSERT_MIOPEN_OK(expr) ASSERT_EQ(miopenStatusSuccess, (expr)) << #expr
#define EXPECT_MIOPEN_OK(expr) EXPECT_EQ(miopenStatusSuccess, (expr)) << #expr

class Handle
{
public:
    Handle() { EXPECT_MIOPEN_OK(miopenCreate(&_h)); }
    ~Handle() { miopenDestroy(_h); }
    Handle(const Handle&) = delete;
    Handle& operator=(const Handle&) = delete;
    operator miopenHandle_t() const { return _h; }

private:
    miopenHandle_t _h = nullptr;
};

class Tensor
{
public:
    Tensor() { EXPECT_MIOPEN_OK(miopenCreateTensorDescriptor(&_d)); }
    Tensor(miopenDataType_t t, const std::vector<int>& lens, const std::vector<int>& strides) : Tensor()
    {
        EXPECT_MIOPEN_OK(miopenSetTensorDescriptor(_d, t, static_cast<int>(lens.size()), lens.data(),
                                                   strides.empty() ? nullptr : strides.data()));
    }
    ~Tensor() { miopenDestroyTensorDescriptor(_d); }
    Tensor(const Tensor&) = delete;
    Tensor& operator=(const Tensor&) = delete;
    operator miopenTensorDescriptor_t() const { return _d; }

private:
    miopenTensorDescriptor_t _d = nullptr;
};

class Conv
{
public:
    Conv() { EXPECT_MIOPEN_OK(miopenCreateConvolutionDescriptor(&_d)); }
    ~Conv() { miopenDestroyConvolutionDescriptor(_d); }
    Conv(const Conv&) = delete;
    Conv& operator=(const Conv&) = delete;
    operator miopenConvolutionDescriptor_t() const { return _d; }

private:
    miopenConvolutionDescriptor_t _d = nullptr;
};

// A byte buffer with guard bytes on both sides, to prove nothing is written outside it.
class GuardedBuffer
{
public:
    static constexpr std::size_t kGuard = 256;
    static constexpr unsigned char kCanary = 0xA5;

    explicit GuardedBuffer(std::size_t bytes) : _bytes(bytes), _storage(bytes + 2 * kGuard, kCanary) {}
    void* data() { return _storage.data() + kGuard; }
    const void* data() const { return _storage.data() + kGuard; }
    std::size_t size() const { return _bytes; }
    template <class T>
    T* as() { return reinterpret_cast<T*>(data()); }
    bool guardsIntact() const
    {
        for(std::size_t i = 0; i < kGuard; ++i)
            if(_storage[i] != kCanary || _storage[kGuard + _bytes + i] != kCanary)
                return false;
        return true;
    }
    std::vector<unsigned char> snapshot() const
    {
        return std::vector<unsigned char>(_storage.begin() + kGuard, _storage.begin() + static_cast<std::ptrdiff_t>(kGuard + _bytes));
    }

private:
    std::size_t _bytes;
    std::vector<unsigned char> _storage;
};

inline std::uint16_t floatToHalfBits(float f)
{
    // Round-to-nearest-even conversion for test data (values are in the normal range).
    std::uint32_t x;
    std::memcpy(&x, &f, 4);
    const std::uint32_t sign = (x >> 16) & 0x8000U;
    const int exp            = static_cast<int>((x >> 23) & 0xff) - 127 + 15;
    std::uint32_t mant       = x & 0x7fffffU;
    if(exp <= 0)
        return static_cast<std::uint16_t>(sign);
    std::uint32_t h          = (static_cast<std::uint32_t>(exp) << 10) | (mant >> 13);
    const std::uint32_t rest = mant & 0x1fffU;
    if(rest > 0x1000U || (rest == 0x1000U && (h & 1U)))
        ++h;
    return static_cast<std::uint16_t>(sign | h);
}

inline std::uint16_t floatToBf16Bits(float f)
{
    std::uint32_t x;
    std::memcpy(&x, &f, 4);
    x += 0x7fffU + ((x >> 16) & 1U);
    return static_cast<std::uint16_t>(x >> 16);
}

// Fills `n` elements of type t with uniform values in [-1, 1], exactly representable in t.
inline void fillRandom(miopenDataType_t t, void* p, std::size_t n, std::mt19937& rng)
{
    std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
    for(std::size_t i = 0; i < n; ++i)
    {
        const float v = dist(rng);
        switch(t)
        {
        case miopenFloat: static_cast<float*>(p)[i] = v; break;
        case miopenHalf: static_cast<std::uint16_t*>(p)[i] = floatToHalfBits(v); break;
        case miopenBFloat16: static_cast<std::uint16_t*>(p)[i] = floatToBf16Bits(v); break;
        case miopenInt8: static_cast<std::int8_t*>(p)[i] = static_cast<std::int8_t>(std::lround(v * 8.0f)); break;
        default: FAIL() << "fillRandom: unsupported type";
        }
    }
}

inline std::size_t typeSize(miopenDataType_t t)
{
    switch(t)
    {
    case miopenHalf:
    case miopenBFloat16: return 2;
    case miopenInt8: return 1;
    case miopenDouble: return 8;
    default: return 4;
    }
}

} // namespace test
