// Conv fprop [+ bias ADD] + activation as a MIOpen fusion plan on both engines, through the
// hipDNN frontend with the engine pinned (and checked to be the one that ran), against the test
// SDK's CPU references on seeded random shapes, in fp32, fp16 and bf16. (A file of its own: with
// the other kinds in one file GCC 12 -O3 reports a -Wnonnull false positive in std::vector.)
#include "MiopenConvCases.hpp"

#include <hipdnn_test_sdk/utilities/TestTolerances.hpp>
#include <hipdnn_test_sdk/utilities/pointwise/CpuReferencePointwise.hpp>

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
class MiopenFusionTest : public MiopenFrontendTest
{
};
using Types = ::testing::Types<float, half, bf16>;
TYPED_TEST_SUITE(MiopenFusionTest, Types, ); // empty name generator: clang -Wpedantic wants an argument for "..."

/// Activation settings with a MIOpen activation.
struct Activation
{
    std::string name;
    fe::graph::PointwiseAttributes attributes;
    WireMode mode;
    tu::PointwiseParams params;
};

std::vector<Activation> activations()
{
    using M = fe::PointwiseMode;
    auto make = [](const std::string& name, M mode, WireMode wire) {
        return Activation{name, fe::graph::PointwiseAttributes().set_mode(mode), wire, {}};
    };
    std::vector<Activation> list = {make("relu", M::RELU_FWD, WireMode::RELU_FWD),
                                    make("tanh", M::TANH_FWD, WireMode::TANH_FWD),
                                    make("sigmoid", M::SIGMOID_FWD, WireMode::SIGMOID_FWD),
                                    make("elu", M::ELU_FWD, WireMode::ELU_FWD),
                                    make("softplus", M::SOFTPLUS_FWD, WireMode::SOFTPLUS_FWD),
                                    make("abs", M::ABS, WireMode::ABS),
                                    make("identity", M::IDENTITY, WireMode::IDENTITY)};
    Activation leaky = make("leaky_relu", M::RELU_FWD, WireMode::RELU_FWD);
    leaky.attributes.set_relu_lower_clip_slope(0.1f);
    leaky.params.reluLowerClipSlope = 0.1;
    Activation clipped = make("clipped_relu", M::RELU_FWD, WireMode::RELU_FWD);
    clipped.attributes.set_relu_upper_clip(0.5f);
    clipped.params.reluUpperClip = 0.5;
    Activation elu = make("elu_alpha", M::ELU_FWD, WireMode::ELU_FWD);
    elu.attributes.set_elu_alpha(0.5f);
    elu.params.eluAlpha = 0.5;
    list.push_back(leaky);
    list.push_back(clipped);
    list.push_back(elu);
    return list;
}

TYPED_TEST(MiopenFusionTest, ConvBiasActivationRunsAsAFusionPlan)
{
    using T = TypeParam;
    int i = 0;
    for(const Activation& act : activations())
    {
        for(const bool withBias : {true, false})
        {
            CaseRng r(400 + i++);
            ConvCase c = randomConv(r);
            c.xLast = c.yLast = false; // MIOpen fusion plans: packed N,C,... tensors (see the decline test)
            SCOPED_TRACE(std::string(typeName<T>()) + (withBias ? " conv+bias+" : " conv+") + act.name + " " + c.text
                         + " (" + r.trace() + ")");
            std::vector<int64_t> bDims(c.y.size(), 1);
            bDims[1] = c.y[1];
            for(const std::string engine : {kEngine, kDeterministicEngine})
            {
                fe::graph::Graph g;
                configure<T>(g);
                auto x = g.tensor(TensorAttributes().set_name("x").set_dim(c.x).set_stride(layout(c.x, c.xLast)));
                auto w = g.tensor(TensorAttributes().set_name("w").set_dim(c.w).set_stride(layout(c.w, c.wLast)));
                auto b = g.tensor(TensorAttributes().set_name("b").set_dim(bDims));
                auto conv = g.conv_fprop(x, w, fe::graph::ConvFpropAttributes()
                                                   .set_pre_padding(c.p.prePadding)
                                                   .set_post_padding(c.p.postPadding)
                                                   .set_stride(c.p.stride)
                                                   .set_dilation(c.p.dilation));
                auto biased
                    = withBias ? g.pointwise(conv, b, fe::graph::PointwiseAttributes().set_mode(fe::PointwiseMode::ADD))
                               : conv;
                auto y = g.pointwise(biased, act.attributes);
                y->set_output(true).set_name("y").set_dim(c.y).set_stride(layout(c.y, c.yLast));
                ASSERT_NO_FATAL_FAILURE(this->buildOn(g, this->handle(), engine));
                EXPECT_EQ(g.get_workspace_size(), 0);
                Tensor<T> xt(c.x, layout(c.x, c.xLast)), wt(c.w, layout(c.w, c.wLast)), bt(bDims),
                    yt(c.y, layout(c.y, c.yLast)), yRef(c.y);
                xt.fillUniform(-1.f, 1.f, r.seed(1));
                wt.fillUniform(-1.f, 1.f, r.seed(2));
                bt.fillUniform(-1.f, 1.f, r.seed(3));
                yt.fill(7.f);
                if(withBias)
                {
                    FE_ASSERT_OK(g.execute(this->handle(),
                                           {{x, xt.data()}, {w, wt.data()}, {b, bt.data()}, {y, yt.data()}}, nullptr));
                }
                else
                {
                    FE_ASSERT_OK(g.execute(this->handle(), {{x, xt.data()}, {w, wt.data()}, {y, yt.data()}}, nullptr));
                }
                Tensor<float> convRef(c.y), biasedRef(c.y), bFloat(bDims);
                tu::CpuFpReferenceConvolution::fprop<T, T, float>(xt.view(), wt.view(), convRef.view(), c.p);
                tu::forEachIndex(bDims, [&](const std::vector<int64_t>& k) {
                    bFloat.at(k) = withBias ? float(bt.at(k)) : 0.f;
                });
                tu::TensorView<const float> bView = bFloat.view();
                tu::CpuReferencePointwise::compute<float, float>(WireMode::ADD, biasedRef.view(), convRef.view(),
                                                                 &bView, nullptr, {});
                tu::CpuReferencePointwise::compute<float, T>(act.mode, yRef.view(), biasedRef.view(), nullptr, nullptr,
                                                             act.params);
                // Activations here are 1-Lipschitz: the convolution's bound carries through.
                const double atol
                    = tu::calculateConvFpropTolerance<T, T>(maxAbs(xt), maxAbs(wt), c.w[1] * product(c.w, 2)) + 1e-5;
                expectClose(yRef, yt, atol, outputRtol<T>() + 1e-5, engine + " conv+" + act.name);
            }
        }
    }
}

} // namespace
} // namespace miopen_provider_tests
