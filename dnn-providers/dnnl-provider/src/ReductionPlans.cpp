// Reduction graphs through oneDNN's reduction primitive: ADD (sum), MUL, MIN_OP, MAX_OP, AVG
// (mean), NORM1 and NORM2 (lp norms with p = 1, 2 and no epsilon). AMAX and MUL_NO_ZEROS have no
// oneDNN algorithm and are declined. Reduced dimensions are those where the output is 1.
#include "DnnlGraphUtils.hpp"

namespace dnnl_provider
{

void buildReduction(const GraphView& graph, PlanRecipe& recipe)
{
    declineIf(graph.nodeCount() != 1, "a reduction node is run alone (no fusion)");
    const auto* a = graph.node(0).attributes_as_ReductionAttributes();
    using alg = dnnl::algorithm;
    alg algorithm = alg::reduction_sum;
    float p = 0.f;
    switch(a->mode())
    {
    case dobj::ReductionMode::ADD: algorithm = alg::reduction_sum; break;
    case dobj::ReductionMode::MUL: algorithm = alg::reduction_mul; break;
    case dobj::ReductionMode::MIN_OP: algorithm = alg::reduction_min; break;
    case dobj::ReductionMode::MAX_OP: algorithm = alg::reduction_max; break;
    case dobj::ReductionMode::AVG: algorithm = alg::reduction_mean; break;
    case dobj::ReductionMode::NORM1:
        algorithm = alg::reduction_norm_lp_sum;
        p = 1.f;
        break;
    case dobj::ReductionMode::NORM2:
        algorithm = alg::reduction_norm_lp_sum;
        p = 2.f;
        break;
    default:
        throw Decline(std::string("reduction mode ") + dobj::EnumNameReductionMode(a->mode())
                      + " has no oneDNN reduction algorithm");
    }
    const auto& in = graph.tensor(a->in_tensor_uid());
    const auto& out = graph.tensor(a->out_tensor_uid());
    const auto inDims = vec(in.dims()), outDims = vec(out.dims());
    declineIf(inDims.size() != outDims.size(), "reduction input and output differ in rank");
    for(size_t i = 0; i < inDims.size(); ++i)
    {
        declineIf(outDims[i] != inDims[i] && outDims[i] != 1,
                  "reduction output dim " + std::to_string(i) + " is neither the input's nor 1");
    }
    declineIf(inDims == outDims, "a reduction that reduces no dimension: oneDNN's reduction needs one");
    const auto src = userDesc(in), dst = userDesc(out);
    const dnnl::reduction::primitive_desc pd(dnnl::reduction::desc(algorithm, src, dst, p, 0.f),
                                             userScratchpadAttr(), DnnlRuntime::engine());
    std::unordered_map<int, dnnl::memory> args;
    args[DNNL_ARG_SRC] = recipe.input(in.uid(), src, pd.src_desc());
    args[DNNL_ARG_DST] = recipe.output(out.uid(), dst, pd.dst_desc());
    recipe.describe(std::string("reduction ") + dobj::EnumNameReductionMode(a->mode()) + " " + dimsText(inDims)
                    + " -> " + dimsText(outDims) + " [" + pd.impl_info_str() + "]");
    recipe.addPrimitive(dnnl::reduction(pd), pd, std::move(args));
}

} // namespace dnnl_provider
