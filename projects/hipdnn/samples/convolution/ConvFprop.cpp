// Sample: grouped, padded 2-D convolution forward through the frontend, checked against the
// test SDK's CPU reference. Exits non-zero on any failure or mismatch.
#include "../SampleHelpers.hpp"

#include <hipdnn_test_sdk/utilities/CpuFpReferenceConvolution.hpp>
#include <hipdnn_test_sdk/utilities/TestTolerances.hpp>

using namespace hipdnn_frontend;
using namespace hipdnn_test_sdk::utilities;

int main()
{
    const std::vector<int64_t> xDims = {2, 4, 9, 9}, wDims = {6, 2, 3, 3}; // 2 groups
    ConvolutionParams params{{1, 0}, {1, 2}, {2, 1}, {1, 2}};

    auto [handle, handleError] = createHipdnnHandle();
    HIPDNN_FE_CHECK(handleError);

    graph::Graph g;
    g.set_name("conv_fprop_sample")
        .set_io_data_type(DataType::FLOAT)
        .set_intermediate_data_type(DataType::FLOAT)
        .set_compute_data_type(DataType::FLOAT);
    auto x = g.tensor(graph::TensorAttributes().set_name("x").set_uid(1).set_dim(xDims).set_stride(
        hipdnn_data_sdk::utilities::packedStrides(xDims)));
    auto w = g.tensor(graph::TensorAttributes().set_name("w").set_uid(2).set_dim(wDims).set_stride(
        hipdnn_data_sdk::utilities::packedStrides(wDims)));
    auto y = g.conv_fprop(x, w,
                          graph::ConvFpropAttributes()
                              .set_pre_padding(params.prePadding)
                              .set_post_padding(params.postPadding)
                              .set_stride(params.stride)
                              .set_dilation(params.dilation));
    y->set_output(true).set_uid(3).set_name("y");
    HIPDNN_FE_CHECK(g.build(*handle));

    Tensor<float> xt(xDims), wt(wDims), yt(y->get_dim()), yRef(y->get_dim());
    xt.fillUniform(-1.0f, 1.0f, deriveSeed(1));
    wt.fillUniform(-1.0f, 1.0f, deriveSeed(2));
    std::vector<uint8_t> workspace(static_cast<size_t>(g.get_workspace_size()));
    std::unordered_map<int64_t, void*> pack = {{1, xt.data()}, {2, wt.data()}, {3, yt.data()}};
    HIPDNN_FE_CHECK(g.execute(*handle, pack, workspace.data()));

    CpuFpReferenceConvolution::fprop<float, float, float>(xt.view(), wt.view(), yRef.view(), params);
    return samples::verify("conv_fprop (engine " + g.get_engine_name_ext() + ")", yRef, yt,
                           conv::getToleranceFwd<float>())
               ? 0
               : 1;
}
