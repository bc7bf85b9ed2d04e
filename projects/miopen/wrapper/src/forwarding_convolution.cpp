// hipDNN forwarding of the convolution family: the hooks of the forwarding skeleton
// (forwarding_skeleton.hpp) for ConvolutionCall (forwarding.hpp). One graph per call:
//   Forward          conv_fprop [-> MUL alpha] [-> ADD MUL(prior, beta)]
//   BackwardData     conv_dgrad, the same epilogue
//   BackwardWeights  conv_wgrad, the same epilogue
//   BiasActivation   conv_fprop [-> MUL alpha1] [-> ADD (MUL z alpha2 | z)] -> ADD bias -> [activation]
// A transposed convolution is the regular one with x and y swapped and Forward / BackwardData
// exchanged, as Private runs it. The algorithm, solution id and workspace arguments are judged
// against Private's applicable solutions, read once per cached problem.
#include "forwarding.hpp"

#include "forwarding_activation.hpp"
#include "forwarding_core.hpp"
#include "forwarding_skeleton.hpp"
#include "shadow_verify.hpp"

#include <miopen/miopen_impl.h>
#include <miopen/miopen_solver_catalogue.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

namespace miopen {
namespace wrapper {
namespace fwd {

using namespace core;

namespace {

// What Private says of one algorithm or one solution id for the problem.
struct SolutionFact
{
    bool applicable       = false;
    std::size_t workspace = 0; // the algorithm's smallest, or the solution's
};

struct ConvPlan : PlanRecord
{
    // Facts of the problem read through Private (the cache key holds everything they depend on):
    // once, whether Private accepts the problem and the output dimensions it computes; on first
    // use, what it says of each algorithm and solution id the calls name (validation of algo,
    // workspace, solution id). An entry is written under factsMutex and then published (release)
    // through its state or the count, so a call that finds it takes no lock.
    std::once_flag problemOnce;
    bool outputDimsOk = false;
    bool problemValid = false;
    std::mutex factsMutex;
    std::array<std::atomic<int>, 6> algorithmState{}; // miopenConvAlgorithm_t 0..5: 0 unknown, 1 yes, 2 no
    std::array<std::size_t, 6> algorithmWorkspace{};  // the smallest workspace of its applicable solvers
    static constexpr std::size_t kSolutions = 16;     // solution ids remembered per problem
    std::array<std::pair<std::uint64_t, SolutionFact>, kSolutions> solutions{};
    std::atomic<std::size_t> solutionCount{0};
};

// The graph's problem in regular roles. A transposed convolution is the regular one with x and y
// swapped and Forward / BackwardData exchanged (as Private runs it): `op` is that regular
// direction, `x` the caller's y and `y` the caller's x.
struct ConvProblem
{
    ConvOp op = ConvOp::Forward;
    TensorInfo x, w, y, bias;
    ConvInfo conv;
    miopenAcceleratorQueue_t stream = nullptr; // the handle's stream (not part of the problem key)
    bool transposed = false;
    // The epilogue (graph nodes after the convolution): written = alpha * conv + beta * prior; for
    // BiasActivation y = act(alpha * conv + alpha2 * z + bias) (MIOpen's alpha1).
    float alpha = 1.0f, beta = 0.0f, alpha2 = 1.0f;
    bool hasZ = false;
    TensorInfo z;
    int activation = miopenActivationRELU;
    double activA = 0.0, activB = 0.0, activG = 0.0;
};

ProblemKey key(const ConvolutionCall&, const ConvProblem& p)
{
    ProblemKey k;
    k.push(static_cast<std::int32_t>(p.op));
    k.push(static_cast<std::int32_t>(p.x.type));
    auto addTensor = [&k](const TensorInfo& t) {
        k.push(t.rank);
        for(int i = 0; i < t.rank; ++i)
        {
            k.push(t.lens[static_cast<std::size_t>(i)]);
            k.push(t.strides[static_cast<std::size_t>(i)]);
        }
    };
    addTensor(p.x);
    addTensor(p.w);
    addTensor(p.y);
    if(p.op == ConvOp::BiasActivation)
        addTensor(p.bias);
    k.push(p.conv.spatial);
    for(int i = 0; i < p.conv.spatial; ++i)
    {
        k.push(p.conv.pads[static_cast<std::size_t>(i)]);
        k.push(p.conv.strides[static_cast<std::size_t>(i)]);
        k.push(p.conv.dilations[static_cast<std::size_t>(i)]);
    }
    k.push(p.conv.groups);
    k.push(p.transposed ? 1 : 0);
    k.pushFloat(p.alpha);
    k.pushFloat(p.beta);
    if(p.op == ConvOp::BiasActivation)
    {
        k.pushFloat(p.alpha2);
        k.push(p.hasZ ? 1 : 0);
        if(p.hasZ)
            addTensor(p.z);
        k.push(p.activation);
        k.pushFloat(static_cast<float>(p.activA)); // a pointwise attribute: fp32
        k.pushFloat(static_cast<float>(p.activB)); // a pointwise attribute: fp32
        k.pushFloat(static_cast<float>(p.activG)); // a pointwise attribute: fp32
    }
    return k;
}

// uids: 1 and 2 the inputs, 3 the written tensor, 4 the bias, 5 the caller's prior output (beta;
// the same memory as 3), 6 the residual z; 7, 8, 9 the pass-by-value scalars alpha (alpha1), beta,
// alpha2.
constexpr std::int64_t kUidPrior = 5, kUidZ = 6, kUidAlpha = 7, kUidBeta = 8, kUidAlpha2 = 9;

gr::TensorPtr scalarTensor(float v, std::int64_t uid, const char* name, int rank)
{
    // Dims of all ones at the output's rank: the factor broadcasts against the output.
    gr::TensorAttributes a;
    a.set_uid(uid).set_name(name).set_data_type(fe::DataType::FLOAT).set_dim(std::vector<std::int64_t>(static_cast<std::size_t>(rank), 1))
        .set_stride(std::vector<std::int64_t>(static_cast<std::size_t>(rank), 1)).set_value(v);
    return gr::Graph::tensor(a);
}

gr::PointwiseAttributes pointwiseOf(fe::PointwiseMode m)
{
    return gr::PointwiseAttributes().set_mode(m).set_compute_data_type(fe::DataType::FLOAT);
}

// The epilogue of the plain directions (issue 11), in the node order the engines match:
// conv -> t; [t = MUL(t, alpha)]; [t = ADD(t, MUL(prior, beta))]. alpha == 1 and beta == 0 are
// identities and have no node.
gr::TensorPtr blend(gr::Graph& g, gr::TensorPtr t, const ConvProblem& p, const TensorInfo& out)
{
    // The convolution's result becomes virtual: give it the output's dims (dgrad and wgrad cannot
    // infer them) and layout.
    if(p.alpha != 1.0f || p.beta != 0.0f)
        t->set_dim(i64(out.lens, out.rank)).set_stride(i64(out.strides, out.rank));
    if(p.alpha != 1.0f)
        t = g.pointwise(t, scalarTensor(p.alpha, kUidAlpha, "alpha", out.rank), pointwiseOf(fe::PointwiseMode::MUL));
    if(p.beta != 0.0f)
    {
        auto prior = g.pointwise(graphTensor(out, kUidPrior, "prior"), scalarTensor(p.beta, kUidBeta, "beta", out.rank),
                                 pointwiseOf(fe::PointwiseMode::MUL));
        t = g.pointwise(t, prior, pointwiseOf(fe::PointwiseMode::ADD));
    }
    return t;
}

std::unique_ptr<gr::Graph> translate(const ConvolutionCall&, const ConvProblem& p)
{
    auto g = newGraph(p.x.type);
    switch(p.op)
    {
    case ConvOp::Forward:
    {
        auto out = g->conv_fprop(graphTensor(p.x, 1, "x"), graphTensor(p.w, 2, "w"), convAttributes<gr::ConvFpropAttributes>(p.conv));
        setOutput(blend(*g, out, p, p.y), p.y, 3, "y");
        break;
    }
    case ConvOp::BackwardData:
    {
        auto out = g->conv_dgrad(graphTensor(p.y, 1, "dy"), graphTensor(p.w, 2, "w"), convAttributes<gr::ConvDgradAttributes>(p.conv));
        setOutput(blend(*g, out, p, p.x), p.x, 3, "dx");
        break;
    }
    case ConvOp::BackwardWeights:
    {
        auto out = g->conv_wgrad(graphTensor(p.y, 1, "dy"), graphTensor(p.x, 2, "x"), convAttributes<gr::ConvWgradAttributes>(p.conv));
        setOutput(blend(*g, out, p, p.w), p.w, 3, "dw");
        break;
    }
    case ConvOp::BiasActivation:
    {
        // y = act(alpha1 * conv + alpha2 * z + bias): conv -> [MUL alpha1] -> [ADD (MUL z alpha2 | z)]
        // -> ADD bias -> [activation] (no node for identities: alpha1 == 1, alpha2 == 1, PASTHRU).
        auto t = g->conv_fprop(graphTensor(p.x, 1, "x"), graphTensor(p.w, 2, "w"), convAttributes<gr::ConvFpropAttributes>(p.conv));
        if(p.alpha != 1.0f)
            t = g->pointwise(t, scalarTensor(p.alpha, kUidAlpha, "alpha1", p.y.rank), pointwiseOf(fe::PointwiseMode::MUL));
        if(p.hasZ)
        {
            auto z = graphTensor(p.z, kUidZ, "z");
            if(p.alpha2 != 1.0f)
                z = g->pointwise(z, scalarTensor(p.alpha2, kUidAlpha2, "alpha2", p.y.rank), pointwiseOf(fe::PointwiseMode::MUL));
            t = g->pointwise(t, z, pointwiseOf(fe::PointwiseMode::ADD));
        }
        t = g->pointwise(t, graphTensor(p.bias, 4, "bias"), pointwiseOf(fe::PointwiseMode::ADD));
        if(p.activation != miopenActivationPASTHRU)
            t = g->pointwise(t, translateActivation(p.activation, p.activA, p.activB, p.activG, false).attributes);
        setOutput(t, p.y, 3, "y");
        break;
    }
    }
    return g;
}

const char* opName(ConvOp op)
{
    switch(op)
    {
    case ConvOp::Forward: return "forward";
    case ConvOp::BackwardData: return "backward-data";
    case ConvOp::BackwardWeights: return "backward-weights";
    case ConvOp::BiasActivation: return "bias-activation";
    }
    return "?";
}

void logDriverCommand(const ConvolutionCall& c, const ConvProblem& regular)
{
    ConvProblem p = regular; // the caller's roles
    if(p.transposed)
        std::swap(p.x, p.y);
    const TensorInfo &x = p.x, &w = p.w;
    const auto& cv      = p.conv;
    const char* suffix  = x.type == miopenHalf ? "fp16" : x.type == miopenBFloat16 ? "bfp16" : x.type == miopenInt8 ? "int8" : "";
    auto n              = [](const std::array<int, kMaxDims>& a, int i) { return std::to_string(a[static_cast<std::size_t>(i)]); };
    // Transposed: K is the output's channels (w is C_in x C_out/G), as Private prints it.
    const std::string kText = p.transposed ? std::to_string(w.lens[1] * cv.groups) : n(w.lens, 0);
    std::string args    = " -n " + n(x.lens, 0) + " -c " + n(x.lens, 1);
    const char* def     = "NCHW";
    if(cv.spatial == 3)
    {
        def = "NCDHW";
        args += " --in_d " + n(x.lens, 2) + " -H " + n(x.lens, 3) + " -W " + n(x.lens, 4) + " -k " + kText +
                " --fil_d " + n(w.lens, 2) + " -y " + n(w.lens, 3) + " -x " + n(w.lens, 4) + " --pad_d " + n(cv.pads, 0) +
                " -p " + n(cv.pads, 1) + " -q " + n(cv.pads, 2) + " --conv_stride_d " + n(cv.strides, 0) + " -u " +
                n(cv.strides, 1) + " -v " + n(cv.strides, 2) + " --dilation_d " + n(cv.dilations, 0) + " -l " +
                n(cv.dilations, 1) + " -j " + n(cv.dilations, 2) + " --spatial_dim 3";
    }
    else
        args += " -H " + n(x.lens, 2) + " -W " + n(x.lens, 3) + " -k " + kText + " -y " + n(w.lens, 2) + " -x " +
                n(w.lens, 3) + " -p " + n(cv.pads, 0) + " -q " + n(cv.pads, 1) + " -u " + n(cv.strides, 0) + " -v " +
                n(cv.strides, 1) + " -l " + n(cv.dilations, 0) + " -j " + n(cv.dilations, 1);
    if(p.transposed)
    {
        // The output padding, as Private prints it: the caller's y beyond (in-1)*s - 2p + d(f-1) + 1.
        static const char* const kAdjFlags[2][3] = {{"-Y", "-X", ""}, {"-%", "-Y", "-X"}};
        for(int i = 0; i < cv.spatial; ++i)
        {
            const auto d   = static_cast<std::size_t>(i);
            const long adj = static_cast<long>(p.y.lens[d + 2]) -
                             ((static_cast<long>(x.lens[d + 2]) - 1) * cv.strides[d] - 2L * cv.pads[d] +
                              static_cast<long>(cv.dilations[d]) * (w.lens[d + 2] - 1) + 1);
            if(adj != 0)
                args += std::string(" ") + kAdjFlags[cv.spatial == 3 ? 1 : 0][d] + " " + std::to_string(adj);
        }
    }
    for(const auto& [t, flag] : {std::pair<const TensorInfo*, const char*>{&p.x, " --in_layout "},
                                 {&p.w, " --fil_layout "},
                                 {&p.y, " --out_layout "}})
    {
        std::string l = layoutName(*t);
        if(l.empty())
            l = def;
        if(l != def)
            args += flag + l;
    }
    std::string line;
    if(c.op == ConvOp::BiasActivation)
        line = "Command [LogCmdFusion] ./bin/MIOpenDriver CBAInfer" + std::string(x.type == miopenHalf ? "fp16" : x.type == miopenBFloat16 ? "bfp16" : "") +
               " -F 4" + args + " -g " + std::to_string(cv.groups);
    else
    {
        const int direction = c.op == ConvOp::Forward ? 1 : c.op == ConvOp::BackwardData ? 2 : 4;
        line = "Command [LogCmdConvolution] ./bin/MIOpenDriver conv" + std::string(suffix) + args + (p.transposed ? " -m trans -g " : " -m conv -g ") +
               std::to_string(cv.groups) + " -F " + std::to_string(direction) + " -t 1";
        if(c.immediate)
            line += " -S " + std::to_string(c.solutionId);
    }
    std::fprintf(stderr, "MIOpen(HIP): %s\n", line.c_str());
}

// ---- the decision ------------------------------------------------------------------------------------


// Reads and checks everything that does not need the plan cache.
Check examine(const ConvolutionCall& c, ConvProblem& p)
{
    p.op = c.op;
    if(miopenGetStream_impl(c.handle, &p.stream) != miopenStatusSuccess)
        return invalid("handle");
    if(!readTensor(c.xDesc, p.x) || !readTensor(c.wDesc, p.w) || !readTensor(c.yDesc, p.y) || !readConv(c.conv, p.conv))
        return invalid("descriptor");
    if(c.x == nullptr || c.w == nullptr || c.y == nullptr)
        return invalid("null-data-pointer");
    // Declines: what hipDNN cannot express.
    if(p.conv.mode == miopenTranspose)
    {
        if(c.op == ConvOp::BiasActivation)
            return decline("transposed-mode");
        // The regular convolution with the roles swapped (Private's own reading): the graph's x is
        // the caller's y with its full dims, so output padding needs nothing more.
        p.transposed = true;
        std::swap(p.x, p.y);
        p.op = c.op == ConvOp::Forward ? ConvOp::BackwardData : c.op == ConvOp::BackwardData ? ConvOp::Forward : ConvOp::BackwardWeights;
    }
    else if(p.conv.mode != miopenConvolution && p.conv.mode != miopenGroupConv && p.conv.mode != miopenDepthwise)
        return invalid("convolution-mode");
    if(p.conv.spatial > 3)
        return decline("spatial-dims>3");
    if(p.conv.spatial < 2)
        return decline("1-d-convolution");
    if(p.x.type != p.w.type || p.x.type != p.y.type)
        return decline("mixed-dtype");
    if(toHipdnn(p.x.type) == fe::DataType::NOT_SET)
        return decline("dtype");
    if(c.op == ConvOp::BiasActivation)
    {
        // Null alpha1 / alpha2 mean 1, as in Private.
        if(c.alpha != nullptr)
            (void)readFloat(c.alpha, p.alpha);
        if(c.z != nullptr)
        {
            if(c.zDesc == nullptr || !readTensor(c.zDesc, p.z))
                return invalid("z-descriptor");
            p.hasZ = true;
            if(c.alpha2 != nullptr)
                (void)readFloat(c.alpha2, p.alpha2);
        }
        miopenActivationMode_t mode = miopenActivationPASTHRU;
        double ab = 0, bb = 0, gb = 0;
        if(miopenGetActivationDescriptor_impl(c.activ, &mode, &ab, &bb, &gb) != miopenStatusSuccess)
            return invalid("activation-descriptor");
        if(const ActivationTranslation t = translateActivation(mode, ab, bb, gb, false); !t.ok)
            return decline(t.reason);
        // Private (as upstream) implements this call for RELU only and answers every other mode
        // with miopenStatusNotImplemented: forwarding those would turn that status into a result
        // and leave verify mode nothing to compare with. The graph and the engines take any
        // translated mode (the fusion-plan API's forwarding uses them).
        if(mode != miopenActivationRELU)
            return decline("activation");
        p.activation = mode;
        p.activA     = ab;
        p.activB     = bb;
        p.activG     = gb;
        if(c.bias == nullptr || !readTensor(c.biasDesc, p.bias))
            return invalid("bias");
        if(p.bias.rank != p.y.rank)
            return decline("bias-layout");
        if(p.bias.type != p.y.type)
            return decline("mixed-dtype");
    }
    else if(!c.immediate)
    {
        float a = 0.0f, b = 0.0f;
        if(!readFloat(c.alpha, a) || !readFloat(c.beta, b))
            return invalid("null-alpha-beta");
        p.alpha = a; // the epilogue nodes (blend)
        p.beta  = b;
    }
    for(const TensorInfo* t : {&p.x, &p.w, &p.y})
        if(!isDense(*t))
            return decline("layout");
    // Validity (what Private would reject goes to Private).
    const int rank = p.conv.spatial + 2;
    if(p.x.rank != rank || p.w.rank != rank || p.y.rank != rank)
        return invalid("rank");
    const int g = p.conv.groups;
    if(g < 1 || p.x.lens[1] != p.w.lens[1] * g || p.w.lens[0] % g != 0 || p.y.lens[1] != p.w.lens[0] ||
       p.x.lens[0] != p.y.lens[0])
        return invalid("channels");
    // The output dimensions are checked once per cached problem (readProblemFacts).
    if(c.op == ConvOp::BiasActivation)
    {
        for(std::size_t i = 0; i < static_cast<std::size_t>(rank); ++i)
            if(p.bias.lens[i] != (i == 1 ? p.y.lens[1] : 1))
                return invalid("bias-dims");
        if(!isDense(p.bias))
            return decline("layout");
        if(p.hasZ)
        {
            if(p.z.rank != p.y.rank || !std::equal(p.z.lens.begin(), p.z.lens.begin() + rank, p.y.lens.begin()))
                return invalid("z-dims");
            if(p.z.type != p.y.type)
                return decline("mixed-dtype");
            if(!isDense(p.z))
                return decline("layout");
        }
    }
    return {};
}

// Read once per cached problem: whether Private accepts it (its solution count) and the output
// dimensions it computes.
void readProblemFacts(const ConvolutionCall& c, const ConvProblem& p, ConvPlan& plan)
{
    std::call_once(plan.problemOnce, [&] {
        int nDim = 0;
        std::array<int, kMaxDims> out{};
        plan.outputDimsOk =
            miopenGetConvolutionNdForwardOutputDim_impl(c.conv, c.xDesc, c.wDesc, &nDim, out.data()) ==
                miopenStatusSuccess &&
            nDim == (p.transposed ? p.x : p.y).rank &&
            std::equal(out.begin(), out.begin() + nDim, (p.transposed ? p.x : p.y).lens.begin());
        size_t count      = 0;
        miopenStatus_t st = miopenStatusSuccess;
        switch(c.op)
        {
        case ConvOp::Forward:
        case ConvOp::BiasActivation:
            st = miopenConvolutionForwardGetSolutionCount_impl(c.handle, c.wDesc, c.xDesc, c.conv, c.yDesc, &count);
            break;
        case ConvOp::BackwardData:
            st = miopenConvolutionBackwardDataGetSolutionCount_impl(c.handle, c.yDesc, c.wDesc, c.conv, c.xDesc, &count);
            break;
        case ConvOp::BackwardWeights:
            st = miopenConvolutionBackwardWeightsGetSolutionCount_impl(c.handle, c.yDesc, c.xDesc, c.conv, c.wDesc, &count);
            break;
        }
        plan.problemValid = st == miopenStatusSuccess;
    });
}

// Private's answer for one solution id of the problem: its workspace query, which applies the
// rules of Private's solution listing (applicability, the algorithm switches, the deterministic
// attribute) but, unlike the listing (ordered by find-db times), never reads the find-db, so a
// forwarded call opens no find-db file (RFC 4.8).
SolutionFact querySolution(const ConvolutionCall& c, std::uint64_t id)
{
    SolutionFact f;
    miopenStatus_t st = miopenStatusSuccess;
    switch(c.op) // the caller's direction, in its argument order
    {
    case ConvOp::Forward:
    case ConvOp::BiasActivation:
        st = miopenConvolutionForwardGetSolutionWorkspaceSize_impl(c.handle, c.wDesc, c.xDesc, c.conv, c.yDesc, id,
                                                                   &f.workspace);
        break;
    case ConvOp::BackwardData:
        st = miopenConvolutionBackwardDataGetSolutionWorkspaceSize_impl(c.handle, c.yDesc, c.wDesc, c.conv, c.xDesc, id,
                                                                        &f.workspace);
        break;
    case ConvOp::BackwardWeights:
        st = miopenConvolutionBackwardWeightsGetSolutionWorkspaceSize_impl(c.handle, c.yDesc, c.xDesc, c.conv,
                                                                           c.wDesc, id, &f.workspace);
        break;
    }
    f.applicable = st == miopenStatusSuccess;
    return f;
}

// Private's answer for an algorithm: its applicable solvers of that algorithm (from the solver
// catalogue generated from Private's registry, those computing the problem's regular direction)
// and the smallest workspace among them.
SolutionFact queryAlgorithm(const ConvolutionCall& c, const ConvProblem& p, int algorithm)
{
    const unsigned direction = p.op == ConvOp::BackwardData ? 2u : p.op == ConvOp::BackwardWeights ? 4u : 1u;
    SolutionFact f;
    for(const auto& solver : miopen_solver_catalogue)
    {
        if(solver.algorithm != algorithm || (solver.directions & direction) == 0)
            continue;
        const SolutionFact s = querySolution(c, solver.id);
        if(s.applicable && (!f.applicable || s.workspace < f.workspace))
            f = s;
    }
    return f;
}

// What Private says of the call's solution id (the plan's memory of it, or a query).
SolutionFact solutionFact(const ConvolutionCall& c, ConvPlan& plan)
{
    auto find = [&](std::size_t from, std::size_t to) -> const SolutionFact* {
        for(std::size_t i = from; i < to; ++i)
            if(plan.solutions[i].first == c.solutionId)
                return &plan.solutions[i].second;
        return nullptr;
    };
    const std::size_t known = plan.solutionCount.load(std::memory_order_acquire);
    if(const SolutionFact* f = find(0, known))
        return *f;
    std::lock_guard<std::mutex> lock(plan.factsMutex);
    const std::size_t now = plan.solutionCount.load(std::memory_order_relaxed);
    if(const SolutionFact* f = find(known, now))
        return *f;
    const SolutionFact f = querySolution(c, c.solutionId);
    if(now < ConvPlan::kSolutions) // else asked again next time
    {
        plan.solutions[now] = {c.solutionId, f};
        plan.solutionCount.store(now + 1, std::memory_order_release);
    }
    return f;
}

// The algorithm / solution / workspace arguments, judged as Private would.
Check checkSolutionArgs(const ConvolutionCall& c, const ConvProblem& p, ConvPlan& plan)
{
    if(!plan.outputDimsOk)
        return invalid("output-dims");
    if(!plan.problemValid)
        return invalid("solutions");
    const std::size_t ws = c.workspace == nullptr ? 0 : c.workspaceSize;
    if(c.immediate)
    {
        const SolutionFact f = solutionFact(c, plan);
        if(!f.applicable)
            return invalid("solution-id");
        return f.workspace <= ws ? Check{} : invalid("workspace-too-small");
    }
    if(c.algo < 0 || c.algo > 5 || c.algo == 4)
        return invalid("algorithm");
    const auto a = static_cast<std::size_t>(c.algo);
    int state    = plan.algorithmState[a].load(std::memory_order_acquire);
    if(state == 0)
    {
        std::lock_guard<std::mutex> lock(plan.factsMutex);
        state = plan.algorithmState[a].load(std::memory_order_relaxed);
        if(state == 0)
        {
            const SolutionFact f       = queryAlgorithm(c, p, c.algo);
            plan.algorithmWorkspace[a] = f.workspace;
            state                      = f.applicable ? 1 : 2;
            plan.algorithmState[a].store(state, std::memory_order_release);
        }
    }
    if(state == 1 && (c.op == ConvOp::BiasActivation || plan.algorithmWorkspace[a] <= ws))
        return {};
    return invalid("algorithm-not-applicable");
}

// Runs the call on Private with the written tensor redirected into `scratch` (the arguments were
// validated as Private validates them; with beta != 0 `scratch` holds the caller's prior output).
miopenStatus_t runOnPrivate(const ConvolutionCall& c, void* scratch)
{
    void* ws = c.workspace;
    const std::size_t wsSize = c.workspaceSize;
    switch(c.op)
    {
    case ConvOp::Forward:
        return c.immediate ? miopenConvolutionForwardImmediate_impl(c.handle, c.wDesc, c.w, c.xDesc, c.x, c.conv, c.yDesc,
                                                                    scratch, ws, wsSize, c.solutionId)
                           : miopenConvolutionForward_impl(c.handle, c.alpha, c.xDesc, c.x, c.wDesc, c.w, c.conv,
                                                           static_cast<miopenConvFwdAlgorithm_t>(c.algo), c.beta,
                                                           c.yDesc, scratch, ws, wsSize);
    case ConvOp::BackwardData:
        return c.immediate ? miopenConvolutionBackwardDataImmediate_impl(c.handle, c.yDesc, c.y, c.wDesc, c.w, c.conv,
                                                                         c.xDesc, scratch, ws, wsSize, c.solutionId)
                           : miopenConvolutionBackwardData_impl(c.handle, c.alpha, c.yDesc, c.y, c.wDesc, c.w, c.conv,
                                                                static_cast<miopenConvBwdDataAlgorithm_t>(c.algo),
                                                                c.beta, c.xDesc, scratch, ws, wsSize);
    case ConvOp::BackwardWeights:
        return c.immediate ? miopenConvolutionBackwardWeightsImmediate_impl(c.handle, c.yDesc, c.y, c.xDesc, c.x, c.conv,
                                                                            c.wDesc, scratch, ws, wsSize, c.solutionId)
                           : miopenConvolutionBackwardWeights_impl(c.handle, c.alpha, c.yDesc, c.y, c.xDesc, c.x, c.conv,
                                                                   static_cast<miopenConvBwdWeightsAlgorithm_t>(c.algo),
                                                                   c.beta, c.wDesc, scratch, ws, wsSize);
    case ConvOp::BiasActivation:
        return miopenConvolutionBiasActivationForward_impl(c.handle, c.alpha, c.xDesc, c.x, c.wDesc, c.w, c.conv,
                                                           static_cast<miopenConvFwdAlgorithm_t>(c.algo), ws, wsSize,
                                                           c.alpha2, c.zDesc, c.z, c.biasDesc, c.bias, c.activ, c.yDesc,
                                                           scratch);
    }
    return miopenStatusInternalError;
}

// The caller's call in the graph's regular roles: a transposed call has x and y swapped.
ConvolutionCall regularRoles(const ConvolutionCall& c, const ConvProblem& p)
{
    ConvolutionCall rc = c;
    rc.op              = p.op;
    if(p.transposed)
    {
        std::swap(rc.xDesc, rc.yDesc);
        std::swap(rc.x, rc.y);
    }
    return rc;
}

// What Private's shadow run needs of the caller's memory as it was before the forwarded call
// wrote it: the prior output (beta != 0: Private blends into the same one), and a residual z that
// is the output's memory (MIOpen allows z == y).
struct ConvSnapshot
{
    std::vector<unsigned char> prior;
    std::vector<unsigned char> z;
};

const TensorInfo& writtenTensor(const ConvProblem& p)
{
    return p.op == ConvOp::BackwardData ? p.x : p.op == ConvOp::BackwardWeights ? p.w : p.y;
}

// The forwarded call succeeded: run it on Private too (`pc`: the caller's call, with z from the
// snapshot) and compare (shadow_verify.hpp) with the bound of the convolution's reduction, taken
// from the inputs in the graph's regular roles (`rc`).
Verification shadowVerify(const ConvolutionCall& c, const ConvProblem& p, const ConvSnapshot& snap)
{
    ConvolutionCall pc = c;
    if(!snap.z.empty())
        pc.z = snap.z.data();
    ConvolutionCall rc = regularRoles(c, p);
    rc.z               = pc.z;
    const std::vector<unsigned char>& prior = snap.prior;
    const TensorInfo& out = writtenTensor(p);
    const std::size_t n   = elementCount(out);
    thread_local std::vector<unsigned char> scratch;
    scratch.resize(n * elementBytes(out.type));
    if(!prior.empty())
        std::memcpy(scratch.data(), prior.data(), scratch.size()); // Private blends into the same prior output
    const miopenStatus_t st = runOnPrivate(pc, scratch.data());
    // The reduction of one output element and the magnitudes of its two factors.
    std::int64_t filter = 1, outSpatial = 1;
    for(int i = 2; i < p.w.rank; ++i)
    {
        filter *= p.w.lens[static_cast<std::size_t>(i)];
        outSpatial *= p.y.lens[static_cast<std::size_t>(i)];
    }
    const int g = std::max(1, p.conv.groups);
    std::int64_t length = 0;
    double maxA = 0.0, maxB = 0.0, maxAddend = 0.0;
    switch(p.op)
    {
    case ConvOp::Forward:
    case ConvOp::BiasActivation:
        length = p.w.lens[1] * filter;
        maxA   = verify::maxAbs(p.x.type, rc.x, elementCount(p.x));
        maxB   = verify::maxAbs(p.w.type, rc.w, elementCount(p.w));
        if(p.op == ConvOp::BiasActivation)
            maxAddend = verify::maxAbs(p.bias.type, rc.bias, elementCount(p.bias));
        if(p.hasZ)
            maxAddend += std::fabs(p.alpha2) * verify::maxAbs(p.z.type, rc.z, elementCount(p.z));
        break;
    case ConvOp::BackwardData:
        length = p.w.lens[0] / g * filter;
        maxA   = verify::maxAbs(p.y.type, rc.y, elementCount(p.y));
        maxB   = verify::maxAbs(p.w.type, rc.w, elementCount(p.w));
        break;
    case ConvOp::BackwardWeights:
        length = p.x.lens[0] * outSpatial;
        maxA   = verify::maxAbs(p.x.type, rc.x, elementCount(p.x));
        maxB   = verify::maxAbs(p.y.type, rc.y, elementCount(p.y));
        break;
    }
    // The epilogue: alpha scales the reduction, beta * prior is one more addend.
    maxA *= std::fabs(p.alpha);
    if(!prior.empty())
        maxAddend += std::fabs(p.beta) * verify::maxAbs(out.type, prior.data(), n);
    return compared(st, out.type, c.written, scratch.data(), n,
                    verify::convBound(out.type, length, maxA, maxB, maxAddend), "");
}

Check checkPlan(const ConvolutionCall& c, const ConvProblem& p, ConvPlan& plan)
{
    readProblemFacts(c, p, plan);
    return checkSolutionArgs(c, p, plan);
}

std::string planName(const ConvolutionCall& c, const ConvProblem&) { return opName(c.op); }

// uids: 1 and 2 the inputs, 3 the written tensor, 4 the bias, 5 the prior output (the same memory
// as 3), 6 the residual z.
void bind(const ConvolutionCall& c, const ConvProblem& p, Bindings& b)
{
    // x and y in the graph's regular roles (a transposed call has them swapped: regularRoles).
    const void* x = p.transposed ? c.y : c.x;
    const void* y = p.transposed ? c.x : c.y;
    switch(p.op)
    {
    case ConvOp::Forward:
    case ConvOp::BiasActivation:
        b.add(1, x);
        b.add(2, c.w);
        break;
    case ConvOp::BackwardData:
        b.add(1, y);
        b.add(2, c.w);
        break;
    case ConvOp::BackwardWeights:
        b.add(1, y);
        b.add(2, x);
        break;
    }
    b.add(3, c.written);
    if(p.op == ConvOp::BiasActivation)
        b.add(4, c.bias);
    if(p.op != ConvOp::BiasActivation && p.beta != 0.0f)
        b.add(kUidPrior, c.written); // read by the graph before it writes uid 3
    if(p.hasZ)
        b.add(kUidZ, c.z);
}

// The engine may use the caller's workspace when it is large enough.
std::pair<void*, std::size_t> callerWorkspace(const ConvolutionCall& c, const ConvProblem&)
{
    return {c.workspace, c.workspaceSize};
}

void snapshot(const ConvolutionCall& c, const ConvProblem& p, ConvSnapshot& s)
{
    if(p.op != ConvOp::BiasActivation && p.beta != 0.0f)
    {
        const auto* from = static_cast<const unsigned char*>(c.written); // dense: no gaps
        s.prior.assign(from, from + elementCount(writtenTensor(p)) * elementBytes(writtenTensor(p).type));
    }
    if(p.hasZ && c.z == c.written)
    {
        const auto* from = static_cast<const unsigned char*>(c.z);
        s.z.assign(from, from + elementCount(p.z) * elementBytes(p.z.type));
    }
}

std::string describe(const ConvolutionCall& c, const ConvProblem& p)
{
    return std::string(opName(c.op)) + (p.transposed ? ", transposed" : "") + ", x " + shapeText(p.x) + ", w " +
           shapeText(p.w) + ", y " + shapeText(p.y) + ", groups " + std::to_string(p.conv.groups);
}

} // namespace

bool tryForward(const ConvolutionCall& c, miopenStatus_t* status) noexcept
{
    return forwardCall<ConvProblem, ConvPlan, ConvSnapshot>(c, status);
}

} // namespace fwd
} // namespace wrapper
} // namespace miopen
