// hipDNN forwarding of the fusion-plan API (forwarding_fusion.hpp; docs/wrapper.md "Fusion plans").
//
// The wrapper's record of each fusion plan (direction, input tensor, operators in order with
// their descriptors read through Private's getters at creation, whether the last compile
// succeeded) and of each operator-argument object (per operator: pointers and scalars), kept under
// one mutex, is what miopenExecuteFusionPlan translates into ONE hipDNN graph:
//   conv [-> bias] [-> activation]  ->  conv_fprop -> [pointwise ADD bias] -> [pointwise activation]
//                                       (the shape miopenConvolutionBiasActivationForward forwards)
//   batchnorm inference -> activation  ->  batchnorm_inference_variance_ext -> pointwise activation
// Checked in the playbook's order, with two groups of declines: the plan's operator sequence
// first (what no graph expresses: training or backward operators, a convolution with batchnorm,
// bias without a convolution), then what Private judges (not compiled, descriptors that differ
// from the plan's, missing operator arguments, null pointers: its status is the answer), then the
// remaining declines (data types, layouts, activations, the convolution's alpha).
// Verify mode runs Private's miopenExecuteFusionPlan_impl into scratch and compares.
#include "forwarding_fusion.hpp"

#include "forwarding.hpp"
#include "forwarding_activation.hpp"
#include "forwarding_core.hpp"
#include "forwarding_skeleton.hpp"
#include "shadow_verify.hpp"

#include <miopen/miopen_impl.h>

#include <chrono>
#include <cstdio>
#include <cstring>

