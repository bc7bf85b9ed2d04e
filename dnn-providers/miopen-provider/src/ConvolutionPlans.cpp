// Convolutions through MIOpen's immediate mode: fprop, dgrad and wgrad, 1-D to 3-D, grouped
// (groups inferred from the channel counts), dilated, strided, symmetric padding, any strides.
// And conv fprop [-> bias ADD] [-> activation] through MIOpen's fusion API.
// And any direction followed by an epilogue (the graphs MIOpen Public emits for alpha/beta,
// bias-activation with alpha1, a residual z and any activation): the convolution runs into plan
// scratch, then Private's tensor operations apply the epilogue (buildConvEpilogue below).
//
// Solver choice (RFC 4.8) is DB-free: the plan takes the first id of a fixed preference list
// (SolverPreference.hpp: per direction, and for fp16 / bf16 by filter size and output width) that
// MIOpen accepts for the problem, asking solution by solution with
// miopenConvolution*GetSolutionWorkspaceSize_impl (which fails for an id that does not apply, is
// switched off, or is not deterministic when MIOPEN_ENGINE_DETERMINISTIC set the attribute).
// miopenConvolution*GetSolutionCount_impl first says whether MIOpen takes the problem at all.
// Neither call, nor the Immediate execution, consults MIOpen's find-db; the provider never calls
// miopenConvolution*GetSolution_impl (which reads the find-db for its times and order) nor Find
// (which writes it). The solution's workspace is the plan's workspace; execution calls
// miopenConvolution*Immediate_impl.
#include "MiopenGraphUtils.hpp"
#include "SolverPreference.hpp"

#include <hipdnn_data_sdk/utilities/ShapeUtilities.hpp>

#include <algorithm>
#include <array>
#include <map>
#include <memory>
#include <optional>

