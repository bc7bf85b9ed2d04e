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
#include <numeric>
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
