// GEMM-based convolution solvers (upstream ids 88, 90, 91, 95, 96, 97, 101, 102; 1201-1203 our own).
//
// All of them run on the packed GEMM engine of isa_gemm.hpp (AVX-512 micro-kernel when the CPU
// has it, a portable one otherwise), with im2col fused into the packing of the GEMM operands,
// col2im fused into the output staging, and fp16/bf16 converted to fp32 while packing (results
// rounded once on the store). Not OpenBLAS: on this project's machines OpenBLAS 0.3.21 selects
// its AVX2 (Haswell) kernels, half the speed of an AVX-512 kernel, and its packing cannot fuse
// im2col.
//
// Coverage: packed NCHW/NCDHW (and NCW) tensors, fp32/fp16/bf16, groups; 1..3 spatial dims.
//   88 GemmFwd1x1_0_1      forward, 1x1, stride 1, pad 0: Y = W * X, no im2col
//   90 GemmFwd1x1_0_2      forward, 1x1, pad 0, some stride > 1: each image gathered densely,
//                          then a 1x1 GEMM (strided gather fused into packing when images < threads)
//   91 GemmFwdRest         forward, any geometry: fused im2col + GEMM
// 1201 GemmFwdPhaseGrid    forward, 2-D/1-D, strides <= 8: each image split once into the
//                          phase planes of its strides, so every im2col row is one contiguous
//                          run (junk grid columns computed and dropped)
//   95 GemmBwd1x1_stride2  backward data, 1x1, pad 0, some stride > 1: GEMM + strided scatter
//   96 GemmBwd1x1_stride1  backward data, 1x1, stride 1, pad 0: dX = W^T * dY
//   97 GemmBwdRest         backward data, any geometry: GEMM + col2im
// 1202 GemmBwdPhaseGrid    backward data, 2-D/1-D: GEMM on dY's grid, col rows added as whole
//                          runs into dX's phase planes, which are then merged into dX
//  101 GemmWrw1x1_stride1  backward weights, 1x1, stride 1, pad 0: dW = dY * X^T
//  102 GemmWrwUniversal    backward weights, any geometry: dY * im2col(X)^T (1x1 strided: images
//                          gathered densely first when there is an image per thread)
// 1203 GemmWrwPhaseGrid    backward weights, 2-D/1-D: dY's grid (junk columns zero) times the
//                          phase planes' runs, transposed
// Workspace: packed weights and per-thread packing buffers (threadCount() slots); every solver
// here needs some (upstream's "no workspace" 1x1 variants packed nothing; packing is what makes
// this CPU GEMM fast).
#include <miopen/conv/solvers.hpp>
#include <miopen/logger.hpp>

#include "isa.hpp"

