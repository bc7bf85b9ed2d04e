// Shape arithmetic shared by the frontend (shape inference), the backend (validation) and the
// engines: packed strides and convolution output sizes.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace hipdnn_data_sdk::utilities
{

/// Row-major packed strides of `dims` (last dimension contiguous).
inline std::vector<int64_t> packedStrides(const std::vector<int64_t>& dims)
{
    std::vector<int64_t> strides(dims.size(), 1);
    for(size_t i = dims.size(); i-- > 1;)
    {
        strides[i - 1] = strides[i] * dims[i];
    }
    return strides;
}

/// Channels-last packed strides of an N,C,spatial... tensor (NHWC memory order).
inline std::vector<int64_t> channelsLastStrides(const std::vector<int64_t>& dims)
{
    std::vector<int64_t> strides(dims.size(), 1);
    if(dims.size() < 3)
    {
        return packedStrides(dims);
    }
    int64_t running = dims[1];
    for(size_t i = dims.size(); i-- > 2;)
    {
        strides[i] = running;
        running *= dims[i];
    }
    strides[0] = running;
    return strides;
}

inline int64_t elementCount(const std::vector<int64_t>& dims)
{
    int64_t n = 1;
    for(int64_t d : dims)
    {
        n *= d;
    }
    return n;
}

/// Number of elements a buffer must hold for dims/strides (max offset + 1).
inline int64_t spanElements(const std::vector<int64_t>& dims, const std::vector<int64_t>& strides)
{
    int64_t maxOffset = 0;
    for(size_t i = 0; i < dims.size() && i < strides.size(); ++i)
    {
        maxOffset += (dims[i] - 1) * strides[i];
    }
    return maxOffset + 1;
}

/// Output size of one spatial dimension of a convolution; <= 0 means the window does not fit
/// (also when a size computed on the way does not fit in int64_t: attributes of a serialized
/// graph are not bounded; found by the graph fuzzers).
inline int64_t convOutputDim(
    int64_t input, int64_t filter, int64_t prePad, int64_t postPad, int64_t stride, int64_t dilation)
{
    int64_t effectiveFilter = 0;
    int64_t span = 0;
    if(__builtin_mul_overflow(dilation, filter - 1, &effectiveFilter)
       || __builtin_add_overflow(effectiveFilter, 1, &effectiveFilter)
       || __builtin_add_overflow(input, prePad, &span) || __builtin_add_overflow(span, postPad, &span)
       || __builtin_sub_overflow(span, effectiveFilter, &span))
    {
        return 0;
    }
    if(span < 0 || stride <= 0)
    {
        return 0;
    }
    return span / stride + 1;
}

/// Output dims [N, K, out...] of a forward convolution of x [N, C, in...] with w [K, C/G, f...].
/// Throws std::invalid_argument when the shapes are inconsistent.
inline std::vector<int64_t> convForwardOutputDims(const std::vector<int64_t>& x,
                                                  const std::vector<int64_t>& w,
                                                  const std::vector<int64_t>& prePad,
                                                  const std::vector<int64_t>& postPad,
                                                  const std::vector<int64_t>& stride,
                                                  const std::vector<int64_t>& dilation)
{
    const size_t rank = x.size();
    if(rank < 3 || w.size() != rank)
    {
        throw std::invalid_argument("convolution needs x and w of equal rank >= 3 (got "
                                    + std::to_string(x.size()) + " and " + std::to_string(w.size())
                                    + ")");
    }
    const size_t spatial = rank - 2;
    if(prePad.size() != spatial || postPad.size() != spatial || stride.size() != spatial
       || dilation.size() != spatial)
    {
        throw std::invalid_argument("convolution padding/stride/dilation need "
                                    + std::to_string(spatial) + " entries each");
    }
    if(w[1] <= 0 || x[1] % w[1] != 0)
    {
        throw std::invalid_argument("input channels " + std::to_string(x[1])
                                    + " are not a multiple of filter channels " + std::to_string(w[1]));
    }
    const int64_t groups = x[1] / w[1];
    if(w[0] % groups != 0)
    {
        throw std::invalid_argument("output channels " + std::to_string(w[0])
                                    + " are not a multiple of the group count " + std::to_string(groups));
    }
    std::vector<int64_t> y = {x[0], w[0]};
    for(size_t i = 0; i < spatial; ++i)
    {
        if(stride[i] <= 0 || dilation[i] <= 0 || prePad[i] < 0 || postPad[i] < 0)
        {
            throw std::invalid_argument("convolution stride/dilation must be positive and padding "
                                        "non-negative");
        }
        const int64_t out = convOutputDim(x[i + 2], w[i + 2], prePad[i], postPad[i], stride[i], dilation[i]);
        if(out <= 0)
        {
            throw std::invalid_argument("convolution window does not fit spatial dimension "
                                        + std::to_string(i));
        }
        y.push_back(out);
    }
    return y;
}

} // namespace hipdnn_data_sdk::utilities
