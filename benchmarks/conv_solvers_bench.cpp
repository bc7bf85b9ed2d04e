// Convolution solver benchmark: every applicable MIOpen solver (called through the internal
// registry) against oneDNN, side by side, on ResNet-50 layer shapes. See README.md for the
// methodology and the measured figures.
//
// For each layer and direction:
//   1. plain NCHW / KCRS buffers are filled with the same random data for both libraries;
//   2. oneDNN: primitives with format_tag::any (direct and auto algorithms); the inputs are
//      reordered into oneDNN's chosen layouts outside the timed region; each is timed;
//   3. MIOpen: every applicable solver (naive reference solvers only with --with-naive) is timed
//      with its workspace allocated outside the timed region;
//   4. every MIOpen solver's last output is compared with oneDNN's (direct) output (max abs diff
//      over max abs reference); a solver over the tolerance is marked WRONG, is not eligible as
//      "best", and makes the program exit with status 1.
// Timing: warm-up runs, then at least --reps runs and at least --min-time seconds (at most
// --max-reps runs); the median is reported.
#include "bench_common.hpp"
#include "device_memory.hpp"

#include <miopen/conv/problem.hpp>
#include <miopen/conv/solver.hpp>
#include <miopen/conv/solvers.hpp>
#include <miopen/convolution.hpp>
#include <miopen/handle.hpp>
#include <miopen/tensor.hpp>
#include <miopen/threading.hpp>

#include <oneapi/dnnl/dnnl.hpp>
#include <omp.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cerrno>
#include <cstring>
#include <ctime>
#include <exception>
#include <fstream>
#include <functional>
#include <limits>
#include <random>
#include <string>
#include <thread>
#include <unordered_map>
#include <utility>
#include <vector>

