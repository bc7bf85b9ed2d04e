// Softmax composites (hipdnn_plugin_sdk/SoftmaxComposite.hpp: the reduction + pointwise node
// sequences MIOpen Public builds for miopenSoftmax*) through MIOpen's softmax:
// miopenSoftmaxForward_V2_impl / miopenSoftmaxBackward_V2_impl with the composite's algorithm and
// mode, alpha 1 and beta 0, any strides, fp32/fp16/bf16. The backward composite of ACCURATE and FAST
// is one formula, run as ACCURATE (MIOpen's two are the same there). Any other graph that starts
// with a reduction is declined: MIOpen Private has no miopenReduceTensor_impl.
#include "MiopenGraphUtils.hpp"

#include <hipdnn_plugin_sdk/SoftmaxComposite.hpp>

namespace miopen_provider
{

bool isSoftmaxComposite(const GraphView& graph)
{
    std::string why;
    return graph.nodeCount() > 1 && hipdnn_plugin_sdk::matchSoftmaxComposite(graph, why).has_value();
}

std::unique_ptr<MiopenPlan> buildSoftmax(const GraphView& graph, const BuildContext& ctx)
{
    std::string why;
    const auto c = hipdnn_plugin_sdk::matchSoftmaxComposite(graph, why);
    declineIf(!c.has_value() && graph.nodeCount() == 1,
              "reduction graphs are not run by the MIOpen provider: MIOpen Private has no miopenReduceTensor_impl");
    declineIf(!c.has_value(), why);
    using Alg = hipdnn_plugin_sdk::SoftmaxComposite::Algorithm;
    const miopenSoftmaxAlgorithm_t algo = c->algorithm == Alg::Fast   ? MIOPEN_SOFTMAX_FAST
                                          : c->algorithm == Alg::Log ? MIOPEN_SOFTMAX_LOG
                                                                     : MIOPEN_SOFTMAX_ACCURATE;
    const miopenSoftmaxMode_t mode = c->instance ? MIOPEN_SOFTMAX_MODE_INSTANCE : MIOPEN_SOFTMAX_MODE_CHANNEL;
    const auto& a = graph.tensor(c->aUid);
    const auto& out = graph.tensor(c->outUid);
    declineIf(miopenType(a) != miopenType(out), "softmax input and output differ in data type");
    const TensorDesc ad = tensorDesc(a), outd = tensorDesc(out);
    const int64_t aUid = c->aUid, bUid = c->bUid, outUid = c->outUid;
    miopenHandle_t h = ctx.handle.get();
    const std::string text = std::string("softmax ") + (c->backward ? "backward " : "forward ")
                             + (algo == MIOPEN_SOFTMAX_FAST ? "fast" : algo == MIOPEN_SOFTMAX_LOG ? "log" : "accurate")
                             + (c->instance ? " instance " : " channel ") + dimsText(vec(out.dims()));
    if(!c->backward)
    {
        PlanBody body = [=](const Buffers& b) {
            const float one = 1.f, zero = 0.f;
            checkMiopen(miopenSoftmaxForward_V2_impl(h, &one, ad.get(), b.at(aUid), &zero, outd.get(), b.at(outUid),
                                                     algo, mode),
                        "miopenSoftmaxForward_V2_impl");
        };
        return std::make_unique<MiopenPlan>(ctx.handle, 0, text, std::move(body));
    }
    const auto& dy = graph.tensor(c->bUid);
    declineIf(miopenType(dy) != miopenType(out), "softmax dy and dx differ in data type");
    const TensorDesc dyd = tensorDesc(dy);
    PlanBody body = [=](const Buffers& b) {
        const float one = 1.f, zero = 0.f;
        checkMiopen(miopenSoftmaxBackward_V2_impl(h, &one, ad.get(), b.at(aUid), dyd.get(), b.at(bUid), &zero,
                                                  outd.get(), b.at(outUid), algo, mode),
                    "miopenSoftmaxBackward_V2_impl");
    };
    return std::make_unique<MiopenPlan>(ctx.handle, 0, text, std::move(body));
}

} // namespace miopen_provider
