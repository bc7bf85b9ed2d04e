#include "Handle.hpp"

#include "BackendLogger.hpp"
#include "HipdnnException.hpp"
#include "PluginManager.hpp"

#include <hipdnn_data_sdk/utilities/EngineNames.hpp>

#include <cstdio>
#include <mutex>
#include <unordered_map>

namespace hipdnn_backend
{

std::string engineDisplayName(int64_t id)
{
    const auto name = hipdnn_data_sdk::utilities::engineIdToName(id);
    if(!name.empty())
    {
        return std::string(name);
    }
    char buffer[32];
    std::snprintf(buffer, sizeof(buffer), "0x%016llx",
                  static_cast<unsigned long long>(static_cast<uint64_t>(id)));
    return buffer;
}

PluginInstance::PluginInstance(std::shared_ptr<PluginLibrary> library, hipdnnEnginePluginHandle_t handle)
    : _library(std::move(library))
    , _handle(handle)
    , _created(true)
{
}

PluginInstance::PluginInstance(std::shared_ptr<PluginLibrary> library)
    : _library(std::move(library))
{
}

PluginInstance::~PluginInstance()
{
    if(!_created.load(std::memory_order_acquire))
    {
        return;
    }
    const hipdnnPluginStatus_t st = _library->fn().destroy(_handle);
    if(st != HIPDNN_PLUGIN_STATUS_SUCCESS)
    {
        HIPDNN_LOG_WARN(_library->describeFailure("hipdnnEnginePluginDestroy", st));
    }
}

hipdnnEnginePluginHandle_t PluginInstance::createDeferred() const
{
    std::lock_guard<std::mutex> lock(_mutex);
    if(_created.load(std::memory_order_acquire))
    {
        return _handle;
    }
    throwIf(!_error.empty(), HIPDNN_STATUS_PLUGIN_ERROR, _error);
    const EnginePluginFunctions* fn = nullptr;
    try
    {
        fn = &_library->fn();
    }
    catch(const HipdnnException& e)
    {
        _error = e.what();
        throw;
    }
    hipdnnEnginePluginHandle_t pluginHandle = nullptr;
    hipdnnPluginStatus_t st = fn->create(&pluginHandle);
    if(st != HIPDNN_PLUGIN_STATUS_SUCCESS || pluginHandle == nullptr)
    {
        _error = "plugin " + _library->path() + " cannot be used by this handle: "
                 + _library->describeFailure("hipdnnEnginePluginCreate", st);
        HIPDNN_LOG_WARN(_error);
        throw HipdnnException(HIPDNN_STATUS_PLUGIN_ERROR, _error);
    }
    if(_stream != nullptr)
    {
        st = fn->setStream(pluginHandle, _stream);
        if(st != HIPDNN_PLUGIN_STATUS_SUCCESS)
        {
            _error = _library->describeFailure("hipdnnEnginePluginSetStream", st);
            fn->destroy(pluginHandle);
            throw HipdnnException(HIPDNN_STATUS_PLUGIN_ERROR, _error);
        }
    }
    _handle = pluginHandle;
    _created.store(true, std::memory_order_release);
    return _handle;
}

void PluginInstance::setStream(hipStream_t stream)
{
    std::lock_guard<std::mutex> lock(_mutex);
    if(_created.load(std::memory_order_acquire))
    {
        const hipdnnPluginStatus_t st = _library->fn().setStream(_handle, stream);
        throwIf(st != HIPDNN_PLUGIN_STATUS_SUCCESS, HIPDNN_STATUS_PLUGIN_ERROR,
                _library->describeFailure("hipdnnEnginePluginSetStream", st));
    }
    _stream = stream;
}

HandleState::HandleState()
{
    for(const auto& lib : PluginManager::instance().acquire())
    {
        if(!lib->loaded())
        {
            auto instance = std::make_shared<PluginInstance>(lib);
            _plugins.push_back(instance);
            for(int64_t id : lib->engineIds())
            {
                _engines.push_back({id, lib->engineName(id), instance});
            }
            continue;
        }
        hipdnnEnginePluginHandle_t pluginHandle = nullptr;
        const hipdnnPluginStatus_t st = lib->fn().create(&pluginHandle);
        if(st != HIPDNN_PLUGIN_STATUS_SUCCESS || pluginHandle == nullptr)
        {
            HIPDNN_LOG_WARN("plugin " << lib->path() << " skipped for this handle: "
                                      << lib->describeFailure("hipdnnEnginePluginCreate", st));
            continue;
        }
        auto instance = std::make_shared<PluginInstance>(lib, pluginHandle);
        _plugins.push_back(instance);
        for(int64_t id : lib->engineIds())
        {
            _engines.push_back({id, lib->engineName(id), instance});
        }
    }
    HIPDNN_LOG_INFO("handle created with " << _plugins.size() << " plugin(s) and "
                                           << _engines.size() << " engine(s)");
}

HandleState::~HandleState()
{
    _engines.clear();
    _plugins.clear();
}

int64_t HandleState::engineIndex(int64_t engineId) const
{
    for(size_t i = 0; i < _engines.size(); ++i)
    {
        if(_engines[i].id == engineId)
        {
            return static_cast<int64_t>(i);
        }
    }
    return -1;
}

void HandleState::setStream(hipStream_t stream)
{
    for(const auto& plugin : _plugins)
    {
        plugin->setStream(stream);
    }
    _stream = stream;
}

namespace
{
std::mutex& registryMutex()
{
    static std::mutex m;
    return m;
}
std::unordered_map<hipdnnHandle_t, std::unique_ptr<hipdnnHandle>>& registry()
{
    static std::unordered_map<hipdnnHandle_t, std::unique_ptr<hipdnnHandle>> r;
    return r;
}
} // namespace

hipdnnHandle_t HandleRegistry::create()
{
    auto handle = std::make_unique<hipdnnHandle>();
    try
    {
        handle->state = std::make_shared<HandleState>();
    }
    catch(...)
    {
        PluginManager::instance().release(); // the state counted itself before failing
        throw;
    }
    hipdnnHandle_t raw = handle.get();
    std::lock_guard<std::mutex> lock(registryMutex());
    registry().emplace(raw, std::move(handle));
    return raw;
}

void HandleRegistry::destroy(hipdnnHandle_t handle)
{
    std::unique_ptr<hipdnnHandle> owned;
    {
        std::lock_guard<std::mutex> lock(registryMutex());
        auto it = registry().find(handle);
        throwIf(it == registry().end(), HIPDNN_STATUS_BAD_PARAM, "handle is not a live hipDNN handle");
        owned = std::move(it->second);
        registry().erase(it);
    }
    owned.reset();
    PluginManager::instance().release();
}

std::shared_ptr<HandleState> HandleRegistry::get(hipdnnHandle_t handle)
{
    throwIf(handle == nullptr, HIPDNN_STATUS_BAD_PARAM, "handle is null");
    std::lock_guard<std::mutex> lock(registryMutex());
    auto it = registry().find(handle);
    throwIf(it == registry().end(), HIPDNN_STATUS_BAD_PARAM, "handle is not a live hipDNN handle");
    return it->second->state;
}

size_t HandleRegistry::liveCount()
{
    std::lock_guard<std::mutex> lock(registryMutex());
    return registry().size();
}

} // namespace hipdnn_backend