namespace {

using miopen::conv::Direction;
namespace dn = dnnl;

// Harness pieces shared with fusion_bn_bench (bench_common.hpp).
using bench::CpuClock;
using bench::cpuModel;
using bench::fmt;
using bench::foreignLoad;
using bench::isaName;
using bench::printLoad;
using bench::readCpuClock;
using bench::relativeError;
using bench::splitList;
using bench::startsWith;
using bench::Timing;

// ---- Layers ----

struct Layer
{
    const char* name;
    const char* group; // summary group: "3x3", "1x1", "7x7"
    int c, k, hw, rs, stride, pad;
    bool smoke; // tiny layer for the ctest smoke run; only run when the filter names it
};

// ResNet-50 convolution shapes (input spatial size H = W, filter R = S): every distinct shape of
// v1 (the stride in the first 1x1 of a stage's first block) and of v1.5 (the stride in its 3x3),
// the projection shortcuts included.
const std::vector<Layer> kLayers = {
    {"conv2_x_3x3", "3x3", 64, 64, 56, 3, 1, 1, false},
    {"conv3_x_3x3", "3x3", 128, 128, 28, 3, 1, 1, false},
    {"conv4_x_3x3", "3x3", 256, 256, 14, 3, 1, 1, false},
    {"conv5_x_3x3", "3x3", 512, 512, 7, 3, 1, 1, false},
    {"conv3_1_3x3_s2", "3x3", 128, 128, 56, 3, 2, 1, false}, // v1.5
    {"conv4_1_3x3_s2", "3x3", 256, 256, 28, 3, 2, 1, false}, // v1.5
    {"conv5_1_3x3_s2", "3x3", 512, 512, 14, 3, 2, 1, false}, // v1.5
    {"1x1_64_64_56", "1x1", 64, 64, 56, 1, 1, 0, false},
    {"1x1_64_256_56", "1x1", 64, 256, 56, 1, 1, 0, false},
    {"1x1_256_64_56", "1x1", 256, 64, 56, 1, 1, 0, false},
    {"1x1_256_128_56", "1x1", 256, 128, 56, 1, 1, 0, false},       // v1.5
    {"1x1_256_128_56_s2", "1x1", 256, 128, 56, 1, 2, 0, false},    // v1
    {"1x1_256_512_56_s2", "1x1", 256, 512, 56, 1, 2, 0, false},    // projection
    {"1x1_512_128_28", "1x1", 512, 128, 28, 1, 1, 0, false},
    {"1x1_128_512_28", "1x1", 128, 512, 28, 1, 1, 0, false},
    {"1x1_512_256_28", "1x1", 512, 256, 28, 1, 1, 0, false},       // v1.5
    {"1x1_512_256_28_s2", "1x1", 512, 256, 28, 1, 2, 0, false},    // v1
    {"1x1_512_1024_28_s2", "1x1", 512, 1024, 28, 1, 2, 0, false},  // projection
    {"1x1_1024_256_14", "1x1", 1024, 256, 14, 1, 1, 0, false},
    {"1x1_256_1024_14", "1x1", 256, 1024, 14, 1, 1, 0, false},
    {"1x1_1024_512_14", "1x1", 1024, 512, 14, 1, 1, 0, false},     // v1.5
    {"1x1_1024_512_14_s2", "1x1", 1024, 512, 14, 1, 2, 0, false},  // v1
    {"1x1_1024_2048_14_s2", "1x1", 1024, 2048, 14, 1, 2, 0, false}, // projection
    {"1x1_2048_512_7", "1x1", 2048, 512, 7, 1, 1, 0, false},
    {"1x1_512_2048_7", "1x1", 512, 2048, 7, 1, 1, 0, false},
    {"stem_7x7_s2", "7x7", 3, 64, 224, 7, 2, 3, false},
    {"smoke_3x3", "3x3", 16, 24, 10, 3, 1, 1, true},
    {"smoke_1x1_s2", "1x1", 24, 16, 9, 1, 2, 0, true},
};

const std::vector<Direction> kAllDirections = {
    Direction::Forward, Direction::BackwardData, Direction::BackwardWeights};

// Upstream ids of the naive reference solvers (stable ids, never names).
bool isNaiveSolver(std::uint64_t id) { return id == 85 || id == 86 || id == 87; }

// ---- Options ----

struct Options
{
    int batch                    = 32;
    std::vector<std::string> filter; // layer-name substrings; empty = every non-smoke layer
    std::vector<std::string> solverFilter;
    std::string dirs             = "FBW";
    bool withNaive               = false;
    int warmup                   = 2;
    int minReps                  = 5;
    int maxReps                  = 50;
    double minTimeS              = 0.5;
    double tol                   = 1e-3;
    std::string onednnAlg        = "best"; // best (direct + auto) | direct | auto | all (+ winograd)
    std::string csvPath;
    // Shared, noisy machines: re-measure a case when other processes kept more than
    // maxOtherLoad cores busy during it, after waiting (at most quietWaitS) for a quiet moment.
    // 0.05 since 2026-12-06: a row with 0.10 cores of other load (conv2_x_3x3 B, 2026-12-05) ran
    // MIOpen's Winograd 30% slower (16.47 ms) than undisturbed runs of the row after it (12.5-13.5).
    int retries         = 0;
    double maxOtherLoad = 0.05;
    double quietWaitS   = 120;
    // "wall" (steady_clock, the default) or "cpu" (this process's CPU time per run: with
    // MIOPEN_NUM_THREADS=1 OMP_NUM_THREADS=1 it does not count the time another process held the
    // core, so single-threaded comparisons stay usable on a loaded machine).
    std::string clock = "wall";
    // Interleaved rounds of the best MIOpen solver and the fastest oneDNN algorithm after the
    // sequential measurement: the ratio is the median of the per-round ratios (0: sequential).
    int pairRounds = 7;
    // Whole passes over the selection: the machine has slow states that last minutes (memory
    // bandwidth shared with the host's other guests), in which the memory-bound rows of one
    // library lose more than the other's; a row's ratio is then the median over passes that lie
    // minutes apart, each pass's ratio still printed.
    int passes = 1;
};

void printUsage()
{
    std::printf(
        "usage: conv_solvers_bench [options]\n"
        "  --batch=N          batch size (default 32; env CONV_BENCH_BATCH)\n"
        "  --filter=a,b       run layers whose name contains a or b (env CONV_BENCH_FILTER);\n"
        "                     default: every ResNet-50 layer (smoke_* layers only when named)\n"
        "  --dirs=FBW         directions: F forward, B backward data, W backward weights\n"
        "  --solvers=a,b      time only MIOpen solvers whose name contains a or b\n"
        "  --with-naive       also time the naive reference solvers (very slow at N=32)\n"
        "  --warmup=N         untimed runs before timing (default 2)\n"
        "  --reps=N           minimum timed runs (default 5)\n"
        "  --clock=C          wall (default) or cpu: this process's CPU time per run; use it\n"
        "                     single-threaded (MIOPEN_NUM_THREADS=1 OMP_NUM_THREADS=1) on a\n"
        "                     loaded machine (threads spinning at barriers count as busy)\n"
        "  --max-reps=N       maximum timed runs (default 50)\n"
        "  --min-time=S       minimum timed seconds per implementation (default 0.5)\n"
        "  --tol=X            max relative error vs oneDNN (default 1e-3)\n"
        "  --onednn-alg=A     best: time direct and auto (forward also direct created for\n"
        "                     inference), keep the fastest (default); all: also winograd\n"
        "                     where oneDNN has it; direct; auto\n"
        "  --csv=PATH         also write one CSV row per measurement\n"
        "  --retries=N        re-measure a case up to N times when other processes kept more\n"
        "                     than --max-other-load cores busy during it (default 0: never);\n"
        "                     before each retry wait up to --quiet-wait seconds for a quiet\n"
        "                     machine; the least disturbed measurement is kept\n"
        "  --max-other-load=X default 0.05 cores\n"
        "  --quiet-wait=S     default 120 s\n"
        "  --pair-rounds=N    time the best MIOpen solver and the fastest oneDNN algorithm\n"
        "                     again in N interleaved rounds (A B, B A, ...); the ratio is the\n"
        "                     median of the per-round ratios (default 7; 0: the sequential\n"
        "                     medians' ratio)\n"
        "  --passes=N         run the whole selection N times; a row shows the pass with the\n"
        "                     median ratio, every pass's ratio and the summary each pass's\n"
        "                     minima (default 1)\n"
        "  --list             list the layers and exit\n");
}

// Returns false (after printing why) on a bad argument.
bool parseOptions(int argc, char** argv, Options& o, bool& listOnly)
{
    if(const char* e = std::getenv("CONV_BENCH_FILTER"))
        o.filter = splitList(e);
    if(const char* e = std::getenv("CONV_BENCH_BATCH"))
        o.batch = std::atoi(e);
    for(int i = 1; i < argc; ++i)
    {
        const std::string a = argv[i];
        const auto value    = [&a]() { return a.substr(a.find('=') + 1); };
        if(startsWith(a, "--batch="))
            o.batch = std::atoi(value().c_str());
        else if(startsWith(a, "--filter="))
            o.filter = splitList(value());
        else if(startsWith(a, "--dirs="))
            o.dirs = value();
        else if(startsWith(a, "--solvers="))
            o.solverFilter = splitList(value());
        else if(a == "--with-naive")
            o.withNaive = true;
        else if(startsWith(a, "--warmup="))
            o.warmup = std::atoi(value().c_str());
        else if(startsWith(a, "--reps="))
            o.minReps = std::atoi(value().c_str());
        else if(startsWith(a, "--max-reps="))
            o.maxReps = std::atoi(value().c_str());
        else if(startsWith(a, "--min-time="))
            o.minTimeS = std::atof(value().c_str());
        else if(startsWith(a, "--tol="))
            o.tol = std::atof(value().c_str());
        else if(startsWith(a, "--onednn-alg="))
            o.onednnAlg = value();
        else if(startsWith(a, "--csv="))
            o.csvPath = value();
        else if(startsWith(a, "--pair-rounds="))
            o.pairRounds = std::atoi(value().c_str());
        else if(startsWith(a, "--retries="))
            o.retries = std::atoi(value().c_str());
        else if(startsWith(a, "--passes="))
            o.passes = std::atoi(value().c_str());
        else if(startsWith(a, "--max-other-load="))
            o.maxOtherLoad = std::atof(value().c_str());
        else if(startsWith(a, "--quiet-wait="))
            o.quietWaitS = std::atof(value().c_str());
        else if(startsWith(a, "--clock="))
            o.clock = value();
        else if(a == "--list")
            listOnly = true;
        else if(a == "--help" || a == "-h")
        {
            printUsage();
            std::exit(0);
        }
        else
        {
            std::fprintf(stderr, "unknown argument: %s\n", a.c_str());
            printUsage();
            return false;
        }
    }
    if(o.batch < 1 || o.minReps < 1 || o.maxReps < o.minReps || o.warmup < 0 || o.minTimeS < 0 ||
       !(o.tol > 0) || o.retries < 0 || o.pairRounds < 0 || o.passes < 1 || o.maxOtherLoad < 0 || o.quietWaitS < 0 ||
       (o.clock != "wall" && o.clock != "cpu"))
    {
        std::fprintf(stderr, "bad option values (batch, reps, max-reps, warmup, min-time, tol, "
                             "retries, passes, max-other-load, quiet-wait, clock)\n");
        return false;
    }
    if(o.onednnAlg != "best" && o.onednnAlg != "direct" && o.onednnAlg != "auto" &&
       o.onednnAlg != "all")
    {
        std::fprintf(stderr, "--onednn-alg must be best, all, direct or auto\n");
        return false;
    }
    if(o.dirs.find_first_not_of("FBW") != std::string::npos || o.dirs.empty())
    {
        std::fprintf(stderr, "--dirs takes letters F, B, W\n");
        return false;
    }
    return true;
}

bool layerSelected(const Layer& l, const Options& o)
{
    if(o.filter.empty())
        return !l.smoke;
    // Smoke layers only when a filter term names them ("smoke..."), so "--filter=3x3" selects the
    // ResNet-50 layers and the summary's minimum is not set by a batch-1 smoke layer.
    const std::string name = l.name;
    return std::any_of(o.filter.begin(), o.filter.end(), [&](const std::string& f) {
        return name.find(f) != std::string::npos && (!l.smoke || f.find("smoke") != std::string::npos);
    });
}

bool solverSelected(const miopen::conv::Solver& s, const Options& o)
{
    if(isNaiveSolver(s.id()) && !o.withNaive)
        return false;
    if(o.solverFilter.empty())
        return true;
    const std::string name = s.name();
    return std::any_of(o.solverFilter.begin(), o.solverFilter.end(),
                       [&](const std::string& f) { return name.find(f) != std::string::npos; });
}

// ---- Timing (bench_common.hpp) ----

double processCpuMs()
{
    timespec ts{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return 1e3 * static_cast<double>(ts.tv_sec) + 1e-6 * static_cast<double>(ts.tv_nsec);
}

// Like bench::timeRuns, but each run is timed with this process's CPU time (--clock=cpu).
Timing timeRunsCpu(const std::function<void()>& fn, const Options& o)
{
    for(int i = 0; i < o.warmup; ++i)
        fn();
    std::vector<double> ms;
    double total = 0;
    for(;;)
    {
        const double t0 = processCpuMs();
        fn();
        const double t1 = processCpuMs();
        ms.push_back(t1 - t0);
        total += t1 - t0;
        const int n = static_cast<int>(ms.size());
        if(n >= o.maxReps || (n >= o.minReps && total >= 1e3 * o.minTimeS))
            break;
    }
    std::sort(ms.begin(), ms.end());
    Timing t;
    t.reps              = static_cast<int>(ms.size());
    t.minMs             = ms.front();
    t.maxMs             = ms.back();
    const std::size_t n = ms.size();
    t.medianMs          = n % 2 ? ms[n / 2] : 0.5 * (ms[n / 2 - 1] + ms[n / 2]);
    return t;
}

Timing timeRuns(const std::function<void()>& fn, const Options& o)
{
    if(o.clock == "cpu")
        return timeRunsCpu(fn, o);
    return bench::timeRuns(fn, bench::TimingOptions{o.warmup, o.minReps, o.maxReps, o.minTimeS});
}

double gflops(double flop, double ms) { return ms > 0 ? flop / (ms * 1e6) : 0.0; }

// ---- Results ----

struct SolverResult
{
    std::string name;
    Timing timing;
    double gflops = 0;
    double relErr = 0;
    bool ok       = false;
    std::string error; // exception text when the run threw
};

struct OnednnResult
{
    std::string impl; // "jit:avx512_core (direct)"
    Timing timing;
    double gflops = 0;
};

struct CaseResult
{
    const Layer* layer = nullptr;
    Direction dir      = Direction::Forward;
    double flop        = 0;
    std::string registryFirst; // what a heuristic walk of the registry picks
    std::vector<SolverResult> miopen;
    std::vector<std::string> skipped;
    std::vector<OnednnResult> onednn; // one per timed algorithm
    std::string onednnImpl;           // the fastest of them
    double onednnGflops  = 0;
    double directGflops  = 0; // oneDNN convolution_direct, when timed
    int bestMiopen       = -1;
    double ratio         = 0; // best MIOpen / best oneDNN (paired rounds' median when timed)
    double ratioSeq      = 0; // the same from the sequential medians
    double ratioLo = 0, ratioHi = 0; // the paired rounds' smallest and largest ratio
    double ratioDirect   = 0; // best MIOpen / oneDNN convolution_direct (0 when not timed)
    double foreignLoad   = 0; // cores other processes kept busy while this case ran
    std::vector<double> passRatios; // --passes > 1: every pass's ratio, in pass order
};

// ---- oneDNN ----

struct Shapes
{
    dn::memory::dims src, wei, dst, strides, padL, padR;
};

struct OnednnCase
{
    dn::primitive prim;
    std::unordered_map<int, dn::memory> args;
    dn::memory result; // the written tensor, in the primitive's layout
    std::string impl;
};

dn::memory::desc anyDesc(const dn::memory::dims& d)
{
    return dn::memory::desc(d, dn::memory::data_type::f32, dn::memory::format_tag::any);
}

// A memory in `want`'s layout holding the plain user data (reordered outside any timing).
dn::memory toLayout(const dn::memory& user, const dn::memory::desc& want, const dn::engine& eng,
                    dn::stream& strm)
{
    if(user.get_desc() == want)
        return user;
    dn::memory src = user;
    dn::memory m(want, eng);
    dn::reorder(src, m).execute(strm, src, m);
    strm.wait();
    return m;
}

OnednnCase makeOnednnCase(Direction dir, dn::algorithm alg, dn::prop_kind fpropKind, const Shapes& s,
                          const dn::memory& userSrc, const dn::memory& userWei,
                          const dn::memory& userDst, const dn::engine& eng, dn::stream& strm)
{
    dn::primitive_attr attr;
    attr.set_scratchpad_mode(dn::scratchpad_mode::user);
    const dn::convolution_forward::desc fd(fpropKind, alg, anyDesc(s.src),
                                           anyDesc(s.wei), anyDesc(s.dst), s.strides, s.padL,
                                           s.padR);
    const dn::convolution_forward::primitive_desc fpd(fd, attr, eng);
    OnednnCase c;
    dn::memory::desc scratch;
    if(dir == Direction::Forward)
    {
        c.prim                        = dn::convolution_forward(fpd);
        c.impl                        = fpd.impl_info_str();
        c.args[DNNL_ARG_SRC]          = toLayout(userSrc, fpd.src_desc(), eng, strm);
        c.args[DNNL_ARG_WEIGHTS]      = toLayout(userWei, fpd.weights_desc(), eng, strm);
        c.result                      = dn::memory(fpd.dst_desc(), eng);
        c.args[DNNL_ARG_DST]          = c.result;
        scratch                       = fpd.scratchpad_desc();
    }
    else if(dir == Direction::BackwardData)
    {
        const dn::convolution_backward_data::desc bd(alg, anyDesc(s.src), anyDesc(s.wei),
                                                     anyDesc(s.dst), s.strides, s.padL, s.padR);
        const dn::convolution_backward_data::primitive_desc bpd(bd, attr, eng, fpd);
        c.prim                        = dn::convolution_backward_data(bpd);
        c.impl                        = bpd.impl_info_str();
        c.args[DNNL_ARG_DIFF_DST]     = toLayout(userDst, bpd.diff_dst_desc(), eng, strm);
        c.args[DNNL_ARG_WEIGHTS]      = toLayout(userWei, bpd.weights_desc(), eng, strm);
        c.result                      = dn::memory(bpd.diff_src_desc(), eng);
        c.args[DNNL_ARG_DIFF_SRC]     = c.result;
        scratch                       = bpd.scratchpad_desc();
    }
    else
    {
        const dn::convolution_backward_weights::desc wd(alg, anyDesc(s.src), anyDesc(s.wei),
                                                        anyDesc(s.dst), s.strides, s.padL, s.padR);
        const dn::convolution_backward_weights::primitive_desc wpd(wd, attr, eng, fpd);
        c.prim                        = dn::convolution_backward_weights(wpd);
        c.impl                        = wpd.impl_info_str();
        c.args[DNNL_ARG_SRC]          = toLayout(userSrc, wpd.src_desc(), eng, strm);
        c.args[DNNL_ARG_DIFF_DST]     = toLayout(userDst, wpd.diff_dst_desc(), eng, strm);
        c.result                      = dn::memory(wpd.diff_weights_desc(), eng);
        c.args[DNNL_ARG_DIFF_WEIGHTS] = c.result;
        scratch                       = wpd.scratchpad_desc();
    }
    c.args[DNNL_ARG_SCRATCHPAD] = dn::memory(scratch, eng);
    return c;
}

// ---- One layer, one direction ----

const char* dirName(Direction d) { return miopen::conv::directionName(d); }

bench::DeviceVector<float> randomBuffer(std::size_t n, std::uint32_t seed)
{
    std::mt19937 gen(seed);
    std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
    bench::DeviceVector<float> v(n);
    for(auto& x : v)
        x = dist(gen);
    return v;
}

const miopen::conv::Solver* bestSolver(const std::vector<const miopen::conv::Solver*>& solvers, const std::string& name)
{
    for(const auto* sv : solvers)
        if(sv->name() == name)
            return sv;
    throw std::logic_error("best solver " + name + " is not applicable");
}

// The median of `reps` runs of fn, in ms (wall clock, or CPU time with --clock=cpu).
double medianRunMs(const std::function<void()>& fn, int reps, const Options& o)
{
    std::vector<double> ms;
    for(int i = 0; i < reps; ++i)
    {
        const bool cpu   = o.clock == "cpu";
        const double c0  = cpu ? processCpuMs() : 0.0;
        const auto t0    = std::chrono::steady_clock::now();
        fn();
        const auto t1    = std::chrono::steady_clock::now();
        ms.push_back(cpu ? processCpuMs() - c0 : std::chrono::duration<double, std::milli>(t1 - t0).count());
    }
    std::sort(ms.begin(), ms.end());
    return ms[ms.size() / 2];
}

// The machine's speed drifts by 10-20 % over seconds (frequency, the host's other guests), more
// than the sequential measurement (oneDNN first, then every solver) can tell from a real
// difference. So the two finalists run again in interleaved rounds (A B, B A, ...), each round a
// median of 3 runs of each, and the ratio is the median of the rounds' ratios.
void pairedRatio(CaseResult& r, const miopen::conv::Solver& solver, const miopen::conv::ProblemDescription& problem,
                 const miopen::conv::ConvTensors& tensors, const miopen::Handle& handle, OnednnCase& peer,
                 dn::stream& strm, const Options& o)
{
    const std::size_t wsBytes       = solver.workspaceSize(problem);
    const miopen::Allocation wsAlloc = handle.allocate(wsBytes);
    const std::function<void()> runMiopen = [&]() { solver.run(handle, problem, tensors, wsAlloc.get(), wsBytes); };
    const std::function<void()> runPeer   = [&]() {
        peer.prim.execute(strm, peer.args);
        strm.wait();
    };
    runMiopen();
    runPeer();
    std::vector<double> ratios;
    for(int i = 0; i < o.pairRounds; ++i)
    {
        double mio = 0, one = 0;
        if(i % 2 == 0)
        {
            mio = medianRunMs(runMiopen, 3, o);
            one = medianRunMs(runPeer, 3, o);
        }
        else
        {
            one = medianRunMs(runPeer, 3, o);
            mio = medianRunMs(runMiopen, 3, o);
        }
        ratios.push_back(one / mio);
    }
    std::sort(ratios.begin(), ratios.end());
    r.ratio   = ratios[ratios.size() / 2];
    r.ratioLo = ratios.front();
    r.ratioHi = ratios.back();
    std::printf("  paired rounds (%d): best MIOpen / oneDNN median %.3f, range %.3f .. %.3f (sequential %.3f)\n",
                o.pairRounds, r.ratio, r.ratioLo, r.ratioHi, r.ratioSeq);
}

CaseResult runCase(const Layer& l, Direction dir, const Options& o, const miopen::Handle& handle,
                   const dn::engine& eng, dn::stream& strm)
{
    using miopen::TensorDescriptor;
    const std::size_t n = static_cast<std::size_t>(o.batch);
    const TensorDescriptor inDesc(miopenFloat, {n, std::size_t(l.c), std::size_t(l.hw), std::size_t(l.hw)});
    const TensorDescriptor weiDesc(miopenFloat,
                                   {std::size_t(l.k), std::size_t(l.c), std::size_t(l.rs), std::size_t(l.rs)});
    const miopen::ConvolutionDescriptor conv(2, miopenConvolution, {l.pad, l.pad},
                                             {l.stride, l.stride}, {1, 1});
    const TensorDescriptor outDesc(miopenFloat, conv.forwardOutputLengths(inDesc, weiDesc));
    const miopen::conv::ProblemDescription problem(inDesc, weiDesc, outDesc, conv, dir);

    CaseResult r;
    r.layer = &l;
    r.dir   = dir;
    r.flop  = problem.flopCount();

    // Plain buffers in device-aligned memory (device_memory.hpp), the same data for both libraries.
    bench::DeviceVector<float> x  = randomBuffer(inDesc.elementCount(), 1);
    bench::DeviceVector<float> w  = randomBuffer(weiDesc.elementCount(), 2);
    bench::DeviceVector<float> dy = randomBuffer(outDesc.elementCount(), 3);

    const auto dims = [](const TensorDescriptor& t) {
        dn::memory::dims d;
        for(auto v : t.lens())
            d.push_back(static_cast<dn::memory::dim>(v));
        return d;
    };
    Shapes s;
    s.src     = dims(inDesc);
    s.wei     = dims(weiDesc);
    s.dst     = dims(outDesc);
    s.strides = {l.stride, l.stride};
    s.padL    = {l.pad, l.pad};
    s.padR    = {l.pad, l.pad};
    using tag = dn::memory::format_tag;
    const dn::memory::desc srcPlain(s.src, dn::memory::data_type::f32, tag::nchw);
    const dn::memory::desc weiPlain(s.wei, dn::memory::data_type::f32, tag::oihw);
    const dn::memory::desc dstPlain(s.dst, dn::memory::data_type::f32, tag::nchw);
    const dn::memory userSrc(srcPlain, eng, x.data());
    const dn::memory userWei(weiPlain, eng, w.data());
    const dn::memory userDst(dstPlain, eng, dy.data());

    // The written tensor, plain: size and oneDNN plain desc.
    const TensorDescriptor& resultDesc = dir == Direction::Forward        ? outDesc
                                         : dir == Direction::BackwardData ? inDesc
                                                                          : weiDesc;
    const dn::memory::desc& resultPlain = dir == Direction::Forward        ? dstPlain
                                          : dir == Direction::BackwardData ? srcPlain
                                                                           : weiPlain;
    const std::size_t resultCount = resultDesc.elementCount();

    // oneDNN: direct, auto (and winograd with --onednn-alg=all), each timed when asked for; the
    // first one's output (direct unless --onednn-alg=auto) is the correctness reference. Forward
    // is created as forward_training, and with best/all also as a forward_inference direct
    // convolution: for that oneDNN 2.6 dispatches its brgconv kernels (channels-last), 1.1x to
    // 1.9x the rate of its training-time jit kernels on the strided 3x3 layers and the stem
    // (README, 2026-12-06).
    std::vector<float> reference(resultCount);
    struct OnednnVariant
    {
        dn::algorithm alg;
        dn::prop_kind fpropKind;
        const char* name;
    };
    std::vector<OnednnVariant> algs;
    if(o.onednnAlg != "auto")
        algs.push_back({dn::algorithm::convolution_direct, dn::prop_kind::forward_training, "direct"});
    if(o.onednnAlg != "direct")
        algs.push_back({dn::algorithm::convolution_auto, dn::prop_kind::forward_training, "auto"});
    if(o.onednnAlg == "all")
        algs.push_back({dn::algorithm::convolution_winograd, dn::prop_kind::forward_training, "winograd"});
    if(dir == Direction::Forward && (o.onednnAlg == "best" || o.onednnAlg == "all"))
        algs.push_back({dn::algorithm::convolution_direct, dn::prop_kind::forward_inference, "direct, inference"});
    bool haveReference = false;
    std::vector<std::string> timedImpls;
    OnednnCase fastest; // the fastest oneDNN algorithm, kept for the paired rounds
    for(const auto& [alg, fpropKind, algName] : algs)
    {
        OnednnCase c;
        try
        {
            c = makeOnednnCase(dir, alg, fpropKind, s, userSrc, userWei, userDst, eng, strm);
        }
        catch(const dn::error& e)
        {
            if(alg == dn::algorithm::convolution_direct && fpropKind == dn::prop_kind::forward_training)
                throw;
            std::printf("  oneDNN %s: no implementation for this problem\n", algName);
            continue;
        }
        const std::string label = c.impl + " (" + algName + ")";
        if(std::find(timedImpls.begin(), timedImpls.end(), c.impl) != timedImpls.end())
            continue; // resolved to an implementation already timed
        timedImpls.push_back(c.impl);
        const Timing t = timeRuns(
            [&]() {
                c.prim.execute(strm, c.args);
                strm.wait();
            },
            o);
        const double gf = gflops(r.flop, t.medianMs);
        std::printf("  %-40s %10.4f ms %8.1f GFLOP/s  (%d reps, min %.4f max %.4f)\n",
                    ("oneDNN " + label).c_str(), t.medianMs, gf, t.reps, t.minMs, t.maxMs);
        if(!haveReference)
        {
            dn::memory plain(resultPlain, eng, reference.data());
            dn::reorder(c.result, plain).execute(strm, c.result, plain);
            strm.wait();
            haveReference = true;
        }
        r.onednn.push_back({label, t, gf});
        if(alg == dn::algorithm::convolution_direct && fpropKind == dn::prop_kind::forward_training)
            r.directGflops = gf;
        if(gf > r.onednnGflops)
        {
            r.onednnGflops = gf;
            r.onednnImpl   = label;
            fastest        = c;
        }
    }

    // MIOpen: every applicable solver.
    const auto applicable = miopen::conv::applicableSolvers(problem);
    if(!applicable.empty())
        r.registryFirst = applicable.front()->name();
    bench::DeviceVector<float> result(resultCount);
    miopen::conv::ConvTensors tensors;
    tensors.in  = x.data();
    tensors.wei = w.data();
    tensors.out = dy.data();
    if(dir == Direction::Forward)
        tensors.outOut = result.data();
    else if(dir == Direction::BackwardData)
        tensors.inOut = result.data();
    else
        tensors.weiOut = result.data();

    for(const miopen::conv::Solver* solver : applicable)
    {
        if(!solverSelected(*solver, o))
        {
            r.skipped.push_back(solver->name());
            continue;
        }
        SolverResult sr;
        sr.name = solver->name();
        // NaN-filled, so a solver that leaves part of the output unwritten fails the check.
        std::fill(result.begin(), result.end(), std::numeric_limits<float>::quiet_NaN());
        try
        {
            const std::size_t wsBytes       = solver->workspaceSize(problem);
            const miopen::Allocation wsAlloc = handle.allocate(wsBytes);
            sr.timing                        = timeRuns(
                [&]() { solver->run(handle, problem, tensors, wsAlloc.get(), wsBytes); }, o);
            sr.gflops = gflops(r.flop, sr.timing.medianMs);
            sr.relErr = relativeError(result.data(), reference.data(), resultCount);
            sr.ok     = sr.relErr <= o.tol;
        }
        catch(const std::exception& e)
        {
            sr.error = e.what();
        }
        if(sr.error.empty())
            std::printf("  %-40s %10.4f ms %8.1f GFLOP/s  (%d reps, min %.4f max %.4f) "
                        "rel.err %.2e%s\n",
                        sr.name.c_str(), sr.timing.medianMs, sr.gflops, sr.timing.reps,
                        sr.timing.minMs, sr.timing.maxMs, sr.relErr, sr.ok ? "" : "  WRONG");
        else
            std::printf("  %-40s FAILED: %s\n", sr.name.c_str(), sr.error.c_str());
        r.miopen.push_back(sr);
    }
    for(std::size_t i = 0; i < r.miopen.size(); ++i)
        if(r.miopen[i].ok &&
           (r.bestMiopen < 0 || r.miopen[i].gflops > r.miopen[std::size_t(r.bestMiopen)].gflops))
            r.bestMiopen = static_cast<int>(i);
    if(r.bestMiopen >= 0 && r.onednnGflops > 0)
        r.ratio = r.ratioSeq = r.miopen[std::size_t(r.bestMiopen)].gflops / r.onednnGflops;
    if(r.bestMiopen >= 0 && r.onednnGflops > 0 && o.pairRounds > 0)
        pairedRatio(r, *bestSolver(applicable, r.miopen[std::size_t(r.bestMiopen)].name), problem, tensors, handle,
                    fastest, strm, o);
    if(r.bestMiopen >= 0 && r.directGflops > 0)
        r.ratioDirect = r.miopen[std::size_t(r.bestMiopen)].gflops / r.directGflops;
    if(!r.skipped.empty())
    {
        std::string list;
        for(const auto& sk : r.skipped)
            list += (list.empty() ? "" : ", ") + sk;
        std::printf("  not timed (applicable, filtered out): %s\n", list.c_str());
    }
    if(r.bestMiopen >= 0)
        std::printf("  best MIOpen %s, registry's first choice %s: best MIOpen / oneDNN = %.2f\n",
                    r.miopen[std::size_t(r.bestMiopen)].name.c_str(), r.registryFirst.c_str(),
                    r.ratio);
    else
        std::printf("  no correct MIOpen solver timed\n");
    return r;
}

// ---- Noise: CPU time other processes used while we measured (bench_common.hpp) ----

double waitForQuiet(const Options& o) { return bench::waitForQuiet(o.maxOtherLoad, o.quietWaitS); }

// ---- Reports ----

void printMarkdown(const std::vector<CaseResult>& results, const Options& o, double target,
                   double stretch)
{
    std::printf("\n## Results (N=%d, fp32, GFLOP/s from the median time)\n\n", o.batch);
    const bool passes = o.passes > 1;
    std::printf("| layer | dir | MIOpen solvers (GFLOP/s; best in bold) | best MIOpen | oneDNN "
                "(GFLOP/s impl; best in bold) | best oneDNN | ratio | vs direct | other load |%s\n"
                "|---|---|---|---:|---|---:|---:|---:|---:|%s\n",
                passes ? " ratio per pass |" : "", passes ? "---|" : "");
    for(const auto& r : results)
    {
        std::string solvers;
        for(std::size_t i = 0; i < r.miopen.size(); ++i)
        {
            const auto& sr = r.miopen[i];
            std::string v  = sr.error.empty() ? fmt(sr.gflops, 1) : std::string("failed");
            if(sr.error.empty() && !sr.ok)
                v += " WRONG";
            const bool best = static_cast<int>(i) == r.bestMiopen;
            solvers += (solvers.empty() ? "" : "; ") + std::string(best ? "**" : "") + sr.name +
                       " " + v + (best ? "**" : "");
        }
        const std::string best =
            r.bestMiopen >= 0 ? fmt(r.miopen[std::size_t(r.bestMiopen)].gflops, 1) : "-";
        std::string dnnl;
        for(const auto& od : r.onednn)
        {
            const bool bold = od.impl == r.onednnImpl && r.onednn.size() > 1;
            dnnl += (dnnl.empty() ? "" : "; ") + std::string(bold ? "**" : "") +
                    fmt(od.gflops, 1) + " " + od.impl + (bold ? "**" : "");
        }
        std::string perPass;
        for(double pr : r.passRatios)
            perPass += (perPass.empty() ? " " : " / ") + fmt(pr, 2);
        std::printf("| %s | %c | %s | %s | %s | %.1f | %s | %s | %.2f |%s\n", r.layer->name,
                    miopen::conv::directionLetter(r.dir), solvers.c_str(), best.c_str(),
                    dnnl.c_str(), r.onednnGflops,
                    r.bestMiopen >= 0 ? fmt(r.ratio, 2).c_str() : "-",
                    r.ratioDirect > 0 ? fmt(r.ratioDirect, 2).c_str() : "-", r.foreignLoad,
                    passes ? (perPass + " |").c_str() : "");
    }

    std::printf("\n\"ratio\": best correct MIOpen solver / fastest oneDNN algorithm (with --pair-rounds, "
                "the median over interleaved rounds of the two; the GFLOP/s columns are the sequential "
                "medians); \"vs direct\": "
                "/ oneDNN convolution_direct. \"other load\": cores other processes kept busy "
                "while the row was measured (/proc/stat minus this process); above ~0.1 the row "
                "is noisy.%s\n",
                passes ? " With --passes, each row is the pass with the median ratio (the lower "
                         "median of an even count); \"ratio per pass\" lists every pass's."
                       : "");
    std::printf("\n## Summary: min(best MIOpen / oneDNN) per filter group and direction "
                "(target >= %.1f, stretch >= %.1f)\n\n",
                target, stretch);
    std::printf("| group | dir | layers | min ratio | at layer | target | stretch | min vs direct "
                "| at layer |\n|---|---|---:|---:|---|---|---|---:|---|\n");
    const char* groups[] = {"3x3", "1x1", "7x7"};
    for(const char* g : groups)
        for(Direction d : kAllDirections)
        {
            double minRatio = std::numeric_limits<double>::infinity();
            double minDirect = std::numeric_limits<double>::infinity();
            const char* at       = "-";
            const char* atDirect = "-";
            int count            = 0;
            for(const auto& r : results)
                if(std::strcmp(r.layer->group, g) == 0 && r.dir == d)
                {
                    ++count;
                    if(r.ratio < minRatio)
                    {
                        minRatio = r.ratio;
                        at       = r.layer->name;
                    }
                    if(r.ratioDirect > 0 && r.ratioDirect < minDirect)
                    {
                        minDirect = r.ratioDirect;
                        atDirect  = r.layer->name;
                    }
                }
            if(count == 0)
                continue;
            std::printf("| %s | %c | %d | %.3f | %s | %s | %s | %s | %s |\n", g,
                        miopen::conv::directionLetter(d), count, minRatio, at,
                        minRatio >= target ? "met" : "MISSED",
                        minRatio >= stretch ? "met" : "missed",
                        std::isinf(minDirect) ? "-" : fmt(minDirect, 3).c_str(), atDirect);
        }
    if(!passes)
        return;
    std::printf("\nPer pass, min ratio per group and direction (the rows above take each layer's "
                "median over passes):\n\n| group | dir |");
    for(int p = 0; p < o.passes; ++p)
        std::printf(" pass %d |", p + 1);
    std::printf("\n|---|---|");
    for(int p = 0; p < o.passes; ++p)
        std::printf("---:|");
    std::printf("\n");
    for(const char* g : groups)
        for(Direction d : kAllDirections)
        {
            std::vector<double> mins(static_cast<std::size_t>(o.passes), std::numeric_limits<double>::infinity());
            bool any = false;
            for(const auto& r : results)
                if(std::strcmp(r.layer->group, g) == 0 && r.dir == d)
                {
                    any = true;
                    for(std::size_t p = 0; p < r.passRatios.size() && p < mins.size(); ++p)
                        mins[p] = std::min(mins[p], r.passRatios[p]);
                }
            if(!any)
                continue;
            std::printf("| %s | %c |", g, miopen::conv::directionLetter(d));
            for(double m : mins)
                std::printf(" %.3f |", m);
            std::printf("\n");
        }
}

void writeCsv(const std::vector<CaseResult>& results, const Options& o)
{
    std::ofstream f(o.csvPath);
    f << "layer,direction,batch,library,implementation,median_ms,min_ms,reps,gflops,rel_err,ok\n";
    for(const auto& r : results)
    {
        for(const auto& sr : r.miopen)
            f << r.layer->name << ',' << dirName(r.dir) << ',' << o.batch << ",miopen," << sr.name
              << ',' << sr.timing.medianMs << ',' << sr.timing.minMs << ',' << sr.timing.reps
              << ',' << sr.gflops << ',' << sr.relErr << ',' << (sr.ok ? 1 : 0) << '\n';
        for(const auto& od : r.onednn)
            f << r.layer->name << ',' << dirName(r.dir) << ',' << o.batch << ",onednn,\""
              << od.impl << "\"," << od.timing.medianMs << ',' << od.timing.minMs << ','
              << od.timing.reps << ',' << od.gflops << ",,1\n";
    }
}

// One row per case from several passes: the pass whose ratio is the median (the lower one of
// an even count), carrying every pass's ratio.
std::vector<CaseResult> medianOverPasses(std::vector<std::vector<CaseResult>> passes)
{
    std::vector<CaseResult> rows;
    if(passes.empty())
        return rows;
    for(std::size_t i = 0; i < passes[0].size(); ++i)
    {
        std::vector<double> ratios;
        std::vector<std::size_t> order;
        for(std::size_t p = 0; p < passes.size(); ++p)
        {
            ratios.push_back(passes[p][i].ratio);
            order.push_back(p);
        }
        std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return ratios[a] < ratios[b]; });
        CaseResult row = std::move(passes[order[(passes.size() - 1) / 2]][i]);
        if(passes.size() > 1)
            row.passRatios = ratios;
        rows.push_back(std::move(row));
    }
    return rows;
}

