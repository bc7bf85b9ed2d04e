// Convolution geometry normalised to three spatial dims (D, H, W), shared by the solvers.
// A 1-D problem is (1, 1, W), a 2-D one (1, H, W): the missing outer dims have length 1, pad 0,
// stride 1, dilation 1 and tensor stride 0, so every loop can be written once for 3-D.
#pragma once

#include <miopen/conv/problem.hpp>

#include <cstddef>

namespace miopen {
namespace conv {
namespace detail {

struct Geometry
{
    std::size_t n = 0, c = 0, k = 0, groups = 1;
    std::size_t cPerGroup = 0, kPerGroup = 0;
    std::size_t in[3]{1, 1, 1}, out[3]{1, 1, 1}, fil[3]{1, 1, 1};
    long pad[3]{0, 0, 0}, str[3]{1, 1, 1}, dil[3]{1, 1, 1};
    // Element strides: [0] N (filter: K), [1] C, [2..4] D, H, W.
    std::size_t xs[5]{}, ws[5]{}, ys[5]{};

    std::size_t inSpatial() const noexcept { return in[0] * in[1] * in[2]; }
    std::size_t outSpatial() const noexcept { return out[0] * out[1] * out[2]; }
    std::size_t filterSpatial() const noexcept { return fil[0] * fil[1] * fil[2]; }
};

inline void spreadStrides(const TensorDescriptor& t, std::size_t* strides5)
{
    const std::size_t sd = t.numDims() - 2;
    const std::size_t off = 3 - sd;
    strides5[0]          = t.stride(0);
    strides5[1]          = t.stride(1);
    for(std::size_t i = 0; i < 3; ++i)
        strides5[2 + i] = i < off ? 0 : t.stride(2 + i - off);
}

inline Geometry makeGeometry(const ProblemDescription& p)
{
    Geometry g;
    g.n         = p.batch();
    g.c         = p.inChannels();
    g.k         = p.outChannels();
    g.groups    = p.groups();
    g.cPerGroup = g.c / g.groups;
    g.kPerGroup = g.k / g.groups;
    const std::size_t sd  = static_cast<std::size_t>(p.spatialDims());
    const std::size_t off = 3 - sd;
    for(std::size_t i = 0; i < sd; ++i)
    {
        g.in[off + i]  = p.inSpatial()[i];
        g.out[off + i] = p.outSpatial()[i];
        g.fil[off + i] = p.filterSpatial()[i];
        g.pad[off + i] = p.pads()[i];
        g.str[off + i] = p.strides()[i];
        g.dil[off + i] = p.dilations()[i];
    }
    spreadStrides(p.in(), g.xs);
    spreadStrides(p.weights(), g.ws);
    spreadStrides(p.out(), g.ys);
    return g;
}

} // namespace detail
} // namespace conv
} // namespace miopen