namespace miopen {
namespace conv {
namespace detail {

#define MIOPEN_ISA_KERNELS "isa_conv_gemm.hpp"
#include "isa_builds.hpp"

} // namespace detail

namespace {

using detail::Geometry;

enum class GemmKind
{
    Fwd1x1Stride1,
    Fwd1x1Strided,
    FwdRest,
    FwdPhaseGrid,
    Bwd1x1Strided,
    Bwd1x1Stride1,
    BwdRest,
    BwdPhaseGrid,
    Wrw1x1,
    WrwUniversal,
    WrwPhaseGrid,
};

Direction directionOf(GemmKind k)
{
    switch(k)
    {
    case GemmKind::Fwd1x1Stride1:
    case GemmKind::Fwd1x1Strided:
    case GemmKind::FwdRest:
    case GemmKind::FwdPhaseGrid: return Direction::Forward;
    case GemmKind::Bwd1x1Strided:
    case GemmKind::Bwd1x1Stride1:
    case GemmKind::BwdRest:
    case GemmKind::BwdPhaseGrid: return Direction::BackwardData;
    case GemmKind::Wrw1x1:
    case GemmKind::WrwUniversal:
    case GemmKind::WrwPhaseGrid: return Direction::BackwardWeights;
    }
    return Direction::Forward;
}

// Measures (null tensors) or runs the algorithm of `kind`; returns the workspace bytes when
// measuring.
std::size_t execute(GemmKind kind, const char* name, const ProblemDescription& p, const ConvTensors* t, void* ws,
                    std::size_t wsBytes)
{
    const Geometry g = detail::makeGeometry(p);
    const detail::CpuIsa isa = detail::selectedIsa();
    return detail::withElem(p.dataType(), [&](auto elem) -> std::size_t {
        using E = decltype(elem);
        switch(kind)
        {
        case GemmKind::Fwd1x1Stride1:
        case GemmKind::Fwd1x1Strided:
        case GemmKind::FwdRest: {
            const bool pointwise = kind == GemmKind::Fwd1x1Stride1;
            const void* x        = t ? t->in : nullptr;
            const void* w        = t ? t->wei : nullptr;
            void* y              = t ? t->outOut : nullptr;
            // Strided 1x1 with an image per thread: gather each image densely, then a 1x1 GEMM.
            if(kind == GemmKind::Fwd1x1Strided && g.n >= threadCount())
                return MIOPEN_ISA_DISPATCH(isa, forwardStrided1x1Gemm<E>(name, g, x, w, y, ws, wsBytes));
            return MIOPEN_ISA_DISPATCH(isa, forwardGemm<E>(name, g, pointwise, x, w, y, ws, wsBytes));
        }
        case GemmKind::FwdPhaseGrid: {
            const void* x = t ? t->in : nullptr;
            const void* w = t ? t->wei : nullptr;
            void* y       = t ? t->outOut : nullptr;
            return MIOPEN_ISA_DISPATCH(isa, forwardPhaseGridGemm<E>(name, g, x, w, y, ws, wsBytes));
        }
        case GemmKind::Bwd1x1Strided:
        case GemmKind::Bwd1x1Stride1: {
            const void* dy = t ? t->out : nullptr;
            const void* w  = t ? t->wei : nullptr;
            void* dx       = t ? t->inOut : nullptr;
            return MIOPEN_ISA_DISPATCH(isa, backwardData1x1Gemm<E>(name, g, dy, w, dx, ws, wsBytes));
        }
        case GemmKind::BwdRest: {
            const void* dy = t ? t->out : nullptr;
            const void* w  = t ? t->wei : nullptr;
            void* dx       = t ? t->inOut : nullptr;
            return MIOPEN_ISA_DISPATCH(isa, backwardDataGemm<E>(name, g, dy, w, dx, ws, wsBytes));
        }
        case GemmKind::BwdPhaseGrid: {
            const void* dy = t ? t->out : nullptr;
            const void* w  = t ? t->wei : nullptr;
            void* dx       = t ? t->inOut : nullptr;
            return MIOPEN_ISA_DISPATCH(isa, backwardDataPhaseGridGemm<E>(name, g, dy, w, dx, ws, wsBytes));
        }
        case GemmKind::Wrw1x1:
        case GemmKind::WrwUniversal: {
            const bool pointwise = kind == GemmKind::Wrw1x1;
            const void* x        = t ? t->in : nullptr;
            const void* dy       = t ? t->out : nullptr;
            void* dw             = t ? t->weiOut : nullptr;
            // Strided 1x1 (pad 0) with an image per thread: dense gather, then a 1x1 GEMM.
            if(kind == GemmKind::WrwUniversal && p.is1x1() && p.isZeroPad() && !p.isUnitStride() &&
               g.n >= threadCount())
                return MIOPEN_ISA_DISPATCH(isa, backwardWeightsStrided1x1Gemm<E>(name, g, x, dy, dw, ws, wsBytes));
            return MIOPEN_ISA_DISPATCH(isa, backwardWeightsGemm<E>(name, g, pointwise, x, dy, dw, ws, wsBytes));
        }
        case GemmKind::WrwPhaseGrid: {
            const void* x  = t ? t->in : nullptr;
            const void* dy = t ? t->out : nullptr;
            void* dw       = t ? t->weiOut : nullptr;
            return MIOPEN_ISA_DISPATCH(isa, backwardWeightsPhaseGridGemm<E>(name, g, x, dy, dw, ws, wsBytes));
        }
        }
        return 0;
    });
}

bool hasStrideAbove1(const ProblemDescription& p) { return !p.isUnitStride(); }

// Why the phase-grid solvers decline `p` (empty when they apply).
std::string phaseGridDecline(const ProblemDescription& p)
{
    if(p.spatialDims() > 2)
        return "3-D problems are not split into phase planes (the im2col GEMM solvers cover them)";
    if(p.is1x1() && p.isZeroPad() && p.isUnitStride())
        return "1x1, stride 1, pad 0: the 1x1 GEMM solver reads the tensors in place";
    const Geometry g = detail::makeGeometry(p);
    for(int d = 1; d < 3; ++d)
        if(g.str[d] > static_cast<long>(detail::kPhaseStrideMax))
            return "a stride above " + std::to_string(detail::kPhaseStrideMax);
    const detail::PhaseGrid pg = detail::makePhaseGrid(g);
    // Junk columns are computed like real ones: keep them under a third of the work.
    if(2 * pg.cols > 3 * g.out[1] * g.out[2])
        return "the grid has " + std::to_string(pg.gw) + " columns per output row of " + std::to_string(g.out[2]) +
               " (more than half again as many: too much junk work)";
    constexpr double kPlanesMax = 256.0 * (1 << 20);
    if(static_cast<double>(g.c) * static_cast<double>(pg.chanLen) * sizeof(float) > kPlanesMax)
        return "one image's phase planes would exceed 256 MiB per thread";
    return {};
}

class GemmSolver final : public Solver
{
public:
    GemmSolver(std::uint64_t id, const char* name, GemmKind kind) : _id(id), _name(name), _kind(kind) {}

    std::uint64_t id() const noexcept override { return _id; }
    const char* name() const noexcept override { return _name; }
    miopenConvAlgorithm_t algorithm() const noexcept override { return miopenConvolutionAlgoGEMM; }
    bool computes(Direction d) const noexcept override { return d == directionOf(_kind); }

