// Per-engine config files (engines/<ENGINE NAME>.txt): the graph kinds and data types an engine
// MUST accept. Format (see README.md), one rule a line, '#' starts a comment:
//   <kind pattern> <dtype>[:<probe>] [<dtype>[:<probe>] ...]
// The pattern is a kind name where '*' matches any run of characters; dtype is fp32, fp16 or bf16;
// a ":<probe>" makes that dtype required only where the named run-time probe passes (probes:
// onednn_bf16). Every rule must match at least one kind of the suite.
#pragma once

#include <string>
#include <vector>

namespace integration_tests
{

enum class DType
{
    Fp32,
    Fp16,
    Bf16
};

const char* dtypeName(DType t);
bool parseDType(const std::string& text, DType& out);

/// A run-time capability probe a config rule can name. Empty `why` and true when it passes.
bool runProbe(const std::string& probe, std::string& why);
bool isKnownProbe(const std::string& probe);

/// True when `text` matches `pattern` ('*' = any run of characters, everything else literal).
bool wildcardMatch(const std::string& pattern, const std::string& text);

struct ConfigRule
{
    int line = 0;
    std::string pattern;
    struct Entry
    {
        DType dtype;
        std::string probe; ///< empty: always required
    };
    std::vector<Entry> dtypes;
};

/// Whether an engine must accept one (kind, dtype).
struct Requirement
{
    bool required = false;
    /// Why not required (unlisted, or listed behind a probe that fails here), or which rule requires it.
    std::string because;
};

class EngineConfig
{
public:
    /// Parses `path`; false with `error` (file, line, what) on any malformed line.
    static bool load(const std::string& path, EngineConfig& out, std::string& error);

    const std::string& engine() const { return _engine; }
    const std::string& path() const { return _path; }
    const std::vector<ConfigRule>& rules() const { return _rules; }
    Requirement requirement(const std::string& kind, DType dtype) const;

private:
    std::string _engine;
    std::string _path;
    std::vector<ConfigRule> _rules;
};

/// The config files of a directory (every *.txt), by engine name; `errors` collects parse errors.
std::vector<EngineConfig> loadEngineConfigs(const std::string& directory, std::vector<std::string>& errors);

/// The directory of the engine config files: INTEGRATION_TESTS_ENGINE_CONFIG_DIR when set (the
/// suite's self-tests point it at deliberately wrong configs), else the source tree's engines/.
const std::string& engineConfigDirectory();

} // namespace integration_tests
