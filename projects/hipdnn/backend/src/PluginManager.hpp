// Finds, loads and validates engine plugins (see "Plugin loading" in hipdnn_backend.h and the
// README). Loaded libraries are shared by every handle; with the LAZY unload mode they stay
// loaded until the plugin paths change, with EAGER they are released when the last handle is
// destroyed. A plugin file the plugin manifest describes (same path and stat) is not opened at
// hipdnnCreate: its engines are listed from the manifest and the library is opened when one of
// them is first needed (PluginLibrary::fn). Files without a valid entry are loaded as before and,
// when they load cleanly, get one.
#pragma once

#include "PluginLibrary.hpp"

#include "hipdnn_backend.h"

#include <memory>
#include <mutex>
#include <optional>
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

    /// The manifest file in effect: the override, else HIPDNN_PLUGIN_LOADING=eager: none, else
    /// next to the engine ranking file (none when rankings stay in memory).
    std::string manifestPath() const;
    /// Tests: use this manifest file ("" = none: eager loading); nullopt restores the default.
    /// Takes effect at the next (re)load of the plugins.
    void setManifestPath(std::optional<std::string> path);
    /// Forgets the loaded libraries so that the next acquire() loads again (tests; throws
    /// NOT_SUPPORTED while a handle is alive).
    void reset();

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
    std::optional<std::string> _manifestOverride;
    size_t _liveHandles = 0;
};

} // namespace hipdnn_backend
