// families_bench: the forwarded op families other than convolution through the public C API
// (libMIOpen.so), pass-through against forwarded to hipDNN, side by side in one run. Google
// Benchmark times each call; since libMIOpen.so reads MIOPEN_HIPDNN_FORWARDING once per process,
// the program runs itself as a child (disabled, then enabled; CSV output), reads both children's
// times, and prints one table: case, pass-through ms, forwarded ms, ratio. A third, short enabled
// child with MIOPEN_HIPDNN_COUNTERS_FILE set (the wrapper rewrites that file after every call, so
// the timed children run without it) shows the routes; the run fails when an entry point of these
// families was never forwarded.
//
// Every buffer a call reads or writes is aligned as hipMalloc's (../device_memory.hpp): on
// std::vector's 16-byte aligned storage the engines slow down by different amounts (oneDNN's
// fused batchnorm + RELU ran about 4x slower than on aligned buffers here), which the engine
// ranking, measured on aligned scratch tensors, does not see.
//
// Every case checks its result once against plain loops before it is timed (a wrong result or an
// API error aborts the child, and the parent fails). Shapes are ResNet-50-like activations
// (N=32, C=64, 56x56 and N=32, C=256, 14x14; --batch=N changes N); --smoke uses tiny ones (the ctest).
//
//   families_bench [--smoke] [--batch=N] [google benchmark flags, e.g. --benchmark_min_time=0.2]
//
// Families: activation (forward / backward, RELU), tensor ops (OpTensor ADD of two full tensors as
// in a residual block, MUL by a per-channel B, ScaleTensor), batchnorm (spatial: inference,
// training, backward), fusion plans (miopenExecuteFusionPlan: 1x1 convolution + bias + RELU, and
// batchnorm inference + RELU). Another family adds its cases in its own section below and
// registers them in registerCases().
//
// The performance report (benchmarks/report/make_perf_report.py) runs the children itself
// (FAMILIES_BENCH_CHILD=1, MIOPEN_HIPDNN_FORWARDING=disabled/enabled, interleaved); with
// FAMILIES_BENCH_MARK=1 a child writes "families-case <case> <entry point>" to stderr each time a
// case starts, so that a traced run (MIOPEN_LOG_LEVEL=6) names the route of each case.
#include "../device_memory.hpp"

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
int gBatch  = 32;

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
    std::string name;
    int n, c, h, w;
};

std::vector<Shape> shapes()
{
    if(gSmoke)
        return {{"n2c8h6w6", 2, 8, 6, 6}};
    const std::string n = "n" + std::to_string(gBatch);
    return {{n + "c64h56w56", gBatch, 64, 56, 56}, {n + "c256h14w14", gBatch, 256, 14, 14}};
}

std::size_t elements(const Shape& s)
{
    return static_cast<std::size_t>(s.n) * static_cast<std::size_t>(s.c) * static_cast<std::size_t>(s.h) *
           static_cast<std::size_t>(s.w);
}

using bench::DeviceVector;

