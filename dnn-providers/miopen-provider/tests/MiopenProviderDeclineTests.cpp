// Graphs the MIOpen engines do not run are declined with a reason (checked on the provider's
// analysis directly), the frontend reports GRAPH_NOT_SUPPORTED with only this plugin loaded, and
// bad input through the plugin's C entry points gives plugin statuses, never a crash.
#include "MiopenTestHelpers.hpp"

#include <MiopenGraphPlans.hpp>

#include <hipdnn_backend.h>
#include <hipdnn_data_sdk/flatbuffer_utilities/DataObjects.hpp>
#include <hipdnn_data_sdk/utilities/EngineNames.hpp>
#include <hipdnn_plugin_sdk/EnginePluginApi.h>
#include <hipdnn_plugin_sdk/PluginApi.h>

#include <dlfcn.h>

namespace miopen_provider_tests
{
namespace
{

using fe::graph::TensorAttributes;
using hipdnn_data_sdk::utilities::MIOPEN_ENGINE_DETERMINISTIC_ID;
using hipdnn_data_sdk::utilities::MIOPEN_ENGINE_ID;

/// The provider's verdict on a frontend graph: empty when accepted, else the reason.
std::string verdict(fe::graph::Graph& g, bool deterministic = false)
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
    auto plan = miopen_provider::buildMiopenPlan(view, deterministic, whyNot);
    return plan != nullptr ? std::string() : whyNot;
}

void expectDeclined(fe::graph::Graph& g, const std::string& reason, bool deterministic = false)
{
    const std::string v = verdict(g, deterministic);
    EXPECT_NE(v.find(reason), std::string::npos) << "verdict: '" << v << "', expected to contain '" << reason << "'";
}

fe::graph::ConvFpropAttributes padded(int64_t pre, int64_t post)
{
    return fe::graph::ConvFpropAttributes().set_pre_padding({pre, pre}).set_post_padding({post, post});
}

void convGraph(fe::graph::Graph& g, fe::DataType type, fe::graph::ConvFpropAttributes attributes = padded(1, 1))
{
    g.set_io_data_type(type).set_compute_data_type(fe::DataType::FLOAT);
    auto x = g.tensor(TensorAttributes().set_name("x").set_dim({1, 4, 6, 6}));
    auto w = g.tensor(TensorAttributes().set_name("w").set_dim({8, 4, 3, 3}));
    auto y = g.conv_fprop(x, w, attributes);
    y->set_output(true);
}

TEST(MiopenDeclines, AcceptsThePlainConvolutionTheOtherCasesVary)
{
    for(auto type : {fe::DataType::FLOAT, fe::DataType::HALF, fe::DataType::BFLOAT16})
    {
        fe::graph::Graph g;
        convGraph(g, type);
        EXPECT_EQ(verdict(g), "");
        EXPECT_EQ(verdict(g, true), "");
    }
}

TEST(MiopenDeclines, AsymmetricPadding)
{
    fe::graph::Graph g;
    convGraph(g, fe::DataType::FLOAT, padded(1, 0));
    expectDeclined(g, "asymmetric padding");
}

TEST(MiopenDeclines, TrueConvolutionMode)
{
    fe::graph::Graph g;
    convGraph(g, fe::DataType::FLOAT, padded(1, 1).set_convolution_mode(fe::ConvolutionMode::CONVOLUTION));
    expectDeclined(g, "CROSS_CORRELATION only");
}

TEST(MiopenDeclines, OtherDataTypesAndComputeTypes)
{
    {
        fe::graph::Graph g;
        convGraph(g, fe::DataType::DOUBLE);
        expectDeclined(g, "fp32, fp16 and bf16 tensors only");
    }
    {
        fe::graph::Graph g;
        convGraph(g, fe::DataType::FLOAT);
        g.set_compute_data_type(fe::DataType::HALF);
        expectDeclined(g, "MIOpen computes in fp32");
    }
}

TEST(MiopenDeclines, PointwiseModesWithoutAMiopenActivation)
{
    for(auto mode : {fe::PointwiseMode::GELU_FWD, fe::PointwiseMode::SWISH_FWD, fe::PointwiseMode::EXP})
    {
        fe::graph::Graph g;
        g.set_io_data_type(fe::DataType::FLOAT);
        auto in = g.tensor(TensorAttributes().set_dim({2, 3, 4, 4}));
        g.pointwise(in, fe::graph::PointwiseAttributes().set_mode(mode))->set_output(true);
        expectDeclined(g, "has no MIOpen activation");
    }
    {
        fe::graph::Graph g;
        g.set_io_data_type(fe::DataType::FLOAT);
        auto in = g.tensor(TensorAttributes().set_dim({2, 3, 4, 4}));
        g.pointwise(in, fe::graph::PointwiseAttributes().set_mode(fe::PointwiseMode::SOFTPLUS_FWD).set_softplus_beta(2.f))
            ->set_output(true);
        expectDeclined(g, "beta != 1");
    }
    {
        fe::graph::Graph g;
        g.set_io_data_type(fe::DataType::FLOAT);
        auto in = g.tensor(TensorAttributes().set_dim({2, 3, 4, 4}));
        g.pointwise(in, fe::graph::PointwiseAttributes().set_mode(fe::PointwiseMode::RELU_FWD).set_relu_lower_clip(-1.f))
            ->set_output(true);
        expectDeclined(g, "lower clip other than 0");
    }
    {
        fe::graph::Graph g;
        g.set_io_data_type(fe::DataType::FLOAT);
        auto a = g.tensor(TensorAttributes().set_dim({2, 3, 4, 4}));
        auto b = g.tensor(TensorAttributes().set_dim({2, 3, 4, 4}));
        // (ADD / MUL / MIN_OP / MAX_OP of two tensors run as miopenOpTensor_impl: SUB has no MIOpen call.)
        g.pointwise(a, b, fe::graph::PointwiseAttributes().set_mode(fe::PointwiseMode::SUB))->set_output(true);
        expectDeclined(g, "pointwise mode SUB has no MIOpen activation");
    }
}

TEST(MiopenDeclines, TheDeterministicEngineRunsConvolutionsOnly)
{
    fe::graph::Graph g;
    g.set_io_data_type(fe::DataType::FLOAT);
    auto in = g.tensor(TensorAttributes().set_dim({2, 3, 4, 4}));
    g.pointwise(in, fe::graph::PointwiseAttributes().set_mode(fe::PointwiseMode::RELU_FWD))->set_output(true);
    EXPECT_EQ(verdict(g), "");
    expectDeclined(g, "MIOPEN_ENGINE_DETERMINISTIC runs convolutions only", true);
}

TEST(MiopenDeclines, ConvolutionFollowedByWhatDoesNotFuse)
{
    const std::vector<int64_t> c = {1, 8, 1, 1};
    {
        fe::graph::Graph g;
        g.set_io_data_type(fe::DataType::FLOAT).set_intermediate_data_type(fe::DataType::FLOAT);
        auto x = g.tensor(TensorAttributes().set_dim({1, 4, 6, 6}));
        auto w = g.tensor(TensorAttributes().set_dim({8, 4, 3, 3}));
        auto s = g.tensor(TensorAttributes().set_dim(c));
        auto conv = g.conv_fprop(x, w, padded(1, 1));
        g.pointwise(conv, s, fe::graph::PointwiseAttributes().set_mode(fe::PointwiseMode::MUL))->set_output(true);
        expectDeclined(g, "after a convolution is not fused");
    }
    {
        fe::graph::Graph g;
        g.set_io_data_type(fe::DataType::FLOAT).set_intermediate_data_type(fe::DataType::FLOAT);
        auto x = g.tensor(TensorAttributes().set_dim({1, 4, 6, 6}));
        auto w = g.tensor(TensorAttributes().set_dim({8, 4, 3, 3}));
        auto conv = g.conv_fprop(x, w, padded(1, 1));
        auto m = g.tensor(TensorAttributes().set_dim(c));
        auto v = g.tensor(TensorAttributes().set_dim(c));
        auto s = g.tensor(TensorAttributes().set_dim(c));
        auto b = g.tensor(TensorAttributes().set_dim(c));
        g.batchnorm_inference(conv, m, v, s, b, fe::graph::BatchnormInferenceAttributes())->set_output(true);
        expectDeclined(g, "not by BatchnormInferenceAttributes");
    }
    {
        fe::graph::Graph g;
        g.set_io_data_type(fe::DataType::FLOAT).set_intermediate_data_type(fe::DataType::FLOAT);
        auto x = g.tensor(TensorAttributes().set_dim({1, 4, 6, 6}));
        auto w = g.tensor(TensorAttributes().set_dim({8, 4, 3, 3}));
        auto conv = g.conv_fprop(x, w, padded(1, 1));
        conv->set_output(true);
        g.pointwise(conv, fe::graph::PointwiseAttributes().set_mode(fe::PointwiseMode::RELU_FWD))->set_output(true);
        expectDeclined(g, "graph output and feeds");
    }
    {
        // A residual (full-shape) addend is no MIOpen bias: not a fusion plan, but a convolution
        // epilogue (conv into scratch, then Private's tensor operations) runs it.
        fe::graph::Graph g;
        g.set_io_data_type(fe::DataType::FLOAT).set_intermediate_data_type(fe::DataType::FLOAT);
        auto x = g.tensor(TensorAttributes().set_dim({1, 4, 6, 6}));
        auto w = g.tensor(TensorAttributes().set_dim({8, 4, 3, 3}));
        auto z = g.tensor(TensorAttributes().set_dim({1, 8, 6, 6}));
        auto conv = g.conv_fprop(x, w, padded(1, 1));
        auto sum = g.pointwise(conv, z, fe::graph::PointwiseAttributes().set_mode(fe::PointwiseMode::ADD));
        g.pointwise(sum, fe::graph::PointwiseAttributes().set_mode(fe::PointwiseMode::RELU_FWD))->set_output(true);
        EXPECT_EQ(verdict(g), "");
    }
    {
        // Channels-last: MIOpen's fusion plan infers layouts from strides, so no fusion plan; the
        // convolution epilogue runs it.
        fe::graph::Graph g;
        g.set_io_data_type(fe::DataType::FLOAT).set_intermediate_data_type(fe::DataType::FLOAT);
        const std::vector<int64_t> xd = {1, 4, 6, 6}, yd = {1, 8, 6, 6};
        auto x = g.tensor(TensorAttributes().set_dim(xd).set_stride(layout(xd, true)));
        auto w = g.tensor(TensorAttributes().set_dim({8, 4, 3, 3}));
        auto conv = g.conv_fprop(x, w, padded(1, 1));
        auto y = g.pointwise(conv, fe::graph::PointwiseAttributes().set_mode(fe::PointwiseMode::RELU_FWD));
        y->set_output(true).set_dim(yd).set_stride(layout(yd, true));
        EXPECT_EQ(verdict(g), "");
    }
}

TEST(MiopenDeclines, OnlyThisPluginLoadedGivesNotSupportedThroughTheFrontend)
{
    const char* paths[] = {MIOPEN_PROVIDER_PLUGIN_PATH};
    ASSERT_EQ(hipdnnSetEnginePluginPaths_ext(1, paths, HIPDNN_PLUGIN_LOADING_ABSOLUTE), HIPDNN_STATUS_SUCCESS);
    {
        auto [handle, error] = fe::createHipdnnHandle();
        ASSERT_FALSE(error.is_bad()) << error;
        fe::graph::Graph accepted;
        convGraph(accepted, fe::DataType::HALF);
        FE_ASSERT_OK(accepted.build(*handle));
        EXPECT_EQ(accepted.get_engine_name_ext(), kEngine);
        fe::graph::Graph declined;
        convGraph(declined, fe::DataType::FLOAT, padded(2, 0));
        const fe::Error e = declined.build(*handle);
        EXPECT_TRUE(e.is_bad());
        EXPECT_EQ(e.get_code(), fe::ErrorCode::GRAPH_NOT_SUPPORTED) << e;
    }
    EXPECT_EQ(hipdnnSetEnginePluginPaths_ext(0, nullptr, HIPDNN_PLUGIN_LOADING_ADDITIVE), HIPDNN_STATUS_SUCCESS);
}

/// The plugin's entry points, resolved once (dlopen, as the backend loads it).
struct PluginApi
{
    void* library = nullptr;
    decltype(&hipdnnPluginGetLastErrorString) lastError = nullptr;
    decltype(&hipdnnEnginePluginGetAllEngineIds) allEngineIds = nullptr;
    decltype(&hipdnnEnginePluginGetEngineName) engineName = nullptr;
    decltype(&hipdnnEnginePluginCreate) create = nullptr;
    decltype(&hipdnnEnginePluginDestroy) destroy = nullptr;
    decltype(&hipdnnEnginePluginGetApplicableEngineIds) applicable = nullptr;
    decltype(&hipdnnEnginePluginGetWorkspaceSize) workspaceSize = nullptr;
    decltype(&hipdnnEnginePluginCreateExecutionContext) createContext = nullptr;
    decltype(&hipdnnEnginePluginDestroyExecutionContext) destroyContext = nullptr;
    decltype(&hipdnnEnginePluginExecuteOpGraph) execute = nullptr;

