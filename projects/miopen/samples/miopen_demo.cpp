// The main demo: a small convolution layer through the public MIOpen C API, as a framework would
// drive it — descriptors, workspace query, Find, execute forward / backward data / backward
// weights, and immediate mode with MIOpen's naive solvers (solution ids 85, 86, 87) — with every
// result checked against a plain-loop reference computed here in double (independent of the
// library, so the check also holds when the calls are forwarded to hipDNN). Each compute call
// runs twice; the time shown is the second (steady state: a forwarded call's first run also
// builds its hipDNN plan). Exits non-zero on any failure or mismatch.
//
// Usage: miopen_demo [N C H W K R]   (defaults: 4 16 28 28 32 3)
#include <miopen/miopen.h>
#include <miopen/version.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

namespace {

int gFailures = 0;

#define CHECK_MIOPEN(expr)                                                                      \
    do                                                                                          \
    {                                                                                           \
        const miopenStatus_t s_ = (expr);                                                       \
        if(s_ != miopenStatusSuccess)                                                           \
        {                                                                                       \
            std::fprintf(stderr, "%s failed: %s\n", #expr, miopenGetErrorString(s_));           \
            std::exit(2);                                                                       \
        }                                                                                       \
    } while(0)

float maxDiff(const std::vector<float>& a, const std::vector<double>& b)
{
    double m = 0.0;
    for(std::size_t i = 0; i < a.size(); ++i)
        m = std::max(m, std::fabs(static_cast<double>(a[i]) - b[i]));
    return static_cast<float>(m);
}

// Plain-loop reference of a 2-D NCHW convolution, stride 1, padding p, in double.
struct Reference
{
    int n, c, h, w, k, r, p, oh, ow;
    std::size_t xi(int in, int ic, int y, int x) const { return ((static_cast<std::size_t>(in) * c + ic) * h + y) * w + x; }
    std::size_t wi(int ik, int ic, int y, int x) const { return ((static_cast<std::size_t>(ik) * c + ic) * r + y) * r + x; }
    std::size_t yi(int in, int ik, int y, int x) const { return ((static_cast<std::size_t>(in) * k + ik) * oh + y) * ow + x; }

    // Calls f(x index, w index, y index) for every multiply of the convolution.
    template <class F>
    void forEachTap(F&& f) const
    {
        for(int in = 0; in < n; ++in)
            for(int ik = 0; ik < k; ++ik)
                for(int oy = 0; oy < oh; ++oy)
                    for(int ox = 0; ox < ow; ++ox)
                        for(int ic = 0; ic < c; ++ic)
                            for(int fy = 0; fy < r; ++fy)
                                for(int fx = 0; fx < r; ++fx)
                                {
                                    const int iy = oy - p + fy, ix = ox - p + fx;
                                    if(iy >= 0 && iy < h && ix >= 0 && ix < w)
                                        f(xi(in, ic, iy, ix), wi(ik, ic, fy, fx), yi(in, ik, oy, ox));
                                }
    }
    std::vector<double> forward(const std::vector<float>& x, const std::vector<float>& wt) const
    {
        std::vector<double> y(static_cast<std::size_t>(n) * k * oh * ow, 0.0);
        forEachTap([&](std::size_t a, std::size_t b, std::size_t o) { y[o] += static_cast<double>(x[a]) * wt[b]; });
        return y;
    }
    std::vector<double> backwardData(const std::vector<float>& dy, const std::vector<float>& wt) const
    {
        std::vector<double> dx(static_cast<std::size_t>(n) * c * h * w, 0.0);
        forEachTap([&](std::size_t a, std::size_t b, std::size_t o) { dx[a] += static_cast<double>(dy[o]) * wt[b]; });
        return dx;
    }
    std::vector<double> backwardWeights(const std::vector<float>& dy, const std::vector<float>& x) const
    {
        std::vector<double> dw(static_cast<std::size_t>(k) * c * r * r, 0.0);
        forEachTap([&](std::size_t a, std::size_t b, std::size_t o) { dw[b] += static_cast<double>(dy[o]) * x[a]; });
        return dw;
    }
};

void report(const char* what, const char* algo, float ms, float diff, float tol)
{
    const bool ok = diff <= tol;
    std::printf("  %-16s %-30s %9.3f ms   max|diff| vs reference %.2e  %s\n", what, algo, static_cast<double>(ms),
                static_cast<double>(diff), ok ? "OK" : "MISMATCH");
    if(!ok)
        ++gFailures;
}

const char* fwdAlgoName(int a)
{
    switch(a)
    {
    case 0: return "GEMM";
    case 1: return "Direct";
    case 2: return "FFT";
    case 3: return "Winograd";
    case 5: return "ImplicitGEMM";
    default: return "?";
    }
}

} // namespace

int main(int argc, char** argv)
{
    int dims[6] = {4, 16, 28, 28, 32, 3};
    for(int i = 1; i < argc && i <= 6; ++i)
        dims[i - 1] = std::atoi(argv[i]);
    const int n = dims[0], c = dims[1], h = dims[2], w = dims[3], k = dims[4], r = dims[5];

    size_t major = 0, minor = 0, patch = 0;
    CHECK_MIOPEN(miopenGetVersion(&major, &minor, &patch));
    std::printf("MIOpen %zu.%zu.%zu (CPU)  conv %dx%d, N=%d C=%d H=%d W=%d K=%d, pad %d, stride 1\n", major, minor,
                patch, r, r, n, c, h, w, k, r / 2);

    miopenHandle_t handle;
    CHECK_MIOPEN(miopenCreate(&handle));
    CHECK_MIOPEN(miopenEnableProfiling(handle, true));

    miopenTensorDescriptor_t xDesc, wDesc, yDesc;
    miopenConvolutionDescriptor_t convDesc;
    CHECK_MIOPEN(miopenCreateTensorDescriptor(&xDesc));
    CHECK_MIOPEN(miopenCreateTensorDescriptor(&wDesc));
    CHECK_MIOPEN(miopenCreateTensorDescriptor(&yDesc));
    CHECK_MIOPEN(miopenCreateConvolutionDescriptor(&convDesc));
    CHECK_MIOPEN(miopenSet4dTensorDescriptor(xDesc, miopenFloat, n, c, h, w));
    CHECK_MIOPEN(miopenSet4dTensorDescriptor(wDesc, miopenFloat, k, c, r, r));
    CHECK_MIOPEN(miopenInitConvolutionDescriptor(convDesc, miopenConvolution, r / 2, r / 2, 1, 1, 1, 1));
    int on, oc, oh, ow;
    CHECK_MIOPEN(miopenGetConvolutionForwardOutputDim(convDesc, xDesc, wDesc, &on, &oc, &oh, &ow));
    CHECK_MIOPEN(miopenSet4dTensorDescriptor(yDesc, miopenFloat, on, oc, oh, ow));

    std::mt19937 rng(2026);
    std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
    std::vector<float> x(static_cast<std::size_t>(n * c * h * w)), wt(static_cast<std::size_t>(k * c * r * r)),
        y(static_cast<std::size_t>(on * oc * oh * ow)), dy(y.size()), dx(x.size()), dw(wt.size());
    for(auto* v : {&x, &wt, &dy})
        for(auto& e : *v)
            e = dist(rng);

    const float alpha = 1.0f, beta = 0.0f;
    const float tol   = 1e-3f;
    float ms          = 0.0f;

    // Forward: workspace, Find, execute the best algorithm; reference: naive solver 85.
    size_t ws = 0, wsb = 0, wsw = 0;
    CHECK_MIOPEN(miopenConvolutionForwardGetWorkSpaceSize(handle, wDesc, xDesc, convDesc, yDesc, &ws));
    CHECK_MIOPEN(miopenConvolutionBackwardDataGetWorkSpaceSize(handle, yDesc, wDesc, convDesc, xDesc, &wsb));
    CHECK_MIOPEN(miopenConvolutionBackwardWeightsGetWorkSpaceSize(handle, yDesc, xDesc, convDesc, wDesc, &wsw));
    std::vector<char> workspace(std::max({ws, wsb, wsw, size_t(1)}));
    std::printf("workspace: fwd %zu B, bwd-data %zu B, bwd-weights %zu B\n", ws, wsb, wsw);

    miopenConvAlgoPerf_t perf[4];
    int found = 0;
    CHECK_MIOPEN(miopenFindConvolutionForwardAlgorithm(handle, xDesc, x.data(), wDesc, wt.data(), convDesc, yDesc,
                                                      y.data(), 4, &found, perf, workspace.data(), workspace.size(), false));
    std::printf("Find (forward) returned %d algorithm(s):", found);
    for(int i = 0; i < found; ++i)
        std::printf(" %s %.3f ms;", fwdAlgoName(perf[i].fwd_algo), static_cast<double>(perf[i].time));
    std::printf(" (Find runs in MIOpen Private)\n");

    const Reference ref{n, c, h, w, k, r, r / 2, oh, ow};
    const std::vector<double> yRef = ref.forward(x, wt), dxRef = ref.backwardData(dy, wt),
                              dwRef = ref.backwardWeights(dy, x);
    std::printf("results (each checked against the plain-loop reference):\n");

    // Forward: the algorithm Find ranked first, then the naive solver in immediate mode.
    for(int run = 0; run < 2; ++run)
        CHECK_MIOPEN(miopenConvolutionForward(handle, &alpha, xDesc, x.data(), wDesc, wt.data(), convDesc,
                                              perf[0].fwd_algo, &beta, yDesc, y.data(), workspace.data(),
                                              workspace.size()));
    CHECK_MIOPEN(miopenGetKernelTime(handle, &ms));
    report("forward", fwdAlgoName(perf[0].fwd_algo), ms, maxDiff(y, yRef), tol);
    std::fill(y.begin(), y.end(), 0.0f);
    for(int run = 0; run < 2; ++run)
        CHECK_MIOPEN(miopenConvolutionForwardImmediate(handle, wDesc, wt.data(), xDesc, x.data(), convDesc, yDesc,
                                                       y.data(), nullptr, 0, 85));
    CHECK_MIOPEN(miopenGetKernelTime(handle, &ms));
    report("forward", "immediate, solution 85 (naive)", ms, maxDiff(y, yRef), tol);

    // Backward data.
    CHECK_MIOPEN(miopenFindConvolutionBackwardDataAlgorithm(handle, yDesc, dy.data(), wDesc, wt.data(), convDesc, xDesc,
                                                           dx.data(), 4, &found, perf, workspace.data(),
                                                           workspace.size(), false));
    for(int run = 0; run < 2; ++run)
        CHECK_MIOPEN(miopenConvolutionBackwardData(handle, &alpha, yDesc, dy.data(), wDesc, wt.data(), convDesc,
                                                   perf[0].bwd_data_algo, &beta, xDesc, dx.data(), workspace.data(),
                                                   workspace.size()));
    CHECK_MIOPEN(miopenGetKernelTime(handle, &ms));
    report("backward data", fwdAlgoName(perf[0].bwd_data_algo), ms, maxDiff(dx, dxRef), tol);
    std::fill(dx.begin(), dx.end(), 0.0f);
    for(int run = 0; run < 2; ++run)
        CHECK_MIOPEN(miopenConvolutionBackwardDataImmediate(handle, yDesc, dy.data(), wDesc, wt.data(), convDesc, xDesc,
                                                            dx.data(), nullptr, 0, 86));
    CHECK_MIOPEN(miopenGetKernelTime(handle, &ms));
    report("backward data", "immediate, solution 86 (naive)", ms, maxDiff(dx, dxRef), tol);

    // Backward weights.
    CHECK_MIOPEN(miopenFindConvolutionBackwardWeightsAlgorithm(handle, yDesc, dy.data(), xDesc, x.data(), convDesc,
                                                              wDesc, dw.data(), 4, &found, perf, workspace.data(),
                                                              workspace.size(), false));
    for(int run = 0; run < 2; ++run)
        CHECK_MIOPEN(miopenConvolutionBackwardWeights(handle, &alpha, yDesc, dy.data(), xDesc, x.data(), convDesc,
                                                      perf[0].bwd_weights_algo, &beta, wDesc, dw.data(),
                                                      workspace.data(), workspace.size()));
    CHECK_MIOPEN(miopenGetKernelTime(handle, &ms));
    report("backward weights", fwdAlgoName(perf[0].bwd_weights_algo), ms, maxDiff(dw, dwRef), tol * 10);
    std::fill(dw.begin(), dw.end(), 0.0f);
    for(int run = 0; run < 2; ++run)
        CHECK_MIOPEN(miopenConvolutionBackwardWeightsImmediate(handle, yDesc, dy.data(), xDesc, x.data(), convDesc,
                                                               wDesc, dw.data(), nullptr, 0, 87));
    CHECK_MIOPEN(miopenGetKernelTime(handle, &ms));
    report("backward weights", "immediate, solution 87 (naive)", ms, maxDiff(dw, dwRef), tol * 10);

    CHECK_MIOPEN(miopenDestroyConvolutionDescriptor(convDesc));
    CHECK_MIOPEN(miopenDestroyTensorDescriptor(xDesc));
    CHECK_MIOPEN(miopenDestroyTensorDescriptor(wDesc));
    CHECK_MIOPEN(miopenDestroyTensorDescriptor(yDesc));
    CHECK_MIOPEN(miopenDestroy(handle));
    std::printf("%s\n", gFailures == 0 ? "demo: all results match" : "demo: MISMATCH");
    return gFailures == 0 ? 0 : 1;
}
