// hipDNN forwarding through the public C API (MIOpen Public, docs/wrapper.md): every case asserts
// its route (forwarded with an engine, declined with a reason, or left to Private for invalid
// arguments) through the wrapper's counters file, and the numbers against the independent
// reference (common/conv_reference.hpp). The suites run under different environments (see
// api.cmake): HipdnnForwarding (enabled, example engine preferred), HipdnnForwardingUnavailable
// (enabled, no backend to find), HipdnnForwardingNoEngine (no plugin loaded),
// HipdnnForwardingExecuteFails (only a plugin whose execute fails), HipdnnForwardingWrongMajor
// (the backend found reports another major version), HipdnnForwardingPlanCache (only the latch
// plugin, whose plan build of one problem blocks until released), HipdnnPassThrough (disabled;
// also run with the wrong-major backend on the search path).
#include "common/api_helpers.hpp"
#include "common/conv_reference.hpp"

#include <hipdnn_backend/version.h>

#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <map>
#include <mutex>
#include <random>
#include <sstream>
#include <string>
#include <thread>

#include <dlfcn.h>
#include <unistd.h>

namespace {

namespace ref = conv_reference;
using test::Tensor;

// The counters file of this process, set before the first MIOpen call.
const std::string& countersPath()
{
    static const std::string p = [] {
        std::string path = "/tmp/miopen_hipdnn_counters_" + std::to_string(::getpid()) + ".txt";
        ::setenv("MIOPEN_HIPDNN_COUNTERS_FILE", path.c_str(), 1);
        return path;
    }();
    return p;
}
struct RemoveCountersAtExit
{
    RemoveCountersAtExit() { (void)countersPath(); } // sets the variable before any MIOpen call
    ~RemoveCountersAtExit() { std::remove(countersPath().c_str()); }
} gRemoveCounters;

// entry -> its line ("miopenConvolutionForward forwarded=1 ... last=...").
std::map<std::string, std::string> counters()
{
    std::map<std::string, std::string> out;
    std::ifstream f(countersPath());
    std::string line;
    while(std::getline(f, line))
        out[line.substr(0, line.find(' '))] = line;
    return out;
}

long counter(const std::string& entry, const std::string& name)
{
    const auto line = counters()[entry];
    const auto at   = line.find(" " + name + "=");
    return at == std::string::npos ? -1 : std::stol(line.substr(at + name.size() + 2));
}

// Counters relative to a snapshot (the cases of one suite share a process).
class Since
{
public:
    Since() : _base(counters()) {}
    long operator()(const std::string& entry, const std::string& name) const
    {
        const long now = counter(entry, name);
        const auto it  = _base.find(entry);
        long before    = 0;
        if(it != _base.end())
        {
            const auto at = it->second.find(" " + name + "=");
            if(at != std::string::npos)
                before = std::stol(it->second.substr(at + name.size() + 2));
        }
        return (now < 0 ? 0 : now) - before;
    }

private:
    std::map<std::string, std::string> _base;
};

std::string lastRoute(const std::string& entry)
{
    const auto line = counters()[entry];
    const auto at   = line.find(" last=");
    return at == std::string::npos ? "" : line.substr(at + 6);
}

bool backendMapped()
{
    std::ifstream maps("/proc/self/maps");
    std::string line;
    while(std::getline(maps, line))
        if(line.find("/libhipdnn_backend.so.1") != std::string::npos)
            return true;
    return false;
}

std::vector<int> toInt(const std::vector<std::size_t>& v) { return std::vector<int>(v.begin(), v.end()); }

// One fp32 problem in regular roles with random data, and the reference results.
struct Problem
{
    ref::ConvParams p;
    ref::Tensor x, w, y;
    std::vector<float> xv, wv, yv;
    test::Conv conv;
    std::unique_ptr<Tensor> xd, wd, yd;

    Problem(std::vector<std::size_t> xl, std::vector<std::size_t> wl, std::vector<int> pads, std::vector<int> strides,
            std::vector<int> dil, int groups, const std::string& order, bool transpose = false)
    {
        p.pads = pads, p.strides = strides, p.dilations = dil, p.groups = groups;
        std::vector<std::size_t> yl = {xl[0], wl[0]};
        for(std::size_t i = 0; i < pads.size(); ++i)
            yl.push_back(ref::outputLength(xl[2 + i], wl[2 + i], pads[i], strides[i], dil[i]));
        x = ref::makeTensor(xl, order);
        w = ref::makeTensor(wl, order);
        y = ref::makeTensor(yl, order);
        std::mt19937 rng(7);
        std::uniform_real_distribution<float> d(-1.0f, 1.0f);
        xv.resize(x.elementSpace());
        wv.resize(w.elementSpace());
        yv.resize(y.elementSpace());
        for(auto* v : {&xv, &wv, &yv})
            for(auto& e : *v)
                e = d(rng);
        EXPECT_MIOPEN_OK(miopenInitConvolutionNdDescriptor(conv, static_cast<int>(pads.size()), pads.data(),
                                                           strides.data(), dil.data(),
                                                           transpose ? miopenTranspose : miopenConvolution));
        EXPECT_MIOPEN_OK(miopenSetConvolutionGroupCount(conv, groups));
        xd = std::make_unique<Tensor>(miopenFloat, toInt(x.lens), toInt(x.strides));
        wd = std::make_unique<Tensor>(miopenFloat, toInt(w.lens), toInt(w.strides));
        yd = std::make_unique<Tensor>(miopenFloat, toInt(y.lens), toInt(y.strides));
    }

    static std::vector<double> d(const std::vector<float>& v) { return std::vector<double>(v.begin(), v.end()); }

