// hipDNN forwarding of the batchnorm family: the hooks of the forwarding skeleton for BatchnormCall
// (forwarding.hpp; docs/wrapper.md "Batchnorm").
// Spatial mode only, one hipDNN node per call:
//   inference  -> batchnorm_inference_variance_ext (x, estimated mean and variance, scale, bias,
//                 epsilon): MIOpen's variance goes to the engines as is (no inverse computed here);
//   training   -> batchnorm (x, scale, bias, epsilon; previous running mean/variance and momentum
//                 = expAvgFactor when the caller passes both running statistics): the next running
//                 statistics are graph outputs bound to the same buffers as the previous ones (MIOpen
//                 updates them in place); the saved mean / inverse variance are graph outputs when
//                 the caller passes them and virtual (not written) when it passes null;
//   backward   -> batchnorm_backward (dy, x, scale, saved mean and inverse variance).
// Verify mode (MIOPEN_HIPDNN_FORWARDING=verify) runs each forwarded call on Private too, outputs
// into scratch, and compares every output with the test SDK's batchnorm tolerances.
// Validation reads every descriptor through Private's getters and sends what Private would reject
// to Private (invalid-arguments:<what>); what hipDNN cannot express is declined up front
// (declined:<reason>); a forwarded call is never retried on Private.
#include "forwarding.hpp"

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

using namespace core;

