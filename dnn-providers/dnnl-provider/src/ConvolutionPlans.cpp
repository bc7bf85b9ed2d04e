// Convolutions: fprop (with a fused chain of bias ADD / activations as oneDNN post-ops), dgrad and
// wgrad. 1-D, 2-D and 3-D, grouped (incl. depthwise), dilated, asymmetric padding, any strides.
//
// Algorithm and layouts (README "Convolution algorithm and layouts"):
// - fp32 convolutions are created with algorithm::convolution_auto, so oneDNN's own dispatcher
//   may choose its Winograd F(4x4,3x3) kernels (jit_wino_4x3) where it deems them faster than
//   direct; bf16 with convolution_direct. fprop is created as prop_kind forward_training: with
//   forward_inference oneDNN's brgconv kernels (channels-last) win its dispatch, which with the
//   caller's NCHW reorders measured up to 2x slower (the output's reorder from channels-last
//   is slow for many channels) -- except fp32 strided convolutions with a kernel larger than 1
//   and many channels (kBrgconvMinChannels), where brgconv is the faster one.
// - Layouts: oneDNN's preferred layouts (format_tag::any), the caller's tensors reordered to and
//   from them in the workspace when they differ; except for 1x1 stride-1 unpadded fp32
//   convolutions with few channels (1/C + 1/K >= kCallerLayoutMinTraffic), which are created on
//   the caller's own layouts: oneDNN then runs one GEMM per image directly on NCHW (or its
//   channels-last kernels on NHWC) and the two big reorders, which cost as much as the GEMM for
//   such layers, disappear.
#include "DnnlGraphUtils.hpp"

#include <hipdnn_data_sdk/utilities/ShapeUtilities.hpp>

#include <algorithm>
#include <initializer_list>

