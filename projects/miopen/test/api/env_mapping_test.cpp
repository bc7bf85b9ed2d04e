// MIOpen's environment variables as they bear on forwarded calls (RFC Phase 3,
// docs/environment-mapping.md). Each suite runs in its own process with its environment set by
// env_mapping.cmake (the wrapper reads the environment once per process); each test checks that
// the setting it needs is in effect, so a misregistered entry fails instead of passing vacuously.
//
//   EnvMappingCmd        MIOPEN_ENABLE_LOGGING_CMD: a forwarded call prints the same MIOpenDriver
//                        command Private prints for the same problem (Find, which stays on
//                        Private, and a declined call give Private's line in the same process;
//                        activation: a declined call of the same lengths)
//   EnvMappingSwitch     MIOpen's solver controls (MIOPEN_DEBUG_CONV_<ALGO>=0,
//                        MIOPEN_DEBUG_FIND_ONLY_SOLVER, MIOPEN_DEBUG_CONVOLUTION_DETERMINISTIC=1):
//                        honoured by Private, and with forwarding enabled the convolution family
//                        stays on Private (route reason miopen-only-variable)
//   EnvMappingLog        MIOPEN_LOG_LEVEL drives hipDNN's log level and hipDNN's messages come out
//                        as MIOpen lines; HIPDNN_LOG_LEVEL, when set, keeps hipDNN's own
//   EnvMappingDb         forwarded calls (convolution, batchnorm) add, change or remove nothing
//                        under MIOpen's DB and cache directories (RFC 4.8)
//   EnvMappingWarn       MIOPEN_DEBUG_CONV_CPU_ISA, MIOPEN_ENABLE_LOGGING, an upstream GPU solver switch:
//                        one warning at the first call when forwarding is enabled, none disabled
#include "common/api_helpers.hpp"
#include "common/conv_reference.hpp"
#include "common/forwarding_route.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;

const float kOne = 1.0f, kZero = 0.0f;

std::string env(const char* name)
{
    const char* v = std::getenv(name);
    return v == nullptr ? "" : v;
}

// Runs f with stderr captured; returns what was printed.
template <class F>
std::string captured(F&& f)
{
    ::testing::internal::CaptureStderr();
    f();
    return ::testing::internal::GetCapturedStderr();
}

std::vector<std::string> linesContaining(const std::string& text, const std::string& part)
{
    std::vector<std::string> out;
    std::istringstream in(text);
    for(std::string line; std::getline(in, line);)
        if(line.find(part) != std::string::npos)
            out.push_back(line);
    return out;
}

// The driver arguments of the "Command [<tag>] ./bin/MIOpenDriver <args>" line in text: the only
// one, or with `first`, the first one. (A call forwarded to MIOPEN_ENGINE prints two: the
// wrapper's line for the caller's call, then Private's for the provider's immediate-mode call of
// the solver it chose, "-S <id>".)
std::string commandArgs(const std::string& text, const std::string& tag, bool first = false)
{
    const auto lines = linesContaining(text, "MIOpen(HIP): Command [" + tag + "] ./bin/MIOpenDriver ");
    if(first)
        EXPECT_GE(lines.size(), 1u) << "expected a " << tag << " line in:\n" << text;
    else
        EXPECT_EQ(lines.size(), 1u) << "expected one " << tag << " line in:\n" << text;
    if(lines.empty() || (!first && lines.size() != 1))
        return "";
    const std::string marker = "./bin/MIOpenDriver ";
    return lines[0].substr(lines[0].find(marker) + marker.size());
}

// One convolution problem through the public API, with its buffers.
struct Problem
{
    miopenDataType_t type = miopenFloat;
    std::vector<int> xl, wl, yl, xs, ws, ys; // lengths; strides (empty: packed NCHW)
    std::vector<int> pads, strides, dils;
    int groups = 1;

    test::Handle h;
    test::Tensor x, w, y;
    test::Conv conv;
    std::vector<char> xb, wb, yb, work;

