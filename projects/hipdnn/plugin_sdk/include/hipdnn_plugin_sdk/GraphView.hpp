// Read-only view of a verified serialized Graph: tensors by uid, nodes in order.
#pragma once

#include <hipdnn_data_sdk/flatbuffer_utilities/BufferVerification.hpp>
#include <hipdnn_plugin_sdk/PluginException.hpp>

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace hipdnn_plugin_sdk
{

class GraphView
{
public:
    /// Verifies the buffer (FlatBuffers Verifier + graph contract); throws BAD_PARAM if invalid.
    static GraphView fromBuffer(const hipdnnPluginConstData_t* data)
    {
        throwIfNot(data != nullptr, HIPDNN_PLUGIN_STATUS_BAD_PARAM, "op graph is null");
        std::string why;
        const auto* graph
            = hipdnn_data_sdk::flatbuffer_utilities::verifyGraph(data->ptr, data->size, why);
        throwIfNot(graph != nullptr, HIPDNN_PLUGIN_STATUS_BAD_PARAM, "invalid op graph: " + why);
        GraphView view(*graph);
        view._buffer = static_cast<const uint8_t*>(data->ptr);
        view._bufferSize = data->size;
        return view;
    }

    explicit GraphView(const hipdnn_data_sdk::data_objects::Graph& graph)
        : _graph(&graph)
    {
        for(const auto* t : *graph.tensors())
        {
            _tensors.emplace(t->uid(), t);
        }
    }

    const hipdnn_data_sdk::data_objects::Graph& graph() const { return *_graph; }
    size_t nodeCount() const { return _graph->nodes()->size(); }
    const hipdnn_data_sdk::data_objects::Node& node(size_t i) const
    {
        return *_graph->nodes()->Get(static_cast<flatbuffers::uoffset_t>(i));
    }
    const std::map<int64_t, const hipdnn_data_sdk::data_objects::TensorAttributes*>& tensors() const
    {
        return _tensors;
    }
    const hipdnn_data_sdk::data_objects::TensorAttributes& tensor(int64_t uid) const
    {
        auto it = _tensors.find(uid);
        throwIfNot(it != _tensors.end(), HIPDNN_PLUGIN_STATUS_BAD_PARAM,
                   "unknown tensor uid " + std::to_string(uid));
        return *it->second;
    }

    /// A copy of the verified serialized graph this view was made from (plans keep one, since
    /// the plugin ABI does not keep the caller's buffer alive).
    std::vector<uint8_t> copyBuffer() const
    {
        throwIfNot(_buffer != nullptr, HIPDNN_PLUGIN_STATUS_INTERNAL_ERROR,
                   "this graph view was not made from a serialized buffer");
        return std::vector<uint8_t>(_buffer, _buffer + _bufferSize);
    }

private:
    const hipdnn_data_sdk::data_objects::Graph* _graph;
    const uint8_t* _buffer = nullptr;
    size_t _bufferSize = 0;
    std::map<int64_t, const hipdnn_data_sdk::data_objects::TensorAttributes*> _tensors;
};

} // namespace hipdnn_plugin_sdk
