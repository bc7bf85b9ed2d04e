#include "env_mapping.hpp"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string_view>

#include <unistd.h> // environ

namespace miopen {
namespace wrapper {

namespace {

// MIOpen's boolean spelling (1/on/yes/true/enable/enabled, 0/off/no/false/disable/disabled);
// nullopt when unset or anything else.
std::optional<bool> miopenBoolean(const char* name)
{
    const char* v = std::getenv(name);
    if(v == nullptr)
        return std::nullopt;
    std::string s(v);
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char ch) { return static_cast<char>(std::tolower(ch)); });
    for(const char* on : {"1", "on", "yes", "true", "enable", "enabled"})
        if(s == on)
            return true;
    for(const char* off : {"0", "off", "no", "false", "disable", "disabled"})
        if(s == off)
            return false;
    return std::nullopt;
}

std::string assignment(const char* name) { return std::string(name) + "=" + std::getenv(name); }

std::string privateOnlyVariable()
{
    for(const char* sw : {"MIOPEN_DEBUG_CONV_GEMM", "MIOPEN_DEBUG_CONV_DIRECT", "MIOPEN_DEBUG_CONV_WINOGRAD",
                          "MIOPEN_DEBUG_CONV_FFT", "MIOPEN_DEBUG_CONV_IMPLICIT_GEMM"})
        if(miopenBoolean(sw) == false)
            return assignment(sw);
    if(const char* only = std::getenv("MIOPEN_DEBUG_FIND_ONLY_SOLVER"); only != nullptr && *only != '\0')
        return assignment("MIOPEN_DEBUG_FIND_ONLY_SOLVER");
    if(miopenBoolean("MIOPEN_DEBUG_CONVOLUTION_DETERMINISTIC") == true)
        return assignment("MIOPEN_DEBUG_CONVOLUTION_DETERMINISTIC");
    return "";
}

// The MIOPEN_DEBUG_* variables set in the environment that nothing here reads (upstream has 172,
// most of them switches of GPU solvers), comma-separated in environment order; "" when none.
std::string unimplementedDebugVariables()
{
    static const char* const kKnown[] = {
        "MIOPEN_DEBUG_CONV_GEMM",        "MIOPEN_DEBUG_CONV_DIRECT",      "MIOPEN_DEBUG_CONV_WINOGRAD",
        "MIOPEN_DEBUG_CONV_FFT",         "MIOPEN_DEBUG_CONV_IMPLICIT_GEMM", "MIOPEN_DEBUG_FIND_ONLY_SOLVER",
        "MIOPEN_DEBUG_CONVOLUTION_DETERMINISTIC", "MIOPEN_DEBUG_CONV_CPU_ISA", "MIOPEN_DEBUG_DISABLE_FIND_DB"};
    constexpr std::string_view kPrefix = "MIOPEN_DEBUG_";
    std::string list;
    for(char** e = environ; e != nullptr && *e != nullptr; ++e)
    {
        const std::string_view entry(*e);
        const auto eq = entry.find('=');
        const std::string_view name = entry.substr(0, eq);
        if(name.substr(0, kPrefix.size()) != kPrefix ||
           std::any_of(std::begin(kKnown), std::end(kKnown), [&](const char* k) { return name == k; }))
            continue;
        list += (list.empty() ? "" : ", ") + std::string(name);
    }
    return list;
}

} // namespace

void readMiopenVariables(Config& c)
{
    c.enableLogging     = miopenBoolean("MIOPEN_ENABLE_LOGGING").value_or(false);
    c.enableLoggingCmd  = miopenBoolean("MIOPEN_ENABLE_LOGGING_CMD").value_or(false);
    const char* hipLvl  = std::getenv("HIPDNN_LOG_LEVEL");
    c.hipdnnLogLevelSet = hipLvl != nullptr && *hipLvl != '\0';
    if(c.mode == Mode::Disabled)
        return;
    c.miopenOnlyVariable = privateOnlyVariable();
    if(!c.miopenOnlyVariable.empty())
        c.warnings.push_back(c.miopenOnlyVariable +
                             ": hipDNN's engines cannot honour MIOpen's solver controls, so the convolution family "
                             "stays on MIOpen Private (route reason miopen-only-variable)");
    if(const char* isa = std::getenv("MIOPEN_DEBUG_CONV_CPU_ISA"); isa != nullptr && *isa != '\0')
        c.warnings.push_back(std::string("MIOPEN_DEBUG_CONV_CPU_ISA=") + isa +
                             " applies to MIOpen's solvers (forwarded calls on MIOPEN_ENGINE); DNNL_ENGINE follows "
                             "oneDNN's DNNL_MAX_CPU_ISA instead");
    if(c.enableLogging)
        c.warnings.push_back("MIOPEN_ENABLE_LOGGING: calls forwarded to hipDNN print no MIOpen argument block; "
                             "hipDNN logs them instead, as MIOpen(HIP) Info [hipDNN] lines");
    const std::string unknown = unimplementedDebugVariables();
    if(!unknown.empty())
        c.warnings.push_back(unknown + ": upstream MIOpen debug switches for solvers that neither this MIOpen nor "
                                       "hipDNN's engines have; no effect on either route");
}

int hipdnnSeverityFor(const Config& c) noexcept
{
    if(c.hipdnnLogLevelSet)
        return -1;
    if(c.enableLogging || c.logLevel >= 7)
        return 0; // INFO
    if(c.logLevel >= 4)
        return 1; // WARN
    if(c.logLevel == 3)
        return 2; // ERROR
    if(c.logLevel == 2)
        return 3; // FATAL
    return -1;
}

std::string miopenLineForHipdnn(int severity, const char* message)
{
    static const char* const kLevels[] = {"Info", "Warning", "Error", "Fatal"};
    const char* level = severity >= 0 && severity <= 3 ? kLevels[severity] : "Info";
    std::string text  = message == nullptr ? "" : message;
    // The backend's line starts with "[hipDNN][<SEV>] "; MIOpen's format names the source once.
    if(text.rfind("[hipDNN][", 0) == 0)
    {
        const auto close = text.find("] ", 9);
        if(close != std::string::npos)
            text.erase(0, close + 2);
    }
    return std::string("MIOpen(HIP): ") + level + " [hipDNN] " + text;
}

// The process's configuration: the environment, read once (routing.hpp's parsers are pure).
const Config& config()
{
    static const Config kConfig = [] {
        Config c;
        const char* modeText = std::getenv("MIOPEN_HIPDNN_FORWARDING");
        c.mode               = parseMode(modeText, c.modeFromEnv, c.warnings);
        if(modeText != nullptr)
            c.modeText = modeText;
        c.optOut = parseOptOut(std::getenv("MIOPEN_DISABLE_HIPDNN_FOR"), forwardingSet(), c.warnings);
        c.logLevel = parseLogLevel(std::getenv("MIOPEN_LOG_LEVEL"));
        readMiopenVariables(c);
        return c;
    }();
    return kConfig;
}

} // namespace wrapper
} // namespace miopen
