/**
 * hipDNN backend C API (libhipdnn_backend.so).
 *
 * Flow: hipdnnCreate -> build an OPERATIONGRAPH (from per-op descriptors, or from a serialized
 * FlatBuffer Graph with hipdnnBackendCreateAndDeserializeGraph_ext) -> ENGINEHEUR (FALLBACK) ->
 * ENGINECFG -> EXECUTION_PLAN -> VARIANT_PACK -> hipdnnBackendExecute.
 *
 * Conventions of every entry point:
 *  - It never throws and never crashes on bad arguments: it returns a status and, on failure,
 *    stores a message in the calling thread's last-error buffer (hipdnnGetLastErrorString).
 *  - Pointers passed in are borrowed for the duration of the call only, except descriptors set as
 *    attributes, which must outlive the descriptor that references them until it is finalized
 *    (finalizing copies what it needs).
 *  - A handle is not thread-safe: use one per thread. Finalized descriptors are read-only and may
 *    be shared across threads (hipdnnBackendExecute only reads the plan and the variant pack).
 *
 * Plugin loading: engine plugins are found at hipdnnCreate (and loaded then, or at the first use
 * of one of their engines when the plugin manifest lists them: README, "Plugin loading") from,
 * in order,
 *  1. <directory of libhipdnn_backend.so>/hipdnn_plugins/engines, or HIPDNN_PLUGIN_DIR (an absolute
 *     directory) instead of it; environment paths are ignored under secure execution (AT_SECURE);
 *  2. the paths of hipdnnSetEnginePluginPaths_ext (ADDITIVE: in addition to 1; ABSOLUTE: only
 *     these). Relative paths resolve against the backend library's directory, never the current
 *     directory.
 * Files of a directory load in lexicographic order. A library is rejected (and the reason logged
 * at WARN) when it cannot be opened, lacks a required symbol, reports a malformed API version or
 * an API major other than HIPDNN_ENGINE_API_VERSION_MAJOR, is not an engine plugin, or fails to
 * create its handle. An engine whose id was already provided by an earlier plugin is dropped.
 *
 * Engine order (HIPDNN_HEUR_MODE_FALLBACK): the graph's preferred engine first when it is
 * applicable; then the engines named by HIPDNN_HEUR_FALLBACK_ENGINE_ORDER (a comma list; default
 * MIOPEN_ENGINE), in that order; then the other applicable engines in load order (plugin load
 * order, then the order in which each plugin lists its engines), engines whose name ends in
 * _DETERMINISTIC last. That static order is the whole order with HIPDNN_ENGINE_RANKING=static,
 * an applicable preferred engine, or HIPDNN_HEUR_FALLBACK_ENGINE_ORDER set. Otherwise (the default,
 * HIPDNN_ENGINE_RANKING=measured) two or more applicable engines are ordered by a measured ranking:
 * cached per graph shape in memory and in HIPDNN_ENGINE_RANKING_DB (default
 * ~/.cache/hipdnn/engine_ranking.txt), measured once on scratch buffers on a miss, the static
 * order breaking near-ties (see the README, "Engine order").
 */
#pragma once

#include <stddef.h>
#include <stdint.h>

#if defined(__has_include)
#if __has_include(<hip/hip_runtime_api.h>)
#include <hip/hip_runtime_api.h>
#define HIPDNN_HAS_HIP_RUNTIME_API_H 1
#endif
#endif
#if !defined(HIPDNN_HAS_HIP_RUNTIME_API_H) && !defined(HIPDNN_HIP_STREAM_DECLARED)
#define HIPDNN_HIP_STREAM_DECLARED 1
/* No HIP runtime headers here: the identical opaque stream type HIP declares. */
typedef struct ihipStream_t* hipStream_t;
#endif

#include "hipdnn_backend_export.h"

