// The convolution graphs of the MIOpen engines (conv fprop/dgrad/wgrad on MIOPEN_ENGINE and
// MIOPEN_ENGINE_DETERMINISTIC; the fused kind is in MiopenProviderTests.cpp), through the
// hipDNN frontend with the engine pinned (and checked to be the one that ran), against the test
// SDK's CPU references on seeded random shapes (HIPDNN_GLOBAL_TEST_SEED), in fp32, fp16, bf16.
#include "MiopenConvCases.hpp"

#include <hipdnn_test_sdk/utilities/CpuFpReferenceConvolution.hpp>
#include <hipdnn_test_sdk/utilities/TestTolerances.hpp>
#include <hipdnn_test_sdk/utilities/pointwise/CpuReferencePointwise.hpp>

#include <numeric>

namespace miopen_provider_tests
{
namespace
{

using fe::graph::TensorAttributes;
using tu::Tensor;
using WireMode = hipdnn_data_sdk::data_objects::PointwiseMode;

template <typename T>
fe::graph::Graph& configure(fe::graph::Graph& g)
{
    g.set_io_data_type(typeOf<T>())
        .set_intermediate_data_type(fe::DataType::FLOAT)
        .set_compute_data_type(fe::DataType::FLOAT);
    return g;
}

template <typename T>
class MiopenGraphTest : public MiopenFrontendTest
{
};
using Types = ::testing::Types<float, half, bf16>;
TYPED_TEST_SUITE(MiopenGraphTest, Types, ); // empty name generator: clang -Wpedantic wants an argument for "..."

constexpr int kConvCases = 8;

template <typename T>
void convFprop(hipdnnHandle_t h, const std::string& engine, uint32_t salt)
{
    for(int i = 0; i < kConvCases; ++i)
    {
        CaseRng r(salt + i);
        const ConvCase c = randomConv(r);
        SCOPED_TRACE(std::string(typeName<T>()) + " " + engine + " " + c.text + " (" + r.trace() + ")");
        fe::graph::Graph g;
        configure<T>(g);
        auto x = g.tensor(TensorAttributes().set_name("x").set_dim(c.x).set_stride(layout(c.x, c.xLast)));
        auto w = g.tensor(TensorAttributes().set_name("w").set_dim(c.w).set_stride(layout(c.w, c.wLast)));
        auto y = g.conv_fprop(x, w, fe::graph::ConvFpropAttributes()
                                        .set_pre_padding(c.p.prePadding)
                                        .set_post_padding(c.p.postPadding)
                                        .set_stride(c.p.stride)
                                        .set_dilation(c.p.dilation));
        y->set_output(true).set_name("y").set_dim(c.y).set_stride(layout(c.y, c.yLast));
        ASSERT_NO_FATAL_FAILURE(MiopenFrontendTest::buildOn(g, h, engine));
        Tensor<T> xt(c.x, layout(c.x, c.xLast)), wt(c.w, layout(c.w, c.wLast)), yt(c.y, layout(c.y, c.yLast)),
            yRef(c.y);
        xt.fillUniform(-1.f, 1.f, r.seed(1));
        wt.fillUniform(-1.f, 1.f, r.seed(2));
        yt.fill(7.f);
        std::vector<uint8_t> ws(static_cast<size_t>(g.get_workspace_size()));
        FE_ASSERT_OK(g.execute(h, {{x, xt.data()}, {w, wt.data()}, {y, yt.data()}}, ws.data()));
        tu::CpuFpReferenceConvolution::fprop<T, T, T>(xt.view(), wt.view(), yRef.view(), c.p);
        const double atol = tu::calculateConvFpropTolerance<T, T>(maxAbs(xt), maxAbs(wt), c.w[1] * product(c.w, 2));
        expectClose(yRef, yt, atol, outputRtol<T>(), "conv_fprop");
    }
}

TYPED_TEST(MiopenGraphTest, ConvFpropMatchesReference)
{
    convFprop<TypeParam>(this->handle(), kEngine, 100);
}

TYPED_TEST(MiopenGraphTest, ConvFpropOnTheDeterministicEngine)
{
    convFprop<TypeParam>(this->handle(), kDeterministicEngine, 150);
}

TYPED_TEST(MiopenGraphTest, ConvDgradMatchesReference)
{
    using T = TypeParam;
    for(const std::string engine : {kEngine, kDeterministicEngine})
    {
        for(int i = 0; i < kConvCases; ++i)
        {
            CaseRng r(200 + i);
            const ConvCase c = randomConv(r);
            SCOPED_TRACE(std::string(typeName<T>()) + " " + engine + " " + c.text + " (" + r.trace() + ")");
            fe::graph::Graph g;
            configure<T>(g);
            auto dy = g.tensor(TensorAttributes().set_name("dy").set_dim(c.y).set_stride(layout(c.y, c.yLast)));
            auto w = g.tensor(TensorAttributes().set_name("w").set_dim(c.w).set_stride(layout(c.w, c.wLast)));
            auto dx = g.conv_dgrad(dy, w, fe::graph::ConvDgradAttributes()
                                              .set_pre_padding(c.p.prePadding)
                                              .set_post_padding(c.p.postPadding)
                                              .set_stride(c.p.stride)
                                              .set_dilation(c.p.dilation));
            dx->set_output(true).set_name("dx").set_dim(c.x).set_stride(layout(c.x, c.xLast));
            ASSERT_NO_FATAL_FAILURE(this->buildOn(g, this->handle(), engine));
            Tensor<T> dyt(c.y, layout(c.y, c.yLast)), wt(c.w, layout(c.w, c.wLast)), dxt(c.x, layout(c.x, c.xLast)),
                dxRef(c.x);
            dyt.fillUniform(-1.f, 1.f, r.seed(1));
            wt.fillUniform(-1.f, 1.f, r.seed(2));
            dxt.fill(7.f);
            std::vector<uint8_t> ws(static_cast<size_t>(g.get_workspace_size()));
            FE_ASSERT_OK(g.execute(this->handle(), {{dy, dyt.data()}, {w, wt.data()}, {dx, dxt.data()}}, ws.data()));
            tu::CpuFpReferenceConvolution::dgrad<T, T, T>(dyt.view(), wt.view(), dxRef.view(), c.p);
            const double atol = tu::calculateConvDgradTolerance<T, T>(maxAbs(dyt), maxAbs(wt),
                                                                      c.w[0] / c.groups * product(c.w, 2));
            expectClose(dxRef, dxt, atol, outputRtol<T>(), "conv_dgrad");
        }
    }
}

TYPED_TEST(MiopenGraphTest, ConvWgradMatchesReference)
{
    using T = TypeParam;
    for(const std::string engine : {kEngine, kDeterministicEngine})
    {
        for(int i = 0; i < kConvCases; ++i)
        {
            CaseRng r(300 + i);
            const ConvCase c = randomConv(r);
            SCOPED_TRACE(std::string(typeName<T>()) + " " + engine + " " + c.text + " (" + r.trace() + ")");
            fe::graph::Graph g;
            configure<T>(g);
            auto x = g.tensor(TensorAttributes().set_name("x").set_dim(c.x).set_stride(layout(c.x, c.xLast)));
            auto dy = g.tensor(TensorAttributes().set_name("dy").set_dim(c.y).set_stride(layout(c.y, c.yLast)));
            auto dw = g.conv_wgrad(dy, x, fe::graph::ConvWgradAttributes()
                                              .set_pre_padding(c.p.prePadding)
                                              .set_post_padding(c.p.postPadding)
                                              .set_stride(c.p.stride)
                                              .set_dilation(c.p.dilation));
            dw->set_output(true).set_name("dw").set_dim(c.w).set_stride(layout(c.w, c.wLast));
            ASSERT_NO_FATAL_FAILURE(this->buildOn(g, this->handle(), engine));
            Tensor<T> xt(c.x, layout(c.x, c.xLast)), dyt(c.y, layout(c.y, c.yLast)), dwt(c.w, layout(c.w, c.wLast)),
                dwRef(c.w);
            xt.fillUniform(-1.f, 1.f, r.seed(1));
            dyt.fillUniform(-1.f, 1.f, r.seed(2));
            dwt.fill(7.f);
            std::vector<uint8_t> ws(static_cast<size_t>(g.get_workspace_size()));
            FE_ASSERT_OK(g.execute(this->handle(), {{x, xt.data()}, {dy, dyt.data()}, {dw, dwt.data()}}, ws.data()));
            tu::CpuFpReferenceConvolution::wgrad<T, T, T>(xt.view(), dyt.view(), dwRef.view(), c.p);
            const double atol
                = tu::calculateConvWrwTolerance<T, T>(maxAbs(xt), maxAbs(dyt), c.x[0] * product(c.y, 2));
            expectClose(dwRef, dwt, atol, outputRtol<T>(), "conv_wgrad");
        }
    }
}

} // namespace
} // namespace miopen_provider_tests
