// A hipDNN handle: one plugin handle per plugin and the table of engines. The state is
// shared with every graph and plan built on the handle, so destroying the handle while plans are
// alive is safe (plugin handles go away with the last plan). A plugin the manifest describes is
// not loaded yet: its plugin handle is created (and the library loaded) at the first handle()
// call, i.e. when the heuristics, a plan build or a measurement first needs the plugin.
#pragma once

#include "PluginLibrary.hpp"

#include "hipdnn_backend.h"

#include <atomic>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace hipdnn_backend
{

class PluginInstance
{
public:
    /// A plugin handle created already.
    PluginInstance(std::shared_ptr<PluginLibrary> library, hipdnnEnginePluginHandle_t handle);
    /// Created (library loaded first) at the first handle() call.
    explicit PluginInstance(std::shared_ptr<PluginLibrary> library);
    ~PluginInstance();
    PluginInstance(const PluginInstance&) = delete;
    PluginInstance& operator=(const PluginInstance&) = delete;

    /// Never loads: name, version, path and engines are known without the library.
    const PluginLibrary& library() const { return *_library; }
    /// The plugin handle, created on first use (thread-safe). Throws HipdnnException
    /// (HIPDNN_STATUS_PLUGIN_ERROR) when the library cannot be loaded or the plugin refuses to
    /// create a handle or take the stream (the failure is kept).
    hipdnnEnginePluginHandle_t handle() const
    {
        if(_created.load(std::memory_order_acquire))
        {
            return _handle;
        }
        return createDeferred();
    }
    /// Passes the stream to the plugin now when its handle exists, else at its creation.
    void setStream(hipStream_t stream);

private:
    hipdnnEnginePluginHandle_t createDeferred() const;

    std::shared_ptr<PluginLibrary> _library;
    mutable hipdnnEnginePluginHandle_t _handle = nullptr;
    mutable std::atomic<bool> _created{false};
    mutable std::mutex _mutex;
    mutable std::string _error;
    hipStream_t _stream = nullptr;
};

struct EngineEntry
{
    int64_t id = 0;
    std::string name;
    std::shared_ptr<PluginInstance> plugin;
};

class HandleState
{
public:
    /// Loads plugins (PluginManager) and creates the plugin handle of every loaded one (plugins
    /// the manifest describes get theirs at first use).
    HandleState();
    ~HandleState();

    const std::vector<EngineEntry>& engines() const { return _engines; }
    const std::vector<std::shared_ptr<PluginInstance>>& plugins() const { return _plugins; }
    /// Index into engines(), or -1.
    int64_t engineIndex(int64_t engineId) const;

    void setStream(hipStream_t stream);
    hipStream_t stream() const { return _stream; }

private:
    std::vector<std::shared_ptr<PluginInstance>> _plugins;
    std::vector<EngineEntry> _engines;
    hipStream_t _stream = nullptr;
};

/// Name of an engine id: the registered name, else "0x<hex id>".
std::string engineDisplayName(int64_t id);

} // namespace hipdnn_backend

/// The object behind hipdnnHandle_t.
struct hipdnnHandle
{
    std::shared_ptr<hipdnn_backend::HandleState> state;
};

namespace hipdnn_backend
{

/// Live-handle registry: every C entry point validates a handle here before using it.
class HandleRegistry
{
public:
    static hipdnnHandle_t create();
    static void destroy(hipdnnHandle_t handle); // throws BAD_PARAM if not live
    /// Throws BAD_PARAM if `handle` is not a live handle.
    static std::shared_ptr<HandleState> get(hipdnnHandle_t handle);
    static size_t liveCount();
};

} // namespace hipdnn_backend