namespace {

struct BnProblem
{
    BnOp op = BnOp::Inference;
    int mode = 1;
    TensorInfo x, y, dx, scale, bias, mean, var;
    bool running = false;  // Training: previous/next running statistics
    bool saveMean = false; // Training: the saved mean is written
    bool saveInv  = false; // Training: the saved inverse variance is written
    miopenAcceleratorQueue_t stream = nullptr;
};

const char* bnOpName(BnOp op)
{
    switch(op)
    {
    case BnOp::Inference: return "inference";
    case BnOp::Training: return "training";
    case BnOp::Backward: return "backward";
    }
    return "?";
}

// ---- the decision ------------------------------------------------------------------------------------


// The statistics arguments of Private's checkBnParamDescs: the lengths MIOpen derives from x
// (1, C, 1, ... in spatial mode; 1, C, D, H, W per activation), float or the type of x.
bool paramOk(const TensorInfo& p, const TensorInfo& x, int mode)
{
    if(p.rank != x.rank || !isComputeType(p.type) || (p.type != miopenFloat && p.type != x.type))
        return false;
    for(int i = 0; i < x.rank; ++i)
    {
        const auto d = static_cast<std::size_t>(i);
        const int want = i == 0 ? 1 : (i == 1 || mode == miopenBNPerActivation) ? x.lens[d] : 1;
        if(p.lens[d] != want)
            return false;
    }
    return true;
}

bool readScalars(const void* a, const void* b, bool& unit)
{
    float va = 0.0f, vb = 0.0f;
    if(!readFloat(a, va) || !readFloat(b, vb))
        return false;
    unit = va == 1.0f && vb == 0.0f;
    return true;
}

// Everything, in the playbook's order: what Private would reject first (its status is the
// answer), then what hipDNN cannot express.
Check examine(const BatchnormCall& c, BnProblem& p)
{
    p.op   = c.op;
    p.mode = c.mode;
    if(miopenGetStream_impl(c.handle, &p.stream) != miopenStatusSuccess)
        return invalid("handle");
    if(c.mode != miopenBNPerActivation && c.mode != miopenBNSpatial)
        return invalid("batchnorm-mode");
    bool unit = false, unitParam = true;
    if(!readScalars(c.alpha, c.beta, unit) ||
       (c.op == BnOp::Backward && !readScalars(c.alphaParam, c.betaParam, unitParam)))
        return invalid("null-alpha-beta");
    if(!readTensor(c.xDesc, p.x) || !readTensor(c.yDesc, p.y) ||
       (c.op == BnOp::Backward && !readTensor(c.dxDesc, p.dx)) || !readTensor(c.scaleDesc, p.scale) ||
       !readTensor(c.biasDesc, p.bias) || !readTensor(c.meanDesc, p.mean) || !readTensor(c.varDesc, p.var))
        return invalid("descriptor");
    if(c.x == nullptr || c.y == nullptr || c.written == nullptr || c.scale == nullptr ||
       (c.op != BnOp::Backward && c.bias == nullptr) ||
       (c.op == BnOp::Backward && (c.dScale == nullptr || c.dBias == nullptr)))
        return invalid("null-data-pointer");
    // Private's data checks: rank >= 3, half/bfloat16/float, equal lengths and types.
    if(p.x.rank < 3 || !isComputeType(p.x.type))
        return invalid("x");
    if(!sameLens(p.x, p.y) || p.x.type != p.y.type ||
       (c.op == BnOp::Backward && (!sameLens(p.x, p.dx) || p.x.type != p.dx.type)))
        return invalid("shape");
    for(const TensorInfo* t : {&p.scale, &p.bias, &p.mean, &p.var})
        if(!paramOk(*t, p.x, c.mode))
            return invalid("parameter-descriptor");
    if(!(c.epsilon >= 0.0))
        return invalid("epsilon");
    // Declines.
    if(c.mode == miopenBNPerActivation)
        return decline("per-activation-mode");
    if(!unit || !unitParam)
        return decline("alpha!=1-or-beta!=0");
    if(p.x.rank > 5)
        return decline("rank>5");
    for(const TensorInfo* t : {&p.x, &p.y, &p.dx, &p.scale, &p.bias, &p.mean, &p.var})
        if(t->rank > 0 && !isDense(*t))
            return decline("layout");
    // The engines describe the statistics alike (MIOpen's _V2 calls pair them up).
    if(p.scale.type != p.bias.type || p.scale.type != p.mean.type || p.scale.type != p.var.type)
        return decline("mixed-parameter-dtype");
    switch(c.op)
    {
    case BnOp::Inference:
        // Private then normalizes with the batch statistics: not an inference node.
        if(c.mean == nullptr || c.variance == nullptr)
            return decline("no-estimated-statistics");
        break;
    case BnOp::Training:
        if((c.mean == nullptr) != (c.variance == nullptr))
            return decline("one-running-statistic");
        p.running  = c.mean != nullptr;
        p.saveMean = c.savedMean != nullptr;
        p.saveInv  = c.savedInvVariance != nullptr;
        break;
    case BnOp::Backward:
        // Private recomputes the statistics from x: batchnorm_backward takes them as inputs.
        if(c.savedMean == nullptr || c.savedInvVariance == nullptr)
            return decline("no-saved-statistics");
        break;
    }
    return {};
}

ProblemKey key(const BatchnormCall& c, const BnProblem& p)
{
    ProblemKey k;
    k.push(static_cast<std::int32_t>(p.op));
    k.push((p.running ? 1 : 0) | (p.saveMean ? 2 : 0) | (p.saveInv ? 4 : 0));
    for(const TensorInfo* t : {&p.x, &p.y, &p.scale, &p.bias, &p.mean, &p.var})
        k.pushTensor(*t);
    if(p.op == BnOp::Backward)
        k.pushTensor(p.dx);
    // Epsilon and momentum are values of the graph (pass-by-value tensors).
    k.pushDouble(c.epsilon);
    k.pushDouble(p.op == BnOp::Training && p.running ? c.expAvgFactor : 0.0);
    return k;
}

// ---- translation ---------------------------------------------------------------------------------

// uids of the variant pack (pass-by-value scalars get uids too, never bound).
namespace uid {
constexpr std::int64_t kX = 1, kY = 2, kScale = 3, kBias = 4, kMean = 5, kVar = 6, kEpsilon = 7, kMomentum = 8,
                       kSavedMean = 9, kSavedInv = 10, kNextMean = 11, kNextVar = 12, kDx = 13, kDScale = 14,
                       kDBias = 15;
} // namespace uid

gr::TensorPtr scalarTensor(gr::Graph& g, double v, std::int64_t id, const char* name)
{
    // hipDNN's scalar tensors are fp32 (the engines read them as such).
    return g.tensor(gr::TensorAttributes().set_uid(id).set_name(name).set_value(static_cast<float>(v)));
}

std::unique_ptr<gr::Graph> translate(const BatchnormCall& c, const BnProblem& p)
{
    auto g = newGraph(p.x.type);
    switch(p.op)
    {
    case BnOp::Inference:
    {
        auto a = gr::BatchnormInferenceAttributes().set_compute_data_type(fe::DataType::FLOAT);
        a.set_epsilon(scalarTensor(*g, c.epsilon, uid::kEpsilon, "epsilon"));
        auto y = g->batchnorm_inference_variance_ext(graphTensor(p.x, uid::kX, "x"), graphTensor(p.mean, uid::kMean, "mean"),
                                                     graphTensor(p.var, uid::kVar, "variance"),
                                                     graphTensor(p.scale, uid::kScale, "scale"),
                                                     graphTensor(p.bias, uid::kBias, "bias"), a);
        setOutput(y, p.y, uid::kY, "y");
        break;
    }
    case BnOp::Training:
    {
        auto a = gr::BatchnormAttributes().set_compute_data_type(fe::DataType::FLOAT);
        a.set_epsilon(scalarTensor(*g, c.epsilon, uid::kEpsilon, "epsilon"));
        if(p.running)
            a.set_previous_running_stats(graphTensor(p.mean, uid::kMean, "prev_running_mean"),
                                         graphTensor(p.var, uid::kVar, "prev_running_variance"),
                                         scalarTensor(*g, c.expAvgFactor, uid::kMomentum, "momentum"));
        auto out = g->batchnorm(graphTensor(p.x, uid::kX, "x"), graphTensor(p.scale, uid::kScale, "scale"),
                                graphTensor(p.bias, uid::kBias, "bias"), a);
        setOutput(out[0], p.y, uid::kY, "y");
        // MIOpen describes the saved statistics with the mean / variance descriptors.
        if(p.saveMean)
            setOutput(out[1], p.mean, uid::kSavedMean, "saved_mean");
        if(p.saveInv)
            setOutput(out[2], p.var, uid::kSavedInv, "saved_inv_variance");
        if(p.running)
        {
            setOutput(out[3], p.mean, uid::kNextMean, "next_running_mean");
            setOutput(out[4], p.var, uid::kNextVar, "next_running_variance");
        }
        break;
    }
    case BnOp::Backward:
    {
        auto a = gr::BatchnormBackwardAttributes().set_compute_data_type(fe::DataType::FLOAT);
        a.set_saved_mean_and_inv_variance(graphTensor(p.mean, uid::kMean, "saved_mean"),
                                          graphTensor(p.var, uid::kVar, "saved_inv_variance"));
        auto out = g->batchnorm_backward(graphTensor(p.y, uid::kY, "dy"), graphTensor(p.x, uid::kX, "x"),
                                         graphTensor(p.scale, uid::kScale, "scale"), a);
        setOutput(out[0], p.dx, uid::kDx, "dx");
        setOutput(out[1], p.scale, uid::kDScale, "dscale");
        setOutput(out[2], p.bias, uid::kDBias, "dbias");
        break;
    }
    }
    return g;
}

// ---- MIOPEN_ENABLE_LOGGING_CMD ----------------------------------------------------------------------

// The line Private prints for this call (bnDriverArgs in projects/miopen/src/batchnorm.cpp), so a
// logged reproducer does not depend on the route.
void logDriverCommand(const BatchnormCall& c, const BnProblem& p)
{
    const TensorInfo& x = p.x;
    const miopenDataType_t mt = p.mean.type;
    const char* base = x.type == miopenHalf && mt == miopenHalf             ? "bnormfp16"
                       : x.type == miopenBFloat16 && mt == miopenBFloat16   ? "bnormbfp16"
                       : x.type == miopenHalf && mt == miopenFloat          ? "bnormfp16fp32"
                       : x.type == miopenBFloat16 && mt == miopenFloat      ? "bnormbfp16fp32"
                                                                            : "bnorm";
    auto len       = [&x](int i) { return std::to_string(x.lens[static_cast<std::size_t>(i)]); };
    const bool is3d = x.rank == 5;
    std::string line = std::string("Command [LogCmdBNorm] ./bin/MIOpenDriver ") + base;
    if(is3d)
        line += " -n " + len(0) + " -c " + len(1) + " -D " + len(2) + " -H " + len(3) + " -W " + len(4);
    else
    {
        long long h = 1; // MIOpen's driverNchw: the middle dimensions folded into H
        for(int i = 2; i + 1 < x.rank; ++i)
            h *= x.lens[static_cast<std::size_t>(i)];
        line += " -n " + len(0) + " -c " + len(1) + " -H " + std::to_string(h) + " -W " + len(x.rank - 1);
    }
    line += " -m " + std::to_string(p.mode);
    bool saved = false, running = false;
    switch(p.op)
    {
    case BnOp::Training:
        line += " --forw 1 -b 0";
        saved   = c.savedMean != nullptr && c.savedInvVariance != nullptr;
        running = c.mean != nullptr && c.variance != nullptr;
        break;
    case BnOp::Inference:
        line += " --forw 2 -b 0";
        running = c.mean != nullptr && c.variance != nullptr;
        break;
    case BnOp::Backward:
        line += " --forw 0 -b 1";
        saved = c.savedMean != nullptr && c.savedInvVariance != nullptr;
        break;
    }
    if(saved)
        line += " -s 1";
    if(running)
        line += " -r 1";
    const std::string l = (x.rank == 4 || is3d) ? layoutName(x) : std::string();
    line += " --layout " + (l.empty() ? std::string(is3d ? "NCDHW" : "NCHW") : l);
    std::fprintf(stderr, "MIOpen(HIP): %s\n", line.c_str());
}

// ---- execution -----------------------------------------------------------------------------------------

void bind(const BatchnormCall& c, const BnProblem& p, Bindings& b)
{
    b.add(uid::kX, c.x);
    b.add(uid::kScale, c.scale);
    switch(p.op)
    {
    case BnOp::Inference:
        b.add(uid::kY, c.written);
        b.add(uid::kBias, c.bias);
        b.add(uid::kMean, c.mean);
        b.add(uid::kVar, c.variance);
        break;
    case BnOp::Training:
        b.add(uid::kY, c.written);
        b.add(uid::kBias, c.bias);
        if(p.saveMean)
            b.add(uid::kSavedMean, c.savedMean);
        if(p.saveInv)
            b.add(uid::kSavedInv, c.savedInvVariance);
        if(p.running)
        {
            // In place, as MIOpen: previous and next running statistics are the caller's buffers.
            b.add(uid::kMean, c.mean);
            b.add(uid::kVar, c.variance);
            b.add(uid::kNextMean, c.mean);
            b.add(uid::kNextVar, c.variance);
        }
        break;
    case BnOp::Backward:
        b.add(uid::kY, c.y);
        b.add(uid::kMean, c.savedMean);
        b.add(uid::kVar, c.savedInvVariance);
        b.add(uid::kDx, c.written);
        b.add(uid::kDScale, c.dScale);
        b.add(uid::kDBias, c.dBias);
        break;
    }
}

// ---- MIOPEN_HIPDNN_FORWARDING=verify ------------------------------------------------------------

std::size_t bytesOf(const TensorInfo& t) { return elementCount(t) * elementBytes(t.type); }

// The running statistics before a forwarded training call updates them in place (verify mode):
// Private's shadow run starts from the same values.
struct RunningSnapshot
{
    std::vector<unsigned char> mean, var;
};

void snapshot(const BatchnormCall& c, const BnProblem& p, RunningSnapshot& s)
{
    if(p.op != BnOp::Training || !p.running)
        return;
    const auto* m = static_cast<const unsigned char*>(c.mean);
    const auto* v = static_cast<const unsigned char*>(c.variance);
    s.mean.assign(m, m + bytesOf(p.mean));
    s.var.assign(v, v + bytesOf(p.var));
}

// The forwarded call succeeded: run it on Private with every output redirected to scratch (the
// running statistics starting from the snapshot) and compare each output with the test SDK's
// batchnorm tolerances. Counted per entry point; a mismatch is logged once per problem.
Verification shadowVerify(const BatchnormCall& c, const BnProblem& p, const RunningSnapshot& prev)
{
    struct Output
    {
        const char* name;
        const TensorInfo* t;
        const void* forwarded;
        std::vector<unsigned char> scratch;
    };
    std::vector<Output> outs;
    auto add = [&outs](const char* name, const TensorInfo& t, const void* forwarded) {
        outs.push_back({name, &t, forwarded, std::vector<unsigned char>(bytesOf(t))});
        return outs.back().scratch.data();
    };
    float one = 1.0f, zero = 0.0f;
    miopenStatus_t st = miopenStatusSuccess;
    outs.reserve(5);
    switch(p.op)
    {
    case BnOp::Inference:
    {
        void* y = add("y", p.y, c.written);
        st = miopenBatchNormalizationForwardInference_V2_impl(c.handle, miopenBNSpatial, &one, &zero, c.xDesc, c.x,
                                                              c.yDesc, y, c.scaleDesc, c.biasDesc, c.meanDesc,
                                                              c.varDesc, const_cast<void*>(c.scale),
                                                              const_cast<void*>(c.bias), c.mean, c.variance, c.epsilon);
        break;
    }
    case BnOp::Training:
    {
        void* y  = add("y", p.y, c.written);
        void* sm = p.saveMean ? add("saved mean", p.mean, c.savedMean) : nullptr;
        void* si = p.saveInv ? add("saved inverse variance", p.var, c.savedInvVariance) : nullptr;
        void *rm = nullptr, *rv = nullptr;
        if(p.running)
        {
            rm = add("running mean", p.mean, c.mean);
            rv = add("running variance", p.var, c.variance);
            std::memcpy(rm, prev.mean.data(), prev.mean.size());
            std::memcpy(rv, prev.var.data(), prev.var.size());
        }
        st = miopenBatchNormalizationForwardTraining_V2_impl(
            c.handle, miopenBNSpatial, &one, &zero, c.xDesc, c.x, c.yDesc, y, c.scaleDesc, c.biasDesc, c.meanDesc,
            c.varDesc, const_cast<void*>(c.scale), const_cast<void*>(c.bias), c.expAvgFactor, rm, rv, c.epsilon, sm, si);
        break;
    }
    case BnOp::Backward:
    {
        void* dx = add("dx", p.dx, c.written);
        void* ds = add("dscale", p.scale, c.dScale);
        void* db = add("dbias", p.bias, c.dBias);
        st = miopenBatchNormalizationBackward_V2_impl(c.handle, miopenBNSpatial, &one, &zero, &one, &zero, c.xDesc, c.x,
                                                      c.yDesc, c.y, c.dxDesc, dx, c.scaleDesc, c.biasDesc, c.meanDesc,
                                                      c.varDesc, c.scale, ds, db, c.epsilon, c.savedMean,
                                                      c.savedInvVariance);
        break;
    }
    }
    const int direction = p.op == BnOp::Inference ? 0 : p.op == BnOp::Training ? 1 : 2;
    bool ok = st == miopenStatusSuccess;
    std::string what = ok ? "" : std::string("MIOpen Private failed: ") + miopenGetErrorString_impl(st);
    for(const auto& o : outs)
    {
        if(!ok)
            break;
        const std::size_t n = elementCount(*o.t);
        const verify::Outcome r =
            verify::compare(o.t->type, o.forwarded, o.scratch.data(), n,
                            verify::bnBound(o.t->type, direction, verify::maxAbs(o.t->type, o.scratch.data(), n)));
        if(!r.ok)
        {
            ok   = false;
            what = std::string(o.name) + ": " + verify::describe(r);
        }
    }
    return {ok, what};
}

std::string planName(const BatchnormCall&, const BnProblem& p) { return std::string("batchnorm ") + bnOpName(p.op); }

std::string describe(const BatchnormCall&, const BnProblem& p)
{
    return std::string("batchnorm ") + bnOpName(p.op) + ", x " + shapeText(p.x);
}

} // namespace

bool tryForward(const BatchnormCall& c, miopenStatus_t* status) noexcept
{
    return forwardCall<BnProblem, PlanRecord, RunningSnapshot>(c, status);
}

} // namespace fwd
} // namespace wrapper
} // namespace miopen
