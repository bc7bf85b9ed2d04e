// conv_workload: a small ResNet-50 convolution workload through the public C API (libMIOpen.so),
// for the end-to-end comparisons of issues 5 and 6: Public (forwarding disabled) against the
// pre-split baseline library, and forwarded (hipDNN) against pass-through. The library is chosen
// by the caller (LD_LIBRARY_PATH, MIOPEN_HIPDNN_FORWARDING); wrapper_report.py runs this program
// in fresh processes, interleaving the variants, and prints the tables.
//
// Every layer runs forward, backward data and backward weights through the Immediate calls with a
// solution id picked by a fixed rule (never by Find or the find-db, so every variant runs the same
// solver):
//   --solver=provider  the MIOpen provider's DB-free rule (its preference list, else the smallest
//                      id): what a forwarded call runs, so forwarded vs pass-through is like for like
//   --solver=gemm      the same list without the Winograd ids: solvers whose code did not change
//                      since the pre-split baseline (5e6efca changed the Winograd ones)
//
// Modes (one line per result, "key value" pairs, for the report script):
//   (default)   --iters=I --warmup=W: per layer and direction the median ms over I timed calls,
//               and the whole timed section in seconds
//   --cold      fault counts and max RSS at main() (libraries loaded) and after the first call of
//               every layer and direction (one call each, no warm-up), with that first pass's time
//   --tiny=N    per-call time of a tiny 1x1 convolution (compute negligible): median over
//               --repeats of N calls, in microseconds
//   --builds    ten distinct problems: the first call's time minus the median of five later calls
//               (for a forwarded call: the graph and plan build; pass-through: Private's first-call
//               costs), per problem and min / median / max
#include "wrapper_common.hpp"

#include <SolverPreference.hpp> // dnn-providers/miopen-provider/src

#include <array>
#include <memory>

using namespace wrapper_bench;

namespace {

struct Layer
{
    const char* name;
    int c, h, w, k, r, s, pad, stride;
};

// ResNet-50 layers (the conv_solvers_bench names).
const Layer kLayers[] = {
    {"conv2_x_3x3", 64, 56, 56, 64, 3, 3, 1, 1},
    {"1x1_256_64_56", 256, 56, 56, 64, 1, 1, 0, 1},
    {"conv3_x_3x3", 128, 28, 28, 128, 3, 3, 1, 1},
    {"1x1_256_128_56_s2", 256, 56, 56, 128, 1, 1, 0, 2},
    // Tiny layers for the CI smoke test; run only when the filter names them.
    {"smoke_3x3", 8, 14, 14, 8, 3, 3, 1, 1},
    {"smoke_1x1_s2", 8, 10, 10, 16, 1, 1, 0, 2},
};

// The provider's preference lists, from the provider itself (--solver=provider).
using miopen_provider::kPreferredBackwardData;
using miopen_provider::kPreferredBackwardWeights;
using miopen_provider::kPreferredForward;

enum class Dir
{
    F,
    B,
    W
};

const char* dirName(Dir d) { return d == Dir::F ? "F" : d == Dir::B ? "B" : "W"; }

// One convolution problem with its buffers and the solution picked for each direction.
class Conv
{
public:
    Conv(miopenHandle_t h, int n, int c, int hh, int ww, int k, int r, int s, int pad, int stride, bool gemmOnly)
        : _h(h), _conv(pad, pad, stride, stride, 1, 1, 1), _x(miopenFloat, n, c, hh, ww), _w(miopenFloat, k, c, r, s),
          _y(miopenFloat, n, k, (hh + 2 * pad - r) / stride + 1, (ww + 2 * pad - s) / stride + 1)
    {
        const std::size_t xc = static_cast<std::size_t>(n) * c * hh * ww, wc = static_cast<std::size_t>(k) * c * r * s;
        const std::size_t yc = static_cast<std::size_t>(n) * k * ((hh + 2 * pad - r) / stride + 1) *
                               ((ww + 2 * pad - s) / stride + 1);
        _xd = randomTensor(miopenFloat, xc, 1);
        _wd = randomTensor(miopenFloat, wc, 2);
        _yd = randomTensor(miopenFloat, yc, 3);
        for(Dir d : {Dir::F, Dir::B, Dir::W})
        {
            const auto i = static_cast<std::size_t>(d);
            _id[i]       = pick(d, gemmOnly);
            _wsBytes[i]  = workspace(d, _id[i]);
            _maxWs       = std::max(_maxWs, _wsBytes[i]);
        }
        _ws.resize(_maxWs);
    }

    std::uint64_t solution(Dir d) const { return _id[static_cast<std::size_t>(d)]; }

