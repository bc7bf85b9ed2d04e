// Batch normalization over channel dim 1: inference (saved mean + inverse variance, or running
// mean + variance + epsilon), training forward (batch statistics, optional running statistics)
// and backward (saved mean + inverse variance). oneDNN works on f32 [C] per-channel vectors in the
// workspace; host steps convert between them and hipDNN's per-channel tensors (inverse variance
// <-> variance, running statistics with momentum and the unbiased variance).
#include "DnnlGraphUtils.hpp"

#include <cmath>

namespace dnnl_provider
{

namespace
{

using flags = dnnl::normalization_flags;

float* f32(const dnnl::memory& m)
{
    return static_cast<float*>(m.get_data_handle());
}

void declinePeerStats(const flatbuffers::Vector<int64_t>* peers)
{
    declineIf(peers != nullptr && peers->size() != 0, "batchnorm peer statistics are not run by the oneDNN provider");
}

int64_t channelsOf(const dobj::TensorAttributes& x)
{
    const auto d = vec(x.dims());
    declineIf(d.size() < 2, label(x) + " needs a channel dimension");
    return d[1];
}

/// Saved-statistics inference (inverse variance) and the variance-ext form share this.
void buildInference(PlanRecipe& recipe, const dobj::TensorAttributes& x, const dobj::TensorAttributes& y,
                    const ChannelVector& mean, const ChannelVector& second, bool secondIsInverse, float epsilon,
                    const ChannelVector& scale, const ChannelVector& bias, int64_t channels, bool relu)
{
    const auto data = userDesc(x);
    const flags f = relu ? flags::use_global_stats | flags::use_scale | flags::use_shift | flags::fuse_norm_relu
                         : flags::use_global_stats | flags::use_scale | flags::use_shift;
    const dnnl::batch_normalization_forward::primitive_desc pd(
        dnnl::batch_normalization_forward::desc(dnnl::prop_kind::forward_inference, data, epsilon, f),
        userScratchpadAttr(), DnnlRuntime::engine());
    const dnnl::memory m = recipe.workspace(channelDesc(channels)), v = recipe.workspace(channelDesc(channels)),
                       s = recipe.workspace(channelDesc(channels)), b = recipe.workspace(channelDesc(channels));
    recipe.addHostStep([=](const HostContext& ctx) {
        for(int64_t c = 0; c < channels; ++c)
        {
            f32(m)[c] = mean.read(ctx, c);
            const float value = second.read(ctx, c);
            // With epsilon 0, oneDNN's 1/sqrt(variance) gives back the inverse variance.
            f32(v)[c] = secondIsInverse ? 1.f / (value * value) : value;
            f32(s)[c] = scale.read(ctx, c);
            f32(b)[c] = bias.read(ctx, c);
        }
    });
    std::unordered_map<int, dnnl::memory> args;
    args[DNNL_ARG_SRC] = recipe.input(x.uid(), data, pd.src_desc());
    args[DNNL_ARG_MEAN] = m;
    args[DNNL_ARG_VARIANCE] = v;
    args[DNNL_ARG_SCALE] = s;
    args[DNNL_ARG_SHIFT] = b;
    args[DNNL_ARG_DST] = recipe.output(y.uid(), userDesc(y), pd.dst_desc());
    recipe.describe(" [" + std::string(pd.impl_info_str()) + "]");
    recipe.addPrimitive(dnnl::batch_normalization_forward(pd), pd, std::move(args));
}

/// Batchnorm inference followed by one activation node (the fusion plan of miopenExecuteFusionPlan):
/// a plain RELU runs inside the batchnorm primitive (fuse_norm_relu); oneDNN 2.6 has no other
/// activation there, so the rest are declined. Returns the graph's output tensor.
const dobj::TensorAttributes& fusedOutput(const GraphView& graph, const dobj::TensorAttributes& y, bool& relu)
{
    relu = false;
    if(graph.nodeCount() == 1)
    {
        return y;
    }
    declineIf(graph.nodeCount() > 2, "batchnorm inference is run alone or followed by one RELU");
    const auto& next = graph.node(1);
    const auto* pw = next.attributes_as_PointwiseAttributes();
    declineIf(pw == nullptr, std::string("batchnorm inference can only be followed by a RELU, not by ")
                                 + dobj::EnumNameNodeAttributes(next.attributes_type()));
    declineIf(pw->in_1_tensor_uid().has_value() || pw->in_2_tensor_uid().has_value()
                  || pw->in_0_tensor_uid() != y.uid(),
              "the node after batchnorm inference must be a unary activation of its output");
    declineIf(!y.virtual_(), label(y) + " is a graph output and feeds the activation: only virtual intermediates fuse");
    const bool plainRelu = pw->operation() == dobj::PointwiseMode::RELU_FWD
                           && pw->relu_lower_clip().value_or(0.f) == 0.f && !pw->relu_upper_clip().has_value()
                           && pw->relu_lower_clip_slope().value_or(0.f) == 0.f;
    declineIf(!plainRelu, std::string("pointwise ") + dobj::EnumNamePointwiseMode(pw->operation())
                              + " after batchnorm inference: oneDNN 2.6 fuses a plain RELU only (fuse_norm_relu)");
    const auto& out = graph.tensor(pw->out_0_tensor_uid());
    declineIf(vec(out.dims()) != vec(y.dims()), label(out) + " changes the shape of the fused chain");
    relu = true;
    return out;
}

} // namespace

void buildBatchnormInference(const GraphView& graph, PlanRecipe& recipe)
{
    const auto& node = graph.node(0);
    bool relu = false;
    if(const auto* a = node.attributes_as_BatchnormInferenceAttributes())
    {
        const auto& x = graph.tensor(a->x_tensor_uid());
        const int64_t c = channelsOf(x);
        const auto& y = fusedOutput(graph, graph.tensor(a->y_tensor_uid()), relu);
        recipe.describe(relu ? "batchnorm_inference + RELU" : "batchnorm_inference");
        buildInference(recipe, x, y, channelVector(graph.tensor(a->mean_tensor_uid()), c),
                       channelVector(graph.tensor(a->inv_variance_tensor_uid()), c), true, 0.f,
                       channelVector(graph.tensor(a->scale_tensor_uid()), c),
                       channelVector(graph.tensor(a->bias_tensor_uid()), c), c, relu);
        return;
    }
    const auto* a = node.attributes_as_BatchnormInferenceAttributesVarianceExt();
    const auto& x = graph.tensor(a->x_tensor_uid());
    const int64_t c = channelsOf(x);
    const auto& y = fusedOutput(graph, graph.tensor(a->y_tensor_uid()), relu);
    recipe.describe(relu ? "batchnorm_inference (variance) + RELU" : "batchnorm_inference (variance)");
    buildInference(recipe, x, y, channelVector(graph.tensor(a->mean_tensor_uid()), c),
                   channelVector(graph.tensor(a->variance_tensor_uid()), c), false,
                   scalarValue(graph.tensor(a->epsilon_tensor_uid())),
                   channelVector(graph.tensor(a->scale_tensor_uid()), c),
                   channelVector(graph.tensor(a->bias_tensor_uid()), c), c, relu);
}

void buildBatchnormTraining(const GraphView& graph, PlanRecipe& recipe)
{
    declineIf(graph.nodeCount() != 1, "batchnorm training is run alone (no fusion)");
    const auto* a = graph.node(0).attributes_as_BatchnormAttributes();
    declinePeerStats(a->peer_stats_tensor_uid());
    const auto& x = graph.tensor(a->x_tensor_uid());
    const auto& y = graph.tensor(a->y_tensor_uid());
    const int64_t channels = channelsOf(x);
    const float epsilon = scalarValue(graph.tensor(a->epsilon_tensor_uid()));
    const ChannelVector scale = channelVector(graph.tensor(a->scale_tensor_uid()), channels);
    const ChannelVector bias = channelVector(graph.tensor(a->bias_tensor_uid()), channels);

    // Optional outputs: written only when they are graph outputs (not virtual).
    auto optionalOutput = [&](flatbuffers::Optional<int64_t> uid) -> std::optional<ChannelVector> {
        if(!uid.has_value() || graph.tensor(*uid).virtual_())
        {
            return std::nullopt;
        }
        return channelVector(graph.tensor(*uid), channels);
    };
    const auto meanOut = optionalOutput(a->mean_tensor_uid());
    const auto invVarOut = optionalOutput(a->inv_variance_tensor_uid());
    const bool running = a->prev_running_mean_tensor_uid().has_value();
    declineIf(running != a->prev_running_variance_tensor_uid().has_value(),
              "batchnorm running statistics need both the previous mean and variance");
    std::optional<ChannelVector> prevMean, prevVar, nextMean, nextVar;
    float momentum = 0.f;
    if(running)
    {
        declineIf(!a->momentum_tensor_uid().has_value(), "batchnorm running statistics need a momentum");
        momentum = scalarValue(graph.tensor(*a->momentum_tensor_uid()));
        prevMean = channelVector(graph.tensor(*a->prev_running_mean_tensor_uid()), channels);
        prevVar = channelVector(graph.tensor(*a->prev_running_variance_tensor_uid()), channels);
        nextMean = optionalOutput(a->next_running_mean_tensor_uid());
        nextVar = optionalOutput(a->next_running_variance_tensor_uid());
    }
    const auto xd = vec(x.dims());
    int64_t perChannel = 1;
    for(size_t i = 0; i < xd.size(); ++i)
    {
        perChannel *= i == 1 ? 1 : xd[i];
    }

    const auto data = userDesc(x);
    const dnnl::batch_normalization_forward::primitive_desc pd(
        dnnl::batch_normalization_forward::desc(dnnl::prop_kind::forward_training, data, epsilon,
                                                flags::use_scale | flags::use_shift),
        userScratchpadAttr(), DnnlRuntime::engine());
    const dnnl::memory m = recipe.workspace(channelDesc(channels)), v = recipe.workspace(channelDesc(channels)),
                       s = recipe.workspace(channelDesc(channels)), b = recipe.workspace(channelDesc(channels));
    recipe.addHostStep([=](const HostContext& ctx) {
        for(int64_t c = 0; c < channels; ++c)
        {
            f32(s)[c] = scale.read(ctx, c);
            f32(b)[c] = bias.read(ctx, c);
        }
    });
    std::unordered_map<int, dnnl::memory> args;
    args[DNNL_ARG_SRC] = recipe.input(x.uid(), data, pd.src_desc());
    args[DNNL_ARG_SCALE] = s;
    args[DNNL_ARG_SHIFT] = b;
    args[DNNL_ARG_MEAN] = m;
    args[DNNL_ARG_VARIANCE] = v;
    args[DNNL_ARG_DST] = recipe.output(y.uid(), userDesc(y), pd.dst_desc());
    recipe.describe("batchnorm_training [" + std::string(pd.impl_info_str()) + "]");
    recipe.addPrimitive(dnnl::batch_normalization_forward(pd), pd, std::move(args));
    recipe.addHostStep([=](const HostContext& ctx) {
        const double unbias = perChannel > 1 ? static_cast<double>(perChannel) / static_cast<double>(perChannel - 1)
                                             : 1.0;
        for(int64_t c = 0; c < channels; ++c)
        {
            const double mean = f32(m)[c], variance = f32(v)[c];
            if(meanOut) meanOut->write(ctx, c, static_cast<float>(mean));
            if(invVarOut) invVarOut->write(ctx, c, static_cast<float>(1.0 / std::sqrt(variance + epsilon)));
            if(nextMean)
            {
                nextMean->write(ctx, c, static_cast<float>((1.0 - momentum) * prevMean->read(ctx, c) + momentum * mean));
            }
            if(nextVar)
            {
                nextVar->write(ctx, c,
                               static_cast<float>((1.0 - momentum) * prevVar->read(ctx, c) + momentum * variance * unbias));
            }
        }
    });
}

void buildBatchnormBackward(const GraphView& graph, PlanRecipe& recipe)
{
    declineIf(graph.nodeCount() != 1, "batchnorm backward is run alone (no fusion)");
    const auto* a = graph.node(0).attributes_as_BatchnormBackwardAttributes();
    declinePeerStats(a->peer_stats_tensor_uid());
    declineIf(!a->mean_tensor_uid().has_value() || !a->inv_variance_tensor_uid().has_value(),
              "batchnorm backward needs the saved mean and inverse variance");
    const auto& dy = graph.tensor(a->dy_tensor_uid());
    const auto& x = graph.tensor(a->x_tensor_uid());
    const auto& dx = graph.tensor(a->dx_tensor_uid());
    const int64_t channels = channelsOf(x);
    const ChannelVector mean = channelVector(graph.tensor(*a->mean_tensor_uid()), channels);
    const ChannelVector invVar = channelVector(graph.tensor(*a->inv_variance_tensor_uid()), channels);
    const ChannelVector scale = channelVector(graph.tensor(a->scale_tensor_uid()), channels);
    const ChannelVector dscale = channelVector(graph.tensor(a->dscale_tensor_uid()), channels);
    const ChannelVector dbias = channelVector(graph.tensor(a->dbias_tensor_uid()), channels);

    const auto data = userDesc(x);
    const auto diff = userDesc(dy);
    const auto f = flags::use_scale | flags::use_shift;
    const dnnl::batch_normalization_forward::primitive_desc hint(
        dnnl::batch_normalization_forward::desc(dnnl::prop_kind::forward_training, data, 0.f, f),
        DnnlRuntime::engine());
    const dnnl::batch_normalization_backward::primitive_desc pd(
        dnnl::batch_normalization_backward::desc(dnnl::prop_kind::backward, diff, data, 0.f, f), userScratchpadAttr(),
        DnnlRuntime::engine(), hint);
    const dnnl::memory m = recipe.workspace(channelDesc(channels)), v = recipe.workspace(channelDesc(channels)),
                       s = recipe.workspace(channelDesc(channels)), sh = recipe.workspace(channelDesc(channels)),
                       ds = recipe.workspace(channelDesc(channels)), db = recipe.workspace(channelDesc(channels));
    recipe.addHostStep([=](const HostContext& ctx) {
        for(int64_t c = 0; c < channels; ++c)
        {
            f32(m)[c] = mean.read(ctx, c);
            const float iv = invVar.read(ctx, c);
            f32(v)[c] = 1.f / (iv * iv); // epsilon 0: oneDNN's 1/sqrt(variance) is the inverse variance
            f32(s)[c] = scale.read(ctx, c);
            f32(sh)[c] = 0.f; // oneDNN 2.6 takes the shift with use_shift; the gradients do not use it
        }
    });
    std::unordered_map<int, dnnl::memory> args;
    args[DNNL_ARG_SRC] = recipe.input(x.uid(), data, pd.src_desc());
    args[DNNL_ARG_SHIFT] = sh;
    args[DNNL_ARG_DIFF_DST] = recipe.input(dy.uid(), diff, pd.diff_dst_desc());
    args[DNNL_ARG_MEAN] = m;
    args[DNNL_ARG_VARIANCE] = v;
    args[DNNL_ARG_SCALE] = s;
    args[DNNL_ARG_DIFF_SCALE] = ds;
    args[DNNL_ARG_DIFF_SHIFT] = db;
    args[DNNL_ARG_DIFF_SRC] = recipe.output(dx.uid(), userDesc(dx), pd.diff_src_desc());
    recipe.describe("batchnorm_backward [" + std::string(pd.impl_info_str()) + "]");
    recipe.addPrimitive(dnnl::batch_normalization_backward(pd), pd, std::move(args));
    recipe.addHostStep([=](const HostContext& ctx) {
        for(int64_t c = 0; c < channels; ++c)
        {
            dscale.write(ctx, c, f32(ds)[c]);
            dbias.write(ctx, c, f32(db)[c]);
        }
    });
}

} // namespace dnnl_provider
