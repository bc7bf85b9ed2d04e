// Entry points of an engine plugin (C ABI). Graphs, engine configs and engine details travel as
// serialized FlatBuffers (hipdnnPluginConstData_t); plugins verify every buffer they receive.
#pragma once

#include <hipdnn_plugin_sdk/PluginApi.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Ids of every engine the plugin provides. maxEngines == 0 only counts (engineIds may be NULL);
 *  otherwise up to maxEngines ids are written and *numEngines receives the full count. */
HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnEnginePluginGetAllEngineIds(int64_t* engineIds,
                                                                           uint32_t maxEngines,
                                                                           uint32_t* numEngines);

/** Creates the plugin's per-backend-handle state. */
HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnEnginePluginCreate(hipdnnEnginePluginHandle_t* handle);

/** Destroys it (execution contexts must be destroyed first). */
HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnEnginePluginDestroy(hipdnnEnginePluginHandle_t handle);

HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnEnginePluginSetStream(hipdnnEnginePluginHandle_t handle,
                                                                     hipStream_t stream);

/** Engines of this plugin that can run opGraph; *numEngines may exceed maxEngines. */
HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t
    hipdnnEnginePluginGetApplicableEngineIds(hipdnnEnginePluginHandle_t handle,
                                             const hipdnnPluginConstData_t* opGraph,
                                             int64_t* engineIds,
                                             uint32_t maxEngines,
                                             uint32_t* numEngines);

/** Serialized EngineDetails for one engine and graph, owned by the plugin until
 *  hipdnnEnginePluginDestroyEngineDetails. */
HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t
    hipdnnEnginePluginGetEngineDetails(hipdnnEnginePluginHandle_t handle,
                                       int64_t engineId,
                                       const hipdnnPluginConstData_t* opGraph,
                                       hipdnnPluginConstData_t* engineDetails);

HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t
    hipdnnEnginePluginDestroyEngineDetails(hipdnnEnginePluginHandle_t handle,
                                           hipdnnPluginConstData_t* engineDetails);

/** Workspace bytes the engine needs for the graph with this config. */
HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t
    hipdnnEnginePluginGetWorkspaceSize(hipdnnEnginePluginHandle_t handle,
                                       const hipdnnPluginConstData_t* engineConfig,
                                       const hipdnnPluginConstData_t* opGraph,
                                       size_t* workspaceSize);

/** Compiles a plan; the graph and config buffers are not referenced afterwards. */
HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t
    hipdnnEnginePluginCreateExecutionContext(hipdnnEnginePluginHandle_t handle,
                                             const hipdnnPluginConstData_t* engineConfig,
                                             const hipdnnPluginConstData_t* opGraph,
                                             hipdnnEnginePluginExecutionContext_t* executionContext);

HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t
    hipdnnEnginePluginDestroyExecutionContext(hipdnnEnginePluginHandle_t handle,
                                              hipdnnEnginePluginExecutionContext_t executionContext);

HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnEnginePluginGetWorkspaceSizeFromExecutionContext(
    hipdnnEnginePluginHandle_t handle,
    hipdnnEnginePluginExecutionContext_t executionContext,
    size_t* workspaceSize);

/** Runs a compiled plan on the given buffers (one per non-virtual tensor of the graph). */
HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t
    hipdnnEnginePluginExecuteOpGraph(hipdnnEnginePluginHandle_t handle,
                                     hipdnnEnginePluginExecutionContext_t executionContext,
                                     void* workspace,
                                     const hipdnnPluginDeviceBuffer_t* deviceBuffers,
                                     uint32_t numDeviceBuffers);

/** Optional: the name of one of the plugin's engines (its id must be the FNV-1a 64 hash of the
 *  name, or the backend drops the engine). NOT_APPLICABLE declines. */
HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnEnginePluginGetEngineName(int64_t engineId, const char** name);

#ifdef __cplusplus
}
#endif
