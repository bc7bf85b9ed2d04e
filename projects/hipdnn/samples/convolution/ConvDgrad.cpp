// Sample: 3-D convolution backward data (dgrad) with stride and asymmetric padding, checked
// against the CPU reference.
#include "../SampleHelpers.hpp"

#include <hipdnn_test_sdk/utilities/CpuFpReferenceConvolution.hpp>
#include <hipdnn_test_sdk/utilities/TestTolerances.hpp>

using namespace hipdnn_frontend;
using namespace hipdnn_test_sdk::utilities;

int main()
{
    const std::vector<int64_t> dxDims = {1, 4, 5, 6, 6}, wDims = {3, 4, 2, 3, 3};
    ConvolutionParams params{{0, 1, 1}, {1, 1, 0}, {1, 2, 2}, {1, 1, 1}};
    const auto dyDims = hipdnn_data_sdk::utilities::convForwardOutputDims(
        dxDims, wDims, params.prePadding, params.postPadding, params.stride, params.dilation);

    auto [handle, handleError] = createHipdnnHandle();
    HIPDNN_FE_CHECK(handleError);
    graph::Graph g;
    g.set_io_data_type(DataType::FLOAT).set_compute_data_type(DataType::FLOAT);
    auto dy = g.tensor(graph::TensorAttributes().set_name("dy").set_dim(dyDims));
    auto w = g.tensor(graph::TensorAttributes().set_name("w").set_dim(wDims));
    auto dx = g.conv_dgrad(dy, w,
                           graph::ConvDgradAttributes()
                               .set_pre_padding(params.prePadding)
                               .set_post_padding(params.postPadding)
                               .set_stride(params.stride)
                               .set_dilation(params.dilation));
    dx->set_output(true).set_dim(dxDims).set_name("dx");
    HIPDNN_FE_CHECK(g.build(*handle));

    Tensor<float> dyt(dyDims), wt(wDims), dxt(dxDims), dxRef(dxDims);
    dyt.fillUniform(-1.0f, 1.0f, deriveSeed(11));
    wt.fillUniform(-1.0f, 1.0f, deriveSeed(12));
    std::vector<uint8_t> workspace(static_cast<size_t>(g.get_workspace_size()));
    HIPDNN_FE_CHECK(g.execute(*handle, {{dy, dyt.data()}, {w, wt.data()}, {dx, dxt.data()}}, workspace.data()));

    CpuFpReferenceConvolution::dgrad<float, float, float>(dyt.view(), wt.view(), dxRef.view(), params);
    return samples::verify("conv_dgrad", dxRef, dxt, conv::getToleranceBwd<float>() * 10) ? 0 : 1;
}
