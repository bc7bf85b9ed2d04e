// Every graph kind DNNL_ENGINE accepts, through the hipDNN frontend with the engine preferred (and
// checked to be the one that ran), against the test SDK's CPU references on seeded random shapes
// (HIPDNN_GLOBAL_TEST_SEED), in fp32 and bf16 (skipped with the reason where unsupported).
#include "DnnlTestHelpers.hpp"

#include <hipdnn_test_sdk/utilities/CpuFpReferenceBatchnorm.hpp>
#include <hipdnn_test_sdk/utilities/CpuFpReferenceConvolution.hpp>
#include <hipdnn_test_sdk/utilities/TestTolerances.hpp>
#include <hipdnn_test_sdk/utilities/pointwise/CpuReferencePointwise.hpp>

#include <numeric>

namespace dnnl_provider_tests
{
namespace
{

using fe::graph::TensorAttributes;
using tu::Tensor;
using WireMode = hipdnn_data_sdk::data_objects::PointwiseMode;

/// A random convolution: 2-D or 3-D, plain / grouped / depthwise, strides, dilations, asymmetric
/// padding, packed or channels-last tensors.
struct ConvCase
{
    std::vector<int64_t> x, w, y;
    tu::ConvolutionParams p;
    bool xLast = false, wLast = false, yLast = false;
    int64_t groups = 1;
    std::string text;
};

ConvCase randomConv(CaseRng& r)
{
    ConvCase c;
    const size_t spatial = r.pick(0, 3) == 0 ? 3 : 2;
    const int64_t kind = r.pick(0, 2); // 0 plain, 1 grouped, 2 depthwise
    const int64_t n = r.pick(1, 2);
    const int64_t cPerGroup = kind == 2 ? 1 : r.pick(1, 4);
    c.groups = kind == 0 ? 1 : (kind == 1 ? r.pick(2, 3) : r.pick(2, 8));
    const int64_t kPerGroup = kind == 2 ? r.pick(1, 2) : r.pick(1, 4);
    c.x = {n, c.groups * cPerGroup};
    c.w = {c.groups * kPerGroup, cPerGroup};
    c.y = {n, c.groups * kPerGroup};
    for(size_t s = 0; s < spatial; ++s)
    {
        const int64_t f = r.pick(1, 3), dil = r.pick(1, 2), stride = r.pick(1, 2);
        const int64_t pre = r.pick(0, f - 1), post = r.pick(0, f - 1);
        int64_t in = spatial == 3 ? r.pick(3, 7) : r.pick(4, 12);
        in = std::max(in, dil * (f - 1) + 1);
        c.p.prePadding.push_back(pre);
        c.p.postPadding.push_back(post);
        c.p.stride.push_back(stride);
        c.p.dilation.push_back(dil);
        c.x.push_back(in);
        c.w.push_back(f);
        c.y.push_back((in + pre + post - dil * (f - 1) - 1) / stride + 1);
    }
    c.xLast = r.coin();
    c.wLast = r.coin();
    c.yLast = r.coin();
    c.text = std::to_string(spatial) + "-D x" + dimsText(c.x) + " w" + dimsText(c.w) + " y" + dimsText(c.y)
             + " groups " + std::to_string(c.groups) + " stride" + dimsText(c.p.stride) + " dil"
             + dimsText(c.p.dilation) + " pre" + dimsText(c.p.prePadding) + " post" + dimsText(c.p.postPadding)
             + (c.xLast ? " x:NHWC" : "") + (c.wLast ? " w:NHWC" : "") + (c.yLast ? " y:NHWC" : "");
    return c;
}

int64_t product(const std::vector<int64_t>& v, size_t from)
{
    return std::accumulate(v.begin() + static_cast<std::ptrdiff_t>(from), v.end(), int64_t{1},
                           std::multiplies<int64_t>());
}

template <typename T>
double outputRtol()
{
    return std::is_same_v<T, bf16> ? 1.0 / 128 : 1e-5; // one bf16 rounding of the output
}

template <typename T>
fe::graph::Graph& configure(fe::graph::Graph& g)
{
    g.set_io_data_type(typeOf<T>())
        .set_intermediate_data_type(fe::DataType::FLOAT)
        .set_compute_data_type(fe::DataType::FLOAT);
    return g;
}

template <typename T>
class DnnlGraphTest : public DnnlFrontendTest
{
};
using Types = ::testing::Types<float, bf16>;
TYPED_TEST_SUITE(DnnlGraphTest, Types, ); // empty name generator: clang -Wpedantic wants an argument for "..."

constexpr int kConvCases = 10;

TYPED_TEST(DnnlGraphTest, ConvFpropMatchesReference)
{
    using T = TypeParam;
    DNNL_SKIP_IF_NO_BF16(T);
    for(int i = 0; i < kConvCases; ++i)
    {
        CaseRng r(100 + i);
        const ConvCase c = randomConv(r);
        SCOPED_TRACE(std::string(typeName<T>()) + " " + c.text + " (" + r.trace() + ")");
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
        ASSERT_NO_FATAL_FAILURE(this->buildOnDnnl(g, this->handle()));
        Tensor<T> xt(c.x, layout(c.x, c.xLast)), wt(c.w, layout(c.w, c.wLast)), yt(c.y, layout(c.y, c.yLast)),
            yRef(c.y);
        xt.fillUniform(-1.f, 1.f, r.seed(1));
        wt.fillUniform(-1.f, 1.f, r.seed(2));
        yt.fill(7.f);
        std::vector<uint8_t> ws(static_cast<size_t>(g.get_workspace_size()));
        FE_ASSERT_OK(g.execute(this->handle(), {{x, xt.data()}, {w, wt.data()}, {y, yt.data()}}, ws.data()));
        tu::CpuFpReferenceConvolution::fprop<T, T, T>(xt.view(), wt.view(), yRef.view(), c.p);
        const double atol
            = tu::calculateConvFpropTolerance<T, T>(maxAbs(xt), maxAbs(wt), c.w[1] * product(c.w, 2));
        expectClose(yRef, yt, atol, outputRtol<T>(), "conv_fprop");
    }
}

TYPED_TEST(DnnlGraphTest, ConvDgradMatchesReference)
{
    using T = TypeParam;
    DNNL_SKIP_IF_NO_BF16(T);
    for(int i = 0; i < kConvCases; ++i)
    {
        CaseRng r(200 + i);
        const ConvCase c = randomConv(r);
        SCOPED_TRACE(std::string(typeName<T>()) + " " + c.text + " (" + r.trace() + ")");
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
        ASSERT_NO_FATAL_FAILURE(this->buildOnDnnl(g, this->handle()));
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

TYPED_TEST(DnnlGraphTest, ConvWgradMatchesReference)
{
    using T = TypeParam;
    DNNL_SKIP_IF_NO_BF16(T);
    for(int i = 0; i < kConvCases; ++i)
    {
        CaseRng r(300 + i);
        const ConvCase c = randomConv(r);
        SCOPED_TRACE(std::string(typeName<T>()) + " " + c.text + " (" + r.trace() + ")");
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
        ASSERT_NO_FATAL_FAILURE(this->buildOnDnnl(g, this->handle()));
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

/// Activation settings exercised after a convolution and standalone.
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
                                    make("gelu", M::GELU_FWD, WireMode::GELU_FWD),
                                    make("gelu_tanh", M::GELU_APPROX_TANH_FWD, WireMode::GELU_APPROX_TANH_FWD),
                                    make("swish", M::SWISH_FWD, WireMode::SWISH_FWD),
                                    make("softplus", M::SOFTPLUS_FWD, WireMode::SOFTPLUS_FWD)};
    Activation leaky = make("leaky_relu", M::RELU_FWD, WireMode::RELU_FWD);
    leaky.attributes.set_relu_lower_clip_slope(0.1f);
    leaky.params.reluLowerClipSlope = 0.1;
    Activation clipped = make("clipped_relu", M::RELU_FWD, WireMode::RELU_FWD);
    clipped.attributes.set_relu_lower_clip(-0.25f).set_relu_upper_clip(0.5f);
    clipped.params.reluLowerClip = -0.25;
    clipped.params.reluUpperClip = 0.5;
    Activation elu = make("elu_alpha", M::ELU_FWD, WireMode::ELU_FWD);
    elu.attributes.set_elu_alpha(0.5f);
    elu.params.eluAlpha = 0.5;
    Activation swish = make("swish_beta", M::SWISH_FWD, WireMode::SWISH_FWD);
    swish.attributes.set_swish_beta(1.5f);
    swish.params.swishBeta = 1.5;
    list.insert(list.end(), {leaky, clipped, elu, swish});
    return list;
}

TYPED_TEST(DnnlGraphTest, ConvBiasActivationFusesEveryActivation)
{
    using T = TypeParam;
    DNNL_SKIP_IF_NO_BF16(T);
    int i = 0;
    for(const Activation& act : activations())
    {
        CaseRng r(400 + i++);
        const ConvCase c = randomConv(r);
        SCOPED_TRACE(std::string(typeName<T>()) + " conv+bias+" + act.name + " " + c.text + " (" + r.trace() + ")");
        std::vector<int64_t> bDims(c.y.size(), 1);
        bDims[1] = c.y[1];
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
        auto biased = g.pointwise(conv, b, fe::graph::PointwiseAttributes().set_mode(fe::PointwiseMode::ADD));
        auto y = g.pointwise(biased, act.attributes);
        y->set_output(true).set_name("y").set_dim(c.y).set_stride(layout(c.y, c.yLast));
        ASSERT_NO_FATAL_FAILURE(this->buildOnDnnl(g, this->handle()));
        Tensor<T> xt(c.x, layout(c.x, c.xLast)), wt(c.w, layout(c.w, c.wLast)), bt(bDims),
            yt(c.y, layout(c.y, c.yLast)), yRef(c.y);
        xt.fillUniform(-1.f, 1.f, r.seed(1));
        wt.fillUniform(-1.f, 1.f, r.seed(2));
        bt.fillUniform(-1.f, 1.f, r.seed(3));
        std::vector<uint8_t> ws(static_cast<size_t>(g.get_workspace_size()));
        FE_ASSERT_OK(g.execute(this->handle(), {{x, xt.data()}, {w, wt.data()}, {b, bt.data()}, {y, yt.data()}},
                               ws.data()));
        Tensor<float> convRef(c.y), biasedRef(c.y), bFloat(bDims);
        tu::CpuFpReferenceConvolution::fprop<T, T, float>(xt.view(), wt.view(), convRef.view(), c.p);
        tu::forEachIndex(bDims, [&](const std::vector<int64_t>& k) { bFloat.at(k) = float(bt.at(k)); });
        tu::TensorView<const float> bView = bFloat.view();
        tu::CpuReferencePointwise::compute<float, float>(WireMode::ADD, biasedRef.view(), convRef.view(), &bView,
                                                         nullptr, {});
        tu::CpuReferencePointwise::compute<float, T>(act.mode, yRef.view(), biasedRef.view(), nullptr, nullptr,
                                                     act.params);
        // Activations here are 1.5-Lipschitz at most: the convolution's bound carries through.
        const double atol = 1.5
                                * tu::calculateConvFpropTolerance<T, T>(maxAbs(xt), maxAbs(wt),
                                                                        c.w[1] * product(c.w, 2))
                            + 1e-5;
        expectClose(yRef, yt, atol, outputRtol<T>() + 1e-5, "conv+bias+" + act.name);
    }
}

TYPED_TEST(DnnlGraphTest, ConvResidualAddReluFusesAsBinaryPostOp)
{
    using T = TypeParam;
    DNNL_SKIP_IF_NO_BF16(T);
    CaseRng r(500);
    const ConvCase c = randomConv(r);
    SCOPED_TRACE(c.text + " (" + r.trace() + ")");
    fe::graph::Graph g;
    configure<T>(g);
    auto x = g.tensor(TensorAttributes().set_name("x").set_dim(c.x));
    auto w = g.tensor(TensorAttributes().set_name("w").set_dim(c.w));
    auto z = g.tensor(TensorAttributes().set_name("residual").set_dim(c.y));
    auto conv = g.conv_fprop(x, w, fe::graph::ConvFpropAttributes()
                                       .set_pre_padding(c.p.prePadding)
                                       .set_post_padding(c.p.postPadding)
                                       .set_stride(c.p.stride)
                                       .set_dilation(c.p.dilation));
    auto sum = g.pointwise(z, conv, fe::graph::PointwiseAttributes().set_mode(fe::PointwiseMode::ADD));
    auto y = g.pointwise(sum, fe::graph::PointwiseAttributes().set_mode(fe::PointwiseMode::RELU_FWD));
    y->set_output(true).set_name("y");
    ASSERT_NO_FATAL_FAILURE(this->buildOnDnnl(g, this->handle()));
    Tensor<T> xt(c.x), wt(c.w), zt(c.y), yt(c.y), yRef(c.y);
    xt.fillUniform(-1.f, 1.f, r.seed(1));
    wt.fillUniform(-1.f, 1.f, r.seed(2));
    zt.fillUniform(-1.f, 1.f, r.seed(3));
    std::vector<uint8_t> ws(static_cast<size_t>(g.get_workspace_size()));
    FE_ASSERT_OK(g.execute(this->handle(), {{x, xt.data()}, {w, wt.data()}, {z, zt.data()}, {y, yt.data()}},
                           ws.data()));
    Tensor<float> convRef(c.y);
    tu::CpuFpReferenceConvolution::fprop<T, T, float>(xt.view(), wt.view(), convRef.view(), c.p);
    tu::forEachIndex(c.y, [&](const std::vector<int64_t>& k) {
        yRef.at(k) = T(std::max(0.f, convRef.at(k) + float(zt.at(k))));
    });
    const double atol
        = tu::calculateConvFpropTolerance<T, T>(maxAbs(xt), maxAbs(wt), c.w[1] * product(c.w, 2)) + 1e-6;
    expectClose(yRef, yt, atol, outputRtol<T>(), "conv+residual+relu");
}

TYPED_TEST(DnnlGraphTest, StandalonePointwiseActivationsMatchReference)
{
    using T = TypeParam;
    DNNL_SKIP_IF_NO_BF16(T);
    std::vector<Activation> list = activations();
    using M = fe::PointwiseMode;
    for(auto [name, mode, wire] : {std::tuple{"abs", M::ABS, WireMode::ABS}, {"exp", M::EXP, WireMode::EXP},
                                   {"log", M::LOG, WireMode::LOG}, {"sqrt", M::SQRT, WireMode::SQRT},
                                   {"identity", M::IDENTITY, WireMode::IDENTITY}, {"neg", M::NEG, WireMode::NEG},
                                   {"reciprocal", M::RECIPROCAL, WireMode::RECIPROCAL},
                                   {"rsqrt", M::RSQRT, WireMode::RSQRT}})
    {
        list.push_back({name, fe::graph::PointwiseAttributes().set_mode(mode), wire, {}});
    }
    int i = 0;
    for(const Activation& act : list)
    {
        CaseRng r(600 + i++);
        const bool positive = act.name == "log" || act.name == "sqrt" || act.name == "reciprocal" || act.name == "rsqrt";
        std::vector<int64_t> dims = {r.pick(1, 3), r.pick(1, 17), r.pick(1, 9), r.pick(1, 9)};
        if(r.coin())
        {
            dims.push_back(r.pick(1, 5));
        }
        const bool inLast = r.coin(), outLast = r.coin();
        SCOPED_TRACE(std::string(typeName<T>()) + " " + act.name + " " + dimsText(dims) + (inLast ? " in:NHWC" : "")
                     + (outLast ? " out:NHWC" : "") + " (" + r.trace() + ")");
        fe::graph::Graph g;
        configure<T>(g);
        auto in = g.tensor(TensorAttributes().set_name("in").set_dim(dims).set_stride(layout(dims, inLast)));
        auto out = g.pointwise(in, act.attributes);
        out->set_output(true).set_name("out").set_dim(dims).set_stride(layout(dims, outLast));
        ASSERT_NO_FATAL_FAILURE(this->buildOnDnnl(g, this->handle()));
        Tensor<T> it(dims, layout(dims, inLast)), ot(dims, layout(dims, outLast)), oRef(dims);
        it.fillUniform(positive ? 0.25f : -3.f, 3.f, r.seed(1));
        std::vector<uint8_t> ws(static_cast<size_t>(g.get_workspace_size()));
        FE_ASSERT_OK(g.execute(this->handle(), {{in, it.data()}, {out, ot.data()}}, ws.data()));
        tu::CpuReferencePointwise::compute<T, T>(act.mode, oRef.view(), it.view(), nullptr, nullptr, act.params);
        const double tol = tu::pointwise::getTolerance<T>();
        expectClose(oRef, ot, tol, std::max(tol, outputRtol<T>()), act.name);
    }
}

/// Per-channel tensor dims [1, C, 1, ...] for an x shape.
std::vector<int64_t> perChannel(const std::vector<int64_t>& x)
{
    std::vector<int64_t> d(x.size(), 1);
    d[1] = x[1];
    return d;
}

std::vector<int64_t> randomBatchnormShape(CaseRng& r)
{
    std::vector<int64_t> x = {r.pick(1, 4), r.pick(1, 20), r.pick(1, 8), r.pick(2, 8)};
    if(r.pick(0, 2) == 0)
    {
        x.push_back(r.pick(1, 4));
    }
    return x;
}

TYPED_TEST(DnnlGraphTest, BatchnormInferenceMatchesReference)
{
    using T = TypeParam;
    DNNL_SKIP_IF_NO_BF16(T);
    for(int i = 0; i < 6; ++i)
    {
        CaseRng r(700 + i);
        const auto xd = randomBatchnormShape(r);
        const auto cd = perChannel(xd);
        const bool last = r.coin();
        SCOPED_TRACE(std::string(typeName<T>()) + " x" + dimsText(xd) + (last ? " NHWC" : "") + " (" + r.trace() + ")");
        fe::graph::Graph g;
        configure<T>(g);
        auto x = g.tensor(TensorAttributes().set_name("x").set_dim(xd).set_stride(layout(xd, last)));
        auto m = g.tensor(TensorAttributes().set_name("mean").set_dim(cd));
        auto iv = g.tensor(TensorAttributes().set_name("inv_variance").set_dim(cd));
        auto s = g.tensor(TensorAttributes().set_name("scale").set_dim(cd));
        auto b = g.tensor(TensorAttributes().set_name("bias").set_dim(cd));
        auto y = g.batchnorm_inference(x, m, iv, s, b, fe::graph::BatchnormInferenceAttributes());
        y->set_output(true).set_name("y").set_dim(xd).set_stride(layout(xd, last));
        ASSERT_NO_FATAL_FAILURE(this->buildOnDnnl(g, this->handle()));
        Tensor<T> xt(xd, layout(xd, last)), mt(cd), ivt(cd), st(cd), bt(cd), yt(xd, layout(xd, last)), yRef(xd);
        xt.fillUniform(-2.f, 2.f, r.seed(1));
        mt.fillUniform(-0.5f, 0.5f, r.seed(2));
        ivt.fillUniform(0.5f, 2.f, r.seed(3));
        st.fillUniform(0.5f, 1.5f, r.seed(4));
        bt.fillUniform(-1.f, 1.f, r.seed(5));
        std::vector<uint8_t> ws(static_cast<size_t>(g.get_workspace_size()));
        FE_ASSERT_OK(g.execute(this->handle(),
                               {{x, xt.data()}, {m, mt.data()}, {iv, ivt.data()}, {s, st.data()}, {b, bt.data()},
                                {y, yt.data()}},
                               ws.data()));
        tu::CpuFpReferenceBatchnorm::inference<T, T, T>(xt.view(), mt.view(), ivt.view(), st.view(), bt.view(),
                                                        yRef.view());
        const double tol = tu::batchnorm::getToleranceInference<T>();
        expectClose(yRef, yt, tol, std::max(tol, outputRtol<T>()), "batchnorm inference y");
    }
}

// Batchnorm inference (variance form, as MIOpen's fusion plans forward it) followed by RELU:
// one oneDNN batchnorm primitive with fuse_norm_relu, against the test SDK's reference then RELU.
TYPED_TEST(DnnlGraphTest, BatchnormInferenceReluFusesIntoTheBatchnorm)
{
    using T = TypeParam;
    DNNL_SKIP_IF_NO_BF16(T);
    for(int i = 0; i < 4; ++i)
    {
        CaseRng r(760 + i);
        const auto xd = randomBatchnormShape(r);
        const auto cd = perChannel(xd);
        const bool last = r.coin();
        SCOPED_TRACE(std::string(typeName<T>()) + " x" + dimsText(xd) + (last ? " NHWC" : "") + " (" + r.trace() + ")");
        const float epsilon = 1e-3f;
        fe::graph::Graph g;
        configure<T>(g);
        auto x = g.tensor(TensorAttributes().set_name("x").set_dim(xd).set_stride(layout(xd, last)));
        auto m = g.tensor(TensorAttributes().set_name("mean").set_dim(cd));
        auto v = g.tensor(TensorAttributes().set_name("variance").set_dim(cd));
        auto s = g.tensor(TensorAttributes().set_name("scale").set_dim(cd));
        auto b = g.tensor(TensorAttributes().set_name("bias").set_dim(cd));
        auto eps = g.tensor(TensorAttributes().set_name("epsilon").set_value(epsilon));
        auto bn = g.batchnorm_inference_variance_ext(
            x, m, v, s, b, fe::graph::BatchnormInferenceAttributes().set_epsilon(eps));
        auto y = g.pointwise(bn, fe::graph::PointwiseAttributes().set_mode(fe::PointwiseMode::RELU_FWD));
        y->set_output(true).set_name("y").set_dim(xd).set_stride(layout(xd, last));
        ASSERT_NO_FATAL_FAILURE(this->buildOnDnnl(g, this->handle()));
        Tensor<T> xt(xd, layout(xd, last)), mt(cd), vt(cd), ivt(cd), st(cd), bt(cd), yt(xd, layout(xd, last)),
            yRef(xd);
        xt.fillUniform(-2.f, 2.f, r.seed(1));
        mt.fillUniform(-0.5f, 0.5f, r.seed(2));
        vt.fillUniform(0.5f, 2.f, r.seed(3));
        st.fillUniform(0.5f, 1.5f, r.seed(4));
        bt.fillUniform(-1.f, 1.f, r.seed(5));
        // The reference takes the inverse standard deviation.
        tu::forEachIndex(cd, [&](const std::vector<int64_t>& idx) {
            ivt.at(idx) = T(1.f / std::sqrt(static_cast<float>(vt.at(idx)) + epsilon));
        });
        std::vector<uint8_t> ws(static_cast<size_t>(g.get_workspace_size()));
        FE_ASSERT_OK(g.execute(this->handle(),
                               {{x, xt.data()}, {m, mt.data()}, {v, vt.data()}, {s, st.data()}, {b, bt.data()},
                                {y, yt.data()}},
                               ws.data()));
        tu::CpuFpReferenceBatchnorm::inference<T, T, T>(xt.view(), mt.view(), ivt.view(), st.view(), bt.view(),
                                                        yRef.view());
        tu::forEachIndex(xd, [&](const std::vector<int64_t>& idx) {
            if(static_cast<float>(yRef.at(idx)) < 0.f)
            {
                yRef.at(idx) = T(0.f);
            }
        });
        const double tol = tu::batchnorm::getToleranceInference<T>();
        // The inverse standard deviation rounded to T once more on the reference's side.
        expectClose(yRef, yt, 2 * tol, std::max(2 * tol, 2 * outputRtol<T>()), "batchnorm inference + RELU y");
    }
}

TYPED_TEST(DnnlGraphTest, BatchnormTrainingMatchesReference)
{
    using T = TypeParam;
    DNNL_SKIP_IF_NO_BF16(T);
    for(int i = 0; i < 6; ++i)
    {
        CaseRng r(800 + i);
        auto xd = randomBatchnormShape(r);
        xd[0] = std::max<int64_t>(xd[0], 2);
        const auto cd = perChannel(xd);
        const bool last = r.coin();
        const float epsilon = 1e-5f, momentum = 0.125f;
        SCOPED_TRACE(std::string(typeName<T>()) + " x" + dimsText(xd) + (last ? " NHWC" : "") + " (" + r.trace() + ")");
        fe::graph::Graph g;
        configure<T>(g);
        auto x = g.tensor(TensorAttributes().set_name("x").set_dim(xd).set_stride(layout(xd, last)));
        auto s = g.tensor(TensorAttributes().set_name("scale").set_dim(cd));
        auto b = g.tensor(TensorAttributes().set_name("bias").set_dim(cd));
        auto pm = g.tensor(TensorAttributes().set_name("prev_mean").set_dim(cd));
        auto pv = g.tensor(TensorAttributes().set_name("prev_var").set_dim(cd));
        auto eps = g.tensor(TensorAttributes().set_name("epsilon").set_value(epsilon));
        auto mom = g.tensor(TensorAttributes().set_name("momentum").set_value(momentum));
        auto outs = g.batchnorm(
            x, s, b, fe::graph::BatchnormAttributes().set_epsilon(eps).set_previous_running_stats(pm, pv, mom));
        outs[0]->set_dim(xd).set_stride(layout(xd, last));
        for(const auto& t : outs)
        {
            t->set_output(true);
        }
        ASSERT_NO_FATAL_FAILURE(this->buildOnDnnl(g, this->handle()));
        Tensor<T> xt(xd, layout(xd, last)), st(cd), bt(cd), pmt(cd), pvt(cd), yt(xd, layout(xd, last)), mt(cd), ivt(cd),
            nmt(cd), nvt(cd);
        Tensor<T> yRef(xd), mRef(cd), ivRef(cd), nmRef(cd), nvRef(cd);
        xt.fillUniform(-2.f, 2.f, r.seed(1));
        st.fillUniform(0.5f, 1.5f, r.seed(2));
        bt.fillUniform(-1.f, 1.f, r.seed(3));
        pmt.fillUniform(-0.5f, 0.5f, r.seed(4));
        pvt.fillUniform(0.5f, 1.5f, r.seed(5));
        std::vector<uint8_t> ws(static_cast<size_t>(g.get_workspace_size()));
        FE_ASSERT_OK(g.execute(this->handle(),
                               {{x, xt.data()}, {s, st.data()}, {b, bt.data()}, {pm, pmt.data()}, {pv, pvt.data()},
                                {outs[0], yt.data()}, {outs[1], mt.data()}, {outs[2], ivt.data()},
                                {outs[3], nmt.data()}, {outs[4], nvt.data()}},
                               ws.data()));
        tu::CpuFpReferenceBatchnorm::training<T, T, T>(xt.view(), st.view(), bt.view(), epsilon, yRef.view(),
                                                       mRef.view(), ivRef.view(), pmt.view(), pvt.view(), momentum,
                                                       nmRef.view(), nvRef.view());
        const double tol = tu::batchnorm::getToleranceTraining<T>();
        const double rtol = std::max(tol, outputRtol<T>());
        expectClose(yRef, yt, tol, rtol, "batchnorm training y");
        expectClose(mRef, mt, tol, rtol, "batchnorm training mean");
        expectClose(ivRef, ivt, tol, rtol, "batchnorm training inv_variance");
        expectClose(nmRef, nmt, tol, rtol, "batchnorm training next_running_mean");
        expectClose(nvRef, nvt, tol, rtol, "batchnorm training next_running_variance");
    }
}

TYPED_TEST(DnnlGraphTest, BatchnormBackwardMatchesReference)
{
    using T = TypeParam;
    DNNL_SKIP_IF_NO_BF16(T);
    for(int i = 0; i < 6; ++i)
    {
        CaseRng r(900 + i);
        auto xd = randomBatchnormShape(r);
        const auto cd = perChannel(xd);
        const bool last = r.coin();
        SCOPED_TRACE(std::string(typeName<T>()) + " x" + dimsText(xd) + (last ? " NHWC" : "") + " (" + r.trace() + ")");
        fe::graph::Graph g;
        configure<T>(g);
        auto dy = g.tensor(TensorAttributes().set_name("dy").set_dim(xd).set_stride(layout(xd, last)));
        auto x = g.tensor(TensorAttributes().set_name("x").set_dim(xd).set_stride(layout(xd, last)));
        auto s = g.tensor(TensorAttributes().set_name("scale").set_dim(cd));
        auto m = g.tensor(TensorAttributes().set_name("mean").set_dim(cd));
        auto iv = g.tensor(TensorAttributes().set_name("inv_variance").set_dim(cd));
        auto outs = g.batchnorm_backward(
            dy, x, s, fe::graph::BatchnormBackwardAttributes().set_saved_mean_and_inv_variance(m, iv));
        outs[0]->set_dim(xd).set_stride(layout(xd, last));
        for(const auto& t : outs)
        {
            t->set_output(true);
        }
        ASSERT_NO_FATAL_FAILURE(this->buildOnDnnl(g, this->handle()));
        Tensor<T> dyt(xd, layout(xd, last)), xt(xd, layout(xd, last)), st(cd), dxt(xd, layout(xd, last)), dst(cd),
            dbt(cd);
        xt.fillUniform(-2.f, 2.f, r.seed(1));
        dyt.fillUniform(-1.f, 1.f, r.seed(2));
        st.fillUniform(0.5f, 1.5f, r.seed(3));
        // Saved statistics of x itself, as a training forward would have produced them.
        const auto stats = tu::CpuFpReferenceBatchnorm::statistics<T>(xt.view(), 1e-5);
        Tensor<T> mt(cd), ivt(cd);
        for(int64_t c = 0; c < xd[1]; ++c)
        {
            mt.data()[c] = T(static_cast<float>(stats.mean[static_cast<size_t>(c)]));
            ivt.data()[c] = T(static_cast<float>(stats.invVariance[static_cast<size_t>(c)]));
        }
        std::vector<uint8_t> ws(static_cast<size_t>(g.get_workspace_size()));
        FE_ASSERT_OK(g.execute(this->handle(),
                               {{dy, dyt.data()}, {x, xt.data()}, {s, st.data()}, {m, mt.data()}, {iv, ivt.data()},
                                {outs[0], dxt.data()}, {outs[1], dst.data()}, {outs[2], dbt.data()}},
                               ws.data()));
        Tensor<T> dxRef(xd), dsRef(cd), dbRef(cd);
        tu::CpuFpReferenceBatchnorm::backward<T, T, T>(dyt.view(), xt.view(), mt.view(), ivt.view(), st.view(),
                                                       dxRef.view(), dsRef.view(), dbRef.view());
        const double count = static_cast<double>(tu::Tensor<T>(xd).elementCount() / xd[1]);
        const double tol = tu::batchnorm::getToleranceBackward<T>();
        const double rtol = std::max(tol, outputRtol<T>());
        expectClose(dxRef, dxt, tol, rtol, "batchnorm backward dx");
        // dscale and dbias are sums over N*spatial values: the bound grows with the count.
        expectClose(dsRef, dst, tol * std::sqrt(count), rtol, "batchnorm backward dscale");
        expectClose(dbRef, dbt, tol * std::sqrt(count), rtol, "batchnorm backward dbias");
    }
}

} // namespace
} // namespace dnnl_provider_tests
