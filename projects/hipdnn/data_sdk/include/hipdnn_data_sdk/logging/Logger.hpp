// A small per-module logger: messages at or above the level go to one callback (the backend's
// sink when loaded by the backend). Header-only: every shared object that includes it gets its
// own instance, since our modules are built with hidden visibility.
#pragma once

#include <hipdnn_data_sdk/logging/CallbackTypes.h>

#include <atomic>
#include <cctype>
#include <sstream>
#include <string>

namespace hipdnn_data_sdk::logging
{

inline const char* severityName(hipdnnSeverity_t severity)
{
    switch(severity)
    {
    case HIPDNN_SEV_INFO: return "info";
    case HIPDNN_SEV_WARN: return "warn";
    case HIPDNN_SEV_ERROR: return "error";
    case HIPDNN_SEV_FATAL: return "fatal";
    case HIPDNN_SEV_OFF: return "off";
    }
    return "unknown";
}

/// Parses "info", "warn"/"warning", "error", "fatal", "off" (case-insensitive). Returns false for
/// anything else and leaves `out` untouched.
inline bool parseSeverity(const std::string& text, hipdnnSeverity_t& out)
{
    std::string lower;
    for(char c : text)
    {
        lower.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
    }
    if(lower == "info") { out = HIPDNN_SEV_INFO; return true; }
    if(lower == "warn" || lower == "warning") { out = HIPDNN_SEV_WARN; return true; }
    if(lower == "error") { out = HIPDNN_SEV_ERROR; return true; }
    if(lower == "fatal") { out = HIPDNN_SEV_FATAL; return true; }
    if(lower == "off") { out = HIPDNN_SEV_OFF; return true; }
    return false;
}

class Logger
{
public:
    static Logger& instance()
    {
        static Logger logger;
        return logger;
    }

    void setCallback(hipdnnCallback_t sink) { _callback.store(sink); }
    hipdnnCallback_t callback() const { return _callback.load(); }
    void setLevel(hipdnnSeverity_t level) { _level.store(level); }
    hipdnnSeverity_t level() const { return _level.load(); }

    bool isEnabled(hipdnnSeverity_t severity) const
    {
        return severity != HIPDNN_SEV_OFF && _callback.load() != nullptr
               && static_cast<int>(severity) >= static_cast<int>(_level.load());
    }

    void log(hipdnnSeverity_t severity, const std::string& message) const
    {
        hipdnnCallback_t cb = _callback.load();
        if(cb != nullptr && isEnabled(severity))
        {
            cb(severity, message.c_str());
        }
    }

private:
    Logger() = default;
    std::atomic<hipdnnCallback_t> _callback{nullptr};
    // Plugins forward everything; the backend filters by its global level.
    std::atomic<hipdnnSeverity_t> _level{HIPDNN_SEV_INFO};
};

} // namespace hipdnn_data_sdk::logging

#define HIPDNN_SDK_LOG(severity, streamExpr)                                                   \
    do                                                                                          \
    {                                                                                           \
        auto& hipdnnSdkLogger_ = ::hipdnn_data_sdk::logging::Logger::instance();                \
        if(hipdnnSdkLogger_.isEnabled(severity))                                                \
        {                                                                                       \
            std::ostringstream hipdnnSdkLogStream_;                                             \
            hipdnnSdkLogStream_ << streamExpr;                                                  \
            hipdnnSdkLogger_.log(severity, hipdnnSdkLogStream_.str());                          \
        }                                                                                       \
    } while(false)

#define HIPDNN_SDK_LOG_INFO(streamExpr) HIPDNN_SDK_LOG(HIPDNN_SEV_INFO, streamExpr)
#define HIPDNN_SDK_LOG_WARN(streamExpr) HIPDNN_SDK_LOG(HIPDNN_SEV_WARN, streamExpr)
#define HIPDNN_SDK_LOG_ERROR(streamExpr) HIPDNN_SDK_LOG(HIPDNN_SEV_ERROR, streamExpr)