    void init()
    {
        auto set = [this](test::Tensor& t, const std::vector<int>& l, const std::vector<int>& s) {
            ASSERT_MIOPEN_OK(miopenSetTensorDescriptor(t, type, static_cast<int>(l.size()), l.data(), s.empty() ? nullptr : s.data()));
        };
        set(x, xl, xs);
        set(w, wl, ws);
        set(y, yl, ys);
        ASSERT_MIOPEN_OK(miopenInitConvolutionNdDescriptor(conv, static_cast<int>(pads.size()), pads.data(),
                                                          strides.data(), dils.data(), miopenConvolution));
        ASSERT_MIOPEN_OK(miopenSetConvolutionGroupCount(conv, groups));
        const std::size_t esz = type == miopenFloat ? 4 : 2;
        auto bytes            = [esz](const std::vector<int>& l) {
            std::size_t n = esz;
            for(int v : l)
                n *= static_cast<std::size_t>(v);
            return n;
        };
        std::mt19937 rng(7);
        xb.resize(bytes(xl));
        wb.resize(bytes(wl));
        yb.resize(bytes(yl));
        test::fillRandom(type, xb.data(), xb.size() / esz, rng);
        test::fillRandom(type, wb.data(), wb.size() / esz, rng);
        test::fillRandom(type, yb.data(), yb.size() / esz, rng);
        std::size_t a = 0, b = 0, c = 0;
        ASSERT_MIOPEN_OK(miopenConvolutionForwardGetWorkSpaceSize(h, w, x, conv, y, &a));
        ASSERT_MIOPEN_OK(miopenConvolutionBackwardDataGetWorkSpaceSize(h, y, w, conv, x, &b));
        ASSERT_MIOPEN_OK(miopenConvolutionBackwardWeightsGetWorkSpaceSize(h, y, x, conv, w, &c));
        work.resize(std::max({a, b, c, std::size_t{1}}));
    }
};

// ---- EnvMappingCmd ----------------------------------------------------------------------------------

// Find (Private) prints the problem's arguments; the plain call (forwarded when enabled) must
// print the very same arguments under the execution tag, and an immediate call the same plus
// "-S <id>".
void expectSameCommands(Problem& p)
{
    p.init();
    int found = 0;
    miopenConvAlgoPerf_t perf{};
    const std::string findArgs[3] = {
        commandArgs(captured([&] {
                        EXPECT_MIOPEN_OK(miopenFindConvolutionForwardAlgorithm(p.h, p.x, p.xb.data(), p.w, p.wb.data(), p.conv, p.y,
                                                                               p.yb.data(), 1, &found, &perf, p.work.data(),
                                                                               p.work.size(), false));
                    }),
                    "LogCmdFindConvolution"),
        commandArgs(captured([&] {
                        EXPECT_MIOPEN_OK(miopenFindConvolutionBackwardDataAlgorithm(
                            p.h, p.y, p.yb.data(), p.w, p.wb.data(), p.conv, p.x, p.xb.data(), 1, &found, &perf, p.work.data(),
                            p.work.size(), false));
                    }),
                    "LogCmdFindConvolution"),
        commandArgs(captured([&] {
                        EXPECT_MIOPEN_OK(miopenFindConvolutionBackwardWeightsAlgorithm(
                            p.h, p.y, p.yb.data(), p.x, p.xb.data(), p.conv, p.w, p.wb.data(), 1, &found, &perf,
                            p.work.data(), p.work.size(), false));
                    }),
                    "LogCmdFindConvolution")};
    const std::string entries[3] = {"miopenConvolutionForward", "miopenConvolutionBackwardData",
                                    "miopenConvolutionBackwardWeights"};
    for(int dir = 0; dir < 3; ++dir)
    {
        SCOPED_TRACE(entries[dir]);
        const test::route::Probe probe;
        const std::string out = captured([&] {
            const auto* ws = p.work.data();
            switch(dir)
            {
            case 0:
                EXPECT_MIOPEN_OK(miopenConvolutionForward(p.h, &kOne, p.x, p.xb.data(), p.w, p.wb.data(), p.conv,
                                                          miopenConvolutionFwdAlgoDirect, &kZero, p.y, p.yb.data(),
                                                          const_cast<char*>(ws), p.work.size()));
                break;
            case 1:
                EXPECT_MIOPEN_OK(miopenConvolutionBackwardData(p.h, &kOne, p.y, p.yb.data(), p.w, p.wb.data(), p.conv,
                                                               miopenConvolutionBwdDataAlgoDirect, &kZero, p.x, p.xb.data(),
                                                               const_cast<char*>(ws), p.work.size()));
                break;
            default:
                EXPECT_MIOPEN_OK(miopenConvolutionBackwardWeights(p.h, &kOne, p.y, p.yb.data(), p.x, p.xb.data(), p.conv,
                                                                  miopenConvolutionBwdWeightsAlgoDirect, &kZero, p.w,
                                                                  p.wb.data(), const_cast<char*>(ws), p.work.size()));
                break;
            }
        });
        EXPECT_TRUE(probe.check(entries[dir], test::route::Expected::forwarded()));
        EXPECT_EQ(commandArgs(out, "LogCmdConvolution", true), findArgs[dir]);
    }
    // Immediate mode: the forward solution Private lists first.
    std::size_t count = 0;
    ASSERT_MIOPEN_OK(miopenConvolutionForwardGetSolutionCount(p.h, p.w, p.x, p.conv, p.y, &count));
    ASSERT_GT(count, 0u);
    std::vector<miopenConvSolution_t> sols(count);
    ASSERT_MIOPEN_OK(miopenConvolutionForwardGetSolution(p.h, p.w, p.x, p.conv, p.y, count, &count, sols.data()));
    ASSERT_MIOPEN_OK(miopenConvolutionForwardCompileSolution(p.h, p.w, p.x, p.conv, p.y, sols[0].solution_id));
    const test::route::Probe probe;
    const std::string out = captured([&] {
        EXPECT_MIOPEN_OK(miopenConvolutionForwardImmediate(p.h, p.w, p.wb.data(), p.x, p.xb.data(), p.conv, p.y, p.yb.data(),
                                                           p.work.data(), p.work.size(), sols[0].solution_id));
    });
    EXPECT_TRUE(probe.check("miopenConvolutionForwardImmediate", test::route::Expected::forwarded()));
    EXPECT_EQ(commandArgs(out, "LogCmdConvolution", true), findArgs[0] + " -S " + std::to_string(sols[0].solution_id));
}

