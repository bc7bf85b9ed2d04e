// Pointwise activations: standalone (oneDNN eltwise) and the mapping shared with the convolution
// post-ops. Each hipDNN mode below has an exact oneDNN eltwise algorithm; others are declined.
#include "DnnlGraphUtils.hpp"

#include <cmath>
#include <limits>

namespace dnnl_provider
{

EltwiseOp eltwiseFor(const dobj::PointwiseAttributes& p)
{
    using alg = dnnl::algorithm;
    const auto mode = p.operation();
    const std::string name = dobj::EnumNamePointwiseMode(mode);
    switch(mode)
    {
    case dobj::PointwiseMode::RELU_FWD:
    {
        const float lower = p.relu_lower_clip().value_or(0.f);
        const float upper = p.relu_upper_clip().value_or(std::numeric_limits<float>::infinity());
        const float slope = p.relu_lower_clip_slope().value_or(0.f);
        if(lower == 0.f && std::isinf(upper) && upper > 0.f)
        {
            return {alg::eltwise_relu, slope, 0.f}; // leaky when slope != 0
        }
        declineIf(slope != 0.f, "RELU_FWD with both a clip and a lower-clip slope has no oneDNN eltwise");
        declineIf(!(lower <= upper), "RELU_FWD with a lower clip above the upper clip");
        return {alg::eltwise_clip_v2, lower, upper};
    }
    case dobj::PointwiseMode::TANH_FWD: return {alg::eltwise_tanh};
    case dobj::PointwiseMode::SIGMOID_FWD: return {alg::eltwise_logistic};
    case dobj::PointwiseMode::ELU_FWD: return {alg::eltwise_elu, p.elu_alpha().value_or(1.f)};
    case dobj::PointwiseMode::GELU_FWD: return {alg::eltwise_gelu_erf};
    case dobj::PointwiseMode::GELU_APPROX_TANH_FWD: return {alg::eltwise_gelu_tanh};
    case dobj::PointwiseMode::SWISH_FWD: return {alg::eltwise_swish, p.swish_beta().value_or(1.f)};
    case dobj::PointwiseMode::SOFTPLUS_FWD:
        declineIf(p.softplus_beta().value_or(1.f) != 1.f,
                  "SOFTPLUS_FWD with beta != 1: oneDNN 2.6's soft_relu has no beta");
        return {alg::eltwise_soft_relu};
    case dobj::PointwiseMode::ABS: return {alg::eltwise_abs};
    case dobj::PointwiseMode::EXP: return {alg::eltwise_exp};
    case dobj::PointwiseMode::LOG: return {alg::eltwise_log};
    case dobj::PointwiseMode::SQRT: return {alg::eltwise_sqrt};
    case dobj::PointwiseMode::IDENTITY: return {alg::eltwise_linear, 1.f, 0.f};
    case dobj::PointwiseMode::NEG: return {alg::eltwise_linear, -1.f, 0.f};
    case dobj::PointwiseMode::RECIPROCAL: return {alg::eltwise_pow, 1.f, -1.f};
    case dobj::PointwiseMode::RSQRT: return {alg::eltwise_pow, 1.f, -0.5f};
    default: break;
    }
    throw Decline("pointwise mode " + name
                  + " is not run by the oneDNN provider (unary forward activations with a oneDNN eltwise only)");
}

void buildPointwise(const GraphView& graph, PlanRecipe& recipe)
{
    declineIf(graph.nodeCount() != 1, "a pointwise node is run alone or fused after a convolution");
    const auto* p = graph.node(0).attributes_as_PointwiseAttributes();
    declineIf(p->in_1_tensor_uid().has_value() || p->in_2_tensor_uid().has_value(),
              std::string("pointwise ") + dobj::EnumNamePointwiseMode(p->operation())
                  + " with several inputs is not run by the oneDNN provider (unary activations only)");
    const EltwiseOp op = eltwiseFor(*p);
    const auto& in = graph.tensor(p->in_0_tensor_uid());
    const auto& out = graph.tensor(p->out_0_tensor_uid());
    declineIf(vec(in.dims()) != vec(out.dims()), "pointwise input and output dims differ (no broadcast here)");
    const auto data = userDesc(in);
    const dnnl::eltwise_forward::primitive_desc pd(
        dnnl::eltwise_forward::desc(dnnl::prop_kind::forward_inference, op.algorithm, data, op.alpha, op.beta),
        userScratchpadAttr(), DnnlRuntime::engine());
    std::unordered_map<int, dnnl::memory> args;
    args[DNNL_ARG_SRC] = recipe.input(in.uid(), data, pd.src_desc());
    args[DNNL_ARG_DST] = recipe.output(out.uid(), userDesc(out), pd.dst_desc());
    recipe.describe(std::string("pointwise ") + dobj::EnumNamePointwiseMode(p->operation()) + " ["
                    + pd.impl_info_str() + "]");
    recipe.addPrimitive(dnnl::eltwise_forward(pd), pd, std::move(args));
}

} // namespace dnnl_provider
