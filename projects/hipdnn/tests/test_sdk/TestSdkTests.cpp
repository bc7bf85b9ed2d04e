#include <hipdnn_test_sdk/utilities/CpuFpReferenceBatchnorm.hpp>
#include <hipdnn_test_sdk/utilities/CpuFpReferenceConvolution.hpp>
#include <hipdnn_test_sdk/utilities/CpuFpReferenceValidation.hpp>
#include <hipdnn_test_sdk/utilities/Seeds.hpp>
#include <hipdnn_test_sdk/utilities/TestTolerances.hpp>
#include <hipdnn_test_sdk/utilities/pointwise/CpuReferencePointwise.hpp>

#include <gtest/gtest.h>

using namespace hipdnn_test_sdk::utilities;
using hipdnn_data_sdk::types::bfloat16;
using hipdnn_data_sdk::types::half;

namespace
{
double dot(const Tensor<double>& a, const Tensor<double>& b)
{
    double s = 0.0;
    forEachIndex(a.dims(), [&](const std::vector<int64_t>& i) { s += a.at(i) * b.at(i); });
    return s;
}

struct ConvCase
{
    const char* name;
    std::vector<int64_t> x, w;
    ConvolutionParams p;
};

// Readable parameter names in test output.
[[maybe_unused]] void PrintTo(const ConvCase& c, std::ostream* os)
{
    *os << c.name;
}

std::vector<ConvCase> convCases()
{
    return {{"Conv2dPlain", {2, 3, 6, 6}, {4, 3, 3, 3}, {{0, 0}, {0, 0}, {1, 1}, {1, 1}}},
            {"Conv2dGroupedStridedPadded", {1, 4, 7, 8}, {6, 2, 3, 2}, {{1, 0}, {2, 1}, {2, 3}, {1, 1}}},
            {"Conv2dDilated", {1, 2, 9, 9}, {2, 2, 3, 3}, {{2, 2}, {2, 2}, {1, 1}, {2, 3}}},
            {"Conv1dDepthwise", {2, 4, 11}, {4, 1, 3}, {{1}, {1}, {2}, {1}}},
            {"Conv3dGrouped", {1, 4, 4, 5, 4}, {2, 2, 2, 3, 2}, {{0, 1, 0}, {1, 1, 1}, {1, 2, 1}, {2, 1, 1}}}};
}
} // namespace

class TestSdkConvolution : public ::testing::TestWithParam<ConvCase>
{
};

// fprop against a direct sum written independently for 2-D, and the adjoint identities
// <dgrad(dy), x> = <dy, fprop(x)> and <wgrad(x, dy), w> = <dy, fprop(x, w)>.
TEST_P(TestSdkConvolution, DgradAndWgradAreAdjointsOfFprop)
{
    const auto& c = GetParam();
    const auto yDims = hipdnn_data_sdk::utilities::convForwardOutputDims(c.x, c.w, c.p.prePadding, c.p.postPadding,
                                                                         c.p.stride, c.p.dilation);
    Tensor<double> x(c.x), w(c.w), y(yDims), dy(yDims), dx(c.x), dw(c.w);
    x.fillUniform(-1, 1, deriveSeed(1));
    w.fillUniform(-1, 1, deriveSeed(2));
    dy.fillUniform(-1, 1, deriveSeed(3));
    CpuFpReferenceConvolution::fprop<double, double, double, double>(x.view(), w.view(), y.view(), c.p);
    CpuFpReferenceConvolution::dgrad<double, double, double, double>(dy.view(), w.view(), dx.view(), c.p);
    CpuFpReferenceConvolution::wgrad<double, double, double, double>(x.view(), dy.view(), dw.view(), c.p);
    const double lhs = dot(dy, y);
    EXPECT_NEAR(dot(dx, x), lhs, 1e-9 * (1 + std::fabs(lhs)));
    EXPECT_NEAR(dot(dw, w), lhs, 1e-9 * (1 + std::fabs(lhs)));
}

INSTANTIATE_TEST_SUITE_P(Shapes, TestSdkConvolution, ::testing::ValuesIn(convCases()),
                         [](const auto& paramInfo) { return std::string(paramInfo.param.name); });

