// The library's one threading policy (docs/threading.md):
//  - One process-wide pool of worker threads runs every parallel region. Its size is
//    MIOPEN_NUM_THREADS when set (>= 1), otherwise std::thread::hardware_concurrency(). The
//    calling thread waits while the workers run a region; with one worker per CPU the process
//    may use, each worker is pinned to its CPU (MIOPEN_PIN_THREADS=0: never).
//  - BLAS (OpenBLAS) is always called single-threaded, from inside our parallel regions: the
//    library sets OpenBLAS to one thread when the pool is first created. Two runtimes therefore
//    never oversubscribe the cores.
//  - Nested parallelFor calls run serially on the calling thread.
#pragma once

#include <cstddef>
#include <functional>
#include <string>

namespace miopen {

// Number of threads parallel regions use (the pool's workers; the caller waits).
std::size_t threadCount();

// Calls body(begin, end) over a partition of [0, n) into contiguous chunks, one chunk list per
// thread, and waits. Exceptions thrown by `body` are rethrown on the calling thread (the first
// one wins). `grain` is the smallest chunk worth a thread.
void parallelFor(std::size_t n, const std::function<void(std::size_t, std::size_t)>& body,
                 std::size_t grain = 1);

// As parallelFor, also passing the chunk's index (0 <= chunk < threadCount()) so a body can use
// per-thread scratch slots; returns the number of chunks used (1 when run inline). Chunk c covers
// [n*c/chunks, n*(c+1)/chunks): the partition is fixed for a given n and thread count.
std::size_t parallelForIndexed(std::size_t n,
                               const std::function<void(std::size_t, std::size_t, std::size_t)>& body,
                               std::size_t grain = 1);

// One line describing the policy, printed by benchmarks:
// "miopen threads=2 (MIOPEN_NUM_THREADS unset), workers pinned to CPUs 0,1 (MIOPEN_PIN_THREADS
// unset), openblas threads=1 (set to 1 by miopen)".
std::string threadingSummary();

} // namespace miopen
