#include "PluginManager.hpp"

#include "BackendLogger.hpp"
#include "HipdnnException.hpp"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <set>

#include <dlfcn.h>
#include <sys/auxv.h>

namespace fs = std::filesystem;

namespace hipdnn_backend
{

namespace
{
constexpr const char* kEngineSubdir = "hipdnn_plugins/engines";

bool secureExecution()
{
    return getauxval(AT_SECURE) != 0;
}

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
        fs::path defaultDir = fs::path(backendDirectory()) / kEngineSubdir;
        const char* env = secureExecution() ? nullptr : std::getenv("HIPDNN_PLUGIN_DIR");
        if(secureExecution() && std::getenv("HIPDNN_PLUGIN_DIR") != nullptr)
        {
            HIPDNN_LOG_WARN("HIPDNN_PLUGIN_DIR ignored under secure execution");
        }
        if(env != nullptr && *env != '\0')
        {
            if(fs::path(env).is_absolute())
            {
                defaultDir = env;
            }
            else
            {
                HIPDNN_LOG_WARN("HIPDNN_PLUGIN_DIR='" << env
                                                     << "' ignored: it must be an absolute path");
            }
        }
        addDirectory(defaultDir, files);
    }
    for(const auto& spec : _extPaths)
    {
        addPath(spec, files);
    }
    return files;
}

void PluginManager::loadLocked(const std::vector<std::string>& files)
{
    _libraries.clear();
    _loadedFiles = files;
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
        std::shared_ptr<PluginLibrary> lib;
        try
        {
            lib = std::make_shared<PluginLibrary>(file);
        }
        catch(const std::exception& e)
        {
            HIPDNN_LOG_WARN("rejected plugin " << file << ": " << e.what());
            continue;
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
        HIPDNN_LOG_INFO("loaded plugin " << lib->name() << " " << lib->version() << " (API "
                                         << lib->apiVersion() << ") from " << file << " with "
                                         << lib->engineIds().size() << " engine(s)");
        _libraries.push_back(std::move(lib));
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
