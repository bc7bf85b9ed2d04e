// PyTorch's MIOpen integration, replayed through the public API and the host HIP runtime
// (../shared/reference/miopen-facts.md §3.1): the call sequences of aten/src/ATen/miopen and
// aten/src/ATen/native/miopen, on buffers from hipMalloc moved with hipMemcpy, each result checked
// against a plain CPU reference.
//  - Handle: created once with miopenCreate, never destroyed; miopenSetStream with the current
//    HIP stream before every use (getMiopenHandle()).
//  - Convolution (Conv_miopen.cpp): N-d descriptors with explicit strides, InitConvolutionNd,
//    group count, the DETERMINISTIC attribute; miopenConvolution or miopenDepthwise mode; the
//    benchmark (Find) path -- find mode Normal, GetWorkSpaceSize, Find with one result and
//    exhaustive search kept in a process-wide cache (a second call skips Find), execute with
//    alpha 1 / beta 0 -- or the immediate path (GetSolutionCount,
//    GetSolution up to 10, the first solution's workspace, CompileSolution, Immediate); forward,
//    backward data and backward weights; plain, grouped and depthwise problems.
//  - miopen_convolution_relu: a vertical fusion plan conv + bias + ReLU, operator args, execute,
//    plan destroyed.
//  - BatchNorm_miopen.cpp: V1 training (with and without running statistics), inference and
//    backward, fp16 data with fp32 parameters, Spatial for 4-D input and PerActivation for 2-D
//    input padded to 4-D.
// Runs with forwarding disabled and enabled (api.cmake): each convolution execute and batchnorm
// call asserts its route (common/forwarding_route.hpp; batchnorm: Spatial forwarded,
// PerActivation declined); calls outside the forwarding set (fusion plan) must not be routed at
// all.
#include <hip/hip_runtime.h>

#include "common/api_helpers.hpp"
#include "common/conv_reference.hpp"
#include "common/forwarding_route.hpp"

#include <hipdnn_test_sdk/utilities/CpuFpReferenceBatchnorm.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <string>
#include <tuple>
#include <vector>

