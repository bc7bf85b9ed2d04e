// Convolution geometry shared by MIOpenDriver conv and CBAInfer: upstream's geometry flags
// (-n -c -H -W -k -y -x -p -q -u -v -l -j -g -z, the 3-D and layout flags; conv also -m and the
// transpose output padding) read into a ConvShape, the descriptors set from it, the test SDK's
// reference parameters and upstream's convolution `stats:` lines.
#pragma once

#include "Driver.hpp"

#include <hipdnn_test_sdk/utilities/CpuFpReferenceConvolution.hpp>

#include <numeric>
#include <vector>

namespace miopen_driver
{

struct ConvShape
{
    int spatialDim = 2;
    bool transpose = false;
    int groups     = 1;
    std::vector<int64_t> xDims, wDims, yDims, xStrides, wStrides, yStrides;
    std::vector<int> pads, strides, dilations, adjs;
    int64_t filterVolume() const
    {
        return std::accumulate(wDims.begin() + 2, wDims.end(), int64_t{1}, std::multiplies<int64_t>());
    }
    static int64_t spatialVolume(const std::vector<int64_t>& dims)
    {
        return std::accumulate(dims.begin() + 2, dims.end(), int64_t{1}, std::multiplies<int64_t>());
    }
    /// 2 * multiply-adds of one pass (the same for the three directions).
    double flops() const
    {
        const auto& small = transpose ? xDims : yDims; // the normal convolution's output
        const double w = static_cast<double>(
            std::accumulate(wDims.begin(), wDims.end(), int64_t{1}, std::multiplies<int64_t>()));
        return 2.0 * w * static_cast<double>(small[0]) * static_cast<double>(spatialVolume(small));
    }
};

/// Reads the geometry flags into xDims and wDims (and pads, strides, dilations; -z same|valid
/// computes the pads as upstream's driver does). `transposeFlags`: the sub-command declares
/// --mode conv|trans and the --trans_output_pad_* flags (conv); otherwise the convolution is a
/// normal one (CBAInfer). Throws DriverError for bad values.
ConvShape readConvShape(const InputFlags& f, bool transposeFlags);

/// Sets `conv` from the shape, x and w (layouts --in_layout, --fil_layout) and y (its lengths
/// from miopenGetConvolutionNdForwardOutputDim, layout --out_layout); fills the shape's yDims and
/// the three strides.
void setConvDescriptors(const InputFlags& f, miopenDataType_t type, ConvShape& s, const ConvDescriptor& conv,
                        TensorDesc& xDesc, TensorDesc& wDesc, TensorDesc& yDesc);

/// The test SDK's convolution parameters of the shape (symmetric padding).
hipdnn_test_sdk::utilities::ConvolutionParams referenceParams(const ConvShape& s);

template <typename T>
double bytesOf(const std::vector<int64_t>& dims)
{
    return static_cast<double>(hipdnn_data_sdk::utilities::elementCount(dims)) * sizeof(T);
}

/// upstream's `stats:` lines: name, n, c, (do,) ho, wo, (z,) y, x, k, flopCnt, bytesRead,
/// bytesWritten, GFLOPs, GB/s, timeMs; the name is `dir` followed by the filter and the stride.
void printConvStats(const char* dir, const ConvShape& s, double readBytes, double writtenBytes, float ms);

} // namespace miopen_driver