    Applicability isApplicable(const ProblemDescription& p) const override
    {
        const Direction d = directionOf(_kind);
        if(p.direction() != d)
            return Applicability::no(std::string("direction is ") + directionName(p.direction()) +
                                     ", this solver computes " + directionName(d));
        const miopenDataType_t t = p.dataType();
        if(t != miopenFloat && t != miopenHalf && t != miopenBFloat16)
            return Applicability::no(std::string("data type ") + dataTypeName(t) +
                                     " is not supported (fp32, fp16, bf16)");
        if(p.out().type() != t)
            return Applicability::no("the output data type differs from the input's");
        if(!p.isPackedNCHW())
        {
            const std::string l = p.commonLayout();
            return Applicability::no("tensors must be packed NCHW/NCDHW (layout: " +
                                     (l.empty() ? std::string("mixed or strided") : l) + ")");
        }
        switch(_kind)
        {
        case GemmKind::Fwd1x1Stride1:
        case GemmKind::Bwd1x1Stride1:
        case GemmKind::Wrw1x1:
            if(!p.is1x1())
                return Applicability::no("filter is not 1x1");
            if(!p.isZeroPad())
                return Applicability::no("padding is not zero");
            if(hasStrideAbove1(p))
                return Applicability::no("stride is not 1");
            break;
        case GemmKind::Fwd1x1Strided:
        case GemmKind::Bwd1x1Strided:
            if(!p.is1x1())
                return Applicability::no("filter is not 1x1");
            if(!p.isZeroPad())
                return Applicability::no("padding is not zero");
            if(!hasStrideAbove1(p))
                return Applicability::no("all strides are 1 (the stride-1 1x1 solver covers it)");
            break;
        case GemmKind::FwdPhaseGrid:
        case GemmKind::BwdPhaseGrid:
        case GemmKind::WrwPhaseGrid: {
            const std::string why = phaseGridDecline(p);
            if(!why.empty())
                return Applicability::no(why);
            break;
        }
        case GemmKind::FwdRest:
        case GemmKind::BwdRest:
        case GemmKind::WrwUniversal: break;
        }
        return Applicability::yes();
    }

    std::size_t workspaceSize(const ProblemDescription& p) const override
    {
        return execute(_kind, _name, p, nullptr, nullptr, 0);
    }

    void run(const Handle&, const ProblemDescription& p, const ConvTensors& t, void* ws, std::size_t wsBytes) const override
    {
        const Direction d = directionOf(_kind);
        const bool ok     = d == Direction::Forward        ? (t.in && t.wei && t.outOut)
                            : d == Direction::BackwardData ? (t.out && t.wei && t.inOut)
                                                           : (t.in && t.out && t.weiOut);
        check(ok, "GEMM convolution: null tensor buffer");
        execute(_kind, _name, p, &t, ws, wsBytes);
    }

private:
    std::uint64_t _id;
    const char* _name;
    GemmKind _kind;
};

} // namespace

std::vector<const Solver*> gemmSolvers()
{
    static const GemmSolver fwd11(88, "GemmFwd1x1_0_1", GemmKind::Fwd1x1Stride1);
    static const GemmSolver fwd12(90, "GemmFwd1x1_0_2", GemmKind::Fwd1x1Strided);
    static const GemmSolver fwdRest(91, "GemmFwdRest", GemmKind::FwdRest);
    static const GemmSolver fwdPhase(1201, "GemmFwdPhaseGrid", GemmKind::FwdPhaseGrid);
    static const GemmSolver bwd2(95, "GemmBwd1x1_stride2", GemmKind::Bwd1x1Strided);
    static const GemmSolver bwd1(96, "GemmBwd1x1_stride1", GemmKind::Bwd1x1Stride1);
    static const GemmSolver bwdRest(97, "GemmBwdRest", GemmKind::BwdRest);
    static const GemmSolver bwdPhase(1202, "GemmBwdPhaseGrid", GemmKind::BwdPhaseGrid);
    static const GemmSolver wrw1(101, "GemmWrw1x1_stride1", GemmKind::Wrw1x1);
    static const GemmSolver wrwU(102, "GemmWrwUniversal", GemmKind::WrwUniversal);
    static const GemmSolver wrwPhase(1203, "GemmWrwPhaseGrid", GemmKind::WrwPhaseGrid);
    // The phase-grid solvers: before GemmBwdRest (faster on every ResNet-50 3x3 and 7x7 layer
    // measured), after GemmFwdRest and GemmWrwUniversal (faster on large images, slower on small
    // ones, where the junk columns weigh more: conv5_x W at 7x7 computes 9 of every 7 columns).
    return {&fwd11, &fwd12, &fwdRest, &fwdPhase, &bwd2, &bwd1, &bwdPhase, &bwdRest, &wrw1, &wrwU, &wrwPhase};
}

} // namespace conv
} // namespace miopen
