// Pointwise activations: standalone (oneDNN eltwise) and the mapping shared with the convolution
// post-ops. Each hipDNN mode below has an exact oneDNN eltwise algorithm; others are declined.
// Also MIOpen's tensor-op graphs with unit scalars: binary ADD / MUL / MIN_OP / MAX_OP (oneDNN
// binary) and MUL by a pass-by-value scalar (eltwise_linear); and the activations' backward
// (mode_BWD(dy, x): oneDNN eltwise_backward from src) where oneDNN's derivative is the reference's
// everywhere, kinks included.
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

namespace
{

/// The oneDNN eltwise whose backward (from src) is the hipDNN _BWD mode's derivative, value at
/// the kinks included (CpuReferencePointwise: RELU_BWD passes dy on lower < x < upper, dy * slope
/// on x <= lower, 0 on x >= upper; oneDNN's relu backward is x > 0 ? dy : dy * slope and its
/// clip_v2 backward is lower < x < upper ? dy : 0). Modes without such an eltwise are declined.
EltwiseOp eltwiseBackwardFor(const dobj::PointwiseAttributes& p)
{
    using alg = dnnl::algorithm;
    switch(p.operation())
    {
    case dobj::PointwiseMode::RELU_BWD:
    {
        const float lower = p.relu_lower_clip().value_or(0.f);
        const float upper = p.relu_upper_clip().value_or(std::numeric_limits<float>::infinity());
        const float slope = p.relu_lower_clip_slope().value_or(0.f);
        if(lower == 0.f && std::isinf(upper) && upper > 0.f)
        {
            return {alg::eltwise_relu, slope, 0.f};
        }
        // clip_v2's derivative below the lower clip is 0: only a slope of 0 matches.
        declineIf(slope != 0.f, "RELU_BWD with both a clip and a lower-clip slope has no oneDNN eltwise backward");
        declineIf(!(lower < upper), "RELU_BWD with a lower clip not below the upper clip");
        return {alg::eltwise_clip_v2, lower, upper};
    }
    case dobj::PointwiseMode::TANH_BWD: return {alg::eltwise_tanh};
    case dobj::PointwiseMode::SIGMOID_BWD: return {alg::eltwise_logistic};
    case dobj::PointwiseMode::ELU_BWD: return {alg::eltwise_elu, p.elu_alpha().value_or(1.f)};
    case dobj::PointwiseMode::SOFTPLUS_BWD:
        declineIf(p.softplus_beta().value_or(1.f) != 1.f,
                  "SOFTPLUS_BWD with beta != 1: oneDNN 2.6's soft_relu has no beta");
        return {alg::eltwise_soft_relu};
    default: break;
    }
    throw Decline(std::string("pointwise mode ") + dobj::EnumNamePointwiseMode(p.operation())
                  + " is not run by the oneDNN provider (backward: RELU, TANH, SIGMOID, ELU, SOFTPLUS only)");
}

bool isBackwardMode(dobj::PointwiseMode mode)
{
    const std::string name = dobj::EnumNamePointwiseMode(mode);
    return name.size() > 4 && name.compare(name.size() - 4, 4, "_BWD") == 0;
}

/// mode_BWD(dy, x) = dx: oneDNN eltwise_backward from src x with diff_dst dy (its hint a
/// forward_training eltwise over x's layout).
void buildActivationBackward(const GraphView& graph, const dobj::PointwiseAttributes& p, PlanRecipe& recipe)
{
    const EltwiseOp op = eltwiseBackwardFor(p);
    const auto& dy = graph.tensor(p.in_0_tensor_uid());
    const auto& x = graph.tensor(*p.in_1_tensor_uid());
    const auto& dx = graph.tensor(p.out_0_tensor_uid());
    declineIf(dy.value_type() != dobj::TensorValue::NONE || x.value_type() != dobj::TensorValue::NONE,
              std::string("pointwise ") + dobj::EnumNamePointwiseMode(p.operation())
                  + " with a pass-by-value operand is not run by the oneDNN provider");
    const auto dims = vec(dx.dims());
    declineIf(vec(dy.dims()) != dims || vec(x.dims()) != dims,
              "pointwise backward: dy, x and dx dims differ (no broadcast here)");
    const auto xd = userDesc(x), dyd = userDesc(dy), dxd = userDesc(dx);
    const dnnl::eltwise_forward::primitive_desc hint(
        dnnl::eltwise_forward::desc(dnnl::prop_kind::forward_training, op.algorithm, xd, op.alpha, op.beta),
        DnnlRuntime::engine());
    const dnnl::eltwise_backward::primitive_desc pd(
        dnnl::eltwise_backward::desc(op.algorithm, dxd, xd, op.alpha, op.beta), userScratchpadAttr(),
        DnnlRuntime::engine(), hint);
    std::unordered_map<int, dnnl::memory> args;
    args[DNNL_ARG_SRC] = recipe.input(x.uid(), xd, pd.src_desc());
    args[DNNL_ARG_DIFF_DST] = recipe.input(dy.uid(), dyd, pd.diff_dst_desc());
    args[DNNL_ARG_DIFF_SRC] = recipe.output(dx.uid(), dxd, pd.diff_src_desc());
    recipe.describe(std::string("pointwise ") + dobj::EnumNamePointwiseMode(p.operation()) + " ["
                    + pd.impl_info_str() + "]");
    recipe.addPrimitive(dnnl::eltwise_backward(pd), pd, std::move(args));
}

/// MUL(buffer, pass-by-value scalar): miopenScaleTensor's graph, an eltwise_linear (in place when
/// the caller binds input and output to one buffer, as oneDNN eltwise allows).
void buildScale(const GraphView& graph, const dobj::PointwiseAttributes& p, PlanRecipe& recipe)
{
    const auto& in = graph.tensor(p.in_0_tensor_uid());
    const auto& out = graph.tensor(p.out_0_tensor_uid());
    const float s = scalarValue(graph.tensor(*p.in_1_tensor_uid()));
    declineIf(vec(in.dims()) != vec(out.dims()), "pointwise MUL by a scalar: input and output dims differ");
    const auto data = userDesc(in);
    const dnnl::eltwise_forward::primitive_desc pd(
        dnnl::eltwise_forward::desc(dnnl::prop_kind::forward_inference, dnnl::algorithm::eltwise_linear, data, s, 0.f),
        userScratchpadAttr(), DnnlRuntime::engine());
    std::unordered_map<int, dnnl::memory> args;
    args[DNNL_ARG_SRC] = recipe.input(in.uid(), data, pd.src_desc());
    args[DNNL_ARG_DST] = recipe.output(out.uid(), userDesc(out), pd.dst_desc());
    recipe.describe("pointwise MUL by a scalar [" + std::string(pd.impl_info_str()) + "]");
    recipe.addPrimitive(dnnl::eltwise_forward(pd), pd, std::move(args));
}

/// ADD / MUL / MIN_OP / MAX_OP of two buffers (miopenOpTensor's graph with unit scalars): a oneDNN
/// binary, the second operand broadcast over its length-1 dims as oneDNN's binary allows.
void buildBinary(const GraphView& graph, const dobj::PointwiseAttributes& p, PlanRecipe& recipe)
{
    using alg = dnnl::algorithm;
    const auto mode = p.operation();
    const alg a = mode == dobj::PointwiseMode::ADD   ? alg::binary_add
                  : mode == dobj::PointwiseMode::MUL ? alg::binary_mul
                  : mode == dobj::PointwiseMode::MIN_OP ? alg::binary_min
                                                        : alg::binary_max;
    const auto& in0 = graph.tensor(p.in_0_tensor_uid());
    const auto& in1 = graph.tensor(*p.in_1_tensor_uid());
    const auto& out = graph.tensor(p.out_0_tensor_uid());
    const auto dims = vec(out.dims());
    declineIf(vec(in0.dims()) != dims, "pointwise binary: the first input's dims differ from the output's "
                                       "(oneDNN broadcasts the second input only)");
    const auto d1 = vec(in1.dims());
    declineIf(d1.size() != dims.size(), "pointwise binary: the second input's rank differs from the output's");
    for(size_t i = 0; i < dims.size(); ++i)
    {
        declineIf(d1[i] != 1 && d1[i] != dims[i], "pointwise binary: the second input is not broadcastable");
    }
    const auto src0 = userDesc(in0), src1 = userDesc(in1), dst = userDesc(out);
    const dnnl::binary::primitive_desc pd(dnnl::binary::desc(a, src0, src1, dst), userScratchpadAttr(),
                                          DnnlRuntime::engine());
    std::unordered_map<int, dnnl::memory> args;
    args[DNNL_ARG_SRC_0] = recipe.input(in0.uid(), src0, pd.src_desc(0));
    args[DNNL_ARG_SRC_1] = recipe.input(in1.uid(), src1, pd.src_desc(1));
    args[DNNL_ARG_DST] = recipe.output(out.uid(), dst, pd.dst_desc());
    recipe.describe(std::string("pointwise ") + dobj::EnumNamePointwiseMode(mode) + " [" + pd.impl_info_str() + "]");
    recipe.addPrimitive(dnnl::binary(pd), pd, std::move(args));
}

} // namespace