TEST(TestSdkConvolutionFprop, MatchesAHandComputedValue)
{
    // 1x1x3x3 input 1..9, 1x1x2x2 filter of ones, no padding: y = sums of 2x2 windows.
    Tensor<float> x({1, 1, 3, 3}), w({1, 1, 2, 2}), y({1, 1, 2, 2});
    for(int i = 0; i < 9; ++i)
    {
        x.data()[i] = static_cast<float>(i + 1);
    }
    w.fill(1.0f);
    CpuFpReferenceConvolution::fprop<float, float, float>(x.view(), w.view(), y.view(), {{0, 0}, {0, 0}, {1, 1}, {1, 1}});
    EXPECT_EQ(std::vector<float>(y.data(), y.data() + 4), (std::vector<float>{12, 16, 24, 28}));
}

TEST(TestSdkConvolutionFprop, RejectsInconsistentShapes)
{
    Tensor<float> x({1, 1, 3, 3}), w({1, 1, 2, 2}), y({1, 1, 3, 3});
    auto run = [&] {
        CpuFpReferenceConvolution::fprop<float, float, float>(x.view(), w.view(), y.view(), {{0, 0}, {0, 0}, {1, 1}, {1, 1}});
    };
    EXPECT_THROW(run(), std::invalid_argument);
}

TEST(TestSdkBatchnorm, TrainingNormalizesEachChannel)
{
    Tensor<float> x({3, 2, 4, 4}), scale({1, 2, 1, 1}), bias({1, 2, 1, 1}), y({3, 2, 4, 4}), mean({1, 2, 1, 1}),
        iv({1, 2, 1, 1});
    x.fillUniform(-3, 5, deriveSeed(7));
    scale.fill(1.0f);
    bias.fill(0.0f);
    CpuFpReferenceBatchnorm::training<float, float, float>(x.view(), scale.view(), bias.view(), 0.0, y.view(),
                                                           mean.view(), iv.view(), {}, {}, 0.0, {}, {});
    const auto stats = CpuFpReferenceBatchnorm::statistics<float>(y.view(), 0.0);
    for(int c = 0; c < 2; ++c)
    {
        EXPECT_NEAR(stats.mean[c], 0.0, 1e-5);
        EXPECT_NEAR(stats.variance[c], 1.0, 1e-4);
    }
}

TEST(TestSdkBatchnorm, BackwardMatchesFiniteDifferences)
{
    const std::vector<int64_t> xd = {2, 2, 3, 3}, cd = {1, 2, 1, 1};
    Tensor<double> x(xd), scale(cd), bias(cd), dy(xd);
    x.fillUniform(-1, 1, deriveSeed(8));
    scale.fillUniform(0.5, 1.5, deriveSeed(9));
    bias.fill(0.1f);
    dy.fillUniform(-1, 1, deriveSeed(10));
    auto loss = [&](const Tensor<double>& xin) {
        Tensor<double> y(xd), m(cd), v(cd);
        CpuFpReferenceBatchnorm::training<double, double, double>(xin.view(), scale.view(), bias.view(), 1e-5, y.view(),
                                                                  m.view(), v.view(), {}, {}, 0, {}, {});
        return dot(y, dy);
    };
    Tensor<double> m(cd), v(cd), y(xd);
    CpuFpReferenceBatchnorm::training<double, double, double>(x.view(), scale.view(), bias.view(), 1e-5, y.view(),
                                                              m.view(), v.view(), {}, {}, 0, {}, {});
    Tensor<double> dx(xd), ds(cd), db(cd);
    CpuFpReferenceBatchnorm::backward<double, double, double>(dy.view(), x.view(), m.view(), v.view(), scale.view(),
                                                              dx.view(), ds.view(), db.view());
    const double h = 1e-6;
    for(int64_t k = 0; k < x.elementCount(); k += 5)
    {
        Tensor<double> xp = x, xm = x;
        xp.data()[k] += h;
        xm.data()[k] -= h;
        EXPECT_NEAR(dx.data()[k], (loss(xp) - loss(xm)) / (2 * h), 1e-5) << "element " << k;
    }
}

