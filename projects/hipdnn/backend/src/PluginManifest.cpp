#include "PluginManifest.hpp"

#include "BackendLogger.hpp"
#include "Security.hpp"

#include <charconv>
#include <cstdio>
#include <sstream>

#include <sys/stat.h>

namespace hipdnn_backend
{

namespace
{
constexpr const char* kMagic = "hipdnn-plugin-manifest-v1";
constexpr const char* kFileName = "hipdnn_plugin_manifest.txt";
constexpr size_t kFields = 11;

std::vector<std::string> split(const std::string& text, char separator)
{
    std::vector<std::string> parts;
    size_t start = 0;
    while(true)
    {
        const size_t end = text.find(separator, start);
        parts.push_back(text.substr(start, end == std::string::npos ? std::string::npos : end - start));
        if(end == std::string::npos)
        {
            return parts;
        }
        start = end + 1;
    }
}

template <class T>
bool parseNumber(const std::string& text, T& out, int base = 10)
{
    if(text.empty() || text.size() > 24)
    {
        return false;
    }
    const char* end = text.data() + text.size();
    const auto result = std::from_chars(text.data(), end, out, base);
    return result.ec == std::errc() && result.ptr == end;
}

bool hasAny(const std::string& text, const char* forbidden)
{
    return text.find_first_of(forbidden) != std::string::npos;
}

std::string hex16(int64_t id)
{
    char buffer[24];
    std::snprintf(buffer, sizeof(buffer), "%016llx", static_cast<unsigned long long>(static_cast<uint64_t>(id)));
    return buffer;
}
} // namespace

bool statPluginFile(const std::string& path, PluginFileStamp& out)
{
    struct stat st{};
    if(::stat(path.c_str(), &st) != 0)
    {
        return false;
    }
    out.device = static_cast<uint64_t>(st.st_dev);
    out.inode = static_cast<uint64_t>(st.st_ino);
    out.size = static_cast<int64_t>(st.st_size);
    out.mtimeNs = static_cast<int64_t>(st.st_mtim.tv_sec) * 1000000000LL + st.st_mtim.tv_nsec;
    out.ctimeNs = static_cast<int64_t>(st.st_ctim.tv_sec) * 1000000000LL + st.st_ctim.tv_nsec;
    return true;
}

PluginManifest::PluginManifest(std::string path)
    : _path(std::move(path))
{
}

std::string PluginManifest::pathNextTo(const std::string& rankingDbPath)
{
    if(rankingDbPath.empty())
    {
        return {};
    }
    const auto slash = rankingDbPath.find_last_of('/');
    if(slash == std::string::npos)
    {
        return {}; // a relative ranking path is never used (Security.hpp); no manifest either
    }
    return rankingDbPath.substr(0, slash + 1) + kFileName;
}

bool PluginManifest::formatEntry(const PluginManifestEntry& e, std::string& line)
{
    static const char* const kFieldForbidden = "\t\n\r";
    static const char* const kEngineForbidden = "\t\n\r,=";
    if(e.path.empty() || e.path[0] != '/' || hasAny(e.path, kFieldForbidden) || e.name.empty()
       || hasAny(e.name, kFieldForbidden) || e.version.empty() || hasAny(e.version, kFieldForbidden)
       || e.apiVersion.empty() || hasAny(e.apiVersion, kFieldForbidden) || e.engines.empty() || e.stamp.size < 0)
    {
        return false;
    }
    std::ostringstream out;
    out << kMagic << '\t' << e.stamp.device << '\t' << e.stamp.inode << '\t' << e.stamp.size << '\t'
        << e.stamp.mtimeNs << '\t' << e.stamp.ctimeNs << '\t' << e.name << '\t' << e.version << '\t'
        << e.apiVersion << '\t';
    for(size_t i = 0; i < e.engines.size(); ++i)
    {
        if(hasAny(e.engines[i].second, kEngineForbidden))
        {
            return false;
        }
        out << (i == 0 ? "" : ",") << hex16(e.engines[i].first) << '=' << e.engines[i].second;
    }
    out << '\t' << e.path;
    line = out.str();
    return true;
}

bool PluginManifest::parseEntry(const std::string& line, PluginManifestEntry& e)
{
    const auto fields = split(line, '\t');
    if(fields.size() != kFields || fields[0] != kMagic)
    {
        return false;
    }
    PluginManifestEntry parsed;
    if(!parseNumber(fields[1], parsed.stamp.device) || !parseNumber(fields[2], parsed.stamp.inode)
       || !parseNumber(fields[3], parsed.stamp.size) || parsed.stamp.size < 0
       || !parseNumber(fields[4], parsed.stamp.mtimeNs) || !parseNumber(fields[5], parsed.stamp.ctimeNs))
    {
        return false;
    }
    parsed.name = fields[6];
    parsed.version = fields[7];
    parsed.apiVersion = fields[8];
    parsed.path = fields[10];
    if(parsed.name.empty() || parsed.version.empty() || parsed.apiVersion.empty() || parsed.path.empty()
       || parsed.path[0] != '/' || hasAny(parsed.path, "\r") || fields[9].empty())
    {
        return false;
    }
    for(const std::string& item : split(fields[9], ','))
    {
        const auto eq = item.find('=');
        uint64_t id = 0;
        if(eq != 16 || !parseNumber(item.substr(0, 16), id, 16))
        {
            return false;
        }
        const int64_t engineId = static_cast<int64_t>(id);
        for(const auto& existing : parsed.engines)
        {
            if(existing.first == engineId)
            {
                return false; // a clean plugin lists each id once
            }
        }
        parsed.engines.emplace_back(engineId, item.substr(eq + 1));
    }
    e = std::move(parsed);
    return true;
}

std::map<std::string, PluginManifestEntry> PluginManifest::readFile(bool warn, size_t& corrupt) const
{
    std::map<std::string, PluginManifestEntry> entries;
    corrupt = 0;
    std::string content, why;
    if(!readCacheFile(_path, content, why))
    {
        if(warn && !why.empty())
        {
            HIPDNN_LOG_WARN("plugin manifest " << _path << " not used (" << why << "); plugins are loaded");
        }
        return entries;
    }
    std::istringstream in(content);
    std::string line;
    while(std::getline(in, line))
    {
        if(line.empty() || line[0] == '#')
        {
            continue;
        }
        PluginManifestEntry entry;
        if(parseEntry(line, entry))
        {
            entries[entry.path] = std::move(entry);
        }
        else
        {
            ++corrupt;
        }
    }
    if(warn && corrupt > 0)
    {
        HIPDNN_LOG_WARN("plugin manifest " << _path << ": " << corrupt
                                          << " malformed line(s) ignored; the file is rewritten");
    }
    return entries;
}

void PluginManifest::load()
{
    _entries.clear();
    _changes.clear();
    _dirty = false;
    if(enabled())
    {
        _entries = readFile(true, _corruptLines);
        _dirty = _corruptLines > 0;
    }
}

const PluginManifestEntry* PluginManifest::find(const std::string& path, const PluginFileStamp& stamp) const
{
    const auto it = _entries.find(path);
    return it != _entries.end() && it->second.stamp == stamp ? &it->second : nullptr;
}

void PluginManifest::put(PluginManifestEntry entry)
{
    std::string line;
    if(!formatEntry(entry, line))
    {
        return; // a field the format cannot hold: this plugin is loaded eagerly every time
    }
    _changes[entry.path] = true;
    _entries[entry.path] = std::move(entry);
    _dirty = true;
}

void PluginManifest::drop(const std::string& path)
{
    if(_entries.erase(path) != 0)
    {
        _changes[path] = false;
        _dirty = true;
    }
}

bool PluginManifest::save(std::string& why)
{
    if(!enabled())
    {
        return true;
    }
    if(!makeParentDirectories(_path, why))
    {
        return false;
    }
    CacheFileLock lock(_path); // best effort: without it two writers may drop each other's entry
    size_t corrupt = 0;
    auto merged = readFile(false, corrupt);
    for(const auto& [path, isPut] : _changes)
    {
        if(isPut)
        {
            merged[path] = _entries.at(path);
        }
        else
        {
            merged.erase(path);
        }
    }
    std::string content = "# hipDNN plugin manifest: engines of each plugin file by path and stat; a cache, safe "
                          "to delete\n";
    for(auto it = merged.begin(); it != merged.end(); ++it)
    {
        PluginFileStamp now;
        std::string line;
        if(statPluginFile(it->first, now) && formatEntry(it->second, line))
        {
            content += line + "\n";
        }
    }
    if(!writeCacheFileAtomically(_path, content, 0644, why))
    {
        return false;
    }
    _changes.clear();
    _dirty = false;
    return true;
}

} // namespace hipdnn_backend
