// Pooling and softmax through the public C API, pass-through (MIOPEN_HIPDNN_FORWARDING=disabled)
// vs forwarded to hipDNN (enabled) side by side (issue 11). The forwarding mode is read once per
// process, so the program runs itself twice (--child, with the variable set) and prints one table:
// median milliseconds per call over --iters calls after a warm-up call (which builds the plan when
// forwarded), and the ratio. Cases: ResNet-50's max pool 3x3/2 (N=32, C=64, 112x112) forward and
// backward, its global average pool (N=32, C=2048, 7x7) forward and backward, and a classifier
// softmax (N=32, 1000 classes) forward and backward (ACCURATE, CHANNEL). Also: --batch=N scales N
// (the smoke test uses 1), --filter=substring. Exits non-zero on an API error. The performance
// report (benchmarks/report/make_perf_report.py) runs the children itself (--child, the mode in
// MIOPEN_HIPDNN_FORWARDING, interleaved); with FAMILIES_BENCH_MARK=1 a child writes
// "families-case <case> <entry point>" to stderr before each case, so that a traced run
// (MIOPEN_LOG_LEVEL=6) names the route of each case.
#include "wrapper_common.hpp"

#include "../device_memory.hpp"

#include <unistd.h>

#include <map>
#include <random>
#include <sstream>

namespace {

using Clock = std::chrono::steady_clock;

struct Options
{
    int batch = 32, iters = 10;
    std::string filter;
};

struct Tensor
{
    miopenTensorDescriptor_t d = nullptr;
    bench::DeviceVector<float> v; // aligned as hipMalloc's (../device_memory.hpp), as the engines' ranking assumes
    Tensor(const std::vector<int>& lens, std::mt19937& rng)
    {
        WB_CHECK(miopenCreateTensorDescriptor(&d));
        WB_CHECK(miopenSetTensorDescriptor(d, miopenFloat, static_cast<int>(lens.size()), lens.data(), nullptr));
        std::size_t n = 1;
        for(int l : lens)
            n *= static_cast<std::size_t>(l);
        v.resize(n);
        std::uniform_real_distribution<float> u(-1.0f, 1.0f);
        for(auto& e : v)
            e = u(rng);
    }
    ~Tensor() { miopenDestroyTensorDescriptor(d); }
    Tensor(const Tensor&) = delete;
    Tensor& operator=(const Tensor&) = delete;
};

// The case marker of a traced run (FAMILIES_BENCH_MARK set).
void mark(const std::string& name, const char* entry)
{
    static const bool on = std::getenv("FAMILIES_BENCH_MARK") != nullptr;
    if(on)
        std::fprintf(stderr, "families-case %s %s\n", name.c_str(), entry);
}

template <class F>
double medianMs(int iters, F&& call)
{
    call(); // warm-up: the plan is built here when forwarded
    std::vector<double> t;
    for(int i = 0; i < iters; ++i)
    {
        const auto t0 = Clock::now();
        call();
        t.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
    }
    std::sort(t.begin(), t.end());
    return t[t.size() / 2];
}

void poolCases(miopenHandle_t h, const Options& o, const char* name, int c, int hw, int win, int pad, int stride,
               miopenPoolingMode_t mode, std::mt19937& rng)
{
    miopenPoolingDescriptor_t pd = nullptr;
    WB_CHECK(miopenCreatePoolingDescriptor(&pd));
    WB_CHECK(miopenSet2dPoolingDescriptor(pd, mode, win, win, pad, pad, stride, stride));
    Tensor x({o.batch, c, hw, hw}, rng), dx({o.batch, c, hw, hw}, rng);
    int n = 0, oc = 0, oh = 0, ow = 0;
    WB_CHECK(miopenGetPoolingForwardOutputDim(pd, x.d, &n, &oc, &oh, &ow));
    Tensor y({n, oc, oh, ow}, rng), dy({n, oc, oh, ow}, rng);
    std::size_t wsSize = 0;
    WB_CHECK(miopenPoolingGetWorkSpaceSizeV2(pd, y.d, &wsSize));
    bench::DeviceVector<unsigned char> ws(std::max<std::size_t>(wsSize, 1));
    const float one = 1.0f, zero = 0.0f;
    const std::string base = name;
    if(o.filter.empty() || (base + " forward").find(o.filter) != std::string::npos)
    {
        mark(base + " forward", "miopenPoolingForward");
        std::printf("%s forward %.4f\n", name, medianMs(o.iters, [&] {
                        WB_CHECK(miopenPoolingForward(h, pd, &one, x.d, x.v.data(), &zero, y.d, y.v.data(), false,
                                                      nullptr, 0));
                    }));
    }
    // The backward reads the indices a forward with do_backward saved (max pooling).
    WB_CHECK(miopenPoolingForward(h, pd, &one, x.d, x.v.data(), &zero, y.d, y.v.data(), true, ws.data(), wsSize));
    if(o.filter.empty() || (base + " backward").find(o.filter) != std::string::npos)
    {
        mark(base + " backward", "miopenPoolingBackward");
        std::printf("%s backward %.4f\n", name, medianMs(o.iters, [&] {
                        WB_CHECK(miopenPoolingBackward(h, pd, &one, y.d, y.v.data(), dy.d, dy.v.data(), x.d, x.v.data(),
                                                       &zero, dx.d, dx.v.data(), ws.data()));
                    }));
    }
    miopenDestroyPoolingDescriptor(pd);
}

void softmaxCases(miopenHandle_t h, const Options& o, std::mt19937& rng)
{
    Tensor x({o.batch, 1000, 1, 1}, rng), y({o.batch, 1000, 1, 1}, rng), dy({o.batch, 1000, 1, 1}, rng),
        dx({o.batch, 1000, 1, 1}, rng);
    const float one = 1.0f, zero = 0.0f;
    if(o.filter.empty() || std::string("softmax-1000 forward").find(o.filter) != std::string::npos)
    {
        mark("softmax-1000 forward", "miopenSoftmaxForward_V2");
        std::printf("softmax-1000 forward %.4f\n", medianMs(o.iters, [&] {
                        WB_CHECK(miopenSoftmaxForward_V2(h, &one, x.d, x.v.data(), &zero, y.d, y.v.data(),
                                                         MIOPEN_SOFTMAX_ACCURATE, MIOPEN_SOFTMAX_MODE_CHANNEL));
                    }));
    }
    if(o.filter.empty() || std::string("softmax-1000 backward").find(o.filter) != std::string::npos)
    {
        mark("softmax-1000 backward", "miopenSoftmaxBackward_V2");
        std::printf("softmax-1000 backward %.4f\n", medianMs(o.iters, [&] {
                        WB_CHECK(miopenSoftmaxBackward_V2(h, &one, y.d, y.v.data(), dy.d, dy.v.data(), &zero, dx.d,
                                                          dx.v.data(), MIOPEN_SOFTMAX_ACCURATE,
                                                          MIOPEN_SOFTMAX_MODE_CHANNEL));
                    }));
    }
}

int child(const Options& o)
{
    std::mt19937 rng(2024);
    miopenHandle_t h = nullptr;
    WB_CHECK(miopenCreate(&h));
    poolCases(h, o, "maxpool-3x3s2-c64-112", 64, 112, 3, 1, 2, miopenPoolingMax, rng);
    poolCases(h, o, "global-avgpool-c2048-7", 2048, 7, 7, 0, 1, miopenPoolingAverage, rng);
    softmaxCases(h, o, rng);
    WB_CHECK(miopenDestroy(h));
    return 0;
}

std::map<std::string, double> runChild(const std::string& self, const std::string& args, const char* mode)
{
    const std::string cmd = "MIOPEN_HIPDNN_FORWARDING=" + std::string(mode) + " '" + self + "' --child" + args;
    std::map<std::string, double> r;
    FILE* p = popen(cmd.c_str(), "r");
    if(p == nullptr)
        return r;
    char line[512];
    while(std::fgets(line, sizeof line, p) != nullptr)
    {
        std::istringstream in(line);
        std::string name, dir;
        double ms = 0;
        if(in >> name >> dir >> ms)
            r[name + " " + dir] = ms;
    }
    if(pclose(p) != 0)
        r.clear();
    return r;
}

} // namespace

