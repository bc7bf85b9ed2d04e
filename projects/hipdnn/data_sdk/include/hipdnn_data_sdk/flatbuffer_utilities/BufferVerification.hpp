// Every serialized buffer that crosses a boundary (C API, plugin ABI) is checked here before
// any field is read: first the FlatBuffers Verifier, then the graph contract (unique tensor uids,
// every node operand names a tensor, nodes in topological order, connected, no cycles).
#pragma once

#include <hipdnn_data_sdk/flatbuffer_utilities/DataTypeUtils.hpp>
#include <hipdnn_data_sdk/flatbuffer_utilities/NodeOperands.hpp>

#include <cstdint>
#include <map>
#include <numeric>
#include <set>
#include <string>
#include <vector>

namespace hipdnn_data_sdk::flatbuffer_utilities
{

inline constexpr size_t kMaxVerifierDepth = 64;
inline constexpr size_t kMaxVerifierTables = 1000000;

template <typename Root>
inline const Root* verifiedRoot(const void* data, size_t size, const char* what, std::string& why)
{
    if(data == nullptr || size == 0)
    {
        why = std::string(what) + " buffer is empty";
        return nullptr;
    }
    if(size > static_cast<size_t>(FLATBUFFERS_MAX_BUFFER_SIZE))
    {
        why = std::string(what) + " buffer is larger than FlatBuffers allows";
        return nullptr;
    }
    flatbuffers::Verifier verifier(
        static_cast<const uint8_t*>(data), size, kMaxVerifierDepth, kMaxVerifierTables);
    if(!verifier.VerifyBuffer<Root>(nullptr))
    {
        why = std::string(what) + " buffer failed FlatBuffers verification (corrupt or not a "
              + what + ")";
        return nullptr;
    }
    return flatbuffers::GetRoot<Root>(data);
}

/// The FlatBuffers Verifier checks only the 4-byte alignment of a vector's length prefix, so a
/// vector of 64-bit elements whose data sits 4 bytes off an 8-byte boundary passes it, and every
/// element read is then a misaligned load (undefined behaviour; found by the graph fuzzers,
/// fuzz/hipdnn_plugin_graph.cpp). A FlatBuffers writer aligns such vectors to their element size,
/// so a misaligned one means a corrupt buffer.
template <typename T>
inline bool alignedVector(const flatbuffers::Vector<T>* v)
{
    return v == nullptr || reinterpret_cast<std::uintptr_t>(v->data()) % alignof(T) == 0;
}

/// alignedVector for every 64-bit vector a node's attributes hold (the graph schema's [long]s).
inline bool checkNodeVectors(const hipdnn_data_sdk::data_objects::Node& node, size_t n, std::string& why)
{
    namespace dobj = hipdnn_data_sdk::data_objects;
    bool ok = true;
    auto four = [&ok](const auto* a) {
        ok = a == nullptr
             || (alignedVector(a->pre_padding()) && alignedVector(a->post_padding()) && alignedVector(a->stride()));
    };
    if(const auto* a = node.attributes_as_ConvolutionFwdAttributes())
    {
        four(a);
        ok = ok && alignedVector(a->dilation());
    }
    else if(const auto* b = node.attributes_as_ConvolutionBwdAttributes())
    {
        four(b);
        ok = ok && alignedVector(b->dilation());
    }
    else if(const auto* w = node.attributes_as_ConvolutionWrwAttributes())
    {
        four(w);
        ok = ok && alignedVector(w->dilation());
    }
    else if(const auto* rf = node.attributes_as_ResampleFwdAttributes())
    {
        four(rf);
        ok = ok && alignedVector(rf->window());
    }
    else if(const auto* rb = node.attributes_as_ResampleBwdAttributes())
    {
        four(rb);
        ok = ok && alignedVector(rb->window());
    }
    else if(const auto* bn = node.attributes_as_BatchnormAttributes())
    {
        ok = alignedVector(bn->peer_stats_tensor_uid());
    }
    else if(const auto* bb = node.attributes_as_BatchnormBackwardAttributes())
    {
        ok = alignedVector(bb->peer_stats_tensor_uid());
    }
    if(!ok)
    {
        why = "node " + std::to_string(n) + " has a misaligned 64-bit vector (corrupt buffer)";
    }
    return ok;
}

/// Checks that a tensor's description is usable: known data type, dims and strides of equal
/// positive rank, positive dims, non-negative strides.
inline bool checkTensor(const hipdnn_data_sdk::data_objects::TensorAttributes& t, std::string& why)
{
    const std::string label = "tensor uid " + std::to_string(t.uid());
    if(t.dims() == nullptr || t.dims()->size() == 0)
    {
        why = label + " has no dims";
        return false;
    }
    if(!alignedVector(t.dims()) || !alignedVector(t.strides()))
    {
        why = label + " has misaligned dims or strides (corrupt buffer)";
        return false;
    }
    if(t.strides() == nullptr || t.strides()->size() != t.dims()->size())
    {
        why = label + " has " + std::to_string(t.strides() ? t.strides()->size() : 0)
              + " strides for " + std::to_string(t.dims()->size()) + " dims";
        return false;
    }
    // The element count and the span of the addressed elements must fit in int64_t: every
    // engine multiplies dims and strides in int64_t (an overflow there is undefined; found by
    // the graph fuzzers).
    int64_t count = 1;
    int64_t span = 1;
    for(flatbuffers::uoffset_t i = 0; i < t.dims()->size(); ++i)
    {
        if(t.dims()->Get(i) <= 0)
        {
            why = label + " has a non-positive dim at index " + std::to_string(i);
            return false;
        }
        if(t.strides()->Get(i) < 0)
        {
            why = label + " has a negative stride at index " + std::to_string(i);
            return false;
        }
        int64_t extent = 0;
        if(__builtin_mul_overflow(count, t.dims()->Get(i), &count)
           || __builtin_mul_overflow(t.dims()->Get(i) - 1, t.strides()->Get(i), &extent)
           || __builtin_add_overflow(span, extent, &span))
        {
            why = label + " has more elements than int64_t counts";
            return false;
        }
    }
    if(dataTypeSize(t.data_type()) == 0)
    {
        why = label + " has unsupported data type " + dataTypeName(t.data_type());
        return false;
    }
    return true;
}

/// Verifies a serialized Graph and its contract. Returns the root or nullptr with `why` set.
inline const hipdnn_data_sdk::data_objects::Graph*
    verifyGraph(const void* data, size_t size, std::string& why)
{
    namespace dobj = hipdnn_data_sdk::data_objects;
    const dobj::Graph* graph = verifiedRoot<dobj::Graph>(data, size, "Graph", why);
    if(graph == nullptr)
    {
        return nullptr;
    }
    if(graph->tensors() == nullptr || graph->tensors()->size() == 0)
    {
        why = "graph has no tensors";
        return nullptr;
    }
    if(graph->nodes() == nullptr || graph->nodes()->size() == 0)
    {
        why = "graph has no nodes";
        return nullptr;
    }
    std::set<int64_t> uids;
    for(const auto* t : *graph->tensors())
    {
        if(!uids.insert(t->uid()).second)
        {
            why = "duplicate tensor uid " + std::to_string(t->uid());
            return nullptr;
        }
        if(!checkTensor(*t, why))
        {
            return nullptr;
        }
    }
    // Topological order: every input is a graph input or was produced by an earlier node; every
    // tensor is produced at most once.
    std::set<int64_t> produced;
    std::set<int64_t> consumed;
    std::vector<NodeOperands> operands;
    const size_t nodeCount = graph->nodes()->size();
    for(size_t n = 0; n < nodeCount; ++n)
    {
        const dobj::Node* node = graph->nodes()->Get(static_cast<flatbuffers::uoffset_t>(n));
        if(!checkNodeVectors(*node, n, why))
        {
            return nullptr;
        }
        NodeOperands ops;
        try
        {
            ops = nodeOperands(*node);
        }
        catch(const std::exception& e)
        {
            why = e.what();
            return nullptr;
        }
        for(int64_t uid : ops.inputs)
        {
            if(uids.count(uid) == 0)
            {
                why = "node " + std::to_string(n) + " reads unknown tensor uid " + std::to_string(uid);
                return nullptr;
            }
            consumed.insert(uid);
        }
        for(int64_t uid : ops.outputs)
        {
            if(uids.count(uid) == 0)
            {
                why = "node " + std::to_string(n) + " writes unknown tensor uid " + std::to_string(uid);
                return nullptr;
            }
            if(!produced.insert(uid).second)
            {
                why = "tensor uid " + std::to_string(uid) + " is written by more than one node";
                return nullptr;
            }
        }
        operands.push_back(std::move(ops));
    }
    std::set<int64_t> seenOutputs;
    for(size_t n = 0; n < nodeCount; ++n)
    {
        for(int64_t uid : operands[n].inputs)
        {
            if(produced.count(uid) != 0 && seenOutputs.count(uid) == 0)
            {
                why = "nodes are not in topological order (node " + std::to_string(n)
                      + " reads tensor uid " + std::to_string(uid) + " before it is written)";
                return nullptr;
            }
        }
        for(int64_t uid : operands[n].outputs)
        {
            seenOutputs.insert(uid);
        }
    }
    // Connectivity: union-find over nodes sharing a tensor.
    std::vector<size_t> parent(nodeCount);
    std::iota(parent.begin(), parent.end(), size_t{0});
    auto find = [&parent](size_t x) {
        while(parent[x] != x)
        {
            parent[x] = parent[parent[x]];
            x = parent[x];
        }
        return x;
    };
    std::map<int64_t, size_t> firstUser;
    for(size_t n = 0; n < nodeCount; ++n)
    {
        auto link = [&](int64_t uid) {
            auto it = firstUser.find(uid);
            if(it == firstUser.end())
            {
                firstUser.emplace(uid, n);
            }
            else
            {
                parent[find(n)] = find(it->second);
            }
        };
        for(int64_t uid : operands[n].inputs)
        {
            link(uid);
        }
        for(int64_t uid : operands[n].outputs)
        {
            link(uid);
        }
    }
    for(size_t n = 1; n < nodeCount; ++n)
    {
        if(find(n) != find(0))
        {
            why = "graph is not connected (node " + std::to_string(n)
                  + " shares no tensor with node 0's component)";
            return nullptr;
        }
    }
    // Virtual tensors must be produced inside the graph.
    for(const auto* t : *graph->tensors())
    {
        if(t->virtual_() && produced.count(t->uid()) == 0)
        {
            why = "virtual tensor uid " + std::to_string(t->uid()) + " is never written by a node";
            return nullptr;
        }
    }
    return graph;
}

inline const hipdnn_data_sdk::data_objects::EngineConfig*
    verifyEngineConfig(const void* data, size_t size, std::string& why)
{
    return verifiedRoot<hipdnn_data_sdk::data_objects::EngineConfig>(data, size, "EngineConfig", why);
}

inline const hipdnn_data_sdk::data_objects::EngineDetails*
    verifyEngineDetails(const void* data, size_t size, std::string& why)
{
    return verifiedRoot<hipdnn_data_sdk::data_objects::EngineDetails>(
        data, size, "EngineDetails", why);
}

} // namespace hipdnn_data_sdk::flatbuffer_utilities
