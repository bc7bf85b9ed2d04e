// Sample: dilated 1-D (N, C, W) convolution backward weights (wgrad), checked against the CPU
// reference with a dynamic tolerance that scales with the reduction length N * W_out.
#include "../SampleHelpers.hpp"

#include <hipdnn_test_sdk/utilities/CpuFpReferenceConvolution.hpp>
#include <hipdnn_test_sdk/utilities/TestTolerances.hpp>

using namespace hipdnn_frontend;
using namespace hipdnn_test_sdk::utilities;

int main()
{
    const std::vector<int64_t> xDims = {3, 6, 40}, dwDims = {4, 3, 5}; // 2 groups
    ConvolutionParams params{{2}, {2}, {1}, {2}};
    const auto dyDims = hipdnn_data_sdk::utilities::convForwardOutputDims(
        xDims, dwDims, params.prePadding, params.postPadding, params.stride, params.dilation);

    auto [handle, handleError] = createHipdnnHandle();
    HIPDNN_FE_CHECK(handleError);
    graph::Graph g;
    g.set_io_data_type(DataType::FLOAT).set_compute_data_type(DataType::FLOAT);
    auto x = g.tensor(graph::TensorAttributes().set_name("x").set_dim(xDims));
    auto dy = g.tensor(graph::TensorAttributes().set_name("dy").set_dim(dyDims));
    auto dw = g.conv_wgrad(dy, x,
                           graph::ConvWgradAttributes()
                               .set_padding(params.prePadding)
                               .set_stride(params.stride)
                               .set_dilation(params.dilation));
    dw->set_output(true).set_dim(dwDims).set_name("dw");
    HIPDNN_FE_CHECK(g.build(*handle));

    Tensor<float> xt(xDims), dyt(dyDims), dwt(dwDims), dwRef(dwDims);
    xt.fillUniform(-1.0f, 1.0f, deriveSeed(21));
    dyt.fillUniform(-1.0f, 1.0f, deriveSeed(22));
    std::vector<uint8_t> workspace(static_cast<size_t>(g.get_workspace_size()));
    HIPDNN_FE_CHECK(g.execute(*handle, {{x, xt.data()}, {dy, dyt.data()}, {dw, dwt.data()}}, workspace.data()));

    CpuFpReferenceConvolution::wgrad<float, float, float>(xt.view(), dyt.view(), dwRef.view(), params);
    const double tol = calculateConvWrwTolerance<float, float>(1.0, 1.0, dyDims[0] * dyDims[2]);
    return samples::verify("conv_wgrad", dwRef, dwt, tol) ? 0 : 1;
}
