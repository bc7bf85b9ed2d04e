// Helpers for the layer tests (pooling, softmax, LRN) through the public C API: host tensors of
// fp32/fp16/bf16 with arbitrary strides, read back as double for comparison with references
// written in plain loops.
#pragma once

#include "common/api_helpers.hpp"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

namespace test {

inline double halfBitsToDouble(std::uint16_t h)
{
    const int sign = (h >> 15) & 1;
    const int exp  = (h >> 10) & 0x1f;
    const int mant = h & 0x3ff;
    double v;
    if(exp == 0)
        v = std::ldexp(mant, -24);
    else if(exp == 31)
        v = mant ? NAN : INFINITY;
    else
        v = std::ldexp(mant + 1024, exp - 25);
    return sign ? -v : v;
}

inline double bf16BitsToDouble(std::uint16_t b)
{
    const std::uint32_t bits = static_cast<std::uint32_t>(b) << 16;
    float f;
    std::memcpy(&f, &bits, 4);
    return f;
}

// Packed strides for lengths given in N, C, spatial... order and a memory order "NCHW"-like
// (channels second) or "NHWC"-like (channels last).
inline std::vector<int> packedStrides(const std::vector<int>& lens, bool channelsLast)
{
    const std::size_t r = lens.size();
    std::vector<std::size_t> order; // memory order, outermost first
    order.push_back(0);
    if(!channelsLast)
        order.push_back(1);
    for(std::size_t i = 2; i < r; ++i)
        order.push_back(i);
    if(channelsLast)
        order.push_back(1);
    std::vector<int> strides(r);
    int s = 1;
    for(std::size_t k = r; k-- > 0;)
    {
        strides[order[k]] = s;
        s *= lens[order[k]];
    }
    return strides;
}

// A host tensor: descriptor values plus a guarded byte buffer spanning its element space. Empty
// strides mean packed, channels second.
class HostTensor
{
public:
    HostTensor(miopenDataType_t type, std::vector<int> lens, std::vector<int> strides)
        : _type(type), _lens(std::move(lens)),
          _strides(strides.empty() ? packedStrides(_lens, false) : std::move(strides)), _desc(_type, _lens, _strides),
          _buffer(space() * typeSize(_type))
    {
    }

    miopenDataType_t type() const { return _type; }
    const std::vector<int>& lens() const { return _lens; }
    const std::vector<int>& strides() const { return _strides; }
    miopenTensorDescriptor_t desc() const { return _desc; }
    void* data() { return _buffer.data(); }
    const void* data() const { return _buffer.data(); }
    GuardedBuffer& buffer() { return _buffer; }

    std::size_t space() const
    {
        std::size_t s = 1;
        for(std::size_t i = 0; i < _lens.size(); ++i)
            s += static_cast<std::size_t>(_lens[i] - 1) * static_cast<std::size_t>(_strides[i]);
        return s;
    }
    std::size_t count() const
    {
        std::size_t c = 1;
        for(int l : _lens)
            c *= static_cast<std::size_t>(l);
        return c;
    }
    // Offset of a multi-index (one entry per dimension).
    std::size_t offset(const std::vector<int>& idx) const
    {
        std::size_t o = 0;
        for(std::size_t i = 0; i < idx.size(); ++i)
            o += static_cast<std::size_t>(idx[i]) * static_cast<std::size_t>(_strides[i]);
        return o;
    }
    // The multi-index of the i-th element in packed (row-major over the lengths) order.
    std::vector<int> index(std::size_t i) const
    {
        std::vector<int> idx(_lens.size());
        for(std::size_t d = _lens.size(); d-- > 0;)
        {
            idx[d] = static_cast<int>(i % static_cast<std::size_t>(_lens[d]));
            i /= static_cast<std::size_t>(_lens[d]);
        }
        return idx;
    }

    double at(std::size_t off) const
    {
        const auto* p = static_cast<const unsigned char*>(_buffer.data());
        switch(_type)
        {
        case miopenFloat: {
            float f;
            std::memcpy(&f, p + off * 4, 4);
            return f;
        }
        case miopenHalf: {
            std::uint16_t h;
            std::memcpy(&h, p + off * 2, 2);
            return halfBitsToDouble(h);
        }
        case miopenBFloat16: {
            std::uint16_t b;
            std::memcpy(&b, p + off * 2, 2);
            return bf16BitsToDouble(b);
        }
        default: ADD_FAILURE() << "HostTensor: unsupported type"; return 0;
        }
    }
    double at(const std::vector<int>& idx) const { return at(offset(idx)); }

    void set(std::size_t off, float v)
    {
        auto* p = static_cast<unsigned char*>(_buffer.data());
        switch(_type)
        {
        case miopenFloat: std::memcpy(p + off * 4, &v, 4); break;
        case miopenHalf: {
            const std::uint16_t h = floatToHalfBits(v);
            std::memcpy(p + off * 2, &h, 2);
            break;
        }
        case miopenBFloat16: {
            const std::uint16_t b = floatToBf16Bits(v);
            std::memcpy(p + off * 2, &b, 2);
            break;
        }
        default: ADD_FAILURE() << "HostTensor: unsupported type";
        }
    }

    // Every addressed element uniform in [lo, hi] (representable in the type); gaps in the
    // element space are filled too, with the same distribution.
    void fill(std::mt19937& rng, float lo = -1.0f, float hi = 1.0f)
    {
        std::uniform_real_distribution<float> dist(lo, hi);
        for(std::size_t i = 0; i < space(); ++i)
            set(i, dist(rng));
    }

private:
    miopenDataType_t _type;
    std::vector<int> _lens;
    std::vector<int> _strides;
    Tensor _desc;
    GuardedBuffer _buffer;
};

// Tolerances for values of magnitude about 1 computed in fp32 and stored in `type`.
inline double tolerance(miopenDataType_t type)
{
    switch(type)
    {
    case miopenHalf: return 2e-3;
    case miopenBFloat16: return 1.6e-2;
    default: return 2e-5;
    }
}

inline bool near(double got, double want, double tol) { return std::fabs(got - want) <= tol * (1.0 + std::fabs(want)); }

inline const char* typeName(miopenDataType_t t)
{
    switch(t)
    {
    case miopenFloat: return "fp32";
    case miopenHalf: return "fp16";
    case miopenBFloat16: return "bf16";
    default: return "other";
    }
}

inline std::string lensString(const std::vector<int>& l)
{
    std::string s;
    for(std::size_t i = 0; i < l.size(); ++i)
        s += (i ? "x" : "") + std::to_string(l[i]);
    return s;
}

} // namespace test
