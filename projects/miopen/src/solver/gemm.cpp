// GEMM-based convolution solvers (upstream ids 88, 90, 91, 95, 96, 97, 101, 102).
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
//   95 GemmBwd1x1_stride2  backward data, 1x1, pad 0, some stride > 1: GEMM + strided scatter
//   96 GemmBwd1x1_stride1  backward data, 1x1, stride 1, pad 0: dX = W^T * dY
//   97 GemmBwdRest         backward data, any geometry: GEMM + col2im
//  101 GemmWrw1x1_stride1  backward weights, 1x1, stride 1, pad 0: dW = dY * X^T
//  102 GemmWrwUniversal    backward weights, any geometry: dY * im2col(X)^T (1x1 strided: images
//                          gathered densely first when there is an image per thread)
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
    Bwd1x1Strided,
    Bwd1x1Stride1,
    BwdRest,
    Wrw1x1,
    WrwUniversal,
};

Direction directionOf(GemmKind k)
{
    switch(k)
    {
    case GemmKind::Fwd1x1Stride1:
    case GemmKind::Fwd1x1Strided:
    case GemmKind::FwdRest: return Direction::Forward;
    case GemmKind::Bwd1x1Strided:
    case GemmKind::Bwd1x1Stride1:
    case GemmKind::BwdRest: return Direction::BackwardData;
    case GemmKind::Wrw1x1:
    case GemmKind::WrwUniversal: return Direction::BackwardWeights;
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
        }
        return 0;
    });
}

bool hasStrideAbove1(const ProblemDescription& p) { return !p.isUnitStride(); }

class GemmSolver final : public Solver
{
public:
    GemmSolver(std::uint64_t id, const char* name, GemmKind kind) : _id(id), _name(name), _kind(kind) {}

    std::uint64_t id() const noexcept override { return _id; }
    const char* name() const noexcept override { return _name; }
    miopenConvAlgorithm_t algorithm() const noexcept override { return miopenConvolutionAlgoGEMM; }

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
    static const GemmSolver bwd2(95, "GemmBwd1x1_stride2", GemmKind::Bwd1x1Strided);
    static const GemmSolver bwd1(96, "GemmBwd1x1_stride1", GemmKind::Bwd1x1Stride1);
    static const GemmSolver bwdRest(97, "GemmBwdRest", GemmKind::BwdRest);
    static const GemmSolver wrw1(101, "GemmWrw1x1_stride1", GemmKind::Wrw1x1);
    static const GemmSolver wrwU(102, "GemmWrwUniversal", GemmKind::WrwUniversal);
    return {&fwd11, &fwd12, &fwdRest, &bwd2, &bwd1, &bwdRest, &wrw1, &wrwU};
}

} // namespace conv
} // namespace miopen
