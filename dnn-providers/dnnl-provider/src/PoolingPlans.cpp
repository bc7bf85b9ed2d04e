// Resample (pooling) graphs through oneDNN's pooling primitives: forward (max, average including
// or excluding padding) and the average modes' backward. oneDNN's max pooling keeps its argmax in
// an opaque workspace of its own, so graphs that ask for hipDNN's index tensor (forward) or read
// it (max backward) are declined, as is max pooling over zero padding (oneDNN never lets a padded
// position win). One exception: max pooling's gradient from x (resample with a virtual index ->
// the resample_bwd reading it), where the index never leaves the graph: pooling_forward
// (forward_training, its workspace in the plan's) then pooling_backward. oneDNN keeps the first
// maximum of a window in window order, as MIOpen does (tested with tie-heavy data).
#include "DnnlGraphUtils.hpp"

#include <optional>

namespace dnnl_provider
{

namespace
{

struct PoolingGeometry
{
    dnnl::algorithm algorithm = dnnl::algorithm::pooling_max;
    dnnl::memory::dims strides, kernel, paddingL, paddingR;
    std::string text;
};

template <typename A>
PoolingGeometry poolingGeometry(const A& a, const std::vector<int64_t>& x, const std::vector<int64_t>& y)
{
    PoolingGeometry g;
    const auto mode = a.resample_mode();
    switch(mode)
    {
    case dobj::ResampleMode::MAXPOOL: g.algorithm = dnnl::algorithm::pooling_max; break;
    case dobj::ResampleMode::AVGPOOL_INCLUDE_PADDING: g.algorithm = dnnl::algorithm::pooling_avg_include_padding; break;
    case dobj::ResampleMode::AVGPOOL_EXCLUDE_PADDING: g.algorithm = dnnl::algorithm::pooling_avg_exclude_padding; break;
    default:
        throw Decline(std::string("resample mode ") + dobj::EnumNameResampleMode(mode)
                      + " is not run by the oneDNN provider (pooling modes only)");
    }
    declineIf(a.padding_mode() == dobj::PaddingMode::EDGE_VAL_PAD,
              "resample padding mode EDGE_VAL_PAD has no oneDNN pooling");
    g.strides = vec(a.stride());
    g.kernel = vec(a.window());
    g.paddingL = vec(a.pre_padding());
    g.paddingR = vec(a.post_padding());
    const size_t spatial = x.size() - 2;
    declineIf(x.size() < 3 || x.size() > 5 || y.size() != x.size(),
              "resample tensors of rank " + std::to_string(x.size()) + ": oneDNN pools 1-D to 3-D");
    declineIf(g.strides.size() != spatial || g.kernel.size() != spatial || g.paddingL.size() != spatial
                  || g.paddingR.size() != spatial,
              "resample window, stride and paddings need one value per spatial dimension");
    bool padded = false;
    for(size_t i = 0; i < spatial; ++i)
    {
        padded = padded || g.paddingL[i] > 0 || g.paddingR[i] > 0;
        declineIf(g.paddingL[i] >= g.kernel[i] || g.paddingR[i] >= g.kernel[i],
                  "resample padding as large as the window: oneDNN requires padding < window");
    }
    declineIf(mode == dobj::ResampleMode::MAXPOOL && padded && a.padding_mode() == dobj::PaddingMode::ZERO_PAD,
              "max pooling over ZERO_PAD padding: oneDNN's max pooling never lets a padded position win "
              "(use NEG_INF_PAD)");
    g.text = std::string(dobj::EnumNameResampleMode(mode)) + " " + std::to_string(spatial) + "-D window "
             + dimsText(g.kernel);
    return g;
}

} // namespace

namespace
{

bool sameGeometry(const dobj::ResampleFwdAttributes& f, const dobj::ResampleBwdAttributes& b)
{
    return vec(f.window()) == vec(b.window()) && vec(f.stride()) == vec(b.stride())
           && vec(f.pre_padding()) == vec(b.pre_padding()) && vec(f.post_padding()) == vec(b.post_padding())
           && f.resample_mode() == b.resample_mode() && f.padding_mode() == b.padding_mode();
}

/// The index uid when the graph is max pooling's gradient from x (resample -> resample_bwd reading
/// the index it generates); declines such a pair whose pooled y or index leaves the graph.
std::optional<int64_t> gradientFromXIndex(const GraphView& graph)
{
    if(graph.nodeCount() != 2)
    {
        return std::nullopt;
    }
    const auto* f = graph.node(0).attributes_as_ResampleFwdAttributes();
    const auto* b = graph.node(1).attributes_as_ResampleBwdAttributes();
    if(f == nullptr || b == nullptr || f->resample_mode() != dobj::ResampleMode::MAXPOOL
       || b->resample_mode() != dobj::ResampleMode::MAXPOOL || !f->index_tensor_uid().has_value()
       || !b->index_tensor_uid().has_value() || *f->index_tensor_uid() != *b->index_tensor_uid())
    {
        return std::nullopt;
    }
    declineIf(!graph.tensor(f->y_tensor_uid()).virtual_() || !graph.tensor(*f->index_tensor_uid()).virtual_(),
              "max pooling's gradient from x with the pooled tensor or the index as a graph output: oneDNN's "
              "workspace cannot be written as hipDNN's index tensor");
    return *f->index_tensor_uid();
}

} // namespace

std::optional<int64_t> declineResampleIndex(const GraphView& graph)
{
    if(const auto index = gradientFromXIndex(graph))
    {
        return index;
    }
    for(size_t n = 0; n < graph.nodeCount(); ++n)
    {
        const auto& node = graph.node(n);
        if(const auto* f = node.attributes_as_ResampleFwdAttributes())
        {
            declineIf(f->index_tensor_uid().has_value() || f->generate_index(),
                      "resample with an index tensor: oneDNN's max-pooling workspace is opaque and cannot be "
                      "written as hipDNN's index tensor");
        }
        if(const auto* b = node.attributes_as_ResampleBwdAttributes())
        {
            declineIf(b->resample_mode() == dobj::ResampleMode::MAXPOOL,
                      "max pooling backward: oneDNN needs its own forward workspace, not hipDNN's index tensor");
        }
    }
    return std::nullopt;
}

/// resample (max, virtual index) -> resample_bwd (max, that index): dx from x and dy. The pooled y
/// and oneDNN's workspace (its argmax) live in the plan's workspace.
void buildMaxPoolGradientFromX(const GraphView& graph, PlanRecipe& recipe)
{
    const auto* f = graph.node(0).attributes_as_ResampleFwdAttributes();
    const auto* b = graph.node(1).attributes_as_ResampleBwdAttributes();
    declineIf(!sameGeometry(*f, *b), "the resample and resample_bwd of max pooling's gradient differ in geometry");
    const auto& x = graph.tensor(f->x_tensor_uid());
    const auto& y = graph.tensor(f->y_tensor_uid());
    const auto& dy = graph.tensor(b->dy_tensor_uid());
    const auto& dx = graph.tensor(b->dx_tensor_uid());
    const auto yDims = vec(y.dims());
    declineIf(vec(dy.dims()) != yDims || vec(dx.dims()) != vec(x.dims()),
              "max pooling's gradient: dy must have the pooled dims and dx x's dims");
    declineIf(x.data_type() != dx.data_type() || dy.data_type() != dx.data_type(),
              "max pooling's gradient: x, dy and dx differ in data type");
    const PoolingGeometry g = poolingGeometry(*f, vec(x.dims()), yDims);
    const auto xd = userDesc(x), dyd = userDesc(dy), dxd = userDesc(dx);
    // The pooled y is laid out as dy (the backward's diff_dst) so that the forward's workspace
    // is indexed as the backward reads it.
    const dnnl::memory::desc yd(yDims, dnnlType(x), vec(dy.strides()));
    const dnnl::pooling_forward::primitive_desc fpd(
        dnnl::pooling_forward::desc(dnnl::prop_kind::forward_training, g.algorithm, xd, yd, g.strides, g.kernel,
                                    g.paddingL, g.paddingR),
        userScratchpadAttr(), DnnlRuntime::engine());
    const dnnl::pooling_backward::primitive_desc bpd(
        dnnl::pooling_backward::desc(g.algorithm, dxd, dyd, g.strides, g.kernel, g.paddingL, g.paddingR),
        userScratchpadAttr(), DnnlRuntime::engine(), fpd);
    const dnnl::memory workspace = recipe.workspace(fpd.workspace_desc());
    std::unordered_map<int, dnnl::memory> fargs;
    fargs[DNNL_ARG_SRC] = recipe.input(x.uid(), xd, fpd.src_desc());
    fargs[DNNL_ARG_DST] = recipe.workspace(fpd.dst_desc());
    fargs[DNNL_ARG_WORKSPACE] = workspace;
    recipe.addPrimitive(dnnl::pooling_forward(fpd), fpd, std::move(fargs));
    std::unordered_map<int, dnnl::memory> bargs;
    bargs[DNNL_ARG_DIFF_DST] = recipe.input(dy.uid(), dyd, bpd.diff_dst_desc());
    bargs[DNNL_ARG_WORKSPACE] = workspace;
    bargs[DNNL_ARG_DIFF_SRC] = recipe.output(dx.uid(), dxd, bpd.diff_src_desc());
    recipe.describe("resample_bwd from x " + g.text + " [" + fpd.impl_info_str() + " / " + bpd.impl_info_str()
                    + "]");
    recipe.addPrimitive(dnnl::pooling_backward(bpd), bpd, std::move(bargs));
}

void buildResampleFwd(const GraphView& graph, PlanRecipe& recipe)
{
    if(gradientFromXIndex(graph).has_value())
    {
        buildMaxPoolGradientFromX(graph, recipe);
        return;
    }
    declineIf(graph.nodeCount() != 1, "a resample node is run alone (no fusion)");
    declineResampleIndex(graph);
    const auto* a = graph.node(0).attributes_as_ResampleFwdAttributes();
    const auto& x = graph.tensor(a->x_tensor_uid());
    const auto& y = graph.tensor(a->y_tensor_uid());
    const PoolingGeometry g = poolingGeometry(*a, vec(x.dims()), vec(y.dims()));
    const auto xd = userDesc(x), yd = userDesc(y);
    const dnnl::pooling_forward::primitive_desc pd(
        dnnl::pooling_forward::desc(dnnl::prop_kind::forward_inference, g.algorithm, xd, yd, g.strides, g.kernel,
                                    g.paddingL, g.paddingR),
        userScratchpadAttr(), DnnlRuntime::engine());
    std::unordered_map<int, dnnl::memory> args;
    args[DNNL_ARG_SRC] = recipe.input(x.uid(), xd, pd.src_desc());
    args[DNNL_ARG_DST] = recipe.output(y.uid(), yd, pd.dst_desc());
    recipe.describe("resample_fwd " + g.text + " [" + pd.impl_info_str() + "]");
    recipe.addPrimitive(dnnl::pooling_forward(pd), pd, std::move(args));
}

void buildResampleBwd(const GraphView& graph, PlanRecipe& recipe)
{
    declineIf(graph.nodeCount() != 1, "a resample node is run alone (no fusion)");
    declineResampleIndex(graph);
    const auto* a = graph.node(0).attributes_as_ResampleBwdAttributes();
    const auto& dy = graph.tensor(a->dy_tensor_uid());
    const auto& dx = graph.tensor(a->dx_tensor_uid());
    const PoolingGeometry g = poolingGeometry(*a, vec(dx.dims()), vec(dy.dims()));
    const auto dyd = userDesc(dy), dxd = userDesc(dx);
    const dnnl::pooling_forward::primitive_desc hint(
        dnnl::pooling_forward::desc(dnnl::prop_kind::forward_training, g.algorithm, dxd, dyd, g.strides, g.kernel,
                                    g.paddingL, g.paddingR),
        DnnlRuntime::engine());
    const dnnl::pooling_backward::primitive_desc pd(
        dnnl::pooling_backward::desc(g.algorithm, dxd, dyd, g.strides, g.kernel, g.paddingL, g.paddingR),
        userScratchpadAttr(), DnnlRuntime::engine(), hint);
    std::unordered_map<int, dnnl::memory> args;
    args[DNNL_ARG_DIFF_DST] = recipe.input(dy.uid(), dyd, pd.diff_dst_desc());
    args[DNNL_ARG_DIFF_SRC] = recipe.output(dx.uid(), dxd, pd.diff_src_desc());
    recipe.describe("resample_bwd " + g.text + " [" + pd.impl_info_str() + "]");
    recipe.addPrimitive(dnnl::pooling_backward(pd), pd, std::move(args));
}

} // namespace dnnl_provider
