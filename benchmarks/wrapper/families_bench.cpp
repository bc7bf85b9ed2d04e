// families_bench: the forwarded op families other than convolution through the public C API
// (libMIOpen.so), pass-through against forwarded to hipDNN, side by side in one run. Google
// Benchmark times each call; since libMIOpen.so reads MIOPEN_HIPDNN_FORWARDING once per process,
// the program runs itself as a child (disabled, then enabled; CSV output), reads both children's
// times, and prints one table: case, pass-through ms, forwarded ms, ratio. A third, short enabled
// child with MIOPEN_HIPDNN_COUNTERS_FILE set (the wrapper rewrites that file after every call, so
// the timed children run without it) shows the routes; the run fails when an entry point of these
// families was never forwarded.
//
// Every case checks its result once against plain loops before it is timed (a wrong result or an
// API error aborts the child, and the parent fails). Shapes are ResNet-50-like activations
// (N=32, C=64, 56x56 and N=32, C=256, 14x14); --smoke uses tiny ones (the ctest).
//
//   families_bench [--smoke] [google benchmark flags, e.g. --benchmark_min_time=0.2]
//
// Families: activation (forward / backward, RELU), tensor ops (OpTensor ADD of two full tensors as
// in a residual block, MUL by a per-channel B, ScaleTensor). Another family adds its cases in its
// own section below and registers them in registerCases().
#include <miopen/miopen.h>

#include <benchmark/benchmark.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include <unistd.h>

namespace {

bool gSmoke = false;

#define CHECK_MIOPEN(expr)                                                                   \
    do                                                                                       \
    {                                                                                        \
        const miopenStatus_t st_ = (expr);                                                   \
        if(st_ != miopenStatusSuccess)                                                       \
        {                                                                                    \
            std::fprintf(stderr, "%s failed: %s\n", #expr, miopenGetErrorString(st_));      \
            std::abort();                                                                    \
        }                                                                                    \
    } while(false)

struct Shape
{
    const char* name;
    int n, c, h, w;
};

std::vector<Shape> shapes()
{
    if(gSmoke)
        return {{"n2c8h6w6", 2, 8, 6, 6}};
    return {{"n32c64h56w56", 32, 64, 56, 56}, {"n32c256h14w14", 32, 256, 14, 14}};
}

// One handle and fp32 NCHW tensors of a shape, filled with seeded values in [-1, 1].
struct Fixture
{
    miopenHandle_t handle = nullptr;
    miopenTensorDescriptor_t desc = nullptr, chanDesc = nullptr;
    std::vector<float> a, b, c, chan;

    explicit Fixture(const Shape& s)
    {
        CHECK_MIOPEN(miopenCreate(&handle));
        CHECK_MIOPEN(miopenCreateTensorDescriptor(&desc));
        CHECK_MIOPEN(miopenSet4dTensorDescriptor(desc, miopenFloat, s.n, s.c, s.h, s.w));
        CHECK_MIOPEN(miopenCreateTensorDescriptor(&chanDesc));
        CHECK_MIOPEN(miopenSet4dTensorDescriptor(chanDesc, miopenFloat, 1, s.c, 1, 1));
        const std::size_t n = static_cast<std::size_t>(s.n) * s.c * s.h * s.w;
        std::mt19937 rng(2026u);
        std::uniform_real_distribution<float> d(-1.0f, 1.0f);
        for(auto* v : {&a, &b, &c})
        {
            v->resize(n);
            for(float& x : *v)
                x = d(rng);
        }
        chan.resize(static_cast<std::size_t>(s.c));
        for(float& x : chan)
            x = d(rng);
    }
    ~Fixture()
    {
        miopenDestroyTensorDescriptor(chanDesc);
        miopenDestroyTensorDescriptor(desc);
        miopenDestroy(handle);
    }
    Fixture(const Fixture&) = delete;
    Fixture& operator=(const Fixture&) = delete;
};

void expectClose(const std::vector<float>& got, const std::vector<float>& ref, const char* what)
{
    for(std::size_t i = 0; i < got.size(); ++i)
        if(!(std::fabs(got[i] - ref[i]) <= 1e-5f * std::max(1.0f, std::fabs(ref[i]))))
        {
            std::fprintf(stderr, "%s: element %zu is %g, expected %g\n", what, i, static_cast<double>(got[i]),
                         static_cast<double>(ref[i]));
            std::abort();
        }
}

// ---- activation ----------------------------------------------------------------------------

struct Activation
{
    miopenActivationDescriptor_t d = nullptr;
    Activation()
    {
        CHECK_MIOPEN(miopenCreateActivationDescriptor(&d));
        CHECK_MIOPEN(miopenSetActivationDescriptor(d, miopenActivationRELU, 0.0, 0.0, 0.0));
    }
    ~Activation() { miopenDestroyActivationDescriptor(d); }
};

void activationForward(benchmark::State& state, Shape s)
{
    Fixture f(s);
    Activation act;
    const float one = 1.0f, zero = 0.0f;
    CHECK_MIOPEN(miopenActivationForward(f.handle, act.d, &one, f.desc, f.a.data(), &zero, f.desc, f.c.data()));
    std::vector<float> ref(f.a.size());
    for(std::size_t i = 0; i < ref.size(); ++i)
        ref[i] = std::max(0.0f, f.a[i]);
    expectClose(f.c, ref, "activation forward");
    for(auto _ : state)
        CHECK_MIOPEN(miopenActivationForward(f.handle, act.d, &one, f.desc, f.a.data(), &zero, f.desc, f.c.data()));
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) * 2 *
                            static_cast<std::int64_t>(f.a.size() * sizeof(float)));
}

