// hipDNN forwarding of the activation and tensor-op families: the hooks of the forwarding skeleton
// for PointwiseCall (forwarding.hpp; docs/wrapper.md "Activation and tensor ops"). Each call is one
// small pointwise graph:
//   activation forward   core = f(x)              (core::translateActivation: the mode's _FWD node)
//   activation backward  core = f'(dy, x)         (the _BWD node takes dy first, then x; PASTHRU's
//                                                  backward is IDENTITY of dy)
//   op tensor            core = op(A', B')        (ADD / MUL / MIN_OP / MAX_OP; B broadcast over its
//                                                  length-1 dimensions; A' = MUL(A, alpha1) when
//                                                  alpha1 != 1, B' likewise with alpha2)
//   scale tensor         y = MUL(y, alpha)        (y bound as input and output: in place)
// followed, for the first three, by the blend out = alpha * core + beta * prior: MUL(core, alpha)
// when alpha != 1, and ADD(., MUL(prior, beta)) when beta != 0, where `prior` is the caller's
// output buffer bound under its own uid (every engine reads it before the output is written).
// The scalars are pass-by-value fp32 tensors of the output's rank (all lengths 1); their bits are
// in the plan key. Verify mode (MIOPEN_HIPDNN_FORWARDING=verify) runs the call on Private into
// scratch that starts from the output's prior content and compares with the test SDK's pointwise
// tolerance. Validation and declines follow forwarding_batchnorm.cpp.
#include "forwarding.hpp"

#include "forwarding_activation.hpp"
#include "forwarding_core.hpp"
#include "forwarding_skeleton.hpp"
#include "shadow_verify.hpp"

#include <miopen/miopen_impl.h>

#include <hipdnn_data_sdk/types.hpp>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <sstream>

