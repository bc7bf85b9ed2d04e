// Resample (pooling) graphs through MIOpen's pooling: miopenPoolingForward_impl and
// miopenPoolingBackward_impl, 2-D and 3-D, any strides (NCHW, NHWC, NCDHW, NDHWC), fp32/fp16/bf16.
// hipDNN's index tensor (INT32, packed, dy's dims) is MIOpen's max-pooling workspace in index mode
// Image with uint32 indices: both name the flattened spatial position in x. Declined, with the
// reason: 1-D pooling, post padding that changes MIOpen's output length (MIOpen pads
// symmetrically), padding as large as the window (MIOpen gives index 0 where hipDNN gives -1),
// max pooling over ZERO_PAD padding (MIOpen never lets a padded position win), EDGE_VAL_PAD,
// the resampling modes (BILINEAR, NEAREST), and index tensors that are not packed INT32.
// Reduction graphs: MIOpen Private has no miopenReduceTensor_impl, so they are declined.
// Max pooling's gradient from x (the graph MIOpen Public forwards miopenPoolingBackward as): a
// max resample of x that generates its index tensor, and the max resample_bwd of dy that reads
// it, the pooled y and the index virtual; run as miopenPoolingForward_impl with do_backward into
// the plan's workspace, then miopenPoolingBackward_impl over those indices.
#include "MiopenGraphUtils.hpp"

#include <hipdnn_data_sdk/utilities/ShapeUtilities.hpp>

#include <climits>