    std::vector<double> refForward() const
    {
        std::vector<double> out(yv.size(), 0.0);
        ref::forward(p, x, d(xv).data(), w, d(wv).data(), y, out.data());
        return out;
    }
    std::vector<double> refBackwardData() const
    {
        std::vector<double> out(xv.size(), 0.0);
        ref::backwardData(p, x, out.data(), w, d(wv).data(), y, d(yv).data());
        return out;
    }
    std::vector<double> refBackwardWeights() const
    {
        std::vector<double> out(wv.size(), 0.0);
        ref::backwardWeights(p, x, d(xv).data(), w, out.data(), y, d(yv).data());
        return out;
    }
};

void expectNear(const std::vector<float>& got, const std::vector<double>& want, double scale = 1.0)
{
    ASSERT_EQ(got.size(), want.size());
    double worst = 0;
    for(std::size_t i = 0; i < got.size(); ++i)
        worst = std::max(worst, std::abs(got[i] - scale * want[i]));
    EXPECT_LT(worst, 1e-3) << "max abs error";
}

const float kOne = 1.0f, kZero = 0.0f, kTwo = 2.0f;
// A workspace big enough for every solver of these small problems (GEMM needs one).
std::vector<unsigned char> gWorkspace(8u << 20);
#define WS gWorkspace.data(), gWorkspace.size()
constexpr const char* kFwd = "miopenConvolutionForward";

std::string dir(const char* env)
{
    const char* v = std::getenv(env);
    return v == nullptr ? "" : v;
}

// ---- enabled, the example engine preferred ---------------------------------------------------------

TEST(HipdnnForwarding, ForwardIsForwardedWithAnEngineAndMatchesTheReference)
{
    const Since counter;
    test::Handle h;
    // Groups, dilation, stride, padding.
    Problem pr({2, 4, 9, 8}, {6, 2, 3, 3}, {1, 2}, {2, 1}, {1, 2}, 2, "NCHW");
    ASSERT_MIOPEN_OK(miopenConvolutionForward(h, &kOne, *pr.xd, pr.xv.data(), *pr.wd, pr.wv.data(), pr.conv,
                                              miopenConvolutionFwdAlgoGEMM, &kZero, *pr.yd, pr.yv.data(), WS));
    expectNear(pr.yv, pr.refForward());
    EXPECT_EQ(counter(kFwd, "forwarded"), 1);
    EXPECT_EQ(counter(kFwd, "failed"), 0);
    EXPECT_NE(lastRoute(kFwd).find("route=hipdnn reason=in-forwarding-set engine=EXAMPLE_NAIVE_ENGINE engine_id="),
              std::string::npos)
        << lastRoute(kFwd);
    EXPECT_TRUE(backendMapped());
    int st = -1;
    const char* msg = nullptr;
    ASSERT_MIOPEN_OK(miopenGetLastForwardedError(&st, &msg));
    EXPECT_EQ(st, 0);
    EXPECT_STREQ(msg, "");
    EXPECT_EQ(miopenGetLastForwardedError(nullptr, &msg), miopenStatusBadParm);
    // The second call of the same problem is a cache hit and gives the same numbers.
    std::fill(pr.yv.begin(), pr.yv.end(), 0.0f);
    ASSERT_MIOPEN_OK(miopenConvolutionForward(h, &kOne, *pr.xd, pr.xv.data(), *pr.wd, pr.wv.data(), pr.conv,
                                              miopenConvolutionFwdAlgoGEMM, &kZero, *pr.yd, pr.yv.data(), WS));
    expectNear(pr.yv, pr.refForward());
    EXPECT_EQ(counter(kFwd, "forwarded"), 2);
}

TEST(HipdnnForwarding, KernelTimeCoversForwardedCalls)
{
    const Since counter;
    test::Handle h;
    ASSERT_MIOPEN_OK(miopenEnableProfiling(h, true));
    Problem pr({2, 4, 9, 8}, {6, 4, 3, 3}, {1, 1}, {1, 1}, {1, 1}, 1, "NCHW");
    float ms = -1.0f;
    ASSERT_MIOPEN_OK(miopenGetKernelTime(h, &ms));
    EXPECT_EQ(ms, 0.0f); // nothing has run on this handle yet
    ASSERT_MIOPEN_OK(miopenConvolutionForward(h, &kOne, *pr.xd, pr.xv.data(), *pr.wd, pr.wv.data(), pr.conv,
                                              miopenConvolutionFwdAlgoGEMM, &kZero, *pr.yd, pr.yv.data(), WS));
    ASSERT_EQ(counter(kFwd, "forwarded"), 1); // the call did go to hipDNN
    ASSERT_MIOPEN_OK(miopenGetKernelTime(h, &ms));
    EXPECT_GT(ms, 0.0f);
    // Without profiling the time is not updated.
    ASSERT_MIOPEN_OK(miopenEnableProfiling(h, false));
    float before = ms;
    ASSERT_MIOPEN_OK(miopenConvolutionForward(h, &kOne, *pr.xd, pr.xv.data(), *pr.wd, pr.wv.data(), pr.conv,
                                              miopenConvolutionFwdAlgoGEMM, &kZero, *pr.yd, pr.yv.data(), WS));
    ASSERT_MIOPEN_OK(miopenGetKernelTime(h, &ms));
    EXPECT_EQ(ms, before);
}

TEST(HipdnnForwarding, ChannelsLast3DForward)
{
    const Since counter;
    test::Handle h;
    Problem pr({1, 3, 5, 6, 4}, {4, 3, 2, 3, 1}, {1, 0, 0}, {1, 2, 1}, {1, 1, 1}, 1, "NDHWC");
    ASSERT_MIOPEN_OK(miopenConvolutionForward(h, &kOne, *pr.xd, pr.xv.data(), *pr.wd, pr.wv.data(), pr.conv,
                                              miopenConvolutionFwdAlgoDirect, &kZero, *pr.yd, pr.yv.data(), WS));
    expectNear(pr.yv, pr.refForward());
    EXPECT_EQ(counter(kFwd, "forwarded"), 1);
}

TEST(HipdnnForwarding, BackwardDataAndWeightsAreForwarded)
{
    const Since counter;
    test::Handle h;
    Problem pr({2, 4, 7, 7}, {4, 2, 3, 3}, {1, 1}, {2, 2}, {1, 1}, 2, "NHWC");
    ASSERT_MIOPEN_OK(miopenConvolutionBackwardData(h, &kOne, *pr.yd, pr.yv.data(), *pr.wd, pr.wv.data(), pr.conv,
                                                   miopenConvolutionBwdDataAlgoDirect, &kZero, *pr.xd, pr.xv.data(),
                                                   WS));
    expectNear(pr.xv, pr.refBackwardData());
    EXPECT_EQ(counter("miopenConvolutionBackwardData", "forwarded"), 1);
    EXPECT_NE(lastRoute("miopenConvolutionBackwardData").find("engine=EXAMPLE_NAIVE_ENGINE"), std::string::npos);
    ASSERT_MIOPEN_OK(miopenConvolutionBackwardWeights(h, &kOne, *pr.yd, pr.yv.data(), *pr.xd, pr.xv.data(), pr.conv,
                                                      miopenConvolutionBwdWeightsAlgoDirect, &kZero, *pr.wd,
                                                      pr.wv.data(), WS));
    expectNear(pr.wv, pr.refBackwardWeights());
    EXPECT_EQ(counter("miopenConvolutionBackwardWeights", "forwarded"), 1);
}

TEST(HipdnnForwarding, ImmediateIsForwardedAndABadSolutionIdGetsPrivatesStatus)
{
    const Since counter;
    test::Handle h;
    Problem pr({1, 2, 6, 6}, {3, 2, 3, 3}, {0, 0}, {1, 1}, {1, 1}, 1, "NCHW");
    std::size_t count = 0;
    ASSERT_MIOPEN_OK(miopenConvolutionForwardGetSolutionCount(h, *pr.wd, *pr.xd, pr.conv, *pr.yd, &count));
    std::vector<miopenConvSolution_t> sols(count);
    ASSERT_MIOPEN_OK(miopenConvolutionForwardGetSolution(h, *pr.wd, *pr.xd, pr.conv, *pr.yd, count, &count, sols.data()));
    ASSERT_GT(count, 0u);
    std::vector<unsigned char> ws(sols[0].workspace_size + 1);
    ASSERT_MIOPEN_OK(miopenConvolutionForwardImmediate(h, *pr.wd, pr.wv.data(), *pr.xd, pr.xv.data(), pr.conv, *pr.yd,
                                                       pr.yv.data(), ws.data(), ws.size(), sols[0].solution_id));
    expectNear(pr.yv, pr.refForward());
    EXPECT_EQ(counter("miopenConvolutionForwardImmediate", "forwarded"), 1);
    // An unknown solution id: Private's own status (BadParm), counted as invalid arguments.
    EXPECT_EQ(miopenConvolutionForwardImmediate(h, *pr.wd, pr.wv.data(), *pr.xd, pr.xv.data(), pr.conv, *pr.yd,
                                                pr.yv.data(), ws.data(), ws.size(), 0xdeadbeefULL),
              miopenStatusBadParm);
    EXPECT_EQ(counter("miopenConvolutionForwardImmediate", "invalid"), 1);
    EXPECT_NE(lastRoute("miopenConvolutionForwardImmediate").find("reason=invalid-arguments:solution-id"), std::string::npos);
}

TEST(HipdnnForwarding, BiasActivationIsForwardedAsConvAddRelu)
{
    const Since counter;
    test::Handle h;
    Problem pr({2, 3, 6, 5}, {4, 3, 3, 3}, {1, 1}, {1, 1}, {1, 1}, 1, "NCHW");
    std::vector<float> bias = {0.5f, -0.25f, 1.0f, -2.0f};
    Tensor bd(miopenFloat, {1, 4, 1, 1}, {});
    miopenActivationDescriptor_t act = nullptr;
    ASSERT_MIOPEN_OK(miopenCreateActivationDescriptor(&act));
    ASSERT_MIOPEN_OK(miopenSetActivationDescriptor(act, miopenActivationRELU, 0.0, 0.0, 0.0));
    ASSERT_MIOPEN_OK(miopenConvolutionBiasActivationForward(h, nullptr, *pr.xd, pr.xv.data(), *pr.wd, pr.wv.data(),
                                                            pr.conv, miopenConvolutionFwdAlgoGEMM, nullptr, 0, nullptr,
                                                            nullptr, nullptr, bd, bias.data(), act, *pr.yd,
                                                            pr.yv.data()));
    auto want = pr.refForward();
    for(std::size_t n = 0; n < 2; ++n)
        for(std::size_t k = 0; k < 4; ++k)
            for(std::size_t i = 0; i < 30; ++i)
            {
                auto& v = want[(n * 4 + k) * 30 + i];
                v       = std::max(0.0, v + bias[k]);
            }
    expectNear(pr.yv, want);
    EXPECT_EQ(counter("miopenConvolutionBiasActivationForward", "forwarded"), 1);
    // A non-RELU activation is declined: Private answers (NotImplemented, as upstream).
    ASSERT_MIOPEN_OK(miopenSetActivationDescriptor(act, miopenActivationTANH, 0.0, 0.0, 0.0));
    EXPECT_EQ(miopenConvolutionBiasActivationForward(h, nullptr, *pr.xd, pr.xv.data(), *pr.wd, pr.wv.data(), pr.conv,
                                                     miopenConvolutionFwdAlgoGEMM, nullptr, 0, nullptr, nullptr,
                                                     nullptr, bd, bias.data(), act, *pr.yd, pr.yv.data()),
              miopenStatusNotImplemented);
    EXPECT_NE(lastRoute("miopenConvolutionBiasActivationForward").find("reason=declined:activation"), std::string::npos);
    miopenDestroyActivationDescriptor(act);
}

TEST(HipdnnForwarding, DeclinedCallsArePrivatesWithTheReason)
{
    const Since counter;
    test::Handle h;
    // A 1-D convolution: declined (hipDNN's convolution nodes take 2 or 3 spatial dims); Private
    // computes it.
    Problem pr({1, 2, 7}, {3, 2, 3}, {1}, {1}, {1}, 1, "NCW");
    ASSERT_MIOPEN_OK(miopenConvolutionForward(h, &kOne, *pr.xd, pr.xv.data(), *pr.wd, pr.wv.data(), pr.conv,
                                              miopenConvolutionFwdAlgoGEMM, &kZero, *pr.yd, pr.yv.data(), WS));
    expectNear(pr.yv, pr.refForward());
    EXPECT_EQ(counter(kFwd, "declined"), 1);
    EXPECT_EQ(counter(kFwd, "forwarded"), 0);
    EXPECT_NE(lastRoute(kFwd).find("route=miopen reason=declined:1-d-convolution"), std::string::npos) << lastRoute(kFwd);
}

// Issue 11: alpha/beta and transposed mode, once declined, are forwarded.
TEST(HipdnnForwarding, AlphaBetaAndTransposedAreForwarded)
{
    const Since counter;
    test::Handle h;
    Problem pr({1, 2, 5, 5}, {2, 2, 3, 3}, {1, 1}, {1, 1}, {1, 1}, 1, "NCHW");
    // alpha = 2, beta = 0.5: y = 2 * conv + 0.5 * prior y (the MUL / ADD nodes after the conv).
    const std::vector<float> prior = pr.yv;
    const float half = 0.5f;
    ASSERT_MIOPEN_OK(miopenConvolutionForward(h, &kTwo, *pr.xd, pr.xv.data(), *pr.wd, pr.wv.data(), pr.conv,
                                              miopenConvolutionFwdAlgoGEMM, &half, *pr.yd, pr.yv.data(), WS));
    std::vector<double> want = pr.refForward();
    for(std::size_t i = 0; i < want.size(); ++i)
        want[i] = 2.0 * want[i] + 0.5 * prior[i];
    expectNear(pr.yv, want);
    EXPECT_EQ(counter(kFwd, "forwarded"), 1);
    EXPECT_EQ(counter(kFwd, "declined"), 0);
    EXPECT_NE(lastRoute(kFwd).find("route=hipdnn"), std::string::npos) << lastRoute(kFwd);
    // Transposed mode, stride 2 with output padding 1: the caller's x (1, 2, 3, 3) is the
    // regular convolution's dy, its y (1, 3, 6, 6) the regular dx: a conv_dgrad graph.
    Problem reg({1, 3, 6, 6}, {2, 3, 3, 3}, {1, 1}, {2, 2}, {1, 1}, 1, "NCHW"); // regular roles: x 6x6 -> y 3x3
    test::Conv tconv;
    const std::vector<int> pads{1, 1}, strides{2, 2}, dil{1, 1}, adj{1, 1};
    ASSERT_MIOPEN_OK(miopenInitConvolutionNdDescriptor(tconv, 2, pads.data(), strides.data(), dil.data(), miopenTranspose));
    ASSERT_MIOPEN_OK(miopenSetTransposeConvNdOutputPadding(tconv, 2, adj.data()));
    // Caller: x = reg.y (dy role), w = reg.w (C_in 2, C_out 3), y = reg.x (dx role).
    ASSERT_MIOPEN_OK(miopenConvolutionForward(h, &kOne, *reg.yd, reg.yv.data(), *reg.wd, reg.wv.data(), tconv,
                                              miopenConvolutionFwdAlgoGEMM, &kZero, *reg.xd, reg.xv.data(), WS));
    expectNear(reg.xv, reg.refBackwardData());
    EXPECT_EQ(counter(kFwd, "forwarded"), 2);
    EXPECT_NE(lastRoute(kFwd).find("route=hipdnn"), std::string::npos) << lastRoute(kFwd);
}

TEST(HipdnnForwarding, InvalidArgumentsGetPrivatesStatus)
{
    const Since counter;
    test::Handle h;
    Problem pr({1, 2, 5, 5}, {2, 2, 3, 3}, {1, 1}, {1, 1}, {1, 1}, 1, "NCHW");
    EXPECT_EQ(miopenConvolutionForward(h, &kOne, *pr.xd, nullptr, *pr.wd, pr.wv.data(), pr.conv,
                                       miopenConvolutionFwdAlgoGEMM, &kZero, *pr.yd, pr.yv.data(), WS),
              miopenStatusBadParm);
    EXPECT_EQ(miopenConvolutionForward(h, &kOne, *pr.xd, pr.xv.data(), *pr.wd, pr.wv.data(), pr.conv,
                                       static_cast<miopenConvFwdAlgorithm_t>(4), &kZero, *pr.yd, pr.yv.data(), WS),
              miopenStatusBadParm);
    // y of the wrong size.
    Tensor bad(miopenFloat, {1, 2, 4, 5}, {});
    EXPECT_EQ(miopenConvolutionForward(h, &kOne, *pr.xd, pr.xv.data(), *pr.wd, pr.wv.data(), pr.conv,
                                       miopenConvolutionFwdAlgoGEMM, &kZero, bad, pr.yv.data(), WS),
              miopenStatusBadParm);
    EXPECT_EQ(counter(kFwd, "invalid"), 3);
    EXPECT_EQ(counter(kFwd, "forwarded"), 0);
}

// ---- enabled, no backend to be found (HIPDNN_BACKEND_LIBRARY_PATH=<empty dir>, no default search) --

TEST(HipdnnForwardingUnavailable, OneDiagnosticAndEveryForwardedCallFails)
{
    const Since counter;
    test::Handle h;
    Problem pr({1, 2, 5, 5}, {2, 2, 3, 3}, {1, 1}, {1, 1}, {1, 1}, 1, "NCHW");
    const auto before = pr.yv;
    testing::internal::CaptureStderr();
    const miopenStatus_t s1 = miopenConvolutionForward(h, &kOne, *pr.xd, pr.xv.data(), *pr.wd, pr.wv.data(), pr.conv,
                                                       miopenConvolutionFwdAlgoGEMM, &kZero, *pr.yd, pr.yv.data(),
                                                       WS);
    const miopenStatus_t s2 = miopenConvolutionBackwardData(h, &kOne, *pr.yd, pr.yv.data(), *pr.wd, pr.wv.data(),
                                                            pr.conv, miopenConvolutionBwdDataAlgoGEMM, &kZero, *pr.xd,
                                                            pr.xv.data(), WS);
    const std::string err = testing::internal::GetCapturedStderr();
    EXPECT_EQ(s1, miopenStatusNotInitialized);
    EXPECT_EQ(s2, miopenStatusNotInitialized);
    EXPECT_EQ(pr.yv, before) << "a failed forwarded call must not be served by Private";
    const std::string looked = dir("HIPDNN_BACKEND_LIBRARY_PATH") + "/libhipdnn_backend.so.1";
    const auto first         = err.find("hipDNN backend libhipdnn_backend.so.1 is unavailable");
    ASSERT_NE(first, std::string::npos) << err;
    EXPECT_EQ(err.find("is unavailable", first + 60), std::string::npos) << "one diagnostic only:\n" << err;
    EXPECT_NE(err.find(looked), std::string::npos) << err;
    int st = 0;
    const char* msg = nullptr;
    ASSERT_MIOPEN_OK(miopenGetLastForwardedError(&st, &msg));
    EXPECT_EQ(st, 1); // HIPDNN_STATUS_NOT_INITIALIZED
    EXPECT_NE(std::string(msg).find(looked), std::string::npos) << msg;
    EXPECT_STREQ(miopenGetErrorString(s2), "[hipDNN-forwarded] miopenStatusNotInitialized");
    EXPECT_FALSE(backendMapped());
    EXPECT_EQ(counter("miopenConvolutionBackwardData", "failed"), 1);
    // Declined calls do not need hipDNN: Private serves them (a 1-D convolution).
    Problem p1({1, 2, 7}, {3, 2, 3}, {1}, {1}, {1}, 1, "NCW");
    ASSERT_MIOPEN_OK(miopenConvolutionForward(h, &kOne, *p1.xd, p1.xv.data(), *p1.wd, p1.wv.data(), p1.conv,
                                              miopenConvolutionFwdAlgoGEMM, &kZero, *p1.yd, p1.yv.data(), WS));
    expectNear(p1.yv, p1.refForward());
    // A Private-served call of the set clears the prefix: the status is no longer attributed.
    EXPECT_STREQ(miopenGetErrorString(miopenStatusNotInitialized), "miopenStatusNotInitialized");
}

// ---- enabled, HIPDNN_BACKEND_LIBRARY_PATH relative (docs/security.md) ---------------------------------
// Run in the build directory, where "lib" holds the real backend: a relative path would find it
// through the current directory, so it is refused with a warning naming the variable, and (the
// default search off) the backend stays unavailable.
TEST(HipdnnForwardingRelativePath, ARelativeBackendPathIsIgnoredWithAWarning)
{
    ASSERT_EQ(dir("HIPDNN_BACKEND_LIBRARY_PATH"), "lib");
    test::Handle h;
    Problem pr({1, 2, 5, 5}, {2, 2, 3, 3}, {1, 1}, {1, 1}, {1, 1}, 1, "NCHW");
    testing::internal::CaptureStderr();
    const miopenStatus_t s = miopenConvolutionForward(h, &kOne, *pr.xd, pr.xv.data(), *pr.wd, pr.wv.data(), pr.conv,
                                                      miopenConvolutionFwdAlgoGEMM, &kZero, *pr.yd, pr.yv.data(), WS);
    const std::string err = testing::internal::GetCapturedStderr();
    EXPECT_EQ(s, miopenStatusNotInitialized);
    EXPECT_NE(err.find("HIPDNN_BACKEND_LIBRARY_PATH='lib' ignored: it must be an absolute directory"), std::string::npos)
        << err;
    EXPECT_FALSE(backendMapped());
}

// ---- enabled, the backend found reports the next major version (fakes/wrong_major_backend.cpp) ----
// Treated exactly as unavailable: one diagnostic naming the library and both versions, every
// forwarded call fails with a translated status, declined calls still served by Private, and the
// fake's entry points past the version handshake are never called (each would abort).

TEST(HipdnnForwardingWrongMajor, TreatedAsUnavailable)
{
    const Since counter;
    test::Handle h;
    Problem pr({1, 2, 5, 5}, {2, 2, 3, 3}, {1, 1}, {1, 1}, {1, 1}, 1, "NCHW");
    const auto before = pr.yv;
    testing::internal::CaptureStderr();
    const miopenStatus_t s1 = miopenConvolutionForward(h, &kOne, *pr.xd, pr.xv.data(), *pr.wd, pr.wv.data(), pr.conv,
                                                       miopenConvolutionFwdAlgoGEMM, &kZero, *pr.yd, pr.yv.data(),
                                                       WS);
    const miopenStatus_t s2 = miopenConvolutionBackwardData(h, &kOne, *pr.yd, pr.yv.data(), *pr.wd, pr.wv.data(),
                                                            pr.conv, miopenConvolutionBwdDataAlgoGEMM, &kZero, *pr.xd,
                                                            pr.xv.data(), WS);
    const std::string err = testing::internal::GetCapturedStderr();
    EXPECT_EQ(s1, miopenStatusNotInitialized);
    EXPECT_EQ(s2, miopenStatusNotInitialized);
    EXPECT_EQ(pr.yv, before) << "a failed forwarded call must not be served by Private";
    const std::string library = dir("HIPDNN_BACKEND_LIBRARY_PATH") + "/libhipdnn_backend.so.1";
    const std::string theirs  = std::to_string(HIPDNN_BACKEND_VERSION_MAJOR + 1) + ".0.0.0";
    const std::string ours    = "needs major " + std::to_string(HIPDNN_BACKEND_VERSION_MAJOR);
    const auto first          = err.find("hipDNN backend " + library + " is unusable");
    ASSERT_NE(first, std::string::npos) << err;
    EXPECT_EQ(err.find("is unusable"), err.rfind("is unusable")) << "one diagnostic only:\n" << err;
    EXPECT_EQ(err.find("Error"), err.rfind("Error")) << "one diagnostic only:\n" << err;
    EXPECT_NE(err.find(theirs), std::string::npos) << err;
    EXPECT_NE(err.find(ours), std::string::npos) << err;
    int st = 0;
    const char* msg = nullptr;
    ASSERT_MIOPEN_OK(miopenGetLastForwardedError(&st, &msg));
    EXPECT_EQ(st, 1); // HIPDNN_STATUS_NOT_INITIALIZED
    EXPECT_NE(std::string(msg).find(library), std::string::npos) << msg;
    EXPECT_NE(std::string(msg).find(theirs), std::string::npos) << msg;
    EXPECT_STREQ(miopenGetErrorString(s2), "[hipDNN-forwarded] miopenStatusNotInitialized");
    EXPECT_EQ(counter(kFwd, "failed"), 1);
    EXPECT_EQ(counter("miopenConvolutionBackwardData", "failed"), 1);
    // Declined calls do not need hipDNN: Private serves them (a 1-D convolution).
    Problem p1({1, 2, 7}, {3, 2, 3}, {1}, {1}, {1}, 1, "NCW");
    ASSERT_MIOPEN_OK(miopenConvolutionForward(h, &kOne, *p1.xd, p1.xv.data(), *p1.wd, p1.wv.data(), p1.conv,
                                              miopenConvolutionFwdAlgoGEMM, &kZero, *p1.yd, p1.yv.data(), WS));
    expectNear(p1.yv, p1.refForward());
    EXPECT_EQ(counter(kFwd, "declined"), 1);
}

// ---- enabled, only the latch plugin (HIPDNN_PLUGIN_DIR=<dir with libhipdnn_test_latch_plugin.so>) --
// The plan cache under concurrency: while thread A's plan build is held inside the engine, another
// problem's first call (a build) and a cached problem's call (a hit) on other threads complete;
// released, A completes with the right numbers. Every wait is bounded: a deadlock fails the test
// with a message (and, if the threads stay stuck, ends the process) instead of hanging ctest.

constexpr auto kWait = std::chrono::seconds(30);

// The latch plugin's control functions, from the copy the backend loaded (RTLD_NOLOAD).
struct LatchControl
{
    int (*awaitBlocked)(int, int) = nullptr;
    void (*release)()             = nullptr;
    long (*builds)()              = nullptr;
};

std::string latchControl(LatchControl& c)
{
    const std::string path = dir("HIPDNN_PLUGIN_DIR") + "/libhipdnn_test_latch_plugin.so";
    void* h                = dlopen(path.c_str(), RTLD_NOW | RTLD_NOLOAD);
    if(h == nullptr)
        return path + " is not loaded: " + dlerror();
    c.awaitBlocked = reinterpret_cast<int (*)(int, int)>(dlsym(h, "hipdnnPluginTestLatchAwaitBlocked"));
    c.release      = reinterpret_cast<void (*)()>(dlsym(h, "hipdnnPluginTestLatchRelease"));
    c.builds       = reinterpret_cast<long (*)()>(dlsym(h, "hipdnnPluginTestLatchBuilds"));
    dlclose(h); // drops the reference RTLD_NOLOAD added; the backend keeps the plugin loaded
    return c.awaitBlocked && c.release && c.builds ? "" : path + " lacks the latch control functions";
}

// One call on its own thread; done() is observable with a bounded wait. On destruction it runs
// `unblock` (opens the latch) before waiting for the call, so a test that failed early does not
// leave a held build behind.
class CallThread
{
public:
    CallThread(std::function<miopenStatus_t()> call, std::function<void()> unblock)
        : _unblock(std::move(unblock)), _thread([this, call] {
            const miopenStatus_t st = call();
            std::lock_guard<std::mutex> lock(_m);
            _status = st;
            _done   = true;
            _cv.notify_all();
        })
    {
    }
    ~CallThread()
    {
        _unblock();
        if(!waitFor(kWait))
        {
            // Still stuck after the test gave up: nothing can end the thread; end the process
            // with the reason rather than hang.
            std::fprintf(stderr, "HipdnnForwardingPlanCache: a forwarded call is still blocked %lld s after the "
                                 "test ended (deadlock); exiting\n",
                         static_cast<long long>(kWait.count()));
            std::fflush(nullptr);
            std::_Exit(1);
        }
        _thread.join();
    }
    CallThread(const CallThread&) = delete;
    CallThread& operator=(const CallThread&) = delete;

