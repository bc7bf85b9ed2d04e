// MIOPEN_ENABLE_LOGGING_CMD and MIOPEN_ENABLE_LOGGING through the public C API, for the families
// beyond convolution: each call's stderr is captured and the exact MIOpenDriver command line
// (upstream's flags: bnorm, activ, pool, softmax, lrn, CBAInfer) and the descriptor contents of
// the API log are compared with the expected text. Both variables are set before main(), so
// before the library reads the environment (once per process).
#include "api/act_bn_test_util.hpp"
#include "common/api_helpers.hpp"

#include <algorithm>
#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

namespace {

// Before main(), so before any MIOpen call reads the environment.
const bool kLoggingEnv = [] {
    setenv("MIOPEN_ENABLE_LOGGING_CMD", "1", 1);
    setenv("MIOPEN_ENABLE_LOGGING", "1", 1);
    return true;
}();

const std::string kPrefix = "MIOpen(HIP): ";

// The lines of `text` that start with "MIOpen(HIP): <start>", without the "MIOpen(HIP): " prefix.
std::vector<std::string> linesStartingWith(const std::string& text, const std::string& start)
{
    std::vector<std::string> out;
    std::istringstream in(text);
    for(std::string line; std::getline(in, line);)
        if(line.rfind(kPrefix + start, 0) == 0)
            out.push_back(line.substr(kPrefix.size()));
    return out;
}

std::vector<std::string> commands(const std::string& text) { return linesStartingWith(text, "Command ["); }

std::string cmd(const char* tag, const std::string& args)
{
    return std::string("Command [") + tag + "] ./bin/MIOpenDriver " + args;
}

// Runs f with stderr captured; returns what was printed.
template <class F>
std::string captured(F&& f)
{
    ::testing::internal::CaptureStderr();
    f();
    return ::testing::internal::GetCapturedStderr();
}

struct Activ
{
    miopenActivationDescriptor_t d = nullptr;
    Activ(miopenActivationMode_t m, double a, double b, double g)
    {
        EXPECT_MIOPEN_OK(miopenCreateActivationDescriptor(&d));
        EXPECT_MIOPEN_OK(miopenSetActivationDescriptor(d, m, a, b, g));
    }
    ~Activ() { miopenDestroyActivationDescriptor(d); }
    operator miopenActivationDescriptor_t() const { return d; }
};

struct Pool
{
    miopenPoolingDescriptor_t d = nullptr;
    Pool() { EXPECT_MIOPEN_OK(miopenCreatePoolingDescriptor(&d)); }
    ~Pool() { miopenDestroyPoolingDescriptor(d); }
    operator miopenPoolingDescriptor_t() const { return d; }
};

struct Lrn
{
    miopenLRNDescriptor_t d = nullptr;
    Lrn(miopenLRNMode_t m, unsigned n, double a, double b, double k)
    {
        EXPECT_MIOPEN_OK(miopenCreateLRNDescriptor(&d));
        EXPECT_MIOPEN_OK(miopenSetLRNDescriptor(d, m, n, a, b, k));
    }
    ~Lrn() { miopenDestroyLRNDescriptor(d); }
    operator miopenLRNDescriptor_t() const { return d; }
};

std::size_t count(const std::vector<int>& lens)
{
    std::size_t n = 1;
    for(int l : lens)
        n *= static_cast<std::size_t>(l);
    return n;
}

const float kOne = 1.0f, kZero = 0.0f;

// ---- MIOPEN_ENABLE_LOGGING_CMD --------------------------------------------------------------------

TEST(LoggingCmd, ActivationForwardAndBackward)
{
    test::Handle h;
    Activ act(miopenActivationLEAKYRELU, 0.5, 0, 0);
    test::Tensor xd(miopenFloat, {2, 3, 4, 5}, {});
    std::vector<float> x(120, 0.25f), y(120), dy(120, 1.0f), dx(120);
    const auto out = captured([&] {
        EXPECT_MIOPEN_OK(miopenActivationForward(h, act, &kOne, xd, x.data(), &kZero, xd, y.data()));
        EXPECT_MIOPEN_OK(miopenActivationBackward(h, act, &kOne, xd, y.data(), xd, dy.data(), xd, x.data(), &kZero,
                                                  xd, dx.data()));
    });
    EXPECT_EQ(commands(out), (std::vector<std::string>{
                                 cmd("LogCmdActivation", "activ -n 2 -c 3 -H 4 -W 5 -m 8 --forw 1 -A 0.5 -B 0 -G 0"),
                                 cmd("LogCmdActivation", "activ -n 2 -c 3 -H 4 -W 5 -m 8 --forw 2 -A 0.5 -B 0 -G 0"),
                             }));
}

TEST(LoggingCmd, ActivationHalfRank5)
{
    test::Handle h;
    Activ act(miopenActivationTANH, 1.5, 2, 0);
    test::Tensor xd(miopenHalf, {1, 2, 3, 4, 5}, {});
    std::vector<std::uint16_t> x(120, 0), y(120);
    const auto out = captured(
        [&] { EXPECT_MIOPEN_OK(miopenActivationForward(h, act, &kOne, xd, x.data(), &kZero, xd, y.data())); });
    // D and H fold into -H (an element-wise operation: the same elements).
    EXPECT_EQ(commands(out), (std::vector<std::string>{cmd(
                                 "LogCmdActivation", "activfp16 -n 1 -c 2 -H 12 -W 5 -m 2 --forw 1 -A 1.5 -B 2 -G 0")}));
}

TEST(LoggingCmd, BatchNormTrainingInferenceBackward)
{
    test::Handle h;
    const std::vector<int> lens{2, 3, 4, 5};
    test::Tensor xd(miopenFloat, lens, {});
    test::Tensor pd(miopenFloat, {1, 3, 1, 1}, {});
    std::mt19937 rng(7);
    std::vector<float> x(count(lens)), y(x.size()), dy(x.size()), dx(x.size());
    test::fillRandom(miopenFloat, x.data(), x.size(), rng);
    test::fillRandom(miopenFloat, dy.data(), dy.size(), rng);
    std::vector<float> scale(3, 1.0f), bias(3, 0.0f), rm(3, 0.0f), rv(3, 1.0f), sm(3), si(3), ds(3), db(3);
    const auto out = captured([&] {
        EXPECT_MIOPEN_OK(miopenBatchNormalizationForwardTraining(h, miopenBNSpatial, const_cast<float*>(&kOne),
                                                                 const_cast<float*>(&kZero), xd, x.data(), xd, y.data(),
                                                                 pd, scale.data(), bias.data(), 0.1, rm.data(),
                                                                 rv.data(), 1e-5, sm.data(), si.data()));
        EXPECT_MIOPEN_OK(miopenBatchNormalizationForwardTraining(h, miopenBNSpatial, const_cast<float*>(&kOne),
                                                                 const_cast<float*>(&kZero), xd, x.data(), xd, y.data(),
                                                                 pd, scale.data(), bias.data(), 0.1, nullptr, nullptr,
                                                                 1e-5, nullptr, nullptr));
        EXPECT_MIOPEN_OK(miopenBatchNormalizationForwardInference(h, miopenBNSpatial, const_cast<float*>(&kOne),
                                                                  const_cast<float*>(&kZero), xd, x.data(), xd,
                                                                  y.data(), pd, scale.data(), bias.data(), rm.data(),
                                                                  rv.data(), 1e-5));
        EXPECT_MIOPEN_OK(miopenBatchNormalizationBackward(h, miopenBNSpatial, &kOne, &kZero, &kOne, &kZero, xd,
                                                          x.data(), xd, dy.data(), xd, dx.data(), pd, scale.data(),
                                                          ds.data(), db.data(), 1e-5, sm.data(), si.data()));
        EXPECT_MIOPEN_OK(miopenBatchNormalizationBackward(h, miopenBNSpatial, &kOne, &kZero, &kOne, &kZero, xd,
                                                          x.data(), xd, dy.data(), xd, dx.data(), pd, scale.data(),
                                                          ds.data(), db.data(), 1e-5, nullptr, nullptr));
    });
    const std::string dims = "-n 2 -c 3 -H 4 -W 5 -m 1";
    EXPECT_EQ(commands(out), (std::vector<std::string>{
                                 cmd("LogCmdBNorm", "bnorm " + dims + " --forw 1 -b 0 -s 1 -r 1 --layout NCHW"),
                                 cmd("LogCmdBNorm", "bnorm " + dims + " --forw 1 -b 0 --layout NCHW"),
                                 cmd("LogCmdBNorm", "bnorm " + dims + " --forw 2 -b 0 -r 1 --layout NCHW"),
                                 cmd("LogCmdBNorm", "bnorm " + dims + " --forw 0 -b 1 -s 1 --layout NCHW"),
                                 cmd("LogCmdBNorm", "bnorm " + dims + " --forw 0 -b 1 --layout NCHW"),
                             }));
}

TEST(LoggingCmd, BatchNormMixedPrecision3dAndNhwc)
{
    test::Handle h;
    // fp16 data with fp32 parameters (V2), per-activation, 5-D.
    const std::vector<int> lens{1, 2, 2, 3, 4};
    test::Tensor xd(miopenHalf, lens, {});
    test::Tensor pd(miopenFloat, {1, 2, 2, 3, 4}, {});
    std::vector<std::uint16_t> x(count(lens), 0x3c00), y(x.size());
    std::vector<float> scale(count(lens), 1.0f), bias(scale.size(), 0.0f);
    // NHWC fp32, spatial inference.
    const auto nhwc = test::channelsLast({2, 3, 4, 5});
    test::Tensor xn(miopenFloat, nhwc.lens, nhwc.strides);
    test::Tensor pn(miopenFloat, {1, 3, 1, 1}, {});
    std::vector<float> xv(120, 0.5f), yv(120), s3(3, 1.0f), b3(3, 0.0f), m3(3, 0.0f), v3(3, 1.0f);
    const auto out = captured([&] {
        EXPECT_MIOPEN_OK(miopenBatchNormalizationForwardTraining_V2(
            h, miopenBNPerActivation, const_cast<float*>(&kOne), const_cast<float*>(&kZero), xd, x.data(), xd,
            y.data(), pd, pd, pd, pd, scale.data(), bias.data(), 0.1, nullptr, nullptr, 1e-5, nullptr, nullptr));
        EXPECT_MIOPEN_OK(miopenBatchNormalizationForwardInference(h, miopenBNSpatial, const_cast<float*>(&kOne),
                                                                  const_cast<float*>(&kZero), xn, xv.data(), xn,
                                                                  yv.data(), pn, s3.data(), b3.data(), m3.data(),
                                                                  v3.data(), 1e-5));
    });
    EXPECT_EQ(commands(out),
              (std::vector<std::string>{
                  cmd("LogCmdBNorm", "bnormfp16fp32 -n 1 -c 2 -D 2 -H 3 -W 4 -m 0 --forw 1 -b 0 --layout NCDHW"),
                  cmd("LogCmdBNorm", "bnorm -n 2 -c 3 -H 4 -W 5 -m 1 --forw 2 -b 0 -r 1 --layout NHWC"),
              }));
}

TEST(LoggingCmd, Pooling2dAnd3d)
{
    test::Handle h;
    Pool max2d, avg2d, avg3d;
    ASSERT_MIOPEN_OK(miopenSet2dPoolingDescriptor(max2d, miopenPoolingMax, 3, 3, 1, 1, 2, 2));
    ASSERT_MIOPEN_OK(miopenSetPoolingIndexType(max2d, miopenIndexUint16));
    ASSERT_MIOPEN_OK(miopenSet2dPoolingDescriptor(avg2d, miopenPoolingAverage, 2, 3, 0, 1, 2, 1));
    const int win[3] = {2, 2, 2}, pad[3] = {0, 0, 0}, str[3] = {2, 2, 2};
    ASSERT_MIOPEN_OK(miopenSetNdPoolingDescriptor(avg3d, miopenPoolingAverageInclusive, 3, win, pad, str));

    test::Tensor x2(miopenFloat, {1, 2, 8, 8}, {});
    test::Tensor y2max(miopenFloat, {1, 2, 4, 4}, {});
    test::Tensor y2avg(miopenFloat, {1, 2, 4, 8}, {});
    test::Tensor x3(miopenFloat, {1, 1, 4, 4, 4}, {});
    test::Tensor y3(miopenFloat, {1, 1, 2, 2, 2}, {});
    std::vector<float> x(128, 1.0f), ymax(32), yavg(64), dyavg(64, 1.0f), dx(128), x3v(64, 1.0f), y3v(8);
    const auto out = captured([&] {
        EXPECT_MIOPEN_OK(
            miopenPoolingForward(h, max2d, &kOne, x2, x.data(), &kZero, y2max, ymax.data(), false, nullptr, 0));
        EXPECT_MIOPEN_OK(miopenPoolingBackward(h, avg2d, &kOne, y2avg, yavg.data(), y2avg, dyavg.data(), x2, x.data(),
                                               &kZero, x2, dx.data(), nullptr));
        EXPECT_MIOPEN_OK(miopenPoolingForward(h, avg3d, &kOne, x3, x3v.data(), &kZero, y3, y3v.data(), false, nullptr, 0));
    });
    EXPECT_EQ(commands(out),
              (std::vector<std::string>{
                  cmd("Pooling_logging_cmd", "pool -M 0 --input 1x2x8x8,128x64x8x1 -y 3 -x 3 -p 1 -q 1 -v 2 -u 2 -m "
                                             "max -F 1 -t 1 -I miopenIndexUint16"),
                  cmd("Pooling_logging_cmd",
                      "pool -M 0 --input 1x2x8x8,128x64x8x1 -y 2 -x 3 -p 0 -q 1 -v 2 -u 1 -m avg -F 0 -t 1"),
                  cmd("Pooling_logging_cmd", "pool -M 1 --input 1x1x4x4x4,64x64x16x4x1 -Z 2 -y 2 -x 2 -o 0 -p 0 -q 0 "
                                             "-s 2 -v 2 -u 2 -m avg_in -F 1 -t 1"),
              }));
}

TEST(LoggingCmd, SoftmaxV1AndV2)
{
    test::Handle h;
    test::Tensor xd(miopenFloat, {2, 3, 4, 5}, {});
    std::vector<float> x(120, 0.5f), y(120), dy(120, 1.0f), dx(120, 0.0f);
    const float half = 0.5f;
    const auto out = captured([&] {
        EXPECT_MIOPEN_OK(miopenSoftmaxForward(h, &kOne, xd, x.data(), &kZero, xd, y.data()));
        EXPECT_MIOPEN_OK(miopenSoftmaxBackward_V2(h, &kOne, xd, y.data(), xd, dy.data(), &half, xd, dx.data(),
                                                  MIOPEN_SOFTMAX_LOG, MIOPEN_SOFTMAX_MODE_INSTANCE));
    });
    EXPECT_EQ(commands(out),
              (std::vector<std::string>{
                  cmd("LogCmdSoftmax", "softmax -n 2 -c 3 -H 4 -W 5 -F 1 -a 1 -m 1 -A 1.000000 -B 0.000000"),
                  cmd("LogCmdSoftmax", "softmax -n 2 -c 3 -H 4 -W 5 -F 2 -a 2 -m 0 -A 1.000000 -B 0.500000"),
              }));
}

TEST(LoggingCmd, LrnForwardAndBackward)
{
    test::Handle h;
    Lrn lrn(miopenLRNCrossChannel, 5, 1e-4, 0.75, 1.0);
    test::Tensor xd(miopenFloat, {2, 3, 4, 5}, {});
    std::size_t wsBytes = 0;
    ASSERT_MIOPEN_OK(miopenLRNGetWorkSpaceSize(xd, &wsBytes));
    std::vector<char> ws(wsBytes);
    std::vector<float> x(120, 0.5f), y(120), dy(120, 1.0f), dx(120);
    const auto out = captured([&] {
        EXPECT_MIOPEN_OK(miopenLRNForward(h, lrn, &kOne, xd, x.data(), &kZero, xd, y.data(), true, ws.data()));
        EXPECT_MIOPEN_OK(miopenLRNBackward(h, lrn, &kOne, xd, y.data(), xd, dy.data(), xd, x.data(), &kZero, xd,
                                           dx.data(), ws.data()));
    });
    EXPECT_EQ(commands(out), (std::vector<std::string>{
                                 cmd("LogCmdLRN", "lrn -A 0.0001 -B 0.75 -F 1 -H 4 -K 1 -N 5 -W 5 -c 3 -m 1 -n 2"),
                                 cmd("LogCmdLRN", "lrn -A 0.0001 -B 0.75 -F 2 -H 4 -K 1 -N 5 -W 5 -c 3 -m 1 -n 2"),
                             }));
}

// A conv + bias + ReLU plan, a batchnorm + activation plan, the fused call and a plain
// convolution: upstream's CBAInfer modes 4 and 2, and the unchanged conv line.
TEST(LoggingCmd, FusionAndConvolution)
{
    test::Handle h;
    test::Tensor xd(miopenFloat, {1, 2, 6, 6}, {});
    test::Tensor wd(miopenFloat, {4, 2, 3, 3}, {});
    test::Tensor bd(miopenFloat, {1, 4, 1, 1}, {});
    test::Tensor yd(miopenFloat, {1, 4, 6, 6}, {});
    test::Conv conv;
    ASSERT_MIOPEN_OK(miopenInitConvolutionDescriptor(conv, miopenConvolution, 1, 1, 1, 1, 1, 1));
    Activ relu(miopenActivationRELU, 0, 0, 0);
    std::vector<float> x(72, 0.5f), w(72, 0.25f), b(4, 0.1f), y(144);

    miopenFusionPlanDescriptor_t cba = nullptr;
    ASSERT_MIOPEN_OK(miopenCreateFusionPlan(&cba, miopenVerticalFusion, xd));
    miopenFusionOpDescriptor_t convOp = nullptr, biasOp = nullptr, actOp = nullptr;
    ASSERT_MIOPEN_OK(miopenCreateOpConvForward(cba, &convOp, conv, wd));
    ASSERT_MIOPEN_OK(miopenCreateOpBiasForward(cba, &biasOp, bd));
    ASSERT_MIOPEN_OK(miopenCreateOpActivationForward(cba, &actOp, miopenActivationRELU));
    ASSERT_MIOPEN_OK(miopenCompileFusionPlan(h, cba));
    miopenOperatorArgs_t args = nullptr;
    ASSERT_MIOPEN_OK(miopenCreateOperatorArgs(&args));
    ASSERT_MIOPEN_OK(miopenSetOpArgsConvForward(args, convOp, &kOne, &kZero, w.data()));
    ASSERT_MIOPEN_OK(miopenSetOpArgsBiasForward(args, biasOp, &kOne, &kZero, b.data()));
    ASSERT_MIOPEN_OK(miopenSetOpArgsActivForward(args, actOp, &kOne, &kZero, 0, 0, 0));

    test::Tensor bnX(miopenFloat, {2, 3, 4, 5}, {});
    test::Tensor bnP(miopenFloat, {1, 3, 1, 1}, {});
    std::vector<float> bx(120, 0.5f), by(120), s3(3, 1.0f), b3(3, 0.0f), m3(3, 0.0f), v3(3, 1.0f);
    miopenFusionPlanDescriptor_t bna = nullptr;
    ASSERT_MIOPEN_OK(miopenCreateFusionPlan(&bna, miopenVerticalFusion, bnX));
    miopenFusionOpDescriptor_t bnOp = nullptr, bnActOp = nullptr;
    ASSERT_MIOPEN_OK(miopenCreateOpBatchNormInference(bna, &bnOp, miopenBNSpatial, bnP));
    ASSERT_MIOPEN_OK(miopenCreateOpActivationForward(bna, &bnActOp, miopenActivationRELU));
    ASSERT_MIOPEN_OK(miopenCompileFusionPlan(h, bna));
    miopenOperatorArgs_t bnArgs = nullptr;
    ASSERT_MIOPEN_OK(miopenCreateOperatorArgs(&bnArgs));
    ASSERT_MIOPEN_OK(miopenSetOpArgsBatchNormInference(bnArgs, bnOp, &kOne, &kZero, s3.data(), b3.data(), m3.data(),
                                                       v3.data(), 1e-5));
    ASSERT_MIOPEN_OK(miopenSetOpArgsActivForward(bnArgs, bnActOp, &kOne, &kZero, 0, 0, 0));

    std::size_t wsBytes = 0;
    ASSERT_MIOPEN_OK(miopenConvolutionForwardGetWorkSpaceSize(h, wd, xd, conv, yd, &wsBytes));
    std::vector<char> ws(wsBytes + 1);
    const auto out = captured([&] {
        EXPECT_MIOPEN_OK(miopenExecuteFusionPlan(h, cba, xd, x.data(), yd, y.data(), args));
        EXPECT_MIOPEN_OK(miopenExecuteFusionPlan(h, bna, bnX, bx.data(), bnX, by.data(), bnArgs));
        EXPECT_MIOPEN_OK(miopenConvolutionBiasActivationForward(h, &kOne, xd, x.data(), wd, w.data(), conv,
                                                                miopenConvolutionFwdAlgoGEMM, nullptr, 0, nullptr,
                                                                nullptr, nullptr, bd, b.data(), relu, yd, y.data()));
        EXPECT_MIOPEN_OK(miopenConvolutionForward(h, &kOne, xd, x.data(), wd, w.data(), conv,
                                                  miopenConvolutionFwdAlgoGEMM, &kZero, yd, y.data(), ws.data(),
                                                  wsBytes));
    });
    const std::string geometry = "-n 1 -c 2 -H 6 -W 6 -k 4 -y 3 -x 3 -p 1 -q 1 -u 1 -v 1 -l 1 -j 1";
    EXPECT_EQ(commands(out), (std::vector<std::string>{
                                 cmd("LogCmdFusion", "CBAInfer -F 4 " + geometry + " -g 1"),
                                 cmd("LogCmdFusion", "CBAInfer -F 2 -n 2 -c 3 -H 4 -W 5 -m 1"),
                                 cmd("LogCmdFusion", "CBAInfer -F 4 " + geometry + " -g 1"),
                                 cmd("LogCmdConvolution", "conv " + geometry + " -m conv -g 1 -F 1 -t 1"),
                             }));
    miopenDestroyOperatorArgs(bnArgs);
    miopenDestroyFusionPlan(bna);
    miopenDestroyOperatorArgs(args);
    miopenDestroyFusionPlan(cba);
}

// A call that fails validation prints no command (nothing was run).
TEST(LoggingCmd, RejectedCallPrintsNoCommand)
{
    test::Handle h;
    Activ act(miopenActivationRELU, 0, 0, 0);
    test::Tensor xd(miopenFloat, {2, 3, 4, 5}, {});
    test::Tensor yd(miopenFloat, {2, 3, 4, 6}, {});
    std::vector<float> x(120), y(144);
    const auto out = captured([&] {
        EXPECT_NE(miopenStatusSuccess, miopenActivationForward(h, act, &kOne, xd, x.data(), &kZero, yd, nullptr));
    });
    EXPECT_TRUE(commands(out).empty()) << out;
}

// ---- MIOPEN_ENABLE_LOGGING: descriptor contents -------------------------------------------------

TEST(LoggingApi, DescriptorsPrintTheirContents)
{
    Pool pool;
    Activ act(miopenActivationCLIPPEDRELU, 6, 0, 0);
    Lrn lrn(miopenLRNWithinChannel, 3, 0.5, 0.25, 2);
    test::Conv conv;
    ASSERT_MIOPEN_OK(miopenInitConvolutionDescriptor(conv, miopenConvolution, 1, 2, 3, 4, 1, 1));
    test::Conv trans;
    ASSERT_MIOPEN_OK(miopenInitConvolutionDescriptor(trans, miopenTranspose, 0, 0, 2, 2, 1, 1));
    test::Tensor xd(miopenFloat, {1, 2, 3, 4}, {});
    const auto out = captured([&] {
        EXPECT_MIOPEN_OK(miopenSet2dPoolingDescriptor(pool, miopenPoolingAverage, 3, 2, 1, 0, 2, 1));
        EXPECT_MIOPEN_OK(miopenSetPoolingIndexType(pool, miopenIndexUint32));
        miopenActivationMode_t m{};
        double a = 0, b = 0, g = 0;
        EXPECT_MIOPEN_OK(miopenGetActivationDescriptor(act, &m, &a, &b, &g));
        unsigned n = 0;
        miopenLRNMode_t lm{};
        double la = 0, lb = 0, lk = 0;
        EXPECT_MIOPEN_OK(miopenGetLRNDescriptor(lrn, &lm, &n, &la, &lb, &lk));
        int groups = 0;
        EXPECT_MIOPEN_OK(miopenGetConvolutionGroupCount(conv, &groups));
        EXPECT_MIOPEN_OK(miopenGetConvolutionGroupCount(trans, &groups));
        // A tensor descriptor where a pooling one is expected, and a null one.
        EXPECT_EQ(miopenStatusBadParm,
                  miopenSetPoolingIndexType(reinterpret_cast<miopenPoolingDescriptor_t>(
                                                static_cast<miopenTensorDescriptor_t>(xd)),
                                            miopenIndexUint8));
        EXPECT_NE(miopenStatusSuccess, miopenDestroyActivationDescriptor(nullptr));
    });
    const auto args = linesStartingWith(out, "\t");
    const auto has  = [&](const std::string& line) {
        return std::find(args.begin(), args.end(), line) != args.end();
    };
    // Set2dPooling logs the descriptor before setting it (unset); SetPoolingIndexType after.
    EXPECT_TRUE(has("\tpoolDesc = {unset}")) << out;
    EXPECT_TRUE(has("\tpoolDesc = {miopenPoolingAverage, window 3x2, pads 1x0, strides 2x1, miopenIndexUint8, "
                    "miopenPoolingWorkspaceIndexMask}"))
        << out;
    EXPECT_TRUE(has("\tactivDesc = {miopenActivationCLIPPEDRELU, alpha 6, beta 0, gamma 0}")) << out;
    EXPECT_TRUE(has("\tlrnDesc = {miopenLRNWithinChannel, N 3, alpha 0.5, beta 0.25, K 2}")) << out;
    EXPECT_TRUE(has("\tconvDesc = {conv2d, miopenConvolution, pads 1x2, strides 3x4, dilations 1x1, groups 1}"))
        << out;
    EXPECT_TRUE(has("\tconvDesc = {conv2d, miopenTranspose, pads 0x0, strides 2x2, dilations 1x1, groups 1, "
                    "output pads 0x0}"))
        << out;
    bool notAPooling = false;
    for(const auto& l : args)
        notAPooling = notAPooling ||
                      (l.rfind("\tpoolDesc = 0x", 0) == 0 && l.find(" (not a pooling descriptor)") != std::string::npos);
    EXPECT_TRUE(notAPooling) << out;
    EXPECT_TRUE(has("\tactivDesc = nullptr")) << out;
}

TEST(LoggingApi, FusionPlanAndOperatorsPrintTheirContents)
{
    test::Handle h;
    test::Tensor xd(miopenFloat, {1, 2, 6, 6}, {});
    test::Tensor wd(miopenFloat, {4, 2, 3, 3}, {});
    test::Conv conv;
    ASSERT_MIOPEN_OK(miopenInitConvolutionDescriptor(conv, miopenConvolution, 1, 1, 1, 1, 1, 1));
    miopenFusionPlanDescriptor_t plan = nullptr;
    ASSERT_MIOPEN_OK(miopenCreateFusionPlan(&plan, miopenVerticalFusion, xd));
    miopenFusionOpDescriptor_t convOp = nullptr, actOp = nullptr;
    ASSERT_MIOPEN_OK(miopenCreateOpConvForward(plan, &convOp, conv, wd));
    ASSERT_MIOPEN_OK(miopenCreateOpActivationForward(plan, &actOp, miopenActivationRELU));
    const auto out = captured([&] {
        EXPECT_MIOPEN_OK(miopenCompileFusionPlan(h, plan));
        miopenFusionOpDescriptor_t op = nullptr;
        EXPECT_MIOPEN_OK(miopenFusionPlanGetOp(plan, 0, &op));
        miopenOperatorArgs_t args = nullptr;
        EXPECT_MIOPEN_OK(miopenCreateOperatorArgs(&args));
        EXPECT_MIOPEN_OK(miopenSetOpArgsActivForward(args, actOp, &kOne, &kZero, 0, 0, 0));
        EXPECT_MIOPEN_OK(miopenDestroyOperatorArgs(args));
    });
    const auto args = linesStartingWith(out, "\t");
    const auto has  = [&](const std::string& line) {
        return std::find(args.begin(), args.end(), line) != args.end();
    };
    EXPECT_TRUE(has("\tfusePlanDesc = {miopenVerticalFusion, input {FP32, 1x2x6x6, 72x36x6x1}, 2 operators: "
                    "convolution forward, activation forward}"))
        << out;
    EXPECT_TRUE(has("\tactivFwdOp = {activation forward, miopenActivationRELU}")) << out;
    miopenDestroyFusionPlan(plan);
}

} // namespace
