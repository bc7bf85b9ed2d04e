// A MIOpen client program as the public MIOpen examples write one: HIP device buffers, a stream
// handed to MIOpen, Find within the workspace GetWorkSpaceSize asks for, the fastest algorithm run,
// the result copied back and checked against a plain CPU convolution. Timed with HIP events.
// It uses only <hip/hip_runtime.h> and <miopen/miopen.h>: built here against hip_host and our
// MIOpen with no change to its source.
#include <hip/hip_runtime.h>
#include <miopen/miopen.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define HIP_CHECK(cmd)                                                                         \
    do                                                                                         \
    {                                                                                          \
        hipError_t e_ = (cmd);                                                                 \
        if(e_ != hipSuccess)                                                                   \
        {                                                                                      \
            std::fprintf(stderr, "HIP error '%s' (%d) at %s:%d\n", hipGetErrorString(e_),      \
                         (int)e_, __FILE__, __LINE__);                                         \
            std::exit(EXIT_FAILURE);                                                           \
        }                                                                                      \
    } while(0)

#define MIOPEN_CHECK(cmd)                                                                      \
    do                                                                                         \
    {                                                                                          \
        miopenStatus_t s_ = (cmd);                                                             \
        if(s_ != miopenStatusSuccess)                                                          \
        {                                                                                      \
            std::fprintf(stderr, "MIOpen error '%s' (%d) at %s:%d\n", miopenGetErrorString(s_), \
                         (int)s_, __FILE__, __LINE__);                                         \
            std::exit(EXIT_FAILURE);                                                           \
        }                                                                                      \
    } while(0)

static float next_value(unsigned& state)
{
    state = state * 1664525u + 1013904223u;
    return static_cast<float>((state >> 8) & 0xffff) / 65536.0f - 0.5f;
}

