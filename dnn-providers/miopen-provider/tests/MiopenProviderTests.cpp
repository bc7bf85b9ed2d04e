// The batchnorm and standalone activation graphs of MIOPEN_ENGINE, through the hipDNN frontend
// with the engine pinned (and checked to be the one that ran), against the test SDK's CPU
// references on seeded random shapes (HIPDNN_GLOBAL_TEST_SEED), in fp32, fp16 and bf16. The
// convolution kinds are in MiopenProviderConvTests.cpp and MiopenProviderFusionTests.cpp.
#include "MiopenTestHelpers.hpp"

#include <hipdnn_test_sdk/utilities/CpuFpReferenceBatchnorm.hpp>
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
class MiopenNormActTest : public MiopenFrontendTest
{
};
using Types = ::testing::Types<float, half, bf16>;
TYPED_TEST_SUITE(MiopenNormActTest, Types, ); // empty name generator: clang -Wpedantic wants an argument for "..."

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

TYPED_TEST(MiopenNormActTest, StandaloneActivationsMatchReference)
{
    using T = TypeParam;
    int i = 0;
    for(const Activation& act : activations())
    {
        CaseRng r(600 + i++);
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
        ASSERT_NO_FATAL_FAILURE(this->buildOn(g, this->handle()));
        Tensor<T> it(dims, layout(dims, inLast)), ot(dims, layout(dims, outLast)), oRef(dims);
        it.fillUniform(-3.f, 3.f, r.seed(1));
        std::vector<uint8_t> ws(static_cast<size_t>(g.get_workspace_size()));
        FE_ASSERT_OK(g.execute(this->handle(), {{in, it.data()}, {out, ot.data()}}, ws.data()));
        tu::CpuReferencePointwise::compute<T, T>(act.mode, oRef.view(), it.view(), nullptr, nullptr, act.params);
        const double tol = tu::pointwise::getTolerance<T>();
        expectClose(oRef, ot, tol, std::max(tol, outputRtol<T>()), act.name);
    }
}