class EnvMappingCmd : public ::testing::Test
{
protected:
    void SetUp() override { ASSERT_EQ(env("MIOPEN_ENABLE_LOGGING_CMD"), "1"); }
};

TEST_F(EnvMappingCmd, Fp32Nchw3x3)
{
    Problem p;
    p.xl = {2, 4, 7, 7}, p.wl = {6, 4, 3, 3}, p.yl = {2, 6, 7, 7};
    p.pads = {1, 1}, p.strides = {1, 1}, p.dils = {1, 1};
    expectSameCommands(p);
}

TEST_F(EnvMappingCmd, Fp16NhwcStridedDilatedGrouped)
{
    Problem p;
    p.type = miopenHalf;
    p.xl = {2, 4, 9, 9}, p.wl = {6, 2, 3, 3}, p.yl = {2, 6, 3, 5};
    p.xs = {324, 1, 36, 4}, p.ws = {18, 1, 6, 2}, p.ys = {90, 1, 30, 6};
    p.pads = {0, 1}, p.strides = {2, 2}, p.dils = {2, 1}, p.groups = 2;
    expectSameCommands(p);
}

TEST_F(EnvMappingCmd, Bf16ThreeD)
{
    Problem p;
    p.type = miopenBFloat16;
    p.xl = {1, 3, 4, 5, 5}, p.wl = {2, 3, 2, 3, 3}, p.yl = {1, 2, 3, 5, 5};
    p.pads = {0, 1, 1}, p.strides = {1, 1, 1}, p.dils = {1, 1, 1};
    expectSameCommands(p);
}

