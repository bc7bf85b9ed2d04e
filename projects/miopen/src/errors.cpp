#include <miopen/errors.hpp>
#include <miopen/logger.hpp>

#include <cstdio>
#include <cstring>

namespace miopen {

namespace {
constexpr std::size_t kLastErrorCapacity = 512;
thread_local char tLastError[kLastErrorCapacity] = {0};
} // namespace

void fail(miopenStatus_t status, const std::string& message) { throw Exception(status, message); }

const char* lastErrorMessage() noexcept { return tLastError; }

void setLastErrorMessage(const char* api, const char* message) noexcept
{
    // Entry points are defined as miopenFoo_impl: report the public name.
    const std::size_t len = std::strlen(api);
    const int nameLen     = static_cast<int>(len >= 5 && std::strcmp(api + len - 5, "_impl") == 0 ? len - 5 : len);
    std::snprintf(tLastError, kLastErrorCapacity, "%.*s: %s", nameLen, api, message);
    if(isLogging(LogLevel::Error))
    {
        try
        {
            logLine(LogLevel::Error, std::string(api, static_cast<std::size_t>(nameLen)).c_str(), message);
        }
        catch(...) // logging must never turn an error into a crash
        {
        }
    }
}

} // namespace miopen
