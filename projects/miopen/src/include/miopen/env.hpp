// Environment variables, read once per process (values are cached at first use).
#pragma once

#include <optional>
#include <string>

namespace miopen {
namespace env {

// Raw value, or nullopt when unset. Not cached (used by the cached readers below and by tests).
std::optional<std::string> raw(const char* name);

// Boolean in MIOpen's spelling: 1/on/yes/true/enable/enabled, 0/off/no/false/disable/disabled.
// Anything else, or unset, gives `fallback`.
bool boolean(const char* name, bool fallback);

// Integer; unset or unparsable gives `fallback`.
long integer(const char* name, long fallback);

} // namespace env
} // namespace miopen
