#include <miopen/env.hpp>
#include <miopen/threading.hpp>

#include <cblas.h>

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

// A fixed pool: workers wait for a job generation, each runs its own slice, the caller runs
// slice 0 and waits for the rest. One region at a time (regions from different user threads
// serialize on _regionMutex; nested regions run inline).
class ThreadPool
{
public:
    explicit ThreadPool(std::size_t n) : _size(n)
    {
        // Policy: BLAS runs single-threaded inside our parallel regions.
        openblas_set_num_threads(1);
        for(std::size_t i = 1; i < n; ++i)
            _workers.emplace_back([this, i] { workerLoop(i); });
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

    void run(std::size_t slices, const std::function<void(std::size_t)>& job)
    {
        std::lock_guard<std::mutex> region(_regionMutex);
        {
            std::lock_guard<std::mutex> lock(_m);
            _job       = &job;
            _slices    = slices;
            _pending   = slices > 1 ? std::min(slices, _size) - 1 : 0;
            _error     = nullptr;
            ++_generation;
        }
        _cv.notify_all();
        runSlice(0);
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
            {
                std::lock_guard<std::mutex> lock(_m);
                --_pending;
            }
            _done.notify_one();
        }
    }

    std::size_t _size;
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
    s += ", openblas threads=" + std::to_string(openblas_get_num_threads()) + " (set to 1 by miopen)";
    return s;
}

} // namespace miopen