TEST_F(EnvMappingCmd, BiasActivationForwardedAndDeclinedPrintTheSameGeometry)
{
    Problem p;
    p.xl = {1, 2, 6, 6}, p.wl = {4, 2, 3, 3}, p.yl = {1, 4, 6, 6};
    p.pads = {1, 1}, p.strides = {1, 1}, p.dils = {1, 1};
    p.init();
    test::Tensor bd(miopenFloat, {1, 4, 1, 1}, {});
    std::vector<float> bias(4, 0.1f);
    miopenActivationDescriptor_t relu = nullptr;
    ASSERT_MIOPEN_OK(miopenCreateActivationDescriptor(&relu));
    ASSERT_MIOPEN_OK(miopenSetActivationDescriptor(relu, miopenActivationRELU, 0, 0, 0));
    miopenActivationDescriptor_t tanhAct = nullptr;
    ASSERT_MIOPEN_OK(miopenCreateActivationDescriptor(&tanhAct));
    ASSERT_MIOPEN_OK(miopenSetActivationDescriptor(tanhAct, miopenActivationTANH, 1, 1, 0));
    auto call = [&](const float* alpha1, miopenActivationDescriptor_t act, miopenStatus_t want) {
        return captured([&] {
            EXPECT_EQ(want, miopenConvolutionBiasActivationForward(p.h, alpha1, p.x, p.xb.data(), p.w, p.wb.data(), p.conv,
                                                                   miopenConvolutionFwdAlgoDirect, p.work.data(),
                                                                   p.work.size(), &kOne, nullptr, nullptr, bd,
                                                                   bias.data(), act, p.y, p.yb.data()));
        });
    };
    const float two = 2.0f;
    test::route::Probe declinedProbe;
    // A TANH activation: declined, Private logs the command and refuses the mode (as upstream).
    const std::string declined = commandArgs(call(&kOne, tanhAct, miopenStatusNotImplemented), "LogCmdFusion");
    EXPECT_TRUE(declinedProbe.check("miopenConvolutionBiasActivationForward", test::route::Expected::declined("activation")));
    test::route::Probe forwardedProbe;
    const std::string forwarded = commandArgs(call(&two, relu, miopenStatusSuccess), "LogCmdFusion", true); // alpha1 != 1
    EXPECT_TRUE(forwardedProbe.check("miopenConvolutionBiasActivationForward", test::route::Expected::forwarded()));
    EXPECT_EQ(forwarded, declined);
    EXPECT_EQ(forwarded, "CBAInfer -F 4 -n 1 -c 2 -H 6 -W 6 -k 4 -y 3 -x 3 -p 1 -q 1 -u 1 -v 1 -l 1 -j 1 -g 1");
    miopenDestroyActivationDescriptor(relu);
    miopenDestroyActivationDescriptor(tanhAct);
}

// An activation forwarded (dense tensors) and declined (padded tensors of the same lengths, reason
// layout) prints Private's LogCmdActivation line, forward and backward.
TEST_F(EnvMappingCmd, ActivationForwardedAndDeclinedPrintTheSameLine)
{
    test::Handle h;
    const std::vector<int> lens = {2, 3, 5, 6};
    test::Tensor dense(miopenHalf, lens, {}), padded(miopenHalf, lens, {120, 40, 8, 1});
    std::vector<std::uint16_t> x(240, 0x3c00), y(240, 0), dy(240, 0x3c00), dx(240, 0); // 1.0 in fp16
    miopenActivationDescriptor_t leaky = nullptr;
    ASSERT_MIOPEN_OK(miopenCreateActivationDescriptor(&leaky));
    ASSERT_MIOPEN_OK(miopenSetActivationDescriptor(leaky, miopenActivationLEAKYRELU, 0.1, 0, 0));
    for(const bool forward : {true, false})
    {
        const char* entry = forward ? "miopenActivationForward" : "miopenActivationBackward";
        auto call = [&](miopenTensorDescriptor_t d) {
            return captured([&] {
                if(forward)
                    EXPECT_MIOPEN_OK(miopenActivationForward(h, leaky, &kOne, d, x.data(), &kZero, d, y.data()));
                else
                    EXPECT_MIOPEN_OK(miopenActivationBackward(h, leaky, &kOne, d, y.data(), d, dy.data(), d, x.data(),
                                                              &kZero, d, dx.data()));
            });
        };
        test::route::Probe declinedProbe;
        const std::string declined = commandArgs(call(padded), "LogCmdActivation");
        EXPECT_TRUE(declinedProbe.check(entry, test::route::Expected::declined("layout")));
        test::route::Probe forwardedProbe;
        // The wrapper's line comes first; an engine over Private (MIOPEN_ENGINE, also while hipDNN
        // measures the engine order) logs the same line again from its _impl calls.
        const std::string forwarded = commandArgs(call(dense), "LogCmdActivation", true);
        EXPECT_TRUE(forwardedProbe.check(entry, test::route::Expected::forwarded()));
        EXPECT_EQ(forwarded, declined);
        EXPECT_EQ(forwarded, std::string("activfp16 -n 2 -c 3 -H 5 -W 6 -m 8 --forw ") + (forward ? "1" : "2") +
                                 " -A 0.1 -B 0 -G 0");
    }
    miopenDestroyActivationDescriptor(leaky);
}

