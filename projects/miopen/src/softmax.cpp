#include <miopen/float_storage.hpp>
#include <miopen/logger.hpp>
#include <miopen/softmax.hpp>
#include <miopen/threading.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <sstream>
#include <string>
#include <vector>

namespace miopen {
namespace {

float readScalar(const void* p, const char* what)
{
    check(p != nullptr, (std::string(what) + " is null").c_str());
    float v;
    std::memcpy(&v, p, sizeof v);
    return v;
}

// The groups softmax normalizes over. A tensor is read as N, C, S (S = product of the spatial
// lengths). INSTANCE: N groups of C*S elements; CHANNEL: N*S groups of C elements.
struct Groups
{
    std::size_t n = 0, c = 0, s = 1;
    bool instance = false;

    std::size_t count() const { return instance ? n : n * s; }
    std::size_t length() const { return instance ? c * s : c; }
};

Groups groupsOf(const TensorDescriptor& d, miopenSoftmaxMode_t mode)
{
    if(d.numDims() < 2)
        fail(miopenStatusBadParm, "softmax needs a tensor of rank >= 2 (N, C, ...), got rank " +
                                      std::to_string(d.numDims()));
    Groups g;
    g.n = d.len(0);
    g.c = d.len(1);
    for(std::size_t i = 2; i < d.numDims(); ++i)
        g.s *= d.len(i);
    switch(mode)
    {
    case MIOPEN_SOFTMAX_MODE_INSTANCE: g.instance = true; break;
    case MIOPEN_SOFTMAX_MODE_CHANNEL: g.instance = false; break;
    default: fail(miopenStatusBadParm, "unknown softmax mode");
    }
    return g;
}

void checkAlgorithm(miopenSoftmaxAlgorithm_t a)
{
    if(a != MIOPEN_SOFTMAX_FAST && a != MIOPEN_SOFTMAX_ACCURATE && a != MIOPEN_SOFTMAX_LOG)
        fail(miopenStatusBadParm, "unknown softmax algorithm");
}

// Element offsets of one tensor: offset of (n, group g, element j) = n * nStride + inner[pos]
// with pos = j (INSTANCE) or j * S + g (CHANNEL); inner is indexed by c * S + s.
struct Offsets
{
    std::size_t nStride = 0;
    std::vector<std::size_t> inner;

    Offsets(const TensorDescriptor& d, const Groups& g) : nStride(d.stride(0)), inner(g.c * g.s)
    {
        // Spatial offsets, last dimension fastest (the order of the packed N, C, spatial tensor).
        std::vector<std::size_t> spatial(g.s, 0);
        std::size_t block = 1;
        for(std::size_t dim = d.numDims(); dim-- > 2;)
        {
            const std::size_t len = d.len(dim), stride = d.stride(dim);
            for(std::size_t i = 0; i < g.s; ++i)
                spatial[i] += ((i / block) % len) * stride;
            block *= len;
        }
        for(std::size_t c = 0; c < g.c; ++c)
            for(std::size_t s = 0; s < g.s; ++s)
                inner[c * g.s + s] = c * d.stride(1) + spatial[s];
    }