int main()
{
    const int n = 2, c = 3, h = 16, w = 16; // input
    const int k = 8, r = 3, s = 3;          // filter
    const int pad = 1, stride = 1, dilation = 1;

    int deviceCount = 0;
    HIP_CHECK(hipGetDeviceCount(&deviceCount));
    HIP_CHECK(hipSetDevice(0));
    hipDeviceProp_t props;
    HIP_CHECK(hipGetDeviceProperties(&props, 0));
    std::printf("device 0 of %d: %s (%s, %d compute units)\n", deviceCount, props.name, props.gcnArchName,
                props.multiProcessorCount);

    hipStream_t stream;
    HIP_CHECK(hipStreamCreate(&stream));
    miopenHandle_t handle;
    MIOPEN_CHECK(miopenCreateWithStream(&handle, stream));

    miopenTensorDescriptor_t xDesc, wDesc, yDesc;
    miopenConvolutionDescriptor_t convDesc;
    MIOPEN_CHECK(miopenCreateTensorDescriptor(&xDesc));
    MIOPEN_CHECK(miopenCreateTensorDescriptor(&wDesc));
    MIOPEN_CHECK(miopenCreateTensorDescriptor(&yDesc));
    MIOPEN_CHECK(miopenCreateConvolutionDescriptor(&convDesc));
    MIOPEN_CHECK(miopenSet4dTensorDescriptor(xDesc, miopenFloat, n, c, h, w));
    MIOPEN_CHECK(miopenSet4dTensorDescriptor(wDesc, miopenFloat, k, c, r, s));
    MIOPEN_CHECK(miopenInitConvolutionDescriptor(convDesc, miopenConvolution, pad, pad, stride, stride, dilation, dilation));
    int on, oc, oh, ow;
    MIOPEN_CHECK(miopenGetConvolutionForwardOutputDim(convDesc, xDesc, wDesc, &on, &oc, &oh, &ow));
    MIOPEN_CHECK(miopenSet4dTensorDescriptor(yDesc, miopenFloat, on, oc, oh, ow));

    const size_t xCount = static_cast<size_t>(n) * c * h * w;
    const size_t wCount = static_cast<size_t>(k) * c * r * s;
    const size_t yCount = static_cast<size_t>(on) * oc * oh * ow;
    std::vector<float> hx(xCount), hw(wCount), hy(yCount, 0.0f);
    unsigned seed = 12345u;
    for(auto& v : hx)
        v = next_value(seed);
    for(auto& v : hw)
        v = next_value(seed);

    float *dx, *dw, *dy;
    HIP_CHECK(hipMalloc(&dx, xCount * sizeof(float)));
    HIP_CHECK(hipMalloc(&dw, wCount * sizeof(float)));
    HIP_CHECK(hipMalloc(&dy, yCount * sizeof(float)));
    HIP_CHECK(hipMemcpy(dx, hx.data(), xCount * sizeof(float), hipMemcpyHostToDevice));
    HIP_CHECK(hipMemcpy(dw, hw.data(), wCount * sizeof(float), hipMemcpyHostToDevice));
    HIP_CHECK(hipMemset(dy, 0, yCount * sizeof(float)));

    size_t wsSize = 0;
    MIOPEN_CHECK(miopenConvolutionForwardGetWorkSpaceSize(handle, wDesc, xDesc, convDesc, yDesc, &wsSize));
    void* workspace = nullptr;
    if(wsSize > 0)
        HIP_CHECK(hipMalloc(&workspace, wsSize));

    const int requestAlgoCount = 4;
    int returnedAlgoCount = 0;
    miopenConvAlgoPerf_t perf[requestAlgoCount];
    MIOPEN_CHECK(miopenFindConvolutionForwardAlgorithm(handle, xDesc, dx, wDesc, dw, convDesc, yDesc, dy,
                                                       requestAlgoCount, &returnedAlgoCount, perf, workspace,
                                                       wsSize, false));
    if(returnedAlgoCount < 1)
    {
        std::fprintf(stderr, "Find returned no algorithm\n");
        return EXIT_FAILURE;
    }
    std::printf("Find: %d algorithm(s); fastest %d (%.4f ms, workspace %zu bytes)\n", returnedAlgoCount,
                static_cast<int>(perf[0].fwd_algo), perf[0].time, perf[0].memory);

    hipEvent_t start, stop;
    HIP_CHECK(hipEventCreate(&start));
    HIP_CHECK(hipEventCreate(&stop));
    const float alpha = 1.0f, beta = 0.0f;
    HIP_CHECK(hipEventRecord(start, stream));
    MIOPEN_CHECK(miopenConvolutionForward(handle, &alpha, xDesc, dx, wDesc, dw, convDesc, perf[0].fwd_algo, &beta,
                                          yDesc, dy, workspace, wsSize));
    HIP_CHECK(hipEventRecord(stop, stream));
    HIP_CHECK(hipEventSynchronize(stop));
    float ms = 0.0f;
    HIP_CHECK(hipEventElapsedTime(&ms, start, stop));
    HIP_CHECK(hipMemcpy(hy.data(), dy, yCount * sizeof(float), hipMemcpyDeviceToHost));

    // The CPU reference: a direct loop in double.
    double maxErr = 0.0;
    for(int ni = 0; ni < on; ++ni)
        for(int ki = 0; ki < oc; ++ki)
            for(int p = 0; p < oh; ++p)
                for(int q = 0; q < ow; ++q)
                {
                    double acc = 0.0;
                    for(int ci = 0; ci < c; ++ci)
                        for(int ri = 0; ri < r; ++ri)
                            for(int si = 0; si < s; ++si)
                            {
                                const int hi = p * stride - pad + ri * dilation;
                                const int wi = q * stride - pad + si * dilation;
                                if(hi < 0 || hi >= h || wi < 0 || wi >= w)
                                    continue;
                                acc += static_cast<double>(hx[((static_cast<size_t>(ni) * c + ci) * h + hi) * w + wi]) *
                                       hw[((static_cast<size_t>(ki) * c + ci) * r + ri) * s + si];
                            }
                    const double got = hy[((static_cast<size_t>(ni) * oc + ki) * oh + p) * ow + q];
                    maxErr = std::fmax(maxErr, std::fabs(got - acc));
                }

    std::printf("forward convolution %dx%dx%dx%d * %dx%dx%dx%d -> %dx%dx%dx%d: %.4f ms, max |error| %.3g\n", n, c,
                h, w, k, c, r, s, on, oc, oh, ow, ms, maxErr);

    HIP_CHECK(hipEventDestroy(start));
    HIP_CHECK(hipEventDestroy(stop));
    HIP_CHECK(hipFree(workspace));
    HIP_CHECK(hipFree(dx));
    HIP_CHECK(hipFree(dw));
    HIP_CHECK(hipFree(dy));
    MIOPEN_CHECK(miopenDestroyConvolutionDescriptor(convDesc));
    MIOPEN_CHECK(miopenDestroyTensorDescriptor(xDesc));
    MIOPEN_CHECK(miopenDestroyTensorDescriptor(wDesc));
    MIOPEN_CHECK(miopenDestroyTensorDescriptor(yDesc));
    MIOPEN_CHECK(miopenDestroy(handle));
    HIP_CHECK(hipStreamDestroy(stream));

    if(!(maxErr <= 1e-4))
    {
        std::printf("FAILED: forward convolution differs from the CPU reference\n");
        return EXIT_FAILURE;
    }
    std::printf("PASSED\n");
    return EXIT_SUCCESS;
}
