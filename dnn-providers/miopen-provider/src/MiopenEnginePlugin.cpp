#include "MiopenEnginePlugin.hpp"

#include "MiopenGraphPlans.hpp"

#include <hipdnn_data_sdk/utilities/EngineNames.hpp>

#include <miopen/version.h>

#include <algorithm>
#include <cstdio>
#include <iterator>
#include <optional>

namespace miopen_provider
{

namespace
{
const char* engineName(bool deterministic)
{
    return deterministic ? hipdnn_data_sdk::utilities::MIOPEN_ENGINE_DETERMINISTIC_NAME.data()
                         : hipdnn_data_sdk::utilities::MIOPEN_ENGINE_NAME.data();
}

void throwDecline(bool deterministic, const std::string& whyNot)
{
    throw hipdnn_plugin_sdk::PluginException(HIPDNN_PLUGIN_STATUS_NOT_APPLICABLE,
                                             std::string(engineName(deterministic))
                                                 + " cannot run this graph: " + whyNot);
}
} // namespace

template <typename Use>
auto MiopenPlanBuilder::withPending(const hipdnn_plugin_sdk::GraphView& graph, Use&& use) const
{
    std::vector<uint8_t> key = graph.copyBuffer();
    auto find = [&]() {
        return std::find_if(_pending.begin(), _pending.end(), [&](const Pending& p) { return p.graph == key; });
    };
    {
        std::lock_guard<std::mutex> lock(_mutex);
        auto it = find();
        if(it != _pending.end())
        {
            return use(it);
        }
    }
    Pending built;
    built.plan = buildMiopenPlan(graph, _deterministic, built.whyNot);
    built.graph = std::move(key);
    std::lock_guard<std::mutex> lock(_mutex);
    ++_builds;
    auto it = find(); // another thread may have kept one meanwhile: use that one
    if(it == _pending.end())
    {
        if(_pending.size() >= kPendingPlans)
        {
            _pending.pop_front();
        }
        _pending.push_back(std::move(built));
        it = std::prev(_pending.end());
    }
    return use(it);
}

bool MiopenPlanBuilder::isApplicable(const hipdnn_plugin_sdk::GraphView& graph, std::string& whyNot) const
{
    return withPending(graph, [&](auto it) {
        whyNot = it->whyNot;
        return it->plan != nullptr;
    });
}

size_t MiopenPlanBuilder::getWorkspaceSize(const hipdnn_plugin_sdk::GraphView& graph,
                                           const hipdnn_data_sdk::data_objects::EngineConfig& /*config*/) const
{
    std::string whyNot;
    const std::optional<size_t> ws = withPending(graph, [&](auto it) -> std::optional<size_t> {
        whyNot = it->whyNot;
        return it->plan != nullptr ? std::optional<size_t>(it->plan->getWorkspaceSize()) : std::nullopt;
    });
    if(!ws.has_value())
    {
        throwDecline(_deterministic, whyNot);
    }
    return *ws;
}

std::unique_ptr<hipdnn_plugin_sdk::IPlan>
    MiopenPlanBuilder::buildPlan(const hipdnn_plugin_sdk::GraphView& graph,
                                 const hipdnn_data_sdk::data_objects::EngineConfig& /*config*/) const
{
    std::string whyNot;
    std::unique_ptr<MiopenPlan> plan = withPending(graph, [&](auto it) {
        whyNot = it->whyNot;
        std::unique_ptr<MiopenPlan> taken = std::move(it->plan);
        _pending.erase(it); // handed over: the next plan of this graph is built afresh
        return taken;
    });
    if(plan == nullptr)
    {
        throwDecline(_deterministic, whyNot);
    }
    HIPDNN_SDK_LOG_INFO(engineName(_deterministic) << " plan: " << plan->description() << ", workspace "
                                                   << plan->getWorkspaceSize() << " bytes");
    return plan;
}

uint64_t MiopenPlanBuilder::buildCount() const
{
    std::lock_guard<std::mutex> lock(_mutex);
    return _builds;
}

const MiopenEnginePlugin& MiopenEnginePlugin::instance()
{
    static const MiopenEnginePlugin plugin;
    return plugin;
}

namespace
{
/// RFC 4.7: the provider runs only on the MIOpen Private it was built against. A Private of the
/// same SOVERSION but another version (a partial upgrade) makes the plugin offer no engine: one
/// line on stderr (a packaging error must be seen even with hipDNN's logging off), and every
/// engine query fails with the reason, so the backend rejects the plugin at load.
void requireMatchingPrivate()
{
    static const std::string mismatch = [] {
        size_t major = 0, minor = 0, patch = 0;
        if(miopenGetVersion_impl(&major, &minor, &patch) != miopenStatusSuccess)
        {
            return std::string("MIOpen Private does not report its version");
        }
        if(major == MIOPEN_VERSION_MAJOR && minor == MIOPEN_VERSION_MINOR && patch == MIOPEN_VERSION_PATCH)
        {
            return std::string();
        }
        std::string text = "the MIOpen provider was built against MIOpen Private " + std::to_string(MIOPEN_VERSION_MAJOR)
                           + "." + std::to_string(MIOPEN_VERSION_MINOR) + "." + std::to_string(MIOPEN_VERSION_PATCH)
                           + " but the libMIOpen_private.so.1 loaded is " + std::to_string(major) + "."
                           + std::to_string(minor) + "." + std::to_string(patch)
                           + "; its engines are not offered (install matching MIOpen and provider packages)";
        std::fprintf(stderr, "[hipDNN MIOpen provider] %s\n", text.c_str());
        return text;
    }();
    if(!mismatch.empty())
    {
        throw hipdnn_plugin_sdk::PluginException(HIPDNN_PLUGIN_STATUS_INTERNAL_ERROR, mismatch);
    }
}
} // namespace

std::vector<std::unique_ptr<hipdnn_plugin_sdk::IEngine>> MiopenEnginePlugin::createEngines() const
{
    requireMatchingPrivate();
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