TEST(TestSdkPointwise, ModesComputeTheirDefinitions)
{
    using M = PointwiseMode;
    PointwiseParams p;
    EXPECT_EQ(CpuReferencePointwise::apply(M::ADD, 2, 3, 0, p), 5);
    EXPECT_EQ(CpuReferencePointwise::apply(M::RELU_FWD, -2, 0, 0, p), 0);
    p.reluLowerClipSlope = 0.1;
    EXPECT_DOUBLE_EQ(CpuReferencePointwise::apply(M::RELU_FWD, -2, 0, 0, p), -0.2);
    p.reluUpperClip = 6;
    EXPECT_EQ(CpuReferencePointwise::apply(M::RELU_FWD, 9, 0, 0, p), 6);
    EXPECT_EQ(CpuReferencePointwise::apply(M::BINARY_SELECT, 1, 2, 0, p), 2);
    EXPECT_EQ(CpuReferencePointwise::apply(M::CMP_GE, 2, 2, 0, p), 1);
    EXPECT_NEAR(CpuReferencePointwise::apply(M::SIGMOID_FWD, 0, 0, 0, p), 0.5, 1e-12);
    EXPECT_NEAR(CpuReferencePointwise::apply(M::GELU_FWD, 1, 0, 0, p), 0.8413447460685429, 1e-12);
    // Backward modes agree with numerical derivatives of their forward modes.
    const std::pair<M, M> pairs[] = {{M::TANH_FWD, M::TANH_BWD}, {M::SIGMOID_FWD, M::SIGMOID_BWD},
                                     {M::GELU_FWD, M::GELU_BWD}, {M::GELU_APPROX_TANH_FWD, M::GELU_APPROX_TANH_BWD},
                                     {M::SWISH_FWD, M::SWISH_BWD}, {M::SOFTPLUS_FWD, M::SOFTPLUS_BWD},
                                     {M::ELU_FWD, M::ELU_BWD}};
    PointwiseParams q;
    for(auto [fwd, bwd] : pairs)
    {
        for(double x : {-1.3, -0.2, 0.4, 1.7})
        {
            const double h = 1e-6;
            const double numeric = (CpuReferencePointwise::apply(fwd, x + h, 0, 0, q)
                                    - CpuReferencePointwise::apply(fwd, x - h, 0, 0, q)) / (2 * h);
            EXPECT_NEAR(CpuReferencePointwise::apply(bwd, 1.0, x, 0, q), numeric, 1e-6)
                << hipdnn_data_sdk::data_objects::EnumNamePointwiseMode(bwd) << " at " << x;
        }
    }
}

TEST(TestSdkPointwise, BroadcastsSizeOneDims)
{
    Tensor<float> a({2, 3}), b({1, 3}), out({2, 3});
    a.fill(1.0f);
    for(int i = 0; i < 3; ++i)
    {
        b.data()[i] = static_cast<float>(i);
    }
    TensorView<const float> bv = b.view();
    CpuReferencePointwise::compute<float, float>(PointwiseMode::ADD, out.view(), a.view(), &bv, nullptr, {});
    EXPECT_EQ(out.at({1, 2}), 3.0f);
    auto missingInput = [&] {
        CpuReferencePointwise::compute<float, float>(PointwiseMode::ADD, out.view(), a.view(), nullptr, nullptr, {});
    };
    EXPECT_THROW(missingInput(), std::invalid_argument);
}

TEST(TestSdkValidation, AllCloseDetectsMismatchesAndNaNs)
{
    Tensor<float> a({4}), b({4});
    a.fill(1.0f);
    b.fill(1.0f);
    CpuFpReferenceValidation<float> v(1e-5, 1e-5);
    EXPECT_TRUE(v.allClose(a, b));
    b.data()[2] = 1.001f;
    std::string why;
    EXPECT_FALSE(v.allClose(a, b, &why));
    EXPECT_NE(why.find("[2]"), std::string::npos) << why;
    b.data()[2] = std::nanf("");
    EXPECT_FALSE(v.allClose(a, b));
    a.data()[2] = std::nanf("");
    EXPECT_TRUE(v.allClose(a, b));
}

TEST(TestSdkTolerances, TablesAndDynamicBoundsScaleWithReductionLength)
{
    EXPECT_EQ(conv::getToleranceFwd<float>(), 1e-5);
    EXPECT_EQ(conv::getToleranceFwd<half>(), 1e-1);
    EXPECT_EQ(conv::getRelativeToleranceFwd<bfloat16>(), 2e-2);
    EXPECT_EQ(conv::getToleranceBwd<float>(), 8.5e-6);
    EXPECT_EQ(conv::getToleranceWrw<half>(), 2e-1);
    EXPECT_EQ(batchnorm::getToleranceTraining<bfloat16>(), 8e-3);
    const double small = calculateConvFpropTolerance<float, float>(1, 1, 9);
    const double large = calculateConvFpropTolerance<float, float>(1, 1, 900);
    EXPECT_GT(large, 50 * small);
    EXPECT_GT((calculateConvFpropTolerance<half, half>(1, 1, 9)), small);
}

TEST(TestSdkSeeds, DerivedSeedsDiffer)
{
    EXPECT_NE(deriveSeed(1), deriveSeed(2));
    EXPECT_EQ(deriveSeed(1), deriveSeed(1));
}
