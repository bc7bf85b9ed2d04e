// Fuzz target: a serialized graph handed straight to an engine plugin's C entry points, as the
// backend hands it (EnginePluginApi.h). One executable per plugin: the plugin module is
// dlopen'ed from FUZZ_PLUGIN_PATH (its path in the build tree), as the backend loads it, and kept
// loaded. For each input: the applicable engines; the details of every engine of the plugin
// (applicable or not); for each applicable engine, and for one that is not, the workspace size
// of an engine config and a plan (execution context) built and destroyed. Any status is fine; a
// crash, a sanitizer report or a leak is not, and neither is an applicable engine the plugin does
// not list, a count above the capacity given, or a plan refused for an engine found applicable.
#include "common/FuzzInput.hpp"

#include <hipdnn_data_sdk/flatbuffer_utilities/DataObjects.hpp>
#include <hipdnn_plugin_sdk/EnginePluginApi.h>
#include <hipdnn_plugin_sdk/PluginApi.h>

#include <dlfcn.h>

#include <algorithm>
#include <vector>

#ifndef FUZZ_PLUGIN_PATH
#error "FUZZ_PLUGIN_PATH names the plugin module to load"
#endif

namespace {

struct Plugin
{
    decltype(&hipdnnEnginePluginGetAllEngineIds) allIds             = nullptr;
    decltype(&hipdnnEnginePluginCreate) create                       = nullptr;
    decltype(&hipdnnEnginePluginGetApplicableEngineIds) applicable   = nullptr;
    decltype(&hipdnnEnginePluginGetEngineDetails) details            = nullptr;
    decltype(&hipdnnEnginePluginDestroyEngineDetails) destroyDetails = nullptr;
    decltype(&hipdnnEnginePluginGetWorkspaceSize) workspace          = nullptr;
    decltype(&hipdnnEnginePluginCreateExecutionContext) createContext   = nullptr;
    decltype(&hipdnnEnginePluginDestroyExecutionContext) destroyContext = nullptr;
    decltype(&hipdnnEnginePluginGetWorkspaceSizeFromExecutionContext) contextWorkspace = nullptr;
    hipdnnEnginePluginHandle_t handle = nullptr;
    std::vector<int64_t> engines;
};

Plugin g_plugin;

template <typename F>
void resolve(void* lib, const char* name, F& f)
{
    f = reinterpret_cast<F>(dlsym(lib, name));
    if(f == nullptr)
    {
        std::fprintf(stderr, "%s: no symbol %s\n", FUZZ_PLUGIN_PATH, name);
        std::abort();
    }
}

std::vector<uint8_t> engineConfig(int64_t engineId)
{
    flatbuffers::FlatBufferBuilder fbb;
    fbb.Finish(hipdnn_data_sdk::data_objects::CreateEngineConfig(fbb, engineId));
    return {fbb.GetBufferPointer(), fbb.GetBufferPointer() + fbb.GetSize()};
}

// Workspace size and a plan for one engine; returns whether the plan was built.
bool buildPlan(int64_t engineId, const hipdnnPluginConstData_t& graph)
{
    const std::vector<uint8_t> cfgBytes = engineConfig(engineId);
    const hipdnnPluginConstData_t cfg{cfgBytes.data(), cfgBytes.size()};
    size_t bytes = 0;
    g_plugin.workspace(g_plugin.handle, &cfg, &graph, &bytes);
    hipdnnEnginePluginExecutionContext_t context = nullptr;
    if(g_plugin.createContext(g_plugin.handle, &cfg, &graph, &context) != HIPDNN_PLUGIN_STATUS_SUCCESS)
        return false;
    PROJECT_FUZZ_CHECK(context != nullptr, "a built plan has a context");
    g_plugin.contextWorkspace(g_plugin.handle, context, &bytes);
    PROJECT_FUZZ_CHECK(g_plugin.destroyContext(g_plugin.handle, context) == HIPDNN_PLUGIN_STATUS_SUCCESS,
                       "a plan is destroyed");
    return true;
}

} // namespace

