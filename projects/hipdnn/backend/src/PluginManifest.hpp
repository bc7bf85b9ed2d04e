// The plugin manifest (see "Plugin loading" in the README): what each plugin file that loaded
// cleanly reported (name, versions, engine ids and names), keyed by its absolute path and its
// stat identity (device, inode, size, mtime, ctime), so that a process can list a plugin's engines
// without dlopen-ing it. One text line per plugin file, next to the engine ranking file; an entry
// is used only when the file's stat still matches, so a rebuilt, touched or replaced plugin is
// loaded again and its entry rewritten. The content is a cache: it never names a file to load
// (only files found in the plugin directories are loaded), and a plugin loaded later is checked
// against its entry.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace hipdnn_backend
{

/// A plugin file's stat identity.
struct PluginFileStamp
{
    uint64_t device = 0;
    uint64_t inode = 0;
    int64_t size = -1;
    int64_t mtimeNs = 0;
    int64_t ctimeNs = 0;

    bool operator==(const PluginFileStamp& o) const
    {
        return device == o.device && inode == o.inode && size == o.size && mtimeNs == o.mtimeNs
               && ctimeNs == o.ctimeNs;
    }
    bool operator!=(const PluginFileStamp& o) const { return !(*this == o); }
};

/// stat() of `path` (following links, as dlopen does); false when it cannot be stat'ed.
bool statPluginFile(const std::string& path, PluginFileStamp& out);

struct PluginManifestEntry
{
    std::string path; ///< absolute, canonical
    PluginFileStamp stamp;
    std::string name;
    std::string version;
    std::string apiVersion;
    /// Engine ids in the plugin's order with the plugin's own name for each (empty: none given).
    std::vector<std::pair<int64_t, std::string>> engines;
};

class PluginManifest
{
public:
    /// `path` empty: no manifest (every plugin is loaded eagerly).
    explicit PluginManifest(std::string path);

    /// "<directory of the ranking file>/hipdnn_plugin_manifest.txt"; empty for an empty path.
    static std::string pathNextTo(const std::string& rankingDbPath);

    const std::string& path() const { return _path; }
    bool enabled() const { return !_path.empty(); }

    /// Reads the file (absent: empty; unreadable or refused: empty, one WARN). Malformed lines
    /// are ignored (counted; WARN once) and dropped at the next save.
    void load();
    size_t corruptLines() const { return _corruptLines; }

    /// The entry for `path` when its stamp matches, else nullptr.
    const PluginManifestEntry* find(const std::string& path, const PluginFileStamp& stamp) const;
    /// True when an entry exists for `path`, whatever its stamp.
    bool has(const std::string& path) const { return _entries.count(path) != 0; }
    void put(PluginManifestEntry entry);
    void drop(const std::string& path);
    /// Something was put or dropped since load().
    bool dirty() const { return _dirty; }

    /// Rewrites the file under an flock on "<path>.lock": what is on disk now (other processes'
    /// entries) merged with this one's puts and drops, entries of files that no longer exist
    /// removed, written to a temporary file and renamed over it (0644). False with `why`.
    bool save(std::string& why);

    /// One line of the file (exposed for tests); false from format for a field it cannot hold.
    static bool formatEntry(const PluginManifestEntry& entry, std::string& line);
    static bool parseEntry(const std::string& line, PluginManifestEntry& entry);

private:
    std::map<std::string, PluginManifestEntry> readFile(bool warn, size_t& corrupt) const;

    std::string _path;
    std::map<std::string, PluginManifestEntry> _entries;
    std::map<std::string, bool> _changes; // path -> true: put, false: dropped
    size_t _corruptLines = 0;
    bool _dirty = false;
};

} // namespace hipdnn_backend
