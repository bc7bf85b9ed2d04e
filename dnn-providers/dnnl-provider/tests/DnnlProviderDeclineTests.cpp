// Graphs DNNL_ENGINE does not run are declined with a reason (checked on the provider's analysis
// directly), and with only this plugin loaded the frontend reports GRAPH_NOT_SUPPORTED.
#include "DnnlTestHelpers.hpp"

#include <DnnlGraphPlans.hpp>

#include <hipdnn_backend.h>

namespace dnnl_provider_tests
{
namespace
{

using fe::graph::TensorAttributes;

/// The provider's verdict on a frontend graph: empty when accepted, else the reason.
std::string verdict(fe::graph::Graph& g)
{
    const fe::Error validated = g.validate();
    if(validated.is_bad())
    {
        return "frontend validation failed: " + validated.get_message();
    }
    std::vector<uint8_t> bytes;
    const fe::Error serialized = g.serialize(bytes);
    if(serialized.is_bad())
    {
        return "frontend serialization failed: " + serialized.get_message();
    }
    const hipdnnPluginConstData_t data{bytes.data(), bytes.size()};
    const auto view = hipdnn_plugin_sdk::GraphView::fromBuffer(&data);
    std::string whyNot;
    auto plan = dnnl_provider::buildDnnlPlan(view, whyNot);
    return plan != nullptr ? std::string() : whyNot;
}

void convGraph(fe::graph::Graph& g, fe::DataType type, fe::ConvolutionMode mode = fe::ConvolutionMode::CROSS_CORRELATION)
{
    g.set_io_data_type(type).set_compute_data_type(fe::DataType::FLOAT);
    auto x = g.tensor(TensorAttributes().set_name("x").set_dim({1, 4, 6, 6}));
    auto w = g.tensor(TensorAttributes().set_name("w").set_dim({8, 4, 3, 3}));
    auto y = g.conv_fprop(x, w, fe::graph::ConvFpropAttributes().set_padding({1, 1}).set_convolution_mode(mode));
    y->set_output(true);
}

TEST(DnnlDeclines, AcceptsThePlainConvolutionTheOtherCasesVary)
{
    fe::graph::Graph g;
    convGraph(g, fe::DataType::FLOAT);
    EXPECT_EQ(verdict(g), "");
}

TEST(DnnlDeclines, Fp16WithTheReason)
{
    fe::graph::Graph g;
    convGraph(g, fe::DataType::HALF);
    EXPECT_NE(verdict(g).find("is fp16: declined"), std::string::npos) << verdict(g);
}

TEST(DnnlDeclines, TrueConvolutionMode)
{
    fe::graph::Graph g;
    convGraph(g, fe::DataType::FLOAT, fe::ConvolutionMode::CONVOLUTION);
    EXPECT_NE(verdict(g).find("CROSS_CORRELATION only"), std::string::npos) << verdict(g);
}

TEST(DnnlDeclines, PointwiseModesWithoutAOneDnnEltwise)
{
    for(auto mode : {fe::PointwiseMode::CEIL, fe::PointwiseMode::ERF, fe::PointwiseMode::SIN})
    {
        fe::graph::Graph g;
        g.set_io_data_type(fe::DataType::FLOAT);
        auto in = g.tensor(TensorAttributes().set_dim({2, 3, 4, 4}));
        g.pointwise(in, fe::graph::PointwiseAttributes().set_mode(mode))->set_output(true);
        EXPECT_NE(verdict(g).find("is not run by the oneDNN provider"), std::string::npos) << verdict(g);
    }
    fe::graph::Graph g;
    g.set_io_data_type(fe::DataType::FLOAT);
    auto a = g.tensor(TensorAttributes().set_dim({2, 3, 4, 4}));
    auto b = g.tensor(TensorAttributes().set_dim({2, 3, 4, 4}));
    // (ADD / MUL / MIN_OP / MAX_OP of two tensors run as a oneDNN binary: SUB is not one of them.)
    g.pointwise(a, b, fe::graph::PointwiseAttributes().set_mode(fe::PointwiseMode::SUB))->set_output(true);
    EXPECT_NE(verdict(g).find("several inputs"), std::string::npos) << verdict(g);
}

TEST(DnnlDeclines, SoftplusWithBeta)
{
    fe::graph::Graph g;
    g.set_io_data_type(fe::DataType::FLOAT);
    auto in = g.tensor(TensorAttributes().set_dim({2, 3, 4, 4}));
    g.pointwise(in, fe::graph::PointwiseAttributes().set_mode(fe::PointwiseMode::SOFTPLUS_FWD).set_softplus_beta(2.f))
        ->set_output(true);
    EXPECT_NE(verdict(g).find("beta"), std::string::npos) << verdict(g);
}

TEST(DnnlDeclines, BatchnormInferenceFollowedByWhatDoesNotFuse)
{
    // oneDNN 2.6's batchnorm fuses a plain RELU only (fuse_norm_relu): a sigmoid or a clipped RELU
    // after it is declined with the reason (another engine runs it).
    for(const bool clipped : {false, true})
    {
        fe::graph::Graph g;
        g.set_io_data_type(fe::DataType::FLOAT).set_intermediate_data_type(fe::DataType::FLOAT);
        const auto c = std::vector<int64_t>{1, 4, 1, 1};
        auto x = g.tensor(TensorAttributes().set_dim({2, 4, 5, 5}));
        auto m = g.tensor(TensorAttributes().set_dim(c));
        auto v = g.tensor(TensorAttributes().set_dim(c));
        auto s = g.tensor(TensorAttributes().set_dim(c));
        auto b = g.tensor(TensorAttributes().set_dim(c));
        auto bn = g.batchnorm_inference(x, m, v, s, b, fe::graph::BatchnormInferenceAttributes());
        auto act = clipped ? fe::graph::PointwiseAttributes().set_mode(fe::PointwiseMode::RELU_FWD).set_relu_upper_clip(6.f)
                           : fe::graph::PointwiseAttributes().set_mode(fe::PointwiseMode::SIGMOID_FWD);
        g.pointwise(bn, act)->set_output(true);
        EXPECT_NE(verdict(g).find("fuses a plain RELU only"), std::string::npos) << verdict(g);
    }
}

TEST(DnnlDeclines, ConvolutionFollowedByWhatDoesNotFuse)
{
    {
        fe::graph::Graph g;
        g.set_io_data_type(fe::DataType::FLOAT).set_intermediate_data_type(fe::DataType::FLOAT);
        auto x = g.tensor(TensorAttributes().set_dim({1, 4, 6, 6}));
        auto w = g.tensor(TensorAttributes().set_dim({8, 4, 3, 3}));
        auto s = g.tensor(TensorAttributes().set_dim({1, 8, 1, 1}));
        auto conv = g.conv_fprop(x, w, fe::graph::ConvFpropAttributes().set_padding({1, 1}));
        g.pointwise(conv, s, fe::graph::PointwiseAttributes().set_mode(fe::PointwiseMode::MUL))->set_output(true);
        EXPECT_NE(verdict(g).find("after a convolution is not fused"), std::string::npos) << verdict(g);
    }
    {
        fe::graph::Graph g;
        g.set_io_data_type(fe::DataType::FLOAT).set_intermediate_data_type(fe::DataType::FLOAT);
        auto x = g.tensor(TensorAttributes().set_dim({1, 4, 6, 6}));
        auto w = g.tensor(TensorAttributes().set_dim({8, 4, 3, 3}));
        auto c = std::vector<int64_t>{1, 8, 1, 1};
        auto conv = g.conv_fprop(x, w, fe::graph::ConvFpropAttributes().set_padding({1, 1}));
        auto m = g.tensor(TensorAttributes().set_dim(c));
        auto v = g.tensor(TensorAttributes().set_dim(c));
        auto s = g.tensor(TensorAttributes().set_dim(c));
        auto b = g.tensor(TensorAttributes().set_dim(c));
        g.batchnorm_inference(conv, m, v, s, b, fe::graph::BatchnormInferenceAttributes())->set_output(true);
        EXPECT_NE(verdict(g).find("not by BatchnormInferenceAttributes"), std::string::npos) << verdict(g);
    }
    {
        fe::graph::Graph g;
        g.set_io_data_type(fe::DataType::FLOAT).set_intermediate_data_type(fe::DataType::FLOAT);
        auto x = g.tensor(TensorAttributes().set_dim({1, 4, 6, 6}));
        auto w = g.tensor(TensorAttributes().set_dim({8, 4, 3, 3}));
        auto conv = g.conv_fprop(x, w, fe::graph::ConvFpropAttributes().set_padding({1, 1}));
        conv->set_output(true);
        g.pointwise(conv, fe::graph::PointwiseAttributes().set_mode(fe::PointwiseMode::RELU_FWD))->set_output(true);
        EXPECT_NE(verdict(g).find("graph output and also feeds"), std::string::npos) << verdict(g);
    }
}

TEST(DnnlDeclines, OnlyThisPluginLoadedGivesNotSupportedThroughTheFrontend)
{
    const char* paths[] = {DNNL_PROVIDER_PLUGIN_PATH};
    ASSERT_EQ(hipdnnSetEnginePluginPaths_ext(1, paths, HIPDNN_PLUGIN_LOADING_ABSOLUTE), HIPDNN_STATUS_SUCCESS);
    {
        auto [handle, error] = fe::createHipdnnHandle();
        ASSERT_FALSE(error.is_bad()) << error;
        fe::graph::Graph accepted;
        convGraph(accepted, fe::DataType::FLOAT);
        FE_ASSERT_OK(accepted.build(*handle));
        EXPECT_EQ(accepted.get_engine_name_ext(), "DNNL_ENGINE");
        fe::graph::Graph declined;
        convGraph(declined, fe::DataType::HALF);
        const fe::Error e = declined.build(*handle);
        EXPECT_TRUE(e.is_bad());
        EXPECT_EQ(e.get_code(), fe::ErrorCode::GRAPH_NOT_SUPPORTED) << e;
    }
    EXPECT_EQ(hipdnnSetEnginePluginPaths_ext(0, nullptr, HIPDNN_PLUGIN_LOADING_ADDITIVE), HIPDNN_STATUS_SUCCESS);
}

} // namespace
} // namespace dnnl_provider_tests
