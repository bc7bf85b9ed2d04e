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
    std::snprintf(tLastError, kLastErrorCapacity, "%s: %s", api, message);
    if(isLogging(LogLevel::Error))
    {
        try
        {
            logLine(LogLevel::Error, api, message);
        }
        catch(...) // logging must never turn an error into a crash
        {
        }
    }
}

} // namespace miopen
