// MIOpenDriver CBAInfer / CBAInferfp16 / CBAInferbfp16: upstream's inference fusion driver. One
// fusion plan (miopenCreateFusionPlan, vertical) with the operators of the fusion mode (-J, upstream's
// numbering: 0 conv+bias+batchnorm+activation, 1 conv+batchnorm+activation, 2 batchnorm+activation,
// 3 conv+batchnorm, 4 conv+bias+activation, 5 conv+activation, 6 conv+bias), compiled once and
// executed -i times with miopenExecuteFusionPlan. -V 1 compares the output with a CPU reference:
// the test SDK's convolution accumulated in double, then plain loops in double for the bias, the
// batch normalization (inference, estimated statistics) and the activation (ActivationReference),
// rounded to the data type once.
#include "ActivationReference.hpp"
#include "ConvCommon.hpp"
#include "Driver.hpp"

#include <hipdnn_test_sdk/utilities/TestTolerances.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>

namespace miopen_driver
{
namespace
{

namespace tsu = hipdnn_test_sdk::utilities;

constexpr int kFailVerifyFwd = 0x10;
constexpr double kEpsilon    = 1e-6; // upstream's CBAInfer epsilon

void addCBAInferFlags(InputFlags& f)
{
    f.add("spatial_dim", '_', "2", "convolution spatial dimensions (2 or 3)");
    f.add("in_layout", 'I', "", "Input Layout (NCHW, NHWC, NCDHW, NDHWC; default NCHW, NCDHW for 3-D)");
    f.add("out_layout", 'O', "", "Output Layout (as in_layout)");
    f.add("fil_layout", 'f', "", "Filter Layout (as in_layout)");
    f.add("batchsize", 'n', "32", "Mini-batch size");
    f.add("in_channels", 'c', "3", "Number of Input Channels");
    f.add("in_d", '!', "1", "Input Depth (3-D only)");
    f.add("in_h", 'H', "32", "Input Height");
    f.add("in_w", 'W', "32", "Input Width");
    f.add("out_channels", 'k', "32", "Number of Output Channels");
    f.add("group_count", 'g', "1", "Number of groups in convolution");
    f.add("fil_d", '@', "3", "Filter Depth (3-D only)");
    f.add("fil_h", 'y', "3", "Filter Height");
    f.add("fil_w", 'x', "3", "Filter Width");
    f.add("conv_stride_d", '#', "1", "Convolution Stride Depth");
    f.add("conv_stride_h", 'u', "1", "Convolution Stride Vertical");
    f.add("conv_stride_w", 'v', "1", "Convolution Stride Horizontal");
    f.add("pad_d", '$', "0", "Zero Padding Depth");
    f.add("pad_h", 'p', "0", "Zero Padding Height");
    f.add("pad_w", 'q', "0", "Zero Padding Width");
    f.add("pad_val", 'r', "0", "Padding Value (unused, as upstream)");
    f.add("alpha", 'A', "1.0", "Activation alpha");
    f.add("beta", 'B', "0.", "Activation beta");
    f.add("gamma", 'G', "1", "Activation gamma");
    f.add("iter", 'i', "1", "Number of Iterations (times averaged over iterations 2..N)");
    f.add("verify", 'V', "1", "Verify Each Layer");
    f.add("time", 't', "0", "Time Each Layer (kernel time, wall-clock time, stats line)");
    f.add("activMode", 'm', "3",
          "Activation Mode (0 pass-through, 1 logistic, 2 tanh, 3 relu, 4 softrelu, 5 abs, 6 power, 7 clipped relu, "
          "8 leaky relu, 9 elu)");
    f.add("bnMode", 'M', "0", "Normalization Mode (per-activation (0) or spatial (1))");
    f.add("wall", 'w', "0", "Wall-clock Time Each Layer");
    f.add("dilation_d", '^', "1", "Dilation of Filter Depth");
    f.add("dilation_h", 'l', "1", "Dilation of Filter Height");
    f.add("dilation_w", 'j', "1", "Dilation of Filter Width");
    f.add("pad_mode", 'z', "default", "Padding Mode (same, valid, default)");
    f.add("fusion_mode", 'J', "0",
          "Fusion mode (cbna = 0, cna = 1, na = 2, cn = 3, cba = 4, ca = 5, cb = 6)");
    // Not upstream's: MIOPEN_ENABLE_LOGGING_CMD's LogCmdFusion line (upstream's and this library's)
    // names the fusion mode `-F <mode>`; accepting it lets a logged line run as printed.
    f.add("fusion", 'F', "", "Fusion mode as LogCmdFusion prints it (same values as -J; overrides -J)");
}

struct FusionOps
{
    bool conv, bias, bn, activ;
};

FusionOps opsOf(int mode)
{
    switch(mode)
    {
    case 0: return {true, true, true, true};
    case 1: return {true, false, true, true};
    case 2: return {false, false, true, true};
    case 3: return {true, false, true, false};
    case 4: return {true, true, false, true};
    case 5: return {true, false, false, true};
    case 6: return {true, true, false, false};
    default: throw DriverError("Fusion mode out of range: " + std::to_string(mode) + " (0..6)");
    }
}

std::string opsName(const FusionOps& o)
{
    std::string s;
    auto add = [&](bool on, const char* name) {
        if(on)
            s += (s.empty() ? "" : "+") + std::string(name);
    };
    add(o.conv, "Convolution");
    add(o.bias, "Bias");
    add(o.bn, "BatchNorm");
    add(o.activ, "Activation");
    return s;
}

class FusionPlan
{
public:
    explicit FusionPlan(const TensorDesc& input)
    {
        MIOPEN_DRIVER_CHECK(miopenCreateFusionPlan(&_plan, miopenVerticalFusion, input.get()));
    }
    ~FusionPlan() { miopenDestroyFusionPlan(_plan); }
    FusionPlan(const FusionPlan&)            = delete;
    FusionPlan& operator=(const FusionPlan&) = delete;
    miopenFusionPlanDescriptor_t get() const { return _plan; }

private:
    miopenFusionPlanDescriptor_t _plan = nullptr;
};

template <typename T>
int runTyped(const InputFlags& f)
{
    constexpr miopenDataType_t kType = TypeInfo<T>::kType;
    const int mode = f.str("fusion").empty() ? f.integer("fusion_mode") : f.integer("fusion");
    const FusionOps ops = opsOf(mode);
    const int activValue = f.integer("activMode");
    if(activValue < 0 || activValue > 9)
        throw DriverError("Incorrect Activation Mode: " + std::to_string(activValue));
    const ActivationReference act{static_cast<miopenActivationMode_t>(activValue), f.real("alpha"), f.real("beta"),
                                   f.real("gamma")};
    const int bnFlag = f.integer("bnMode");
    if(bnFlag != 0 && bnFlag != 1)
        throw DriverError("Incorrect Batch Normalization Mode");
    const auto bnMode = bnFlag == 0 ? miopenBNPerActivation : miopenBNSpatial;

    Handle handle;
    const bool time = f.integer("time") == 1;
    if(time)
        MIOPEN_DRIVER_CHECK(miopenEnableProfiling(handle.get(), true));

    // Geometry: the convolution's, or (batchnorm + activation) x and y of the same lengths.
    ConvShape s;
    ConvDescriptor conv;
    TensorDesc xDesc, wDesc, yDesc, biasDesc, bnDesc;
    if(ops.conv)
    {
        s = readConvShape(f, false);
        setConvDescriptors(f, kType, s, conv, xDesc, wDesc, yDesc);
    }
    else
    {
        const int sd = f.integer("spatial_dim");
        if(sd != 2 && sd != 3)
            throw DriverError("--spatial_dim must be 2 or 3");
        s.xDims = {f.integer("batchsize"), f.integer("in_channels")};
        if(sd == 3)
            s.xDims.push_back(f.integer("in_d"));
        s.xDims.push_back(f.integer("in_h"));
        s.xDims.push_back(f.integer("in_w"));
        s.yDims    = s.xDims;
        s.xStrides = layoutStrides(s.xDims, f.str("in_layout"));
        s.yStrides = layoutStrides(s.yDims, f.str("out_layout").empty() ? f.str("in_layout") : f.str("out_layout"));
        xDesc.set(kType, s.xDims, s.xStrides);
        yDesc.set(kType, s.yDims, s.yStrides);
    }
    const std::size_t rank = s.yDims.size();
    const int64_t k        = s.yDims[1];
    std::vector<int64_t> biasDims(rank, 1), pDims(rank, 1);
    biasDims[1] = k;
    pDims[1]    = k;
    if(bnMode == miopenBNPerActivation)
        for(std::size_t i = 2; i < rank; ++i)
            pDims[i] = s.yDims[i];
    if(ops.bias)
        biasDesc.set(kType, biasDims, hipdnn_data_sdk::utilities::packedStrides(biasDims));
    if(ops.bn) // float parameters of the normalized tensor's shape (the convolution's output, or x)
        MIOPEN_DRIVER_CHECK(miopenDeriveBNTensorDescriptor(bnDesc.get(), ops.conv ? yDesc.get() : xDesc.get(), bnMode));

    Tensor<T> x(s.xDims, s.xStrides), y(s.yDims, s.yStrides), w, bias(biasDims);
    Tensor<float> scale(pDims), bnBias(pDims), mean(pDims), variance(pDims);
    fillUniform(x, -1.f, 1.f, 61);
    if(ops.conv)
    {
        w = Tensor<T>(s.wDims, s.wStrides);
        fillUniform(w, -0.5f, 0.5f, 62);
    }
    fillUniform(bias, -0.5f, 0.5f, 63);
    fillUniform(scale, 0.5f, 1.5f, 64);
    fillUniform(bnBias, -0.5f, 0.5f, 65);
    fillUniform(mean, -0.1f, 0.1f, 66);
    fillUniform(variance, 0.5f, 1.5f, 67);

    // The plan and its operator arguments (blend factors 1 / 0, as upstream).
    const float one = 1.f, zero = 0.f;
    FusionPlan plan(xDesc);
    OperatorArgs args;
    miopenFusionOpDescriptor_t op = nullptr;
    if(ops.conv)
    {
        MIOPEN_DRIVER_CHECK(miopenCreateOpConvForward(plan.get(), &op, conv.get(), wDesc.get()));
        MIOPEN_DRIVER_CHECK(miopenSetOpArgsConvForward(args.get(), op, &one, &zero, w.data()));
    }
    if(ops.bias)
    {
        MIOPEN_DRIVER_CHECK(miopenCreateOpBiasForward(plan.get(), &op, biasDesc.get()));
        MIOPEN_DRIVER_CHECK(miopenSetOpArgsBiasForward(args.get(), op, &one, &zero, bias.data()));
    }
    if(ops.bn)
    {
        MIOPEN_DRIVER_CHECK(miopenCreateOpBatchNormInference(plan.get(), &op, bnMode, bnDesc.get()));
        MIOPEN_DRIVER_CHECK(miopenSetOpArgsBatchNormInference(args.get(), op, &one, &zero, scale.data(), bnBias.data(),
                                                              mean.data(), variance.data(), kEpsilon));
    }
    if(ops.activ)
    {
        MIOPEN_DRIVER_CHECK(miopenCreateOpActivationForward(plan.get(), &op, act.mode));
        MIOPEN_DRIVER_CHECK(miopenSetOpArgsActivForward(args.get(), op, &one, &zero, act.alpha, act.beta, act.gamma));
    }
    std::cout << "Running fusion: " << opsName(ops) << std::endl;
    const miopenStatus_t compiled = miopenCompileFusionPlan(handle.get(), plan.get());
    if(compiled != miopenStatusSuccess)
        throw DriverError(opsName(ops) + " plan not supported: miopenCompileFusionPlan returned " +
                          miopenGetErrorString(compiled));

    const int iters = f.integer("iter");
    const auto t    = timeLoop(handle, iters, time,
                            [&] {
                                return miopenExecuteFusionPlan(handle.get(), plan.get(), xDesc.get(), x.data(),
                                                               yDesc.get(), y.data(), args.get());
                            },
                            "miopenExecuteFusionPlan");
    if(time || f.integer("wall") == 1)
        std::printf("Wall-clock Time Elapsed: %f ms, for %d iterations.\n", t.wallAverageMs(),
                    t.iters > 1 ? t.iters - 1 : 1);
    if(time)
    {
        std::printf("GPU Fused Kernel Min Time Elapsed: %f ms\n", static_cast<double>(t.kernelMinMs));
        if(t.iters > 1)
            std::printf("GPU Fused Kernel Avg Time Elapsed: %f ms, for %d iterations.\n",
                        static_cast<double>(t.kernelAverageMs()), t.iters - 1);
        const double written = bytesOf<T>(s.yDims);
        // x, the bias and the four fp32 batchnorm parameters; the filter below
        double read = bytesOf<T>(s.xDims) + (ops.bias ? bytesOf<T>(biasDims) : 0.0) +
                      (ops.bn ? 4.0 * bytesOf<float>(pDims) : 0.0);
        const float ms = t.kernelAverageMs();
        if(ops.conv)
        {
            read += bytesOf<T>(s.wDims);
            printConvStats("fusion-conv", s, read, written, ms);
        }
        else
        {
            std::printf("stats: name, n, c, h, w, bytesRead, bytesWritten, GB/s, timeMs\n");
            std::printf("stats: fusion-bn-activ, %lld, %lld, %lld, %lld, %.0f, %.0f, %f, %f\n",
                        static_cast<long long>(s.xDims[0]), static_cast<long long>(s.xDims[1]),
                        static_cast<long long>(ConvShape::spatialVolume(s.xDims) / s.xDims.back()),
                        static_cast<long long>(s.xDims.back()), read, written,
                        ms > 0.f ? (read + written) / static_cast<double>(ms) / 1e6 : 0.0, static_cast<double>(ms));
        }
    }
    if(f.integer("verify") != 1)
        return 0;

    // Reference in double: conv (+ bias) (+ batchnorm) (+ activation), rounded to T once. The
    // tolerance is the convolution's (as `conv -V 1` checks it), carried through the batchnorm's
    // gain and the activation, plus the pointwise tolerance of T.
    Tensor<double> pre(s.yDims);
    double delta = 0.0;
    if(ops.conv)
    {
        tsu::CpuFpReferenceConvolution::fprop<T, T, double, double>(x.view(), w.view(), pre.view(), referenceParams(s));
        delta = std::max(tsu::calculateConvFpropTolerance<T, T>(maxAbs(x), maxAbs(w), s.wDims[1] * s.filterVolume()),
                         tsu::conv::getToleranceFwd<T>());
    }
    else
    {
        tsu::forEachIndex(s.xDims, [&](const std::vector<int64_t>& i) { pre.at(i) = tsu::toDouble(x.at(i)); });
        delta = tsu::batchnorm::getToleranceInference<T>();
    }
    const auto biasView = bias.view();
    const auto paramView = scale.view(); // scale, bnBias, mean and variance share dims and strides
    double bnGain = 1.0;
    tsu::forEachIndex(s.yDims, [&](const std::vector<int64_t>& i) {
        double v = pre.at(i);
        if(ops.bias)
            v += tsu::toDouble(bias.data()[biasView.broadcastOffset(i)]);
        if(ops.bn)
        {
            const auto o   = paramView.broadcastOffset(i);
            const double g = static_cast<double>(scale.data()[o]) /
                             std::sqrt(static_cast<double>(variance.data()[o]) + kEpsilon);
            v      = g * (v - static_cast<double>(mean.data()[o])) + static_cast<double>(bnBias.data()[o]);
            bnGain = std::max(bnGain, std::fabs(g));
        }
        pre.at(i) = v;
    });
    if(ops.conv)
        delta *= bnGain;
    Tensor<T> ref(s.yDims);
    double outDelta = ops.activ ? 0.0 : delta;
    tsu::forEachIndex(s.yDims, [&](const std::vector<int64_t>& i) {
        const double v = pre.at(i);
        const double r = ops.activ ? act.forward(v) : v;
        ref.at(i)      = tsu::fromDouble<T>(r);
        if(ops.activ) // the activation's change over [v - delta, v + delta]
            outDelta = std::max({outDelta, std::fabs(act.forward(v + delta) - r), std::fabs(act.forward(v - delta) - r)});
    });
    const double pointwiseTol = std::max(tsu::pointwise::getTolerance<T>(), 2.0 * tsu::unitRoundoff<T>());
    const double rtol = ops.conv ? std::max(tsu::conv::getRelativeToleranceFwd<T>(), 2.0 * tsu::unitRoundoff<T>())
                                 : pointwiseTol;
    maybeCorrupt(y.data(), y.sizeBytes() / sizeof(T));
    return reportVerdict("Forward Fusion", compareWithReference<T>(ref.view(), y.view(), outDelta + pointwiseTol, rtol),
                         kFailVerifyFwd);
}

} // namespace

int runCBAInfer(const std::string& base, int argc, char** argv)
{
    return runSubCommand(base, "CBAInfer", addCBAInferFlags, argc, argv,
                         [](auto type, InputFlags& flags) { return runTyped<typename decltype(type)::type>(flags); });
}

} // namespace miopen_driver