namespace miopen {
namespace wrapper {
namespace fwd {

using namespace core;

namespace {

struct PwProblem
{
    TensorInfo a, b, c;
    int mode = 0;                    // activation: the raw miopenActivationMode_t
    double actAlpha = 0, actBeta = 0, actGamma = 0;
    ActivationTranslation act;       // activation: the core node
    float alpha = 1, alpha2 = 1, beta = 0; // the blend scalars (ScaleTensor: alpha only)
    miopenAcceleratorQueue_t stream = nullptr;
};

const char* opName(PwOp op)
{
    switch(op)
    {
    case PwOp::ActivationForward: return "activation forward";
    case PwOp::ActivationBackward: return "activation backward";
    case PwOp::OpTensor: return "op tensor";
    case PwOp::ScaleTensor: return "scale tensor";
    }
    return "?";
}

// ---- the decision ------------------------------------------------------------------------------------


// ScaleTensor's alpha has y's element type (Private's scaleTensor).
bool readElement(const void* p, miopenDataType_t t, float& v)
{
    if(p == nullptr)
        return false;
    switch(t)
    {
    case miopenHalf:
    {
        hipdnn_data_sdk::types::half h;
        std::memcpy(&h, p, sizeof h);
        v = static_cast<float>(h);
        return true;
    }
    case miopenBFloat16:
    {
        hipdnn_data_sdk::types::bfloat16 b;
        std::memcpy(&b, p, sizeof b);
        v = static_cast<float>(b);
        return true;
    }
    default: return readFloat(p, v);
    }
}

// Bytes from the first to past the last element a descriptor addresses.
std::size_t spanBytes(const TensorInfo& t)
{
    std::size_t span = 1;
    for(int i = 0; i < t.rank; ++i)
        span += static_cast<std::size_t>(t.lens[static_cast<std::size_t>(i)] - 1) *
                static_cast<std::size_t>(t.strides[static_cast<std::size_t>(i)]);
    return span * (t.type == miopenDouble ? 8 : elementBytes(t.type));
}

// A forwarded call binds the output to one buffer and engines read each input whole before
// writing, so only exact aliasing of an input and the output (same address, lengths and strides)
// is forwarded; any other overlap is Private's to judge.
bool partialOverlap(const void* in, const TensorInfo& t, const void* out, const TensorInfo& o)
{
    const auto* ib = static_cast<const unsigned char*>(in);
    const auto* ob = static_cast<const unsigned char*>(out);
    const bool exact =
        ib == ob && sameLens(t, o) && std::equal(t.strides.begin(), t.strides.begin() + t.rank, o.strides.begin());
    return !exact && ib < ob + spanBytes(o) && ob < ib + spanBytes(t);
}

// What Private would reject first (its status is the answer), then what hipDNN cannot express.
Check examine(const PointwiseCall& c, PwProblem& p)
{
    if(miopenGetStream_impl(c.handle, &p.stream) != miopenStatusSuccess)
        return invalid("handle");
    switch(c.op)
    {
    case PwOp::ActivationForward:
    case PwOp::ActivationBackward:
    {
        const bool bwd = c.op == PwOp::ActivationBackward;
        miopenActivationMode_t m{};
        if(c.activ == nullptr ||
           miopenGetActivationDescriptor_impl(c.activ, &m, &p.actAlpha, &p.actBeta, &p.actGamma) != miopenStatusSuccess)
            return invalid("activation-descriptor");
        std::memcpy(&p.mode, &m, sizeof p.mode);
        if(p.mode < miopenActivationPASTHRU || p.mode > miopenActivationELU)
            return invalid("activation-mode");
        if(!readFloat(c.alpha, p.alpha) || !readFloat(c.beta, p.beta))
            return invalid("null-alpha-beta");
        TensorInfo y;
        if(!readTensor(c.aDesc, p.a) || !readTensor(c.cDesc, p.c) || (bwd && (!readTensor(c.bDesc, p.b) ||
                                                                               !readTensor(c.yDesc, y))))
            return invalid("descriptor");
        if(c.a == nullptr || c.c == nullptr || (bwd && (c.b == nullptr || c.y == nullptr)))
            return invalid("null-data-pointer");
        if(!isComputeType(p.c.type))
            return invalid("data-type");
        if(!sameLens(p.a, p.c) || p.a.type != p.c.type ||
           (bwd && (!sameLens(p.b, p.c) || p.b.type != p.c.type || !sameLens(y, p.c) || y.type != p.c.type)))
            return invalid("shape");
        if(partialOverlap(c.a, p.a, c.c, p.c) || (bwd && partialOverlap(c.b, p.b, c.c, p.c)))
            return invalid("overlap");
        for(const TensorInfo* t : {&p.a, &p.b, &p.c, &y})
            if(t->rank > 0 && !isDense(*t))
                return decline("layout");
        p.act = translateActivation(p.mode, p.actAlpha, p.actBeta, p.actGamma, bwd);
        if(!p.act.ok)
            return decline(p.act.reason);
        return {};
    }
    case PwOp::OpTensor:
    {
        if(c.tensorOp < miopenTensorOpAdd || c.tensorOp > miopenTensorOpMax)
            return invalid("tensor-op");
        if(c.alpha == nullptr || c.alpha2 == nullptr || c.beta == nullptr)
            return invalid("null-alpha-beta");
        if(!readTensor(c.aDesc, p.a) || !readTensor(c.bDesc, p.b) || !readTensor(c.cDesc, p.c))
            return invalid("descriptor");
        if(c.a == nullptr || c.b == nullptr || c.c == nullptr)
            return invalid("null-data-pointer");
        if(p.a.type != p.c.type || p.b.type != p.c.type)
            return invalid("data-type");
        if(p.c.type != miopenDouble && !isComputeType(p.c.type))
            return invalid("data-type");
        if(!sameLens(p.a, p.c) || p.b.rank != p.c.rank)
            return invalid("shape");
        for(int i = 0; i < p.c.rank; ++i)
        {
            const auto d = static_cast<std::size_t>(i);
            if(p.b.lens[d] != 1 && p.b.lens[d] != p.c.lens[d])
                return invalid("broadcast");
        }
        // Private's overlap checks (C partially overlapping A or B) stay Private's.
        if(partialOverlap(c.a, p.a, c.c, p.c) || partialOverlap(c.b, p.b, c.c, p.c))
            return invalid("overlap");
        if(p.c.type == miopenDouble)
            return decline("double"); // hipDNN's pointwise nodes compute in fp32
        (void)readFloat(c.alpha, p.alpha);
        (void)readFloat(c.alpha2, p.alpha2);
        (void)readFloat(c.beta, p.beta);
        for(const TensorInfo* t : {&p.a, &p.b, &p.c})
            if(!isDense(*t))
                return decline("layout");
        return {};
    }
    case PwOp::ScaleTensor:
    {
        if(!readTensor(c.cDesc, p.c))
            return invalid("descriptor");
        if(c.c == nullptr || c.alpha == nullptr)
            return invalid("null-data-pointer");
        if(p.c.type == miopenInt32 || p.c.type == miopenDouble)
            return decline(p.c.type == miopenInt32 ? "int32" : "double");
        if(!isComputeType(p.c.type))
            return invalid("data-type");
        if(!isDense(p.c))
            return decline("layout"); // also what Private's checkOutputDistinct judges
        (void)readElement(c.alpha, p.c.type, p.alpha);
        return {};
    }
    }
    return invalid("op");
}

void pushFloat(ProblemKey& k, float v)
{
    std::int32_t w;
    std::memcpy(&w, &v, sizeof w);
    k.push(w);
}

ProblemKey key(const PointwiseCall& c, const PwProblem& p)
{
    ProblemKey k;
    k.push(static_cast<std::int32_t>(c.op));
    k.push(c.op == PwOp::OpTensor ? c.tensorOp : p.mode);
    for(const TensorInfo* t : {&p.a, &p.b, &p.c})
        k.pushTensor(*t);
    // The descriptor's parameters and the blend scalars are values of the graph.
    k.pushDouble(p.actAlpha);
    k.pushDouble(p.actBeta);
    pushFloat(k, p.alpha);
    pushFloat(k, p.alpha2);
    pushFloat(k, p.beta);
    return k;
}

// ---- translation ---------------------------------------------------------------------------------

namespace uid {
// kPrior is the output's prior content (bound to the output buffer); scalars get uids, never bound.
constexpr std::int64_t kA = 1, kB = 2, kC = 3, kPrior = 4, kAlpha = 5, kAlpha2 = 6, kBeta = 7, kScale = 8;
} // namespace uid

gr::TensorPtr scalarTensor(gr::Graph& g, int rank, float v, std::int64_t id, const char* name)
{
    // Of the output's rank (lengths 1) so every engine broadcasts it like any other operand.
    const std::vector<std::int64_t> ones(static_cast<std::size_t>(rank), 1);
    return g.tensor(gr::TensorAttributes().set_uid(id).set_name(name).set_dim(ones).set_stride(ones).set_value(v));
}

gr::PointwiseAttributes pointwiseOf(fe::PointwiseMode m, const char* name)
{
    return gr::PointwiseAttributes().set_mode(m).set_compute_data_type(fe::DataType::FLOAT).set_name(name);
}

gr::TensorPtr scaled(gr::Graph& g, const gr::TensorPtr& in, int rank, float v, std::int64_t id, const char* name)
{
    if(v == 1.0f)
        return in;
    return g.pointwise(in, scalarTensor(g, rank, v, id, name), pointwiseOf(fe::PointwiseMode::MUL, name));
}

std::unique_ptr<gr::Graph> translate(const PointwiseCall& c, const PwProblem& p)
{
    auto g = newGraph(p.c.type);
    const int rank = p.c.rank;
    gr::TensorPtr core;
    switch(c.op)
    {
    case PwOp::ActivationForward: core = g->pointwise(graphTensor(p.a, uid::kA, "x"), p.act.attributes); break;
    case PwOp::ActivationBackward:
        if(p.mode == miopenActivationPASTHRU) // dx = dy
            core = g->pointwise(graphTensor(p.a, uid::kA, "dy"), p.act.attributes);
        else
            core = g->pointwise(graphTensor(p.a, uid::kA, "dy"), graphTensor(p.b, uid::kB, "x"), p.act.attributes);
        break;
    case PwOp::OpTensor:
    {
        static constexpr fe::PointwiseMode kModes[] = {fe::PointwiseMode::ADD, fe::PointwiseMode::MUL,
                                                       fe::PointwiseMode::MIN_OP, fe::PointwiseMode::MAX_OP};
        auto a = scaled(*g, graphTensor(p.a, uid::kA, "A"), rank, p.alpha, uid::kAlpha, "alpha1");
        auto b = scaled(*g, graphTensor(p.b, uid::kB, "B"), rank, p.alpha2, uid::kAlpha2, "alpha2");
        core   = g->pointwise(a, b, pointwiseOf(kModes[c.tensorOp], "op"));
        break;
    }
    case PwOp::ScaleTensor:
    {
        auto y = g->pointwise(graphTensor(p.c, uid::kA, "y"), scalarTensor(*g, rank, p.alpha, uid::kScale, "alpha"),
                              pointwiseOf(fe::PointwiseMode::MUL, "scale"));
        setOutput(y, p.c, uid::kC, "y_out");
        return g;
    }
    }
    gr::TensorPtr out = c.op == PwOp::OpTensor ? core : scaled(*g, core, rank, p.alpha, uid::kAlpha, "alpha");
    if(p.beta != 0.0f)
    {
        auto prior = g->pointwise(graphTensor(p.c, uid::kPrior, "prior"),
                                  scalarTensor(*g, rank, p.beta, uid::kBeta, "beta"),
                                  pointwiseOf(fe::PointwiseMode::MUL, "beta"));
        out = g->pointwise(out, prior, pointwiseOf(fe::PointwiseMode::ADD, "blend"));
    }
    setOutput(out, p.c, uid::kC, c.op == PwOp::ActivationBackward ? "dx" : c.op == PwOp::OpTensor ? "C" : "y");
    return g;
}

// ---- MIOPEN_ENABLE_LOGGING_CMD ----------------------------------------------------------------------

// The line Private prints for an activation call (activationDriverArgs in projects/miopen/src/
// activation.cpp: the x descriptor folded to N, C, H, W), so a logged reproducer does not depend on
// the route. The tensor ops log no command.
void logDriverCommand(const PointwiseCall& c, const PwProblem& p)
{
    if(c.op != PwOp::ActivationForward && c.op != PwOp::ActivationBackward)
        return;
    const TensorInfo& x = c.op == PwOp::ActivationForward ? p.a : p.b;
    long long d[4] = {0, 0, 0, 0};
    if(x.rank == 1)
        d[0] = x.lens[0], d[1] = d[2] = d[3] = 1;
    else if(x.rank > 1)
    {
        long long h = 1;
        for(int i = 2; i + 1 < x.rank; ++i)
            h *= x.lens[static_cast<std::size_t>(i)];
        d[0] = x.lens[0], d[1] = x.lens[1], d[2] = h, d[3] = x.rank > 2 ? x.lens[static_cast<std::size_t>(x.rank - 1)] : 1;
    }
    std::ostringstream ss;
    ss << "Command [LogCmdActivation] ./bin/MIOpenDriver activ"
       << (x.type == miopenHalf ? "fp16" : x.type == miopenBFloat16 ? "bfp16" : "") << " -n " << d[0] << " -c " << d[1]
       << " -H " << d[2] << " -W " << d[3] << " -m " << p.mode << " --forw "
       << (c.op == PwOp::ActivationForward ? 1 : 2) << " -A " << p.actAlpha << " -B " << p.actBeta << " -G "
       << p.actGamma;
    std::fprintf(stderr, "MIOpen(HIP): %s\n", ss.str().c_str());
}

// ---- execution -----------------------------------------------------------------------------------------

void bind(const PointwiseCall& c, const PwProblem& p, Bindings& b)
{
    b.add(uid::kC, c.c);
    switch(c.op)
    {
    case PwOp::ActivationForward: b.add(uid::kA, c.a); break;
    case PwOp::ActivationBackward:
        b.add(uid::kA, c.a);
        if(p.mode != miopenActivationPASTHRU)
            b.add(uid::kB, c.b);
        break;
    case PwOp::OpTensor:
        b.add(uid::kA, c.a);
        b.add(uid::kB, c.b);
        break;
    case PwOp::ScaleTensor: b.add(uid::kA, c.c); break; // in place
    }
    if(c.op != PwOp::ScaleTensor && p.beta != 0.0f)
        b.add(uid::kPrior, c.c);
}

// ---- MIOPEN_HIPDNN_FORWARDING=verify ------------------------------------------------------------

std::size_t bytesOf(const TensorInfo& t) { return elementCount(t) * elementBytes(t.type); }

// The output's content before the forwarded call overwrote it (Private's shadow run starts from it:
// the beta blend and ScaleTensor read it, and an input may be the output buffer).
struct Prior
{
    std::vector<unsigned char> bytes;
};

void snapshot(const PointwiseCall& c, const PwProblem& p, Prior& s)
{
    const auto* b = static_cast<const unsigned char*>(c.c);
    s.bytes.assign(b, b + bytesOf(p.c));
}

Verification shadowVerify(const PointwiseCall& c, const PwProblem& p, const Prior& prior)
{
    std::vector<unsigned char> out = prior.bytes;
    // An input that is the output buffer is read from the snapshot.
    std::vector<unsigned char> aliased = prior.bytes;
    auto in = [&](const void* ptr) -> const void* { return ptr == c.c ? aliased.data() : ptr; };
    miopenStatus_t st = miopenStatusSuccess;
    switch(c.op)
    {
    case PwOp::ActivationForward:
        st = miopenActivationForward_impl(c.handle, c.activ, c.alpha, c.aDesc, in(c.a), c.beta, c.cDesc, out.data());
        break;
    case PwOp::ActivationBackward:
        st = miopenActivationBackward_impl(c.handle, c.activ, c.alpha, c.yDesc, in(c.y), c.aDesc, in(c.a), c.bDesc,
                                           in(c.b), c.beta, c.cDesc, out.data());
        break;
    case PwOp::OpTensor:
        st = miopenOpTensor_impl(c.handle, static_cast<miopenTensorOp_t>(c.tensorOp), c.alpha, c.aDesc, in(c.a),
                                 c.alpha2, c.bDesc, in(c.b), c.beta, c.cDesc, out.data());
        break;
    case PwOp::ScaleTensor: st = miopenScaleTensor_impl(c.handle, c.cDesc, out.data(), c.alpha); break;
    }
    const std::size_t n = elementCount(p.c);
    return compared(st, p.c.type, c.c, out.data(), n,
                    verify::pointwiseBound(p.c.type, verify::maxAbs(p.c.type, out.data(), n)), "");
}

std::string planName(const PointwiseCall& c, const PwProblem&) { return opName(c.op); }

std::string describe(const PointwiseCall& c, const PwProblem& p) { return std::string(opName(c.op)) + ", " + shapeText(p.c); }

} // namespace

bool tryForward(const PointwiseCall& c, miopenStatus_t* status) noexcept
{
    return forwardCall<PwProblem, PlanRecord, Prior>(c, status);
}

} // namespace fwd
} // namespace wrapper
} // namespace miopen
