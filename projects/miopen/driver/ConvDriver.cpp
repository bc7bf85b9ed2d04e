// MIOpenDriver conv / convfp16 / convbfp16: forward, backward data and backward weights of a
// 2-D or 3-D (grouped, dilated, transposed) convolution through Find or immediate mode, checked
// against the test SDK's CpuFpReferenceConvolution.
#include "ConvCommon.hpp"
#include "Driver.hpp"

#include <hipdnn_test_sdk/utilities/TestTolerances.hpp>

#include <cstdio>
#include <iostream>

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
        printConvStats(d.statsName, shape, d.readBytes, d.writtenBytes, ms);
    }
}

template <typename T>
int runTyped(const InputFlags& f)
{
    constexpr miopenDataType_t kType = TypeInfo<T>::kType;
    const int forw = f.integer("forw");
    if(forw < 0 || forw > 7)
        throw DriverError("--forw must be 0..7");
    ConvShape s = readConvShape(f, true);

    Handle handle;
    if(f.integer("time") == 1)
        MIOPEN_DRIVER_CHECK(miopenEnableProfiling(handle.get(), true));
    ConvDescriptor conv;
    TensorDesc xDesc, wDesc, yDesc;
    setConvDescriptors(f, kType, s, conv, xDesc, wDesc, yDesc);

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
    const tsu::ConvolutionParams p = referenceParams(s);
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
    return runSubCommand(base, "conv", addConvFlags, argc, argv,
                         [](auto type, InputFlags& flags) { return runTyped<typename decltype(type)::type>(flags); });
}

} // namespace miopen_driver
