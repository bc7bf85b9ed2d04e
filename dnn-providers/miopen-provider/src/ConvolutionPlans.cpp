// Convolutions through MIOpen's immediate mode: fprop, dgrad and wgrad, 1-D to 3-D, grouped
// (groups inferred from the channel counts), dilated, strided, symmetric padding, any strides.
// And conv fprop [-> bias ADD] [-> activation] through MIOpen's fusion API.
//
// Solver choice (RFC 4.8) is DB-free: among the applicable solution ids (the set
// miopenConvolution*GetSolution_impl lists; it honours MIOPEN_ENGINE_DETERMINISTIC's attribute)
// the plan takes the first of a fixed preference list (SolverPreference.hpp), else the smallest id. It
// never uses GetSolution's order (which follows find-db times) and never calls Find, so it never
// writes the find-db. The solution's
// workspace is the plan's workspace; execution calls miopenConvolution*Immediate_impl.
#include "MiopenGraphUtils.hpp"
#include "SolverPreference.hpp"

#include <hipdnn_data_sdk/utilities/ShapeUtilities.hpp>

#include <algorithm>
#include <array>

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

/// Workspace of `id` for the problem, or nullopt when MIOpen says the solution does not apply.
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

/// Every applicable solution id (in no particular order: the caller sorts by its own key).
std::vector<uint64_t> applicableIds(miopenHandle_t h, Direction d, const ConvProblem& p)
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
    std::vector<miopenConvSolution_t> solutions(count);
    size_t returned = 0;
    if(count > 0)
    {
        switch(d)
        {
        case Direction::Forward:
            status = miopenConvolutionForwardGetSolution_impl(h, p.w.get(), p.x.get(), p.conv.get(), p.y.get(), count,
                                                              &returned, solutions.data());
            break;
        case Direction::BackwardData:
            status = miopenConvolutionBackwardDataGetSolution_impl(h, p.y.get(), p.w.get(), p.conv.get(), p.x.get(),
                                                                   count, &returned, solutions.data());
            break;
        case Direction::BackwardWeights:
            status = miopenConvolutionBackwardWeightsGetSolution_impl(h, p.y.get(), p.x.get(), p.conv.get(),
                                                                      p.w.get(), count, &returned, solutions.data());
            break;
        }
        declineIf(status != miopenStatusSuccess, std::string("MIOpen cannot list solutions of the ")
                                                     + directionName(d) + " problem ("
                                                     + miopenGetErrorString_impl(status) + ")");
    }
    std::vector<uint64_t> ids;
    for(size_t i = 0; i < returned; ++i)
    {
        ids.push_back(solutions[i].solution_id);
    }
    return ids;
}

struct Choice
{
    uint64_t id = 0;
    size_t workspace = 0;
};

Choice chooseSolution(miopenHandle_t h, Direction d, const ConvProblem& p)
{
    const uint64_t* preferred = nullptr;
    size_t preferredCount = 0;
    switch(d)
    {
    case Direction::Forward:
        preferred = kPreferredForward.data();
        preferredCount = kPreferredForward.size();
        break;
    case Direction::BackwardData:
        preferred = kPreferredBackwardData.data();
        preferredCount = kPreferredBackwardData.size();
        break;
    case Direction::BackwardWeights:
        preferred = kPreferredBackwardWeights.data();
        preferredCount = kPreferredBackwardWeights.size();
        break;
    }
    // The applicable set (GetSolution's membership does not depend on the find-db; only its order
    // does, and that order is not used): the first preferred id in it, else its smallest id.
    std::vector<uint64_t> ids = applicableIds(h, d, p);
    std::sort(ids.begin(), ids.end());
    std::vector<uint64_t> order(preferred, preferred + preferredCount);
    for(uint64_t id : ids)
    {
        if(std::find(order.begin(), order.end(), id) == order.end())
        {
            order.push_back(id);
        }
    }
    for(uint64_t id : order)
    {
        if(!std::binary_search(ids.begin(), ids.end(), id))
        {
            continue;
        }
        if(const auto ws = solutionWorkspace(h, d, p, id))
        {
            return {id, *ws};
        }
    }
    throw Decline(std::string("no MIOpen solution applies to the ") + directionName(d) + " problem (" + p.text + ")");
}

