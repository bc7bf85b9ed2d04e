// Small graphs shared by the tests, built with the frontend and serialized to FlatBuffers.
#pragma once

#include <hipdnn_frontend.hpp>

#include <vector>

namespace hipdnn_tests
{

/// x [1,2,5,5] * w [3,2,3,3], pad 1 -> y [1,3,5,5] (uids 1, 2, 3).
inline std::unique_ptr<hipdnn_frontend::graph::Graph> makeConvGraph()
{
    using namespace hipdnn_frontend;
    auto g = std::make_unique<graph::Graph>();
    g->set_io_data_type(DataType::FLOAT).set_compute_data_type(DataType::FLOAT);
    auto x = g->tensor(graph::TensorAttributes().set_uid(1).set_dim({1, 2, 5, 5}));
    auto w = g->tensor(graph::TensorAttributes().set_uid(2).set_dim({3, 2, 3, 3}));
    auto y = g->conv_fprop(x, w, graph::ConvFpropAttributes().set_padding({1, 1}).set_stride({1, 1}).set_dilation({1, 1}));
    y->set_output(true).set_uid(3);
    return g;
}

inline std::vector<uint8_t> serializedConvGraph()
{
    auto g = makeConvGraph();
    std::vector<uint8_t> bytes;
    if(g->validate().is_bad() || g->serialize(bytes).is_bad())
    {
        bytes.clear();
    }
    return bytes;
}

} // namespace hipdnn_tests
