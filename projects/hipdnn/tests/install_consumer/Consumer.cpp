// Builds against the installed headers and packages and runs a conv through the installed
// backend and example plugin; exits non-zero on any error or mismatch.
#include <hipdnn_frontend.hpp>
#include <hipdnn_test_sdk/utilities/CpuFpReferenceConvolution.hpp>
#include <hipdnn_test_sdk/utilities/CpuFpReferenceValidation.hpp>

#include <iostream>

int main()
{
    using namespace hipdnn_frontend;
    using namespace hipdnn_test_sdk::utilities;
    auto [handle, err] = createHipdnnHandle();
    if(err.is_bad())
    {
        std::cerr << err << std::endl;
        return 1;
    }
    graph::Graph g;
    g.set_io_data_type(DataType::FLOAT).set_compute_data_type(DataType::FLOAT);
    auto x = g.tensor(graph::TensorAttributes().set_dim({1, 2, 4, 4}));
    auto w = g.tensor(graph::TensorAttributes().set_dim({2, 2, 3, 3}));
    auto y = g.conv_fprop(x, w, graph::ConvFpropAttributes().set_padding({1, 1}).set_stride({1, 1}).set_dilation({1, 1}));
    y->set_output(true);
    if(auto e = g.build(*handle); e.is_bad())
    {
        std::cerr << e << std::endl;
        return 1;
    }
    Tensor<float> xt({1, 2, 4, 4}), wt({2, 2, 3, 3}), yt({1, 2, 4, 4}), ref({1, 2, 4, 4});
    xt.fillUniform(-1, 1, 1);
    wt.fillUniform(-1, 1, 2);
    if(auto e = g.execute(*handle, {{x, xt.data()}, {w, wt.data()}, {y, yt.data()}}, nullptr); e.is_bad())
    {
        std::cerr << e << std::endl;
        return 1;
    }
    CpuFpReferenceConvolution::fprop<float, float, float>(xt.view(), wt.view(), ref.view(), {{1, 1}, {1, 1}, {1, 1}, {1, 1}});
    const bool ok = CpuFpReferenceValidation<float>(1e-5, 1e-5).allClose(ref, yt);
    std::cout << (ok ? "installed hipDNN: conv matches the reference" : "installed hipDNN: MISMATCH") << std::endl;
    return ok ? 0 : 1;
}
