// hipDNN forwarding of the pooling family: the hooks of the forwarding skeleton for PoolingCall
// (forwarding.hpp; docs/wrapper.md "Pooling"). One resample node per call, 2-D and 3-D pooling:
//   miopenPoolingForward  -> resample (MAXPOOL over NEG_INF_PAD padding: MIOpen never lets a
//                            padded position win; AVGPOOL_EXCLUDE_PADDING for miopenPoolingAverage,
//                            AVGPOOL_INCLUDE_PADDING for miopenPoolingAverageInclusive), MIOpen's
//                            symmetric padding as equal pre and post padding;
//   miopenPoolingBackward -> average modes: resample_bwd of dy;
//                            max: the gradient from x — resample of x generating its index (the
//                            pooled y and the index virtual), then resample_bwd of dy reading it.
// Max pooling's saved indices have no graph counterpart: a forward with do_backward writes
// MIOpen's index encoding (the descriptor's index type and Mask/Image mode) into the caller's
// workspace, which hipDNN's resample cannot write, so that case is declined (`workspace-indices`)
// and Private writes them. A forwarded max backward never reads that workspace: it recomputes the
// argmax from x (MIOpen's rule: first maximum in window order, padding never wins), which gives
// the positions Private's forward saved for the same x — so any mix of routes (forward on
// Private, backward forwarded, or the reverse through MIOPEN_DISABLE_HIPDNN_FOR) gives the same
// dx. A max backward without x (Private does not read it) is declined (`max-backward-no-x`).
// Verify mode runs each forwarded call on Private into scratch and compares.
#include "forwarding.hpp"
#include "forwarding_core.hpp"
#include "forwarding_skeleton.hpp"
#include "shadow_verify.hpp"

#include <miopen/miopen_impl.h>

#include <chrono>
#include <cstdio>
#include <sstream>

