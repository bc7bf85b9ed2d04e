// The routing policy of MIOpen Public (RFC 4.4): which entry points may go to hipDNN, the
// MIOPEN_HIPDNN_FORWARDING mode and the MIOPEN_DISABLE_HIPDNN_FOR opt-out, and one pure function
// that decides the route of a call with its reason. Everything here is pure (the parsers take the
// variables' text); config(), defined with the rest of the environment reading in
// env_mapping.cpp, reads the environment once per process.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace miopen {
namespace wrapper {

enum class Mode
{
    Disabled,
    Enabled,
    Verify, // as Enabled, and each forwarded call is checked against Private (shadow_verify.hpp)
};

enum class Route
{
    Private, // MIOpen Private (miopenFoo_impl)
    HipDnn,  // forwarded to hipDNN
};

enum class Reason
{
    ForwardingOff,      // the mode is disabled
    NotInForwardingSet, // the entry point is not forwarded by this build
    DisabledByEnv,      // MIOPEN_DISABLE_HIPDNN_FOR names it (or is "*")
    MiopenOnlyVariable, // a MIOpen variable hipDNN cannot honour is in effect (env_mapping.hpp)
    InForwardingSet,    // forwarded
};

const char* modeName(Mode m);
const char* routeName(Route r);
const char* reasonName(Reason r);

// The compile-time forwarding set: the members of each op family in turn, as generator/policy.txt
// declares them (the generated forwarding_set.hpp).
const std::vector<std::string_view>& forwardingSet();
// Members of an op family by name ("convolution", "batchnorm", ...); empty for an unknown family.
const std::vector<std::string_view>& familyMembers(std::string_view family);
// The family of a forwarded entry point ("convolution", "batchnorm", ...); empty when not forwarded.
std::string_view familyOf(std::string_view entry);
bool inForwardingSet(std::string_view entry);

// The opt-out list: entry points by name, or every entry point.
struct OptOut
{
    bool all = false;
    std::vector<std::string> entries;
    bool contains(std::string_view entry) const;
};

// Parsed environment, with the diagnostics to print once.
struct Config
{
    Mode mode            = Mode::Disabled;
    bool modeFromEnv     = false; // false: the default applies (variable unset or empty)
    std::string modeText;         // the raw value, when set
    OptOut optOut;
    std::vector<std::string> warnings; // unknown values and names, one line each
    int logLevel = 0;                  // MIOPEN_LOG_LEVEL (0..7)
    // MIOpen's variables as they bear on forwarded calls (env_mapping.hpp, read with the rest).
    bool enableLogging    = false; // MIOPEN_ENABLE_LOGGING
    bool enableLoggingCmd = false; // MIOPEN_ENABLE_LOGGING_CMD: forwarded calls print the command too
    bool hipdnnLogLevelSet = false; // HIPDNN_LOG_LEVEL set: hipDNN's own logging configuration wins
    // "NAME=value" of the variable that keeps the convolution family on Private; empty when none.
    std::string miopenOnlyVariable;
};

// MIOPEN_HIPDNN_FORWARDING: unset/empty -> Disabled (default). Case-insensitive
// enabled/enable/on/1/yes/true -> Enabled; verify -> Verify; disabled/disable/off/0/no/false ->
// Disabled; anything else -> Disabled with a warning.
Mode parseMode(const char* value, bool& fromEnv, std::vector<std::string>& warnings);
// MIOPEN_DISABLE_HIPDNN_FOR: comma list, elements trimmed, empty ones ignored, "*" = all, a
// family name ("convolution", "batchnorm") = its members that are in `forwardable`; a name that is not in
// `forwardable` is warned about and ignored.
OptOut parseOptOut(const char* value, const std::vector<std::string_view>& forwardable,
                   std::vector<std::string>& warnings);

// MIOPEN_LOG_LEVEL: an integer 0..7 (strtol's spelling, nothing after it); unset or anything
// else -> 0.
int parseLogLevel(const char* value);

// The decision for one call (pure).
struct Decision
{
    Route route;
    Reason reason;
};
// Order: mode off; not in the set; opted out; a MIOpen-only variable in effect
// (`miopenOnlyVariable` non-empty: convolution solver controls, so convolution entries only);
// otherwise forwarded.
Decision resolveRoute(Mode mode, std::string_view entry, const OptOut& optOut,
                      const std::vector<std::string_view>& forwardable,
                      std::string_view miopenOnlyVariable = {});

// The process's configuration (environment parsed on first use, once).
const Config& config();

} // namespace wrapper
} // namespace miopen
