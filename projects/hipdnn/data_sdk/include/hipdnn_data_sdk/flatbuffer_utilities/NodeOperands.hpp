// The tensor uids a node reads and writes, for every node type of the union. Used to check the
// graph contract and by executors.
#pragma once

#include <hipdnn_data_sdk/flatbuffer_utilities/DataObjects.hpp>

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace hipdnn_data_sdk::flatbuffer_utilities
{

struct NodeOperands
{
    std::vector<int64_t> inputs;
    std::vector<int64_t> outputs;
};

namespace detail
{
inline void addOptional(std::vector<int64_t>& list, const flatbuffers::Optional<int64_t>& uid)
{
    if(uid.has_value())
    {
        list.push_back(*uid);
    }
}
inline void addAll(std::vector<int64_t>& list, const flatbuffers::Vector<int64_t>* uids)
{
    if(uids != nullptr)
    {
        for(auto uid : *uids)
        {
            list.push_back(uid);
        }
    }
}
} // namespace detail

/// Inputs and outputs of a node; throws std::invalid_argument for a node without attributes.
inline NodeOperands nodeOperands(const hipdnn_data_sdk::data_objects::Node& node)
{
    namespace dobj = hipdnn_data_sdk::data_objects;
    NodeOperands ops;
    // A union type with no table (a corrupt or hand-made buffer the Verifier accepts).
    if(node.attributes() == nullptr)
    {
        throw std::invalid_argument("node has no attributes");
    }
    switch(node.attributes_type())
    {
    case dobj::NodeAttributes::ConvolutionFwdAttributes:
    {
        auto* a = node.attributes_as_ConvolutionFwdAttributes();
        ops.inputs = {a->x_tensor_uid(), a->w_tensor_uid()};
        ops.outputs = {a->y_tensor_uid()};
        break;
    }
    case dobj::NodeAttributes::ConvolutionBwdAttributes:
    {
        auto* a = node.attributes_as_ConvolutionBwdAttributes();
        ops.inputs = {a->dy_tensor_uid(), a->w_tensor_uid()};
        ops.outputs = {a->dx_tensor_uid()};
        break;
    }
    case dobj::NodeAttributes::ConvolutionWrwAttributes:
    {
        auto* a = node.attributes_as_ConvolutionWrwAttributes();
        ops.inputs = {a->x_tensor_uid(), a->dy_tensor_uid()};
        ops.outputs = {a->dw_tensor_uid()};
        break;
    }
    case dobj::NodeAttributes::PointwiseAttributes:
    {
        auto* a = node.attributes_as_PointwiseAttributes();
        ops.inputs = {a->in_0_tensor_uid()};
        detail::addOptional(ops.inputs, a->in_1_tensor_uid());
        detail::addOptional(ops.inputs, a->in_2_tensor_uid());
        detail::addOptional(ops.inputs, a->axis_tensor_uid());
        ops.outputs = {a->out_0_tensor_uid()};
        break;
    }
    case dobj::NodeAttributes::BatchnormInferenceAttributes:
    {
        auto* a = node.attributes_as_BatchnormInferenceAttributes();
        ops.inputs = {a->x_tensor_uid(),
                      a->mean_tensor_uid(),
                      a->inv_variance_tensor_uid(),
                      a->scale_tensor_uid(),
                      a->bias_tensor_uid()};
        ops.outputs = {a->y_tensor_uid()};
        break;
    }
    case dobj::NodeAttributes::BatchnormInferenceAttributesVarianceExt:
    {
        auto* a = node.attributes_as_BatchnormInferenceAttributesVarianceExt();
        ops.inputs = {a->x_tensor_uid(),
                      a->mean_tensor_uid(),
                      a->variance_tensor_uid(),
                      a->scale_tensor_uid(),
                      a->bias_tensor_uid(),
                      a->epsilon_tensor_uid()};
        ops.outputs = {a->y_tensor_uid()};
        break;
    }
    case dobj::NodeAttributes::BatchnormAttributes:
    {
        auto* a = node.attributes_as_BatchnormAttributes();
        ops.inputs = {a->x_tensor_uid(), a->scale_tensor_uid(), a->bias_tensor_uid(),
                      a->epsilon_tensor_uid()};
        detail::addAll(ops.inputs, a->peer_stats_tensor_uid());
        detail::addOptional(ops.inputs, a->prev_running_mean_tensor_uid());
        detail::addOptional(ops.inputs, a->prev_running_variance_tensor_uid());
        detail::addOptional(ops.inputs, a->momentum_tensor_uid());
        ops.outputs = {a->y_tensor_uid()};
        detail::addOptional(ops.outputs, a->mean_tensor_uid());
        detail::addOptional(ops.outputs, a->inv_variance_tensor_uid());
        detail::addOptional(ops.outputs, a->next_running_mean_tensor_uid());
        detail::addOptional(ops.outputs, a->next_running_variance_tensor_uid());
        break;
    }
    case dobj::NodeAttributes::BatchnormBackwardAttributes:
    {
        auto* a = node.attributes_as_BatchnormBackwardAttributes();
        ops.inputs = {a->dy_tensor_uid(), a->x_tensor_uid()};
        detail::addOptional(ops.inputs, a->mean_tensor_uid());
        detail::addOptional(ops.inputs, a->inv_variance_tensor_uid());
        ops.inputs.push_back(a->scale_tensor_uid());
        detail::addAll(ops.inputs, a->peer_stats_tensor_uid());
        ops.outputs = {a->dx_tensor_uid(), a->dscale_tensor_uid(), a->dbias_tensor_uid()};
        break;
    }
    case dobj::NodeAttributes::ReductionAttributes:
    {
        auto* a = node.attributes_as_ReductionAttributes();
        ops.inputs = {a->in_tensor_uid()};
        ops.outputs = {a->out_tensor_uid()};
        break;
    }
    case dobj::NodeAttributes::ResampleFwdAttributes:
    {
        auto* a = node.attributes_as_ResampleFwdAttributes();
        ops.inputs = {a->x_tensor_uid()};
        ops.outputs = {a->y_tensor_uid()};
        detail::addOptional(ops.outputs, a->index_tensor_uid());
        break;
    }
    case dobj::NodeAttributes::ResampleBwdAttributes:
    {
        auto* a = node.attributes_as_ResampleBwdAttributes();
        ops.inputs = {a->dy_tensor_uid()};
        detail::addOptional(ops.inputs, a->index_tensor_uid());
        ops.outputs = {a->dx_tensor_uid()};
        break;
    }
    default:
        throw std::invalid_argument("node '" + std::string(node.name() ? node.name()->str() : "")
                                    + "' has no attributes of a known type");
    }
    return ops;
}

} // namespace hipdnn_data_sdk::flatbuffer_utilities
