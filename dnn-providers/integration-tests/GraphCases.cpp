#include "GraphCases.hpp"

#include <hipdnn_test_sdk/utilities/CpuFpReferenceBatchnorm.hpp>
#include <hipdnn_test_sdk/utilities/CpuFpReferenceConvolution.hpp>
#include <hipdnn_test_sdk/utilities/CpuFpReferenceReduction.hpp>
#include <hipdnn_test_sdk/utilities/CpuFpReferenceResample.hpp>
#include <hipdnn_test_sdk/utilities/CpuFpReferenceValidation.hpp>
#include <hipdnn_test_sdk/utilities/Seeds.hpp>
#include <hipdnn_test_sdk/utilities/Tensor.hpp>
#include <hipdnn_test_sdk/utilities/TestTolerances.hpp>
#include <hipdnn_test_sdk/utilities/pointwise/CpuReferencePointwise.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <numeric>
#include <tuple>
#include <utility>
#include <random>

namespace integration_tests
{

std::string GraphCase::testName() const
{
    std::string name = kind;
    std::replace(name.begin(), name.end(), '.', '_');
    return name + "__" + dtypeName(dtype);
}

namespace
{

namespace fe = hipdnn_frontend;
namespace tu = hipdnn_test_sdk::utilities;
using fe::graph::TensorAttributes;
using fe::graph::TensorPtr;
using tu::Tensor;
using half = hipdnn_data_sdk::types::half;
using bf16 = hipdnn_data_sdk::types::bfloat16;
using WireMode = hipdnn_data_sdk::data_objects::PointwiseMode;
using VariantPack = std::unordered_map<TensorPtr, void*>;

// ------------------------------------------------------------------------------------------------
// Types, tolerances, random geometry

template <typename T>
fe::DataType feType()
{
    if constexpr(std::is_same_v<T, bf16>)
    {
        return fe::DataType::BFLOAT16;
    }
    else if constexpr(std::is_same_v<T, half>)
    {
        return fe::DataType::HALF;
    }
    return fe::DataType::FLOAT;
}

/// Relative error of one rounding of a result to T (its unit roundoff, doubled for margin).
template <typename T>
double outputRtol()
{
    return std::is_same_v<T, bf16> ? 1.0 / 128 : (std::is_same_v<T, half> ? 1.0 / 1024 : 1e-5);
}

template <typename T>
void configure(fe::graph::Graph& g)
{
    g.set_io_data_type(feType<T>())
        .set_intermediate_data_type(fe::DataType::FLOAT)
        .set_compute_data_type(fe::DataType::FLOAT);
}

template <typename T>
void expectClose(const Tensor<T>& reference, const Tensor<T>& got, double atol, double rtol, const std::string& what)
{
    std::string why;
    tu::CpuFpReferenceValidation<T> validation(atol, rtol);
    EXPECT_TRUE(validation.allClose(reference, got, &why))
        << what << " (atol " << atol << ", rtol " << rtol << "): " << why;
}

template <typename T>
double maxAbs(const Tensor<T>& t)
{
    double m = 0.0;
    tu::forEachIndex(t.dims(), [&](const std::vector<int64_t>& i) { m = std::max(m, std::fabs(double(float(t.at(i))))); });
    return m;
}

int64_t product(const std::vector<int64_t>& v, size_t from)
{
    return std::accumulate(v.begin() + static_cast<std::ptrdiff_t>(from), v.end(), int64_t{1},
                           std::multiplies<int64_t>());
}

std::string dimsText(const std::vector<int64_t>& d)
{
    std::string s = "[";
    for(size_t i = 0; i < d.size(); ++i)
    {
        s += (i ? "," : "") + std::to_string(d[i]);
    }
    return s + "]";
}

std::vector<int64_t> layout(const std::vector<int64_t>& dims, bool channelsLast)
{
    return channelsLast ? hipdnn_data_sdk::utilities::channelsLastStrides(dims)
                        : hipdnn_data_sdk::utilities::packedStrides(dims);
}

/// Stable 32-bit hash of a case (kind, dtype, sample): salts the global seed.
uint32_t caseSalt(const std::string& kind, DType dtype, int sample)
{
    uint32_t h = 2166136261u;
    for(char c : kind + "/" + dtypeName(dtype) + "/" + std::to_string(sample))
    {
        h = (h ^ static_cast<uint8_t>(c)) * 16777619u;
    }
    return h;
}

/// Seeded generator of one sample; `trace()` names the seeds to reproduce it.
class CaseRng
{
public:
    explicit CaseRng(uint32_t salt)
        : _seed(tu::deriveSeed(salt))
        , _gen(_seed)
    {
    }
    int64_t pick(int64_t lo, int64_t hi) { return std::uniform_int_distribution<int64_t>(lo, hi)(_gen); }
    bool coin() { return pick(0, 1) == 1; }
    uint32_t seed(uint32_t k) const { return _seed * 2654435761u + k; }
    std::string trace() const
    {
        return "HIPDNN_GLOBAL_TEST_SEED=" + std::to_string(tu::getGlobalTestSeed()) + ", sample seed "
               + std::to_string(_seed);
    }

private:
    uint32_t _seed;
    std::mt19937 _gen;
};

/// The convolution geometries, one kind each; Mixed draws every feature at random.
enum class Geometry
{
    D2,
    D3,
    Grouped,
    Depthwise,
    Dilated,
    Strided,
    AsymPad,
    ChannelsLast,
    Mixed
};

struct Geo
{
    Geometry geometry;
    const char* name;
};
constexpr Geo kGeometries[] = {{Geometry::D2, "2d"},           {Geometry::D3, "3d"},
                               {Geometry::Grouped, "grouped"}, {Geometry::Depthwise, "depthwise"},
                               {Geometry::Dilated, "dilated"}, {Geometry::Strided, "strided"},
                               {Geometry::AsymPad, "asym_pad"}, {Geometry::ChannelsLast, "nhwc"},
                               {Geometry::Mixed, "mixed"}};

struct ConvShape
{
    std::vector<int64_t> x, w, y;
    tu::ConvolutionParams p;
    bool xLast = false, wLast = false, yLast = false;
    int64_t groups = 1;
    std::string text;
};

/// A small random convolution with the geometry's feature (<= ~5 MFLOP).
ConvShape randomConv(CaseRng& r, Geometry geometry)
{
    ConvShape c;
    const bool mixed = geometry == Geometry::Mixed;
    const size_t spatial = geometry == Geometry::D3 || (mixed && r.coin()) ? 3 : 2;
    int64_t grouping = 0; // 0 plain, 1 grouped, 2 depthwise
    if(geometry == Geometry::Grouped)
    {
        grouping = 1;
    }
    else if(geometry == Geometry::Depthwise)
    {
        grouping = 2;
    }
    else if(mixed)
    {
        grouping = r.pick(0, 2);
    }
    const int64_t n = r.pick(1, 2);
    const int64_t cPerGroup = grouping == 2 ? 1 : (grouping == 1 ? r.pick(2, 4) : r.pick(1, 8));
    c.groups = grouping == 0 ? 1 : (grouping == 1 ? r.pick(2, 3) : r.pick(2, 8));
    const int64_t kPerGroup = grouping == 2 ? r.pick(1, 2) : (grouping == 1 ? r.pick(1, 4) : r.pick(1, 8));
    c.x = {n, c.groups * cPerGroup};
    c.w = {c.groups * kPerGroup, cPerGroup};
    c.y = {n, c.groups * kPerGroup};
    for(size_t s = 0; s < spatial; ++s)
    {
        const bool featured = s == 0; // the first spatial dim always shows the kind's feature
        int64_t f = r.pick(1, 3);
        int64_t dil = 1, stride = 1;
        if(geometry == Geometry::Dilated)
        {
            f = featured ? r.pick(2, 3) : f;
            dil = featured ? 2 : r.pick(1, 2);
        }
        else if(mixed)
        {
            dil = r.pick(1, 2);
        }
        if(geometry == Geometry::Strided)
        {
            stride = featured ? 2 : r.pick(1, 2);
        }
        else if(mixed)
        {
            stride = r.pick(1, 2);
        }
        int64_t pre = r.pick(0, f - 1), post = pre;
        if(geometry == Geometry::AsymPad)
        {
            f = featured ? r.pick(2, 3) : f;
            pre = r.pick(0, f - 1);
            post = featured ? (pre + r.pick(1, f - 1)) % f : pre;
        }
        else if(mixed)
        {
            post = r.pick(0, f - 1);
        }
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
    if(geometry == Geometry::ChannelsLast)
    {
        c.xLast = c.wLast = c.yLast = true;
    }
    else if(mixed)
    {
        c.xLast = r.coin();
        c.wLast = r.coin();
        c.yLast = r.coin();
    }
    c.text = std::to_string(spatial) + "-D x" + dimsText(c.x) + " w" + dimsText(c.w) + " y" + dimsText(c.y)
             + " groups " + std::to_string(c.groups) + " stride" + dimsText(c.p.stride) + " dilation"
             + dimsText(c.p.dilation) + " pre" + dimsText(c.p.prePadding) + " post" + dimsText(c.p.postPadding)
             + (c.xLast ? " x:channels-last" : "") + (c.wLast ? " w:channels-last" : "")
             + (c.yLast ? " y:channels-last" : "");
    return c;
}

template <typename A>
A convAttributes(const ConvShape& c)
{
    return A().set_pre_padding(c.p.prePadding).set_post_padding(c.p.postPadding).set_stride(c.p.stride).set_dilation(
        c.p.dilation);
}

// ------------------------------------------------------------------------------------------------
// Convolutions

enum class ConvOp
{
    Fprop,
    Dgrad,
    Wgrad
};

template <typename T>
class ConvSample : public CaseSample
{
public:
    ConvSample(ConvOp op, Geometry geometry, uint32_t salt)
        : _op(op)
        , _r(salt)
        , _c(randomConv(_r, geometry))
    {
        _text = _c.text + " (" + _r.trace() + ")";
        configure<T>(_graph);
        const auto& c = _c;
        _xt = Tensor<T>(c.x, layout(c.x, c.xLast));
        _wt = Tensor<T>(c.w, layout(c.w, c.wLast));
        _yt = Tensor<T>(c.y, layout(c.y, c.yLast));
        auto xa = TensorAttributes().set_name("x").set_dim(c.x).set_stride(layout(c.x, c.xLast));
        auto wa = TensorAttributes().set_name("w").set_dim(c.w).set_stride(layout(c.w, c.wLast));
        auto ya = TensorAttributes().set_name("y").set_dim(c.y).set_stride(layout(c.y, c.yLast));
        if(op == ConvOp::Fprop)
        {
            _x = _graph.tensor(xa);
            _w = _graph.tensor(wa);
            _y = _graph.conv_fprop(_x, _w, convAttributes<fe::graph::ConvFpropAttributes>(c));
            _y->set_output(true).set_name("y").set_dim(c.y).set_stride(layout(c.y, c.yLast));
            _out = &_yt;
        }
        else if(op == ConvOp::Dgrad)
        {
            _y = _graph.tensor(ya.set_name("dy"));
            _w = _graph.tensor(wa);
            _x = _graph.conv_dgrad(_y, _w, convAttributes<fe::graph::ConvDgradAttributes>(c));
            _x->set_output(true).set_name("dx").set_dim(c.x).set_stride(layout(c.x, c.xLast));
            _out = &_xt;
        }
        else
        {
            _x = _graph.tensor(xa);
            _y = _graph.tensor(ya.set_name("dy"));
            _w = _graph.conv_wgrad(_y, _x, convAttributes<fe::graph::ConvWgradAttributes>(c));
            _w->set_output(true).set_name("dw").set_dim(c.w).set_stride(layout(c.w, c.wLast));
            _out = &_wt;
        }
        _xt.fillUniform(-1.f, 1.f, _r.seed(1));
        _wt.fillUniform(-1.f, 1.f, _r.seed(2));
        _yt.fillUniform(-1.f, 1.f, _r.seed(3));
        _out->fill(7.f); // a poisoned output: every element must be written
    }

    VariantPack variantPack() override { return {{_x, _xt.data()}, {_w, _wt.data()}, {_y, _yt.data()}}; }

    void check() override
    {
        const auto& c = _c;
        if(_op == ConvOp::Fprop)
        {
            Tensor<T> ref(c.y);
            tu::CpuFpReferenceConvolution::fprop<T, T, T>(_xt.view(), _wt.view(), ref.view(), c.p);
            const double atol
                = tu::calculateConvFpropTolerance<T, T>(maxAbs(_xt), maxAbs(_wt), c.w[1] * product(c.w, 2));
            expectClose(ref, _yt, atol, outputRtol<T>(), "conv_fprop y");
        }
        else if(_op == ConvOp::Dgrad)
        {
            Tensor<T> ref(c.x);
            tu::CpuFpReferenceConvolution::dgrad<T, T, T>(_yt.view(), _wt.view(), ref.view(), c.p);
            const double atol = tu::calculateConvDgradTolerance<T, T>(maxAbs(_yt), maxAbs(_wt),
                                                                      c.w[0] / c.groups * product(c.w, 2));
            expectClose(ref, _xt, atol, outputRtol<T>(), "conv_dgrad dx");
        }
        else
        {
            Tensor<T> ref(c.w);
            tu::CpuFpReferenceConvolution::wgrad<T, T, T>(_xt.view(), _yt.view(), ref.view(), c.p);
            const double atol
                = tu::calculateConvWrwTolerance<T, T>(maxAbs(_xt), maxAbs(_yt), c.x[0] * product(c.y, 2));
            expectClose(ref, _wt, atol, outputRtol<T>(), "conv_wgrad dw");
        }
    }

private:
    ConvOp _op;
    CaseRng _r;
    ConvShape _c;
    TensorPtr _x, _w, _y;
    Tensor<T> _xt, _wt, _yt;
    Tensor<T>* _out = nullptr;
};

// ------------------------------------------------------------------------------------------------
// Convolutions with MIOpen's output blending (the graphs MIOpen Public emits for alpha / beta):
// conv -> t; t = MUL(t, alpha); out = ADD(t, MUL(prior, beta)), where `prior` is the output's own
// memory given again as an input (the engine must read it before writing the output).

template <typename T>
class ConvBlendSample : public CaseSample
{
public:
    ConvBlendSample(ConvOp op, uint32_t salt)
        : _op(op)
        , _r(salt)
        , _c(randomConv(_r, _r.coin() ? Geometry::Strided : Geometry::Grouped))
    {
        const double alphas[] = {0.5, -1.25, 2.0}, betas[] = {0.75, -0.5, 1.0};
        _alpha = alphas[_r.pick(0, 2)];
        _beta = betas[_r.pick(0, 2)];
        _text = _c.text + " alpha " + std::to_string(_alpha) + " beta " + std::to_string(_beta) + " (" + _r.trace() + ")";
        configure<T>(_graph);
        const auto& c = _c;
        _xt = Tensor<T>(c.x, layout(c.x, c.xLast));
        _wt = Tensor<T>(c.w, layout(c.w, c.wLast));
        _yt = Tensor<T>(c.y, layout(c.y, c.yLast));
        auto attrs = [](const char* name, const std::vector<int64_t>& d, bool last) {
            return TensorAttributes().set_name(name).set_dim(d).set_stride(layout(d, last));
        };
        TensorPtr t;
        const std::vector<int64_t>* outDims = nullptr;
        bool outLast = false;
        if(op == ConvOp::Fprop)
        {
            _x = _graph.tensor(attrs("x", c.x, c.xLast));
            _w = _graph.tensor(attrs("w", c.w, c.wLast));
            t = _graph.conv_fprop(_x, _w, convAttributes<fe::graph::ConvFpropAttributes>(c));
            _out = &_yt;
            outDims = &c.y;
            outLast = c.yLast;
        }
        else if(op == ConvOp::Dgrad)
        {
            _y = _graph.tensor(attrs("dy", c.y, c.yLast));
            _w = _graph.tensor(attrs("w", c.w, c.wLast));
            t = _graph.conv_dgrad(_y, _w, convAttributes<fe::graph::ConvDgradAttributes>(c));
            _out = &_xt;
            outDims = &c.x;
            outLast = c.xLast;
        }
        else
        {
            _x = _graph.tensor(attrs("x", c.x, c.xLast));
            _y = _graph.tensor(attrs("dy", c.y, c.yLast));
            t = _graph.conv_wgrad(_y, _x, convAttributes<fe::graph::ConvWgradAttributes>(c));
            _out = &_wt;
            outDims = &c.w;
            outLast = c.wLast;
        }
        // dgrad / wgrad cannot infer a virtual output's dims: the convolution's result has the output's.
        t->set_dim(*outDims).set_stride(layout(*outDims, outLast));
        const std::vector<int64_t> ones(outDims->size(), 1);
        auto scalar = [&](const char* name, double v) {
            return _graph.tensor(TensorAttributes().set_name(name).set_dim(ones).set_stride(ones).set_value(
                static_cast<float>(v)));
        };
        auto pw = [](fe::PointwiseMode m) { return fe::graph::PointwiseAttributes().set_mode(m); };
        t = _graph.pointwise(t, scalar("alpha", _alpha), pw(fe::PointwiseMode::MUL));
        _prior = _graph.tensor(attrs("prior", *outDims, outLast));
        auto scaled = _graph.pointwise(_prior, scalar("beta", _beta), pw(fe::PointwiseMode::MUL));
        _result = _graph.pointwise(t, scaled, pw(fe::PointwiseMode::ADD));
        _result->set_output(true).set_name("out").set_dim(*outDims).set_stride(layout(*outDims, outLast));
        _xt.fillUniform(-1.f, 1.f, _r.seed(1));
        _wt.fillUniform(-1.f, 1.f, _r.seed(2));
        _yt.fillUniform(-1.f, 1.f, _r.seed(3));
        _priorCopy = *_out; // the output's prior contents, which the graph blends in
    }

    VariantPack variantPack() override
    {
        VariantPack pack{{_prior, _out->data()}, {_result, _out->data()}};
        if(_x != nullptr && _out != &_xt)
        {
            pack[_x] = _xt.data();
        }
        if(_w != nullptr && _out != &_wt)
        {
            pack[_w] = _wt.data();
        }
        if(_y != nullptr)
        {
            pack[_y] = _yt.data();
        }
        return pack;
    }

    void check() override
    {
        const auto& c = _c;
        Tensor<T> ref(_out->dims());
        double atol = 0.0;
        if(_op == ConvOp::Fprop)
        {
            tu::CpuFpReferenceConvolution::fprop<T, T, T>(_xt.view(), _wt.view(), ref.view(), c.p);
            atol = tu::calculateConvFpropTolerance<T, T>(maxAbs(_xt), maxAbs(_wt), c.w[1] * product(c.w, 2));
        }
        else if(_op == ConvOp::Dgrad)
        {
            tu::CpuFpReferenceConvolution::dgrad<T, T, T>(_yt.view(), _wt.view(), ref.view(), c.p);
            atol = tu::calculateConvDgradTolerance<T, T>(maxAbs(_yt), maxAbs(_wt), c.w[0] / c.groups * product(c.w, 2));
        }
        else
        {
            tu::CpuFpReferenceConvolution::wgrad<T, T, T>(_xt.view(), _yt.view(), ref.view(), c.p);
            atol = tu::calculateConvWrwTolerance<T, T>(maxAbs(_xt), maxAbs(_yt), c.x[0] * product(c.y, 2));
        }
        tu::forEachIndex(ref.dims(), [&](const std::vector<int64_t>& i) {
            ref.at(i) = static_cast<T>(static_cast<float>(_alpha * double(float(ref.at(i)))
                                                          + _beta * double(float(_priorCopy.at(i)))));
        });
        // The blend rounds the conv once more (to T) and adds beta * prior.
        atol = std::fabs(_alpha) * atol + 2.0 * outputRtol<T>() * (std::fabs(_alpha) + std::fabs(_beta)) * (1.0 + maxAbs(ref));
        expectClose(ref, *_out, atol, outputRtol<T>(), "blended convolution output");
    }

private:
    ConvOp _op;
    CaseRng _r;
    ConvShape _c;
    double _alpha = 1.0, _beta = 0.0;
    TensorPtr _x, _w, _y, _prior, _result;
    Tensor<T> _xt, _wt, _yt, _priorCopy;
    Tensor<T>* _out = nullptr;
};

// ------------------------------------------------------------------------------------------------
// Unary pointwise modes: standalone, and after a convolution (+ bias)

/// A unary mode with its parameters, its input domain and its Lipschitz bound there.
struct Unary
{
    std::string name;
    fe::PointwiseMode mode;
    tu::PointwiseParams params;
    fe::graph::PointwiseAttributes attributes;
    bool positiveDomain = false; ///< defined (or well conditioned) only for inputs >= 0.25
    double lipschitz = 1.0;      ///< on [-2, 2] (or [0.5, 2] for a positive domain)
    bool continuous = true;      ///< false: only exact inputs make sense (no fused case)
    float standaloneLo = -3.f, standaloneHi = 3.f;
};

std::vector<Unary> unaryModes()
{
    using M = fe::PointwiseMode;
    auto make = [](const std::string& name, M mode, double lipschitz) {
        Unary u{name, mode, {}, fe::graph::PointwiseAttributes().set_mode(mode), false, lipschitz, true, -3.f, 3.f};
        return u;
    };
    std::vector<Unary> list = {make("relu", M::RELU_FWD, 1.0),
                               make("tanh", M::TANH_FWD, 1.0),
                               make("sigmoid", M::SIGMOID_FWD, 0.25),
                               make("elu", M::ELU_FWD, 1.0),
                               make("gelu", M::GELU_FWD, 1.13),
                               make("gelu_tanh", M::GELU_APPROX_TANH_FWD, 1.13),
                               make("swish", M::SWISH_FWD, 1.1),
                               make("softplus", M::SOFTPLUS_FWD, 1.0),
                               make("abs", M::ABS, 1.0),
                               make("identity", M::IDENTITY, 1.0),
                               make("neg", M::NEG, 1.0),
                               make("exp", M::EXP, 7.39),
                               make("erf", M::ERF, 1.13),
                               make("sin", M::SIN, 1.0)};
    Unary leaky = make("leaky_relu", M::RELU_FWD, 1.0);
    leaky.attributes.set_relu_lower_clip_slope(0.1f);
    leaky.params.reluLowerClipSlope = 0.1;
    Unary clipped = make("clipped_relu", M::RELU_FWD, 1.0);
    clipped.attributes.set_relu_upper_clip(0.5f);
    clipped.params.reluUpperClip = 0.5;
    Unary eluAlpha = make("elu_alpha", M::ELU_FWD, 1.0);
    eluAlpha.attributes.set_elu_alpha(0.5f);
    eluAlpha.params.eluAlpha = 0.5;
    Unary swishBeta = make("swish_beta", M::SWISH_FWD, 1.2);
    swishBeta.attributes.set_swish_beta(1.5f);
    swishBeta.params.swishBeta = 1.5;
    list.insert(list.end(), {leaky, clipped, eluAlpha, swishBeta});
    for(auto [name, mode, lipschitz] : {std::tuple{"log", M::LOG, 2.0}, {"sqrt", M::SQRT, 0.71},
                                        {"reciprocal", M::RECIPROCAL, 4.0}, {"rsqrt", M::RSQRT, 1.42}})
    {
        Unary u = make(name, mode, lipschitz);
        u.positiveDomain = true;
        u.standaloneLo = 0.25f;
        list.push_back(u);
    }
    for(auto [name, mode] : {std::pair{"ceil", M::CEIL}, {"floor", M::FLOOR}})
    {
        Unary u = make(name, mode, 0.0);
        u.continuous = false;
        list.push_back(u);
    }
    Unary tan = make("tan", M::TAN, 0.0);
    tan.continuous = false; // poles: standalone on [-1.2, 1.2] only
    tan.standaloneLo = -1.2f;
    tan.standaloneHi = 1.2f;
    list.push_back(tan);
    return list;
}

template <typename T>
class PointwiseSample : public CaseSample
{
public:
    PointwiseSample(const Unary& u, uint32_t salt)
        : _u(u)
        , _r(salt)
    {
        std::vector<int64_t> dims = {_r.pick(1, 3), _r.pick(1, 17), _r.pick(1, 9), _r.pick(1, 9)};
        if(_r.coin())
        {
            dims.push_back(_r.pick(1, 5));
        }
        _text = u.name + " " + dimsText(dims) + " (" + _r.trace() + ")";
        configure<T>(_graph);
        _in = _graph.tensor(TensorAttributes().set_name("in").set_dim(dims));
        _out = _graph.pointwise(_in, u.attributes);
        _out->set_output(true).set_name("out").set_dim(dims);
        _it = Tensor<T>(dims);
        _ot = Tensor<T>(dims);
        _it.fillUniform(u.standaloneLo, u.standaloneHi, _r.seed(1));
        _ot.fill(7.f);
    }

    VariantPack variantPack() override { return {{_in, _it.data()}, {_out, _ot.data()}}; }

    void check() override
    {
        Tensor<T> ref(_ot.dims());
        tu::CpuReferencePointwise::compute<T, T>(hipdnn_frontend::detail::toWire(_u.mode), ref.view(), _it.view(),
                                                 nullptr, nullptr, _u.params);
        const double tol = tu::pointwise::getTolerance<T>();
        expectClose(ref, _ot, tol, std::max(tol, outputRtol<T>()), "pointwise " + _u.name);
    }

private:
    Unary _u;
    CaseRng _r;
    TensorPtr _in, _out;
    Tensor<T> _it, _ot;
};

/// One activation backward node mode_BWD(dy, x) (MIOpen's activation backward with alpha 1 and
/// beta 0 as libMIOpen.so forwards it), packed tensors; x in [-3, 3].
template <typename T>
class ActivationBwdSample : public CaseSample
{
public:
    ActivationBwdSample(const Unary& u, uint32_t salt)
        : _u(u)
        , _r(salt)
    {
        std::vector<int64_t> dims = {_r.pick(1, 3), _r.pick(1, 17), _r.pick(1, 9), _r.pick(1, 9)};
        _text = u.name + "_bwd " + dimsText(dims) + " (" + _r.trace() + ")";
        configure<T>(_graph);
        _dy = _graph.tensor(TensorAttributes().set_name("dy").set_dim(dims));
        _x = _graph.tensor(TensorAttributes().set_name("x").set_dim(dims));
        _dx = _graph.pointwise(_dy, _x, u.attributes);
        _dx->set_output(true).set_name("dx").set_dim(dims);
        _dyt = Tensor<T>(dims);
        _xt = Tensor<T>(dims);
        _dxt = Tensor<T>(dims);
        _dyt.fillUniform(-2.f, 2.f, _r.seed(1));
        _xt.fillUniform(-3.f, 3.f, _r.seed(2));
        _dxt.fill(7.f);
    }

    VariantPack variantPack() override { return {{_dy, _dyt.data()}, {_x, _xt.data()}, {_dx, _dxt.data()}}; }

    void check() override
    {
        Tensor<T> ref(_dxt.dims());
        const tu::TensorView<const T> xv = std::as_const(_xt).view();
        tu::CpuReferencePointwise::compute<T, T>(hipdnn_frontend::detail::toWire(_u.mode), ref.view(),
                                                 std::as_const(_dyt).view(), &xv, nullptr, _u.params);
        const double tol = tu::pointwise::getTolerance<T>();
        expectClose(ref, _dxt, tol, std::max(tol, outputRtol<T>()), "activation backward " + _u.name);
    }

private:
    Unary _u;
    CaseRng _r;
    TensorPtr _dy, _x, _dx;
    Tensor<T> _dyt, _xt, _dxt;
};

/// The pointwise graphs libMIOpen.so's forwarding builds for MIOpen's activation and tensor-op
/// calls (projects/miopen/wrapper/src/forwarding_pointwise.cpp): a core node, pass-by-value scalar
/// MUL nodes for alpha, and ADD(., MUL(prior, beta)) where `prior` is the output buffer itself
/// (bound under its own uid: engines must read it before writing the output). Packed tensors;
/// op_tensor's B is per channel ([1,C,1,1], broadcast); in_place binds A to the output buffer too,
/// scale_tensor binds its input and output to one buffer.
enum class BlendKind
{
    ActFwd,     // out = alpha * leaky_relu(x) + beta * prior
    ActBwd,     // out = alpha * relu_bwd(dy, x) + beta * prior (leaky slope)
    SigmoidBwd, // out = alpha * sigmoid_bwd(dy, x) + beta * prior
    Op,         // out = op(alpha1 A, alpha2 B) + beta * prior
    OpUnit,     // out = op(A, B): one node
    OpInPlace,  // Op with A the output buffer
    Scale,      // y = MUL(y, alpha) in place
};

template <typename T>
class BlendSample : public CaseSample
{
public:
    BlendSample(BlendKind k, fe::PointwiseMode op, uint32_t salt)
        : _k(k)
        , _op(op)
        , _r(salt)
    {
        using fe::graph::PointwiseAttributes;
        _dims = {_r.pick(1, 3), _r.pick(1, 9), _r.pick(1, 7), _r.pick(1, 7)};
        const bool unit = k == BlendKind::OpUnit;
        _alpha = unit ? 1.f : (_r.coin() ? 0.5f : -1.25f);
        _alpha2 = unit ? 1.f : (_r.coin() ? 2.f : -0.75f);
        _beta = unit || k == BlendKind::Scale ? 0.f : (_r.coin() ? 0.5f : -1.f);
        _text = std::string(hipdnn_data_sdk::data_objects::EnumNamePointwiseMode(fe::detail::toWire(op))) + " "
                + dimsText(_dims) + " alpha " + std::to_string(_alpha) + " alpha2 " + std::to_string(_alpha2)
                + " beta " + std::to_string(_beta) + " (" + _r.trace() + ")";
        configure<T>(_graph);
        const std::vector<int64_t> ones(_dims.size(), 1);
        auto scalar = [&](float v, const char* name) {
            return _graph.tensor(TensorAttributes().set_name(name).set_dim(ones).set_stride(ones).set_value(v));
        };
        auto node = [](fe::PointwiseMode m) { return PointwiseAttributes().set_mode(m); };
        auto scaled = [&](const TensorPtr& t, float v, const char* name) {
            return v == 1.f ? t : _graph.pointwise(t, scalar(v, name), node(fe::PointwiseMode::MUL));
        };
        _a = _graph.tensor(TensorAttributes().set_name("a").set_dim(_dims));
        _at = Tensor<T>(_dims);
        _at.fillUniform(-2.f, 2.f, _r.seed(1));
        _ot = Tensor<T>(_dims);
        _ot.fillUniform(-1.f, 1.f, _r.seed(3));
        if(k == BlendKind::OpInPlace || k == BlendKind::Scale)
        {
            _ot = _at; // A (y) is the output buffer
        }
        _prior0 = _ot;
        if(k == BlendKind::Scale)
        {
            _out = _graph.pointwise(_a, scalar(_alpha, "alpha"), node(fe::PointwiseMode::MUL));
            _out->set_output(true).set_name("out").set_dim(_dims);
            return;
        }
        TensorPtr core;
        const bool act = k == BlendKind::ActFwd || k == BlendKind::ActBwd || k == BlendKind::SigmoidBwd;
        if(act)
        {
            auto attrs = node(op);
            if(op == fe::PointwiseMode::RELU_FWD || op == fe::PointwiseMode::RELU_BWD)
            {
                attrs.set_relu_lower_clip_slope(0.1f);
                _params.reluLowerClipSlope = 0.1;
            }
            if(k == BlendKind::ActFwd)
            {
                core = _graph.pointwise(_a, attrs);
            }
            else
            {
                _b = _graph.tensor(TensorAttributes().set_name("x").set_dim(_dims));
                _bt = Tensor<T>(_dims);
                _bt.fillUniform(-2.f, 2.f, _r.seed(2));
                core = _graph.pointwise(_a, _b, attrs);
            }
            core = scaled(core, _alpha, "alpha");
        }
        else
        {
            const std::vector<int64_t> bDims = {1, _dims[1], 1, 1};
            _b = _graph.tensor(TensorAttributes().set_name("b").set_dim(bDims));
            _bt = Tensor<T>(bDims);
            _bt.fillUniform(-2.f, 2.f, _r.seed(2));
            core = _graph.pointwise(scaled(_a, _alpha, "alpha1"), scaled(_b, _alpha2, "alpha2"), node(op));
        }
        if(_beta != 0.f)
        {
            _prior = _graph.tensor(TensorAttributes().set_name("prior").set_dim(_dims));
            core = _graph.pointwise(core, _graph.pointwise(_prior, scalar(_beta, "beta"), node(fe::PointwiseMode::MUL)),
                                    node(fe::PointwiseMode::ADD));
        }
        _out = core;
        _out->set_output(true).set_name("out").set_dim(_dims);
    }

    VariantPack variantPack() override
    {
        const bool aliased = _k == BlendKind::OpInPlace || _k == BlendKind::Scale;
        VariantPack pack{{_a, aliased ? _ot.data() : _at.data()}, {_out, _ot.data()}};
        if(_b)
        {
            pack[_b] = _bt.data();
        }
        if(_prior)
        {
            pack[_prior] = _ot.data();
        }
        return pack;
    }

    void check() override
    {
        const WireMode mode = fe::detail::toWire(_op);
        const bool act = _k == BlendKind::ActFwd || _k == BlendKind::ActBwd || _k == BlendKind::SigmoidBwd;
        Tensor<T> ref(_dims);
        tu::forEachIndex(_dims, [&](const std::vector<int64_t>& i) {
            const double a = float(_at.at(i));
            double v = 0.0;
            if(_k == BlendKind::Scale)
            {
                v = _alpha * a;
            }
            else if(act)
            {
                const double b = _k == BlendKind::ActFwd ? 0.0 : double(float(_bt.at(i)));
                v = _alpha * tu::CpuReferencePointwise::apply(mode, a, b, 0.0, _params);
            }
            else
            {
                const double b = float(_bt.at({0, i[1], 0, 0}));
                v = tu::CpuReferencePointwise::apply(mode, _alpha * a, _alpha2 * b, 0.0, _params);
            }
            v += _beta * double(float(_prior0.at(i)));
            ref.at(i) = T(static_cast<float>(v));
        });
        const double tol = 4 * tu::pointwise::getTolerance<T>() * std::max(1.0, maxAbs(ref));
        expectClose(ref, _ot, tol, std::max(tol, 2 * outputRtol<T>()), "pointwise blend " + _text);
    }

private:
    BlendKind _k;
    fe::PointwiseMode _op;
    CaseRng _r;
    std::vector<int64_t> _dims;
    float _alpha = 1.f, _alpha2 = 1.f, _beta = 0.f;
    tu::PointwiseParams _params;
    TensorPtr _a, _b, _prior, _out;
    Tensor<T> _at, _bt, _ot, _prior0;
};

/// conv_fprop [-> ADD of a [1,K,1..] bias] [-> unary mode]: packed tensors, symmetric padding,
/// 2-D on even samples and 3-D on odd ones. Weights are scaled by 1/reduction so the mode sees
/// inputs in [-2, 2] ([0.5, 2] for a positive domain).
template <typename T>
class FusedSample : public CaseSample
{
public:
    FusedSample(bool withBias, const Unary* unary, int index, uint32_t salt)
        : _withBias(withBias)
        , _r(salt)
        , _c(randomConv(_r, index % 2 == 0 ? Geometry::D2 : Geometry::D3))
    {
        if(unary != nullptr)
        {
            _u = *unary;
            _hasUnary = true;
        }
        const auto& c = _c;
        _text = _c.text + (withBias ? " +bias" : "") + (_hasUnary ? " +" + _u.name : "") + " (" + _r.trace() + ")";
        _bDims.assign(c.y.size(), 1);
        _bDims[1] = c.y[1];
        configure<T>(_graph);
        _x = _graph.tensor(TensorAttributes().set_name("x").set_dim(c.x));
        _w = _graph.tensor(TensorAttributes().set_name("w").set_dim(c.w));
        TensorPtr value = _graph.conv_fprop(_x, _w, convAttributes<fe::graph::ConvFpropAttributes>(c));
        if(withBias)
        {
            _b = _graph.tensor(TensorAttributes().set_name("bias").set_dim(_bDims));
            value = _graph.pointwise(value, _b, fe::graph::PointwiseAttributes().set_mode(fe::PointwiseMode::ADD));
        }
        if(_hasUnary)
        {
            value = _graph.pointwise(value, _u.attributes);
        }
        _y = value;
        _y->set_output(true).set_name("y").set_dim(c.y);
        _xt = Tensor<T>(c.x);
        _wt = Tensor<T>(c.w);
        _bt = Tensor<T>(_bDims);
        _yt = Tensor<T>(c.y);
        const float scale = 1.f / static_cast<float>(c.w[1] * product(c.w, 2));
        const bool positive = _hasUnary && _u.positiveDomain;
        _xt.fillUniform(positive ? 0.f : -1.f, 1.f, _r.seed(1));
        _wt.fillUniform(positive ? 0.f : -scale, scale, _r.seed(2));
        _bt.fillUniform(positive ? 0.5f : -1.f, 1.f, _r.seed(3));
        _yt.fill(7.f);
    }

    VariantPack variantPack() override
    {
        VariantPack pack = {{_x, _xt.data()}, {_w, _wt.data()}, {_y, _yt.data()}};
        if(_withBias)
        {
            pack[_b] = _bt.data();
        }
        return pack;
    }

    void check() override
    {
        const auto& c = _c;
        Tensor<float> conv(c.y), biased(c.y), bias(_bDims);
        tu::CpuFpReferenceConvolution::fprop<T, T, float>(_xt.view(), _wt.view(), conv.view(), c.p);
        tu::forEachIndex(_bDims, [&](const std::vector<int64_t>& k) { bias.at(k) = _withBias ? float(_bt.at(k)) : 0.f; });
        tu::TensorView<const float> biasView = bias.view();
        tu::CpuReferencePointwise::compute<float, float>(WireMode::ADD, biased.view(), conv.view(), &biasView, nullptr,
                                                         {});
        Tensor<T> ref(c.y);
        tu::CpuReferencePointwise::compute<float, T>(_hasUnary ? hipdnn_frontend::detail::toWire(_u.mode)
                                                               : WireMode::IDENTITY,
                                                     ref.view(), biased.view(), nullptr, nullptr, _u.params);
        // The convolution's error bound, carried through the mode by its Lipschitz constant on
        // the inputs it sees, plus float evaluation of the mode.
        const double convAtol
            = tu::calculateConvFpropTolerance<T, T>(maxAbs(_xt), maxAbs(_wt), c.w[1] * product(c.w, 2));
        const double lipschitz = _hasUnary ? std::max(1.0, _u.lipschitz) : 1.0;
        expectClose(ref, _yt, lipschitz * convAtol + 1e-5, outputRtol<T>() + 1e-5, "fused y");
    }

private:
    bool _withBias;
    bool _hasUnary = false;
    Unary _u{"none", fe::PointwiseMode::IDENTITY, {}, {}, false, 1.0, true, -3.f, 3.f};
    CaseRng _r;
    ConvShape _c;
    std::vector<int64_t> _bDims;
    TensorPtr _x, _w, _b, _y;
    Tensor<T> _xt, _wt, _bt, _yt;
};

// ------------------------------------------------------------------------------------------------
// Batchnorm

std::vector<int64_t> perChannel(const std::vector<int64_t>& x)
{
    std::vector<int64_t> d(x.size(), 1);
    d[1] = x[1];
    return d;
}

std::vector<int64_t> randomBatchnormShape(CaseRng& r)
{
    std::vector<int64_t> x = {r.pick(2, 4), r.pick(1, 16), r.pick(1, 8), r.pick(2, 8)};
    if(r.pick(0, 2) == 0)
    {
        x.push_back(r.pick(1, 4));
    }
    return x;
}

/// Batchnorm tolerances: the test SDK's per-dtype values; rtol at least two roundings to T.
template <typename T>
double bnRtol(double tol)
{
    return std::max(tol, 2 * outputRtol<T>());
}

enum class BnOp
{
    Inference,
    Training,
    Backward
};

template <typename T>
class BatchnormSample : public CaseSample
{
public:
    BatchnormSample(BnOp op, bool channelsLast, uint32_t salt)
        : _op(op)
        , _r(salt)
        , _xd(randomBatchnormShape(_r))
        , _cd(perChannel(_xd))
        , _last(channelsLast)
    {
        _text = "x" + dimsText(_xd) + (_last ? " channels-last" : "") + " (" + _r.trace() + ")";
        configure<T>(_graph);
        const auto strides = layout(_xd, _last);
        auto perChannelTensor = [&](const char* name) {
            return _graph.tensor(TensorAttributes().set_name(name).set_dim(_cd));
        };
        _xt = Tensor<T>(_xd, strides);
        _yt = Tensor<T>(_xd, strides);
        for(auto* t : {&_p0, &_p1, &_p2, &_p3, &_o1, &_o2, &_o3, &_o4})
        {
            *t = Tensor<T>(_cd);
        }
        _xt.fillUniform(-2.f, 2.f, _r.seed(1));
        _yt.fill(7.f);
        _x = _graph.tensor(TensorAttributes().set_name("x").set_dim(_xd).set_stride(strides));
        if(op == BnOp::Inference)
        {
            // p0 mean, p1 inverse variance, p2 scale, p3 bias
            _t0 = perChannelTensor("mean");
            _t1 = perChannelTensor("inv_variance");
            _t2 = perChannelTensor("scale");
            _t3 = perChannelTensor("bias");
            _outs[0] = _graph.batchnorm_inference(_x, _t0, _t1, _t2, _t3, fe::graph::BatchnormInferenceAttributes());
            _p0.fillUniform(-0.5f, 0.5f, _r.seed(2));
            _p1.fillUniform(0.5f, 2.f, _r.seed(3));
            _p2.fillUniform(0.5f, 1.5f, _r.seed(4));
            _p3.fillUniform(-1.f, 1.f, _r.seed(5));
        }
        else if(op == BnOp::Training)
        {
            // p0 scale, p1 bias, p2 previous running mean, p3 previous running variance
            _t0 = perChannelTensor("scale");
            _t1 = perChannelTensor("bias");
            _t2 = perChannelTensor("prev_running_mean");
            _t3 = perChannelTensor("prev_running_var");
            auto eps = _graph.tensor(TensorAttributes().set_name("epsilon").set_value(kEpsilon));
            auto momentum = _graph.tensor(TensorAttributes().set_name("momentum").set_value(kMomentum));
            auto outs = _graph.batchnorm(
                _x, _t0, _t1,
                fe::graph::BatchnormAttributes().set_epsilon(eps).set_previous_running_stats(_t2, _t3, momentum));
            std::copy(outs.begin(), outs.end(), _outs.begin());
            _p0.fillUniform(0.5f, 1.5f, _r.seed(2));
            _p1.fillUniform(-1.f, 1.f, _r.seed(3));
            _p2.fillUniform(-0.5f, 0.5f, _r.seed(4));
            _p3.fillUniform(0.5f, 1.5f, _r.seed(5));
        }
        else
        {
            // _x is dy here; p0 scale, p1 saved mean, p2 saved inverse variance (of x)
            _xt.fillUniform(-1.f, 1.f, _r.seed(1));
            _dyIn = _x;
            _dyIn->set_name("dy");
            _fwdX = _graph.tensor(TensorAttributes().set_name("x").set_dim(_xd).set_stride(strides));
            _fwdXt = Tensor<T>(_xd, strides);
            _fwdXt.fillUniform(-2.f, 2.f, _r.seed(6));
            _t0 = perChannelTensor("scale");
            _t1 = perChannelTensor("mean");
            _t2 = perChannelTensor("inv_variance");
            auto outs = _graph.batchnorm_backward(
                _dyIn, _fwdX, _t0, fe::graph::BatchnormBackwardAttributes().set_saved_mean_and_inv_variance(_t1, _t2));
            std::copy(outs.begin(), outs.end(), _outs.begin());
            _p0.fillUniform(0.5f, 1.5f, _r.seed(2));
            const auto stats = tu::CpuFpReferenceBatchnorm::statistics<T>(_fwdXt.view(), kEpsilon);
            for(int64_t c = 0; c < _xd[1]; ++c)
            {
                _p1.data()[c] = T(static_cast<float>(stats.mean[static_cast<size_t>(c)]));
                _p2.data()[c] = T(static_cast<float>(stats.invVariance[static_cast<size_t>(c)]));
            }
        }
        _outs[0]->set_dim(_xd).set_stride(strides);
        for(const auto& t : _outs)
        {
            if(t != nullptr)
            {
                t->set_output(true);
            }
        }
    }

    VariantPack variantPack() override
    {
        VariantPack pack = {{_x, _xt.data()}, {_t0, _p0.data()}, {_t1, _p1.data()}, {_t2, _p2.data()},
                            {_outs[0], _yt.data()}};
        if(_t3 != nullptr)
        {
            pack[_t3] = _p3.data();
        }
        if(_fwdX != nullptr)
        {
            pack[_fwdX] = _fwdXt.data();
        }
        Tensor<T>* extra[] = {&_o1, &_o2, &_o3, &_o4};
        for(size_t i = 1; i < _outs.size(); ++i)
        {
            if(_outs[i] != nullptr)
            {
                pack[_outs[i]] = extra[i - 1]->data();
            }
        }
        return pack;
    }

    void check() override
    {
        if(_op == BnOp::Inference)
        {
            Tensor<T> ref(_xd);
            tu::CpuFpReferenceBatchnorm::inference<T, T, T>(_xt.view(), _p0.view(), _p1.view(), _p2.view(), _p3.view(),
                                                            ref.view());
            const double tol = tu::batchnorm::getToleranceInference<T>();
            expectClose(ref, _yt, tol, bnRtol<T>(tol), "batchnorm inference y");
        }
        else if(_op == BnOp::Training)
        {
            Tensor<T> y(_xd), mean(_cd), iv(_cd), nextMean(_cd), nextVar(_cd);
            tu::CpuFpReferenceBatchnorm::training<T, T, T>(_xt.view(), _p0.view(), _p1.view(), kEpsilon, y.view(),
                                                           mean.view(), iv.view(), _p2.view(), _p3.view(), kMomentum,
                                                           nextMean.view(), nextVar.view());
            const double tol = tu::batchnorm::getToleranceTraining<T>();
            expectClose(y, _yt, tol, bnRtol<T>(tol), "batchnorm training y");
            expectClose(mean, _o1, tol, bnRtol<T>(tol), "batchnorm training mean");
            expectClose(iv, _o2, tol, bnRtol<T>(tol), "batchnorm training inv_variance");
            expectClose(nextMean, _o3, tol, bnRtol<T>(tol), "batchnorm training next_running_mean");
            expectClose(nextVar, _o4, tol, bnRtol<T>(tol), "batchnorm training next_running_var");
        }
        else
        {
            Tensor<T> dx(_xd), dscale(_cd), dbias(_cd);
            tu::CpuFpReferenceBatchnorm::backward<T, T, T>(_xt.view(), _fwdXt.view(), _p1.view(), _p2.view(),
                                                           _p0.view(), dx.view(), dscale.view(), dbias.view());
            const double tol = tu::batchnorm::getToleranceBackward<T>();
            // dscale and dbias are sums over N*spatial values: their bound grows with the count.
            const double count = static_cast<double>(product(_xd, 0) / _xd[1]);
            expectClose(dx, _yt, tol, bnRtol<T>(tol), "batchnorm backward dx");
            expectClose(dscale, _o1, tol * std::sqrt(count), bnRtol<T>(tol), "batchnorm backward dscale");
            expectClose(dbias, _o2, tol * std::sqrt(count), bnRtol<T>(tol), "batchnorm backward dbias");
        }
    }

private:
    static constexpr float kEpsilon = 1e-5f;
    static constexpr float kMomentum = 0.125f;

    BnOp _op;
    CaseRng _r;
    std::vector<int64_t> _xd, _cd;
    bool _last;
    TensorPtr _x, _fwdX, _dyIn, _t0, _t1, _t2, _t3;
    std::array<TensorPtr, 5> _outs{};
    Tensor<T> _xt, _fwdXt, _yt, _p0, _p1, _p2, _p3, _o1, _o2, _o3, _o4;
};

// ------------------------------------------------------------------------------------------------
// The catalogue

// ------------------------------------------------------------------------------------------------
// Resample (pooling) and reduction

/// The pooling variants, one kind each.
enum class PoolKind
{
    Max,
    MaxIndex,
    MaxChannelsLast,
    AvgInclude,
    AvgExclude,
    AsymPad
};

struct PoolShape
{
    std::vector<int64_t> x, y, window, stride, pre, post;
    fe::ResampleMode mode = fe::ResampleMode::MAXPOOL;
    bool channelsLast = false;
    std::string text;
};

/// A small random 2-D (even samples) or 3-D (odd) pooling; padding < window, symmetric except
/// for AsymPad (first spatial dim: pre 0, post 1, stride 1).
PoolShape randomPool(CaseRng& r, PoolKind kind, int index)
{
    PoolShape p;
    const size_t spatial = index % 2 == 0 ? 2 : 3;
    p.mode = kind == PoolKind::AvgInclude   ? fe::ResampleMode::AVGPOOL_INCLUDE_PADDING
             : kind == PoolKind::AvgExclude ? fe::ResampleMode::AVGPOOL_EXCLUDE_PADDING
                                            : fe::ResampleMode::MAXPOOL;
    p.channelsLast = kind == PoolKind::MaxChannelsLast;
    p.x = {r.pick(1, 2), r.pick(1, 5)};
    p.y = p.x;
    for(size_t i = 0; i < spatial; ++i)
    {
        const bool asym = kind == PoolKind::AsymPad && i == 0;
        const int64_t window = r.pick(asym ? 2 : 1, 3);
        const int64_t stride = asym ? 1 : r.pick(1, 2);
        const int64_t pad = asym ? 0 : r.pick(0, window - 1);
        const int64_t extent = r.pick(window, spatial == 2 ? 9 : 6);
        // AsymPad: post padding 1, pre 0, stride 1: one more output position than symmetric
        // padding gives, and every window still holds an input element.
        const int64_t post = asym ? 1 : pad;
        p.window.push_back(window);
        p.stride.push_back(stride);
        p.pre.push_back(pad);
        p.post.push_back(post);
        p.x.push_back(extent);
        p.y.push_back((extent + pad + post - window) / stride + 1);
    }
    p.text = "x" + dimsText(p.x) + " window" + dimsText(p.window) + " stride" + dimsText(p.stride) + " pre"
             + dimsText(p.pre) + " post" + dimsText(p.post) + (p.channelsLast ? " channels-last" : "");
    return p;
}

template <typename A>
A poolAttributes(const PoolShape& p)
{
    A a;
    a.set_resampling_mode(p.mode)
        .set_padding_mode(fe::PaddingMode::NEG_INF_PAD)
        .set_window(p.window)
        .set_stride(p.stride)
        .set_pre_padding(p.pre)
        .set_post_padding(p.post);
    return a;
}

tu::ResampleParams poolParams(const PoolShape& p)
{
    return {p.pre, p.stride, p.window, hipdnn_frontend::detail::toWire(p.mode),
            hipdnn_data_sdk::data_objects::PaddingMode::NEG_INF_PAD};
}

/// resample (pooling forward), optionally writing the max-pooling index tensor.
template <typename T>
class ResampleFwdSample : public CaseSample
{
public:
    ResampleFwdSample(PoolKind kind, int index, uint32_t salt)
        : _r(salt)
        , _p(randomPool(_r, kind, index))
        , _withIndex(kind == PoolKind::MaxIndex)
    {
        _text = _p.text + (_withIndex ? " +index" : "") + " (" + _r.trace() + ")";
        configure<T>(_graph);
        _x = _graph.tensor(TensorAttributes().set_name("x").set_dim(_p.x).set_stride(layout(_p.x, _p.channelsLast)));
        auto outs = _graph.resample(
            _x, poolAttributes<fe::graph::ResampleFwdAttributes>(_p).set_generate_index(_withIndex));
        _y = outs[0];
        _y->set_output(true).set_name("y").set_dim(_p.y).set_stride(layout(_p.y, _p.channelsLast));
        _xt = Tensor<T>(_p.x, layout(_p.x, _p.channelsLast));
        _yt = Tensor<T>(_p.y, layout(_p.y, _p.channelsLast));
        _xt.fillUniform(-2.f, 2.f, _r.seed(1));
        _yt.fill(7.f);
        if(_withIndex)
        {
            _index = outs[1];
            _index->set_output(true).set_name("index").set_dim(_p.y).set_stride(layout(_p.y, false));
            _it = Tensor<int32_t>(_p.y);
            _it.fill(-7.f);
        }
    }

    VariantPack variantPack() override
    {
        VariantPack pack = {{_x, _xt.data()}, {_y, _yt.data()}};
        if(_withIndex)
        {
            pack[_index] = _it.data();
        }
        return pack;
    }

    void check() override
    {
        Tensor<T> ref(_p.y);
        Tensor<int32_t> refIndex(_p.y);
        tu::TensorView<int32_t> indexView = refIndex.view();
        tu::CpuFpReferenceResample::forward<T, T>(_xt.view(), ref.view(), poolParams(_p), &indexView);
        const double tol = tu::resample::getToleranceFwd<T>();
        expectClose(ref, _yt, tol, std::max(tol, outputRtol<T>()), "resample_fwd y");
        if(_withIndex)
        {
            int64_t mismatches = 0;
            tu::forEachIndex(_p.y, [&](const std::vector<int64_t>& i) { mismatches += refIndex.at(i) != _it.at(i); });
            EXPECT_EQ(mismatches, 0) << "resample_fwd index: " << mismatches << " of " << refIndex.elementCount()
                                     << " indices differ from the reference";
        }
    }

private:
    CaseRng _r;
    PoolShape _p;
    bool _withIndex;
    TensorPtr _x, _y, _index;
    Tensor<T> _xt, _yt;
    Tensor<int32_t> _it;
};

/// resample_bwd (pooling gradient); max pooling reads an index tensor made by the reference
/// forward of a random x.
template <typename T>
class ResampleBwdSample : public CaseSample
{
public:
    ResampleBwdSample(PoolKind kind, int index, uint32_t salt)
        : _r(salt)
        , _p(randomPool(_r, kind, index))
    {
        _text = _p.text + " (" + _r.trace() + ")";
        configure<T>(_graph);
        const bool isMax = _p.mode == fe::ResampleMode::MAXPOOL;
        _dy = _graph.tensor(
            TensorAttributes().set_name("dy").set_dim(_p.y).set_stride(layout(_p.y, _p.channelsLast)));
        if(isMax)
        {
            _index = _graph.tensor(
                TensorAttributes().set_name("index").set_dim(_p.y).set_data_type(fe::DataType::INT32));
        }
        _dx = _graph.resample_bwd(_dy, poolAttributes<fe::graph::ResampleBwdAttributes>(_p), _index);
        _dx->set_output(true).set_name("dx").set_dim(_p.x).set_stride(layout(_p.x, _p.channelsLast));
        _dyt = Tensor<T>(_p.y, layout(_p.y, _p.channelsLast));
        _dxt = Tensor<T>(_p.x, layout(_p.x, _p.channelsLast));
        _dyt.fillUniform(-1.f, 1.f, _r.seed(1));
        _dxt.fill(7.f);
        _it = Tensor<int32_t>(_p.y);
        if(isMax)
        {
            Tensor<T> x(_p.x), y(_p.y);
            x.fillUniform(-2.f, 2.f, _r.seed(2));
            tu::TensorView<int32_t> indexView = _it.view();
            tu::CpuFpReferenceResample::forward<T, T>(x.view(), y.view(), poolParams(_p), &indexView);
        }
    }

    VariantPack variantPack() override
    {
        VariantPack pack = {{_dy, _dyt.data()}, {_dx, _dxt.data()}};
        if(_index != nullptr)
        {
            pack[_index] = _it.data();
        }
        return pack;
    }

    void check() override
    {
        Tensor<T> ref(_p.x);
        const tu::TensorView<const int32_t> indexView = _it.view();
        tu::CpuFpReferenceResample::backward<T, T>(_dyt.view(), ref.view(), poolParams(_p), &indexView);
        const double tol = tu::resample::getToleranceBwd<T>();
        expectClose(ref, _dxt, tol, std::max(tol, outputRtol<T>()), "resample_bwd dx");
    }

private:
    CaseRng _r;
    PoolShape _p;
    TensorPtr _dy, _dx, _index;
    Tensor<T> _dyt, _dxt;
    Tensor<int32_t> _it;
};

/// Max pooling's gradient from x (the graph MIOpen Public forwards miopenPoolingBackward as): a
/// max resample of x generating its index, then the resample_bwd of dy reading it; the pooled y and
/// the index are virtual. Checked against the reference forward (index) and backward.
template <typename T>
class MaxPoolGradientFromXSample : public CaseSample
{
public:
    MaxPoolGradientFromXSample(int index, uint32_t salt)
        : _r(salt)
        , _p(randomPool(_r, PoolKind::Max, index))
    {
        _text = _p.text + " (" + _r.trace() + ")";
        configure<T>(_graph);
        _x = _graph.tensor(TensorAttributes().set_name("x").set_dim(_p.x).set_stride(layout(_p.x, false)));
        auto pooled = _graph.resample(
            _x, poolAttributes<fe::graph::ResampleFwdAttributes>(_p).set_generate_index(true));
        pooled[0]->set_name("pooled").set_data_type(feType<T>()).set_dim(_p.y).set_stride(layout(_p.y, false));
        pooled[1]->set_name("index").set_dim(_p.y).set_stride(layout(_p.y, false));
        _dy = _graph.tensor(TensorAttributes().set_name("dy").set_dim(_p.y).set_stride(layout(_p.y, false)));
        _dx = _graph.resample_bwd(_dy, poolAttributes<fe::graph::ResampleBwdAttributes>(_p), pooled[1]);
        _dx->set_output(true).set_name("dx").set_dim(_p.x).set_stride(layout(_p.x, false));
        _xt = Tensor<T>(_p.x);
        _dyt = Tensor<T>(_p.y);
        _dxt = Tensor<T>(_p.x);
        _xt.fillUniform(-2.f, 2.f, _r.seed(1));
        _dyt.fillUniform(-1.f, 1.f, _r.seed(2));
        _dxt.fill(7.f);
    }

    VariantPack variantPack() override { return {{_x, _xt.data()}, {_dy, _dyt.data()}, {_dx, _dxt.data()}}; }

    void check() override
    {
        Tensor<T> y(_p.y), ref(_p.x);
        Tensor<int32_t> index(_p.y);
        tu::TensorView<int32_t> indexView = index.view();
        tu::CpuFpReferenceResample::forward<T, T>(_xt.view(), y.view(), poolParams(_p), &indexView);
        const tu::TensorView<const int32_t> constIndex = index.view();
        tu::CpuFpReferenceResample::backward<T, T>(_dyt.view(), ref.view(), poolParams(_p), &constIndex);
        const double tol = tu::resample::getToleranceBwd<T>();
        expectClose(ref, _dxt, tol, std::max(tol, outputRtol<T>()), "resample_bwd from x dx");
    }

private:
    CaseRng _r;
    PoolShape _p;
    TensorPtr _x, _dy, _dx;
    Tensor<T> _xt, _dyt, _dxt;
};

struct ReductionKind
{
    std::string name;
    fe::ReductionMode mode;
};

std::vector<ReductionKind> reductionKinds()
{
    using M = fe::ReductionMode;
    return {{"add", M::ADD},   {"mul", M::MUL},     {"min", M::MIN},     {"max", M::MAX},
            {"amax", M::AMAX}, {"avg", M::AVG},     {"norm1", M::NORM1}, {"norm2", M::NORM2},
            {"mul_no_zeros", M::MUL_NO_ZEROS}};
}

/// reduction over a random non-empty set of axes (rank 2 to 5). Products use inputs in
/// [0.5, 1.5] and short reductions; MUL_NO_ZEROS gets some exact zeros.
template <typename T>
class ReductionSample : public CaseSample
{
public:
    ReductionSample(const ReductionKind& k, uint32_t salt)
        : _k(k)
        , _r(salt)
    {
        const bool product = k.mode == fe::ReductionMode::MUL || k.mode == fe::ReductionMode::MUL_NO_ZEROS;
        const size_t rank = static_cast<size_t>(_r.pick(2, 5));
        const size_t forced = static_cast<size_t>(_r.pick(0, static_cast<int64_t>(rank) - 1));
        for(size_t i = 0; i < rank; ++i)
        {
            const int64_t d = _r.pick(product ? 1 : 2, product ? 4 : 7);
            _xd.push_back(i == forced ? std::max<int64_t>(d, 2) : d);
            _yd.push_back(i == forced || _r.coin() ? 1 : _xd.back());
        }
        _n = tu::CpuFpReferenceReduction::reductionLength(_xd, _yd);
        _text = k.name + " x" + dimsText(_xd) + " -> y" + dimsText(_yd) + " (" + _r.trace() + ")";
        configure<T>(_graph);
        _x = _graph.tensor(TensorAttributes().set_name("x").set_dim(_xd));
        _y = _graph.reduction(_x, fe::graph::ReductionAttributes().set_mode(k.mode));
        _y->set_output(true).set_name("y").set_dim(_yd);
        _xt = Tensor<T>(_xd);
        _yt = Tensor<T>(_yd);
        if(product)
        {
            _xt.fillUniform(0.5f, 1.5f, _r.seed(1));
        }
        else
        {
            _xt.fillUniform(-1.f, 1.f, _r.seed(1));
        }
        if(k.mode == fe::ReductionMode::MUL_NO_ZEROS)
        {
            int64_t e = 0;
            tu::forEachIndex(_xd, [&](const std::vector<int64_t>& i) {
                if(++e % 3 == 0)
                {
                    _xt.at(i) = T(0.f);
                }
            });
        }
        _yt.fill(7.f);
    }

    VariantPack variantPack() override { return {{_x, _xt.data()}, {_y, _yt.data()}}; }

    void check() override
    {
        Tensor<T> ref(_yd);
        tu::CpuFpReferenceReduction::reduce<T, T>(hipdnn_frontend::detail::toWire(_k.mode), _xt.view(), ref.view());
        using M = fe::ReductionMode;
        double atol = tu::reduction::getTolerance<T>();
        double rtol = std::max(atol, outputRtol<T>());
        if(_k.mode == M::ADD || _k.mode == M::AVG || _k.mode == M::NORM1 || _k.mode == M::NORM2)
        {
            atol = tu::calculateReductionTolerance<T>(_n, maxAbs(_xt));
        }
        else if(_k.mode == M::MUL || _k.mode == M::MUL_NO_ZEROS)
        {
            rtol += tu::gamma(_n, tu::unitRoundoff<float>());
        }
        expectClose(ref, _yt, atol, rtol, "reduction " + _k.name);
    }

private:
    ReductionKind _k;
    CaseRng _r;
    std::vector<int64_t> _xd, _yd;
    int64_t _n = 1;
    TensorPtr _x, _y;
    Tensor<T> _xt, _yt;
};

// ------------------------------------------------------------------------------------------------
// Softmax composites (hipdnn_plugin_sdk/SoftmaxComposite.hpp): the reduction + pointwise node
// sequences MIOpen Public builds for miopenSoftmax*, checked against plain loops in double.

enum class SoftmaxAlg
{
    Fast,
    Accurate,
    Log,
};

/// softmax forward or backward over C (CHANNEL) or every dimension but N (INSTANCE), rank 2 to 4,
/// packed or channels-last (rank 4).
template <typename T>
class SoftmaxSample : public CaseSample
{
public:
    SoftmaxSample(SoftmaxAlg alg, bool backward, uint32_t salt)
        : _alg(alg)
        , _backward(backward)
        , _r(salt)
    {
        const size_t rank = static_cast<size_t>(_r.pick(2, 4));
        _d = {_r.pick(1, 3), _r.pick(2, 12)};
        while(_d.size() < rank)
        {
            _d.push_back(_r.pick(1, 4));
        }
        _instance = _r.coin();
        const bool last = rank == 4 && _r.coin();
        _reduced = _d;
        for(size_t i = 1; i < _d.size(); ++i)
        {
            if(_instance || i == 1)
            {
                _reduced[i] = 1;
            }
        }
        _text = std::string(alg == SoftmaxAlg::Fast ? "fast" : alg == SoftmaxAlg::Log ? "log" : "accurate")
                + (_instance ? " instance " : " channel ") + dimsText(_d) + (last ? " nhwc" : "") + " ("
                + _r.trace() + ")";
        configure<T>(_graph);
        const auto strides = layout(_d, last);
        using PM = fe::PointwiseMode;
        _a = _graph.tensor(TensorAttributes().set_name(backward ? "y" : "x").set_dim(_d).set_stride(strides));
        if(!backward)
        {
            if(alg == SoftmaxAlg::Fast)
            {
                auto e = pw(PM::EXP, _a, nullptr, false);
                _out = pw(PM::DIV, e, reduce(e, fe::ReductionMode::ADD), false);
            }
            else
            {
                auto sh = pw(PM::SUB, _a, reduce(_a, fe::ReductionMode::MAX), false);
                auto e = pw(PM::EXP, sh, nullptr, false);
                auto sum = reduce(e, fe::ReductionMode::ADD);
                _out = alg == SoftmaxAlg::Log ? pw(PM::SUB, sh, pw(PM::LOG, sum, nullptr, true), false)
                                              : pw(PM::DIV, e, sum, false);
            }
        }
        else
        {
            _b = _graph.tensor(TensorAttributes().set_name("dy").set_dim(_d).set_stride(strides));
            if(alg == SoftmaxAlg::Log)
            {
                auto r = reduce(_b, fe::ReductionMode::ADD);
                auto e = pw(PM::EXP, _a, nullptr, false);
                _out = pw(PM::SUB, _b, pw(PM::MUL, e, r, false), false);
            }
            else
            {
                auto r = reduce(pw(PM::MUL, _b, _a, false), fe::ReductionMode::ADD);
                _out = pw(PM::MUL, _a, pw(PM::SUB, _b, r, false), false);
            }
        }
        _out->set_output(true).set_name(backward ? "dx" : "y").set_data_type(feType<T>()).set_dim(_d).set_stride(strides);
        _at = Tensor<T>(_d, strides);
        _bt = Tensor<T>(_d, strides);
        _ot = Tensor<T>(_d, strides);
        if(!backward)
        {
            _at.fillUniform(-2.f, 2.f, _r.seed(1));
        }
        else if(alg == SoftmaxAlg::Log)
        {
            _at.fillUniform(-4.f, -0.1f, _r.seed(1));
        }
        else
        {
            _at.fillUniform(0.f, 1.f, _r.seed(1));
        }
        _bt.fillUniform(-1.f, 1.f, _r.seed(2));
        _ot.fill(7.f);
    }

    VariantPack variantPack() override
    {
        VariantPack pack = {{_a, _at.data()}, {_out, _ot.data()}};
        if(_b != nullptr)
        {
            pack[_b] = _bt.data();
        }
        return pack;
    }

    void check() override
    {
        // Plain loops over each softmax group (the elements that share their reduced index).
        Tensor<T> ref(_d);
        std::map<std::vector<int64_t>, std::vector<std::vector<int64_t>>> groups;
        tu::forEachIndex(_d, [&](const std::vector<int64_t>& i) {
            auto g = i;
            for(size_t k = 0; k < g.size(); ++k)
            {
                if(_reduced[k] == 1)
                {
                    g[k] = 0;
                }
            }
            groups[g].push_back(i);
        });
        auto val = [](const Tensor<T>& t, const std::vector<int64_t>& i) { return double(float(t.at(i))); };
        int64_t length = 1;
        for(const auto& [key, members] : groups)
        {
            length = static_cast<int64_t>(members.size());
            if(!_backward)
            {
                double mx = -INFINITY, sum = 0.0;
                for(const auto& i : members)
                {
                    mx = std::max(mx, val(_at, i));
                }
                for(const auto& i : members)
                {
                    sum += std::exp(val(_at, i) - mx);
                }
                for(const auto& i : members)
                {
                    const double v = val(_at, i);
                    ref.at(i) = T(float(_alg == SoftmaxAlg::Log ? v - mx - std::log(sum) : std::exp(v - mx) / sum));
                }
            }
            else
            {
                double dot = 0.0;
                for(const auto& i : members)
                {
                    dot += _alg == SoftmaxAlg::Log ? val(_bt, i) : val(_at, i) * val(_bt, i);
                }
                for(const auto& i : members)
                {
                    const double y = val(_at, i), dy = val(_bt, i);
                    ref.at(i) = T(float(_alg == SoftmaxAlg::Log ? dy - std::exp(y) * dot : y * (dy - dot)));
                }
            }
        }
        // The sums of the group's length dominate the error; then one rounding of each result.
        const double mag = std::max({1.0, maxAbs(_at), maxAbs(_bt)});
        const double atol = 2.0 * std::max(tu::calculateReductionTolerance<T>(length, mag), outputRtol<T>() * mag * 4.0);
        expectClose(ref, _ot, atol, outputRtol<T>(), _backward ? "softmax dx" : "softmax y");
    }

private:
    TensorPtr reduce(const TensorPtr& in, fe::ReductionMode m)
    {
        auto out = _graph.reduction(
            in, fe::graph::ReductionAttributes().set_mode(m).set_compute_data_type(fe::DataType::FLOAT));
        out->set_dim(_reduced).set_stride(hipdnn_data_sdk::utilities::packedStrides(_reduced));
        out->set_data_type(fe::DataType::FLOAT);
        return out;
    }

    TensorPtr pw(fe::PointwiseMode m, const TensorPtr& a, const TensorPtr& b, bool reduced)
    {
        auto attrs = fe::graph::PointwiseAttributes().set_mode(m).set_compute_data_type(fe::DataType::FLOAT);
        auto out = b != nullptr ? _graph.pointwise(a, b, attrs) : _graph.pointwise(a, attrs);
        const auto& d = reduced ? _reduced : _d;
        out->set_dim(d).set_stride(hipdnn_data_sdk::utilities::packedStrides(d));
        out->set_data_type(fe::DataType::FLOAT);
        return out;
    }

    SoftmaxAlg _alg;
    bool _backward;
    CaseRng _r;
    bool _instance = false;
    std::vector<int64_t> _d, _reduced;
    TensorPtr _a, _b, _out;
    Tensor<T> _at, _bt, _ot;
};

/// Instantiates `Sample<T>` for the case's dtype.
template <template <typename> class Sample, typename... Args>
std::unique_ptr<CaseSample> makeTyped(DType dtype, Args&&... args)
{
    switch(dtype)
    {
    case DType::Fp16: return std::make_unique<Sample<half>>(std::forward<Args>(args)...);
    case DType::Bf16: return std::make_unique<Sample<bf16>>(std::forward<Args>(args)...);
    case DType::Fp32: break;
    }
    return std::make_unique<Sample<float>>(std::forward<Args>(args)...);
}

std::vector<GraphCase> buildCatalogue()
{
    std::vector<GraphCase> cases;
    auto add = [&](const std::string& kind, int samples, auto factory) {
        for(DType dtype : {DType::Fp32, DType::Fp16, DType::Bf16})
        {
            GraphCase c;
            c.kind = kind;
            c.dtype = dtype;
            c.samples = samples;
            c.make = [kind, dtype, factory](int index) { return factory(dtype, index, caseSalt(kind, dtype, index)); };
            cases.push_back(std::move(c));
        }
    };
    const std::pair<ConvOp, const char*> convOps[] = {
        {ConvOp::Fprop, "conv_fprop"}, {ConvOp::Dgrad, "conv_dgrad"}, {ConvOp::Wgrad, "conv_wgrad"}};
    for(const auto& [op, opName] : convOps)
    {
        for(const Geo& geo : kGeometries)
        {
            const ConvOp o = op;
            const Geometry g = geo.geometry;
            add(std::string(opName) + "." + geo.name, 2, [o, g](DType dtype, int, uint32_t salt) {
                return makeTyped<ConvSample>(dtype, o, g, salt);
            });
        }
    }
    for(const auto& [op, opName] : convOps)
    {
        const ConvOp o = op;
        add(std::string("conv_blend.") + (opName + 5), 2, [o](DType dtype, int, uint32_t salt) {
            return makeTyped<ConvBlendSample>(dtype, o, salt);
        });
    }
    add("conv_bias", 2, [](DType dtype, int index, uint32_t salt) {
        return makeTyped<FusedSample>(dtype, true, static_cast<const Unary*>(nullptr), index, salt);
    });
    const std::vector<Unary> unaries = unaryModes();
    for(const Unary& u : unaries)
    {
        if(!u.continuous)
        {
            continue;
        }
        add("conv_bias_act." + u.name, 2, [u](DType dtype, int index, uint32_t salt) {
            return makeTyped<FusedSample>(dtype, true, &u, index, salt);
        });
    }
    for(const char* name : {"relu", "tanh"})
    {
        const Unary u = *std::find_if(unaries.begin(), unaries.end(), [&](const Unary& v) { return v.name == name; });
        add(std::string("conv_act.") + name, 2, [u](DType dtype, int index, uint32_t salt) {
            return makeTyped<FusedSample>(dtype, false, &u, index, salt);
        });
    }
    for(const Unary& u : unaries)
    {
        add("pointwise." + u.name, 1, [u](DType dtype, int, uint32_t salt) {
            return makeTyped<PointwiseSample>(dtype, u, salt);
        });
    }
    // MIOpen's activation backward (alpha 1, beta 0): the _BWD mode of each forward activation.
    const std::pair<const char*, fe::PointwiseMode> backwardModes[] = {
        {"relu", fe::PointwiseMode::RELU_BWD},        {"leaky_relu", fe::PointwiseMode::RELU_BWD},
        {"clipped_relu", fe::PointwiseMode::RELU_BWD}, {"tanh", fe::PointwiseMode::TANH_BWD},
        {"sigmoid", fe::PointwiseMode::SIGMOID_BWD},  {"elu", fe::PointwiseMode::ELU_BWD},
        {"elu_alpha", fe::PointwiseMode::ELU_BWD},    {"softplus", fe::PointwiseMode::SOFTPLUS_BWD}};
    for(const auto& entry : backwardModes)
    {
        const std::string name = entry.first; // a lambda cannot capture a structured binding (C++17)
        Unary u = *std::find_if(unaries.begin(), unaries.end(), [&](const Unary& v) { return v.name == name; });
        u.mode = entry.second;
        u.attributes.set_mode(entry.second);
        add(std::string("activation_bwd.") + name, 2, [u](DType dtype, int, uint32_t salt) {
            return makeTyped<ActivationBwdSample>(dtype, u, salt);
        });
    }
    // MIOpen's activation and tensor-op calls as libMIOpen.so forwards them.
    const std::tuple<BlendKind, fe::PointwiseMode, const char*> blends[] = {
        {BlendKind::ActFwd, fe::PointwiseMode::RELU_FWD, "activation_blend.leaky_relu_fwd"},
        {BlendKind::ActBwd, fe::PointwiseMode::RELU_BWD, "activation_blend.leaky_relu_bwd"},
        {BlendKind::SigmoidBwd, fe::PointwiseMode::SIGMOID_BWD, "activation_blend.sigmoid_bwd"},
        {BlendKind::Op, fe::PointwiseMode::ADD, "op_tensor.add"},
        {BlendKind::Op, fe::PointwiseMode::MUL, "op_tensor.mul"},
        {BlendKind::Op, fe::PointwiseMode::MIN_OP, "op_tensor.min"},
        {BlendKind::Op, fe::PointwiseMode::MAX_OP, "op_tensor.max"},
        {BlendKind::OpInPlace, fe::PointwiseMode::ADD, "op_tensor.add.in_place"},
        {BlendKind::OpUnit, fe::PointwiseMode::ADD, "op_tensor.add.unit"},
        {BlendKind::OpUnit, fe::PointwiseMode::MUL, "op_tensor.mul.unit"},
        {BlendKind::OpUnit, fe::PointwiseMode::MIN_OP, "op_tensor.min.unit"},
        {BlendKind::OpUnit, fe::PointwiseMode::MAX_OP, "op_tensor.max.unit"},
        {BlendKind::Scale, fe::PointwiseMode::MUL, "scale_tensor"}};
    for(const auto& [bk, mode, name] : blends)
    {
        const BlendKind k = bk;
        const fe::PointwiseMode m = mode;
        add(name, 2, [k, m](DType dtype, int, uint32_t salt) { return makeTyped<BlendSample>(dtype, k, m, salt); });
    }
    const std::pair<BnOp, const char*> bnOps[] = {{BnOp::Inference, "batchnorm_inference"},
                                                  {BnOp::Training, "batchnorm_training"},
                                                  {BnOp::Backward, "batchnorm_backward"}};
    for(const auto& [op, opName] : bnOps)
    {
        for(const bool last : {false, true})
        {
            const BnOp o = op;
            add(std::string(opName) + (last ? ".nhwc" : ""), 2, [o, last](DType dtype, int, uint32_t salt) {
                return makeTyped<BatchnormSample>(dtype, o, last, salt);
            });
        }
    }
    const std::pair<PoolKind, const char*> poolKinds[] = {
        {PoolKind::Max, "max"},         {PoolKind::MaxIndex, "max_index"}, {PoolKind::MaxChannelsLast, "max.nhwc"},
        {PoolKind::AvgInclude, "avg_incl"}, {PoolKind::AvgExclude, "avg_excl"}, {PoolKind::AsymPad, "asym_pad"}};
    for(const auto& [pk, name] : poolKinds)
    {
        const PoolKind k = pk;
        add(std::string("resample_fwd.") + name, 2, [k](DType dtype, int index, uint32_t salt) {
            return makeTyped<ResampleFwdSample>(dtype, k, index, salt);
        });
    }
    for(const auto& [pk, name] : poolKinds)
    {
        const PoolKind k = pk;
        if(k == PoolKind::MaxIndex)
        {
            continue; // resample_bwd.max reads the index already
        }
        add(std::string("resample_bwd.") + name, 2, [k](DType dtype, int index, uint32_t salt) {
            return makeTyped<ResampleBwdSample>(dtype, k, index, salt);
        });
    }
    add("resample_bwd.max_from_x", 2, [](DType dtype, int index, uint32_t salt) {
        return makeTyped<MaxPoolGradientFromXSample>(dtype, index, salt);
    });
    const std::tuple<SoftmaxAlg, bool, const char*> softmaxKinds[] = {
        {SoftmaxAlg::Fast, false, "softmax_fwd.fast"}, {SoftmaxAlg::Accurate, false, "softmax_fwd.accurate"},
        {SoftmaxAlg::Log, false, "softmax_fwd.log"},   {SoftmaxAlg::Accurate, true, "softmax_bwd.accurate"},
        {SoftmaxAlg::Log, true, "softmax_bwd.log"}};
    for(const auto& [sa, sb, name] : softmaxKinds)
    {
        const SoftmaxAlg alg = sa;
        const bool backward = sb;
        add(name, 3, [alg, backward](DType dtype, int, uint32_t salt) {
            return makeTyped<SoftmaxSample>(dtype, alg, backward, salt);
        });
    }
    for(const ReductionKind& k : reductionKinds())
    {
        add("reduction." + k.name, 2, [k](DType dtype, int, uint32_t salt) {
            return makeTyped<ReductionSample>(dtype, k, salt);
        });
    }
    return cases;
}

} // namespace

const std::vector<GraphCase>& allGraphCases()
{
    static const std::vector<GraphCase> cases = buildCatalogue();
    return cases;
}

std::vector<std::string> allGraphKinds()
{
    std::vector<std::string> kinds;
    for(const GraphCase& c : allGraphCases())
    {
        if(kinds.empty() || kinds.back() != c.kind)
        {
            kinds.push_back(c.kind);
        }
    }
    return kinds;
}

} // namespace integration_tests
