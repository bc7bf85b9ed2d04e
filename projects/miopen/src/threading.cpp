#include <miopen/env.hpp>
#include <miopen/threading.hpp>

#include <cblas.h>
#include <pthread.h>
#include <sched.h>

#include <algorithm>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace miopen {

namespace {

std::size_t configuredThreads()
{
    const long fromEnv = env::integer("MIOPEN_NUM_THREADS", 0);
    if(fromEnv >= 1)
        return static_cast<std::size_t>(std::min(fromEnv, 1024L));
    const unsigned hw = std::thread::hardware_concurrency();
    return hw == 0 ? 1 : hw;
}

thread_local bool tInsideRegion = false;

// The CPUs the workers are pinned to, one each: the CPUs this process may run on, when there
// are exactly as many as the pool has threads (the default pool on an unrestricted machine or
// under taskset) and MIOPEN_PIN_THREADS does not turn pinning off; otherwise none (a pool smaller
// than the CPU set must not pile onto its first CPUs, a larger one cannot own a CPU per thread).
std::vector<int> workerCpus(std::size_t n)
{
    if(n < 2 || !env::boolean("MIOPEN_PIN_THREADS", true))
        return {};
    cpu_set_t allowed;
    CPU_ZERO(&allowed);
    if(::sched_getaffinity(0, sizeof(allowed), &allowed) != 0)
        return {};
    std::vector<int> cpus;
    for(int cpu = 0; cpu < CPU_SETSIZE; ++cpu)
        if(CPU_ISSET(cpu, &allowed))
            cpus.push_back(cpu);
    return cpus.size() == n ? cpus : std::vector<int>{};
}

// A fixed pool of `n` workers; the calling thread hands a region out and sleeps until the last
// worker is done (it computes nothing itself). Worker i runs slices i, i + participants, ...
// One region at a time (regions from different user threads serialize on _regionMutex; nested
// regions run inline).
//
// Why the caller does not take a slice, and why the workers are pinned: when a region's threads
// sleep between calls (a program that does something else between convolutions), the kernel
// can wake a worker on the CPU of the thread that woke it, the caller keeps computing there, and
// the balancer leaves the pair together for several milliseconds (both are cache hot), so a
// region of 2 threads ran at the speed of 1. Measured on the 2-vCPU CI machine: a 1x1 64->64
// 56x56 backward-weights call took 3.5 ms back to back, 3.4-6.5 ms after 30 ms pauses (18 of 30
// turns above 5 ms), 6.1-7.0 ms on one thread; with the caller and the worker pinned apart,
// 3.5-3.9 ms after every pause.
// A pinned worker can only run on its own CPU, and an unpinned caller that waits is no
// competition for it.
class ThreadPool
{
public:
    explicit ThreadPool(std::size_t n) : _size(n), _cpus(workerCpus(n))
    {
        // Policy: BLAS runs single-threaded inside our parallel regions.
        openblas_set_num_threads(1);
        if(n < 2)
            return; // regions of one chunk run inline
        for(std::size_t i = 0; i < n; ++i)
            _workers.emplace_back([this, i] {
                if(!_cpus.empty())
                {
                    cpu_set_t one;
                    CPU_ZERO(&one);
                    CPU_SET(_cpus[i], &one);
                    // Best effort: a worker that cannot be pinned still works, unpinned.
                    (void)::pthread_setaffinity_np(::pthread_self(), sizeof(one), &one);
                }
                workerLoop(i);
            });
    }
    ~ThreadPool()
    {
        {
            std::lock_guard<std::mutex> lock(_m);
            _stop = true;
        }
        _cv.notify_all();
        for(auto& t : _workers)
            t.join();
    }
    ThreadPool(const ThreadPool&) = delete;
    ThreadPool& operator=(const ThreadPool&) = delete;

    std::size_t size() const noexcept { return _size; }
    const std::vector<int>& cpus() const noexcept { return _cpus; }

