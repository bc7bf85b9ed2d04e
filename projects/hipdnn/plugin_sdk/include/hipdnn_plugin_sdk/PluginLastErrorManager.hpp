// Per-thread, bounded last-error buffer of a plugin. A plain thread_local char array (not a
// std::string) so that a dlclose'd plugin leaves no thread-exit destructor behind.
#pragma once

#include <hipdnn_data_sdk/logging/Logger.hpp>
#include <hipdnn_plugin_sdk/PluginApiDataTypes.h>

#include <algorithm>
#include <cstring>
#include <string>

namespace hipdnn_plugin_sdk
{

class PluginLastErrorManager
{
public:
    /// Records `message` for this thread (truncated to the buffer) and returns `status`.
    /// SUCCESS records nothing.
    static hipdnnPluginStatus_t setLastError(hipdnnPluginStatus_t status, const std::string& message)
    {
        if(status == HIPDNN_PLUGIN_STATUS_SUCCESS)
        {
            return status;
        }
        const size_t n = std::min(message.size(), sizeof(buffer()) - 1);
        std::memcpy(buffer(), message.data(), n);
        buffer()[n] = '\0';
        HIPDNN_SDK_LOG_ERROR(message);
        return status;
    }

    static const char* getLastError() { return buffer(); }

    static void clear() { buffer()[0] = '\0'; }

private:
    using Buffer = char[HIPDNN_PLUGIN_ERROR_STRING_MAX_LENGTH];
    static Buffer& buffer()
    {
        static thread_local Buffer s_lastError = {};
        return s_lastError;
    }
};

} // namespace hipdnn_plugin_sdk
