// Fusion and batch-normalization benchmark, through MIOpen's public C API (libMIOpen.so) only,
// side by side in one run on ResNet-50 shapes. See README.md ("Fusion and batch normalization
// benchmark") for the methodology and the measured figures.
//
// Part 1, conv + bias + ReLU (forward): the same convolution algorithm
//   - fused through a fusion plan (miopenCreateFusionPlan, CreateOpConvForward, CreateOpBiasForward,
//     CreateOpActivationForward, CompileFusionPlan, ExecuteFusionPlan);
//   - fused through miopenConvolutionBiasActivationForward;
//   - as three separate calls (miopenConvolutionForward, miopenConvolutionForwardBias,
//     miopenActivationForward in place);
//   outputs are compared with the separate calls' (max abs diff over max abs reference).
// Part 2, batch normalization (spatial, NCHW, fp32): training forward, inference forward and
//   backward through miopenBatchNormalization* against oneDNN batch_normalization (format nchw,
//   use_scale | use_shift); outputs compared with oneDNN's.
// Timing: bench_common.hpp (warm-up, >= --reps runs and >= --min-time seconds, median).
#include "bench_common.hpp"

#include <miopen/miopen.h>

#include <oneapi/dnnl/dnnl.hpp>
#include <omp.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <exception>
#include <functional>
#include <random>
#include <stdexcept>
#include <string>
#include <thread>
#include <unordered_map>
#include <utility>
#include <vector>

