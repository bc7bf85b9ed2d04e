#include "LatchPlugin.hpp"

#include <hipdnn_test_sdk/utilities/cpu_graph_executor/CpuReferenceGraphExecutor.hpp>

#include <chrono>
#include <condition_variable>
#include <mutex>

namespace hipdnn_test_plugins
{

namespace
{
using hipdnn_plugin_sdk::GraphView;
using hipdnn_test_sdk::utilities::CpuReferenceGraphExecutor;

struct Latch
{
    std::mutex m;
    std::condition_variable cv;
    bool open = false;
    int held = 0;
    long builds = 0;
};

Latch& latch()
{
    static Latch l;
    return l;
}

bool isLatched(const GraphView& graph)
{
    for(const auto& [uid, tensor] : graph.tensors())
    {
        (void)uid;
        const auto* dims = tensor->dims();
        if(dims != nullptr && dims->size() > 1 && dims->Get(1) == kLatchChannels)
        {
            return true;
        }
    }
    return false;
}

class LatchPlan : public hipdnn_plugin_sdk::IPlan
{
public:
    LatchPlan(std::vector<uint8_t> bytes, size_t workspace)
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

class LatchPlanBuilder : public hipdnn_plugin_sdk::IPlanBuilder
{
public:
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
        auto& l = latch();
        std::unique_lock<std::mutex> lock(l.m);
        ++l.builds;
        if(isLatched(graph) && !l.open)
        {
            ++l.held;
            l.cv.notify_all();
            const bool opened = l.cv.wait_for(lock, std::chrono::seconds(kSafetyTimeoutSeconds), [&] { return l.open; });
            --l.held;
            if(!opened)
            {
                throw hipdnn_plugin_sdk::PluginException(HIPDNN_PLUGIN_STATUS_INTERNAL_ERROR,
                                                         "test latch: the latch was never opened");
            }
        }
        lock.unlock();
        return std::make_unique<LatchPlan>(graph.copyBuffer(), getWorkspaceSize(graph, c));
    }
};

} // namespace

const LatchPlugin& LatchPlugin::instance()
{
    static const LatchPlugin plugin;
    return plugin;
}

std::vector<std::unique_ptr<hipdnn_plugin_sdk::IEngine>> LatchPlugin::createEngines() const
{
    std::vector<std::unique_ptr<hipdnn_plugin_sdk::IEngine>> engines;
    auto engine = std::make_unique<hipdnn_plugin_sdk::Engine>("TEST_LATCH_ENGINE");
    engine->addPlanBuilder(std::make_unique<LatchPlanBuilder>());
    engines.push_back(std::move(engine));
    return engines;
}

} // namespace hipdnn_test_plugins

extern "C" {

HIPDNN_PLUGIN_EXPORT int hipdnnPluginTestLatchAwaitBlocked(int count, int timeoutMs)
{
    auto& l = hipdnn_test_plugins::latch();
    std::unique_lock<std::mutex> lock(l.m);
    l.cv.wait_for(lock, std::chrono::milliseconds(timeoutMs), [&] { return l.held >= count; });
    return l.held;
}

HIPDNN_PLUGIN_EXPORT void hipdnnPluginTestLatchRelease(void)
{
    auto& l = hipdnn_test_plugins::latch();
    {
        std::lock_guard<std::mutex> lock(l.m);
        l.open = true;
    }
    l.cv.notify_all();
}

HIPDNN_PLUGIN_EXPORT long hipdnnPluginTestLatchBuilds(void)
{
    auto& l = hipdnn_test_plugins::latch();
    std::lock_guard<std::mutex> lock(l.m);
    return l.builds;
}

} // extern "C"
