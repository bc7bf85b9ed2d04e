// Where oneDNN's OpenMP workers run (DnnlRuntime::placeTeam, DnnlRuntime.hpp "Placement"): each
// pinned to a CPU of its own other than the caller's, or left alone. The expected placement is
// derived here from the environment and the process's CPU set; ctest also runs these tests with
// pinning turned off and with OpenMP's own binding asked for.
#include <DnnlRuntime.hpp>

#include <gtest/gtest.h>

#include <omp.h>
#include <pthread.h>
#include <sched.h>

#include <algorithm>
#include <cstdlib>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace
{

using dnnl_provider::DnnlRuntime;

std::vector<int> affinityOfThisThread()
{
    cpu_set_t set;
    CPU_ZERO(&set);
    EXPECT_EQ(::pthread_getaffinity_np(::pthread_self(), sizeof(set), &set), 0);
    std::vector<int> cpus;
    for(int cpu = 0; cpu < CPU_SETSIZE; ++cpu)
    {
        if(CPU_ISSET(cpu, &set))
        {
            cpus.push_back(cpu);
        }
    }
    return cpus;
}

void setAffinityOfThisThread(const std::vector<int>& cpus)
{
    cpu_set_t set;
    CPU_ZERO(&set);
    for(int cpu : cpus)
    {
        CPU_SET(cpu, &set);
    }
    ASSERT_EQ(::pthread_setaffinity_np(::pthread_self(), sizeof(set), &set), 0);
}

bool envOn(const char* name)
{
    const char* v = std::getenv(name);
    return v != nullptr && *v != '\0';
}

bool envOff(const char* name)
{
    const char* v = std::getenv(name);
    if(v == nullptr)
    {
        return false;
    }
    const std::string s(v);
    return s == "0" || s == "off" || s == "OFF" || s == "no" || s == "false" || s == "FALSE";
}

/// What the placement must be, from the documented rule.
std::vector<int> expectedPlacement()
{
    const std::vector<int> allowed = affinityOfThisThread();
    const bool off = envOn("DNNL_PROVIDER_PIN_THREADS") ? envOff("DNNL_PROVIDER_PIN_THREADS")
                                                        : envOff("MIOPEN_PIN_THREADS");
    const bool openmpBinds = envOn("OMP_PROC_BIND") || envOn("OMP_PLACES") || envOn("GOMP_CPU_AFFINITY");
    const int n = DnnlRuntime::threadCount();
    if(off || openmpBinds || n < 2 || static_cast<int>(allowed.size()) != n)
    {
        return {};
    }
    return allowed;
}

/// The affinity of each thread of one OpenMP region of the team size, by thread number.
std::vector<std::vector<int>> teamAffinities()
{
    const int n = DnnlRuntime::threadCount();
    std::vector<std::vector<int>> team(static_cast<size_t>(n));
    // Locked: the region's join is inside the OpenMP runtime, invisible to ThreadSanitizer.
    std::mutex m;
#pragma omp parallel num_threads(n)
    {
        const int t = omp_get_thread_num();
        std::vector<int> mine = affinityOfThisThread();
        std::lock_guard<std::mutex> lock(m);
        if(t < n)
        {
            team[static_cast<size_t>(t)] = std::move(mine);
        }
    }
    std::lock_guard<std::mutex> lock(m);
    return team;
}

/// Checks that every worker (threads 1..n-1) is pinned to one CPU of `cpus`, none twice and none
/// the caller's `here`.
void expectWorkersPinnedAwayFrom(const std::vector<std::vector<int>>& team, const std::vector<int>& cpus, int here)
{
    std::vector<int> held;
    for(size_t t = 1; t < team.size(); ++t)
    {
        ASSERT_EQ(team[t].size(), 1u) << "worker " << t << " is not pinned to one CPU";
        const int cpu = team[t][0];
        EXPECT_NE(cpu, here) << "worker " << t << " shares the caller's CPU";
        EXPECT_NE(std::find(cpus.begin(), cpus.end(), cpu), cpus.end()) << "worker " << t << " on CPU " << cpu;
        EXPECT_EQ(std::find(held.begin(), held.end(), cpu), held.end()) << "two workers on CPU " << cpu;
        held.push_back(cpu);
    }
}

TEST(DnnlRuntimePlacement, FollowsTheDocumentedRule)
{
    EXPECT_EQ(DnnlRuntime::placementCpus(), expectedPlacement());
    const std::string summary = DnnlRuntime::summary();
    EXPECT_NE(summary.find(DnnlRuntime::placementCpus().empty() ? "workers not pinned" : "workers pinned to CPUs of "),
              std::string::npos)
        << summary;
}

TEST(DnnlRuntimePlacement, WorkersArePinnedAwayFromTheCallerAndFollowItWhenItMoves)
{
    const std::vector<int> cpus = DnnlRuntime::placementCpus();
    const std::vector<int> callerAffinity = affinityOfThisThread();
    DnnlRuntime::applyThreadingPolicy();
    if(cpus.empty())
    {
        const auto before = teamAffinities();
        DnnlRuntime::placeTeam();
        EXPECT_EQ(teamAffinities(), before) << "not placed: placeTeam changes nothing";
        EXPECT_EQ(affinityOfThisThread(), callerAffinity);
        return;
    }
    // The caller is put on each placement CPU in turn (as the scheduler might move it); the worker
    // holding that CPU must move to the one the caller left.
    for(int round = 0; round < 2; ++round)
    {
        for(int here : cpus)
        {
            setAffinityOfThisThread({here});
            DnnlRuntime::placeTeam();
            const auto team = teamAffinities();
            EXPECT_EQ(team[0], std::vector<int>{here}) << "the caller is the master";
            expectWorkersPinnedAwayFrom(team, cpus, here);
        }
    }
    setAffinityOfThisThread(callerAffinity);
    DnnlRuntime::placeTeam();
    const auto team = teamAffinities();
    EXPECT_EQ(team[0], callerAffinity) << "the caller's own affinity is never changed";
    expectWorkersPinnedAwayFrom(team, cpus, /*here: unpinned, the caller may be on any CPU*/ -1);
}

TEST(DnnlRuntimePlacement, EachCallingThreadHasItsOwnPlacedWorkers)
{
    const std::vector<int> cpus = DnnlRuntime::placementCpus();
    if(cpus.empty())
    {
        GTEST_SKIP() << "not placed in this process (covered by FollowsTheDocumentedRule)";
    }
    for(int here : {cpus.back(), cpus.front()})
    {
        std::thread user([&] {
            setAffinityOfThisThread({here});
            DnnlRuntime::applyThreadingPolicy();
            DnnlRuntime::placeTeam();
            expectWorkersPinnedAwayFrom(teamAffinities(), cpus, here);
        });
        user.join();
    }
}

} // namespace
