// MIOpenDriver tensorop / tensoropfp16 / tensoropbfp16: upstream's tensor-operation driver on
// packed N x C x H x W tensors. --tensor_op (-o) picks the call: 0 miopenSetTensor, 1
// miopenScaleTensor (both with --tensor_val, -v, on A in place), 2..5 miopenOpTensor add, mul, min,
// max: C = op(alpha1 * A, alpha2 * B) + beta * C (-A, -B, -G). Each call runs -i times on the same
// buffers, so with beta != 0 (and for ScaleTensor) the result accumulates over the iterations;
// -V 1 replays the same iterations in a plain loop (double arithmetic, each iteration's result
// rounded to the data type) and compares.
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

void addTensorOpFlags(InputFlags& f)
{
    f.add("forw", 'F', "1", "Direction of operation (not used)");
    f.add("batchsize", 'n', "64", "Mini-batch size");
    f.add("in_channels", 'c', "3", "Number of Input Channels");
    f.add("in_h", 'H', "32", "Input Height");
    f.add("in_w", 'W', "32", "Input Width");
    f.add("alpha1", 'A', "1", "OpTensor alpha1 (scales A)");
    f.add("alpha2", 'B', "1", "OpTensor alpha2 (scales B)");
    f.add("beta", 'G', "0", "OpTensor beta (scales the prior C)");
    f.add("iter", 'i', "10", "Number of Iterations");
    f.add("verify", 'V', "1", "Verify Each Layer");
    f.add("time", 't', "0", "Time Each Layer");
    f.add("wall", 'w', "0", "Wall-clock Time Each Layer");
    f.add("tensor_op", 'o', "0",
          "Tensor Op to execute: 0 - SetTensor, 1 - ScaleTensor, 2 - Add, 3 - Mul, 4 - Min, 5 - Max");
    f.add("tensor_val", 'v', "1", "Scalar value for SetTensor and ScaleTensor");
}

double applyOp(miopenTensorOp_t op, double a, double b)
{
    switch(op)
    {
    case miopenTensorOpAdd: return a + b;
    case miopenTensorOpMul: return a * b;
    case miopenTensorOpMin: return a < b ? a : b;
    case miopenTensorOpMax: return a > b ? a : b;
    }
    throw DriverError("unknown tensor op " + std::to_string(static_cast<int>(op)));
}

template <typename T>
int runTyped(const InputFlags& f)
{
    constexpr miopenDataType_t kType = TypeInfo<T>::kType;
    const int rawOp = f.integer("tensor_op");
    if(rawOp < 0 || rawOp > 5)
        throw DriverError("Incorrect Tensor Op: " + std::to_string(rawOp) + " (0..5)");
    const bool isSet = rawOp == 0, isScale = rawOp == 1;
    const auto op    = static_cast<miopenTensorOp_t>(std::max(rawOp - 2, 0));
    const float alpha1 = static_cast<float>(f.real("alpha1")), alpha2 = static_cast<float>(f.real("alpha2"));
    const float beta   = static_cast<float>(f.real("beta"));
    // SetTensor and ScaleTensor take the scalar in the tensor's element type.
    const T value = tsu::fromDouble<T>(f.real("tensor_val"));
    const std::vector<int64_t> dims = {f.integer("batchsize"), f.integer("in_channels"), f.integer("in_h"),
                                       f.integer("in_w")};

    Handle handle;
    const bool time = f.integer("time") == 1;
    if(time)
        MIOPEN_DRIVER_CHECK(miopenEnableProfiling(handle.get(), true));
    TensorDesc desc;
    desc.set(kType, dims, hipdnn_data_sdk::utilities::packedStrides(dims));
    Tensor<T> a(dims), b(dims), c(dims);
    fillUniform(a, -2.f, 2.f, 71);
    fillUniform(b, -2.f, 2.f, 72);
    fillUniform(c, -2.f, 2.f, 73);
    const Tensor<T> a0 = a, c0 = c;

    const miopenHandle_t h = handle.get();
    const auto d           = desc.get();
    const char* what       = isSet ? "miopenSetTensor" : isScale ? "miopenScaleTensor" : "miopenOpTensor";
    const auto t           = timeLoop(handle, f.integer("iter"), time,
                            [&] {
                                if(isSet)
                                    return miopenSetTensor(h, d, a.data(), &value);
                                if(isScale)
                                    return miopenScaleTensor(h, d, a.data(), &value);
                                return miopenOpTensor(h, op, &alpha1, d, a.data(), &alpha2, d, b.data(), &beta, d,
                                                      c.data());
                            },
                            what);
    if(time || f.integer("wall") == 1)
        std::printf("Wall-clock Time Tensor Ops Elapsed: %f ms, for %d iterations.\n", t.wallAverageMs(),
                    t.iters > 1 ? t.iters - 1 : 1);
    if(time)
    {
        std::printf("GPU Kernel Min Time Tensor Op Elapsed: %f ms\n", static_cast<double>(t.kernelMinMs));
        if(t.iters > 1)
            std::printf("GPU Kernel Avg Time Tensor Op Elapsed: %f ms, for %d iterations.\n",
                        static_cast<double>(t.kernelAverageMs()), t.iters - 1);
        const double dataSz = static_cast<double>(hipdnn_data_sdk::utilities::elementCount(dims)) * sizeof(T);
        const double read   = isSet ? 0.0 : isScale ? dataSz : (beta != 0.f ? 3.0 : 2.0) * dataSz;
        const float ms      = t.kernelAverageMs();
        std::printf("stats: name, bytesRead, bytesWritten, GB/s, timeMs\n");
        std::printf("stats: tensor op, %.0f, %.0f, %f, %f\n", read, dataSz,
                    ms > 0.f ? (read + dataSz) / static_cast<double>(ms) / 1e6 : 0.0, static_cast<double>(ms));
    }
    if(f.integer("verify") != 1)
        return 0;

    // The same iterations on the CPU, each result rounded to T as the library stores it.
    Tensor<T> ref = isSet || isScale ? a0 : c0;
    for(int it = 0; it < t.iters; ++it)
        tsu::forEachIndex(dims, [&](const std::vector<int64_t>& i) {
            double r;
            if(isSet)
                r = tsu::toDouble(value);
            else if(isScale)
                r = tsu::toDouble(ref.at(i)) * tsu::toDouble(value);
            else
            {
                r = applyOp(op, alpha1 * tsu::toDouble(a.at(i)), alpha2 * tsu::toDouble(b.at(i)));
                if(beta != 0.f)
                    r += beta * tsu::toDouble(ref.at(i));
            }
            ref.at(i) = tsu::fromDouble<T>(r);
        });
    Tensor<T>& out = isSet || isScale ? a : c;
    maybeCorrupt(out.data(), out.sizeBytes() / sizeof(T));
    // A rounding difference of one iteration is carried on by beta (or the scale): the pointwise
    // tolerance per accumulated iteration.
    const bool accumulates = isScale || (!isSet && beta != 0.f);
    const double tol = std::max(tsu::pointwise::getTolerance<T>(), 2.0 * tsu::unitRoundoff<T>()) *
                       (accumulates ? static_cast<double>(t.iters) : 1.0);
    return reportVerdict("Tensor Op", compareWithReference<T>(ref.view(), out.view(), tol, tol), kFailVerifyFwd);
}

} // namespace

int runTensorOp(const std::string& base, int argc, char** argv)
{
    return runSubCommand(base, "tensorop", addTensorOpFlags, argc, argv,
                         [](auto type, InputFlags& flags) { return runTyped<typename decltype(type)::type>(flags); });
}

} // namespace miopen_driver
