// Process-wide oneDNN state of the provider: the CPU engine, the threading policy and the run-time
// probe for bf16 support.
//
// Threading (docs/threading.md: no oversubscription of the cores by two runtimes): Debian's
// oneDNN runs its parallel regions on OpenMP, in the calling thread as the team's master. Before
// each execution the provider sets the calling thread's OpenMP team size to
//   DNNL_PROVIDER_NUM_THREADS, else MIOPEN_NUM_THREADS (the repository-wide knob), else
//   std::thread::hardware_concurrency(),
// capped at hardware_concurrency(). Plans execute synchronously and inline: nothing of oneDNN
// runs after execute returns.
//
// Placement (placeTeam, before each execution): oneDNN's regions run with the calling thread as
// the OpenMP master, computing a share, and the runtime's workers. Unpinned, after a pause the
// kernel could wake a worker on the master's CPU and leave the cache-hot pair there for
// milliseconds (engines_bench, c2_1x1_64_64 forward and backward data fp32, 2 ms calls: 9 of 240
// turns of the processes running DNNL_ENGINE 2-3x slower, 1 of 240 with the workers placed;
// dnnl-provider README, Threading).
// MIOpen's pool avoids it by pinning its workers (docs/threading.md). The provider pins the
// calling thread's OpenMP workers, one per CPU, to the CPUs other than the one the caller is on,
// and moves the worker that holds the caller's CPU when the caller has moved there (one
// sched_getcpu per execution; one affinity call when the caller moved). The caller's own
// affinity is never touched. Done when the team has n >= 2 threads and the process may run on
// exactly n CPUs (at most kMaxPlacedThreads); not done with DNNL_PROVIDER_PIN_THREADS=0 (else
// MIOPEN_PIN_THREADS=0), or when OpenMP's own binding is asked for (OMP_PROC_BIND, OMP_PLACES or
// GOMP_CPU_AFFINITY set). The workers are found with one region of the team size on a thread's
// first execution; the pins rely on the provider and oneDNN sharing one OpenMP runtime (libgomp
// in a GCC build; in a clang build libomp, which then also serves oneDNN's GOMP_* calls).
#pragma once

#include <oneapi/dnnl/dnnl.hpp>

#include <string>
#include <vector>

namespace dnnl_provider
{

class DnnlRuntime
{
public:
    /// The CPU engine every plan is built on.
    static const dnnl::engine& engine();

    /// The OpenMP team size executions use (see the file comment); parsed once.
    static int threadCount();

    /// Applies the team size to the calling thread (no allocation).
    static void applyThreadingPolicy();

    /// Sets the calling thread's team size to 1: oneDNN then runs a step's parallel loops inline
    /// (used for small reorders; applyThreadingPolicy restores the policy).
    static void runInline();

    /// True when oneDNN can build bf16 convolutions on this CPU; otherwise `why` says why.
    /// Probed once by building a tiny bf16 convolution primitive descriptor.
    static bool bf16Supported(std::string* why = nullptr);

    /// The most threads a placed team may have (the per-thread record is a fixed array).
    static constexpr int kMaxPlacedThreads = 256;

    /// The CPUs a team is placed on (see the file comment), or none. Decided once.
    static const std::vector<int>& placementCpus();

    /// Pins the calling thread's OpenMP workers away from its CPU (see the file comment); nothing
    /// when placementCpus() is empty. Call after applyThreadingPolicy(), before executing.
    static void placeTeam();

    /// One line, e.g. "oneDNN 2.6.3 (cpu runtime OpenMP), threads=2 (hardware_concurrency),
    /// workers pinned to CPUs of 0,1 other than the caller's".
    static std::string summary();
};

} // namespace dnnl_provider
