// The MIOpen engine plugin: engines MIOPEN_ENGINE and MIOPEN_ENGINE_DETERMINISTIC (upstream's
// names and ids) over libMIOpen_private.so. See README.md.
#pragma once

#include <hipdnn_plugin_sdk/EnginePlugin.hpp>

namespace miopen_provider
{

class MiopenEnginePlugin : public hipdnn_plugin_sdk::EnginePluginDescription
{
public:
    static const MiopenEnginePlugin& instance();
    const char* name() const override { return "miopen_provider_plugin"; }
    const char* version() const override { return "1.0.0"; }
    std::vector<std::unique_ptr<hipdnn_plugin_sdk::IEngine>> createEngines() const override;
};

/// The plan builder of both engines (every graph kind goes through buildMiopenPlan).
class MiopenPlanBuilder : public hipdnn_plugin_sdk::IPlanBuilder
{
public:
    explicit MiopenPlanBuilder(bool deterministic)
        : _deterministic(deterministic)
    {
    }
    bool isApplicable(const hipdnn_plugin_sdk::GraphView& graph, std::string& whyNot) const override;
    size_t getWorkspaceSize(const hipdnn_plugin_sdk::GraphView& graph,
                            const hipdnn_data_sdk::data_objects::EngineConfig& config) const override;
    std::unique_ptr<hipdnn_plugin_sdk::IPlan>
        buildPlan(const hipdnn_plugin_sdk::GraphView& graph,
                  const hipdnn_data_sdk::data_objects::EngineConfig& config) const override;

private:
    bool _deterministic;
};

} // namespace miopen_provider
