// Element access and strided iteration shared by the activation, batch normalization and fusion
// code: typed loads/stores for the float types (computation in float), and a parallel walk over
// tensors that share lengths but not strides.
#pragma once

#include <miopen/datatype.hpp>
#include <miopen/errors.hpp>
#include <miopen/float_storage.hpp>
#include <miopen/tensor.hpp>
#include <miopen/threading.hpp>

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace miopen {
namespace elementwise {

// Pointer-and-index accessors over the storage tags of float_storage.hpp (one conversion code).
template <class Tag>
struct StorageIo
{
    using Bits = typename Tag::Bits;
    static float load(const void* p, std::size_t i) noexcept { return Tag::load(static_cast<const Bits*>(p)[i]); }
    static void store(void* p, std::size_t i, float v) noexcept { static_cast<Bits*>(p)[i] = Tag::store(v); }
};
using FloatIo = StorageIo<storage::Fp32>;
using HalfIo  = StorageIo<storage::Fp16>;
using Bf16Io  = StorageIo<storage::Bf16>;

// Calls f(Io{}) with the accessor of a half, bfloat16 or float type; BadParm otherwise.
template <class F>
void visitFloatType(miopenDataType_t t, F&& f)
{
    switch(t)
    {
    case miopenFloat: f(FloatIo{}); return;
    case miopenHalf: f(HalfIo{}); return;
    case miopenBFloat16: f(Bf16Io{}); return;
    default: fail(miopenStatusBadParm, std::string("unsupported data type ") + dataTypeName(t) + " (half, bfloat16 or float expected)");
    }
}

inline bool isComputeType(miopenDataType_t t) noexcept
{
    return t == miopenFloat || t == miopenHalf || t == miopenBFloat16;
}

// Walks every index of `lens` and calls f(offsets) where offsets[k] is the element offset in the
// k-th stride set. The outer dimensions are split over the thread pool; the innermost one is a
// plain loop (f is called once per element with offsets advanced by the innermost strides).
template <std::size_t K, class F>
void forEachStrided(const std::vector<std::size_t>& lens,
                    const std::array<const std::vector<std::size_t>*, K>& strides,
                    F&& f,
                    std::size_t grainElements = 16384)
{
    const std::size_t rank  = lens.size();
    const std::size_t inner = lens[rank - 1];
    std::size_t outer       = 1;
    for(std::size_t d = 0; d + 1 < rank; ++d)
        outer *= lens[d];
    std::array<std::size_t, K> innerStride{};
    for(std::size_t k = 0; k < K; ++k)
        innerStride[k] = (*strides[k])[rank - 1];
    const std::size_t grain = inner == 0 ? 1 : std::max<std::size_t>(1, grainElements / inner);
    parallelFor(outer, [&](std::size_t begin, std::size_t end) {
        for(std::size_t o = begin; o < end; ++o)
        {
            std::array<std::size_t, K> off{};
            std::size_t rem = o;
            for(std::size_t d = rank - 1; d-- > 0;)
            {
                const std::size_t i = rem % lens[d];
                rem /= lens[d];
                for(std::size_t k = 0; k < K; ++k)
                    off[k] += i * (*strides[k])[d];
            }
            for(std::size_t e = 0; e < inner; ++e)
            {
                f(off);
                for(std::size_t k = 0; k < K; ++k)
                    off[k] += innerStride[k];
            }
        }
    }, grain);
}

// A float scalar in host memory (alpha/beta arguments); BadParm when p is null.
inline float hostScalar(const void* p, const char* what)
{
    check(p != nullptr, (std::string(what) + " is null").c_str());
    float v;
    std::memcpy(&v, p, sizeof v);
    return v;
}

} // namespace elementwise
} // namespace miopen
