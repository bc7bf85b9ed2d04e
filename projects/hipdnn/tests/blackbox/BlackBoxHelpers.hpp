// Helpers of the black-box C API tests (they see only hipdnn_backend.h and the .so).
#pragma once

#include <hipdnn_backend.h>

#include <gtest/gtest.h>

#include <mutex>
#include <string>
#include <vector>

namespace blackbox
{

inline std::string lastError()
{
    char buffer[HIPDNN_ERROR_STRING_MAX_LENGTH];
    hipdnnGetLastErrorString(buffer, sizeof(buffer));
    return buffer;
}

/// Expects `status` and a non-empty last-error message containing `fragment`.
#define EXPECT_STATUS_AND_MESSAGE(call, status, fragment)                                          \
    do                                                                                              \
    {                                                                                               \
        EXPECT_EQ((call), (status)) << #call;                                                       \
        const std::string message_ = ::blackbox::lastError();                                       \
        EXPECT_NE(message_.find(fragment), std::string::npos)                                       \
            << #call << ": message '" << message_ << "' lacks '" << (fragment) << "'";              \
    } while(false)

/// Captures backend log lines (WARN and above by default) while alive.
class LogCapture
{
public:
    explicit LogCapture(hipdnnSeverity_t level = HIPDNN_SEV_WARN)
    {
        hipdnnBackendGetGlobalLogLevel_ext(&_previous);
        EXPECT_EQ(hipdnnSetUserLogCallback_ext(&LogCapture::sink, level, HIPDNN_LOG_CALLBACK_SYNC, this),
                  HIPDNN_STATUS_SUCCESS);
        EXPECT_EQ(hipdnnBackendSetGlobalLogLevel_ext(level), HIPDNN_STATUS_SUCCESS);
    }
    ~LogCapture()
    {
        hipdnnSetUserLogCallback_ext(&LogCapture::sink, HIPDNN_SEV_OFF, HIPDNN_LOG_CALLBACK_SYNC, this);
        hipdnnBackendSetGlobalLogLevel_ext(_previous);
    }
    bool contains(const std::string& fragment) const
    {
        std::lock_guard<std::mutex> lock(_mutex);
        for(const auto& line : _lines)
        {
            if(line.find(fragment) != std::string::npos)
            {
                return true;
            }
        }
        return false;
    }
    std::string all() const
    {
        std::lock_guard<std::mutex> lock(_mutex);
        std::string s;
        for(const auto& l : _lines)
        {
            s += l + "\n";
        }
        return s;
    }

private:
    static void sink(hipdnnUserLogCallbackHandle_t self, hipdnnSeverity_t, const char* message)
    {
        auto* capture = static_cast<LogCapture*>(self);
        std::lock_guard<std::mutex> lock(capture->_mutex);
        capture->_lines.emplace_back(message);
    }
    hipdnnSeverity_t _previous = HIPDNN_SEV_OFF;
    mutable std::mutex _mutex;
    std::vector<std::string> _lines;
};

/// Number of engines the default plugin configuration loads (the engines directory holds the
/// example plugin and whatever provider plugins the build installs there).
inline size_t defaultEngineCount()
{
    hipdnnHandle_t handle = nullptr;
    if(hipdnnCreate(&handle) != HIPDNN_STATUS_SUCCESS)
        return 0;
    size_t engines = 0;
    if(hipdnnGetEngineCount_ext(handle, &engines) != HIPDNN_STATUS_SUCCESS)
        engines = 0;
    hipdnnDestroy(handle);
    return engines;
}

/// Restores the default plugin configuration around a test.
class PluginPathsGuard
{
public:
    PluginPathsGuard(std::vector<const char*> paths, hipdnnPluginLoadingMode_ext_t mode)
    {
        EXPECT_EQ(hipdnnSetEnginePluginPaths_ext(paths.size(), paths.data(), mode), HIPDNN_STATUS_SUCCESS);
    }
    ~PluginPathsGuard() { EXPECT_EQ(hipdnnSetEnginePluginPaths_ext(0, nullptr, HIPDNN_PLUGIN_LOADING_ADDITIVE), HIPDNN_STATUS_SUCCESS); }
};

} // namespace blackbox
