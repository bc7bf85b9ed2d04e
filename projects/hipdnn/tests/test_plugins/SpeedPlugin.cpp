#include "SpeedPlugin.hpp"

#include <hipdnn_test_sdk/utilities/cpu_graph_executor/CpuReferenceGraphExecutor.hpp>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>

namespace speed_plugin
{

namespace
{
using hipdnn_plugin_sdk::GraphView;
using hipdnn_test_sdk::utilities::CpuReferenceGraphExecutor;

class SpeedPlan : public hipdnn_plugin_sdk::IPlan
{
public:
    SpeedPlan(std::vector<uint8_t> bytes, size_t workspace, const char* delayVariable)
        : _bytes(std::move(bytes))
        , _workspace(workspace)
        , _delayVariable(delayVariable)
    {
    }
    size_t getWorkspaceSize() const override { return _workspace; }
    void execute(const hipdnnPluginDeviceBuffer_t* buffers, uint32_t n, void* workspace, hipStream_t) const override
    {
        const char* delay = std::getenv(_delayVariable);
        const std::string text = delay != nullptr ? delay : "0";
        if(text == "fail")
        {
            throw hipdnn_plugin_sdk::PluginException(HIPDNN_PLUGIN_STATUS_INTERNAL_ERROR,
                                                     std::string("simulated failure (") + _delayVariable + "=fail)");
        }
        // "FIRST/REST": the plan's first execution sleeps FIRST us (a one-time cost), later ones REST.
        // "U1,U2,...": execution i sleeps U(i mod count) us (an engine whose runs vary).
        const int run              = _runs.fetch_add(1);
        const std::string::size_type slash = text.find('/');
        const std::string sleep
            = slash == std::string::npos ? cycled(text, run) : (run == 0 ? text.substr(0, slash) : text.substr(slash + 1));
        const GraphView graph(*flatbuffers::GetRoot<hipdnn_data_sdk::data_objects::Graph>(_bytes.data()));
        std::map<int64_t, void*> memory;
        for(uint32_t i = 0; i < n; ++i)
        {
            memory[buffers[i].uid] = buffers[i].ptr;
        }
        CpuReferenceGraphExecutor::execute(graph, memory, workspace);
        std::this_thread::sleep_for(std::chrono::microseconds(std::strtoll(sleep.c_str(), nullptr, 10)));
        if(const char* log = std::getenv("HIPDNN_TEST_SPEED_LOG"))
        {
            // One letter per execution, A or B (the last character of the delay variable's engine).
            if(std::FILE* f = std::fopen(log, "a"))
            {
                std::fputc(_delayVariable[std::strlen("HIPDNN_TEST_SPEED_")], f);
                std::fclose(f);
            }
        }
    }

private:
    static std::string cycled(const std::string& list, int run)
    {
        std::vector<std::string> items;
        std::string::size_type start = 0;
        for(std::string::size_type comma; (comma = list.find(',', start)) != std::string::npos; start = comma + 1)
        {
            items.push_back(list.substr(start, comma - start));
        }
        items.push_back(list.substr(start));
        return items[static_cast<size_t>(run) % items.size()];
    }

    std::vector<uint8_t> _bytes;
    size_t _workspace;
    const char* _delayVariable;
    mutable std::atomic<int> _runs{0};
};

class SpeedPlanBuilder : public hipdnn_plugin_sdk::IPlanBuilder
{
public:
    explicit SpeedPlanBuilder(const char* delayVariable)
        : _delayVariable(delayVariable)
    {
    }
    bool isApplicable(const GraphView& graph, std::string& whyNot) const override
    {
        return CpuReferenceGraphExecutor::supports(graph, whyNot);
    }
    size_t getWorkspaceSize(const GraphView& graph, const hipdnn_data_sdk::data_objects::EngineConfig&) const override
    {
        return CpuReferenceGraphExecutor::workspaceSize(graph);
    }
    std::unique_ptr<hipdnn_plugin_sdk::IPlan> buildPlan(const GraphView& graph,
                                                        const hipdnn_data_sdk::data_objects::EngineConfig& c) const override
    {
        return std::make_unique<SpeedPlan>(graph.copyBuffer(), getWorkspaceSize(graph, c), _delayVariable);
    }

private:
    const char* _delayVariable;
};
} // namespace

const SpeedPlugin& SpeedPlugin::instance()
{
    static const SpeedPlugin plugin;
    return plugin;
}

std::vector<std::unique_ptr<hipdnn_plugin_sdk::IEngine>> SpeedPlugin::createEngines() const
{
    std::vector<std::unique_ptr<hipdnn_plugin_sdk::IEngine>> engines;
    for(const auto& [engineName, variable] : {std::pair{"TEST_SPEED_A_ENGINE", "HIPDNN_TEST_SPEED_A_US"},
                                              std::pair{"TEST_SPEED_B_ENGINE", "HIPDNN_TEST_SPEED_B_US"}})
    {
        auto engine = std::make_unique<hipdnn_plugin_sdk::Engine>(std::string(engineName));
        engine->addPlanBuilder(std::make_unique<SpeedPlanBuilder>(variable));
        engines.push_back(std::move(engine));
    }
    return engines;
}

} // namespace speed_plugin