void buildPointwise(const GraphView& graph, PlanRecipe& recipe)
{
    // Scalar blends (MIOpen's alpha != 1 or beta != 0) are chains of MUL / ADD nodes: not run here
    // (oneDNN 2.6 would need scales and a sum post-op, whose prior output must be the output buffer,
    // which a plan cannot know at build time).
    declineIf(graph.nodeCount() != 1, "a pointwise node is run alone or fused after a convolution");
    const auto* p = graph.node(0).attributes_as_PointwiseAttributes();
    const auto mode = p->operation();
    const bool binary = mode == dobj::PointwiseMode::ADD || mode == dobj::PointwiseMode::MUL
                        || mode == dobj::PointwiseMode::MIN_OP || mode == dobj::PointwiseMode::MAX_OP;
    if(binary && p->in_1_tensor_uid().has_value() && !p->in_2_tensor_uid().has_value())
    {
        const auto& in1 = graph.tensor(*p->in_1_tensor_uid());
        if(mode == dobj::PointwiseMode::MUL && in1.value_type() != dobj::TensorValue::NONE)
        {
            buildScale(graph, *p, recipe);
            return;
        }
        declineIf(in1.value_type() != dobj::TensorValue::NONE || graph.tensor(p->in_0_tensor_uid()).value_type()
                                                                     != dobj::TensorValue::NONE,
                  std::string("pointwise ") + dobj::EnumNamePointwiseMode(mode)
                      + " with a pass-by-value operand is not run by the oneDNN provider (MUL by a scalar only)");
        buildBinary(graph, *p, recipe);
        return;
    }
    if(isBackwardMode(mode) && p->in_1_tensor_uid().has_value() && !p->in_2_tensor_uid().has_value())
    {
        buildActivationBackward(graph, *p, recipe);
        return;
    }
    declineIf(p->in_1_tensor_uid().has_value() || p->in_2_tensor_uid().has_value(),
              std::string("pointwise ") + dobj::EnumNamePointwiseMode(p->operation())
                  + " with several inputs is not run by the oneDNN provider (unary activations and "
                    "ADD / MUL / MIN_OP / MAX_OP and activation backward only)");
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
