// Random convolution geometry shared by the MIOpen provider tests.
#pragma once

#include "MiopenTestHelpers.hpp"

#include <hipdnn_test_sdk/utilities/CpuFpReferenceConvolution.hpp>

#include <numeric>

namespace miopen_provider_tests
{

/// A random convolution MIOpen can express: 1-D, 2-D or 3-D, plain / grouped / depthwise,
/// strides, dilations, symmetric padding, packed or channels-last tensors.
struct ConvCase
{
    std::vector<int64_t> x, w, y;
    tu::ConvolutionParams p;
    bool xLast = false, wLast = false, yLast = false;
    int64_t groups = 1;
    std::string text;
};

inline ConvCase randomConv(CaseRng& r, bool sameLayout = false)
{
    ConvCase c;
    const int64_t pickSpatial = r.pick(0, 5);
    const size_t spatial = pickSpatial == 0 ? 3 : (pickSpatial == 1 ? 1 : 2);
    const int64_t kind = r.pick(0, 2); // 0 plain, 1 grouped, 2 depthwise
    const int64_t n = r.pick(1, 2);
    const int64_t cPerGroup = kind == 2 ? 1 : r.pick(1, 4);
    c.groups = kind == 0 ? 1 : (kind == 1 ? r.pick(2, 3) : r.pick(2, 8));
    const int64_t kPerGroup = kind == 2 ? r.pick(1, 2) : r.pick(1, 4);
    c.x = {n, c.groups * cPerGroup};
    c.w = {c.groups * kPerGroup, cPerGroup};
    c.y = {n, c.groups * kPerGroup};
    for(size_t s = 0; s < spatial; ++s)
    {
        const int64_t f = r.pick(1, 3), dil = r.pick(1, 2), stride = r.pick(1, 2);
        const int64_t pad = r.pick(0, f - 1);
        int64_t in = spatial == 3 ? r.pick(3, 7) : r.pick(4, 12);
        in = std::max(in, dil * (f - 1) + 1);
        c.p.prePadding.push_back(pad);
        c.p.postPadding.push_back(pad);
        c.p.stride.push_back(stride);
        c.p.dilation.push_back(dil);
        c.x.push_back(in);
        c.w.push_back(f);
        c.y.push_back((in + 2 * pad - dil * (f - 1) - 1) / stride + 1);
    }
    c.xLast = spatial > 1 && r.coin();
    c.wLast = spatial > 1 && r.coin();
    c.yLast = sameLayout ? c.xLast : spatial > 1 && r.coin();
    c.text = std::to_string(spatial) + "-D x" + dimsText(c.x) + " w" + dimsText(c.w) + " y" + dimsText(c.y)
             + " groups " + std::to_string(c.groups) + " stride" + dimsText(c.p.stride) + " dil"
             + dimsText(c.p.dilation) + " pad" + dimsText(c.p.prePadding) + (c.xLast ? " x:NHWC" : "")
             + (c.wLast ? " w:NHWC" : "") + (c.yLast ? " y:NHWC" : "");
    return c;
}

inline int64_t product(const std::vector<int64_t>& v, size_t from)
{
    return std::accumulate(v.begin() + static_cast<std::ptrdiff_t>(from), v.end(), int64_t{1},
                           std::multiplies<int64_t>());
}

} // namespace miopen_provider_tests
