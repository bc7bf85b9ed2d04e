// Engine-side descriptors: ENGINEHEUR (ranks applicable engines), ENGINE (one engine for a graph),
// KNOB_CHOICE, ENGINECFG (engine + knob choices, serialized as EngineConfig), EXECUTION_PLAN
// (a plugin execution context) and VARIANT_PACK (uid -> pointer, workspace).
#pragma once

#include "OperationGraphDescriptor.hpp"

#include <optional>
#include <string>
#include <vector>

namespace hipdnn_backend
{

class EngineDescriptor;

class EngineHeuristicDescriptor : public BackendDescriptor
{
public:
    EngineHeuristicDescriptor()
        : BackendDescriptor(HIPDNN_BACKEND_ENGINEHEUR_DESCRIPTOR)
    {
    }
    /// Indices into the handle's engine table, best first.
    const std::vector<size_t>& ranking() const { return _ranking; }

protected:
    void doSetAttribute(hipdnnBackendAttributeName_t, hipdnnBackendAttributeType_t, int64_t, const void*) override;
    void doGetAttribute(hipdnnBackendAttributeName_t, hipdnnBackendAttributeType_t, int64_t, int64_t*, void*) const override;
    void doFinalize() override;

private:
    std::shared_ptr<OperationGraphDescriptor> _graph;
    std::optional<hipdnnBackendHeurMode_t> _mode;
    std::vector<size_t> _ranking;
};

class EngineDescriptor : public BackendDescriptor
{
public:
    EngineDescriptor()
        : BackendDescriptor(HIPDNN_BACKEND_ENGINE_DESCRIPTOR)
    {
    }
    /// Finalizes an engine for the heuristics' results. The heuristics already asked the engine's
    /// plugin whether it can run the graph, so the plugin is not asked again.
    static std::shared_ptr<EngineDescriptor> createFinalized(std::shared_ptr<OperationGraphDescriptor> graph,
                                                             int64_t globalIndex);
    const OperationGraphDescriptor& graph() const { return *_graph; }
    const std::shared_ptr<OperationGraphDescriptor>& graphPtr() const { return _graph; }
    const EngineEntry& entry() const;
    int64_t globalIndex() const { return _globalIndex.value_or(-1); }

protected:
    void doSetAttribute(hipdnnBackendAttributeName_t, hipdnnBackendAttributeType_t, int64_t, const void*) override;
    void doGetAttribute(hipdnnBackendAttributeName_t, hipdnnBackendAttributeType_t, int64_t, int64_t*, void*) const override;
    void doFinalize() override;

private:
    std::shared_ptr<OperationGraphDescriptor> _graph;
    std::optional<int64_t> _globalIndex;
    bool _applicabilityKnown = false; // set by createFinalized: the heuristics checked it
};

class KnobChoiceDescriptor : public BackendDescriptor
{
public:
    KnobChoiceDescriptor()
        : BackendDescriptor(HIPDNN_BACKEND_KNOB_CHOICE_DESCRIPTOR)
    {
    }
    /// Adds this choice to an EngineConfig being serialized.
    flatbuffers::Offset<hipdnn_data_sdk::data_objects::KnobSetting>
        serialize(flatbuffers::FlatBufferBuilder& fbb) const;

protected:
    void doSetAttribute(hipdnnBackendAttributeName_t, hipdnnBackendAttributeType_t, int64_t, const void*) override;
    void doGetAttribute(hipdnnBackendAttributeName_t, hipdnnBackendAttributeType_t, int64_t, int64_t*, void*) const override;
    void doFinalize() override;

private:
    std::string _knobId;
    std::optional<hipdnnBackendAttributeType_t> _valueType;
    int64_t _int = 0;
    double _real = 0.0;
    std::string _text;
};

class EngineConfigDescriptor : public BackendDescriptor
{
public:
    EngineConfigDescriptor()
        : BackendDescriptor(HIPDNN_BACKEND_ENGINECFG_DESCRIPTOR)
    {
    }
    /// Fills an unfinalized config with an engine and finalizes it (used by ENGINEHEUR_RESULTS).
    void fillAndFinalize(std::shared_ptr<EngineDescriptor> engine);
    const EngineDescriptor& engine() const { return *_engine; }
    const std::vector<uint8_t>& serialized() const { return _serialized; }

protected:
    void doSetAttribute(hipdnnBackendAttributeName_t, hipdnnBackendAttributeType_t, int64_t, const void*) override;
    void doGetAttribute(hipdnnBackendAttributeName_t, hipdnnBackendAttributeType_t, int64_t, int64_t*, void*) const override;
    void doFinalize() override;

private:
    std::shared_ptr<EngineDescriptor> _engine;
    std::vector<std::shared_ptr<KnobChoiceDescriptor>> _knobs;
    std::vector<uint8_t> _serialized;
    int64_t _workspaceSize = 0;
};

class VariantPackDescriptor : public BackendDescriptor
{
public:
    VariantPackDescriptor()
        : BackendDescriptor(HIPDNN_BACKEND_VARIANT_PACK_DESCRIPTOR)
    {
    }
    const std::vector<int64_t>& uids() const { return _uids; }
    const std::vector<void*>& pointers() const { return _pointers; }
    void* workspace() const { return _workspace; }

protected:
    void doSetAttribute(hipdnnBackendAttributeName_t, hipdnnBackendAttributeType_t, int64_t, const void*) override;
    void doGetAttribute(hipdnnBackendAttributeName_t, hipdnnBackendAttributeType_t, int64_t, int64_t*, void*) const override;
    void doFinalize() override;

private:
    std::vector<int64_t> _uids;
    std::vector<void*> _pointers;
    void* _workspace = nullptr;
    bool _uidsSet = false;
    bool _pointersSet = false;
};

class ExecutionPlanDescriptor : public BackendDescriptor
{
public:
    ExecutionPlanDescriptor()
        : BackendDescriptor(HIPDNN_BACKEND_EXECUTION_PLAN_DESCRIPTOR)
    {
    }
    ~ExecutionPlanDescriptor() override;

    /// Runs the plan (read-only; safe to call from several threads at once).
    void execute(const HandleState& caller, const VariantPackDescriptor& pack) const;

protected:
    void doSetAttribute(hipdnnBackendAttributeName_t, hipdnnBackendAttributeType_t, int64_t, const void*) override;
    void doGetAttribute(hipdnnBackendAttributeName_t, hipdnnBackendAttributeType_t, int64_t, int64_t*, void*) const override;
    void doFinalize() override;

private:
    std::shared_ptr<EngineConfigDescriptor> _config;
    std::shared_ptr<HandleState> _handleOverride;
    std::shared_ptr<PluginInstance> _plugin;
    hipdnnEnginePluginExecutionContext_t _context = nullptr;
    int64_t _workspaceSize = 0;
    std::vector<int64_t> _requiredUids;
};

} // namespace hipdnn_backend
