// The test SDK's resample (pooling) and reduction references: hand-computed values, the padding
// modes, adjoint identities of the backward passes, 16-bit types, and the graph executor.
#include <hipdnn_test_sdk/utilities/CpuFpReferenceReduction.hpp>
#include <hipdnn_test_sdk/utilities/CpuFpReferenceResample.hpp>
#include <hipdnn_test_sdk/utilities/Seeds.hpp>
#include <hipdnn_test_sdk/utilities/TestTolerances.hpp>

#include <gtest/gtest.h>

#include <cmath>

using namespace hipdnn_test_sdk::utilities;
using hipdnn_data_sdk::types::bfloat16;
using hipdnn_data_sdk::types::half;
namespace dobj = hipdnn_data_sdk::data_objects;

namespace
{
Tensor<float> from(const std::vector<int64_t>& dims, const std::vector<float>& values)
{
    Tensor<float> t(dims);
    for(size_t i = 0; i < values.size(); ++i)
    {
        t.data()[i] = values[i];
    }
    return t;
}

template <typename A, typename B>
double dot(const Tensor<A>& a, const Tensor<B>& b)
{
    double s = 0.0;
    forEachIndex(a.dims(), [&](const std::vector<int64_t>& i) { s += toDouble(a.at(i)) * toDouble(b.at(i)); });
    return s;
}
} // namespace

TEST(ResampleReference, MaxPoolingValuesAndIndices)
{
    // 1x1x4x4, window 2, stride 2: four windows; the first maximum in row-major order wins.
    auto x = from({1, 1, 4, 4}, {1, 5, 2, 0,  //
                                 3, 5, 7, 1,  //
                                 -1, -2, 4, 4, //
                                 -3, -4, 4, 9});
    Tensor<float> y({1, 1, 2, 2});
    Tensor<int32_t> index({1, 1, 2, 2});
    TensorView<int32_t> iv = index.view();
    CpuFpReferenceResample::forward<float, float>(x.view(), y.view(), {{0, 0}, {2, 2}, {2, 2}}, &iv);
    EXPECT_EQ(std::vector<float>(y.data(), y.data() + 4), (std::vector<float>{5, 7, -1, 9}));
    EXPECT_EQ(std::vector<int32_t>(index.data(), index.data() + 4), (std::vector<int32_t>{1, 6, 8, 15}));
}

TEST(ResampleReference, PaddingModesDecideWhetherPaddedZerosWin)
{
    // All inputs negative, window 2, stride 1, padding 1: the corner windows hold padding.
    auto x = from({1, 1, 2, 2}, {-1, -2, -3, -4});
    Tensor<float> y({1, 1, 3, 3});
    Tensor<int32_t> index({1, 1, 3, 3});
    TensorView<int32_t> iv = index.view();
    ResampleParams p{{1, 1}, {1, 1}, {2, 2}, dobj::ResampleMode::MAXPOOL, dobj::PaddingMode::NEG_INF_PAD};
    CpuFpReferenceResample::forward<float, float>(x.view(), y.view(), p, &iv);
    EXPECT_EQ(y.at({0, 0, 0, 0}), -1.f);
    EXPECT_EQ(y.at({0, 0, 1, 1}), -1.f);
    EXPECT_EQ(y.at({0, 0, 2, 2}), -4.f);
    EXPECT_EQ(index.at({0, 0, 2, 2}), 3);
    p.padding = dobj::PaddingMode::ZERO_PAD;
    CpuFpReferenceResample::forward<float, float>(x.view(), y.view(), p, &iv);
    EXPECT_EQ(y.at({0, 0, 0, 0}), 0.f);
    EXPECT_EQ(index.at({0, 0, 0, 0}), -1);
    EXPECT_EQ(y.at({0, 0, 1, 1}), -1.f); // the centre window holds no padding
    EXPECT_EQ(index.at({0, 0, 1, 1}), 0);
}