// One handle and fp32 NCHW tensors of a shape, filled with seeded values in [-1, 1].
struct Fixture
{
    miopenHandle_t handle = nullptr;
    miopenTensorDescriptor_t desc = nullptr, chanDesc = nullptr;
    DeviceVector<float> a, b, c, chan;

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

template <class Got, class Ref>
void expectClose(const Got& got, const Ref& ref, const char* what, float tol = 1e-5f)
{
    for(std::size_t i = 0; i < got.size(); ++i)
        if(!(std::fabs(got[i] - ref[i]) <= tol * std::max(1.0f, std::fabs(ref[i]))))
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
    DeviceVector<float> y(f.a.size()), dx(f.a.size());
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

// ---- batchnorm (spatial) -------------------------------------------------------------------------

// x, y, dy and the per-channel parameters (miopenDeriveBNTensorDescriptor: 1xCx1x1), with the
// batch statistics of x computed here in double (the reference of training, the saved statistics
// the backward reads).
struct Batchnorm
{
    Fixture f;
    miopenTensorDescriptor_t pDesc = nullptr;
    DeviceVector<float> scale, bias, mean, var, batchMean, batchInvStd;
    static constexpr double kEps = 1e-5;

    explicit Batchnorm(const Shape& s) : f(s)
    {
        CHECK_MIOPEN(miopenCreateTensorDescriptor(&pDesc));
        CHECK_MIOPEN(miopenDeriveBNTensorDescriptor(pDesc, f.desc, miopenBNSpatial));
        std::mt19937 rng(7u);
        std::uniform_real_distribution<float> u(0.5f, 1.5f), v(-0.5f, 0.5f);
        const auto c = static_cast<std::size_t>(s.c);
        for(auto* p : {&scale, &bias, &mean, &var, &batchMean, &batchInvStd})
            p->resize(c);
        for(std::size_t k = 0; k < c; ++k)
        {
            scale[k] = u(rng);
            bias[k]  = v(rng);
            mean[k]  = v(rng) * 0.2f;
            var[k]   = u(rng);
        }
        const std::size_t hw = static_cast<std::size_t>(s.h) * static_cast<std::size_t>(s.w);
        const double m       = static_cast<double>(hw) * s.n;
        for(std::size_t k = 0; k < c; ++k)
        {
            double sum = 0, sq = 0;
            for(int n = 0; n < s.n; ++n)
                for(std::size_t i = 0; i < hw; ++i)
                {
                    const double x = f.a[(static_cast<std::size_t>(n) * c + k) * hw + i];
                    sum += x;
                    sq += x * x;
                }
            const double mu = sum / m;
            batchMean[k]    = static_cast<float>(mu);
            batchInvStd[k]  = static_cast<float>(1.0 / std::sqrt(std::max(0.0, sq / m - mu * mu) + kEps));
        }
    }
    ~Batchnorm() { miopenDestroyTensorDescriptor(pDesc); }
    Batchnorm(const Batchnorm&) = delete;
    Batchnorm& operator=(const Batchnorm&) = delete;

    std::size_t channel(std::size_t i, const Shape& s) const
    {
        return (i / (static_cast<std::size_t>(s.h) * static_cast<std::size_t>(s.w))) % static_cast<std::size_t>(s.c);
    }
};

void batchnormInference(benchmark::State& state, Shape s)
{
    Batchnorm bn(s);
    Fixture& f = bn.f;
    float one = 1.0f, zero = 0.0f;
    auto call = [&] {
        return miopenBatchNormalizationForwardInference(f.handle, miopenBNSpatial, &one, &zero, f.desc, f.a.data(),
                                                        f.desc, f.c.data(), bn.pDesc, bn.scale.data(), bn.bias.data(),
                                                        bn.mean.data(), bn.var.data(), Batchnorm::kEps);
    };
    CHECK_MIOPEN(call());
    std::vector<float> ref(f.a.size());
    for(std::size_t i = 0; i < ref.size(); ++i)
    {
        const std::size_t k = bn.channel(i, s);
        ref[i] = static_cast<float>(bn.scale[k] * (f.a[i] - bn.mean[k]) / std::sqrt(bn.var[k] + Batchnorm::kEps) +
                                    bn.bias[k]);
    }
    expectClose(f.c, ref, "batchnorm inference", 1e-4f);
    for(auto _ : state)
        CHECK_MIOPEN(call());
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) * 2 *
                            static_cast<std::int64_t>(f.a.size() * sizeof(float)));
}

void batchnormTraining(benchmark::State& state, Shape s)
{
    Batchnorm bn(s);
    Fixture& f = bn.f;
    float one = 1.0f, zero = 0.0f;
    DeviceVector<float> runMean(bn.mean), runVar(bn.var), saveMean(bn.mean.size()), saveInvStd(bn.mean.size());
    auto call = [&] {
        return miopenBatchNormalizationForwardTraining(f.handle, miopenBNSpatial, &one, &zero, f.desc, f.a.data(),
                                                       f.desc, f.c.data(), bn.pDesc, bn.scale.data(), bn.bias.data(),
                                                       0.1, runMean.data(), runVar.data(), Batchnorm::kEps,
                                                       saveMean.data(), saveInvStd.data());
    };
    CHECK_MIOPEN(call());
    std::vector<float> ref(f.a.size());
    for(std::size_t i = 0; i < ref.size(); ++i)
    {
        const std::size_t k = bn.channel(i, s);
        ref[i] = bn.scale[k] * (f.a[i] - bn.batchMean[k]) * bn.batchInvStd[k] + bn.bias[k];
    }
    expectClose(f.c, ref, "batchnorm training", 1e-4f);
    expectClose(saveMean, bn.batchMean, "batchnorm training saved mean", 1e-4f);
    expectClose(saveInvStd, bn.batchInvStd, "batchnorm training saved inverse std", 1e-4f);
    for(auto _ : state)
        CHECK_MIOPEN(call());
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) * 3 *
                            static_cast<std::int64_t>(f.a.size() * sizeof(float)));
}

