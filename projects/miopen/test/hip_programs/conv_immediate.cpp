// A MIOpen client program on the immediate-mode API, written as the public MIOpen examples are:
// HIP device buffers, a stream handed to MIOpen, the solutions for the problem
// (GetSolutionCount / GetSolution), the first one's workspace, compiled and run with
// miopenConvolutionForwardImmediate on a grouped convolution; the result copied back and checked
// against a plain CPU loop. Only <hip/hip_runtime.h> and <miopen/miopen.h>: built against hip_host
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
    const int n = 2, c = 4, h = 10, w = 10; // input
    const int k = 6, groups = 2, r = 3, s = 3;
    const int cg = c / groups, kg = k / groups;
    const int pad = 0, stride = 1, dilation = 2;

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
    MIOPEN_CHECK(miopenSet4dTensorDescriptor(wDesc, miopenFloat, k, cg, r, s));
    MIOPEN_CHECK(miopenInitConvolutionDescriptor(convDesc, miopenConvolution, pad, pad, stride, stride, dilation, dilation));
    MIOPEN_CHECK(miopenSetConvolutionGroupCount(convDesc, groups));
    int on, oc, oh, ow;
    MIOPEN_CHECK(miopenGetConvolutionForwardOutputDim(convDesc, xDesc, wDesc, &on, &oc, &oh, &ow));
    MIOPEN_CHECK(miopenSet4dTensorDescriptor(yDesc, miopenFloat, on, oc, oh, ow));

    const size_t xCount = static_cast<size_t>(n) * c * h * w;
    const size_t wCount = static_cast<size_t>(k) * cg * r * s;
    const size_t yCount = static_cast<size_t>(on) * oc * oh * ow;
    std::vector<float> hx(xCount), hw(wCount), hy(yCount);
    unsigned seed = 4242u;
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

    size_t solutionCount = 0;
    MIOPEN_CHECK(miopenConvolutionForwardGetSolutionCount(handle, wDesc, xDesc, convDesc, yDesc, &solutionCount));
    if(solutionCount == 0)
    {
        std::fprintf(stderr, "no solution for the problem\n");
        return EXIT_FAILURE;
    }
    std::vector<miopenConvSolution_t> solutions(solutionCount);
    MIOPEN_CHECK(miopenConvolutionForwardGetSolution(handle, wDesc, xDesc, convDesc, yDesc, solutionCount,
                                                     &solutionCount, solutions.data()));
    const miopenConvSolution_t& best = solutions[0];
    std::printf("%zu solution(s); running id %llu (algorithm %d, %.4f ms, workspace %zu bytes)\n", solutionCount,
                static_cast<unsigned long long>(best.solution_id), static_cast<int>(best.algorithm), best.time,
                best.workspace_size);

    size_t wsSize = 0;
    MIOPEN_CHECK(miopenConvolutionForwardGetSolutionWorkspaceSize(handle, wDesc, xDesc, convDesc, yDesc,
                                                                  best.solution_id, &wsSize));
    void* workspace = nullptr;
    if(wsSize > 0)
        HIP_CHECK(hipMalloc(&workspace, wsSize));
    MIOPEN_CHECK(miopenConvolutionForwardCompileSolution(handle, wDesc, xDesc, convDesc, yDesc, best.solution_id));
    MIOPEN_CHECK(miopenConvolutionForwardImmediate(handle, wDesc, dw, xDesc, dx, convDesc, yDesc, dy, workspace, wsSize,
                                                   best.solution_id));
    HIP_CHECK(hipStreamSynchronize(stream));
    HIP_CHECK(hipMemcpy(hy.data(), dy, yCount * sizeof(float), hipMemcpyDeviceToHost));

    // The CPU reference: each group convolves its own channels.
    double maxErr = 0.0;
    for(int ni = 0; ni < n; ++ni)
        for(int ki = 0; ki < k; ++ki)
            for(int p = 0; p < oh; ++p)
                for(int q = 0; q < ow; ++q)
                {
                    const int g = ki / kg;
                    double acc = 0.0;
                    for(int cj = 0; cj < cg; ++cj)
                        for(int ri = 0; ri < r; ++ri)
                            for(int si = 0; si < s; ++si)
                            {
                                const int hi = p * stride - pad + ri * dilation;
                                const int wi = q * stride - pad + si * dilation;
                                if(hi < 0 || hi >= h || wi < 0 || wi >= w)
                                    continue;
                                const int ci = g * cg + cj;
                                acc += static_cast<double>(hx[((static_cast<size_t>(ni) * c + ci) * h + hi) * w + wi]) *
                                       hw[((static_cast<size_t>(ki) * cg + cj) * r + ri) * s + si];
                            }
                    maxErr = std::fmax(maxErr, std::fabs(hy[((static_cast<size_t>(ni) * k + ki) * oh + p) * ow + q] - acc));
                }
    std::printf("grouped forward convolution (groups %d, dilation %d): max |error| %.3g\n", groups, dilation, maxErr);

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
        std::printf("FAILED: immediate-mode convolution differs from the CPU reference\n");
        return EXIT_FAILURE;
    }
    std::printf("PASSED\n");
    return EXIT_SUCCESS;
}
