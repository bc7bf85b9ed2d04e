#include "EngineRegistry.hpp"

#include <hipdnn_data_sdk/flatbuffer_utilities/DataObjects.hpp>
#include <hipdnn_plugin_sdk/EnginePluginApi.h>
#include <hipdnn_plugin_sdk/PluginApi.h>

#include <dlfcn.h>

#include <algorithm>

namespace integration_tests
{

namespace
{
std::string lastBackendError()
{
    char text[HIPDNN_ERROR_STRING_MAX_LENGTH] = {};
    hipdnnGetLastErrorString(text, sizeof(text));
    return text;
}

/// The C entry points of one plugin file that the backend already loaded (RTLD_NOLOAD: this
/// never loads a second copy, and it shares the plugin's state with the backend).
class PluginEntryPoints
{
public:
    explicit PluginEntryPoints(const std::string& path)
        : _library(dlopen(path.c_str(), RTLD_NOW | RTLD_NOLOAD))
    {
        if(_library == nullptr)
        {
            const char* why = dlerror();
            _error = "dlopen(" + path + ", RTLD_NOLOAD) failed: " + (why != nullptr ? why : "unknown error");
            return;
        }
        bind(_lastError, "hipdnnPluginGetLastErrorString");
        bind(_allEngineIds, "hipdnnEnginePluginGetAllEngineIds");
        bind(_create, "hipdnnEnginePluginCreate");
        bind(_destroy, "hipdnnEnginePluginDestroy");
        bind(_createContext, "hipdnnEnginePluginCreateExecutionContext");
        bind(_destroyContext, "hipdnnEnginePluginDestroyExecutionContext");
    }
    ~PluginEntryPoints()
    {
        if(_library != nullptr)
        {
            dlclose(_library);
        }
    }
    PluginEntryPoints(const PluginEntryPoints&) = delete;
    PluginEntryPoints& operator=(const PluginEntryPoints&) = delete;

    const std::string& error() const { return _error; }

    bool provides(int64_t engineId) const
    {
        uint32_t count = 0;
        if(_allEngineIds(nullptr, 0, &count) != HIPDNN_PLUGIN_STATUS_SUCCESS)
        {
            return false;
        }
        std::vector<int64_t> ids(count);
        uint32_t written = 0;
        if(count == 0 || _allEngineIds(ids.data(), count, &written) != HIPDNN_PLUGIN_STATUS_SUCCESS)
        {
            return false;
        }
        ids.resize(std::min(count, written));
        return std::find(ids.begin(), ids.end(), engineId) != ids.end();
    }

    /// Asks the plugin for an execution context of `engineId` on the graph: its failure message,
    /// or an empty string when the plugin does build one.
    std::string contextFailure(int64_t engineId, const std::vector<uint8_t>& graph) const
    {
        hipdnnEnginePluginHandle_t handle = nullptr;
        if(_create(&handle) != HIPDNN_PLUGIN_STATUS_SUCCESS || handle == nullptr)
        {
            return "hipdnnEnginePluginCreate failed: " + lastError();
        }
        flatbuffers::FlatBufferBuilder fbb;
        std::vector<flatbuffers::Offset<hipdnn_data_sdk::data_objects::KnobSetting>> knobs;
        fbb.Finish(hipdnn_data_sdk::data_objects::CreateEngineConfigDirect(fbb, engineId, &knobs));
        const hipdnnPluginConstData_t config{fbb.GetBufferPointer(), fbb.GetSize()};
        const hipdnnPluginConstData_t graphData{graph.data(), graph.size()};
        hipdnnEnginePluginExecutionContext_t context = nullptr;
        std::string failure;
        const hipdnnPluginStatus_t st = _createContext(handle, &config, &graphData, &context);
        if(st != HIPDNN_PLUGIN_STATUS_SUCCESS || context == nullptr)
        {
            failure = lastError();
            if(failure.empty())
            {
                failure = "hipdnnEnginePluginCreateExecutionContext returned status " + std::to_string(st)
                          + " without a message";
            }
        }
        else
        {
            (void)_destroyContext(handle, context);
        }
        (void)_destroy(handle);
        return failure;
    }

private:
    template <typename Fn>
    void bind(Fn& fn, const char* name)
    {
        fn = reinterpret_cast<Fn>(dlsym(_library, name));
        if(fn == nullptr && _error.empty())
        {
            _error = std::string("the plugin lacks ") + name;
        }
    }
    std::string lastError() const
    {
        const char* text = nullptr;
        _lastError(&text);
        return text != nullptr ? text : "";
    }

