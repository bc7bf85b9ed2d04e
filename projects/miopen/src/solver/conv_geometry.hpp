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

// The phase planes of GemmFwdPhaseGrid (isa_conv_gemm.hpp explains them): a 2-D (or 1-D)
// problem's padded input split by the residues of its strides.
constexpr std::size_t kPhaseStrideMax = 8; // strides above this are declined (phase tables)
constexpr std::size_t kNoPhase        = static_cast<std::size_t>(-1); // a residue no tap uses

struct PhaseGrid
{
    std::size_t sh = 1, sw = 1, dh = 1, dw = 1;
    std::size_t gh = 0, gw = 0;     // plane rows and columns (the grid of output pixels is OH x gw)
    std::size_t cols = 0;           // OH * gw grid columns per image
    std::size_t planeLen = 0;       // floats per plane: gh*gw and the tail the last run reads
    std::size_t phasesH = 0, phasesW = 0;
    std::size_t phaseH[kPhaseStrideMax]{}, phaseW[kPhaseStrideMax]{}; // residue -> plane index or kNoPhase
    std::size_t residueH[kPhaseStrideMax]{}, residueW[kPhaseStrideMax]{}; // plane index -> residue
    std::size_t chanLen = 0;        // floats of one channel's planes

    // Offset of im2col row (c, fh, fw) (c counted over all channels) in an image's planes.
    std::size_t rowOffset(std::size_t c, std::size_t fh, std::size_t fw) const
    {
        const std::size_t th = fh * dh, tw = fw * dw;
        return c * chanLen + (phaseH[th % sh] * phasesW + phaseW[tw % sw]) * planeLen + th / sh * gw + tw / sw;
    }
};

// Geometry of the phase planes; only meaningful for a 2-D (or 1-D) problem with strides up to
// kPhaseStrideMax (larger strides get no planes).
inline PhaseGrid makePhaseGrid(const Geometry& g)
{
    PhaseGrid pg;
    pg.sh = static_cast<std::size_t>(g.str[1]);
    pg.sw = static_cast<std::size_t>(g.str[2]);
    pg.dh = static_cast<std::size_t>(g.dil[1]);
    pg.dw = static_cast<std::size_t>(g.dil[2]);
    pg.gh = g.out[1] + (g.fil[1] - 1) * pg.dh / pg.sh;
    pg.gw = g.out[2] + (g.fil[2] - 1) * pg.dw / pg.sw;
    pg.cols     = g.out[1] * pg.gw;
    pg.planeLen = pg.gh * pg.gw + (g.fil[2] - 1) * pg.dw / pg.sw;
    // The residues the taps use, in increasing order, numbered.
    auto number = [](std::size_t taps, std::size_t dil, std::size_t str, std::size_t* phase, std::size_t* residue) {
        if(str > kPhaseStrideMax)
            return std::size_t{0}; // declined by the solver; no planes
        for(std::size_t r = 0; r < str; ++r)
            phase[r] = kNoPhase;
        for(std::size_t f = 0; f < taps; ++f)
            phase[f * dil % str] = 0;
        std::size_t count = 0;
        for(std::size_t r = 0; r < str; ++r)
            if(phase[r] != kNoPhase)
            {
                phase[r]         = count;
                residue[count++] = r;
            }
        return count;
    };
    pg.phasesH = number(g.fil[1], pg.dh, pg.sh, pg.phaseH, pg.residueH);
    pg.phasesW = number(g.fil[2], pg.dw, pg.sw, pg.phaseW, pg.residueW);
    pg.chanLen = pg.phasesH * pg.phasesW * pg.planeLen;
    return pg;
}

} // namespace detail
} // namespace conv
} // namespace miopen
