#include "EngineConfig.hpp"

#if INTEGRATION_TESTS_HAVE_ONEDNN
#include <oneapi/dnnl/dnnl.hpp>
#endif

#include <algorithm>
#include <cstdlib>
#include <dirent.h>
#include <fstream>
#include <map>
#include <sstream>

namespace integration_tests
{

const char* dtypeName(DType t)
{
    switch(t)
    {
    case DType::Fp32: return "fp32";
    case DType::Fp16: return "fp16";
    case DType::Bf16: return "bf16";
    }
    return "?";
}

bool parseDType(const std::string& text, DType& out)
{
    for(DType t : {DType::Fp32, DType::Fp16, DType::Bf16})
    {
        if(text == dtypeName(t))
        {
            out = t;
            return true;
        }
    }
    return false;
}

namespace
{
/// Whether oneDNN (the library the DNNL engine wraps) builds a bf16 convolution on this CPU: the
/// same question the oneDNN provider asks before it claims bf16.
std::string probeOneDnnBf16()
{
#if INTEGRATION_TESTS_HAVE_ONEDNN
    using dt = dnnl::memory::data_type;
    using tag = dnnl::memory::format_tag;
    try
    {
        const dnnl::engine cpu(dnnl::engine::kind::cpu, 0);
        const dnnl::memory::desc src({1, 16, 5, 5}, dt::bf16, tag::any);
        const dnnl::memory::desc weights({16, 16, 3, 3}, dt::bf16, tag::any);
        const dnnl::memory::desc dst({1, 16, 5, 5}, dt::bf16, tag::any);
        const dnnl::convolution_forward::desc desc(dnnl::prop_kind::forward_inference,
                                                   dnnl::algorithm::convolution_direct, src, weights, dst, {1, 1},
                                                   {1, 1}, {1, 1});
        const dnnl::convolution_forward::primitive_desc pd(desc, cpu, true);
        if(!pd)
        {
            return "oneDNN has no bf16 convolution for this CPU";
        }
        return {};
    }
    catch(const dnnl::error& e)
    {
        return std::string("oneDNN cannot build a bf16 convolution on this CPU: ") + e.what();
    }
#else
    return "the suite was built without oneDNN, so it cannot probe oneDNN's bf16 support";
#endif
}
} // namespace

bool isKnownProbe(const std::string& probe)
{
    return probe == "onednn_bf16";
}

bool runProbe(const std::string& probe, std::string& why)
{
    static const std::map<std::string, std::string> results = {{"onednn_bf16", probeOneDnnBf16()}};
    const auto it = results.find(probe);
    why = it == results.end() ? "unknown probe '" + probe + "'" : it->second;
    return why.empty();
}

bool wildcardMatch(const std::string& pattern, const std::string& text)
{
    // Iterative '*' matching with backtracking to the last star.
    size_t p = 0, t = 0, star = std::string::npos, mark = 0;
    while(t < text.size())
    {
        if(p < pattern.size() && pattern[p] != '*' && pattern[p] == text[t])
        {
            ++p;
            ++t;
        }
        else if(p < pattern.size() && pattern[p] == '*')
        {
            star = p++;
            mark = t;
        }
        else if(star != std::string::npos)
        {
            p = star + 1;
            t = ++mark;
        }
        else
        {
            return false;
        }
    }
    while(p < pattern.size() && pattern[p] == '*')
    {
        ++p;
    }
    return p == pattern.size();
}

bool EngineConfig::load(const std::string& path, EngineConfig& out, std::string& error)
{
    std::ifstream in(path);
    if(!in)
    {
        error = path + ": cannot be read";
        return false;
    }
    out = EngineConfig();
    out._path = path;
    const size_t slash = path.find_last_of('/');
    std::string file = slash == std::string::npos ? path : path.substr(slash + 1);
    out._engine = file.substr(0, file.rfind(".txt"));
    std::string text;
    int lineNo = 0;
    while(std::getline(in, text))
    {
        ++lineNo;
        const size_t hash = text.find('#');
        if(hash != std::string::npos)
        {
            text.erase(hash);
        }
        std::istringstream words(text);
        ConfigRule rule;
        rule.line = lineNo;
        if(!(words >> rule.pattern))
        {
            continue;
        }
        std::string word;
        while(words >> word)
        {
            ConfigRule::Entry entry{DType::Fp32, {}};
            const size_t colon = word.find(':');
            if(colon != std::string::npos)
            {
                entry.probe = word.substr(colon + 1);
                word.erase(colon);
                if(!isKnownProbe(entry.probe))
                {
                    error = path + ":" + std::to_string(lineNo) + ": unknown probe '" + entry.probe + "'";
                    return false;
                }
            }
            if(!parseDType(word, entry.dtype))
            {
                error = path + ":" + std::to_string(lineNo) + ": unknown data type '" + word
                        + "' (expected fp32, fp16 or bf16)";
                return false;
            }
            rule.dtypes.push_back(entry);
        }
        if(rule.dtypes.empty())
        {
            error = path + ":" + std::to_string(lineNo) + ": rule '" + rule.pattern + "' names no data type";
            return false;
        }
        out._rules.push_back(std::move(rule));
    }
    return true;
}

Requirement EngineConfig::requirement(const std::string& kind, DType dtype) const
{
    Requirement r;
    std::string probeFailures;
    for(const ConfigRule& rule : _rules)
    {
        if(!wildcardMatch(rule.pattern, kind))
        {
            continue;
        }
        for(const auto& entry : rule.dtypes)
        {
            if(entry.dtype != dtype)
            {
                continue;
            }
            const std::string where = _engine + ".txt:" + std::to_string(rule.line) + " '" + rule.pattern + "'";
            std::string why;
            if(entry.probe.empty() || runProbe(entry.probe, why))
            {
                r.required = true;
                r.because = "required by " + where;
                return r;
            }
            probeFailures += (probeFailures.empty() ? "" : "; ") + where + " requires it only where probe "
                             + entry.probe + " passes, and it does not here: " + why;
        }
    }
    r.because = probeFailures.empty() ? "not listed in " + _engine + ".txt" : probeFailures;
    return r;
}

std::vector<EngineConfig> loadEngineConfigs(const std::string& directory, std::vector<std::string>& errors)
{
    std::vector<std::string> files;
    if(DIR* dir = opendir(directory.c_str()))
    {
        while(const dirent* entry = readdir(dir))
        {
            const std::string name = entry->d_name;
            if(name.size() > 4 && name.compare(name.size() - 4, 4, ".txt") == 0)
            {
                files.push_back(name);
            }
        }
        closedir(dir);
    }
    else
    {
        errors.push_back("cannot open the engine config directory " + directory);
    }
    std::sort(files.begin(), files.end());
    std::vector<EngineConfig> configs;
    for(const std::string& name : files)
    {
        EngineConfig config;
        std::string error;
        if(EngineConfig::load(directory + "/" + name, config, error))
        {
            configs.push_back(std::move(config));
        }
        else
        {
            errors.push_back(error);
        }
    }
    return configs;
}

const std::string& engineConfigDirectory()
{
    static const std::string dir = [] {
        const char* env = std::getenv("INTEGRATION_TESTS_ENGINE_CONFIG_DIR");
        return std::string(env != nullptr && *env != '\0' ? env : INTEGRATION_TESTS_ENGINE_CONFIG_DIR);
    }();
    return dir;
}

} // namespace integration_tests