namespace {

namespace ref = conv_reference;
using hipdnn_test_sdk::utilities::CpuFpReferenceBatchnorm;
using hipdnn_test_sdk::utilities::TensorView;

#define ASSERT_HIP_OK(expr) ASSERT_EQ(hipSuccess, (expr)) << #expr
#define EXPECT_HIP_OK(expr) EXPECT_EQ(hipSuccess, (expr)) << #expr

// A hipMalloc'd buffer, filled and read back with hipMemcpy.
class DeviceBuffer
{
public:
    explicit DeviceBuffer(std::size_t bytes) : _bytes(bytes)
    {
        EXPECT_HIP_OK(hipMalloc(&_ptr, std::max<std::size_t>(bytes, 1)));
    }
    template <class T>
    explicit DeviceBuffer(const std::vector<T>& host) : DeviceBuffer(host.size() * sizeof(T))
    {
        EXPECT_HIP_OK(hipMemcpy(_ptr, host.data(), _bytes, hipMemcpyHostToDevice));
    }
    ~DeviceBuffer() { EXPECT_HIP_OK(hipFree(_ptr)); }
    DeviceBuffer(const DeviceBuffer&) = delete;
    DeviceBuffer& operator=(const DeviceBuffer&) = delete;
    void* get() const { return _ptr; }
    template <class T>
    std::vector<T> download() const
    {
        std::vector<T> host(_bytes / sizeof(T));
        EXPECT_HIP_OK(hipMemcpy(host.data(), _ptr, _bytes, hipMemcpyDeviceToHost));
        return host;
    }

private:
    void* _ptr = nullptr;
    std::size_t _bytes;
};

// aten/src/ATen/miopen/Handle.cpp: the handle is created once (per thread and device; the tests
// run on one thread) and deliberately never destroyed; every use sets the current stream.
miopenHandle_t getMiopenHandle(hipStream_t current)
{
    static miopenHandle_t handle = nullptr;
    if(handle == nullptr)
    {
        EXPECT_MIOPEN_OK(miopenCreate(&handle));
    }
    EXPECT_MIOPEN_OK(miopenSetStream(handle, current));
    return handle;
}

std::vector<int> packedStrides(const std::vector<int>& dims)
{
    std::vector<int> s(dims.size(), 1);
    for(std::size_t i = dims.size() - 1; i-- > 0;)
        s[i] = s[i + 1] * dims[i + 1];
    return s;
}

// Descriptors.cpp: N-d with explicit strides, dims padded with 1s to `pad` dims.
void setTensor(miopenTensorDescriptor_t d, miopenDataType_t t, std::vector<int> dims, std::size_t pad = 4)
{
    while(dims.size() < pad)
        dims.push_back(1);
    const auto strides = packedStrides(dims);
    ASSERT_MIOPEN_OK(miopenSetTensorDescriptor(d, t, static_cast<int>(dims.size()), dims.data(), strides.data()));
}

std::vector<float> randomFloats(std::size_t n, std::mt19937& rng)
{
    std::vector<float> v(n);
    test::fillRandom(miopenFloat, v.data(), n, rng);
    return v;
}

// The counters of every entry point now; a call outside the forwarding set must leave them as
// they were (not forwarded, declined, counted or routed), whatever the configuration.
long routeEvents()
{
    long total = 0;
    for(const auto& [entry, c] : test::route::readCounters())
        total += c.forwarded + c.failed + c.declined + c.invalid + c.routed;
    return total;
}

// The current HIP stream of the "framework": one per test, handed to MIOpen on every use.
class PyTorchSequence : public ::testing::Test
{
protected:
    void SetUp() override { ASSERT_HIP_OK(hipStreamCreateWithFlags(&_stream, hipStreamNonBlocking)); }
    void TearDown() override
    {
        EXPECT_HIP_OK(hipStreamSynchronize(_stream));
        EXPECT_HIP_OK(hipStreamDestroy(_stream));
    }
    miopenHandle_t handle()
    {
        miopenHandle_t h = getMiopenHandle(_stream);
        hipStream_t got  = nullptr;
        EXPECT_MIOPEN_OK(miopenGetStream(h, &got));
        EXPECT_EQ(_stream, got);
        return h;
    }
    hipStream_t _stream = nullptr;
};

// ---- convolution -----------------------------------------------------------------------------------

enum class Kind
{
    Plain,
    Grouped,
    Depthwise
};

struct ConvProblem
{
    int n, c, h, w, k, r, s, pad, stride, dilation, groups;
    Kind kind;
};

ConvProblem problemOf(Kind kind)
{
    switch(kind)
    {
    case Kind::Plain: return {2, 4, 9, 9, 6, 3, 3, 1, 1, 1, 1, kind};
    case Kind::Grouped: return {2, 6, 8, 8, 9, 3, 3, 1, 2, 1, 3, kind};
    case Kind::Depthwise: return {2, 4, 8, 8, 8, 3, 3, 1, 1, 2, 4, kind}; // channel multiplier 2
    }
    return {};
}

const char* entryOf(int dir, bool immediate)
{
    static const char* const names[2][3] = {
        {"miopenConvolutionForward", "miopenConvolutionBackwardData", "miopenConvolutionBackwardWeights"},
        {"miopenConvolutionForwardImmediate", "miopenConvolutionBackwardDataImmediate",
         "miopenConvolutionBackwardWeightsImmediate"}};
    return names[immediate ? 1 : 0][dir];
}

using ConvParam = std::tuple<Kind, bool /*immediate (torch.backends.miopen.immediate)*/>;

std::string convName(const ::testing::TestParamInfo<ConvParam>& info)
{
    const Kind k = std::get<0>(info.param);
    return std::string(k == Kind::Plain ? "Plain" : k == Kind::Grouped ? "Grouped" : "Depthwise") +
           (std::get<1>(info.param) ? "_Immediate" : "_Find");
}

class PyTorchConv : public PyTorchSequence, public ::testing::WithParamInterface<ConvParam>
{
};

TEST_P(PyTorchConv, ForwardBackwardDataBackwardWeights)
{
    const auto [kind, immediate] = GetParam();
    const ConvProblem p          = problemOf(kind);
    const int oh = static_cast<int>(ref::outputLength(static_cast<std::size_t>(p.h), static_cast<std::size_t>(p.r), p.pad, p.stride, p.dilation));
    const int ow = static_cast<int>(ref::outputLength(static_cast<std::size_t>(p.w), static_cast<std::size_t>(p.s), p.pad, p.stride, p.dilation));
    const std::vector<int> xDims{p.n, p.c, p.h, p.w}, wDims{p.k, p.c / p.groups, p.r, p.s}, yDims{p.n, p.k, oh, ow};

    test::Tensor xd, wd, yd;
    setTensor(xd, miopenFloat, xDims);
    setTensor(wd, miopenFloat, wDims);
    setTensor(yd, miopenFloat, yDims);
    test::Conv conv;
    const int pads[2] = {p.pad, p.pad}, strides[2] = {p.stride, p.stride}, dils[2] = {p.dilation, p.dilation};
    ASSERT_MIOPEN_OK(miopenInitConvolutionNdDescriptor(conv, 2, pads, strides, dils,
                                                       kind == Kind::Depthwise ? miopenDepthwise : miopenConvolution));
    ASSERT_MIOPEN_OK(miopenSetConvolutionGroupCount(conv, p.groups));
    ASSERT_MIOPEN_OK(miopenSetConvolutionAttribute(conv, MIOPEN_CONVOLUTION_ATTRIB_DETERMINISTIC, 0));
    if(!immediate)
    {
        ASSERT_MIOPEN_OK(miopenSetConvolutionFindMode(conv, miopenConvolutionFindModeNormal)); // benchmark=True
    }
    // The output shape PyTorch computed agrees with MIOpen's.
    int nd = 0, outDims[4] = {};
    ASSERT_MIOPEN_OK(miopenGetConvolutionNdForwardOutputDim(conv, xd, wd, &nd, outDims));
    ASSERT_EQ(4, nd);
    for(int i = 0; i < 4; ++i)
        ASSERT_EQ(yDims[static_cast<std::size_t>(i)], outDims[i]);

    std::mt19937 rng(1234u + static_cast<unsigned>(kind) * 7u + (immediate ? 1u : 0u));
    auto sizes = [](const std::vector<int>& d) { return std::vector<std::size_t>(d.begin(), d.end()); };
    const ref::Tensor xT{sizes(xDims), ref::packedStrides(sizes(xDims), "NCHW")};
    const ref::Tensor wT{sizes(wDims), ref::packedStrides(sizes(wDims), "NCHW")};
    const ref::Tensor yT{sizes(yDims), ref::packedStrides(sizes(yDims), "NCHW")};
    const auto hx = randomFloats(xT.elementCount(), rng), hw = randomFloats(wT.elementCount(), rng),
               hdy = randomFloats(yT.elementCount(), rng);
    DeviceBuffer x(hx), w(hw), dy(hdy), y(yT.elementCount() * sizeof(float)), dx(xT.elementCount() * sizeof(float)),
        dw(wT.elementCount() * sizeof(float));

    const ref::ConvParams cp{{p.pad, p.pad}, {p.stride, p.stride}, {p.dilation, p.dilation}, p.groups};
    const std::vector<double> X(hx.begin(), hx.end()), W(hw.begin(), hw.end()), DY(hdy.begin(), hdy.end());
    std::vector<double> Y(yT.elementCount()), DX(xT.elementCount()), DW(wT.elementCount());
    ref::forward(cp, xT, X.data(), wT, W.data(), yT, Y.data());
    ref::backwardData(cp, xT, DX.data(), wT, W.data(), yT, DY.data());
    ref::backwardWeights(cp, xT, X.data(), wT, DW.data(), yT, DY.data());

    const float alpha = 1.0f, beta = 0.0f;
    for(int dir = 0; dir < 3; ++dir)
    {
        SCOPED_TRACE(entryOf(dir, immediate));
        const DeviceBuffer& out            = dir == 0 ? y : dir == 1 ? dx : dw;
        const std::vector<double>& expect  = dir == 0 ? Y : dir == 1 ? DX : DW;
        const ref::Tensor& outT            = dir == 0 ? yT : dir == 1 ? xT : wT;
        const std::size_t reduction        = dir == 0   ? static_cast<std::size_t>(p.c / p.groups * p.r * p.s)
                                             : dir == 1 ? static_cast<std::size_t>(p.k / p.groups * p.r * p.s)
                                                        : static_cast<std::size_t>(p.n * oh * ow);
        // Every execute overwrites a poisoned output (0xFF bytes: NaN), then is checked against
        // the reference (fp32: the error bound grows with the reduction length).
        auto poison = [&] { ASSERT_HIP_OK(hipMemset(out.get(), 0xFF, outT.elementCount() * sizeof(float))); };
        auto verify = [&] {
            EXPECT_HIP_OK(hipStreamSynchronize(_stream));
            const auto gotF = out.download<float>();
            const std::vector<double> gotD(gotF.begin(), gotF.end());
            const double tol = 2e-6 * static_cast<double>(reduction) * std::max(1.0, ref::maxAbs(outT, expect));
            EXPECT_LE(ref::maxAbsDiff(outT, gotD, expect), tol);
        };
        miopenStatus_t st = miopenStatusSuccess;
        if(!immediate)
        {
            // Conv_miopen.cpp, default path: workspace size, then Find (one result, exhaustive)
            // unless the process-wide benchmark cache has the problem, then execute. Two calls:
            // the first finds and caches, the second takes the cached algorithm.
            static std::map<std::string, miopenConvAlgoPerf_t> benchmarkCache;
            const std::string key = convName(::testing::TestParamInfo<ConvParam>(GetParam(), 0)) + "/" + std::to_string(dir);
            for(int call = 0; call < 2; ++call)
            {
                SCOPED_TRACE("call " + std::to_string(call));
                miopenHandle_t h = handle(); // miopenSetStream before every use
                std::size_t wsSize = 0;
                switch(dir)
                {
                case 0: st = miopenConvolutionForwardGetWorkSpaceSize(h, wd, xd, conv, yd, &wsSize); break;
                case 1: st = miopenConvolutionBackwardDataGetWorkSpaceSize(h, yd, wd, conv, xd, &wsSize); break;
                default: st = miopenConvolutionBackwardWeightsGetWorkSpaceSize(h, yd, xd, conv, wd, &wsSize); break;
                }
                ASSERT_MIOPEN_OK(st);
                DeviceBuffer ws(wsSize);
                auto cached = benchmarkCache.find(key);
                if(call == 1)
                {
                    ASSERT_TRUE(cached != benchmarkCache.end()) << "the first call did not cache its Find result";
                }
                if(cached == benchmarkCache.end())
                {
                    miopenConvAlgoPerf_t perf;
                    int returned = 0;
                    switch(dir)
                    {
                    case 0:
                        st = miopenFindConvolutionForwardAlgorithm(h, xd, x.get(), wd, w.get(), conv, yd, y.get(), 1, &returned,
                                                                   &perf, ws.get(), wsSize, true);
                        break;
                    case 1:
                        st = miopenFindConvolutionBackwardDataAlgorithm(h, yd, dy.get(), wd, w.get(), conv, xd, dx.get(), 1,
                                                                        &returned, &perf, ws.get(), wsSize, true);
                        break;
                    default:
                        st = miopenFindConvolutionBackwardWeightsAlgorithm(h, yd, dy.get(), xd, x.get(), conv, wd, dw.get(), 1,
                                                                           &returned, &perf, ws.get(), wsSize, true);
                        break;
                    }
                    ASSERT_MIOPEN_OK(st);
                    ASSERT_EQ(1, returned);
                    EXPECT_LE(perf.memory, wsSize);
                    cached = benchmarkCache.emplace(key, perf).first;
                }
                const miopenConvAlgoPerf_t& perf = cached->second;
                poison();
                const test::route::Probe probe;
                switch(dir)
                {
                case 0:
                    st = miopenConvolutionForward(h, &alpha, xd, x.get(), wd, w.get(), conv, perf.fwd_algo, &beta, yd, y.get(),
                                                  ws.get(), wsSize);
                    break;
                case 1:
                    st = miopenConvolutionBackwardData(h, &alpha, yd, dy.get(), wd, w.get(), conv, perf.bwd_data_algo, &beta,
                                                       xd, dx.get(), ws.get(), wsSize);
                    break;
                default:
                    st = miopenConvolutionBackwardWeights(h, &alpha, yd, dy.get(), xd, x.get(), conv, perf.bwd_weights_algo,
                                                          &beta, wd, dw.get(), ws.get(), wsSize);
                    break;
                }
                ASSERT_MIOPEN_OK(st);
                EXPECT_TRUE(probe.check(entryOf(dir, false), test::route::Expected::forwarded()));
                verify();
            }
        }
        else
        {
            // torch.backends.miopen.immediate: up to 10 solutions, the first one, its workspace.
            miopenHandle_t h = handle(); // miopenSetStream before every use
            std::size_t count = 0;
            switch(dir)
            {
            case 0: st = miopenConvolutionForwardGetSolutionCount(h, wd, xd, conv, yd, &count); break;
            case 1: st = miopenConvolutionBackwardDataGetSolutionCount(h, yd, wd, conv, xd, &count); break;
            default: st = miopenConvolutionBackwardWeightsGetSolutionCount(h, yd, xd, conv, wd, &count); break;
            }
            ASSERT_MIOPEN_OK(st);
            ASSERT_GE(count, 1u);
            constexpr std::size_t kMaxSolutions = 10; // AT_MIOPEN_MAX_SOLUTIONS
            miopenConvSolution_t sols[kMaxSolutions];
            std::size_t got = 0;
            switch(dir)
            {
            case 0: st = miopenConvolutionForwardGetSolution(h, wd, xd, conv, yd, kMaxSolutions, &got, sols); break;
            case 1: st = miopenConvolutionBackwardDataGetSolution(h, yd, wd, conv, xd, kMaxSolutions, &got, sols); break;
            default: st = miopenConvolutionBackwardWeightsGetSolution(h, yd, xd, conv, wd, kMaxSolutions, &got, sols); break;
            }
            ASSERT_MIOPEN_OK(st);
            ASSERT_GE(got, 1u);
            ASSERT_LE(got, kMaxSolutions);
            const miopenConvSolution_t sol = sols[0];
            DeviceBuffer ws(sol.workspace_size);
            switch(dir)
            {
            case 0: st = miopenConvolutionForwardCompileSolution(h, wd, xd, conv, yd, sol.solution_id); break;
            case 1: st = miopenConvolutionBackwardDataCompileSolution(h, yd, wd, conv, xd, sol.solution_id); break;
            default: st = miopenConvolutionBackwardWeightsCompileSolution(h, yd, xd, conv, wd, sol.solution_id); break;
            }
            ASSERT_MIOPEN_OK(st);
            poison();
            const test::route::Probe probe;
            switch(dir)
            {
            case 0:
                st = miopenConvolutionForwardImmediate(h, wd, w.get(), xd, x.get(), conv, yd, y.get(), ws.get(),
                                                       sol.workspace_size, sol.solution_id);
                break;
            case 1:
                st = miopenConvolutionBackwardDataImmediate(h, yd, dy.get(), wd, w.get(), conv, xd, dx.get(), ws.get(),
                                                            sol.workspace_size, sol.solution_id);
                break;
            default:
                st = miopenConvolutionBackwardWeightsImmediate(h, yd, dy.get(), xd, x.get(), conv, wd, dw.get(), ws.get(),
                                                               sol.workspace_size, sol.solution_id);
                break;
            }
            ASSERT_MIOPEN_OK(st);
            EXPECT_TRUE(probe.check(entryOf(dir, true), test::route::Expected::forwarded()));
            verify();
        }
    }
}

INSTANTIATE_TEST_SUITE_P(Conv, PyTorchConv,
                         ::testing::Combine(::testing::Values(Kind::Plain, Kind::Grouped, Kind::Depthwise),
                                            ::testing::Bool()),
                         convName);

// ---- miopen_convolution_relu: conv + bias + ReLU fusion plan -------------------------------------

TEST_F(PyTorchSequence, ConvolutionBiasReluFusionPlan)
{
    const int n = 2, c = 4, hgt = 8, wid = 8, k = 6, r = 3, s = 3;
    test::Tensor xd, wd, bd, yd;
    setTensor(xd, miopenFloat, {n, c, hgt, wid});
    setTensor(wd, miopenFloat, {k, c, r, s});
    setTensor(bd, miopenFloat, {1, k, 1, 1});
    setTensor(yd, miopenFloat, {n, k, hgt, wid});
    test::Conv conv;
    const int pads[2] = {1, 1}, strides[2] = {1, 1}, dils[2] = {1, 1};
    ASSERT_MIOPEN_OK(miopenInitConvolutionNdDescriptor(conv, 2, pads, strides, dils, miopenConvolution));
    ASSERT_MIOPEN_OK(miopenSetConvolutionGroupCount(conv, 1));

    std::mt19937 rng(99u);
    const ref::Tensor xT{{2, 4, 8, 8}, ref::packedStrides({2, 4, 8, 8}, "NCHW")};
    const ref::Tensor wT{{6, 4, 3, 3}, ref::packedStrides({6, 4, 3, 3}, "NCHW")};
    const ref::Tensor yT{{2, 6, 8, 8}, ref::packedStrides({2, 6, 8, 8}, "NCHW")};
    const auto hx = randomFloats(xT.elementCount(), rng), hw = randomFloats(wT.elementCount(), rng),
               hb = randomFloats(static_cast<std::size_t>(k), rng);
    DeviceBuffer x(hx), w(hw), b(hb), y(yT.elementCount() * sizeof(float));

    miopenHandle_t h = handle();
    const long eventsBefore = routeEvents();
    miopenFusionPlanDescriptor_t plan = nullptr;
    miopenFusionOpDescriptor_t convOp = nullptr, biasOp = nullptr, activOp = nullptr;
    ASSERT_MIOPEN_OK(miopenCreateFusionPlan(&plan, miopenVerticalFusion, xd));
    ASSERT_MIOPEN_OK(miopenCreateOpConvForward(plan, &convOp, conv, wd));
    ASSERT_MIOPEN_OK(miopenCreateOpBiasForward(plan, &biasOp, bd));
    ASSERT_MIOPEN_OK(miopenCreateOpActivationForward(plan, &activOp, miopenActivationRELU));
    ASSERT_MIOPEN_OK(miopenCompileFusionPlan(h, plan));
    miopenOperatorArgs_t args = nullptr;
    ASSERT_MIOPEN_OK(miopenCreateOperatorArgs(&args));
    const float alpha = 1.0f, beta = 0.0f;
    ASSERT_MIOPEN_OK(miopenSetOpArgsConvForward(args, convOp, &alpha, &beta, w.get()));
    ASSERT_MIOPEN_OK(miopenSetOpArgsBiasForward(args, biasOp, &alpha, &beta, b.get()));
    ASSERT_MIOPEN_OK(miopenSetOpArgsActivForward(args, activOp, &alpha, &beta, 0.0, 0.0, 0.0));
    // Only the execution is in the forwarding set (family "fusion"): building the plan and its
    // arguments is never routed or counted.
    EXPECT_EQ(eventsBefore, routeEvents()) << "a fusion plan building call was routed (outside the forwarding set)";
    // PyTorch leaves this status unchecked; the test checks it. Forwarded as one hipDNN graph.
    const test::route::Probe probe;
    EXPECT_MIOPEN_OK(miopenExecuteFusionPlan(h, plan, xd, x.get(), yd, y.get(), args));
    EXPECT_TRUE(probe.check("miopenExecuteFusionPlan", test::route::Expected::forwarded()));
    const long eventsAfter = routeEvents();
    EXPECT_MIOPEN_OK(miopenDestroyFusionPlan(plan));
    // PyTorch never destroys the operator args (it leaks them); the test does not leak.
    EXPECT_MIOPEN_OK(miopenDestroyOperatorArgs(args));
    EXPECT_EQ(eventsAfter, routeEvents()) << "destroying a fusion plan or its arguments was routed";
    EXPECT_HIP_OK(hipStreamSynchronize(_stream));

    const ref::ConvParams cp{{1, 1}, {1, 1}, {1, 1}, 1};
    const std::vector<double> X(hx.begin(), hx.end()), W(hw.begin(), hw.end());
    std::vector<double> Y(yT.elementCount());
    ref::forward(cp, xT, X.data(), wT, W.data(), yT, Y.data());
    for(std::size_t i = 0; i < Y.size(); ++i)
        Y[i] = std::max(0.0, Y[i] + hb[(i / static_cast<std::size_t>(hgt * wid)) % static_cast<std::size_t>(k)]);
    const auto gotF = y.download<float>();
    const std::vector<double> got(gotF.begin(), gotF.end());
    EXPECT_LE(ref::maxAbsDiff(yT, got, Y), 1e-4 * std::max(1.0, ref::maxAbs(yT, Y)));
}

// ---- BatchNorm_miopen.cpp: V1 with fp16 data and fp32 parameters --------------------------------

using BnParam = std::tuple<int /*input rank: 4 (Spatial) or 2 (PerActivation)*/, bool /*running stats*/>;

class PyTorchBatchNorm : public PyTorchSequence, public ::testing::WithParamInterface<BnParam>
{
};

TEST_P(PyTorchBatchNorm, TrainingInferenceBackwardFp16DataFp32Params)
{
    const auto [rank, runningStats] = GetParam();
    // The mode is PerActivation for 2-D input and Spatial otherwise; one descriptor (padded to 4-D)
    // serves x/y/dy/dx, one the (1, C, 1, 1) parameters.
    const miopenBatchNormMode_t mode = rank == 2 ? miopenBNPerActivation : miopenBNSpatial;
    const std::vector<int> dims = rank == 2 ? std::vector<int>{6, 5} : std::vector<int>{3, 4, 5, 6};
    const std::int64_t n = dims[0], c = dims[1], sp = rank == 2 ? 1 : dims[2] * dims[3];
    const std::size_t count = static_cast<std::size_t>(n * c * sp);
    test::Tensor xd, bnd;
    setTensor(xd, miopenHalf, dims);
    setTensor(bnd, miopenFloat, {1, static_cast<int>(c), 1, 1});

    std::mt19937 rng(4321u + static_cast<unsigned>(rank) + (runningStats ? 10u : 0u));
    std::vector<std::uint16_t> hx(count), hdy(count);
    test::fillRandom(miopenHalf, hx.data(), count, rng);
    test::fillRandom(miopenHalf, hdy.data(), count, rng);
    std::vector<float> scale(static_cast<std::size_t>(c)), bias(scale.size()), runMean(scale.size()), runVar(scale.size());
    std::uniform_real_distribution<float> u(0.5f, 1.5f), v(-0.5f, 0.5f);
    for(std::size_t i = 0; i < scale.size(); ++i)
    {
        scale[i] = u(rng);
        bias[i] = v(rng);
        runMean[i] = v(rng);
        runVar[i] = u(rng);
    }
    DeviceBuffer x(hx), dy(hdy), y(count * 2), yi(count * 2), dx(count * 2), w(scale), b(bias), rm(runMean), rv(runVar),
        saveMean(scale.size() * 4), saveInv(scale.size() * 4), dw(scale.size() * 4), db(scale.size() * 4);
    const double eps = 1e-5, momentum = 0.1;
    float one = 1.0f, zero = 0.0f;

    miopenHandle_t h = handle();
    // The batchnorm family is forwarded in Spatial mode; PerActivation is declined (docs/wrapper.md).
    const auto route = mode == miopenBNSpatial ? test::route::Expected::forwarded()
                                               : test::route::Expected::declined("per-activation-mode");
    const test::route::Probe trainProbe;
    ASSERT_MIOPEN_OK(miopenBatchNormalizationForwardTraining(h, mode, &one, &zero, xd, x.get(), xd, y.get(), bnd, w.get(), b.get(),
                                                             momentum, runningStats ? rm.get() : nullptr,
                                                             runningStats ? rv.get() : nullptr, eps, saveMean.get(),
                                                             saveInv.get()));
    EXPECT_TRUE(trainProbe.check("miopenBatchNormalizationForwardTraining", route));
    const test::route::Probe inferProbe;
    ASSERT_MIOPEN_OK(miopenBatchNormalizationForwardInference(h, mode, &one, &zero, xd, x.get(), xd, yi.get(), bnd, w.get(),
                                                              b.get(), rm.get(), rv.get(), eps));
    EXPECT_TRUE(inferProbe.check("miopenBatchNormalizationForwardInference", route));
    const test::route::Probe backProbe;
    ASSERT_MIOPEN_OK(miopenBatchNormalizationBackward(h, mode, &one, &zero, &one, &zero, xd, x.get(), xd, dy.get(), xd,
                                                      dx.get(), bnd, w.get(), dw.get(), db.get(), eps, saveMean.get(),
                                                      saveInv.get()));
    EXPECT_TRUE(backProbe.check("miopenBatchNormalizationBackward", route));
    EXPECT_HIP_OK(hipStreamSynchronize(_stream));

    // The test SDK's reference over (N, F, S) data and (1, F, 1) parameters, in double.
    const std::int64_t f = c; // PerActivation here has S = 1, so F = C in both modes
    const std::vector<std::int64_t> dd{n, f, sp}, ds{f * sp, sp, 1};
    auto data  = [&](std::vector<double>& d) { return TensorView<double>(d.data(), dd, ds); };
    auto cdata = [&](const std::vector<double>& d) { return TensorView<const double>(d.data(), dd, ds); };
    auto param  = [&](std::vector<double>& d) { return TensorView<double>(d.data(), {1, f, 1}, {f, 1, 1}); };
    auto cparam = [&](const std::vector<double>& d) { return TensorView<const double>(d.data(), {1, f, 1}, {f, 1, 1}); };
    const auto X = ref::toDouble(miopenHalf, hx.data(), count), DY = ref::toDouble(miopenHalf, hdy.data(), count);
    const std::vector<double> sc(scale.begin(), scale.end()), bi(bias.begin(), bias.end()), rm0(runMean.begin(), runMean.end()),
        rv0(runVar.begin(), runVar.end());
    std::vector<double> yRef(count), smRef(sc.size()), sivRef(sc.size()), rmRef(sc.size()), rvRef(sc.size());
    CpuFpReferenceBatchnorm::training<double, double, double>(cdata(X), cparam(sc), cparam(bi), eps, data(yRef), param(smRef),
                                                             param(sivRef), cparam(rm0), cparam(rv0), momentum,
                                                             param(rmRef), param(rvRef));
    // Inference uses the running statistics as they are after training (unchanged without them).
    const std::vector<double>& usedMean = runningStats ? rmRef : rm0;
    const std::vector<double>& usedVar  = runningStats ? rvRef : rv0;
    std::vector<double> invRef(sc.size()), yiRef(count);
    for(std::size_t i = 0; i < invRef.size(); ++i)
        invRef[i] = 1.0 / std::sqrt(usedVar[i] + eps);
    CpuFpReferenceBatchnorm::inference<double, double, double>(cdata(X), cparam(usedMean), cparam(invRef), cparam(sc),
                                                              cparam(bi), data(yiRef));
    std::vector<double> dxRef(count), dsRef(sc.size()), dbRef(sc.size());
    CpuFpReferenceBatchnorm::backward<double, double, double>(cdata(DY), cdata(X), cparam(smRef), cparam(sivRef), cparam(sc),
                                                             data(dxRef), param(dsRef), param(dbRef));

    auto worst = [](const std::vector<double>& got, const std::vector<double>& want) {
        double e = 0.0;
        for(std::size_t i = 0; i < got.size(); ++i)
            e = std::max(e, std::fabs(got[i] - want[i]) / std::max(1.0, std::fabs(want[i])));
        return e;
    };
    auto halves = [&](const DeviceBuffer& d) {
        const auto bits = d.download<std::uint16_t>();
        return ref::toDouble(miopenHalf, bits.data(), bits.size());
    };
    auto floats = [](const DeviceBuffer& d) {
        const auto values = d.download<float>();
        return std::vector<double>(values.begin(), values.end());
    };
    const double halfTol = 3e-3, reduction = static_cast<double>(n * sp);
    EXPECT_LE(worst(halves(y), yRef), halfTol) << "training y";
    EXPECT_LE(worst(floats(saveMean), smRef), 1e-5) << "saved mean";
    EXPECT_LE(worst(floats(saveInv), sivRef), 1e-4) << "saved inverse std";
    EXPECT_LE(worst(floats(rm), usedMean), 1e-5) << "running mean";
    EXPECT_LE(worst(floats(rv), usedVar), 1e-4) << "running variance";
    EXPECT_LE(worst(halves(yi), yiRef), halfTol) << "inference y";
    EXPECT_LE(worst(halves(dx), dxRef), 4 * halfTol) << "dx";
    EXPECT_LE(worst(floats(dw), dsRef), 1e-4 * reduction) << "dscale";
    EXPECT_LE(worst(floats(db), dbRef), 1e-5 * reduction) << "dbias";
}

std::string bnName(const ::testing::TestParamInfo<BnParam>& info)
{
    return std::string(std::get<0>(info.param) == 2 ? "PerActivation2D" : "Spatial4D") +
           (std::get<1>(info.param) ? "_RunningStats" : "_NoRunningStats");
}

INSTANTIATE_TEST_SUITE_P(BatchNorm, PyTorchBatchNorm, ::testing::Combine(::testing::Values(4, 2), ::testing::Bool()), bnName);

} // namespace
