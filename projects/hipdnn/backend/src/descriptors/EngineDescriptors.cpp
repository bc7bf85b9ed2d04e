#include "EngineDescriptors.hpp"

#include "../BackendLogger.hpp"
#include "../EngineRanking.hpp"
#include "AttributeIo.hpp"

#include <hipdnn_data_sdk/flatbuffer_utilities/BufferVerification.hpp>

#include <algorithm>
#include <cstdlib>
#include <set>

namespace hipdnn_backend
{

namespace dobj = hipdnn_data_sdk::data_objects;

namespace
{
hipdnnPluginConstData_t constData(const std::vector<uint8_t>& bytes)
{
    return {bytes.data(), bytes.size()};
}

/// Engine ids one plugin finds applicable to the graph; throws PLUGIN_ERROR when the plugin fails.
/// One call in the usual case: the buffer has room for every engine the plugin registered (a
/// second call only when the plugin reports more, e.g. an engine id dropped as a duplicate).
std::vector<int64_t> applicableIds(const PluginInstance& plugin, const std::vector<uint8_t>& graph)
{
    const auto& fn = plugin.library().fn();
    const hipdnnPluginConstData_t data = constData(graph);
    std::vector<int64_t> ids(std::max<size_t>(plugin.library().engineIds().size(), 1));
    uint32_t count = 0;
    hipdnnPluginStatus_t st = fn.getApplicableEngineIds(plugin.handle(), &data, ids.data(),
                                                        static_cast<uint32_t>(ids.size()), &count);
    throwIf(st != HIPDNN_PLUGIN_STATUS_SUCCESS, HIPDNN_STATUS_PLUGIN_ERROR,
            plugin.library().describeFailure("hipdnnEnginePluginGetApplicableEngineIds", st));
    if(count > ids.size())
    {
        ids.resize(count);
        uint32_t again = 0;
        st = fn.getApplicableEngineIds(plugin.handle(), &data, ids.data(), count, &again);
        throwIf(st != HIPDNN_PLUGIN_STATUS_SUCCESS, HIPDNN_STATUS_PLUGIN_ERROR,
                plugin.library().describeFailure("hipdnnEnginePluginGetApplicableEngineIds", st));
        count = std::min(count, again);
    }
    ids.resize(count);
    return ids;
}
} // namespace

// ---------------------------------------------------------------------------------------------
// ENGINEHEUR

namespace
{
bool isDeterministicEngineName(const std::string& n)
{
    static const std::string kSuffix = "_DETERMINISTIC";
    return n.size() >= kSuffix.size() && n.compare(n.size() - kSuffix.size(), kSuffix.size(), kSuffix) == 0;
}
} // namespace

void EngineHeuristicDescriptor::doSetAttribute(hipdnnBackendAttributeName_t name,
                                               hipdnnBackendAttributeType_t type,
                                               int64_t count,
                                               const void* values)
{
    switch(name)
    {
    case HIPDNN_ATTR_ENGINEHEUR_MODE:
    {
        _mode = readEnum<hipdnnBackendHeurMode_t>(name, type, HIPDNN_TYPE_HEUR_MODE, count, values,
                                                  HIPDNN_HEUR_MODE_FALLBACK, HIPDNN_HEUR_MODE_FALLBACK,
                                                  "heuristic mode (only HIPDNN_HEUR_MODE_FALLBACK is supported):");
        return;
    }
    case HIPDNN_ATTR_ENGINEHEUR_OPERATION_GRAPH:
        _graph = readDescriptor<OperationGraphDescriptor>(name, type, count, values,
                                                          HIPDNN_BACKEND_OPERATIONGRAPH_DESCRIPTOR);
        return;
    default:
        throwUnknownAttribute(name);
    }
}

void EngineHeuristicDescriptor::doFinalize()
{
    throwIf(_graph == nullptr, HIPDNN_STATUS_BAD_PARAM, "HIPDNN_ATTR_ENGINEHEUR_OPERATION_GRAPH is not set");
    throwIf(!_mode.has_value(), HIPDNN_STATUS_BAD_PARAM, "HIPDNN_ATTR_ENGINEHEUR_MODE is not set");
    const HandleState& state = *_graph->handleState();
    const auto& engines      = state.engines();
    std::vector<bool> applicable(engines.size(), false);
    std::string failures;
    // Asks one plugin which of its engines can run the graph and marks them in `applicable`.
    auto query = [&](const std::shared_ptr<PluginInstance>& plugin) {
        std::vector<int64_t> ids;
        try
        {
            ids = applicableIds(*plugin, _graph->serialized());
        }
        catch(const HipdnnException& e)
        {
            HIPDNN_LOG_WARN("engine query skipped a plugin: " << e.what());
            failures += std::string("; ") + e.what();
            return;
        }
        for(int64_t id : ids)
        {
            const int64_t index = state.engineIndex(id);
            if(index < 0 || engines[static_cast<size_t>(index)].plugin != plugin)
            {
                HIPDNN_LOG_WARN("plugin " << plugin->library().name() << " reported engine id " << id
                                          << ", which it did not register; ignored");
                continue;
            }
            applicable[static_cast<size_t>(index)] = true;
        }
    };
    _ranking.clear();
    _verified.clear();
    const EngineRankingSettings settings = EngineRanking::instance().settings();
    bool pinned                          = settings.fallbackOrderExplicit;
    // A pinned engine (the graph's preferred engine id; the MIOpen wrapper sets it from
    // MIOPEN_HIPDNN_PREFERRED_ENGINE): its plugin is asked first, and when the engine can run the
    // graph it is the whole ranking; no other plugin is asked (their applicability queries can
    // cost more than a small convolution) and nothing is measured. When it cannot, the other
    // engines are ranked as usual (WARN).
    std::shared_ptr<PluginInstance> askedFirst;
    const auto preferred = _graph->preferredEngineId();
    if(preferred.has_value())
    {
        const int64_t index = state.engineIndex(*preferred);
        if(index >= 0)
        {
            askedFirst = engines[static_cast<size_t>(index)].plugin;
            query(askedFirst);
            if(applicable[static_cast<size_t>(index)])
            {
                _ranking.push_back(static_cast<size_t>(index));
                _verified.push_back(true);
                return;
            }
        }
        HIPDNN_LOG_WARN("preferred engine " << engineDisplayName(*preferred)
                                            << (index < 0 ? " is not loaded" : " cannot run the graph")
                                            << "; ranking the other engines");
    }
    // A known ranking (measured mode, nothing pinned, a record for this graph and context in
    // memory or on disk): only the record's first engine's plugin is asked. When that engine
    // applies, the result is the record's order; the other engines are listed without a query
    // (asked when a plan is built from them, like an engine config that fails at finalize in
    // cuDNN; the frontend then builds the next). When it does not apply, every plugin is asked
    // as below (that plugin not twice).
    std::shared_ptr<PluginInstance> askedSecond;
    if(!pinned && settings.mode == EngineRankingMode::Measured)
    {
        if(const auto known = EngineRanking::instance().knownOrder(state, _graph->serialized()))
        {
            const size_t first = known->front();
            const auto& plugin = engines[first].plugin;
            if(plugin != askedFirst)
            {
                query(plugin);
                askedSecond = plugin;
            }
            if(applicable[first])
            {
                auto asked = [&](size_t i) { return engines[i].plugin == askedFirst || engines[i].plugin == plugin; };
                auto list  = [&](size_t i) {
                    // An engine whose plugin was asked is listed only when it applies.
                    if((!asked(i) || applicable[i]) && std::find(_ranking.begin(), _ranking.end(), i) == _ranking.end())
                    {
                        _ranking.push_back(i);
                        _verified.push_back(asked(i));
                    }
                };
                for(const size_t i : *known)
                {
                    list(i);
                }
                // The record holds the engines measured for the graph; _DETERMINISTIC engines
                // are never measured and follow, as in the static order. A loaded engine that is
                // neither was not applicable when the record was measured (the context
                // fingerprint covers every loaded engine and its plugin file) and is not listed.
                for(size_t i = 0; i < engines.size(); ++i)
                {
                    if(isDeterministicEngineName(engines[i].name))
                    {
                        list(i);
                    }
                }
                HIPDNN_LOG_INFO("engine heuristics: known ranking, first engine " << engines[first].name
                                                                                  << " applies; " << _ranking.size()
                                                                                  << " engine(s) listed");
                return;
            }
            HIPDNN_LOG_INFO("engine heuristics: the known ranking's first engine "
                            << engines[first].name << " cannot run the graph; asking every plugin");
        }
    }
    for(const auto& plugin : state.plugins())
    {
        if(plugin != askedFirst && plugin != askedSecond)
        {
            query(plugin);
        }
    }
    // The static FALLBACK order (upstream's rule): the engines named by
    // HIPDNN_HEUR_FALLBACK_ENGINE_ORDER (comma list; by default MIOPEN_ENGINE), then the other
    // engines in load order, engines whose name ends in _DETERMINISTIC last.
    auto take           = [&](size_t i) {
        if(applicable[i] && std::find(_ranking.begin(), _ranking.end(), i) == _ranking.end())
        {
            _ranking.push_back(i);
        }
    };
    for(const std::string& name : settings.fallbackOrder)
    {
        for(size_t i = 0; i < engines.size(); ++i)
        {
            if(engines[i].name == name)
            {
                take(i);
            }
        }
    }
    for(size_t i = 0; i < applicable.size(); ++i)
    {
        if(!isDeterministicEngineName(engines[i].name))
        {
            take(i);
        }
    }
    for(size_t i = 0; i < applicable.size(); ++i)
    {
        take(i);
    }
    throwIf(_ranking.empty(), HIPDNN_STATUS_NOT_SUPPORTED,
            "no loaded engine supports the graph (" + std::to_string(state.engines().size())
                + " engine(s) loaded" + failures + ")");
    // The measured order (default): with two or more candidates and nothing pinned (no applicable
    // preferred engine, no explicit HIPDNN_HEUR_FALLBACK_ENGINE_ORDER), the engines are ordered by
    // a cached or freshly measured ranking; the static order above breaks near-ties.
    // Engines whose name ends in _DETERMINISTIC are not measured: they stay after the others, as
    // in the static order (a caller asks for them by pinning; speed does not promote them).
    if(!pinned && settings.mode == EngineRankingMode::Measured)
    {
        std::vector<size_t> measured;
        std::vector<size_t> deterministic;
        for(const size_t i : _ranking)
        {
            (isDeterministicEngineName(engines[i].name) ? deterministic : measured).push_back(i);
        }
        if(measured.size() > 1)
        {
            _ranking = EngineRanking::instance().rank(state, _graph->serialized(), measured);
            _ranking.insert(_ranking.end(), deterministic.begin(), deterministic.end());
        }
    }
    _verified.assign(_ranking.size(), true);
}

void EngineHeuristicDescriptor::doGetAttribute(hipdnnBackendAttributeName_t name,
                                               hipdnnBackendAttributeType_t type,
                                               int64_t requested,
                                               int64_t* count,
                                               void* values) const
{
    switch(name)
    {
    case HIPDNN_ATTR_ENGINEHEUR_MODE:
        writeScalar(name, type, HIPDNN_TYPE_HEUR_MODE, requested, count, values, *_mode);
        return;
    case HIPDNN_ATTR_ENGINEHEUR_OPERATION_GRAPH:
        writeScalar(name, type, HIPDNN_TYPE_BACKEND_DESCRIPTOR, requested, count, values,
                    DescriptorRegistry::toHandle(*_graph));
        return;
    case HIPDNN_ATTR_ENGINEHEUR_RESULTS:
    {
        expectType(name, type, HIPDNN_TYPE_BACKEND_DESCRIPTOR);
        if(count != nullptr)
        {
            *count = static_cast<int64_t>(_ranking.size());
        }
        const size_t n = std::min(static_cast<size_t>(requested), _ranking.size());
        auto* out = static_cast<hipdnnBackendDescriptor_t*>(values);
        // Validate every target before filling any.
        std::vector<std::shared_ptr<EngineConfigDescriptor>> configs;
        for(size_t i = 0; i < n; ++i)
        {
            configs.push_back(DescriptorRegistry::getAs<EngineConfigDescriptor>(
                out[i], HIPDNN_BACKEND_ENGINECFG_DESCRIPTOR, "result " + std::to_string(i), false));
            throwIf(configs.back()->isFinalized(), HIPDNN_STATUS_BAD_PARAM,
                    "result " + std::to_string(i) + " is an already finalized engine config");
        }
        for(size_t i = 0; i < n; ++i)
        {
            configs[i]->fillAndFinalize(
                EngineDescriptor::createFinalized(_graph, static_cast<int64_t>(_ranking[i]), _verified[i]));
        }
        return;
    }
    default:
        throwUnknownAttribute(name);
    }
}

// ---------------------------------------------------------------------------------------------
// ENGINE

std::shared_ptr<EngineDescriptor> EngineDescriptor::createFinalized(std::shared_ptr<OperationGraphDescriptor> graph,
                                                                   int64_t globalIndex,
                                                                   bool checked)
{
    auto engine = std::make_shared<EngineDescriptor>();
    engine->_graph = std::move(graph);
    engine->_globalIndex = globalIndex;
    engine->_applicability = checked ? Applicability::Checked : Applicability::Unchecked;
    engine->finalize();
    return engine;
}

void EngineDescriptor::requireApplicable() const
{
    if(_applicability != Applicability::Unchecked)
    {
        return;
    }
    const EngineEntry& e = entry();
    const auto ids       = applicableIds(*e.plugin, _graph->serialized());
    throwIf(std::find(ids.begin(), ids.end(), e.id) == ids.end(), HIPDNN_STATUS_NOT_SUPPORTED,
            "engine " + e.name + " does not support the graph: plugin " + e.plugin->library().name()
                + " declines it (the engine was listed from the measured ranking without an applicability query)");
}

const EngineEntry& EngineDescriptor::entry() const
{
    return _graph->handleState()->engines().at(static_cast<size_t>(*_globalIndex));
}

void EngineDescriptor::doSetAttribute(hipdnnBackendAttributeName_t name,
                                      hipdnnBackendAttributeType_t type,
                                      int64_t count,
                                      const void* values)
{
    switch(name)
    {
    case HIPDNN_ATTR_ENGINE_OPERATION_GRAPH:
        _graph = readDescriptor<OperationGraphDescriptor>(name, type, count, values,
                                                          HIPDNN_BACKEND_OPERATIONGRAPH_DESCRIPTOR);
        return;
    case HIPDNN_ATTR_ENGINE_GLOBAL_INDEX:
        _globalIndex = readScalar<int64_t>(name, type, HIPDNN_TYPE_INT64, count, values);
        return;
    default:
        throwUnknownAttribute(name);
    }
}

void EngineDescriptor::doFinalize()
{
    throwIf(_graph == nullptr, HIPDNN_STATUS_BAD_PARAM, "HIPDNN_ATTR_ENGINE_OPERATION_GRAPH is not set");
    throwIf(!_globalIndex.has_value(), HIPDNN_STATUS_BAD_PARAM, "HIPDNN_ATTR_ENGINE_GLOBAL_INDEX is not set");
    const auto& engines = _graph->handleState()->engines();
    throwIf(*_globalIndex < 0 || static_cast<size_t>(*_globalIndex) >= engines.size(),
            HIPDNN_STATUS_BAD_PARAM_OUT_OF_BOUND,
            "engine global index " + std::to_string(*_globalIndex) + " is out of range (0.."
                + std::to_string(engines.size()) + ")");
    const EngineEntry& e = entry();
    if(_applicability != Applicability::AskAtFinalize)
    {
        return; // a heuristic result: asked by the heuristics, or by requireApplicable() at plan build
    }
    const auto ids = applicableIds(*e.plugin, _graph->serialized());
    throwIf(std::find(ids.begin(), ids.end(), e.id) == ids.end(), HIPDNN_STATUS_NOT_SUPPORTED,
            "engine " + e.name + " does not support the graph");
}

void EngineDescriptor::doGetAttribute(hipdnnBackendAttributeName_t name,
                                      hipdnnBackendAttributeType_t type,
                                      int64_t requested,
                                      int64_t* count,
                                      void* values) const
{
    switch(name)
    {
    case HIPDNN_ATTR_ENGINE_OPERATION_GRAPH:
        writeScalar(name, type, HIPDNN_TYPE_BACKEND_DESCRIPTOR, requested, count, values,
                    DescriptorRegistry::toHandle(*_graph));
        return;
    case HIPDNN_ATTR_ENGINE_GLOBAL_INDEX:
        writeScalar(name, type, HIPDNN_TYPE_INT64, requested, count, values, *_globalIndex);
        return;
    case HIPDNN_ATTR_ENGINE_NAME_EXT:
        writeString(name, type, requested, count, values, entry().name);
        return;
    default:
        throwUnknownAttribute(name);
    }
}

// ---------------------------------------------------------------------------------------------
// KNOB_CHOICE: KNOB_TYPE is the knob id string (CHAR); KNOB_VALUE an INT64, DOUBLE or CHAR value.

void KnobChoiceDescriptor::doSetAttribute(hipdnnBackendAttributeName_t name,
                                          hipdnnBackendAttributeType_t type,
                                          int64_t count,
                                          const void* values)
{
    switch(name)
    {
    case HIPDNN_ATTR_KNOB_CHOICE_KNOB_TYPE:
    {
        const auto chars = readArray<char>(name, type, HIPDNN_TYPE_CHAR, count, values);
        _knobId.assign(chars.begin(), std::find(chars.begin(), chars.end(), '\0'));
        return;
    }
    case HIPDNN_ATTR_KNOB_CHOICE_KNOB_VALUE:
        if(type == HIPDNN_TYPE_INT64)
        {
            _int = readScalar<int64_t>(name, type, HIPDNN_TYPE_INT64, count, values);
        }
        else if(type == HIPDNN_TYPE_DOUBLE)
        {
            _real = readScalar<double>(name, type, HIPDNN_TYPE_DOUBLE, count, values);
        }
        else if(type == HIPDNN_TYPE_CHAR)
        {
            const auto chars = readArray<char>(name, type, HIPDNN_TYPE_CHAR, count, values);
            _text.assign(chars.begin(), std::find(chars.begin(), chars.end(), '\0'));
        }
        else
        {
            throw HipdnnException(HIPDNN_STATUS_BAD_PARAM, "knob value must be INT64, DOUBLE or CHAR");
        }
        _valueType = type;
        return;
    default:
        throwUnknownAttribute(name);
    }
}

void KnobChoiceDescriptor::doFinalize()
{
    throwIf(_knobId.empty(), HIPDNN_STATUS_BAD_PARAM, "HIPDNN_ATTR_KNOB_CHOICE_KNOB_TYPE (knob id) is not set");
    throwIf(!_valueType.has_value(), HIPDNN_STATUS_BAD_PARAM, "HIPDNN_ATTR_KNOB_CHOICE_KNOB_VALUE is not set");
}

void KnobChoiceDescriptor::doGetAttribute(hipdnnBackendAttributeName_t name,
                                          hipdnnBackendAttributeType_t type,
                                          int64_t requested,
                                          int64_t* count,
                                          void* values) const
{
    switch(name)
    {
    case HIPDNN_ATTR_KNOB_CHOICE_KNOB_TYPE:
        writeString(name, type, requested, count, values, _knobId);
        return;
    case HIPDNN_ATTR_KNOB_CHOICE_KNOB_VALUE:
        if(*_valueType == HIPDNN_TYPE_INT64)
        {
            writeScalar(name, type, HIPDNN_TYPE_INT64, requested, count, values, _int);
        }
        else if(*_valueType == HIPDNN_TYPE_DOUBLE)
        {
            writeScalar(name, type, HIPDNN_TYPE_DOUBLE, requested, count, values, _real);
        }
        else
        {
            writeString(name, type, requested, count, values, _text);
        }
        return;
    default:
        throwUnknownAttribute(name);
    }
}

flatbuffers::Offset<dobj::KnobSetting>
    KnobChoiceDescriptor::serialize(flatbuffers::FlatBufferBuilder& fbb) const
{
    auto id = fbb.CreateString(_knobId);
    if(*_valueType == HIPDNN_TYPE_INT64)
    {
        return dobj::CreateKnobSetting(fbb, id, dobj::KnobValue::IntValue,
                                       dobj::CreateIntValue(fbb, _int).Union());
    }
    if(*_valueType == HIPDNN_TYPE_DOUBLE)
    {
        return dobj::CreateKnobSetting(fbb, id, dobj::KnobValue::FloatValue,
                                       dobj::CreateFloatValue(fbb, _real).Union());
    }
    auto text = fbb.CreateString(_text);
    return dobj::CreateKnobSetting(fbb, id, dobj::KnobValue::StringValue,
                                   dobj::CreateStringValue(fbb, text).Union());
}

// ---------------------------------------------------------------------------------------------
// ENGINECFG

void EngineConfigDescriptor::fillAndFinalize(std::shared_ptr<EngineDescriptor> engine)
{
    _engine        = std::move(engine);
    _lazyWorkspace = true;
    finalize();
}

void EngineConfigDescriptor::doSetAttribute(hipdnnBackendAttributeName_t name,
                                            hipdnnBackendAttributeType_t type,
                                            int64_t count,
                                            const void* values)
{
    switch(name)
    {
    case HIPDNN_ATTR_ENGINECFG_ENGINE:
        _engine = readDescriptor<EngineDescriptor>(name, type, count, values, HIPDNN_BACKEND_ENGINE_DESCRIPTOR);
        return;
    case HIPDNN_ATTR_ENGINECFG_KNOB_CHOICES:
    {
        const auto handles = readArray<hipdnnBackendDescriptor_t>(
            name, type, HIPDNN_TYPE_BACKEND_DESCRIPTOR, count, values);
        std::vector<std::shared_ptr<KnobChoiceDescriptor>> knobs;
        for(size_t i = 0; i < handles.size(); ++i)
        {
            knobs.push_back(DescriptorRegistry::getAs<KnobChoiceDescriptor>(
                handles[i], HIPDNN_BACKEND_KNOB_CHOICE_DESCRIPTOR, "knob choice " + std::to_string(i), true));
        }
        _knobs = std::move(knobs);
        return;
    }
    default:
        throwUnknownAttribute(name);
    }
}

void EngineConfigDescriptor::doFinalize()
{
    throwIf(_engine == nullptr, HIPDNN_STATUS_BAD_PARAM, "HIPDNN_ATTR_ENGINECFG_ENGINE is not set");
    const EngineEntry& e = _engine->entry();
    flatbuffers::FlatBufferBuilder fbb;
    std::vector<flatbuffers::Offset<dobj::KnobSetting>> knobs;
    for(const auto& k : _knobs)
    {
        knobs.push_back(k->serialize(fbb));
    }
    fbb.Finish(dobj::CreateEngineConfigDirect(fbb, e.id, &knobs));
    _serialized.assign(fbb.GetBufferPointer(), fbb.GetBufferPointer() + fbb.GetSize());
    {
        std::lock_guard<std::mutex> lock(_workspaceMutex);
        _workspaceSize.reset();
    }
    // A config the caller built: its workspace size now (the plugin checks the config). A
    // heuristic result: at the first read (callers read the chosen plan's size; the oneDNN plugin
    // builds primitive descriptors to answer).
    if(!_lazyWorkspace)
    {
        workspaceSize();
    }
}

int64_t EngineConfigDescriptor::workspaceSize() const
{
    std::lock_guard<std::mutex> lock(_workspaceMutex);
    if(_workspaceSize.has_value())
    {
        return *_workspaceSize;
    }
    _engine->requireApplicable();
    const EngineEntry& e = _engine->entry();
    const auto config    = constData(_serialized);
    const auto graph     = constData(_engine->graph().serialized());
    size_t ws            = 0;
    const hipdnnPluginStatus_t st
        = e.plugin->library().fn().getWorkspaceSize(e.plugin->handle(), &config, &graph, &ws);
    throwIf(st != HIPDNN_PLUGIN_STATUS_SUCCESS,
            st == HIPDNN_PLUGIN_STATUS_NOT_APPLICABLE ? HIPDNN_STATUS_NOT_SUPPORTED : HIPDNN_STATUS_PLUGIN_ERROR,
            e.plugin->library().describeFailure("hipdnnEnginePluginGetWorkspaceSize", st));
    _workspaceSize = static_cast<int64_t>(ws);
    return *_workspaceSize;
}

void EngineConfigDescriptor::doGetAttribute(hipdnnBackendAttributeName_t name,
                                            hipdnnBackendAttributeType_t type,
                                            int64_t requested,
                                            int64_t* count,
                                            void* values) const
{
    switch(name)
    {
    case HIPDNN_ATTR_ENGINECFG_ENGINE:
        writeScalar(name, type, HIPDNN_TYPE_BACKEND_DESCRIPTOR, requested, count, values,
                    DescriptorRegistry::toHandle(*_engine));
        return;
    case HIPDNN_ATTR_ENGINECFG_WORKSPACE_SIZE:
        expectType(name, type, HIPDNN_TYPE_INT64);
        writeScalar(name, type, HIPDNN_TYPE_INT64, requested, count, values, workspaceSize());
        return;
    case HIPDNN_ATTR_ENGINECFG_KNOB_CHOICES:
    {
        std::vector<hipdnnBackendDescriptor_t> handles;
        for(const auto& k : _knobs)
        {
            handles.push_back(DescriptorRegistry::toHandle(*k));
        }
        writeArray(name, type, HIPDNN_TYPE_BACKEND_DESCRIPTOR, requested, count, values, handles);
        return;
    }
    default:
        throwUnknownAttribute(name);
    }
}

// ---------------------------------------------------------------------------------------------
// VARIANT_PACK

void VariantPackDescriptor::doSetAttribute(hipdnnBackendAttributeName_t name,
                                           hipdnnBackendAttributeType_t type,
                                           int64_t count,
                                           const void* values)
{
    switch(name)
    {
    case HIPDNN_ATTR_VARIANT_PACK_UNIQUE_IDS:
        _uids = readArray<int64_t>(name, type, HIPDNN_TYPE_INT64, count, values);
        _uidsSet = true;
        return;
    case HIPDNN_ATTR_VARIANT_PACK_DATA_POINTERS:
        _pointers = readArray<void*>(name, type, HIPDNN_TYPE_VOID_PTR, count, values);
        _pointersSet = true;
        return;
    case HIPDNN_ATTR_VARIANT_PACK_WORKSPACE:
        _workspace = readScalar<void*>(name, type, HIPDNN_TYPE_VOID_PTR, count, values);
        return;
    default:
        throwUnknownAttribute(name);
    }
}

void VariantPackDescriptor::doFinalize()
{
    throwIf(!_uidsSet, HIPDNN_STATUS_BAD_PARAM, "HIPDNN_ATTR_VARIANT_PACK_UNIQUE_IDS is not set");
    throwIf(!_pointersSet, HIPDNN_STATUS_BAD_PARAM, "HIPDNN_ATTR_VARIANT_PACK_DATA_POINTERS is not set");
    throwIf(_uids.size() != _pointers.size(), HIPDNN_STATUS_BAD_PARAM,
            std::to_string(_uids.size()) + " unique ids but " + std::to_string(_pointers.size())
                + " data pointers");
    std::set<int64_t> seen;
    for(size_t i = 0; i < _uids.size(); ++i)
    {
        throwIf(!seen.insert(_uids[i]).second, HIPDNN_STATUS_BAD_PARAM,
                "uid " + std::to_string(_uids[i]) + " appears twice in the variant pack");
        throwIf(_pointers[i] == nullptr, HIPDNN_STATUS_BAD_PARAM,
                "data pointer of uid " + std::to_string(_uids[i]) + " is null");
    }
}

void VariantPackDescriptor::doGetAttribute(hipdnnBackendAttributeName_t name,
                                           hipdnnBackendAttributeType_t type,
                                           int64_t requested,
                                           int64_t* count,
                                           void* values) const
{
    switch(name)
    {
    case HIPDNN_ATTR_VARIANT_PACK_UNIQUE_IDS:
        writeArray(name, type, HIPDNN_TYPE_INT64, requested, count, values, _uids);
        return;
    case HIPDNN_ATTR_VARIANT_PACK_DATA_POINTERS:
        writeArray(name, type, HIPDNN_TYPE_VOID_PTR, requested, count, values, _pointers);
        return;
    case HIPDNN_ATTR_VARIANT_PACK_WORKSPACE:
        writeScalar(name, type, HIPDNN_TYPE_VOID_PTR, requested, count, values, _workspace);
        return;
    default:
        throwUnknownAttribute(name);
    }
}

// ---------------------------------------------------------------------------------------------
// EXECUTION_PLAN

ExecutionPlanDescriptor::~ExecutionPlanDescriptor()
{
    if(_context != nullptr && _plugin != nullptr)
    {
        const hipdnnPluginStatus_t st
            = _plugin->library().fn().destroyExecutionContext(_plugin->handle(), _context);
        if(st != HIPDNN_PLUGIN_STATUS_SUCCESS)
        {
            HIPDNN_LOG_WARN(_plugin->library().describeFailure("hipdnnEnginePluginDestroyExecutionContext", st));
        }
    }
}

void ExecutionPlanDescriptor::doSetAttribute(hipdnnBackendAttributeName_t name,
                                             hipdnnBackendAttributeType_t type,
                                             int64_t count,
                                             const void* values)
{
    switch(name)
    {
    case HIPDNN_ATTR_EXECUTION_PLAN_ENGINE_CONFIG:
        _config = readDescriptor<EngineConfigDescriptor>(name, type, count, values,
                                                         HIPDNN_BACKEND_ENGINECFG_DESCRIPTOR);
        return;
    case HIPDNN_ATTR_EXECUTION_PLAN_HANDLE:
        _handleOverride = HandleRegistry::get(
            readScalar<hipdnnHandle_t>(name, type, HIPDNN_TYPE_HANDLE, count, values));
        return;
    default:
        throwUnknownAttribute(name);
    }
}

void ExecutionPlanDescriptor::doFinalize()
{
    throwIf(_config == nullptr, HIPDNN_STATUS_BAD_PARAM, "HIPDNN_ATTR_EXECUTION_PLAN_ENGINE_CONFIG is not set");
    const EngineDescriptor& engine = _config->engine();
    const OperationGraphDescriptor& graphDesc = engine.graph();
    throwIf(_handleOverride != nullptr && _handleOverride != graphDesc.handleState(),
            HIPDNN_STATUS_BAD_PARAM, "the plan's handle differs from its operation graph's handle");
    // An engine listed from a known ranking without a query is asked now (NOT_SUPPORTED when it
    // cannot run the graph; the frontend then builds the next config).
    engine.requireApplicable();
    const EngineEntry& e = engine.entry();
    const auto& fn = e.plugin->library().fn();
    const auto graph = constData(graphDesc.serialized());
    const auto config = constData(_config->serialized());

    // Engine details: verified, checked, released.
    hipdnnPluginConstData_t details{nullptr, 0};
    hipdnnPluginStatus_t st = fn.getEngineDetails(e.plugin->handle(), e.id, &graph, &details);
    throwIf(st != HIPDNN_PLUGIN_STATUS_SUCCESS,
            st == HIPDNN_PLUGIN_STATUS_NOT_APPLICABLE ? HIPDNN_STATUS_NOT_SUPPORTED : HIPDNN_STATUS_PLUGIN_ERROR,
            e.plugin->library().describeFailure("hipdnnEnginePluginGetEngineDetails", st));
    std::string why;
    const auto* root = hipdnn_data_sdk::flatbuffer_utilities::verifyEngineDetails(details.ptr, details.size, why);
    const bool matches = root != nullptr && root->engine_id() == e.id;
    st = fn.destroyEngineDetails(e.plugin->handle(), &details);
    throwIf(root == nullptr, HIPDNN_STATUS_PLUGIN_ERROR,
            "plugin '" + e.plugin->library().name() + "' returned invalid engine details: " + why);
    throwIf(!matches, HIPDNN_STATUS_PLUGIN_ERROR,
            "plugin '" + e.plugin->library().name() + "' returned details of another engine");
    throwIf(st != HIPDNN_PLUGIN_STATUS_SUCCESS, HIPDNN_STATUS_PLUGIN_ERROR,
            e.plugin->library().describeFailure("hipdnnEnginePluginDestroyEngineDetails", st));

    hipdnnEnginePluginExecutionContext_t context = nullptr;
    st = fn.createExecutionContext(e.plugin->handle(), &config, &graph, &context);
    throwIf(st != HIPDNN_PLUGIN_STATUS_SUCCESS || context == nullptr,
            st == HIPDNN_PLUGIN_STATUS_NOT_APPLICABLE ? HIPDNN_STATUS_NOT_SUPPORTED : HIPDNN_STATUS_PLUGIN_ERROR,
            e.plugin->library().describeFailure("hipdnnEnginePluginCreateExecutionContext", st));
    _plugin = e.plugin;
    _context = context;
    size_t ws = 0;
    st = fn.getWorkspaceSizeFromContext(e.plugin->handle(), context, &ws);
    throwIf(st != HIPDNN_PLUGIN_STATUS_SUCCESS, HIPDNN_STATUS_PLUGIN_ERROR,
            e.plugin->library().describeFailure("hipdnnEnginePluginGetWorkspaceSizeFromExecutionContext", st));
    _workspaceSize = static_cast<int64_t>(ws);
    _requiredUids.clear();
    for(const auto* t : *graphDesc.graph().tensors())
    {
        if(!t->virtual_() && t->value_type() == dobj::TensorValue::NONE)
        {
            _requiredUids.push_back(t->uid());
        }
    }
    HIPDNN_LOG_INFO("execution plan built on engine " << e.name << " (workspace " << ws << " bytes)");
}

void ExecutionPlanDescriptor::doGetAttribute(hipdnnBackendAttributeName_t name,
                                             hipdnnBackendAttributeType_t type,
                                             int64_t requested,
                                             int64_t* count,
                                             void* values) const
{
    switch(name)
    {
    case HIPDNN_ATTR_EXECUTION_PLAN_WORKSPACE_SIZE:
        writeScalar(name, type, HIPDNN_TYPE_INT64, requested, count, values, _workspaceSize);
        return;
    case HIPDNN_ATTR_EXECUTION_PLAN_ENGINE_CONFIG:
        writeScalar(name, type, HIPDNN_TYPE_BACKEND_DESCRIPTOR, requested, count, values,
                    DescriptorRegistry::toHandle(*_config));
        return;
    case HIPDNN_ATTR_EXECUTION_PLAN_ENGINE_GLOBAL_INDEX_EXT:
        writeScalar(name, type, HIPDNN_TYPE_INT64, requested, count, values, _config->engine().globalIndex());
        return;
    case HIPDNN_ATTR_EXECUTION_PLAN_TENSOR_UIDS_EXT:
        writeArray(name, type, HIPDNN_TYPE_INT64, requested, count, values, _requiredUids);
        return;
    default:
        throwUnknownAttribute(name);
    }
}

void ExecutionPlanDescriptor::execute(const HandleState& /*caller*/, const VariantPackDescriptor& pack) const
{
    // No heap and no message text on the success path.
    constexpr size_t kInline = 16;
    std::array<hipdnnPluginDeviceBuffer_t, kInline> inlineBuffers; // [0, n) written below
    std::vector<hipdnnPluginDeviceBuffer_t> heapBuffers;
    hipdnnPluginDeviceBuffer_t* buffers = inlineBuffers.data();
    if(_requiredUids.size() > kInline)
    {
        heapBuffers.resize(_requiredUids.size());
        buffers = heapBuffers.data();
    }
    for(size_t i = 0; i < _requiredUids.size(); ++i)
    {
        const int64_t uid = _requiredUids[i];
        auto it = std::find(pack.uids().begin(), pack.uids().end(), uid);
        if(it == pack.uids().end())
        {
            throw HipdnnException(HIPDNN_STATUS_BAD_PARAM,
                                  "the variant pack has no data pointer for tensor uid " + std::to_string(uid));
        }
        buffers[i] = {uid, pack.pointers()[static_cast<size_t>(it - pack.uids().begin())]};
    }
    for(int64_t uid : pack.uids())
    {
        if(std::find(_requiredUids.begin(), _requiredUids.end(), uid) == _requiredUids.end())
        {
            throw HipdnnException(HIPDNN_STATUS_BAD_PARAM, "variant pack uid " + std::to_string(uid)
                                                               + " is not a non-virtual tensor of the graph");
        }
    }
    if(_workspaceSize > 0 && pack.workspace() == nullptr)
    {
        throw HipdnnException(HIPDNN_STATUS_BAD_PARAM, "the plan needs " + std::to_string(_workspaceSize)
                                                           + " workspace bytes but the variant pack has no workspace");
    }
    const hipdnnPluginStatus_t st = _plugin->library().fn().executeOpGraph(
        _plugin->handle(), _context, pack.workspace(), buffers, static_cast<uint32_t>(_requiredUids.size()));
    if(st != HIPDNN_PLUGIN_STATUS_SUCCESS)
    {
        throw HipdnnException(HIPDNN_STATUS_EXECUTION_FAILED,
                              _plugin->library().describeFailure("hipdnnEnginePluginExecuteOpGraph", st));
    }
}

} // namespace hipdnn_backend