void activationBackward(benchmark::State& state, Shape s)
{
    Fixture f(s);
    Activation act;
    const float one = 1.0f, zero = 0.0f;
    std::vector<float> y(f.a.size()), dx(f.a.size());
    CHECK_MIOPEN(miopenActivationForward(f.handle, act.d, &one, f.desc, f.a.data(), &zero, f.desc, y.data()));
    auto call = [&] {
        return miopenActivationBackward(f.handle, act.d, &one, f.desc, y.data(), f.desc, f.b.data(), f.desc,
                                        f.a.data(), &zero, f.desc, dx.data());
    };
    CHECK_MIOPEN(call());
    std::vector<float> ref(f.a.size());
    for(std::size_t i = 0; i < ref.size(); ++i)
        ref[i] = f.a[i] > 0.0f ? f.b[i] : 0.0f;
    expectClose(dx, ref, "activation backward");
    for(auto _ : state)
        CHECK_MIOPEN(call());
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) * 3 *
                            static_cast<std::int64_t>(f.a.size() * sizeof(float)));
}

// ---- tensor ops --------------------------------------------------------------------------------

void opTensorAdd(benchmark::State& state, Shape s)
{
    Fixture f(s);
    const float one = 1.0f, zero = 0.0f;
    auto call = [&] {
        return miopenOpTensor(f.handle, miopenTensorOpAdd, &one, f.desc, f.a.data(), &one, f.desc, f.b.data(), &zero,
                              f.desc, f.c.data());
    };
    CHECK_MIOPEN(call());
    std::vector<float> ref(f.a.size());
    for(std::size_t i = 0; i < ref.size(); ++i)
        ref[i] = f.a[i] + f.b[i];
    expectClose(f.c, ref, "op tensor add");
    for(auto _ : state)
        CHECK_MIOPEN(call());
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) * 3 *
                            static_cast<std::int64_t>(f.a.size() * sizeof(float)));
}

void opTensorMulPerChannel(benchmark::State& state, Shape s)
{
    Fixture f(s);
    const float one = 1.0f, zero = 0.0f;
    auto call = [&] {
        return miopenOpTensor(f.handle, miopenTensorOpMul, &one, f.desc, f.a.data(), &one, f.chanDesc, f.chan.data(),
                              &zero, f.desc, f.c.data());
    };
    CHECK_MIOPEN(call());
    std::vector<float> ref(f.a.size());
    const std::size_t hw = static_cast<std::size_t>(s.h) * static_cast<std::size_t>(s.w);
    for(std::size_t i = 0; i < ref.size(); ++i)
        ref[i] = f.a[i] * f.chan[(i / hw) % static_cast<std::size_t>(s.c)];
    expectClose(f.c, ref, "op tensor mul per channel");
    for(auto _ : state)
        CHECK_MIOPEN(call());
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) * 2 *
                            static_cast<std::int64_t>(f.a.size() * sizeof(float)));
}

