// Batch normalization through the public C API against the hipDNN test SDK's CPU reference:
// spatial and per-activation, 4-D and 5-D, NCHW and channels-last, fp32 and mixed precision
// (fp16/bf16 data with float parameters), training (saved and running statistics), inference,
// backward with and without saved statistics, V1 and V2 entry points. Each call asserts its route
// (common/forwarding_route.hpp; api.cmake runs the suite with hipDNN forwarding disabled and
// enabled): spatial mode is forwarded, per-activation mode and the calls that hipDNN's batchnorm
// nodes cannot express are declined with their reason (docs/wrapper.md, "Batchnorm").
#include "api/act_bn_test_util.hpp"
#include "common/api_helpers.hpp"
#include "common/forwarding_route.hpp"

#include <hipdnn_test_sdk/utilities/CpuFpReferenceBatchnorm.hpp>

#include <cmath>
#include <random>
#include <string>
#include <tuple>
#include <vector>

namespace {

using hipdnn_test_sdk::utilities::CpuFpReferenceBatchnorm;
using hipdnn_test_sdk::utilities::TensorView;
using test::Layout;

using test::route::Expected;
using test::route::Probe;

using Param = std::tuple<miopenDataType_t, miopenBatchNormMode_t, int /*rank*/, bool /*channels last*/>;

class BatchNormTest : public ::testing::TestWithParam<Param>
{
protected:
    void SetUp() override
    {
        std::tie(type, mode, rank, channelsLast) = GetParam();
        std::mt19937 rng(77u + static_cast<unsigned>(type) * 13u + static_cast<unsigned>(mode) * 5u + static_cast<unsigned>(rank));
        std::uniform_int_distribution<int> d(1, 5);
        lens = {d(rng) + 1, d(rng), d(rng) + 1, d(rng)};
        if(rank == 5)
            lens.insert(lens.begin() + 2, d(rng) % 3 + 1);
        layout = channelsLast ? test::channelsLast(lens) : test::makeLayout(lens, 0);
        s = 1;
        for(std::size_t i = 2; i < lens.size(); ++i)
            s *= lens[i];
        n = lens[0];
        c = lens[1];
        f = mode == miopenBNSpatial ? c : c * s;
        es = test::typeSize(type);
        x.resize(layout.span() * es);
        test::fillRandom(type, x.data(), layout.span(), rng);
        dy.resize(layout.span() * es);
        test::fillRandom(type, dy.data(), layout.span(), rng);
        std::uniform_real_distribution<float> u(0.5f, 1.5f), v(-0.5f, 0.5f);
        scale.resize(static_cast<std::size_t>(f));
        bias.resize(scale.size());
        runMean.resize(scale.size());
        runVar.resize(scale.size());
        for(std::size_t i = 0; i < scale.size(); ++i)
        {
            scale[i]   = u(rng);
            bias[i]    = v(rng);
            runMean[i] = v(rng);
            runVar[i]  = u(rng);
        }
    }

    // Reference views over double buffers: data (N, F, S/F-split), params (1, F, 1).
    std::vector<std::int64_t> dataDims() const
    {
        return mode == miopenBNSpatial ? std::vector<std::int64_t>{n, c, s} : std::vector<std::int64_t>{n, c * s, 1};
    }
    static std::vector<std::int64_t> packed(const std::vector<std::int64_t>& d)
    {
        return {d[1] * d[2], d[2], 1};
    }
    TensorView<const double> dataView(const std::vector<double>& v) const
    {
        return TensorView<const double>(v.data(), dataDims(), packed(dataDims()));
    }
    TensorView<double> dataView(std::vector<double>& v) const
    {
        return TensorView<double>(v.data(), dataDims(), packed(dataDims()));
    }
    TensorView<const double> paramView(const std::vector<double>& v) const
    {
        return TensorView<const double>(v.data(), {1, f, 1}, {f, 1, 1});
    }
    TensorView<double> paramView(std::vector<double>& v) const
    {
        return TensorView<double>(v.data(), {1, f, 1}, {f, 1, 1});
    }
    static std::vector<double> dbl(const std::vector<float>& v) { return std::vector<double>(v.begin(), v.end()); }

    // The route of a call hipDNN can express in spatial mode; per-activation calls are declined.
    Expected route() const { return mode == miopenBNSpatial ? Expected::forwarded() : Expected::declined("per-activation-mode"); }
    Expected routeOr(const char* spatialDecline) const
    {
        return mode == miopenBNSpatial ? Expected::declined(spatialDecline) : Expected::declined("per-activation-mode");
    }