TEST(ResampleReference, AveragesIncludeOrExcludePadding)
{
    auto x = from({1, 1, 3, 3}, {1, 2, 3, 4, 5, 6, 7, 8, 9});
    Tensor<float> y({1, 1, 3, 3});
    ResampleParams p{{1, 1}, {1, 1}, {3, 3}, dobj::ResampleMode::AVGPOOL_INCLUDE_PADDING,
                     dobj::PaddingMode::ZERO_PAD};
    CpuFpReferenceResample::forward<float, float>(x.view(), y.view(), p);
    EXPECT_FLOAT_EQ(y.at({0, 0, 0, 0}), (1 + 2 + 4 + 5) / 9.f);
    EXPECT_FLOAT_EQ(y.at({0, 0, 1, 1}), 45 / 9.f);
    p.mode = dobj::ResampleMode::AVGPOOL_EXCLUDE_PADDING;
    CpuFpReferenceResample::forward<float, float>(x.view(), y.view(), p);
    EXPECT_FLOAT_EQ(y.at({0, 0, 0, 0}), (1 + 2 + 4 + 5) / 4.f);
    EXPECT_FLOAT_EQ(y.at({0, 0, 0, 1}), (1 + 2 + 3 + 4 + 5 + 6) / 6.f);
}

TEST(ResampleReference, AverageBackwardIsTheAdjointOfTheForward)
{
    for(auto mode : {dobj::ResampleMode::AVGPOOL_INCLUDE_PADDING, dobj::ResampleMode::AVGPOOL_EXCLUDE_PADDING})
    {
        // 3-D, strided, padded: <avg(x), dy> == <x, avg_bwd(dy)>.
        const ResampleParams p{{1, 0, 1}, {2, 1, 2}, {3, 2, 2}, mode, dobj::PaddingMode::ZERO_PAD};
        Tensor<double> x({2, 3, 5, 4, 6}), dx({2, 3, 5, 4, 6}), y({2, 3, 2, 3, 4}), dy({2, 3, 2, 3, 4});
        x.fillUniform(-1, 1, deriveSeed(301));
        dy.fillUniform(-1, 1, deriveSeed(302));
        CpuFpReferenceResample::forward<double, double>(x.view(), y.view(), p);
        CpuFpReferenceResample::backward<double, double>(dy.view(), dx.view(), p);
        EXPECT_NEAR(dot(y, dy), dot(x, dx), 1e-9) << static_cast<int>(mode);
    }
}

TEST(ResampleReference, MaxBackwardRoutesEachGradientToItsIndex)
{
    // <dy, y> == <dx, x> when dx gathers dy at the forward's argmax positions.
    const ResampleParams p{{1, 1}, {2, 1}, {3, 2}, dobj::ResampleMode::MAXPOOL, dobj::PaddingMode::NEG_INF_PAD};
    Tensor<double> x({2, 2, 7, 5}), dx({2, 2, 7, 5}), y({2, 2, 4, 6}), dy({2, 2, 4, 6});
    Tensor<int32_t> index({2, 2, 4, 6});
    x.fillUniform(-1, 1, deriveSeed(303));
    dy.fillUniform(-1, 1, deriveSeed(304));
    TensorView<int32_t> iv = index.view();
    CpuFpReferenceResample::forward<double, double>(x.view(), y.view(), p, &iv);
    const TensorView<const int32_t> civ = index.view();
    CpuFpReferenceResample::backward<double, double>(dy.view(), dx.view(), p, &civ);
    EXPECT_NEAR(dot(y, dy), dot(x, dx), 1e-9);
    EXPECT_THROW((CpuFpReferenceResample::backward<double, double>(dy.view(), dx.view(), p)), std::invalid_argument);
}

TEST(ResampleReference, SixteenBitTypesRoundTheFloatResult)
{
    const ResampleParams p{{0, 0}, {1, 1}, {2, 2}, dobj::ResampleMode::AVGPOOL_EXCLUDE_PADDING,
                           dobj::PaddingMode::NEG_INF_PAD};
    Tensor<half> xh({1, 2, 4, 4}), yh({1, 2, 3, 3});
    Tensor<bfloat16> xb({1, 2, 4, 4}), yb({1, 2, 3, 3});
    Tensor<float> xf({1, 2, 4, 4}), yf({1, 2, 3, 3});
    xh.fillUniform(-2, 2, deriveSeed(305));
    forEachIndex(xf.dims(), [&](const std::vector<int64_t>& i) {
        xf.at(i) = xh.at(i);
        xb.at(i) = bfloat16(static_cast<float>(xh.at(i)));
    });
    CpuFpReferenceResample::forward<half, half>(xh.view(), yh.view(), p);
    CpuFpReferenceResample::forward<float, float>(xf.view(), yf.view(), p);
    CpuFpReferenceResample::forward<bfloat16, bfloat16>(xb.view(), yb.view(), p);
    forEachIndex(yf.dims(), [&](const std::vector<int64_t>& i) {
        EXPECT_EQ(static_cast<float>(yh.at(i)), static_cast<float>(half(yf.at(i))));
        EXPECT_NEAR(static_cast<float>(yb.at(i)), yf.at(i), resample::getToleranceFwd<bfloat16>());
    });
}

