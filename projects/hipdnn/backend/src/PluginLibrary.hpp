// One engine-plugin shared library: opened with dlopen(RTLD_NOW), every required entry point
// resolved, identity and API version checked. Construction throws PluginRejected with the reason.
#pragma once

#include <hipdnn_plugin_sdk/EnginePluginApi.h>

#include <cstdint>
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
    explicit PluginLibrary(const std::string& path);
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
    const EnginePluginFunctions& fn() const { return _fn; }

    /// "<status>: <plugin's last error>" for a failed plugin call.
    std::string describeFailure(const char* entryPoint, hipdnnPluginStatus_t status) const;

    /// Removes engine ids (duplicates of an earlier plugin's).
    void dropEngine(int64_t id);

private:
    void* symbol(const char* name, bool required);

    std::string _path;
    void* _dl = nullptr;
    EnginePluginFunctions _fn;
    std::string _name;
    std::string _version;
    std::string _apiVersion;
    std::vector<int64_t> _engineIds;
    std::vector<std::pair<int64_t, std::string>> _engineNames;
};

const char* pluginStatusName(hipdnnPluginStatus_t status);

} // namespace hipdnn_backend
