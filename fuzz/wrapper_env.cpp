// Fuzz target: the environment parsing of MIOpen Public's wrapper (projects/miopen/wrapper/src
// routing.hpp and env_mapping.hpp, linked from MIOpen_wrapper_runtime). The input is a list of
// newline-separated values, in order: MIOPEN_HIPDNN_FORWARDING, MIOPEN_DISABLE_HIPDNN_FOR,
// MIOPEN_LOG_LEVEL, then the MIOpen variables env_mapping.hpp reads (kMiopenVariables). A value
// the input does not reach is unset. The pure parsers get the values directly; the MIOpen
// variables, which readMiopenVariables reads from the environment, are set with setenv first.
// Every documented property of the result is checked; a violation aborts.
#include "common/FuzzInput.hpp"

#include <env_mapping.hpp>
#include <routing.hpp>

#include <algorithm>
#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

namespace {

using namespace miopen::wrapper;

const char* const kMiopenVariables[] = {
    "MIOPEN_ENABLE_LOGGING",          "MIOPEN_ENABLE_LOGGING_CMD",   "HIPDNN_LOG_LEVEL",
    "MIOPEN_DEBUG_CONV_GEMM",         "MIOPEN_DEBUG_CONV_DIRECT",    "MIOPEN_DEBUG_CONV_WINOGRAD",
    "MIOPEN_DEBUG_CONV_FFT",          "MIOPEN_DEBUG_CONV_IMPLICIT_GEMM", "MIOPEN_DEBUG_FIND_ONLY_SOLVER",
    "MIOPEN_DEBUG_CONVOLUTION_DETERMINISTIC", "MIOPEN_DEBUG_CONV_CPU_ISA",
};

const char* valueOrNull(const std::optional<std::string>& v) { return v ? v->c_str() : nullptr; }

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    project_fuzz::FuzzInput in(data, size);
    auto next = [&in]() -> std::optional<std::string> {
        if(in.empty())
            return std::nullopt;
        return in.field('\n');
    };
    const auto forwarding = next();
    const auto disableFor = next();
    const auto logLevel   = next();

    Config c;
    c.mode = parseMode(valueOrNull(forwarding), c.modeFromEnv, c.warnings);
    PROJECT_FUZZ_CHECK(c.mode == Mode::Disabled || c.mode == Mode::Enabled || c.mode == Mode::Verify, "mode");
    PROJECT_FUZZ_CHECK(c.modeFromEnv || c.mode == Mode::Disabled, "the default mode is Disabled");
    PROJECT_FUZZ_CHECK(modeName(c.mode) != nullptr, "mode name");

    c.optOut = parseOptOut(valueOrNull(disableFor), forwardingSet(), c.warnings);
    for(const auto& e : c.optOut.entries)
        PROJECT_FUZZ_CHECK(inForwardingSet(e), "an opted-out entry is one this build forwards");

    c.logLevel = parseLogLevel(valueOrNull(logLevel));
    PROJECT_FUZZ_CHECK(c.logLevel >= 0 && c.logLevel <= 7, "MIOPEN_LOG_LEVEL in 0..7");

    for(const char* name : kMiopenVariables)
    {
        const auto v = next();
        if(v)
            setenv(name, v->c_str(), 1);
        else
            unsetenv(name);
    }
    readMiopenVariables(c);
    PROJECT_FUZZ_CHECK(c.mode != Mode::Disabled || c.miopenOnlyVariable.empty(),
                       "with forwarding disabled no MIOpen-only variable is reported");
    PROJECT_FUZZ_CHECK(c.miopenOnlyVariable.empty() || c.miopenOnlyVariable.rfind("MIOPEN_", 0) == 0,
                       "the MIOpen-only variable is NAME=value");

    const int severity = hipdnnSeverityFor(c);
    PROJECT_FUZZ_CHECK(severity >= -1 && severity <= 3, "hipDNN severity");
    PROJECT_FUZZ_CHECK(!c.hipdnnLogLevelSet || severity == -1, "HIPDNN_LOG_LEVEL wins");

    // Every entry point of the set and one outside it, with the parsed configuration.
    std::vector<std::string_view> entries = forwardingSet();
    entries.push_back("miopenSoftmaxForward");
    for(auto entry : entries)
    {
        const Decision d = resolveRoute(c.mode, entry, c.optOut, forwardingSet(), c.miopenOnlyVariable);
        PROJECT_FUZZ_CHECK(routeName(d.route) != nullptr && reasonName(d.reason) != nullptr, "names");
        const bool forwarded = d.route == Route::HipDnn;
        PROJECT_FUZZ_CHECK(forwarded == (d.reason == Reason::InForwardingSet), "route and reason agree");
        if(forwarded)
        {
            PROJECT_FUZZ_CHECK(c.mode != Mode::Disabled, "forwarded only when enabled");
            PROJECT_FUZZ_CHECK(inForwardingSet(entry) && !familyOf(entry).empty(), "forwarded only from the set");
            PROJECT_FUZZ_CHECK(!c.optOut.contains(entry), "an opted-out entry is never forwarded");
        }
        else if(c.mode != Mode::Disabled && inForwardingSet(entry) && !c.optOut.contains(entry) &&
                c.miopenOnlyVariable.empty())
            PROJECT_FUZZ_CHECK(false, "a forwardable entry with nothing against it is forwarded");
    }

    // A hipDNN log line through MIOpen's format, with the last value (or the whole input) as text.
    const std::string text(reinterpret_cast<const char*>(data), size);
    const std::string line = miopenLineForHipdnn(severity, text.c_str());
    PROJECT_FUZZ_CHECK(line.rfind("MIOpen(HIP): ", 0) == 0, "MIOpen's log prefix");
    PROJECT_FUZZ_CHECK(line.size() <= text.size() + 40, "the line is bounded by the message");
    (void)miopenLineForHipdnn(static_cast<int>(size % 9) - 4, nullptr);
    return 0;
}
