#include "OperationGraphDescriptor.hpp"

#include "AttributeIo.hpp"
#include "TensorDescriptor.hpp"

#include <hipdnn_data_sdk/flatbuffer_utilities/BufferVerification.hpp>
#include <hipdnn_data_sdk/flatbuffer_utilities/DataTypeUtils.hpp>

#include <map>

namespace hipdnn_backend
{

namespace dobj = hipdnn_data_sdk::data_objects;

void OperationGraphDescriptor::loadSerialized(const uint8_t* data, size_t size)
{
    std::string why;
    const bool valid = hipdnn_data_sdk::flatbuffer_utilities::verifyGraph(data, size, why) != nullptr;
    throwIf(!valid, HIPDNN_STATUS_BAD_PARAM, "invalid serialized graph: " + why);
    // The wire verification checks signs; sizes must also fit, as for tensor descriptors.
    const auto* tensors = flatbuffers::GetRoot<dobj::Graph>(data)->tensors();
    for(flatbuffers::uoffset_t i = 0; tensors != nullptr && i < tensors->size(); ++i)
    {
        const auto* t = tensors->Get(i);
        throwIf(tensorSizeOverflows(*t->dims(), *t->strides(),
                                    static_cast<int64_t>(hipdnn_data_sdk::flatbuffer_utilities::dataTypeSize(t->data_type()))),
                HIPDNN_STATUS_BAD_PARAM,
                "invalid serialized graph: tensor uid " + std::to_string(t->uid())
                    + ": element count or byte size overflows int64");
    }
    _serialized.assign(data, data + size);
    _fromSerialized = true;
}

const dobj::Graph& OperationGraphDescriptor::graph() const
{
    return *flatbuffers::GetRoot<dobj::Graph>(_serialized.data());
}

std::optional<int64_t> OperationGraphDescriptor::preferredEngineId() const
{
    const auto preferred = graph().preferred_engine_id();
    if(preferred.has_value())
    {
        return *preferred;
    }
    return std::nullopt;
}

void OperationGraphDescriptor::doSetAttribute(hipdnnBackendAttributeName_t name,
                                              hipdnnBackendAttributeType_t type,
                                              int64_t count,
                                              const void* values)
{
    const bool graphContent = name != HIPDNN_ATTR_OPERATIONGRAPH_HANDLE;
    throwIf(_fromSerialized && graphContent, HIPDNN_STATUS_BAD_PARAM,
            "a deserialized graph only accepts HIPDNN_ATTR_OPERATIONGRAPH_HANDLE");
    switch(name)
    {
    case HIPDNN_ATTR_OPERATIONGRAPH_HANDLE:
    {
        auto handle = readScalar<hipdnnHandle_t>(name, type, HIPDNN_TYPE_HANDLE, count, values);
        _handleState = HandleRegistry::get(handle);
        _handle = handle;
        return;
    }
    case HIPDNN_ATTR_OPERATIONGRAPH_OPS:
    {
        const auto handles = readArray<hipdnnBackendDescriptor_t>(
            name, type, HIPDNN_TYPE_BACKEND_DESCRIPTOR, count, values);
        std::vector<std::shared_ptr<OperationDescriptor>> ops;
        for(size_t i = 0; i < handles.size(); ++i)
        {
            auto base = DescriptorRegistry::get(handles[i]);
            throwIf(findOperationSpec(base->type()) == nullptr, HIPDNN_STATUS_BAD_PARAM,
                    "operation " + std::to_string(i) + " is a " + base->typeName()
                        + ", not an operation descriptor");
            throwIf(!base->isFinalized(), HIPDNN_STATUS_BAD_PARAM_NOT_FINALIZED,
                    "operation " + std::to_string(i) + " (" + base->typeName() + ") is not finalized");
            ops.push_back(std::static_pointer_cast<OperationDescriptor>(base));
        }
        _ops = std::move(ops);
        return;
    }
    case HIPDNN_ATTR_OPERATIONGRAPH_COMPUTE_DATA_TYPE_EXT:
        _compute = readDataType(name, type, count, values);
        return;
    case HIPDNN_ATTR_OPERATIONGRAPH_INTERMEDIATE_DATA_TYPE_EXT:
        _intermediate = readDataType(name, type, count, values);
        return;
    case HIPDNN_ATTR_OPERATIONGRAPH_IO_DATA_TYPE_EXT:
        _io = readDataType(name, type, count, values);
        return;
    case HIPDNN_ATTR_OPERATIONGRAPH_PREFERRED_ENGINE_ID_EXT:
        _preferredEngine = readScalar<int64_t>(name, type, HIPDNN_TYPE_INT64, count, values);
        return;
    case HIPDNN_ATTR_OPERATIONGRAPH_NAME_EXT:
    {
        const auto chars = readArray<char>(name, type, HIPDNN_TYPE_CHAR, count, values);
        _name.assign(chars.begin(), std::find(chars.begin(), chars.end(), '\0'));
        return;
    }
    default:
        throwUnknownAttribute(name);
    }
}

void OperationGraphDescriptor::doGetAttribute(hipdnnBackendAttributeName_t name,
                                              hipdnnBackendAttributeType_t type,
                                              int64_t requested,
                                              int64_t* count,
                                              void* values) const
{
    const auto& g = graph();
    switch(name)
    {
    case HIPDNN_ATTR_OPERATIONGRAPH_HANDLE:
        writeScalar(name, type, HIPDNN_TYPE_HANDLE, requested, count, values, _handle);
        return;
    case HIPDNN_ATTR_OPERATIONGRAPH_ENGINE_GLOBAL_COUNT:
        writeScalar(name, type, HIPDNN_TYPE_INT64, requested, count, values,
                    static_cast<int64_t>(_handleState->engines().size()));
        return;
    case HIPDNN_ATTR_OPERATIONGRAPH_OPS:
    {
        std::vector<hipdnnBackendDescriptor_t> handles;
        for(const auto& op : _ops)
        {
            handles.push_back(DescriptorRegistry::toHandle(*op));
        }
        writeArray(name, type, HIPDNN_TYPE_BACKEND_DESCRIPTOR, requested, count, values, handles);
        return;
    }
    case HIPDNN_ATTR_OPERATIONGRAPH_COMPUTE_DATA_TYPE_EXT:
        writeScalar(name, type, HIPDNN_TYPE_DATA_TYPE, requested, count, values,
                    fromWireDataType(g.compute_data_type()));
        return;
    case HIPDNN_ATTR_OPERATIONGRAPH_INTERMEDIATE_DATA_TYPE_EXT:
        writeScalar(name, type, HIPDNN_TYPE_DATA_TYPE, requested, count, values,
                    fromWireDataType(g.intermediate_data_type()));
        return;
    case HIPDNN_ATTR_OPERATIONGRAPH_IO_DATA_TYPE_EXT:
        writeScalar(name, type, HIPDNN_TYPE_DATA_TYPE, requested, count, values,
                    fromWireDataType(g.io_data_type()));
        return;
    case HIPDNN_ATTR_OPERATIONGRAPH_PREFERRED_ENGINE_ID_EXT:
    {
        const auto preferred = preferredEngineId();
        throwIf(!preferred.has_value(), HIPDNN_STATUS_BAD_PARAM, "the graph names no preferred engine");
        writeScalar(name, type, HIPDNN_TYPE_INT64, requested, count, values, *preferred);
        return;
    }
    case HIPDNN_ATTR_OPERATIONGRAPH_NAME_EXT:
        writeString(name, type, requested, count, values, g.name() ? g.name()->str() : std::string());
        return;
    default:
        throwUnknownAttribute(name);
    }
}

void OperationGraphDescriptor::buildFromOperations()
{
    throwIf(_ops.empty(), HIPDNN_STATUS_BAD_PARAM, "the graph has no operations (set OPERATIONGRAPH_OPS)");
    // Tensors in first-use order; the same uid must describe the same tensor everywhere.
    std::vector<std::shared_ptr<TensorDescriptor>> tensors;
    std::map<int64_t, std::shared_ptr<TensorDescriptor>> byUid;
    for(const auto& op : _ops)
    {
        for(const auto& t : op->tensors())
        {
            auto it = byUid.find(t->uid());
            if(it == byUid.end())
            {
                byUid.emplace(t->uid(), t);
                tensors.push_back(t);
            }
            else
            {
                throwIf(it->second != t && !it->second->sameAs(*t), HIPDNN_STATUS_BAD_PARAM,
                        "two different tensors share uid " + std::to_string(t->uid()));
            }
        }
    }
    const dobj::DataType compute = _compute.value_or(dobj::DataType::FLOAT);
    flatbuffers::FlatBufferBuilder fbb;
    std::vector<flatbuffers::Offset<dobj::TensorAttributes>> tensorOffsets;
    for(const auto& t : tensors)
    {
        tensorOffsets.push_back(t->serialize(fbb));
    }
    std::vector<flatbuffers::Offset<dobj::Node>> nodeOffsets;
    for(size_t i = 0; i < _ops.size(); ++i)
    {
        nodeOffsets.push_back(_ops[i]->serialize(fbb, compute, i));
    }
    auto graph = dobj::CreateGraphDirect(fbb,
                                         _name.c_str(),
                                         compute,
                                         _intermediate.value_or(compute),
                                         _io.value_or(dobj::DataType::UNSET),
                                         &tensorOffsets,
                                         &nodeOffsets,
                                         _preferredEngine.has_value()
                                             ? flatbuffers::Optional<int64_t>(*_preferredEngine)
                                             : flatbuffers::nullopt);
    fbb.Finish(graph);
    const uint8_t* data = fbb.GetBufferPointer();
    std::string why;
    const bool valid = hipdnn_data_sdk::flatbuffer_utilities::verifyGraph(data, fbb.GetSize(), why) != nullptr;
    throwIf(!valid, HIPDNN_STATUS_BAD_PARAM, "the operations do not form a valid graph: " + why);
    _serialized.assign(data, data + fbb.GetSize());
}

void OperationGraphDescriptor::doFinalize()
{
    throwIf(_handleState == nullptr, HIPDNN_STATUS_BAD_PARAM,
            "HIPDNN_ATTR_OPERATIONGRAPH_HANDLE is not set");
    if(!_fromSerialized)
    {
        buildFromOperations();
    }
}

} // namespace hipdnn_backend
