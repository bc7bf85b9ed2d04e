// MIOpenDriver bnorm / bnormfp16 / bnormbfp16 / bnormfp16fp32 / bnormbfp16fp32: batch
// normalization forward training (-F 1), inference (-F 2) or backward (-b 1) through the _V2
// calls, checked against the test SDK's CpuFpReferenceBatchnorm.
#include "Driver.hpp"

#include <hipdnn_test_sdk/utilities/CpuFpReferenceBatchnorm.hpp>
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
constexpr double kEpsilon     = 1e-5;
constexpr double kExpAvgFactor = 0.1;

void addBatchNormFlags(InputFlags& f)
{
    f.add("forw", 'F', "0", "Run Forward Train (off: 0, train: 1, inference: 2) Batch Normalization");
    f.add("back", 'b', "0", "Backwards Propagation (off: 0, on: 1) Batch Normalization");
    f.add("batchsize", 'n', "32", "Mini-batch size");
    f.add("in_channels", 'c', "3", "Number of Input Channels");
    f.add("in_h", 'H', "32", "Input Height");
    f.add("in_w", 'W', "32", "Input Width");
    f.add("in_d", 'D', "0", "Input Depth (0: a 4-D tensor)");
    f.add("layout", 'L', "", "Layout (NCHW, NHWC, NCDHW, NDHWC; default NCHW, or NCDHW with -D)");
    f.add("alpha", 'A', "1.0", "Alpha");
    f.add("beta", 'B', "0.", "Beta");
    f.add("iter", 'i', "1", "Number of Iterations");
    f.add("verify", 'V', "1", "Verify Each Layer");
    f.add("time", 't', "0", "Time Each Layer");
    f.add("mode", 'm', "0", "Normalization Mode (per-activation (0) or spatial (1))");
    f.add("save", 's', "0", "Save off mean and inverse variance, or on backprop, use these values");
    f.add("run", 'r', "0", "Keep running mean and variance, or on inference, use these values");
    f.add("wall", 'w', "0", "Wall-clock Time Each Layer");
}

// The test SDK normalizes over every dim but dim 1 (spatial mode). Per-activation mode normalizes
// each (c, spatial...) position over N: the same reference on packed tensors viewed as [N, C*HW]
// (parameters as [1, C*HW]).
template <typename T>
TensorView<T> bnView(Tensor<T>& packed, bool perActivation)
{
    if(!perActivation)
        return packed.view();
    const int64_t m = packed.elementCount() / packed.dims()[0];
    return TensorView<T>(packed.data(), {packed.dims()[0], m}, {m, 1});
}
template <typename T>
TensorView<const T> bnView(const Tensor<T>& packed, bool perActivation)
{
    return bnView(const_cast<Tensor<T>&>(packed), perActivation);
}

/// A packed copy of a (possibly strided) tensor.
template <typename T>
Tensor<T> packedCopy(const Tensor<T>& t)
{
    Tensor<T> p(t.dims());
    tsu::forEachIndex(t.dims(), [&](const std::vector<int64_t>& i) { p.at(i) = t.at(i); });
    return p;
}

/// Batch-norm tolerances: the test SDK's, and at least a few units of roundoff of T.
template <typename T>
double atLeastRoundoff(double tol)
{
    return std::max(tol, 4.0 * tsu::unitRoundoff<T>());
}

/// A parameter tensor from per-channel values (per normalized position in per-activation mode).
template <typename TP>
Tensor<TP> paramFrom(const std::vector<int64_t>& dims, const std::vector<double>& perChannel, bool perActivation)
{
    Tensor<TP> t(dims);
    const auto v = bnView(t, perActivation);
    tsu::forEachIndex(v.dims(), [&](const std::vector<int64_t>& i) {
        v.at(i) = tsu::fromDouble<TP>(perChannel[static_cast<std::size_t>(i[1])]);
    });
    return t;
}