int runAll(const Options& o)
{
    // One thread count for both libraries: MIOpen's pool size (MIOPEN_NUM_THREADS or the
    // hardware concurrency) becomes OpenMP's (oneDNN's) unless OMP_NUM_THREADS is set. libgomp
    // reads OMP_NUM_THREADS when it is loaded, before main, so the count is set through
    // omp_set_num_threads (the initial thread's nthreads ICV) rather than setenv.
    const std::size_t miopenThreads = miopen::threadCount();
    const char* ompEnv              = std::getenv("OMP_NUM_THREADS");
    if(!ompEnv)
        omp_set_num_threads(static_cast<int>(miopenThreads));
    const dn::version_t* v = dn::version();

    const std::time_t now = std::time(nullptr);
    char date[64];
    std::strftime(date, sizeof date, "%Y-%m-%d %H:%M:%S %Z", std::localtime(&now));
    std::printf("conv_solvers_bench  %s  cpu: %s\n", date, cpuModel().c_str());
    std::printf("%s\n", miopen::threadingSummary().c_str());
    std::printf("miopen %s\n", miopen::conv::cpuKernelSummary().c_str());
    std::printf("onednn %d.%d.%d (%s), isa %s, omp_get_max_threads=%d (OMP_NUM_THREADS %s)\n",
                v->major, v->minor, v->patch, v->hash, isaName(dn::get_effective_cpu_isa()),
                omp_get_max_threads(),
                ompEnv ? (std::string("=") + ompEnv).c_str()
                       : "unset: set to miopen's thread count");
    const char* waitPolicy = std::getenv("OMP_WAIT_POLICY");
    std::printf("OMP_WAIT_POLICY=%s (%s)\n", waitPolicy ? waitPolicy : "unset",
                std::getenv("CONV_BENCH_WAIT_POLICY_SET") ? "set by the bench: both runtimes block between calls"
                                                           : "from the environment");
    if(static_cast<std::size_t>(omp_get_max_threads()) != miopenThreads)
        std::printf("WARNING: thread counts differ (miopen %zu, oneDNN %d): ratios are unfair\n",
                    miopenThreads, omp_get_max_threads());
    std::printf("batch %d, fp32, warm-up %d, reps >= %d and >= %.2f s (<= %d), median; tol %.0e; clock %s\n",
                o.batch, o.warmup, o.minReps, o.minTimeS, o.maxReps, o.tol,
                o.clock == "cpu" ? "cpu (process CPU time)" : "wall");
    printLoad("at start");

    const CpuClock runStart = readCpuClock();
    const miopen::Handle handle;
    const dn::engine eng(dn::engine::kind::cpu, 0);
    dn::stream strm(eng);

    std::vector<std::vector<CaseResult>> passResults(static_cast<std::size_t>(o.passes));
    bool allCorrect = true;
    for(int pass = 0; pass < o.passes; ++pass)
    {
    if(o.passes > 1)
        std::printf("\n# Pass %d of %d\n", pass + 1, o.passes);
    std::vector<CaseResult>& results = passResults[static_cast<std::size_t>(pass)];
    for(const Layer& l : kLayers)
    {
        if(!layerSelected(l, o))
            continue;
        for(Direction d : kAllDirections)
        {
            if(o.dirs.find(miopen::conv::directionLetter(d)) == std::string::npos)
                continue;
            std::printf("\n== %s  %dx%d %d->%d  in %dx%d  stride %d pad %d  N=%d  %s\n", l.name,
                        l.rs, l.rs, l.c, l.k, l.hw, l.hw, l.stride, l.pad, o.batch, dirName(d));
            std::fflush(stdout);
            CaseResult r;
            for(int attempt = 0;; ++attempt)
            {
                const CpuClock before = readCpuClock();
                CaseResult cur        = runCase(l, d, o, handle, eng, strm);
                cur.foreignLoad       = foreignLoad(before, readCpuClock());
                std::printf("  other processes kept %.2f cores busy during this case\n",
                            cur.foreignLoad);
                if(attempt == 0 || cur.foreignLoad < r.foreignLoad)
                    r = std::move(cur);
                if(r.foreignLoad <= o.maxOtherLoad || attempt >= o.retries)
                    break;
                const double waited = waitForQuiet(o);
                std::printf("  re-measuring (attempt %d of %d) after waiting %.0f s for a quiet "
                            "machine\n",
                            attempt + 2, o.retries + 1, waited);
            }
            for(const auto& sr : r.miopen)
                allCorrect = allCorrect && sr.ok;
            results.push_back(std::move(r));
            std::fflush(stdout);
        }
    }
    }
    const std::vector<CaseResult> results = medianOverPasses(std::move(passResults));
    if(results.empty())
    {
        std::fprintf(stderr, "no layer matches the filter (--list shows them)\n");
        return 2;
    }
    printMarkdown(results, o, 0.7, 0.9);
    if(!o.csvPath.empty())
        writeCsv(results, o);
    std::printf("\n");
    printLoad("at end");
    const CpuClock runEnd = readCpuClock();
    std::printf("run took %.0f s; other processes kept %.2f cores busy on average\n",
                std::chrono::duration<double>(runEnd.wall - runStart.wall).count(),
                foreignLoad(runStart, runEnd));
    if(!allCorrect)
    {
        std::printf("FAILED: a MIOpen solver failed or exceeded the tolerance (see WRONG/FAILED)\n");
        return 1;
    }
    return 0;
}

} // namespace

