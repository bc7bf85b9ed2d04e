// Shared prelude of the CPU convolution kernels: includes, element types, the instruction-set
// dispatch and the workspace carver.
//
// The hot code (isa_gemm.hpp, isa_conv_gemm.hpp, isa_winograd.hpp) is written once in portable
// C++ (plus AVX-512 and AVX2 intrinsics in the GEMM micro-kernel and a few transforms) and
// compiled three times per solver file:
//
//   namespace isa_avx512 { namespace {            // under #pragma GCC target("avx512f,...")
//   #define MIOPEN_ISA_AVX512 1 / MIOPEN_ISA_AVX2 0
//   #include "isa_gemm.hpp" ... }}
//   namespace isa_avx2 { namespace {              // under #pragma GCC target("avx2,fma,f16c")
//   #define MIOPEN_ISA_AVX512 0 / MIOPEN_ISA_AVX2 1
//   #include "isa_gemm.hpp" ... }}
//   namespace isa_generic { namespace {           // baseline x86-64 (SSE2)
//   #define MIOPEN_ISA_AVX512 0 / MIOPEN_ISA_AVX2 0
//   #include "isa_gemm.hpp" ... }}
//
// selectedIsa() picks one at run time: the widest the CPU and OS support (AVX-512 F/VL/BW/DQ;
// else AVX2 with FMA; else the baseline), lowered by MIOPEN_DEBUG_CONV_CPU_ISA=avx2 or =generic
// (tests use this to cover every build the machine can run). All give the same results up to
// floating-point summation order.
#pragma once

#include <miopen/datatype.hpp>
#include <miopen/env.hpp>
#include <miopen/errors.hpp>
#include <miopen/threading.hpp>

#include "conv_geometry.hpp"