namespace miopen {
namespace wrapper {
namespace fwd {
namespace fusion {

using namespace core;

namespace {

// ---- the records -------------------------------------------------------------------------------------

struct OpRec
{
    miopenFusionOpDescriptor_t op = nullptr;
    OpKind kind                   = OpKind::Conv;
    bool readable = true; // the descriptors read back through Private's getters
    TensorInfo desc;      // weights (Conv), bias (Bias), statistics (BnInference)
    ConvInfo conv;
    int mode = 0; // activation mode or batchnorm mode
};

struct PlanRec
{
    int direction  = 0;
    bool inputOk   = false;
    TensorInfo input;
    std::vector<OpRec> ops;
    bool compiled = false; // the last compile succeeded and no operator was appended since
};

struct ArgsRec
{
    std::vector<std::pair<miopenFusionOpDescriptor_t, OpArgs>> ops;
};

struct Registry
{
    std::mutex m;
    std::unordered_map<miopenFusionPlanDescriptor_t, PlanRec> plans;
    std::unordered_map<miopenOperatorArgs_t, ArgsRec> args;
};

Registry& registry()
{
    static auto* r = new Registry(); // never destroyed: stubs may run during static destruction
    return *r;
}

} // namespace

void onCreatePlan(miopenFusionPlanDescriptor_t plan, int direction, miopenTensorDescriptor_t input) noexcept
{
    try
    {
        PlanRec r;
        r.direction = direction;
        r.inputOk   = readTensor(input, r.input);
        auto& reg   = registry();
        std::lock_guard<std::mutex> l(reg.m);
        reg.plans[plan] = std::move(r); // a new object at a destroyed one's address replaces its record
    }
    catch(...)
    {
        // Out of memory: the plan stays unrecorded, and its executions go to Private ("plan").
    }
}

void onDestroyPlan(miopenFusionPlanDescriptor_t plan) noexcept
{
    auto& reg = registry();
    std::lock_guard<std::mutex> l(reg.m);
    reg.plans.erase(plan);
}

void onCompilePlan(miopenFusionPlanDescriptor_t plan, bool compiled) noexcept
{
    auto& reg = registry();
    std::lock_guard<std::mutex> l(reg.m);
    auto it = reg.plans.find(plan);
    if(it != reg.plans.end())
        it->second.compiled = compiled;
}

void onCreateOp(miopenFusionPlanDescriptor_t plan, miopenFusionOpDescriptor_t op, OpKind kind,
                miopenConvolutionDescriptor_t conv, miopenTensorDescriptor_t desc, int mode) noexcept
{
    try
    {
        OpRec r;
        r.op   = op;
        r.kind = kind;
        r.mode = mode;
        if(desc != nullptr)
            r.readable = readTensor(desc, r.desc);
        if(kind == OpKind::Conv)
            r.readable = r.readable && readConv(conv, r.conv) && r.conv.spatial <= kMaxDims - 2;
        auto& reg = registry();
        std::lock_guard<std::mutex> l(reg.m);
        auto it = reg.plans.find(plan);
        if(it == reg.plans.end())
            return;
        it->second.ops.push_back(r);
        it->second.compiled = false; // Private drops the compiled form too (FusionPlan::addOp)
    }
    catch(...)
    {
        // Out of memory: forget the plan, so its executions go to Private rather than run a
        // graph without this operator.
        auto& reg = registry();
        std::lock_guard<std::mutex> l(reg.m);
        reg.plans.erase(plan);
    }
}

void onCreateArgs(miopenOperatorArgs_t args) noexcept
{
    try
    {
        auto& reg = registry();
        std::lock_guard<std::mutex> l(reg.m);
        reg.args[args] = ArgsRec{};
    }
    catch(...)
    {
    }
}

void onDestroyArgs(miopenOperatorArgs_t args) noexcept
{
    auto& reg = registry();
    std::lock_guard<std::mutex> l(reg.m);
    reg.args.erase(args);
}

void onSetArgs(miopenOperatorArgs_t args, miopenFusionOpDescriptor_t op, const OpArgs& a) noexcept
{
    auto& reg = registry();
    std::lock_guard<std::mutex> l(reg.m);
    auto it = reg.args.find(args);
    if(it == reg.args.end())
        return;
    auto& ops = it->second.ops;
    try
    {
        for(auto& e : ops)
            if(e.first == op)
            {
                e.second = a;
                return;
            }
        ops.emplace_back(op, a);
    }
    catch(...)
    {
        reg.args.erase(it); // unknown args: executions with them go to Private
    }
}

namespace {

// ---- the problem ---------------------------------------------------------------------------------

enum class Shape
{
    Conv,        // conv [bias] [activation]
    BnActivation // batchnorm inference, activation
};

struct FusionProblem
{
    Shape shape = Shape::Conv;
    TensorInfo x, y, w, bias, param; // param: the batchnorm statistics descriptor
    ConvInfo conv;
    bool hasBias = false, hasAct = false;
    int actMode  = 0;
    OpArgs convArgs, biasArgs, bnArgs, actArgs;
    miopenAcceleratorQueue_t stream = nullptr;
};


bool sameTensor(const TensorInfo& a, const TensorInfo& b)
{
    return a.type == b.type && a.rank == b.rank && std::equal(a.lens.begin(), a.lens.begin() + a.rank, b.lens.begin()) &&
           std::equal(a.strides.begin(), a.strides.begin() + a.rank, b.strides.begin());
}

// Packed in the natural N, C, ... order.
bool packedNatural(const TensorInfo& t)
{
    long long s = 1;
    for(int i = t.rank - 1; i >= 0; --i)
    {
        const auto d = static_cast<std::size_t>(i);
        if(t.lens[d] != 1 && t.strides[d] != s)
            return false;
        s *= t.lens[d];
    }
    return true;
}

// The operator sequence: what no graph of this translation expresses is declined whatever the
// arguments (Private refuses to compile most of these sequences anyway).
Check examineSequence(const PlanRec& plan)
{
    if(plan.direction != miopenVerticalFusion)
        return decline("horizontal-fusion");
    for(const OpRec& o : plan.ops)
    {
        if(o.kind == OpKind::BnForward || o.kind == OpKind::BnBackward)
            return decline("batchnorm-training");
        if(o.kind == OpKind::ActivBackward)
            return decline("activation-backward");
    }
    const auto& ops = plan.ops;
    if(ops.empty())
        return decline("empty-plan");
    if(ops[0].kind == OpKind::Conv)
    {
        std::size_t i = 1;
        if(i < ops.size() && ops[i].kind == OpKind::Bias)
            ++i;
        if(i < ops.size() && ops[i].kind == OpKind::BnInference)
            return decline("conv-batchnorm"); // no engine fuses a convolution with batchnorm
        if(i < ops.size() && ops[i].kind == OpKind::ActivForward)
            ++i;
        return i == ops.size() && ops.size() >= 2 ? Check{} : decline("operator-order");
    }
    if(ops[0].kind == OpKind::Bias)
        return decline("bias-without-conv");
    if(ops[0].kind == OpKind::BnInference)
        return ops.size() == 2 && ops[1].kind == OpKind::ActivForward ? Check{} : decline("operator-order");
    return decline("operator-order");
}

const OpArgs* findArgs(const ArgsRec& a, miopenFusionOpDescriptor_t op)
{
    for(const auto& e : a.ops)
        if(e.first == op)
            return &e.second;
    return nullptr;
}

// Everything, in order: the sequence, what Private judges, what hipDNN cannot express.
Check examine(const FusionCall& c, FusionProblem& p)
{
    if(miopenGetStream_impl(c.handle, &p.stream) != miopenStatusSuccess)
        return invalid("handle");
    PlanRec plan;
    ArgsRec args;
    bool haveArgs = false;
    {
        auto& reg = registry();
        std::lock_guard<std::mutex> l(reg.m);
        auto it = reg.plans.find(c.plan);
        if(it == reg.plans.end())
            return invalid("plan");
        plan = it->second;
        auto ia = reg.args.find(c.args);
        if(ia != reg.args.end())
        {
            args     = ia->second;
            haveArgs = true;
        }
    }
    if(const Check seq = examineSequence(plan); seq.verdict != Verdict::Forward)
        return seq;
    // What Private judges.
    if(!plan.compiled)
        return invalid("not-compiled");
    if(!plan.inputOk)
        return invalid("plan");
    for(const OpRec& o : plan.ops)
        if(!o.readable)
            return invalid("descriptor");
    if(!readTensor(c.inputDesc, p.x) || !readTensor(c.outputDesc, p.y))
        return invalid("descriptor");
    if(!sameTensor(p.x, plan.input))
        return invalid("input-descriptor");
    if(!haveArgs)
        return invalid("args");
    for(const OpRec& o : plan.ops)
    {
        const OpArgs* a = findArgs(args, o.op);
        if(a == nullptr)
            return invalid("missing-op-args");
        switch(o.kind)
        {
        case OpKind::Conv:
            p.w        = o.desc;
            p.conv     = o.conv;
            p.convArgs = *a;
            break;
        case OpKind::Bias:
            p.hasBias  = true;
            p.bias     = o.desc;
            p.biasArgs = *a;
            break;
        case OpKind::BnInference:
            p.shape  = Shape::BnActivation;
            p.param  = o.desc;
            p.bnArgs = *a;
            if(o.mode != miopenBNSpatial)
                return decline("per-activation-mode");
            break;
        case OpKind::ActivForward:
            p.hasAct  = true;
            p.actMode = o.mode;
            p.actArgs = *a;
            break;
        default: return decline("operator-order"); // examineSequence let no other kind through
        }
    }
    const bool conv = p.shape == Shape::Conv;
    if(conv && p.conv.mode == miopenTranspose)
        return decline("transposed-mode"); // before the output check: its lengths are another rule
    if(conv)
    {
        // The output Private derives: the convolution's lengths in the input's layout. Only
        // packed N, C, ... tensors are forwarded (below), so that layout is the packed one.
        TensorInfo want;
        want.type = p.x.type;
        want.rank = p.x.rank;
        if(p.conv.spatial + 2 != p.x.rank || p.w.rank != p.x.rank)
            return invalid("rank");
        want.lens[0] = p.x.lens[0];
        want.lens[1] = p.w.lens[0];
        for(int i = 0; i < p.conv.spatial; ++i)
        {
            const auto d = static_cast<std::size_t>(i);
            const int in = p.x.lens[d + 2], k = p.w.lens[d + 2];
            want.lens[d + 2] = (in + 2 * p.conv.pads[d] - p.conv.dilations[d] * (k - 1) - 1) / p.conv.strides[d] + 1;
        }
        if(!packedNatural(p.x))
            return decline("layout"); // the engines fuse packed N, C, ... tensors
        int s = 1;
        for(int i = want.rank - 1; i >= 0; --i)
        {
            want.strides[static_cast<std::size_t>(i)] = s;
            s *= want.lens[static_cast<std::size_t>(i)];
        }
        if(p.y.type != want.type || p.y.rank != want.rank ||
           !std::equal(p.y.lens.begin(), p.y.lens.begin() + p.y.rank, want.lens.begin()))
            return invalid("output-descriptor");
        if(!packedNatural(p.y))
            return invalid("output-descriptor");
        if(c.input == nullptr || c.output == nullptr)
            return invalid("null-data-pointer");
        if(p.convArgs.w == nullptr || (p.hasBias && p.biasArgs.bias == nullptr))
            return invalid("null-data-pointer");
    }
    else
    {
        if(!sameTensor(p.y, p.x))
            return invalid("output-descriptor");
        if(c.input == nullptr || c.output == nullptr)
            return invalid("null-data-pointer");
        const OpArgs& b = p.bnArgs;
        if(b.scale == nullptr || b.bias == nullptr || b.mean == nullptr || b.var == nullptr)
            return invalid("null-data-pointer");
        if(!(b.epsilon >= 0.0))
            return invalid("epsilon");
    }
    // Declines.
    if(toHipdnn(p.x.type) == fe::DataType::NOT_SET)
        return decline("dtype");
    if(conv)
    {
        if(p.conv.spatial < 2 || p.conv.spatial > 3)
            return decline("spatial-dims");
        if(p.w.type != p.x.type)
            return decline("mixed-dtype");
        if(!packedNatural(p.w))
            return decline("layout");
        if(p.convArgs.alpha != 1.0f)
            return decline("alpha!=1");
        if(p.hasBias)
        {
            if(p.bias.type != p.x.type)
                return decline("mixed-dtype");
            // MIOpen takes a K-vector or a 1 x K x 1 ... tensor: the graph's bias is the latter.
            if(p.bias.rank == 1)
            {
                const int stride = p.bias.strides[0];
                p.bias.rank      = p.y.rank;
                for(int i = 0; i < p.y.rank; ++i)
                {
                    p.bias.lens[static_cast<std::size_t>(i)]    = i == 1 ? p.y.lens[1] : 1;
                    p.bias.strides[static_cast<std::size_t>(i)] = i == 0 ? p.y.lens[1] * stride : i == 1 ? stride : 1;
                }
            }
            if(p.bias.rank != p.y.rank || p.bias.lens[1] != p.y.lens[1])
                return invalid("bias-dims");
        }
        // Every activation the shared translation maps follows a fused convolution: the MIOpen
        // engine runs the conv epilogue with Private's activation, the oneDNN engine an eltwise
        // post-op (miopenConvolutionBiasActivationForward stays RELU-only: Private's status).
    }
    else
    {
        if(p.x.rank < 3 || p.x.rank > 5)
            return decline("rank");
        if(!isDense(p.x))
            return decline("layout");
        if(p.param.rank != p.x.rank || !isDense(p.param))
            return decline("parameter-layout");
        if(p.param.type != miopenFloat && p.param.type != p.x.type)
            return decline("mixed-parameter-dtype");
    }
    if(p.hasAct)
    {
        const auto t = translateActivation(p.actMode, p.actArgs.activAlpha, p.actArgs.activBeta,
                                           p.actArgs.activGamma, false);
        if(!t.ok)
            return decline(t.reason);
    }
    return {};
}

ProblemKey key(const FusionCall&, const FusionProblem& p)
{
    ProblemKey k;
    k.push(static_cast<std::int32_t>(p.shape));
    k.push((p.hasBias ? 1 : 0) | (p.hasAct ? 2 : 0));
    k.pushTensor(p.x);
    k.pushTensor(p.y);
    if(p.shape == Shape::Conv)
    {
        k.pushTensor(p.w);
        if(p.hasBias)
            k.pushTensor(p.bias);
        k.push(p.conv.spatial);
        for(int i = 0; i < p.conv.spatial; ++i)
        {
            const auto d = static_cast<std::size_t>(i);
            k.push(p.conv.pads[d]);
            k.push(p.conv.strides[d]);
            k.push(p.conv.dilations[d]);
        }
        k.push(p.conv.groups);
    }
    else
    {
        k.pushTensor(p.param);
        k.pushDouble(p.bnArgs.epsilon); // a value of the graph
    }
    if(p.hasAct)
    {
        // The activation's parameters are values of the graph's pointwise node.
        k.push(p.actMode);
        k.pushDouble(p.actArgs.activAlpha);
        k.pushDouble(p.actArgs.activBeta);
        k.pushDouble(p.actArgs.activGamma);
    }
    return k;
}

// ---- translation ---------------------------------------------------------------------------------

namespace uid {
constexpr std::int64_t kX = 1, kW = 2, kY = 3, kBias = 4, kScale = 5, kBnBias = 6, kMean = 7, kVar = 8,
                       kEpsilon = 9;
} // namespace uid

std::unique_ptr<gr::Graph> translate(const FusionCall&, const FusionProblem& p)
{
    auto g = newGraph(p.x.type);
    gr::TensorPtr cur;
    if(p.shape == Shape::Conv)
    {
        cur = g->conv_fprop(graphTensor(p.x, uid::kX, "x"), graphTensor(p.w, uid::kW, "w"),
                            convAttributes<gr::ConvFpropAttributes>(p.conv));
        if(p.hasBias)
            cur = g->pointwise(cur, graphTensor(p.bias, uid::kBias, "bias"),
                               gr::PointwiseAttributes().set_mode(fe::PointwiseMode::ADD).set_compute_data_type(
                                   fe::DataType::FLOAT));
    }
    else
    {
        auto a = gr::BatchnormInferenceAttributes().set_compute_data_type(fe::DataType::FLOAT);
        // hipDNN's scalar tensors are fp32 (the engines read them as such).
        a.set_epsilon(g->tensor(gr::TensorAttributes()
                                    .set_uid(uid::kEpsilon)
                                    .set_name("epsilon")
                                    .set_value(static_cast<float>(p.bnArgs.epsilon))));
        cur = g->batchnorm_inference_variance_ext(
            graphTensor(p.x, uid::kX, "x"), graphTensor(p.param, uid::kMean, "mean"),
            graphTensor(p.param, uid::kVar, "variance"), graphTensor(p.param, uid::kScale, "scale"),
            graphTensor(p.param, uid::kBnBias, "bias"), a);
    }
    if(p.hasAct)
    {
        auto t = translateActivation(p.actMode, p.actArgs.activAlpha, p.actArgs.activBeta, p.actArgs.activGamma, false);
        cur    = g->pointwise(cur, t.attributes);
    }
    setOutput(cur, p.y, uid::kY, "y");
    return g;
}

const char* shapeName(const FusionProblem& p) { return p.shape == Shape::Conv ? "convolution" : "batchnorm"; }

// ---- MIOPEN_ENABLE_LOGGING_CMD ----------------------------------------------------------------------

// The line Private prints for this plan (FusionPlan::driverArgs in projects/miopen/src/fusion.cpp:
// upstream's fusion mode of the exact operator sequence, then the convolution's or the batchnorm's
// driver arguments), so a logged reproducer does not depend on the route. Forwarded convolution
// plans are packed N, C, ... (no layout flags) and not transposed.
void logDriverCommand(const FusionCall&, const FusionProblem& p)
{
    const char* suffix = p.x.type == miopenHalf ? "fp16" : p.x.type == miopenBFloat16 ? "bfp16" : "";
    auto n             = [](const std::array<int, kMaxDims>& a, int i) { return std::to_string(a[static_cast<std::size_t>(i)]); };
    std::string line   = std::string("Command [LogCmdFusion] ./bin/MIOpenDriver CBAInfer") + suffix;
    const TensorInfo& x = p.x;
    if(p.shape == Shape::BnActivation)
    {
        line += " -F 2";
        if(x.rank == 5)
            line += " -n " + n(x.lens, 0) + " -c " + n(x.lens, 1) + " -D " + n(x.lens, 2) + " -H " + n(x.lens, 3) +
                    " -W " + n(x.lens, 4);
        else
        {
            long long h = 1; // MIOpen's driverNchw: the middle dimensions folded into H
            for(int i = 2; i + 1 < x.rank; ++i)
                h *= x.lens[static_cast<std::size_t>(i)];
            line += " -n " + n(x.lens, 0) + " -c " + n(x.lens, 1) + " -H " + std::to_string(h) + " -W " +
                    n(x.lens, x.rank - 1);
        }
        line += " -m " + std::to_string(static_cast<int>(miopenBNSpatial));
    }
    else
    {
        const int mode = p.hasBias && p.hasAct ? 4 : p.hasAct ? 5 : 6;
        const TensorInfo& w = p.w;
        const ConvInfo& cv   = p.conv;
        line += " -F " + std::to_string(mode) + " -n " + n(x.lens, 0) + " -c " + n(x.lens, 1);
        if(cv.spatial == 3)
            line += " --in_d " + n(x.lens, 2) + " -H " + n(x.lens, 3) + " -W " + n(x.lens, 4) + " -k " + n(w.lens, 0) +
                    " --fil_d " + n(w.lens, 2) + " -y " + n(w.lens, 3) + " -x " + n(w.lens, 4) + " --pad_d " +
                    n(cv.pads, 0) + " -p " + n(cv.pads, 1) + " -q " + n(cv.pads, 2) + " --conv_stride_d " +
                    n(cv.strides, 0) + " -u " + n(cv.strides, 1) + " -v " + n(cv.strides, 2) + " --dilation_d " +
                    n(cv.dilations, 0) + " -l " + n(cv.dilations, 1) + " -j " + n(cv.dilations, 2) +
                    " --spatial_dim 3";
        else
            line += " -H " + n(x.lens, 2) + " -W " + n(x.lens, 3) + " -k " + n(w.lens, 0) + " -y " + n(w.lens, 2) +
                    " -x " + n(w.lens, 3) + " -p " + n(cv.pads, 0) + " -q " + n(cv.pads, 1) + " -u " +
                    n(cv.strides, 0) + " -v " + n(cv.strides, 1) + " -l " + n(cv.dilations, 0) + " -j " +
                    n(cv.dilations, 1);
        line += " -g " + std::to_string(cv.groups);
    }
    std::fprintf(stderr, "MIOpen(HIP): %s\n", line.c_str());
}

// ---- execution -----------------------------------------------------------------------------------------

// The fusion API takes no workspace: the handle's buffer serves (the default callerWorkspace).
void bind(const FusionCall& c, const FusionProblem& p, Bindings& b)
{
    b.add(uid::kX, c.input);
    b.add(uid::kY, c.output);
    if(p.shape == Shape::Conv)
    {
        b.add(uid::kW, p.convArgs.w);
        if(p.hasBias)
            b.add(uid::kBias, p.biasArgs.bias);
    }
    else
    {
        b.add(uid::kScale, p.bnArgs.scale);
        b.add(uid::kBnBias, p.bnArgs.bias);
        b.add(uid::kMean, p.bnArgs.mean);
        b.add(uid::kVar, p.bnArgs.var);
    }
}

// ---- MIOPEN_HIPDNN_FORWARDING=verify ------------------------------------------------------------

// The forwarded call succeeded: run the plan on Private into scratch and compare, with the
// convolution's dot-product bound (plus the bias) or the batchnorm inference tolerance.
Verification shadowVerify(const FusionCall& c, const FusionProblem& p, const NoSnapshot&)
{
    const std::size_t n = elementCount(p.y);
    std::vector<unsigned char> scratch(n * elementBytes(p.y.type));
    const miopenStatus_t st = miopenExecuteFusionPlan_impl(c.handle, c.plan, c.inputDesc, c.input, c.outputDesc,
                                                           scratch.data(), c.args);
    if(st != miopenStatusSuccess)
        return compared(st, p.y.type, c.output, scratch.data(), n, 0.0, "y: ");
    double bound = 0.0;
    if(p.shape == Shape::Conv)
    {
        std::int64_t length = p.w.lens[1];
        for(int i = 2; i < p.w.rank; ++i)
            length *= p.w.lens[static_cast<std::size_t>(i)];
        const double maxBias =
            p.hasBias ? verify::maxAbs(p.bias.type, p.biasArgs.bias, static_cast<std::size_t>(p.y.lens[1])) : 0.0;
        bound = verify::convBound(p.y.type, length, verify::maxAbs(p.x.type, c.input, elementCount(p.x)),
                                  verify::maxAbs(p.w.type, p.convArgs.w, elementCount(p.w)), maxBias);
    }
    else
        bound = verify::bnBound(p.y.type, 0, verify::maxAbs(p.y.type, scratch.data(), n));
    return compared(st, p.y.type, c.output, scratch.data(), n, bound, "y: ");
}

std::string planName(const FusionCall&, const FusionProblem& p) { return std::string("the fused ") + shapeName(p) + " plan"; }

std::string describe(const FusionCall&, const FusionProblem& p)
{
    return std::string("fused ") + shapeName(p) + ", x " + shapeText(p.x);
}

} // namespace

} // namespace fusion

bool tryForward(const FusionCall& c, miopenStatus_t* status) noexcept
{
    return core::forwardCall<fusion::FusionProblem, core::PlanRecord>(c, status);
}

} // namespace fwd
} // namespace wrapper
} // namespace miopen
