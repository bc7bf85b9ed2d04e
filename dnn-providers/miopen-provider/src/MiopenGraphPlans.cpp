#include "MiopenGraphPlans.hpp"

#include "MiopenGraphUtils.hpp"

namespace miopen_provider
{

namespace
{

std::unique_ptr<MiopenPlan> build(const GraphView& graph, const BuildContext& ctx)
{
    declineIf(graph.nodeCount() == 0, "the graph has no nodes");
    checkComputeTypes(graph);
    const auto kind = graph.node(0).attributes_type();
    const bool isConv = kind == dobj::NodeAttributes::ConvolutionFwdAttributes
                        || kind == dobj::NodeAttributes::ConvolutionBwdAttributes
                        || kind == dobj::NodeAttributes::ConvolutionWrwAttributes;
    declineIf(ctx.deterministic && !isConv,
              std::string("MIOPEN_ENGINE_DETERMINISTIC runs convolutions only, not ")
                  + dobj::EnumNameNodeAttributes(kind));
    switch(kind)
    {
    case dobj::NodeAttributes::ConvolutionFwdAttributes: return buildConvFprop(graph, ctx);
    case dobj::NodeAttributes::ConvolutionBwdAttributes: return buildConvDgrad(graph, ctx);
    case dobj::NodeAttributes::ConvolutionWrwAttributes: return buildConvWgrad(graph, ctx);
    case dobj::NodeAttributes::BatchnormInferenceAttributes:
    case dobj::NodeAttributes::BatchnormInferenceAttributesVarianceExt: return buildBatchnormInference(graph, ctx);
    case dobj::NodeAttributes::BatchnormAttributes: return buildBatchnormTraining(graph, ctx);
    case dobj::NodeAttributes::BatchnormBackwardAttributes: return buildBatchnormBackward(graph, ctx);
    case dobj::NodeAttributes::PointwiseAttributes:
        if(isSoftmaxComposite(graph))
            return buildSoftmax(graph, ctx);
        return buildActivation(graph, ctx);
    case dobj::NodeAttributes::ResampleFwdAttributes: return buildResampleFwd(graph, ctx);
    case dobj::NodeAttributes::ResampleBwdAttributes: return buildResampleBwd(graph, ctx);
    case dobj::NodeAttributes::ReductionAttributes: return buildSoftmax(graph, ctx);
    default: break;
    }
    throw Decline(std::string("graphs starting with ") + dobj::EnumNameNodeAttributes(kind)
                  + " are not run by the MIOpen provider");
}

} // namespace

std::unique_ptr<MiopenPlan> buildMiopenPlan(const GraphView& graph, bool deterministic, std::string& whyNot)
{
    try
    {
        BuildContext ctx;
        ctx.deterministic = deterministic;
        ctx.handle = createHandle();
        return build(graph, ctx);
    }
    catch(const Decline& e)
    {
        whyNot = e.what();
    }
    catch(const hipdnn_plugin_sdk::PluginException& e)
    {
        whyNot = e.what(); // e.g. a tensor uid the graph does not define, or a MIOpen call that failed
    }
    return nullptr;
}

} // namespace miopen_provider
