// MIOpenDriver pool / poolfp16 / poolbfp16: 2-D or 3-D pooling forward (-F 1) or forward and
// backward (-F 0), with upstream's tensor flag `--input NxCx[D]xHxW[,layout or strides]`,
// checked against the plain-loop reference of PoolSoftmaxReference.hpp.
#include "Driver.hpp"
#include "PoolSoftmaxReference.hpp"

#include <cctype>
#include <cstdio>
#include <iostream>
#include <sstream>

namespace miopen_driver
{
namespace
{

constexpr int kFailVerifyFwd = 0x10;
constexpr int kFailVerifyBwd = 0x20;

void addPoolFlags(InputFlags& f)
{
    f.add("input", 'W', "100x3x32x32,NCHW", "Input tensor descriptor, NxC[xD]xHxW[,LayoutOrStrides]");
    f.add("output", 'O', "", "Output tensor descriptor (lengths from the input; layout or strides may be given)");
    f.add("forw", 'F', "0", "Run only Forward Pooling (1), or forward and backward (0)");
    f.add("win_d", 'Z', "3", "Window Depth");
    f.add("win_h", 'y', "3", "Window Height");
    f.add("win_w", 'x', "3", "Window Width");
    f.add("pool_stride_d", 's', "1", "Pooling Stride Depth");
    f.add("pool_stride_h", 'v', "1", "Pooling Stride Height");
    f.add("pool_stride_w", 'u', "1", "Pooling Stride Width");
    f.add("pad_d", 'o', "0", "Zero Padding Depth");
    f.add("pad_h", 'p', "0", "Zero Padding Height");
    f.add("pad_w", 'q', "0", "Zero Padding Width");
    f.add("index_position", 'M', "0", "Image index 1, mask index 0");
    f.add("iter", 'i', "10", "Number of Iterations");
    f.add("verify", 'V', "1", "Verify Each Layer");
    f.add("time", 't', "0", "Time Each Layer");
    f.add("wall", 'w', "0", "Wall-clock Time Each Layer");
    f.add("mode", 'm', "max", "Pooling Mode (max, avg, avg_in)");
    f.add("index_type", 'I', "miopenIndexUint8",
          "Index Data Type (miopenIndexUint8, miopenIndexUint16, miopenIndexUint32, miopenIndexUint64)");
}

struct TensorFlag
{
    std::vector<int64_t> lengths;
    std::vector<int64_t> strides;
    std::string layout;
};

std::vector<int64_t> splitX(const std::string& s, const std::string& flag)
{
    std::vector<int64_t> v;
    std::stringstream ss(s);
    std::string part;
    while(std::getline(ss, part, 'x'))
    {
        std::size_t used = 0;
        long long value  = 0;
        try
        {
            value = std::stoll(part, &used);
        }
        catch(const std::exception&)
        {
            used = 0;
        }
        if(used != part.size() || part.empty())
            throw DriverError("Invalid tensor component " + part + " in --" + flag + " " + s);
        v.push_back(value);
    }
    return v;
}

// upstream's tensor flag: "NxCxHxW", "NxCxHxW,NHWC" or "NxCxHxW,sNxsCxsHxsW".
TensorFlag parseTensorFlag(const std::string& value, const std::string& flag)
{
    TensorFlag t;
    if(value.empty())
        return t;
    const auto comma = value.find(',');
    t.lengths        = splitX(value.substr(0, comma), flag);
    if(comma == std::string::npos)
        return t;
    const std::string rest = value.substr(comma + 1);
    if(rest.find(',') != std::string::npos)
        throw DriverError("Too many tensor descriptor parameters in --" + flag);
    if(!rest.empty() && std::isdigit(static_cast<unsigned char>(rest[0])))
        t.strides = splitX(rest, flag);
    else
        t.layout = rest;
    return t;
}

std::vector<int64_t> stridesOf(const TensorFlag& t)
{
    if(!t.strides.empty())
    {
        if(t.strides.size() != t.lengths.size())
            throw DriverError("tensor strides and lengths differ in rank");
        return t.strides;
    }
    return layoutStrides(t.lengths, t.layout);
}

miopenIndexType_t indexType(const std::string& name)
{
    if(name == "miopenIndexUint8")
        return miopenIndexUint8;
    if(name == "miopenIndexUint16")
        return miopenIndexUint16;
    if(name == "miopenIndexUint32")
        return miopenIndexUint32;
    if(name == "miopenIndexUint64")
        return miopenIndexUint64;
    throw DriverError("Incorrect Index Data Type: " + name);
}

void printPoolStats(const char* dir, const std::vector<int64_t>& x, const std::vector<int64_t>& y,
                    const std::vector<int>& window, const std::vector<int>& strides, double bytesRead,
                    double bytesWritten, float ms)
{
    std::ostringstream name, header, dims;
    name << dir;
    for(std::size_t i = 0; i < window.size(); ++i)
        name << (i ? "x" : "") << window[i];
    name << 'u' << strides[0];
    header << "stats: name, n, c";
    dims << "stats: " << name.str() << ", " << x[0] << ", " << x[1];
    static const char* const kIn[]  = {"d", "h", "w"};
    static const char* const kOut[] = {"do", "ho", "wo"};
    const std::size_t sp = x.size() - 2, first = 3 - sp;
    for(std::size_t i = 0; i < sp; ++i)
    {
        header << ", " << kIn[first + i];
        dims << ", " << x[i + 2];
    }
    for(std::size_t i = 0; i < sp; ++i)
    {
        header << ", " << kOut[first + i];
        dims << ", " << y[i + 2];
    }
    header << ", bytesRead, bytesWritten, GB/s, timeMs";
    std::printf("%s\n", header.str().c_str());
    std::printf("%s, %.0f, %.0f, %f, %f\n", dims.str().c_str(), bytesRead, bytesWritten,
                ms > 0.f ? (bytesRead + bytesWritten) / static_cast<double>(ms) / 1e6 : 0.0, static_cast<double>(ms));
}

template <typename T>
int runTyped(const InputFlags& f)
{
    constexpr miopenDataType_t kType = TypeInfo<T>::kType;
    const TensorFlag in = parseTensorFlag(f.str("input"), "input");
    const std::size_t rank = in.lengths.size();
    if(rank != 4 && rank != 5)
        throw DriverError("--input must have 4 or 5 lengths (NxCxHxW or NxCxDxHxW)");
    const bool is3d = rank == 5;
    auto pick = [&](const char* d, const char* h, const char* w) { return f.spatial(is3d, d, h, w); };
    const auto window  = pick("win_d", "win_h", "win_w");
    const auto pads    = pick("pad_d", "pad_h", "pad_w");
    const auto strides = pick("pool_stride_d", "pool_stride_h", "pool_stride_w");
    const std::string modeName = f.str("mode");
    miopenPoolingMode_t mode;
    reference::PoolMode refMode;
    if(modeName == "max")
    {
        mode    = miopenPoolingMax;
        refMode = reference::PoolMode::Max;
    }
    else if(modeName == "avg")
    {
        mode    = miopenPoolingAverage;
        refMode = reference::PoolMode::Average;
    }
    else if(modeName == "avg_in")
    {
        mode    = miopenPoolingAverageInclusive;
        refMode = reference::PoolMode::AverageInclusive;
    }
    else
        throw DriverError("Incorrect Pooling Mode: " + modeName);
    const int forw = f.integer("forw");

    Handle handle;
    const bool time = f.integer("time") == 1;
    if(time)
        MIOPEN_DRIVER_CHECK(miopenEnableProfiling(handle.get(), true));
    PoolDescriptor pool;
    MIOPEN_DRIVER_CHECK(miopenSetNdPoolingDescriptor(pool.get(), mode, static_cast<int>(window.size()), window.data(),
                                                     pads.data(), strides.data()));
    MIOPEN_DRIVER_CHECK(miopenSetPoolingIndexType(pool.get(), indexType(f.str("index_type"))));
    // 3-D pooling always uses image indices (as upstream).
    MIOPEN_DRIVER_CHECK(miopenSetPoolingWorkSpaceIndexMode(
        pool.get(), is3d || f.integer("index_position") == 1 ? miopenPoolingWorkspaceIndexImage
                                                              : miopenPoolingWorkspaceIndexMask));

    const auto xStrides = stridesOf(in);
    TensorDesc xDesc, yDesc;
    xDesc.set(kType, in.lengths, xStrides);
    std::vector<int> yd(rank);
    MIOPEN_DRIVER_CHECK(miopenGetPoolingNdForwardOutputDim(pool.get(), xDesc.get(), static_cast<int>(rank), yd.data()));
    TensorFlag out = parseTensorFlag(f.str("output"), "output");
    out.lengths.assign(yd.begin(), yd.end());
    if(out.layout.empty() && out.strides.empty())
        out.layout = in.layout;
    const auto yStrides = stridesOf(out);
    yDesc.set(kType, out.lengths, yStrides);

    Tensor<T> x(in.lengths, xStrides), y(out.lengths, yStrides), dy(out.lengths, yStrides), dx(in.lengths, xStrides);
    fillUniform(x, -1.f, 1.f, 31);
    fillUniform(dy, -1.f, 1.f, 32);
    size_t wsSize = 0;
    MIOPEN_DRIVER_CHECK(miopenPoolingGetWorkSpaceSizeV2(pool.get(), yDesc.get(), &wsSize));
    std::vector<unsigned char> workspace(std::max<size_t>(wsSize, 1));

    const bool doFwd  = forw == 0 || (forw & 1) != 0;
    const bool doBwd  = forw != 1;
    const bool verify = f.integer("verify") == 1;
    const bool wall   = time || f.integer("wall") == 1;
    const int iters   = f.integer("iter");
    const float alpha = 1.f, beta = 0.f;
    const miopenHandle_t h = handle.get();
    const double xBytes = static_cast<double>(hipdnn_data_sdk::utilities::elementCount(in.lengths)) * sizeof(T);
    const double yBytes = static_cast<double>(hipdnn_data_sdk::utilities::elementCount(out.lengths)) * sizeof(T);
    auto forward = [&] {
        return miopenPoolingForward(h, pool.get(), &alpha, xDesc.get(), x.data(), &beta, yDesc.get(), y.data(), doBwd,
                                    workspace.data(), wsSize);
    };

    reference::PoolParams rp;
    rp.mode = refMode;
    rp.window.assign(window.begin(), window.end());
    rp.pads.assign(pads.begin(), pads.end());
    rp.strides.assign(strides.begin(), strides.end());
    std::vector<std::vector<int64_t>> argmax;
    Tensor<T> yRef(out.lengths);
    reference::poolForward<T>(x.view(), yRef.view(), rp, &argmax);
    const double tol = sizeof(T) == 4 ? 1e-5 : 5e-3; // upstream's pooling tolerances
    int rc = 0;

    if(doFwd)
    {
        const auto t = timeLoop(handle, iters, time, forward, "miopenPoolingForward");
        if(wall)
            std::printf("Wall-clock Time Forward Pooling Elapsed: %f ms\n", t.wallAverageMs());
        if(time)
        {
            std::printf("GPU Kernel Time Forward Pooling Elapsed: %f ms\n", static_cast<double>(t.kernelAverageMs()));
            printPoolStats("fwd-pool", in.lengths, out.lengths, window, strides, xBytes, yBytes, t.kernelAverageMs());
        }
        if(verify)
        {
            maybeCorrupt(y.data(), y.sizeBytes() / sizeof(T));
            const Verdict v = compareWithReference<T>(yRef.view(), y.view(), tol, tol);
            if(v.ok)
                std::cout << "Forward Pooling Verifies OK on CPU reference (" << v.maxError << " < " << v.tolerance << ')'
                          << std::endl;
            else
            {
                std::cout << "Forward Pooling verification FAILED: " << v.maxError << " > " << v.tolerance << "\n  "
                          << v.why << std::endl;
                rc |= kFailVerifyFwd;
            }
        }
    }
    if(doBwd)
    {
        if(!doFwd) // the indices of max pooling come from a forward call
            MIOPEN_DRIVER_CHECK(forward());
        const auto t = timeLoop(handle, iters, time,
                                [&] {
                                    return miopenPoolingBackward(h, pool.get(), &alpha, yDesc.get(), y.data(), yDesc.get(),
                                                                 dy.data(), xDesc.get(), x.data(), &beta, xDesc.get(),
                                                                 dx.data(), workspace.data());
                                },
                                "miopenPoolingBackward");
        if(wall)
            std::printf("Wall-clock Time Backward Pooling Elapsed: %f ms\n", t.wallAverageMs());
        if(time)
        {
            std::printf("GPU Kernel Time Backward Pooling Elapsed: %f ms\n", static_cast<double>(t.kernelAverageMs()));
            printPoolStats("bwd-pool", in.lengths, out.lengths, window, strides, yBytes, xBytes, t.kernelAverageMs());
        }
        if(verify)
        {
            Tensor<T> dxRef(in.lengths);
            reference::poolBackward<T>(dy.view(), dxRef.view(), rp, argmax);
            maybeCorrupt(dx.data(), dx.sizeBytes() / sizeof(T));
            const Verdict v = compareWithReference<T>(dxRef.view(), dx.view(), tol, tol);
            if(v.ok)
                std::cout << "Backward Pooling Verifies OK on CPU reference (" << v.maxError << " < " << v.tolerance
                          << ')' << std::endl;
            else
            {
                std::cout << "Backward Pooling verification FAILED: " << v.maxError << " > " << v.tolerance << "\n  "
                          << v.why << std::endl;
                rc |= kFailVerifyBwd;
            }
        }
    }
    return rc;
}

} // namespace

int runPooling(const std::string& base, int argc, char** argv)
{
    return runSubCommand(base, "pool", addPoolFlags, argc, argv,
                         [](auto type, InputFlags& flags) { return runTyped<typename decltype(type)::type>(flags); });
}

} // namespace miopen_driver
