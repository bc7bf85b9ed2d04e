#pragma once

/** When loaded plugins are unloaded. LAZY keeps them until the process exits or the plugin
 *  paths change; EAGER unloads them when the last handle is destroyed. */
typedef enum
{
    HIPDNN_PLUGIN_UNLOAD_LAZY = 0,
    HIPDNN_PLUGIN_UNLOAD_EAGER = 1
} hipdnnPluginUnloadingMode_ext_t;