// ---- EnvMappingSwitch ---------------------------------------------------------------------------------

// The variable this process runs with (env_mapping.cmake sets exactly one of them).
std::string switchInEffect()
{
    for(const char* v : {"MIOPEN_DEBUG_CONV_WINOGRAD", "MIOPEN_DEBUG_CONV_GEMM", "MIOPEN_DEBUG_FIND_ONLY_SOLVER",
                         "MIOPEN_DEBUG_CONVOLUTION_DETERMINISTIC"})
        if(!env(v).empty())
            return std::string(v) + "=" + env(v);
    return "";
}

// A 3x3 problem every solver family applies to; checks Private honours the switch and, when
// forwarding is enabled, that the convolution calls stay on Private with the variable named.
TEST(EnvMappingSwitch, HonouredByPrivateAndKeepsConvolutionOnPrivate)
{
    const std::string sw = switchInEffect();
    ASSERT_FALSE(sw.empty()) << "env_mapping.cmake sets one MIOpen solver control for this test";
    Problem p;
    p.xl = {2, 4, 8, 8}, p.wl = {4, 4, 3, 3}, p.yl = {2, 4, 8, 8};
    p.pads = {1, 1}, p.strides = {1, 1}, p.dils = {1, 1};
    p.init();

    std::size_t count = 0;
    ASSERT_MIOPEN_OK(miopenConvolutionForwardGetSolutionCount(p.h, p.w, p.x, p.conv, p.y, &count));
    std::vector<miopenConvSolution_t> sols(count);
    ASSERT_MIOPEN_OK(miopenConvolutionForwardGetSolution(p.h, p.w, p.x, p.conv, p.y, count, &count, sols.data()));
    std::map<miopenConvAlgorithm_t, int> algos;
    for(std::size_t i = 0; i < count; ++i)
        ++algos[sols[i].algorithm];
    int found = 0;
    miopenConvAlgoPerf_t perf[4]{};
    ASSERT_MIOPEN_OK(miopenFindConvolutionForwardAlgorithm(p.h, p.x, p.xb.data(), p.w, p.wb.data(), p.conv, p.y, p.yb.data(),
                                                           4, &found, perf, p.work.data(), p.work.size(), true));
    if(sw == "MIOPEN_DEBUG_CONV_WINOGRAD=0")
    {
        EXPECT_EQ(algos.count(miopenConvolutionAlgoWinograd), 0u);
        EXPECT_GT(algos.count(miopenConvolutionAlgoGEMM), 0u);
        for(int i = 0; i < found; ++i)
            EXPECT_NE(perf[i].fwd_algo, miopenConvolutionFwdAlgoWinograd);
    }
    else if(sw == "MIOPEN_DEBUG_CONV_GEMM=0")
    {
        EXPECT_EQ(algos.count(miopenConvolutionAlgoGEMM), 0u);
        EXPECT_GT(algos.count(miopenConvolutionAlgoWinograd), 0u);
        for(int i = 0; i < found; ++i)
            EXPECT_NE(perf[i].fwd_algo, miopenConvolutionFwdAlgoGEMM);
    }
    else if(sw == "MIOPEN_DEBUG_FIND_ONLY_SOLVER=ConvDirectNaiveConvFwd")
    {
        EXPECT_GT(algos.size(), 1u); // immediate mode still lists every solver
        ASSERT_EQ(found, 1);
        EXPECT_EQ(perf[0].fwd_algo, miopenConvolutionFwdAlgoDirect);
    }
    else if(sw == "MIOPEN_DEBUG_CONVOLUTION_DETERMINISTIC=1")
    {
        int v = -1;
        ASSERT_MIOPEN_OK(miopenGetConvolutionAttribute(p.conv, MIOPEN_CONVOLUTION_ATTRIB_DETERMINISTIC, &v));
        EXPECT_EQ(v, 1);
    }
    else
        FAIL() << "no expectations for " << sw;

    // The forward result is right whatever serves it.
    const auto before = test::route::readCounters();
    ASSERT_MIOPEN_OK(miopenConvolutionForward(p.h, &kOne, p.x, p.xb.data(), p.w, p.wb.data(), p.conv,
                                              miopenConvolutionFwdAlgoDirect, &kZero, p.y, p.yb.data(), p.work.data(),
                                              p.work.size()));
    conv_reference::ConvParams cp;
    cp.pads = {1, 1}, cp.strides = {1, 1}, cp.dilations = {1, 1};
    const auto xt = conv_reference::makeTensor({2, 4, 8, 8}, "NCHW"), wt = conv_reference::makeTensor({4, 4, 3, 3}, "NCHW"),
               yt = conv_reference::makeTensor({2, 4, 8, 8}, "NCHW");
    auto toDouble = [](const std::vector<char>& b) {
        std::vector<double> d(b.size() / 4);
        for(std::size_t i = 0; i < d.size(); ++i)
            d[i] = reinterpret_cast<const float*>(b.data())[i];
        return d;
    };
    const auto xd = toDouble(p.xb), wd = toDouble(p.wb);
    std::vector<double> ref(yt.elementCount());
    conv_reference::forward(cp, xt, xd.data(), wt, wd.data(), yt, ref.data());
    const auto* got = reinterpret_cast<const float*>(p.yb.data());
    for(std::size_t i = 0; i < ref.size(); ++i)
        ASSERT_NEAR(got[i], ref[i], 1e-4 * (1.0 + std::abs(ref[i]))) << "at " << i;

    const auto after = test::route::readCounters();
    if(!test::route::forwardingEnabled())
        return;
    const auto& a = after.at("miopenConvolutionForward");
    const long routedBefore = before.count("miopenConvolutionForward") ? before.at("miopenConvolutionForward").routed : 0;
    EXPECT_EQ(a.routed, routedBefore + 1);
    EXPECT_EQ(a.forwarded, before.count("miopenConvolutionForward") ? before.at("miopenConvolutionForward").forwarded : 0);
    EXPECT_EQ(a.last, "route=miopen reason=miopen-only-variable:" + sw);
    EXPECT_FALSE(test::route::backendLoaded()) << "nothing was forwarded, so hipDNN is never loaded";
}

