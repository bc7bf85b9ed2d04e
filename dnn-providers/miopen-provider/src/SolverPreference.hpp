// The MIOpen provider's DB-free solver rule (RFC 4.8): the solution ids (MIOpen's stable solver
// ids) each direction prefers, in the order of MIOpen's own solver registry
// (projects/miopen/src/solver/registry.cpp, docs/solvers.md), for fp32 (fp16 / bf16: see
// preferredSolutions): direct GEMMs of 1x1 filters,
// Winograd F(4x4,3x3) then F(2x2,3x3) (backward weights: 1002 then 1003), the general GEMM and
// the phase-grid GEMM (backward data: the phase grid first), the OpenBLAS GEMMs, and the naive
// direct solver last. Ids a MIOpen build lacks or that do not apply
// are skipped (the provider asks MIOpen id by id, miopenConvolution*GetSolutionWorkspaceSize_impl,
// never the find-db). The lists name every solver of this MIOpen, so when none of them applies no
// solver does, and the plan is declined.
//
// Self-contained (no MIOpen or hipDNN headers): benchmarks/wrapper's workload includes it to run
// pass-through with the same solvers as the forwarded calls.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <vector>

namespace miopen_provider
{

constexpr std::array<std::uint64_t, 10> kPreferredForward = {88, 90, 1001, 84, 91, 1201, 1101, 1102, 1103, 85};
constexpr std::array<std::uint64_t, 10> kPreferredBackwardData = {96, 95, 1001, 84, 1202, 97, 1105, 1104, 1106, 86};
constexpr std::array<std::uint64_t, 8> kPreferredBackwardWeights = {101, 1002, 1003, 102, 1203, 1107, 1108, 87};

enum class SolverDirection
{
    Forward,
    BackwardData,
    BackwardWeights,
};

enum class SolverDataType
{
    Float,
    Half,
    BFloat16,
};

/// The preference order for one problem: the fp32 lists above, and for fp16 / bf16 (no
/// Winograd; every GEMM solver converts its operands while packing) a head before them, chosen by
/// geometry:
/// - filters larger than 1x1 (fp16 and bf16): the phase-grid GEMM (1201-1203) before the im2col
///   GEMM (91, 97, 102), except forward and backward weights with an output narrower than 14,
///   where the phase grid's junk columns and per-image split cost more than they save (its
///   backward data wins at every width);
/// - 1x1 filters in bf16: the general GEMMs (91, 97) before the strided-1x1 gather solvers
///   (90, 95). In fp16 the gather solvers stay first: they measured as fast as or faster than
///   the general GEMMs there (why fp16 and bf16 differ here was not measured).
/// Measured with Find's timings of every applicable solver (MIOpen's find-db, written by
/// engines_bench's pass-through children) on the 22 ResNet-50 conv2_x-conv5_x layers x F/B/W
/// in bf16, N=32: the fp32 lists' choice ran at mean 1.067x / worst 1.58x the fastest solver
/// (13 of 66 cases above 1.05x), this rule at mean 1.005x / worst 1.14x; fp16 with MIOpenDriver
/// on 3x3 and strided 1x1 layers (docs/solvers.md, "fp16 and bf16 through the MIOpen provider").
inline std::vector<std::uint64_t> preferredSolutions(SolverDirection d, SolverDataType type, bool pointwise,
                                                     std::int64_t outputWidth)
{
    using Ids = std::vector<std::uint64_t>;
    Ids order;
    const bool wide = outputWidth >= 14;
    if(type != SolverDataType::Float && !pointwise)
    {
        switch(d)
        {
        case SolverDirection::Forward: order = wide ? Ids{1201, 91} : Ids{91, 1201}; break;
        case SolverDirection::BackwardData: order = Ids{1202, 97}; break;
        case SolverDirection::BackwardWeights: order = wide ? Ids{1203, 102} : Ids{102, 1203}; break;
        }
    }
    else if(type == SolverDataType::BFloat16 && pointwise)
    {
        switch(d)
        {
        case SolverDirection::Forward: order = Ids{88, 91, 90}; break;
        case SolverDirection::BackwardData: order = Ids{96, 97, 1202, 95}; break;
        case SolverDirection::BackwardWeights: break;
        }
    }
    const auto append = [&order](const auto& base) {
        for(std::uint64_t id : base)
        {
            if(std::find(order.begin(), order.end(), id) == order.end())
            {
                order.push_back(id);
            }
        }
    };
    switch(d)
    {
    case SolverDirection::Forward: append(kPreferredForward); break;
    case SolverDirection::BackwardData: append(kPreferredBackwardData); break;
    case SolverDirection::BackwardWeights: append(kPreferredBackwardWeights); break;
    }
    return order;
}

} // namespace miopen_provider