void batchnormBackward(benchmark::State& state, Shape s)
{
    Batchnorm bn(s);
    Fixture& f = bn.f; // x = a, dy = b, dx = c
    const float one = 1.0f, zero = 0.0f;
    const std::size_t c = bn.scale.size();
    DeviceVector<float> dScale(c), dBias(c);
    auto call = [&] {
        return miopenBatchNormalizationBackward(f.handle, miopenBNSpatial, &one, &zero, &one, &zero, f.desc,
                                                f.a.data(), f.desc, f.b.data(), f.desc, f.c.data(), bn.pDesc,
                                                bn.scale.data(), dScale.data(), dBias.data(), Batchnorm::kEps,
                                                bn.batchMean.data(), bn.batchInvStd.data());
    };
    CHECK_MIOPEN(call());
    // dbias = sum dy, dscale = sum dy * xhat, dx = scale * invStd / M * (M dy - dbias - xhat dscale).
    std::vector<double> db(c, 0.0), ds(c, 0.0), mag(c, 0.0);
    for(std::size_t i = 0; i < f.a.size(); ++i)
    {
        const std::size_t k = bn.channel(i, s);
        const double xhat   = (static_cast<double>(f.a[i]) - bn.batchMean[k]) * bn.batchInvStd[k];
        db[k] += f.b[i];
        ds[k] += f.b[i] * xhat;
        mag[k] += std::fabs(f.b[i]) * (1.0 + std::fabs(xhat));
    }
    const double m = static_cast<double>(f.a.size()) / static_cast<double>(c);
    std::vector<float> ref(f.a.size());
    for(std::size_t i = 0; i < ref.size(); ++i)
    {
        const std::size_t k = bn.channel(i, s);
        const double xhat   = (static_cast<double>(f.a[i]) - bn.batchMean[k]) * bn.batchInvStd[k];
        ref[i] = static_cast<float>(bn.scale[k] * bn.batchInvStd[k] / m * (m * f.b[i] - db[k] - xhat * ds[k]));
    }
    expectClose(f.c, ref, "batchnorm backward dx", 1e-3f);
    // The parameter gradients are sums over N*H*W terms: their bound follows the terms' magnitude.
    for(std::size_t k = 0; k < c; ++k)
        if(!(std::fabs(dBias[k] - db[k]) <= 1e-5 * mag[k] + 1e-4 && std::fabs(dScale[k] - ds[k]) <= 1e-5 * mag[k] + 1e-4))
        {
            std::fprintf(stderr, "batchnorm backward: channel %zu dscale %g dbias %g, expected %g %g\n", k,
                         static_cast<double>(dScale[k]), static_cast<double>(dBias[k]), ds[k], db[k]);
            std::abort();
        }
    for(auto _ : state)
        CHECK_MIOPEN(call());
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) * 3 *
                            static_cast<std::int64_t>(f.a.size() * sizeof(float)));
}

// ---- fusion plans (miopenExecuteFusionPlan) ------------------------------------------------------

struct FusionPlan
{
    miopenFusionPlanDescriptor_t plan = nullptr;
    miopenOperatorArgs_t args         = nullptr;
    explicit FusionPlan(miopenTensorDescriptor_t input)
    {
        CHECK_MIOPEN(miopenCreateFusionPlan(&plan, miopenVerticalFusion, input));
        CHECK_MIOPEN(miopenCreateOperatorArgs(&args));
    }
    ~FusionPlan()
    {
        miopenDestroyOperatorArgs(args);
        miopenDestroyFusionPlan(plan);
    }
    FusionPlan(const FusionPlan&) = delete;
    FusionPlan& operator=(const FusionPlan&) = delete;
    void addRelu()
    {
        miopenFusionOpDescriptor_t op = nullptr;
        const float one = 1.0f, zero = 0.0f;
        CHECK_MIOPEN(miopenCreateOpActivationForward(plan, &op, miopenActivationRELU));
        CHECK_MIOPEN(miopenSetOpArgsActivForward(args, op, &one, &zero, 0.0, 0.0, 0.0));
    }
};