#include <cpuid.h>
#include <immintrin.h>

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace miopen {
namespace conv {
namespace detail {

enum class CpuIsa
{
    Generic, // baseline x86-64 (SSE2)
    Avx2,    // AVX2 + FMA (+ F16C)
    Avx512,  // AVX-512 F, VL, BW, DQ (+ AVX2, FMA, F16C)
};

// The widest instruction set the CPU and OS support.
inline CpuIsa cpuIsa()
{
    static const CpuIsa isa = [] {
        __builtin_cpu_init();
        // F16C from CPUID leaf 1 (ECX bit 29): clang's __builtin_cpu_supports has no "f16c".
        unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
        const bool f16c = __get_cpuid(1, &eax, &ebx, &ecx, &edx) != 0 && (ecx & (1u << 29)) != 0;
        const bool avx2 = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") && f16c;
        if(avx2 && __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl") &&
           __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512dq"))
            return CpuIsa::Avx512;
        return avx2 ? CpuIsa::Avx2 : CpuIsa::Generic;
    }();
    return isa;
}

// The build the kernels run: cpuIsa(), lowered by MIOPEN_DEBUG_CONV_CPU_ISA (generic, avx2;
// any other value, or one the CPU cannot run, leaves it). Read at every call (not cached) so a
// test can switch between the builds.
inline CpuIsa selectedIsa()
{
    const CpuIsa best  = cpuIsa();
    const auto forced = env::raw("MIOPEN_DEBUG_CONV_CPU_ISA");
    if(forced && *forced == "generic")
        return CpuIsa::Generic;
    if(forced && *forced == "avx2" && best == CpuIsa::Avx512)
        return CpuIsa::Avx2;
    return best;
}

inline const char* isaName(CpuIsa isa)
{
    switch(isa)
    {
    case CpuIsa::Avx512: return "avx512";
    case CpuIsa::Avx2: return "avx2";
    case CpuIsa::Generic: break;
    }
    return "generic";
}

// Evaluates `call` (a kernel call) in the build of `isa`: detail::isa_avx512::call,
// detail::isa_avx2::call or detail::isa_generic::call (the namespaces isa_builds.hpp makes).
#define MIOPEN_ISA_DISPATCH(isa, call)                                                             \
    ((isa) == ::miopen::conv::detail::CpuIsa::Avx512                                               \
         ? ::miopen::conv::detail::isa_avx512::call                                                \
         : (isa) == ::miopen::conv::detail::CpuIsa::Avx2 ? ::miopen::conv::detail::isa_avx2::call  \
                                                         : ::miopen::conv::detail::isa_generic::call)

// Element types of the tensors; all arithmetic is fp32.
struct ElemF32
{
    using T = float;
    static float load(float v) noexcept { return v; }
    static float store(float v) noexcept { return v; }
};
struct ElemF16
{
    using T = std::uint16_t;
    static float load(std::uint16_t v) noexcept { return halfToFloat(v); }
    static std::uint16_t store(float v) noexcept { return floatToHalf(v); }
};
struct ElemBF16
{
    using T = std::uint16_t;
    static float load(std::uint16_t v) noexcept { return bfloat16ToFloat(v); }
    static std::uint16_t store(float v) noexcept { return floatToBfloat16(v); }
};

// Calls fn(ElemType{}) for the tensor data type (fp32, fp16, bf16).
template <class Fn>
decltype(auto) withElem(miopenDataType_t t, Fn&& fn)
{
    switch(t)
    {
    case miopenFloat: return fn(ElemF32{});
    case miopenHalf: return fn(ElemF16{});
    case miopenBFloat16: return fn(ElemBF16{});
    default: break;
    }
    fail(miopenStatusBadParm, std::string("CPU GEMM/Winograd kernels: unsupported data type ") + dataTypeName(t));
}

// Hands out 64-byte aligned float regions of a workspace. With a null base it only measures, so
// workspaceSize() and run() share one carving routine and can never disagree.
class Carver
{
public:
    static constexpr std::size_t kAlign = 64;
    explicit Carver(void* base) noexcept
    {
        if(base != nullptr)
        {
            const auto addr = reinterpret_cast<std::uintptr_t>(base);
            _base           = static_cast<char*>(base) + ((kAlign - addr % kAlign) % kAlign);
        }
    }
    float* take(std::size_t floats) noexcept
    {
        _used         = (_used + kAlign - 1) / kAlign * kAlign;
        void* p       = _base != nullptr ? static_cast<void*>(_base + _used) : nullptr;
        _used += floats * sizeof(float);
        return static_cast<float*>(p);
    }
    // Bytes a caller must provide: the regions plus the worst-case alignment of the base.
    std::size_t requiredBytes() const noexcept { return _used == 0 ? 0 : _used + kAlign; }

private:
    char* _base       = nullptr;
    std::size_t _used = 0;
};

// Per-slot scratch at a fixed stride: declare the regions of one slot (offsets in floats, each
// 64-byte aligned), carve slots * strideFloats() from the workspace, then address slot s.
class SlotRegions
{
public:
    std::size_t add(std::size_t floats) noexcept
    {
        const std::size_t off = _floats;
        _floats += (floats + 15) / 16 * 16;
        return off;
    }
    std::size_t strideFloats() const noexcept { return _floats; }
    void place(float* base) noexcept { _base = base; }
    float* at(std::size_t slot, std::size_t offset) const noexcept
    {
        return _base != nullptr ? _base + slot * _floats + offset : nullptr;
    }

private:
    std::size_t _floats = 0;
    float* _base        = nullptr;
};

// Checks the workspace a caller passed against what the carving needs.
inline void checkWorkspace(const char* solver, const void* ws, std::size_t bytes, std::size_t needed)
{
    if(needed > 0 && (ws == nullptr || bytes < needed))
        fail(miopenStatusBadParm, std::string(solver) + ": workspace of " + std::to_string(bytes) + " bytes, " +
                                      std::to_string(needed) + " needed");
}

// Static partition of [0, n) into `parts` ranges whose inner boundaries are multiples of `unit`.
inline std::pair<std::size_t, std::size_t> splitRange(std::size_t n, std::size_t part, std::size_t parts,
                                                      std::size_t unit)
{
    const std::size_t units = (n + unit - 1) / unit;
    const std::size_t b     = std::min(n, units * part / parts * unit);
    const std::size_t e     = std::min(n, units * (part + 1) / parts * unit);
    return {b, e};
}

// Runs body(slot) for slot in [0, slots) on the thread pool; each slot owns its scratch.
template <class Fn>
void forEachSlot(std::size_t slots, Fn&& body)
{
    parallelFor(slots, [&](std::size_t b, std::size_t e) {
        for(std::size_t s = b; s < e; ++s)
            body(s);
    });
}

// Runs body(slot, item) for every item in [0, items) on `slots` slots. A slot claims the next
// unclaimed item whenever it finishes one, so a slot whose core another process takes runs fewer
// items instead of holding the others up at the end (a static split waits for its slowest part).
// Items must be independent of each other: which slot runs an item may change from run to run,
// so an item may use its slot's scratch but must write only its own part of the result (the
// result is then the same whatever the assignment).
template <class Fn>
void forEachClaimed(std::size_t slots, std::size_t items, Fn&& body)
{
    std::atomic<std::size_t> next{0};
    forEachSlot(slots, [&](std::size_t s) {
        for(std::size_t item = next.fetch_add(1, std::memory_order_relaxed); item < items;
            item             = next.fetch_add(1, std::memory_order_relaxed))
            body(s, item);
    });
}

} // namespace detail
} // namespace conv
} // namespace miopen