namespace {

namespace dn = dnnl;

// ---- Layers ----

struct ConvLayer
{
    const char* name;
    int c, k, hw, rs, pad;
    bool smoke;
};

struct BnLayer
{
    const char* name;
    int c, hw;
    bool smoke;
};

// ResNet-50 shapes (stride 1).
const std::vector<ConvLayer> kConvLayers = {
    {"cbr_3x3_64_56", 64, 64, 56, 3, 1, false},
    {"cbr_3x3_256_14", 256, 256, 14, 3, 1, false},
    {"cbr_1x1_256_64_56", 256, 64, 56, 1, 0, false},
    {"smoke_cbr_3x3", 8, 16, 10, 3, 1, true},
    {"smoke_cbr_1x1", 16, 8, 9, 1, 0, true},
};

const std::vector<BnLayer> kBnLayers = {
    {"bn_64_56", 64, 56, false},
    {"bn_128_28", 128, 28, false},
    {"bn_256_14", 256, 14, false},
    {"bn_512_7", 512, 7, false},
    {"smoke_bn", 8, 10, true},
};

// ---- Options ----

struct Options
{
    int batch = 32;
    std::vector<std::string> filter; // layer-name substrings; empty = every non-smoke layer
    bench::TimingOptions timing;
    double tol          = 1e-3;
    int algo            = -1; // miopenConvFwdAlgorithm_t; -1: the fusion plan's preferred one
    int retries         = 0;
    double maxOtherLoad = 0.1;
    double quietWaitS   = 120;
};

void printUsage()
{
    std::printf(
        "usage: fusion_bn_bench [options]\n"
        "  --batch=N          batch size (default 32; env FUSION_BENCH_BATCH)\n"
        "  --filter=a,b       run layers whose name contains a or b (env FUSION_BENCH_FILTER);\n"
        "                     'cbr' = the conv+bias+ReLU part, 'bn' = batch normalization;\n"
        "                     default: every ResNet-50 layer (smoke_* layers only when named)\n"
        "  --algo=N           convolution algorithm for part 1 (0 GEMM, 1 direct, 3 Winograd,\n"
        "                     5 implicit GEMM); default: the fusion plan's preferred one\n"
        "  --warmup=N         untimed runs before timing (default 2)\n"
        "  --reps=N           minimum timed runs (default 5)\n"
        "  --max-reps=N       maximum timed runs (default 50)\n"
        "  --min-time=S       minimum timed seconds per implementation (default 0.5)\n"
        "  --tol=X            max relative difference (default 1e-3)\n"
        "  --retries=N        re-measure a case up to N times when other processes kept more than\n"
        "                     --max-other-load cores busy (default 0; waits up to --quiet-wait s)\n"
        "  --max-other-load=X default 0.1 cores\n"
        "  --quiet-wait=S     default 120 s\n"
        "  --list             list the layers and exit\n");
}

bool parseOptions(int argc, char** argv, Options& o, bool& listOnly)
{
    using bench::startsWith;
    if(const char* e = std::getenv("FUSION_BENCH_FILTER"))
        o.filter = bench::splitList(e);
    if(const char* e = std::getenv("FUSION_BENCH_BATCH"))
        o.batch = std::atoi(e);
    for(int i = 1; i < argc; ++i)
    {
        const std::string a = argv[i];
        const auto value    = [&a]() { return a.substr(a.find('=') + 1); };
        if(startsWith(a, "--batch="))
            o.batch = std::atoi(value().c_str());
        else if(startsWith(a, "--filter="))
            o.filter = bench::splitList(value());
        else if(startsWith(a, "--algo="))
            o.algo = std::atoi(value().c_str());
        else if(startsWith(a, "--warmup="))
            o.timing.warmup = std::atoi(value().c_str());
        else if(startsWith(a, "--reps="))
            o.timing.minReps = std::atoi(value().c_str());
        else if(startsWith(a, "--max-reps="))
            o.timing.maxReps = std::atoi(value().c_str());
        else if(startsWith(a, "--min-time="))
            o.timing.minTimeS = std::atof(value().c_str());
        else if(startsWith(a, "--tol="))
            o.tol = std::atof(value().c_str());
        else if(startsWith(a, "--retries="))
            o.retries = std::atoi(value().c_str());
        else if(startsWith(a, "--max-other-load="))
            o.maxOtherLoad = std::atof(value().c_str());
        else if(startsWith(a, "--quiet-wait="))
            o.quietWaitS = std::atof(value().c_str());
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
    const auto& t = o.timing;
    if(o.batch < 1 || t.minReps < 1 || t.maxReps < t.minReps || t.warmup < 0 || t.minTimeS < 0 ||
       !(o.tol > 0) || o.retries < 0 || o.maxOtherLoad < 0 || o.quietWaitS < 0 ||
       (o.algo != -1 && o.algo != 0 && o.algo != 1 && o.algo != 2 && o.algo != 3 && o.algo != 5))
    {
        std::fprintf(stderr, "bad option values (batch, reps, max-reps, warmup, min-time, tol, "
                             "retries, max-other-load, quiet-wait, algo)\n");
        return false;
    }
    return true;
}

// smoke_* layers run only when a filter entry names "smoke".
bool selected(const char* name, bool smoke, const Options& o)
{
    if(o.filter.empty())
        return !smoke;
    const std::string n = name;
    return std::any_of(o.filter.begin(), o.filter.end(), [&](const std::string& f) {
        return n.find(f) != std::string::npos && (!smoke || f.find("smoke") != std::string::npos);
    });
}

// ---- MIOpen helpers ----

void check(miopenStatus_t s, const char* what)
{
    if(s != miopenStatusSuccess)
        throw std::runtime_error(std::string(what) + " failed: " + miopenGetErrorString(s) +
                                 " (status " + std::to_string(static_cast<int>(s)) + ")");
}

struct Tensor
{
    miopenTensorDescriptor_t d = nullptr;
    Tensor(int n, int c, int h, int w)
    {
        check(miopenCreateTensorDescriptor(&d), "miopenCreateTensorDescriptor");
        check(miopenSet4dTensorDescriptor(d, miopenFloat, n, c, h, w), "miopenSet4dTensorDescriptor");
    }
    ~Tensor() { miopenDestroyTensorDescriptor(d); }
    Tensor(const Tensor&) = delete;
    Tensor& operator=(const Tensor&) = delete;
};

std::vector<float> randomVector(std::size_t n, std::mt19937& rng, float lo = -1.f, float hi = 1.f)
{
    std::uniform_real_distribution<float> dist(lo, hi);
    std::vector<float> v(n);
    for(auto& x : v)
        x = dist(rng);
    return v;
}

std::string algoName(miopenConvFwdAlgorithm_t a)
{
    switch(a)
    {
    case miopenConvolutionFwdAlgoGEMM: return "GEMM";
    case miopenConvolutionFwdAlgoDirect: return "Direct";
    case miopenConvolutionFwdAlgoFFT: return "FFT";
    case miopenConvolutionFwdAlgoWinograd: return "Winograd";
    case miopenConvolutionFwdAlgoImplicitGEMM: return "ImplicitGEMM";
    }
    return "algo " + std::to_string(static_cast<int>(a));
}

// ---- Results ----

struct Row
{
    std::string part; // "cbr" or "bn"
    std::string layer;
    std::string what;  // conv algorithm or BN direction
    std::string aName, bName;
    double aMs = 0, bMs = 0; // a: the candidate (MIOpen fused / MIOpen BN), b: the baseline
    double cMs = 0;          // cbr: miopenConvolutionBiasActivationForward
    double gbA = 0, gbB = 0; // bn: effective GB/s
    double relErr = 0, relErrC = 0;
    bool ok            = true;
    double otherLoad   = 0;
};

void printTiming(const char* label, const bench::Timing& t, double extra, const char* unit)
{
    std::printf("  %-44s %9.3f ms", label, t.medianMs);
    if(unit != nullptr)
        std::printf(" %8.1f %s", extra, unit);
    std::printf("  (%d reps, min %.3f max %.3f)\n", t.reps, t.minMs, t.maxMs);
}

// ---- Part 1: conv + bias + ReLU ----

Row runCbr(const ConvLayer& l, const Options& o, miopenHandle_t h)
{
    const int n = o.batch, p = l.hw + 2 * l.pad - l.rs + 1;
    std::mt19937 rng(1234);
    Tensor xT(n, l.c, l.hw, l.hw), wT(l.k, l.c, l.rs, l.rs), bT(1, l.k, 1, 1), yT(n, l.k, p, p);
    const std::size_t ySize = std::size_t(n) * std::size_t(l.k) * std::size_t(p) * std::size_t(p);
    auto x = randomVector(std::size_t(n) * std::size_t(l.c) * std::size_t(l.hw) * std::size_t(l.hw), rng);
    auto w = randomVector(std::size_t(l.k) * std::size_t(l.c) * std::size_t(l.rs) * std::size_t(l.rs), rng);
    auto b = randomVector(std::size_t(l.k), rng);
    std::vector<float> ySep(ySize), yPlan(ySize), yCba(ySize);

    miopenConvolutionDescriptor_t conv = nullptr;
    check(miopenCreateConvolutionDescriptor(&conv), "miopenCreateConvolutionDescriptor");
    check(miopenInitConvolutionDescriptor(conv, miopenConvolution, l.pad, l.pad, 1, 1, 1, 1),
          "miopenInitConvolutionDescriptor");
    miopenActivationDescriptor_t act = nullptr;
    check(miopenCreateActivationDescriptor(&act), "miopenCreateActivationDescriptor");
    check(miopenSetActivationDescriptor(act, miopenActivationRELU, 0, 0, 0), "miopenSetActivationDescriptor");

    // Fusion plan: conv -> bias -> ReLU.
    miopenFusionPlanDescriptor_t plan = nullptr;
    check(miopenCreateFusionPlan(&plan, miopenVerticalFusion, xT.d), "miopenCreateFusionPlan");
    miopenFusionOpDescriptor_t convOp = nullptr, biasOp = nullptr, actOp = nullptr;
    check(miopenCreateOpConvForward(plan, &convOp, conv, wT.d), "miopenCreateOpConvForward");
    check(miopenCreateOpBiasForward(plan, &biasOp, bT.d), "miopenCreateOpBiasForward");
    check(miopenCreateOpActivationForward(plan, &actOp, miopenActivationRELU),
          "miopenCreateOpActivationForward");
    miopenConvFwdAlgorithm_t algo = miopenConvolutionFwdAlgoGEMM;
    if(o.algo >= 0)
        algo = static_cast<miopenConvFwdAlgorithm_t>(o.algo);
    else
    {
        int count = 0;
        check(miopenFusionPlanConvolutionGetAlgo(plan, 1, &count, &algo),
              "miopenFusionPlanConvolutionGetAlgo");
    }
    check(miopenFusionPlanConvolutionSetAlgo(plan, algo), "miopenFusionPlanConvolutionSetAlgo");
    check(miopenCompileFusionPlan(h, plan), "miopenCompileFusionPlan");
    miopenOperatorArgs_t args = nullptr;
    check(miopenCreateOperatorArgs(&args), "miopenCreateOperatorArgs");
    const float one = 1.f, zero = 0.f;
    check(miopenSetOpArgsConvForward(args, convOp, &one, &zero, w.data()), "miopenSetOpArgsConvForward");
    check(miopenSetOpArgsBiasForward(args, biasOp, &one, &zero, b.data()), "miopenSetOpArgsBiasForward");
    check(miopenSetOpArgsActivForward(args, actOp, &one, &zero, 0, 0, 0), "miopenSetOpArgsActivForward");

    // Separate calls: the workspace is the maximum over the applicable solvers, so that
    // miopenConvolutionForward picks the same solver as the plan (the registry's first of `algo`).
    std::size_t wsBytes = 0;
    check(miopenConvolutionForwardGetWorkSpaceSize(h, wT.d, xT.d, conv, yT.d, &wsBytes),
          "miopenConvolutionForwardGetWorkSpaceSize");
    std::vector<char> ws(std::max<std::size_t>(wsBytes, 1));

    const auto separate = [&] {
        check(miopenConvolutionForward(h, &one, xT.d, x.data(), wT.d, w.data(), conv, algo, &zero,
                                       yT.d, ySep.data(), ws.data(), wsBytes),
              "miopenConvolutionForward");
        check(miopenConvolutionForwardBias(h, &one, bT.d, b.data(), &one, yT.d, ySep.data()),
              "miopenConvolutionForwardBias");
        check(miopenActivationForward(h, act, &one, yT.d, ySep.data(), &zero, yT.d, ySep.data()),
              "miopenActivationForward");
    };
    const auto fusedPlan = [&] {
        check(miopenExecuteFusionPlan(h, plan, xT.d, x.data(), yT.d, yPlan.data(), args),
              "miopenExecuteFusionPlan");
    };
    const auto fusedCba = [&] {
        check(miopenConvolutionBiasActivationForward(h, &one, xT.d, x.data(), wT.d, w.data(), conv,
                                                     algo, nullptr, 0, nullptr, yT.d, nullptr,
                                                     bT.d, b.data(), act, yT.d, yCba.data()),
              "miopenConvolutionBiasActivationForward");
    };

    std::printf("\n== %s  %dx%d %d->%d  in %dx%d  pad %d  N=%d  algorithm %s (%s)\n", l.name,
                l.rs, l.rs, l.c, l.k, l.hw, l.hw, l.pad, n, algoName(algo).c_str(),
                o.algo >= 0 ? "--algo" : "the plan's preferred");
    const double flop = 2.0 * n * l.k * l.c * double(p) * p * l.rs * l.rs;
    const auto tSep  = bench::timeRuns(separate, o.timing);
    printTiming("separate: ConvFwd + FwdBias + ActivationFwd", tSep, flop / (tSep.medianMs * 1e6), "GFLOP/s");
    // Breakdown of the separate path (each call alone; printed, not in the table).
    const auto tConv = bench::timeRuns(
        [&] {
            check(miopenConvolutionForward(h, &one, xT.d, x.data(), wT.d, w.data(), conv, algo,
                                           &zero, yT.d, ySep.data(), ws.data(), wsBytes),
                  "miopenConvolutionForward");
        },
        o.timing);
    const auto tBias = bench::timeRuns(
        [&] {
            check(miopenConvolutionForwardBias(h, &one, bT.d, b.data(), &one, yT.d, ySep.data()),
                  "miopenConvolutionForwardBias");
        },
        o.timing);
    const auto tAct = bench::timeRuns(
        [&] {
            check(miopenActivationForward(h, act, &one, yT.d, ySep.data(), &zero, yT.d, ySep.data()),
                  "miopenActivationForward");
        },
        o.timing);
    std::printf("    of which: ConvolutionForward %.3f ms, ForwardBias %.3f ms, ActivationForward "
                "%.3f ms (each timed alone)\n",
                tConv.medianMs, tBias.medianMs, tAct.medianMs);
    separate(); // ySep again holds conv + bias + relu for the comparison
    const auto tPlan = bench::timeRuns(fusedPlan, o.timing);
    printTiming("fused: ExecuteFusionPlan (conv+bias+relu)", tPlan, flop / (tPlan.medianMs * 1e6), "GFLOP/s");
    const auto tCba  = bench::timeRuns(fusedCba, o.timing);
    printTiming("fused: ConvolutionBiasActivationForward", tCba, flop / (tCba.medianMs * 1e6), "GFLOP/s");

    Row r;
    r.part    = "cbr";
    r.layer   = l.name;
    r.what    = algoName(algo);
    r.aMs     = tPlan.medianMs;
    r.cMs     = tCba.medianMs;
    r.bMs     = tSep.medianMs;
    r.relErr  = bench::relativeError(yPlan.data(), ySep.data(), ySize);
    r.relErrC = bench::relativeError(yCba.data(), ySep.data(), ySize);
    r.ok      = r.relErr <= o.tol && r.relErrC <= o.tol;
    std::printf("  speed-up separate/fused: plan %.2fx, ConvBiasActiv %.2fx; max rel diff vs "
                "separate: plan %.2e, ConvBiasActiv %.2e%s\n",
                r.bMs / r.aMs, r.bMs / r.cMs, r.relErr, r.relErrC, r.ok ? "" : "  WRONG");

    miopenDestroyOperatorArgs(args);
    miopenDestroyFusionPlan(plan);
    miopenDestroyActivationDescriptor(act);
    miopenDestroyConvolutionDescriptor(conv);
    return r;
}

// ---- Part 2: batch normalization ----

// Max relative difference of several (a, ref) pairs: the worst one.
double worst(std::initializer_list<double> v) { return *std::max_element(v.begin(), v.end()); }

std::vector<Row> runBn(const BnLayer& l, const Options& o, miopenHandle_t h, const dn::engine& eng,
                       dn::stream& strm)
{
    const int n = o.batch, c = l.c, hw = l.hw;
    const std::size_t size = std::size_t(n) * std::size_t(c) * std::size_t(hw) * std::size_t(hw);
    const std::size_t cs   = std::size_t(c);
    const double eps = 1e-5, expAvg = 0.1;
    std::mt19937 rng(4321);
    auto x     = randomVector(size, rng);
    auto dy    = randomVector(size, rng);
    auto scale = randomVector(cs, rng, 0.5f, 1.5f);
    auto shift = randomVector(cs, rng);
    auto estMean = randomVector(cs, rng, -0.1f, 0.1f);
    auto estVar  = randomVector(cs, rng, 0.2f, 0.5f);
    std::vector<float> y(size), yInf(size), dx(size), runMean(cs, 0.f), runVar(cs, 1.f);
    std::vector<float> saveMean(cs), saveInvVar(cs), dScale(cs), dShift(cs);

    Tensor xT(n, c, hw, hw), pT(1, c, 1, 1);
    float one = 1.f, zero = 0.f;
    const auto mTrain = [&] {
        check(miopenBatchNormalizationForwardTraining(
                  h, miopenBNSpatial, &one, &zero, xT.d, x.data(), xT.d, y.data(), pT.d,
                  scale.data(), shift.data(), expAvg, runMean.data(), runVar.data(), eps,
                  saveMean.data(), saveInvVar.data()),
              "miopenBatchNormalizationForwardTraining");
    };
    const auto mInfer = [&] {
        check(miopenBatchNormalizationForwardInference(
                  h, miopenBNSpatial, &one, &zero, xT.d, x.data(), xT.d, yInf.data(), pT.d,
                  scale.data(), shift.data(), estMean.data(), estVar.data(), eps),
              "miopenBatchNormalizationForwardInference");
    };
    const auto mBwd = [&] {
        check(miopenBatchNormalizationBackward(h, miopenBNSpatial, &one, &zero, &one, &zero, xT.d,
                                               x.data(), xT.d, dy.data(), xT.d, dx.data(), pT.d,
                                               scale.data(), dScale.data(), dShift.data(), eps,
                                               saveMean.data(), saveInvVar.data()),
              "miopenBatchNormalizationBackward");
    };

    // oneDNN: plain nchw, scale and shift as separate arguments.
    using tag = dn::memory::format_tag;
    using dt  = dn::memory::data_type;
    const dn::memory::desc dataMd({n, c, hw, hw}, dt::f32, tag::nchw);
    const dn::memory::desc parMd({c}, dt::f32, tag::x);
    const auto flags = dn::normalization_flags::use_scale | dn::normalization_flags::use_shift;
    dn::memory dX(dataMd, eng, x.data()), dDy(dataMd, eng, dy.data()), dY(dataMd, eng),
        dYInf(dataMd, eng), dDx(dataMd, eng);
    dn::memory dScaleM(parMd, eng, scale.data()), dShiftM(parMd, eng, shift.data()),
        dMean(parMd, eng), dVar(parMd, eng), dEstMean(parMd, eng, estMean.data()),
        dEstVar(parMd, eng, estVar.data()), dDScale(parMd, eng), dDShift(parMd, eng);
    const dn::batch_normalization_forward::primitive_desc trainPd(
        dn::batch_normalization_forward::desc(dn::prop_kind::forward_training, dataMd,
                                              static_cast<float>(eps), flags),
        eng);
    const dn::batch_normalization_forward::primitive_desc inferPd(
        dn::batch_normalization_forward::desc(dn::prop_kind::forward_inference, dataMd,
                                              static_cast<float>(eps),
                                              flags | dn::normalization_flags::use_global_stats),
        eng);
    const dn::batch_normalization_backward::primitive_desc bwdPd(
        dn::batch_normalization_backward::desc(dn::prop_kind::backward, dataMd, dataMd,
                                               static_cast<float>(eps), flags),
        eng, trainPd);
    const dn::batch_normalization_forward trainP(trainPd), inferP(inferPd);
    const dn::batch_normalization_backward bwdP(bwdPd);
    const std::unordered_map<int, dn::memory> trainArgs = {
        {DNNL_ARG_SRC, dX}, {DNNL_ARG_DST, dY}, {DNNL_ARG_SCALE, dScaleM},
        {DNNL_ARG_SHIFT, dShiftM}, {DNNL_ARG_MEAN, dMean}, {DNNL_ARG_VARIANCE, dVar}};
    const std::unordered_map<int, dn::memory> inferArgs = {
        {DNNL_ARG_SRC, dX}, {DNNL_ARG_DST, dYInf}, {DNNL_ARG_SCALE, dScaleM},
        {DNNL_ARG_SHIFT, dShiftM}, {DNNL_ARG_MEAN, dEstMean}, {DNNL_ARG_VARIANCE, dEstVar}};
    const std::unordered_map<int, dn::memory> bwdArgs = {
        {DNNL_ARG_SRC, dX},         {DNNL_ARG_DIFF_DST, dDy},        {DNNL_ARG_MEAN, dMean},
        {DNNL_ARG_VARIANCE, dVar},  {DNNL_ARG_SCALE, dScaleM},       {DNNL_ARG_SHIFT, dShiftM},
        {DNNL_ARG_DIFF_SRC, dDx},
        {DNNL_ARG_DIFF_SCALE, dDScale}, {DNNL_ARG_DIFF_SHIFT, dDShift}};
    const auto dTrain = [&] { trainP.execute(strm, trainArgs); strm.wait(); };
    const auto dInfer = [&] { inferP.execute(strm, inferArgs); strm.wait(); };
    const auto dBwd   = [&] { bwdP.execute(strm, bwdArgs); strm.wait(); };

    std::printf("\n== %s  C=%d  %dx%d  N=%d  spatial, NCHW  (oneDNN %s / %s / %s)\n", l.name, c,
                hw, hw, n, trainPd.impl_info_str(), inferPd.impl_info_str(), bwdPd.impl_info_str());
    const auto ptr = [](const dn::memory& m) { return static_cast<const float*>(m.get_data_handle()); };
    const double mb = double(size) * sizeof(float);
    std::vector<Row> rows;
    const auto measure = [&](const char* dir, const std::function<void()>& mf,
                             const std::function<void()>& df, double tensors) {
        // oneDNN first (its outputs are the reference), then MIOpen.
        const auto td = bench::timeRuns(df, o.timing);
        const auto tm = bench::timeRuns(mf, o.timing);
        Row r;
        r.part  = "bn";
        r.layer = l.name;
        r.what  = dir;
        r.aMs   = tm.medianMs;
        r.bMs   = td.medianMs;
        r.gbA   = tensors * mb / (tm.medianMs * 1e6);
        r.gbB   = tensors * mb / (td.medianMs * 1e6);
        printTiming((std::string("oneDNN ") + dir).c_str(), td, r.gbB, "GB/s");
        printTiming((std::string("MIOpen ") + dir).c_str(), tm, r.gbA, "GB/s");
        rows.push_back(r);
    };
    // Effective bandwidth counts each tensor once: forward reads x and writes y (2 tensors),
    // backward reads x and dy and writes dx (3).
    measure("fwd-training", mTrain, dTrain, 2);
    measure("fwd-inference", mInfer, dInfer, 2);
    // Backward after the training forward: MIOpen's saved mean / inverse std and oneDNN's mean /
    // variance come from the last training run of each library (the same batch).
    measure("backward", mBwd, dBwd, 3);

    // Correctness (outside timing).
    std::vector<float> invStd(cs);
    for(std::size_t i = 0; i < cs; ++i)
        invStd[i] = 1.f / std::sqrt(ptr(dVar)[i] + static_cast<float>(eps));
    rows[0].relErr = worst({bench::relativeError(y.data(), ptr(dY), size),
                            bench::relativeError(saveMean.data(), ptr(dMean), cs),
                            bench::relativeError(saveInvVar.data(), invStd.data(), cs)});
    rows[1].relErr = bench::relativeError(yInf.data(), ptr(dYInf), size);
    rows[2].relErr = worst({bench::relativeError(dx.data(), ptr(dDx), size),
                            bench::relativeError(dScale.data(), ptr(dDScale), cs),
                            bench::relativeError(dShift.data(), ptr(dDShift), cs)});
    for(auto& r : rows)
    {
        r.ok = r.relErr <= o.tol;
        std::printf("  %-14s MIOpen/oneDNN speed %.2f  max rel diff %.2e%s\n", r.what.c_str(),
                    r.bMs / r.aMs, r.relErr, r.ok ? "" : "  WRONG");
    }
    return rows;
}

// ---- Run ----

void printTables(const std::vector<Row>& rows, int batch)
{
    bool any = false;
    for(const auto& r : rows)
        if(r.part == "cbr")
        {
            if(!any)
                std::printf("\n## conv + bias + ReLU, fused vs separate (N=%d, fp32, median ms)\n\n"
                            "| layer | algorithm | separate (3 calls) | fusion plan | speed-up | "
                            "ConvBiasActivForward | speed-up | max rel diff (plan / CBA) | other load |\n"
                            "|---|---|---:|---:|---:|---:|---:|---|---:|\n",
                            batch);
            any = true;
            std::printf("| %s | %s | %.3f | %.3f | %.2fx | %.3f | %.2fx | %.1e / %.1e%s | %.2f |\n",
                        r.layer.c_str(), r.what.c_str(), r.bMs, r.aMs, r.bMs / r.aMs, r.cMs,
                        r.bMs / r.cMs, r.relErr, r.relErrC, r.ok ? "" : " WRONG", r.otherLoad);
        }
    any = false;
    for(const auto& r : rows)
        if(r.part == "bn")
        {
            if(!any)
                std::printf("\n## batch normalization, spatial, NCHW: MIOpen vs oneDNN (N=%d, fp32)\n\n"
                            "| layer | direction | MIOpen ms | MIOpen GB/s | oneDNN ms | oneDNN GB/s | "
                            "MIOpen/oneDNN speed | max rel diff | other load |\n"
                            "|---|---|---:|---:|---:|---:|---:|---|---:|\n",
                            batch);
            any = true;
            std::printf("| %s | %s | %.3f | %.1f | %.3f | %.1f | %.2f | %.1e%s | %.2f |\n",
                        r.layer.c_str(), r.what.c_str(), r.aMs, r.gbA, r.bMs, r.gbB, r.bMs / r.aMs,
                        r.relErr, r.ok ? "" : " WRONG", r.otherLoad);
        }
    std::printf("\n\"speed-up\": separate / fused time; \"MIOpen/oneDNN speed\": oneDNN time / MIOpen "
                "time (> 1: MIOpen faster). GB/s counts each tensor once (fwd: x, y; bwd: x, dy, dx). "
                "\"other load\": cores other processes kept busy while the case ran.\n");
}

// MIOpen's pool size as the library computes it (MIOPEN_NUM_THREADS, else the hardware
// concurrency); only the public API is linked, so it is derived from the environment.
std::size_t miopenThreadsFromEnv(const char* env)
{
    if(env != nullptr && std::atol(env) >= 1)
        return static_cast<std::size_t>(std::min(std::atol(env), 1024L));
    const unsigned hw = std::thread::hardware_concurrency();
    return hw == 0 ? 1 : hw;
}

int runAll(const Options& o)
{
    const char* miopenEnv         = std::getenv("MIOPEN_NUM_THREADS");
    const std::size_t miopenThreads = miopenThreadsFromEnv(miopenEnv);
    const char* ompEnv            = std::getenv("OMP_NUM_THREADS");
    if(!ompEnv)
        omp_set_num_threads(static_cast<int>(miopenThreads));
    const dn::version_t* v = dn::version();
    const std::time_t now  = std::time(nullptr);
    char date[64];
    std::strftime(date, sizeof date, "%Y-%m-%d %H:%M:%S %Z", std::localtime(&now));
    std::printf("fusion_bn_bench  %s  cpu: %s\n", date, bench::cpuModel().c_str());
    std::printf("miopen threads=%zu (MIOPEN_NUM_THREADS %s)\n", miopenThreads,
                miopenEnv ? (std::string("=") + miopenEnv).c_str() : "unset: hardware concurrency");
    std::printf("onednn %d.%d.%d (%s), isa %s, omp_get_max_threads=%d (OMP_NUM_THREADS %s)\n",
                v->major, v->minor, v->patch, v->hash,
                bench::isaName(dn::get_effective_cpu_isa()), omp_get_max_threads(),
                ompEnv ? (std::string("=") + ompEnv).c_str() : "unset: set to miopen's thread count");
    if(static_cast<std::size_t>(omp_get_max_threads()) != miopenThreads)
        std::printf("WARNING: thread counts differ (miopen %zu, oneDNN %d): ratios are unfair\n",
                    miopenThreads, omp_get_max_threads());
    if(const char* f = std::getenv("MIOPEN_HIPDNN_FORWARDING"))
        std::printf("MIOPEN_HIPDNN_FORWARDING=%s\n", f);
    std::printf("batch %d, fp32, warm-up %d, reps >= %d and >= %.2f s (<= %d), median; tol %.0e; "
                "find-db disabled (MIOPEN_DEBUG_DISABLE_FIND_DB=1)\n",
                o.batch, o.timing.warmup, o.timing.minReps, o.timing.minTimeS, o.timing.maxReps, o.tol);
    bench::printLoad("at start");

    const bench::CpuClock runStart = bench::readCpuClock();
    miopenHandle_t h = nullptr;
    check(miopenCreate(&h), "miopenCreate");
    const dn::engine eng(dn::engine::kind::cpu, 0);
    dn::stream strm(eng);

    // Runs one case, re-measuring it (--retries) when other processes disturbed it.
    const auto measured = [&](const std::function<std::vector<Row>()>& fn) {
        std::vector<Row> best;
        double bestLoad = 0;
        for(int attempt = 0;; ++attempt)
        {
            const bench::CpuClock before = bench::readCpuClock();
            std::vector<Row> cur         = fn();
            const double load            = bench::foreignLoad(before, bench::readCpuClock());
            std::printf("  other processes kept %.2f cores busy during this case\n", load);
            if(attempt == 0 || load < bestLoad)
            {
                best     = std::move(cur);
                bestLoad = load;
            }
            if(bestLoad <= o.maxOtherLoad || attempt >= o.retries)
                break;
            const double waited = bench::waitForQuiet(o.maxOtherLoad, o.quietWaitS);
            std::printf("  re-measuring (attempt %d of %d) after waiting %.0f s for a quiet machine\n",
                        attempt + 2, o.retries + 1, waited);
        }
        for(auto& r : best)
            r.otherLoad = bestLoad;
        std::fflush(stdout);
        return best;
    };

    std::vector<Row> rows;
    for(const ConvLayer& l : kConvLayers)
        if(selected(l.name, l.smoke, o))
            for(auto& r : measured([&] { return std::vector<Row>{runCbr(l, o, h)}; }))
                rows.push_back(r);
    for(const BnLayer& l : kBnLayers)
        if(selected(l.name, l.smoke, o))
            for(auto& r : measured([&] { return runBn(l, o, h, eng, strm); }))
                rows.push_back(r);
    miopenDestroy(h);
    if(rows.empty())
    {
        std::fprintf(stderr, "no layer matches the filter (--list shows them)\n");
        return 2;
    }
    printTables(rows, o.batch);
    std::printf("\n");
    bench::printLoad("at end");
    const bench::CpuClock runEnd = bench::readCpuClock();
    std::printf("run took %.0f s; other processes kept %.2f cores busy on average\n",
                std::chrono::duration<double>(runEnd.wall - runStart.wall).count(),
                bench::foreignLoad(runStart, runEnd));
    const bool allOk = std::all_of(rows.begin(), rows.end(), [](const Row& r) { return r.ok; });
    if(!allOk)
    {
        std::printf("FAILED: an output differs beyond the tolerance (see WRONG)\n");
        return 1;
    }
    return 0;
}

} // namespace

int main(int argc, char** argv)
{
    Options o;
    bool listOnly = false;
    if(!parseOptions(argc, argv, o, listOnly))
        return 2;
    if(listOnly)
    {
        for(const ConvLayer& l : kConvLayers)
            std::printf("%-20s conv+bias+relu  %dx%d C=%d K=%d H=W=%d pad %d%s\n", l.name, l.rs,
                        l.rs, l.c, l.k, l.hw, l.pad, l.smoke ? "  (smoke only)" : "");
        for(const BnLayer& l : kBnLayers)
            std::printf("%-20s batchnorm  C=%d H=W=%d%s\n", l.name, l.c, l.hw,
                        l.smoke ? "  (smoke only)" : "");
        return 0;
    }
    // The separate path must pick the solver the fusion plan picks (the registry's first of the
    // algorithm); a user find-db entry could make miopenConvolutionForward choose another.
    setenv("MIOPEN_DEBUG_DISABLE_FIND_DB", "1", 1);
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
