// Tensor descriptor: data type, 1..8 lengths and strides (elements). Immutable after set, except
// by another set call.
#pragma once

#include <miopen/datatype.hpp>
#include <miopen/object.hpp>

#include <array>
#include <cstddef>
#include <iosfwd>
#include <string>
#include <vector>

namespace miopen {

constexpr int kMaxTensorDims = 8;

class TensorDescriptor : public Object<miopenTensorDescriptor, ObjectKind::Tensor>
{
public:
    TensorDescriptor() = default;
    // Packed (row-major) strides.
    TensorDescriptor(miopenDataType_t type, std::vector<std::size_t> lens);
    TensorDescriptor(miopenDataType_t type,
                     std::vector<std::size_t> lens,
                     std::vector<std::size_t> strides);

    // Validates and sets. Throws BadParm on bad rank, zero lengths or strides, overflow.
    void set(miopenDataType_t type, std::vector<std::size_t> lens, std::vector<std::size_t> strides);
    void setLayout(miopenDataType_t type, miopenTensorLayout_t layout, const std::vector<std::size_t>& lensNCHW);
    void setCastType(miopenDataType_t type) { _castType = type; _hasCastType = true; }

    bool isSet() const noexcept { return _isSet; }
    // Throws NotInitialized when the descriptor was never set.
    const TensorDescriptor& checkSet(const char* what) const;

    miopenDataType_t type() const noexcept { return _type; }
    std::size_t numDims() const noexcept { return _lens.size(); }
    const std::vector<std::size_t>& lens() const noexcept { return _lens; }
    const std::vector<std::size_t>& strides() const noexcept { return _strides; }
    std::size_t len(std::size_t i) const { return _lens.at(i); }
    std::size_t stride(std::size_t i) const { return _strides.at(i); }

    std::size_t elementCount() const noexcept;  // product of lengths
    std::size_t elementSpace() const noexcept;  // 1 + sum((len-1)*stride): elements spanned
    std::size_t numBytes() const noexcept;      // elementSpace * element size
    bool isPacked() const noexcept;             // row-major packed in the given dim order
    // The layout whose packed strides equal these strides ("NCHW", "NHWC", "NCDHW", "NDHWC",
    // or "" when none does). Length-1 dims are ignored in the comparison.
    std::string layoutString() const;
    bool isLayout(const char* layout) const;

    bool operator==(const TensorDescriptor& o) const noexcept
    {
        return _isSet == o._isSet && _type == o._type && _lens == o._lens && _strides == o._strides;
    }
    bool operator!=(const TensorDescriptor& o) const noexcept { return !(*this == o); }

    std::string toString() const; // "{FP32, 2x3x4x5, 60x20x5x1}"

private:
    bool _isSet             = false;
    miopenDataType_t _type  = miopenFloat;
    bool _hasCastType       = false;
    miopenDataType_t _castType = miopenFloat;
    std::vector<std::size_t> _lens;
    std::vector<std::size_t> _strides;
};

// N, C, H, W of a tensor as MIOpenDriver's 4-D flags (-n -c -H -W) describe it: for rank >= 2,
// N = len0, C = len1, W = the last length (1 for rank 2) and H = the product of the lengths in
// between (1 for rank 3); for rank 1, N = len0 and C = H = W = 1. Exact for rank 4; for other
// ranks the same element count with the same N and C (what the element-wise and per-channel
// drivers need).
std::array<std::size_t, 4> driverNchw(const TensorDescriptor& d);

// Strides of a packed tensor whose memory order is `layout` ("NCHW", "NHWC", ...), for lengths
// given in N, C, spatial... order.
std::vector<std::size_t> packedStridesForLayout(const std::vector<std::size_t>& lensNC,
                                                const std::string& layout);

} // namespace miopen