    void run(std::size_t slices, const std::function<void(std::size_t)>& job)
    {
        std::lock_guard<std::mutex> region(_regionMutex);
        {
            std::lock_guard<std::mutex> lock(_m);
            _job     = &job;
            _slices  = slices;
            _pending = std::min(slices, _size);
            _error   = nullptr;
            ++_generation;
        }
        _cv.notify_all();
        std::unique_lock<std::mutex> lock(_m);
        _done.wait(lock, [this] { return _pending == 0; });
        _job = nullptr;
        if(_error)
            std::rethrow_exception(_error);
    }

private:
    void runSlice(std::size_t worker)
    {
        // Slices are strided over the workers taking part.
        const std::size_t participants = std::min(_slices, _size);
        for(std::size_t s = worker; s < _slices; s += participants)
        {
            try
            {
                tInsideRegion = true;
                (*_job)(s);
                tInsideRegion = false;
            }
            catch(...)
            {
                tInsideRegion = false;
                std::lock_guard<std::mutex> lock(_m);
                if(!_error)
                    _error = std::current_exception();
            }
        }
    }

    void workerLoop(std::size_t index)
    {
        std::uint64_t seen = 0;
        for(;;)
        {
            {
                std::unique_lock<std::mutex> lock(_m);
                _cv.wait(lock, [&] { return _stop || _generation != seen; });
                if(_stop)
                    return;
                seen = _generation;
                if(index >= std::min(_slices, _size))
                    continue; // not needed for this region
            }
            runSlice(index);
            bool last = false;
            {
                std::lock_guard<std::mutex> lock(_m);
                last = --_pending == 0;
            }
            if(last)
                _done.notify_one();
        }
    }

    std::size_t _size;
    std::vector<int> _cpus; // CPU of worker i, or empty (unpinned)
    std::vector<std::thread> _workers;
    std::mutex _regionMutex;
    std::mutex _m;
    std::condition_variable _cv;
    std::condition_variable _done;
    const std::function<void(std::size_t)>* _job = nullptr;
    std::size_t _slices                          = 0;
    std::size_t _pending                         = 0;
    std::uint64_t _generation                    = 0;
    bool _stop                                   = false;
    std::exception_ptr _error;
};

ThreadPool& pool()
{
    // Intentionally leaked: worker threads must not be joined during static destruction, when
    // a user's atexit code may still call into the library.
    static ThreadPool* p = new ThreadPool(configuredThreads());
    return *p;
}

} // namespace

std::size_t threadCount() { return pool().size(); }

std::size_t parallelForIndexed(std::size_t n,
                               const std::function<void(std::size_t, std::size_t, std::size_t)>& body,
                               std::size_t grain)
{
    if(n == 0)
        return 0;
    grain                       = std::max<std::size_t>(grain, 1);
    const std::size_t t         = tInsideRegion ? 1 : threadCount();
    const std::size_t maxChunks = (n + grain - 1) / grain;
    const std::size_t chunks    = std::min(t, maxChunks);
    if(chunks <= 1)
    {
        body(0, 0, n);
        return 1;
    }
    pool().run(chunks, [&](std::size_t c) {
        const std::size_t begin = n * c / chunks;
        const std::size_t end   = n * (c + 1) / chunks;
        if(begin < end)
            body(c, begin, end);
    });
    return chunks;
}

void parallelFor(std::size_t n, const std::function<void(std::size_t, std::size_t)>& body,
                 std::size_t grain)
{
    parallelForIndexed(n, [&](std::size_t, std::size_t b, std::size_t e) { body(b, e); }, grain);
}

std::string threadingSummary()
{
    const auto fromEnv = env::raw("MIOPEN_NUM_THREADS");
    std::string s      = "miopen threads=" + std::to_string(threadCount()) + " (MIOPEN_NUM_THREADS " +
                    (fromEnv ? "=" + *fromEnv : std::string("unset")) + ")";
    const auto& cpus = pool().cpus();
    if(cpus.empty())
        s += ", workers unpinned";
    else
    {
        s += ", workers pinned to CPUs";
        for(std::size_t i = 0; i < cpus.size(); ++i)
            s += (i == 0 ? " " : ",") + std::to_string(cpus[i]);
    }
    const auto pinEnv = env::raw("MIOPEN_PIN_THREADS");
    s += " (MIOPEN_PIN_THREADS " + (pinEnv ? "=" + *pinEnv : std::string("unset")) + ")";
    s += ", openblas threads=" + std::to_string(openblas_get_num_threads()) + " (set to 1 by miopen)";
    return s;
}

} // namespace miopen