template <typename TX, typename TP>
int runTyped(const InputFlags& f)
{
    int forw = f.integer("forw"), back = f.integer("back");
    const int modeFlag = f.integer("mode");
    if(modeFlag != 0 && modeFlag != 1)
        throw DriverError("Incorrect Batch Normalization Mode");
    if(forw < 0 || forw > 2)
        throw DriverError("Incorrect Batch Normalization forward mode");
    if(back < 0 || back > 1)
        throw DriverError("Incorrect Batch Normalization backwards propagation mode");
    const int save = f.integer("save"), run = f.integer("run");
    if(save < 0 || save > 1)
        throw DriverError("Incorrect Batch Normalization Save mode");
    if(run < 0 || run > 1)
        throw DriverError("Incorrect Batch Normalization Running mode");
    if(back != 0 && forw != 0)
    {
        std::printf("Warning: Deactivate forward to run backward on Batch Norm.\nRunning forward only.\n");
        back = 0;
    }
    else if(back == 0 && forw == 0)
        forw = 1;
    const auto mode = modeFlag == 0 ? miopenBNPerActivation : miopenBNSpatial;
    const bool perAct = mode == miopenBNPerActivation;

    std::vector<int64_t> xDims = {f.integer("batchsize"), f.integer("in_channels")};
    if(f.integer("in_d") > 0)
        xDims.push_back(f.integer("in_d"));
    xDims.push_back(f.integer("in_h"));
    xDims.push_back(f.integer("in_w"));
    const auto xStrides = layoutStrides(xDims, f.str("layout"));
    std::vector<int64_t> pDims(xDims.size(), 1);
    pDims[1] = xDims[1];
    if(mode == miopenBNPerActivation)
        for(std::size_t i = 2; i < xDims.size(); ++i)
            pDims[i] = xDims[i];

    Handle handle;
    const bool time = f.integer("time") == 1;
    if(time)
        MIOPEN_DRIVER_CHECK(miopenEnableProfiling(handle.get(), true));
    TensorDesc xDesc, pDesc;
    xDesc.set(TypeInfo<TX>::kType, xDims, xStrides);
    pDesc.set(TypeInfo<TP>::kType, pDims, hipdnn_data_sdk::utilities::packedStrides(pDims));

    Tensor<TX> x(xDims, xStrides), y(xDims, xStrides), dy(xDims, xStrides), dx(xDims, xStrides);
    Tensor<TP> scale(pDims), bias(pDims), runMean(pDims), runVar(pDims), savedMean(pDims), savedInvVar(pDims);
    Tensor<TP> dScale(pDims), dBias(pDims);
    fillUniform(x, -1.f, 1.f, 21);
    fillUniform(dy, -1.f, 1.f, 22);
    fillUniform(scale, 0.5f, 1.5f, 23);
    fillUniform(bias, -0.5f, 0.5f, 24);
    fillUniform(runMean, -0.1f, 0.1f, 25);
    fillUniform(runVar, 0.5f, 1.5f, 26);
    const Tensor<TP> runMean0 = runMean, runVar0 = runVar;

    const float alpha = static_cast<float>(f.real("alpha")), beta = static_cast<float>(f.real("beta"));
    const int iters   = f.integer("iter");
    const bool wall   = time || f.integer("wall") == 1;
    const bool verify = f.integer("verify") == 1;
    const miopenHandle_t h = handle.get();
    const auto xd = xDesc.get(), pd = pDesc.get();
    const double typeSize = sizeof(TX);
    const double dataSz =
        (static_cast<double>(hipdnn_data_sdk::utilities::elementCount(xDims)) + 2.0 * static_cast<double>(xDims[1])) *
        typeSize;
    int rc = 0;

    if(forw != 0)
    {
        TimingResult t;
        if(forw == 1)
        {
            t = timeLoop(handle, iters, time,
                         [&] {
                             return miopenBatchNormalizationForwardTraining_V2(
                                 h, mode, const_cast<float*>(&alpha), const_cast<float*>(&beta), xd, x.data(), xd, y.data(),
                                 pd, pd, pd, pd, scale.data(), bias.data(), kExpAvgFactor,
                                 run != 0 ? runMean.data() : nullptr, run != 0 ? runVar.data() : nullptr, kEpsilon,
                                 save != 0 ? savedMean.data() : nullptr, save != 0 ? savedInvVar.data() : nullptr);
                         },
                         "miopenBatchNormalizationForwardTraining_V2");
        }
        else
        {
            t = timeLoop(handle, iters, time,
                         [&] {
                             return miopenBatchNormalizationForwardInference_V2(
                                 h, mode, const_cast<float*>(&alpha), const_cast<float*>(&beta), xd, x.data(), xd, y.data(),
                                 pd, pd, pd, pd, scale.data(), bias.data(), run != 0 ? runMean.data() : nullptr,
                                 run != 0 ? runVar.data() : nullptr, kEpsilon);
                         },
                         "miopenBatchNormalizationForwardInference_V2");
        }
        if(wall)
            std::printf("Wall-clock Time Forward GPU Batch Norm Elapsed: %f ms, for %d iterations.\n",
                        t.wallAverageMs(), iters > 1 ? iters - 1 : 1);
        if(time)
        {
            std::printf("GPU Kernel Min Time Forward Batch Normalization Elapsed: %f ms\n",
                        static_cast<double>(t.kernelMinMs));
            if(t.iters > 1)
                std::printf("GPU Kernel Avg Time Forward Batch Normalization Elapsed: %f ms, for %d iterations.\n",
                            static_cast<double>(t.kernelAverageMs()), t.iters - 1);
            const double rd = forw == 1 ? 2.0 : 1.0;
            std::printf("stats: bnormf, 0, %.0f, %.0f, 0, %f, %f\n", dataSz, dataSz,
                        t.kernelMinMs > 0.f ? (rd * dataSz + dataSz) / static_cast<double>(t.kernelMinMs) / 1e6 : 0.0,
                        static_cast<double>(t.kernelMinMs));
        }
        if(verify)
        {
            const std::string prefix = forw == 1 ? "Forward train batch norm" : "Forward inference batch norm";
            bool ok      = true;
            Tensor<TX> ref(xDims), step(xDims);
            const Tensor<TX> xp = packedCopy(x);
            const double tol = atLeastRoundoff<TX>(
                forw == 1 ? tsu::batchnorm::getToleranceTraining<TX>() : tsu::batchnorm::getToleranceInference<TX>());
            const double ptol = atLeastRoundoff<TP>(forw == 1 ? tsu::batchnorm::getToleranceTraining<TP>() : tol);
            const auto stats  = tsu::CpuFpReferenceBatchnorm::statistics<TX>(bnView(xp, perAct), kEpsilon);
            if(forw == 1)
            {
                // Each iteration updates the running statistics and blends y with beta.
                Tensor<TP> prevMean = runMean0, prevVar = runVar0, nextMean(pDims), nextVar(pDims);
                Tensor<TP> refSavedMean(pDims), refSavedInvVar(pDims);
                for(int it = 0; it < std::max(iters, 1); ++it)
                {
                    tsu::CpuFpReferenceBatchnorm::training<TX, TP, TX>(
                        bnView(xp, perAct), bnView(scale, perAct), bnView(bias, perAct), kEpsilon, bnView(step, perAct),
                        bnView(refSavedMean, perAct), bnView(refSavedInvVar, perAct), bnView(prevMean, perAct),
                        bnView(prevVar, perAct), kExpAvgFactor, bnView(nextMean, perAct), bnView(nextVar, perAct));
                    tsu::forEachIndex(xDims, [&](const std::vector<int64_t>& i) {
                        ref.at(i) = tsu::fromDouble<TX>(alpha * tsu::toDouble(step.at(i)) + beta * tsu::toDouble(ref.at(i)));
                    });
                    prevMean = nextMean;
                    prevVar  = nextVar;
                }
                if(run != 0)
                {
                    ok &= checkTensor<TP>(prefix, "running mean", prevMean.view(), runMean.view(), ptol, ptol);
                    ok &= checkTensor<TP>(prefix, "running variance", prevVar.view(), runVar.view(), ptol, ptol);
                }
                if(save != 0)
                {
                    ok &= checkTensor<TP>(prefix, "saved mean", refSavedMean.view(), savedMean.view(), ptol, ptol);
                    ok &= checkTensor<TP>(prefix, "saved inverse variance", refSavedInvVar.view(), savedInvVar.view(),
                                          ptol, ptol);
                }
            }
            else
            {
                Tensor<TP> mean(pDims), invVar(pDims);
                if(run != 0)
                {
                    mean = runMean0;
                    tsu::forEachIndex(pDims, [&](const std::vector<int64_t>& i) {
                        invVar.at(i) = tsu::fromDouble<TP>(1.0 / std::sqrt(tsu::toDouble(runVar0.at(i)) + kEpsilon));
                    });
                }
                else
                {
                    mean   = paramFrom<TP>(pDims, stats.mean, perAct);
                    invVar = paramFrom<TP>(pDims, stats.invVariance, perAct);
                }
                for(int it = 0; it < std::max(iters, 1); ++it)
                {
                    tsu::CpuFpReferenceBatchnorm::inference<TX, TP, TX>(
                        bnView(xp, perAct), bnView(mean, perAct), bnView(invVar, perAct), bnView(scale, perAct),
                        bnView(bias, perAct), bnView(step, perAct));
                    tsu::forEachIndex(xDims, [&](const std::vector<int64_t>& i) {
                        ref.at(i) = tsu::fromDouble<TX>(alpha * tsu::toDouble(step.at(i)) + beta * tsu::toDouble(ref.at(i)));
                    });
                }
            }
            maybeCorrupt(y.data(), y.sizeBytes() / sizeof(TX));
            ok &= checkTensor<TX>(prefix, "output", ref.view(), y.view(), tol, tol);
            if(ok)
                std::cout << "Forward Batch Norm Verifies on CPU and GPU." << std::endl;
            else
                rc |= kFailVerifyFwd;
        }
    }
    if(back != 0)
    {
        // Saved statistics (-s 1) are the batch's, computed here; otherwise the call recomputes them.
        const Tensor<TX> xp = packedCopy(x), dyp = packedCopy(dy);
        const auto stats = tsu::CpuFpReferenceBatchnorm::statistics<TX>(bnView(xp, perAct), kEpsilon);
        if(save != 0)
        {
            savedMean   = paramFrom<TP>(pDims, stats.mean, perAct);
            savedInvVar = paramFrom<TP>(pDims, stats.invVariance, perAct);
        }
        const float one = 1.f, zero = 0.f;
        const auto t = timeLoop(handle, iters, time,
                                [&] {
                                    return miopenBatchNormalizationBackward_V2(
                                        h, mode, &one, &zero, &one, &zero, xd, x.data(), xd, dy.data(), xd, dx.data(), pd,
                                        pd, pd, pd, scale.data(), dScale.data(), dBias.data(), kEpsilon,
                                        save != 0 ? savedMean.data() : nullptr, save != 0 ? savedInvVar.data() : nullptr);
                                },
                                "miopenBatchNormalizationBackward_V2");
        if(wall)
            std::printf("Wall-clock Time Backward GPU Batch Norm Elapsed: %f ms\n", t.wallAverageMs());
        if(time)
        {
            std::printf("GPU Kernel Min Time Backwards Batch Normalization Elapsed: %f ms\n",
                        static_cast<double>(t.kernelMinMs));
            if(t.iters > 1)
                std::printf("GPU Kernel Avg Time Backward Batch Normalization Elapsed: %f ms\n",
                            static_cast<double>(t.kernelAverageMs()));
            std::printf("stats: bnormb, 0, %.0f, %.0f, 0, %f, %f\n", dataSz, dataSz,
                        t.kernelMinMs > 0.f ? 3.0 * dataSz / static_cast<double>(t.kernelMinMs) / 1e6 : 0.0,
                        static_cast<double>(t.kernelMinMs));
        }
        if(verify)
        {
            const std::string prefix = "Backwards prop batch norm";
            Tensor<TP> mean = save != 0 ? savedMean : paramFrom<TP>(pDims, stats.mean, perAct);
            Tensor<TP> invVar = save != 0 ? savedInvVar : paramFrom<TP>(pDims, stats.invVariance, perAct);
            Tensor<TX> refDx(xDims);
            Tensor<TP> refDScale(pDims), refDBias(pDims);
            tsu::CpuFpReferenceBatchnorm::backward<TX, TP, TX>(
                bnView(dyp, perAct), bnView(xp, perAct), bnView(mean, perAct), bnView(invVar, perAct),
                bnView(scale, perAct), bnView(refDx, perAct), bnView(refDScale, perAct), bnView(refDBias, perAct));
            maybeCorrupt(dx.data(), dx.sizeBytes() / sizeof(TX));
            const double tol  = atLeastRoundoff<TX>(tsu::batchnorm::getToleranceBackward<TX>());
            const double ptol = std::max(atLeastRoundoff<TP>(tsu::batchnorm::getToleranceBackward<TP>()), tol);
            bool ok = checkTensor<TX>(prefix, "dx", refDx.view(), dx.view(), tol, tol);
            ok &= checkTensor<TP>(prefix, "dscale", refDScale.view(), dScale.view(), ptol, ptol);
            ok &= checkTensor<TP>(prefix, "dbias", refDBias.view(), dBias.view(), ptol, ptol);
            if(ok)
                std::cout << "Backwards Prop Batch Norm Verifies on CPU and GPU." << std::endl;
            else
                rc |= kFailVerifyBwd;
        }
    }
    return rc;
}

} // namespace

int runBatchNorm(const std::string& base, int argc, char** argv)
{
    InputFlags flags;
    addBatchNormFlags(flags);
    const auto parsed = flags.parse(argc, argv, 2);
    if(parsed != InputFlags::ParseResult::Ok)
        return parsed == InputFlags::ParseResult::Help ? 0 : 1;
    if(base == "bnormfp16")
        return runTyped<half, half>(flags);
    if(base == "bnormbfp16")
        return runTyped<bfloat16, bfloat16>(flags);
    if(base == "bnormfp16fp32")
        return runTyped<half, float>(flags);
    if(base == "bnormbfp16fp32")
        return runTyped<bfloat16, float>(flags);
    return runTyped<float, float>(flags);
}

} // namespace miopen_driver
