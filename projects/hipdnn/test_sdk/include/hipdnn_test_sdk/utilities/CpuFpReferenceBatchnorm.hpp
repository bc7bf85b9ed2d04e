// CPU reference batch normalization over channel dim 1 (statistics over every other dim):
// inference (saved mean / inverse variance), training (batch statistics, optional running
// statistics with momentum; running variance is unbiased) and backward.
#pragma once

#include <hipdnn_test_sdk/utilities/Tensor.hpp>

#include <cmath>
#include <vector>

namespace hipdnn_test_sdk::utilities
{

class CpuFpReferenceBatchnorm
{
public:
    template <typename TX, typename TP, typename TY>
    static void inference(TensorView<const TX> x, TensorView<const TP> mean,
                          TensorView<const TP> invVariance, TensorView<const TP> scale,
                          TensorView<const TP> bias, TensorView<TY> y)
    {
        forEachIndex(x.dims(), [&](const std::vector<int64_t>& i) {
            const double m = toDouble(mean.data()[mean.broadcastOffset(i)]);
            const double iv = toDouble(invVariance.data()[invVariance.broadcastOffset(i)]);
            const double s = toDouble(scale.data()[scale.broadcastOffset(i)]);
            const double b = toDouble(bias.data()[bias.broadcastOffset(i)]);
            y.at(i) = fromDouble<TY>(s * (toDouble(x.at(i)) - m) * iv + b);
        });
    }

    struct TrainingOutputs
    {
        std::vector<double> mean;
        std::vector<double> variance; // population (biased) variance
        std::vector<double> invVariance;
    };

    /// Per-channel batch statistics of x.
    template <typename TX>
    static TrainingOutputs statistics(TensorView<const TX> x, double epsilon)
    {
        const int64_t channels = x.dims()[1];
        TrainingOutputs out;
        out.mean.assign(static_cast<size_t>(channels), 0.0);
        out.variance.assign(static_cast<size_t>(channels), 0.0);
        std::vector<int64_t> counts(static_cast<size_t>(channels), 0);
        forEachIndex(x.dims(), [&](const std::vector<int64_t>& i) {
            out.mean[static_cast<size_t>(i[1])] += toDouble((x.at(i)));
            ++counts[static_cast<size_t>(i[1])];
        });
        for(int64_t c = 0; c < channels; ++c)
        {
            out.mean[static_cast<size_t>(c)] /= static_cast<double>(counts[static_cast<size_t>(c)]);
        }
        forEachIndex(x.dims(), [&](const std::vector<int64_t>& i) {
            const double d = toDouble((x.at(i))) - out.mean[static_cast<size_t>(i[1])];
            out.variance[static_cast<size_t>(i[1])] += d * d;
        });
        for(int64_t c = 0; c < channels; ++c)
        {
            auto cc = static_cast<size_t>(c);
            out.variance[cc] /= static_cast<double>(counts[cc]);
            out.invVariance.push_back(1.0 / std::sqrt(out.variance[cc] + epsilon));
        }
        return out;
    }

