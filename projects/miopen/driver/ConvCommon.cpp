#include "ConvCommon.hpp"

#include <algorithm>
#include <cstdio>

namespace miopen_driver
{
namespace
{

// -z same|valid: the driver computes the pads itself, as upstream's does. `default` (and `conv`,
// the value of upstream CBAInfer's default) keeps -p/-q/--pad_d.
void readPadMode(const InputFlags& f, ConvShape& s, const std::vector<int64_t>& inSpatial,
                 const std::vector<int64_t>& filSpatial)
{
    const std::string mode = f.str("pad_mode");
    if(mode == "default" || mode == "conv")
        return;
    if(mode != "same" && mode != "valid")
        throw DriverError("Incorrect Padding Mode: " + mode);
    for(std::size_t i = 0; i < s.pads.size(); ++i)
    {
        if(mode == "valid")
        {
            s.pads[i] = 0;
            continue;
        }
        const int64_t st  = s.strides[i];
        const int64_t rem = inSpatial[i] % st;
        const int64_t p   = rem == 0 ? std::max<int64_t>(filSpatial[i] - st, 0) : std::max<int64_t>(filSpatial[i] - rem, 0);
        s.pads[i]         = static_cast<int>(p / 2);
    }
}

} // namespace

ConvShape readConvShape(const InputFlags& f, bool transposeFlags)
{
    ConvShape s;
    s.spatialDim = f.integer("spatial_dim");
    if(s.spatialDim != 2 && s.spatialDim != 3)
        throw DriverError("--spatial_dim must be 2 or 3");
    if(transposeFlags)
    {
        const std::string modeName = f.str("mode");
        if(modeName != "conv" && modeName != "trans")
            throw DriverError("Incorrect Convolution Mode: " + modeName);
        s.transpose = modeName == "trans";
    }
    s.groups = f.integer("group_count");
    if(s.groups < 1)
        throw DriverError("--group_count must be >= 1");

    const bool is3d = s.spatialDim == 3;
    auto pick = [&](const char* d, const char* h, const char* w) { return f.spatial(is3d, d, h, w); };
    const auto inSp  = pick("in_d", "in_h", "in_w");
    const auto filSp = pick("fil_d", "fil_h", "fil_w");
    s.pads           = pick("pad_d", "pad_h", "pad_w");
    s.strides        = pick("conv_stride_d", "conv_stride_h", "conv_stride_w");
    s.dilations      = pick("dilation_d", "dilation_h", "dilation_w");
    s.adjs = transposeFlags ? pick("trans_output_pad_d", "trans_output_pad_h", "trans_output_pad_w")
                            : std::vector<int>(inSp.size(), 0);
    readPadMode(f, s, std::vector<int64_t>(inSp.begin(), inSp.end()), std::vector<int64_t>(filSp.begin(), filSp.end()));

    const int64_t n = f.integer("batchsize"), c = f.integer("in_channels"), k = f.integer("out_channels");
    if(c % s.groups != 0 || k % s.groups != 0)
        throw DriverError("group_count must divide in_channels and out_channels");
    s.xDims = {n, c};
    s.wDims = s.transpose ? std::vector<int64_t>{c, k / s.groups} : std::vector<int64_t>{k, c / s.groups};
    for(std::size_t i = 0; i < inSp.size(); ++i)
    {
        s.xDims.push_back(inSp[i]);
        s.wDims.push_back(filSp[i]);
    }
    return s;
}

void setConvDescriptors(const InputFlags& f, miopenDataType_t type, ConvShape& s, const ConvDescriptor& conv,
                        TensorDesc& xDesc, TensorDesc& wDesc, TensorDesc& yDesc)
{
    MIOPEN_DRIVER_CHECK(miopenInitConvolutionNdDescriptor(conv.get(), s.spatialDim, s.pads.data(), s.strides.data(),
                                                          s.dilations.data(),
                                                          s.transpose ? miopenTranspose : miopenConvolution));
    if(s.groups > 1)
        MIOPEN_DRIVER_CHECK(miopenSetConvolutionGroupCount(conv.get(), s.groups));
    if(s.transpose && std::any_of(s.adjs.begin(), s.adjs.end(), [](int a) { return a != 0; }))
        MIOPEN_DRIVER_CHECK(miopenSetTransposeConvNdOutputPadding(conv.get(), s.spatialDim, s.adjs.data()));

    s.xStrides = layoutStrides(s.xDims, f.str("in_layout"));
    s.wStrides = layoutStrides(s.wDims, f.str("fil_layout"));
    xDesc.set(type, s.xDims, s.xStrides);
    wDesc.set(type, s.wDims, s.wStrides);
    int outRank = 0;
    std::vector<int> yd(static_cast<std::size_t>(s.spatialDim + 2));
    MIOPEN_DRIVER_CHECK(miopenGetConvolutionNdForwardOutputDim(conv.get(), xDesc.get(), wDesc.get(), &outRank, yd.data()));
    s.yDims.assign(yd.begin(), yd.begin() + outRank);
    s.yStrides = layoutStrides(s.yDims, f.str("out_layout"));
    yDesc.set(type, s.yDims, s.yStrides);
}

hipdnn_test_sdk::utilities::ConvolutionParams referenceParams(const ConvShape& s)
{
    hipdnn_test_sdk::utilities::ConvolutionParams p;
    for(std::size_t i = 0; i < s.pads.size(); ++i)
    {
        p.prePadding.push_back(s.pads[i]);
        p.postPadding.push_back(s.pads[i]);
        p.stride.push_back(s.strides[i]);
        p.dilation.push_back(s.dilations[i]);
    }
    return p;
}

void printConvStats(const char* dir, const ConvShape& s, double readBytes, double writtenBytes, float ms)
{
    const auto& x  = s.xDims;
    const auto& y  = s.yDims;
    const auto& w  = s.wDims;
    const double f = s.flops();
    const double gflops = ms > 0.f ? f / ms / 1e6 : 0.0;
    const double gbs    = ms > 0.f ? (readBytes + writtenBytes) / ms / 1e6 : 0.0;
    if(s.spatialDim == 2)
    {
        std::printf("stats: name, n, c, ho, wo, x, y, k, flopCnt, bytesRead, bytesWritten, GFLOPs, GB/s, timeMs\n");
        std::printf("stats: %s%lldx%lldu%d, %lld, %lld, %lld, %lld, %lld, %lld, %lld,  %.0f, %.0f, %.0f, %.0f, %.0f, %f\n",
                    dir, static_cast<long long>(w[2]), static_cast<long long>(w[3]), s.strides[0],
                    static_cast<long long>(x[0]), static_cast<long long>(x[1]), static_cast<long long>(y[2]),
                    static_cast<long long>(y[3]), static_cast<long long>(w[2]), static_cast<long long>(w[3]),
                    static_cast<long long>(y[1]), f, readBytes, writtenBytes, gflops, gbs, static_cast<double>(ms));
    }
    else
    {
        std::printf("stats: name  , n, c, do, ho, wo, z, y, x, k, flopCnt, bytesRead, bytesWritten, GFLOPs, GB/s, timeMs\n");
        std::printf("stats: %s%lldx%lldx%lldu%d, %lld, %lld, %lld, %lld, %lld, %lld, %lld, %lld, %lld,  %.0f, %.0f, %.0f, "
                    "%.0f, %.0f, %f\n",
                    dir, static_cast<long long>(w[2]), static_cast<long long>(w[3]), static_cast<long long>(w[4]),
                    s.strides[0], static_cast<long long>(x[0]), static_cast<long long>(x[1]),
                    static_cast<long long>(y[2]), static_cast<long long>(y[3]), static_cast<long long>(y[4]),
                    static_cast<long long>(w[2]), static_cast<long long>(w[3]), static_cast<long long>(w[4]),
                    static_cast<long long>(y[1]), f, readBytes, writtenBytes, gflops, gbs, static_cast<double>(ms));
    }
}

} // namespace miopen_driver
