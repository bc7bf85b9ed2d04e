// Sample: the frontend built with hipdnn_frontend_dynamic loads libhipdnn_backend at run time
// (no link-time dependency) and runs a conv graph checked against the CPU reference.
#include "../SampleHelpers.hpp"

#include <hipdnn_test_sdk/utilities/CpuFpReferenceConvolution.hpp>
#include <hipdnn_test_sdk/utilities/TestTolerances.hpp>

#ifndef HIPDNN_FRONTEND_RUNTIME_LOAD_BACKEND
#error "this sample must be built against hipdnn_frontend_dynamic"
#endif

using namespace hipdnn_frontend;
using namespace hipdnn_test_sdk::utilities;

int main()
{
    const std::vector<int64_t> xDims = {1, 3, 7, 7}, wDims = {4, 3, 3, 3};
    ConvolutionParams params{{1, 1}, {1, 1}, {1, 1}, {1, 1}};

    const char* version = hipdnn_frontend::detail::hipdnnBackend()->versionString();
    std::cout << "backend loaded at run time, version " << (version ? version : "(unavailable)") << std::endl;

    auto [handle, handleError] = createHipdnnHandle();
    HIPDNN_FE_CHECK(handleError);
    graph::Graph g;
    g.set_io_data_type(DataType::FLOAT).set_compute_data_type(DataType::FLOAT);
    auto x = g.tensor(graph::TensorAttributes().set_dim(xDims));
    auto w = g.tensor(graph::TensorAttributes().set_dim(wDims));
    auto y = g.conv_fprop(x, w, graph::ConvFpropAttributes().set_padding({1, 1}).set_stride({1, 1}).set_dilation({1, 1}));
    y->set_output(true);
    HIPDNN_FE_CHECK(g.build(*handle));

    Tensor<float> xt(xDims), wt(wDims), yt(y->get_dim()), yRef(y->get_dim());
    xt.fillUniform(-1.0f, 1.0f, deriveSeed(51));
    wt.fillUniform(-1.0f, 1.0f, deriveSeed(52));
    std::vector<uint8_t> ws(static_cast<size_t>(g.get_workspace_size()));
    HIPDNN_FE_CHECK(g.execute(*handle, {{x, xt.data()}, {w, wt.data()}, {y, yt.data()}}, ws.data()));
    CpuFpReferenceConvolution::fprop<float, float, float>(xt.view(), wt.view(), yRef.view(), params);
    return samples::verify("conv_fprop via run-time loaded backend", yRef, yt, conv::getToleranceFwd<float>()) ? 0 : 1;
}