#include "HipdnnBackendAttributeName.h"
#include "HipdnnBackendAttributeType.h"
#include "HipdnnBackendCallbackTypes.h"
#include "HipdnnBackendDescriptorType.h"
#include "HipdnnBackendFlatbufferData.h"
#include "HipdnnBackendHeuristicType.h"
#include "HipdnnBackendLimits.h"
#include "HipdnnBackendPluginLoadingMode.h"
#include "HipdnnBackendPluginUnloadingMode.h"
#include "HipdnnConvolutionMode.h"
#include "HipdnnDataType.h"
#include "HipdnnPointwiseMode.h"
#include "HipdnnStatus.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct hipdnnHandle* hipdnnHandle_t;
typedef struct HipdnnBackendDescriptor* hipdnnBackendDescriptor_t;

/** Creates a handle and loads the engine plugins (see "Plugin loading").
 *  SUCCESS; BAD_PARAM_NULL_POINTER (handle null); ALLOC_FAILED; INTERNAL_ERROR. */
HIPDNN_BACKEND_EXPORT hipdnnStatus_t hipdnnCreate(hipdnnHandle_t* handle);

/** Destroys a handle and every plugin handle it owns. SUCCESS; BAD_PARAM (not a live handle). */
HIPDNN_BACKEND_EXPORT hipdnnStatus_t hipdnnDestroy(hipdnnHandle_t handle);

/** Sets the stream (propagated to every plugin). SUCCESS; BAD_PARAM; PLUGIN_ERROR. */
HIPDNN_BACKEND_EXPORT hipdnnStatus_t hipdnnSetStream(hipdnnHandle_t handle, hipStream_t streamId);

/** SUCCESS; BAD_PARAM (not a live handle); BAD_PARAM_NULL_POINTER (streamId null). */
HIPDNN_BACKEND_EXPORT hipdnnStatus_t hipdnnGetStream(hipdnnHandle_t handle, hipStream_t* streamId);

/** Creates an empty descriptor of the given kind.
 *  SUCCESS; BAD_PARAM_NULL_POINTER; NOT_SUPPORTED (kind not implemented); ALLOC_FAILED. */
HIPDNN_BACKEND_EXPORT hipdnnStatus_t hipdnnBackendCreateDescriptor(
    hipdnnBackendDescriptorType_t descriptorType, hipdnnBackendDescriptor_t* descriptor);

/** SUCCESS; BAD_PARAM (not a live descriptor). */
HIPDNN_BACKEND_EXPORT hipdnnStatus_t hipdnnBackendDestroyDescriptor(hipdnnBackendDescriptor_t descriptor);

/** Runs a finalized plan on a finalized variant pack.
 *  SUCCESS; BAD_PARAM (wrong descriptor kinds, missing data pointer, handle mismatch);
 *  BAD_PARAM_NOT_FINALIZED; EXECUTION_FAILED (the engine failed); PLUGIN_ERROR. */
HIPDNN_BACKEND_EXPORT hipdnnStatus_t hipdnnBackendExecute(hipdnnHandle_t handle,
                                                          hipdnnBackendDescriptor_t executionPlan,
                                                          hipdnnBackendDescriptor_t variantPack);

/** Validates and freezes a descriptor. SUCCESS; BAD_PARAM (missing/inconsistent attributes);
 *  BAD_PARAM_NOT_FINALIZED (a referenced descriptor is not finalized); NOT_SUPPORTED (e.g. no
 *  engine accepts the graph); NOT_INITIALIZED (already finalized); PLUGIN_ERROR. */
HIPDNN_BACKEND_EXPORT hipdnnStatus_t hipdnnBackendFinalize(hipdnnBackendDescriptor_t descriptor);

/** Reads an attribute of a finalized descriptor. Writes min(requested, available) elements and
 *  the available count to *elementCount. SUCCESS; NOT_INITIALIZED (not finalized); BAD_PARAM
 *  (unknown attribute for this kind, wrong type); BAD_PARAM_NULL_POINTER. */
