#include "ExampleEnginePlugin.hpp"

#include <hipdnn_data_sdk/utilities/EngineNames.hpp>
#include <hipdnn_test_sdk/utilities/cpu_graph_executor/CpuReferenceGraphExecutor.hpp>

namespace example_plugin
{

namespace
{
using hipdnn_plugin_sdk::GraphView;
using hipdnn_test_sdk::utilities::CpuReferenceGraphExecutor;

/// A compiled plan: a private copy of the verified graph (the caller's buffer is not kept).
class NaivePlan : public hipdnn_plugin_sdk::IPlan
{
public:
    NaivePlan(std::vector<uint8_t> bytes, size_t workspace)
        : _bytes(std::move(bytes))
        , _workspace(workspace)
    {
    }

    size_t getWorkspaceSize() const override { return _workspace; }

    void execute(const hipdnnPluginDeviceBuffer_t* buffers, uint32_t numBuffers, void* workspace,
                 hipStream_t /*stream*/) const override
    {
        const GraphView graph(*flatbuffers::GetRoot<hipdnn_data_sdk::data_objects::Graph>(_bytes.data()));
        std::map<int64_t, void*> memory;
        for(uint32_t i = 0; i < numBuffers; ++i)
        {
            memory[buffers[i].uid] = buffers[i].ptr;
        }
        CpuReferenceGraphExecutor::execute(graph, memory, workspace);
    }

private:
    std::vector<uint8_t> _bytes;
    size_t _workspace = 0;
};

class NaivePlanBuilder : public hipdnn_plugin_sdk::IPlanBuilder
{
public:
    bool isApplicable(const GraphView& graph, std::string& whyNot) const override
    {
        return CpuReferenceGraphExecutor::supports(graph, whyNot);
    }

    size_t getWorkspaceSize(const GraphView& graph,
                            const hipdnn_data_sdk::data_objects::EngineConfig& /*config*/) const override
    {
        return CpuReferenceGraphExecutor::workspaceSize(graph);
    }

    std::unique_ptr<hipdnn_plugin_sdk::IPlan>
        buildPlan(const GraphView& graph,
                  const hipdnn_data_sdk::data_objects::EngineConfig& config) const override
    {
        return std::make_unique<NaivePlan>(graph.copyBuffer(), getWorkspaceSize(graph, config));
    }
};



} // namespace

const ExampleEnginePlugin& ExampleEnginePlugin::instance()
{
    static const ExampleEnginePlugin plugin;
    return plugin;
}

std::vector<std::unique_ptr<hipdnn_plugin_sdk::IEngine>> ExampleEnginePlugin::createEngines() const
{
    std::vector<std::unique_ptr<hipdnn_plugin_sdk::IEngine>> engines;
    auto engine = std::make_unique<hipdnn_plugin_sdk::Engine>(
        std::string(hipdnn_data_sdk::utilities::EXAMPLE_NAIVE_ENGINE_NAME));
    engine->addPlanBuilder(std::make_unique<NaivePlanBuilder>());
    engines.push_back(std::move(engine));
    return engines;
}

} // namespace example_plugin
