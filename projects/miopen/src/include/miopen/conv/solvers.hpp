// The solver families; the registry (solver/registry.cpp) orders them.
#pragma once

#include <miopen/conv/solver.hpp>

#include <vector>

namespace miopen {
namespace conv {

std::vector<const Solver*> naiveSolvers();    // solver/naive.cpp: 85, 86, 87
std::vector<const Solver*> gemmSolvers();     // solver/gemm.cpp: packed-GEMM engine solvers
std::vector<const Solver*> blasGemmSolvers(); // solver/gemm_blas.cpp: OpenBLAS im2col + GEMM
std::vector<const Solver*> winogradSolvers(); // solver/winograd.cpp

} // namespace conv
} // namespace miopen
