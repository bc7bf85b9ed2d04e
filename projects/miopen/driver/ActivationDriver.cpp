// MIOpenDriver activ / activfp16 / activbfp16: activation forward (-F 1) and backward (-F 2; 0
// both), checked against the test SDK's pointwise reference (CpuReferencePointwise) with the
// MIOpen mode mapped onto its pointwise operation; POWER, which has no pointwise twin, and the
// scaled TANH are composed here from the same scalar reference.
#include "ActivationReference.hpp"
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

void addActivationFlags(InputFlags& f)
{
    f.add("forw", 'F', "0", "Run Forward (1), Backward (2) or both (0)");
    f.add("batchsize", 'n', "100", "Mini-batch size");
    f.add("in_channels", 'c', "3", "Number of Input Channels");
    f.add("in_h", 'H', "32", "Input Height");
    f.add("in_w", 'W', "32", "Input Width");
    f.add("mode", 'm', "3",
          "Activation Mode (0 pass-through, 1 logistic, 2 tanh, 3 relu, 4 softrelu, 5 abs, 6 power, 7 clipped relu, "
          "8 leaky relu, 9 elu)");
    f.add("alpha", 'A', "1", "Activation alpha");
    f.add("beta", 'B', "1", "Activation beta");
    f.add("gamma", 'G', "1", "Activation gamma");
    f.add("iter", 'i', "10", "Number of Iterations");
    f.add("verify", 'V', "1", "Verify Each Layer");
    f.add("time", 't', "0", "Time Each Layer");
    f.add("wall", 'w', "0", "Wall-clock Time Each Layer");
}

void printActivationTimes(const char* dir, const char* statsName, const TimingResult& t, double dataSz, bool time,
                          bool wall)
{
    if(wall)
        std::printf("Wall-clock Time %s GPU Activation Elapsed: %f ms, for %d iterations.\n", dir, t.wallAverageMs(),
                    t.iters > 1 ? t.iters - 1 : 1);
    if(!time)
        return;
    std::printf("GPU Kernel Min Time %s Activation Elapsed: %f ms\n", dir, static_cast<double>(t.kernelMinMs));
    if(t.iters > 1)
        std::printf("GPU Kernel Avg Time %s Activation Elapsed: %f ms, for %d iterations.\n", dir,
                    static_cast<double>(t.kernelAverageMs()), t.iters - 1);
    std::printf("stats: name, bytesRead, bytesWritten, GB/s, timeMs\n");
    std::printf("stats: %s, %.0f, %.0f, %f, %f\n", statsName, dataSz, dataSz,
                t.kernelMinMs > 0.f ? 2.0 * dataSz / static_cast<double>(t.kernelMinMs) / 1e6 : 0.0,
                static_cast<double>(t.kernelAverageMs()));
}

