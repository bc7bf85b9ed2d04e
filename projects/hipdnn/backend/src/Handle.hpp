// A hipDNN handle: one plugin handle per loaded plugin and the table of engines. The state is
// shared with every graph and plan built on the handle, so destroying the handle while plans are
// alive is safe (plugin handles go away with the last plan).
#pragma once

#include "PluginLibrary.hpp"

#include "hipdnn_backend.h"

#include <memory>
#include <string>
#include <vector>

namespace hipdnn_backend
{

class PluginInstance
{
public:
    PluginInstance(std::shared_ptr<PluginLibrary> library, hipdnnEnginePluginHandle_t handle);
    ~PluginInstance();
    PluginInstance(const PluginInstance&) = delete;
    PluginInstance& operator=(const PluginInstance&) = delete;

    const PluginLibrary& library() const { return *_library; }
    hipdnnEnginePluginHandle_t handle() const { return _handle; }

private:
    std::shared_ptr<PluginLibrary> _library;
    hipdnnEnginePluginHandle_t _handle;
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
    /// Loads plugins (PluginManager) and creates every plugin handle.
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
