// MIOpen logging (docs/logging.md). Everything goes to stderr, and only when asked:
//  - MIOPEN_LOG_LEVEL 0..7 (0 = default: nothing is printed by this library unless asked,
//    1 quiet, 2 fatal, 3 error, 4 warning, 5 info, 6 info2, 7 trace). Lines look like
//    "MIOpen(HIP): <Level> [<where>] <message>".
//  - MIOPEN_ENABLE_LOGGING: every API call prints its signature and arguments (upstream's shape).
//  - MIOPEN_ENABLE_LOGGING_CMD: convolution calls print the equivalent MIOpenDriver command.
#pragma once

#include <sstream>
#include <string>

namespace miopen {

enum class LogLevel : int
{
    Default = 0,
    Quiet   = 1,
    Fatal   = 2,
    Error   = 3,
    Warning = 4,
    Info    = 5,
    Info2   = 6,
    Trace   = 7,
};

LogLevel logLevel();             // MIOPEN_LOG_LEVEL, read once
bool isLogging(LogLevel level);  // level <= logLevel() (Default prints nothing)
bool isApiLoggingEnabled();      // MIOPEN_ENABLE_LOGGING
bool isCmdLoggingEnabled();      // MIOPEN_ENABLE_LOGGING_CMD

// Prints one line "MIOpen(HIP): <Level> [where] message" if `level` is enabled.
void logLine(LogLevel level, const char* where, const std::string& message);

// Prints one raw line prefixed by "MIOpen(HIP): " (API and command logging).
void logRaw(const std::string& text);

// Resets the cached environment (tests only; not thread-safe against concurrent logging).
void resetLoggingForTests();

} // namespace miopen

#define MIOPEN_LOG(level, msg)                                       \
    do                                                               \
    {                                                                \
        if(::miopen::isLogging(level))                               \
        {                                                            \
            std::ostringstream miopen_log_ss_;                       \
            miopen_log_ss_ << msg;                                   \
            ::miopen::logLine(level, __func__, miopen_log_ss_.str()); \
        }                                                            \
    } while(false)
#define MIOPEN_LOG_E(msg) MIOPEN_LOG(::miopen::LogLevel::Error, msg)
#define MIOPEN_LOG_W(msg) MIOPEN_LOG(::miopen::LogLevel::Warning, msg)
#define MIOPEN_LOG_I(msg) MIOPEN_LOG(::miopen::LogLevel::Info, msg)
#define MIOPEN_LOG_I2(msg) MIOPEN_LOG(::miopen::LogLevel::Info2, msg)
#define MIOPEN_LOG_T(msg) MIOPEN_LOG(::miopen::LogLevel::Trace, msg)
