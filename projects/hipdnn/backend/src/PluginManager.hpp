// Finds, loads and validates engine plugins (see "Plugin loading" in hipdnn_backend.h). Loaded
// libraries are shared by every handle; with the LAZY unload mode they stay loaded until the
// plugin paths change, with EAGER they are released when the last handle is destroyed.
#pragma once

#include "PluginLibrary.hpp"

#include "hipdnn_backend.h"

#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace hipdnn_backend
{

class PluginManager
{
public:
    static PluginManager& instance();

    /// Throws NOT_SUPPORTED while a handle is alive.
    void setEnginePluginPaths(std::vector<std::string> paths, hipdnnPluginLoadingMode_ext_t mode);
    void setUnloadMode(hipdnnPluginUnloadingMode_ext_t mode);

    /// The validated libraries in load order, loading them on first use. Counts a live handle.
    std::vector<std::shared_ptr<PluginLibrary>> acquire();
    /// A handle went away.
    void release();

    /// Every plugin file that would be tried, in order (for diagnostics and tests).
    std::vector<std::string> candidateFiles() const;

    /// Directory of libhipdnn_backend.so (found with dladdr).
    static std::string backendDirectory();

private:
    PluginManager() = default;
    std::vector<std::string> candidateFilesLocked() const;
    void loadLocked(const std::vector<std::string>& files);

    mutable std::mutex _mutex;
    std::vector<std::string> _extPaths;
    hipdnnPluginLoadingMode_ext_t _mode = HIPDNN_PLUGIN_LOADING_ADDITIVE;
    hipdnnPluginUnloadingMode_ext_t _unloadMode = HIPDNN_PLUGIN_UNLOAD_LAZY;
    bool _loaded = false;
    std::vector<std::shared_ptr<PluginLibrary>> _libraries;
    std::vector<std::string> _loadedFiles; // candidate list the libraries were loaded from
    size_t _liveHandles = 0;
};

} // namespace hipdnn_backend