void scaleTensor(benchmark::State& state, Shape s)
{
    Fixture f(s);
    // Alternating alpha and 1/alpha keeps the values bounded over any number of iterations.
    const float up = 2.0f, down = 0.5f;
    std::vector<float> ref(f.c.size());
    for(std::size_t i = 0; i < ref.size(); ++i)
        ref[i] = 2.0f * f.c[i];
    CHECK_MIOPEN(miopenScaleTensor(f.handle, f.desc, f.c.data(), &up));
    expectClose(f.c, ref, "scale tensor");
    // alpha is a value of the forwarded graph: each of the two alphas has its own plan, built (and
    // its engine order measured) at its first call, so both are called once before the timing.
    CHECK_MIOPEN(miopenScaleTensor(f.handle, f.desc, f.c.data(), &down));
    CHECK_MIOPEN(miopenScaleTensor(f.handle, f.desc, f.c.data(), &up));
    bool odd = true;
    for(auto _ : state)
    {
        CHECK_MIOPEN(miopenScaleTensor(f.handle, f.desc, f.c.data(), odd ? &down : &up));
        odd = !odd;
    }
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) * 2 *
                            static_cast<std::int64_t>(f.c.size() * sizeof(float)));
}

// ---- pooling / softmax ----

void registerCases()
{
    for(const Shape& s : shapes())
    {
        const std::string suffix = std::string("/") + s.name;
        benchmark::RegisterBenchmark(("activation_fwd_relu" + suffix).c_str(), activationForward, s)
            ->Unit(benchmark::kMillisecond);
        benchmark::RegisterBenchmark(("activation_bwd_relu" + suffix).c_str(), activationBackward, s)
            ->Unit(benchmark::kMillisecond);
        benchmark::RegisterBenchmark(("op_tensor_add" + suffix).c_str(), opTensorAdd, s)->Unit(benchmark::kMillisecond);
        benchmark::RegisterBenchmark(("op_tensor_mul_per_channel" + suffix).c_str(), opTensorMulPerChannel, s)
            ->Unit(benchmark::kMillisecond);
        benchmark::RegisterBenchmark(("scale_tensor" + suffix).c_str(), scaleTensor, s)->Unit(benchmark::kMillisecond);
    }
}

// ---- the parent: two children, one table --------------------------------------------------------

struct ChildResult
{
    bool ok = false;
    std::vector<std::string> order;
    std::map<std::string, double> ms; // real time per iteration
};

// Runs this program as a child with MIOPEN_HIPDNN_FORWARDING=mode and Google Benchmark's CSV
// output; the header line starts with "name,".
ChildResult runChild(const char* mode, const std::vector<std::string>& args, const std::string& counters)
{
    ChildResult r;
    std::string cmd = "'/proc/" + std::to_string(getpid()) + "/exe'";
    for(const auto& a : args)
        cmd += " '" + a + "'";
    cmd += " --benchmark_format=csv";
    setenv("FAMILIES_BENCH_CHILD", "1", 1);
    setenv("MIOPEN_HIPDNN_FORWARDING", mode, 1);
    if(counters.empty())
        unsetenv("MIOPEN_HIPDNN_COUNTERS_FILE");
    else
        setenv("MIOPEN_HIPDNN_COUNTERS_FILE", counters.c_str(), 1);
    FILE* p = popen(cmd.c_str(), "r");
    if(p == nullptr)
        return r;
    char line[4096];
    bool header = false;
    while(std::fgets(line, sizeof line, p) != nullptr)
    {
        std::string l(line);
        if(l.rfind("name,", 0) == 0)
        {
            header = true;
            continue;
        }
        if(!header || l.empty() || l[0] != '"')
            continue;
        // "name",iterations,real_time,cpu_time,time_unit,...
        const std::size_t q = l.find('"', 1);
        if(q == std::string::npos)
            continue;
        const std::string name = l.substr(1, q - 1);
        std::stringstream ss(l.substr(q + 2));
        std::string iters, real;
        std::getline(ss, iters, ',');
        std::getline(ss, real, ',');
        r.order.push_back(name);
        r.ms[name] = std::atof(real.c_str());
    }
    r.ok = pclose(p) == 0 && !r.order.empty();
    return r;
}

