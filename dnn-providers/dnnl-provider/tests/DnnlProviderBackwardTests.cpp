// The backward graphs MIOpen Public forwards that DNNL_ENGINE runs: activation backward
// (mode_BWD(dy, x), oneDNN eltwise_backward from src) against the test SDK's pointwise reference
// with x placed on every kink, and max pooling's gradient from x (resample with a virtual index ->
// resample_bwd) against a plain-loop first-maximum reference on tie-heavy data.
#include "DnnlTestHelpers.hpp"

#include <hipdnn_test_sdk/utilities/TestTolerances.hpp>
#include <hipdnn_test_sdk/utilities/pointwise/CpuReferencePointwise.hpp>

#include <limits>
#include <utility>

namespace dnnl_provider_tests
{
namespace
{

using fe::graph::TensorAttributes;
using tu::Tensor;
using WireMode = hipdnn_data_sdk::data_objects::PointwiseMode;

template <typename T>
double outputRtol()
{
    return std::is_same_v<T, bf16> ? 1.0 / 128 : 1e-5; // one bf16 rounding of the output
}

template <typename T>
void configure(fe::graph::Graph& g)
{
    g.set_io_data_type(typeOf<T>())
        .set_intermediate_data_type(fe::DataType::FLOAT)
        .set_compute_data_type(fe::DataType::FLOAT);
}

template <typename T>
class DnnlBackwardTest : public DnnlFrontendTest
{
};
using Types = ::testing::Types<float, bf16>;
TYPED_TEST_SUITE(DnnlBackwardTest, Types, ); // empty name generator: clang -Wpedantic wants an argument for "..."

struct BackwardActivation
{
    std::string name;
    fe::graph::PointwiseAttributes attributes;
    WireMode mode;
    tu::PointwiseParams params;
    std::vector<float> kinks; // x values where the derivative is discontinuous
};

/// The backward modes of MIOpen's activations (forwarding_activation.hpp's translation).
std::vector<BackwardActivation> backwardActivations()
{
    using M = fe::PointwiseMode;
    auto make = [](const std::string& name, M mode, WireMode wire) {
        return BackwardActivation{name, fe::graph::PointwiseAttributes().set_mode(mode), wire, {}, {0.f}};
    };
    std::vector<BackwardActivation> list = {make("relu", M::RELU_BWD, WireMode::RELU_BWD),
                                            make("tanh", M::TANH_BWD, WireMode::TANH_BWD),
                                            make("sigmoid", M::SIGMOID_BWD, WireMode::SIGMOID_BWD),
                                            make("elu", M::ELU_BWD, WireMode::ELU_BWD),
                                            make("softplus", M::SOFTPLUS_BWD, WireMode::SOFTPLUS_BWD)};
    auto leaky = make("leaky_relu", M::RELU_BWD, WireMode::RELU_BWD);
    leaky.attributes.set_relu_lower_clip_slope(0.1f);
    leaky.params.reluLowerClipSlope = 0.1;
    auto clipped = make("clipped_relu", M::RELU_BWD, WireMode::RELU_BWD); // MIOpen's CLIPPEDRELU
    clipped.attributes.set_relu_upper_clip(0.5f);
    clipped.params.reluUpperClip = 0.5;
    clipped.kinks = {0.f, 0.5f};
    auto clamped = make("clamped_relu", M::RELU_BWD, WireMode::RELU_BWD);
    clamped.attributes.set_relu_lower_clip(-0.25f).set_relu_upper_clip(0.5f);
    clamped.params.reluLowerClip = -0.25;
    clamped.params.reluUpperClip = 0.5;
    clamped.kinks = {-0.25f, 0.f, 0.5f};
    auto elu = make("elu_alpha", M::ELU_BWD, WireMode::ELU_BWD);
    elu.attributes.set_elu_alpha(0.5f);
    elu.params.eluAlpha = 0.5;
    auto softplus = make("softplus_beta1", M::SOFTPLUS_BWD, WireMode::SOFTPLUS_BWD);
    softplus.attributes.set_softplus_beta(1.f); // as the wrapper sets it
    list.insert(list.end(), {leaky, clipped, clamped, elu, softplus});
    return list;
}

TYPED_TEST(DnnlBackwardTest, ActivationBackwardMatchesReferenceIncludingKinks)
{
    using T = TypeParam;
    DNNL_SKIP_IF_NO_BF16(T);
    int i = 0;
    for(const BackwardActivation& act : backwardActivations())
    {
        CaseRng r(900 + i++);
        std::vector<int64_t> dims = {r.pick(1, 3), r.pick(1, 17), r.pick(1, 9), r.pick(1, 9)};
        if(r.coin())
        {
            dims.push_back(r.pick(1, 5));
        }
        const bool dyLast = r.coin(), xLast = r.coin(), dxLast = r.coin();
        SCOPED_TRACE(std::string(typeName<T>()) + " " + act.name + "_bwd " + dimsText(dims) + (dyLast ? " dy:NHWC" : "")
                     + (xLast ? " x:NHWC" : "") + (dxLast ? " dx:NHWC" : "") + " (" + r.trace() + ")");
        fe::graph::Graph g;
        configure<T>(g);
        auto dy = g.tensor(TensorAttributes().set_name("dy").set_dim(dims).set_stride(layout(dims, dyLast)));
        auto x = g.tensor(TensorAttributes().set_name("x").set_dim(dims).set_stride(layout(dims, xLast)));
        auto dx = g.pointwise(dy, x, act.attributes);
        dx->set_output(true).set_name("dx").set_dim(dims).set_stride(layout(dims, dxLast));
        ASSERT_NO_FATAL_FAILURE(this->buildOnDnnl(g, this->handle()));
        Tensor<T> dyt(dims, layout(dims, dyLast)), xt(dims, layout(dims, xLast)), dxt(dims, layout(dims, dxLast)),
            ref(dims);
        dyt.fillUniform(-2.f, 2.f, r.seed(1));
        xt.fillUniform(-3.f, 3.f, r.seed(2));
        // A third of x sits exactly on a kink: the derivative's value there must be the reference's.
        int64_t k = 0;
        int64_t onKinks = 0;
        tu::forEachIndex(dims, [&](const std::vector<int64_t>& idx) {
            if(k++ % 3 == 0)
            {
                xt.at(idx) = T(act.kinks[static_cast<size_t>(k / 3) % act.kinks.size()]);
                ++onKinks;
            }
        });
        ASSERT_GT(onKinks, 0);
        dxt.fill(7.f);
        std::vector<uint8_t> ws(static_cast<size_t>(g.get_workspace_size()));
        FE_ASSERT_OK(g.execute(this->handle(), {{dy, dyt.data()}, {x, xt.data()}, {dx, dxt.data()}}, ws.data()));
        const tu::TensorView<const T> xv = std::as_const(xt).view();
        tu::CpuReferencePointwise::compute<T, T>(act.mode, ref.view(), std::as_const(dyt).view(), &xv, nullptr,
                                                 act.params);
        const double tol = tu::pointwise::getTolerance<T>();
        expectClose(ref, dxt, tol, std::max(tol, outputRtol<T>()), act.name + "_bwd");
    }
}

TYPED_TEST(DnnlBackwardTest, ActivationBackwardDeclinesModesWithoutAnExactDerivative)
{
    using T = TypeParam;
    DNNL_SKIP_IF_NO_BF16(T);
    using M = fe::PointwiseMode;
    // A leaky slope with a clip (clip_v2's derivative below the clip is 0) and softplus with
    // beta != 1 (soft_relu has no beta) have no oneDNN eltwise backward.
    std::vector<std::pair<std::string, fe::graph::PointwiseAttributes>> cases;
    cases.emplace_back("leaky+clip", fe::graph::PointwiseAttributes().set_mode(M::RELU_BWD).set_relu_upper_clip(2.f)
                                         .set_relu_lower_clip_slope(0.1f));
    cases.emplace_back("softplus beta 2",
                       fe::graph::PointwiseAttributes().set_mode(M::SOFTPLUS_BWD).set_softplus_beta(2.f));
    for(const auto& [name, attributes] : cases)
    {
        SCOPED_TRACE(name);
        const std::vector<int64_t> dims = {2, 3, 4, 5};
        fe::graph::Graph g;
        configure<T>(g);
        g.set_preferred_engine_id_ext(std::string("DNNL_ENGINE"));
        auto dy = g.tensor(TensorAttributes().set_name("dy").set_dim(dims).set_stride(layout(dims, false)));
        auto x = g.tensor(TensorAttributes().set_name("x").set_dim(dims).set_stride(layout(dims, false)));
        auto dx = g.pointwise(dy, x, attributes);
        dx->set_output(true).set_name("dx").set_dim(dims).set_stride(layout(dims, false));
        const fe::Error e = g.build(this->handle());
        EXPECT_TRUE(e.is_bad() || g.get_engine_name_ext() != "DNNL_ENGINE") << "DNNL_ENGINE accepted " << name;
    }
}

/// Max pooling's gradient, as MIOpen defines it: each dy goes to the FIRST maximum of its window
/// in window order (kh major, kw minor); padded positions never win.
template <typename T>
Tensor<T> firstMaxGradient(const Tensor<T>& x, const Tensor<T>& dy, const std::vector<int64_t>& window,
                           const std::vector<int64_t>& stride, const std::vector<int64_t>& pre, bool channelsLast)
{
    const auto& xd = x.dims();
    const auto& yd = dy.dims();
    std::vector<double> acc(static_cast<size_t>(xd[0] * xd[1] * xd[2] * xd[3]), 0.0);
    auto flat = [&](int64_t n, int64_t c, int64_t h, int64_t w) {
        return static_cast<size_t>(((n * xd[1] + c) * xd[2] + h) * xd[3] + w);
    };
    for(int64_t n = 0; n < yd[0]; ++n)
        for(int64_t c = 0; c < yd[1]; ++c)
            for(int64_t oh = 0; oh < yd[2]; ++oh)
                for(int64_t ow = 0; ow < yd[3]; ++ow)
                {
                    float best = -std::numeric_limits<float>::infinity();
                    int64_t bh = -1, bw = -1;
                    for(int64_t kh = 0; kh < window[0]; ++kh)
                        for(int64_t kw = 0; kw < window[1]; ++kw)
                        {
                            const int64_t h = oh * stride[0] - pre[0] + kh, w = ow * stride[1] - pre[1] + kw;
                            if(h < 0 || h >= xd[2] || w < 0 || w >= xd[3])
                                continue;
                            const float v = static_cast<float>(x.at({n, c, h, w}));
                            if(bh < 0 || v > best)
                            {
                                best = v;
                                bh = h;
                                bw = w;
                            }
                        }
                    if(bh >= 0)
                        acc[flat(n, c, bh, bw)] += static_cast<double>(static_cast<float>(dy.at({n, c, oh, ow})));
                }
    Tensor<T> dx(xd, layout(xd, channelsLast));
    tu::forEachIndex(xd, [&](const std::vector<int64_t>& i) {
        dx.at(i) = T(static_cast<float>(acc[flat(i[0], i[1], i[2], i[3])]));
    });
    return dx;
}

TYPED_TEST(DnnlBackwardTest, MaxPoolGradientFromXKeepsTheFirstMaximumOnTies)
{
    using T = TypeParam;
    DNNL_SKIP_IF_NO_BF16(T);
    for(int i = 0; i < 12; ++i)
    {
        CaseRng r(950 + i);
        std::vector<int64_t> window, stride, pre, post;
        std::vector<int64_t> xDims = {r.pick(1, 3), r.pick(1, 19)}, yDims;
        for(int s = 0; s < 2; ++s)
        {
            window.push_back(r.pick(1, 3) + (i == 0 ? 1 : 0)); // case 0: 3x3 or larger overlaps
            stride.push_back(r.pick(1, 3));
            pre.push_back(r.pick(0, window.back() - 1));
            post.push_back(r.pick(0, window.back() - 1));
            xDims.push_back(r.pick(std::max<int64_t>(window.back(), 2), 13));
        }
        yDims = {xDims[0], xDims[1]};
        for(size_t s = 0; s < 2; ++s)
        {
            yDims.push_back((xDims[2 + s] + pre[s] + post[s] - window[s]) / stride[s] + 1);
        }
        const bool last = r.coin();
        SCOPED_TRACE(std::string(typeName<T>()) + " x" + dimsText(xDims) + " window" + dimsText(window) + " stride"
                     + dimsText(stride) + " pre" + dimsText(pre) + " post" + dimsText(post) + (last ? " NHWC" : "")
                     + " (" + r.trace() + ")");
        fe::graph::Graph g;
        configure<T>(g);
        auto attrs = [&](auto a) {
            return a.set_resample_mode(fe::ResampleMode::MAXPOOL)
                .set_padding_mode(fe::PaddingMode::NEG_INF_PAD)
                .set_window(window)
                .set_stride(stride)
                .set_pre_padding(pre)
                .set_post_padding(post);
        };
        auto x = g.tensor(TensorAttributes().set_name("x").set_dim(xDims).set_stride(layout(xDims, last)));
        auto pooled = g.resample(x, attrs(fe::graph::ResampleFwdAttributes()).set_generate_index(true));
        pooled[0]->set_name("pooled").set_data_type(typeOf<T>()).set_dim(yDims).set_stride(layout(yDims, last));
        pooled[1]->set_name("index").set_dim(yDims).set_stride(layout(yDims, last));
        auto dy = g.tensor(TensorAttributes().set_name("dy").set_dim(yDims).set_stride(layout(yDims, last)));
        auto dx = g.resample_bwd(dy, attrs(fe::graph::ResampleBwdAttributes()), pooled[1]);
        dx->set_output(true).set_name("dx").set_dim(xDims).set_stride(layout(xDims, last));
        ASSERT_NO_FATAL_FAILURE(this->buildOnDnnl(g, this->handle()));
        Tensor<T> xt(xDims, layout(xDims, last)), dyt(yDims, layout(yDims, last)), dxt(xDims, layout(xDims, last));
        // Tie-heavy x, as after a ReLU: half the values 0, the rest quantised to a few levels.
        std::mt19937 gen(r.seed(1));
        std::uniform_int_distribution<int> level(-4, 4);
        int64_t zeros = 0;
        tu::forEachIndex(xDims, [&](const std::vector<int64_t>& idx) {
            const int l = level(gen);
            xt.at(idx) = T(l <= 0 ? 0.f : 0.5f * static_cast<float>(l));
            zeros += l <= 0;
        });
        ASSERT_GT(zeros, 0);
        dyt.fillUniform(-1.f, 1.f, r.seed(2));
        const auto wsSize = static_cast<size_t>(g.get_workspace_size());
        // The pooled y lives in the plan's workspace (with oneDNN's argmax workspace).
        EXPECT_GE(wsSize, static_cast<size_t>(yDims[0] * yDims[1] * yDims[2] * yDims[3]) * sizeof(T));
        std::vector<uint8_t> ws(wsSize);
        const Tensor<T> ref = firstMaxGradient(xt, dyt, window, stride, pre, last);
        for(int run = 0; run < 2; ++run) // twice: the workspace's content from a previous run must not matter
        {
            dxt.fill(7.f);
            std::fill(ws.begin(), ws.end(), uint8_t(run == 0 ? 0x00 : 0xff));
            FE_ASSERT_OK(g.execute(this->handle(), {{x, xt.data()}, {dy, dyt.data()}, {dx, dxt.data()}}, ws.data()));
            const double tol = std::is_same_v<T, bf16> ? 1.0 / 64 : 1e-6; // sums of up to 9 dy values
            expectClose(ref, dxt, tol, std::max(tol, outputRtol<T>()),
                        "max-pool gradient from x, run " + std::to_string(run));
        }
    }
}

} // namespace
} // namespace dnnl_provider_tests
