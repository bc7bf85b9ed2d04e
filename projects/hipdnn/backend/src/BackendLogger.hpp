// The backend's logging: a global level (HIPDNN_LOG_LEVEL, default off), a stream sink
// (HIPDNN_LOG_FILE, appended, else stderr) and user callbacks, each synchronous or run in order
// on one worker thread (asynchronous). Library code logs; it never prints errors unasked.
#pragma once

#include "hipdnn_backend.h"

#include <sstream>
#include <string>

namespace hipdnn_backend
{

class BackendLogger
{
public:
    static BackendLogger& instance();

    void setLevel(hipdnnSeverity_t level);
    hipdnnSeverity_t level() const;
    bool isEnabled(hipdnnSeverity_t severity) const;
    void log(hipdnnSeverity_t severity, const std::string& message);
    /// Throws HipdnnException(BAD_PARAM) for invalid arguments.
    void setUserCallback(hipdnnUserLogCallback_t callback,
                         hipdnnSeverity_t minLevel,
                         hipdnnLogCallbackMode_t mode,
                         hipdnnUserLogCallbackHandle_t userHandle);

    BackendLogger(const BackendLogger&) = delete;
    BackendLogger& operator=(const BackendLogger&) = delete;
    ~BackendLogger();

private:
    BackendLogger();
    struct State;
    State* _state;
};

} // namespace hipdnn_backend

#define HIPDNN_LOG(severity, streamExpr)                                                         \
    do                                                                                            \
    {                                                                                             \
        auto& hipdnnLogger_ = ::hipdnn_backend::BackendLogger::instance();                        \
        if(hipdnnLogger_.isEnabled(severity))                                                     \
        {                                                                                         \
            std::ostringstream hipdnnLogStream_;                                                  \
            hipdnnLogStream_ << streamExpr;                                                       \
            hipdnnLogger_.log(severity, hipdnnLogStream_.str());                                  \
        }                                                                                         \
    } while(false)

#define HIPDNN_LOG_INFO(streamExpr) HIPDNN_LOG(HIPDNN_SEV_INFO, streamExpr)
#define HIPDNN_LOG_WARN(streamExpr) HIPDNN_LOG(HIPDNN_SEV_WARN, streamExpr)
#define HIPDNN_LOG_ERROR(streamExpr) HIPDNN_LOG(HIPDNN_SEV_ERROR, streamExpr)
