#include "DnnlRuntime.hpp"

#include <omp.h>

#include <algorithm>
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

int positiveEnv(const char* name)
{
    const char* value = std::getenv(name);
    if(value == nullptr || *value == '\0')
    {
        return 0;
    }
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

} // namespace

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

std::string DnnlRuntime::summary()
{
    const dnnl::version_t* v = dnnl::version();
    const char* runtime = v->cpu_runtime == DNNL_RUNTIME_OMP ? "OpenMP"
                          : v->cpu_runtime == DNNL_RUNTIME_SEQ ? "sequential"
                                                                : "other";
    return "oneDNN " + std::to_string(v->major) + "." + std::to_string(v->minor) + "." + std::to_string(v->patch)
           + " (cpu runtime " + runtime + "), threads=" + std::to_string(threadSetting().count) + " ("
           + threadSetting().source + ")";
}

} // namespace dnnl_provider