extern "C" int LLVMFuzzerInitialize(int* /*argc*/, char*** /*argv*/)
{
    void* lib = dlopen(FUZZ_PLUGIN_PATH, RTLD_NOW | RTLD_LOCAL);
    if(lib == nullptr)
    {
        std::fprintf(stderr, "dlopen %s: %s\n", FUZZ_PLUGIN_PATH, dlerror());
        std::abort();
    }
    resolve(lib, "hipdnnEnginePluginGetAllEngineIds", g_plugin.allIds);
    resolve(lib, "hipdnnEnginePluginCreate", g_plugin.create);
    resolve(lib, "hipdnnEnginePluginGetApplicableEngineIds", g_plugin.applicable);
    resolve(lib, "hipdnnEnginePluginGetEngineDetails", g_plugin.details);
    resolve(lib, "hipdnnEnginePluginDestroyEngineDetails", g_plugin.destroyDetails);
    resolve(lib, "hipdnnEnginePluginGetWorkspaceSize", g_plugin.workspace);
    resolve(lib, "hipdnnEnginePluginCreateExecutionContext", g_plugin.createContext);
    resolve(lib, "hipdnnEnginePluginDestroyExecutionContext", g_plugin.destroyContext);
    resolve(lib, "hipdnnEnginePluginGetWorkspaceSizeFromExecutionContext", g_plugin.contextWorkspace);
    PROJECT_FUZZ_CHECK(g_plugin.create(&g_plugin.handle) == HIPDNN_PLUGIN_STATUS_SUCCESS, "plugin handle");
    uint32_t n = 0;
    PROJECT_FUZZ_CHECK(g_plugin.allIds(nullptr, 0, &n) == HIPDNN_PLUGIN_STATUS_SUCCESS && n > 0 && n < 64,
                       "engine count");
    g_plugin.engines.resize(n);
    PROJECT_FUZZ_CHECK(g_plugin.allIds(g_plugin.engines.data(), n, &n) == HIPDNN_PLUGIN_STATUS_SUCCESS, "engine ids");
    g_plugin.engines.resize(n);
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    const hipdnnPluginConstData_t graph{data, size};
    int64_t ids[64];
    const uint32_t capacity = static_cast<uint32_t>(g_plugin.engines.size());
    uint32_t count          = capacity + 1;
    std::vector<int64_t> applicable;
    if(g_plugin.applicable(g_plugin.handle, &graph, ids, capacity, &count) == HIPDNN_PLUGIN_STATUS_SUCCESS)
    {
        PROJECT_FUZZ_CHECK(count <= capacity, "no more applicable engines than the capacity given");
        for(uint32_t i = 0; i < count; ++i)
        {
            PROJECT_FUZZ_CHECK(std::find(g_plugin.engines.begin(), g_plugin.engines.end(), ids[i]) !=
                                   g_plugin.engines.end(),
                               "an applicable engine is one the plugin lists");
            applicable.push_back(ids[i]);
        }
    }
    for(int64_t id : g_plugin.engines)
    {
        hipdnnPluginConstData_t details{nullptr, 0};
        if(g_plugin.details(g_plugin.handle, id, &graph, &details) == HIPDNN_PLUGIN_STATUS_SUCCESS)
            PROJECT_FUZZ_CHECK(g_plugin.destroyDetails(g_plugin.handle, &details) == HIPDNN_PLUGIN_STATUS_SUCCESS,
                               "engine details are destroyed");
    }
    for(int64_t id : applicable)
        PROJECT_FUZZ_CHECK(buildPlan(id, graph), "an applicable engine builds a plan");
    for(int64_t id : g_plugin.engines)
        if(std::find(applicable.begin(), applicable.end(), id) == applicable.end())
        {
            buildPlan(id, graph);
            break;
        }
    return 0;
}
