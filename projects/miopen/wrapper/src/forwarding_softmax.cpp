// hipDNN forwarding of the softmax family: the hooks of the forwarding skeleton for SoftmaxCall
// (forwarding.hpp; docs/wrapper.md "Softmax"). hipDNN has no softmax node: each call is a composite graph of reduction and
// pointwise nodes, over the softmax axes (INSTANCE: C and the spatial dimensions of each n;
// CHANNEL: C at each n and spatial position), the reduced tensors keeping x's rank with 1 in the
// reduced dimensions and broadcast back by the pointwise nodes:
//   forward ACCURATE  m = REDUCE MAX(x); s = SUB(x, m); e = EXP(s); d = REDUCE ADD(e); y = DIV(e, d)
//   forward LOG       m, s, e, d as ACCURATE;  y = SUB(s, LOG(d))
//   forward FAST      e = EXP(x); d = REDUCE ADD(e); y = DIV(e, d)      (no max, as MIOpen's FAST)
//   backward ACCURATE, FAST  p = MUL(dy, y); r = REDUCE ADD(p); t = SUB(dy, r); dx = MUL(y, t)
//   backward LOG      r = REDUCE ADD(dy); e = EXP(y); t = MUL(e, r); dx = SUB(dy, t)
// The engines recognise these node sequences (dnn-providers/*/src/SoftmaxPlans.cpp: the MIOpen
// provider runs Private's miopenSoftmax*_V2_impl, the oneDNN provider its softmax primitives) and
// the test SDK's reference executor runs them node by node. The intermediates are virtual fp32.
// alpha = 1 and beta = 0 only (declined otherwise); in place (y = x, dx = dy or y) is declined.
// Verify mode runs each forwarded call on Private into scratch and compares.
#include "forwarding.hpp"
#include "forwarding_core.hpp"
#include "forwarding_skeleton.hpp"
#include "shadow_verify.hpp"

#include <miopen/miopen_impl.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <sstream>

namespace miopen {
namespace wrapper {
namespace fwd {

using namespace core;

namespace {

struct SmProblem
{
    bool backward = false;
    int algorithm = MIOPEN_SOFTMAX_ACCURATE;
    int mode      = MIOPEN_SOFTMAX_MODE_CHANNEL;
    TensorInfo a, b, out; // forward: x, -, y; backward: y, dy, dx
    miopenAcceleratorQueue_t stream = nullptr;
};


const char* algorithmName(int a) { return a == MIOPEN_SOFTMAX_FAST ? "fast" : a == MIOPEN_SOFTMAX_LOG ? "log" : "accurate"; }

Check examine(const SoftmaxCall& c, SmProblem& p)
{
    p.backward  = c.backward;
    p.algorithm = c.algorithm;
    p.mode      = c.mode;
    if(miopenGetStream_impl(c.handle, &p.stream) != miopenStatusSuccess)
        return invalid("handle");
    if(c.algorithm != MIOPEN_SOFTMAX_FAST && c.algorithm != MIOPEN_SOFTMAX_ACCURATE && c.algorithm != MIOPEN_SOFTMAX_LOG)
        return invalid("softmax-algorithm");
    if(c.mode != MIOPEN_SOFTMAX_MODE_INSTANCE && c.mode != MIOPEN_SOFTMAX_MODE_CHANNEL)
        return invalid("softmax-mode");
    float alpha = 0.0f, beta = 0.0f;
    if(!readFloat(c.alpha, alpha) || !readFloat(c.beta, beta))
        return invalid("null-alpha-beta");
    if(!c.backward)
    {
        if(!readTensor(c.xDesc, p.a) || !readTensor(c.yDesc, p.out))
            return invalid("descriptor");
        if(c.x == nullptr || c.written == nullptr)
            return invalid("null-data-pointer");
        p.b = p.a;
    }
    else
    {
        if(!readTensor(c.yDesc, p.a) || !readTensor(c.dyDesc, p.b) || !readTensor(c.dxDesc, p.out))
            return invalid("descriptor");
        if(c.y == nullptr || c.dy == nullptr || c.written == nullptr)
            return invalid("null-data-pointer");
    }
    if(p.out.rank < 2)
        return invalid("rank");
    if(!sameLens(p.a, p.out) || !sameLens(p.b, p.out))
        return invalid("shape");
    if(p.a.type != p.out.type || p.b.type != p.out.type || !isComputeType(p.out.type))
        return invalid("dtype");
    // Declines. Dense tensors only (this also rules out an output that addresses one element
    // twice, which Private rejects).
    if(alpha != 1.0f || beta != 0.0f)
        return decline("alpha!=1-or-beta!=0");
    if(!isDense(p.a) || !isDense(p.b) || !isDense(p.out))
        return decline("layout");
    // The composite reads its inputs in several nodes after the output may have been written.
    if((!c.backward && c.written == c.x) || (c.backward && (c.written == c.y || c.written == c.dy)))
        return decline("in-place");
    return {};
}

ProblemKey key(const SoftmaxCall&, const SmProblem& p)
{
    ProblemKey k;
    k.push(p.backward ? 1 : 0);
    k.push(p.algorithm);
    k.push(p.mode);
    k.pushTensor(p.a);
    if(p.backward)
        k.pushTensor(p.b);
    k.pushTensor(p.out);
    return k;
}

// ---- translation ---------------------------------------------------------------------------------

namespace uid {
// forward: x = kA, y = kOut; backward: y = kA, dy = kB, dx = kOut. Intermediates from kVirtual.
constexpr std::int64_t kA = 1, kB = 2, kOut = 3, kVirtual = 10;
} // namespace uid

struct Composite
{
    gr::Graph& g;
    const SmProblem& p;
    std::int64_t next = uid::kVirtual;

