// MIOpenDriver conv / convfp16 / convbfp16: forward, backward data and backward weights of a
// 2-D or 3-D (grouped, dilated, transposed) convolution through Find or immediate mode, checked
// against the test SDK's CpuFpReferenceConvolution.
#include "Driver.hpp"

#include <hipdnn_test_sdk/utilities/CpuFpReferenceConvolution.hpp>
#include <hipdnn_test_sdk/utilities/TestTolerances.hpp>

#include <cstdio>
#include <iostream>
#include <numeric>

namespace miopen_driver
{
namespace
{

namespace tsu = hipdnn_test_sdk::utilities;

constexpr int kFailVerifyFwd = 0x10;
constexpr int kFailVerifyBwd = 0x20;
constexpr int kFailVerifyWrw = 0x40;

void addConvFlags(InputFlags& f)
{
    f.add("forw", 'F', "0", "Flag enables fwd, bwd, wrw convolutions (0 all, 1 fwd, 2 bwd data, 4 bwd weights, sums)");
    f.add("batchsize", 'n', "100", "Mini-batch size");
    f.add("in_channels", 'c', "3", "Number of Input Channels");
    f.add("in_d", '!', "32", "Input Depth (3-D only)");
    f.add("in_h", 'H', "32", "Input Height");
    f.add("in_w", 'W', "32", "Input Width");
    f.add("in_layout", 'I', "", "Input Layout (NCHW, NHWC, NCDHW, NDHWC; default packed NC(D)HW)");
    f.add("out_layout", 'O', "", "Output Layout (as in_layout)");
    f.add("fil_layout", 'f', "", "Filter Layout (as in_layout)");
    f.add("out_channels", 'k', "32", "Number of Output Channels");
    f.add("fil_d", '@', "3", "Filter Depth (3-D only)");
    f.add("fil_h", 'y', "3", "Filter Height");
    f.add("fil_w", 'x', "3", "Filter Width");
    f.add("conv_stride_d", '#', "1", "Convolution Stride for Depth");
    f.add("conv_stride_h", 'u', "1", "Convolution Stride for Height");
    f.add("conv_stride_w", 'v', "1", "Convolution Stride for Width");
    f.add("pad_d", '$', "0", "Zero Padding for Depth");
    f.add("pad_h", 'p', "0", "Zero Padding for Height");
    f.add("pad_w", 'q', "0", "Zero Padding for Width");
    f.add("pad_mode", 'z', "default", "Padding Mode (same, valid, default)");
    f.add("dilation_d", '^', "1", "Dilation of Filter Depth");
    f.add("dilation_h", 'l', "1", "Dilation of Filter Height");
    f.add("dilation_w", 'j', "1", "Dilation of Filter Width");
    f.add("trans_output_pad_d", '%', "0", "Zero Padding Output for Depth (transpose mode)");
    f.add("trans_output_pad_h", 'Y', "0", "Zero Padding Output for Height (transpose mode)");
    f.add("trans_output_pad_w", 'X', "0", "Zero Padding Output for Width (transpose mode)");
    f.add("group_count", 'g', "1", "Number of Groups");
    f.add("mode", 'm', "conv", "Convolution Mode (conv, trans)");
    f.add("spatial_dim", '_', "2", "convolution spatial dimension (2 or 3)");
    f.add("iter", 'i', "10", "Number of Iterations (times averaged over iterations 2..N)");
    f.add("verify", 'V', "1", "Verify Each Layer");
    f.add("time", 't', "0", "Time Each Layer (kernel time, wall-clock time, stats lines)");
    f.add("wall", 'w', "0", "Wall-clock Time Each Layer");
    f.add("search", 's', "0", "Search Kernel Config (exhaustive Find)");
    f.add("solution", 'S', "-1",
          "Use immediate mode, run solution with given id (<0: Find API, 0: first/fastest solution)");
}

struct ConvShape
{
    int spatialDim = 2;
    bool transpose = false;
    int groups     = 1;
    std::vector<int64_t> xDims, wDims, yDims, xStrides, wStrides, yStrides;
    std::vector<int> pads, strides, dilations, adjs;
    int64_t filterVolume() const
    {
        return std::accumulate(wDims.begin() + 2, wDims.end(), int64_t{1}, std::multiplies<int64_t>());
    }
    static int64_t spatialVolume(const std::vector<int64_t>& dims)
    {
        return std::accumulate(dims.begin() + 2, dims.end(), int64_t{1}, std::multiplies<int64_t>());
    }
    /// 2 * multiply-adds of one pass (the same for the three directions).
    double flops() const
    {
        const auto& small = transpose ? xDims : yDims; // the normal convolution's output
        const double w = static_cast<double>(
            std::accumulate(wDims.begin(), wDims.end(), int64_t{1}, std::multiplies<int64_t>()));
        return 2.0 * w * static_cast<double>(small[0]) * static_cast<double>(spatialVolume(small));
    }
};

template <typename T>
double bytesOf(const std::vector<int64_t>& dims)
{
    return static_cast<double>(hipdnn_data_sdk::utilities::elementCount(dims)) * sizeof(T);
}

// upstream's `stats:` lines: name, n, c, (do,) ho, wo, (z,) y, x, k, flopCnt, bytesRead,
// bytesWritten, GFLOPs, GB/s, timeMs.
void printStats(const char* dir, const ConvShape& s, double readBytes, double writtenBytes, float ms)
{
    const auto& x  = s.xDims;
    const auto& y  = s.yDims;
    const auto& w  = s.wDims;
    const double f = s.flops();
    const double gflops = ms > 0.f ? f / ms / 1e6 : 0.0;
    const double gbs    = ms > 0.f ? (readBytes + writtenBytes) / ms / 1e6 : 0.0;
    if(s.spatialDim == 2)
    {
        std::printf("stats: name, n, c, ho, wo, x, y, k, flopCnt, bytesRead, bytesWritten, GFLOPs, GB/s, timeMs\n");
        std::printf("stats: %s%lldx%lldu%d, %lld, %lld, %lld, %lld, %lld, %lld, %lld,  %.0f, %.0f, %.0f, %.0f, %.0f, %f\n",
                    dir, static_cast<long long>(w[2]), static_cast<long long>(w[3]), s.strides[0],
                    static_cast<long long>(x[0]), static_cast<long long>(x[1]), static_cast<long long>(y[2]),
                    static_cast<long long>(y[3]), static_cast<long long>(w[2]), static_cast<long long>(w[3]),
                    static_cast<long long>(y[1]), f, readBytes, writtenBytes, gflops, gbs, static_cast<double>(ms));
    }
    else
    {
        std::printf("stats: name  , n, c, do, ho, wo, z, y, x, k, flopCnt, bytesRead, bytesWritten, GFLOPs, GB/s, timeMs\n");
        std::printf("stats: %s%lldx%lldx%lldu%d, %lld, %lld, %lld, %lld, %lld, %lld, %lld, %lld, %lld,  %.0f, %.0f, %.0f, "
                    "%.0f, %.0f, %f\n",
                    dir, static_cast<long long>(w[2]), static_cast<long long>(w[3]), static_cast<long long>(w[4]),
                    s.strides[0], static_cast<long long>(x[0]), static_cast<long long>(x[1]),
                    static_cast<long long>(y[2]), static_cast<long long>(y[3]), static_cast<long long>(y[4]),
                    static_cast<long long>(w[2]), static_cast<long long>(w[3]), static_cast<long long>(w[4]),
                    static_cast<long long>(y[1]), f, readBytes, writtenBytes, gflops, gbs, static_cast<double>(ms));
    }
}

class ConvDescriptor
{
public:
    ConvDescriptor() { MIOPEN_DRIVER_CHECK(miopenCreateConvolutionDescriptor(&_desc)); }
    ~ConvDescriptor() { miopenDestroyConvolutionDescriptor(_desc); }
    ConvDescriptor(const ConvDescriptor&)            = delete;
    ConvDescriptor& operator=(const ConvDescriptor&) = delete;
    miopenConvolutionDescriptor_t get() const { return _desc; }

private:
    miopenConvolutionDescriptor_t _desc = nullptr;
};

// One direction's calls, as function objects over the same descriptors and buffers.
struct DirectionCalls
{
    const char* label;      // "Forward Conv", "Backward Data Conv", "Backward Weights Conv"
    const char* statsName;  // "fwd-conv", "bwdd-conv", "bwdw-conv"
    std::function<miopenStatus_t(size_t*)> solutionCount;
    std::function<miopenStatus_t(size_t, size_t*, miopenConvSolution_t*)> solutions;
    std::function<miopenStatus_t(uint64_t, size_t*)> solutionWorkspace;
    std::function<miopenStatus_t(uint64_t)> compile;
    std::function<miopenStatus_t(void*, size_t, uint64_t)> immediate;
    std::function<miopenStatus_t(size_t*)> workspaceSize;
    std::function<miopenStatus_t(miopenConvAlgoPerf_t*, int*, void*, size_t, bool)> find;
    std::function<int(const miopenConvAlgoPerf_t&)> algoOf;
    std::function<miopenStatus_t(int, void*, size_t)> execute;
    double readBytes;
    double writtenBytes;
};

void runDirection(const Handle& handle, const InputFlags& f, const ConvShape& shape, const DirectionCalls& d)
{
    const bool time    = f.integer("time") == 1;
    const bool wall    = time || f.integer("wall") == 1;
    const int iters    = f.integer("iter");
    const long long id = f.integer64("solution");
    std::vector<unsigned char> workspace;
    TimingResult timing;
    int algo         = -1;
    uint64_t solution = 0;
    if(id >= 0)
    {
        size_t count = 0;
        MIOPEN_DRIVER_CHECK(d.solutionCount(&count));
        std::vector<miopenConvSolution_t> list(count);
        if(count > 0)
            MIOPEN_DRIVER_CHECK(d.solutions(count, &count, list.data()));
        list.resize(count);
        std::cout << d.label << " solutions available: " << count << std::endl;
        if(count < 1)
            throw DriverError(std::string(d.label) + ": no solution applies (miopenStatusNotImplemented)");
        const miopenConvSolution_t* selected = nullptr;
        for(const auto& s : list)
        {
            std::cout << "- id: " << s.solution_id << " algo: " << s.algorithm << ", time: " << s.time
                      << " ms, ws: " << s.workspace_size << std::endl;
            if(selected == nullptr && (id == 0 || s.solution_id == static_cast<uint64_t>(id)))
                selected = &s;
        }
        solution = static_cast<uint64_t>(id);
        if(selected == nullptr)
            std::cout << "Warning: Solution id (" << id << ") is not reported by the library. Trying it anyway..."
                      << std::endl;
        else
        {
            solution = selected->solution_id;
            algo     = selected->algorithm;
        }
        size_t wsSize = 0;
        MIOPEN_DRIVER_CHECK(d.solutionWorkspace(solution, &wsSize));
        workspace.resize(wsSize);
        MIOPEN_DRIVER_CHECK(d.compile(solution));
        timing = timeLoop(handle, iters, time,
                          [&] { return d.immediate(workspace.empty() ? nullptr : workspace.data(), wsSize, solution); },
                          d.label);
    }
    else
    {
        size_t wsSize = 0;
        MIOPEN_DRIVER_CHECK(d.workspaceSize(&wsSize));
        workspace.resize(wsSize);
        miopenConvAlgoPerf_t perf[4] = {};
        int returned                 = 0;
        MIOPEN_DRIVER_CHECK(d.find(perf, &returned, workspace.empty() ? nullptr : workspace.data(), wsSize,
                                   f.integer("search") == 1));
        if(returned < 1)
            throw DriverError(std::string(d.label) + ": Find returned no algorithm");
        algo = d.algoOf(perf[0]);
        if(perf[0].memory > wsSize)
            throw DriverError(std::string(d.label) + ": Find returns a bigger workspace than provided");
        timing = timeLoop(handle, iters, time,
                          [&] { return d.execute(algo, workspace.empty() ? nullptr : workspace.data(), wsSize); },
                          d.label);
        // The solution Find chose: the first immediate-mode solution of that algorithm.
        size_t count = 0;
        if(d.solutionCount(&count) == miopenStatusSuccess && count > 0)
        {
            std::vector<miopenConvSolution_t> list(count);
            if(d.solutions(count, &count, list.data()) == miopenStatusSuccess)
                for(size_t i = 0; i < count; ++i)
                    if(list[i].algorithm == algo)
                    {
                        solution = list[i].solution_id;
                        break;
                    }
        }
    }
    if(wall)
        std::printf("Wall-clock Time %s. Elapsed: %f ms\n", d.label, timing.wallAverageMs());
    if(time)
    {
        std::cout << "MIOpen " << d.label << ". Algorithm: " << algo << ", Solution: " << solution;
        if(solution == 0)
            std::cout << "/UNKNOWN";
        std::cout << std::endl;
        const float ms = timing.kernelAverageMs();
        std::printf("GPU Kernel Time %s. Elapsed: %f ms (average)\n", d.label, static_cast<double>(ms));
        printStats(d.statsName, shape, d.readBytes, d.writtenBytes, ms);
    }
}

// -z same|valid: the driver computes the pads itself, as upstream's does.
void readPadMode(const InputFlags& f, ConvShape& s, const std::vector<int64_t>& inSpatial,
                 const std::vector<int64_t>& filSpatial)
{
    const std::string mode = f.str("pad_mode");
    if(mode == "default")
        return;
    if(mode != "same" && mode != "valid")
        throw DriverError("Incorrect Padding Mode: " + mode);
    for(std::size_t i = 0; i < s.pads.size(); ++i)
    {
        if(mode == "valid")
        {
            s.pads[i] = 0;
            continue;
        }
        const int64_t st  = s.strides[i];
        const int64_t rem = inSpatial[i] % st;
        const int64_t p   = rem == 0 ? std::max<int64_t>(filSpatial[i] - st, 0) : std::max<int64_t>(filSpatial[i] - rem, 0);
        s.pads[i]         = static_cast<int>(p / 2);
    }
}

template <typename T>
int runTyped(const InputFlags& f)
{
    constexpr miopenDataType_t kType = TypeInfo<T>::kType;
    ConvShape s;
    s.spatialDim = f.integer("spatial_dim");
    if(s.spatialDim != 2 && s.spatialDim != 3)
        throw DriverError("--spatial_dim must be 2 or 3");
    const std::string modeName = f.str("mode");
    if(modeName != "conv" && modeName != "trans")
        throw DriverError("Incorrect Convolution Mode: " + modeName);
    s.transpose = modeName == "trans";
    s.groups    = f.integer("group_count");
    if(s.groups < 1)
        throw DriverError("--group_count must be >= 1");
    const int forw = f.integer("forw");
    if(forw < 0 || forw > 7)
        throw DriverError("--forw must be 0..7");

    const bool is3d = s.spatialDim == 3;
    auto pick = [&](const char* d, const char* h, const char* w) {
        std::vector<int> v;
        if(is3d)
            v.push_back(f.integer(d));
        v.push_back(f.integer(h));
        v.push_back(f.integer(w));
        return v;
    };
    const auto inSp  = pick("in_d", "in_h", "in_w");
    const auto filSp = pick("fil_d", "fil_h", "fil_w");
    s.pads           = pick("pad_d", "pad_h", "pad_w");
    s.strides        = pick("conv_stride_d", "conv_stride_h", "conv_stride_w");
    s.dilations      = pick("dilation_d", "dilation_h", "dilation_w");
    s.adjs           = pick("trans_output_pad_d", "trans_output_pad_h", "trans_output_pad_w");
    readPadMode(f, s, std::vector<int64_t>(inSp.begin(), inSp.end()), std::vector<int64_t>(filSp.begin(), filSp.end()));

    const int64_t n = f.integer("batchsize"), c = f.integer("in_channels"), k = f.integer("out_channels");
    if(c % s.groups != 0 || k % s.groups != 0)
        throw DriverError("group_count must divide in_channels and out_channels");
    s.xDims = {n, c};
    s.wDims = s.transpose ? std::vector<int64_t>{c, k / s.groups} : std::vector<int64_t>{k, c / s.groups};
    for(std::size_t i = 0; i < inSp.size(); ++i)
    {
        s.xDims.push_back(inSp[i]);
        s.wDims.push_back(filSp[i]);
    }

    Handle handle;
    if(f.integer("time") == 1)
        MIOPEN_DRIVER_CHECK(miopenEnableProfiling(handle.get(), true));
    ConvDescriptor conv;
    MIOPEN_DRIVER_CHECK(miopenInitConvolutionNdDescriptor(conv.get(), s.spatialDim, s.pads.data(), s.strides.data(),
                                                          s.dilations.data(),
                                                          s.transpose ? miopenTranspose : miopenConvolution));
    if(s.groups > 1)
        MIOPEN_DRIVER_CHECK(miopenSetConvolutionGroupCount(conv.get(), s.groups));
    if(s.transpose && std::any_of(s.adjs.begin(), s.adjs.end(), [](int a) { return a != 0; }))
        MIOPEN_DRIVER_CHECK(miopenSetTransposeConvNdOutputPadding(conv.get(), s.spatialDim, s.adjs.data()));

    s.xStrides = layoutStrides(s.xDims, f.str("in_layout"));
    s.wStrides = layoutStrides(s.wDims, f.str("fil_layout"));
    TensorDesc xDesc, wDesc, yDesc;
    xDesc.set(kType, s.xDims, s.xStrides);
    wDesc.set(kType, s.wDims, s.wStrides);
    int outRank = 0;
    std::vector<int> yd(static_cast<std::size_t>(s.spatialDim + 2));
    MIOPEN_DRIVER_CHECK(miopenGetConvolutionNdForwardOutputDim(conv.get(), xDesc.get(), wDesc.get(), &outRank, yd.data()));
    s.yDims.assign(yd.begin(), yd.begin() + outRank);
    s.yStrides = layoutStrides(s.yDims, f.str("out_layout"));
    yDesc.set(kType, s.yDims, s.yStrides);

    Tensor<T> x(s.xDims, s.xStrides), w(s.wDims, s.wStrides), y(s.yDims, s.yStrides);
    Tensor<T> dy(s.yDims, s.yStrides), dx(s.xDims, s.xStrides), dw(s.wDims, s.wStrides);
    fillUniform(x, -1.f, 1.f, 11);
    fillUniform(w, -0.5f, 0.5f, 12);
    fillUniform(dy, -1.f, 1.f, 13);

    const bool doFwd = forw == 0 || (forw & 1) != 0;
    const bool doBwd = forw == 0 || (forw & 2) != 0;
    const bool doWrw = forw == 0 || (forw & 4) != 0;
    const bool verify = f.integer("verify") == 1;
    const miopenHandle_t h = handle.get();
    const float alpha = 1.f, beta = 0.f;
    int rc = 0;

    // Reference convolution geometry (the normal convolution's: for a transposed one the roles of
    // x and y swap).
    tsu::ConvolutionParams p;
    for(std::size_t i = 0; i < s.pads.size(); ++i)
    {
        p.prePadding.push_back(s.pads[i]);
        p.postPadding.push_back(s.pads[i]);
        p.stride.push_back(s.strides[i]);
        p.dilation.push_back(s.dilations[i]);
    }
    const int64_t fv = s.filterVolume();
    const int64_t redFprop = s.wDims[1] * fv, redDgrad = s.wDims[0] / s.groups * fv;

    if(doFwd)
    {
        DirectionCalls d;
        d.label     = "Forward Conv";
        d.statsName = "fwd-conv";
        d.solutionCount = [&](size_t* cnt) {
            return miopenConvolutionForwardGetSolutionCount(h, wDesc.get(), xDesc.get(), conv.get(), yDesc.get(), cnt);
        };
        d.solutions = [&](size_t mx, size_t* cnt, miopenConvSolution_t* out) {
            return miopenConvolutionForwardGetSolution(h, wDesc.get(), xDesc.get(), conv.get(), yDesc.get(), mx, cnt, out);
        };
        d.solutionWorkspace = [&](uint64_t id, size_t* ws) {
            return miopenConvolutionForwardGetSolutionWorkspaceSize(h, wDesc.get(), xDesc.get(), conv.get(), yDesc.get(),
                                                                    id, ws);
        };
        d.compile = [&](uint64_t id) {
            return miopenConvolutionForwardCompileSolution(h, wDesc.get(), xDesc.get(), conv.get(), yDesc.get(), id);
        };
        d.immediate = [&](void* ws, size_t wsSize, uint64_t id) {
            return miopenConvolutionForwardImmediate(h, wDesc.get(), w.data(), xDesc.get(), x.data(), conv.get(),
                                                     yDesc.get(), y.data(), ws, wsSize, id);
        };
        d.workspaceSize = [&](size_t* ws) {
            return miopenConvolutionForwardGetWorkSpaceSize(h, wDesc.get(), xDesc.get(), conv.get(), yDesc.get(), ws);
        };
        d.find = [&](miopenConvAlgoPerf_t* perf, int* ret, void* ws, size_t wsSize, bool exhaustive) {
            return miopenFindConvolutionForwardAlgorithm(h, xDesc.get(), x.data(), wDesc.get(), w.data(), conv.get(),
                                                         yDesc.get(), y.data(), 4, ret, perf, ws, wsSize, exhaustive);
        };
        d.algoOf  = [](const miopenConvAlgoPerf_t& pr) { return static_cast<int>(pr.fwd_algo); };
        d.execute = [&](int a, void* ws, size_t wsSize) {
            return miopenConvolutionForward(h, &alpha, xDesc.get(), x.data(), wDesc.get(), w.data(), conv.get(),
                                            static_cast<miopenConvFwdAlgorithm_t>(a), &beta, yDesc.get(), y.data(), ws,
                                            wsSize);
        };
        d.readBytes    = bytesOf<T>(s.xDims) + bytesOf<T>(s.wDims);
        d.writtenBytes = bytesOf<T>(s.yDims);
        runDirection(handle, f, s, d);
        if(verify)
        {
            Tensor<T> ref(s.yDims);
            double atol;
            if(s.transpose)
            {
                tsu::CpuFpReferenceConvolution::dgrad<T, T, T>(x.view(), w.view(), ref.view(), p);
                atol = tsu::calculateConvDgradTolerance<T, T>(maxAbs(x), maxAbs(w), redDgrad);
            }
            else
            {
                tsu::CpuFpReferenceConvolution::fprop<T, T, T>(x.view(), w.view(), ref.view(), p);
                atol = tsu::calculateConvFpropTolerance<T, T>(maxAbs(x), maxAbs(w), redFprop);
            }
            maybeCorrupt(y.data(), static_cast<std::size_t>(y.sizeBytes() / sizeof(T)));
            atol = std::max(atol, tsu::conv::getToleranceFwd<T>());
            rc |= reportVerdict("Forward Convolution",
                                compareWithReference<T>(ref.view(), y.view(), atol, tsu::conv::getRelativeToleranceFwd<T>()),
                                kFailVerifyFwd);
        }
    }
    if(doBwd)
    {
        DirectionCalls d;
        d.label     = "Backward Data Conv";
        d.statsName = "bwdd-conv";
        d.solutionCount = [&](size_t* cnt) {
            return miopenConvolutionBackwardDataGetSolutionCount(h, yDesc.get(), wDesc.get(), conv.get(), xDesc.get(), cnt);
        };
        d.solutions = [&](size_t mx, size_t* cnt, miopenConvSolution_t* out) {
            return miopenConvolutionBackwardDataGetSolution(h, yDesc.get(), wDesc.get(), conv.get(), xDesc.get(), mx, cnt,
                                                            out);
        };
        d.solutionWorkspace = [&](uint64_t id, size_t* ws) {
            return miopenConvolutionBackwardDataGetSolutionWorkspaceSize(h, yDesc.get(), wDesc.get(), conv.get(),
                                                                         xDesc.get(), id, ws);
        };
        d.compile = [&](uint64_t id) {
            return miopenConvolutionBackwardDataCompileSolution(h, yDesc.get(), wDesc.get(), conv.get(), xDesc.get(), id);
        };
        d.immediate = [&](void* ws, size_t wsSize, uint64_t id) {
            return miopenConvolutionBackwardDataImmediate(h, yDesc.get(), dy.data(), wDesc.get(), w.data(), conv.get(),
                                                          xDesc.get(), dx.data(), ws, wsSize, id);
        };
        d.workspaceSize = [&](size_t* ws) {
            return miopenConvolutionBackwardDataGetWorkSpaceSize(h, yDesc.get(), wDesc.get(), conv.get(), xDesc.get(), ws);
        };
        d.find = [&](miopenConvAlgoPerf_t* perf, int* ret, void* ws, size_t wsSize, bool exhaustive) {
            return miopenFindConvolutionBackwardDataAlgorithm(h, yDesc.get(), dy.data(), wDesc.get(), w.data(), conv.get(),
                                                              xDesc.get(), dx.data(), 4, ret, perf, ws, wsSize, exhaustive);
        };
        d.algoOf  = [](const miopenConvAlgoPerf_t& pr) { return static_cast<int>(pr.bwd_data_algo); };
        d.execute = [&](int a, void* ws, size_t wsSize) {
            return miopenConvolutionBackwardData(h, &alpha, yDesc.get(), dy.data(), wDesc.get(), w.data(), conv.get(),
                                                 static_cast<miopenConvBwdDataAlgorithm_t>(a), &beta, xDesc.get(),
                                                 dx.data(), ws, wsSize);
        };
        d.readBytes    = bytesOf<T>(s.yDims) + bytesOf<T>(s.wDims);
        d.writtenBytes = bytesOf<T>(s.xDims);
        runDirection(handle, f, s, d);
        if(verify)
        {
            Tensor<T> ref(s.xDims);
            double atol;
            if(s.transpose)
            {
                tsu::CpuFpReferenceConvolution::fprop<T, T, T>(dy.view(), w.view(), ref.view(), p);
                atol = tsu::calculateConvFpropTolerance<T, T>(maxAbs(dy), maxAbs(w), redFprop);
            }
            else
            {
                tsu::CpuFpReferenceConvolution::dgrad<T, T, T>(dy.view(), w.view(), ref.view(), p);
                atol = tsu::calculateConvDgradTolerance<T, T>(maxAbs(dy), maxAbs(w), redDgrad);
            }
            maybeCorrupt(dx.data(), static_cast<std::size_t>(dx.sizeBytes() / sizeof(T)));
            atol = std::max(atol, tsu::conv::getToleranceBwd<T>());
            rc |= reportVerdict("Backward Convolution Data",
                                compareWithReference<T>(ref.view(), dx.view(), atol, tsu::conv::getRelativeToleranceFwd<T>()),
                                kFailVerifyBwd);
        }
    }
    if(doWrw)
    {
        DirectionCalls d;
        d.label     = "Backward Weights Conv";
        d.statsName = "bwdw-conv";
        d.solutionCount = [&](size_t* cnt) {
            return miopenConvolutionBackwardWeightsGetSolutionCount(h, yDesc.get(), xDesc.get(), conv.get(), wDesc.get(),
                                                                    cnt);
        };
        d.solutions = [&](size_t mx, size_t* cnt, miopenConvSolution_t* out) {
            return miopenConvolutionBackwardWeightsGetSolution(h, yDesc.get(), xDesc.get(), conv.get(), wDesc.get(), mx,
                                                               cnt, out);
        };
        d.solutionWorkspace = [&](uint64_t id, size_t* ws) {
            return miopenConvolutionBackwardWeightsGetSolutionWorkspaceSize(h, yDesc.get(), xDesc.get(), conv.get(),
                                                                            wDesc.get(), id, ws);
        };
        d.compile = [&](uint64_t id) {
            return miopenConvolutionBackwardWeightsCompileSolution(h, yDesc.get(), xDesc.get(), conv.get(), wDesc.get(),
                                                                   id);
        };
        d.immediate = [&](void* ws, size_t wsSize, uint64_t id) {
            return miopenConvolutionBackwardWeightsImmediate(h, yDesc.get(), dy.data(), xDesc.get(), x.data(), conv.get(),
                                                             wDesc.get(), dw.data(), ws, wsSize, id);
        };
        d.workspaceSize = [&](size_t* ws) {
            return miopenConvolutionBackwardWeightsGetWorkSpaceSize(h, yDesc.get(), xDesc.get(), conv.get(), wDesc.get(),
                                                                    ws);
        };
        d.find = [&](miopenConvAlgoPerf_t* perf, int* ret, void* ws, size_t wsSize, bool exhaustive) {
            return miopenFindConvolutionBackwardWeightsAlgorithm(h, yDesc.get(), dy.data(), xDesc.get(), x.data(),
                                                                 conv.get(), wDesc.get(), dw.data(), 4, ret, perf, ws,
                                                                 wsSize, exhaustive);
        };
        d.algoOf  = [](const miopenConvAlgoPerf_t& pr) { return static_cast<int>(pr.bwd_weights_algo); };
        d.execute = [&](int a, void* ws, size_t wsSize) {
            return miopenConvolutionBackwardWeights(h, &alpha, yDesc.get(), dy.data(), xDesc.get(), x.data(), conv.get(),
                                                    static_cast<miopenConvBwdWeightsAlgorithm_t>(a), &beta, wDesc.get(),
                                                    dw.data(), ws, wsSize);
        };
        d.readBytes    = bytesOf<T>(s.xDims) + bytesOf<T>(s.yDims);
        d.writtenBytes = bytesOf<T>(s.wDims);
        runDirection(handle, f, s, d);
        if(verify)
        {
            Tensor<T> ref(s.wDims);
            double atol;
            if(s.transpose) // the normal convolution's input is dy, its output x
            {
                tsu::CpuFpReferenceConvolution::wgrad<T, T, T>(dy.view(), x.view(), ref.view(), p);
                atol = tsu::calculateConvWrwTolerance<T, T>(maxAbs(dy), maxAbs(x),
                                                             s.xDims[0] * ConvShape::spatialVolume(s.xDims));
            }
            else
            {
                tsu::CpuFpReferenceConvolution::wgrad<T, T, T>(x.view(), dy.view(), ref.view(), p);
                atol = tsu::calculateConvWrwTolerance<T, T>(maxAbs(x), maxAbs(dy),
                                                             s.yDims[0] * ConvShape::spatialVolume(s.yDims));
            }
            maybeCorrupt(dw.data(), static_cast<std::size_t>(dw.sizeBytes() / sizeof(T)));
            atol = std::max(atol, tsu::conv::getToleranceWrw<T>());
            rc |= reportVerdict("Backward Convolution Weights",
                                compareWithReference<T>(ref.view(), dw.view(), atol, tsu::conv::getRelativeToleranceFwd<T>()),
                                kFailVerifyWrw);
        }
    }
    return rc;
}

} // namespace

int runConvolution(const std::string& base, int argc, char** argv)
{
    InputFlags flags;
    addConvFlags(flags);
    const auto parsed = flags.parse(argc, argv, 2);
    if(parsed != InputFlags::ParseResult::Ok)
        return parsed == InputFlags::ParseResult::Help ? 0 : 1;
    if(base == "convfp16")
        return runTyped<half>(flags);
    if(base == "convbfp16")
        return runTyped<bfloat16>(flags);
    return runTyped<float>(flags);
}

} // namespace miopen_driver
