#include "MiopenEnginePlugin.hpp"

#include "MiopenGraphPlans.hpp"

#include <hipdnn_data_sdk/utilities/EngineNames.hpp>

namespace miopen_provider
{

namespace
{
const char* engineName(bool deterministic)
{
    return deterministic ? hipdnn_data_sdk::utilities::MIOPEN_ENGINE_DETERMINISTIC_NAME.data()
                         : hipdnn_data_sdk::utilities::MIOPEN_ENGINE_NAME.data();
}

std::unique_ptr<MiopenPlan> requirePlan(const hipdnn_plugin_sdk::GraphView& graph, bool deterministic)
{
    std::string whyNot;
    auto plan = buildMiopenPlan(graph, deterministic, whyNot);
    hipdnn_plugin_sdk::throwIfNot(plan != nullptr, HIPDNN_PLUGIN_STATUS_NOT_APPLICABLE,
                                  std::string(engineName(deterministic)) + " cannot run this graph: " + whyNot);
    return plan;
}
} // namespace

bool MiopenPlanBuilder::isApplicable(const hipdnn_plugin_sdk::GraphView& graph, std::string& whyNot) const
{
    return buildMiopenPlan(graph, _deterministic, whyNot) != nullptr;
}

size_t MiopenPlanBuilder::getWorkspaceSize(const hipdnn_plugin_sdk::GraphView& graph,
                                           const hipdnn_data_sdk::data_objects::EngineConfig& /*config*/) const
{
    return requirePlan(graph, _deterministic)->getWorkspaceSize();
}

std::unique_ptr<hipdnn_plugin_sdk::IPlan>
    MiopenPlanBuilder::buildPlan(const hipdnn_plugin_sdk::GraphView& graph,
                                 const hipdnn_data_sdk::data_objects::EngineConfig& /*config*/) const
{
    auto plan = requirePlan(graph, _deterministic);
    HIPDNN_SDK_LOG_INFO(engineName(_deterministic) << " plan: " << plan->description() << ", workspace "
                                                   << plan->getWorkspaceSize() << " bytes");
    return plan;
}

const MiopenEnginePlugin& MiopenEnginePlugin::instance()
{
    static const MiopenEnginePlugin plugin;
    return plugin;
}

std::vector<std::unique_ptr<hipdnn_plugin_sdk::IEngine>> MiopenEnginePlugin::createEngines() const
{
    std::vector<std::unique_ptr<hipdnn_plugin_sdk::IEngine>> engines;
    for(bool deterministic : {false, true})
    {
        auto engine = std::make_unique<hipdnn_plugin_sdk::Engine>(std::string(engineName(deterministic)));
        engine->addPlanBuilder(std::make_unique<MiopenPlanBuilder>(deterministic));
        engines.push_back(std::move(engine));
    }
    return engines;
}

} // namespace miopen_provider
