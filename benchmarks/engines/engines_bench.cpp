// Per-layer engine benchmark (issue 7): ResNet-50 convolution layers through the public MIOpen
// API only (links libMIOpen.so), in four configurations, in one run:
//   pass     MIOPEN_HIPDNN_FORWARDING=disabled (MIOpen Private)
//   miopen   forwarded, MIOPEN_HIPDNN_PREFERRED_ENGINE=MIOPEN_ENGINE
//   dnnl     forwarded, MIOPEN_HIPDNN_PREFERRED_ENGINE=DNNL_ENGINE
//   default  forwarded, hipDNN's default engine order (the measured ranking)
// The wrapper reads its environment once per process, so the driver runs each configuration as a
// child process of itself (--child=CONFIG), interleaved: repeat r runs the four configurations in
// an order rotated by r, and the driver reports the median over repeats of each child's median.
// Every child calls Find once per problem (as a framework does; the user find-db is shared by the
// children, so only the first one benchmarks solvers) and then the convolution call: one cold
// call (plan build; in "default" also the engine ranking on a miss), warm-up, timed calls.
// The children share one engine-ranking file (HIPDNN_ENGINE_RANKING_DB): the first "default"
// child measures each problem in its cold call, later ones read the file, and the steady state
// never includes measuring. Each child reports a checksum of the output (compared with
// pass-through's) and, for forwarded calls, the engine that ran (from the wrapper's routing trace).
#include <miopen/miopen.h>

#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace {

struct Layer
{
    const char* name;
    int c, k, hw, rs, stride;
    bool smoke; // only when --quick or the filter names it
};

// Every distinct 3x3 and 1x1 convolution of ResNet-50 (v1.5: stride 2 in the 3x3 and in the
// 1x1 projection shortcut) in conv2_x .. conv5_x; input spatial size H = W.
const std::vector<Layer> kLayers = {
    {"c2_1x1_64_64", 64, 64, 56, 1, 1, false},
    {"c2_3x3_64", 64, 64, 56, 3, 1, false},
    {"c2_1x1_64_256", 64, 256, 56, 1, 1, false},
    {"c2_1x1_256_64", 256, 64, 56, 1, 1, false},
    {"c3_1x1_256_128", 256, 128, 56, 1, 1, false},
    {"c3_3x3_128_s2", 128, 128, 56, 3, 2, false},
    {"c3_1x1_128_512", 128, 512, 28, 1, 1, false},
    {"c3_1x1_256_512_s2", 256, 512, 56, 1, 2, false},
    {"c3_1x1_512_128", 512, 128, 28, 1, 1, false},
    {"c3_3x3_128", 128, 128, 28, 3, 1, false},
    {"c4_1x1_512_256", 512, 256, 28, 1, 1, false},
    {"c4_3x3_256_s2", 256, 256, 28, 3, 2, false},
    {"c4_1x1_256_1024", 256, 1024, 14, 1, 1, false},
    {"c4_1x1_512_1024_s2", 512, 1024, 28, 1, 2, false},
    {"c4_1x1_1024_256", 1024, 256, 14, 1, 1, false},
    {"c4_3x3_256", 256, 256, 14, 3, 1, false},
    {"c5_1x1_1024_512", 1024, 512, 14, 1, 1, false},
    {"c5_3x3_512_s2", 512, 512, 14, 3, 2, false},
    {"c5_1x1_512_2048", 512, 2048, 7, 1, 1, false},
    {"c5_1x1_1024_2048_s2", 1024, 2048, 14, 1, 2, false},
    {"c5_1x1_2048_512", 2048, 512, 7, 1, 1, false},
    {"c5_3x3_512", 512, 512, 7, 3, 1, false},
    {"smoke_3x3", 8, 12, 9, 3, 1, true},
    {"smoke_1x1_s2", 12, 8, 9, 1, 2, true},
};

const char* const kConfigs[] = {"pass", "miopen", "dnnl", "default"};
constexpr int kNumConfigs    = 4;

