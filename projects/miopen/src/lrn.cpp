#include <miopen/float_storage.hpp>
#include <miopen/logger.hpp>
#include <miopen/lrn.hpp>
#include <miopen/threading.hpp>

#include <algorithm>
#include <cmath>
#include <sstream>
#include <string>
#include <vector>

namespace miopen {
namespace {

struct Shape
{
    std::int64_t n = 0, c = 0, h = 0, w = 0;
};

struct Strides4
{
    std::size_t n = 0, c = 0, h = 0, w = 0;
    std::size_t at(std::int64_t in, std::int64_t ic, std::int64_t ih, std::int64_t iw) const
    {
        return static_cast<std::size_t>(in) * n + static_cast<std::size_t>(ic) * c +
               static_cast<std::size_t>(ih) * h + static_cast<std::size_t>(iw) * w;
    }
};

Strides4 stridesOf(const TensorDescriptor& d)
{
    return {d.stride(0), d.stride(1), d.stride(2), d.stride(3)};
}

void checkTensors(std::initializer_list<const TensorDescriptor*> descs)
{
    const TensorDescriptor& first = **descs.begin();
    for(const auto* d : descs)
    {
        if(d->numDims() != 4)
            fail(miopenStatusBadParm, "LRN needs 4-D tensors, got rank " + std::to_string(d->numDims()));
        check(d->lens() == first.lens(), "LRN tensors differ in lengths");
        check(d->type() == first.type(), "LRN tensors differ in data type");
    }
    // As upstream: bf16 (and anything but fp32 and fp16) is not implemented.
    if(first.type() != miopenFloat && first.type() != miopenHalf)
        fail(miopenStatusNotImplemented,
             std::string("LRN is not implemented for ") + dataTypeName(first.type()) + " (fp32 and fp16 are)");
}

std::size_t planeGrain(std::int64_t opsPerPlane)
{
    return std::max<std::size_t>(1, (std::size_t{1} << 15) /
                                        static_cast<std::size_t>(std::max<std::int64_t>(1, opsPerPlane)));
}

} // namespace

std::size_t lrnWorkspaceSize(const TensorDescriptor& y)
{
    check(y.numDims() >= 1, "yDesc has no dimensions");
    return std::max(y.len(0) * y.stride(0), y.elementCount()) * sizeof(float);
}

void LrnDescriptor::set(miopenLRNMode_t mode, unsigned int n, double alpha, double beta, double k)
{
    check(n >= 1, "lrnN must be >= 1");
    check(mode == miopenLRNWithinChannel || mode == miopenLRNCrossChannel, "unknown LRN mode");
    _mode  = mode;
    _n     = n;
    _alpha = alpha;
    _beta  = beta;
    _k     = k;
    _isSet = true;
}

const LrnDescriptor& LrnDescriptor::checkSet(const char* what) const
{
    if(!_isSet)
        fail(miopenStatusNotInitialized, std::string(what) + " was never set");
    return *this;
}

void LrnDescriptor::forward(const Handle& /*handle*/,
                            const TensorDescriptor& xDesc,
                            const void* x,
                            const TensorDescriptor& yDesc,
                            void* y,
                            bool saveScale,
                            void* workspace) const
{
    checkSet("lrnDesc");
    check(x != nullptr, "x is null");
    check(y != nullptr, "y is null");
    checkTensors({&xDesc, &yDesc});
    if(_k == 0.0)
        fail(miopenStatusUnknownError, "LRN needs a non-zero K");
    if(saveScale)
        check(workspace != nullptr, "workSpace is null but do_backward needs it");
    checkDistinctAddresses(yDesc, "y");

    const Shape s{static_cast<std::int64_t>(xDesc.len(0)), static_cast<std::int64_t>(xDesc.len(1)),
                  static_cast<std::int64_t>(xDesc.len(2)), static_cast<std::int64_t>(xDesc.len(3))};
    const Strides4 xs = stridesOf(xDesc), ys = stridesOf(yDesc);
    const auto rl     = static_cast<std::int64_t>((_n - 1) / 2);
    const auto ru     = static_cast<std::int64_t>(_n / 2);
    const bool cross  = _mode == miopenLRNCrossChannel;
    const double area = cross ? double(_n) : double(_n) * double(_n);
    const double alphaOverArea = _alpha / area;
    const double k = _k, beta = _beta;
    auto* scales      = static_cast<float*>(workspace);

    storage::visit(xDesc.type(), "LRN", [&](auto tag) {
        using Tag  = decltype(tag);
        using Bits = typename Tag::Bits;
        const auto* xp = static_cast<const Bits*>(x);
        auto* yp       = static_cast<Bits*>(y);
        parallelFor(
            static_cast<std::size_t>(s.n * s.c),
            [&](std::size_t begin, std::size_t end) {
                for(std::size_t plane = begin; plane < end; ++plane)
                {
                    const auto n = static_cast<std::int64_t>(plane) / s.c;
                    const auto c = static_cast<std::int64_t>(plane) % s.c;
                    for(std::int64_t h = 0; h < s.h; ++h)
                        for(std::int64_t w = 0; w < s.w; ++w)
                        {
                            double sum = 0.0;
                            if(cross)
                            {
                                for(std::int64_t kc = std::max<std::int64_t>(0, c - rl);
                                    kc <= std::min(s.c - 1, c + ru); ++kc)
                                {
                                    const double v = Tag::load(xp[xs.at(n, kc, h, w)]);
                                    sum += v * v;
                                }
                            }
                            else
                            {
                                for(std::int64_t kh = std::max<std::int64_t>(0, h - rl);
                                    kh <= std::min(s.h - 1, h + ru); ++kh)
                                    for(std::int64_t kw = std::max<std::int64_t>(0, w - rl);
                                        kw <= std::min(s.w - 1, w + ru); ++kw)
                                    {
                                        const double v = Tag::load(xp[xs.at(n, c, kh, kw)]);
                                        sum += v * v;
                                    }
                            }
                            const double scale = k + alphaOverArea * sum;
                            const double xv    = Tag::load(xp[xs.at(n, c, h, w)]);
                            yp[ys.at(n, c, h, w)] = Tag::store(static_cast<float>(xv * std::pow(scale, -beta)));
                            if(saveScale)
                                scales[((n * s.c + c) * s.h + h) * s.w + w] = static_cast<float>(scale);
                        }
                }
            },
            planeGrain(s.h * s.w * (cross ? ru + rl + 1 : (ru + rl + 1) * (ru + rl + 1))));
    });
}

void LrnDescriptor::backward(const Handle& /*handle*/,
                             const TensorDescriptor& yDesc,
                             const void* y,
                             const TensorDescriptor& dyDesc,
                             const void* dy,
                             const TensorDescriptor& xDesc,
                             const void* x,
                             const TensorDescriptor& dxDesc,
                             void* dx,
                             const void* workspace) const
{
    checkSet("lrnDesc");
    check(y != nullptr, "y is null");
    check(dy != nullptr, "dy is null");
    check(x != nullptr, "x is null");
    check(dx != nullptr, "dx is null");
    check(workspace != nullptr, "workSpace (the scales of the forward pass) is null");
    checkTensors({&yDesc, &dyDesc, &xDesc, &dxDesc});
    if(_k == 0.0)
        fail(miopenStatusUnknownError, "LRN needs a non-zero K");
    checkDistinctAddresses(dxDesc, "dx");

    const Shape s{static_cast<std::int64_t>(xDesc.len(0)), static_cast<std::int64_t>(xDesc.len(1)),
                  static_cast<std::int64_t>(xDesc.len(2)), static_cast<std::int64_t>(xDesc.len(3))};
    const Strides4 ys = stridesOf(yDesc), dys = stridesOf(dyDesc), xs = stridesOf(xDesc),
                   dxs = stridesOf(dxDesc);
    const auto rl     = static_cast<std::int64_t>((_n - 1) / 2);
    const auto ru     = static_cast<std::int64_t>(_n / 2);
    const bool cross  = _mode == miopenLRNCrossChannel;
    const double area = cross ? double(_n) : double(_n) * double(_n);
    const double ratio = 2.0 * _alpha * _beta / area;
    const double beta  = _beta;
    const auto* scales = static_cast<const float*>(workspace);
    auto scaleAt = [&](std::int64_t n, std::int64_t c, std::int64_t h, std::int64_t w) {
        return static_cast<double>(scales[((n * s.c + c) * s.h + h) * s.w + w]);
    };

    storage::visit(xDesc.type(), "LRN backward", [&](auto tag) {
        using Tag  = decltype(tag);
        using Bits = typename Tag::Bits;
        const auto* yp  = static_cast<const Bits*>(y);
        const auto* dyp = static_cast<const Bits*>(dy);
        const auto* xp  = static_cast<const Bits*>(x);
        auto* dxp       = static_cast<Bits*>(dx);
        auto ratioTerm  = [&](std::int64_t n, std::int64_t c, std::int64_t h, std::int64_t w) {
            return static_cast<double>(Tag::load(yp[ys.at(n, c, h, w)])) *
                   static_cast<double>(Tag::load(dyp[dys.at(n, c, h, w)])) / scaleAt(n, c, h, w);
        };
        // One plane's gradients are staged in fp32, then stored.
        std::vector<std::vector<float>> scratch(threadCount());
        parallelForIndexed(
            static_cast<std::size_t>(s.n * s.c),
            [&](std::size_t chunk, std::size_t begin, std::size_t end) {
                auto& out = scratch[chunk];
                out.resize(static_cast<std::size_t>(s.h * s.w));
                for(std::size_t plane = begin; plane < end; ++plane)
                {
                    const auto n = static_cast<std::int64_t>(plane) / s.c;
                    const auto c = static_cast<std::int64_t>(plane) % s.c;
                    for(std::int64_t h = 0; h < s.h; ++h)
                        for(std::int64_t w = 0; w < s.w; ++w)
                        {
                            double sum = 0.0; // over the transposed window: [i - ru, i + rl]
                            if(cross)
                            {
                                for(std::int64_t kc = std::max<std::int64_t>(0, c - ru);
                                    kc <= std::min(s.c - 1, c + rl); ++kc)
                                    sum += ratioTerm(n, kc, h, w);
                            }
                            else
                            {
                                for(std::int64_t kh = std::max<std::int64_t>(0, h - ru);
                                    kh <= std::min(s.h - 1, h + rl); ++kh)
                                    for(std::int64_t kw = std::max<std::int64_t>(0, w - ru);
                                        kw <= std::min(s.w - 1, w + rl); ++kw)
                                        sum += ratioTerm(n, c, kh, kw);
                            }
                            const double g = std::pow(scaleAt(n, c, h, w), -beta) *
                                                 static_cast<double>(Tag::load(dyp[dys.at(n, c, h, w)])) -
                                             ratio * static_cast<double>(Tag::load(xp[xs.at(n, c, h, w)])) * sum;
                            out[static_cast<std::size_t>(h * s.w + w)] = static_cast<float>(g);
                        }
                    for(std::int64_t h = 0; h < s.h; ++h)
                        for(std::int64_t w = 0; w < s.w; ++w)
                            dxp[dxs.at(n, c, h, w)] = Tag::store(out[static_cast<std::size_t>(h * s.w + w)]);
                }
            },
            planeGrain(s.h * s.w * (cross ? ru + rl + 1 : (ru + rl + 1) * (ru + rl + 1))));
    });
}

std::string LrnDescriptor::toString() const
{
    if(!_isSet)
        return "{unset}";
    std::ostringstream ss;
    ss << '{' << (_mode == miopenLRNWithinChannel ? "miopenLRNWithinChannel" : "miopenLRNCrossChannel") << ", N " << _n
       << ", alpha " << _alpha << ", beta " << _beta << ", K " << _k << '}';
    return ss.str();
}

std::string LrnDescriptor::driverArgs(const TensorDescriptor& x, bool forward) const
{
    const auto d = driverNchw(x);
    std::ostringstream ss;
    ss << driverBaseArg("lrn", x.type()) << " -A " << _alpha << " -B " << _beta << " -F " << (forward ? 1 : 2)
       << " -H " << d[2] << " -K " << _k << " -N " << _n << " -W " << d[3] << " -c " << d[1] << " -m "
       << static_cast<int>(_mode) << " -n " << d[0];
    return ss.str();
}

} // namespace miopen
