// Plain-loop CPU references for the two MIOpenDriver operations the hipDNN test SDK has no
// reference for: pooling (max / average exclusive / average inclusive, 2-D or 3-D) and softmax
// (accurate / fast / log, channel or instance mode). Tensors are strided views over
// [N, C, spatial...]; arithmetic in double, results rounded to the element type.
#pragma once

#include <hipdnn_test_sdk/utilities/Tensor.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

namespace miopen_driver::reference
{

namespace tsu = hipdnn_test_sdk::utilities;

enum class PoolMode
{
    Max,
    Average,          // divide by the window positions inside the input
    AverageInclusive, // divide by the whole window
};

struct PoolParams
{
    PoolMode mode = PoolMode::Max;
    std::vector<int64_t> window, pads, strides; // one per spatial dim
};

namespace detail
{
// Calls f(input spatial index) for every window position of output position `o` that lies inside
// the input; returns the number of such positions.
template <typename F>
int64_t forEachWindowPosition(const std::vector<int64_t>& o, const std::vector<int64_t>& inSpatial, const PoolParams& p,
                              F&& f)
{
    int64_t inside = 0;
    std::vector<int64_t> pos(o.size());
    tsu::forEachIndex(p.window, [&](const std::vector<int64_t>& k) {
        for(std::size_t s = 0; s < o.size(); ++s)
        {
            pos[s] = o[s] * p.strides[s] - p.pads[s] + k[s];
            if(pos[s] < 0 || pos[s] >= inSpatial[s])
                return;
        }
        ++inside;
        f(pos);
    });
    return inside;
}

inline int64_t volume(const std::vector<int64_t>& v)
{
    int64_t r = 1;
    for(auto d : v)
        r *= d;
    return r;
}
} // namespace detail

/// y = pool(x); for max pooling argmax (if not null) receives, per output element in row-major
/// order, the full x index of the first maximum of its window.
template <typename T>
void poolForward(tsu::TensorView<const T> x, tsu::TensorView<T> y, const PoolParams& p,
                 std::vector<std::vector<int64_t>>* argmax)
{
    const std::vector<int64_t> inSpatial(x.dims().begin() + 2, x.dims().end());
    const std::size_t spatial = inSpatial.size();
    if(argmax != nullptr)
        argmax->clear();
    std::vector<int64_t> xi(x.rank());
    tsu::forEachIndex(y.dims(), [&](const std::vector<int64_t>& yi) {
        const std::vector<int64_t> o(yi.begin() + 2, yi.end());
        xi[0] = yi[0];
        xi[1] = yi[1];
        double acc = p.mode == PoolMode::Max ? -std::numeric_limits<double>::infinity() : 0.0;
        std::vector<int64_t> best;
        const int64_t inside = detail::forEachWindowPosition(o, inSpatial, p, [&](const std::vector<int64_t>& pos) {
            for(std::size_t s = 0; s < spatial; ++s)
                xi[s + 2] = pos[s];
            const double v = tsu::toDouble(x.at(xi));
            if(p.mode != PoolMode::Max)
                acc += v;
            else if(v > acc)
            {
                acc  = v;
                best = xi;
            }
        });
        if(p.mode == PoolMode::Average)
            acc /= static_cast<double>(std::max<int64_t>(inside, 1));
        else if(p.mode == PoolMode::AverageInclusive)
            acc /= static_cast<double>(detail::volume(p.window));
        y.at(yi) = tsu::fromDouble<T>(acc);
        if(argmax != nullptr)
            argmax->push_back(best);
    });
}

/// dx = gradient of pooling for dy; `argmax` from poolForward (max pooling only).
template <typename T>
void poolBackward(tsu::TensorView<const T> dy, tsu::TensorView<T> dx, const PoolParams& p,
                  const std::vector<std::vector<int64_t>>& argmax)
{
    const std::vector<int64_t> inSpatial(dx.dims().begin() + 2, dx.dims().end());
    const std::size_t spatial = inSpatial.size();
    std::vector<double> acc(static_cast<std::size_t>(detail::volume(dx.dims())), 0.0);
    const auto packed = hipdnn_data_sdk::utilities::packedStrides(dx.dims());
    auto flat = [&](const std::vector<int64_t>& i) {
        int64_t off = 0;
        for(std::size_t d = 0; d < i.size(); ++d)
            off += i[d] * packed[d];
        return static_cast<std::size_t>(off);
    };
    std::size_t yCount = 0;
    std::vector<int64_t> xi(dx.rank());
    tsu::forEachIndex(dy.dims(), [&](const std::vector<int64_t>& yi) {
        const double g = tsu::toDouble(dy.at(yi));
        if(p.mode == PoolMode::Max)
        {
            const auto& best = argmax.at(yCount);
            if(!best.empty())
                acc[flat(best)] += g;
        }
        else
        {
            const std::vector<int64_t> o(yi.begin() + 2, yi.end());
            std::vector<std::vector<int64_t>> positions;
            const int64_t inside = detail::forEachWindowPosition(
                o, inSpatial, p, [&](const std::vector<int64_t>& pos) { positions.push_back(pos); });
            const double share = g / static_cast<double>(p.mode == PoolMode::Average ? std::max<int64_t>(inside, 1)
                                                                                       : detail::volume(p.window));
            xi[0] = yi[0];
            xi[1] = yi[1];
            for(const auto& pos : positions)
            {
                for(std::size_t s = 0; s < spatial; ++s)
                    xi[s + 2] = pos[s];
                acc[flat(xi)] += share;
            }
        }
        ++yCount;
    });
    tsu::forEachIndex(dx.dims(), [&](const std::vector<int64_t>& i) { dx.at(i) = tsu::fromDouble<T>(acc[flat(i)]); });
}

enum class SoftmaxAlgorithm
{
    Fast     = 0,
    Accurate = 1,
    Log      = 2,
};
enum class SoftmaxMode
{
    Instance = 0, // over C*H*W of each image
    Channel  = 1, // over C at each (n, h, w)
};

namespace detail
{
// Calls f(indices of one softmax group) for each group of a [N, C, H, W] tensor.
template <typename F>
void forEachSoftmaxGroup(const std::vector<int64_t>& dims, SoftmaxMode mode, F&& f)
{
    std::vector<std::vector<int64_t>> group;
    if(mode == SoftmaxMode::Instance)
    {
        for(int64_t n = 0; n < dims[0]; ++n)
        {
            group.clear();
            tsu::forEachIndex({dims[1], dims[2], dims[3]}, [&](const std::vector<int64_t>& i) {
                group.push_back({n, i[0], i[1], i[2]});
            });
            f(group);
        }
        return;
    }
    tsu::forEachIndex({dims[0], dims[2], dims[3]}, [&](const std::vector<int64_t>& i) {
        group.clear();
        for(int64_t c = 0; c < dims[1]; ++c)
            group.push_back({i[0], c, i[1], i[2]});
        f(group);
    });
}
} // namespace detail

/// y = alpha * softmax(x) + beta * y (log-softmax for SoftmaxAlgorithm::Log).
template <typename T>
void softmaxForward(tsu::TensorView<const T> x, tsu::TensorView<T> y, SoftmaxAlgorithm algorithm, SoftmaxMode mode,
                    double alpha, double beta)
{
    detail::forEachSoftmaxGroup(x.dims(), mode, [&](const std::vector<std::vector<int64_t>>& g) {
        double m = -std::numeric_limits<double>::infinity();
        for(const auto& i : g)
            m = std::max(m, tsu::toDouble(x.at(i)));
        double sum = 0.0;
        for(const auto& i : g)
            sum += std::exp(tsu::toDouble(x.at(i)) - m);
        for(const auto& i : g)
        {
            const double v = tsu::toDouble(x.at(i)) - m;
            const double r = algorithm == SoftmaxAlgorithm::Log ? v - std::log(sum) : std::exp(v) / sum;
            y.at(i)        = tsu::fromDouble<T>(alpha * r + (beta != 0.0 ? beta * tsu::toDouble(y.at(i)) : 0.0));
        }
    });
}

/// dx = alpha * softmax'(y) dy + beta * dx, y being the forward output.
template <typename T>
void softmaxBackward(tsu::TensorView<const T> y, tsu::TensorView<const T> dy, tsu::TensorView<T> dx,
                     SoftmaxAlgorithm algorithm, SoftmaxMode mode, double alpha, double beta)
{
    detail::forEachSoftmaxGroup(y.dims(), mode, [&](const std::vector<std::vector<int64_t>>& g) {
        double dot = 0.0;
        for(const auto& i : g)
            dot += algorithm == SoftmaxAlgorithm::Log ? tsu::toDouble(dy.at(i))
                                                      : tsu::toDouble(dy.at(i)) * tsu::toDouble(y.at(i));
        for(const auto& i : g)
        {
            const double yv = tsu::toDouble(y.at(i)), g1 = tsu::toDouble(dy.at(i));
            const double r  = algorithm == SoftmaxAlgorithm::Log ? g1 - std::exp(yv) * dot : yv * (g1 - dot);
            dx.at(i)        = tsu::fromDouble<T>(alpha * r + (beta != 0.0 ? beta * tsu::toDouble(dx.at(i)) : 0.0));
        }
    });
}

} // namespace miopen_driver::reference
