// C++ side of an engine plugin. A plugin is a few small classes: an EnginePluginDescription (name,
// version, engines), engines made of plan builders, plans; plus one thin extern "C" function per
// entry point that forwards to the matching function in hipdnn_plugin_sdk::shims (see
// samples/example_engine_plugin). The shims do the argument checks, buffer verification and
// exception-to-status mapping, and record the message in the per-thread last error.
#pragma once

#include <hipdnn_data_sdk/logging/Logger.hpp>
#include <hipdnn_plugin_sdk/EnginePluginApi.h>
#include <hipdnn_plugin_sdk/PluginLastErrorManager.hpp>
#include <hipdnn_plugin_sdk/engine_api_version.h>
#include <hipdnn_plugin_sdk/interfaces/IEngine.hpp>

#include <map>
#include <memory>
#include <new>
#include <string>
#include <vector>

namespace hipdnn_plugin_sdk
{

/// What a plugin is: its identity and the engines each handle gets.
class EnginePluginDescription
{
public:
    virtual ~EnginePluginDescription() = default;
    virtual const char* name() const = 0;
    virtual const char* version() const = 0;
    virtual const char* apiVersion() const { return HIPDNN_ENGINE_API_VERSION_STRING; }
    /// A fresh set of engines (one set per plugin handle).
    virtual std::vector<std::unique_ptr<IEngine>> createEngines() const = 0;
};

} // namespace hipdnn_plugin_sdk

/// Per-backend-handle state of a plugin built on this SDK.
struct HipdnnEnginePluginHandle
{
    std::vector<std::unique_ptr<hipdnn_plugin_sdk::IEngine>> engines;
    hipStream_t stream = nullptr;
    // Serialized EngineDetails handed out and not yet destroyed, keyed by their data pointer.
    std::map<const void*, std::unique_ptr<std::vector<uint8_t>>> details;
    size_t liveContexts = 0;
};

/// A compiled plan and the engine it belongs to.
struct HipdnnEnginePluginExecutionContext
{
    int64_t engineId = 0;
    std::unique_ptr<hipdnn_plugin_sdk::IPlan> plan;
};

