// The engines the hipDNN backend loads from its default plugin directory (one process-wide handle),
// and, for a graph an engine did not plan, the engine's own reason, asked through the plugin C ABI
// every engine plugin implements (no engine is special-cased here).
#pragma once

#include <hipdnn_backend.h>

#include <cstdint>
#include <string>
#include <vector>

namespace integration_tests
{

struct InstalledEngine
{
    std::string name;
    int64_t id = 0;
    std::string pluginName; ///< the plugin's own name (hipdnnPluginGetName)
    std::string pluginPath; ///< the file the backend loaded it from
};

class EngineRegistry
{
public:
    /// The process-wide registry (creates the handle, and so loads the plugins, on first use).
    static EngineRegistry& instance();

    /// Empty when the handle was created; otherwise why not.
    const std::string& error() const { return _error; }
    hipdnnHandle_t handle() const { return _handle; }
    /// Engines in name order.
    const std::vector<InstalledEngine>& engines() const { return _engines; }
    /// The plugin files the backend loaded, in load order.
    const std::vector<std::string>& pluginPaths() const { return _pluginPaths; }
    const InstalledEngine* find(const std::string& name) const;

    /// Why `engine` does not plan the serialized graph: the message of the engine's plugin when
    /// asked to create an execution context for it (NOT_APPLICABLE with the engine's reason, or
    /// the plan-build failure). Never empty.
    std::string declineReason(const InstalledEngine& engine, const std::vector<uint8_t>& graph) const;

    EngineRegistry(const EngineRegistry&) = delete;
    EngineRegistry& operator=(const EngineRegistry&) = delete;

private:
    EngineRegistry();
    ~EngineRegistry();

    hipdnnHandle_t _handle = nullptr;
    std::string _error;
    std::vector<InstalledEngine> _engines;
    std::vector<std::string> _pluginPaths;
};

} // namespace integration_tests