HIPDNN_BACKEND_EXPORT hipdnnStatus_t hipdnnBackendGetAttribute(hipdnnBackendDescriptor_t descriptor,
                                                               hipdnnBackendAttributeName_t attributeName,
                                                               hipdnnBackendAttributeType_t attributeType,
                                                               int64_t requestedElementCount,
                                                               int64_t* elementCount,
                                                               void* arrayOfElements);

/** Sets an attribute of a descriptor that is not finalized yet. SUCCESS; NOT_INITIALIZED
 *  (already finalized); BAD_PARAM (unknown attribute, wrong type or count, invalid value);
 *  BAD_PARAM_NULL_POINTER. */
HIPDNN_BACKEND_EXPORT hipdnnStatus_t hipdnnBackendSetAttribute(hipdnnBackendDescriptor_t descriptor,
                                                               hipdnnBackendAttributeName_t attributeName,
                                                               hipdnnBackendAttributeType_t attributeType,
                                                               int64_t elementCount,
                                                               const void* arrayOfElements);

/** A static, NUL-terminated name of a status ("HIPDNN_STATUS_UNKNOWN" for other values). */
HIPDNN_BACKEND_EXPORT const char* hipdnnGetErrorString(hipdnnStatus_t status);

/** Copies this thread's last error message (truncated to maxSize-1 chars, NUL-terminated) and
 *  clears it. Does nothing when message is NULL or maxSize is 0. */
HIPDNN_BACKEND_EXPORT void hipdnnGetLastErrorString(char* message, size_t maxSize);

/** As hipdnnGetLastErrorString without clearing. */
HIPDNN_BACKEND_EXPORT void hipdnnPeekLastErrorString_ext(char* message, size_t maxSize);

/** Creates an OPERATIONGRAPH descriptor from a serialized FlatBuffer Graph (verified before use:
 *  FlatBuffers Verifier, then topological order, connectivity and unique uids). Set
 *  OPERATIONGRAPH_HANDLE and finalize it afterwards. The bytes are copied.
 *  SUCCESS; BAD_PARAM_NULL_POINTER; BAD_PARAM (size 0, corrupt buffer, contract violated). */
HIPDNN_BACKEND_EXPORT hipdnnStatus_t hipdnnBackendCreateAndDeserializeGraph_ext(
    hipdnnBackendDescriptor_t* descriptor, const uint8_t* serializedGraph, size_t graphByteSize);

/** Copies the serialized Graph of a finalized OPERATIONGRAPH. With serializedGraph NULL only
 *  *graphByteSize is written. SUCCESS; BAD_PARAM; NOT_INITIALIZED; BAD_PARAM_SIZE_INSUFFICIENT. */
HIPDNN_BACKEND_EXPORT hipdnnStatus_t hipdnnBackendGetSerializedBinaryGraph_ext(
    hipdnnBackendDescriptor_t descriptor, size_t requestedSize, size_t* graphByteSize,
    uint8_t* serializedGraph);

/** The backend's log sink (frontend and plugins log through it); filtered by the global level. */
HIPDNN_BACKEND_EXPORT void hipdnnLoggingCallback_ext(hipdnnSeverity_t severity, const char* msg);

/** Sets plugin search paths (directories or files; "lib" prefix and ".so" suffix may be
 *  omitted); takes effect at the next hipdnnCreate. SUCCESS; BAD_PARAM_NULL_POINTER (paths NULL
 *  with numPaths > 0, or a NULL path); BAD_PARAM (invalid mode); NOT_SUPPORTED (a handle is
 *  alive). */
HIPDNN_BACKEND_EXPORT hipdnnStatus_t hipdnnSetEnginePluginPaths_ext(
    size_t numPaths, const char* const* pluginPaths, hipdnnPluginLoadingMode_ext_t loadingMode);

/** SUCCESS; BAD_PARAM (invalid mode). */
HIPDNN_BACKEND_EXPORT hipdnnStatus_t
    hipdnnSetPluginUnloadMode_ext(hipdnnPluginUnloadingMode_ext_t unloadingMode);

