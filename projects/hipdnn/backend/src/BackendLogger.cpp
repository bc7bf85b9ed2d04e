#include "BackendLogger.hpp"

#include "HipdnnException.hpp"

#include <hipdnn_data_sdk/logging/Logger.hpp>

#include <atomic>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <mutex>
#include <thread>
#include <vector>

#include <sys/auxv.h>

namespace hipdnn_backend
{

namespace
{
struct UserCallback
{
    hipdnnUserLogCallback_t callback;
    hipdnnUserLogCallbackHandle_t userHandle;
    hipdnnSeverity_t minLevel;
    hipdnnLogCallbackMode_t mode;
};

struct AsyncMessage
{
    UserCallback target;
    hipdnnSeverity_t severity;
    std::string text;
};

bool validSeverity(hipdnnSeverity_t s)
{
    return s >= HIPDNN_SEV_INFO && s <= HIPDNN_SEV_OFF;
}
} // namespace

struct BackendLogger::State
{
    std::atomic<hipdnnSeverity_t> level{HIPDNN_SEV_OFF};
    std::mutex sinkMutex;
    FILE* sink = stderr;
    bool envConfigured = false; // HIPDNN_LOG_LEVEL or HIPDNN_LOG_FILE set (read once, at construction)
    bool ownsSink = false;

    std::mutex callbackMutex;
    std::vector<UserCallback> callbacks;

    std::mutex queueMutex;
    std::condition_variable queueCv;
    std::deque<AsyncMessage> queue;
    std::thread worker;
    bool stopping = false;

    void startWorkerLocked()
    {
        if(!worker.joinable())
        {
            worker = std::thread([this] { runWorker(); });
        }
    }

