#include "DnnlGraphPlans.hpp"

#include "DnnlGraphUtils.hpp"

namespace dnnl_provider
{

namespace
{

void checkTypes(const GraphView& graph, std::optional<int64_t> skipUid)
{
    for(const auto& [uid, t] : graph.tensors())
    {
        if(t->value_type() != dobj::TensorValue::NONE || uid == skipUid)
        {
            continue; // pass-by-value scalars are read at plan build
        }
        (void)dnnlType(*t);
        if(t->data_type() == dobj::DataType::BFLOAT16)
        {
            std::string why;
            declineIf(!DnnlRuntime::bf16Supported(&why), label(*t) + " is bf16: " + why);
        }
    }
    auto checkCompute = [](dobj::DataType type, const std::string& where) {
        declineIf(type != dobj::DataType::FLOAT && type != dobj::DataType::UNSET,
                  where + " compute type " + hipdnn_data_sdk::flatbuffer_utilities::dataTypeName(type)
                      + ": oneDNN computes in fp32 (set FLOAT)");
    };
    checkCompute(graph.graph().compute_data_type(), "graph");
    for(size_t n = 0; n < graph.nodeCount(); ++n)
    {
        checkCompute(graph.node(n).compute_data_type(), "node " + std::to_string(n));
    }
}

void build(const GraphView& graph, PlanRecipe& recipe)
{
    declineIf(graph.nodeCount() == 0, "the graph has no nodes");
    checkTypes(graph, declineResampleIndex(graph));
    const auto kind = graph.node(0).attributes_type();
    switch(kind)
    {
    case dobj::NodeAttributes::ConvolutionFwdAttributes: return buildConvFprop(graph, recipe);
    case dobj::NodeAttributes::ConvolutionBwdAttributes: return buildConvDgrad(graph, recipe);
    case dobj::NodeAttributes::ConvolutionWrwAttributes: return buildConvWgrad(graph, recipe);
    case dobj::NodeAttributes::BatchnormInferenceAttributes:
    case dobj::NodeAttributes::BatchnormInferenceAttributesVarianceExt: return buildBatchnormInference(graph, recipe);
    case dobj::NodeAttributes::BatchnormAttributes: return buildBatchnormTraining(graph, recipe);
    case dobj::NodeAttributes::BatchnormBackwardAttributes: return buildBatchnormBackward(graph, recipe);
    case dobj::NodeAttributes::PointwiseAttributes:
        if(isSoftmaxComposite(graph))
            return buildSoftmax(graph, recipe);
        return buildPointwise(graph, recipe);
    case dobj::NodeAttributes::ResampleFwdAttributes: return buildResampleFwd(graph, recipe);
    case dobj::NodeAttributes::ResampleBwdAttributes: return buildResampleBwd(graph, recipe);
    case dobj::NodeAttributes::ReductionAttributes:
        if(isSoftmaxComposite(graph))
            return buildSoftmax(graph, recipe);
        return buildReduction(graph, recipe);
    default: break;
    }
    throw Decline(std::string("graphs starting with ") + dobj::EnumNameNodeAttributes(kind)
                  + " are not run by the oneDNN provider");
}

} // namespace

std::unique_ptr<DnnlPlan> buildDnnlPlan(const GraphView& graph, std::string& whyNot)
{
    try
    {
        // oneDNN fixes a primitive's thread count when it creates it (e.g. its convolutions'
        // work split): create them under the team size they will execute with.
        DnnlRuntime::applyThreadingPolicy();
        PlanRecipe recipe;
        build(graph, recipe);
        return recipe.finish();
    }
    catch(const Decline& e)
    {
        whyNot = e.what();
    }
    catch(const dnnl::error& e)
    {
        whyNot = e.status == dnnl_unimplemented
                     ? std::string("oneDNN has no implementation for this graph on this CPU (") + e.what() + ")"
                     : std::string("oneDNN rejected the graph: ") + e.what();
    }
    catch(const hipdnn_plugin_sdk::PluginException& e)
    {
        whyNot = e.what(); // e.g. a tensor uid the graph does not define
    }
    return nullptr;
}

} // namespace dnnl_provider
