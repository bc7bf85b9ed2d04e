#include "ReferenceNetwork.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace cnn {

namespace {

struct HostTensor
{
    Shape s;
    std::vector<double> v;
    explicit HostTensor(const Shape& shape) : s(shape), v(shape.elements(), 0.0) {}
    double& at(int n, int c, int h, int w)
    {
        return v[((static_cast<std::size_t>(n) * s.c + c) * s.h + h) * s.w + w];
    }
    double at(int n, int c, int h, int w) const
    {
        return v[((static_cast<std::size_t>(n) * s.c + c) * s.h + h) * s.w + w];
    }
};

HostTensor conv(const HostTensor& x, ConvLayer& layer)
{
    const std::vector<float> w = layer.weight.value.download();
    const std::vector<float> b = layer.bias ? layer.bias->value.download() : std::vector<float>();
    const Shape& o = layer.outShape();
    const int kk = layer.kernel(), st = layer.stride(), pd = layer.pad(), c = x.s.c;
    HostTensor y(o);
    for(int n = 0; n < o.n; ++n)
        for(int k = 0; k < o.c; ++k)
            for(int oy = 0; oy < o.h; ++oy)
                for(int ox = 0; ox < o.w; ++ox)
                {
                    double acc = b.empty() ? 0.0 : b[static_cast<std::size_t>(k)];
                    for(int ic = 0; ic < c; ++ic)
                        for(int fy = 0; fy < kk; ++fy)
                            for(int fx = 0; fx < kk; ++fx)
                            {
                                const int iy = oy * st - pd + fy, ix = ox * st - pd + fx;
                                if(iy < 0 || iy >= x.s.h || ix < 0 || ix >= x.s.w)
                                    continue;
                                acc += x.at(n, ic, iy, ix) *
                                       w[((static_cast<std::size_t>(k) * c + ic) * kk + fy) * kk + fx];
                            }
                    y.at(n, k, oy, ox) = acc;
                }
    return y;
}

HostTensor batchNorm(const HostTensor& x, BatchNormLayer& layer, bool batchStatistics)
{
    const std::vector<float> gamma = layer.scale.value.download(), beta = layer.bias.value.download();
    std::vector<double> mean(static_cast<std::size_t>(x.s.c)), var(static_cast<std::size_t>(x.s.c));
    if(batchStatistics)
    {
        const double count = static_cast<double>(x.s.n) * x.s.h * x.s.w;
        for(int c = 0; c < x.s.c; ++c)
        {
            double s = 0.0, s2 = 0.0;
            for(int n = 0; n < x.s.n; ++n)
                for(int h = 0; h < x.s.h; ++h)
                    for(int w = 0; w < x.s.w; ++w)
                        s += x.at(n, c, h, w);
            const double m = s / count;
            for(int n = 0; n < x.s.n; ++n)
                for(int h = 0; h < x.s.h; ++h)
                    for(int w = 0; w < x.s.w; ++w)
                        s2 += (x.at(n, c, h, w) - m) * (x.at(n, c, h, w) - m);
            mean[static_cast<std::size_t>(c)] = m;
            var[static_cast<std::size_t>(c)]  = s2 / count;
        }
    }
    else
    {
        const std::vector<float> rm = layer.runningMean.download(), rv = layer.runningVar.download();
        std::copy(rm.begin(), rm.end(), mean.begin());
        std::copy(rv.begin(), rv.end(), var.begin());
    }
    HostTensor y(x.s);
    for(int n = 0; n < x.s.n; ++n)
        for(int c = 0; c < x.s.c; ++c)
        {
            const std::size_t ci = static_cast<std::size_t>(c);
            const double inv     = 1.0 / std::sqrt(var[ci] + BatchNormLayer::kEpsilon);
            for(int h = 0; h < x.s.h; ++h)
                for(int w = 0; w < x.s.w; ++w)
                    y.at(n, c, h, w) = gamma[ci] * (x.at(n, c, h, w) - mean[ci]) * inv + beta[ci];
        }
    return y;
}

HostTensor relu(HostTensor x)
{
    for(auto& e : x.v)
        e = std::max(e, 0.0);
    return x;
}

HostTensor add(HostTensor a, const HostTensor& b)
{
    for(std::size_t i = 0; i < a.v.size(); ++i)
        a.v[i] += b.v[i];
    return a;
}

// Max or average (padding excluded) pooling.
HostTensor pool(const HostTensor& x, const PoolLayer& layer)
{
    const Shape& o = layer.outShape();
    const int win = layer.window(), st = layer.stride(), pd = layer.pad();
    const bool isMax = layer.mode() == miopenPoolingMax;
    HostTensor y(o);
    for(int n = 0; n < o.n; ++n)
        for(int c = 0; c < o.c; ++c)
            for(int oy = 0; oy < o.h; ++oy)
                for(int ox = 0; ox < o.w; ++ox)
                {
                    double best = -std::numeric_limits<double>::infinity(), sum = 0.0;
                    int count = 0;
                    for(int fy = 0; fy < win; ++fy)
                        for(int fx = 0; fx < win; ++fx)
                        {
                            const int iy = oy * st - pd + fy, ix = ox * st - pd + fx;
                            if(iy < 0 || iy >= x.s.h || ix < 0 || ix >= x.s.w)
                                continue;
                            best = std::max(best, x.at(n, c, iy, ix));
                            sum += x.at(n, c, iy, ix);
                            ++count;
                        }
                    y.at(n, c, oy, ox) = isMax ? best : sum / count;
                }
    return y;
}

} // namespace

std::vector<double> referenceLogits(Network& net, const std::vector<float>& images, bool batchStatistics)
{
    const Config& cfg = net.config();
    HostTensor x(Shape{cfg.batch, 3, cfg.imageSize, cfg.imageSize});
    std::copy(images.begin(), images.end(), x.v.begin());
    x = pool(relu(batchNorm(conv(x, net.stemConv()), net.stemBn(), batchStatistics)), net.stemPool());
    for(auto& b : net.blocks())
    {
        HostTensor r1 = relu(batchNorm(conv(x, b->conv1), b->bn1, batchStatistics));
        HostTensor b2 = batchNorm(conv(r1, b->conv2), b->bn2, batchStatistics);
        HostTensor shortcut = b->proj ? batchNorm(conv(x, *b->proj), *b->projBn, batchStatistics) : x;
        x = relu(add(std::move(b2), shortcut));
    }
    // Global average pool: the mean over each channel's plane.
    HostTensor g(Shape{x.s.n, x.s.c, 1, 1});
    for(int n = 0; n < x.s.n; ++n)
        for(int c = 0; c < x.s.c; ++c)
        {
            double s = 0.0;
            for(int h = 0; h < x.s.h; ++h)
                for(int w = 0; w < x.s.w; ++w)
                    s += x.at(n, c, h, w);
            g.at(n, c, 0, 0) = s / (static_cast<double>(x.s.h) * x.s.w);
        }
    return conv(g, net.classifier()).v;
}

} // namespace cnn
