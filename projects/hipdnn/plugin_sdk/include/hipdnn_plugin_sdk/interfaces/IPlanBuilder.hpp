// Recognizes one family of graphs and builds plans for it. Stateless: isApplicable and
// getWorkspaceSize are pure functions of the graph and config.
#pragma once

#include <hipdnn_plugin_sdk/GraphView.hpp>
#include <hipdnn_plugin_sdk/interfaces/IPlan.hpp>

#include <memory>
#include <string>

namespace hipdnn_plugin_sdk
{

class IPlanBuilder
{
public:
    virtual ~IPlanBuilder() = default;
    /// True when this builder can run the graph; otherwise `whyNot` says why.
    virtual bool isApplicable(const GraphView& graph, std::string& whyNot) const = 0;
    virtual size_t getWorkspaceSize(const GraphView& graph,
                                    const hipdnn_data_sdk::data_objects::EngineConfig& config) const
        = 0;
    virtual std::unique_ptr<IPlan>
        buildPlan(const GraphView& graph,
                  const hipdnn_data_sdk::data_objects::EngineConfig& config) const
        = 0;
};

} // namespace hipdnn_plugin_sdk