    bool waitFor(std::chrono::seconds s)
    {
        std::unique_lock<std::mutex> lock(_m);
        return _cv.wait_for(lock, s, [&] { return _done; });
    }
    bool done()
    {
        std::lock_guard<std::mutex> lock(_m);
        return _done;
    }
    miopenStatus_t status()
    {
        std::lock_guard<std::mutex> lock(_m);
        return _status;
    }

private:
    std::function<void()> _unblock;
    std::mutex _m;
    std::condition_variable _cv;
    bool _done             = false;
    miopenStatus_t _status = miopenStatusUnknownError;
    std::thread _thread;
};

miopenStatus_t forwardCall(miopenHandle_t h, Problem& pr)
{
    return miopenConvolutionForward(h, &kOne, *pr.xd, pr.xv.data(), *pr.wd, pr.wv.data(), pr.conv,
                                    miopenConvolutionFwdAlgoDirect, &kZero, *pr.yd, pr.yv.data(), nullptr, 0);
}

TEST(HipdnnForwardingPlanCache, AHeldBuildBlocksNeitherOtherBuildsNorHits)
{
    const Since counter;
    test::Handle h0, hA, hB, hC;
    // Dimension 1 of 7 (kLatchChannels) marks the held problem; the others have none.
    Problem held({1, 7, 6, 6}, {4, 7, 3, 3}, {1, 1}, {1, 1}, {1, 1}, 1, "NCHW");
    Problem cached({1, 2, 5, 5}, {3, 2, 3, 3}, {1, 1}, {1, 1}, {1, 1}, 1, "NCHW");
    Problem fresh({2, 3, 6, 5}, {4, 3, 3, 3}, {1, 1}, {1, 1}, {1, 1}, 1, "NCHW");
    const auto cachedWant = cached.refForward();

    // The cached problem's plan is built here (this also loads hipDNN and the latch plugin).
    ASSERT_MIOPEN_OK(forwardCall(h0, cached));
    expectNear(cached.yv, cachedWant);
    ASSERT_EQ(counter(kFwd, "forwarded"), 1) << lastRoute(kFwd);
    ASSERT_NE(lastRoute(kFwd).find("engine=TEST_LATCH_ENGINE"), std::string::npos) << lastRoute(kFwd);
    LatchControl latch;
    const std::string why = latchControl(latch);
    ASSERT_EQ(why, "");
    const auto open = [&] { latch.release(); };

    CallThread a([&] { return forwardCall(hA, held); }, open);
    ASSERT_GE(latch.awaitBlocked(1, static_cast<int>(kWait.count() * 1000)), 1)
        << "thread A's plan build never reached the latch (A done: " << a.done() << ", status "
        << static_cast<int>(a.status()) << ")";
    const long buildsBefore = latch.builds();

    std::fill(cached.yv.begin(), cached.yv.end(), 0.0f);
    CallThread b([&] { return forwardCall(hB, fresh); }, open);
    CallThread c([&] { return forwardCall(hC, cached); }, open);
    const bool bDone = b.waitFor(kWait), cDone = c.waitFor(kWait);
    EXPECT_TRUE(bDone) << "another problem's first call waited for the held build (deadlock or serialized builds)";
    EXPECT_TRUE(cDone) << "a cached problem's call waited for the held build (deadlock or serialized hits)";
    ASSERT_TRUE(bDone && cDone);
    EXPECT_FALSE(a.done()) << "thread A finished while its build was held";
    EXPECT_EQ(latch.awaitBlocked(1, 0), 1) << "A's build is no longer held";
    EXPECT_EQ(latch.builds(), buildsBefore + 1) << "exactly one build (the new problem's); the hit built nothing";
    ASSERT_MIOPEN_OK(b.status());
    ASSERT_MIOPEN_OK(c.status());
    expectNear(fresh.yv, fresh.refForward());
    expectNear(cached.yv, cachedWant);

    latch.release();
    ASSERT_TRUE(a.waitFor(kWait)) << "thread A did not finish after the latch was opened";
    ASSERT_MIOPEN_OK(a.status());
    expectNear(held.yv, held.refForward());
    EXPECT_EQ(counter(kFwd, "forwarded"), 4);
    EXPECT_EQ(counter(kFwd, "failed"), 0);
}

// ---- hipDNN present, no engine loaded (HIPDNN_PLUGIN_DIR=<empty dir>) ------------------------------

TEST(HipdnnForwardingNoEngine, NoApplicableEngineIsATranslatedFailureNotAFallback)
{
    const Since counter;
    test::Handle h;
    Problem pr({1, 2, 5, 5}, {2, 2, 3, 3}, {1, 1}, {1, 1}, {1, 1}, 1, "NCHW");
    const auto before = pr.yv;
    const miopenStatus_t s = miopenConvolutionForward(h, &kOne, *pr.xd, pr.xv.data(), *pr.wd, pr.wv.data(), pr.conv,
                                                      miopenConvolutionFwdAlgoGEMM, &kZero, *pr.yd, pr.yv.data(),
                                                      WS);
    EXPECT_EQ(s, miopenStatusUnsupportedOp);
    EXPECT_EQ(pr.yv, before) << "never retried on Private";
    int st = 0;
    const char* msg = nullptr;
    ASSERT_MIOPEN_OK(miopenGetLastForwardedError(&st, &msg));
    EXPECT_EQ(st, 8); // HIPDNN_STATUS_NOT_SUPPORTED
    EXPECT_NE(std::string(msg).find("HIPDNN_STATUS_NOT_SUPPORTED"), std::string::npos) << msg;
    EXPECT_STREQ(miopenGetErrorString(s), "[hipDNN-forwarded] miopenStatusUnsupportedOp");
    EXPECT_EQ(counter(kFwd, "failed"), 1);
    EXPECT_TRUE(backendMapped());
}

// ---- hipDNN present, the only engine's execute fails -------------------------------------------------

TEST(HipdnnForwardingExecuteFails, ExecuteFailureIsPropagated)
{
    const Since counter;
    test::Handle h;
    Problem pr({1, 2, 5, 5}, {2, 2, 3, 3}, {1, 1}, {1, 1}, {1, 1}, 1, "NCHW");
    const auto before = pr.yv;
    const miopenStatus_t s = miopenConvolutionForward(h, &kOne, *pr.xd, pr.xv.data(), *pr.wd, pr.wv.data(), pr.conv,
                                                      miopenConvolutionFwdAlgoGEMM, &kZero, *pr.yd, pr.yv.data(),
                                                      WS);
    EXPECT_NE(s, miopenStatusSuccess);
    EXPECT_EQ(pr.yv, before) << "never retried on Private";
    int st = 0;
    const char* msg = nullptr;
    ASSERT_MIOPEN_OK(miopenGetLastForwardedError(&st, &msg));
    EXPECT_NE(st, 0);
    EXPECT_NE(std::string(msg).find("TEST_EXECUTE_FAILS_ENGINE"), std::string::npos) << msg;
    EXPECT_EQ(std::string(miopenGetErrorString(s)).rfind("[hipDNN-forwarded] miopenStatus", 0), 0u);
    EXPECT_NE(lastRoute(kFwd).find("engine=TEST_EXECUTE_FAILS_ENGINE"), std::string::npos) << lastRoute(kFwd);
}

// ---- MIOPEN_HIPDNN_FORWARDING=verify ------------------------------------------------------------
// Each forwarded call also runs on Private; a disagreement is counted (verified / mismatched) and
// logged once per problem. HipdnnForwardingVerify runs on an engine that returns slightly wrong
// numbers (TEST_WRONG_NUMBERS_ENGINE: the first output element off by 1e-2 * (1 + |value|));
// HipdnnForwardingVerifyAgrees on the default engines.

TEST(HipdnnForwardingVerify, AWrongResultIsCaughtReportedOnceAndTheCallerGetsHipdnnsResult)
{
    ASSERT_EQ(dir("MIOPEN_HIPDNN_FORWARDING"), "verify");
    const Since counter;
    test::Handle h;
    Problem pr({2, 3, 6, 6}, {4, 3, 3, 3}, {1, 1}, {1, 1}, {1, 1}, 1, "NCHW");
    const auto want = pr.refForward();
    ::testing::internal::CaptureStderr();
    for(int i = 0; i < 2; ++i)
        ASSERT_MIOPEN_OK(miopenConvolutionForward(h, &kOne, *pr.xd, pr.xv.data(), *pr.wd, pr.wv.data(), pr.conv,
                                                  miopenConvolutionFwdAlgoGEMM, &kZero, *pr.yd, pr.yv.data(), WS));
    // Another problem: its own report.
    Problem other({1, 3, 5, 5}, {2, 3, 1, 1}, {0, 0}, {1, 1}, {1, 1}, 1, "NCHW");
    ASSERT_MIOPEN_OK(miopenConvolutionBackwardData(h, &kOne, *other.yd, other.yv.data(), *other.wd, other.wv.data(),
                                                   other.conv, miopenConvolutionBwdDataAlgoGEMM, &kZero, *other.xd,
                                                   other.xv.data(), WS));
    const std::string err = ::testing::internal::GetCapturedStderr();
    EXPECT_EQ(counter(kFwd, "forwarded"), 2);
    EXPECT_EQ(counter(kFwd, "mismatched"), 2);
    EXPECT_EQ(counter(kFwd, "verified"), 0);
    EXPECT_EQ(counter("miopenConvolutionBackwardData", "mismatched"), 1);
    EXPECT_NE(lastRoute(kFwd).find("engine=TEST_WRONG_NUMBERS_ENGINE"), std::string::npos) << lastRoute(kFwd);
    // Logged once per problem, naming the entry point, the shapes and the engine.
    std::size_t reports = 0;
    for(std::size_t at = err.find("[hipDNN-verify]"); at != std::string::npos; at = err.find("[hipDNN-verify]", at + 1))
        ++reports;
    EXPECT_EQ(reports, 2u) << err;
    EXPECT_NE(err.find("[hipDNN-verify] miopenConvolutionForward (forward, x 2x3x6x6, w 4x3x3x3, y 2x4x6x6, groups 1) "
                       "on engine TEST_WRONG_NUMBERS_ENGINE (engine_id "),
              std::string::npos)
        << err;
    EXPECT_NE(err.find("1 element(s) over the bound"), std::string::npos) << err;
    EXPECT_NE(err.find("[hipDNN-verify] miopenConvolutionBackwardData (backward-data"), std::string::npos) << err;
    // The caller gets hipDNN's result: right everywhere but the perturbed first element.
    EXPECT_GT(std::abs(pr.yv[0] - want[0]), 9e-3);
    std::vector<float> rest(pr.yv.begin() + 1, pr.yv.end());
    expectNear(rest, std::vector<double>(want.begin() + 1, want.end()));
}

TEST(HipdnnForwardingVerifyAgrees, EveryDirectionAgreesWithPrivate)
{
    ASSERT_EQ(dir("MIOPEN_HIPDNN_FORWARDING"), "verify");
    const Since counter;
    test::Handle h;
    Problem pr({2, 4, 7, 7}, {4, 2, 3, 3}, {1, 1}, {1, 1}, {1, 1}, 2, "NHWC");
    ::testing::internal::CaptureStderr();
    ASSERT_MIOPEN_OK(miopenConvolutionForward(h, &kOne, *pr.xd, pr.xv.data(), *pr.wd, pr.wv.data(), pr.conv,
                                              miopenConvolutionFwdAlgoDirect, &kZero, *pr.yd, pr.yv.data(), WS));
    ASSERT_MIOPEN_OK(miopenConvolutionBackwardData(h, &kOne, *pr.yd, pr.yv.data(), *pr.wd, pr.wv.data(), pr.conv,
                                                   miopenConvolutionBwdDataAlgoDirect, &kZero, *pr.xd, pr.xv.data(), WS));
    ASSERT_MIOPEN_OK(miopenConvolutionBackwardWeights(h, &kOne, *pr.yd, pr.yv.data(), *pr.xd, pr.xv.data(), pr.conv,
                                                      miopenConvolutionBwdWeightsAlgoDirect, &kZero, *pr.wd,
                                                      pr.wv.data(), WS));
    const std::string err = ::testing::internal::GetCapturedStderr();
    for(const char* e : {kFwd, "miopenConvolutionBackwardData", "miopenConvolutionBackwardWeights"})
    {
        EXPECT_EQ(counter(e, "forwarded"), 1) << e;
        EXPECT_EQ(counter(e, "verified"), 1) << e;
        EXPECT_EQ(counter(e, "mismatched"), 0) << e;
    }
    EXPECT_EQ(err.find("[hipDNN-verify]"), std::string::npos) << err;
}

// ---- disabled: pass-through never loads hipDNN, even with an unusable configuration -----------------

TEST(HipdnnPassThrough, BackendNeverLoadedAndNothingPrinted)
{
    const Since counter;
    test::Handle h;
    Problem pr({1, 2, 5, 5}, {2, 2, 3, 3}, {1, 1}, {1, 1}, {1, 1}, 1, "NCHW");
    testing::internal::CaptureStderr();
    ASSERT_MIOPEN_OK(miopenConvolutionForward(h, &kOne, *pr.xd, pr.xv.data(), *pr.wd, pr.wv.data(), pr.conv,
                                              miopenConvolutionFwdAlgoGEMM, &kZero, *pr.yd, pr.yv.data(), WS));
    const std::string err = testing::internal::GetCapturedStderr();
    expectNear(pr.yv, pr.refForward());
    EXPECT_EQ(err, "");
    EXPECT_FALSE(backendMapped());
    int st = -1;
    ASSERT_MIOPEN_OK(miopenGetLastForwardedError(&st, nullptr));
    EXPECT_EQ(st, 0);
}

} // namespace