// ---- EnvMappingLog ------------------------------------------------------------------------------------

std::string forwardOneConvolution()
{
    Problem p;
    p.xl = {1, 2, 5, 5}, p.wl = {2, 2, 3, 3}, p.yl = {1, 2, 5, 5};
    p.pads = {1, 1}, p.strides = {1, 1}, p.dils = {1, 1};
    p.init();
    const test::route::Probe probe;
    const std::string out = captured([&] {
        EXPECT_MIOPEN_OK(miopenConvolutionForward(p.h, &kOne, p.x, p.xb.data(), p.w, p.wb.data(), p.conv,
                                                  miopenConvolutionFwdAlgoDirect, &kZero, p.y, p.yb.data(), p.work.data(),
                                                  p.work.size()));
    });
    EXPECT_TRUE(probe.check("miopenConvolutionForward", test::route::Expected::forwarded()));
    return out;
}

TEST(EnvMappingLog, MiopenTraceLevelLogsHipdnnAsMiopenLines)
{
    ASSERT_EQ(env("MIOPEN_LOG_LEVEL"), "7");
    ASSERT_TRUE(env("HIPDNN_LOG_LEVEL").empty());
    const std::string out = forwardOneConvolution();
    EXPECT_FALSE(linesContaining(out, "MIOpen(HIP): Info [hipDNN] ").empty()) << out;
    EXPECT_TRUE(linesContaining(out, "[hipDNN][info]").empty()) << "each hipDNN message once, in MIOpen's format:\n" << out;
}