namespace miopen {
namespace wrapper {
namespace fwd {

using namespace core;

namespace {

constexpr int kMaxSpatial = 3;

struct PoolProblem
{
    bool backward = false;
    miopenPoolingMode_t mode = miopenPoolingMax;
    int spatial = 0;
    std::array<int, kMaxSpatial> window{}, pad{}, stride{};
    miopenIndexType_t indexType = miopenIndexUint8;
    miopenPoolingWorkspaceIndexMode_t indexMode = miopenPoolingWorkspaceIndexMask;
    TensorInfo in, out; // forward: x, y; backward: dx, dy
    TensorInfo logX;    // x as Private logs it (backward: x's descriptor, not dx's)
    miopenAcceleratorQueue_t stream = nullptr;
};


// Private's output lengths (PoolingDescriptor::outputLengths): max(1, (in + 2 pad - window) /
// stride + 1), truncating.
bool outputMatches(const PoolProblem& p, const TensorInfo& in, const TensorInfo& out)
{
    if(in.rank != p.spatial + 2 || out.rank != in.rank || out.lens[0] != in.lens[0] || out.lens[1] != in.lens[1])
        return false;
    for(int i = 0; i < p.spatial; ++i)
    {
        const auto s = static_cast<std::size_t>(i);
        const std::int64_t o =
            (static_cast<std::int64_t>(in.lens[s + 2]) + 2 * static_cast<std::int64_t>(p.pad[s]) - p.window[s]) /
                p.stride[s] +
            1;
        if(std::max<std::int64_t>(1, o) != out.lens[s + 2])
            return false;
    }
    return true;
}

// Everything, in the playbook's order: what Private would reject first (its status is the
// answer), then what hipDNN cannot express.
Check examine(const PoolingCall& c, PoolProblem& p)
{
    p.backward = c.backward;
    if(miopenGetStream_impl(c.handle, &p.stream) != miopenStatusSuccess)
        return invalid("handle");
    int nb = 0;
    std::array<int, kMaxDims> w{}, pad{}, st{};
    if(miopenGetNdPoolingDescriptor_impl(c.pool, kMaxDims, &p.mode, &nb, w.data(), pad.data(), st.data()) !=
           miopenStatusSuccess ||
       nb < 2 || nb > kMaxSpatial || miopenGetPoolingIndexType_impl(c.pool, &p.indexType) != miopenStatusSuccess ||
       miopenGetPoolingWorkSpaceIndexMode_impl(c.pool, &p.indexMode) != miopenStatusSuccess)
        return invalid("pooling-descriptor");
    p.spatial = nb;
    for(int i = 0; i < nb; ++i)
    {
        const auto s = static_cast<std::size_t>(i);
        p.window[s] = w[s], p.pad[s] = pad[s], p.stride[s] = st[s];
    }
    // Private's checkUnitScalars: null is BadParm, other values UnknownError — its status either way.
    float alpha = 0.0f, beta = 0.0f;
    if(!readFloat(c.alpha, alpha) || !readFloat(c.beta, beta))
        return invalid("null-alpha-beta");
    if(alpha != 1.0f || beta != 0.0f)
        return invalid("alpha!=1-or-beta!=0");
    if(!c.backward)
    {
        if(!readTensor(c.xDesc, p.in) || !readTensor(c.yDesc, p.out))
            return invalid("descriptor");
        if(c.x == nullptr || c.written == nullptr)
            return invalid("null-data-pointer");
        if(!outputMatches(p, p.in, p.out))
            return invalid("shape");
        if(p.in.type != p.out.type || !isComputeType(p.in.type))
            return invalid("dtype");
        p.logX = p.in;
    }
    else
    {
        TensorInfo x, y;
        if(!readTensor(c.yDesc, y) || !readTensor(c.dyDesc, p.out) || !readTensor(c.xDesc, x) ||
           !readTensor(c.dxDesc, p.in))
            return invalid("descriptor");
        if(c.dy == nullptr || c.written == nullptr)
            return invalid("null-data-pointer");
        if(!sameLens(x, p.in) || !sameLens(y, p.out) || !outputMatches(p, p.in, p.out))
            return invalid("shape");
        if(p.out.type != p.in.type || y.type != p.in.type || x.type != p.in.type || !isComputeType(p.in.type))
            return invalid("dtype");
        p.logX = x;
    }
    // Declines. Dense tensors only (this also rules out a written tensor that addresses one
    // element twice, which Private rejects).
    if(!isDense(p.in) || !isDense(p.out))
        return decline("layout");
    const bool isMax = p.mode == miopenPoolingMax;
    if(!c.backward && isMax && c.doBackward)
        return decline("workspace-indices");
    if(c.backward && isMax)
    {
        if(c.workspace == nullptr) // Private's BadParm: it reads the indices
            return invalid("null-workspace");
        if(c.x == nullptr)
            return decline("max-backward-no-x");
        if(!isDense(p.logX))
            return decline("layout");
    }
    for(int i = 0; i < p.spatial; ++i)
    {
        const auto s = static_cast<std::size_t>(i);
        // A window that holds no input element (MIOpen: the lowest value and index 0) or reaches
        // past the padded input (MIOpen clamps the output length to 1): no engine runs either.
        if(p.pad[s] >= p.window[s])
            return decline("padding>=window");
        if(p.in.lens[s + 2] + 2 * p.pad[s] < p.window[s])
            return decline("window>padded-input");
    }
    return {};
}

ProblemKey key(const PoolingCall&, const PoolProblem& p)
{
    ProblemKey k;
    k.push(p.backward ? 1 : 0);
    k.push(static_cast<std::int32_t>(p.mode));
    k.push(p.spatial);
    for(int i = 0; i < p.spatial; ++i)
    {
        const auto s = static_cast<std::size_t>(i);
        k.push(p.window[s]);
        k.push(p.pad[s]);
        k.push(p.stride[s]);
    }
    k.pushTensor(p.in);
    k.pushTensor(p.out);
    if(p.backward && p.mode == miopenPoolingMax)
        k.pushTensor(p.logX); // x, read by the gradient graph
    return k;
}

const char* modeName(miopenPoolingMode_t m)
{
    return m == miopenPoolingMax ? "max" : m == miopenPoolingAverage ? "average" : "average-inclusive";
}

// ---- translation ---------------------------------------------------------------------------------

namespace uid {
constexpr std::int64_t kIn = 1, kOut = 2; // forward: x, y; backward: dy (kOut), dx (kIn)
constexpr std::int64_t kX = 3, kPooled = 4, kIndex = 5; // max backward: x, the virtual y and index
} // namespace uid

template <class A>
A resampleAttributes(const PoolProblem& p)
{
    A a;
    std::vector<std::int64_t> window, stride, pad;
    for(int i = 0; i < p.spatial; ++i)
    {
        const auto s = static_cast<std::size_t>(i);
        window.push_back(p.window[s]);
        stride.push_back(p.stride[s]);
        pad.push_back(p.pad[s]);
    }
    const fe::ResampleMode mode = p.mode == miopenPoolingMax       ? fe::ResampleMode::MAXPOOL
                                  : p.mode == miopenPoolingAverage ? fe::ResampleMode::AVGPOOL_EXCLUDE_PADDING
                                                                   : fe::ResampleMode::AVGPOOL_INCLUDE_PADDING;
    // MIOpen pads symmetrically; a padded position never wins a max (NEG_INF_PAD) and counts
    // (inclusive) or not (exclusive) in an average by the mode, whatever the padding value.
    a.set_name("pooling")
        .set_compute_data_type(fe::DataType::FLOAT)
        .set_resample_mode(mode)
        .set_padding_mode(mode == fe::ResampleMode::MAXPOOL ? fe::PaddingMode::NEG_INF_PAD : fe::PaddingMode::ZERO_PAD)
        .set_window(window)
        .set_stride(stride)
        .set_pre_padding(pad)
        .set_post_padding(pad);
    return a;
}

std::unique_ptr<gr::Graph> translate(const PoolingCall&, const PoolProblem& p)
{
    auto g = newGraph(p.in.type);
    if(!p.backward)
    {
        auto out = g->resample(graphTensor(p.in, uid::kIn, "x"), resampleAttributes<gr::ResampleFwdAttributes>(p));
        setOutput(out[0], p.out, uid::kOut, "y");
    }
    else if(p.mode != miopenPoolingMax)
    {
        auto dx = g->resample_bwd(graphTensor(p.out, uid::kOut, "dy"), resampleAttributes<gr::ResampleBwdAttributes>(p));
        setOutput(dx, p.in, uid::kIn, "dx");
    }
    else
    {
        // The argmax from x: the pooled y and the index are intermediates (virtual, packed).
        auto fa = resampleAttributes<gr::ResampleFwdAttributes>(p);
        fa.set_generate_index(true);
        auto pooled = g->resample(graphTensor(p.logX, uid::kX, "x"), fa);
        std::vector<std::int64_t> dims = i64(p.out.lens, p.out.rank), packed(dims.size(), 1);
        for(std::size_t i = dims.size() - 1; i > 0; --i)
            packed[i - 1] = packed[i] * dims[i];
        pooled[0]->set_uid(uid::kPooled).set_name("pooled").set_data_type(toHipdnn(p.out.type)).set_dim(dims).set_stride(packed);
        pooled[1]->set_uid(uid::kIndex).set_name("index").set_data_type(fe::DataType::INT32).set_dim(dims).set_stride(packed);
        auto dx = g->resample_bwd(graphTensor(p.out, uid::kOut, "dy"), resampleAttributes<gr::ResampleBwdAttributes>(p),
                                  pooled[1]);
        setOutput(dx, p.in, uid::kIn, "dx");
    }
    return g;
}

// ---- MIOPEN_ENABLE_LOGGING_CMD ----------------------------------------------------------------------

// The line Private prints (PoolingDescriptor::driverArgs in projects/miopen/src/pooling.cpp): the
// x tensor for forward, dx's for backward, so a logged reproducer does not depend on the route.
void logDriverCommand(const PoolingCall& c, const PoolProblem& p)
{
    const TensorInfo& x = p.logX;
    std::ostringstream ss;
    ss << "Command [Pooling_logging_cmd] ./bin/MIOpenDriver pool"
       << (x.type == miopenHalf ? "fp16" : x.type == miopenBFloat16 ? "bfp16" : "") << " -M "
       << static_cast<int>(p.indexMode) << " --input ";
    for(int i = 0; i < x.rank; ++i)
        ss << (i ? "x" : "") << x.lens[static_cast<std::size_t>(i)];
    ss << ',';
    for(int i = 0; i < x.rank; ++i)
        ss << (i ? "x" : "") << x.strides[static_cast<std::size_t>(i)];
    const bool is3d = p.spatial == 3;
    const std::size_t o = is3d ? 1 : 0;
    if(is3d)
        ss << " -Z " << p.window[0];
    ss << " -y " << p.window[o] << " -x " << p.window[o + 1];
    if(is3d)
        ss << " -o " << p.pad[0];
    ss << " -p " << p.pad[o] << " -q " << p.pad[o + 1];
    if(is3d)
        ss << " -s " << p.stride[0];
    ss << " -v " << p.stride[o] << " -u " << p.stride[o + 1] << " -m "
       << (p.mode == miopenPoolingMax ? "max" : p.mode == miopenPoolingAverage ? "avg" : "avg_in") << " -F "
       << (c.backward ? 0 : 1) << " -t 1";
    if(p.indexType != miopenIndexUint8)
        ss << " -I "
           << (p.indexType == miopenIndexUint16   ? "miopenIndexUint16"
               : p.indexType == miopenIndexUint32 ? "miopenIndexUint32"
                                                  : "miopenIndexUint64");
    std::fprintf(stderr, "MIOpen(HIP): %s\n", ss.str().c_str());
}

// ---- execution -----------------------------------------------------------------------------------------

// The engine's scratch (max backward: the pooled y and indices) is the handle's (the default callerWorkspace):
// the caller's pooling workspace holds Private's indices, which the caller may read again.
void bind(const PoolingCall& c, const PoolProblem& p, Bindings& b)
{
    if(!p.backward)
    {
        b.add(uid::kIn, c.x);
        b.add(uid::kOut, c.written);
        return;
    }
    b.add(uid::kOut, c.dy);
    b.add(uid::kIn, c.written);
    if(p.mode == miopenPoolingMax)
        b.add(uid::kX, c.x);
}

// ---- MIOPEN_HIPDNN_FORWARDING=verify ------------------------------------------------------------

// The forwarded call succeeded: run it on Private with the output in scratch and compare. An
// output element is a max (exact), an average of at most the window's elements, or (backward) a
// sum of at most the windows that cover it of dy / window terms: the dot-product bound of that
// many terms (shadow_verify.hpp).
Verification shadowVerify(const PoolingCall& c, const PoolProblem& p, const NoSnapshot&)
{
    const TensorInfo& out = p.backward ? p.in : p.out;
    const std::size_t n   = elementCount(out);
    std::vector<unsigned char> scratch(n * elementBytes(out.type));
    const float one = 1.0f, zero = 0.0f;
    miopenStatus_t st = miopenStatusSuccess;
    std::int64_t terms = 1;
    for(int i = 0; i < p.spatial; ++i)
        terms *= p.window[static_cast<std::size_t>(i)];
    double maxIn = 0.0;
    if(!p.backward)
    {
        st    = miopenPoolingForward_impl(c.handle, c.pool, &one, c.xDesc, c.x, &zero, c.yDesc, scratch.data(), false,
                                          nullptr, 0);
        maxIn = verify::maxAbs(p.in.type, c.x, elementCount(p.in));
    }
    else
    {
        // Max: Private reads the indices its own forward saved in the caller's workspace.
        st    = miopenPoolingBackward_impl(c.handle, c.pool, &one, c.yDesc, c.y, c.dyDesc, c.dy, c.xDesc, c.x, &zero,
                                           c.dxDesc, scratch.data(), c.workspace);
        maxIn = verify::maxAbs(p.out.type, c.dy, elementCount(p.out));
    }
    return compared(st, out.type, c.written, scratch.data(), n, verify::convBound(out.type, terms, maxIn, 1.0, 0.0),
                    p.backward ? "dx: " : "y: ");
}

std::string planName(const PoolingCall&, const PoolProblem& p)
{
    return std::string("pooling ") + modeName(p.mode) + (p.backward ? " backward" : " forward");
}

std::string describe(const PoolingCall&, const PoolProblem& p)
{
    return std::string("pooling ") + modeName(p.mode) + ", " + (p.backward ? "dx " : "x ") + shapeText(p.in);
}

} // namespace

bool tryForward(const PoolingCall& c, miopenStatus_t* status) noexcept
{
    return forwardCall<PoolProblem, PlanRecord>(c, status);
}

} // namespace fwd
} // namespace wrapper
} // namespace miopen
