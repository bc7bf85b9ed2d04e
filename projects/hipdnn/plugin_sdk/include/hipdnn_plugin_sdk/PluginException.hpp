// An exception that carries the plugin status it should become at the C boundary.
#pragma once

#include <hipdnn_plugin_sdk/PluginApiDataTypes.h>

#include <stdexcept>
#include <string>

namespace hipdnn_plugin_sdk
{

class PluginException : public std::runtime_error
{
public:
    PluginException(hipdnnPluginStatus_t status, const std::string& message)
        : std::runtime_error(message)
        , _status(status)
    {
    }
    hipdnnPluginStatus_t status() const { return _status; }

private:
    hipdnnPluginStatus_t _status;
};

/// Throws PluginException(status, message) when `condition` is false. A literal message stays a
/// `const char*` until something throws, so the success path builds no string.
inline void throwIfNot(bool condition, hipdnnPluginStatus_t status, const char* message)
{
    if(!condition)
    {
        throw PluginException(status, message);
    }
}

inline void throwIfNot(bool condition, hipdnnPluginStatus_t status, const std::string& message)
{
    if(!condition)
    {
        throw PluginException(status, message);
    }
}

} // namespace hipdnn_plugin_sdk