namespace miopen_provider
{

namespace
{

using PoolingDesc = std::shared_ptr<std::remove_pointer_t<miopenPoolingDescriptor_t>>;

struct Pooling
{
    PoolingDesc desc;
    bool isMax = false;
    std::string text;
};

template <typename A>
Pooling poolingFor(const A& a, const dobj::TensorAttributes& x, const dobj::TensorAttributes& y)
{
    Pooling p;
    miopenPoolingMode_t mode = miopenPoolingMax;
    switch(a.resample_mode())
    {
    case dobj::ResampleMode::MAXPOOL: mode = miopenPoolingMax; break;
    case dobj::ResampleMode::AVGPOOL_EXCLUDE_PADDING: mode = miopenPoolingAverage; break;
    case dobj::ResampleMode::AVGPOOL_INCLUDE_PADDING: mode = miopenPoolingAverageInclusive; break;
    default:
        throw Decline(std::string("resample mode ") + dobj::EnumNameResampleMode(a.resample_mode())
                      + " is not a MIOpen pooling mode");
    }
    p.isMax = mode == miopenPoolingMax;
    declineIf(a.padding_mode() == dobj::PaddingMode::EDGE_VAL_PAD, "MIOpen's pooling has no EDGE_VAL_PAD padding");
    const auto xd = vec(x.dims()), yd = vec(y.dims());
    declineIf(xd.size() != 4 && xd.size() != 5,
              label(x) + " has rank " + std::to_string(xd.size()) + ": MIOpen pools 2-D (rank 4) and 3-D (rank 5)");
    const size_t spatial = xd.size() - 2;
    const auto window = vec(a.window()), stride = vec(a.stride()), pre = vec(a.pre_padding()),
               post = vec(a.post_padding());
    declineIf(window.size() != spatial || stride.size() != spatial || pre.size() != spatial || post.size() != spatial,
              "resample window, stride and paddings need one value per spatial dimension");
    bool padded = false;
    std::vector<int> w(spatial), s(spatial), pad(spatial);
    for(size_t i = 0; i < spatial; ++i)
    {
        // MIOpen's pooling descriptor holds ints; a zero stride divided below (found by the graph
        // fuzzer).
        declineIf(window[i] <= 0 || stride[i] <= 0 || pre[i] < 0 || post[i] < 0 || window[i] > INT_MAX
                      || stride[i] > INT_MAX,
                  "resample window and stride must be positive and paddings non-negative, each within int");
        declineIf(pre[i] >= window[i], "resample padding as large as the window: a window could hold no input "
                                       "element (MIOpen writes index 0 there, hipDNN -1)");
        const int64_t out = std::max<int64_t>(1, (xd[i + 2] + 2 * pre[i] - window[i]) / stride[i] + 1);
        declineIf(out != yd[i + 2], "post padding " + std::to_string(post[i]) + " != pre padding "
                                        + std::to_string(pre[i]) + " in spatial dim " + std::to_string(i)
                                        + " changes the output length: MIOpen pads symmetrically");
        padded = padded || pre[i] > 0 || post[i] > 0;
        w[i] = static_cast<int>(window[i]);
        s[i] = static_cast<int>(stride[i]);
        pad[i] = static_cast<int>(pre[i]);
    }
    declineIf(p.isMax && padded && a.padding_mode() == dobj::PaddingMode::ZERO_PAD,
              "max pooling over ZERO_PAD padding: MIOpen never lets a padded position win (use NEG_INF_PAD)");
    p.desc = createMiopenObject<miopenPoolingDescriptor_t, miopenCreatePoolingDescriptor_impl,
                                miopenDestroyPoolingDescriptor_impl>("miopenCreatePoolingDescriptor_impl");
    checkMiopen(miopenSetNdPoolingDescriptor_impl(p.desc.get(), mode, static_cast<int>(spatial), w.data(), pad.data(),
                                                  s.data()),
                "miopenSetNdPoolingDescriptor_impl", HIPDNN_PLUGIN_STATUS_NOT_APPLICABLE);
    checkMiopen(miopenSetPoolingIndexType_impl(p.desc.get(), miopenIndexUint32), "miopenSetPoolingIndexType_impl",
                HIPDNN_PLUGIN_STATUS_NOT_APPLICABLE);
    checkMiopen(miopenSetPoolingWorkSpaceIndexMode_impl(p.desc.get(), miopenPoolingWorkspaceIndexImage),
                "miopenSetPoolingWorkSpaceIndexMode_impl", HIPDNN_PLUGIN_STATUS_NOT_APPLICABLE);
    p.text = std::string(dobj::EnumNameResampleMode(a.resample_mode())) + " " + std::to_string(spatial) + "-D window "
             + dimsText(window);
    return p;
}

/// The index tensor as MIOpen's workspace: INT32 (read as uint32; indices are never negative
/// here), packed, with the pooled tensor's dims.
void checkIndexTensor(const dobj::TensorAttributes& index, const std::vector<int64_t>& pooledDims)
{
    declineIf(index.data_type() != dobj::DataType::INT32, label(index) + " is not INT32");
    declineIf(vec(index.dims()) != pooledDims, label(index) + " does not have the pooled tensor's dims");
    declineIf(vec(index.strides()) != hipdnn_data_sdk::utilities::packedStrides(pooledDims),
              label(index) + " is not packed: MIOpen's index workspace is a packed N, C, spatial... tensor");
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

// resample (max, index) -> resample_bwd (max, reading that index): dx from x and dy.
std::unique_ptr<MiopenPlan> buildMaxPoolGradientFromX(const GraphView& graph, const BuildContext& ctx)
{
    const auto* f = graph.node(0).attributes_as_ResampleFwdAttributes();
    const auto* b = graph.node(1).attributes_as_ResampleBwdAttributes();
    declineIf(b == nullptr, "a resample node is followed only by the resample_bwd of its index (no fusion)");
    declineIf(f->resample_mode() != dobj::ResampleMode::MAXPOOL || !f->index_tensor_uid().has_value()
                  || !b->index_tensor_uid().has_value() || *b->index_tensor_uid() != *f->index_tensor_uid(),
              "two resample nodes run only as max pooling's gradient: the resample_bwd reads the index tensor "
              "the resample generates");
    declineIf(!sameGeometry(*f, *b), "the resample and resample_bwd of max pooling's gradient differ in geometry");
    const auto& x = graph.tensor(f->x_tensor_uid());
    const auto& y = graph.tensor(f->y_tensor_uid());
    const auto& index = graph.tensor(*f->index_tensor_uid());
    const auto& dy = graph.tensor(b->dy_tensor_uid());
    const auto& dx = graph.tensor(b->dx_tensor_uid());
    declineIf(!y.virtual_() || !index.virtual_(),
              "max pooling's gradient: the pooled tensor and the index are intermediates (virtual)");
    const Pooling p = poolingFor(*f, x, y);
    const auto yDims = vec(y.dims());
    declineIf(vec(dy.dims()) != yDims || vec(dx.dims()) != vec(x.dims()),
              "max pooling's gradient: dy must have the pooled dims and dx x's dims");
    declineIf(vec(y.strides()) != hipdnn_data_sdk::utilities::packedStrides(yDims),
              label(y) + " is not packed: the plan's workspace holds it packed");
    checkIndexTensor(index, yDims);
    declineIf(miopenType(x) != miopenType(dx) || miopenType(dy) != miopenType(dx) || miopenType(y) != miopenType(dx),
              "max pooling's gradient: x, y, dy and dx differ in data type");
    const auto count = static_cast<size_t>(hipdnn_data_sdk::utilities::elementCount(yDims));
    // The workspace: the pooled y, then (8-byte aligned) the uint32 indices.
    const size_t yBytes = (count * elementSize(miopenType(y)) + 7) / 8 * 8;
    const size_t indexBytes = count * sizeof(uint32_t);
    const TensorDesc xd = tensorDesc(x), yd = packedDesc(yDims, miopenType(y)), dyd = tensorDesc(dy),
                     dxd = tensorDesc(dx);
    const int64_t xUid = x.uid(), dyUid = dy.uid(), dxUid = dx.uid();
    miopenHandle_t h = ctx.handle.get();
    const PoolingDesc desc = p.desc;
    PlanBody body = [=](const Buffers& bufs) {
        const float one = 1.f, zero = 0.f;
        auto* ws = static_cast<unsigned char*>(bufs.workspace());
        if(ws == nullptr)
            throw hipdnn_plugin_sdk::PluginException(HIPDNN_PLUGIN_STATUS_BAD_PARAM,
                                                     "max pooling's gradient needs its workspace");
        checkMiopen(miopenPoolingForward_impl(h, desc.get(), &one, xd.get(), bufs.at(xUid), &zero, yd.get(), ws, true,
                                              ws + yBytes, indexBytes),
                    "miopenPoolingForward_impl");
        checkMiopen(miopenPoolingBackward_impl(h, desc.get(), &one, dyd.get(), nullptr, dyd.get(), bufs.at(dyUid),
                                               dxd.get(), nullptr, &zero, dxd.get(), bufs.at(dxUid), ws + yBytes),
                    "miopenPoolingBackward_impl");
    };
    return std::make_unique<MiopenPlan>(ctx.handle, yBytes + indexBytes, "resample_bwd from x " + p.text,
                                        std::move(body));
}

} // namespace

std::unique_ptr<MiopenPlan> buildResampleFwd(const GraphView& graph, const BuildContext& ctx)
{
    if(graph.nodeCount() == 2)
        return buildMaxPoolGradientFromX(graph, ctx);
    declineIf(graph.nodeCount() != 1, "a resample node is run alone (no fusion)");
    const auto* a = graph.node(0).attributes_as_ResampleFwdAttributes();
    const auto& x = graph.tensor(a->x_tensor_uid());
    const auto& y = graph.tensor(a->y_tensor_uid());
    const Pooling p = poolingFor(*a, x, y);
    const bool withIndex = a->index_tensor_uid().has_value();
    declineIf(withIndex && !p.isMax, "only max pooling writes an index tensor");
    int64_t indexUid = 0;
    size_t indexBytes = 0;
    if(withIndex)
    {
        const auto& index = graph.tensor(*a->index_tensor_uid());
        checkIndexTensor(index, vec(y.dims()));
        indexUid = index.uid();
        indexBytes = static_cast<size_t>(hipdnn_data_sdk::utilities::elementCount(vec(y.dims()))) * sizeof(uint32_t);
    }
    const TensorDesc xd = tensorDesc(x), yd = tensorDesc(y);
    const int64_t xUid = x.uid(), yUid = y.uid();
    miopenHandle_t h = ctx.handle.get();
    const PoolingDesc desc = p.desc;
    PlanBody body = [=](const Buffers& b) {
        const float one = 1.f, zero = 0.f;
        checkMiopen(miopenPoolingForward_impl(h, desc.get(), &one, xd.get(), b.at(xUid), &zero, yd.get(), b.at(yUid),
                                              withIndex, withIndex ? b.at(indexUid) : nullptr, indexBytes),
                    "miopenPoolingForward_impl");
    };
    return std::make_unique<MiopenPlan>(ctx.handle, 0, "resample_fwd " + p.text + (withIndex ? " +index" : ""),
                                        std::move(body));
}

std::unique_ptr<MiopenPlan> buildResampleBwd(const GraphView& graph, const BuildContext& ctx)
{
    declineIf(graph.nodeCount() != 1, "a resample node is run alone (no fusion)");
    const auto* a = graph.node(0).attributes_as_ResampleBwdAttributes();
    const auto& dy = graph.tensor(a->dy_tensor_uid());
    const auto& dx = graph.tensor(a->dx_tensor_uid());
    const Pooling p = poolingFor(*a, dx, dy);
    int64_t indexUid = 0;
    if(p.isMax)
    {
        declineIf(!a->index_tensor_uid().has_value(), "max pooling backward needs the forward's index tensor");
        const auto& index = graph.tensor(*a->index_tensor_uid());
        checkIndexTensor(index, vec(dy.dims()));
        indexUid = index.uid();
    }
    const TensorDesc dyd = tensorDesc(dy), dxd = tensorDesc(dx);
    declineIf(miopenType(dy) != miopenType(dx), "dy and dx differ in data type");
    const int64_t dyUid = dy.uid(), dxUid = dx.uid();
    const bool isMax = p.isMax;
    miopenHandle_t h = ctx.handle.get();
    const PoolingDesc desc = p.desc;
    PlanBody body = [=](const Buffers& b) {
        const float one = 1.f, zero = 0.f;
        // y and x are not read: their descriptors only carry the lengths (dy's and dx's).
        checkMiopen(miopenPoolingBackward_impl(h, desc.get(), &one, dyd.get(), nullptr, dyd.get(), b.at(dyUid),
                                               dxd.get(), nullptr, &zero, dxd.get(), b.at(dxUid),
                                               isMax ? b.at(indexUid) : nullptr),
                    "miopenPoolingBackward_impl");
    };
    return std::make_unique<MiopenPlan>(ctx.handle, 0, "resample_bwd " + p.text, std::move(body));
}

} // namespace miopen_provider
