#include "DnnlRuntime.hpp"

#include <omp.h>
#include <pthread.h>
#include <sched.h>
#include <strings.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <thread>

namespace dnnl_provider
{

namespace
{

struct ThreadSetting
{
    int count = 1;
    std::string source;
};

bool envSet(const char* name)
{
    const char* value = std::getenv(name);
    return value != nullptr && *value != '\0';
}

int positiveEnv(const char* name)
{
    if(!envSet(name))
    {
        return 0;
    }
    const char* value = std::getenv(name);
    char* end = nullptr;
    const long parsed = std::strtol(value, &end, 10);
    return (end != nullptr && *end == '\0' && parsed > 0 && parsed < 1 << 16) ? static_cast<int>(parsed) : 0;
}

const ThreadSetting& threadSetting()
{
    static const ThreadSetting setting = [] {
        const int hardware = std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
        ThreadSetting s;
        if(int n = positiveEnv("DNNL_PROVIDER_NUM_THREADS"); n > 0)
        {
            s.count = n;
            s.source = "DNNL_PROVIDER_NUM_THREADS";
        }
        else if(int m = positiveEnv("MIOPEN_NUM_THREADS"); m > 0)
        {
            s.count = m;
            s.source = "MIOPEN_NUM_THREADS";
        }
        else
        {
            s.count = hardware;
            s.source = "hardware_concurrency";
        }
        if(s.count > hardware)
        {
            s.count = hardware;
            s.source += ", capped at hardware_concurrency";
        }
        return s;
    }();
    return setting;
}

/// False when `name` is 0, off, no or false (any case); `fallback` when unset or empty.
bool flagEnv(const char* name, bool fallback)
{
    if(!envSet(name))
    {
        return fallback;
    }
    const char* value = std::getenv(name);
    for(const char* off : {"0", "off", "no", "false"})
    {
        if(::strcasecmp(value, off) == 0)
        {
            return false;
        }
    }
    return true;
}

std::vector<int> choosePlacement()
{
    const int n = threadSetting().count;
    const bool wanted = envSet("DNNL_PROVIDER_PIN_THREADS") ? flagEnv("DNNL_PROVIDER_PIN_THREADS", true)
                                                            : flagEnv("MIOPEN_PIN_THREADS", true);
    // OpenMP's own binding, when asked for, is the user's placement: left to the OpenMP runtime.
    const bool openmpBinds = envSet("OMP_PROC_BIND") || envSet("OMP_PLACES") || envSet("GOMP_CPU_AFFINITY");
    cpu_set_t allowed;
    CPU_ZERO(&allowed);
    if(n < 2 || n > DnnlRuntime::kMaxPlacedThreads || !wanted || openmpBinds
       || ::sched_getaffinity(0, sizeof(allowed), &allowed) != 0)
    {
        return {};
    }
    std::vector<int> cpus;
    for(int cpu = 0; cpu < CPU_SETSIZE; ++cpu)
    {
        if(CPU_ISSET(cpu, &allowed))
        {
            cpus.push_back(cpu);
        }
    }
    return static_cast<int>(cpus.size()) == n ? cpus : std::vector<int>{};
}

bool pin(pid_t tid, int cpu)
{
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(cpu, &one);
    return ::sched_setaffinity(tid, sizeof(one), &one) == 0;
}

/// Bumped in the child of a fork(): the workers a thread recorded before are the parent's (the
/// same thread ids name the parent's threads), so the child records its own.
std::atomic<unsigned> gForkGeneration{0};

/// The OpenMP workers of the calling thread (the runtime keeps one set per thread that starts
/// regions) and the CPU each is pinned to. Plain arrays: a thread_local with a destructor would
/// outlive a dlclose'd provider.
struct Team
{
    bool recorded = false;
    unsigned generation = 0;
    int workers = 0;
    pid_t tid[DnnlRuntime::kMaxPlacedThreads];
    int cpu[DnnlRuntime::kMaxPlacedThreads];
};
thread_local Team tTeam;

/// Records the calling thread's workers (one region of the team size) and pins them, in order, to
/// the placement CPUs other than `here` (the caller's CPU; the last one when the caller is on
/// none of them).
void recordTeam(Team& team, const std::vector<int>& cpus, int here)
{
    static const int forkHandler = ::pthread_atfork(nullptr, nullptr, [] { ++gForkGeneration; });
    (void)forkHandler;
    const int n = static_cast<int>(cpus.size());
    // Atomic: written by the workers, read here after the region, whose join is inside the
    // OpenMP runtime (invisible to ThreadSanitizer).
    std::atomic<pid_t> tids[DnnlRuntime::kMaxPlacedThreads] = {};
    int teamSize = 1;
#pragma omp parallel num_threads(n)
    {
        const int t = omp_get_thread_num();
        if(t == 0)
        {
            teamSize = omp_get_num_threads();
        }
        else if(t < n)
        {
            tids[t].store(static_cast<pid_t>(::syscall(SYS_gettid)), std::memory_order_relaxed);
        }
    }
    const bool hereIsOurs = std::find(cpus.begin(), cpus.end(), here) != cpus.end();
    const int skip = hereIsOurs ? here : cpus.back();
    team.workers = 0;
    size_t next = 0;
    for(int t = 1; t < std::min(teamSize, n); ++t)
    {
        while(cpus[next] == skip)
        {
            ++next;
        }
        team.tid[team.workers] = tids[t].load(std::memory_order_relaxed);
        team.cpu[team.workers] = cpus[next++];
        // Best effort, as MIOpen's pool: a worker that cannot be pinned still works.
        (void)pin(team.tid[team.workers], team.cpu[team.workers]);
        ++team.workers;
    }
    team.recorded = true;
    team.generation = gForkGeneration.load(std::memory_order_relaxed);
}

} // namespace

const std::vector<int>& DnnlRuntime::placementCpus()
{
    static const std::vector<int> cpus = choosePlacement();
    return cpus;
}

void DnnlRuntime::placeTeam()
{
    const std::vector<int>& cpus = placementCpus();
    if(cpus.empty())
    {
        return;
    }
    const int here = ::sched_getcpu();
    Team& team = tTeam;
    if(!team.recorded || team.generation != gForkGeneration.load(std::memory_order_relaxed))
    {
        recordTeam(team, cpus, here);
        return;
    }
    for(int i = 0; i < team.workers; ++i)
    {
        if(team.cpu[i] != here)
        {
            continue;
        }
        // The caller moved onto worker i's CPU: give the worker the placement CPU no worker holds
        // (the one the caller left).
        for(int cpu : cpus)
        {
            if(cpu != here && std::none_of(team.cpu, team.cpu + team.workers, [cpu](int c) { return c == cpu; }))
            {
                team.cpu[i] = cpu;
                if(!pin(team.tid[i], cpu))
                {
                    recordTeam(team, cpus, here); // the worker is gone: the runtime replaced it
                }
                return;
            }
        }
        return;
    }
}

const dnnl::engine& DnnlRuntime::engine()
{
    static const dnnl::engine cpu(dnnl::engine::kind::cpu, 0);
    return cpu;
}

int DnnlRuntime::threadCount()
{
    return threadSetting().count;
}

void DnnlRuntime::applyThreadingPolicy()
{
    omp_set_num_threads(threadSetting().count);
}

void DnnlRuntime::runInline()
{
    omp_set_num_threads(1);
}

bool DnnlRuntime::bf16Supported(std::string* why)
{
    static const std::string reason = []() -> std::string {
        using dt = dnnl::memory::data_type;
        using tag = dnnl::memory::format_tag;
        try
        {
            const dnnl::memory::desc src({1, 16, 4, 4}, dt::bf16, tag::any);
            const dnnl::memory::desc wei({16, 16, 3, 3}, dt::bf16, tag::any);
            const dnnl::memory::desc dst({1, 16, 4, 4}, dt::bf16, tag::any);
            const dnnl::convolution_forward::desc desc(dnnl::prop_kind::forward_inference,
                                                       dnnl::algorithm::convolution_direct, src, wei, dst,
                                                       {1, 1}, {1, 1}, {1, 1});
            const dnnl::convolution_forward::primitive_desc pd(desc, engine(), true);
            if(!pd)
            {
                return "oneDNN has no bf16 convolution for this CPU (it needs at least AVX-512 core)";
            }
            return {};
        }
        catch(const dnnl::error& e)
        {
            return std::string("oneDNN rejected a bf16 convolution on this CPU: ") + e.what();
        }
    }();
    if(why != nullptr)
    {
        *why = reason;
    }
    return reason.empty();
}

namespace
{

std::string placementText()
{
    const std::vector<int>& cpus = DnnlRuntime::placementCpus();
    if(cpus.empty())
    {
        return ", workers not pinned";
    }
    std::string text = ", workers pinned to CPUs of ";
    for(size_t i = 0; i < cpus.size(); ++i)
    {
        text += (i > 0 ? "," : "") + std::to_string(cpus[i]);
    }
    return text + " other than the caller's";
}

} // namespace

std::string DnnlRuntime::summary()
{
    const dnnl::version_t* v = dnnl::version();
    const char* runtime = v->cpu_runtime == DNNL_RUNTIME_OMP ? "OpenMP"
                          : v->cpu_runtime == DNNL_RUNTIME_SEQ ? "sequential"
                                                                : "other";
    return "oneDNN " + std::to_string(v->major) + "." + std::to_string(v->minor) + "." + std::to_string(v->patch)
           + " (cpu runtime " + runtime + "), threads=" + std::to_string(threadSetting().count) + " ("
           + threadSetting().source + ")" + placementText();
}

} // namespace dnnl_provider