    void run(Dir d)
    {
        const auto i = static_cast<std::size_t>(d);
        void* ws     = _wsBytes[i] ? _ws.data() : nullptr;
        if(d == Dir::F)
            WB_CHECK(miopenConvolutionForwardImmediate(_h, _w.d, _wd.data(), _x.d, _xd.data(), _conv.d, _y.d, _yd.data(), ws,
                                                       _wsBytes[i], _id[i]));
        else if(d == Dir::B)
            WB_CHECK(miopenConvolutionBackwardDataImmediate(_h, _y.d, _yd.data(), _w.d, _wd.data(), _conv.d, _x.d,
                                                            _xd.data(), ws, _wsBytes[i], _id[i]));
        else
            WB_CHECK(miopenConvolutionBackwardWeightsImmediate(_h, _y.d, _yd.data(), _x.d, _xd.data(), _conv.d, _w.d,
                                                               _wd.data(), ws, _wsBytes[i], _id[i]));
    }

private:
    std::vector<miopenConvSolution_t> solutions(Dir d) const
    {
        std::size_t count = 0, got = 0;
        if(d == Dir::F)
            WB_CHECK(miopenConvolutionForwardGetSolutionCount(_h, _w.d, _x.d, _conv.d, _y.d, &count));
        else if(d == Dir::B)
            WB_CHECK(miopenConvolutionBackwardDataGetSolutionCount(_h, _y.d, _w.d, _conv.d, _x.d, &count));
        else
            WB_CHECK(miopenConvolutionBackwardWeightsGetSolutionCount(_h, _y.d, _x.d, _conv.d, _w.d, &count));
        std::vector<miopenConvSolution_t> s(count);
        if(d == Dir::F)
            WB_CHECK(miopenConvolutionForwardGetSolution(_h, _w.d, _x.d, _conv.d, _y.d, count, &got, s.data()));
        else if(d == Dir::B)
            WB_CHECK(miopenConvolutionBackwardDataGetSolution(_h, _y.d, _w.d, _conv.d, _x.d, count, &got, s.data()));
        else
            WB_CHECK(miopenConvolutionBackwardWeightsGetSolution(_h, _y.d, _x.d, _conv.d, _w.d, count, &got, s.data()));
        s.resize(got);
        return s;
    }

    std::uint64_t pick(Dir d, bool gemmOnly) const
    {
        const auto sols = solutions(d);
        auto applies    = [&](std::uint64_t id) {
            return std::any_of(sols.begin(), sols.end(), [&](const miopenConvSolution_t& s) { return s.solution_id == id; });
        };
        const std::uint64_t* list = d == Dir::F ? kPreferredForward.data() : d == Dir::B ? kPreferredBackwardData.data() : kPreferredBackwardWeights.data();
        const std::size_t n       = d == Dir::F ? kPreferredForward.size() : d == Dir::B ? kPreferredBackwardData.size() : kPreferredBackwardWeights.size();
        for(std::size_t i = 0; i < n; ++i)
            if(applies(list[i]) && !(gemmOnly && (list[i] == 1001 || list[i] == 84)))
                return list[i];
        std::uint64_t best = 0;
        for(const auto& s : sols)
            if((!gemmOnly || s.algorithm == miopenConvolutionAlgoGEMM) && (best == 0 || s.solution_id < best))
                best = s.solution_id;
        if(best == 0)
        {
            std::fprintf(stderr, "error: no solution for direction %s\n", dirName(d));
            std::exit(1);
        }
        return best;
    }

    std::size_t workspace(Dir d, std::uint64_t id) const
    {
        std::size_t ws = 0;
        if(d == Dir::F)
            WB_CHECK(miopenConvolutionForwardGetSolutionWorkspaceSize(_h, _w.d, _x.d, _conv.d, _y.d, id, &ws));
        else if(d == Dir::B)
            WB_CHECK(miopenConvolutionBackwardDataGetSolutionWorkspaceSize(_h, _y.d, _w.d, _conv.d, _x.d, id, &ws));
        else
            WB_CHECK(miopenConvolutionBackwardWeightsGetSolutionWorkspaceSize(_h, _y.d, _x.d, _conv.d, _w.d, id, &ws));
        return ws;
    }

    miopenHandle_t _h;
    ConvDesc _conv;
    TensorDesc _x, _w, _y;
    std::vector<unsigned char> _xd, _wd, _yd, _ws;
    std::uint64_t _id[3]      = {};
    std::size_t _wsBytes[3]   = {};
    std::size_t _maxWs        = 0;
};

void printUsage(const char* at, const Usage& u)
{
    std::printf("usage at=%s minflt %ld majflt %ld maxrss_kb %ld\n", at, u.minorFaults, u.majorFaults, u.maxRssKb);
}

} // namespace