namespace hipdnn_plugin_sdk::shims
{

/// Runs `body`; exceptions become statuses and their message the thread's last error.
template <typename Body>
hipdnnPluginStatus_t tryCatch(const char* entryPoint, Body&& body)
{
    try
    {
        body();
        return HIPDNN_PLUGIN_STATUS_SUCCESS;
    }
    catch(const PluginException& e)
    {
        return PluginLastErrorManager::setLastError(e.status(),
                                                    std::string(entryPoint) + ": " + e.what());
    }
    catch(const std::bad_alloc&)
    {
        return PluginLastErrorManager::setLastError(HIPDNN_PLUGIN_STATUS_ALLOC_FAILED,
                                                    std::string(entryPoint) + ": out of memory");
    }
    catch(const std::exception& e)
    {
        return PluginLastErrorManager::setLastError(
            HIPDNN_PLUGIN_STATUS_INTERNAL_ERROR,
            std::string(entryPoint) + ": unexpected exception: " + e.what());
    }
    catch(...)
    {
        return PluginLastErrorManager::setLastError(
            HIPDNN_PLUGIN_STATUS_INTERNAL_ERROR,
            std::string(entryPoint) + ": unexpected non-standard exception");
    }
}

inline void requireNonNull(const void* p, const char* what)
{
    if(p == nullptr)
    {
        throw PluginException(HIPDNN_PLUGIN_STATUS_BAD_PARAM, std::string(what) + " is null");
    }
}

inline const IEngine& findEngine(const HipdnnEnginePluginHandle& handle, int64_t engineId)
{
    for(const auto& engine : handle.engines)
    {
        if(engine->id() == engineId)
        {
            return *engine;
        }
    }
    throw PluginException(HIPDNN_PLUGIN_STATUS_INVALID_VALUE,
                          "engine id " + std::to_string(engineId) + " is not provided by this plugin");
}

/// The engine, after checking that it can run the graph (NOT_APPLICABLE with its reason).
inline const IEngine& requireApplicable(const HipdnnEnginePluginHandle& handle, int64_t engineId, const GraphView& graph)
{
    const IEngine& engine = findEngine(handle, engineId);
    std::string whyNot;
    // Ask first: the message must be built after isApplicable() has filled in the reason (the
    // order in which function arguments are evaluated is unspecified).
    const bool applicable = engine.isApplicable(graph, whyNot);
    throwIfNot(applicable, HIPDNN_PLUGIN_STATUS_NOT_APPLICABLE,
               "engine " + engine.name() + " cannot run this graph: " + whyNot);
    return engine;
}

inline const hipdnn_data_sdk::data_objects::EngineConfig&
    verifiedConfig(const hipdnnPluginConstData_t* config)
{
    requireNonNull(config, "engine config");
    std::string why;
    const auto* root
        = hipdnn_data_sdk::flatbuffer_utilities::verifyEngineConfig(config->ptr, config->size, why);
    throwIfNot(root != nullptr, HIPDNN_PLUGIN_STATUS_BAD_PARAM, "invalid engine config: " + why);
    return *root;
}

inline hipdnnPluginStatus_t getName(const EnginePluginDescription& plugin, const char** name)
{
    return tryCatch("hipdnnPluginGetName", [&] {
        requireNonNull(name, "name");
        *name = plugin.name();
    });
}

inline hipdnnPluginStatus_t getVersion(const EnginePluginDescription& plugin, const char** version)
{
    return tryCatch("hipdnnPluginGetVersion", [&] {
        requireNonNull(version, "version");
        *version = plugin.version();
    });
}

inline hipdnnPluginStatus_t getApiVersion(const EnginePluginDescription& plugin, const char** version)
{
    return tryCatch("hipdnnPluginGetApiVersion", [&] {
        requireNonNull(version, "version");
        *version = plugin.apiVersion();
    });
}

inline hipdnnPluginStatus_t getType(hipdnnPluginType_t* type)
{
    return tryCatch("hipdnnPluginGetType", [&] {
        requireNonNull(type, "type");
        *type = HIPDNN_PLUGIN_TYPE_ENGINE;
    });
}

inline void getLastErrorString(const char** errorStr)
{
    if(errorStr != nullptr)
    {
        *errorStr = PluginLastErrorManager::getLastError();
    }
}

inline hipdnnPluginStatus_t setLoggingCallback(hipdnnCallback_t callback)
{
    return tryCatch("hipdnnPluginSetLoggingCallback", [&] {
        hipdnn_data_sdk::logging::Logger::instance().setCallback(callback);
    });
}

inline hipdnnPluginStatus_t setLogLevel(hipdnnSeverity_t level)
{
    return tryCatch("hipdnnPluginSetLogLevel", [&] {
        throwIfNot(level >= HIPDNN_SEV_INFO && level <= HIPDNN_SEV_OFF,
                   HIPDNN_PLUGIN_STATUS_BAD_PARAM, "invalid log level");
        hipdnn_data_sdk::logging::Logger::instance().setLevel(level);
    });
}

inline hipdnnPluginStatus_t getAllEngineIds(const EnginePluginDescription& plugin,
                                            int64_t* engineIds,
                                            uint32_t maxEngines,
                                            uint32_t* numEngines)
{
    return tryCatch("hipdnnEnginePluginGetAllEngineIds", [&] {
        requireNonNull(numEngines, "numEngines");
        throwIfNot(maxEngines == 0 || engineIds != nullptr, HIPDNN_PLUGIN_STATUS_BAD_PARAM,
                   "engineIds is null while maxEngines > 0");
        auto engines = plugin.createEngines();
        for(size_t i = 0; i < engines.size() && i < maxEngines; ++i)
        {
            engineIds[i] = engines[i]->id();
        }
        *numEngines = static_cast<uint32_t>(engines.size());
    });
}

/// Engine names live as long as the plugin: one process-wide set per plugin description.
inline hipdnnPluginStatus_t getEngineName(const EnginePluginDescription& plugin, int64_t engineId, const char** name)
{
    return tryCatch("hipdnnEnginePluginGetEngineName", [&] {
        requireNonNull(name, "name");
        static const auto engines = plugin.createEngines();
        for(const auto& engine : engines)
        {
            if(engine->id() == engineId)
            {
                *name = engine->name().c_str();
                return;
            }
        }
        throw PluginException(HIPDNN_PLUGIN_STATUS_NOT_APPLICABLE,
                              "engine id " + std::to_string(engineId) + " is not provided by this plugin");
    });
}

inline hipdnnPluginStatus_t create(const EnginePluginDescription& plugin,
                                   hipdnnEnginePluginHandle_t* handle)
{
    return tryCatch("hipdnnEnginePluginCreate", [&] {
        requireNonNull(handle, "handle");
        auto state = std::make_unique<HipdnnEnginePluginHandle>();
        state->engines = plugin.createEngines();
        *handle = state.release();
    });
}

inline hipdnnPluginStatus_t destroy(hipdnnEnginePluginHandle_t handle)
{
    return tryCatch("hipdnnEnginePluginDestroy", [&] {
        requireNonNull(handle, "handle");
        delete handle;
    });
}

inline hipdnnPluginStatus_t setStream(hipdnnEnginePluginHandle_t handle, hipStream_t stream)
{
    return tryCatch("hipdnnEnginePluginSetStream", [&] {
        requireNonNull(handle, "handle");
        handle->stream = stream;
    });
}

inline hipdnnPluginStatus_t getApplicableEngineIds(hipdnnEnginePluginHandle_t handle,
                                                   const hipdnnPluginConstData_t* opGraph,
                                                   int64_t* engineIds,
                                                   uint32_t maxEngines,
                                                   uint32_t* numEngines)
{
    return tryCatch("hipdnnEnginePluginGetApplicableEngineIds", [&] {
        requireNonNull(handle, "handle");
        requireNonNull(numEngines, "numEngines");
        throwIfNot(maxEngines == 0 || engineIds != nullptr, HIPDNN_PLUGIN_STATUS_BAD_PARAM,
                   "engineIds is null while maxEngines > 0");
        const GraphView graph = GraphView::fromBuffer(opGraph);
        uint32_t count = 0;
        for(const auto& engine : handle->engines)
        {
            std::string whyNot;
            if(engine->isApplicable(graph, whyNot))
            {
                if(count < maxEngines)
                {
                    engineIds[count] = engine->id();
                }
                ++count;
            }
            else
            {
                HIPDNN_SDK_LOG_INFO("engine " << engine->name() << " declines the graph: " << whyNot);
            }
        }
        *numEngines = count;
    });
}

inline hipdnnPluginStatus_t getEngineDetails(hipdnnEnginePluginHandle_t handle,
                                             int64_t engineId,
                                             const hipdnnPluginConstData_t* opGraph,
                                             hipdnnPluginConstData_t* engineDetails)
{
    return tryCatch("hipdnnEnginePluginGetEngineDetails", [&] {
        requireNonNull(handle, "handle");
        requireNonNull(engineDetails, "engineDetails");
        const GraphView graph = GraphView::fromBuffer(opGraph);
        auto bytes = std::make_unique<std::vector<uint8_t>>(findEngine(*handle, engineId).getDetails(graph));
        engineDetails->ptr = bytes->data();
        engineDetails->size = bytes->size();
        handle->details.emplace(bytes->data(), std::move(bytes));
    });
}

inline hipdnnPluginStatus_t destroyEngineDetails(hipdnnEnginePluginHandle_t handle,
                                                 hipdnnPluginConstData_t* engineDetails)
{
    return tryCatch("hipdnnEnginePluginDestroyEngineDetails", [&] {
        requireNonNull(handle, "handle");
        requireNonNull(engineDetails, "engineDetails");
        auto it = handle->details.find(engineDetails->ptr);
        throwIfNot(it != handle->details.end(), HIPDNN_PLUGIN_STATUS_BAD_PARAM,
                   "engine details were not created by this plugin handle");
        handle->details.erase(it);
        engineDetails->ptr = nullptr;
        engineDetails->size = 0;
    });
}

inline hipdnnPluginStatus_t getWorkspaceSize(hipdnnEnginePluginHandle_t handle,
                                             const hipdnnPluginConstData_t* engineConfig,
                                             const hipdnnPluginConstData_t* opGraph,
                                             size_t* workspaceSize)
{
    return tryCatch("hipdnnEnginePluginGetWorkspaceSize", [&] {
        requireNonNull(handle, "handle");
        requireNonNull(workspaceSize, "workspaceSize");
        const auto& config = verifiedConfig(engineConfig);
        const GraphView graph = GraphView::fromBuffer(opGraph);
        const IEngine& engine = requireApplicable(*handle, config.engine_id(), graph);
        *workspaceSize = engine.getWorkspaceSize(graph, config);
    });
}

inline hipdnnPluginStatus_t createExecutionContext(hipdnnEnginePluginHandle_t handle,
                                                   const hipdnnPluginConstData_t* engineConfig,
                                                   const hipdnnPluginConstData_t* opGraph,
                                                   hipdnnEnginePluginExecutionContext_t* context)
{
    return tryCatch("hipdnnEnginePluginCreateExecutionContext", [&] {
        requireNonNull(handle, "handle");
        requireNonNull(context, "executionContext");
        const auto& config = verifiedConfig(engineConfig);
        const GraphView graph = GraphView::fromBuffer(opGraph);
        auto ctx = std::make_unique<HipdnnEnginePluginExecutionContext>();
        ctx->engineId = config.engine_id();
        ctx->plan = requireApplicable(*handle, config.engine_id(), graph).buildPlan(graph, config);
        throwIfNot(ctx->plan != nullptr, HIPDNN_PLUGIN_STATUS_INTERNAL_ERROR, "engine built no plan");
        *context = ctx.release();
        ++handle->liveContexts;
    });
}

inline hipdnnPluginStatus_t destroyExecutionContext(hipdnnEnginePluginHandle_t handle,
                                                    hipdnnEnginePluginExecutionContext_t context)
{
    return tryCatch("hipdnnEnginePluginDestroyExecutionContext", [&] {
        requireNonNull(handle, "handle");
        requireNonNull(context, "executionContext");
        delete context;
        --handle->liveContexts;
    });
}

inline hipdnnPluginStatus_t getWorkspaceSizeFromExecutionContext(
    hipdnnEnginePluginHandle_t handle, hipdnnEnginePluginExecutionContext_t context, size_t* size)
{
    return tryCatch("hipdnnEnginePluginGetWorkspaceSizeFromExecutionContext", [&] {
        requireNonNull(handle, "handle");
        requireNonNull(context, "executionContext");
        requireNonNull(size, "workspaceSize");
        *size = context->plan->getWorkspaceSize();
    });
}

inline hipdnnPluginStatus_t executeOpGraph(hipdnnEnginePluginHandle_t handle,
                                           hipdnnEnginePluginExecutionContext_t context,
                                           void* workspace,
                                           const hipdnnPluginDeviceBuffer_t* buffers,
                                           uint32_t numBuffers)
{
    return tryCatch("hipdnnEnginePluginExecuteOpGraph", [&] {
        requireNonNull(handle, "handle");
        requireNonNull(context, "executionContext");
        throwIfNot(numBuffers == 0 || buffers != nullptr, HIPDNN_PLUGIN_STATUS_BAD_PARAM,
                   "deviceBuffers is null while numDeviceBuffers > 0");
        throwIfNot(context->plan->getWorkspaceSize() == 0 || workspace != nullptr,
                   HIPDNN_PLUGIN_STATUS_BAD_PARAM, "the plan needs a workspace but none was given");
        context->plan->execute(buffers, numBuffers, workspace, handle->stream);
    });
}

} // namespace hipdnn_plugin_sdk::shims
