// A MIOpen client program for the backward passes, written as the public MIOpen examples are:
// HIP device buffers and a stream handed to MIOpen; for backward data and backward weights each,
// the workspace size, Find within it, the fastest algorithm run; results copied back and checked
// against plain CPU loops. Only <hip/hip_runtime.h> and <miopen/miopen.h>: built against hip_host
// and our MIOpen with no change to its source.
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
    const int n = 2, c = 4, h = 9, w = 9; // input
    const int k = 6, r = 3, s = 3;        // filter
    const int pad = 1, stride = 2, dilation = 1;

    hipStream_t stream;
    HIP_CHECK(hipStreamCreateWithFlags(&stream, hipStreamNonBlocking));
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
    std::vector<float> hx(xCount), hw(wCount), hdy(yCount), hdx(xCount), hdw(wCount);
    unsigned seed = 777u;
    for(auto& v : hx)
        v = next_value(seed);
    for(auto& v : hw)
        v = next_value(seed);
    for(auto& v : hdy)
        v = next_value(seed);

    float *dx, *dw, *ddy, *ddx, *ddw;
    HIP_CHECK(hipMalloc(&dx, xCount * sizeof(float)));
    HIP_CHECK(hipMalloc(&dw, wCount * sizeof(float)));
    HIP_CHECK(hipMalloc(&ddy, yCount * sizeof(float)));
    HIP_CHECK(hipMalloc(&ddx, xCount * sizeof(float)));
    HIP_CHECK(hipMalloc(&ddw, wCount * sizeof(float)));
    HIP_CHECK(hipMemcpyAsync(dx, hx.data(), xCount * sizeof(float), hipMemcpyHostToDevice, stream));
    HIP_CHECK(hipMemcpyAsync(dw, hw.data(), wCount * sizeof(float), hipMemcpyHostToDevice, stream));
    HIP_CHECK(hipMemcpyAsync(ddy, hdy.data(), yCount * sizeof(float), hipMemcpyHostToDevice, stream));
    HIP_CHECK(hipStreamSynchronize(stream));

    const float alpha = 1.0f, beta = 0.0f;
    const int requestAlgoCount = 4;
    int returned = 0;
    miopenConvAlgoPerf_t perf[requestAlgoCount];

    // Backward data: dx = conv^T(dy, w).
    size_t wsData = 0;
    MIOPEN_CHECK(miopenConvolutionBackwardDataGetWorkSpaceSize(handle, yDesc, wDesc, convDesc, xDesc, &wsData));
    void* workData = nullptr;
    if(wsData > 0)
        HIP_CHECK(hipMalloc(&workData, wsData));
    MIOPEN_CHECK(miopenFindConvolutionBackwardDataAlgorithm(handle, yDesc, ddy, wDesc, dw, convDesc, xDesc, ddx,
                                                            requestAlgoCount, &returned, perf, workData, wsData, false));
    if(returned < 1)
    {
        std::fprintf(stderr, "Find (backward data) returned no algorithm\n");
        return EXIT_FAILURE;
    }
    std::printf("backward data: %d algorithm(s), running %d\n", returned, static_cast<int>(perf[0].bwd_data_algo));
    MIOPEN_CHECK(miopenConvolutionBackwardData(handle, &alpha, yDesc, ddy, wDesc, dw, convDesc, perf[0].bwd_data_algo,
                                               &beta, xDesc, ddx, workData, wsData));

    // Backward weights: dw = x (*) dy.
    size_t wsWeights = 0;
    MIOPEN_CHECK(miopenConvolutionBackwardWeightsGetWorkSpaceSize(handle, yDesc, xDesc, convDesc, wDesc, &wsWeights));
    void* workWeights = nullptr;
    if(wsWeights > 0)
        HIP_CHECK(hipMalloc(&workWeights, wsWeights));
    MIOPEN_CHECK(miopenFindConvolutionBackwardWeightsAlgorithm(handle, yDesc, ddy, xDesc, dx, convDesc, wDesc, ddw,
                                                               requestAlgoCount, &returned, perf, workWeights,
                                                               wsWeights, false));
    if(returned < 1)
    {
        std::fprintf(stderr, "Find (backward weights) returned no algorithm\n");
        return EXIT_FAILURE;
    }
    std::printf("backward weights: %d algorithm(s), running %d\n", returned,
                static_cast<int>(perf[0].bwd_weights_algo));
    MIOPEN_CHECK(miopenConvolutionBackwardWeights(handle, &alpha, yDesc, ddy, xDesc, dx, convDesc,
                                                  perf[0].bwd_weights_algo, &beta, wDesc, ddw, workWeights, wsWeights));
    HIP_CHECK(hipDeviceSynchronize());
    HIP_CHECK(hipMemcpy(hdx.data(), ddx, xCount * sizeof(float), hipMemcpyDeviceToHost));
    HIP_CHECK(hipMemcpy(hdw.data(), ddw, wCount * sizeof(float), hipMemcpyDeviceToHost));

    // CPU references: scatter every output gradient back through the forward's index map.
    std::vector<double> refDx(xCount, 0.0), refDw(wCount, 0.0);
    for(int ni = 0; ni < n; ++ni)
        for(int ki = 0; ki < k; ++ki)
            for(int p = 0; p < oh; ++p)
                for(int q = 0; q < ow; ++q)
                {
                    const double g = hdy[((static_cast<size_t>(ni) * k + ki) * oh + p) * ow + q];
                    for(int ci = 0; ci < c; ++ci)
                        for(int ri = 0; ri < r; ++ri)
                            for(int si = 0; si < s; ++si)
                            {
                                const int hi = p * stride - pad + ri * dilation;
                                const int wi = q * stride - pad + si * dilation;
                                if(hi < 0 || hi >= h || wi < 0 || wi >= w)
                                    continue;
                                const size_t xi = ((static_cast<size_t>(ni) * c + ci) * h + hi) * w + wi;
                                const size_t wi2 = ((static_cast<size_t>(ki) * c + ci) * r + ri) * s + si;
                                refDx[xi] += g * hw[wi2];
                                refDw[wi2] += g * hx[xi];
                            }
                }
    double errDx = 0.0, errDw = 0.0;
    for(size_t i = 0; i < xCount; ++i)
        errDx = std::fmax(errDx, std::fabs(hdx[i] - refDx[i]));
    for(size_t i = 0; i < wCount; ++i)
        errDw = std::fmax(errDw, std::fabs(hdw[i] - refDw[i]));
    std::printf("max |error|: backward data %.3g, backward weights %.3g\n", errDx, errDw);

    HIP_CHECK(hipFree(workData));
    HIP_CHECK(hipFree(workWeights));
    HIP_CHECK(hipFree(dx));
    HIP_CHECK(hipFree(dw));
    HIP_CHECK(hipFree(ddy));
    HIP_CHECK(hipFree(ddx));
    HIP_CHECK(hipFree(ddw));
    MIOPEN_CHECK(miopenDestroyConvolutionDescriptor(convDesc));
    MIOPEN_CHECK(miopenDestroyTensorDescriptor(xDesc));
    MIOPEN_CHECK(miopenDestroyTensorDescriptor(wDesc));
    MIOPEN_CHECK(miopenDestroyTensorDescriptor(yDesc));
    MIOPEN_CHECK(miopenDestroy(handle));
    HIP_CHECK(hipStreamDestroy(stream));

    if(!(errDx <= 1e-4) || !(errDw <= 1e-4))
    {
        std::printf("FAILED: backward results differ from the CPU reference\n");
        return EXIT_FAILURE;
    }
    std::printf("PASSED\n");
    return EXIT_SUCCESS;
}
