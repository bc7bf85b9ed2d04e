// Winograd convolution solvers for fp32 3x3, stride 1, dilation 1, one group, 2-D packed NCHW,
// Forward and BackwardData (backward data of a 3x3 stride-1 convolution is the forward
// convolution of dy with the 180-degree rotated, C/K-transposed filter and pad' = 2 - pad):
//
//   84   ConvBinWinogradRxSf2x3g1  F(2x2, 3x3): 16 multiplications per 4 outputs (2.25x fewer)
//   1001 ConvCpuWinogradF4x4_3x3   F(4x4, 3x3): 36 multiplications per 16 outputs (4x fewer)
// and BackwardWeights (dW = G^T [sum over tiles (A dy A^T) . (B^T x B)] G, per xi a GEMM whose
// reduction runs over the tiles; fixed summation order, so deterministic):
//   1002 ConvCpuWinogradWrwF4x4_3x3, 1003 ConvCpuWinogradWrwF2x2_3x3
// Backward weights measured 0.41x (F(2x2)) and 4.9x (F(4x4)) the fp32 bound (L = N * output
// pixels) over 300 random problems, so the tests use the same factors 2 and 16.
//
// Implementation (isa_winograd.hpp): filter transform once, then per block of tiles an input
// transform written straight into the packed GEMM layout, alpha^2 tile-batched GEMMs
// (M = output channels, N = tiles, K = input channels) on the packed engine, and the output
// transform.
//
// Numerical error. The transforms add rounding and amplify it (G has entries 1/6 and 1/24; B^T
// and A^T have entries up to 5 and 8 for F(4x4)). Measured against the double reference on random
// inputs in [-1, 1], 300 problems per direction, with the test's fp32 bound
// (2^-24 + 2e-7 * sqrt(L)) * max|ref|, L = 9 * input channels: the worst F(2x2) error was 0.35x
// the bound (the same as direct GEMM, 0.36x), the worst F(4x4) error 7x the bound (about 20x
// GEMM's). The tests therefore scale the fp32 bound by 2 for F(2x2) and 16 for F(4x4).
#include <miopen/conv/solvers.hpp>

#include "isa.hpp"

namespace miopen {
namespace conv {
namespace detail {

#define MIOPEN_ISA_KERNELS "isa_winograd.hpp"
#include "isa_builds.hpp"

} // namespace detail

namespace {

Applicability winogradShapeApplicable(const ProblemDescription& p)
{
    if(p.dataType() != miopenFloat || p.out().type() != miopenFloat)
        return Applicability::no(std::string("data type ") + dataTypeName(p.dataType()) + " is not supported (fp32 only)");
    if(p.spatialDims() != 2)
        return Applicability::no("only 2-D convolutions are supported");
    if(p.filterSpatial()[0] != 3 || p.filterSpatial()[1] != 3)
        return Applicability::no("filter is not 3x3");
    if(!p.isUnitStride())
        return Applicability::no("stride is not 1");
    if(!p.isUnitDilation())
        return Applicability::no("dilation is not 1");
    if(p.groups() != 1)
        return Applicability::no("grouped convolution is not supported");
    if(!p.isPackedNCHW())
    {
        const std::string l = p.commonLayout();
        return Applicability::no("tensors must be packed NCHW (layout: " +
                                 (l.empty() ? std::string("mixed or strided") : l) + ")");
    }
    return Applicability::yes();
}

template <int M>
class WinogradSolver final : public Solver
{
public:
    WinogradSolver(std::uint64_t id, const char* name) : _id(id), _name(name) {}

    std::uint64_t id() const noexcept override { return _id; }
    const char* name() const noexcept override { return _name; }
    miopenConvAlgorithm_t algorithm() const noexcept override { return miopenConvolutionAlgoWinograd; }
    bool computes(Direction d) const noexcept override { return d != Direction::BackwardWeights; }

