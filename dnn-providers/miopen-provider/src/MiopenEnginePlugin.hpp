// The MIOpen engine plugin: engines MIOPEN_ENGINE and MIOPEN_ENGINE_DETERMINISTIC (upstream's
// names and ids) over libMIOpen_private.so. See README.md.
#pragma once

#include "MiopenPlan.hpp"

#include <hipdnn_plugin_sdk/EnginePlugin.hpp>

#include <deque>
#include <mutex>

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
///
/// For one problem the backend and the plugin SDK ask isApplicable, getWorkspaceSize and
/// buildPlan in turn (and the SDK re-asks isApplicable before each of the two others); each of
/// them needs the complete plan (the solver choice decides the workspace). So the plan built by
/// the first question is kept, keyed by the serialized graph, and answers the others; buildPlan
/// hands it over (one plan per execution context) and forgets it. A decline is kept too, with
/// its reason. At most kPendingPlans problems are kept per engine, oldest dropped first;
/// thread-safe, and builds run outside the lock (different problems build concurrently).
class MiopenPlanBuilder : public hipdnn_plugin_sdk::IPlanBuilder
{
public:
    static constexpr size_t kPendingPlans = 8;

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

    /// Plans built so far by this builder (cache misses; tests and benchmarks).
    uint64_t buildCount() const;

private:
    struct Pending
    {
        std::vector<uint8_t> graph;
        std::unique_ptr<MiopenPlan> plan; // null: declined
        std::string whyNot;
    };
    /// Runs `use` on the kept entry of the graph, building and keeping it first when absent.
    template <typename Use>
    auto withPending(const hipdnn_plugin_sdk::GraphView& graph, Use&& use) const;

    bool _deterministic;
    mutable std::mutex _mutex;
    mutable std::deque<Pending> _pending; // oldest first
    mutable uint64_t _builds = 0;
};

} // namespace miopen_provider