struct Options
{
    int batch = 32;
    std::vector<std::string> filter;
    std::string dirs = "FBW";
    std::vector<std::string> types{"fp32", "bf16"};
    int repeats = 3; // child runs per configuration (interleaved)
    int warmup  = 1;
    int reps    = 3; // timed calls per child and case
    bool quick  = false;
    bool withExampleEngine = false;
    std::string child; // configuration name when running as a child
    std::string workDir;
};

std::vector<std::string> splitList(const std::string& s)
{
    std::vector<std::string> out;
    std::stringstream in(s);
    std::string item;
    while(std::getline(in, item, ','))
        if(!item.empty())
            out.push_back(item);
    return out;
}

bool startsWith(const std::string& s, const char* p) { return s.rfind(p, 0) == 0; }

void printUsage()
{
    std::printf(
        "usage: engines_bench [options]\n"
        "  --batch=N        batch size (default 32)\n"
        "  --filter=a,b     layers whose name contains a or b (default: every ResNet-50 layer)\n"
        "  --dirs=FBW       F forward, B backward data, W backward weights\n"
        "  --types=fp32,bf16  data types (bf16 only where the CPU has avx512_bf16 or amx_bf16)\n"
        "  --repeats=N      child runs per configuration, interleaved (default 3)\n"
        "  --warmup=N       untimed calls after the cold call (default 1)\n"
        "  --reps=N         timed calls per child (default 3)\n"
        "  --quick          smoke: the tiny layers, batch 1, fp32, 1 repeat, 1 rep\n"
        "  --with-example-engine  keep hipDNN's default plugin directory (the naive example\n"
        "                   engine is ranked too: one slow run per problem); default: a plugin\n"
        "                   directory with the MIOpen and oneDNN providers only\n"
        "  --list           list the layers\n");
}

// ---- child: one configuration, every case ----------------------------------------------------

void check(miopenStatus_t st, const char* what)
{
    if(st != miopenStatusSuccess)
    {
        std::fprintf(stdout, "ERROR %s failed: %s\n", what, miopenGetErrorString(st));
        std::fflush(stdout);
        std::exit(2);
    }
}

uint16_t toBf16(float f)
{
    uint32_t b = 0;
    std::memcpy(&b, &f, 4);
    b += 0x7fff + ((b >> 16) & 1);
    return static_cast<uint16_t>(b >> 16);
}

float fromBf16(uint16_t v)
{
    const uint32_t b = static_cast<uint32_t>(v) << 16;
    float f          = 0;
    std::memcpy(&f, &b, 4);
    return f;
}

struct Buffer
{
    std::vector<float> f32;
    std::vector<uint16_t> b16;
    bool bf16 = false;
    void init(size_t n, bool isBf16, uint32_t seed)
    {
        bf16 = isBf16;
        uint32_t s = seed * 747796405u + 2891336453u;
        auto next  = [&s] {
            s ^= s << 13;
            s ^= s >> 17;
            s ^= s << 5;
            return static_cast<float>(s % 2001u) / 1000.0f - 1.0f;
        };
        if(bf16)
        {
            b16.resize(n);
            for(auto& v : b16)
                v = toBf16(next());
        }
        else
        {
            f32.resize(n);
            for(auto& v : f32)
                v = next();
        }
    }
    void* data() { return bf16 ? static_cast<void*>(b16.data()) : static_cast<void*>(f32.data()); }
    size_t size() const { return bf16 ? b16.size() : f32.size(); }
    float at(size_t i) const { return bf16 ? fromBf16(b16[i]) : f32[i]; }
};

/// The last "engine=NAME" the routing trace wrote (stderr goes to `tracePath` in the child).
std::string lastEngine(const std::string& tracePath)
{
    std::fflush(stderr);
    std::ifstream in(tracePath);
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const size_t at = text.rfind("engine=");
    if(at == std::string::npos)
        return "none";
    const size_t end = text.find_first_of(" \n", at);
    return text.substr(at + 7, end == std::string::npos ? std::string::npos : end - at - 7);
}