// A 1x1 convolution C -> C (stride 1, no padding) + per-channel bias + RELU, as in a ResNet
// bottleneck at inference. The reference is checked on a sample of the outputs (every 37th).
void fusionConvBiasRelu(benchmark::State& state, Shape s)
{
    Fixture f(s); // x = a, y = c
    const auto c = static_cast<std::size_t>(s.c);
    miopenTensorDescriptor_t wDesc = nullptr;
    miopenConvolutionDescriptor_t conv = nullptr;
    CHECK_MIOPEN(miopenCreateTensorDescriptor(&wDesc));
    CHECK_MIOPEN(miopenSet4dTensorDescriptor(wDesc, miopenFloat, s.c, s.c, 1, 1));
    CHECK_MIOPEN(miopenCreateConvolutionDescriptor(&conv));
    CHECK_MIOPEN(miopenInitConvolutionDescriptor(conv, miopenConvolution, 0, 0, 1, 1, 1, 1));
    DeviceVector<float> w(c * c);
    std::mt19937 rng(11u);
    std::uniform_real_distribution<float> u(-0.5f, 0.5f);
    for(float& x : w)
        x = u(rng);
    FusionPlan fp(f.desc);
    const float one = 1.0f, zero = 0.0f;
    miopenFusionOpDescriptor_t convOp = nullptr, biasOp = nullptr;
    CHECK_MIOPEN(miopenCreateOpConvForward(fp.plan, &convOp, conv, wDesc));
    CHECK_MIOPEN(miopenSetOpArgsConvForward(fp.args, convOp, &one, &zero, w.data()));
    CHECK_MIOPEN(miopenCreateOpBiasForward(fp.plan, &biasOp, f.chanDesc));
    CHECK_MIOPEN(miopenSetOpArgsBiasForward(fp.args, biasOp, &one, &zero, f.chan.data()));
    fp.addRelu();
    CHECK_MIOPEN(miopenCompileFusionPlan(f.handle, fp.plan));
    auto call = [&] {
        return miopenExecuteFusionPlan(f.handle, fp.plan, f.desc, f.a.data(), f.desc, f.c.data(), fp.args);
    };
    CHECK_MIOPEN(call());
    const std::size_t hw = static_cast<std::size_t>(s.h) * static_cast<std::size_t>(s.w);
    for(std::size_t i = 0; i < f.c.size(); i += 37)
    {
        const std::size_t n = i / (c * hw), k = (i / hw) % c, p = i % hw;
        double acc = f.chan[k], mag = std::fabs(f.chan[k]);
        for(std::size_t ci = 0; ci < c; ++ci)
        {
            const double t = static_cast<double>(w[k * c + ci]) * f.a[(n * c + ci) * hw + p];
            acc += t;
            mag += std::fabs(t);
        }
        const double ref = std::max(0.0, acc);
        if(!(std::fabs(f.c[i] - ref) <= 1e-5 * mag + 1e-6))
        {
            std::fprintf(stderr, "fusion conv+bias+relu: element %zu is %g, expected %g\n", i,
                         static_cast<double>(f.c[i]), ref);
            std::abort();
        }
    }
    for(auto _ : state)
        CHECK_MIOPEN(call());
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()) * 2 *
                            static_cast<std::int64_t>(elements(s) * c)); // FLOP
    miopenDestroyConvolutionDescriptor(conv);
    miopenDestroyTensorDescriptor(wDesc);
}

// Batchnorm inference (spatial) + RELU in one plan.
void fusionBatchnormRelu(benchmark::State& state, Shape s)
{
    Batchnorm bn(s);
    Fixture& f = bn.f;
    FusionPlan fp(f.desc);
    const float one = 1.0f, zero = 0.0f;
    miopenFusionOpDescriptor_t bnOp = nullptr;
    CHECK_MIOPEN(miopenCreateOpBatchNormInference(fp.plan, &bnOp, miopenBNSpatial, bn.pDesc));
    CHECK_MIOPEN(miopenSetOpArgsBatchNormInference(fp.args, bnOp, &one, &zero, bn.scale.data(), bn.bias.data(),
                                                   bn.mean.data(), bn.var.data(), Batchnorm::kEps));
    fp.addRelu();
    CHECK_MIOPEN(miopenCompileFusionPlan(f.handle, fp.plan));
    auto call = [&] {
        return miopenExecuteFusionPlan(f.handle, fp.plan, f.desc, f.a.data(), f.desc, f.c.data(), fp.args);
    };
    CHECK_MIOPEN(call());
    std::vector<float> ref(f.a.size());
    for(std::size_t i = 0; i < ref.size(); ++i)
    {
        const std::size_t k = bn.channel(i, s);
        ref[i] = std::max(0.0f, static_cast<float>(bn.scale[k] * (f.a[i] - bn.mean[k]) /
                                                       std::sqrt(bn.var[k] + Batchnorm::kEps) +
                                                   bn.bias[k]));
    }
    expectClose(f.c, ref, "fusion batchnorm+relu", 1e-4f);
    for(auto _ : state)
        CHECK_MIOPEN(call());
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) * 2 *
                            static_cast<std::int64_t>(f.a.size() * sizeof(float)));
}

