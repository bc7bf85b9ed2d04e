#include "CountingPlugin.hpp"

#include <hipdnn_test_sdk/utilities/cpu_graph_executor/CpuReferenceGraphExecutor.hpp>

#include <cstdlib>
#include <fstream>
#include <map>
#include <string>

namespace counting_plugin
{

namespace
{
using hipdnn_plugin_sdk::GraphView;
using hipdnn_test_sdk::utilities::CpuReferenceGraphExecutor;

constexpr const char* kEngineName = "TEST_COUNTING_ENGINE";

class CountingPlan : public hipdnn_plugin_sdk::IPlan
{
public:
    CountingPlan(std::vector<uint8_t> bytes, size_t workspace)
        : _bytes(std::move(bytes))
        , _workspace(workspace)
    {
    }
    size_t getWorkspaceSize() const override { return _workspace; }
    void execute(const hipdnnPluginDeviceBuffer_t* buffers, uint32_t n, void* workspace, hipStream_t) const override
    {
        const GraphView graph(*flatbuffers::GetRoot<hipdnn_data_sdk::data_objects::Graph>(_bytes.data()));
        std::map<int64_t, void*> memory;
        for(uint32_t i = 0; i < n; ++i)
        {
            memory[buffers[i].uid] = buffers[i].ptr;
        }
        CpuReferenceGraphExecutor::execute(graph, memory, workspace);
    }

private:
    std::vector<uint8_t> _bytes;
    size_t _workspace;
};

class CountingPlanBuilder : public hipdnn_plugin_sdk::IPlanBuilder
{
public:
    bool isApplicable(const GraphView& graph, std::string& whyNot) const override
    {
        if(const char* log = std::getenv("HIPDNN_TEST_QUERY_LOG"); log != nullptr && *log != '\0')
        {
            std::ofstream(log, std::ios::app) << kEngineName << '\n';
        }
        const char* decline = std::getenv("HIPDNN_TEST_COUNTING_DECLINE");
        if(decline != nullptr && std::string(decline) == "1")
        {
            whyNot = "HIPDNN_TEST_COUNTING_DECLINE=1";
            return false;
        }
        return CpuReferenceGraphExecutor::supports(graph, whyNot);
    }
    size_t getWorkspaceSize(const GraphView& graph, const hipdnn_data_sdk::data_objects::EngineConfig&) const override
    {
        return CpuReferenceGraphExecutor::workspaceSize(graph);
    }
    std::unique_ptr<hipdnn_plugin_sdk::IPlan> buildPlan(const GraphView& graph,
                                                        const hipdnn_data_sdk::data_objects::EngineConfig& c) const override
    {
        return std::make_unique<CountingPlan>(graph.copyBuffer(), getWorkspaceSize(graph, c));
    }
};
} // namespace

const CountingPlugin& CountingPlugin::instance()
{
    static const CountingPlugin plugin;
    return plugin;
}

std::vector<std::unique_ptr<hipdnn_plugin_sdk::IEngine>> CountingPlugin::createEngines() const
{
    std::vector<std::unique_ptr<hipdnn_plugin_sdk::IEngine>> engines;
    auto engine = std::make_unique<hipdnn_plugin_sdk::Engine>(std::string(kEngineName));
    engine->addPlanBuilder(std::make_unique<CountingPlanBuilder>());
    engines.push_back(std::move(engine));
    return engines;
}

} // namespace counting_plugin