double msSince(std::chrono::steady_clock::time_point t0)
{
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

int runChild(const Options& o, const std::vector<Layer>& layers)
{
    const bool forwarded = o.child != "pass";
    const std::string tracePath = o.workDir + "/trace_" + o.child + "_" + std::to_string(::getpid()) + ".txt";
    if(forwarded && std::freopen(tracePath.c_str(), "w", stderr) == nullptr)
        return 2;
    miopenHandle_t h = nullptr;
    check(miopenCreate(&h), "miopenCreate");
    for(const std::string& type : o.types)
    {
        const bool bf16 = type == "bf16";
        const miopenDataType_t dt = bf16 ? miopenBFloat16 : miopenFloat;
        for(const Layer& l : layers)
        {
            const int pad = l.rs / 2;
            const int out = (l.hw + 2 * pad - l.rs) / l.stride + 1;
            miopenTensorDescriptor_t xD, wD, yD;
            miopenConvolutionDescriptor_t conv;
            check(miopenCreateTensorDescriptor(&xD), "miopenCreateTensorDescriptor");
            check(miopenCreateTensorDescriptor(&wD), "miopenCreateTensorDescriptor");
            check(miopenCreateTensorDescriptor(&yD), "miopenCreateTensorDescriptor");
            check(miopenSet4dTensorDescriptor(xD, dt, o.batch, l.c, l.hw, l.hw), "miopenSet4dTensorDescriptor");
            check(miopenSet4dTensorDescriptor(wD, dt, l.k, l.c, l.rs, l.rs), "miopenSet4dTensorDescriptor");
            check(miopenSet4dTensorDescriptor(yD, dt, o.batch, l.k, out, out), "miopenSet4dTensorDescriptor");
            check(miopenCreateConvolutionDescriptor(&conv), "miopenCreateConvolutionDescriptor");
            check(miopenInitConvolutionDescriptor(conv, miopenConvolution, pad, pad, l.stride, l.stride, 1, 1),
                  "miopenInitConvolutionDescriptor");
            Buffer x, w, y;
            x.init(static_cast<size_t>(o.batch) * l.c * l.hw * l.hw, bf16, 1);
            w.init(static_cast<size_t>(l.k) * l.c * l.rs * l.rs, bf16, 2);
            y.init(static_cast<size_t>(o.batch) * l.k * out * out, bf16, 3);
            const float one = 1.0f, zero = 0.0f;
            for(char dir : o.dirs)
            {
                size_t wsSize = 0;
                Buffer* written = dir == 'F' ? &y : dir == 'B' ? &x : &w;
                if(dir == 'F')
                    check(miopenConvolutionForwardGetWorkSpaceSize(h, wD, xD, conv, yD, &wsSize), "workspace size");
                else if(dir == 'B')
                    check(miopenConvolutionBackwardDataGetWorkSpaceSize(h, yD, wD, conv, xD, &wsSize), "workspace size");
                else
                    check(miopenConvolutionBackwardWeightsGetWorkSpaceSize(h, yD, xD, conv, wD, &wsSize), "workspace size");
                std::vector<char> ws(std::max<size_t>(wsSize, 1));
                miopenConvAlgoPerf_t perf[8];
                int found = 0;
                if(dir == 'F')
                    check(miopenFindConvolutionForwardAlgorithm(h, xD, x.data(), wD, w.data(), conv, yD, y.data(), 8, &found,
                                                                perf, ws.data(), wsSize, false),
                          "miopenFindConvolutionForwardAlgorithm");
                else if(dir == 'B')
                    check(miopenFindConvolutionBackwardDataAlgorithm(h, yD, y.data(), wD, w.data(), conv, xD, x.data(), 8,
                                                                     &found, perf, ws.data(), wsSize, false),
                          "miopenFindConvolutionBackwardDataAlgorithm");
                else
                    check(miopenFindConvolutionBackwardWeightsAlgorithm(h, yD, y.data(), xD, x.data(), conv, wD, w.data(), 8,
                                                                        &found, perf, ws.data(), wsSize, false),
                          "miopenFindConvolutionBackwardWeightsAlgorithm");
                if(found < 1)
                {
                    std::printf("ERROR Find returned no algorithm\n");
                    return 2;
                }
                // Inputs again (Find wrote the output buffer; backward directions overwrite inputs of others).
                x.init(x.size(), bf16, 1);
                w.init(w.size(), bf16, 2);
                y.init(y.size(), bf16, 3);
                auto call = [&] {
                    if(dir == 'F')
                        check(miopenConvolutionForward(h, &one, xD, x.data(), wD, w.data(), conv, perf[0].fwd_algo, &zero,
                                                       yD, y.data(), ws.data(), wsSize),
                              "miopenConvolutionForward");
                    else if(dir == 'B')
                        check(miopenConvolutionBackwardData(h, &one, yD, y.data(), wD, w.data(), conv, perf[0].bwd_data_algo,
                                                            &zero, xD, x.data(), ws.data(), wsSize),
                              "miopenConvolutionBackwardData");
                    else
                        check(miopenConvolutionBackwardWeights(h, &one, yD, y.data(), xD, x.data(), conv,
                                                               perf[0].bwd_weights_algo, &zero, wD, w.data(), ws.data(),
                                                               wsSize),
                              "miopenConvolutionBackwardWeights");
                };
                auto t0            = std::chrono::steady_clock::now();
                call();
                const double cold  = msSince(t0);
                for(int i = 0; i < o.warmup; ++i)
                    call();
                std::vector<double> times;
                for(int i = 0; i < std::max(1, o.reps); ++i)
                {
                    t0 = std::chrono::steady_clock::now();
                    call();
                    times.push_back(msSince(t0));
                }
                std::sort(times.begin(), times.end());
                const double median = times[times.size() / 2];
                double sumAbs = 0, sumSigned = 0;
                for(size_t i = 0; i < written->size(); ++i)
                {
                    const double v = written->at(i);
                    sumAbs += std::fabs(v);
                    sumSigned += v * (((i * 2654435761u) >> 7) & 1 ? 1.0 : -1.0);
                }
                const std::string engine = forwarded ? lastEngine(tracePath) : "private";
                std::printf("RESULT %s %c %s %.4f %.4f %.9g %.9g %s\n", l.name, dir, type.c_str(), cold, median, sumAbs,
                            sumSigned, engine.c_str());
                std::fflush(stdout);
            }
            miopenDestroyConvolutionDescriptor(conv);
            miopenDestroyTensorDescriptor(xD);
            miopenDestroyTensorDescriptor(wD);
            miopenDestroyTensorDescriptor(yD);
        }
    }
    miopenDestroy(h);
    if(forwarded)
        std::remove(tracePath.c_str());
    return 0;
}

// ---- driver ----------------------------------------------------------------------------------

struct Sample
{
    double cold = 0, median = 0, sumAbs = 0, sumSigned = 0;
    std::string engine;
};

using CaseKey = std::string; // "<layer> <dir> <type>"

/// Runs one configuration as a child (same binary); parses its RESULT lines into `out`.
bool runConfig(const std::string& self, const Options& o, const char* config, const std::string& pluginDir,
               std::map<CaseKey, Sample>& out)
{
    int fds[2];
    if(::pipe(fds) != 0)
        return false;
    const pid_t pid = ::fork();
    if(pid < 0)
        return false;
    if(pid == 0)
    {
        ::dup2(fds[1], STDOUT_FILENO);
        ::close(fds[0]);
        ::close(fds[1]);
        const std::string cfg = config;
        ::setenv("MIOPEN_HIPDNN_FORWARDING", cfg == "pass" ? "disabled" : "enabled", 1);
        ::unsetenv("MIOPEN_HIPDNN_PREFERRED_ENGINE");
        ::unsetenv("HIPDNN_HEUR_FALLBACK_ENGINE_ORDER");
        ::unsetenv("HIPDNN_ENGINE_RANKING");
        if(cfg == "miopen")
            ::setenv("MIOPEN_HIPDNN_PREFERRED_ENGINE", "MIOPEN_ENGINE", 1);
        if(cfg == "dnnl")
            ::setenv("MIOPEN_HIPDNN_PREFERRED_ENGINE", "DNNL_ENGINE", 1);
        if(cfg != "pass")
            ::setenv("MIOPEN_LOG_LEVEL", "6", 1); // routing trace: names the engine of each call
        ::setenv("HIPDNN_ENGINE_RANKING_DB", (o.workDir + "/engine_ranking.txt").c_str(), 1);
        ::setenv("MIOPEN_USER_DB_PATH", (o.workDir + "/userdb").c_str(), 1);
        if(!pluginDir.empty())
            ::setenv("HIPDNN_PLUGIN_DIR", pluginDir.c_str(), 1);
        std::vector<std::string> args{self, "--child=" + cfg, "--work-dir=" + o.workDir,
                                      "--batch=" + std::to_string(o.batch), "--dirs=" + o.dirs,
                                      "--warmup=" + std::to_string(o.warmup), "--reps=" + std::to_string(o.reps)};
        std::string types, filter;
        for(const auto& t : o.types)
            types += (types.empty() ? "" : ",") + t;
        for(const auto& f : o.filter)
            filter += (filter.empty() ? "" : ",") + f;
        args.push_back("--types=" + types);
        if(!filter.empty())
            args.push_back("--filter=" + filter);
        if(o.quick)
            args.push_back("--quick");
        std::vector<char*> argv;
        for(auto& a : args)
            argv.push_back(a.data());
        argv.push_back(nullptr);
        ::execv(self.c_str(), argv.data());
        std::_Exit(127);
    }
    ::close(fds[1]);
    FILE* in = ::fdopen(fds[0], "r");
    char line[1024];
    bool ok = true;
    while(std::fgets(line, sizeof(line), in) != nullptr)
    {
        std::istringstream s(line);
        std::string tag, layer, dir, type;
        s >> tag;
        if(tag == "RESULT")
        {
            Sample smp;
            s >> layer >> dir >> type >> smp.cold >> smp.median >> smp.sumAbs >> smp.sumSigned >> smp.engine;
            out[layer + " " + dir + " " + type] = smp;
        }
        else
        {
            std::printf("[%s] %s", config, line);
            ok = ok && tag != "ERROR";
        }
    }
    std::fclose(in);
    int status = 0;
    ::waitpid(pid, &status, 0);
    if(!WIFEXITED(status) || WEXITSTATUS(status) != 0)
    {
        std::printf("child '%s' failed (status %d)\n", config, status);
        ok = false;
    }
    return ok;
}

double medianOf(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v.empty() ? 0 : v[v.size() / 2];
}

bool cpuHasBf16()
{
    std::ifstream in("/proc/cpuinfo");
    std::string line;
    while(std::getline(in, line))
        if(startsWith(line, "flags"))
            return line.find(" avx512_bf16") != std::string::npos || line.find(" amx_bf16") != std::string::npos;
    return false;
}

std::string selfDir(const std::string& self) { return self.substr(0, self.rfind('/')); }

int runDriver(Options o, const std::vector<Layer>& layers, const std::string& self)
{
    if(std::find(o.types.begin(), o.types.end(), "bf16") != o.types.end() && !cpuHasBf16())
    {
        std::printf("bf16: this CPU has neither avx512_bf16 nor amx_bf16; bf16 layers skipped\n");
        o.types.erase(std::remove(o.types.begin(), o.types.end(), "bf16"), o.types.end());
    }
    char tmpl[] = "/tmp/engines_bench.XXXXXX";
    if(::mkdtemp(tmpl) == nullptr)
        return 2;
    o.workDir = tmpl;
    // The engines: MIOpen and oneDNN providers only, unless asked (see --with-example-engine).
    std::string pluginDir;
    if(!o.withExampleEngine)
    {
        pluginDir                 = o.workDir + "/engines";
        const std::string engines = selfDir(self) + "/../lib/hipdnn_plugins/engines/";
        ::mkdir(pluginDir.c_str(), 0700);
        for(const char* lib : {"libhipdnn_dnnl_provider_plugin.so", "libhipdnn_miopen_provider_plugin.so"})
            if(::symlink((engines + lib).c_str(), (pluginDir + "/" + lib).c_str()) != 0)
                return 2;
    }
    std::printf("engines_bench: batch %d, types %s, dirs %s, %d repeat(s) x (1 cold + %d warm-up + %d timed calls),"
                " work dir %s, engines: %s\n",
                o.batch, o.types.size() == 2 ? "fp32,bf16" : o.types[0].c_str(), o.dirs.c_str(), o.repeats, o.warmup,
                o.reps, o.workDir.c_str(), o.withExampleEngine ? "default plugin directory" : "MIOPEN_ENGINE, DNNL_ENGINE");
    std::fflush(stdout);
    std::map<CaseKey, std::vector<Sample>> samples[kNumConfigs];
    bool ok = true;
    const auto start = std::chrono::steady_clock::now();
    for(int r = 0; r < o.repeats; ++r)
    {
        for(int i = 0; i < kNumConfigs; ++i)
        {
            const int c = (i + r) % kNumConfigs; // rotate the order each repeat
            std::map<CaseKey, Sample> got;
            ok = runConfig(self, o, kConfigs[c], pluginDir, got) && ok;
            for(auto& [k, s] : got)
                samples[c][k].push_back(s);
            std::printf("  repeat %d/%d: %-7s done (%.0f s)\n", r + 1, o.repeats, kConfigs[c], msSince(start) / 1000);
            std::fflush(stdout);
        }
    }
    // Table.
    std::printf("\nmedian ms over %d repeat(s); ratio = default / faster pinned engine (target <= 1.05);\n"
                "'beats pass' is checked where DNNL is faster than pass-through; cold = default's first call in\n"
                "repeat 1 (plan build + engine ranking measured) and in the last repeat (ranking read from the file)\n\n",
                o.repeats);
    std::printf("%-20s %c %-4s %9s %9s %9s %9s %-27s %6s %-10s %8s %8s %s\n", "layer", 'D', "type", "pass", "miopen",
                "dnnl", "default", "default_eng", "ratio", "beats_pass", "cold1", "coldN", "check");
    int within = 0, total = 0, beatsNeeded = 0, beats = 0, wrong = 0;
    double worst = 0;
    std::vector<double> ratios;
    for(const std::string& type : o.types)
        for(const Layer& l : layers)
            for(char dir : o.dirs)
            {
                const CaseKey key = std::string(l.name) + " " + dir + " " + type;
                double med[kNumConfigs] = {};
                bool have = true;
                for(int c = 0; c < kNumConfigs; ++c)
                {
                    std::vector<double> m;
                    for(const auto& s : samples[c][key])
                        m.push_back(s.median);
                    have = have && !m.empty();
                    med[c] = medianOf(m);
                }
                if(!have)
                {
                    std::printf("%-20s %c %-4s missing results\n", l.name, dir, type.c_str());
                    ok = false;
                    continue;
                }
                const auto& def   = samples[3][key];
                const double fast = std::min(med[1], med[2]);
                const double ratio = med[3] / fast;
                ++total;
                within += ratio <= 1.05 ? 1 : 0;
                worst = std::max(worst, ratio);
                ratios.push_back(ratio);
                std::string beatsPass = "-";
                if(med[2] < med[0])
                {
                    ++beatsNeeded;
                    const bool b = med[3] < med[0];
                    beats += b ? 1 : 0;
                    beatsPass = b ? "yes" : "NO";
                }
                // Checks: pinned engines ran where pinned; outputs agree with pass-through.
                std::string chk = "ok";
                const double tol = type == "bf16" ? 3e-2 : 1e-3;
                const auto& ref  = samples[0][key].front();
                for(int c = 1; c < kNumConfigs; ++c)
                    for(const auto& s : samples[c][key])
                    {
                        const double d = std::max(std::fabs(s.sumAbs - ref.sumAbs), std::fabs(s.sumSigned - ref.sumSigned)) /
                                         std::max(ref.sumAbs, 1e-30);
                        if(d > tol)
                            chk = std::string("MISMATCH(") + kConfigs[c] + ")";
                        if((c == 1 && s.engine != "MIOPEN_ENGINE") || (c == 2 && s.engine != "DNNL_ENGINE"))
                            chk = std::string(kConfigs[c]) + "-ran-" + s.engine;
                    }
                wrong += chk == "ok" ? 0 : 1;
                std::printf("%-20s %c %-4s %9.3f %9.3f %9.3f %9.3f %-27s %6.3f %-10s %8.1f %8.1f %s\n", l.name, dir,
                            type.c_str(), med[0], med[1], med[2], med[3], def.back().engine.c_str(), ratio,
                            beatsPass.c_str(), def.front().cold, def.back().cold, chk.c_str());
            }
    std::printf("\nsummary: default within 5%% of the faster engine on %d/%d cases (median ratio %.3f, worst %.3f);"
                " default faster than pass-through on %d/%d cases where DNNL is; %d check failure(s); %.0f s\n",
                within, total, medianOf(ratios), worst, beats, beatsNeeded, wrong, msSince(start) / 1000);
    return ok && wrong == 0 ? 0 : 1;
}

} // namespace

