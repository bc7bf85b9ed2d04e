// One source for the fake plugins of the test suite; each variant is a compile-time
// configuration (see tests/CMakeLists.txt):
//   TEST_PLUGIN_NAME, TEST_ENGINE_NAME, TEST_API_VERSION  identity and reported ABI version
//   TEST_BEHAVIOR 0: runs graphs with the CPU references; 1: execute fails; 2: throws while
//                 deciding applicability; 3: runs graphs with the CPU references, then returns
//                 slightly wrong numbers (the first element of the last node's output, fp32, is
//                 off by 1e-2 * (1 + |value|); conv, pointwise and variance-form batchnorm
//                 inference; MIOpen's shadow-verification test)
//   TEST_OMIT_EXECUTE  does not export hipdnnEnginePluginExecuteOpGraph
#include <hipdnn_plugin_sdk/EnginePlugin.hpp>
#include <hipdnn_test_sdk/utilities/cpu_graph_executor/CpuReferenceGraphExecutor.hpp>

#include <cmath>
#include <stdexcept>

namespace
{
using hipdnn_plugin_sdk::GraphView;
using hipdnn_test_sdk::utilities::CpuReferenceGraphExecutor;

class TestPlan : public hipdnn_plugin_sdk::IPlan
{
public:
    TestPlan(std::vector<uint8_t> bytes, size_t workspace)
        : _bytes(std::move(bytes))
        , _workspace(workspace)
    {
    }
    size_t getWorkspaceSize() const override { return _workspace; }
    void execute(const hipdnnPluginDeviceBuffer_t* buffers, uint32_t n, void* workspace, hipStream_t) const override
    {
        if(TEST_BEHAVIOR == 1)
        {
            throw hipdnn_plugin_sdk::PluginException(HIPDNN_PLUGIN_STATUS_INTERNAL_ERROR,
                                                     "simulated execution failure");
        }
        const GraphView graph(*flatbuffers::GetRoot<hipdnn_data_sdk::data_objects::Graph>(_bytes.data()));
        std::map<int64_t, void*> memory;
        for(uint32_t i = 0; i < n; ++i)
        {
            memory[buffers[i].uid] = buffers[i].ptr;
        }
        CpuReferenceGraphExecutor::execute(graph, memory, workspace);
        if(TEST_BEHAVIOR == 3)
        {
            perturbLastOutput(graph, memory);
        }
    }