    static const PluginApi& get()
    {
        static const PluginApi api = [] {
            PluginApi a;
            a.library = dlopen(MIOPEN_PROVIDER_PLUGIN_PATH, RTLD_NOW | RTLD_LOCAL);
            if(a.library == nullptr)
            {
                return a;
            }
            auto sym = [&](auto& fn, const char* name) {
                fn = reinterpret_cast<std::decay_t<decltype(fn)>>(dlsym(a.library, name));
            };
            sym(a.lastError, "hipdnnPluginGetLastErrorString");
            sym(a.allEngineIds, "hipdnnEnginePluginGetAllEngineIds");
            sym(a.engineName, "hipdnnEnginePluginGetEngineName");
            sym(a.create, "hipdnnEnginePluginCreate");
            sym(a.destroy, "hipdnnEnginePluginDestroy");
            sym(a.applicable, "hipdnnEnginePluginGetApplicableEngineIds");
            sym(a.workspaceSize, "hipdnnEnginePluginGetWorkspaceSize");
            sym(a.createContext, "hipdnnEnginePluginCreateExecutionContext");
            sym(a.destroyContext, "hipdnnEnginePluginDestroyExecutionContext");
            sym(a.execute, "hipdnnEnginePluginExecuteOpGraph");
            return a;
        }();
        return api;
    }