int main(int argc, char** argv)
{
    // The two runtimes wait the same way between calls: MIOpen's pool blocks, and libgomp (oneDNN)
    // is made passive too. With libgomp's default its workers busy-wait several ms after each
    // parallel region, and in the paired rounds the MIOpen run started at once shared a core with
    // them: on the memory-bound 1x1_64_64_56 backward weights the rounds' ratios spread over
    // 0.47-1.00 (median 0.66-0.84 in three runs; sequential 0.83-0.91), passive 0.81-0.88 with
    // oneDNN's own time unchanged. Pausing before each block instead left the cores idle and made
    // the first runs after it slow (0.45-1.98). libgomp reads the policy when it loads, before
    // main, so the bench runs itself again with it set; an explicit OMP_WAIT_POLICY is kept.
    if(std::getenv("OMP_WAIT_POLICY") == nullptr)
    {
        setenv("OMP_WAIT_POLICY", "passive", 1);
        setenv("CONV_BENCH_WAIT_POLICY_SET", "1", 1);
        execv("/proc/self/exe", argv);
        std::fprintf(stderr, "warning: could not re-run with OMP_WAIT_POLICY=passive: %s\n", std::strerror(errno));
    }
    Options o;
    bool listOnly = false;
    if(!parseOptions(argc, argv, o, listOnly))
        return 2;
    if(listOnly)
    {
        for(const Layer& l : kLayers)
            std::printf("%-20s %s  C=%d K=%d H=W=%d R=S=%d stride %d pad %d%s\n", l.name, l.group,
                        l.c, l.k, l.hw, l.rs, l.stride, l.pad, l.smoke ? "  (smoke only)" : "");
        return 0;
    }
    try
    {
        return runAll(o);
    }
    catch(const dn::error& e)
    {
        std::fprintf(stderr, "oneDNN error: %s (status %d)\n", e.what(), static_cast<int>(e.status));
    }
    catch(const std::exception& e)
    {
        std::fprintf(stderr, "error: %s\n", e.what());
    }
    return 1;
}