    /// Training forward. mean/invVariance/running outputs are optional (null data).
    template <typename TX, typename TP, typename TY>
    static void training(TensorView<const TX> x, TensorView<const TP> scale, TensorView<const TP> bias,
                         double epsilon, TensorView<TY> y, TensorView<TP> meanOut,
                         TensorView<TP> invVarianceOut, TensorView<const TP> prevRunningMean,
                         TensorView<const TP> prevRunningVariance, double momentum,
                         TensorView<TP> nextRunningMean, TensorView<TP> nextRunningVariance)
    {
        const auto stats = statistics(x, epsilon);
        const int64_t channels = x.dims()[1];
        const int64_t perChannel = x.elementCount() / channels;
        forEachIndex(x.dims(), [&](const std::vector<int64_t>& i) {
            const auto c = static_cast<size_t>(i[1]);
            const double s = toDouble(scale.data()[scale.broadcastOffset(i)]);
            const double b = toDouble(bias.data()[bias.broadcastOffset(i)]);
            const double xhat = (toDouble((x.at(i))) - stats.mean[c]) * stats.invVariance[c];
            y.at(i) = fromDouble<TY>(static_cast<double>(s * xhat + b));
        });
        std::vector<int64_t> ci(x.rank(), 0);
        for(int64_t c = 0; c < channels; ++c)
        {
            const auto cc = static_cast<size_t>(c);
            ci[1] = c;
            if(meanOut.data() != nullptr)
            {
                meanOut.data()[meanOut.broadcastOffset(ci)] = fromDouble<TP>(static_cast<double>(stats.mean[cc]));
            }
            if(invVarianceOut.data() != nullptr)
            {
                invVarianceOut.data()[invVarianceOut.broadcastOffset(ci)] = fromDouble<TP>(static_cast<double>(stats.invVariance[cc]));
            }
            if(nextRunningMean.data() != nullptr && prevRunningMean.data() != nullptr)
            {
                const double prev = toDouble(prevRunningMean.data()[prevRunningMean.broadcastOffset(ci)]);
                nextRunningMean.data()[nextRunningMean.broadcastOffset(ci)]
                    = fromDouble<TP>(static_cast<double>((1.0 - momentum) * prev + momentum * stats.mean[cc]));
            }
            if(nextRunningVariance.data() != nullptr && prevRunningVariance.data() != nullptr)
            {
                const double prev = toDouble(prevRunningVariance.data()[prevRunningVariance.broadcastOffset(ci)]);
                const double unbiased = perChannel > 1 ? stats.variance[cc] * static_cast<double>(perChannel)
                                                             / static_cast<double>(perChannel - 1)
                                                       : stats.variance[cc];
                nextRunningVariance.data()[nextRunningVariance.broadcastOffset(ci)]
                    = fromDouble<TP>(static_cast<double>((1.0 - momentum) * prev + momentum * unbiased));
            }
        }
    }

    /// Backward with saved mean and inverse variance.
    template <typename TX, typename TP, typename TDX>
    static void backward(TensorView<const TX> dy, TensorView<const TX> x, TensorView<const TP> mean,
                         TensorView<const TP> invVariance, TensorView<const TP> scale,
                         TensorView<TDX> dx, TensorView<TP> dscale, TensorView<TP> dbias)
    {
        const int64_t channels = x.dims()[1];
        const int64_t m = x.elementCount() / channels;
        std::vector<double> sumDy(static_cast<size_t>(channels), 0.0), sumDyXhat(static_cast<size_t>(channels), 0.0);
        auto xhatAt = [&](const std::vector<int64_t>& i) {
            const double mu = toDouble(mean.data()[mean.broadcastOffset(i)]);
            const double iv = toDouble(invVariance.data()[invVariance.broadcastOffset(i)]);
            return (toDouble((x.at(i))) - mu) * iv;
        };
        forEachIndex(x.dims(), [&](const std::vector<int64_t>& i) {
            const auto c = static_cast<size_t>(i[1]);
            const double g = toDouble(dy.at(i));
            sumDy[c] += g;
            sumDyXhat[c] += g * xhatAt(i);
        });
        forEachIndex(x.dims(), [&](const std::vector<int64_t>& i) {
            const auto c = static_cast<size_t>(i[1]);
            const double s = toDouble(scale.data()[scale.broadcastOffset(i)]);
            const double iv = toDouble(invVariance.data()[invVariance.broadcastOffset(i)]);
            const double g = toDouble(dy.at(i));
            const double v = s * iv / static_cast<double>(m)
                             * (static_cast<double>(m) * g - sumDy[c] - xhatAt(i) * sumDyXhat[c]);
            dx.at(i) = fromDouble<TDX>(static_cast<double>(v));
        });
        std::vector<int64_t> ci(x.rank(), 0);
        for(int64_t c = 0; c < channels; ++c)
        {
            ci[1] = c;
            dscale.data()[dscale.broadcastOffset(ci)] = fromDouble<TP>(static_cast<double>(sumDyXhat[static_cast<size_t>(c)]));
            dbias.data()[dbias.broadcastOffset(ci)] = fromDouble<TP>(static_cast<double>(sumDy[static_cast<size_t>(c)]));
        }
    }
};

} // namespace hipdnn_test_sdk::utilities
