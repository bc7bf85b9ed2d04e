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
#pragma once

#include <oneapi/dnnl/dnnl.hpp>

#include <string>

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

    /// One line, e.g. "oneDNN 2.6.3 (cpu runtime OpenMP), threads=2 (hardware_concurrency)".
    static std::string summary();
};

} // namespace dnnl_provider
