// Softmax composites (hipdnn_plugin_sdk/SoftmaxComposite.hpp: the reduction + pointwise node
// sequences MIOpen Public builds for miopenSoftmax*) through oneDNN's softmax_v2 primitives:
// softmax_accurate for ACCURATE and FAST (MIOpen's FAST skips the max subtraction; the result is
// the same function, except where exp(x) overflows in MIOpen), softmax_log for LOG; backward
// through softmax_v2_backward from y. CHANNEL is oneDNN's softmax axis 1 over the tensors as they
// are; INSTANCE (every dimension but N) views each tensor as [N, rest], which needs the non-N
// dimensions dense and laid out alike in every tensor (else declined).
#include "DnnlGraphUtils.hpp"

#include <hipdnn_plugin_sdk/SoftmaxComposite.hpp>

#include <algorithm>
#include <numeric>

namespace dnnl_provider
{

namespace
{

// The [N, rest] view of an INSTANCE softmax tensor, or a decline.
dnnl::memory::desc instanceView(const dobj::TensorAttributes& t, const std::vector<int64_t>& refStrides)
{
    const auto d = vec(t.dims()), s = vec(t.strides());
    declineIf(s != refStrides, "INSTANCE softmax: " + label(t)
                                   + " is laid out unlike the other tensors (oneDNN runs it as one [N, rest] view)");
    // The non-N dimensions, by increasing stride, must be packed.
    std::vector<size_t> order(d.size() - 1);
    std::iota(order.begin(), order.end(), size_t{1});
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return s[a] < s[b]; });
    int64_t expect = 1;
    for(size_t i : order)
    {
        declineIf(d[i] > 1 && s[i] != expect,
                  "INSTANCE softmax: the non-N dimensions of " + label(t) + " are not dense (oneDNN runs [N, rest])");
        expect *= d[i];
    }
    return dnnl::memory::desc({d[0], expect}, dnnlType(t), {d[0] > 1 ? s[0] : expect, 1});
}

} // namespace

bool isSoftmaxComposite(const GraphView& graph)
{
    std::string why;
    return graph.nodeCount() > 1 && hipdnn_plugin_sdk::matchSoftmaxComposite(graph, why).has_value();
}

void buildSoftmax(const GraphView& graph, PlanRecipe& recipe)
{
    std::string why;
    const auto c = hipdnn_plugin_sdk::matchSoftmaxComposite(graph, why);
    declineIf(!c.has_value(), why);
    using Alg = hipdnn_plugin_sdk::SoftmaxComposite::Algorithm;
    const auto algorithm = c->algorithm == Alg::Log ? dnnl::algorithm::softmax_log : dnnl::algorithm::softmax_accurate;
    const auto& a = graph.tensor(c->aUid);
    const auto& out = graph.tensor(c->outUid);
    auto view = [&](const dobj::TensorAttributes& t) {
        return c->instance ? instanceView(t, vec(out.strides())) : userDesc(t);
    };
    const int axis = 1;
    const auto amd = view(a), outmd = view(out);
    const std::string text = std::string("softmax ") + (c->backward ? "backward " : "forward ")
                             + (c->algorithm == Alg::Log ? "log" : c->algorithm == Alg::Fast ? "fast" : "accurate")
                             + (c->instance ? " instance " : " channel ") + dimsText(vec(out.dims()));
    if(!c->backward)
    {
        const dnnl::softmax_v2_forward::primitive_desc pd(
            dnnl::softmax_v2_forward::desc(dnnl::prop_kind::forward_inference, algorithm, amd, outmd, axis),
            userScratchpadAttr(), DnnlRuntime::engine());
        std::unordered_map<int, dnnl::memory> args;
        args[DNNL_ARG_SRC] = recipe.input(a.uid(), amd, pd.src_desc());
        args[DNNL_ARG_DST] = recipe.output(out.uid(), outmd, pd.dst_desc());
        recipe.describe(text + " [" + pd.impl_info_str() + "]");
        recipe.addPrimitive(dnnl::softmax_v2_forward(pd), pd, std::move(args));
        return;
    }
    const auto& dy = graph.tensor(c->bUid);
    const auto dymd = view(dy);
    const dnnl::softmax_v2_forward::primitive_desc hint(
        dnnl::softmax_v2_forward::desc(dnnl::prop_kind::forward_training, algorithm, amd, amd, axis),
        DnnlRuntime::engine());
    const dnnl::softmax_v2_backward::primitive_desc pd(
        dnnl::softmax_v2_backward::desc(algorithm, outmd, dymd, amd, axis), userScratchpadAttr(),
        DnnlRuntime::engine(), hint);
    std::unordered_map<int, dnnl::memory> args;
    args[DNNL_ARG_DST] = recipe.input(a.uid(), amd, pd.dst_desc());
    args[DNNL_ARG_DIFF_DST] = recipe.input(dy.uid(), dymd, pd.diff_dst_desc());
    args[DNNL_ARG_DIFF_SRC] = recipe.output(out.uid(), outmd, pd.diff_src_desc());
    recipe.describe(text + " [" + pd.impl_info_str() + "]");
    recipe.addPrimitive(dnnl::softmax_v2_backward(pd), pd, std::move(args));
}

} // namespace dnnl_provider
