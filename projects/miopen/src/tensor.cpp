#include <miopen/tensor.hpp>

#include <algorithm>
#include <limits>
#include <sstream>

namespace miopen {

namespace {

bool mulOverflows(std::size_t a, std::size_t b, std::size_t& out)
{
    if(a != 0 && b > std::numeric_limits<std::size_t>::max() / a)
        return true;
    out = a * b;
    return false;
}

// The tensor's element space must be addressable with signed 64-bit offsets.
constexpr std::size_t kMaxBytes = static_cast<std::size_t>(std::numeric_limits<std::int64_t>::max());

} // namespace

TensorDescriptor::TensorDescriptor(miopenDataType_t type, std::vector<std::size_t> lens)
{
    std::vector<std::size_t> strides(lens.size(), 1);
    for(std::size_t i = lens.size(); i-- > 1;)
        strides[i - 1] = strides[i] * std::max<std::size_t>(lens[i], 1);
    set(type, std::move(lens), std::move(strides));
}

TensorDescriptor::TensorDescriptor(miopenDataType_t type,
                                   std::vector<std::size_t> lens,
                                   std::vector<std::size_t> strides)
{
    set(type, std::move(lens), std::move(strides));
}

void TensorDescriptor::set(miopenDataType_t type,
                           std::vector<std::size_t> lens,
                           std::vector<std::size_t> strides)
{
    const std::size_t esize = dataTypeSize(type); // validates the type
    if(lens.empty() || lens.size() > static_cast<std::size_t>(kMaxTensorDims))
        fail(miopenStatusBadParm,
             "tensor rank must be 1.." + std::to_string(kMaxTensorDims) + ", got " +
                 std::to_string(lens.size()));
    if(strides.size() != lens.size())
        fail(miopenStatusBadParm, "tensor strides and lengths differ in count");
    std::size_t space = 1;
    std::size_t count = 1;
    for(std::size_t i = 0; i < lens.size(); ++i)
    {
        if(lens[i] == 0)
            fail(miopenStatusBadParm, "tensor length " + std::to_string(i) + " is zero");
        if(strides[i] == 0)
            fail(miopenStatusBadParm, "tensor stride " + std::to_string(i) + " is zero");
        std::size_t extent = 0;
        if(mulOverflows(lens[i] - 1, strides[i], extent) || space + extent < space ||
           mulOverflows(count, lens[i], count))
            fail(miopenStatusBadParm, "tensor size overflows");
        space += extent;
    }
    std::size_t bytes = 0;
    if(mulOverflows(space, esize, bytes) || bytes > kMaxBytes)
        fail(miopenStatusBadParm, "tensor byte size overflows");
    _type    = type;
    _lens    = std::move(lens);
    _strides = std::move(strides);
    _isSet   = true;
}

std::vector<std::size_t> packedStridesForLayout(const std::vector<std::size_t>& lensNC,
                                                const std::string& layout)
{
    // layout is a permutation of the letters of the canonical order "NC" + spatial letters.
    const std::size_t n = lensNC.size();
    std::string canonical;
    if(n == layout.size())
    {
        canonical = "NC";
        const std::string spatial = n == 3 ? "W" : n == 4 ? "HW" : n == 5 ? "DHW" : "";
        canonical += spatial;
    }
    if(canonical.size() != n || !std::is_permutation(canonical.begin(), canonical.end(), layout.begin()))
        fail(miopenStatusBadParm, "layout " + layout + " does not fit a " + std::to_string(n) + "-D tensor");
    std::vector<std::size_t> strides(n, 1);
    std::size_t running = 1;
    for(std::size_t pos = n; pos-- > 0;)
    {
        const std::size_t dim = canonical.find(layout[pos]);
        strides[dim]          = running;
        running *= lensNC[dim];
    }
    return strides;
}

void TensorDescriptor::setLayout(miopenDataType_t type,
                                 miopenTensorLayout_t layout,
                                 const std::vector<std::size_t>& lensNCHW)
{
    std::string name;
    switch(layout)
    {
    case miopenTensorNCHW: name = "NCHW"; break;
    case miopenTensorNHWC: name = "NHWC"; break;
    case miopenTensorNCDHW: name = "NCDHW"; break;
    case miopenTensorNDHWC: name = "NDHWC"; break;
    default:
        fail(miopenStatusBadParm,
             "tensor layout " + std::to_string(static_cast<int>(layout)) + " is not supported");
    }
    if(lensNCHW.size() != name.size())
        fail(miopenStatusBadParm,
             "layout " + name + " needs " + std::to_string(name.size()) + " lengths, got " +
                 std::to_string(lensNCHW.size()));
    for(auto l : lensNCHW)
        if(l == 0)
            fail(miopenStatusBadParm, "tensor length is zero");
    set(type, lensNCHW, packedStridesForLayout(lensNCHW, name));
}

const TensorDescriptor& TensorDescriptor::checkSet(const char* what) const
{
    if(!_isSet)
        fail(miopenStatusNotInitialized, std::string(what) + " was never set");
    return *this;
}

std::size_t TensorDescriptor::elementCount() const noexcept
{
    std::size_t c = 1;
    for(auto l : _lens)
        c *= l;
    return _lens.empty() ? 0 : c;
}

std::size_t TensorDescriptor::elementSpace() const noexcept
{
    if(_lens.empty())
        return 0;
    std::size_t s = 1;
    for(std::size_t i = 0; i < _lens.size(); ++i)
        s += (_lens[i] - 1) * _strides[i];
    return s;
}

std::size_t TensorDescriptor::numBytes() const noexcept
{
    return _isSet ? elementSpace() * dataTypeSize(_type) : 0;
}

bool TensorDescriptor::isPacked() const noexcept
{
    std::size_t expected = 1;
    for(std::size_t i = _lens.size(); i-- > 0;)
    {
        if(_lens[i] != 1 && _strides[i] != expected)
            return false;
        expected *= _lens[i];
    }
    return true;
}

bool TensorDescriptor::isLayout(const char* layout) const
{
    const std::string name(layout);
    if(!_isSet || name.size() != _lens.size())
        return false;
    std::vector<std::size_t> expected;
    try
    {
        expected = packedStridesForLayout(_lens, name);
    }
    catch(const Exception&)
    {
        return false;
    }
    for(std::size_t i = 0; i < _lens.size(); ++i)
        if(_lens[i] != 1 && _strides[i] != expected[i])
            return false;
    return true;
}

std::string TensorDescriptor::layoutString() const
{
    static const char* const kCandidates[] = {"NCHW", "NHWC", "NCDHW", "NDHWC", "NCW", "NWC"};
    for(const char* c : kCandidates)
        if(isLayout(c))
            return c;
    return "";
}

std::string TensorDescriptor::toString() const
{
    std::ostringstream ss;
    if(!_isSet)
        return "{unset}";
    ss << '{' << dataTypeName(_type) << ", ";
    for(std::size_t i = 0; i < _lens.size(); ++i)
        ss << (i ? "x" : "") << _lens[i];
    ss << ", ";
    for(std::size_t i = 0; i < _strides.size(); ++i)
        ss << (i ? "x" : "") << _strides[i];
    ss << '}';
    return ss.str();
}

std::array<std::size_t, 4> driverNchw(const TensorDescriptor& d)
{
    const auto& l = d.lens();
    if(l.empty())
        return {0, 0, 0, 0};
    if(l.size() == 1)
        return {l[0], 1, 1, 1};
    std::size_t h = 1;
    for(std::size_t i = 2; i + 1 < l.size(); ++i)
        h *= l[i];
    return {l[0], l[1], h, l.size() > 2 ? l.back() : 1};
}

} // namespace miopen
