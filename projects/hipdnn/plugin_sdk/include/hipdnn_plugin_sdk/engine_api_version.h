// Version of the engine-plugin C ABI this SDK describes. A plugin reports the version it fully
// implements through hipdnnPluginGetApiVersion; the backend rejects a different major.
#pragma once

#define HIPDNN_ENGINE_API_VERSION_MAJOR 1
#define HIPDNN_ENGINE_API_VERSION_MINOR 0
#define HIPDNN_ENGINE_API_VERSION_PATCH 0
#define HIPDNN_ENGINE_API_VERSION_STRING "1.0.0"
