#include "DnnlEnginePlugin.hpp"

#include "DnnlGraphPlans.hpp"
#include "DnnlRuntime.hpp"

#include <hipdnn_data_sdk/utilities/EngineNames.hpp>

namespace dnnl_provider
{

namespace
{
std::unique_ptr<DnnlPlan> requirePlan(const hipdnn_plugin_sdk::GraphView& graph)
{
    std::string whyNot;
    auto plan = buildDnnlPlan(graph, whyNot);
    hipdnn_plugin_sdk::throwIfNot(plan != nullptr, HIPDNN_PLUGIN_STATUS_NOT_APPLICABLE,
                                  "DNNL_ENGINE cannot run this graph: " + whyNot);
    return plan;
}
} // namespace

bool DnnlPlanBuilder::isApplicable(const hipdnn_plugin_sdk::GraphView& graph, std::string& whyNot) const
{
    return buildDnnlPlan(graph, whyNot) != nullptr;
}

size_t DnnlPlanBuilder::getWorkspaceSize(const hipdnn_plugin_sdk::GraphView& graph,
                                         const hipdnn_data_sdk::data_objects::EngineConfig& /*config*/) const
{
    return requirePlan(graph)->getWorkspaceSize();
}

std::unique_ptr<hipdnn_plugin_sdk::IPlan>
    DnnlPlanBuilder::buildPlan(const hipdnn_plugin_sdk::GraphView& graph,
                               const hipdnn_data_sdk::data_objects::EngineConfig& /*config*/) const
{
    auto plan = requirePlan(graph);
    HIPDNN_SDK_LOG_INFO("DNNL_ENGINE plan: " << plan->description() << ", workspace " << plan->getWorkspaceSize()
                                             << " bytes; " << DnnlRuntime::summary());
    return plan;
}

const DnnlEnginePlugin& DnnlEnginePlugin::instance()
{
    static const DnnlEnginePlugin plugin;
    return plugin;
}

std::vector<std::unique_ptr<hipdnn_plugin_sdk::IEngine>> DnnlEnginePlugin::createEngines() const
{
    std::vector<std::unique_ptr<hipdnn_plugin_sdk::IEngine>> engines;
    auto engine = std::make_unique<hipdnn_plugin_sdk::Engine>(std::string(hipdnn_data_sdk::utilities::DNNL_ENGINE_NAME));
    engine->addPlanBuilder(std::make_unique<DnnlPlanBuilder>());
    engines.push_back(std::move(engine));
    return engines;
}

} // namespace dnnl_provider
