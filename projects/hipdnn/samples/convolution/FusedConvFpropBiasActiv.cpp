// Sample: conv_fprop -> pointwise ADD (bias, broadcast [1,K,1,1]) -> RELU_FWD in half precision
// with float intermediates and NHWC (channels-last) tensors; checked against the CPU references.
#include "../SampleHelpers.hpp"

#include <hipdnn_test_sdk/utilities/CpuFpReferenceConvolution.hpp>
#include <hipdnn_test_sdk/utilities/TestTolerances.hpp>
#include <hipdnn_test_sdk/utilities/pointwise/CpuReferencePointwise.hpp>

using namespace hipdnn_frontend;
using namespace hipdnn_test_sdk::utilities;
using hipdnn_data_sdk::types::half;
using hipdnn_data_sdk::utilities::channelsLastStrides;

int main()
{
    const std::vector<int64_t> xDims = {2, 8, 10, 10}, wDims = {16, 8, 3, 3}, bDims = {1, 16, 1, 1};
    ConvolutionParams params{{1, 1}, {1, 1}, {1, 1}, {1, 1}};
    const auto yDims = hipdnn_data_sdk::utilities::convForwardOutputDims(
        xDims, wDims, params.prePadding, params.postPadding, params.stride, params.dilation);

    auto [handle, handleError] = createHipdnnHandle();
    HIPDNN_FE_CHECK(handleError);
    graph::Graph g;
    g.set_io_data_type(DataType::HALF)
        .set_intermediate_data_type(DataType::FLOAT)
        .set_compute_data_type(DataType::FLOAT);
    auto x = g.tensor(graph::TensorAttributes().set_name("x").set_dim(xDims).set_stride(channelsLastStrides(xDims)));
    auto w = g.tensor(graph::TensorAttributes().set_name("w").set_dim(wDims).set_stride(channelsLastStrides(wDims)));
    auto b = g.tensor(graph::TensorAttributes().set_name("bias").set_dim(bDims));
    auto conv = g.conv_fprop(x, w, graph::ConvFpropAttributes().set_padding({1, 1}).set_stride({1, 1}).set_dilation({1, 1}));
    auto biased = g.pointwise(conv, b, graph::PointwiseAttributes().set_mode(hipdnn_frontend::PointwiseMode::ADD));
    auto y = g.pointwise(biased, graph::PointwiseAttributes().set_mode(hipdnn_frontend::PointwiseMode::RELU_FWD));
    y->set_output(true).set_name("y");
    HIPDNN_FE_CHECK(g.build(*handle));

    Tensor<half> xt(xDims, channelsLastStrides(xDims)), wt(wDims, channelsLastStrides(wDims)), bt(bDims);
    Tensor<half> yt(yDims, y->get_stride());
    xt.fillUniform(-1.0f, 1.0f, deriveSeed(31));
    wt.fillUniform(-1.0f, 1.0f, deriveSeed(32));
    bt.fillUniform(-1.0f, 1.0f, deriveSeed(33));
    std::vector<uint8_t> workspace(static_cast<size_t>(g.get_workspace_size()));
    HIPDNN_FE_CHECK(g.execute(*handle, {{x, xt.data()}, {w, wt.data()}, {b, bt.data()}, {y, yt.data()}}, workspace.data()));

    // Reference: float intermediates, half output.
    Tensor<float> convRef(yDims), biasedRef(yDims);
    Tensor<half> yRef(yDims, y->get_stride());
    CpuFpReferenceConvolution::fprop<half, half, float>(xt.view(), wt.view(), convRef.view(), params);
    TensorView<const float> convView = convRef.view();
    Tensor<float> bFloat(bDims);
    forEachIndex(bDims, [&](const std::vector<int64_t>& i) { bFloat.at(i) = bt.at(i); });
    TensorView<const float> bView = bFloat.view();
    CpuReferencePointwise::compute<float, float>(hipdnn_data_sdk::data_objects::PointwiseMode::ADD, biasedRef.view(),
                                                 convView, &bView, nullptr, PointwiseParams{});
    CpuReferencePointwise::compute<float, half>(hipdnn_data_sdk::data_objects::PointwiseMode::RELU_FWD, yRef.view(),
                                                biasedRef.view(), nullptr, nullptr, PointwiseParams{});
    return samples::verify("fused conv+bias+relu (fp16)", yRef, yt, conv::getRelativeToleranceFwd<half>()) ? 0 : 1;
}