namespace dnnl_provider
{

namespace
{

using tag = dnnl::memory::format_tag;

/// Geometry shared by the three directions, checked against the tensors' dims.
struct ConvGeometry
{
    std::vector<int64_t> x, w, y; // logical dims: x/dx, w/dw, y/dy
    dnnl::memory::dims strides, dilates, padL, padR;
    int64_t groups = 1;
    std::string text;
};

template <typename A>
ConvGeometry convGeometry(const A& a, const std::vector<int64_t>& x, const std::vector<int64_t>& w,
                          const std::vector<int64_t>& y)
{
    declineIf(a.conv_mode() != dobj::ConvMode::CROSS_CORRELATION,
              std::string("convolution mode ") + dobj::EnumNameConvMode(a.conv_mode())
                  + " is not run by the oneDNN provider (CROSS_CORRELATION only)");
    declineIf(x.size() < 3 || x.size() > 5 || w.size() != x.size() || y.size() != x.size(),
              "convolutions of rank " + std::to_string(x.size()) + " are not run (1-D, 2-D and 3-D only)");
    const size_t spatial = x.size() - 2;
    ConvGeometry g;
    g.x = x;
    g.w = w;
    g.y = y;
    const auto pre = vec(a.pre_padding()), post = vec(a.post_padding()), stride = vec(a.stride()),
               dilation = vec(a.dilation());
    declineIf(pre.size() != spatial || post.size() != spatial || stride.size() != spatial
                  || dilation.size() != spatial,
              "convolution padding/stride/dilation do not have one entry per spatial dimension");
    for(size_t s = 0; s < spatial; ++s)
    {
        declineIf(stride[s] < 1 || dilation[s] < 1 || pre[s] < 0 || post[s] < 0,
                  "convolution strides and dilations must be >= 1 and paddings >= 0");
        g.strides.push_back(stride[s]);
        g.dilates.push_back(dilation[s] - 1); // oneDNN counts dilation from 0
        g.padL.push_back(pre[s]);
        g.padR.push_back(post[s]);
    }
    declineIf(w[1] <= 0 || x[1] % w[1] != 0, "input channels " + std::to_string(x[1])
                                                 + " are not a multiple of the weights' channels "
                                                 + std::to_string(w[1]));
    g.groups = x[1] / w[1];
    declineIf(w[0] % g.groups != 0 || y[1] != w[0], "output channels do not match the weights of "
                                                        + std::to_string(g.groups) + " group(s)");
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
    g.text = std::to_string(spatial) + "-D groups=" + std::to_string(g.groups);
    return g;
}

dnnl::memory::desc anyDesc(const std::vector<int64_t>& dims, dnnl::memory::data_type type)
{
    return dnnl::memory::desc(dims, type, tag::any);
}

/// 1x1 convolutions run on the caller's layouts when 1/C + 1/K is at least this: the reorders'
/// memory traffic per multiply-add, (C + K) / (C * K), is then large enough that skipping them
/// beats oneDNN's blocked kernels. Measured on ResNet-50's 1x1 layers at N=32 (AVX-512, oneDNN
/// 2.6, README): caller layouts win for 64->64/256, 256->64/128, 128->512, 512->128/256
/// (1/C + 1/K >= 0.0059) and lose for 1024->256, 512->2048 (<= 0.0049).
constexpr double kCallerLayoutMinTraffic = 1.0 / 192;

/// fp32 fprop of a strided convolution with a kernel larger than 1 and at least this many input
/// channels per group is created as forward_inference (oneDNN's brgconv) instead of
/// forward_training (its direct jit kernel; Winograd is out with strides). Time inference /
/// training at N=32, reorders included (benchmarks/dnnl_fprop_variants, README): 0.89 / 0.80 /
/// 0.90 on ResNet-50's 3x3 stride-2 layers of 128 / 256 / 512 channels, 0.96 on 5x5 stride-2
/// 64->64 56x56, 1.01 on the 7x7 stride-2 stem (3 channels), but 1.24 on 3x3 stride-2 32->32
/// 112x112.
constexpr int64_t kBrgconvMinChannels = 64;

/// How the provider creates a convolution (see the file comment).
struct ConvAlgorithm
{
    dnnl::algorithm algorithm = dnnl::algorithm::convolution_direct;
    dnnl::prop_kind fpropKind = dnnl::prop_kind::forward_training; // of a conv_fprop graph
    bool fp32 = false;
};

ConvAlgorithm convAlgorithm(const ConvGeometry& g, std::initializer_list<dnnl::memory::data_type> types)
{
    ConvAlgorithm a;
    a.fp32 = std::all_of(types.begin(), types.end(), [](auto t) { return t == dnnl::memory::data_type::f32; });
    if(!a.fp32)
    {
        return a;
    }
    a.algorithm = dnnl::algorithm::convolution_auto;
    bool kernel = false, strided = false;
    for(size_t s = 0; s < g.strides.size(); ++s)
    {
        kernel  = kernel || g.w[2 + s] > 1;
        strided = strided || g.strides[s] > 1;
    }
    if(kernel && strided && g.x[1] / g.groups >= kBrgconvMinChannels)
    {
        a.fpropKind = dnnl::prop_kind::forward_inference;
    }
    return a;
}

/// True when the convolution is first tried on the caller's layouts (see kCallerLayoutMinTraffic).
bool tryCallerLayouts(const ConvGeometry& g, const ConvAlgorithm& a)
{
    if(!a.fp32 || g.groups != 1)
    {
        return false;
    }
    for(size_t s = 0; s < g.strides.size(); ++s)
    {
        if(g.w[2 + s] != 1 || g.strides[s] != 1 || g.padL[s] != 0 || g.padR[s] != 0)
        {
            return false;
        }
    }
    const double c = static_cast<double>(g.x[1]), k = static_cast<double>(g.y[1]);
    return 1.0 / c + 1.0 / k >= kCallerLayoutMinTraffic;
}

/// A primitive descriptor created on the caller's layouts is kept only when oneDNN runs an
/// optimized implementation on them (a GEMM or a JIT kernel), never its reference loops.
bool optimizedOnCallerLayouts(const dnnl::primitive_desc_base& pd)
{
    return std::string(pd.impl_info_str()).rfind("ref", 0) != 0;
}

/// The tensors' descriptors a convolution is created with: oneDNN's choice (`any`) or the
/// caller's own.
struct ConvDescs
{
    dnnl::memory::desc src, wei, dst;
};

/// Creates the convolution with `make(descs)` on the caller's layouts when the rule says so and
/// oneDNN has an optimized implementation there, else on oneDNN's preferred layouts.
template <typename Make>
auto createConv(const ConvGeometry& g, const ConvAlgorithm& a, const ConvDescs& caller, const ConvDescs& preferred,
                Make make) -> decltype(make(preferred))
{
    if(tryCallerLayouts(g, a))
    {
        try
        {
            auto pd = make(caller);
            if(optimizedOnCallerLayouts(pd))
            {
                return pd;
            }
        }
        catch(const dnnl::error& e)
        {
            if(e.status != dnnl_unimplemented)
            {
                throw;
            }
        }
    }
    return make(preferred);
}

std::string implName(const dnnl::primitive_desc_base& pd)
{
    return pd.impl_info_str();
}

/// The node that consumes `uid` (index > after), or -1.
int consumerOf(const GraphView& graph, int64_t uid, size_t after)
{
    for(size_t n = after + 1; n < graph.nodeCount(); ++n)
    {
        const auto* p = graph.node(n).attributes_as_PointwiseAttributes();
        if(p != nullptr
           && (p->in_0_tensor_uid() == uid || p->in_1_tensor_uid() == uid || p->in_2_tensor_uid() == uid))
        {
            return static_cast<int>(n);
        }
    }
    return -1;
}

} // namespace

void buildConvFprop(const GraphView& graph, PlanRecipe& recipe)
{
    const auto* a = graph.node(0).attributes_as_ConvolutionFwdAttributes();
    const auto& x = graph.tensor(a->x_tensor_uid());
    const auto& w = graph.tensor(a->w_tensor_uid());
    const auto& y = graph.tensor(a->y_tensor_uid());
    const ConvGeometry g = convGeometry(*a, vec(x.dims()), vec(w.dims()), vec(y.dims()));
    const int64_t k = g.y[1];

    // The chain after the convolution: each node a pointwise reading the previous output.
    dnnl::post_ops ops;
    const dobj::TensorAttributes* bias = nullptr;
    std::vector<std::pair<int, const dobj::TensorAttributes*>> binaryInputs; // post-op index, tensor
    const dobj::TensorAttributes* current = &y;
    std::string chain;
    for(size_t n = 1; n < graph.nodeCount(); ++n)
    {
        const auto& node = graph.node(n);
        const auto* p = node.attributes_as_PointwiseAttributes();
        declineIf(p == nullptr, std::string("a convolution can only be followed by pointwise bias ADD / activation "
                                            "nodes, not by ")
                                    + dobj::EnumNameNodeAttributes(node.attributes_type()));
        declineIf(!current->virtual_(), label(*current) + " is a graph output and also feeds node "
                                            + std::to_string(n) + ": only chains with virtual intermediates fuse");
        declineIf(consumerOf(graph, current->uid(), n - 1) != static_cast<int>(n),
                  label(*current) + " does not feed the next node: only linear chains fuse");
        const auto mode = p->operation();
        if(mode == dobj::PointwiseMode::ADD)
        {
            declineIf(!p->in_1_tensor_uid().has_value(), "pointwise ADD without a second input");
            const int64_t other = p->in_0_tensor_uid() == current->uid() ? *p->in_1_tensor_uid() : p->in_0_tensor_uid();
            declineIf(other == current->uid(), "pointwise ADD of the convolution output with itself is not fused");
            const auto& t = graph.tensor(other);
            declineIf(t.virtual_(), label(t) + " is virtual: the addend of a fused ADD must be a graph input");
            const auto d = vec(t.dims());
            declineIf(d.size() != g.y.size(), label(t) + " does not have the convolution output's rank");
            bool perChannel = d[1] == k;
            bool broadcastable = true;
            for(size_t i = 0; i < d.size(); ++i)
            {
                perChannel = perChannel && (i == 1 || d[i] == 1);
                broadcastable = broadcastable && (d[i] == 1 || d[i] == g.y[i]);
            }
            declineIf(!broadcastable, label(t) + " of dims " + dimsText(d) + " does not broadcast to the output "
                                          + dimsText(g.y));
            if(perChannel && bias == nullptr && ops.len() == 0)
            {
                bias = &t;
                chain += " + bias";
            }
            else
            {
                binaryInputs.emplace_back(ops.len(), &t);
                ops.append_binary(dnnl::algorithm::binary_add, userDesc(t));
                chain += " + add";
            }
        }
        else
        {
            declineIf(p->in_1_tensor_uid().has_value() || p->in_2_tensor_uid().has_value(),
                      std::string("pointwise ") + dobj::EnumNamePointwiseMode(mode)
                          + " after a convolution is not fused (bias ADD and unary activations only)");
            const EltwiseOp op = eltwiseFor(*p);
            ops.append_eltwise(1.f, op.algorithm, op.alpha, op.beta);
            chain += std::string(" + ") + dobj::EnumNamePointwiseMode(mode);
        }
        current = &graph.tensor(p->out_0_tensor_uid());
        declineIf(vec(current->dims()) != g.y, label(*current) + " changes the shape of the fused chain");
    }
    const auto& out = *current;
    declineIf(out.virtual_(), label(out) + " ends the graph but is virtual");

    dnnl::primitive_attr attr = userScratchpadAttr();
    attr.set_post_ops(ops);
    const auto srcType = dnnlType(x);
    const auto weiType = dnnlType(w);
    const auto dstType = dnnlType(out);
    dnnl::memory::desc biasUser;
    if(bias != nullptr)
    {
        const ChannelVector cv = channelVector(*bias, k);
        biasUser = dnnl::memory::desc({k}, dnnlType(*bias), dnnl::memory::dims{cv.stride});
    }
    const ConvAlgorithm alg = convAlgorithm(g, {srcType, weiType, dstType});
    const ConvDescs caller{userDesc(x), weightsDesc(w, g.groups), userDesc(out)};
    const ConvDescs preferred{anyDesc(g.x, srcType), anyDesc(groupedDims(g.w, g.groups), weiType),
                              anyDesc(g.y, dstType)};
    const auto pd = createConv(g, alg, caller, preferred, [&](const ConvDescs& d) {
        return dnnl::convolution_forward::primitive_desc(
            dnnl::convolution_forward::desc(alg.fpropKind, alg.algorithm, d.src, d.wei,
                                            bias != nullptr ? biasUser : dnnl::memory::desc(), d.dst, g.strides,
                                            g.dilates, g.padL, g.padR),
            attr, DnnlRuntime::engine());
    });

    std::unordered_map<int, dnnl::memory> args;
    args[DNNL_ARG_SRC] = recipe.input(x.uid(), userDesc(x), pd.src_desc());
    args[DNNL_ARG_WEIGHTS] = recipe.input(w.uid(), weightsDesc(w, g.groups), pd.weights_desc());
    if(bias != nullptr)
    {
        args[DNNL_ARG_BIAS] = recipe.input(bias->uid(), biasUser, pd.bias_desc());
    }
    for(const auto& [index, t] : binaryInputs)
    {
        // Copied into the workspace before the convolution runs: the addend may be the output's
        // own memory (MIOpen's residual z == y), and oneDNN may write dst before its post-ops read
        // src_1 (e.g. its GEMM convolutions apply post-ops in place afterwards).
        const dnnl::memory user = recipe.user(t->uid(), userDesc(*t));
        const dnnl::memory copy = recipe.workspace(userDesc(*t));
        const dnnl::reorder::primitive_desc rpd(DnnlRuntime::engine(), user.get_desc(), DnnlRuntime::engine(),
                                                copy.get_desc(), userScratchpadAttr());
        recipe.addPrimitive(dnnl::reorder(rpd), rpd, {{DNNL_ARG_FROM, user}, {DNNL_ARG_TO, copy}});
        args[DNNL_ARG_ATTR_MULTIPLE_POST_OP(index) | DNNL_ARG_SRC_1] = copy;
    }
    args[DNNL_ARG_DST] = recipe.output(out.uid(), userDesc(out), pd.dst_desc());
    recipe.describe("conv_fprop " + g.text + chain + " [" + implName(pd) + "]");
    recipe.addPrimitive(dnnl::convolution_forward(pd), pd, std::move(args));
}

void buildConvDgrad(const GraphView& graph, PlanRecipe& recipe)
{
    declineIf(graph.nodeCount() != 1, "conv_dgrad is run alone (no fusion)");
    const auto* a = graph.node(0).attributes_as_ConvolutionBwdAttributes();
    const auto& dy = graph.tensor(a->dy_tensor_uid());
    const auto& w = graph.tensor(a->w_tensor_uid());
    const auto& dx = graph.tensor(a->dx_tensor_uid());
    const ConvGeometry g = convGeometry(*a, vec(dx.dims()), vec(w.dims()), vec(dy.dims()));
    const auto dxType = dnnlType(dx), weiType = dnnlType(w), dyType = dnnlType(dy);
    const ConvAlgorithm alg = convAlgorithm(g, {dxType, weiType, dyType});
    const ConvDescs caller{userDesc(dx), weightsDesc(w, g.groups), userDesc(dy)};
    const ConvDescs preferred{anyDesc(g.x, dxType), anyDesc(groupedDims(g.w, g.groups), weiType),
                              anyDesc(g.y, dyType)};
    const auto pd = createConv(g, alg, caller, preferred, [&](const ConvDescs& d) {
        const dnnl::convolution_forward::primitive_desc hint(
            dnnl::convolution_forward::desc(dnnl::prop_kind::forward_training, alg.algorithm, d.src, d.wei, d.dst,
                                            g.strides, g.dilates, g.padL, g.padR),
            DnnlRuntime::engine());
        return dnnl::convolution_backward_data::primitive_desc(
            dnnl::convolution_backward_data::desc(alg.algorithm, d.src, d.wei, d.dst, g.strides, g.dilates, g.padL,
                                                  g.padR),
            userScratchpadAttr(), DnnlRuntime::engine(), hint);
    });
    std::unordered_map<int, dnnl::memory> args;
    args[DNNL_ARG_DIFF_DST] = recipe.input(dy.uid(), userDesc(dy), pd.diff_dst_desc());
    args[DNNL_ARG_WEIGHTS] = recipe.input(w.uid(), weightsDesc(w, g.groups), pd.weights_desc());
    args[DNNL_ARG_DIFF_SRC] = recipe.output(dx.uid(), userDesc(dx), pd.diff_src_desc());
    recipe.describe("conv_dgrad " + g.text + " [" + implName(pd) + "]");
    recipe.addPrimitive(dnnl::convolution_backward_data(pd), pd, std::move(args));
}

void buildConvWgrad(const GraphView& graph, PlanRecipe& recipe)
{
    declineIf(graph.nodeCount() != 1, "conv_wgrad is run alone (no fusion)");
    const auto* a = graph.node(0).attributes_as_ConvolutionWrwAttributes();
    const auto& x = graph.tensor(a->x_tensor_uid());
    const auto& dy = graph.tensor(a->dy_tensor_uid());
    const auto& dw = graph.tensor(a->dw_tensor_uid());
    const ConvGeometry g = convGeometry(*a, vec(x.dims()), vec(dw.dims()), vec(dy.dims()));
    const auto srcType = dnnlType(x), dwType = dnnlType(dw), dyType = dnnlType(dy);
    const ConvAlgorithm alg = convAlgorithm(g, {srcType, dwType, dyType});
    const ConvDescs caller{userDesc(x), weightsDesc(dw, g.groups), userDesc(dy)};
    const ConvDescs preferred{anyDesc(g.x, srcType), anyDesc(groupedDims(g.w, g.groups), dwType),
                              anyDesc(g.y, dyType)};
    const auto pd = createConv(g, alg, caller, preferred, [&](const ConvDescs& d) {
        const dnnl::convolution_forward::primitive_desc hint(
            dnnl::convolution_forward::desc(dnnl::prop_kind::forward_training, alg.algorithm, d.src, d.wei, d.dst,
                                            g.strides, g.dilates, g.padL, g.padR),
            DnnlRuntime::engine());
        return dnnl::convolution_backward_weights::primitive_desc(
            dnnl::convolution_backward_weights::desc(alg.algorithm, d.src, d.wei, dnnl::memory::desc(), d.dst,
                                                     g.strides, g.dilates, g.padL, g.padR),
            userScratchpadAttr(), DnnlRuntime::engine(), hint);
    });
    std::unordered_map<int, dnnl::memory> args;
    args[DNNL_ARG_SRC] = recipe.input(x.uid(), userDesc(x), pd.src_desc());
    args[DNNL_ARG_DIFF_DST] = recipe.input(dy.uid(), userDesc(dy), pd.diff_dst_desc());
    args[DNNL_ARG_DIFF_WEIGHTS] = recipe.output(dw.uid(), weightsDesc(dw, g.groups), pd.diff_weights_desc());
    recipe.describe("conv_wgrad " + g.text + " [" + implName(pd) + "]");
    recipe.addPrimitive(dnnl::convolution_backward_weights(pd), pd, std::move(args));
}

} // namespace dnnl_provider
