#include "wrapper_runtime.hpp"

#include "routing.hpp"

#include <cstdio>
#include <mutex>
#include <string>

// Starts at 1: the first call of the process takes the slow path (see wrapper_runtime.hpp).
std::atomic<int> miopen_wrapper_route_word{1};

namespace miopen {
namespace wrapper {

namespace {

std::once_flag gInitOnce;
std::atomic<bool> gInitDone{false}; // the fast path of ensureInit (every forwarded call asks)
std::atomic<bool> gRefused{false};

constexpr int kBannerLevel = 5; // Info: the banner
constexpr int kTraceLevel  = 6; // Info2: one routing line per call


void initOnce()
{
    const Config& c = config();
    for(const auto& w : c.warnings)
        printLine("Warning", w);
    // Quiet unless forwarding is requested (enabled, verify) or logging asks for it.
    if(c.mode != Mode::Disabled || c.logLevel >= kBannerLevel)
    {
        std::string banner = std::string("hipDNN forwarding ") + modeName(c.mode) +
                             (c.modeFromEnv ? " (MIOPEN_HIPDNN_FORWARDING=" + c.modeText + ")" : " (default)") +
                             "; forwarding set: " + std::to_string(forwardingSet().size()) + " entry point(s)";
        if(c.mode == Mode::Verify)
            banner += "; verify: each forwarded call also runs on MIOpen Private and the results are compared "
                      "(about 2x the time of a forwarded call)";
        if(c.optOut.all)
            banner += "; MIOPEN_DISABLE_HIPDNN_FOR=*";
        else if(!c.optOut.entries.empty())
            banner += "; opted out: " + std::to_string(c.optOut.entries.size()) + " entry point(s)";
        printLine("Info", banner);
    }
    const bool needSlowPath = c.mode != Mode::Disabled || c.logLevel >= kTraceLevel || callsRefused();
    gRouteWord.store(needSlowPath ? 1 : 0, std::memory_order_relaxed);
    gInitDone.store(true, std::memory_order_release);
}

} // namespace

void printLine(const char* level, const std::string& text) noexcept
{
    std::fprintf(stderr, "MIOpen(HIP): %s [wrapper] %s\n", level, text.c_str());
}

bool traceOn() noexcept { return config().logLevel >= kTraceLevel; }

void ensureInit() noexcept
{
    if(gInitDone.load(std::memory_order_acquire))
        return;
    try
    {
        std::call_once(gInitOnce, initOnce);
    }
    catch(...) // the environment could not be read: stay on the slow path, which retries
    {
    }
}

void refuseAllCalls(const std::string& why) noexcept
{
    gRefused.store(true, std::memory_order_relaxed);
    gRouteWord.store(1, std::memory_order_relaxed);
    printLine("Error", why);
}

bool callsRefused() noexcept { return gRefused.load(std::memory_order_relaxed); }

bool slowPath(const char* entry) noexcept
{
    try
    {
        std::call_once(gInitOnce, initOnce);
        const Config& c = config();
        if(c.logLevel >= kTraceLevel)
        {
            const Decision d = resolveRoute(c.mode, entry, c.optOut, forwardingSet(), c.miopenOnlyVariable);
            printLine("Info2", std::string("route ") + entry + " mode=" + modeName(c.mode) + " route=" +
                                   routeName(d.route) + " reason=" + reasonName(d.reason));
        }
    }
    catch(...) // tracing must never turn a call into a failure
    {
    }
    return callsRefused();
}

} // namespace wrapper
} // namespace miopen
