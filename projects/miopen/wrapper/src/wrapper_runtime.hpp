// The state every stub of MIOpen Public reads, and the out-of-line slow path.
//
// A stub tests gRouteWord; when it is zero (pass-through, nothing to log) the stub tail-jumps to
// miopenFoo_impl. It starts at 1, so the first call of the process takes the slow path, which
// parses the environment once, prints the configuration banner and any warnings once, and then
// sets the word to what the configuration needs from then on: non-zero only while forwarding is
// enabled or the routing trace is on (MIOPEN_LOG_LEVEL >= 6).
#pragma once

#include <atomic>
#include <cstring>
#include <string>

// The route word, under a C name the assembly stubs read (hidden: not exported).
extern "C" __attribute__((visibility("hidden"))) std::atomic<int> miopen_wrapper_route_word;
static_assert(sizeof(std::atomic<int>) == sizeof(int), "the stubs compare a 32-bit word");

namespace miopen {
namespace wrapper {

inline std::atomic<int>& gRouteWord = miopen_wrapper_route_word;

// The test of the C++ stubs (hand-written and generated): non-zero while forwarding is enabled or
// the routing trace is on; the first call of the process also takes the slow path.
inline bool routeWordSet() { return __builtin_expect(gRouteWord.load(std::memory_order_relaxed) != 0, 0); }

// The raw bits of an enumeration argument (the caller may pass a value outside the enumeration).
template <class E>
int rawEnum(E e)
{
    static_assert(sizeof(E) == sizeof(int), "enum arguments are 32-bit");
    int v = 0;
    std::memcpy(&v, &e, sizeof v);
    return v;
}

// Banner and warnings (once), routing trace line (per call when on). Never throws. true when the
// call must be refused with miopenStatusVersionMismatch (see refuseAllCalls).
bool slowPath(const char* entry) noexcept;

// Version skew (RFC 4.7): called at load when libMIOpen_private.so reports another version than
// this library (version_check.cpp). Prints `why` once as an Error line and keeps every stub on
// its slow path, which then refuses each call that returns a status with
// miopenStatusVersionMismatch; nothing reaches the mismatched Private.
void refuseAllCalls(const std::string& why) noexcept;
bool callsRefused() noexcept;

// The once-per-process part of slowPath alone (banner, warnings, route word).
void ensureInit() noexcept;

// One line on stderr: "MIOpen(HIP): <level> [wrapper] <text>". Never throws.
void printLine(const char* level, const std::string& text) noexcept;

// Whether the per-call routing trace is on (MIOPEN_LOG_LEVEL >= 6).
bool traceOn() noexcept;

} // namespace wrapper
} // namespace miopen
