#include "PluginManager.hpp"

#include "BackendLogger.hpp"
#include "EngineRanking.hpp"
#include "HipdnnException.hpp"
#include "PluginManifest.hpp"
#include "Security.hpp"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <set>

#include <dlfcn.h>

namespace fs = std::filesystem;

namespace hipdnn_backend
{

namespace
{
constexpr const char* kEngineSubdir = "hipdnn_plugins/engines";

void addDirectory(const fs::path& dir, std::vector<std::string>& out)
{
    std::error_code ec;
    if(!fs::is_directory(dir, ec))
    {
        HIPDNN_LOG_INFO("plugin directory " << dir.string() << " does not exist; nothing loaded from it");
        return;
    }
    std::vector<std::string> files;
    for(const auto& entry : fs::directory_iterator(dir, ec))
    {
        if(entry.is_regular_file(ec) && entry.path().extension() == ".so")
        {
            files.push_back(entry.path().string());
        }
    }
    std::sort(files.begin(), files.end());
    out.insert(out.end(), files.begin(), files.end());
}

// A path names a directory, a file, or a file without "lib" prefix / ".so" suffix.
void addPath(const std::string& spec, std::vector<std::string>& out)
{
    fs::path p(spec);
    if(p.is_relative())
    {
        p = fs::path(PluginManager::backendDirectory()) / p;
    }
    std::error_code ec;
    if(fs::is_directory(p, ec))
    {
        addDirectory(p, out);
        return;
    }
    const fs::path dir = p.parent_path();
    const std::string stem = p.filename().string();
    for(const fs::path& candidate : {p, dir / (stem + ".so"), dir / ("lib" + stem + ".so"),
                                     dir / ("lib" + stem)})
    {
        if(fs::is_regular_file(candidate, ec))
        {
            out.push_back(candidate.string());
            return;
        }
    }
    HIPDNN_LOG_WARN("plugin path '" << spec << "' (resolved to " << p.string()
                                    << ") names no directory or plugin file; skipped");
}
} // namespace

PluginManager& PluginManager::instance()
{
    static PluginManager manager;
    return manager;
}

std::string PluginManager::backendDirectory()
{
    Dl_info info{};
    if(dladdr(reinterpret_cast<void*>(&PluginManager::backendDirectory), &info) != 0
       && info.dli_fname != nullptr)
    {
        std::error_code ec;
        fs::path lib = fs::canonical(info.dli_fname, ec);
        if(ec)
        {
            lib = fs::absolute(info.dli_fname);
        }
        return lib.parent_path().string();
    }
    throw HipdnnException(HIPDNN_STATUS_INTERNAL_ERROR,
                          "cannot locate the backend library (dladdr failed)");
}

void PluginManager::setEnginePluginPaths(std::vector<std::string> paths,
                                         hipdnnPluginLoadingMode_ext_t mode)
{
    std::lock_guard<std::mutex> lock(_mutex);
    throwIf(_liveHandles != 0, HIPDNN_STATUS_NOT_SUPPORTED,
            "plugin paths cannot change while a handle is alive ("
                + std::to_string(_liveHandles) + " alive)");
    _extPaths = std::move(paths);
    _mode = mode;
    _loaded = false;
    _libraries.clear();
}

void PluginManager::setUnloadMode(hipdnnPluginUnloadingMode_ext_t mode)
{
    std::lock_guard<std::mutex> lock(_mutex);
    _unloadMode = mode;
    if(_unloadMode == HIPDNN_PLUGIN_UNLOAD_EAGER && _liveHandles == 0)
    {
        _loaded = false;
        _libraries.clear();
    }
}

std::vector<std::string> PluginManager::candidateFiles() const
{
    std::lock_guard<std::mutex> lock(_mutex);
    return candidateFilesLocked();
}

std::vector<std::string> PluginManager::candidateFilesLocked() const
{
    std::vector<std::string> files;
    if(_mode == HIPDNN_PLUGIN_LOADING_ADDITIVE)
    {
        // HIPDNN_PLUGIN_DIR: an absolute directory instead of the default one; a relative value
        // or any value under secure execution is ignored (one WARN per process).
        const std::string env = absolutePathFromEnvironment("HIPDNN_PLUGIN_DIR");
        addDirectory(env.empty() ? fs::path(backendDirectory()) / kEngineSubdir : fs::path(env), files);
    }
    for(const auto& spec : _extPaths)
    {
        addPath(spec, files);
    }
    return files;
}

std::string PluginManager::manifestPath() const
{
    if(_manifestOverride.has_value())
    {
        return *_manifestOverride;
    }
    if(const char* mode = environmentValue("HIPDNN_PLUGIN_LOADING"))
    {
        std::string m(mode);
        std::transform(m.begin(), m.end(), m.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
        if(m == "eager")
        {
            return {};
        }
        if(m != "lazy" && !m.empty())
        {
            static std::once_flag warned;
            std::call_once(warned, [&] {
                HIPDNN_LOG_WARN("HIPDNN_PLUGIN_LOADING=" << mode << " is neither 'lazy' nor 'eager'; using lazy");
            });
        }
    }
    return PluginManifest::pathNextTo(EngineRanking::instance().settings().dbPath);
}

void PluginManager::setManifestPath(std::optional<std::string> path)
{
    std::lock_guard<std::mutex> lock(_mutex);
    _manifestOverride = std::move(path);
}

void PluginManager::reset()
{
    std::lock_guard<std::mutex> lock(_mutex);
    throwIf(_liveHandles != 0, HIPDNN_STATUS_NOT_SUPPORTED,
            "plugins cannot be reloaded while a handle is alive (" + std::to_string(_liveHandles) + " alive)");
    _loaded = false;
    _libraries.clear();
}

void PluginManager::loadLocked(const std::vector<std::string>& files)
{
    _libraries.clear();
    _loadedFiles = files;
    PluginManifest manifest(manifestPath());
    manifest.load();
    std::set<std::string> seenFiles;
    std::vector<std::pair<int64_t, std::string>> seenEngines; // id, plugin path
    for(const auto& file : files)
    {
        std::error_code ec;
        const std::string key = fs::weakly_canonical(file, ec).string();
        if(!seenFiles.insert(key).second)
        {
            HIPDNN_LOG_INFO("plugin " << file << " already loaded; skipped");
            continue;
        }
        // The stamp is taken before loading: a file replaced while it loads gets a stale entry,
        // which the next process sees as changed.
        PluginFileStamp stamp;
        const bool statted = manifest.enabled() && statPluginFile(key, stamp);
        std::shared_ptr<PluginLibrary> lib;
        if(const PluginManifestEntry* entry = statted ? manifest.find(key, stamp) : nullptr)
        {
            // Reported under the path as found (as an eager load does); the manifest's key is
            // the canonical path.
            PluginManifestEntry asFound = *entry;
            asFound.path = file;
            lib = std::make_shared<PluginLibrary>(asFound);
        }
        else
        {
            try
            {
                lib = std::make_shared<PluginLibrary>(file);
            }
            catch(const std::exception& e)
            {
                HIPDNN_LOG_WARN("rejected plugin " << file << ": " << e.what());
                manifest.drop(key);
                continue;
            }
            if(statted && lib->loadWarnings() == 0)
            {
                manifest.put(lib->manifestEntry(key, stamp));
            }
            else
            {
                manifest.drop(key);
            }
        }
        for(int64_t id : std::vector<int64_t>(lib->engineIds()))
        {
            auto it = std::find_if(seenEngines.begin(), seenEngines.end(),
                                   [id](const auto& e) { return e.first == id; });
            if(it != seenEngines.end())
            {
                HIPDNN_LOG_WARN("dropped engine id " << id << " of plugin " << file
                                                     << ": already provided by " << it->second);
                lib->dropEngine(id);
            }
        }
        if(lib->engineIds().empty())
        {
            HIPDNN_LOG_WARN("rejected plugin " << file << ": it provides no engine that is not "
                                                          "already provided by an earlier plugin");
            continue;
        }
        for(int64_t id : lib->engineIds())
        {
            seenEngines.emplace_back(id, file);
        }
        if(lib->loaded())
        {
            HIPDNN_LOG_INFO("loaded plugin " << lib->name() << " " << lib->version() << " (API "
                                             << lib->apiVersion() << ") from " << file << " with "
                                             << lib->engineIds().size() << " engine(s)");
        }
        else
        {
            HIPDNN_LOG_INFO("plugin " << lib->name() << " " << lib->version() << " (API " << lib->apiVersion()
                                      << ") from " << file << " with " << lib->engineIds().size()
                                      << " engine(s) listed by the plugin manifest; loaded on first use");
        }
        _libraries.push_back(std::move(lib));
    }
    if(manifest.dirty())
    {
        std::string why;
        if(!manifest.save(why))
        {
            static std::once_flag warned;
            std::call_once(warned, [&] {
                HIPDNN_LOG_WARN("plugin manifest " << manifest.path() << " is not writable (" << why
                                                   << "); plugins are loaded at every start");
            });
        }
    }
    _loaded = true;
}

std::vector<std::shared_ptr<PluginLibrary>> PluginManager::acquire()
{
    std::lock_guard<std::mutex> lock(_mutex);
    // The candidate list is recomputed at every hipdnnCreate (a directory scan); libraries are
    // reloaded only when it changed (new files, another HIPDNN_PLUGIN_DIR, new _ext paths).
    const auto files = candidateFilesLocked();
    if(!_loaded || files != _loadedFiles)
    {
        loadLocked(files);
    }
    ++_liveHandles;
    return _libraries;
}

void PluginManager::release()
{
    std::lock_guard<std::mutex> lock(_mutex);
    if(_liveHandles > 0)
    {
        --_liveHandles;
    }
    if(_liveHandles == 0 && _unloadMode == HIPDNN_PLUGIN_UNLOAD_EAGER)
    {
        _loaded = false;
        _libraries.clear(); // libraries close when the last plan using them goes away
    }
}

} // namespace hipdnn_backend
