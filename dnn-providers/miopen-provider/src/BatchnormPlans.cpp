// Batch normalization (spatial mode: statistics per channel, dim 1) through MIOpen's _V2 entry
// points, which take one descriptor per parameter tensor: inference (saved mean + inverse
// variance, or mean + variance + epsilon), training forward (batch statistics, optional running
// statistics) and backward (saved mean + inverse variance).
#include "MiopenGraphUtils.hpp"

#include <hipdnn_data_sdk/types.hpp>

#include <cmath>
#include <optional>

namespace miopen_provider
{

namespace
{

void declinePeerStats(const flatbuffers::Vector<int64_t>* peers)
{
    declineIf(peers != nullptr && peers->size() != 0, "batchnorm peer statistics are not run by the MIOpen provider");
}

int64_t channelsOf(const dobj::TensorAttributes& x)
{
    const auto d = vec(x.dims());
    declineIf(d.size() < 3 || d.size() > 5, label(x) + " has rank " + std::to_string(d.size())
                                                + ": MIOpen's batchnorm takes ranks 3 to 5");
    return d[1];
}

/// The layout of a per-channel tensor (type and the stride of its channel values): MIOpen uses one
/// descriptor for tensors that the _V2 calls pair up (e.g. running and saved mean).
std::pair<dobj::DataType, int64_t> channelLayout(const dobj::TensorAttributes& t)
{
    const auto d = vec(t.dims()), s = vec(t.strides());
    int64_t stride = 1;
    for(size_t i = 0; i < d.size(); ++i)
    {
        if(d[i] != 1)
        {
            stride = s.at(i);
        }
    }
    return {t.data_type(), stride};
}

void requireSameLayout(const dobj::TensorAttributes& a, const dobj::TensorAttributes& b, const std::string& why)
{
    declineIf(channelLayout(a) != channelLayout(b), label(a) + " and " + label(b) + " differ in data type or stride: "
                                                        + why);
}

/// Reads element c of a per-channel fp32/fp16/bf16 tensor (host memory).
float readChannel(const void* base, miopenDataType_t type, int64_t stride, int64_t c)
{
    switch(type)
    {
    case miopenHalf: return static_cast<float>(static_cast<const hipdnn_data_sdk::types::half*>(base)[c * stride]);
    case miopenBFloat16:
        return static_cast<float>(static_cast<const hipdnn_data_sdk::types::bfloat16*>(base)[c * stride]);
    default: return static_cast<const float*>(base)[c * stride];
    }
}

} // namespace

std::unique_ptr<MiopenPlan> buildBatchnormInference(const GraphView& graph, const BuildContext& ctx)
{
    declineIf(graph.nodeCount() > 2, "batchnorm inference is run alone or followed by one activation");
    const auto& node = graph.node(0);
    const dobj::TensorAttributes *x = nullptr, *y = nullptr, *mean = nullptr, *second = nullptr, *scale = nullptr,
                                 *bias = nullptr;
    bool inverse = true;
    double epsilon = 0.0;
    if(const auto* a = node.attributes_as_BatchnormInferenceAttributes())
    {
        x = &graph.tensor(a->x_tensor_uid());
        y = &graph.tensor(a->y_tensor_uid());
        mean = &graph.tensor(a->mean_tensor_uid());
        second = &graph.tensor(a->inv_variance_tensor_uid());
        scale = &graph.tensor(a->scale_tensor_uid());
        bias = &graph.tensor(a->bias_tensor_uid());
    }
    else
    {
        const auto* v = node.attributes_as_BatchnormInferenceAttributesVarianceExt();
        x = &graph.tensor(v->x_tensor_uid());
        y = &graph.tensor(v->y_tensor_uid());
        mean = &graph.tensor(v->mean_tensor_uid());
        second = &graph.tensor(v->variance_tensor_uid());
        scale = &graph.tensor(v->scale_tensor_uid());
        bias = &graph.tensor(v->bias_tensor_uid());
        inverse = false;
        epsilon = scalarValue(graph.tensor(v->epsilon_tensor_uid()));
        declineIf(!(epsilon >= 0.0), "batchnorm epsilon must not be negative");
    }
    // Batchnorm inference -> activation (the fusion plan of miopenExecuteFusionPlan): Private's
    // batchnorm inference writes the graph's output, then Private's activation runs on it in place
    // (elementwise: each element is read before it is written). The intermediate is virtual.
    std::optional<Activation> act;
    if(graph.nodeCount() == 2)
    {
        const auto& next = graph.node(1);
        const auto* pw = next.attributes_as_PointwiseAttributes();
        declineIf(pw == nullptr, std::string("batchnorm inference can only be followed by an activation, not by ")
                                     + dobj::EnumNameNodeAttributes(next.attributes_type()));
        declineIf(pw->in_1_tensor_uid().has_value() || pw->in_2_tensor_uid().has_value(),
                  std::string("pointwise ") + dobj::EnumNamePointwiseMode(pw->operation())
                      + " after batchnorm inference is not fused (a unary activation only)");
        declineIf(pw->in_0_tensor_uid() != y->uid(), "the activation does not read the batchnorm output");
        declineIf(!y->virtual_(), label(*y) + " is a graph output and feeds the activation: only chains with virtual "
                                             "intermediates fuse");
        act = activationFor(*pw, false);
        const auto& out = graph.tensor(pw->out_0_tensor_uid());
        declineIf(vec(out.dims()) != vec(y->dims()), label(out) + " changes the shape of the fused chain");
        declineIf(miopenType(out) != miopenType(*x), label(out) + " must have the input's data type");
        y = &out;
    }
    const int64_t c = channelsOf(*x);
    const size_t rank = vec(x->dims()).size();
    const TensorDesc xd = tensorDesc(*x), yd = tensorDesc(*y), md = channelDesc(*mean, c, rank),
                     sd = channelDesc(*scale, c, rank), bd = channelDesc(*bias, c, rank);
    TensorDesc vd = channelDesc(*second, c, rank);
    size_t ws = 0;
    const auto [secondType, secondStride] = channelLayout(*second);
    (void)secondType;
    const miopenDataType_t secondMiopenType = miopenType(*second);
    if(inverse)
    {
        // MIOpen takes a variance: 1 / inv_variance^2 (fp32, in the workspace) with epsilon 0.
        std::vector<int64_t> dims(rank, 1);
        dims[1] = c;
        vd = packedDesc(dims, miopenFloat);
        ws = static_cast<size_t>(c) * sizeof(float);
    }
    const int64_t xUid = x->uid(), yUid = y->uid(), mUid = mean->uid(), vUid = second->uid(), sUid = scale->uid(),
                  bUid = bias->uid();
    const int64_t stride = secondStride;
    miopenHandle_t h = ctx.handle.get();
    ActivationDesc actDesc;
    if(act)
    {
        actDesc = createActivationDesc();
        checkMiopen(miopenSetActivationDescriptor_impl(actDesc.get(), act->mode, act->alpha, act->beta, act->gamma),
                    "miopenSetActivationDescriptor_impl", HIPDNN_PLUGIN_STATUS_NOT_APPLICABLE);
    }
    PlanBody body = [=](const Buffers& b) {
        void* variance = b.at(vUid);
        if(inverse)
        {
            auto* v = static_cast<float*>(b.workspace());
            for(int64_t k = 0; k < c; ++k)
            {
                const float iv = readChannel(variance, secondMiopenType, stride, k);
                v[k] = 1.f / (iv * iv);
            }
            variance = v;
        }
        float one = 1.f, zero = 0.f;
        checkMiopen(miopenBatchNormalizationForwardInference_V2_impl(
                        h, miopenBNSpatial, &one, &zero, xd.get(), b.at(xUid), yd.get(), b.at(yUid), sd.get(), bd.get(),
                        md.get(), vd.get(), b.at(sUid), b.at(bUid), b.at(mUid), variance, epsilon),
                    "miopenBatchNormalizationForwardInference_V2_impl");
        if(actDesc != nullptr)
        {
            checkMiopen(miopenActivationForward_impl(h, actDesc.get(), &one, yd.get(), b.at(yUid), &zero, yd.get(),
                                                     b.at(yUid)),
                        "miopenActivationForward_impl");
        }
    };
    return std::make_unique<MiopenPlan>(ctx.handle, ws,
                                        std::string("batchnorm_inference") + (inverse ? " (inverse variance)" : " (variance)")
                                            + (act ? " + " + act->text : ""),
                                        std::move(body));
}

std::unique_ptr<MiopenPlan> buildBatchnormTraining(const GraphView& graph, const BuildContext& ctx)
{
    declineIf(graph.nodeCount() != 1, "batchnorm training is run alone (no fusion)");
    const auto* a = graph.node(0).attributes_as_BatchnormAttributes();
    declinePeerStats(a->peer_stats_tensor_uid());
    const auto& x = graph.tensor(a->x_tensor_uid());
    const auto& y = graph.tensor(a->y_tensor_uid());
    const auto& scale = graph.tensor(a->scale_tensor_uid());
    const auto& bias = graph.tensor(a->bias_tensor_uid());
    const int64_t c = channelsOf(x);
    const size_t rank = vec(x.dims()).size();
    const double epsilon = scalarValue(graph.tensor(a->epsilon_tensor_uid()));
    declineIf(!(epsilon >= 0.0), "batchnorm epsilon must not be negative");

    // Optional outputs: written only when they are graph outputs (not virtual).
    auto output = [&](flatbuffers::Optional<int64_t> uid) -> const dobj::TensorAttributes* {
        if(!uid.has_value() || graph.tensor(*uid).virtual_())
        {
            return nullptr;
        }
        return &graph.tensor(*uid);
    };
    const dobj::TensorAttributes* meanOut = output(a->mean_tensor_uid());
    const dobj::TensorAttributes* invVarOut = output(a->inv_variance_tensor_uid());
    const bool running = a->prev_running_mean_tensor_uid().has_value();
    declineIf(running != a->prev_running_variance_tensor_uid().has_value(),
              "batchnorm running statistics need both the previous mean and variance");
    const dobj::TensorAttributes *prevMean = nullptr, *prevVar = nullptr, *nextMean = nullptr, *nextVar = nullptr;
    double momentum = 0.0;
    if(running)
    {
        declineIf(!a->momentum_tensor_uid().has_value(), "batchnorm running statistics need a momentum");
        momentum = scalarValue(graph.tensor(*a->momentum_tensor_uid()));
        prevMean = &graph.tensor(*a->prev_running_mean_tensor_uid());
        prevVar = &graph.tensor(*a->prev_running_variance_tensor_uid());
        nextMean = output(a->next_running_mean_tensor_uid());
        nextVar = output(a->next_running_variance_tensor_uid());
        declineIf(nextMean == nullptr || nextVar == nullptr,
                  "batchnorm running statistics need the next running mean and variance as graph outputs (MIOpen "
                  "updates them in place)");
        requireSameLayout(*nextMean, *nextVar, "MIOpen describes the running statistics alike");
        if(meanOut != nullptr)
        {
            requireSameLayout(*meanOut, *nextMean, "MIOpen describes saved and running means with one descriptor");
        }
        if(invVarOut != nullptr)
        {
            requireSameLayout(*invVarOut, *nextVar, "MIOpen describes saved and running variances with one descriptor");
        }
    }
    const TensorDesc xd = tensorDesc(x), yd = tensorDesc(y), sd = channelDesc(scale, c, rank),
                     bd = channelDesc(bias, c, rank);
    // The mean / variance descriptors: of the running statistics, else of the saved ones, else
    // a float vector (no such output is written).
    std::vector<int64_t> dims(rank, 1);
    dims[1] = c;
    auto statDesc = [&](const dobj::TensorAttributes* runningT, const dobj::TensorAttributes* savedT) {
        if(runningT != nullptr)
        {
            return channelDesc(*runningT, c, rank);
        }
        if(savedT != nullptr)
        {
            return channelDesc(*savedT, c, rank);
        }
        return packedDesc(dims, miopenFloat);
    };
    const TensorDesc md = statDesc(nextMean, meanOut), vd = statDesc(nextVar, invVarOut);
    TensorDesc pmd, pvd;
    if(running)
    {
        pmd = channelDesc(*prevMean, c, rank);
        pvd = channelDesc(*prevVar, c, rank);
    }
    const int64_t xUid = x.uid(), yUid = y.uid(), sUid = scale.uid(), bUid = bias.uid();
    const int64_t meanUid = meanOut ? meanOut->uid() : -1, ivUid = invVarOut ? invVarOut->uid() : -1;
    const int64_t pmUid = prevMean ? prevMean->uid() : -1, pvUid = prevVar ? prevVar->uid() : -1;
    const int64_t nmUid = nextMean ? nextMean->uid() : -1, nvUid = nextVar ? nextVar->uid() : -1;
    miopenHandle_t h = ctx.handle.get();
    PlanBody body = [=](const Buffers& b) {
        float one = 1.f, zero = 0.f;
        void *nm = nullptr, *nv = nullptr;
        if(running)
        {
            // MIOpen updates the running statistics in place: start from the previous ones.
            nm = b.at(nmUid);
            nv = b.at(nvUid);
            checkMiopen(miopenTransformTensor_impl(h, &one, pmd.get(), b.at(pmUid), &zero, md.get(), nm),
                        "miopenTransformTensor_impl");
            checkMiopen(miopenTransformTensor_impl(h, &one, pvd.get(), b.at(pvUid), &zero, vd.get(), nv),
                        "miopenTransformTensor_impl");
        }
        checkMiopen(miopenBatchNormalizationForwardTraining_V2_impl(
                        h, miopenBNSpatial, &one, &zero, xd.get(), b.at(xUid), yd.get(), b.at(yUid), sd.get(), bd.get(),
                        md.get(), vd.get(), b.at(sUid), b.at(bUid), momentum, nm, nv, epsilon,
                        meanUid >= 0 ? b.at(meanUid) : nullptr, ivUid >= 0 ? b.at(ivUid) : nullptr),
                    "miopenBatchNormalizationForwardTraining_V2_impl");
    };
    return std::make_unique<MiopenPlan>(ctx.handle, 0,
                                        std::string("batchnorm_training") + (running ? " (running statistics)" : ""),
                                        std::move(body));
}

std::unique_ptr<MiopenPlan> buildBatchnormBackward(const GraphView& graph, const BuildContext& ctx)
{
    declineIf(graph.nodeCount() != 1, "batchnorm backward is run alone (no fusion)");
    const auto* a = graph.node(0).attributes_as_BatchnormBackwardAttributes();
    declinePeerStats(a->peer_stats_tensor_uid());
    declineIf(!a->mean_tensor_uid().has_value() || !a->inv_variance_tensor_uid().has_value(),
              "batchnorm backward needs the saved mean and inverse variance");
    const auto& dy = graph.tensor(a->dy_tensor_uid());
    const auto& x = graph.tensor(a->x_tensor_uid());
    const auto& dx = graph.tensor(a->dx_tensor_uid());
    const auto& mean = graph.tensor(*a->mean_tensor_uid());
    const auto& invVar = graph.tensor(*a->inv_variance_tensor_uid());
    const auto& scale = graph.tensor(a->scale_tensor_uid());
    const auto& dscale = graph.tensor(a->dscale_tensor_uid());
    const auto& dbias = graph.tensor(a->dbias_tensor_uid());
    requireSameLayout(scale, dscale, "MIOpen describes the scale and its gradient with one descriptor");
    const int64_t c = channelsOf(x);
    const size_t rank = vec(x.dims()).size();
    const TensorDesc xd = tensorDesc(x), dyd = tensorDesc(dy), dxd = tensorDesc(dx), sd = channelDesc(scale, c, rank),
                     dbd = channelDesc(dbias, c, rank), md = channelDesc(mean, c, rank),
                     vd = channelDesc(invVar, c, rank);
    (void)channelDesc(dscale, c, rank); // declines a dscale that is not a per-channel vector
    const int64_t xUid = x.uid(), dyUid = dy.uid(), dxUid = dx.uid(), sUid = scale.uid(), dsUid = dscale.uid(),
                  dbUid = dbias.uid(), mUid = mean.uid(), ivUid = invVar.uid();
    miopenHandle_t h = ctx.handle.get();
    PlanBody body = [=](const Buffers& b) {
        const float one = 1.f, zero = 0.f;
        checkMiopen(miopenBatchNormalizationBackward_V2_impl(
                        h, miopenBNSpatial, &one, &zero, &one, &zero, xd.get(), b.at(xUid), dyd.get(), b.at(dyUid),
                        dxd.get(), b.at(dxUid), sd.get(), dbd.get(), md.get(), vd.get(), b.at(sUid), b.at(dsUid),
                        b.at(dbUid), 0.0, b.at(mUid), b.at(ivUid)),
                    "miopenBatchNormalizationBackward_V2_impl");
    };
    return std::make_unique<MiopenPlan>(ctx.handle, 0, "batchnorm_backward", std::move(body));
}

} // namespace miopen_provider