std::unique_ptr<MiopenPlan> buildConv(Direction d, const BuildContext& ctx, ConvProblem p, int64_t xUid,
                                      int64_t wUid, int64_t yUid)
{
    const Choice c = chooseSolution(ctx.handle.get(), d, p);
    miopenHandle_t h = ctx.handle.get();
    const size_t ws = c.workspace;
    const uint64_t id = c.id;
    PlanBody body;
    switch(d)
    {
    case Direction::Forward:
        body = [=](const Buffers& b) {
            checkMiopen(miopenConvolutionForwardImmediate_impl(h, p.w.get(), b.at(wUid), p.x.get(), b.at(xUid),
                                                               p.conv.get(), p.y.get(), b.at(yUid), b.workspace(), ws,
                                                               id),
                        "miopenConvolutionForwardImmediate_impl");
        };
        break;
    case Direction::BackwardData:
        body = [=](const Buffers& b) {
            checkMiopen(miopenConvolutionBackwardDataImmediate_impl(h, p.y.get(), b.at(yUid), p.w.get(), b.at(wUid),
                                                                    p.conv.get(), p.x.get(), b.at(xUid),
                                                                    b.workspace(), ws, id),
                        "miopenConvolutionBackwardDataImmediate_impl");
        };
        break;
    case Direction::BackwardWeights:
        body = [=](const Buffers& b) {
            checkMiopen(miopenConvolutionBackwardWeightsImmediate_impl(h, p.y.get(), b.at(yUid), p.x.get(),
                                                                       b.at(xUid), p.conv.get(), p.w.get(), b.at(wUid),
                                                                       b.workspace(), ws, id),
                        "miopenConvolutionBackwardWeightsImmediate_impl");
        };
        break;
    }
    auto plan = std::make_unique<MiopenPlan>(ctx.handle, ws,
                                             std::string(directionName(d)) + " " + p.text + " solution "
                                                 + std::to_string(id),
                                             std::move(body));
    plan->setSolutionId(id);
    return plan;
}

} // namespace

std::unique_ptr<MiopenPlan> buildConvFprop(const GraphView& graph, const BuildContext& ctx)
{
    if(graph.nodeCount() > 1)
    {
        return buildConvFusion(graph, ctx);
    }
    const auto* a = graph.node(0).attributes_as_ConvolutionFwdAttributes();
    const auto& x = graph.tensor(a->x_tensor_uid());
    const auto& w = graph.tensor(a->w_tensor_uid());
    const auto& y = graph.tensor(a->y_tensor_uid());
    return buildConv(Direction::Forward, ctx, convProblem(*a, x, w, y, ctx.deterministic), x.uid(), w.uid(), y.uid());
}

std::unique_ptr<MiopenPlan> buildConvDgrad(const GraphView& graph, const BuildContext& ctx)
{
    declineIf(graph.nodeCount() != 1, "conv_dgrad is run alone (no fusion)");
    const auto* a = graph.node(0).attributes_as_ConvolutionBwdAttributes();
    const auto& dy = graph.tensor(a->dy_tensor_uid());
    const auto& w = graph.tensor(a->w_tensor_uid());
    const auto& dx = graph.tensor(a->dx_tensor_uid());
    return buildConv(Direction::BackwardData, ctx, convProblem(*a, dx, w, dy, ctx.deterministic), dx.uid(), w.uid(),
                     dy.uid());
}

std::unique_ptr<MiopenPlan> buildConvWgrad(const GraphView& graph, const BuildContext& ctx)
{
    declineIf(graph.nodeCount() != 1, "conv_wgrad is run alone (no fusion)");
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