// The route counters of this program's entry points (one line each in the counters file); false
// when one of them was not forwarded at all.
bool forwardedCounts(const std::string& path, std::string& out)
{
    FILE* f = std::fopen(path.c_str(), "r");
    if(f == nullptr)
    {
        out = "(no counters file)\n";
        return false;
    }
    bool all = true;
    char line[4096];
    std::map<std::string, std::string> lines;
    while(std::fgets(line, sizeof line, f) != nullptr)
    {
        const std::string l(line);
        lines[l.substr(0, l.find(' '))] = l;
    }
    std::fclose(f);
    for(const char* e : {"miopenActivationForward", "miopenActivationBackward", "miopenOpTensor", "miopenScaleTensor"})
    {
        const auto it = lines.find(e);
        if(it == lines.end() || it->second.find(" forwarded=0 ") != std::string::npos)
            all = false;
        out += "  " + (it == lines.end() ? std::string(e) + " (not in the forwarding set)\n" : it->second);
    }
    return all;
}

} // namespace

int main(int argc, char** argv)
{
    std::vector<std::string> pass;
    std::vector<char*> gbArgs = {argv[0]};
    for(int i = 1; i < argc; ++i)
    {
        if(std::strcmp(argv[i], "--help") == 0 || std::strcmp(argv[i], "-h") == 0)
        {
            std::printf("usage: wrapper_families_bench [--smoke] [Google Benchmark flags]\n"
                        "  Times activation, OpTensor and ScaleTensor cases through the public MIOpen API,\n"
                        "  pass-through (MIOPEN_HIPDNN_FORWARDING=disabled) and forwarded (enabled) in two\n"
                        "  child processes, then a short third run that records the routes.\n"
                        "  --smoke   the small shapes only (the ctest smoke run)\n"
                        "  Google Benchmark flags (e.g. --benchmark_filter=relu) go to both children.\n");
            return 0;
        }
        if(std::strcmp(argv[i], "--smoke") == 0)
            gSmoke = true;
        else
            gbArgs.push_back(argv[i]);
        pass.emplace_back(argv[i]);
    }
    if(std::getenv("FAMILIES_BENCH_CHILD") != nullptr)
    {
        int n = static_cast<int>(gbArgs.size());
        benchmark::Initialize(&n, gbArgs.data());
        registerCases();
        benchmark::RunSpecifiedBenchmarks();
        benchmark::Shutdown();
        return 0;
    }
    char tmpl[] = "/tmp/families_bench_counters_XXXXXX";
    const int fd = mkstemp(tmpl);
    if(fd < 0)
    {
        std::perror("mkstemp");
        return 1;
    }
    close(fd);
    // Timed without the counters file (the wrapper would rewrite it after every call); a third,
    // short run with it records the routes of the same cases.
    const ChildResult off = runChild("disabled", pass, "");
    const ChildResult on  = runChild("enabled", pass, "");
    std::vector<std::string> shortArgs = pass;
    shortArgs.emplace_back("--benchmark_min_time=0.000001");
    const ChildResult routes = runChild("enabled", shortArgs, tmpl);
    if(!off.ok || !on.ok || !routes.ok)
    {
        std::fprintf(stderr, "families_bench: a child failed (pass-through %s, forwarded %s, routes %s)\n",
                     off.ok ? "ok" : "FAILED", on.ok ? "ok" : "FAILED", routes.ok ? "ok" : "FAILED");
        std::remove(tmpl);
        return 1;
    }
    std::printf("%-40s %14s %14s %8s\n", "case", "pass-through", "forwarded", "ratio");
    for(const auto& name : off.order)
    {
        const double a = off.ms.at(name);
        const auto it  = on.ms.find(name);
        const double b = it == on.ms.end() ? NAN : it->second;
        std::printf("%-40s %11.3f ms %11.3f ms %8.2f\n", name.c_str(), a, b, b / a);
    }
    std::string counts;
    const bool allForwarded = forwardedCounts(tmpl, counts);
    std::printf("routes of the forwarded run (MIOPEN_HIPDNN_COUNTERS_FILE, a short third run):\n%s", counts.c_str());
    std::remove(tmpl);
    if(!allForwarded)
    {
        std::fprintf(stderr, "families_bench: an entry point was never forwarded in the enabled run\n");
        return 1;
    }
    return 0;
}