    void* _library = nullptr;
    std::string _error;
    decltype(&hipdnnPluginGetLastErrorString) _lastError = nullptr;
    decltype(&hipdnnEnginePluginGetAllEngineIds) _allEngineIds = nullptr;
    decltype(&hipdnnEnginePluginCreate) _create = nullptr;
    decltype(&hipdnnEnginePluginDestroy) _destroy = nullptr;
    decltype(&hipdnnEnginePluginCreateExecutionContext) _createContext = nullptr;
    decltype(&hipdnnEnginePluginDestroyExecutionContext) _destroyContext = nullptr;
};
} // namespace

EngineRegistry& EngineRegistry::instance()
{
    static EngineRegistry registry;
    return registry;
}

EngineRegistry::EngineRegistry()
{
    // Default plugin loading: <directory of libhipdnn_backend.so>/hipdnn_plugins/engines (in the
    // build tree, <build>/lib/hipdnn_plugins/engines), or HIPDNN_PLUGIN_DIR when set.
    if(hipdnnCreate(&_handle) != HIPDNN_STATUS_SUCCESS)
    {
        _error = "hipdnnCreate failed: " + lastBackendError();
        _handle = nullptr;
        return;
    }
    size_t numPaths = 0, maxLen = 0;
    if(hipdnnGetLoadedEnginePluginPaths_ext(_handle, &numPaths, nullptr, &maxLen) == HIPDNN_STATUS_SUCCESS)
    {
        std::vector<std::vector<char>> storage(numPaths, std::vector<char>(maxLen, '\0'));
        std::vector<char*> pointers;
        for(auto& s : storage)
        {
            pointers.push_back(s.data());
        }
        if(numPaths > 0
           && hipdnnGetLoadedEnginePluginPaths_ext(_handle, &numPaths, pointers.data(), &maxLen) == HIPDNN_STATUS_SUCCESS)
        {
            for(size_t i = 0; i < numPaths; ++i)
            {
                _pluginPaths.emplace_back(storage[i].data());
            }
        }
    }
    size_t count = 0;
    if(hipdnnGetEngineCount_ext(_handle, &count) != HIPDNN_STATUS_SUCCESS)
    {
        _error = "hipdnnGetEngineCount_ext failed: " + lastBackendError();
        return;
    }
    for(size_t i = 0; i < count; ++i)
    {
        size_t lens[4] = {0, 0, 0, 0};
        InstalledEngine e;
        if(hipdnnGetEngineInfo_ext(_handle, i, &e.id, nullptr, &lens[0], nullptr, &lens[1], nullptr, &lens[2], nullptr,
                                   &lens[3])
           != HIPDNN_STATUS_SUCCESS)
        {
            _error = "hipdnnGetEngineInfo_ext failed: " + lastBackendError();
            return;
        }
        std::vector<char> name(lens[0]), plugin(lens[1]), version(lens[2]), type(lens[3]);
        if(hipdnnGetEngineInfo_ext(_handle, i, &e.id, name.data(), &lens[0], plugin.data(), &lens[1], version.data(),
                                   &lens[2], type.data(), &lens[3])
           != HIPDNN_STATUS_SUCCESS)
        {
            _error = "hipdnnGetEngineInfo_ext failed: " + lastBackendError();
            return;
        }
        e.name = name.data();
        e.pluginName = plugin.data();
        for(const std::string& path : _pluginPaths)
        {
            const PluginEntryPoints entry(path);
            if(entry.error().empty() && entry.provides(e.id))
            {
                e.pluginPath = path;
                break;
            }
        }
        _engines.push_back(std::move(e));
    }
}

EngineRegistry::~EngineRegistry()
{
    if(_handle != nullptr)
    {
        (void)hipdnnDestroy(_handle);
    }
}

const InstalledEngine* EngineRegistry::find(const std::string& name) const
{
    for(const auto& e : _engines)
    {
        if(e.name == name)
        {
            return &e;
        }
    }
    return nullptr;
}

std::string EngineRegistry::declineReason(const InstalledEngine& engine, const std::vector<uint8_t>& graph) const
{
    if(engine.pluginPath.empty())
    {
        return "no loaded plugin file lists engine " + engine.name + " (cannot ask it why)";
    }
    const PluginEntryPoints entry(engine.pluginPath);
    if(!entry.error().empty())
    {
        return entry.error();
    }
    std::string failure = entry.contextFailure(engine.id, graph);
    if(failure.empty())
    {
        return "the plugin builds an execution context for the graph, yet the backend did not plan it on "
               + engine.name;
    }
    return failure;
}

} // namespace integration_tests
