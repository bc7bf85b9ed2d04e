// The solver families; the registry (solver/registry.cpp) orders them.
#pragma once

#include <miopen/conv/solver.hpp>

#include <string>
#include <vector>

namespace miopen {
namespace conv {

std::vector<const Solver*> naiveSolvers();    // solver/naive.cpp: 85, 86, 87
std::vector<const Solver*> gemmSolvers();     // solver/gemm.cpp: packed-GEMM engine solvers
std::vector<const Solver*> blasGemmSolvers(); // solver/gemm_blas.cpp: OpenBLAS im2col + GEMM
std::vector<const Solver*> winogradSolvers(); // solver/winograd.cpp

// The instruction-set build the GEMM and Winograd kernels run now, for benchmark headers:
// "cpu kernels: avx2 (CPU: avx2, MIOPEN_DEBUG_CONV_CPU_ISA unset)".
std::string cpuKernelSummary();

} // namespace conv
} // namespace miopen
