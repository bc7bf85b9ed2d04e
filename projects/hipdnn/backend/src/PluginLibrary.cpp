#include "PluginLibrary.hpp"

#include "BackendLogger.hpp"
#include "Handle.hpp"
#include "HipdnnException.hpp"

#include <hipdnn_data_sdk/utilities/StringUtil.hpp>

#include <hipdnn_plugin_sdk/engine_api_version.h>

#include <algorithm>
#include <cctype>

#include <dlfcn.h>

namespace hipdnn_backend
{

namespace
{
void pluginLogSink(hipdnnSeverity_t severity, const char* message)
{
    if(message != nullptr && severity >= HIPDNN_SEV_INFO && severity < HIPDNN_SEV_OFF)
    {
        BackendLogger::instance().log(severity, message);
    }
}
} // namespace

const char* pluginStatusName(hipdnnPluginStatus_t status)
{
    switch(status)
    {
    case HIPDNN_PLUGIN_STATUS_SUCCESS: return "HIPDNN_PLUGIN_STATUS_SUCCESS";
    case HIPDNN_PLUGIN_STATUS_BAD_PARAM: return "HIPDNN_PLUGIN_STATUS_BAD_PARAM";
    case HIPDNN_PLUGIN_STATUS_INVALID_VALUE: return "HIPDNN_PLUGIN_STATUS_INVALID_VALUE";
    case HIPDNN_PLUGIN_STATUS_INTERNAL_ERROR: return "HIPDNN_PLUGIN_STATUS_INTERNAL_ERROR";
    case HIPDNN_PLUGIN_STATUS_ALLOC_FAILED: return "HIPDNN_PLUGIN_STATUS_ALLOC_FAILED";
    case HIPDNN_PLUGIN_STATUS_NOT_APPLICABLE: return "HIPDNN_PLUGIN_STATUS_NOT_APPLICABLE";
    case HIPDNN_PLUGIN_STATUS_NOT_INITIALIZED: return "HIPDNN_PLUGIN_STATUS_NOT_INITIALIZED";
    }
    return "HIPDNN_PLUGIN_STATUS_<unknown>";
}

bool parseSemanticVersion(const std::string& text, SemanticVersion& out)
{
    unsigned parts[3] = {0, 0, 0};
    size_t part = 0;
    bool haveDigit = false;
    for(char c : text)
    {
        if(std::isdigit(static_cast<unsigned char>(c)) != 0)
        {
            if(parts[part] > 100000000u)
            {
                return false;
            }
            parts[part] = parts[part] * 10u + static_cast<unsigned>(c - '0');
            haveDigit = true;
        }
        else if(c == '.' && haveDigit && part < 2)
        {
            ++part;
            haveDigit = false;
        }
        else
        {
            return false;
        }
    }
    if(part != 2 || !haveDigit)
    {
        return false;
    }
    out = {parts[0], parts[1], parts[2]};
    return true;
}

void* PluginLibrary::symbol(const char* name, bool required) const
{
    dlerror();
    void* p = dlsym(_dl, name);
    if(p == nullptr && required)
    {
        throw PluginRejected(std::string("missing required symbol ") + name);
    }
    return p;
}

PluginLibrary::PluginLibrary(const std::string& path)
    : _path(path)
{
    open(_name, _version, _apiVersion, _engineIds, _engineNames);
    _ready.store(true, std::memory_order_release);
}

PluginLibrary::PluginLibrary(const PluginManifestEntry& entry)
    : _path(entry.path)
    , _name(entry.name)
    , _version(entry.version)
    , _apiVersion(entry.apiVersion)
{
    _manifestEngines = entry.engines;
    for(const auto& [id, engineName] : entry.engines)
    {
        _engineIds.push_back(id);
        if(!engineName.empty())
        {
            _engineNames.emplace_back(id, engineName);
        }
    }
}

const EnginePluginFunctions& PluginLibrary::loadDeferred() const
{
    std::lock_guard<std::mutex> lock(_loadMutex);
    if(_ready.load(std::memory_order_acquire))
    {
        return _fn;
    }
    throwIf(!_loadError.empty(), HIPDNN_STATUS_PLUGIN_ERROR, _loadError);
    std::string name, version, apiVersion;
    std::vector<int64_t> ids;
    std::vector<std::pair<int64_t, std::string>> names;
    try
    {
        open(name, version, apiVersion, ids, names);
    }
    catch(const std::exception& e)
    {
        _loadError = "plugin " + _path + " (listed by the plugin manifest) cannot be loaded: " + e.what();
        HIPDNN_LOG_WARN(_loadError);
        throw HipdnnException(HIPDNN_STATUS_PLUGIN_ERROR, _loadError);
    }
    // The engines handed out from the manifest must be exactly what the library reports.
    std::vector<std::pair<int64_t, std::string>> reported;
    for(int64_t id : ids)
    {
        std::string engineName;
        for(const auto& [namedId, text] : names)
        {
            if(namedId == id)
            {
                engineName = text;
            }
        }
        reported.emplace_back(id, engineName);
    }
    if(name != _name || version != _version || apiVersion != _apiVersion || reported != _manifestEngines
       || _loadWarnings != 0)
    {
        dlclose(_dl);
        _dl = nullptr;
        _fn = EnginePluginFunctions{};
        _loadError = "plugin " + _path + " reports " + name + " " + version + " with " + std::to_string(ids.size())
                     + " engine(s), not what its plugin manifest entry lists (" + _name + " " + _version + ", "
                     + std::to_string(_manifestEngines.size())
                     + " engine(s)); the file changed after it was stat'ed. Its engines are unusable in "
                       "this process";
        HIPDNN_LOG_WARN(_loadError);
        throw HipdnnException(HIPDNN_STATUS_PLUGIN_ERROR, _loadError);
    }
    HIPDNN_LOG_INFO("loaded plugin " << _name << " " << _version << " (API " << _apiVersion << ") from " << _path
                                     << " on first use (plugin manifest)");
    _ready.store(true, std::memory_order_release);
    return _fn;
}

PluginManifestEntry PluginLibrary::manifestEntry(const std::string& canonicalPath, const PluginFileStamp& stamp) const
{
    PluginManifestEntry entry;
    entry.path = canonicalPath;
    entry.stamp = stamp;
    entry.name = _name;
    entry.version = _version;
    entry.apiVersion = _apiVersion;
    for(int64_t id : _engineIds)
    {
        std::string engineName;
        for(const auto& [namedId, text] : _engineNames)
        {
            if(namedId == id)
            {
                engineName = text;
            }
        }
        entry.engines.emplace_back(id, engineName);
    }
    return entry;
}

void PluginLibrary::open(std::string& name,
                         std::string& version,
                         std::string& apiVersion,
                         std::vector<int64_t>& engineIds,
                         std::vector<std::pair<int64_t, std::string>>& engineNames) const
{
    _loadWarnings = 0;
    _dl = dlopen(_path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if(_dl == nullptr)
    {
        const char* err = dlerror();
        throw PluginRejected(std::string("dlopen failed: ") + (err ? err : "unknown error"));
    }
    try
    {
        auto bind = [this](auto& slot, const char* symbolName, bool required) {
            slot = reinterpret_cast<std::remove_reference_t<decltype(slot)>>(symbol(symbolName, required));
        };
        bind(_fn.getName, "hipdnnPluginGetName", true);
        bind(_fn.getVersion, "hipdnnPluginGetVersion", true);
        bind(_fn.getApiVersion, "hipdnnPluginGetApiVersion", false);
        bind(_fn.getType, "hipdnnPluginGetType", true);
        bind(_fn.getLastErrorString, "hipdnnPluginGetLastErrorString", true);
        bind(_fn.setLoggingCallback, "hipdnnPluginSetLoggingCallback", true);
        bind(_fn.setLogLevel, "hipdnnPluginSetLogLevel", false);
        bind(_fn.getAllEngineIds, "hipdnnEnginePluginGetAllEngineIds", true);
        bind(_fn.create, "hipdnnEnginePluginCreate", true);
        bind(_fn.destroy, "hipdnnEnginePluginDestroy", true);
        bind(_fn.setStream, "hipdnnEnginePluginSetStream", true);
        bind(_fn.getApplicableEngineIds, "hipdnnEnginePluginGetApplicableEngineIds", true);
        bind(_fn.getEngineDetails, "hipdnnEnginePluginGetEngineDetails", true);
        bind(_fn.destroyEngineDetails, "hipdnnEnginePluginDestroyEngineDetails", true);
        bind(_fn.getWorkspaceSize, "hipdnnEnginePluginGetWorkspaceSize", true);
        bind(_fn.createExecutionContext, "hipdnnEnginePluginCreateExecutionContext", true);
        bind(_fn.destroyExecutionContext, "hipdnnEnginePluginDestroyExecutionContext", true);
        bind(_fn.getWorkspaceSizeFromContext,
             "hipdnnEnginePluginGetWorkspaceSizeFromExecutionContext", true);
        bind(_fn.executeOpGraph, "hipdnnEnginePluginExecuteOpGraph", true);
        bind(_fn.getEngineName, "hipdnnEnginePluginGetEngineName", false);

        const char* text = nullptr;
        hipdnnPluginStatus_t st = _fn.getName(&text);
        if(st != HIPDNN_PLUGIN_STATUS_SUCCESS || text == nullptr || *text == '\0')
        {
            throw PluginRejected("hipdnnPluginGetName failed or returned an empty name");
        }
        name = text;
        text = nullptr;
        st = _fn.getVersion(&text);
        if(st != HIPDNN_PLUGIN_STATUS_SUCCESS || text == nullptr)
        {
            throw PluginRejected("hipdnnPluginGetVersion failed");
        }
        version = text;
        apiVersion = "1.0.0";
        if(_fn.getApiVersion != nullptr)
        {
            text = nullptr;
            st = _fn.getApiVersion(&text);
            if(st != HIPDNN_PLUGIN_STATUS_SUCCESS || text == nullptr)
            {
                throw PluginRejected("hipdnnPluginGetApiVersion failed");
            }
            apiVersion = text;
        }
        SemanticVersion api;
        if(!parseSemanticVersion(apiVersion, api))
        {
            throw PluginRejected("malformed plugin API version '" + apiVersion
                                 + "' (expected MAJOR.MINOR.PATCH)");
        }
        if(api.major != HIPDNN_ENGINE_API_VERSION_MAJOR)
        {
            throw PluginRejected("plugin API version " + apiVersion + " has major "
                                 + std::to_string(api.major) + ", this backend implements major "
                                 + std::to_string(HIPDNN_ENGINE_API_VERSION_MAJOR));
        }
        hipdnnPluginType_t type = HIPDNN_PLUGIN_TYPE_UNSPECIFIED;
        st = _fn.getType(&type);
        if(st != HIPDNN_PLUGIN_STATUS_SUCCESS || type != HIPDNN_PLUGIN_TYPE_ENGINE)
        {
            throw PluginRejected("not an engine plugin (hipdnnPluginGetType reported "
                                 + std::to_string(static_cast<int>(type)) + ")");
        }
        if(_fn.setLoggingCallback(&pluginLogSink) != HIPDNN_PLUGIN_STATUS_SUCCESS)
        {
            throw PluginRejected("hipdnnPluginSetLoggingCallback failed");
        }
        if(_fn.setLogLevel != nullptr)
        {
            _fn.setLogLevel(BackendLogger::instance().level());
        }
        uint32_t count = 0;
        st = _fn.getAllEngineIds(nullptr, 0, &count);
        if(st != HIPDNN_PLUGIN_STATUS_SUCCESS)
        {
            throw PluginRejected(describeFailure("hipdnnEnginePluginGetAllEngineIds", st));
        }
        std::vector<int64_t> listed(count);
        uint32_t written = 0;
        if(count > 0)
        {
            st = _fn.getAllEngineIds(listed.data(), count, &written);
            if(st != HIPDNN_PLUGIN_STATUS_SUCCESS || written != count)
            {
                throw PluginRejected("hipdnnEnginePluginGetAllEngineIds gave inconsistent counts");
            }
        }
        std::vector<int64_t> unique;
        for(int64_t id : listed)
        {
            if(std::find(unique.begin(), unique.end(), id) != unique.end())
            {
                HIPDNN_LOG_WARN("plugin " << _path << " lists engine id " << id
                                          << " twice; keeping the first");
                ++_loadWarnings;
                continue;
            }
            unique.push_back(id);
        }
        engineIds.clear();
        engineNames.clear();
        for(int64_t id : unique)
        {
            if(_fn.getEngineName == nullptr)
            {
                engineIds.push_back(id);
                continue;
            }
            const char* engineName = nullptr;
            const hipdnnPluginStatus_t nameStatus = _fn.getEngineName(id, &engineName);
            if(nameStatus == HIPDNN_PLUGIN_STATUS_SUCCESS && engineName != nullptr)
            {
                if(hipdnn_data_sdk::utilities::engineNameToId(engineName) != id)
                {
                    HIPDNN_LOG_WARN("plugin " << _path << ": engine name '" << engineName
                                              << "' does not hash to its id " << id << "; engine dropped");
                    ++_loadWarnings;
                    continue;
                }
                engineNames.emplace_back(id, engineName);
            }
            engineIds.push_back(id);
        }
    }
    catch(...)
    {
        dlclose(_dl);
        _dl = nullptr;
        _fn = EnginePluginFunctions{};
        throw;
    }
}

PluginLibrary::~PluginLibrary()
{
    if(_dl != nullptr)
    {
        dlclose(_dl);
    }
}

std::string PluginLibrary::describeFailure(const char* entryPoint, hipdnnPluginStatus_t status) const
{
    const char* message = nullptr;
    _fn.getLastErrorString(&message);
    return "plugin '" + _name + "' " + entryPoint + " returned " + pluginStatusName(status)
           + (message != nullptr && *message != '\0' ? std::string(": ") + message : std::string());
}

std::string PluginLibrary::engineName(int64_t id) const
{
    for(const auto& [engineId, name] : _engineNames)
    {
        if(engineId == id)
        {
            return name;
        }
    }
    return engineDisplayName(id);
}

void PluginLibrary::dropEngine(int64_t id)
{
    _engineIds.erase(std::remove(_engineIds.begin(), _engineIds.end(), id), _engineIds.end());
}

} // namespace hipdnn_backend
