// The C entry points of the MIOpen plugin: one thin shim per function, forwarding to the SDK.
#include "MiopenEnginePlugin.hpp"

using miopen_provider::MiopenEnginePlugin;
namespace shims = hipdnn_plugin_sdk::shims;

extern "C" {

HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnPluginGetName(const char** name)
{
    return shims::getName(MiopenEnginePlugin::instance(), name);
}

HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnPluginGetVersion(const char** version)
{
    return shims::getVersion(MiopenEnginePlugin::instance(), version);
}

HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnPluginGetApiVersion(const char** version)
{
    return shims::getApiVersion(MiopenEnginePlugin::instance(), version);
}

HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnPluginGetType(hipdnnPluginType_t* type)
{
    return shims::getType(type);
}

HIPDNN_PLUGIN_EXPORT void hipdnnPluginGetLastErrorString(const char** errorStr)
{
    shims::getLastErrorString(errorStr);
}

HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnPluginSetLoggingCallback(hipdnnCallback_t callback)
{
    return shims::setLoggingCallback(callback);
}

HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnPluginSetLogLevel(hipdnnSeverity_t level)
{
    return shims::setLogLevel(level);
}

HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnEnginePluginGetAllEngineIds(int64_t* engineIds,
                                                                           uint32_t maxEngines,
                                                                           uint32_t* numEngines)
{
    return shims::getAllEngineIds(MiopenEnginePlugin::instance(), engineIds, maxEngines, numEngines);
}

HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnEnginePluginCreate(hipdnnEnginePluginHandle_t* handle)
{
    return shims::create(MiopenEnginePlugin::instance(), handle);
}

HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnEnginePluginDestroy(hipdnnEnginePluginHandle_t handle)
{
    return shims::destroy(handle);
}

HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnEnginePluginSetStream(hipdnnEnginePluginHandle_t handle,
                                                                     hipStream_t stream)
{
    return shims::setStream(handle, stream);
}

HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t
    hipdnnEnginePluginGetApplicableEngineIds(hipdnnEnginePluginHandle_t handle,
                                             const hipdnnPluginConstData_t* opGraph,
                                             int64_t* engineIds,
                                             uint32_t maxEngines,
                                             uint32_t* numEngines)
{
    return shims::getApplicableEngineIds(handle, opGraph, engineIds, maxEngines, numEngines);
}

HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t
    hipdnnEnginePluginGetEngineDetails(hipdnnEnginePluginHandle_t handle,
                                       int64_t engineId,
                                       const hipdnnPluginConstData_t* opGraph,
                                       hipdnnPluginConstData_t* engineDetails)
{
    return shims::getEngineDetails(handle, engineId, opGraph, engineDetails);
}

HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t
    hipdnnEnginePluginDestroyEngineDetails(hipdnnEnginePluginHandle_t handle,
                                           hipdnnPluginConstData_t* engineDetails)
{
    return shims::destroyEngineDetails(handle, engineDetails);
}

HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t
    hipdnnEnginePluginGetWorkspaceSize(hipdnnEnginePluginHandle_t handle,
                                       const hipdnnPluginConstData_t* engineConfig,
                                       const hipdnnPluginConstData_t* opGraph,
                                       size_t* workspaceSize)
{
    return shims::getWorkspaceSize(handle, engineConfig, opGraph, workspaceSize);
}

HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t
    hipdnnEnginePluginCreateExecutionContext(hipdnnEnginePluginHandle_t handle,
                                             const hipdnnPluginConstData_t* engineConfig,
                                             const hipdnnPluginConstData_t* opGraph,
                                             hipdnnEnginePluginExecutionContext_t* executionContext)
{
    return shims::createExecutionContext(handle, engineConfig, opGraph, executionContext);
}

HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t
    hipdnnEnginePluginDestroyExecutionContext(hipdnnEnginePluginHandle_t handle,
                                              hipdnnEnginePluginExecutionContext_t executionContext)
{
    return shims::destroyExecutionContext(handle, executionContext);
}

HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnEnginePluginGetWorkspaceSizeFromExecutionContext(
    hipdnnEnginePluginHandle_t handle,
    hipdnnEnginePluginExecutionContext_t executionContext,
    size_t* workspaceSize)
{
    return shims::getWorkspaceSizeFromExecutionContext(handle, executionContext, workspaceSize);
}

HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t
    hipdnnEnginePluginExecuteOpGraph(hipdnnEnginePluginHandle_t handle,
                                     hipdnnEnginePluginExecutionContext_t executionContext,
                                     void* workspace,
                                     const hipdnnPluginDeviceBuffer_t* deviceBuffers,
                                     uint32_t numDeviceBuffers)
{
    return shims::executeOpGraph(handle, executionContext, workspace, deviceBuffers, numDeviceBuffers);
}

HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnEnginePluginGetEngineName(int64_t engineId, const char** name)
{
    return shims::getEngineName(MiopenEnginePlugin::instance(), engineId, name);
}

} // extern "C"
