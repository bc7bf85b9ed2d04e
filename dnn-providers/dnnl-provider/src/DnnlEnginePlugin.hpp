// The oneDNN engine plugin: one engine, DNNL_ENGINE, over oneDNN 2.6 on the CPU. See README.md.
#pragma once

#include <hipdnn_plugin_sdk/EnginePlugin.hpp>

namespace dnnl_provider
{

class DnnlEnginePlugin : public hipdnn_plugin_sdk::EnginePluginDescription
{
public:
    static const DnnlEnginePlugin& instance();
    const char* name() const override { return "dnnl_provider_plugin"; }
    const char* version() const override { return "1.0.0"; }
    std::vector<std::unique_ptr<hipdnn_plugin_sdk::IEngine>> createEngines() const override;
};

/// The plan builder of DNNL_ENGINE (every graph kind goes through buildDnnlPlan).
class DnnlPlanBuilder : public hipdnn_plugin_sdk::IPlanBuilder
{
public:
    bool isApplicable(const hipdnn_plugin_sdk::GraphView& graph, std::string& whyNot) const override;
    size_t getWorkspaceSize(const hipdnn_plugin_sdk::GraphView& graph,
                            const hipdnn_data_sdk::data_objects::EngineConfig& config) const override;
    std::unique_ptr<hipdnn_plugin_sdk::IPlan>
        buildPlan(const hipdnn_plugin_sdk::GraphView& graph,
                  const hipdnn_data_sdk::data_objects::EngineConfig& config) const override;
};

} // namespace dnnl_provider
