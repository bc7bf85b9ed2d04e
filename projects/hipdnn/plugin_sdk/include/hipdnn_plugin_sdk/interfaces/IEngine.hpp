// One engine: a fixed id (FNV-1a 64 of its name) and an ordered list of plan builders; the first
// applicable builder handles a graph.
#pragma once

#include <hipdnn_data_sdk/utilities/StringUtil.hpp>
#include <hipdnn_plugin_sdk/interfaces/IPlanBuilder.hpp>

#include <memory>
#include <string>
#include <vector>

namespace hipdnn_plugin_sdk
{

class IEngine
{
public:
    virtual ~IEngine() = default;
    virtual int64_t id() const = 0;
    virtual const std::string& name() const = 0;
    virtual bool isApplicable(const GraphView& graph, std::string& whyNot) const = 0;
    /// Serialized EngineDetails for the graph.
    virtual std::vector<uint8_t> getDetails(const GraphView& graph) const = 0;
    virtual size_t getWorkspaceSize(const GraphView& graph,
                                    const hipdnn_data_sdk::data_objects::EngineConfig& config) const
        = 0;
    virtual std::unique_ptr<IPlan>
        buildPlan(const GraphView& graph,
                  const hipdnn_data_sdk::data_objects::EngineConfig& config) const
        = 0;
};

/// An engine made of plan builders tried in order.
class Engine : public IEngine
{
public:
    explicit Engine(std::string name)
        : _name(std::move(name))
        , _id(hipdnn_data_sdk::utilities::engineNameToId(_name))
    {
    }

    Engine& addPlanBuilder(std::unique_ptr<IPlanBuilder> builder)
    {
        _builders.push_back(std::move(builder));
        return *this;
    }

    int64_t id() const override { return _id; }
    const std::string& name() const override { return _name; }

    bool isApplicable(const GraphView& graph, std::string& whyNot) const override
    {
        return findBuilder(graph, whyNot) != nullptr;
    }

    std::vector<uint8_t> getDetails(const GraphView& graph) const override
    {
        std::string whyNot;
        const bool applicable = findBuilder(graph, whyNot) != nullptr; // fills whyNot first
        throwIfNot(applicable, HIPDNN_PLUGIN_STATUS_NOT_APPLICABLE, "engine " + _name + " cannot run this graph: " + whyNot);
        flatbuffers::FlatBufferBuilder fbb;
        auto details = hipdnn_data_sdk::data_objects::CreateEngineDetailsDirect(
            fbb, _id, nullptr, nullptr, _name.c_str());
        fbb.Finish(details);
        return {fbb.GetBufferPointer(), fbb.GetBufferPointer() + fbb.GetSize()};
    }

    size_t getWorkspaceSize(const GraphView& graph,
                            const hipdnn_data_sdk::data_objects::EngineConfig& config) const override
    {
        return requireBuilder(graph).getWorkspaceSize(graph, config);
    }

    std::unique_ptr<IPlan> buildPlan(const GraphView& graph,
                                     const hipdnn_data_sdk::data_objects::EngineConfig& config) const override
    {
        return requireBuilder(graph).buildPlan(graph, config);
    }

private:
    const IPlanBuilder* findBuilder(const GraphView& graph, std::string& whyNot) const
    {
        std::string reasons;
        for(const auto& builder : _builders)
        {
            std::string why;
            if(builder->isApplicable(graph, why))
            {
                return builder.get();
            }
            reasons += (reasons.empty() ? "" : "; ") + why;
        }
        whyNot = reasons.empty() ? "engine has no plan builders" : reasons;
        return nullptr;
    }

    const IPlanBuilder& requireBuilder(const GraphView& graph) const
    {
        std::string whyNot;
        const IPlanBuilder* builder = findBuilder(graph, whyNot);
        throwIfNot(builder != nullptr, HIPDNN_PLUGIN_STATUS_NOT_APPLICABLE,
                   "engine " + _name + " cannot run this graph: " + whyNot);
        return *builder;
    }

    std::string _name;
    int64_t _id;
    std::vector<std::unique_ptr<IPlanBuilder>> _builders;
};

} // namespace hipdnn_plugin_sdk
