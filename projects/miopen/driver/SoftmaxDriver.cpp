// MIOpenDriver softmax / softmaxfp16 / softmaxbfp16: softmax forward (-F 1) and backward (-F 2;
// 0 both) through the _V2 calls (algorithm -a, mode -m, alpha -A, beta -B), checked against the
// plain-loop reference of PoolSoftmaxReference.hpp.
#include "Driver.hpp"
#include "PoolSoftmaxReference.hpp"

#include <cstdio>
#include <iostream>

namespace miopen_driver
{
namespace
{

constexpr int kFailVerifyFwd = 0x10;
constexpr int kFailVerifyBwd = 0x20;

void addSoftmaxFlags(InputFlags& f)
{
    f.add("forw", 'F', "0", "Run Forward (1), Backward (2) or both (0)");
    f.add("batchsize", 'n', "100", "Mini-batch size");
    f.add("in_channels", 'c', "3", "Number of Input Channels");
    f.add("in_h", 'H', "32", "Input Height");
    f.add("in_w", 'W', "32", "Input Width");
    f.add("alpha", 'A', "1.0", "Softmax alpha");
    f.add("beta", 'B', "0.0", "Softmax beta");
    f.add("algorithm", 'a', "1", "softmax algorithms: fast (0), accurate (1), logsoftmax (2)");
    f.add("mode", 'm', "1", "instance mode (0), channel mode (1)");
    f.add("iter", 'i', "10", "Number of Iterations");
    f.add("verify", 'V', "1", "Verify Each Layer");
    f.add("time", 't', "0", "Time Each Layer");
    f.add("wall", 'w', "0", "Wall-clock Time Each Layer");
}

void printSoftmaxTimes(const char* dir, const char* statsName, const std::vector<int64_t>& dims, const TimingResult& t,
                       double dataSz, bool time, bool wall)
{
    if(wall)
        std::printf("Wall-clock Time %s Softmax Elapsed: %f ms\n", dir, t.wallAverageMs());
    if(!time)
        return;
    const float ms = t.kernelAverageMs();
    std::printf("GPU Kernel Time %s Softmax Elapsed: %f ms\n", dir, static_cast<double>(ms));
    std::printf("stats: name, n, c, h, w, bytesRead, bytesWritten, GB/s, timeMs\n");
    std::printf("stats: %s, %lld, %lld, %lld, %lld, %.0f, %.0f, %f, %f\n", statsName, static_cast<long long>(dims[0]),
                static_cast<long long>(dims[1]), static_cast<long long>(dims[2]), static_cast<long long>(dims[3]),
                dataSz, dataSz, ms > 0.f ? 2.0 * dataSz / static_cast<double>(ms) / 1e6 : 0.0, static_cast<double>(ms));
}

template <typename T>
int runTyped(const InputFlags& f)
{
    constexpr miopenDataType_t kType = TypeInfo<T>::kType;
    const int algorithm = f.integer("algorithm"), mode = f.integer("mode");
    if(algorithm < 0 || algorithm > 2)
        throw DriverError("softmax --algorithm must be 0, 1 or 2");
    if(mode < 0 || mode > 1)
        throw DriverError("softmax --mode must be 0 or 1");
    const float alpha = static_cast<float>(f.real("alpha")), beta = static_cast<float>(f.real("beta"));
    const int forw = f.integer("forw");
    const std::vector<int64_t> dims = {f.integer("batchsize"), f.integer("in_channels"), f.integer("in_h"),
                                       f.integer("in_w")};

    Handle handle;
    const bool time = f.integer("time") == 1;
    if(time)
        MIOPEN_DRIVER_CHECK(miopenEnableProfiling(handle.get(), true));
    TensorDesc desc;
    desc.set(kType, dims, hipdnn_data_sdk::utilities::packedStrides(dims));
    Tensor<T> x(dims), y(dims), dy(dims), dx(dims);
    fillUniform(x, 0.f, 1.f, 51);
    fillUniform(dy, -0.5f, 0.5f, 52);

    const auto algo = static_cast<miopenSoftmaxAlgorithm_t>(algorithm);
    const auto md   = static_cast<miopenSoftmaxMode_t>(mode);
    const auto refAlgo = static_cast<reference::SoftmaxAlgorithm>(algorithm);
    const auto refMode = static_cast<reference::SoftmaxMode>(mode);
    const bool doFwd  = forw == 0 || (forw & 1) != 0;
    const bool doBwd  = forw == 0 || (forw & 2) != 0;
    const bool verify = f.integer("verify") == 1;
    const bool wall   = time || f.integer("wall") == 1;
    const int iters   = std::max(f.integer("iter"), 1);
    const miopenHandle_t h = handle.get();
    const auto d = desc.get();
    const double dataSz = static_cast<double>(hipdnn_data_sdk::utilities::elementCount(dims)) * sizeof(T);
    // upstream's softmax tolerances: 1e-3 (fp32), 5e-2 (16-bit)
    const double tol = sizeof(T) == 4 ? 1e-3 : 5e-2;
    int rc = 0;

    // y before the calls, so that the reference can blend with beta exactly as the calls did.
    const Tensor<T> y0 = y;
    auto forward = [&] { return miopenSoftmaxForward_V2(h, &alpha, d, x.data(), &beta, d, y.data(), algo, md); };
    if(doFwd)
    {
        const auto t = timeLoop(handle, iters, time, forward, "miopenSoftmaxForward_V2");
        printSoftmaxTimes("Forward", "fwd-softmax", dims, t, dataSz, time, wall);
        if(verify)
        {
            Tensor<T> yRef = y0;
            for(int it = 0; it < iters; ++it)
                reference::softmaxForward<T>(x.view(), yRef.view(), refAlgo, refMode, alpha, beta);
            maybeCorrupt(y.data(), y.sizeBytes() / sizeof(T));
            const Verdict v = compareWithReference<T>(yRef.view(), y.view(), tol, tol);
            if(v.ok)
                std::cout << "Forward Softmax Verifies OK on CPU reference (" << v.maxError << " < " << v.tolerance << ')'
                          << std::endl;
            else
            {
                std::cout << "Forward Softmax FAILED: " << v.maxError << " > " << v.tolerance << "\n  " << v.why
                          << std::endl;
                rc |= kFailVerifyFwd;
            }
        }
    }
    if(doBwd)
    {
        // The backward call reads the forward output; with beta = 0 one more forward call
        // leaves y as it is.
        if(!doFwd || beta != 0.f)
        {
            const float zero = 0.f;
            MIOPEN_DRIVER_CHECK(miopenSoftmaxForward_V2(h, &alpha, d, x.data(), &zero, d, y.data(), algo, md));
        }
        const Tensor<T> dx0 = dx;
        const auto t = timeLoop(handle, iters, time,
                                [&] {
                                    return miopenSoftmaxBackward_V2(h, &alpha, d, y.data(), d, dy.data(), &beta, d,
                                                                    dx.data(), algo, md);
                                },
                                "miopenSoftmaxBackward_V2");
        printSoftmaxTimes("Backward", "bwd-softmax", dims, t, dataSz, time, wall);
        if(verify)
        {
            Tensor<T> dxRef = dx0;
            for(int it = 0; it < iters; ++it)
                reference::softmaxBackward<T>(y.view(), dy.view(), dxRef.view(), refAlgo, refMode, alpha, beta);
            maybeCorrupt(dx.data(), dx.sizeBytes() / sizeof(T));
            const Verdict v = compareWithReference<T>(dxRef.view(), dx.view(), tol, tol);
            if(v.ok)
                std::cout << "Backward Softmax Verifies OK on CPU reference (" << v.maxError << " < " << v.tolerance
                          << ')' << std::endl;
            else
            {
                std::cout << "Backward Softmax FAILED: " << v.maxError << " > " << v.tolerance << "\n  " << v.why
                          << std::endl;
                rc |= kFailVerifyBwd;
            }
        }
    }
    return rc;
}

} // namespace

int runSoftmax(const std::string& base, int argc, char** argv)
{
    return runSubCommand(base, "softmax", addSoftmaxFlags, argc, argv,
                         [](auto type, InputFlags& flags) { return runTyped<typename decltype(type)::type>(flags); });
}

} // namespace miopen_driver
