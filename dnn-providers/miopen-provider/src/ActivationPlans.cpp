// Standalone activations: a unary forward pointwise node through miopenActivationForward_impl, a
// backward one (dx from dy and x) through miopenActivationBackward_impl, which also reads the
// forward output: the plan computes it into the workspace first.
#include "MiopenGraphUtils.hpp"

namespace miopen_provider
{

std::unique_ptr<MiopenPlan> buildActivation(const GraphView& graph, const BuildContext& ctx)
{
    declineIf(graph.nodeCount() != 1, "a pointwise node is run alone or fused after a convolution");
    const auto* p = graph.node(0).attributes_as_PointwiseAttributes();
    const Activation act = activationFor(*p, true);
    const ActivationDesc desc = createActivationDesc();
    checkMiopen(miopenSetActivationDescriptor_impl(desc.get(), act.mode, act.alpha, act.beta, act.gamma),
                "miopenSetActivationDescriptor_impl", HIPDNN_PLUGIN_STATUS_NOT_APPLICABLE);
    miopenHandle_t h = ctx.handle.get();
    if(!act.backward)
    {
        declineIf(p->in_1_tensor_uid().has_value() || p->in_2_tensor_uid().has_value(),
                  "pointwise " + act.text + " with several inputs is not an activation");
        const auto& in = graph.tensor(p->in_0_tensor_uid());
        const auto& out = graph.tensor(p->out_0_tensor_uid());
        declineIf(vec(in.dims()) != vec(out.dims()), "pointwise input and output dims differ (no broadcast here)");
        const TensorDesc xd = tensorDesc(in), yd = tensorDesc(out);
        const int64_t xUid = in.uid(), yUid = out.uid();
        PlanBody body = [=](const Buffers& b) {
            const float one = 1.f, zero = 0.f;
            checkMiopen(miopenActivationForward_impl(h, desc.get(), &one, xd.get(), b.at(xUid), &zero, yd.get(),
                                                     b.at(yUid)),
                        "miopenActivationForward_impl");
        };
        return std::make_unique<MiopenPlan>(ctx.handle, 0, "activation " + act.text, std::move(body));
    }
    declineIf(!p->in_1_tensor_uid().has_value() || p->in_2_tensor_uid().has_value(),
              "pointwise " + act.text + " needs exactly two inputs (dy, x)");
    const auto& dy = graph.tensor(p->in_0_tensor_uid());
    const auto& x = graph.tensor(*p->in_1_tensor_uid());
    const auto& dx = graph.tensor(p->out_0_tensor_uid());
    const auto dims = vec(x.dims());
    declineIf(vec(dy.dims()) != dims || vec(dx.dims()) != dims, "pointwise dy, x and dx dims differ (no broadcast here)");
    const TensorDesc dyd = tensorDesc(dy), xd = tensorDesc(x), dxd = tensorDesc(dx);
    const miopenDataType_t type = miopenType(x);
    const TensorDesc yd = packedDesc(dims, type); // the forward output, in the workspace
    size_t ws = elementSize(type);
    for(int64_t d : dims)
    {
        ws *= static_cast<size_t>(d);
    }
    const int64_t dyUid = dy.uid(), xUid = x.uid(), dxUid = dx.uid();
    PlanBody body = [=](const Buffers& b) {
        const float one = 1.f, zero = 0.f;
        checkMiopen(miopenActivationForward_impl(h, desc.get(), &one, xd.get(), b.at(xUid), &zero, yd.get(),
                                                 b.workspace()),
                    "miopenActivationForward_impl");
        checkMiopen(miopenActivationBackward_impl(h, desc.get(), &one, yd.get(), b.workspace(), dyd.get(), b.at(dyUid),
                                                  xd.get(), b.at(xUid), &zero, dxd.get(), b.at(dxUid)),
                    "miopenActivationBackward_impl");
    };
    return std::make_unique<MiopenPlan>(ctx.handle, ws, "activation " + act.text, std::move(body));
}

} // namespace miopen_provider
