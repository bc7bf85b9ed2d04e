// CPU reference convolutions (cross-correlation), N-D, grouped, dilated, with pre/post padding.
// Layout-agnostic: tensors are strided views with dims x [N, C, spatial...], w [K, C/G, f...],
// y [N, K, out...]; the group count is C / w.dims[1]. Accumulation in TCompute (float default).
#pragma once

#include <hipdnn_data_sdk/utilities/ShapeUtilities.hpp>
#include <hipdnn_test_sdk/utilities/Tensor.hpp>

#include <stdexcept>
#include <vector>

namespace hipdnn_test_sdk::utilities
{

struct ConvolutionParams
{
    std::vector<int64_t> prePadding;
    std::vector<int64_t> postPadding;
    std::vector<int64_t> stride;
    std::vector<int64_t> dilation;
};

class CpuFpReferenceConvolution
{
public:
    /// Checks that x, w and y describe one convolution; throws std::invalid_argument otherwise.
    static int64_t checkShapes(const std::vector<int64_t>& x,
                               const std::vector<int64_t>& w,
                               const std::vector<int64_t>& y,
                               const ConvolutionParams& p)
    {
        const auto expected = hipdnn_data_sdk::utilities::convForwardOutputDims(
            x, w, p.prePadding, p.postPadding, p.stride, p.dilation);
        if(expected != y)
        {
            throw std::invalid_argument("convolution output dims do not match the geometry");
        }
        return x[1] / w[1];
    }

    /// y = conv(x, w)
    template <typename TX, typename TW, typename TY, typename TCompute = float>
    static void fprop(TensorView<const TX> x, TensorView<const TW> w, TensorView<TY> y,
                      const ConvolutionParams& p)
    {
        const int64_t groups = checkShapes(x.dims(), w.dims(), y.dims(), p);
        const size_t spatial = x.rank() - 2;
        const int64_t cPerGroup = w.dims()[1];
        const int64_t kPerGroup = w.dims()[0] / groups;
        std::vector<int64_t> filterDims(w.dims().begin() + 2, w.dims().end());
        std::vector<int64_t> xi(x.rank()), wi(w.rank());
        forEachIndex(y.dims(), [&](const std::vector<int64_t>& yi) {
            const int64_t g = yi[1] / kPerGroup;
            TCompute acc = TCompute(0);
            for(int64_t c = 0; c < cPerGroup; ++c)
            {
                forEachIndex(filterDims, [&](const std::vector<int64_t>& f) {
                    xi[0] = yi[0];
                    xi[1] = g * cPerGroup + c;
                    for(size_t s = 0; s < spatial; ++s)
                    {
                        const int64_t pos = yi[s + 2] * p.stride[s] - p.prePadding[s] + f[s] * p.dilation[s];
                        if(pos < 0 || pos >= x.dims()[s + 2])
                        {
                            return;
                        }
                        xi[s + 2] = pos;
                    }
                    wi[0] = yi[1];
                    wi[1] = c;
                    for(size_t s = 0; s < spatial; ++s)
                    {
                        wi[s + 2] = f[s];
                    }
                    acc += static_cast<TCompute>(toDouble(x.at(xi)))
                           * static_cast<TCompute>(toDouble(w.at(wi)));
                });
            }
            y.at(yi) = fromDouble<TY>(static_cast<double>(acc));
        });
    }

    /// dx = conv_transpose(dy, w)
    template <typename TDY, typename TW, typename TDX, typename TCompute = float>
    static void dgrad(TensorView<const TDY> dy, TensorView<const TW> w, TensorView<TDX> dx,
                      const ConvolutionParams& p)
    {
        const int64_t groups = checkShapes(dx.dims(), w.dims(), dy.dims(), p);
        const size_t spatial = dx.rank() - 2;
        const int64_t cPerGroup = w.dims()[1];
        const int64_t kPerGroup = w.dims()[0] / groups;
        std::vector<int64_t> filterDims(w.dims().begin() + 2, w.dims().end());
        std::vector<int64_t> yi(dy.rank()), wi(w.rank());
        forEachIndex(dx.dims(), [&](const std::vector<int64_t>& xi) {
            const int64_t g = xi[1] / cPerGroup;
            const int64_t c = xi[1] % cPerGroup;
            TCompute acc = TCompute(0);
            for(int64_t k = 0; k < kPerGroup; ++k)
            {
                forEachIndex(filterDims, [&](const std::vector<int64_t>& f) {
                    for(size_t s = 0; s < spatial; ++s)
                    {
                        const int64_t num = xi[s + 2] + p.prePadding[s] - f[s] * p.dilation[s];
                        if(num < 0 || num % p.stride[s] != 0 || num / p.stride[s] >= dy.dims()[s + 2])
                        {
                            return;
                        }
                        yi[s + 2] = num / p.stride[s];
                        wi[s + 2] = f[s];
                    }
                    yi[0] = xi[0];
                    yi[1] = g * kPerGroup + k;
                    wi[0] = yi[1];
                    wi[1] = c;
                    acc += static_cast<TCompute>(toDouble(dy.at(yi)))
                           * static_cast<TCompute>(toDouble(w.at(wi)));
                });
            }
            dx.at(xi) = fromDouble<TDX>(static_cast<double>(acc));
        });
    }

    /// dw = correlate(x, dy)
    template <typename TX, typename TDY, typename TDW, typename TCompute = float>
    static void wgrad(TensorView<const TX> x, TensorView<const TDY> dy, TensorView<TDW> dw,
                      const ConvolutionParams& p)
    {
        const int64_t groups = checkShapes(x.dims(), dw.dims(), dy.dims(), p);
        const size_t spatial = x.rank() - 2;
        const int64_t cPerGroup = dw.dims()[1];
        const int64_t kPerGroup = dw.dims()[0] / groups;
        std::vector<int64_t> outDims(dy.dims().begin() + 2, dy.dims().end());
        std::vector<int64_t> xi(x.rank()), yi(dy.rank());
        forEachIndex(dw.dims(), [&](const std::vector<int64_t>& wi) {
            const int64_t g = wi[0] / kPerGroup;
            TCompute acc = TCompute(0);
            for(int64_t n = 0; n < x.dims()[0]; ++n)
            {
                forEachIndex(outDims, [&](const std::vector<int64_t>& o) {
                    for(size_t s = 0; s < spatial; ++s)
                    {
                        const int64_t pos = o[s] * p.stride[s] - p.prePadding[s] + wi[s + 2] * p.dilation[s];
                        if(pos < 0 || pos >= x.dims()[s + 2])
                        {
                            return;
                        }
                        xi[s + 2] = pos;
                        yi[s + 2] = o[s];
                    }
                    xi[0] = n;
                    xi[1] = g * cPerGroup + wi[1];
                    yi[0] = n;
                    yi[1] = wi[0];
                    acc += static_cast<TCompute>(toDouble(x.at(xi)))
                           * static_cast<TCompute>(toDouble(dy.at(yi)));
                });
            }
            dw.at(wi) = fromDouble<TDW>(static_cast<double>(acc));
        });
    }
};

} // namespace hipdnn_test_sdk::utilities