    std::size_t at(const Groups& g, std::size_t group, std::size_t j) const
    {
        if(g.instance)
            return group * nStride + inner[j];
        const std::size_t n = group / g.s, s = group % g.s;
        return n * nStride + inner[j * g.s + s];
    }
};

std::size_t groupGrain(std::size_t length)
{
    return std::max<std::size_t>(1, (std::size_t{1} << 14) / std::max<std::size_t>(1, length));
}

} // namespace

void softmaxForward(const Handle& /*handle*/,
                    const void* alpha,
                    const void* beta,
                    const TensorDescriptor& xDesc,
                    const void* x,
                    const TensorDescriptor& yDesc,
                    void* y,
                    miopenSoftmaxAlgorithm_t algorithm,
                    miopenSoftmaxMode_t mode)
{
    const float a = readScalar(alpha, "alpha");
    const float b = readScalar(beta, "beta");
    check(x != nullptr, "x is null");
    check(y != nullptr, "y is null");
    checkAlgorithm(algorithm);
    check(xDesc.lens() == yDesc.lens(), "x and y differ in lengths");
    check(xDesc.type() == yDesc.type(), "x and y differ in data type");
    const Groups g = groupsOf(xDesc, mode);
    checkDistinctAddresses(yDesc, "y");
    const Offsets xo(xDesc, g), yo(yDesc, g);
    const std::size_t len = g.length();

    storage::visit(xDesc.type(), "softmax", [&](auto tag) {
        using Tag  = decltype(tag);
        using Bits = typename Tag::Bits;
        const auto* xp = static_cast<const Bits*>(x);
        auto* yp       = static_cast<Bits*>(y);
        std::vector<std::vector<float>> scratch(threadCount());
        parallelForIndexed(
            g.count(),
            [&](std::size_t chunk, std::size_t begin, std::size_t end) {
                auto& v = scratch[chunk];
                v.resize(len);
                for(std::size_t group = begin; group < end; ++group)
                {
                    float mx = -INFINITY;
                    for(std::size_t j = 0; j < len; ++j)
                    {
                        v[j] = Tag::load(xp[xo.at(g, group, j)]);
                        mx   = std::max(mx, v[j]);
                    }
                    const float shift = algorithm == MIOPEN_SOFTMAX_FAST ? 0.0f : mx;
                    double sum        = 0.0;
                    for(std::size_t j = 0; j < len; ++j)
                        sum += std::exp(static_cast<double>(v[j] - shift));
                    const double logSum = std::log(sum);
                    for(std::size_t j = 0; j < len; ++j)
                    {
                        const float r =
                            algorithm == MIOPEN_SOFTMAX_LOG
                                ? static_cast<float>(static_cast<double>(v[j] - shift) - logSum)
                                : static_cast<float>(std::exp(static_cast<double>(v[j] - shift)) / sum);
                        Bits& out = yp[yo.at(g, group, j)];
                        out       = Tag::store(b == 0.0f ? a * r : a * r + b * Tag::load(out));
                    }
                }
            },
            groupGrain(len));
    });
}

void softmaxBackward(const Handle& /*handle*/,
                     const void* alpha,
                     const TensorDescriptor& yDesc,
                     const void* y,
                     const TensorDescriptor& dyDesc,
                     const void* dy,
                     const void* beta,
                     const TensorDescriptor& dxDesc,
                     void* dx,
                     miopenSoftmaxAlgorithm_t algorithm,
                     miopenSoftmaxMode_t mode)
{
    const float a = readScalar(alpha, "alpha");
    const float b = readScalar(beta, "beta");
    check(y != nullptr, "y is null");
    check(dy != nullptr, "dy is null");
    check(dx != nullptr, "dx is null");
    checkAlgorithm(algorithm);
    check(yDesc.lens() == dyDesc.lens() && yDesc.lens() == dxDesc.lens(),
          "y, dy and dx differ in lengths");
    check(yDesc.type() == dyDesc.type() && yDesc.type() == dxDesc.type(),
          "y, dy and dx differ in data type");
    const Groups g = groupsOf(yDesc, mode);
    checkDistinctAddresses(dxDesc, "dx");
    const Offsets yo(yDesc, g), dyo(dyDesc, g), dxo(dxDesc, g);
    const std::size_t len = g.length();
    const bool isLog      = algorithm == MIOPEN_SOFTMAX_LOG;

    storage::visit(yDesc.type(), "softmax backward", [&](auto tag) {
        using Tag  = decltype(tag);
        using Bits = typename Tag::Bits;
        const auto* yp  = static_cast<const Bits*>(y);
        const auto* dyp = static_cast<const Bits*>(dy);
        auto* dxp       = static_cast<Bits*>(dx);
        std::vector<std::vector<float>> scratch(threadCount());
        parallelForIndexed(
            g.count(),
            [&](std::size_t chunk, std::size_t begin, std::size_t end) {
                auto& v = scratch[chunk];
                v.resize(2 * len);
                float* yv  = v.data();
                float* dyv = v.data() + len;
                for(std::size_t group = begin; group < end; ++group)
                {
                    double dot = 0.0;
                    for(std::size_t j = 0; j < len; ++j)
                    {
                        yv[j]  = Tag::load(yp[yo.at(g, group, j)]);
                        dyv[j] = Tag::load(dyp[dyo.at(g, group, j)]);
                        dot += isLog ? static_cast<double>(dyv[j])
                                     : static_cast<double>(yv[j]) * static_cast<double>(dyv[j]);
                    }
                    for(std::size_t j = 0; j < len; ++j)
                    {
                        const double grad =
                            isLog ? static_cast<double>(dyv[j]) - std::exp(static_cast<double>(yv[j])) * dot
                                  : static_cast<double>(yv[j]) * (static_cast<double>(dyv[j]) - dot);
                        const float r = static_cast<float>(grad);
                        Bits& out     = dxp[dxo.at(g, group, j)];
                        out           = Tag::store(b == 0.0f ? a * r : a * r + b * Tag::load(out));
                    }
                }
            },
            groupGrain(len));
    });
}

std::string softmaxDriverArgs(const TensorDescriptor& x,
                              miopenSoftmaxAlgorithm_t algorithm,
                              miopenSoftmaxMode_t mode,
                              const void* alpha,
                              const void* beta,
                              bool forward)
{
    const auto scalar = [](const void* p, const char* ifNull) {
        if(p == nullptr)
            return std::string(ifNull);
        float v;
        std::memcpy(&v, p, sizeof v);
        return std::to_string(v);
    };
    const auto d = driverNchw(x);
    std::ostringstream ss;
    ss << driverBaseArg("softmax", x.type()) << " -n " << d[0] << " -c " << d[1] << " -H " << d[2] << " -W " << d[3]
       << " -F " << (forward ? 1 : 2) << " -a " << static_cast<int>(algorithm) << " -m " << static_cast<int>(mode)
       << " -A " << scalar(alpha, "1") << " -B " << scalar(beta, "0");
    return ss.str();
}

} // namespace miopen
