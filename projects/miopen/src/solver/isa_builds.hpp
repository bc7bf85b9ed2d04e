// Compiles the CPU kernels once per instruction set (see isa.hpp). A solver file defines
// MIOPEN_ISA_KERNELS (the kernel header it needs after isa_gemm.hpp) and includes this file
// inside namespace miopen::conv::detail; it gets isa_avx512::, isa_avx2:: and isa_generic::
// copies of every kernel, each in an anonymous namespace (internal linkage: the copies never
// meet at link time). Not include-guarded: included once per solver file.
#ifndef MIOPEN_ISA_KERNELS
#error "define MIOPEN_ISA_KERNELS (the kernel header to compile per instruction set) first"
#endif

// AVX-512 (F, VL, BW, DQ) with AVX2, FMA and F16C.
namespace isa_avx512 {
namespace {
#if defined(__clang__) // clang has no GCC target pragma: the same target attribute on each function
#pragma clang attribute push(__attribute__((target("avx512f,avx512vl,avx512bw,avx512dq,avx2,fma,f16c"))), apply_to = function)
#else
#pragma GCC push_options
#pragma GCC target("avx512f,avx512vl,avx512bw,avx512dq,avx2,fma,f16c")
#endif
#define MIOPEN_ISA_AVX512 1
#define MIOPEN_ISA_AVX2 0
#include "isa_gemm.hpp"
#include MIOPEN_ISA_KERNELS
#undef MIOPEN_ISA_AVX2
#undef MIOPEN_ISA_AVX512
#if defined(__clang__)
#pragma clang attribute pop
#else
#pragma GCC pop_options
#endif
} // namespace
} // namespace isa_avx512

// AVX2 with FMA and F16C (x86-64-v3 without the rest; AMD Zen 1-3, Intel Haswell onwards).
namespace isa_avx2 {
namespace {
#if defined(__clang__)
#pragma clang attribute push(__attribute__((target("avx2,fma,f16c"))), apply_to = function)
#else
#pragma GCC push_options
#pragma GCC target("avx2,fma,f16c")
#endif
#define MIOPEN_ISA_AVX512 0
#define MIOPEN_ISA_AVX2 1
#include "isa_gemm.hpp"
#include MIOPEN_ISA_KERNELS
#undef MIOPEN_ISA_AVX2
#undef MIOPEN_ISA_AVX512
#if defined(__clang__)
#pragma clang attribute pop
#else
#pragma GCC pop_options
#endif
} // namespace
} // namespace isa_avx2

// Baseline x86-64 (SSE2): what the compiler makes of the portable C++.
namespace isa_generic {
namespace {
#define MIOPEN_ISA_AVX512 0
#define MIOPEN_ISA_AVX2 0
#include "isa_gemm.hpp"
#include MIOPEN_ISA_KERNELS
#undef MIOPEN_ISA_AVX2
#undef MIOPEN_ISA_AVX512
} // namespace
} // namespace isa_generic

#undef MIOPEN_ISA_KERNELS
