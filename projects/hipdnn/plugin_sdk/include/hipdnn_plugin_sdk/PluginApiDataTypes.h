// Types of the plugin C ABI shared by the backend and every plugin.
#pragma once

#include <hipdnn_plugin_sdk/HipStream.h>

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Recommended size of a plugin's per-thread last-error buffer (including the NUL). */
#define HIPDNN_PLUGIN_ERROR_STRING_MAX_LENGTH 2048

#if defined(_WIN32)
#define HIPDNN_PLUGIN_EXPORT __declspec(dllexport)
#else
#define HIPDNN_PLUGIN_EXPORT __attribute__((visibility("default")))
#endif

#if defined(__cplusplus) && __cplusplus >= 201703L
#define HIPDNN_PLUGIN_NODISCARD [[nodiscard]]
#else
#define HIPDNN_PLUGIN_NODISCARD
#endif

/** Status of every plugin entry point. */
typedef enum
{
    HIPDNN_PLUGIN_STATUS_SUCCESS = 0,
    HIPDNN_PLUGIN_STATUS_BAD_PARAM = 1,
    HIPDNN_PLUGIN_STATUS_INVALID_VALUE = 2,
    HIPDNN_PLUGIN_STATUS_INTERNAL_ERROR = 3,
    HIPDNN_PLUGIN_STATUS_ALLOC_FAILED = 4,
    HIPDNN_PLUGIN_STATUS_NOT_APPLICABLE = 5,
    HIPDNN_PLUGIN_STATUS_NOT_INITIALIZED = 6
} hipdnnPluginStatus_t;

typedef enum
{
    HIPDNN_PLUGIN_TYPE_UNSPECIFIED = 0,
    HIPDNN_PLUGIN_TYPE_ENGINE = 1,
    HIPDNN_PLUGIN_TYPE_HEURISTIC = 2
} hipdnnPluginType_t;

/** A serialized FlatBuffer (Graph, EngineConfig or EngineDetails root). */
typedef struct
{
    const void* ptr;
    size_t size;
} hipdnnPluginConstData_t;

/** One variant-pack entry: a tensor uid and its memory. */
typedef struct
{
    int64_t uid;
    void* ptr;
} hipdnnPluginDeviceBuffer_t;

/** Opaque per-handle state and compiled plan; each plugin defines the structs. */
typedef struct HipdnnEnginePluginHandle* hipdnnEnginePluginHandle_t;
typedef struct HipdnnEnginePluginExecutionContext* hipdnnEnginePluginExecutionContext_t;

#ifdef __cplusplus
}
#endif
