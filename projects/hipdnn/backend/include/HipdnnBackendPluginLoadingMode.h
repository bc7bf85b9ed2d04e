#pragma once

/** How hipdnnSetEnginePluginPaths_ext paths combine with the default plugin directory. */
typedef enum
{
    /** Load the given paths in addition to the default directory (default). */
    HIPDNN_PLUGIN_LOADING_ADDITIVE = 0,
    /** Load only the paths of the most recent call. */
    HIPDNN_PLUGIN_LOADING_ABSOLUTE = 1
} hipdnnPluginLoadingMode_ext_t;

#ifdef __cplusplus
constexpr hipdnnPluginLoadingMode_ext_t HIPDNN_DEFAULT_PLUGIN_LOADING_MODE
    = HIPDNN_PLUGIN_LOADING_ADDITIVE;
#endif
