// Shared pieces of the hand-written benchmark harnesses (conv_solvers_bench, fusion_bn_bench):
// timing (warm-up, repetitions until a minimum time, median), the relative-error check, the
// machine-load accounting (/proc/stat minus this process) and the run header helpers.
// Header-only; every function is inline. See README.md, "Methodology".
#ifndef BENCHMARKS_BENCH_COMMON_HPP
#define BENCHMARKS_BENCH_COMMON_HPP

#include <oneapi/dnnl/dnnl.hpp>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <limits>
#include <string>
#include <thread>
#include <vector>

namespace bench {

// ---- Options helpers ----

inline std::vector<std::string> splitList(const std::string& s)
{
    std::vector<std::string> out;
    std::string cur;
    for(char ch : s)
    {
        if(ch == ',')
        {
            if(!cur.empty())
                out.push_back(cur);
            cur.clear();
        }
        else
            cur += ch;
    }
    if(!cur.empty())
        out.push_back(cur);
    return out;
}

inline bool startsWith(const std::string& s, const char* prefix) { return s.rfind(prefix, 0) == 0; }

// ---- Timing ----

struct TimingOptions
{
    int warmup      = 2;
    int minReps     = 5;
    int maxReps     = 50;
    double minTimeS = 0.5;
};

struct Timing
{
    double medianMs = 0;
    double minMs    = 0;
    double maxMs    = 0;
    int reps        = 0;
};

// Warm-up runs, then at least minReps runs and at least minTimeS seconds (at most maxReps runs),
// each timed with steady_clock; returns the median, minimum and maximum.
inline Timing timeRuns(const std::function<void()>& fn, const TimingOptions& o)
{
    using Clock = std::chrono::steady_clock;
    for(int i = 0; i < o.warmup; ++i)
        fn();
    std::vector<double> ms;
    const auto begin = Clock::now();
    for(;;)
    {
        const auto t0 = Clock::now();
        fn();
        const auto t1 = Clock::now();
        ms.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
        const double elapsedS = std::chrono::duration<double>(t1 - begin).count();
        const int n           = static_cast<int>(ms.size());
        if(n >= o.maxReps || (n >= o.minReps && elapsedS >= o.minTimeS))
            break;
    }
    std::sort(ms.begin(), ms.end());
    Timing t;
    t.reps     = static_cast<int>(ms.size());
    t.minMs    = ms.front();
    t.maxMs    = ms.back();
    const std::size_t n = ms.size();
    t.medianMs = n % 2 ? ms[n / 2] : 0.5 * (ms[n / 2 - 1] + ms[n / 2]);
    return t;
}

// Max |a - ref| over max |ref|; NaN gives +inf.
inline double relativeError(const float* a, const float* ref, std::size_t n)
{
    double maxDiff = 0, maxRef = 0;
    for(std::size_t i = 0; i < n; ++i)
    {
        const double d = std::fabs(static_cast<double>(a[i]) - static_cast<double>(ref[i]));
        if(!(d == d))
            return std::numeric_limits<double>::infinity();
        maxDiff = std::max(maxDiff, d);
        maxRef  = std::max(maxRef, std::fabs(static_cast<double>(ref[i])));
    }
    return maxDiff / std::max(maxRef, 1e-30);
}

// ---- Noise: CPU time other processes used while we measured ----

// Busy CPU seconds of the whole machine (all cores, /proc/stat) and of this process.
struct CpuClock
{
    double machineBusyS = 0;
    double selfS        = 0;
    std::chrono::steady_clock::time_point wall;
};

inline CpuClock readCpuClock()
{
    CpuClock c;
    c.wall = std::chrono::steady_clock::now();
    std::ifstream f("/proc/stat");
    std::string cpu;
    unsigned long long v[8] = {0, 0, 0, 0, 0, 0, 0, 0}; // user nice system idle iowait irq softirq steal
    f >> cpu;
    for(auto& x : v)
        f >> x;
    const double hz = static_cast<double>(sysconf(_SC_CLK_TCK));
    if(cpu == "cpu" && hz > 0)
        c.machineBusyS = static_cast<double>(v[0] + v[1] + v[2] + v[5] + v[6] + v[7]) / hz;
    rusage ru{};
    getrusage(RUSAGE_SELF, &ru);
    const auto sec = [](const timeval& t) { return static_cast<double>(t.tv_sec) + 1e-6 * static_cast<double>(t.tv_usec); };
    c.selfS = sec(ru.ru_utime) + sec(ru.ru_stime);
    return c;
}

// Average number of cores kept busy by other processes (and the hypervisor's steal) between
// two readings; 0 on a quiet machine, ~1 when another process ran flat out on one core.
inline double foreignLoad(const CpuClock& a, const CpuClock& b)
{
    const double wall = std::chrono::duration<double>(b.wall - a.wall).count();
    if(wall <= 0)
        return 0;
    const double foreign = (b.machineBusyS - a.machineBusyS) - (b.selfS - a.selfS);
    return std::max(0.0, foreign / wall);
}

// Waits until other processes keep at most maxOtherLoad cores busy over a 3-second window, at
// most quietWaitS seconds; returns the seconds waited.
inline double waitForQuiet(double maxOtherLoad, double quietWaitS)
{
    const auto start = std::chrono::steady_clock::now();
    for(;;)
    {
        const CpuClock a = readCpuClock();
        std::this_thread::sleep_for(std::chrono::seconds(3));
        const double waited =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        if(foreignLoad(a, readCpuClock()) <= maxOtherLoad || waited >= quietWaitS)
            return waited;
    }
}

// ---- Reports ----

// v with `decimals` digits after the point.
inline std::string fmt(double v, int decimals)
{
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
    return buf;
}

inline void printLoad(const char* when)
{
    double load[3] = {0, 0, 0};
    if(getloadavg(load, 3) == 3)
        std::printf("load average %s: %.2f %.2f %.2f\n", when, load[0], load[1], load[2]);
}

inline std::string cpuModel()
{
    std::ifstream f("/proc/cpuinfo");
    std::string line;
    while(std::getline(f, line))
        if(startsWith(line, "model name"))
            return line.substr(line.find(':') + 2);
    return "unknown";
}

inline const char* isaName(dnnl::cpu_isa isa)
{
    switch(isa)
    {
    case dnnl::cpu_isa::sse41: return "sse41";
    case dnnl::cpu_isa::avx: return "avx";
    case dnnl::cpu_isa::avx2: return "avx2";
    case dnnl::cpu_isa::avx2_vnni: return "avx2_vnni";
    case dnnl::cpu_isa::avx512_mic: return "avx512_mic";
    case dnnl::cpu_isa::avx512_mic_4ops: return "avx512_mic_4ops";
    case dnnl::cpu_isa::avx512_core: return "avx512_core";
    case dnnl::cpu_isa::avx512_core_vnni: return "avx512_core_vnni";
    case dnnl::cpu_isa::avx512_core_bf16: return "avx512_core_bf16";
    case dnnl::cpu_isa::avx512_core_amx: return "avx512_core_amx";
    case dnnl::cpu_isa::all: return "all";
    }
    return "unknown";
}

} // namespace bench

#endif // BENCHMARKS_BENCH_COMMON_HPP