namespace miopen_provider
{

namespace
{

enum class Direction
{
    Forward,
    BackwardData,
    BackwardWeights
};

const char* directionName(Direction d)
{
    switch(d)
    {
    case Direction::Forward: return "conv_fprop";
    case Direction::BackwardData: return "conv_dgrad";
    case Direction::BackwardWeights: return "conv_wgrad";
    }
    return "conv";
}

/// A convolution problem as MIOpen sees it: descriptors of x, w, y (x/dx, w/dw, y/dy).
struct ConvProblem
{
    TensorDesc x, w, y;
    ConvDesc conv;
    int64_t groups = 1;
    SolverDataType type = SolverDataType::Float; // the solver preference depends on it
    bool pointwise = false;        // every filter dim is 1
    int64_t outputWidth = 0;       // the last spatial dim of the output
    std::string text;
};

template <typename A>
ConvProblem convProblem(const A& a,
                        const dobj::TensorAttributes& xt,
                        const dobj::TensorAttributes& wt,
                        const dobj::TensorAttributes& yt,
                        bool deterministic,
                        bool fused = false)
{
    declineIf(a.conv_mode() != dobj::ConvMode::CROSS_CORRELATION,
              std::string("convolution mode ") + dobj::EnumNameConvMode(a.conv_mode())
                  + " is not run by the MIOpen provider (CROSS_CORRELATION only: MIOpen's miopenConvolution)");
    const auto x = vec(xt.dims()), w = vec(wt.dims()), y = vec(yt.dims());
    declineIf(x.size() < 3 || x.size() > 5 || w.size() != x.size() || y.size() != x.size(),
              "convolutions of rank " + std::to_string(x.size()) + " are not run (1-D, 2-D and 3-D only)");
    const size_t spatial = x.size() - 2;
    const auto pre = vec(a.pre_padding()), post = vec(a.post_padding()), stride = vec(a.stride()),
               dilation = vec(a.dilation());
    declineIf(pre.size() != spatial || post.size() != spatial || stride.size() != spatial
                  || dilation.size() != spatial,
              "convolution padding/stride/dilation do not have one entry per spatial dimension");
    std::vector<int> pads, strides, dilations;
    for(size_t s = 0; s < spatial; ++s)
    {
        declineIf(pre[s] != post[s], "asymmetric padding (pre " + dimsText(pre) + ", post " + dimsText(post)
                                         + "): MIOpen convolutions pad symmetrically");
        declineIf(stride[s] < 1 || dilation[s] < 1 || pre[s] < 0,
                  "convolution strides and dilations must be >= 1 and paddings >= 0");
        declineIf(pre[s] > 1 << 20 || stride[s] > 1 << 20 || dilation[s] > 1 << 20,
                  "convolution padding/stride/dilation too large for MIOpen");
        pads.push_back(static_cast<int>(pre[s]));
        strides.push_back(static_cast<int>(stride[s]));
        dilations.push_back(static_cast<int>(dilation[s]));
    }
    declineIf(w[1] <= 0 || x[1] % w[1] != 0, "input channels " + std::to_string(x[1])
                                                 + " are not a multiple of the weights' channels "
                                                 + std::to_string(w[1]));
    ConvProblem p;
    p.groups = x[1] / w[1];
    declineIf(w[0] % p.groups != 0 || y[1] != w[0], "output channels do not match the weights of "
                                                        + std::to_string(p.groups) + " group(s)");
    std::vector<int64_t> expected;
    try
    {
        expected = hipdnn_data_sdk::utilities::convForwardOutputDims(x, w, pre, post, stride, dilation);
    }
    catch(const std::exception& e)
    {
        throw Decline(std::string("invalid convolution geometry: ") + e.what());
    }
    declineIf(expected != y, "convolution output dims " + dimsText(y) + " do not match the geometry (expected "
                                 + dimsText(expected) + ")");
    const miopenDataType_t type = miopenType(xt);
    // A fused convolution's output is a virtual intermediate (FLOAT): the fusion plan's output has
    // the input's type, checked by the caller.
    declineIf(miopenType(wt) != type || (!fused && miopenType(yt) != type),
              "the convolution's tensors have different data types: MIOpen convolves tensors of one type");
    p.type = type == miopenHalf       ? SolverDataType::Half
             : type == miopenBFloat16 ? SolverDataType::BFloat16
                                      : SolverDataType::Float;
    p.pointwise = std::all_of(w.begin() + 2, w.end(), [](int64_t v) { return v == 1; });
    p.outputWidth = y.back();
    p.x = tensorDesc(xt);
    p.w = tensorDesc(wt);
    p.y = tensorDesc(yt);
    p.conv = createConvDesc();
    checkMiopen(miopenInitConvolutionNdDescriptor_impl(p.conv.get(), static_cast<int>(spatial), pads.data(),
                                                       strides.data(), dilations.data(), miopenConvolution),
                "miopenInitConvolutionNdDescriptor_impl", HIPDNN_PLUGIN_STATUS_NOT_APPLICABLE);
    checkMiopen(miopenSetConvolutionGroupCount_impl(p.conv.get(), static_cast<int>(p.groups)),
                "miopenSetConvolutionGroupCount_impl", HIPDNN_PLUGIN_STATUS_NOT_APPLICABLE);
    if(deterministic)
    {
        checkMiopen(miopenSetConvolutionAttribute_impl(p.conv.get(), MIOPEN_CONVOLUTION_ATTRIB_DETERMINISTIC, 1),
                    "miopenSetConvolutionAttribute_impl", HIPDNN_PLUGIN_STATUS_NOT_APPLICABLE);
    }
    p.text = std::to_string(spatial) + "-D groups=" + std::to_string(p.groups) + (deterministic ? " deterministic" : "");
    return p;
}

/// Workspace of `id` for the problem, or nullopt when MIOpen says the solution does not apply
/// (unknown id, not applicable, switched off, not deterministic on a deterministic descriptor).
std::optional<size_t> solutionWorkspace(miopenHandle_t h, Direction d, const ConvProblem& p, uint64_t id)
{
    size_t bytes = 0;
    miopenStatus_t status = miopenStatusSuccess;
    switch(d)
    {
    case Direction::Forward:
        status = miopenConvolutionForwardGetSolutionWorkspaceSize_impl(h, p.w.get(), p.x.get(), p.conv.get(),
                                                                       p.y.get(), id, &bytes);
        break;
    case Direction::BackwardData:
        status = miopenConvolutionBackwardDataGetSolutionWorkspaceSize_impl(h, p.y.get(), p.w.get(), p.conv.get(),
                                                                            p.x.get(), id, &bytes);
        break;
    case Direction::BackwardWeights:
        status = miopenConvolutionBackwardWeightsGetSolutionWorkspaceSize_impl(h, p.y.get(), p.x.get(), p.conv.get(),
                                                                               p.w.get(), id, &bytes);
        break;
    }
    if(status != miopenStatusSuccess)
    {
        return std::nullopt;
    }
    return bytes;
}

/// How many solutions MIOpen has for the problem (declines when MIOpen rejects the problem). The
/// count comes from MIOpen's solver registry, not from the find-db.
size_t applicableCount(miopenHandle_t h, Direction d, const ConvProblem& p)
{
    size_t count = 0;
    miopenStatus_t status = miopenStatusSuccess;
    switch(d)
    {
    case Direction::Forward:
        status = miopenConvolutionForwardGetSolutionCount_impl(h, p.w.get(), p.x.get(), p.conv.get(), p.y.get(), &count);
        break;
    case Direction::BackwardData:
        status = miopenConvolutionBackwardDataGetSolutionCount_impl(h, p.y.get(), p.w.get(), p.conv.get(), p.x.get(),
                                                                    &count);
        break;
    case Direction::BackwardWeights:
        status = miopenConvolutionBackwardWeightsGetSolutionCount_impl(h, p.y.get(), p.x.get(), p.conv.get(),
                                                                       p.w.get(), &count);
        break;
    }
    declineIf(status != miopenStatusSuccess, std::string("MIOpen rejects the ") + directionName(d) + " problem ("
                                                 + miopenGetErrorString_impl(status) + ")");
    return count;
}

struct Choice
{
    uint64_t id = 0;
    size_t workspace = 0;
};

Choice chooseSolution(miopenHandle_t h, Direction d, const ConvProblem& p)
{
    const SolverDirection sd = d == Direction::Forward        ? SolverDirection::Forward
                               : d == Direction::BackwardData ? SolverDirection::BackwardData
                                                              : SolverDirection::BackwardWeights;
    const size_t count = applicableCount(h, d, p);
    declineIf(count == 0,
              std::string("no MIOpen solution applies to the ") + directionName(d) + " problem (" + p.text + ")");
    // The first preferred id MIOpen accepts. The lists name every solver of this MIOpen, so an
    // applicable solution is always among them; one they miss (a solver added to MIOpen but not to
    // SolverPreference.hpp) could only be found through GetSolution, which reads the find-db.
    for(uint64_t id : preferredSolutions(sd, p.type, p.pointwise, p.outputWidth))
    {
        if(const auto ws = solutionWorkspace(h, d, p, id))
        {
            return {id, *ws};
        }
    }
    throw Decline("MIOpen has " + std::to_string(count) + " solution(s) for the " + directionName(d) + " problem ("
                  + p.text + ") but none of them is in the provider's preference list (SolverPreference.hpp)");
}

/// What follows a convolution in an epilogue graph, in MIOpen's terms:
///   out = act(scale * conv + sum_i coef_i * addend_i + bias)
/// An addend whose buffer is the output itself (the caller's prior output, MIOpen's beta) is
/// applied while the output still holds it.
struct Epilogue
{
    struct Addend
    {
        int64_t uid = 0;
        double coef = 1.0;
        TensorDesc desc;
    };
    int64_t outUid = 0;
    TensorDesc outDesc;
    size_t outBytes = 0; // the output's span: the size of the scratch the convolution writes
    double scale = 1.0;
    std::vector<Addend> addends;
    int64_t biasUid = 0;
    TensorDesc biasDesc;
    ActivationDesc act;
    std::string text;
};

constexpr size_t kScratchAlign = 64;

size_t alignUp(size_t n) { return (n + kScratchAlign - 1) / kScratchAlign * kScratchAlign; }

/// Applies `e` with the convolution's result in `scratch` (same descriptor as the output).
void runEpilogue(miopenHandle_t h, const Epilogue& e, const Buffers& b, const void* scratch)
{
    void* out = b.at(e.outUid);
    // The prior output first (before the output is overwritten): out = scale * conv + c * out.
    double prior = 0.0;
    for(const auto& a : e.addends)
    {
        if(b.at(a.uid) == out)
        {
            prior += a.coef;
        }
    }
    const float scale = static_cast<float>(e.scale), priorCoef = static_cast<float>(prior), one = 1.f, zero = 0.f;
    checkMiopen(miopenTransformTensor_impl(h, &scale, e.outDesc.get(), scratch, &priorCoef, e.outDesc.get(), out),
                "miopenTransformTensor_impl");
    for(const auto& a : e.addends)
    {
        const void* in = b.at(a.uid);
        if(in == out)
        {
            continue;
        }
        const float coef = static_cast<float>(a.coef);
        checkMiopen(miopenTransformTensor_impl(h, &coef, a.desc.get(), in, &one, e.outDesc.get(), out),
                    "miopenTransformTensor_impl");
    }
    if(e.biasDesc != nullptr)
    {
        checkMiopen(miopenConvolutionForwardBias_impl(h, &one, e.biasDesc.get(), b.at(e.biasUid), &one,
                                                      e.outDesc.get(), out),
                    "miopenConvolutionForwardBias_impl");
    }
    if(e.act != nullptr)
    {
        checkMiopen(miopenActivationForward_impl(h, e.act.get(), &one, e.outDesc.get(), out, &zero, e.outDesc.get(),
                                                 out),
                    "miopenActivationForward_impl");
    }
}

std::unique_ptr<MiopenPlan> buildConv(Direction d, const BuildContext& ctx, ConvProblem p, int64_t xUid,
                                      int64_t wUid, int64_t yUid, std::shared_ptr<const Epilogue> epilogue = nullptr)
{
    const Choice c = chooseSolution(ctx.handle.get(), d, p);
    miopenHandle_t h = ctx.handle.get();
    const size_t ws = c.workspace;
    const uint64_t id = c.id;
    PlanBody body;
    // With an epilogue the convolution writes into scratch after its own workspace.
    const int64_t writtenUid = d == Direction::Forward ? yUid : d == Direction::BackwardData ? xUid : wUid;
    const size_t scratchAt = alignUp(ws);
    auto ptr = [epilogue, writtenUid, scratchAt](const Buffers& b, int64_t uid) -> void* {
        if(epilogue != nullptr && uid == writtenUid)
        {
            return static_cast<unsigned char*>(b.workspace()) + scratchAt;
        }
        return b.at(uid);
    };
    switch(d)
    {
    case Direction::Forward:
        body = [=](const Buffers& b) {
            checkMiopen(miopenConvolutionForwardImmediate_impl(h, p.w.get(), ptr(b, wUid), p.x.get(), ptr(b, xUid),
                                                               p.conv.get(), p.y.get(), ptr(b, yUid), b.workspace(), ws,
                                                               id),
                        "miopenConvolutionForwardImmediate_impl");
        };
        break;
    case Direction::BackwardData:
        body = [=](const Buffers& b) {
            checkMiopen(miopenConvolutionBackwardDataImmediate_impl(h, p.y.get(), ptr(b, yUid), p.w.get(), ptr(b, wUid),
                                                                    p.conv.get(), p.x.get(), ptr(b, xUid),
                                                                    b.workspace(), ws, id),
                        "miopenConvolutionBackwardDataImmediate_impl");
        };
        break;
    case Direction::BackwardWeights:
        body = [=](const Buffers& b) {
            checkMiopen(miopenConvolutionBackwardWeightsImmediate_impl(h, p.y.get(), ptr(b, yUid), p.x.get(),
                                                                       ptr(b, xUid), p.conv.get(), p.w.get(), ptr(b, wUid),
                                                                       b.workspace(), ws, id),
                        "miopenConvolutionBackwardWeightsImmediate_impl");
        };
        break;
    }
    std::string text = std::string(directionName(d)) + " " + p.text + " solution " + std::to_string(id);
    size_t planWs = ws;
    if(epilogue != nullptr)
    {
        planWs = scratchAt + epilogue->outBytes;
        body = [h, epilogue, scratchAt, conv = std::move(body)](const Buffers& b) {
            conv(b);
            runEpilogue(h, *epilogue, b, static_cast<unsigned char*>(b.workspace()) + scratchAt);
        };
        text += " + epilogue" + epilogue->text;
    }
    auto plan = std::make_unique<MiopenPlan>(ctx.handle, planWs, text, std::move(body));
    plan->setSolutionId(id);
    return plan;
}

/// The epilogue of a convolution graph (nodes 1..n-1), as MIOpen Public emits it:
///   [MUL(t, scalar)] ; { [MUL(A, scalar)] ; ADD(t, A or its MUL) }* ; [ADD(t, per-channel bias)] ;
///   [unary activation]
/// with every intermediate virtual. `convOut` is the convolution's (virtual) output; returns the
/// graph's output tensor, which must have the convolution output's dims.
const dobj::TensorAttributes& parseEpilogue(const GraphView& graph, const dobj::TensorAttributes& convOut,
                                            Epilogue& e)
{
    declineIf(!convOut.virtual_(), label(convOut) + " is a graph output and feeds another node: only chains with "
                                                    "virtual intermediates are run");
    const auto dims = vec(convOut.dims());
    const dobj::TensorAttributes* current = &convOut;
    std::map<int64_t, std::pair<int64_t, double>> scaled; // virtual uid -> (graph input, factor)
    bool added = false;
    for(size_t n = 1; n < graph.nodeCount(); ++n)
    {
        const auto& node = graph.node(n);
        const auto* pw = node.attributes_as_PointwiseAttributes();
        declineIf(pw == nullptr, std::string("a convolution epilogue holds pointwise nodes only, not ")
                                     + dobj::EnumNameNodeAttributes(node.attributes_type()));
        declineIf(e.act != nullptr, "the activation must be the last node of a convolution epilogue");
        const auto& out = graph.tensor(pw->out_0_tensor_uid());
        declineIf(vec(out.dims()) != dims, label(out) + " changes the shape of the convolution epilogue");
        const int64_t in0 = pw->in_0_tensor_uid();
        const bool has1 = pw->in_1_tensor_uid().has_value();
        const int64_t in1 = has1 ? *pw->in_1_tensor_uid() : 0;
        declineIf(pw->in_2_tensor_uid().has_value(), "three-input pointwise nodes are not in a convolution epilogue");
        const auto mode = pw->operation();
        if(mode == dobj::PointwiseMode::MUL)
        {
            declineIf(!has1, "pointwise MUL without a second input");
            const auto& t0 = graph.tensor(in0);
            const auto& t1 = graph.tensor(in1);
            const bool s0 = t0.value_type() != dobj::TensorValue::NONE, s1 = t1.value_type() != dobj::TensorValue::NONE;
            declineIf(s0 == s1, "a MUL in a convolution epilogue scales a tensor by one pass-by-value scalar");
            const auto& tensor = s0 ? t1 : t0;
            const double factor = scalarValue(s0 ? t0 : t1);
            if(tensor.uid() == current->uid())
            {
                declineIf(!out.virtual_() && n != graph.nodeCount() - 1,
                          label(out) + " is a graph output inside the epilogue");
                declineIf(added || current != &convOut, "the convolution output is scaled before anything is added");
                e.scale *= factor;
                e.text += " * " + std::to_string(factor);
                current = &out;
            }
            else
            {
                declineIf(!out.virtual_(), label(out) + ": a scaled addend of a convolution epilogue must feed an ADD");
                declineIf(tensor.virtual_(), label(tensor) + " is virtual: only graph inputs are scaled and added");
                declineIf(vec(tensor.dims()) != dims, label(tensor) + " is scaled and added but has other dims");
                scaled[out.uid()] = {tensor.uid(), factor};
            }
            continue;
        }
        declineIf(!out.virtual_() && n != graph.nodeCount() - 1, label(out) + " is a graph output inside the epilogue");
        if(mode == dobj::PointwiseMode::ADD)
        {
            declineIf(!has1, "pointwise ADD without a second input");
            declineIf(in0 != current->uid() && in1 != current->uid(),
                      "an ADD of the convolution epilogue does not read the previous result: only linear chains run");
            const int64_t other = in0 == current->uid() ? in1 : in0;
            declineIf(other == current->uid(), "pointwise ADD of the convolution output with itself");
            if(auto it = scaled.find(other); it != scaled.end())
            {
                const auto& t = graph.tensor(it->second.first);
                e.addends.push_back({t.uid(), it->second.second, tensorDesc(t)});
                e.text += " + " + std::to_string(it->second.second) + " * " + label(t);
                scaled.erase(it);
            }
            else
            {
                const auto& t = graph.tensor(other);
                declineIf(t.virtual_() || t.value_type() != dobj::TensorValue::NONE,
                          label(t) + ": the addend of an epilogue ADD must be a graph input tensor");
                if(vec(t.dims()) == dims)
                {
                    declineIf(e.biasDesc != nullptr, "a full-size addend after the bias in a convolution epilogue");
                    e.addends.push_back({t.uid(), 1.0, tensorDesc(t)});
                    e.text += " + " + label(t);
                }
                else
                {
                    declineIf(e.biasDesc != nullptr, "two per-channel biases in a convolution epilogue");
                    e.biasDesc = channelDesc(t, dims.size() > 1 ? dims[1] : 1, dims.size());
                    e.biasUid = t.uid();
                    e.text += " + bias";
                }
            }
            added = true;
        }
        else
        {
            declineIf(has1, std::string("pointwise ") + dobj::EnumNamePointwiseMode(mode)
                                           + " is not in a convolution epilogue (MUL, ADD and unary activations)");
            declineIf(in0 != current->uid(), "the activation does not read the previous result");
            const Activation act = activationFor(*pw, false);
            e.act = createActivationDesc();
            checkMiopen(miopenSetActivationDescriptor_impl(e.act.get(), act.mode, act.alpha, act.beta, act.gamma),
                        "miopenSetActivationDescriptor_impl", HIPDNN_PLUGIN_STATUS_NOT_APPLICABLE);
            e.text += " -> " + act.text;
        }
        current = &out;
    }
    declineIf(!scaled.empty(), "a scaled tensor of the convolution epilogue is never added");
    declineIf(current->virtual_(), label(*current) + " ends the graph but is virtual");
    return *current;
}

/// A convolution of any direction followed by an epilogue: the convolution's problem is built on
/// the epilogue's output tensor (its type, dims and strides), the scratch the convolution writes.
std::unique_ptr<MiopenPlan> buildConvEpilogue(Direction d, const GraphView& graph, const BuildContext& ctx)
{
    auto e = std::make_shared<Epilogue>();
    const auto& node = graph.node(0);
    auto finish = [&](const dobj::TensorAttributes& out, const dobj::TensorAttributes& in) {
        declineIf(miopenType(out) != miopenType(in), label(out) + " must have the convolution's data type");
        e->outUid = out.uid();
        e->outDesc = tensorDesc(out);
        const auto dims = vec(out.dims()), strides = vec(out.strides());
        size_t span = 1;
        for(size_t i = 0; i < dims.size() && i < strides.size(); ++i)
        {
            declineIf(dims[i] < 1 || strides[i] < 0, label(out) + " has an empty dimension or a negative stride");
            span += static_cast<size_t>(dims[i] - 1) * static_cast<size_t>(strides[i]);
        }
        e->outBytes = span * elementSize(miopenType(out));
    };
    switch(d)
    {
    case Direction::Forward:
    {
        const auto* a = node.attributes_as_ConvolutionFwdAttributes();
        const auto& x = graph.tensor(a->x_tensor_uid());
        const auto& w = graph.tensor(a->w_tensor_uid());
        const auto& y = parseEpilogue(graph, graph.tensor(a->y_tensor_uid()), *e);
        finish(y, x);
        return buildConv(d, ctx, convProblem(*a, x, w, y, ctx.deterministic), x.uid(), w.uid(), y.uid(), e);
    }
    case Direction::BackwardData:
    {
        const auto* a = node.attributes_as_ConvolutionBwdAttributes();
        const auto& dy = graph.tensor(a->dy_tensor_uid());
        const auto& w = graph.tensor(a->w_tensor_uid());
        const auto& dx = parseEpilogue(graph, graph.tensor(a->dx_tensor_uid()), *e);
        finish(dx, dy);
        return buildConv(d, ctx, convProblem(*a, dx, w, dy, ctx.deterministic), dx.uid(), w.uid(), dy.uid(), e);
    }
    case Direction::BackwardWeights:
    {
        const auto* a = node.attributes_as_ConvolutionWrwAttributes();
        const auto& x = graph.tensor(a->x_tensor_uid());
        const auto& dy = graph.tensor(a->dy_tensor_uid());
        const auto& dw = parseEpilogue(graph, graph.tensor(a->dw_tensor_uid()), *e);
        finish(dw, x);
        return buildConv(d, ctx, convProblem(*a, x, dw, dy, ctx.deterministic), x.uid(), dw.uid(), dy.uid(), e);
    }
    }
    throw Decline("unknown convolution direction");
}

} // namespace

std::unique_ptr<MiopenPlan> buildConvFprop(const GraphView& graph, const BuildContext& ctx)
{
    if(graph.nodeCount() > 1)
    {
        // MIOpen's fusion plan where it applies (conv [-> bias] [-> activation], packed NCHW),
        // else the convolution into scratch and the epilogue on Private's tensor operations.
        try
        {
            return buildConvFusion(graph, ctx);
        }
        catch(const Decline& fusion)
        {
            try
            {
                return buildConvEpilogue(Direction::Forward, graph, ctx);
            }
            catch(const Decline& epilogue)
            {
                throw Decline(std::string("not a MIOpen fusion plan (") + fusion.what() + ") nor a convolution epilogue ("
                              + epilogue.what() + ")");
            }
        }
    }
    const auto* a = graph.node(0).attributes_as_ConvolutionFwdAttributes();
    const auto& x = graph.tensor(a->x_tensor_uid());
    const auto& w = graph.tensor(a->w_tensor_uid());
    const auto& y = graph.tensor(a->y_tensor_uid());
    return buildConv(Direction::Forward, ctx, convProblem(*a, x, w, y, ctx.deterministic), x.uid(), w.uid(), y.uid());
}

std::unique_ptr<MiopenPlan> buildConvDgrad(const GraphView& graph, const BuildContext& ctx)
{
    if(graph.nodeCount() > 1)
    {
        return buildConvEpilogue(Direction::BackwardData, graph, ctx);
    }
    const auto* a = graph.node(0).attributes_as_ConvolutionBwdAttributes();
    const auto& dy = graph.tensor(a->dy_tensor_uid());
    const auto& w = graph.tensor(a->w_tensor_uid());
    const auto& dx = graph.tensor(a->dx_tensor_uid());
    return buildConv(Direction::BackwardData, ctx, convProblem(*a, dx, w, dy, ctx.deterministic), dx.uid(), w.uid(),
                     dy.uid());
}

std::unique_ptr<MiopenPlan> buildConvWgrad(const GraphView& graph, const BuildContext& ctx)
{
    if(graph.nodeCount() > 1)
    {
        return buildConvEpilogue(Direction::BackwardWeights, graph, ctx);
    }
    const auto* a = graph.node(0).attributes_as_ConvolutionWrwAttributes();
    const auto& x = graph.tensor(a->x_tensor_uid());
    const auto& dy = graph.tensor(a->dy_tensor_uid());
    const auto& dw = graph.tensor(a->dw_tensor_uid());
    return buildConv(Direction::BackwardWeights, ctx, convProblem(*a, x, dw, dy, ctx.deterministic), x.uid(),
                     dw.uid(), dy.uid());
}

std::unique_ptr<MiopenPlan> buildConvFusion(const GraphView& graph, const BuildContext& ctx)
{
    declineIf(graph.nodeCount() > 3, "fused convolutions are conv -> [bias ADD] -> activation (at most 3 nodes)");
    const auto* a = graph.node(0).attributes_as_ConvolutionFwdAttributes();
    const auto& x = graph.tensor(a->x_tensor_uid());
    const auto& w = graph.tensor(a->w_tensor_uid());
    const dobj::TensorAttributes* current = &graph.tensor(a->y_tensor_uid());
    declineIf(!current->virtual_(), label(*current) + " is a graph output and feeds another node: only chains with "
                                                      "virtual intermediates fuse");
    const ConvProblem p = convProblem(*a, x, w, *current, ctx.deterministic, true);

    const dobj::TensorAttributes* bias = nullptr;
    std::optional<Activation> act;
    for(size_t n = 1; n < graph.nodeCount(); ++n)
    {
        const auto& node = graph.node(n);
        const auto* pw = node.attributes_as_PointwiseAttributes();
        declineIf(pw == nullptr, std::string("a convolution can only be followed by a bias ADD and an activation, not by ")
                                     + dobj::EnumNameNodeAttributes(node.attributes_type()));
        declineIf(n > 1 && !current->virtual_(), label(*current) + " is a graph output and feeds node "
                                                     + std::to_string(n) + ": only chains with virtual intermediates fuse");
        const bool readsCurrent = pw->in_0_tensor_uid() == current->uid()
                                  || (pw->in_1_tensor_uid().has_value() && *pw->in_1_tensor_uid() == current->uid());
        declineIf(!readsCurrent, "node " + std::to_string(n) + " does not read the previous node's output: only linear "
                                                               "chains fuse");
        if(pw->operation() == dobj::PointwiseMode::ADD)
        {
            declineIf(n != 1 || !pw->in_1_tensor_uid().has_value(),
                      "a fused ADD must directly follow the convolution and have two inputs");
            const int64_t other = pw->in_0_tensor_uid() == current->uid() ? *pw->in_1_tensor_uid() : pw->in_0_tensor_uid();
            declineIf(other == current->uid(), "pointwise ADD of the convolution output with itself is not fused");
            bias = &graph.tensor(other);
        }
        else
        {
            declineIf(pw->in_1_tensor_uid().has_value(),
                      std::string("pointwise ") + dobj::EnumNamePointwiseMode(pw->operation())
                          + " after a convolution is not fused (a bias ADD and a unary activation only)");
            declineIf(n != graph.nodeCount() - 1, "the activation must be the last fused node");
            act = activationFor(*pw, false);
        }
        current = &graph.tensor(pw->out_0_tensor_uid());
    }
    const auto& y = *current;
    declineIf(y.virtual_(), label(y) + " ends the graph but is virtual");
    const auto yDims = vec(y.dims());
    const auto convY = vec(graph.tensor(a->y_tensor_uid()).dims());
    declineIf(yDims != convY, label(y) + " changes the shape of the fused chain");
    const miopenDataType_t type = miopenType(x);
    declineIf(miopenType(y) != type, label(y) + " must have the input's data type in a MIOpen fusion plan");

    // MIOpen's fusion plan writes its output packed in the input's layout, which it infers from
    // the strides (ambiguous with unit dims): the provider fuses packed N,C,... tensors only.
    declineIf(vec(x.strides()) != hipdnn_data_sdk::utilities::packedStrides(vec(x.dims()))
                  || vec(y.strides()) != hipdnn_data_sdk::utilities::packedStrides(yDims),
              "a MIOpen fusion plan is built for packed N,C,... (NCHW-like) input and output tensors only");
    const TensorDesc yDesc = tensorDesc(y);
    TensorDesc bDesc;
    if(bias != nullptr)
    {
        declineIf(miopenType(*bias) != type, label(*bias) + " must have the output's data type in a MIOpen fusion plan");
        bDesc = channelDesc(*bias, yDims[1], yDims.size());
    }

    const FusionPlanDesc fusion = createFusionPlan(p.x.get());
    miopenFusionOpDescriptor_t convOp = nullptr, biasOp = nullptr, actOp = nullptr;
    checkMiopen(miopenCreateOpConvForward_impl(fusion.get(), &convOp, p.conv.get(), p.w.get()),
                "miopenCreateOpConvForward_impl", HIPDNN_PLUGIN_STATUS_NOT_APPLICABLE);
    if(bias != nullptr)
    {
        checkMiopen(miopenCreateOpBiasForward_impl(fusion.get(), &biasOp, bDesc.get()), "miopenCreateOpBiasForward_impl",
                    HIPDNN_PLUGIN_STATUS_NOT_APPLICABLE);
    }
    if(act)
    {
        checkMiopen(miopenCreateOpActivationForward_impl(fusion.get(), &actOp, act->mode),
                    "miopenCreateOpActivationForward_impl", HIPDNN_PLUGIN_STATUS_NOT_APPLICABLE);
    }
    const miopenStatus_t compiled = miopenCompileFusionPlan_impl(ctx.handle.get(), fusion.get());
    declineIf(compiled != miopenStatusSuccess, std::string("MIOpen cannot compile the fusion plan (")
                                                   + miopenGetErrorString_impl(compiled) + ")");
    size_t ws = 0;
    checkMiopen(miopenFusionPlanGetWorkSpaceSize_impl(ctx.handle.get(), fusion.get(), &ws, miopenConvolutionFwdAlgoGEMM),
                "miopenFusionPlanGetWorkSpaceSize_impl");
    declineIf(ws != 0, "the MIOpen fusion plan asks for a workspace, which miopenExecuteFusionPlan cannot take");

    const OperatorArgs args = createOperatorArgs();
    const int64_t xUid = x.uid(), wUid = w.uid(), yUid = y.uid(), bUid = bias != nullptr ? bias->uid() : 0;
    const Activation activation = act.value_or(Activation{});
    miopenHandle_t h = ctx.handle.get();
    PlanBody body = [=](const Buffers& b) {
        const float one = 1.f, zero = 0.f;
        checkMiopen(miopenSetOpArgsConvForward_impl(args.get(), convOp, &one, &zero, b.at(wUid)),
                    "miopenSetOpArgsConvForward_impl");
        if(biasOp != nullptr)
        {
            checkMiopen(miopenSetOpArgsBiasForward_impl(args.get(), biasOp, &one, &zero, b.at(bUid)),
                        "miopenSetOpArgsBiasForward_impl");
        }
        if(actOp != nullptr)
        {
            checkMiopen(miopenSetOpArgsActivForward_impl(args.get(), actOp, &one, &zero, activation.alpha,
                                                         activation.beta, activation.gamma),
                        "miopenSetOpArgsActivForward_impl");
        }
        checkMiopen(miopenExecuteFusionPlan_impl(h, fusion.get(), p.x.get(), b.at(xUid), yDesc.get(), b.at(yUid),
                                                 args.get()),
                    "miopenExecuteFusionPlan_impl");
    };
    const std::string text = "conv_fprop " + p.text + (bias != nullptr ? " + bias" : "")
                             + (act ? " + " + act->text : "") + " (MIOpen fusion plan)";
    return std::make_unique<MiopenPlan>(ctx.handle, 0, text, std::move(body));
}

} // namespace miopen_provider
