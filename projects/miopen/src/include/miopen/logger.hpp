// MIOpen logging (docs/logging.md). Everything goes to stderr, and only when asked:
//  - MIOPEN_LOG_LEVEL 0..7 (0 = default: nothing is printed by this library unless asked,
//    1 quiet, 2 fatal, 3 error, 4 warning, 5 info, 6 info2, 7 trace). Lines look like
//    "MIOpen(HIP): <Level> [<where>] <message>".
//  - MIOPEN_ENABLE_LOGGING: every API call prints its signature and arguments (upstream's shape).
//  - MIOPEN_ENABLE_LOGGING_CMD: convolution, fusion, batchnorm, activation, pooling, softmax and
//    LRN calls print the equivalent MIOpenDriver command (docs/environment.md).
#pragma once

#include <atomic>

#include <miopen/miopen.h>

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
namespace detail {
// MIOPEN_ENABLE_LOGGING as every entry point reads it: 0 not read yet, 1 off, 2 on.
extern std::atomic<int> gApiLoggingState;
int readApiLoggingState();
} // namespace detail

// MIOPEN_ENABLE_LOGGING (inline: every entry point asks).
inline bool isApiLoggingEnabled()
{
    int s = detail::gApiLoggingState.load(std::memory_order_acquire);
    if(s == 0)
        s = detail::readApiLoggingState();
    return s == 2;
}
bool isCmdLoggingEnabled();      // MIOPEN_ENABLE_LOGGING_CMD

// Prints one line "MIOpen(HIP): <Level> [where] message" if `level` is enabled.
void logLine(LogLevel level, const char* where, const std::string& message);

// Prints one raw line prefixed by "MIOpen(HIP): " (API and command logging).
void logRaw(const std::string& text);

// The executable MIOPEN_ENABLE_LOGGING_CMD lines name (upstream's, relative to the install root).
inline constexpr const char* kDriverExecutable = "./bin/MIOpenDriver";

// With MIOPEN_ENABLE_LOGGING_CMD, prints one line
//   "MIOpen(HIP): Command [<tag>] ./bin/MIOpenDriver <args>"
// (tag: upstream's name of the logging function, e.g. "LogCmdBNorm"; args: the base argument and
// flags, e.g. "bnorm -n 32 ..."). Never throws.
void logDriverCommand(const char* tag, const std::string& args) noexcept;

// MIOpenDriver's base argument for `base` and data type: half adds "fp16", bfloat16 "bfp16"
// (upstream's driver spells its variants this way: convfp16, convbfp16, poolfp16, ...).
std::string driverBaseArg(const char* base, miopenDataType_t dataType);

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
// MIOPEN_LOG_DRIVER_CMD(tag, args): logDriverCommand(tag, args), the args expression evaluated
// only when MIOPEN_ENABLE_LOGGING_CMD is on; an exception while building them is swallowed
// (logging never fails a call).
#define MIOPEN_LOG_DRIVER_CMD(tag, args)                   \
    do                                                     \
    {                                                      \
        if(::miopen::isCmdLoggingEnabled())                \
        {                                                  \
            try                                            \
            {                                              \
                ::miopen::logDriverCommand((tag), (args)); \
            }                                              \
            catch(...)                                     \
            {                                              \
            }                                              \
        }                                                  \
    } while(false)
#define MIOPEN_LOG_E(msg) MIOPEN_LOG(::miopen::LogLevel::Error, msg)
#define MIOPEN_LOG_W(msg) MIOPEN_LOG(::miopen::LogLevel::Warning, msg)
#define MIOPEN_LOG_I(msg) MIOPEN_LOG(::miopen::LogLevel::Info, msg)
#define MIOPEN_LOG_I2(msg) MIOPEN_LOG(::miopen::LogLevel::Info2, msg)
#define MIOPEN_LOG_T(msg) MIOPEN_LOG(::miopen::LogLevel::Trace, msg)
