// Convolution through the public C API, on seeded random problems, against the independent
// reference (common/conv_reference.hpp): every public direction, transpose mode, groups, 1-3
// spatial dims, NCHW/NHWC/strided layouts, fp32/fp16/bf16 (and int8 forward), alpha/beta; through
// Find + execute for every algorithm Find returns, and through immediate mode for every solution.
// Canaries around every buffer prove nothing outside the outputs is written.
//
// The suite runs under every forwarding configuration (api.cmake): each call of the forwarding
// set asserts its route (common/forwarding_route.hpp: forwarded with an engine id, or declined
// with the reason docs/wrapper.md gives, or pass-through when forwarding is disabled), and each
// result is kept (common/run_outputs.hpp) for the comparison of the runs with each other.
// ConvApiEdge pins the edge cases the random draws may miss: groups, depthwise, dilation, one-sided
// use of the padding, channels-last, fp16/bf16, 3-D. MIOpen's API has no asymmetric padding (a
// convolution descriptor holds one pad per spatial dimension, applied on both sides); the closest
// it comes is a stride that leaves the trailing pad unused, which ConvApiEdge covers.
#include "common/api_helpers.hpp"
#include "common/conv_reference.hpp"
#include "common/forwarding_route.hpp"
#include "common/run_outputs.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>
#include <sstream>
#include <string>

namespace {

using test::GuardedBuffer;
namespace ref = conv_reference;

enum class PublicDir
{
    Forward,
    BackwardData,
    BackwardWeights
};

struct Case
{
    int spatialDims    = 2;
    bool transpose     = false;
    int groups         = 1;
    std::size_t n = 1, c = 1, k = 1; // regular roles: in C, out K
    std::vector<std::size_t> regIn, filter, regOut;
    std::vector<int> pads, strides, dilations, adj;
    std::string layout; // "packed-NC", "packed-NHWC" (channels last), "strided"
    miopenDataType_t type = miopenFloat;