    Applicability isApplicable(const ProblemDescription& p) const override
    {
        if(p.direction() == Direction::BackwardWeights)
            return Applicability::no("backward weights is not supported (Forward and BackwardData only)");
        return winogradShapeApplicable(p);
    }

    std::size_t workspaceSize(const ProblemDescription& p) const override
    {
        return execute(p, nullptr, nullptr, 0);
    }

    void run(const Handle&, const ProblemDescription& p, const ConvTensors& t, void* ws, std::size_t wsBytes) const override
    {
        const bool fwd = p.direction() == Direction::Forward;
        check(fwd ? (t.in && t.wei && t.outOut) : (t.out && t.wei && t.inOut), "Winograd: null tensor buffer");
        execute(p, &t, ws, wsBytes);
    }

private:
    std::size_t execute(const ProblemDescription& p, const ConvTensors* t, void* ws, std::size_t wsBytes) const
    {
        const detail::Geometry g = detail::makeGeometry(p);
        const bool backward      = p.direction() == Direction::BackwardData;
        const void* in  = t ? (backward ? t->out : t->in) : nullptr;
        void* out       = t ? (backward ? t->inOut : t->outOut) : nullptr;
        const void* w   = t ? t->wei : nullptr;
        const detail::CpuIsa isa = detail::selectedIsa();
        return MIOPEN_ISA_DISPATCH(isa, winogradConv<M>(_name, g, backward, in, w, out, ws, wsBytes));
    }

    std::uint64_t _id;
    const char* _name;
};

// Backward weights (dw = sum over tiles of the transformed x and dy, then G^T . G); the
// reduction order is fixed, so it is deterministic.
template <int M>
class WinogradWrwSolver final : public Solver
{
public:
    WinogradWrwSolver(std::uint64_t id, const char* name) : _id(id), _name(name) {}

    std::uint64_t id() const noexcept override { return _id; }
    const char* name() const noexcept override { return _name; }
    miopenConvAlgorithm_t algorithm() const noexcept override { return miopenConvolutionAlgoWinograd; }
    bool computes(Direction d) const noexcept override { return d == Direction::BackwardWeights; }

    Applicability isApplicable(const ProblemDescription& p) const override
    {
        if(p.direction() != Direction::BackwardWeights)
            return Applicability::no("only backward weights is supported");
        return winogradShapeApplicable(p);
    }

    std::size_t workspaceSize(const ProblemDescription& p) const override
    {
        return execute(p, nullptr, 0, 0);
    }

    void run(const Handle&, const ProblemDescription& p, const ConvTensors& t, void* ws, std::size_t wsBytes) const override
    {
        check(t.in && t.out && t.weiOut, "Winograd backward weights: null tensor buffer");
        execute(p, &t, ws, wsBytes);
    }

private:
    std::size_t execute(const ProblemDescription& p, const ConvTensors* t, void* ws, std::size_t wsBytes) const
    {
        const detail::Geometry g = detail::makeGeometry(p);
        const void* x  = t ? t->in : nullptr;
        const void* dy = t ? t->out : nullptr;
        void* dw       = t ? t->weiOut : nullptr;
        const detail::CpuIsa isa = detail::selectedIsa();
        return MIOPEN_ISA_DISPATCH(isa, winogradWrw<M>(_name, g, x, dy, dw, ws, wsBytes));
    }

    std::uint64_t _id;
    const char* _name;
};

} // namespace

std::vector<const Solver*> winogradSolvers()
{
    static const WinogradSolver<2> f2(84, "ConvBinWinogradRxSf2x3g1");
    static const WinogradSolver<4> f4(1001, "ConvCpuWinogradF4x4_3x3");
    static const WinogradWrwSolver<4> w4(1002, "ConvCpuWinogradWrwF4x4_3x3");
    static const WinogradWrwSolver<2> w2(1003, "ConvCpuWinogradWrwF2x2_3x3");
    return {&f4, &f2, &w4, &w2};
}

} // namespace conv
} // namespace miopen
