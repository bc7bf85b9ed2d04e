// Typed element access for the layer families (pooling, softmax, LRN): the storage types fp32,
// fp16 and bf16 as tag types, so inner loops load and store without a per-element switch.
// Arithmetic is always fp32; stores round to nearest even.
#pragma once

#include <miopen/datatype.hpp>
#include <miopen/errors.hpp>
#include <miopen/tensor.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace miopen {
namespace storage {

struct Fp32
{
    using Bits = float;
    static float load(Bits v) noexcept { return v; }
    static Bits store(float v) noexcept { return v; }
    static constexpr float kLowest = -3.40282347e+38f; // lowest finite fp32
};

struct Fp16
{
    using Bits = std::uint16_t;
    static float load(Bits v) noexcept { return halfToFloat(v); }
    static Bits store(float v) noexcept { return floatToHalf(v); }
    static constexpr float kLowest = -65504.0f; // lowest finite fp16
};

struct Bf16
{
    using Bits = std::uint16_t;
    static float load(Bits v) noexcept { return bfloat16ToFloat(v); }
    static Bits store(float v) noexcept { return floatToBfloat16(v); }
    static constexpr float kLowest = -3.38953139e+38f; // lowest finite bf16 (0xff7f)
};

// Calls f(Tag{}) for fp32, fp16 or bf16; other types throw NotImplemented naming `what`.
template <class F>
void visit(miopenDataType_t type, const char* what, F&& f)
{
    switch(type)
    {
    case miopenFloat: f(Fp32{}); return;
    case miopenHalf: f(Fp16{}); return;
    case miopenBFloat16: f(Bf16{}); return;
    default: break;
    }
    fail(miopenStatusNotImplemented,
         std::string(what) + " is not implemented for " + dataTypeName(type) +
             " (fp32, fp16 and bf16 are)");
}

} // namespace storage

// Throws BadParm unless every index tuple of `desc` names a different element (a sufficient test:
// sorted by stride, each dimension's stride is at least the span of the smaller ones). Outputs
// that alias themselves would make results depend on the order of writes.
inline void checkDistinctAddresses(const TensorDescriptor& desc, const char* what)
{
    std::vector<std::pair<std::size_t, std::size_t>> dims; // (stride, length)
    for(std::size_t i = 0; i < desc.numDims(); ++i)
        if(desc.len(i) > 1)
            dims.emplace_back(desc.stride(i), desc.len(i));
    std::sort(dims.begin(), dims.end());
    std::size_t span = 1; // elements spanned by the dimensions seen so far
    for(const auto& [stride, len] : dims)
    {
        if(stride < span)
            fail(miopenStatusBadParm, std::string(what) + " addresses some elements twice");
        span = stride * (len - 1) + span;
    }
}

} // namespace miopen
