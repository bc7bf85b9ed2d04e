#include "../common/GraphFixtures.hpp"

#include <hipdnn_plugin_sdk/EnginePlugin.hpp>
#include <hipdnn_test_sdk/mocks/MockEngine.hpp>

#include <gtest/gtest.h>

#include <thread>

using namespace hipdnn_plugin_sdk;
using hipdnn_test_sdk::mocks::MockEngine;
using hipdnn_test_sdk::mocks::MockEngineState;

namespace
{
class MockPlugin : public EnginePluginDescription
{
public:
    explicit MockPlugin(std::shared_ptr<MockEngineState> state) : _state(std::move(state)) {}
    const char* name() const override { return "mock_plugin"; }
    const char* version() const override { return "9.8.7"; }
    std::vector<std::unique_ptr<IEngine>> createEngines() const override
    {
        std::vector<std::unique_ptr<IEngine>> e;
        e.push_back(std::make_unique<MockEngine>("MOCK_A", _state));
        e.push_back(std::make_unique<MockEngine>("MOCK_B", _state));
        return e;
    }

private:
    std::shared_ptr<MockEngineState> _state;
};

std::vector<uint8_t> engineConfig(int64_t id)
{
    flatbuffers::FlatBufferBuilder fbb;
    fbb.Finish(hipdnn_data_sdk::data_objects::CreateEngineConfigDirect(fbb, id));
    return {fbb.GetBufferPointer(), fbb.GetBufferPointer() + fbb.GetSize()};
}
} // namespace

TEST(PluginSdkLastError, IsPerThreadAndBounded)
{
    PluginLastErrorManager::setLastError(HIPDNN_PLUGIN_STATUS_BAD_PARAM, std::string(5000, 'x'));
    EXPECT_EQ(std::strlen(PluginLastErrorManager::getLastError()), HIPDNN_PLUGIN_ERROR_STRING_MAX_LENGTH - 1u);
    std::thread([] { EXPECT_STREQ(PluginLastErrorManager::getLastError(), ""); }).join();
    EXPECT_EQ(PluginLastErrorManager::setLastError(HIPDNN_PLUGIN_STATUS_SUCCESS, "ignored"), HIPDNN_PLUGIN_STATUS_SUCCESS);
    EXPECT_EQ(PluginLastErrorManager::getLastError()[0], 'x');
}

TEST(PluginSdkShims, IdentityAndEngineIdsFollowTheAbi)
{
    auto state = std::make_shared<MockEngineState>();
    MockPlugin plugin(state);
    const char* text = nullptr;
    EXPECT_EQ(shims::getName(plugin, &text), HIPDNN_PLUGIN_STATUS_SUCCESS);
    EXPECT_STREQ(text, "mock_plugin");
    EXPECT_EQ(shims::getApiVersion(plugin, &text), HIPDNN_PLUGIN_STATUS_SUCCESS);
    EXPECT_STREQ(text, HIPDNN_ENGINE_API_VERSION_STRING);
    EXPECT_EQ(shims::getName(plugin, nullptr), HIPDNN_PLUGIN_STATUS_BAD_PARAM);
    EXPECT_NE(std::string(PluginLastErrorManager::getLastError()).find("name is null"), std::string::npos);

    uint32_t n = 0;
    EXPECT_EQ(shims::getAllEngineIds(plugin, nullptr, 0, &n), HIPDNN_PLUGIN_STATUS_SUCCESS);
    EXPECT_EQ(n, 2u);
    int64_t ids[1] = {};
    EXPECT_EQ(shims::getAllEngineIds(plugin, ids, 1, &n), HIPDNN_PLUGIN_STATUS_SUCCESS);
    EXPECT_EQ(n, 2u);
    EXPECT_EQ(ids[0], hipdnn_data_sdk::utilities::engineNameToId("MOCK_A"));
    EXPECT_EQ(shims::getAllEngineIds(plugin, nullptr, 1, &n), HIPDNN_PLUGIN_STATUS_BAD_PARAM);
}

