// oneDNN forward convolutions created for training and for inference, as the oneDNN provider
// creates them (dnn-providers/dnnl-provider, README "Convolution algorithm and layouts"): fp32
// with algorithm::convolution_auto, bf16 with convolution_direct, every tensor format_tag::any,
// the caller's packed NCHW tensors reordered in and the output reordered back (included in the
// time, as in the provider's plans). For forward_inference oneDNN 2.6 dispatches its brgconv
// kernels (channels-last), for forward_training its jit kernels on nChw16c (or Winograd); this
// prints both on ResNet-50's layers at N=32 and the median of their per-round time ratios, the
// measurements behind the provider's choice. Not a test: the machine is shared and noisy.
#include "bench_common.hpp"
#include "resnet50_layers.hpp"

#include <omp.h>

#include <cstdint>
#include <cstring>
#include <unordered_map>

namespace {

namespace dn = dnnl;
using tag = dn::memory::format_tag;

// engines_bench's layers, then the stem and two strided shapes with fewer channels (where the
// provider's channel threshold was measured).
std::vector<bench::ConvLayer> layers()
{
    std::vector<bench::ConvLayer> all = bench::resnet50Layers();
    all.push_back({"stem_7x7_3_64_s2", 3, 64, 224, 7, 2, false});
    all.push_back({"x_5x5_64_s2", 64, 64, 56, 5, 2, false});
    all.push_back({"x_3x3_32_s2", 32, 32, 112, 3, 2, false});
    all.push_back({"smoke_3x3_s2", 8, 8, 9, 3, 2, true});
    return all;
}

struct Options
{
    int64_t batch = 32;
    std::vector<std::string> filter;
    std::vector<std::string> types{"fp32", "bf16"};
    int rounds = 5;
    int reps   = 3;
};

/// One forward convolution as the provider's plan runs it: reorders in, the primitive, reorder out.
struct Pipeline
{
    std::vector<std::pair<dn::primitive, std::unordered_map<int, dn::memory>>> steps;
    std::string impl;