TEST(ResampleReference, RejectsShapesThatAreNotOnePooling)
{
    Tensor<float> x({1, 1, 4, 4}), y({1, 1, 2, 2}), bad({1, 2, 2, 2});
    const ResampleParams p{{0, 0}, {2, 2}, {2, 2}, dobj::ResampleMode::MAXPOOL, dobj::PaddingMode::NEG_INF_PAD};
    EXPECT_THROW((CpuFpReferenceResample::forward<float, float>(x.view(), bad.view(), p)), std::invalid_argument);
    ResampleParams nearest = p;
    nearest.mode = dobj::ResampleMode::NEAREST;
    EXPECT_THROW((CpuFpReferenceResample::forward<float, float>(x.view(), y.view(), nearest)), std::invalid_argument);
    ResampleParams rank = p;
    rank.window = {2};
    EXPECT_THROW((CpuFpReferenceResample::forward<float, float>(x.view(), y.view(), rank)), std::invalid_argument);
}

TEST(ReductionReference, EveryModeOnHandValues)
{
    // x [2, 3]; reduce dim 1 -> [2, 1].
    auto x = from({2, 3}, {1, -2, 0, 3, 4, -0.5f});
    auto run = [&](dobj::ReductionMode mode) {
        Tensor<float> y({2, 1});
        CpuFpReferenceReduction::reduce<float, float>(mode, x.view(), y.view());
        return std::vector<float>{y.data()[0], y.data()[1]};
    };
    using M = dobj::ReductionMode;
    EXPECT_EQ(run(M::ADD), (std::vector<float>{-1, 6.5f}));
    EXPECT_EQ(run(M::MUL), (std::vector<float>{-0.f, -6}));
    EXPECT_EQ(run(M::MIN_OP), (std::vector<float>{-2, -0.5f}));
    EXPECT_EQ(run(M::MAX_OP), (std::vector<float>{1, 4}));
    EXPECT_EQ(run(M::AMAX), (std::vector<float>{2, 4}));
    EXPECT_FLOAT_EQ(run(M::AVG)[1], 6.5f / 3);
    EXPECT_EQ(run(M::NORM1), (std::vector<float>{3, 7.5f}));
    EXPECT_FLOAT_EQ(run(M::NORM2)[0], std::sqrt(5.f));
    EXPECT_EQ(run(M::MUL_NO_ZEROS), (std::vector<float>{-2, -6}));
}

TEST(ReductionReference, ReducesEveryDimensionWhereTheOutputIsOne)
{
    Tensor<double> x({2, 3, 4, 5}), y({1, 3, 1, 5});
    x.fillUniform(-1, 1, deriveSeed(306));
    CpuFpReferenceReduction::reduce<double, double>(dobj::ReductionMode::ADD, x.view(), y.view());
    double expected = 0.0;
    for(int64_t n = 0; n < 2; ++n)
        for(int64_t h = 0; h < 4; ++h)
            expected += x.at({n, 2, h, 4});
    EXPECT_NEAR(y.at({0, 2, 0, 4}), expected, 1e-12);
    EXPECT_EQ(CpuFpReferenceReduction::reductionLength({2, 3, 4, 5}, {1, 3, 1, 5}), 8);
    EXPECT_THROW(CpuFpReferenceReduction::reductionLength({2, 3}, {2, 2}), std::invalid_argument);
    EXPECT_THROW(CpuFpReferenceReduction::reductionLength({2, 3}, {1, 1, 1}), std::invalid_argument);
    Tensor<double> all({1, 1, 1, 1});
    CpuFpReferenceReduction::reduce<double, double>(dobj::ReductionMode::AVG, x.view(), all.view());
    double sum = 0.0;
    forEachIndex(x.dims(), [&](const std::vector<int64_t>& i) { sum += x.at(i); });
    EXPECT_NEAR(all.at({0, 0, 0, 0}), sum / 120.0, 1e-12);
}

TEST(ReductionReference, ToleranceGrowsWithTheReductionLength)
{
    EXPECT_GE(calculateReductionTolerance<float>(4, 1.0), reduction::getTolerance<float>());
    EXPECT_GT(calculateReductionTolerance<half>(100000, 1.0), calculateReductionTolerance<half>(100, 1.0));
    EXPECT_GT(reduction::getTolerance<bfloat16>(), reduction::getTolerance<half>());
}