    std::vector<std::int64_t> fullDims() const { return i64(p.out.lens, p.out.rank); }
    // The reduced shape: 1 over the softmax axes (INSTANCE: every dimension but N; CHANNEL: C).
    std::vector<std::int64_t> reducedDims() const
    {
        auto d = fullDims();
        for(std::size_t i = 1; i < d.size(); ++i)
            if(p.mode == MIOPEN_SOFTMAX_MODE_INSTANCE || i == 1)
                d[i] = 1;
        return d;
    }
    static std::vector<std::int64_t> packed(const std::vector<std::int64_t>& d)
    {
        std::vector<std::int64_t> s(d.size(), 1);
        for(std::size_t i = d.size() - 1; i > 0; --i)
            s[i - 1] = s[i] * d[i];
        return s;
    }
    gr::TensorPtr intermediate(const gr::TensorPtr& t, bool reduced, const char* name)
    {
        const auto d = reduced ? reducedDims() : fullDims();
        t->set_uid(next++).set_name(name).set_data_type(fe::DataType::FLOAT).set_dim(d).set_stride(packed(d));
        return t;
    }
    gr::TensorPtr reduce(const gr::TensorPtr& in, fe::ReductionMode m, const char* name)
    {
        auto a = gr::ReductionAttributes().set_name(name).set_compute_data_type(fe::DataType::FLOAT).set_mode(m);
        return intermediate(g.reduction(in, a), true, name);
    }
    // A unary node keeps its input's shape (`reduced`: a reduced tensor's).
    gr::TensorPtr pw(fe::PointwiseMode m, const gr::TensorPtr& a, const char* name, bool reduced = false)
    {
        auto attrs = gr::PointwiseAttributes().set_name(name).set_compute_data_type(fe::DataType::FLOAT).set_mode(m);
        return intermediate(g.pointwise(a, attrs), reduced, name);
    }
    gr::TensorPtr pw(fe::PointwiseMode m, const gr::TensorPtr& a, const gr::TensorPtr& b, const char* name)
    {
        auto attrs = gr::PointwiseAttributes().set_name(name).set_compute_data_type(fe::DataType::FLOAT).set_mode(m);
        return intermediate(g.pointwise(a, b, attrs), false, name);
    }
};

std::unique_ptr<gr::Graph> translate(const SoftmaxCall&, const SmProblem& p)
{
    auto g = newGraph(p.out.type);
    Composite k{*g, p};
    using PM = fe::PointwiseMode;
    gr::TensorPtr out;
    if(!p.backward)
    {
        auto x = graphTensor(p.a, uid::kA, "x");
        if(p.algorithm == MIOPEN_SOFTMAX_FAST)
        {
            auto e = k.pw(PM::EXP, x, "exp");
            auto d = k.reduce(e, fe::ReductionMode::ADD, "sum");
            out    = k.pw(PM::DIV, e, d, "y");
        }
        else
        {
            auto m = k.reduce(x, fe::ReductionMode::MAX, "max");
            auto s = k.pw(PM::SUB, x, m, "shifted");
            auto e = k.pw(PM::EXP, s, "exp");
            auto d = k.reduce(e, fe::ReductionMode::ADD, "sum");
            out    = p.algorithm == MIOPEN_SOFTMAX_LOG ? k.pw(PM::SUB, s, k.pw(PM::LOG, d, "log_sum", true), "y")
                                                      : k.pw(PM::DIV, e, d, "y");
        }
        setOutput(out, p.out, uid::kOut, "y");
    }
    else
    {
        auto y  = graphTensor(p.a, uid::kA, "y");
        auto dy = graphTensor(p.b, uid::kB, "dy");
        if(p.algorithm == MIOPEN_SOFTMAX_LOG)
        {
            auto r = k.reduce(dy, fe::ReductionMode::ADD, "sum_dy");
            auto e = k.pw(PM::EXP, y, "exp_y");
            auto t = k.pw(PM::MUL, e, r, "scaled");
            out    = k.pw(PM::SUB, dy, t, "dx");
        }
        else
        {
            auto q = k.pw(PM::MUL, dy, y, "dy_y");
            auto r = k.reduce(q, fe::ReductionMode::ADD, "sum_dy_y");
            auto t = k.pw(PM::SUB, dy, r, "centred");
            out    = k.pw(PM::MUL, y, t, "dx");
        }
        setOutput(out, p.out, uid::kOut, "dx");
    }
    return g;
}

// ---- MIOPEN_ENABLE_LOGGING_CMD ----------------------------------------------------------------------

// The line Private prints (softmaxDriverArgs in projects/miopen/src/softmax.cpp; x for forward,
// dx for backward, MIOpen's driverNchw folding), so a logged reproducer does not depend on the route.
void logDriverCommand(const SoftmaxCall& c, const SmProblem& p)
{
    const TensorInfo& t = p.backward ? p.out : p.a;
    // driverNchw: N, C, then H = the middle dimensions folded, W = the last (1 when rank 2).
    long long n = t.lens[0], ch = t.lens[1], h = 1, w = 1;
    if(t.rank >= 3)
    {
        for(int i = 2; i + 1 < t.rank; ++i)
            h *= t.lens[static_cast<std::size_t>(i)];
        w = t.lens[static_cast<std::size_t>(t.rank - 1)];
    }
    auto scalar = [](const void* v) {
        float f = 0.0f;
        std::memcpy(&f, v, sizeof f);
        return std::to_string(f);
    };
    std::ostringstream ss;
    ss << "Command [LogCmdSoftmax] ./bin/MIOpenDriver softmax"
       << (t.type == miopenHalf ? "fp16" : t.type == miopenBFloat16 ? "bfp16" : "") << " -n " << n << " -c " << ch
       << " -H " << h << " -W " << w << " -F " << (p.backward ? 2 : 1) << " -a " << p.algorithm << " -m " << p.mode
       << " -A " << scalar(c.alpha) << " -B " << scalar(c.beta);
    std::fprintf(stderr, "MIOpen(HIP): %s\n", ss.str().c_str());
}

// ---- execution -----------------------------------------------------------------------------------------

void bind(const SoftmaxCall& c, const SmProblem& p, Bindings& b)
{
    if(!p.backward)
        b.add(uid::kA, c.x);
    else
    {
        b.add(uid::kA, c.y);
        b.add(uid::kB, c.dy);
    }
    b.add(uid::kOut, c.written);
}

// ---- MIOPEN_HIPDNN_FORWARDING=verify ------------------------------------------------------------

// The forwarded call succeeded: run it on Private into scratch and compare, with the dot-product
// bound of the softmax length (a sum of that many terms of at most the inputs' magnitude).
Verification shadowVerify(const SoftmaxCall& c, const SmProblem& p, const NoSnapshot&)
{
    const std::size_t n = elementCount(p.out);
    std::vector<unsigned char> scratch(n * elementBytes(p.out.type));
    const float one = 1.0f, zero = 0.0f;
    const auto algo = static_cast<miopenSoftmaxAlgorithm_t>(p.algorithm);
    const auto mode = static_cast<miopenSoftmaxMode_t>(p.mode);
    std::int64_t length = p.out.lens[1];
    if(p.mode == MIOPEN_SOFTMAX_MODE_INSTANCE)
        for(int i = 2; i < p.out.rank; ++i)
            length *= p.out.lens[static_cast<std::size_t>(i)];
    miopenStatus_t st = miopenStatusSuccess;
    double ma = 1.0, mb = 1.0;
    if(!p.backward)
    {
        st = miopenSoftmaxForward_V2_impl(c.handle, &one, c.xDesc, c.x, &zero, c.yDesc, scratch.data(), algo, mode);
        ma = std::max(1.0, verify::maxAbs(p.a.type, c.x, elementCount(p.a)));
    }
    else
    {
        st = miopenSoftmaxBackward_V2_impl(c.handle, &one, c.yDesc, c.y, c.dyDesc, c.dy, &zero, c.dxDesc,
                                           scratch.data(), algo, mode);
        ma = std::max(1.0, verify::maxAbs(p.a.type, c.y, elementCount(p.a)));
        mb = std::max(1.0, verify::maxAbs(p.b.type, c.dy, elementCount(p.b)));
    }
    return compared(st, p.out.type, c.written, scratch.data(), n, verify::convBound(p.out.type, length, ma, mb, 0.0),
                    p.backward ? "dx: " : "y: ");
}

std::string planName(const SoftmaxCall&, const SmProblem& p)
{
    return std::string("softmax ") + algorithmName(p.algorithm) + (p.backward ? " backward" : " forward");
}

std::string describe(const SoftmaxCall&, const SmProblem& p)
{
    return std::string("softmax ") + algorithmName(p.algorithm) + ", " + shapeText(p.out);
}

} // namespace

bool tryForward(const SoftmaxCall& c, miopenStatus_t* status) noexcept
{
    return forwardCall<SmProblem, PlanRecord>(c, status);
}

} // namespace fwd
} // namespace wrapper
} // namespace miopen