TEST(PluginSdkShims, FullLifecycleAndErrorMapping)
{
    auto state = std::make_shared<MockEngineState>();
    state->workspace = 128;
    MockPlugin plugin(state);
    hipdnnEnginePluginHandle_t handle = nullptr;
    ASSERT_EQ(shims::create(plugin, &handle), HIPDNN_PLUGIN_STATUS_SUCCESS);

    const auto graphBytes = hipdnn_tests::serializedConvGraph();
    ASSERT_FALSE(graphBytes.empty());
    hipdnnPluginConstData_t graph{graphBytes.data(), graphBytes.size()};
    int64_t ids[4];
    uint32_t n = 0;
    ASSERT_EQ(shims::getApplicableEngineIds(handle, &graph, ids, 4, &n), HIPDNN_PLUGIN_STATUS_SUCCESS);
    EXPECT_EQ(n, 2u);

    // A corrupt graph is rejected by the verifier, not read.
    std::vector<uint8_t> corrupt(graphBytes.begin(), graphBytes.begin() + 12);
    hipdnnPluginConstData_t bad{corrupt.data(), corrupt.size()};
    EXPECT_EQ(shims::getApplicableEngineIds(handle, &bad, ids, 4, &n), HIPDNN_PLUGIN_STATUS_BAD_PARAM);
    EXPECT_NE(std::string(PluginLastErrorManager::getLastError()).find("invalid op graph"), std::string::npos);

    hipdnnPluginConstData_t details{};
    ASSERT_EQ(shims::getEngineDetails(handle, ids[0], &graph, &details), HIPDNN_PLUGIN_STATUS_SUCCESS);
    std::string why;
    EXPECT_NE(hipdnn_data_sdk::flatbuffer_utilities::verifyEngineDetails(details.ptr, details.size, why), nullptr);
    EXPECT_EQ(shims::destroyEngineDetails(handle, &details), HIPDNN_PLUGIN_STATUS_SUCCESS);
    EXPECT_EQ(shims::destroyEngineDetails(handle, &details), HIPDNN_PLUGIN_STATUS_BAD_PARAM);
    EXPECT_EQ(shims::getEngineDetails(handle, 42, &graph, &details), HIPDNN_PLUGIN_STATUS_INVALID_VALUE);

    const auto cfgBytes = engineConfig(ids[1]);
    hipdnnPluginConstData_t cfg{cfgBytes.data(), cfgBytes.size()};
    size_t ws = 0;
    EXPECT_EQ(shims::getWorkspaceSize(handle, &cfg, &graph, &ws), HIPDNN_PLUGIN_STATUS_SUCCESS);
    EXPECT_EQ(ws, 128u);
    hipdnnEnginePluginExecutionContext_t ctx = nullptr;
    ASSERT_EQ(shims::createExecutionContext(handle, &cfg, &graph, &ctx), HIPDNN_PLUGIN_STATUS_SUCCESS);
    std::vector<uint8_t> workspace(128);
    EXPECT_EQ(shims::executeOpGraph(handle, ctx, workspace.data(), nullptr, 0), HIPDNN_PLUGIN_STATUS_SUCCESS);
    EXPECT_EQ(state->executions.load(), 1);
    EXPECT_EQ(shims::executeOpGraph(handle, ctx, nullptr, nullptr, 0), HIPDNN_PLUGIN_STATUS_BAD_PARAM);
    state->throwOnExecute = true;
    EXPECT_EQ(shims::executeOpGraph(handle, ctx, workspace.data(), nullptr, 0), HIPDNN_PLUGIN_STATUS_INTERNAL_ERROR);
    EXPECT_NE(std::string(PluginLastErrorManager::getLastError()).find("mock plan failure"), std::string::npos);
    EXPECT_EQ(shims::destroyExecutionContext(handle, ctx), HIPDNN_PLUGIN_STATUS_SUCCESS);

    state->applicable = false;
    EXPECT_EQ(shims::getApplicableEngineIds(handle, &graph, ids, 4, &n), HIPDNN_PLUGIN_STATUS_SUCCESS);
    EXPECT_EQ(n, 0u);
    EXPECT_EQ(shims::createExecutionContext(handle, &cfg, &graph, &ctx), HIPDNN_PLUGIN_STATUS_NOT_APPLICABLE);
    EXPECT_EQ(shims::destroy(handle), HIPDNN_PLUGIN_STATUS_SUCCESS);
}