    std::string describe() const
    {
        std::ostringstream s;
        s << (transpose ? "trans" : "conv") << ' ' << spatialDims << "D g" << groups << " n" << n << " c" << c
          << " k" << k << " in";
        for(auto v : regIn)
            s << ' ' << v;
        s << " f";
        for(auto v : filter)
            s << ' ' << v;
        s << " pad";
        for(auto v : pads)
            s << ' ' << v;
        s << " stride";
        for(auto v : strides)
            s << ' ' << v;
        s << " dil";
        for(auto v : dilations)
            s << ' ' << v;
        s << ' ' << layout << " type " << static_cast<int>(type);
        return s.str();
    }
};

// Lengths in N, C, spatial order -> strides for the case's layout.
std::vector<std::size_t> stridesFor(const std::vector<std::size_t>& lens, const std::string& layout)
{
    const std::size_t sd = lens.size() - 2;
    if(layout == "channels-last")
    {
        std::string order = "N";
        order += (sd == 1 ? "W" : sd == 2 ? "HW" : "DHW");
        order += "C";
        return ref::packedStrides(lens, order);
    }
    // Row-major NC...; "strided" leaves a gap of 3 elements after every innermost row.
    std::vector<std::size_t> s(lens.size(), 1);
    std::size_t running = 1;
    for(std::size_t i = lens.size(); i-- > 0;)
    {
        s[i] = running;
        running *= lens[i] + ((layout == "strided" && i == lens.size() - 1) ? 3 : 0);
    }
    return s;
}

Case makeCase(std::mt19937& rng, miopenDataType_t type, bool allowTranspose)
{
    auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
    for(;;)
    {
        Case c;
        c.type        = type;
        c.spatialDims = std::vector<int>{1, 2, 2, 2, 3}[static_cast<std::size_t>(pick(0, 4))];
        c.transpose   = allowTranspose && pick(0, 3) == 0;
        c.groups      = std::vector<int>{1, 1, 1, 2, 3}[static_cast<std::size_t>(pick(0, 4))];
        const int cpg = pick(1, 4), kpg = pick(1, 4);
        c.n           = static_cast<std::size_t>(pick(1, 3));
        c.c           = static_cast<std::size_t>(cpg * c.groups);
        c.k           = static_cast<std::size_t>(kpg * c.groups);
        if(pick(0, 5) == 0) // depthwise
        {
            c.groups = pick(2, 4);
            c.c = c.k = static_cast<std::size_t>(c.groups);
        }
        const int maxIn = c.spatialDims == 3 ? 7 : c.spatialDims == 2 ? 12 : 20;
        bool ok         = true;
        for(int d = 0; d < c.spatialDims; ++d)
        {
            const int f   = std::vector<int>{1, 1, 2, 3, 3, 3, 5}[static_cast<std::size_t>(pick(0, 6))];
            const int in  = pick(3, maxIn);
            const int pad = pick(0, 2), stride = pick(1, 3), dil = pick(0, 3) == 0 ? 2 : 1;
            const std::size_t out = ref::outputLength(static_cast<std::size_t>(in), static_cast<std::size_t>(f), pad, stride, dil);
            if(out == 0)
                ok = false;
            c.regIn.push_back(static_cast<std::size_t>(in));
            c.filter.push_back(static_cast<std::size_t>(f));
            c.regOut.push_back(out);
            c.pads.push_back(pad);
            c.strides.push_back(stride);
            c.dilations.push_back(dil);
            const int eff = dil * (f - 1) + 1;
            c.adj.push_back(ok ? (in + 2 * pad - eff) % stride : 0);
        }
        if(!ok)
            continue;
        c.layout = std::vector<std::string>{"packed", "packed", "channels-last", "strided"}[static_cast<std::size_t>(pick(0, 3))];
        // Keep the work small (<= ~20 MFLOP for the whole case's reference runs).
        double flops = 2.0 * static_cast<double>(c.n * c.k * (c.c / static_cast<std::size_t>(c.groups)));
        for(int d = 0; d < c.spatialDims; ++d)
            flops *= static_cast<double>(c.regOut[static_cast<std::size_t>(d)] * c.filter[static_cast<std::size_t>(d)]);
        if(flops > 2e6)
            continue;
        return c;
    }
}

struct PublicTensors
{
    std::vector<std::size_t> x, w, y; // lengths
};

PublicTensors publicShapes(const Case& c)
{
    std::vector<std::size_t> in{c.n, c.c}, out{c.n, c.k}, w{c.k, c.c / static_cast<std::size_t>(c.groups)};
    in.insert(in.end(), c.regIn.begin(), c.regIn.end());
    out.insert(out.end(), c.regOut.begin(), c.regOut.end());
    w.insert(w.end(), c.filter.begin(), c.filter.end());
    if(c.transpose)
        return {out, w, in};
    return {in, w, out};
}

std::vector<int> toInt(const std::vector<std::size_t>& v)
{
    return std::vector<int>(v.begin(), v.end());
}

// Error bound for a result of reduction length n (inputs in [-1, 1]): accumulated fp32 rounding
// (with a stated factor for Winograd's transforms) plus the output's own rounding.
double bound(miopenDataType_t t, std::size_t n, double maxAbsRef, double scale)
{
    const double accum   = 16.0 * static_cast<double>(n) * std::ldexp(1.0, -24); // 16: Winograd factor
    const double outEps  = t == miopenHalf ? std::ldexp(1.0, -11) : t == miopenBFloat16 ? std::ldexp(1.0, -8) : std::ldexp(1.0, -24);
    return scale * (accum + 2.0 * outEps * std::max(1.0, maxAbsRef));
}

class ConvApi : public ::testing::TestWithParam<std::tuple<int, miopenDataType_t>>
{
protected:
    void SetUp() override { ASSERT_MIOPEN_OK(miopenCreate(&_handle)); }
    void TearDown() override { miopenDestroy(_handle); }