    double tol() const { return type == miopenFloat ? 1e-4 : (type == miopenHalf ? 3e-3 : 2e-2); }
    void expectClose(const std::vector<double>& got, const std::vector<double>& ref, double t, const char* what) const
    {
        ASSERT_EQ(got.size(), ref.size());
        double worst = 0.0;
        for(std::size_t i = 0; i < got.size(); ++i)
            worst = std::max(worst, std::fabs(got[i] - ref[i]) / std::max(1.0, std::fabs(ref[i])));
        EXPECT_LE(worst, t) << what;
    }

    miopenDataType_t type{};
    miopenBatchNormMode_t mode{};
    int rank = 4;
    bool channelsLast = false;
    std::vector<int> lens;
    Layout layout;
    std::int64_t n = 0, c = 0, s = 0, f = 0;
    std::size_t es = 4;
    std::vector<unsigned char> x, dy;
    std::vector<float> scale, bias, runMean, runVar;
    test::Handle h;
};

TEST_P(BatchNormTest, TrainingInferenceBackwardMatchReference)
{
    test::Tensor xd(type, layout.lens, layout.strides);
    test::Tensor bnd;
    ASSERT_MIOPEN_OK(miopenDeriveBNTensorDescriptor(bnd, xd, mode));
    {
        miopenDataType_t dt;
        int dims[8], strides[8], nd = 0;
        ASSERT_MIOPEN_OK(miopenGetTensorDescriptorSize(bnd, &nd));
        ASSERT_EQ(nd, rank);
        ASSERT_MIOPEN_OK(miopenGetTensorDescriptor(bnd, &dt, dims, strides));
        EXPECT_EQ(dt, miopenFloat);
        EXPECT_EQ(dims[0], 1);
        EXPECT_EQ(dims[1], c);
        for(int i = 2; i < rank; ++i)
            EXPECT_EQ(dims[i], mode == miopenBNSpatial ? 1 : lens[static_cast<std::size_t>(i)]);
    }
    const std::vector<double> xv = test::toDoubles(type, x.data(), layout), dyv = test::toDoubles(type, dy.data(), layout);
    const double eps = 1e-5, expAvg = 0.3;
    const float one = 1.0f, zero = 0.0f;

    // ---- training ----
    std::vector<unsigned char> y(x.size());
    std::vector<float> rm = runMean, rv = runVar, sm(scale.size()), siv(scale.size());
    Probe train;
    ASSERT_MIOPEN_OK(miopenBatchNormalizationForwardTraining(h, mode, const_cast<float*>(&one), const_cast<float*>(&zero), xd,
                                                             x.data(), xd, y.data(), bnd, scale.data(), bias.data(), expAvg,
                                                             rm.data(), rv.data(), eps, sm.data(), siv.data()));
    EXPECT_TRUE(train.check("miopenBatchNormalizationForwardTraining", route()));
    std::vector<double> yRef(xv.size()), smRef(scale.size()), sivRef(scale.size()), rmRef(scale.size()), rvRef(scale.size());
    const auto sc = dbl(scale), bi = dbl(bias), rm0 = dbl(runMean), rv0 = dbl(runVar);
    CpuFpReferenceBatchnorm::training<double, double, double>(dataView(xv), paramView(sc), paramView(bi), eps, dataView(yRef),
                                                             paramView(smRef), paramView(sivRef), paramView(rm0),
                                                             paramView(rv0), expAvg, paramView(rmRef), paramView(rvRef));
    expectClose(test::toDoubles(type, y.data(), layout), yRef, tol(), "training y");
    expectClose(dbl(sm), smRef, 1e-5, "saved mean");
    expectClose(dbl(siv), sivRef, 1e-4, "saved inverse std");
    expectClose(dbl(rm), rmRef, 1e-5, "running mean");
    expectClose(dbl(rv), rvRef, 1e-4, "running variance");

    // ---- inference with the running estimates ----
    std::vector<unsigned char> yi(x.size());
    Probe infer;
    ASSERT_MIOPEN_OK(miopenBatchNormalizationForwardInference(h, mode, const_cast<float*>(&one), const_cast<float*>(&zero), xd,
                                                              x.data(), xd, yi.data(), bnd, scale.data(), bias.data(),
                                                              runMean.data(), runVar.data(), eps));
    EXPECT_TRUE(infer.check("miopenBatchNormalizationForwardInference", route()));
    std::vector<double> invRef(scale.size()), yiRef(xv.size());
    for(std::size_t i = 0; i < invRef.size(); ++i)
        invRef[i] = 1.0 / std::sqrt(static_cast<double>(runVar[i]) + eps);
    CpuFpReferenceBatchnorm::inference<double, double, double>(dataView(xv), paramView(rm0), paramView(invRef), paramView(sc),
                                                              paramView(bi), dataView(yiRef));
    expectClose(test::toDoubles(type, yi.data(), layout), yiRef, tol(), "inference y");

    // ---- backward with saved statistics, then recomputing them ----
    std::vector<double> dxRef(xv.size()), dsRef(scale.size()), dbRef(scale.size());
    CpuFpReferenceBatchnorm::backward<double, double, double>(dataView(dyv), dataView(xv), paramView(smRef), paramView(sivRef),
                                                             paramView(sc), dataView(dxRef), paramView(dsRef), paramView(dbRef));
    for(int saved = 1; saved >= 0; --saved)
    {
        std::vector<unsigned char> dx(x.size());
        std::vector<float> ds(scale.size()), db(scale.size());
        const Probe back;
        ASSERT_MIOPEN_OK(miopenBatchNormalizationBackward(h, mode, &one, &zero, &one, &zero, xd, x.data(), xd, dy.data(), xd,
                                                          dx.data(), bnd, scale.data(), ds.data(), db.data(), eps,
                                                          saved ? sm.data() : nullptr, saved ? siv.data() : nullptr));
        // Without saved statistics Private recomputes them: batchnorm_backward takes them as inputs.
        EXPECT_TRUE(back.check("miopenBatchNormalizationBackward", saved ? route() : routeOr("no-saved-statistics")));
        expectClose(test::toDoubles(type, dx.data(), layout), dxRef, 4 * tol(), saved ? "dx (saved)" : "dx (recomputed)");
        expectClose(dbl(ds), dsRef, 1e-4 * static_cast<double>(n * s), "dscale");
        expectClose(dbl(db), dbRef, 1e-5 * static_cast<double>(n * s), "dbias");
    }
}

TEST_P(BatchNormTest, V2EntryPointsWithSeparateDescriptorsMatchV1)
{
    test::Tensor xd(type, layout.lens, layout.strides);
    test::Tensor bnd;
    ASSERT_MIOPEN_OK(miopenDeriveBNTensorDescriptor(bnd, xd, mode));
    const float one = 1.0f, zero = 0.0f;
    const double eps = 1e-3;
    std::vector<unsigned char> y1(x.size()), y2(x.size());
    std::vector<float> rm1 = runMean, rv1 = runVar, rm2 = runMean, rv2 = runVar, sm1(scale.size()), sm2(scale.size()),
                       si1(scale.size()), si2(scale.size());
    {
        const Probe probe;
        ASSERT_MIOPEN_OK(miopenBatchNormalizationForwardTraining(h, mode, const_cast<float*>(&one), const_cast<float*>(&zero), xd, x.data(), xd,
                                                                 y1.data(), bnd, scale.data(), bias.data(), 0.1, rm1.data(), rv1.data(), eps,
                                                                 sm1.data(), si1.data()));
        EXPECT_TRUE(probe.check("miopenBatchNormalizationForwardTraining", route()));
    }
    {
        const Probe probe;
        ASSERT_MIOPEN_OK(miopenBatchNormalizationForwardTraining_V2(h, mode, const_cast<float*>(&one), const_cast<float*>(&zero), xd, x.data(), xd,
                                                                    y2.data(), bnd, bnd, bnd, bnd, scale.data(), bias.data(), 0.1, rm2.data(),
                                                                    rv2.data(), eps, sm2.data(), si2.data()));
        EXPECT_TRUE(probe.check("miopenBatchNormalizationForwardTraining_V2", route()));
    }
    EXPECT_EQ(y1, y2);
    EXPECT_EQ(rm1, rm2);
    EXPECT_EQ(rv1, rv2);
    EXPECT_EQ(sm1, sm2);
    EXPECT_EQ(si1, si2);
    {
        const Probe probe;
        ASSERT_MIOPEN_OK(miopenBatchNormalizationForwardInference_V2(h, mode, const_cast<float*>(&one), const_cast<float*>(&zero), xd, x.data(), xd,
                                                                     y2.data(), bnd, bnd, bnd, bnd, scale.data(), bias.data(), runMean.data(),
                                                                     runVar.data(), eps));
        EXPECT_TRUE(probe.check("miopenBatchNormalizationForwardInference_V2", route()));
    }
    {
        const Probe probe;
        ASSERT_MIOPEN_OK(miopenBatchNormalizationForwardInference(h, mode, const_cast<float*>(&one), const_cast<float*>(&zero), xd, x.data(), xd,
                                                                  y1.data(), bnd, scale.data(), bias.data(), runMean.data(), runVar.data(), eps));
        EXPECT_TRUE(probe.check("miopenBatchNormalizationForwardInference", route()));
    }
    EXPECT_EQ(y1, y2);
    std::vector<unsigned char> dx1(x.size()), dx2(x.size());
    std::vector<float> ds1(scale.size()), ds2(scale.size()), db1(scale.size()), db2(scale.size());
    {
        const Probe probe;
        ASSERT_MIOPEN_OK(miopenBatchNormalizationBackward(h, mode, &one, &zero, &one, &zero, xd, x.data(), xd, dy.data(), xd, dx1.data(), bnd,
                                                          scale.data(), ds1.data(), db1.data(), eps, sm1.data(), si1.data()));
        EXPECT_TRUE(probe.check("miopenBatchNormalizationBackward", route()));
    }
    {
        const Probe probe;
        ASSERT_MIOPEN_OK(miopenBatchNormalizationBackward_V2(h, mode, &one, &zero, &one, &zero, xd, x.data(), xd, dy.data(), xd, dx2.data(), bnd,
                                                             bnd, bnd, bnd, scale.data(), ds2.data(), db2.data(), eps, sm1.data(), si1.data()));
        EXPECT_TRUE(probe.check("miopenBatchNormalizationBackward_V2", route()));
    }
    EXPECT_EQ(dx1, dx2);
    EXPECT_EQ(ds1, ds2);
    EXPECT_EQ(db1, db2);
    // Inference without estimates normalizes with the batch statistics (training's y).
    {
        const Probe probe;
        ASSERT_MIOPEN_OK(miopenBatchNormalizationForwardInference(h, mode, const_cast<float*>(&one), const_cast<float*>(&zero), xd, x.data(), xd,
                                                                  y2.data(), bnd, scale.data(), bias.data(), nullptr, nullptr, eps));
        EXPECT_TRUE(probe.check("miopenBatchNormalizationForwardInference", routeOr("no-estimated-statistics")));
    }
    std::vector<unsigned char> yT(x.size());
    {
        const Probe probe;
        ASSERT_MIOPEN_OK(miopenBatchNormalizationForwardTraining(h, mode, const_cast<float*>(&one), const_cast<float*>(&zero), xd, x.data(), xd,
                                                                 yT.data(), bnd, scale.data(), bias.data(), 0.1, nullptr, nullptr, eps,
                                                                 nullptr, nullptr));
        EXPECT_TRUE(probe.check("miopenBatchNormalizationForwardTraining", route()));
    }
    // Inference without estimates ran on Private; training may have run on a hipDNN engine.
    if(test::route::forwardingEnabled() && mode == miopenBNSpatial)
        expectClose(test::toDoubles(type, y2.data(), layout), test::toDoubles(type, yT.data(), layout), tol(),
                    "batch-statistics inference vs training");
    else
        EXPECT_EQ(y2, yT);
}

std::string paramName(const ::testing::TestParamInfo<Param>& p)
{
    const auto t = std::get<0>(p.param);
    return std::string(t == miopenFloat ? "FP32" : t == miopenHalf ? "FP16" : "BF16") +
           (std::get<1>(p.param) == miopenBNSpatial ? "_Spatial" : "_PerAct") + "_" + std::to_string(std::get<2>(p.param)) +
           "D" + (std::get<3>(p.param) ? "_ChannelsLast" : "_ChannelsFirst");
}

INSTANTIATE_TEST_SUITE_P(All, BatchNormTest,
                         ::testing::Combine(::testing::Values(miopenFloat, miopenHalf, miopenBFloat16),
                                            ::testing::Values(miopenBNSpatial, miopenBNPerActivation),
                                            ::testing::Values(4, 5), ::testing::Bool()),
                         paramName);

} // namespace