// ---- pooling / softmax ----
// (wrapper_pooling_softmax_bench, pooling_softmax_bench.cpp)

// One case: its name, the entry point it times (for the routes of a traced run) and its body.
using CaseFn = void (*)(benchmark::State&, Shape);

void registerCase(const std::string& name, const char* entry, CaseFn fn, const Shape& s)
{
    const bool mark = std::getenv("FAMILIES_BENCH_MARK") != nullptr;
    benchmark::RegisterBenchmark(name.c_str(), [name, entry, fn, s, mark](benchmark::State& st) {
        if(mark)
            std::fprintf(stderr, "families-case %s %s\n", name.c_str(), entry);
        fn(st, s);
    })
        ->Unit(benchmark::kMillisecond)
        // The libraries run a call on their own threads while this one waits: the iteration count
        // follows the wall clock (by default Google Benchmark follows this thread's CPU time, which
        // ran up to ten times the asked time on the pass-through cases).
        ->UseRealTime();
}

void registerCases()
{
    struct Case
    {
        const char* name;
        const char* entry;
        CaseFn fn;
    };
    static const Case cases[] = {
        {"activation_fwd_relu", "miopenActivationForward", activationForward},
        {"activation_bwd_relu", "miopenActivationBackward", activationBackward},
        {"op_tensor_add", "miopenOpTensor", opTensorAdd},
        {"op_tensor_mul_per_channel", "miopenOpTensor", opTensorMulPerChannel},
        {"scale_tensor", "miopenScaleTensor", scaleTensor},
        {"batchnorm_inference", "miopenBatchNormalizationForwardInference", batchnormInference},
        {"batchnorm_training", "miopenBatchNormalizationForwardTraining", batchnormTraining},
        {"batchnorm_backward", "miopenBatchNormalizationBackward", batchnormBackward},
        {"fusion_conv1x1_bias_relu", "miopenExecuteFusionPlan", fusionConvBiasRelu},
        {"fusion_batchnorm_relu", "miopenExecuteFusionPlan", fusionBatchnormRelu},
    };
    for(const Shape& s : shapes())
        for(const Case& c : cases)
            registerCase(std::string(c.name) + "/" + s.name, c.entry, c.fn, s);
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
    for(const char* e : {"miopenActivationForward", "miopenActivationBackward", "miopenOpTensor", "miopenScaleTensor",
                         "miopenBatchNormalizationForwardInference", "miopenBatchNormalizationForwardTraining",
                         "miopenBatchNormalizationBackward", "miopenExecuteFusionPlan"})
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
            std::printf("usage: wrapper_families_bench [--smoke] [--batch=N] [Google Benchmark flags]\n"
                        "  Times activation, OpTensor, ScaleTensor, batchnorm and fusion-plan cases through the\n"
                        "  public MIOpen API,\n"
                        "  pass-through (MIOPEN_HIPDNN_FORWARDING=disabled) and forwarded (enabled) in two\n"
                        "  child processes, then a short third run that records the routes.\n"
                        "  --smoke   the small shapes only (the ctest smoke run)\n"
                        "  --batch=N N of the two ResNet-50-like shapes (default 32)\n"
                        "  Google Benchmark flags (e.g. --benchmark_filter=relu) go to both children.\n");
            return 0;
        }
        if(std::strcmp(argv[i], "--smoke") == 0)
            gSmoke = true;
        else if(std::strncmp(argv[i], "--batch=", 8) == 0)
        {
            gBatch = std::atoi(argv[i] + 8);
            if(gBatch < 1)
            {
                std::fprintf(stderr, "families_bench: --batch must be at least 1\n");
                return 2;
            }
        }
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