    miopenHandle_t _handle = nullptr;
};

struct Buffers
{
    GuardedBuffer x, w, y;
};

const char* entryName(PublicDir dir, bool immediate)
{
    switch(dir)
    {
    case PublicDir::Forward: return immediate ? "miopenConvolutionForwardImmediate" : "miopenConvolutionForward";
    case PublicDir::BackwardData:
        return immediate ? "miopenConvolutionBackwardDataImmediate" : "miopenConvolutionBackwardData";
    default: return immediate ? "miopenConvolutionBackwardWeightsImmediate" : "miopenConvolutionBackwardWeights";
    }
}

const char* dirTag(PublicDir dir)
{
    return dir == PublicDir::Forward ? "fwd" : dir == PublicDir::BackwardData ? "bwd-data" : "bwd-weights";
}

// The route docs/wrapper.md gives the call with forwarding enabled, in the wrapper's order of
// decisions: more than 3 or fewer than 2 spatial dims, mixed data types (int8 in, int32 out),
// tensors with gaps; everything else is forwarded, transposed mode (a conv_dgrad / conv_fprop /
// conv_wgrad graph with the roles swapped, output padding in the output's dims) and alpha != 1 or
// beta != 0 (MUL / ADD nodes after the convolution) included (issue 11).
test::route::Expected expectedRoute(const Case& c, bool immediate, float alpha, float beta)
{
    using test::route::Expected;
    (void)immediate;
    (void)alpha;
    (void)beta;
    if(c.spatialDims > 3)
        return Expected::declined("spatial-dims>3");
    if(c.spatialDims < 2)
        return Expected::declined("1-d-convolution");
    if(c.type == miopenInt8)
        return Expected::declined("mixed-dtype");
    if(c.layout == "strided")
        return Expected::declined("layout");
    return Expected::forwarded();
}

void runCase(miopenHandle_t handle, const Case& c, PublicDir dir, std::mt19937& rng, float alpha, float beta)
{
    SCOPED_TRACE(c.describe() + " dir " + std::to_string(static_cast<int>(dir)) + " alpha " +
                 std::to_string(alpha) + " beta " + std::to_string(beta));
    const auto shapes = publicShapes(c);
    const auto xs = stridesFor(shapes.x, c.layout), ws = stridesFor(shapes.w, c.layout == "strided" ? "packed" : c.layout),
               ys = stridesFor(shapes.y, c.layout);
    const miopenDataType_t yType = c.type == miopenInt8 ? miopenInt32 : c.type;
    test::Tensor xd(c.type, toInt(shapes.x), toInt(xs));
    test::Tensor wd(c.type, toInt(shapes.w), toInt(ws));
    test::Tensor yd(yType, toInt(shapes.y), toInt(ys));
    test::Conv conv;
    ASSERT_MIOPEN_OK(miopenInitConvolutionNdDescriptor(conv, c.spatialDims, c.pads.data(), c.strides.data(),
                                                       c.dilations.data(), c.transpose ? miopenTranspose : miopenConvolution));
    ASSERT_MIOPEN_OK(miopenSetConvolutionGroupCount(conv, c.groups));
    if(c.transpose)
    {
        ASSERT_MIOPEN_OK(miopenSetTransposeConvNdOutputPadding(conv, c.spatialDims, c.adj.data()));
    }

    // The output-dim query agrees with the shapes the case derived.
    int nd = 0;
    std::vector<int> outDims(8, -1);
    ASSERT_MIOPEN_OK(miopenGetConvolutionNdForwardOutputDim(conv, xd, wd, &nd, outDims.data()));
    ASSERT_EQ(nd, static_cast<int>(shapes.y.size()));
    for(std::size_t i = 0; i < shapes.y.size(); ++i)
        ASSERT_EQ(outDims[i], static_cast<int>(shapes.y[i]));

    const ref::Tensor xt{shapes.x, xs}, wt{shapes.w, ws}, yt{shapes.y, ys};
    const std::size_t esz = test::typeSize(c.type);
    Buffers b{GuardedBuffer(xt.elementSpace() * esz), GuardedBuffer(wt.elementSpace() * esz),
              GuardedBuffer(yt.elementSpace() * test::typeSize(yType))};
    test::fillRandom(c.type, b.x.data(), xt.elementSpace(), rng);
    test::fillRandom(c.type, b.w.data(), wt.elementSpace(), rng);
    if(yType == miopenInt32)
        std::fill(b.y.as<std::int32_t>(), b.y.as<std::int32_t>() + yt.elementSpace(), 7);
    else
        test::fillRandom(yType, b.y.data(), yt.elementSpace(), rng);

    // The written tensor and its reference.
    GuardedBuffer* written = dir == PublicDir::Forward ? &b.y : dir == PublicDir::BackwardData ? &b.x : &b.w;
    const ref::Tensor& wrT = dir == PublicDir::Forward ? yt : dir == PublicDir::BackwardData ? xt : wt;
    const miopenDataType_t wrType = dir == PublicDir::Forward ? yType : c.type;
    const auto before = written->snapshot();
    const auto prior  = ref::toDouble(wrType, written->data(), wrT.elementSpace());

    auto X = ref::toDouble(c.type, b.x.data(), xt.elementSpace());
    auto W = ref::toDouble(c.type, b.w.data(), wt.elementSpace());
    auto Y = ref::toDouble(yType, b.y.data(), yt.elementSpace());
    ref::ConvParams p{c.pads, c.strides, c.dilations, c.groups};
    // Regular roles: in = transpose ? y : x; out = transpose ? x : y.
    const ref::Tensor& inT = c.transpose ? yt : xt;
    const ref::Tensor& outT = c.transpose ? xt : yt;
    std::vector<double>& inD = c.transpose ? Y : X;
    std::vector<double>& outD = c.transpose ? X : Y;
    std::size_t reduction = 0;
    const bool regularFwd = (dir == PublicDir::Forward) != c.transpose && dir != PublicDir::BackwardWeights;
    if(dir == PublicDir::BackwardWeights)
    {
        ref::backwardWeights(p, inT, inD.data(), wt, W.data(), outT, outD.data());
        reduction = c.n;
        for(auto o : c.regOut)
            reduction *= o;
    }
    else if(regularFwd)
    {
        ref::forward(p, inT, inD.data(), wt, W.data(), outT, outD.data());
        reduction = c.c / static_cast<std::size_t>(c.groups);
        for(auto f : c.filter)
            reduction *= f;
    }
    else
    {
        ref::backwardData(p, inT, inD.data(), wt, W.data(), outT, outD.data());
        reduction = c.k / static_cast<std::size_t>(c.groups);
        for(auto f : c.filter)
            reduction *= f;
    }
    const std::vector<double>& refD = dir == PublicDir::Forward ? Y : dir == PublicDir::BackwardData ? X : W;
    std::vector<double> expected(refD.size());
    for(std::size_t i = 0; i < refD.size(); ++i)
        expected[i] = alpha * refD[i] + (beta == 0.0f ? 0.0 : beta * prior[i]);
    const double tol = c.type == miopenInt8 ? 0.0 : bound(wrType, reduction, ref::maxAbs(wrT, expected), std::fabs(alpha) + std::fabs(beta) + 1.0);

    auto checkResult = [&](const char* what) {
        const auto got = ref::toDouble(wrType, written->data(), wrT.elementSpace());
        const double err = ref::maxAbsDiff(wrT, got, expected);
        EXPECT_LE(err, tol) << what;
        EXPECT_TRUE(b.x.guardsIntact() && b.w.guardsIntact() && b.y.guardsIntact()) << what;
        // Gaps between strided elements of the written tensor are untouched.
        const auto now = written->snapshot();
        std::vector<bool> logical(wrT.elementSpace(), false);
        std::vector<std::size_t> idx(wrT.lens.size(), 0);
        for(std::size_t e = 0; e < wrT.elementCount(); ++e)
        {
            std::size_t off = 0;
            for(std::size_t d = 0; d < idx.size(); ++d)
                off += idx[d] * wrT.strides[d];
            logical[off] = true;
            for(std::size_t d = idx.size(); d-- > 0;)
            {
                if(++idx[d] < wrT.lens[d])
                    break;
                idx[d] = 0;
            }
        }
        const std::size_t esz2 = test::typeSize(wrType);
        for(std::size_t i = 0; i < now.size(); ++i)
            if(!logical[i / esz2])
            {
                ASSERT_EQ(now[i], before[i]) << what << ": gap byte " << i << " written";
            }
    };
    auto restore = [&] { std::memcpy(written->data(), before.data(), before.size()); };

    // Workspace query, then Find within that workspace.
    size_t wsSize = 0;
    miopenStatus_t st;
    switch(dir)
    {
    case PublicDir::Forward: st = miopenConvolutionForwardGetWorkSpaceSize(handle, wd, xd, conv, yd, &wsSize); break;
    case PublicDir::BackwardData: st = miopenConvolutionBackwardDataGetWorkSpaceSize(handle, yd, wd, conv, xd, &wsSize); break;
    default: st = miopenConvolutionBackwardWeightsGetWorkSpaceSize(handle, yd, xd, conv, wd, &wsSize); break;
    }
    ASSERT_MIOPEN_OK(st);
    GuardedBuffer work(std::max<std::size_t>(wsSize, 1));

    miopenConvAlgoPerf_t perf[8];
    int returned = 0;
    switch(dir)
    {
    case PublicDir::Forward:
        st = miopenFindConvolutionForwardAlgorithm(handle, xd, b.x.data(), wd, b.w.data(), conv, yd, b.y.data(), 8, &returned, perf, work.data(), wsSize, false);
        break;
    case PublicDir::BackwardData:
        st = miopenFindConvolutionBackwardDataAlgorithm(handle, yd, b.y.data(), wd, b.w.data(), conv, xd, b.x.data(), 8, &returned, perf, work.data(), wsSize, false);
        break;
    default:
        st = miopenFindConvolutionBackwardWeightsAlgorithm(handle, yd, b.y.data(), xd, b.x.data(), conv, wd, b.w.data(), 8, &returned, perf, work.data(), wsSize, false);
        break;
    }
    ASSERT_MIOPEN_OK(st);
    // Find's properties: at least one result, ranked by time, one per algorithm, each fits.
    ASSERT_GE(returned, 1);
    for(int i = 0; i < returned; ++i)
    {
        EXPECT_LE(perf[i].memory, wsSize);
        EXPECT_GE(perf[i].time, 0.0f);
        if(i > 0)
        {
            EXPECT_LE(perf[i - 1].time, perf[i].time);
        }
        for(int j = 0; j < i; ++j)
            EXPECT_NE(static_cast<int>(perf[i].fwd_algo), static_cast<int>(perf[j].fwd_algo));
    }
    EXPECT_TRUE(work.guardsIntact());

    // Every algorithm Find returned is usable.
    for(int i = 0; i < returned; ++i)
    {
        restore();
        const test::route::Probe probe;
        switch(dir)
        {
        case PublicDir::Forward:
            st = miopenConvolutionForward(handle, &alpha, xd, b.x.data(), wd, b.w.data(), conv, perf[i].fwd_algo, &beta, yd, b.y.data(), work.data(), wsSize);
            break;
        case PublicDir::BackwardData:
            st = miopenConvolutionBackwardData(handle, &alpha, yd, b.y.data(), wd, b.w.data(), conv, perf[i].bwd_data_algo, &beta, xd, b.x.data(), work.data(), wsSize);
            break;
        default:
            st = miopenConvolutionBackwardWeights(handle, &alpha, yd, b.y.data(), xd, b.x.data(), conv, perf[i].bwd_weights_algo, &beta, wd, b.w.data(), work.data(), wsSize);
            break;
        }
        ASSERT_MIOPEN_OK(st) << "algorithm " << static_cast<int>(perf[i].fwd_algo);
        EXPECT_TRUE(probe.check(entryName(dir, false), expectedRoute(c, false, alpha, beta)));
        checkResult(("execute algorithm " + std::to_string(static_cast<int>(perf[i].fwd_algo))).c_str());
        EXPECT_TRUE(work.guardsIntact());
        EXPECT_TRUE(test::run_outputs::save(std::string(dirTag(dir)) + ".algo" +
                                                std::to_string(static_cast<int>(perf[i].fwd_algo)),
                                            wrType, written->data(), written->size()));
    }

    // Immediate mode: every applicable solution (alpha = 1, beta = 0 semantics).
    for(std::size_t i = 0; i < expected.size(); ++i)
        expected[i] = refD[i];
    const double tolImm = c.type == miopenInt8 ? 0.0 : bound(wrType, reduction, ref::maxAbs(wrT, expected), 2.0);
    size_t count = 0;
    switch(dir)
    {
    case PublicDir::Forward: st = miopenConvolutionForwardGetSolutionCount(handle, wd, xd, conv, yd, &count); break;
    case PublicDir::BackwardData: st = miopenConvolutionBackwardDataGetSolutionCount(handle, yd, wd, conv, xd, &count); break;
    default: st = miopenConvolutionBackwardWeightsGetSolutionCount(handle, yd, xd, conv, wd, &count); break;
    }
    ASSERT_MIOPEN_OK(st);
    ASSERT_GE(count, 1u);
    std::vector<miopenConvSolution_t> sols(count);
    size_t got = 0;
    switch(dir)
    {
    case PublicDir::Forward: st = miopenConvolutionForwardGetSolution(handle, wd, xd, conv, yd, count, &got, sols.data()); break;
    case PublicDir::BackwardData: st = miopenConvolutionBackwardDataGetSolution(handle, yd, wd, conv, xd, count, &got, sols.data()); break;
    default: st = miopenConvolutionBackwardWeightsGetSolution(handle, yd, xd, conv, wd, count, &got, sols.data()); break;
    }
    ASSERT_MIOPEN_OK(st);
    ASSERT_EQ(got, count);
    for(std::size_t i = 0; i < got; ++i)
    {
        const auto& s = sols[i];
        SCOPED_TRACE("solution " + std::to_string(s.solution_id));
        ASSERT_NE(s.solution_id, 0u);
        if(i > 0)
        {
            EXPECT_LE(sols[i - 1].time, s.time);
        }
        size_t solWs = 0;
        switch(dir)
        {
        case PublicDir::Forward:
            ASSERT_MIOPEN_OK(miopenConvolutionForwardGetSolutionWorkspaceSize(handle, wd, xd, conv, yd, s.solution_id, &solWs));
            ASSERT_MIOPEN_OK(miopenConvolutionForwardCompileSolution(handle, wd, xd, conv, yd, s.solution_id));
            break;
        case PublicDir::BackwardData:
            ASSERT_MIOPEN_OK(miopenConvolutionBackwardDataGetSolutionWorkspaceSize(handle, yd, wd, conv, xd, s.solution_id, &solWs));
            ASSERT_MIOPEN_OK(miopenConvolutionBackwardDataCompileSolution(handle, yd, wd, conv, xd, s.solution_id));
            break;
        default:
            ASSERT_MIOPEN_OK(miopenConvolutionBackwardWeightsGetSolutionWorkspaceSize(handle, yd, xd, conv, wd, s.solution_id, &solWs));
            ASSERT_MIOPEN_OK(miopenConvolutionBackwardWeightsCompileSolution(handle, yd, xd, conv, wd, s.solution_id));
            break;
        }
        EXPECT_EQ(solWs, s.workspace_size);
        GuardedBuffer solWork(std::max<std::size_t>(solWs, 1));
        restore();
        const test::route::Probe probe;
        switch(dir)
        {
        case PublicDir::Forward:
            st = miopenConvolutionForwardImmediate(handle, wd, b.w.data(), xd, b.x.data(), conv, yd, b.y.data(), solWork.data(), solWs, s.solution_id);
            break;
        case PublicDir::BackwardData:
            st = miopenConvolutionBackwardDataImmediate(handle, yd, b.y.data(), wd, b.w.data(), conv, xd, b.x.data(), solWork.data(), solWs, s.solution_id);
            break;
        default:
            st = miopenConvolutionBackwardWeightsImmediate(handle, yd, b.y.data(), xd, b.x.data(), conv, wd, b.w.data(), solWork.data(), solWs, s.solution_id);
            break;
        }
        ASSERT_MIOPEN_OK(st);
        EXPECT_TRUE(probe.check(entryName(dir, true), expectedRoute(c, true, 1.0f, 0.0f)));
        const auto gotD  = ref::toDouble(wrType, written->data(), wrT.elementSpace());
        EXPECT_LE(ref::maxAbsDiff(wrT, gotD, expected), tolImm);
        EXPECT_TRUE(solWork.guardsIntact() && b.x.guardsIntact() && b.w.guardsIntact() && b.y.guardsIntact());
        EXPECT_TRUE(test::run_outputs::save(std::string(dirTag(dir)) + ".sol" + std::to_string(s.solution_id), wrType,
                                            written->data(), written->size()));
    }
}

TEST_P(ConvApi, RandomProblem)
{
    const auto [seed, type] = GetParam();
    std::mt19937 rng(static_cast<std::uint32_t>(1000 + seed * 7919 + static_cast<int>(type)));
    const Case c = makeCase(rng, type, type != miopenInt8);
    const float alphas[] = {1.0f, 0.5f, -1.25f};
    const float betas[]  = {0.0f, 0.0f, 0.75f};
    const int pickAB     = seed % 3;
    if(type == miopenInt8)
    {
        runCase(_handle, c, PublicDir::Forward, rng, 1.0f, 0.0f);
        return;
    }
    for(auto dir : {PublicDir::Forward, PublicDir::BackwardData, PublicDir::BackwardWeights})
        runCase(_handle, c, dir, rng, alphas[pickAB], betas[pickAB]);
}

std::string caseName(const ::testing::TestParamInfo<std::tuple<int, miopenDataType_t>>& info)
{
    const auto t = std::get<1>(info.param);
    const char* n = t == miopenFloat ? "FP32" : t == miopenHalf ? "FP16" : t == miopenBFloat16 ? "BF16" : "INT8";
    return std::string(n) + "_seed" + std::to_string(std::get<0>(info.param));
}

INSTANTIATE_TEST_SUITE_P(Fp32, ConvApi, ::testing::Combine(::testing::Range(0, 24), ::testing::Values(miopenFloat)), caseName);
INSTANTIATE_TEST_SUITE_P(Fp16, ConvApi, ::testing::Combine(::testing::Range(0, 8), ::testing::Values(miopenHalf)), caseName);
INSTANTIATE_TEST_SUITE_P(Bf16, ConvApi, ::testing::Combine(::testing::Range(0, 8), ::testing::Values(miopenBFloat16)), caseName);
INSTANTIATE_TEST_SUITE_P(Int8, ConvApi, ::testing::Combine(::testing::Range(0, 4), ::testing::Values(miopenInt8)), caseName);

// ---- edge cases, fixed (the random draws above may miss any of them) ------------------------------

struct EdgeCase
{
    const char* name;
    miopenDataType_t type;
    int groups;
    std::size_t n, c, k;
    std::vector<std::size_t> in, filter;
    std::vector<int> pads, strides, dilations;
    const char* layout; // "packed" or "channels-last"
};

Case makeEdgeCase(const EdgeCase& e)
{
    Case c;
    c.type        = e.type;
    c.spatialDims = static_cast<int>(e.in.size());
    c.groups      = e.groups;
    c.n = e.n, c.c = e.c, c.k = e.k;
    c.regIn  = e.in;
    c.filter = e.filter;
    c.pads = e.pads, c.strides = e.strides, c.dilations = e.dilations;
    c.layout = e.layout;
    for(std::size_t d = 0; d < e.in.size(); ++d)
    {
        c.regOut.push_back(ref::outputLength(e.in[d], e.filter[d], e.pads[d], e.strides[d], e.dilations[d]));
        c.adj.push_back(0);
    }
    return c;
}

const std::vector<EdgeCase>& edgeCases()
{
    static const std::vector<EdgeCase> cases = {
        {"Groups2D", miopenFloat, 2, 2, 4, 6, {9, 8}, {3, 3}, {1, 1}, {1, 1}, {1, 1}, "packed"},
        {"Depthwise2D", miopenFloat, 4, 2, 4, 4, {9, 9}, {3, 3}, {1, 1}, {2, 2}, {1, 1}, "packed"},
        {"Dilation2D", miopenFloat, 1, 1, 3, 4, {11, 10}, {3, 3}, {2, 1}, {1, 1}, {2, 3}, "packed"},
        // in 8, filter 3, pad 1, stride 2: the last window ends on the last input element, so the
        // trailing pad is never read — MIOpen's nearest to asymmetric padding.
        {"TrailingPadUnused2D", miopenFloat, 1, 2, 3, 2, {8, 8}, {3, 3}, {1, 1}, {2, 2}, {1, 1}, "packed"},
        {"GroupsNHWC", miopenFloat, 2, 2, 4, 4, {7, 6}, {3, 2}, {1, 0}, {1, 2}, {1, 1}, "channels-last"},
        {"Fp16NHWC", miopenHalf, 1, 2, 3, 4, {7, 7}, {3, 3}, {1, 1}, {1, 1}, {1, 1}, "channels-last"},
        {"Bf16GroupsDilation", miopenBFloat16, 2, 1, 4, 4, {9, 8}, {3, 3}, {2, 2}, {1, 1}, {2, 2}, "packed"},
        {"Conv3D", miopenFloat, 1, 1, 2, 3, {5, 6, 5}, {3, 3, 2}, {1, 1, 0}, {1, 2, 1}, {1, 1, 2}, "packed"},
        {"Fp16Groups3DNDHWC", miopenHalf, 2, 1, 4, 2, {5, 5, 4}, {3, 2, 3}, {1, 0, 1}, {2, 1, 1}, {1, 1, 1}, "channels-last"},
        {"Bf16Depthwise3D", miopenBFloat16, 3, 1, 3, 3, {4, 5, 5}, {2, 3, 3}, {0, 1, 1}, {1, 1, 2}, {1, 2, 1}, "packed"},
    };
    return cases;
}

class ConvApiEdge : public ConvApi
{
};

TEST_P(ConvApiEdge, Case)
{
    const EdgeCase& e = edgeCases()[static_cast<std::size_t>(std::get<0>(GetParam()))];
    std::mt19937 rng(static_cast<std::uint32_t>(77 + std::get<0>(GetParam())));
    const Case c = makeEdgeCase(e);
    for(auto dir : {PublicDir::Forward, PublicDir::BackwardData, PublicDir::BackwardWeights})
        runCase(_handle, c, dir, rng, 1.0f, 0.0f);
}

std::string edgeCaseName(const ::testing::TestParamInfo<std::tuple<int, miopenDataType_t>>& info)
{
    return edgeCases()[static_cast<std::size_t>(std::get<0>(info.param))].name;
}

INSTANTIATE_TEST_SUITE_P(Edge, ConvApiEdge,
                         ::testing::Combine(::testing::Range(0, static_cast<int>(edgeCases().size())),
                                            ::testing::Values(miopenFloat)),
                         edgeCaseName);

// Bias forward and backward against plain loops.
TEST(ConvApiBias, ForwardAndBackwardBias)
{
    test::Handle h;
    std::mt19937 rng(42);
    const int n = 2, k = 5, hgt = 3, wid = 4;
    test::Tensor yd(miopenFloat, {n, k, hgt, wid}, {});
    test::Tensor bd(miopenFloat, {1, k, 1, 1}, {});
    std::vector<float> y(static_cast<std::size_t>(n * k * hgt * wid)), bias(static_cast<std::size_t>(k)), y0;
    test::fillRandom(miopenFloat, y.data(), y.size(), rng);
    test::fillRandom(miopenFloat, bias.data(), bias.size(), rng);
    y0             = y;
    const float a = 0.5f, beta = 2.0f;
    ASSERT_MIOPEN_OK(miopenConvolutionForwardBias(h, &a, bd, bias.data(), &beta, yd, y.data()));
    for(std::size_t i = 0; i < y.size(); ++i)
    {
        const std::size_t ch = (i / static_cast<std::size_t>(hgt * wid)) % static_cast<std::size_t>(k);
        EXPECT_NEAR(y[i], a * bias[ch] + beta * y0[i], 1e-6);
    }
    std::vector<float> db(static_cast<std::size_t>(k), 1.0f);
    const float one = 1.0f, zero = 0.0f;
    ASSERT_MIOPEN_OK(miopenConvolutionBackwardBias(h, &one, yd, y0.data(), &zero, bd, db.data()));
    for(int ch = 0; ch < k; ++ch)
    {
        double s = 0;
        for(int in = 0; in < n; ++in)
            for(int e = 0; e < hgt * wid; ++e)
                s += y0[static_cast<std::size_t>((in * k + ch) * hgt * wid + e)];
        EXPECT_NEAR(db[static_cast<std::size_t>(ch)], s, 1e-5);
    }
}

// Profiling: the kernel time of a compute call is recorded when enabled.
TEST(ConvApiProfiling, KernelTimeRecorded)
{
    test::Handle h;
    ASSERT_MIOPEN_OK(miopenEnableProfiling(h, true));
    test::Tensor yd(miopenFloat, {1, 2, 64, 64}, {});
    test::Tensor bd(miopenFloat, {1, 2, 1, 1}, {});
    std::vector<float> y(2 * 64 * 64, 1.0f), b(2, 1.0f);
    const float one = 1.0f;
    ASSERT_MIOPEN_OK(miopenConvolutionForwardBias(h, &one, bd, b.data(), &one, yd, y.data()));
    float ms = -1.0f;
    ASSERT_MIOPEN_OK(miopenGetKernelTime(h, &ms));
    EXPECT_GT(ms, 0.0f);
}

} // namespace
