// One engine-plugin shared library: opened with dlopen(RTLD_NOW), every required entry point
// resolved, identity and API version checked. Construction from a path loads it now and throws
// PluginRejected with the reason; construction from a plugin manifest entry defers the dlopen to
// the first fn() (lazy plugin loading, "Plugin loading" in the README): name, versions and engines
// come from the entry until then, and the loaded library must report exactly those.
#pragma once

#include "PluginManifest.hpp"

#include <hipdnn_plugin_sdk/EnginePluginApi.h>

#include <atomic>
#include <cstdint>
#include <mutex>
#include <stdexcept>
#include <string>
#include <vector>

namespace hipdnn_backend
{

class PluginRejected : public std::runtime_error
{
public:
    using std::runtime_error::runtime_error;
};

struct EnginePluginFunctions
{
    decltype(&hipdnnPluginGetName) getName = nullptr;
    decltype(&hipdnnPluginGetVersion) getVersion = nullptr;
    decltype(&hipdnnPluginGetApiVersion) getApiVersion = nullptr; // optional: "1.0.0" when absent
    decltype(&hipdnnPluginGetType) getType = nullptr;
    decltype(&hipdnnPluginGetLastErrorString) getLastErrorString = nullptr;
    decltype(&hipdnnPluginSetLoggingCallback) setLoggingCallback = nullptr;
    decltype(&hipdnnPluginSetLogLevel) setLogLevel = nullptr; // optional
    decltype(&hipdnnEnginePluginGetAllEngineIds) getAllEngineIds = nullptr;
    decltype(&hipdnnEnginePluginCreate) create = nullptr;
    decltype(&hipdnnEnginePluginDestroy) destroy = nullptr;
    decltype(&hipdnnEnginePluginSetStream) setStream = nullptr;
    decltype(&hipdnnEnginePluginGetApplicableEngineIds) getApplicableEngineIds = nullptr;
    decltype(&hipdnnEnginePluginGetEngineDetails) getEngineDetails = nullptr;
    decltype(&hipdnnEnginePluginDestroyEngineDetails) destroyEngineDetails = nullptr;
    decltype(&hipdnnEnginePluginGetWorkspaceSize) getWorkspaceSize = nullptr;
    decltype(&hipdnnEnginePluginCreateExecutionContext) createExecutionContext = nullptr;
    decltype(&hipdnnEnginePluginDestroyExecutionContext) destroyExecutionContext = nullptr;
    decltype(&hipdnnEnginePluginGetWorkspaceSizeFromExecutionContext) getWorkspaceSizeFromContext
        = nullptr;
    decltype(&hipdnnEnginePluginExecuteOpGraph) executeOpGraph = nullptr;
    decltype(&hipdnnEnginePluginGetEngineName) getEngineName = nullptr; // optional
};

struct SemanticVersion
{
    unsigned major = 0;
    unsigned minor = 0;
    unsigned patch = 0;
};

/// Parses "MAJOR.MINOR.PATCH" (digits only); returns false for anything else.
bool parseSemanticVersion(const std::string& text, SemanticVersion& out);

class PluginLibrary
{
public:
    /// Loads `path` now; throws PluginRejected.
    explicit PluginLibrary(const std::string& path);
    /// Not loaded until fn() is first called.
    explicit PluginLibrary(const PluginManifestEntry& entry);
    ~PluginLibrary();
    PluginLibrary(const PluginLibrary&) = delete;
    PluginLibrary& operator=(const PluginLibrary&) = delete;

    const std::string& path() const { return _path; }
    const std::string& name() const { return _name; }
    const std::string& version() const { return _version; }
    const std::string& apiVersion() const { return _apiVersion; }
    const std::vector<int64_t>& engineIds() const { return _engineIds; }
    /// The engine's name: the plugin's (hipdnnEnginePluginGetEngineName), else the registered
    /// name, else "0x<hex id>".
    std::string engineName(int64_t id) const;
    /// The entry points; a deferred library is loaded here on first use (thread-safe). Throws
    /// HipdnnException(HIPDNN_STATUS_PLUGIN_ERROR) when it cannot be loaded or reports other
    /// engines than its manifest entry (the failure is kept: later calls throw it again).
    const EnginePluginFunctions& fn() const
    {
        if(_ready.load(std::memory_order_acquire))
        {
            return _fn;
        }
        return loadDeferred();
    }
    /// True once the shared library is open.
    bool loaded() const { return _ready.load(std::memory_order_acquire); }
    /// Warnings the load logged (duplicate ids in the plugin's list, engine names not hashing to
    /// their ids): such a plugin gets no manifest entry, so every process logs them as before.
    size_t loadWarnings() const { return _loadWarnings; }
    /// The manifest entry describing this (loaded) plugin, with the given file stamp.
    PluginManifestEntry manifestEntry(const std::string& canonicalPath, const PluginFileStamp& stamp) const;

    /// "<status>: <plugin's last error>" for a failed plugin call.
    std::string describeFailure(const char* entryPoint, hipdnnPluginStatus_t status) const;

    /// Removes engine ids (duplicates of an earlier plugin's).
    void dropEngine(int64_t id);

private:
    void* symbol(const char* name, bool required) const;
    /// dlopen, bind and validate; fills _fn and the out-parameters; throws PluginRejected.
    void open(std::string& name, std::string& version, std::string& apiVersion, std::vector<int64_t>& ids,
              std::vector<std::pair<int64_t, std::string>>& names) const;
    const EnginePluginFunctions& loadDeferred() const;

    std::string _path;
    mutable void* _dl = nullptr;
    mutable EnginePluginFunctions _fn;
    mutable std::atomic<bool> _ready{false};
    mutable std::mutex _loadMutex;
    mutable std::string _loadError; // a deferred load that failed
    mutable size_t _loadWarnings = 0;
    std::vector<std::pair<int64_t, std::string>> _manifestEngines; // deferred: what the entry lists
    std::string _name;
    std::string _version;
    std::string _apiVersion;
    std::vector<int64_t> _engineIds;
    std::vector<std::pair<int64_t, std::string>> _engineNames;
};

const char* pluginStatusName(hipdnnPluginStatus_t status);

} // namespace hipdnn_backend
