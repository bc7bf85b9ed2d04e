// Helpers shared by the activation, batchnorm and fusion tests: element loads of the float types
// (exact, independent of the library's conversions), strided layouts and their logical indexing.
#pragma once

#include <miopen/miopen.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

namespace test {

inline float load(miopenDataType_t t, const void* p, std::size_t i)
{
    std::uint32_t bits;
    float f;
    switch(t)
    {
    case miopenFloat: return static_cast<const float*>(p)[i];
    case miopenBFloat16: bits = static_cast<std::uint32_t>(static_cast<const std::uint16_t*>(p)[i]) << 16; std::memcpy(&f, &bits, 4); return f;
    default:
    {
        const std::uint16_t h = static_cast<const std::uint16_t*>(p)[i];
        const int e = (h >> 10) & 0x1f, mnt = h & 0x3ff;
        const double v = e == 0 ? std::ldexp(mnt, -24) : std::ldexp(1024 + mnt, e - 25);
        return static_cast<float>((h & 0x8000) ? -v : v);
    }
    }
}

inline double tolerance(miopenDataType_t t) { return t == miopenFloat ? 2e-5 : (t == miopenHalf ? 4e-3 : 2e-2); }

struct Layout
{
    std::vector<int> lens, strides;
    std::size_t span() const
    {
        std::size_t s = 1;
        for(std::size_t i = 0; i < lens.size(); ++i)
            s += static_cast<std::size_t>(lens[i] - 1) * static_cast<std::size_t>(strides[i]);
        return s;
    }
    std::size_t offset(std::size_t flat) const
    {
        std::size_t off = 0;
        for(std::size_t i = lens.size(); i-- > 0;)
        {
            off += (flat % static_cast<std::size_t>(lens[i])) * static_cast<std::size_t>(strides[i]);
            flat /= static_cast<std::size_t>(lens[i]);
        }
        return off;
    }
};

// Packed (pad = 0) or padded (each dim's stride leaves `pad` extra elements) layouts.
inline Layout makeLayout(const std::vector<int>& lens, int pad)
{
    Layout l{lens, std::vector<int>(lens.size())};
    int s = 1;
    for(std::size_t i = lens.size(); i-- > 0;)
    {
        l.strides[i] = s;
        s *= lens[i] + (i + 1 == lens.size() ? pad : 0);
    }
    return l;
}


// Logical (row-major over lens) values of a strided tensor, as double.
inline std::vector<double> toDoubles(miopenDataType_t t, const void* p, const Layout& l)
{
    std::size_t n = 1;
    for(int v : l.lens)
        n *= static_cast<std::size_t>(v);
    std::vector<double> out(n);
    for(std::size_t i = 0; i < n; ++i)
        out[i] = load(t, p, l.offset(i));
    return out;
}

// Packed strides of lens (N, C, spatial...) stored channels-last (NHWC / NDHWC).
inline Layout channelsLast(const std::vector<int>& lens)
{
    Layout l{lens, std::vector<int>(lens.size())};
    int s = lens[1];
    l.strides[1] = 1;
    for(std::size_t i = lens.size(); i-- > 2;)
    {
        l.strides[i] = s;
        s *= lens[i];
    }
    l.strides[0] = s;
    return l;
}

} // namespace test