/** Two-call query of the loaded plugin files. SUCCESS; BAD_PARAM; BAD_PARAM_NULL_POINTER;
 *  BAD_PARAM_SIZE_INSUFFICIENT (too few entries or too short buffers). */
HIPDNN_BACKEND_EXPORT hipdnnStatus_t hipdnnGetLoadedEnginePluginPaths_ext(hipdnnHandle_t handle,
                                                                          size_t* numPluginPaths,
                                                                          char** pluginPaths,
                                                                          size_t* maxStringLen);

typedef enum
{
    HIPDNN_LOG_CALLBACK_SYNC = 0,
    HIPDNN_LOG_CALLBACK_ASYNC = 1
} hipdnnLogCallbackMode_t;

/** Adds, updates (same callback and userHandle) or, with minLevel OFF, removes a user log
 *  callback. ASYNC callbacks run on a backend worker thread in message order. While a callback
 *  is registered, messages go to the callbacks only, unless HIPDNN_LOG_LEVEL or HIPDNN_LOG_FILE
 *  configured logging (then the stderr / file sink receives them too).
 *  SUCCESS; BAD_PARAM (NULL callback or userHandle, invalid mode or level, removing an unknown
 *  callback). */
HIPDNN_BACKEND_EXPORT hipdnnStatus_t hipdnnSetUserLogCallback_ext(hipdnnUserLogCallback_t callback,
                                                                  hipdnnSeverity_t minLevel,
                                                                  hipdnnLogCallbackMode_t mode,
                                                                  hipdnnUserLogCallbackHandle_t userHandle);

/** The level below which messages are dropped (default from HIPDNN_LOG_LEVEL, else OFF).
 *  SUCCESS; BAD_PARAM (invalid level). */
HIPDNN_BACKEND_EXPORT hipdnnStatus_t hipdnnBackendSetGlobalLogLevel_ext(hipdnnSeverity_t level);

/** SUCCESS; BAD_PARAM_NULL_POINTER. */
HIPDNN_BACKEND_EXPORT hipdnnStatus_t hipdnnBackendGetGlobalLogLevel_ext(hipdnnSeverity_t* level);

/** Number of engines loaded for the handle. SUCCESS; BAD_PARAM; BAD_PARAM_NULL_POINTER. */
HIPDNN_BACKEND_EXPORT hipdnnStatus_t hipdnnGetEngineCount_ext(hipdnnHandle_t handle, size_t* numEngines);

/** Engine `engineIndex` (engines sorted by name). String buffers NULL: only the *Len sizes
 *  (including the NUL) are written. SUCCESS; BAD_PARAM (invalid handle); BAD_PARAM_NULL_POINTER
 *  (a length pointer is NULL); BAD_PARAM_OUT_OF_BOUND (index); BAD_PARAM_SIZE_INSUFFICIENT. */
HIPDNN_BACKEND_EXPORT hipdnnStatus_t hipdnnGetEngineInfo_ext(hipdnnHandle_t handle,
                                                             size_t engineIndex,
                                                             int64_t* engineId,
                                                             char* engineName,
                                                             size_t* engineNameLen,
                                                             char* pluginName,
                                                             size_t* pluginNameLen,
                                                             char* version,
                                                             size_t* versionLen,
                                                             char* type,
                                                             size_t* typeLen);

/** Deprecated: use hipdnnVersionString_ext. SUCCESS; BAD_PARAM_NULL_POINTER. */
HIPDNN_BACKEND_DEPRECATED_EXPORT hipdnnStatus_t hipdnnGetVersion_ext(const char** version);

/** "MAJOR.MINOR.PATCH.TWEAK", static lifetime. */
HIPDNN_BACKEND_EXPORT const char* hipdnnVersionString_ext(void);

#ifdef __cplusplus
}
#endif