    static void perturbLastOutput(const GraphView& graph, const std::map<int64_t, void*>& memory)
    {
        using namespace hipdnn_data_sdk::data_objects;
        const Node& last = graph.node(graph.nodeCount() - 1);
        int64_t uid = -1;
        if(const auto* f = last.attributes_as_ConvolutionFwdAttributes())
        {
            uid = f->y_tensor_uid();
        }
        else if(const auto* b = last.attributes_as_ConvolutionBwdAttributes())
        {
            uid = b->dx_tensor_uid();
        }
        else if(const auto* w = last.attributes_as_ConvolutionWrwAttributes())
        {
            uid = w->dw_tensor_uid();
        }
        else if(const auto* pw = last.attributes_as_PointwiseAttributes())
        {
            uid = pw->out_0_tensor_uid();
        }
        else if(const auto* bn = last.attributes_as_BatchnormInferenceAttributesVarianceExt())
        {
            uid = bn->y_tensor_uid();
        }
        const auto it = memory.find(uid);
        if(it == memory.end() || graph.tensor(uid).data_type() != DataType::FLOAT)
        {
            return;
        }
        float* out = static_cast<float*>(it->second);
        out[0] += 1e-2f * (1.0f + std::fabs(out[0]));
    }

private:
    std::vector<uint8_t> _bytes;
    size_t _workspace;
};

class TestPlanBuilder : public hipdnn_plugin_sdk::IPlanBuilder
{
public:
    bool isApplicable(const GraphView& graph, std::string& whyNot) const override
    {
        if(TEST_BEHAVIOR == 2)
        {
            throw std::runtime_error("simulated exception in isApplicable");
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
        return std::make_unique<TestPlan>(graph.copyBuffer(), getWorkspaceSize(graph, c));
    }
};

class TestPluginDescription : public hipdnn_plugin_sdk::EnginePluginDescription
{
public:
    const char* name() const override { return TEST_PLUGIN_NAME; }
    const char* version() const override { return "1.0.0"; }
    const char* apiVersion() const override { return TEST_API_VERSION; }
    std::vector<std::unique_ptr<hipdnn_plugin_sdk::IEngine>> createEngines() const override
    {
        std::vector<std::unique_ptr<hipdnn_plugin_sdk::IEngine>> engines;
        auto engine = std::make_unique<hipdnn_plugin_sdk::Engine>(TEST_ENGINE_NAME);
        engine->addPlanBuilder(std::make_unique<TestPlanBuilder>());
        engines.push_back(std::move(engine));
        return engines;
    }
};

const TestPluginDescription kPlugin;
namespace shims = hipdnn_plugin_sdk::shims;
} // namespace

extern "C" {

HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnPluginGetName(const char** n) { return shims::getName(kPlugin, n); }
HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnPluginGetVersion(const char** v) { return shims::getVersion(kPlugin, v); }
HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnPluginGetApiVersion(const char** v) { return shims::getApiVersion(kPlugin, v); }
HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnPluginGetType(hipdnnPluginType_t* t) { return shims::getType(t); }
HIPDNN_PLUGIN_EXPORT void hipdnnPluginGetLastErrorString(const char** e) { shims::getLastErrorString(e); }
HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnPluginSetLoggingCallback(hipdnnCallback_t cb)
{
    return shims::setLoggingCallback(cb);
}
HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnEnginePluginGetAllEngineIds(int64_t* ids, uint32_t max, uint32_t* num)
{
    return shims::getAllEngineIds(kPlugin, ids, max, num);
}
HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnEnginePluginCreate(hipdnnEnginePluginHandle_t* h)
{
    return shims::create(kPlugin, h);
}
HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnEnginePluginDestroy(hipdnnEnginePluginHandle_t h) { return shims::destroy(h); }
HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnEnginePluginSetStream(hipdnnEnginePluginHandle_t h, hipStream_t s)
{
    return shims::setStream(h, s);
}
HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnEnginePluginGetApplicableEngineIds(
    hipdnnEnginePluginHandle_t h, const hipdnnPluginConstData_t* g, int64_t* ids, uint32_t max, uint32_t* num)
{
    return shims::getApplicableEngineIds(h, g, ids, max, num);
}
HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnEnginePluginGetEngineDetails(
    hipdnnEnginePluginHandle_t h, int64_t id, const hipdnnPluginConstData_t* g, hipdnnPluginConstData_t* d)
{
    return shims::getEngineDetails(h, id, g, d);
}
HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnEnginePluginDestroyEngineDetails(hipdnnEnginePluginHandle_t h,
                                                                                hipdnnPluginConstData_t* d)
{
    return shims::destroyEngineDetails(h, d);
}
HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnEnginePluginGetWorkspaceSize(
    hipdnnEnginePluginHandle_t h, const hipdnnPluginConstData_t* c, const hipdnnPluginConstData_t* g, size_t* ws)
{
    return shims::getWorkspaceSize(h, c, g, ws);
}
HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnEnginePluginCreateExecutionContext(
    hipdnnEnginePluginHandle_t h, const hipdnnPluginConstData_t* c, const hipdnnPluginConstData_t* g,
    hipdnnEnginePluginExecutionContext_t* ctx)
{
    return shims::createExecutionContext(h, c, g, ctx);
}
HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnEnginePluginDestroyExecutionContext(
    hipdnnEnginePluginHandle_t h, hipdnnEnginePluginExecutionContext_t ctx)
{
    return shims::destroyExecutionContext(h, ctx);
}
HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnEnginePluginGetWorkspaceSizeFromExecutionContext(
    hipdnnEnginePluginHandle_t h, hipdnnEnginePluginExecutionContext_t ctx, size_t* ws)
{
    return shims::getWorkspaceSizeFromExecutionContext(h, ctx, ws);
}
HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnEnginePluginGetEngineName(int64_t id, const char** name)
{
    return shims::getEngineName(kPlugin, id, name);
}
#ifndef TEST_OMIT_EXECUTE
HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnEnginePluginExecuteOpGraph(
    hipdnnEnginePluginHandle_t h, hipdnnEnginePluginExecutionContext_t ctx, void* ws,
    const hipdnnPluginDeviceBuffer_t* buffers, uint32_t n)
{
    return shims::executeOpGraph(h, ctx, ws, buffers, n);
}
#endif

} // extern "C"
