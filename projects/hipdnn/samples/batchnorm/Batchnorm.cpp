// Sample: batchnorm training (batch statistics + running statistics), then inference with the
// saved statistics, then backward; every output checked against the CPU reference.
#include "../SampleHelpers.hpp"

#include <hipdnn_test_sdk/utilities/CpuFpReferenceBatchnorm.hpp>
#include <hipdnn_test_sdk/utilities/TestTolerances.hpp>

using namespace hipdnn_frontend;
using namespace hipdnn_test_sdk::utilities;

int main()
{
    const std::vector<int64_t> xDims = {4, 3, 6, 5}, cDims = {1, 3, 1, 1};
    const float epsilon = 1e-5f, momentum = 0.1f;
    auto [handle, handleError] = createHipdnnHandle();
    HIPDNN_FE_CHECK(handleError);

    Tensor<float> x(xDims), scale(cDims), bias(cDims), prevMean(cDims), prevVar(cDims), dy(xDims);
    x.fillUniform(-2.0f, 3.0f, deriveSeed(41));
    scale.fillUniform(0.5f, 1.5f, deriveSeed(42));
    bias.fillUniform(-0.5f, 0.5f, deriveSeed(43));
    prevMean.fillUniform(-0.1f, 0.1f, deriveSeed(44));
    prevVar.fillUniform(0.9f, 1.1f, deriveSeed(45));
    dy.fillUniform(-1.0f, 1.0f, deriveSeed(46));
    bool ok = true;

    // Training.
    Tensor<float> y(xDims), mean(cDims), invVar(cDims), nextMean(cDims), nextVar(cDims);
    {
        graph::Graph g;
        g.set_io_data_type(DataType::FLOAT).set_intermediate_data_type(DataType::FLOAT).set_compute_data_type(DataType::FLOAT);
        auto tx = g.tensor(graph::TensorAttributes().set_name("x").set_dim(xDims));
        auto ts = g.tensor(graph::TensorAttributes().set_name("scale").set_dim(cDims));
        auto tb = g.tensor(graph::TensorAttributes().set_name("bias").set_dim(cDims));
        auto tpm = g.tensor(graph::TensorAttributes().set_name("prev_mean").set_dim(cDims));
        auto tpv = g.tensor(graph::TensorAttributes().set_name("prev_var").set_dim(cDims));
        auto teps = g.tensor(graph::TensorAttributes().set_name("epsilon").set_value(epsilon));
        auto tmom = g.tensor(graph::TensorAttributes().set_name("momentum").set_value(momentum));
        auto outs = g.batchnorm(tx, ts, tb,
                                graph::BatchnormAttributes().set_epsilon(teps).set_previous_running_stats(tpm, tpv, tmom));
        for(auto& t : outs)
        {
            t->set_output(true);
        }
        HIPDNN_FE_CHECK(g.build(*handle));
        std::vector<uint8_t> ws(static_cast<size_t>(g.get_workspace_size()));
        HIPDNN_FE_CHECK(g.execute(*handle,
                                  {{tx, x.data()}, {ts, scale.data()}, {tb, bias.data()}, {tpm, prevMean.data()},
                                   {tpv, prevVar.data()}, {outs[0], y.data()}, {outs[1], mean.data()},
                                   {outs[2], invVar.data()}, {outs[3], nextMean.data()}, {outs[4], nextVar.data()}},
                                  ws.data()));
        Tensor<float> yRef(xDims), meanRef(cDims), ivRef(cDims), nmRef(cDims), nvRef(cDims);
        CpuFpReferenceBatchnorm::training<float, float, float>(x.view(), scale.view(), bias.view(), epsilon, yRef.view(),
                                                               meanRef.view(), ivRef.view(), prevMean.view(),
                                                               prevVar.view(), momentum, nmRef.view(), nvRef.view());
        const double tol = batchnorm::getToleranceTraining<float>();
        ok = samples::verify("batchnorm training y", yRef, y, tol) && ok;
        ok = samples::verify("batchnorm training mean", meanRef, mean, tol) && ok;
        ok = samples::verify("batchnorm training inv_variance", ivRef, invVar, tol) && ok;
        ok = samples::verify("batchnorm training next_running_mean", nmRef, nextMean, tol) && ok;
        ok = samples::verify("batchnorm training next_running_var", nvRef, nextVar, tol) && ok;
    }
    // Inference with the saved statistics.
    {
        graph::Graph g;
        g.set_io_data_type(DataType::FLOAT).set_compute_data_type(DataType::FLOAT);
        auto tx = g.tensor(graph::TensorAttributes().set_dim(xDims));
        auto tm = g.tensor(graph::TensorAttributes().set_dim(cDims));
        auto tv = g.tensor(graph::TensorAttributes().set_dim(cDims));
        auto ts = g.tensor(graph::TensorAttributes().set_dim(cDims));
        auto tb = g.tensor(graph::TensorAttributes().set_dim(cDims));
        auto ty = g.batchnorm_inference(tx, tm, tv, ts, tb, graph::BatchnormInferenceAttributes());
        ty->set_output(true);
        HIPDNN_FE_CHECK(g.build(*handle));
        Tensor<float> yi(xDims), yRef(xDims);
        std::vector<uint8_t> workspace(static_cast<size_t>(g.get_workspace_size()));
        HIPDNN_FE_CHECK(g.execute(*handle,
                                  {{tx, x.data()}, {tm, mean.data()}, {tv, invVar.data()}, {ts, scale.data()},
                                   {tb, bias.data()}, {ty, yi.data()}},
                                  workspace.data()));
        CpuFpReferenceBatchnorm::inference<float, float, float>(x.view(), mean.view(), invVar.view(), scale.view(),
                                                                bias.view(), yRef.view());
        ok = samples::verify("batchnorm inference y", yRef, yi, batchnorm::getToleranceInference<float>()) && ok;
    }
    // Backward.
    {
        graph::Graph g;
        g.set_io_data_type(DataType::FLOAT).set_compute_data_type(DataType::FLOAT);
        auto tdy = g.tensor(graph::TensorAttributes().set_dim(xDims));
        auto tx = g.tensor(graph::TensorAttributes().set_dim(xDims));
        auto ts = g.tensor(graph::TensorAttributes().set_dim(cDims));
        auto tm = g.tensor(graph::TensorAttributes().set_dim(cDims));
        auto tv = g.tensor(graph::TensorAttributes().set_dim(cDims));
        auto outs = g.batchnorm_backward(tdy, tx, ts, graph::BatchnormBackwardAttributes().set_saved_mean_and_inv_variance(tm, tv));
        for(auto& t : outs)
        {
            t->set_output(true);
        }
        HIPDNN_FE_CHECK(g.build(*handle));
        Tensor<float> dx(xDims), dscale(cDims), dbias(cDims), dxRef(xDims), dsRef(cDims), dbRef(cDims);
        std::vector<uint8_t> workspace(static_cast<size_t>(g.get_workspace_size()));
        HIPDNN_FE_CHECK(g.execute(*handle,
                                  {{tdy, dy.data()}, {tx, x.data()}, {ts, scale.data()}, {tm, mean.data()},
                                   {tv, invVar.data()}, {outs[0], dx.data()}, {outs[1], dscale.data()},
                                   {outs[2], dbias.data()}},
                                  workspace.data()));
        CpuFpReferenceBatchnorm::backward<float, float, float>(dy.view(), x.view(), mean.view(), invVar.view(),
                                                               scale.view(), dxRef.view(), dsRef.view(), dbRef.view());
        const double tol = batchnorm::getToleranceBackward<float>();
        ok = samples::verify("batchnorm backward dx", dxRef, dx, tol) && ok;
        ok = samples::verify("batchnorm backward dscale", dsRef, dscale, tol) && ok;
        ok = samples::verify("batchnorm backward dbias", dbRef, dbias, tol) && ok;
    }
    return ok ? 0 : 1;
}
