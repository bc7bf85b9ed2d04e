// Entry points every hipDNN plugin exports (C ABI). Strings returned through `const char**`
// are owned by the plugin and stay valid while it is loaded, except the last-error string, which
// is valid until the next plugin call on the same thread.
#pragma once

#include <hipdnn_data_sdk/logging/CallbackTypes.h>
#include <hipdnn_plugin_sdk/PluginApiDataTypes.h>

#ifdef __cplusplus
extern "C" {
#endif

/** The plugin's name. */
HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnPluginGetName(const char** name);

/** The plugin's own version ("MAJOR.MINOR.PATCH"). */
HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnPluginGetVersion(const char** version);

/** The plugin C-ABI version it fully implements; when absent the backend assumes "1.0.0". */
HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnPluginGetApiVersion(const char** version);

/** The kind of plugin (engine or heuristic). */
HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnPluginGetType(hipdnnPluginType_t* type);

/** This thread's last error message ("" when none). */
HIPDNN_PLUGIN_EXPORT void hipdnnPluginGetLastErrorString(const char** errorStr);

/** Where the plugin sends its log messages (the backend passes its own sink). */
HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnPluginSetLoggingCallback(hipdnnCallback_t callback);

/** Optional: the minimum severity the plugin should forward. */
HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnPluginSetLogLevel(hipdnnSeverity_t level);

#ifdef __cplusplus
}
#endif
