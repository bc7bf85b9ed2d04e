#include <miopen/env.hpp>
#include <miopen/logger.hpp>

#include <atomic>
#include <cstdio>
#include <mutex>

namespace miopen {

namespace {

// Read once per process (first use); resetLoggingForTests() re-reads. Atomics, so readers never
// race with a re-read.
std::atomic<int> gLevel{0};
std::atomic<bool> gApi{false};
std::atomic<bool> gCmd{false};
std::atomic<bool> gRead{false}; // the settings are read (the fast path of ensureRead)
std::once_flag gOnce;

void readSettings()
{
    long level = env::integer("MIOPEN_LOG_LEVEL", 0);
    if(level < 0 || level > 7)
        level = 0;
    gLevel.store(static_cast<int>(level), std::memory_order_relaxed);
    gApi.store(env::boolean("MIOPEN_ENABLE_LOGGING", false), std::memory_order_relaxed);
    gCmd.store(env::boolean("MIOPEN_ENABLE_LOGGING_CMD", false), std::memory_order_relaxed);
    detail::gApiLoggingState.store(gApi.load(std::memory_order_relaxed) ? 2 : 1, std::memory_order_release);
    gRead.store(true, std::memory_order_release);
}

// Every entry point asks: one load once the settings are read (std::call_once alone costs a
// pthread_once and a TLS lookup per call).
void ensureRead()
{
    if(!gRead.load(std::memory_order_acquire))
        std::call_once(gOnce, readSettings);
}

const char* levelName(LogLevel level)
{
    switch(level)
    {
    case LogLevel::Fatal: return "Fatal";
    case LogLevel::Error: return "Error";
    case LogLevel::Warning: return "Warning";
    case LogLevel::Info: return "Info";
    case LogLevel::Info2: return "Info2";
    case LogLevel::Trace: return "Trace";
    default: return "Log";
    }
}

std::mutex& outputMutex()
{
    static std::mutex m;
    return m;
}

} // namespace

LogLevel logLevel()
{
    ensureRead();
    return static_cast<LogLevel>(gLevel.load(std::memory_order_relaxed));
}

bool isLogging(LogLevel level)
{
    const int configured = static_cast<int>(logLevel());
    // 0 is the library default: nothing is printed unless logging is asked for.
    return configured > static_cast<int>(LogLevel::Quiet) &&
           static_cast<int>(level) <= configured;
}

namespace detail {

std::atomic<int> gApiLoggingState{0};

int readApiLoggingState()
{
    ensureRead();
    return gApiLoggingState.load(std::memory_order_acquire);
}

} // namespace detail

bool isCmdLoggingEnabled()
{
    ensureRead();
    return gCmd.load(std::memory_order_relaxed);
}

void logLine(LogLevel level, const char* where, const std::string& message)
{
    std::lock_guard<std::mutex> lock(outputMutex());
    std::fprintf(stderr, "MIOpen(HIP): %s [%s] %s\n", levelName(level), where, message.c_str());
}

void logRaw(const std::string& text)
{
    std::lock_guard<std::mutex> lock(outputMutex());
    std::fprintf(stderr, "MIOpen(HIP): %s\n", text.c_str());
}

void logDriverCommand(const char* tag, const std::string& args) noexcept
{
    if(!isCmdLoggingEnabled())
        return;
    try
    {
        logRaw(std::string("Command [") + tag + "] " + kDriverExecutable + " " + args);
    }
    catch(...)
    {
    }
}

std::string driverBaseArg(const char* base, miopenDataType_t dataType)
{
    switch(dataType)
    {
    case miopenHalf: return std::string(base) + "fp16";
    case miopenBFloat16: return std::string(base) + "bfp16";
    default: return base;
    }
}

void resetLoggingForTests()
{
    ensureRead();
    readSettings();
}

} // namespace miopen