    std::string lastErrorText() const
    {
        const char* text = nullptr;
        lastError(&text);
        return text != nullptr ? text : "";
    }
};

std::vector<uint8_t> serializedConv(fe::graph::ConvFpropAttributes attributes)
{
    fe::graph::Graph g;
    g.set_io_data_type(fe::DataType::FLOAT).set_compute_data_type(fe::DataType::FLOAT);
    auto x = g.tensor(TensorAttributes().set_uid(1).set_dim({2, 16, 7, 7}));
    auto w = g.tensor(TensorAttributes().set_uid(2).set_dim({16, 16, 3, 3}));
    auto y = g.conv_fprop(x, w, attributes);
    y->set_output(true).set_uid(3);
    std::vector<uint8_t> bytes;
    EXPECT_FALSE(g.validate().is_bad());
    EXPECT_FALSE(g.serialize(bytes).is_bad());
    return bytes;
}

std::vector<uint8_t> engineConfig(int64_t engineId)
{
    flatbuffers::FlatBufferBuilder fbb;
    fbb.Finish(hipdnn_data_sdk::data_objects::CreateEngineConfig(fbb, engineId));
    return {fbb.GetBufferPointer(), fbb.GetBufferPointer() + fbb.GetSize()};
}

class MiopenPluginApi : public ::testing::Test
{
protected:
    void SetUp() override
    {
        ASSERT_NE(api().library, nullptr) << dlerror();
        ASSERT_NE(api().execute, nullptr);
        ASSERT_EQ(api().create(&_handle), HIPDNN_PLUGIN_STATUS_SUCCESS);
    }
    void TearDown() override
    {
        if(_handle != nullptr)
        {
            EXPECT_EQ(api().destroy(_handle), HIPDNN_PLUGIN_STATUS_SUCCESS);
        }
    }
    static const PluginApi& api() { return PluginApi::get(); }
    hipdnnEnginePluginHandle_t _handle = nullptr;
};

TEST_F(MiopenPluginApi, TwoEnginesWithUpstreamNamesAndIds)
{
    int64_t ids[4] = {};
    uint32_t count = 0;
    ASSERT_EQ(api().allEngineIds(ids, 4, &count), HIPDNN_PLUGIN_STATUS_SUCCESS);
    ASSERT_EQ(count, 2u);
    EXPECT_EQ(ids[0], MIOPEN_ENGINE_ID);
    EXPECT_EQ(ids[1], MIOPEN_ENGINE_DETERMINISTIC_ID);
    EXPECT_EQ(ids[0], static_cast<int64_t>(0x15B46865C717A122ULL)); // upstream's id of MIOPEN_ENGINE
    const char* name = nullptr;
    ASSERT_EQ(api().engineName(MIOPEN_ENGINE_DETERMINISTIC_ID, &name), HIPDNN_PLUGIN_STATUS_SUCCESS);
    EXPECT_STREQ(name, kDeterministicEngine);
}

TEST_F(MiopenPluginApi, GarbageGraphIsBadParam)
{
    const uint8_t garbage[64] = {1, 2, 3, 4, 5};
    const hipdnnPluginConstData_t graph{garbage, sizeof(garbage)};
    int64_t id = 0;
    uint32_t count = 0;
    EXPECT_EQ(api().applicable(_handle, &graph, &id, 1, &count), HIPDNN_PLUGIN_STATUS_BAD_PARAM);
    EXPECT_NE(api().lastErrorText().find("invalid op graph"), std::string::npos) << api().lastErrorText();
    EXPECT_EQ(api().applicable(_handle, nullptr, &id, 1, &count), HIPDNN_PLUGIN_STATUS_BAD_PARAM);
}

TEST_F(MiopenPluginApi, DeclinedGraphIsNotApplicable)
{
    const auto bytes = serializedConv(padded(1, 0));
    const hipdnnPluginConstData_t graph{bytes.data(), bytes.size()};
    int64_t ids[2] = {};
    uint32_t count = 7;
    ASSERT_EQ(api().applicable(_handle, &graph, ids, 2, &count), HIPDNN_PLUGIN_STATUS_SUCCESS);
    EXPECT_EQ(count, 0u);
    const auto config = engineConfig(MIOPEN_ENGINE_ID);
    const hipdnnPluginConstData_t cfg{config.data(), config.size()};
    size_t ws = 0;
    EXPECT_EQ(api().workspaceSize(_handle, &cfg, &graph, &ws), HIPDNN_PLUGIN_STATUS_NOT_APPLICABLE);
    hipdnnEnginePluginExecutionContext_t ctx = nullptr;
    EXPECT_EQ(api().createContext(_handle, &cfg, &graph, &ctx), HIPDNN_PLUGIN_STATUS_NOT_APPLICABLE);
    EXPECT_EQ(ctx, nullptr);
}

TEST_F(MiopenPluginApi, ExecuteWithMissingBuffersOrWorkspaceIsBadParam)
{
    const auto bytes = serializedConv(padded(1, 1));
    const hipdnnPluginConstData_t graph{bytes.data(), bytes.size()};
    int64_t ids[2] = {};
    uint32_t count = 0;
    ASSERT_EQ(api().applicable(_handle, &graph, ids, 2, &count), HIPDNN_PLUGIN_STATUS_SUCCESS);
    ASSERT_EQ(count, 2u);
    const auto config = engineConfig(MIOPEN_ENGINE_ID);
    const hipdnnPluginConstData_t cfg{config.data(), config.size()};
    size_t ws = 0;
    ASSERT_EQ(api().workspaceSize(_handle, &cfg, &graph, &ws), HIPDNN_PLUGIN_STATUS_SUCCESS);
    hipdnnEnginePluginExecutionContext_t ctx = nullptr;
    ASSERT_EQ(api().createContext(_handle, &cfg, &graph, &ctx), HIPDNN_PLUGIN_STATUS_SUCCESS);

    std::vector<float> x(2 * 16 * 7 * 7, 1.f), w(16 * 16 * 3 * 3, 0.5f), y(2 * 16 * 7 * 7, -1.f);
    std::vector<uint8_t> workspace(ws + 1);
    const hipdnnPluginDeviceBuffer_t some[] = {{1, x.data()}, {2, w.data()}};
    EXPECT_EQ(api().execute(_handle, ctx, workspace.data(), some, 2), HIPDNN_PLUGIN_STATUS_BAD_PARAM);
    EXPECT_NE(api().lastErrorText().find("no memory was given for tensor uid 3"), std::string::npos)
        << api().lastErrorText();
    const hipdnnPluginDeviceBuffer_t nullY[] = {{1, x.data()}, {2, w.data()}, {3, nullptr}};
    EXPECT_EQ(api().execute(_handle, ctx, workspace.data(), nullY, 3), HIPDNN_PLUGIN_STATUS_BAD_PARAM);
    const hipdnnPluginDeviceBuffer_t all[] = {{1, x.data()}, {2, w.data()}, {3, y.data()}};
    if(ws > 0)
    {
        EXPECT_EQ(api().execute(_handle, ctx, nullptr, all, 3), HIPDNN_PLUGIN_STATUS_BAD_PARAM);
    }
    ASSERT_EQ(api().execute(_handle, ctx, workspace.data(), all, 3), HIPDNN_PLUGIN_STATUS_SUCCESS)
        << api().lastErrorText();
    // Interior outputs see the full 3x3 window of ones times 0.5 over 16 channels.
    EXPECT_FLOAT_EQ(y[static_cast<size_t>(3 * 7 + 3)], 16 * 9 * 0.5f);
    EXPECT_EQ(api().destroyContext(_handle, ctx), HIPDNN_PLUGIN_STATUS_SUCCESS);
}

} // namespace
} // namespace miopen_provider_tests
