// Engine-side descriptors: ENGINEHEUR (ranks applicable engines), ENGINE (one engine for a graph),
// KNOB_CHOICE, ENGINECFG (engine + knob choices, serialized as EngineConfig), EXECUTION_PLAN
// (a plugin execution context) and VARIANT_PACK (uid -> pointer, workspace).
#pragma once

#include "OperationGraphDescriptor.hpp"

#include <mutex>
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
    /// Per ranking entry: whether its plugin was asked and found it applicable. Entries listed
    /// from a known ranking record without a query are false: they are asked when a plan (or a
    /// config's workspace size) is built from them.
    const std::vector<bool>& verified() const { return _verified; }

protected:
    void doSetAttribute(hipdnnBackendAttributeName_t, hipdnnBackendAttributeType_t, int64_t, const void*) override;
    void doGetAttribute(hipdnnBackendAttributeName_t, hipdnnBackendAttributeType_t, int64_t, int64_t*, void*) const override;
    void doFinalize() override;

private:
    std::shared_ptr<OperationGraphDescriptor> _graph;
    std::optional<hipdnnBackendHeurMode_t> _mode;
    std::vector<size_t> _ranking;
    std::vector<bool> _verified;
};

class EngineDescriptor : public BackendDescriptor
{
public:
    EngineDescriptor()
        : BackendDescriptor(HIPDNN_BACKEND_ENGINE_DESCRIPTOR)
    {
    }
    /// Finalizes an engine for the heuristics' results without asking its plugin: `checked` when
    /// the heuristics asked it; otherwise the engine was listed from a known ranking and its plugin
    /// is asked by requireApplicable() when a plan or a workspace size is built from it.
    static std::shared_ptr<EngineDescriptor> createFinalized(std::shared_ptr<OperationGraphDescriptor> graph,
                                                             int64_t globalIndex,
                                                             bool checked = true);
    const OperationGraphDescriptor& graph() const { return *_graph; }
    const std::shared_ptr<OperationGraphDescriptor>& graphPtr() const { return _graph; }
    const EngineEntry& entry() const;
    int64_t globalIndex() const { return _globalIndex.value_or(-1); }
    /// False for a heuristic result listed from a known ranking without an applicability query.
    bool applicabilityChecked() const { return _applicability != Applicability::Unchecked; }
    /// For an unchecked engine, asks its plugin now: NOT_SUPPORTED (with the reason) when the
    /// engine cannot run the graph, PLUGIN_ERROR when the query fails. Nothing for the others.
    void requireApplicable() const;

protected:
    void doSetAttribute(hipdnnBackendAttributeName_t, hipdnnBackendAttributeType_t, int64_t, const void*) override;
    void doGetAttribute(hipdnnBackendAttributeName_t, hipdnnBackendAttributeType_t, int64_t, int64_t*, void*) const override;
    void doFinalize() override;

private:
    std::shared_ptr<OperationGraphDescriptor> _graph;
    std::optional<int64_t> _globalIndex;
    enum class Applicability
    {
        AskAtFinalize, // built by the caller: finalize asks the plugin
        Checked,       // a heuristic result whose plugin the heuristics asked
        Unchecked,     // a heuristic result listed from a known ranking: asked at plan build
    };
    Applicability _applicability = Applicability::AskAtFinalize;
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
    /// The plugin is not asked: the workspace size is computed when it is first read.
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
    bool _lazyWorkspace = false; // a heuristic result: the size is computed at the first read
    mutable std::mutex _workspaceMutex;
    mutable std::optional<int64_t> _workspaceSize;

    int64_t workspaceSize() const;
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
