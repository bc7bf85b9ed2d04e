// The MIOpen provider's DB-free solver rule (RFC 4.8): the solution ids (MIOpen's stable solver
// ids) each direction prefers, in the order of MIOpen's own solver registry
// (projects/miopen/src/solver/registry.cpp, docs/solvers.md): direct GEMMs of 1x1 filters,
// Winograd F(4x4,3x3) then F(2x2,3x3) (backward weights: 1002 then 1003), the general GEMM and
// the phase-grid GEMM (backward data: the phase grid first), the OpenBLAS GEMMs, and the naive
// direct solver last. Ids a MIOpen build lacks or that do not apply
// are skipped; when none applies, the smallest applicable id is taken.
//
// Self-contained (no MIOpen or hipDNN headers): benchmarks/wrapper's workload includes it to run
// pass-through with the same solvers as the forwarded calls.
#pragma once

#include <array>
#include <cstdint>

namespace miopen_provider
{

constexpr std::array<std::uint64_t, 10> kPreferredForward = {88, 90, 1001, 84, 91, 1201, 1101, 1102, 1103, 85};
constexpr std::array<std::uint64_t, 10> kPreferredBackwardData = {96, 95, 1001, 84, 1202, 97, 1105, 1104, 1106, 86};
constexpr std::array<std::uint64_t, 8> kPreferredBackwardWeights = {101, 1002, 1003, 102, 1203, 1107, 1108, 87};

} // namespace miopen_provider