int main(int argc, char** argv)
{
    Options o;
    bool isChild = false;
    std::string args;
    for(int i = 1; i < argc; ++i)
    {
        const std::string a = argv[i];
        if(a == "--child")
            isChild = true;
        else if(a.rfind("--batch=", 0) == 0)
            o.batch = std::atoi(a.c_str() + 8);
        else if(a.rfind("--iters=", 0) == 0)
            o.iters = std::atoi(a.c_str() + 8);
        else if(a.rfind("--filter=", 0) == 0)
            o.filter = a.substr(9);
        else
        {
            std::fprintf(stderr, "usage: %s [--batch=N] [--iters=N] [--filter=text]\n", argv[0]);
            return 2;
        }
        if(a != "--child")
            args += " '" + a + "'";
    }
    if(o.batch < 1 || o.iters < 1)
        return 2;
    if(isChild)
        return child(o);
    const std::string self = "/proc/" + std::to_string(getpid()) + "/exe";
    const auto off = runChild(self, args, "disabled");
    const auto on  = runChild(self, args, "enabled");
    if(off.empty() || on.size() != off.size())
    {
        std::fprintf(stderr, "error: a child run failed\n");
        return 1;
    }
    const std::string head = "case, N=" + std::to_string(o.batch);
    std::printf("%-34s %15s %14s %8s\n", head.c_str(), "pass-through ms", "forwarded ms", "ratio");
    for(const auto& [name, ms] : off)
        std::printf("%-34s %14.4f %14.4f %8.2f\n", name.c_str(), ms, on.at(name), on.at(name) / ms);
    return 0;
}