    void runWorker()
    {
        std::unique_lock<std::mutex> lock(queueMutex);
        for(;;)
        {
            queueCv.wait(lock, [this] { return stopping || !queue.empty(); });
            if(queue.empty() && stopping)
            {
                return;
            }
            AsyncMessage message = std::move(queue.front());
            queue.pop_front();
            lock.unlock();
            // Only deliver if the registration still exists (removal abandons pending logs).
            bool registered = false;
            {
                std::lock_guard<std::mutex> cbLock(callbackMutex);
                for(const auto& cb : callbacks)
                {
                    registered = registered
                                 || (cb.callback == message.target.callback
                                     && cb.userHandle == message.target.userHandle);
                }
            }
            if(registered)
            {
                message.target.callback(message.target.userHandle, message.severity,
                                        message.text.c_str());
            }
            lock.lock();
            queueCv.notify_all();
        }
    }
};

BackendLogger& BackendLogger::instance()
{
    static BackendLogger logger;
    return logger;
}

BackendLogger::BackendLogger()
    : _state(new State)
{
    // Environment is honoured only without secure execution.
    const bool secure = getauxval(AT_SECURE) != 0;
    if(!secure)
    {
        if(const char* level = std::getenv("HIPDNN_LOG_LEVEL"))
        {
            hipdnnSeverity_t parsed = HIPDNN_SEV_OFF;
            if(hipdnn_data_sdk::logging::parseSeverity(level, parsed))
            {
                _state->level.store(parsed);
                _state->envConfigured = true;
            }
            else
            {
                std::fprintf(stderr,
                             "[hipDNN] ignoring HIPDNN_LOG_LEVEL='%s' (expected off, info, warn, "
                             "error or fatal)\n",
                             level);
            }
        }
        const char* file = std::getenv("HIPDNN_LOG_FILE");
        if(file != nullptr && *file != '\0' && *file != '/')
        {
            // Only absolute paths come from the environment (docs/security.md).
            std::fprintf(stderr, "[hipDNN] ignoring HIPDNN_LOG_FILE='%s': it must be an absolute path; logging to stderr\n",
                         file);
            file = nullptr;
        }
        if(file != nullptr && *file != '\0')
        {
            if(FILE* f = std::fopen(file, "a"))
            {
                _state->sink = f;
                _state->ownsSink = true;
                _state->envConfigured = true;
            }
            else
            {
                std::fprintf(stderr, "[hipDNN] cannot open HIPDNN_LOG_FILE='%s'; logging to stderr\n",
                             file);
            }
        }
    }
}

BackendLogger::~BackendLogger()
{
    {
        std::lock_guard<std::mutex> lock(_state->queueMutex);
        _state->stopping = true;
    }
    _state->queueCv.notify_all();
    if(_state->worker.joinable())
    {
        _state->worker.join();
    }
    if(_state->ownsSink)
    {
        std::fclose(_state->sink);
    }
    delete _state;
}

void BackendLogger::setLevel(hipdnnSeverity_t level)
{
    throwIf(!validSeverity(level), HIPDNN_STATUS_BAD_PARAM,
            "invalid log level " + std::to_string(static_cast<int>(level)));
    _state->level.store(level);
}

hipdnnSeverity_t BackendLogger::level() const
{
    return _state->level.load();
}

bool BackendLogger::isEnabled(hipdnnSeverity_t severity) const
{
    const hipdnnSeverity_t level = _state->level.load();
    return severity != HIPDNN_SEV_OFF && level != HIPDNN_SEV_OFF
           && static_cast<int>(severity) >= static_cast<int>(level);
}

void BackendLogger::log(hipdnnSeverity_t severity, const std::string& message)
{
    if(!isEnabled(severity))
    {
        return;
    }
    const std::string line = std::string("[hipDNN][")
                             + hipdnn_data_sdk::logging::severityName(severity) + "] " + message;
    std::vector<UserCallback> targets;
    {
        std::lock_guard<std::mutex> lock(_state->callbackMutex);
        targets = _state->callbacks;
    }
    // The stderr / HIPDNN_LOG_FILE sink: always when the environment configured logging; when
    // only the API did (hipdnnBackendSetGlobalLogLevel_ext), registered user callbacks replace it
    // (an application that routes hipDNN's messages into its own log gets each message once).
    if(_state->envConfigured || targets.empty())
    {
        std::lock_guard<std::mutex> lock(_state->sinkMutex);
        std::fprintf(_state->sink, "%s\n", line.c_str());
        std::fflush(_state->sink);
    }
    for(const auto& cb : targets)
    {
        if(static_cast<int>(severity) < static_cast<int>(cb.minLevel))
        {
            continue;
        }
        if(cb.mode == HIPDNN_LOG_CALLBACK_SYNC)
        {
            cb.callback(cb.userHandle, severity, line.c_str());
        }
        else
        {
            std::lock_guard<std::mutex> lock(_state->queueMutex);
            _state->startWorkerLocked();
            _state->queue.push_back({cb, severity, line});
            _state->queueCv.notify_all();
        }
    }
}

void BackendLogger::setUserCallback(hipdnnUserLogCallback_t callback,
                                    hipdnnSeverity_t minLevel,
                                    hipdnnLogCallbackMode_t mode,
                                    hipdnnUserLogCallbackHandle_t userHandle)
{
    throwIf(callback == nullptr, HIPDNN_STATUS_BAD_PARAM, "callback is null");
    throwIf(userHandle == nullptr, HIPDNN_STATUS_BAD_PARAM, "userHandle is null");
    throwIf(mode != HIPDNN_LOG_CALLBACK_SYNC && mode != HIPDNN_LOG_CALLBACK_ASYNC,
            HIPDNN_STATUS_BAD_PARAM, "invalid callback mode " + std::to_string(static_cast<int>(mode)));
    throwIf(!validSeverity(minLevel), HIPDNN_STATUS_BAD_PARAM,
            "invalid log level " + std::to_string(static_cast<int>(minLevel)));
    std::lock_guard<std::mutex> lock(_state->callbackMutex);
    auto& cbs = _state->callbacks;
    for(auto it = cbs.begin(); it != cbs.end(); ++it)
    {
        if(it->callback == callback && it->userHandle == userHandle)
        {
            if(minLevel == HIPDNN_SEV_OFF)
            {
                cbs.erase(it);
            }
            else
            {
                it->minLevel = minLevel;
                it->mode = mode;
            }
            return;
        }
    }
    throwIf(minLevel == HIPDNN_SEV_OFF, HIPDNN_STATUS_BAD_PARAM,
            "cannot remove a user log callback that is not registered");
    cbs.push_back({callback, userHandle, minLevel, mode});
}

} // namespace hipdnn_backend
