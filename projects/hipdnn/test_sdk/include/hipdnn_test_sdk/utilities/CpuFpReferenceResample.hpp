// CPU reference resample (pooling), 1-D to 3-D spatial, any strides: x/dx [N, C, spatial...],
// y/dy/index [N, C, out...]. Output o of spatial dim i covers x positions
// o * stride[i] - prePadding[i] + k, 0 <= k < window[i]. Modes:
//  - MAXPOOL: the largest value, the first one in row-major window order on ties. Padded
//    positions never win (NEG_INF_PAD or NOT_SET) or count as 0 (ZERO_PAD). The optional index
//    (INT32) is the flattened spatial position of the winner in x (row-major over x's spatial
//    dims), -1 when a padded position (or nothing) won.
//  - AVGPOOL_INCLUDE_PADDING: sum over the window's positions inside x / window size.
//  - AVGPOOL_EXCLUDE_PADDING: sum / number of the window's positions inside x.
// Backward: max routes each dy to the position its index names (none for -1); the averages spread
// dy / divisor over the window's positions inside x. Accumulation in double.
#pragma once

#include <hipdnn_data_sdk/data_objects/resample_common_generated.h>
#include <hipdnn_test_sdk/utilities/Tensor.hpp>

#include <cstdint>
#include <limits>
#include <stdexcept>
#include <vector>

namespace hipdnn_test_sdk::utilities
{

struct ResampleParams
{
    std::vector<int64_t> prePadding;
    std::vector<int64_t> stride;
    std::vector<int64_t> window;
    hipdnn_data_sdk::data_objects::ResampleMode mode = hipdnn_data_sdk::data_objects::ResampleMode::MAXPOOL;
    hipdnn_data_sdk::data_objects::PaddingMode padding = hipdnn_data_sdk::data_objects::PaddingMode::NEG_INF_PAD;
};

class CpuFpReferenceResample
{
public:
    using Mode = hipdnn_data_sdk::data_objects::ResampleMode;
    using Padding = hipdnn_data_sdk::data_objects::PaddingMode;

    /// Throws std::invalid_argument unless x and y are one pooling of p (y = output lengths).
    static void checkShapes(const std::vector<int64_t>& x, const std::vector<int64_t>& y, const ResampleParams& p)
    {
        if(x.size() < 3 || x.size() > 5 || y.size() != x.size())
        {
            throw std::invalid_argument("resample reference: x and y must have one rank of 3 to 5");
        }
        const size_t spatial = x.size() - 2;
        if(p.window.size() != spatial || p.stride.size() != spatial || p.prePadding.size() != spatial)
        {
            throw std::invalid_argument("resample reference: window, stride, padding need one value per spatial dim");
        }
        if(x[0] != y[0] || x[1] != y[1])
        {
            throw std::invalid_argument("resample reference: x and y differ in N or C");
        }
        for(size_t i = 0; i < spatial; ++i)
        {
            if(p.window[i] < 1 || p.stride[i] < 1 || p.prePadding[i] < 0 || y[i + 2] < 1)
            {
                throw std::invalid_argument("resample reference: bad window, stride, padding or output length");
            }
        }
        if(p.mode != Mode::MAXPOOL && p.mode != Mode::AVGPOOL_EXCLUDE_PADDING && p.mode != Mode::AVGPOOL_INCLUDE_PADDING)
        {
            throw std::invalid_argument("resample reference: only MAXPOOL and AVGPOOL_* are implemented");
        }
        if(p.padding == Padding::EDGE_VAL_PAD)
        {
            throw std::invalid_argument("resample reference: EDGE_VAL_PAD is not implemented");
        }
    }