TEST(EnvMappingLog, MiopenWarningLevelDropsHipdnnInfo)
{
    ASSERT_EQ(env("MIOPEN_LOG_LEVEL"), "4");
    const std::string out = forwardOneConvolution();
    EXPECT_TRUE(linesContaining(out, "[hipDNN]").empty()) << out;
}

TEST(EnvMappingLog, HipdnnLogLevelKeepsHipdnnsOwnLogging)
{
    ASSERT_EQ(env("MIOPEN_LOG_LEVEL"), "7");
    ASSERT_EQ(env("HIPDNN_LOG_LEVEL"), "info");
    const std::string out = forwardOneConvolution();
    EXPECT_FALSE(linesContaining(out, "[hipDNN][info]").empty()) << out;
    EXPECT_TRUE(linesContaining(out, "MIOpen(HIP): Info [hipDNN] ").empty()) << out;
}

// ---- EnvMappingDb ------------------------------------------------------------------------------------

std::map<std::string, fs::file_time_type> listing(const fs::path& dir)
{
    std::map<std::string, fs::file_time_type> m;
    for(const auto& e : fs::recursive_directory_iterator(dir))
        m[e.path().string()] = fs::last_write_time(e.path());
    return m;
}

TEST(EnvMappingDb, ForwardedCallsWriteNothingUnderMiopenDirectories)
{
    const fs::path db = env("MIOPEN_USER_DB_PATH"), cache = env("MIOPEN_CUSTOM_CACHE_DIR");
    ASSERT_FALSE(db.empty());
    ASSERT_FALSE(cache.empty());
    fs::remove_all(db);
    fs::remove_all(cache);
    fs::create_directories(db);
    fs::create_directories(cache);
    Problem p;
    p.xl = {2, 3, 6, 6}, p.wl = {4, 3, 3, 3}, p.yl = {2, 4, 6, 6};
    p.pads = {1, 1}, p.strides = {1, 1}, p.dils = {1, 1};
    p.init();
    // Find stays on Private and records the problem in the find-db under MIOPEN_USER_DB_PATH.
    int found = 0;
    miopenConvAlgoPerf_t perf{};
    ASSERT_MIOPEN_OK(miopenFindConvolutionForwardAlgorithm(p.h, p.x, p.xb.data(), p.w, p.wb.data(), p.conv, p.y, p.yb.data(),
                                                           1, &found, &perf, p.work.data(), p.work.size(), false));
    const auto dbBefore = listing(db), cacheBefore = listing(cache);
    EXPECT_FALSE(dbBefore.empty()) << "Find writes its record under MIOPEN_USER_DB_PATH";
    const test::route::Probe probe;
    ASSERT_MIOPEN_OK(miopenConvolutionForward(p.h, &kOne, p.x, p.xb.data(), p.w, p.wb.data(), p.conv, perf.fwd_algo, &kZero,
                                              p.y, p.yb.data(), p.work.data(), p.work.size()));
    ASSERT_MIOPEN_OK(miopenConvolutionBackwardData(p.h, &kOne, p.y, p.yb.data(), p.w, p.wb.data(), p.conv,
                                                   miopenConvolutionBwdDataAlgoDirect, &kZero, p.x, p.xb.data(),
                                                   p.work.data(), p.work.size()));
    ASSERT_MIOPEN_OK(miopenConvolutionBackwardWeights(p.h, &kOne, p.y, p.yb.data(), p.x, p.xb.data(), p.conv,
                                                      miopenConvolutionBwdWeightsAlgoDirect, &kZero, p.w, p.wb.data(),
                                                      p.work.data(), p.work.size()));
    EXPECT_TRUE(probe.check("miopenConvolutionForward", test::route::Expected::forwarded()));
    // The batchnorm family (forwarded in spatial mode): training, inference, backward.
    test::Tensor bnX(miopenFloat, {2, 3, 4, 4}, {}), bnP(miopenFloat, {1, 3, 1, 1}, {});
    std::vector<float> bx(96, 0.5f), by(96), dx(96), scale(3, 1.0f), bias(3, 0.0f), rm(3, 0.0f), rv(3, 1.0f), sm(3), sv(3),
        ds(3), db2(3);
    for(std::size_t i = 0; i < bx.size(); ++i)
        bx[i] = static_cast<float>(i % 7) * 0.25f;
    const test::route::Probe bnProbe;
    ASSERT_MIOPEN_OK(miopenBatchNormalizationForwardTraining(p.h, miopenBNSpatial, const_cast<float*>(&kOne),
                                                             const_cast<float*>(&kZero), bnX, bx.data(), bnX, by.data(), bnP,
                                                             scale.data(), bias.data(), 0.1, rm.data(), rv.data(), 1e-5,
                                                             sm.data(), sv.data()));
    EXPECT_TRUE(bnProbe.check("miopenBatchNormalizationForwardTraining", test::route::Expected::forwarded()));
    ASSERT_MIOPEN_OK(miopenBatchNormalizationForwardInference(p.h, miopenBNSpatial, const_cast<float*>(&kOne),
                                                              const_cast<float*>(&kZero), bnX, bx.data(), bnX, by.data(),
                                                              bnP, scale.data(), bias.data(), rm.data(), rv.data(), 1e-5));
    ASSERT_MIOPEN_OK(miopenBatchNormalizationBackward(p.h, miopenBNSpatial, &kOne, &kZero, &kOne, &kZero, bnX, bx.data(), bnX,
                                                      by.data(), bnX, dx.data(), bnP, scale.data(), ds.data(), db2.data(),
                                                      1e-5, sm.data(), sv.data()));
    EXPECT_EQ(listing(db), dbBefore);
    EXPECT_EQ(listing(cache), cacheBefore);
    EXPECT_TRUE(cacheBefore.empty());
}