TYPED_TEST(MiopenNormActTest, StandaloneActivationBackwardMatchesReference)
{
    using T = TypeParam;
    using M = fe::PointwiseMode;
    struct Bwd
    {
        std::string name;
        fe::graph::PointwiseAttributes attributes;
        WireMode mode;
        tu::PointwiseParams params;
    };
    std::vector<Bwd> list = {{"relu_bwd", fe::graph::PointwiseAttributes().set_mode(M::RELU_BWD), WireMode::RELU_BWD, {}},
                             {"tanh_bwd", fe::graph::PointwiseAttributes().set_mode(M::TANH_BWD), WireMode::TANH_BWD, {}},
                             {"sigmoid_bwd", fe::graph::PointwiseAttributes().set_mode(M::SIGMOID_BWD),
                              WireMode::SIGMOID_BWD, {}},
                             {"elu_bwd", fe::graph::PointwiseAttributes().set_mode(M::ELU_BWD), WireMode::ELU_BWD, {}},
                             {"softplus_bwd", fe::graph::PointwiseAttributes().set_mode(M::SOFTPLUS_BWD),
                              WireMode::SOFTPLUS_BWD, {}}};
    Bwd leaky{"leaky_relu_bwd", fe::graph::PointwiseAttributes().set_mode(M::RELU_BWD).set_relu_lower_clip_slope(0.1f),
              WireMode::RELU_BWD, {}};
    leaky.params.reluLowerClipSlope = 0.1;
    list.push_back(leaky);
    int i = 0;
    for(const Bwd& act : list)
    {
        CaseRng r(650 + i++);
        const std::vector<int64_t> dims = {r.pick(1, 3), r.pick(1, 17), r.pick(1, 9), r.pick(1, 9)};
        SCOPED_TRACE(std::string(typeName<T>()) + " " + act.name + " " + dimsText(dims) + " (" + r.trace() + ")");
        fe::graph::Graph g;
        configure<T>(g);
        auto dy = g.tensor(TensorAttributes().set_name("dy").set_dim(dims));
        auto x = g.tensor(TensorAttributes().set_name("x").set_dim(dims));
        auto dx = g.pointwise(dy, x, act.attributes);
        dx->set_output(true).set_name("dx").set_dim(dims);
        ASSERT_NO_FATAL_FAILURE(this->buildOn(g, this->handle()));
        EXPECT_GT(g.get_workspace_size(), 0) << "the forward output lives in the workspace";
        Tensor<T> dyt(dims), xt(dims), dxt(dims), dxRef(dims);
        dyt.fillUniform(-1.f, 1.f, r.seed(1));
        xt.fillUniform(-3.f, 3.f, r.seed(2));
        std::vector<uint8_t> ws(static_cast<size_t>(g.get_workspace_size()));
        FE_ASSERT_OK(g.execute(this->handle(), {{dy, dyt.data()}, {x, xt.data()}, {dx, dxt.data()}}, ws.data()));
        tu::TensorView<const T> xView = xt.view();
        tu::CpuReferencePointwise::compute<T, T>(act.mode, dxRef.view(), dyt.view(), &xView, nullptr, act.params);
        // MIOpen's derivatives go through the forward output y in the io type: one more rounding.
        const double tol = 4 * tu::pointwise::getTolerance<T>();
        expectClose(dxRef, dxt, tol, std::max(tol, 4 * outputRtol<T>()), act.name);
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

TYPED_TEST(MiopenNormActTest, BatchnormInferenceMatchesReference)
{
    using T = TypeParam;
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
        ASSERT_NO_FATAL_FAILURE(this->buildOn(g, this->handle()));
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
        expectClose(yRef, yt, tol, std::max(tol, 2 * outputRtol<T>()), "batchnorm inference y");
    }
}

// Batchnorm inference followed by an activation (the fusion plan miopenExecuteFusionPlan
// forwards): Private's batchnorm inference, then its activation in place on the output; against
// the test SDK's batchnorm reference (fp32) followed by its pointwise reference.
TYPED_TEST(MiopenNormActTest, BatchnormInferenceActivationMatchesReference)
{
    using T = TypeParam;
    using M = fe::PointwiseMode;
    struct Act
    {
        const char* name;
        fe::graph::PointwiseAttributes attributes;
        WireMode mode;
        tu::PointwiseParams params;
    };
    std::vector<Act> acts = {{"relu", fe::graph::PointwiseAttributes().set_mode(M::RELU_FWD), WireMode::RELU_FWD, {}},
                             {"sigmoid", fe::graph::PointwiseAttributes().set_mode(M::SIGMOID_FWD), WireMode::SIGMOID_FWD, {}},
                             {"clipped_relu", fe::graph::PointwiseAttributes().set_mode(M::RELU_FWD).set_relu_upper_clip(0.7f),
                              WireMode::RELU_FWD, {}}};
    acts[2].params.reluUpperClip = 0.7;
    int i = 0;
    for(const Act& act : acts)
    {
        CaseRng r(780 + i++);
        const auto xd = randomBatchnormShape(r);
        const auto cd = perChannel(xd);
        const bool last = r.coin();
        SCOPED_TRACE(std::string(typeName<T>()) + " " + act.name + " x" + dimsText(xd) + (last ? " NHWC" : "") + " ("
                     + r.trace() + ")");
        const float epsilon = 1e-3f;
        fe::graph::Graph g;
        configure<T>(g);
        auto x = g.tensor(TensorAttributes().set_name("x").set_dim(xd).set_stride(layout(xd, last)));
        auto m = g.tensor(TensorAttributes().set_name("mean").set_dim(cd));
        auto v = g.tensor(TensorAttributes().set_name("variance").set_dim(cd));
        auto s = g.tensor(TensorAttributes().set_name("scale").set_dim(cd));
        auto b = g.tensor(TensorAttributes().set_name("bias").set_dim(cd));
        auto eps = g.tensor(TensorAttributes().set_name("epsilon").set_value(epsilon));
        auto bn = g.batchnorm_inference_variance_ext(x, m, v, s, b,
                                                     fe::graph::BatchnormInferenceAttributes().set_epsilon(eps));
        auto y = g.pointwise(bn, act.attributes);
        y->set_output(true).set_name("y").set_dim(xd).set_stride(layout(xd, last));
        ASSERT_NO_FATAL_FAILURE(this->buildOn(g, this->handle()));
        Tensor<T> xt(xd, layout(xd, last)), mt(cd), vt(cd), st(cd), bt(cd), yt(xd, layout(xd, last)), yRef(xd);
        xt.fillUniform(-2.f, 2.f, r.seed(1));
        mt.fillUniform(-0.5f, 0.5f, r.seed(2));
        vt.fillUniform(0.5f, 2.f, r.seed(3));
        st.fillUniform(0.5f, 1.5f, r.seed(4));
        bt.fillUniform(-1.f, 1.f, r.seed(5));
        std::vector<uint8_t> ws(static_cast<size_t>(g.get_workspace_size()));
        FE_ASSERT_OK(g.execute(this->handle(),
                               {{x, xt.data()}, {m, mt.data()}, {v, vt.data()}, {s, st.data()}, {b, bt.data()},
                                {y, yt.data()}},
                               ws.data()));
        // The reference in fp32: inverse standard deviation, batchnorm, then the activation.
        Tensor<float> xf(xd), mf(cd), ivf(cd), sf(cd), bf(cd), bnRef(xd);
        tu::forEachIndex(xd, [&](const std::vector<int64_t>& idx) { xf.at(idx) = float(xt.at(idx)); });
        tu::forEachIndex(cd, [&](const std::vector<int64_t>& idx) {
            mf.at(idx) = float(mt.at(idx));
            ivf.at(idx) = 1.f / std::sqrt(float(vt.at(idx)) + epsilon);
            sf.at(idx) = float(st.at(idx));
            bf.at(idx) = float(bt.at(idx));
        });
        tu::CpuFpReferenceBatchnorm::inference<float, float, float>(xf.view(), mf.view(), ivf.view(), sf.view(),
                                                                    bf.view(), bnRef.view());
        tu::CpuReferencePointwise::compute<float, T>(act.mode, yRef.view(), bnRef.view(), nullptr, nullptr, act.params);
        // MIOpen rounds the batchnorm output to T before the activation (1-Lipschitz here).
        const double tol = tu::batchnorm::getToleranceInference<T>();
        expectClose(yRef, yt, 2 * tol, std::max(2 * tol, 3 * outputRtol<T>()), std::string("batchnorm inference + ") + act.name);
    }
}

TYPED_TEST(MiopenNormActTest, BatchnormTrainingMatchesReference)
{
    using T = TypeParam;
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
        ASSERT_NO_FATAL_FAILURE(this->buildOn(g, this->handle()));
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
        const double rtol = std::max(tol, 2 * outputRtol<T>());
        expectClose(yRef, yt, tol, rtol, "batchnorm training y");
        expectClose(mRef, mt, tol, rtol, "batchnorm training mean");
        expectClose(ivRef, ivt, tol, rtol, "batchnorm training inv_variance");
        expectClose(nmRef, nmt, tol, rtol, "batchnorm training next_running_mean");
        expectClose(nvRef, nvt, tol, rtol, "batchnorm training next_running_variance");
    }
}

TYPED_TEST(MiopenNormActTest, BatchnormBackwardMatchesReference)
{
    using T = TypeParam;
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
        ASSERT_NO_FATAL_FAILURE(this->buildOn(g, this->handle()));
        Tensor<T> dyt(xd, layout(xd, last)), xt(xd, layout(xd, last)), st(cd), dxt(xd, layout(xd, last)), dst(cd),
            dbt(cd);
        xt.fillUniform(-2.f, 2.f, r.seed(1));
        dyt.fillUniform(-1.f, 1.f, r.seed(2));
        st.fillUniform(0.5f, 1.5f, r.seed(3));
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
        const double rtol = std::max(tol, 2 * outputRtol<T>());
        expectClose(dxRef, dxt, tol, rtol, "batchnorm backward dx");
        expectClose(dsRef, dst, tol * std::sqrt(count), rtol, "batchnorm backward dscale");
        expectClose(dbRef, dbt, tol * std::sqrt(count), rtol, "batchnorm backward dbias");
    }
}

} // namespace
} // namespace miopen_provider_tests