    template <typename TX, typename TY>
    static void forward(TensorView<const TX> x, TensorView<TY> y, const ResampleParams& p,
                        TensorView<int32_t>* index = nullptr)
    {
        checkShapes(x.dims(), y.dims(), p);
        const auto& xd = x.dims();
        const size_t spatial = xd.size() - 2;
        const int64_t windowSize = product(p.window);
        forEachIndex(y.dims(), [&](const std::vector<int64_t>& o) {
            double best = std::numeric_limits<double>::lowest();
            int64_t bestIndex = -1;
            double sum = 0.0;
            int64_t inside = 0;
            std::vector<int64_t> xi(xd.size());
            xi[0] = o[0];
            xi[1] = o[1];
            forEachIndex(p.window, [&](const std::vector<int64_t>& k) {
                bool valid = true;
                int64_t flat = 0;
                for(size_t i = 0; i < spatial; ++i)
                {
                    xi[i + 2] = o[i + 2] * p.stride[i] - p.prePadding[i] + k[i];
                    valid = valid && xi[i + 2] >= 0 && xi[i + 2] < xd[i + 2];
                    flat = flat * xd[i + 2] + xi[i + 2];
                }
                if(!valid)
                {
                    if(p.mode == Mode::MAXPOOL && p.padding == Padding::ZERO_PAD && 0.0 > best)
                    {
                        best = 0.0;
                        bestIndex = -1;
                    }
                    return;
                }
                const double v = toDouble(x.at(xi));
                ++inside;
                sum += v;
                if(v > best)
                {
                    best = v;
                    bestIndex = flat;
                }
            });
            double r = best;
            if(p.mode == Mode::AVGPOOL_INCLUDE_PADDING)
            {
                r = sum / static_cast<double>(windowSize);
            }
            else if(p.mode == Mode::AVGPOOL_EXCLUDE_PADDING)
            {
                r = inside == 0 ? 0.0 : sum / static_cast<double>(inside);
            }
            y.at(o) = fromDouble<TY>(r);
            if(index != nullptr && index->data() != nullptr)
            {
                index->at(o) = static_cast<int32_t>(bestIndex);
            }
        });
    }

    /// dx (fully overwritten) from dy; max pooling reads `index` (the forward's).
    template <typename TDY, typename TDX>
    static void backward(TensorView<const TDY> dy, TensorView<TDX> dx, const ResampleParams& p,
                         const TensorView<const int32_t>* index = nullptr)
    {
        checkShapes(dx.dims(), dy.dims(), p);
        const auto& xd = dx.dims();
        const size_t spatial = xd.size() - 2;
        std::vector<double> acc(static_cast<size_t>(dx.elementCount()), 0.0);
        auto packed = [&](const std::vector<int64_t>& i) {
            int64_t off = 0;
            for(size_t d = 0; d < xd.size(); ++d)
            {
                off = off * xd[d] + i[d];
            }
            return static_cast<size_t>(off);
        };
        if(p.mode == Mode::MAXPOOL && (index == nullptr || index->data() == nullptr))
        {
            throw std::invalid_argument("resample reference: max pooling backward needs the index tensor");
        }
        const int64_t windowSize = product(p.window);
        forEachIndex(dy.dims(), [&](const std::vector<int64_t>& o) {
            const double g = toDouble(dy.at(o));
            std::vector<int64_t> xi(xd.size());
            xi[0] = o[0];
            xi[1] = o[1];
            if(p.mode == Mode::MAXPOOL)
            {
                int64_t flat = index->at(o);
                if(flat < 0)
                {
                    return;
                }
                for(size_t i = spatial; i > 0; --i)
                {
                    xi[i + 1] = flat % xd[i + 1];
                    flat /= xd[i + 1];
                }
                if(flat != 0)
                {
                    throw std::invalid_argument("resample reference: an index names no position of dx");
                }
                acc[packed(xi)] += g;
                return;
            }
            std::vector<std::vector<int64_t>> positions;
            forEachIndex(p.window, [&](const std::vector<int64_t>& k) {
                bool valid = true;
                for(size_t i = 0; i < spatial; ++i)
                {
                    xi[i + 2] = o[i + 2] * p.stride[i] - p.prePadding[i] + k[i];
                    valid = valid && xi[i + 2] >= 0 && xi[i + 2] < xd[i + 2];
                }
                if(valid)
                {
                    positions.push_back(xi);
                }
            });
            const double divisor = p.mode == Mode::AVGPOOL_INCLUDE_PADDING ? static_cast<double>(windowSize)
                                                                           : static_cast<double>(positions.size());
            for(const auto& pos : positions)
            {
                acc[packed(pos)] += g / divisor;
            }
        });
        forEachIndex(xd, [&](const std::vector<int64_t>& i) { dx.at(i) = fromDouble<TDX>(acc[packed(i)]); });
    }

private:
    static int64_t product(const std::vector<int64_t>& v)
    {
        int64_t n = 1;
        for(int64_t e : v)
        {
            n *= e;
        }
        return n;
    }
};

} // namespace hipdnn_test_sdk::utilities