int main(int argc, char** argv)
{
    Options o;
    bool list = false;
    for(int i = 1; i < argc; ++i)
    {
        const std::string a = argv[i];
        const auto value    = [&a] { return a.substr(a.find('=') + 1); };
        if(startsWith(a, "--batch="))
            o.batch = std::atoi(value().c_str());
        else if(startsWith(a, "--filter="))
            o.filter = splitList(value());
        else if(startsWith(a, "--dirs="))
            o.dirs = value();
        else if(startsWith(a, "--types="))
            o.types = splitList(value());
        else if(startsWith(a, "--repeats="))
            o.repeats = std::atoi(value().c_str());
        else if(startsWith(a, "--warmup="))
            o.warmup = std::atoi(value().c_str());
        else if(startsWith(a, "--reps="))
            o.reps = std::atoi(value().c_str());
        else if(a == "--quick")
            o.quick = true;
        else if(a == "--with-example-engine")
            o.withExampleEngine = true;
        else if(startsWith(a, "--child="))
            o.child = value();
        else if(startsWith(a, "--work-dir="))
            o.workDir = value();
        else if(a == "--list")
            list = true;
        else
        {
            printUsage();
            return a == "--help" ? 0 : 2;
        }
    }
    const bool typesOk = !o.types.empty() && std::all_of(o.types.begin(), o.types.end(), [](const std::string& t) {
        return t == "fp32" || t == "bf16";
    });
    if(o.batch < 1 || o.repeats < 1 || o.reps < 1 || o.warmup < 0 || !typesOk
       || o.dirs.find_first_not_of("FBW") != std::string::npos || o.dirs.empty())
    {
        printUsage();
        return 2;
    }
    if(o.quick && o.child.empty())
    {
        o.batch   = 1;
        o.types   = {"fp32"};
        o.repeats = 1;
        o.warmup  = 0;
        o.reps    = 1;
    }
    std::vector<Layer> layers;
    for(const Layer& l : kLayers)
    {
        bool take = o.filter.empty() ? l.smoke == o.quick : false;
        for(const auto& f : o.filter)
            take = take || std::string(l.name).find(f) != std::string::npos;
        if(take)
            layers.push_back(l);
    }
    if(list)
    {
        for(const Layer& l : kLayers)
            std::printf("%-20s %dx%d %d->%d in %dx%d stride %d\n", l.name, l.rs, l.rs, l.c, l.k, l.hw, l.hw, l.stride);
        return 0;
    }
    if(layers.empty())
    {
        std::printf("no layer matches the filter\n");
        return 2;
    }
    if(!o.child.empty())
        return runChild(o, layers);
    char self[4096];
    const ssize_t n = ::readlink("/proc/self/exe", self, sizeof(self) - 1);
    if(n <= 0)
        return 2;
    self[n] = '\0';
    return runDriver(o, layers, self);
}