int main(int argc, char** argv)
{
    const Usage atMain = usageNow(); // before any MIOpen call: the libraries are loaded
    int batch = 4, iters = 5, warmup = 1, tinyCalls = 0, repeats = 9;
    bool gemmOnly = false, cold = false, builds = false;
    std::string filter, expectDir;
    for(int i = 1; i < argc; ++i)
    {
        const std::string a = argv[i];
        if(startsWith(a, "--batch="))
            batch = std::atoi(a.c_str() + 8);
        else if(startsWith(a, "--iters="))
            iters = std::atoi(a.c_str() + 8);
        else if(startsWith(a, "--warmup="))
            warmup = std::atoi(a.c_str() + 9);
        else if(a == "--solver=gemm")
            gemmOnly = true;
        else if(a == "--solver=provider")
            gemmOnly = false;
        else if(startsWith(a, "--filter="))
            filter = a.substr(9);
        else if(startsWith(a, "--expect-lib-dir="))
            expectDir = a.substr(17);
        else if(a == "--cold")
            cold = true;
        else if(startsWith(a, "--tiny="))
            tinyCalls = std::atoi(a.c_str() + 7);
        else if(startsWith(a, "--repeats="))
            repeats = std::atoi(a.c_str() + 10);
        else if(a == "--builds")
            builds = true;
        else
        {
            std::fprintf(stderr,
                         "usage: conv_workload [--batch=N] [--iters=I] [--warmup=W] [--solver=provider|gemm] "
                         "[--filter=SUBSTR] [--expect-lib-dir=DIR] [--cold | --tiny=N [--repeats=R] | --builds]\n");
            return 2;
        }
    }
    if(batch < 1 || iters < 0 || warmup < 0 || repeats < 1)
        return 2;
    Handle handle;
    reportLibrary(expectDir);

    if(tinyCalls > 0)
    {
        Conv tiny(handle.h, 1, 4, 4, 4, 4, 1, 1, 0, 1, gemmOnly);
        for(int i = 0; i < 10; ++i)
            tiny.run(Dir::F);
        std::vector<double> us;
        for(int r = 0; r < repeats; ++r)
        {
            const double t0 = nowSeconds();
            for(int i = 0; i < tinyCalls; ++i)
                tiny.run(Dir::F);
            us.push_back((nowSeconds() - t0) * 1e6 / tinyCalls);
        }
        std::printf("tiny solution %llu us_per_call %.4f\n", static_cast<unsigned long long>(tiny.solution(Dir::F)),
                    median(us));
        return 0;
    }

    if(builds)
    {
        // Ten distinct problems (channel counts and sizes differ, so every one is a new plan).
        std::vector<double> cost;
        for(int i = 0; i < 10; ++i)
        {
            const int c = 8 + 4 * i, k = 16 + 2 * i, hw = 12 + i, r = i % 2 ? 1 : 3;
            Conv p(handle.h, batch, c, hw, hw, k, r, r, r / 2, 1, gemmOnly);
            const double t0 = nowSeconds();
            p.run(Dir::F);
            const double first = (nowSeconds() - t0) * 1e3;
            std::vector<double> later;
            for(int j = 0; j < 5; ++j)
            {
                const double t1 = nowSeconds();
                p.run(Dir::F);
                later.push_back((nowSeconds() - t1) * 1e3);
            }
            const double m = median(later);
            cost.push_back(first - m);
            std::printf("build problem c%d_k%d_%dx%d_r%d solution %llu first_ms %.4f cached_ms %.4f build_ms %.4f\n", c, k, hw,
                        hw, r, static_cast<unsigned long long>(p.solution(Dir::F)), first, m, first - m);
        }
        std::sort(cost.begin(), cost.end());
        std::printf("builds min_ms %.4f median_ms %.4f max_ms %.4f\n", cost.front(), median(cost), cost.back());
        return 0;
    }

    std::vector<std::unique_ptr<Conv>> convs;
    std::vector<const Layer*> layers;
    for(const Layer& l : kLayers)
        if(filter.empty() ? !startsWith(l.name, "smoke") : std::string(l.name).find(filter) != std::string::npos)
        {
            convs.push_back(std::make_unique<Conv>(handle.h, batch, l.c, l.h, l.w, l.k, l.r, l.s, l.pad, l.stride, gemmOnly));
            layers.push_back(&l);
        }

    if(cold)
    {
        const double t0 = nowSeconds();
        for(auto& c : convs)
            for(Dir d : {Dir::F, Dir::B, Dir::W})
                c->run(d);
        const double firstPass = nowSeconds() - t0;
        printUsage("main", atMain);
        printUsage("first-pass", usageNow());
        std::printf("cold first_pass_s %.6f\n", firstPass);
        return 0;
    }

    for(int i = 0; i < warmup; ++i)
        for(auto& c : convs)
            for(Dir d : {Dir::F, Dir::B, Dir::W})
                c->run(d);
    std::vector<std::vector<double>> ms(convs.size() * 3);
    const double t0 = nowSeconds();
    for(int i = 0; i < iters; ++i)
        for(std::size_t l = 0; l < convs.size(); ++l)
            for(Dir d : {Dir::F, Dir::B, Dir::W})
            {
                const double t1 = nowSeconds();
                convs[l]->run(d);
                ms[l * 3 + static_cast<std::size_t>(d)].push_back((nowSeconds() - t1) * 1e3);
            }
    const double total = nowSeconds() - t0;
    for(std::size_t l = 0; l < convs.size(); ++l)
        for(Dir d : {Dir::F, Dir::B, Dir::W})
            std::printf("layer %s dir %s solution %llu median_ms %.4f\n", layers[l]->name, dirName(d),
                        static_cast<unsigned long long>(convs[l]->solution(d)), median(ms[l * 3 + static_cast<std::size_t>(d)]));
    std::printf("total batch %d iters %d seconds %.6f\n", batch, iters, total);
    return 0;
}