// ---- EnvMappingWarn ------------------------------------------------------------------------------
// Variables hipDNN has no equivalent for and that do not keep a family on Private: one warning at
// the first call when forwarding is enabled (none when it is disabled: Private honours them all).

TEST(EnvMappingWarn, OnceAtTheFirstCallWhenForwardingIsEnabled)
{
    const bool isa = !env("MIOPEN_DEBUG_CONV_CPU_ISA").empty();
    const bool gpu = !env("MIOPEN_DEBUG_CONV_DIRECT_ASM_3X3U").empty();
    ASSERT_TRUE(isa || gpu || env("MIOPEN_ENABLE_LOGGING") == "1") << "env_mapping.cmake sets one of the three";
    const std::string expected =
        isa ? "MIOPEN_DEBUG_CONV_CPU_ISA=generic applies to MIOpen's solvers (forwarded calls on MIOPEN_ENGINE); "
              "DNNL_ENGINE follows oneDNN's DNNL_MAX_CPU_ISA instead"
        : gpu ? "MIOPEN_DEBUG_CONV_DIRECT_ASM_3X3U: upstream MIOpen debug switches for solvers that neither this MIOpen "
                "nor hipDNN's engines have; no effect on either route"
              : "MIOPEN_ENABLE_LOGGING: calls forwarded to hipDNN print no MIOpen argument block";
    const std::string first = captured([] {
        miopenHandle_t h = nullptr;
        EXPECT_MIOPEN_OK(miopenCreate(&h)); // the first MIOpen call of the process
        EXPECT_MIOPEN_OK(miopenDestroy(h));
    });
    const std::string later = captured([] {
        miopenHandle_t h = nullptr;
        EXPECT_MIOPEN_OK(miopenCreate(&h));
        EXPECT_MIOPEN_OK(miopenDestroy(h));
    });
    const auto warnings = linesContaining(first, "MIOpen(HIP): Warning [wrapper] " + expected);
    if(test::route::forwardingEnabled())
        EXPECT_EQ(warnings.size(), 1u) << first;
    else
        EXPECT_TRUE(warnings.empty()) << first;
    EXPECT_TRUE(linesContaining(later, "[wrapper] " + expected).empty()) << "once per process:\n" << later;
}

} // namespace