template <typename T>
int runTyped(const InputFlags& f)
{
    constexpr miopenDataType_t kType = TypeInfo<T>::kType;
    const int modeValue = f.integer("mode");
    if(modeValue < 0 || modeValue > 9)
        throw DriverError("Incorrect Activation Mode: " + std::to_string(modeValue));
    const ActivationReference ref{static_cast<miopenActivationMode_t>(modeValue), f.real("alpha"), f.real("beta"),
                                  f.real("gamma")};
    const int forw = f.integer("forw");
    const std::vector<int64_t> dims = {f.integer("batchsize"), f.integer("in_channels"), f.integer("in_h"),
                                       f.integer("in_w")};

    Handle handle;
    const bool time = f.integer("time") == 1;
    if(time)
        MIOPEN_DRIVER_CHECK(miopenEnableProfiling(handle.get(), true));
    ActivationDescriptor act;
    MIOPEN_DRIVER_CHECK(miopenSetActivationDescriptor(act.get(), ref.mode, ref.alpha, ref.beta, ref.gamma));
    TensorDesc desc;
    const auto strides = hipdnn_data_sdk::utilities::packedStrides(dims);
    desc.set(kType, dims, strides);
    Tensor<T> x(dims), y(dims), dy(dims), dx(dims);
    fillUniform(x, -2.f, 2.f, 41);
    fillUniform(dy, -1.f, 1.f, 42);

    const bool doFwd = forw == 0 || (forw & 1) != 0;
    const bool doBwd = forw == 0 || (forw & 2) != 0;
    const bool verify = f.integer("verify") == 1;
    const bool wall   = time || f.integer("wall") == 1;
    const int iters   = f.integer("iter");
    const float alpha = 1.f, beta = 0.f;
    const miopenHandle_t h = handle.get();
    const auto d = desc.get();
    const double dataSz = static_cast<double>(hipdnn_data_sdk::utilities::elementCount(dims)) * sizeof(T);
    auto forward = [&] { return miopenActivationForward(h, act.get(), &alpha, d, x.data(), &beta, d, y.data()); };
    const double tol = std::max(tsu::pointwise::getTolerance<T>(), 2.0 * tsu::unitRoundoff<T>());
    int rc = 0;

    if(doFwd)
    {
        const auto t = timeLoop(handle, iters, time, forward, "miopenActivationForward");
        printActivationTimes("Forward", "fwd-activ", t, dataSz, time, wall);
        if(verify)
        {
            Tensor<T> yRef(dims);
            tsu::forEachIndex(dims, [&](const std::vector<int64_t>& i) {
                yRef.at(i) = tsu::fromDouble<T>(ref.forward(tsu::toDouble(x.at(i))));
            });
            maybeCorrupt(y.data(), y.sizeBytes() / sizeof(T));
            const Verdict v = compareWithReference<T>(yRef.view(), y.view(), tol, tol);
            if(v.ok)
                std::cout << "Forward Activation Verifies OK on CPU reference (" << v.maxError << " < " << v.tolerance
                          << ')' << std::endl;
            else
            {
                std::cout << "Forward Activation FAILED: " << v.maxError << " > " << v.tolerance << "\n  " << v.why
                          << std::endl;
                rc |= kFailVerifyFwd;
            }
        }
    }
    if(doBwd)
    {
        if(!doFwd) // the backward call reads the forward output y
            MIOPEN_DRIVER_CHECK(forward());
        const auto t = timeLoop(handle, iters, time,
                                [&] {
                                    return miopenActivationBackward(h, act.get(), &alpha, d, y.data(), d, dy.data(), d,
                                                                    x.data(), &beta, d, dx.data());
                                },
                                "miopenActivationBackward");
        printActivationTimes("Backward", "bwd-activ", t, dataSz, time, wall);
        if(verify)
        {
            Tensor<T> dxRef(dims);
            tsu::forEachIndex(dims, [&](const std::vector<int64_t>& i) {
                dxRef.at(i) = tsu::fromDouble<T>(ref.backward(tsu::toDouble(dy.at(i)), tsu::toDouble(x.at(i))));
            });
            maybeCorrupt(dx.data(), dx.sizeBytes() / sizeof(T));
            const Verdict v = compareWithReference<T>(dxRef.view(), dx.view(), tol, tol);
            if(v.ok)
                std::cout << "Backward Activation Verifies OK on CPU reference (" << v.maxError << " < " << v.tolerance
                          << ')' << std::endl;
            else
            {
                std::cout << "Backward Activation FAILED: " << v.maxError << " > " << v.tolerance << "\n  " << v.why
                          << std::endl;
                rc |= kFailVerifyBwd;
            }
        }
    }
    return rc;
}

} // namespace

int runActivation(const std::string& base, int argc, char** argv)
{
    return runSubCommand(base, "activ", addActivationFlags, argc, argv,
                         [](auto type, InputFlags& flags) { return runTyped<typename decltype(type)::type>(flags); });
}

} // namespace miopen_driver
