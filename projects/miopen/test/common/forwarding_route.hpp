// The route of each call of the hipDNN forwarding set, for public-API tests that run under every
// forwarding configuration (api.cmake: disabled; enabled with the default engine order; enabled
// with MIOPEN_ENGINE pinned). Read from the wrapper's counters file (MIOPEN_HIPDNN_COUNTERS_FILE,
// docs/wrapper.md), which forwarding_route.cpp points at a file of this process before the first
// test unless the run already set one; at the end of the run it prints the per-entry counts.
//
//   const test::route::Probe probe;                       // before the call
//   st = miopenConvolutionForward(...);
//   EXPECT_TRUE(probe.check("miopenConvolutionForward", test::route::Expected::forwarded()));
//
// With forwarding disabled every expectation means pass-through: the call was neither forwarded
// nor declined (nor counted at all) and the hipDNN backend is not mapped. With it enabled,
// forwarded means exactly one more forwarded call, not failed, whose route names an engine and
// the engine id of that name (FNV-1a, as hipDNN) — and when MIOPEN_TEST_EXPECT_ENGINE is set,
// that engine; declined means exactly one more declined call with that reason.
#pragma once

#include <gtest/gtest.h>

#include <map>
#include <string>

namespace test {
namespace route {

/// MIOPEN_HIPDNN_FORWARDING as the wrapper reads it (enabled/enable/on/yes/true/1, or verify;
/// any case).
bool forwardingEnabled();

/// MIOPEN_HIPDNN_FORWARDING=verify: forwarded calls are also checked against Private; the run
/// fails at its end when any was counted as mismatched.
bool verifyMode();

/// MIOPEN_TEST_EXPECT_ENGINE: the engine every forwarded call must run on ("" when any).
std::string expectedEngine();

/// Whether the hipDNN backend (libhipdnn_backend.so.1) is mapped into this process.
bool backendLoaded();

struct Expected
{
    bool forward = true;
    std::string reason; // the decline reason ("transposed-mode", "layout", ...) when !forward

    static Expected forwarded() { return {true, ""}; }
    static Expected declined(std::string why) { return {false, std::move(why)}; }
    std::string describe() const { return forward ? "forwarded" : "declined:" + reason; }
};

struct EntryCounts
{
    long forwarded = 0, failed = 0, declined = 0, invalid = 0, routed = 0;
    long verified = 0, mismatched = 0; // verify mode
    std::string last; // the route text of the entry's last call ("none" before any)
};

/// The counters file now: entry point -> counts (empty when nothing was recorded yet).
std::map<std::string, EntryCounts> readCounters();

/// 64-bit FNV-1a of an engine name: hipDNN's engine id rule.
long long engineIdOf(const std::string& name);

/// A snapshot of the counters; check() judges the one call of `entry` made since.
class Probe
{
public:
    Probe();
    ::testing::AssertionResult check(const std::string& entry, const Expected& expected) const;

private:
    std::map<std::string, EntryCounts> _before;
};

} // namespace route
} // namespace test