    void run(dn::stream& s)
    {
        for(auto& [p, args] : steps)
            p.execute(s, args);
        s.wait();
    }
};

dn::memory filled(const dn::memory::desc& d, const dn::engine& eng)
{
    dn::memory m(d, eng);
    if(d.get_size() != 0) // an empty desc (no scratchpad) has no buffer: memset(nullptr, 0, 0) is undefined
        std::memset(m.get_data_handle(), 0, d.get_size());
    return m;
}

/// The user's NCHW tensor `user`, reordered into `want` by a step of `p` when they differ.
dn::memory into(Pipeline& p, const dn::memory::desc& user, const dn::memory::desc& want, const dn::engine& eng)
{
    dn::memory u = filled(user, eng);
    if(user == want)
        return u;
    dn::memory w = filled(want, eng);
    p.steps.push_back({dn::reorder(u, w), {{DNNL_ARG_FROM, u}, {DNNL_ARG_TO, w}}});
    return w;
}

Pipeline makePipeline(const bench::ConvLayer& l, int64_t n, dn::memory::data_type type, dn::prop_kind kind,
                      const dn::engine& eng)
{
    const int64_t c = l.c, k = l.k, hw = l.hw, rs = l.rs, stride = l.stride;
    const int64_t pad = (rs - 1) / 2, out = (hw + 2 * pad - rs) / stride + 1;
    const dn::memory::dims x{n, c, hw, hw}, w{k, c, rs, rs}, y{n, k, out, out};
    const auto alg = type == dn::memory::data_type::f32 ? dn::algorithm::convolution_auto
                                                        : dn::algorithm::convolution_direct;
    dn::primitive_attr attr;
    attr.set_scratchpad_mode(dn::scratchpad_mode::user);
    const dn::convolution_forward::primitive_desc pd(
        dn::convolution_forward::desc(kind, alg, {x, type, tag::any}, {w, type, tag::any}, {y, type, tag::any},
                                      {stride, stride}, {pad, pad}, {pad, pad}),
        attr, eng);
    Pipeline p;
    p.impl                = pd.impl_info_str();
    const dn::memory src  = into(p, {x, type, tag::nchw}, pd.src_desc(), eng);
    const dn::memory wei  = into(p, {w, type, tag::oihw}, pd.weights_desc(), eng);
    const dn::memory dst  = filled(pd.dst_desc(), eng);
    const dn::memory user = filled({y, type, tag::nchw}, eng);
    p.steps.push_back({dn::convolution_forward(pd),
                       {{DNNL_ARG_SRC, src},
                        {DNNL_ARG_WEIGHTS, wei},
                        {DNNL_ARG_DST, dst},
                        {DNNL_ARG_SCRATCHPAD, filled(pd.scratchpad_desc(), eng)}}});
    if(!(pd.dst_desc() == user.get_desc()))
        p.steps.push_back({dn::reorder(dst, user), {{DNNL_ARG_FROM, dst}, {DNNL_ARG_TO, user}}});
    return p;
}

double medianOf(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    const std::size_t n = v.size();
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/// Median ms of `reps` calls after one untimed call.
double timeCalls(Pipeline& p, dn::stream& s, int reps)
{
    bench::TimingOptions o;
    o.warmup   = 1;
    o.minReps  = reps;
    o.maxReps  = reps;
    o.minTimeS = 0;
    return bench::timeRuns([&]() { p.run(s); }, o).medianMs;
}

int usage()
{
    std::printf("usage: dnnl_fprop_variants [--batch=N] [--filter=a,b] [--types=fp32,bf16] [--rounds=N] "
                "[--reps=N]\n"
                "  each round times --reps calls of the training-created and of the inference-created\n"
                "  convolution (the order alternating per round); prints each one's median over the\n"
                "  rounds and the median of the per-round ratios inference / training\n");
    return 2;
}

} // namespace

int main(int argc, char** argv)
{
    Options o;
    for(int i = 1; i < argc; ++i)
    {
        const std::string a = argv[i];
        const auto value    = [&]() { return a.substr(a.find('=') + 1); };
        if(bench::startsWith(a, "--batch="))
            o.batch = std::atoll(value().c_str());
        else if(bench::startsWith(a, "--filter="))
            o.filter = bench::splitList(value());
        else if(bench::startsWith(a, "--types="))
            o.types = bench::splitList(value());
        else if(bench::startsWith(a, "--rounds="))
            o.rounds = std::atoi(value().c_str());
        else if(bench::startsWith(a, "--reps="))
            o.reps = std::atoi(value().c_str());
        else
            return usage();
    }
    if(o.batch < 1 || o.rounds < 1 || o.reps < 1)
        return usage();
    const dn::engine eng(dn::engine::kind::cpu, 0);
    dn::stream strm(eng);
    std::printf("dnnl_fprop_variants: batch %lld, %d round(s) of %d call(s), oneDNN %d.%d, isa %s, %d OpenMP "
                "thread(s), %s\n",
                static_cast<long long>(o.batch), o.rounds, o.reps, dn::version()->major, dn::version()->minor,
                bench::isaName(dn::get_effective_cpu_isa()), omp_get_max_threads(), bench::cpuModel().c_str());
    std::printf("%-20s %-4s %-30s %9s %-30s %9s %9s\n", "layer", "type", "training", "ms", "inference", "ms",
                "inf/train");
    bool failed = false;
    for(const std::string& typeName : o.types)
    {
        if(typeName != "fp32" && typeName != "bf16")
            return usage();
        const auto type = typeName == "fp32" ? dn::memory::data_type::f32 : dn::memory::data_type::bf16;
        for(const bench::ConvLayer& l : layers())
        {
            const std::string name = l.name;
            bool wanted            = o.filter.empty() ? !l.smoke : false;
            for(const auto& f : o.filter)
                wanted = wanted || name.find(f) != std::string::npos;
            if(!wanted)
                continue;
            Pipeline train, infer;
            try
            {
                train = makePipeline(l, o.batch, type, dn::prop_kind::forward_training, eng);
                infer = makePipeline(l, o.batch, type, dn::prop_kind::forward_inference, eng);
            }
            catch(const dn::error& e)
            {
                // fp32 convolutions always have an implementation: failing to create one is an
                // error; bf16 ones need a CPU with bf16 support.
                std::printf("%-20s %-4s not created: %s\n", l.name, typeName.c_str(), e.what());
                failed = failed || type == dn::memory::data_type::f32;
                continue;
            }
            std::vector<double> t, i, ratio;
            for(int r = 0; r < o.rounds; ++r)
            {
                const bool trainFirst = r % 2 == 0;
                const double first    = timeCalls(trainFirst ? train : infer, strm, o.reps);
                const double second   = timeCalls(trainFirst ? infer : train, strm, o.reps);
                t.push_back(trainFirst ? first : second);
                i.push_back(trainFirst ? second : first);
                ratio.push_back(i.back() / t.back());
            }
            std::printf("%-20s %-4s %-30s %9.3f %-30s %9.3f %9.3f\n", l.name, typeName.c_str(), train.impl.c_str(),
                        medianOf(t), infer.impl.c_str(), medianOf(i), medianOf(ratio));
            std::fflush(stdout);
        }
    }
    bench::printLoad("at end");
    return failed ? 1 : 0;
}
