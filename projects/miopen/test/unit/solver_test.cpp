// Convolution solver tests: every solver of the registry, in every direction and data type it
// claims, on seeded random problems, against the independent double-precision reference of
// common/conv_reference.hpp; plus registry identity, applicability reasons, determinism and
// workspace/output bounds (canaries).
//
// Error bound (per problem): max|out - ref| <= (u_out + f * acc * sqrt(L)) * max|ref|, where
//   L      reduction length (forward: C/G * filter, backward data: K/G * filter, backward
//          weights: N * output pixels),
//   u_out  rounding of the stored result (fp32 2^-24, fp16 2^-11, bf16 2^-8; fp16 adds an
//          absolute 2^-25 for results in its subnormal range),
//   acc    accumulation precision: 2e-7 for solvers accumulating in fp32 (about 1.7 fp32 ulps per
//          sqrt(L) term; naive fp32 accumulates in double and is held to the same bound),
//   f      algorithm factor: 1 for direct and GEMM, kWinogradF2 / kWinogradF4 for Winograd,
//          whose transforms amplify rounding (see winograd.cpp).
// int8 is exact (int32 accumulation). Inputs are first rounded to their data type, so the
// reference sees exactly the values the solver sees.
#include <common/conv_reference.hpp>

#include <miopen/conv/problem.hpp>
#include <miopen/conv/solver.hpp>
#include <miopen/datatype.hpp>
#include <miopen/handle.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <map>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace {

using miopen::conv::Direction;
using miopen::conv::ProblemDescription;
using miopen::conv::Solver;

// Winograd error factors (see winograd.cpp). Over 300 random problems per direction the worst
// error was 0.35x the fp32 bound for F(2x2,3x3) (the same as direct GEMM's 0.36x) and 7x for
// F(4x4,3x3).
constexpr double kWinogradF2 = 2.0;
constexpr double kWinogradF4 = 16.0;
// Winograd backward weights (1003 F(2x2,3x3), 1002 F(4x4,3x3)): over 300 random problems (AVX-512
// and baseline builds) the worst error was 0.41x the fp32 bound for F(2x2) and 4.9x for F(4x4)
// (G^T's 1/24 and A's 8 amplify rounding as in the forward), so the same factors apply.
constexpr double kWinogradWrwF2 = 2.0;
constexpr double kWinogradWrwF4 = 16.0;

// ---------------------------------------------------------------------------------------------
// What each solver claims: (direction, input type, output type) combinations. A solver missing
// here fails the test, so a new solver cannot go untested.

struct Combo
{
    Direction dir;
    miopenDataType_t type;
    miopenDataType_t outType;
};

std::string comboName(const Combo& c)
{
    std::string s = std::string(miopen::conv::directionName(c.dir)) + "/" + miopen::dataTypeName(c.type);
    if(c.outType != c.type)
        s += std::string("->") + miopen::dataTypeName(c.outType);
    return s;
}

std::vector<Combo> allCombos()
{
    std::vector<Combo> v;
    for(Direction d : {Direction::Forward, Direction::BackwardData, Direction::BackwardWeights})
        for(miopenDataType_t t : {miopenFloat, miopenHalf, miopenBFloat16})
            v.push_back({d, t, t});
    v.push_back({Direction::Forward, miopenInt8, miopenInt32});
    v.push_back({Direction::Forward, miopenInt8, miopenFloat});
    return v;
}

bool claims(const Solver& s, const Combo& c, bool& known)
{
    known                = true;
    const bool floating  = c.type == miopenFloat || c.type == miopenHalf || c.type == miopenBFloat16;
    switch(s.id())
    {
    case 85: return c.dir == Direction::Forward; // naive: all types, int8 forward
    case 86: return c.dir == Direction::BackwardData && floating;
    case 87: return c.dir == Direction::BackwardWeights && floating;
    case 88:
    case 90:
    case 91:
    case 1201: // GemmFwdPhaseGrid
    case 1101: // OpenBLAS im2col + GEMM solvers: the same roles
    case 1102:
    case 1103: return c.dir == Direction::Forward && floating;
    case 95:
    case 96:
    case 97:
    case 1202: // GemmBwdPhaseGrid
    case 1104:
    case 1105:
    case 1106: return c.dir == Direction::BackwardData && floating;
    case 101:
    case 102:
    case 1203: // GemmWrwPhaseGrid
    case 1107:
    case 1108: return c.dir == Direction::BackwardWeights && floating;
    case 84:
    case 1001: return c.dir != Direction::BackwardWeights && c.type == miopenFloat;
    case 1002: // Winograd backward weights
    case 1003: return c.dir == Direction::BackwardWeights && c.type == miopenFloat;
    default: known = false; return false;
    }
}

double algorithmFactor(const Solver& s)
{
    if(s.id() == 84)
        return kWinogradF2;
    if(s.id() == 1001)
        return kWinogradF4;
    if(s.id() == 1002)
        return kWinogradWrwF4;
    if(s.id() == 1003)
        return kWinogradWrwF2;
    return 1.0;
}

// ---------------------------------------------------------------------------------------------
// Random problems.

struct Spec
{
    int sd = 2;
    std::size_t n = 1, c = 1, k = 1, g = 1;
    std::vector<std::size_t> in, fil, out;
    std::vector<int> pad, str, dil;
    std::string orderX, orderW, orderY; // memory order letters, e.g. "NCHW"
    bool gaps = false;                   // padded strides
    Combo combo{};

    double flops() const
    {
        double f = 2.0 * static_cast<double>(n * k * (c / g));
        for(int i = 0; i < sd; ++i)
            f *= static_cast<double>(out[i] * fil[i]);
        return f;
    }
    std::string describe() const
    {
        std::ostringstream s;
        auto v = [&](const auto& x) {
            std::string r;
            for(std::size_t i = 0; i < x.size(); ++i)
                r += (i ? "x" : "") + std::to_string(x[i]);
            return r;
        };
        s << comboName(combo) << " " << sd << "D N=" << n << " C=" << c << " K=" << k << " G=" << g
          << " in=" << v(in) << " fil=" << v(fil) << " out=" << v(out) << " pad=" << v(pad) << " str=" << v(str)
          << " dil=" << v(dil) << " layout=" << orderX << "/" << orderW << "/" << orderY << (gaps ? " gaps" : "");
        return s.str();
    }
};

std::string spatialLetters(int sd) { return sd == 1 ? "W" : sd == 2 ? "HW" : "DHW"; }

std::string randomOrder(std::mt19937& rng, int sd, int kind)
{
    const std::string sp = spatialLetters(sd);
    if(kind == 0)
        return "NC" + sp;
    if(kind == 1)
        return "N" + sp + "C";
    std::string all = "NC" + sp;
    std::shuffle(all.begin(), all.end(), rng);
    return all;
}

int pick(std::mt19937& rng, std::initializer_list<int> v)
{
    std::uniform_int_distribution<std::size_t> d(0, v.size() - 1);
    return *(v.begin() + static_cast<std::ptrdiff_t>(d(rng)));
}

std::size_t range(std::mt19937& rng, std::size_t lo, std::size_t hi)
{
    return std::uniform_int_distribution<std::size_t>(lo, hi)(rng);
}

// Families: 0 generic, 1 1x1 stride 1 pad 0, 2 1x1 strided pad 0, 3 3x3 stride 1 (Winograd
// shaped), 4 large channels (several GEMM K blocks), 5 many pixels (several column blocks).
bool makeSpec(std::mt19937& rng, const Combo& combo, Spec& s)
{
    s        = Spec{};
    s.combo  = combo;
    const int family = static_cast<int>(range(rng, 0, 5));
    s.sd     = family == 3 ? 2 : pick(rng, {1, 2, 2, 2, 3});
    s.g      = family == 3 ? 1 : static_cast<std::size_t>(pick(rng, {1, 1, 1, 2, 3}));
    std::size_t cpg = range(rng, 1, 6), kpg = range(rng, 1, 6);
    if(family == 1 || family == 2)
    {
        cpg = range(rng, 1, 40);
        kpg = range(rng, 1, 40);
    }
    if(family == 3)
    {
        cpg = range(rng, 1, 24);
        kpg = range(rng, 1, 24);
    }
    if(family == 4)
    {
        s.g = 1;
        cpg = range(rng, 250, 300);
        kpg = range(rng, 200, 240);
    }
    s.c = cpg * s.g;
    s.k = kpg * s.g;
    s.n = range(rng, 1, 3);
    for(int i = 0; i < s.sd; ++i)
    {
        std::size_t f = static_cast<std::size_t>(s.sd == 3 ? pick(rng, {1, 2, 3}) : pick(rng, {1, 2, 3, 3, 5}));
        int st = pick(rng, {1, 1, 2, 3}), dl = pick(rng, {1, 1, 2}), pd = pick(rng, {0, 0, 1, 2});
        if(family == 1 || family == 4 || family == 5)
        {
            f  = family == 5 ? static_cast<std::size_t>(pick(rng, {1, 3})) : 1;
            st = family == 5 ? pick(rng, {1, 2}) : 1;
            pd = f == 1 ? 0 : 1;
            dl = 1;
        }
        if(family == 2)
        {
            f  = 1;
            st = pick(rng, {1, 2, 3});
            pd = 0;
        }
        if(family == 3)
        {
            f  = 3;
            st = 1;
            dl = 1;
            pd = pick(rng, {0, 1, 1, 2, 3});
        }
        const std::size_t eff = static_cast<std::size_t>(dl) * (f - 1) + 1;
        const std::size_t minIn =
            eff > static_cast<std::size_t>(2 * pd) ? eff - static_cast<std::size_t>(2 * pd) : 1;
        std::size_t maxIn = s.sd == 3 ? 7 : s.sd == 2 ? 14 : 30;
        if(family == 3)
            maxIn = 20;
        if(family == 4)
            maxIn = s.sd == 1 ? 12 : s.sd == 2 ? 5 : 3;
        if(family == 5)
            maxIn = s.sd == 1 ? 900 : s.sd == 2 ? 40 : 12;
        const std::size_t len = range(rng, minIn, std::max(minIn, maxIn));
        s.fil.push_back(f);
        s.in.push_back(len);
        s.pad.push_back(pd);
        s.str.push_back(st);
        s.dil.push_back(dl);
        const std::size_t o = conv_reference::outputLength(len, f, pd, st, dl);
        if(o == 0)
            return false;
        s.out.push_back(o);
    }
    if(family == 2 && std::all_of(s.str.begin(), s.str.end(), [](int v) { return v == 1; }))
        s.str[0] = 2, s.out[0] = conv_reference::outputLength(s.in[0], 1, 0, 2, 1);
    // Layouts: mostly one layout for all three tensors, sometimes mixed, sometimes with gaps.
    const int kind = pick(rng, {0, 0, 0, 0, 1, 1, 2});
    s.orderX = randomOrder(rng, s.sd, kind);
    s.orderW = s.orderX;
    s.orderY = s.orderX;
    if(range(rng, 0, 9) == 0)
    {
        s.orderW = randomOrder(rng, s.sd, pick(rng, {0, 1, 2}));
        s.orderY = randomOrder(rng, s.sd, pick(rng, {0, 1, 2}));
    }
    s.gaps = range(rng, 0, 6) == 0;
    const double f = s.flops();
    return f > 0 && f <= 20e6;
}

// ---------------------------------------------------------------------------------------------
// Buffers.

std::size_t typeSize(miopenDataType_t t) { return conv_reference::elementSize(t); }

// Strides for lengths (N, C, spatial...) in the given memory order, optionally with gaps.
std::vector<std::size_t> makeStrides(std::mt19937& rng, const std::vector<std::size_t>& lens, const std::string& order,
                                     bool gaps)
{
    const std::vector<std::size_t> packed = conv_reference::packedStrides(lens, order);
    if(!gaps)
        return packed;
    // Rebuild from the innermost dim outwards, adding a random gap after some dims.
    std::vector<std::size_t> idx(lens.size());
    for(std::size_t i = 0; i < idx.size(); ++i)
        idx[i] = i;
    std::sort(idx.begin(), idx.end(), [&](std::size_t a, std::size_t b) { return packed[a] < packed[b]; });
    std::vector<std::size_t> strides(lens.size());
    std::size_t s = range(rng, 1, 2);
    for(std::size_t d : idx)
    {
        strides[d] = s;
        s *= lens[d];
        s += range(rng, 0, 3);
    }
    return strides;
}

struct Buffer
{
    static constexpr std::size_t kCanary = 64;
    static constexpr unsigned char kCanaryByte = 0xC3;
    std::vector<unsigned char> bytes;
    std::size_t size = 0;
    void allocate(std::size_t n, unsigned char fill)
    {
        size = n;
        bytes.assign(n + 2 * kCanary, kCanaryByte);
        std::fill(bytes.begin() + kCanary, bytes.begin() + static_cast<std::ptrdiff_t>(kCanary + n), fill);
    }
    void* data() { return bytes.data() + kCanary; }
    const void* data() const { return bytes.data() + kCanary; }
    bool canariesIntact() const
    {
        for(std::size_t i = 0; i < kCanary; ++i)
            if(bytes[i] != kCanaryByte || bytes[kCanary + size + i] != kCanaryByte)
                return false;
        return true;
    }
};

// Stores v (already representable) as element i of a buffer of type t.
void storeValue(miopenDataType_t t, void* base, std::size_t i, double v)
{
    auto* b = static_cast<unsigned char*>(base);
    switch(t)
    {
    case miopenFloat: {
        const float f = static_cast<float>(v);
        std::memcpy(b + 4 * i, &f, 4);
        break;
    }
    case miopenHalf: {
        const std::uint16_t h = miopen::floatToHalf(static_cast<float>(v));
        std::memcpy(b + 2 * i, &h, 2);
        break;
    }
    case miopenBFloat16: {
        const std::uint16_t h = miopen::floatToBfloat16(static_cast<float>(v));
        std::memcpy(b + 2 * i, &h, 2);
        break;
    }
    case miopenInt8: b[i] = static_cast<unsigned char>(static_cast<std::int8_t>(v)); break;
    default: FAIL() << "unsupported test type";
    }
}

// Visits the offsets of the logical elements of a tensor.
template <class Fn>
void forEachElement(const conv_reference::Tensor& t, Fn&& fn)
{
    std::vector<std::size_t> idx(t.lens.size(), 0);
    const std::size_t count = t.elementCount();
    for(std::size_t e = 0; e < count; ++e)
    {
        std::size_t off = 0;
        for(std::size_t d = 0; d < idx.size(); ++d)
            off += idx[d] * t.strides[d];
        fn(off);
        for(std::size_t d = idx.size(); d-- > 0;)
        {
            if(++idx[d] < t.lens[d])
                break;
            idx[d] = 0;
        }
    }
}

// Random input: logical elements uniform in [-1, 1] (int8: -8..8), gaps NaN (so a solver that
// reads a gap poisons its result) or 127 for int8.
void fillInput(std::mt19937& rng, miopenDataType_t t, const conv_reference::Tensor& desc, Buffer& buf)
{
    buf.allocate(desc.elementSpace() * typeSize(t), 0);
    for(std::size_t i = 0; i < desc.elementSpace(); ++i)
        storeValue(t, buf.data(), i, t == miopenInt8 ? 127.0 : std::nan(""));
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    std::uniform_int_distribution<int> ui(-8, 8);
    forEachElement(desc, [&](std::size_t off) {
        storeValue(t, buf.data(), off, t == miopenInt8 ? static_cast<double>(ui(rng)) : u(rng));
    });
}

miopen::TensorDescriptor makeDesc(miopenDataType_t t, const conv_reference::Tensor& tr)
{
    return miopen::TensorDescriptor(t, tr.lens, tr.strides);
}

double outputUlp(miopenDataType_t t)
{
    switch(t)
    {
    case miopenHalf: return std::ldexp(1.0, -11);
    case miopenBFloat16: return std::ldexp(1.0, -8);
    case miopenFloat: return std::ldexp(1.0, -24);
    default: return 0.0;
    }
}

struct CaseResult
{
    bool accepted = false;
    bool ok       = true;
    double ratio  = 0.0; // error / bound
};

constexpr double kAccTol = 2e-7;

// Builds, runs and checks one problem. Declines must carry a reason.
CaseResult runCase(const Solver& solver, const Spec& s, std::mt19937& rng, int caseIndex)
{
    CaseResult result;
    const Combo& cb = s.combo;
    std::vector<std::size_t> xl{s.n, s.c}, wl{s.k, s.c / s.g}, yl{s.n, s.k};
    xl.insert(xl.end(), s.in.begin(), s.in.end());
    wl.insert(wl.end(), s.fil.begin(), s.fil.end());
    yl.insert(yl.end(), s.out.begin(), s.out.end());
    conv_reference::Tensor xt{xl, makeStrides(rng, xl, s.orderX, s.gaps)};
    conv_reference::Tensor wt{wl, makeStrides(rng, wl, s.orderW, s.gaps)};
    conv_reference::Tensor yt{yl, makeStrides(rng, yl, s.orderY, s.gaps)};
    const miopenDataType_t yType = cb.dir == Direction::Forward ? cb.outType : cb.type;

    miopen::ConvolutionDescriptor conv;
    conv.init(s.sd, miopenConvolution, s.pad.data(), s.str.data(), s.dil.data());
    conv.setGroupCount(static_cast<int>(s.g));
    const ProblemDescription problem(makeDesc(cb.type, xt), makeDesc(cb.type, wt), makeDesc(yType, yt), conv, cb.dir);

    const auto app = solver.isApplicable(problem);
    if(!app)
    {
        EXPECT_FALSE(app.reason.empty()) << solver.name() << " declined without a reason: " << s.describe();
        return result;
    }
    result.accepted = true;
    SCOPED_TRACE(std::string(solver.name()) + " case " + std::to_string(caseIndex) + ": " + s.describe());

    // Inputs and the written tensor.
    Buffer x, w, y;
    const conv_reference::Tensor* outDesc = nullptr;
    miopenDataType_t outType              = cb.type;
    Buffer* outBuf                        = nullptr;
    switch(cb.dir)
    {
    case Direction::Forward:
        fillInput(rng, cb.type, xt, x);
        fillInput(rng, cb.type, wt, w);
        y.allocate(yt.elementSpace() * typeSize(yType), 0xA5);
        outDesc = &yt, outType = yType, outBuf = &y;
        break;
    case Direction::BackwardData:
        fillInput(rng, cb.type, yt, y);
        fillInput(rng, cb.type, wt, w);
        x.allocate(xt.elementSpace() * typeSize(cb.type), 0xA5);
        outDesc = &xt, outBuf = &x;
        break;
    case Direction::BackwardWeights:
        fillInput(rng, cb.type, xt, x);
        fillInput(rng, cb.type, yt, y);
        w.allocate(wt.elementSpace() * typeSize(cb.type), 0xA5);
        outDesc = &wt, outBuf = &w;
        break;
    }
    const std::vector<unsigned char> before = outBuf->bytes;
    std::vector<std::vector<unsigned char>> inputsBefore;
    for(Buffer* b : {&x, &w, &y})
        if(b != outBuf)
            inputsBefore.push_back(b->bytes);

    // Workspace of exactly the size asked for, between canaries; every other case misaligned.
    const std::size_t wsBytes = solver.workspaceSize(problem);
    const std::size_t shift   = caseIndex % 2 == 0 ? 0 : 4;
    std::vector<unsigned char> ws(wsBytes + 2 * Buffer::kCanary + shift, Buffer::kCanaryByte);
    void* wsPtr = wsBytes > 0 ? ws.data() + Buffer::kCanary + shift : nullptr;

    miopen::conv::ConvTensors t;
    t.in     = x.data();
    t.wei    = w.data();
    t.out    = y.data();
    if(cb.dir == Direction::Forward)
        t.outOut = y.data();
    if(cb.dir == Direction::BackwardData)
        t.inOut = x.data();
    if(cb.dir == Direction::BackwardWeights)
        t.weiOut = w.data();
    miopen::Handle handle;
    solver.run(handle, problem, t, wsPtr, wsBytes);

    bool ok = true;
    for(std::size_t i = 0; i < Buffer::kCanary + shift; ++i)
        ok = ok && ws[i] == Buffer::kCanaryByte;
    for(std::size_t i = 0; i < Buffer::kCanary; ++i)
        ok = ok && ws[ws.size() - 1 - i] == Buffer::kCanaryByte;
    EXPECT_TRUE(ok) << "workspace canaries overwritten (workspaceSize " << wsBytes << ")";
    EXPECT_TRUE(outBuf->canariesIntact()) << "output buffer canaries overwritten";
    {
        std::size_t i = 0;
        for(Buffer* b : {&x, &w, &y})
        {
            if(b != outBuf)
            {
                EXPECT_TRUE(b->bytes == inputsBefore[i++]) << "an input buffer was modified";
            }
        }
    }
    // Gaps of the written tensor are left alone.
    {
        std::vector<bool> logical(outDesc->elementSpace(), false);
        forEachElement(*outDesc, [&](std::size_t off) { logical[off] = true; });
        const std::size_t es = typeSize(outType);
        bool gapsIntact      = true;
        for(std::size_t e = 0; e < logical.size(); ++e)
            if(!logical[e])
                for(std::size_t b = 0; b < es; ++b)
                    gapsIntact = gapsIntact && outBuf->bytes[Buffer::kCanary + e * es + b] ==
                                                   before[Buffer::kCanary + e * es + b];
        EXPECT_TRUE(gapsIntact) << "elements between strided elements were written";
    }

    // Reference.
    conv_reference::ConvParams params{s.pad, s.str, s.dil, static_cast<int>(s.g)};
    std::vector<double> ref(outDesc->elementSpace(), 0.0);
    double L = 1;
    switch(cb.dir)
    {
    case Direction::Forward: {
        const auto xd = conv_reference::toDouble(cb.type, x.data(), xt.elementSpace());
        const auto wd = conv_reference::toDouble(cb.type, w.data(), wt.elementSpace());
        conv_reference::forward(params, xt, xd.data(), wt, wd.data(), yt, ref.data());
        L = static_cast<double>(s.c / s.g);
        for(auto f : s.fil)
            L *= static_cast<double>(f);
        break;
    }
    case Direction::BackwardData: {
        const auto yd = conv_reference::toDouble(cb.type, y.data(), yt.elementSpace());
        const auto wd = conv_reference::toDouble(cb.type, w.data(), wt.elementSpace());
        conv_reference::backwardData(params, xt, ref.data(), wt, wd.data(), yt, yd.data());
        L = static_cast<double>(s.k / s.g);
        for(auto f : s.fil)
            L *= static_cast<double>(f);
        break;
    }
    case Direction::BackwardWeights: {
        const auto xd = conv_reference::toDouble(cb.type, x.data(), xt.elementSpace());
        const auto yd = conv_reference::toDouble(cb.type, y.data(), yt.elementSpace());
        conv_reference::backwardWeights(params, xt, xd.data(), wt, ref.data(), yt, yd.data());
        L = static_cast<double>(s.n);
        for(auto o : s.out)
            L *= static_cast<double>(o);
        break;
    }
    }
    const auto got     = conv_reference::toDouble(outType, outBuf->data(), outDesc->elementSpace());
    const double err   = conv_reference::maxAbsDiff(*outDesc, got, ref);
    const double scale = conv_reference::maxAbs(*outDesc, ref);
    if(cb.type == miopenInt8)
    {
        EXPECT_EQ(err, 0.0) << "int8 convolution must be exact";
        ok = ok && err == 0.0;
    }
    else
    {
        const double subnormal = outType == miopenHalf ? std::ldexp(1.0, -25) : 0.0;
        const double bound =
            (outputUlp(outType) + algorithmFactor(solver) * kAccTol * std::sqrt(L)) * scale + subnormal + 1e-30;
        result.ratio       = err / bound;
        EXPECT_LE(err, bound) << "max |err| " << err << " > bound " << bound << " (max |ref| " << scale
                              << ", L " << L << ")";
        ok = ok && err <= bound;
    }

    // Determinism: a second run gives the same bits.
    if(solver.isDeterministic())
    {
        const std::vector<unsigned char> first = outBuf->bytes;
        solver.run(handle, problem, t, wsPtr, wsBytes);
        EXPECT_TRUE(outBuf->bytes == first) << "second run differs bitwise";
        ok = ok && outBuf->bytes == first;
    }
    result.ok = ok && !::testing::Test::HasFailure();
    return result;
}

std::vector<std::string> solverNames()
{
    std::vector<std::string> names;
    for(const Solver* s : miopen::conv::solverRegistry())
        names.emplace_back(s->name());
    return names;
}

// ---------------------------------------------------------------------------------------------
// Accuracy, per solver, for the native and the baseline instruction-set builds.

struct AccuracyParam
{
    std::string solver;
    const char* isa; // MIOPEN_DEBUG_CONV_CPU_ISA for the case; nullptr: the widest the CPU runs
};

void PrintTo(const AccuracyParam& p, std::ostream* os)
{
    *os << p.solver << (p.isa != nullptr ? std::string(" (") + p.isa + " ISA)" : std::string());
}

// Accepted problems per solver x combination (MIOPEN_TEST_SOLVER_CASES overrides, for soak runs).
int targetCases()
{
    const char* v = std::getenv("MIOPEN_TEST_SOLVER_CASES");
    const int n   = v != nullptr ? std::atoi(v) : 0;
    return n > 0 ? n : 24;
}

class SolverAccuracy : public ::testing::TestWithParam<AccuracyParam>
{
protected:
    void SetUp() override
    {
        if(GetParam().isa != nullptr)
            setenv("MIOPEN_DEBUG_CONV_CPU_ISA", GetParam().isa, 1);
        else
            unsetenv("MIOPEN_DEBUG_CONV_CPU_ISA");
    }
    void TearDown() override { unsetenv("MIOPEN_DEBUG_CONV_CPU_ISA"); }
};

TEST_P(SolverAccuracy, RandomProblemsAgainstReference)
{
    const Solver* solver = miopen::conv::findSolver(GetParam().solver);
    ASSERT_NE(solver, nullptr);
    const int kTargetCases       = targetCases();
    const int kMaxCandidates     = 400 * kTargetCases;
    for(const Combo& combo : allCombos())
    {
        bool known          = false;
        const bool claimed  = claims(*solver, combo, known);
        ASSERT_TRUE(known) << solver->name() << " (id " << solver->id()
                           << ") has no entry in the test's claims table";
        std::seed_seq seq{static_cast<unsigned>(solver->id()), static_cast<unsigned>(combo.dir),
                          static_cast<unsigned>(combo.type), static_cast<unsigned>(combo.outType)};
        std::mt19937 rng(seq);
        int accepted = 0;
        double worst = 0.0;
        for(int i = 0; i < kMaxCandidates && accepted < kTargetCases; ++i)
        {
            Spec spec;
            if(!makeSpec(rng, combo, spec))
                continue;
            const CaseResult r = runCase(*solver, spec, rng, i);
            if(r.accepted)
            {
                ++accepted;
                worst = std::max(worst, r.ratio);
                EXPECT_TRUE(claimed) << solver->name() << " accepted an unclaimed " << comboName(combo)
                                     << " problem: " << spec.describe();
            }
            if(::testing::Test::HasFatalFailure())
                return;
        }
        if(claimed)
        {
            EXPECT_GT(accepted, 0) << solver->name() << " accepted no " << comboName(combo) << " problem";
            std::printf("  %-26s %-32s %2d cases, worst err/bound %.3f\n", solver->name(),
                        comboName(combo).c_str(), accepted, worst);
        }
    }
}

// Every solver in the native build; the GEMM and Winograd solvers also in each narrower build of
// their kernels the CPU can run (on an AVX-512 CPU the AVX2 one; always the baseline one).
std::vector<AccuracyParam> accuracyParams()
{
    __builtin_cpu_init();
    const bool avx512 = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl") &&
                        __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512dq");
    const bool avx2 = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"); // AVX-512 CPUs have F16C
    std::vector<AccuracyParam> v;
    for(const std::string& n : solverNames())
    {
        v.push_back({n, nullptr});
        const Solver* s = miopen::conv::findSolver(n);
        if(s == nullptr || s->algorithm() == miopenConvolutionAlgoDirect)
            continue;
        if(avx512 && avx2)
            v.push_back({n, "avx2"});
        v.push_back({n, "generic"});
    }
    return v;
}

INSTANTIATE_TEST_SUITE_P(Registry, SolverAccuracy, ::testing::ValuesIn(accuracyParams()),
                         [](const ::testing::TestParamInfo<AccuracyParam>& p) {
                             return p.param.solver + (p.param.isa != nullptr ? std::string("_") + p.param.isa : "");
                         });

// 3x3 stride-1 pad-1 fp32 problems (n, c, k, square image) run on both Winograd solvers
// (F(4x4) 1001, F(2x2) 84), forward and backward data, each checked against the reference.
struct WinogradCase
{
    std::size_t n, c, k, hw;
};

void checkWinogradCases(const std::vector<WinogradCase>& cases, unsigned seed)
{
    std::mt19937 rng(seed);
    int caseIndex = 0;
    for(const std::uint64_t id : {std::uint64_t{1001}, std::uint64_t{84}})
    {
        const Solver* solver = miopen::conv::findSolver(id);
        ASSERT_NE(solver, nullptr);
        for(const Direction dir : {Direction::Forward, Direction::BackwardData})
            for(const WinogradCase& wc : cases)
            {
                Spec s;
                s.sd     = 2;
                s.n      = wc.n;
                s.c      = wc.c;
                s.k      = wc.k;
                s.in     = {wc.hw, wc.hw};
                s.fil    = {3, 3};
                s.out    = {wc.hw, wc.hw};
                s.pad    = {1, 1};
                s.str    = {1, 1};
                s.dil    = {1, 1};
                s.orderX = s.orderW = s.orderY = "NCHW";
                s.combo  = Combo{dir, miopenFloat, miopenFloat};
                ASSERT_LE(s.flops(), 20e6) << s.describe();
                const CaseResult r = runCase(*solver, s, rng, caseIndex++);
                EXPECT_TRUE(r.accepted) << solver->name() << " declined " << s.describe();
                EXPECT_TRUE(r.ok) << solver->name() << ": " << s.describe();
            }
    }
}

// Winograd with many channels: several GEMM K blocks, channel counts that are not multiples of
// the filter transform's 8-channel groups, and (F(4x4): 36 * 364 * 347 floats = 18 MB) a
// transformed filter large enough to be written with non-temporal stores. Small images keep
// each case under ~10 MFLOP.
TEST(SolverAccuracyFixed, WinogradLargeChannelCounts)
{
    checkWinogradCases({{1, 347, 353, 2}, {2, 352, 336, 1}, {1, 270, 260, 3}}, 1001);
}

// Winograd with many tiles and few channels: the independent schedule, each thread several
// blocks of 128 tiles, the last block partly filled (F(4x4): 3 images x 15 x 15 tiles = 675
// tiles, 6 blocks; F(2x2): 3 x 29 x 29 = 2523 tiles, 20 blocks).
TEST(SolverAccuracyFixed, WinogradManyBlocks) { checkWinogradCases({{3, 5, 7, 58}}, 1003); }

// A 2-D fp32 1x1 pad-0 backward-data problem (NCHW) with the given stride, and its check on
// GemmBwd1x1_stride2 (95) against the reference.
Spec strided1x1BackwardData(std::size_t n, std::size_t c, std::size_t k, std::size_t g, std::size_t h,
                            std::size_t w, int stride)
{
    Spec s;
    s.sd     = 2;
    s.n      = n;
    s.c      = c;
    s.k      = k;
    s.g      = g;
    s.in     = {h, w};
    s.fil    = {1, 1};
    s.out    = {conv_reference::outputLength(h, 1, 0, stride, 1),
                conv_reference::outputLength(w, 1, 0, stride, 1)};
    s.pad    = {0, 0};
    s.str    = {stride, stride};
    s.dil    = {1, 1};
    s.orderX = s.orderW = s.orderY = "NCHW";
    s.combo  = Combo{Direction::BackwardData, miopenFloat, miopenFloat};
    return s;
}

void checkStrided1x1BackwardData(const Spec& s, std::mt19937& rng, int caseIndex)
{
    const Solver* solver = miopen::conv::findSolver(std::uint64_t{95});
    ASSERT_NE(solver, nullptr);
    ASSERT_LE(s.flops(), 20e6) << s.describe();
    const CaseResult r = runCase(*solver, s, rng, caseIndex);
    EXPECT_TRUE(r.accepted) << solver->name() << " declined " << s.describe();
    EXPECT_TRUE(r.ok) << solver->name() << ": " << s.describe();
}

// 1x1 strided backward data with a dX larger than the caches (> 16 MiB): GemmBwd1x1_stride2
// writes it with non-temporal stores, zero rows included (every element of dX is checked; it
// starts as 0xA5 bytes). Odd widths put the rows' cache-line boundaries everywhere.
TEST(SolverAccuracyFixed, StridedBackwardData1x1LargeOutput)
{
    struct Shape
    {
        std::size_t n, h, w;
        int stride;
    };
    const Shape shapes[] = {{2, 256, 257, 2}, {1, 300, 301, 3}};
    std::mt19937 rng(1002);
    int caseIndex = 0;
    for(const Shape& sh : shapes)
    {
        const Spec s = strided1x1BackwardData(sh.n, 64, 4, 1, sh.h, sh.w, sh.stride);
        ASSERT_GT(s.n * s.c * sh.h * sh.w * sizeof(float), std::size_t{16} << 20) << s.describe();
        checkStrided1x1BackwardData(s, rng, caseIndex++);
    }
}

// 2-D fp32 GemmBwd1x1_stride2 stages a column block of W^T * dY and spreads it into dX with the
// zero rows (assembled spans): images whole in a block plane by plane (PlaneSpread: the first
// three shapes, input planes up to kSpreadSpanMax floats, with and without a last row or column
// no output reaches), partial images and larger planes row by row (the 61 x 61 shape, and the
// block ends of the others): thread ranges and column blocks that end inside an image and inside
// a row, several blocks per thread, two K blocks accumulating in the stage, channel counts that
// are not multiples of the micro-kernel's rows, stride 3, two groups.
TEST(SolverAccuracyFixed, StridedBackwardData1x1ColumnBlocks)
{
    struct Shape
    {
        std::size_t n, c, k, g, h, w;
        int str;
    };
    const Shape shapes[] = {
        {20, 30, 300, 1, 13, 13, 2}, // 7 x 7 outputs, 980 columns (2 threads: 480 + 500): K blocks 256 + 44
        {7, 19, 40, 1, 11, 17, 3},   // stride 3: 4 x 6 outputs
        {6, 16, 12, 2, 15, 14, 2},   // two groups
        {4, 8, 16, 1, 61, 61, 2},    // 31 x 31 outputs, 3844 columns: blocks of 768 end inside rows
    };
    std::mt19937 rng(1004);
    int caseIndex = 0;
    for(const Shape& sh : shapes)
        checkStrided1x1BackwardData(strided1x1BackwardData(sh.n, sh.c, sh.k, sh.g, sh.h, sh.w, sh.str), rng,
                                    caseIndex++);
}

// The strided 1x1 solvers: forward GemmFwd1x1_0_2 (90) and the backward weights of
// GemmWrwUniversal (102) (1x1, pad 0, stride > 1, at least an image per thread: a dense gather of
// the selected pixels, then a 1x1 GEMM per group, which prefetches the next gather's input).
// Shapes: channel counts that are not multiples of the panel width, several images per gather (K
// blocks crossing image and row ends), one image per gather with a K tail, stride 3, a 3-D case,
// two groups, several gathers per thread (the prefetch of the next images in use), short rows,
// and channels per group beyond one GEMM K block (the forward gathers its B a K block of 256
// channels at a time: a channel tail, channel offsets of a second group, and an image wider than
// a column block, whose K blocks are gathered again for its second column block); each in fp32,
// fp16 and bf16.
void checkStrided1x1(std::uint64_t solverId, Direction dir)
{
    struct Shape
    {
        std::size_t n, c, k, g, d, h, w;
        int str;
    };
    const Shape shapes[] = {
        {4, 37, 10, 1, 0, 31, 29, 2}, // 16 x 15 outputs: 2 images per gather (480 columns: 256 + 224)
        {2, 33, 7, 1, 0, 57, 59, 2},  // 29 x 30 outputs: 1 image per gather, K blocks 256 x 3 + 102
        {2, 20, 6, 1, 0, 45, 47, 3},  // stride 3
        {3, 18, 5, 1, 5, 9, 11, 2},   // 3-D: 3 x 5 x 6 outputs
        {3, 8, 6, 2, 0, 20, 21, 2},   // two groups
        {9, 6, 5, 1, 0, 47, 45, 2},   // 24 x 23 outputs: 1 image per gather, 4+ gathers per thread
        {5, 24, 9, 1, 0, 13, 13, 2},  // 7 x 7 outputs (rows of at most 8: the compressing gather,
                                      // AVX-512), 3 images per gather; the plane's last vector is
                                      // partial (an over-read there would stay inside Buffer's
                                      // canary, so only the values are checked, not the mask)
        {2, 300, 6, 1, 0, 13, 13, 2},  // 300 channels: forward K blocks 256 + 44
        {2, 600, 4, 2, 0, 14, 15, 2},  // two groups of 300 channels
        {2, 270, 4, 1, 0, 57, 59, 2},  // 29 x 30 outputs: 870 columns, two column blocks
    };
    std::mt19937 rng(static_cast<std::uint32_t>(1000 + solverId));
    int caseIndex        = 0;
    const Solver* solver = miopen::conv::findSolver(solverId);
    ASSERT_NE(solver, nullptr);
    for(const miopenDataType_t t : {miopenFloat, miopenHalf, miopenBFloat16})
        for(const Shape& sh : shapes)
        {
            Spec s;
            s.sd = sh.d > 0 ? 3 : 2;
            s.n  = sh.n;
            s.c  = sh.c;
            s.k  = sh.k;
            s.g  = sh.g;
            s.in = sh.d > 0 ? std::vector<std::size_t>{sh.d, sh.h, sh.w} : std::vector<std::size_t>{sh.h, sh.w};
            for(const std::size_t len : s.in)
            {
                s.fil.push_back(1);
                s.out.push_back(conv_reference::outputLength(len, 1, 0, sh.str, 1));
                s.pad.push_back(0);
                s.str.push_back(sh.str);
                s.dil.push_back(1);
            }
            s.orderX = s.orderW = s.orderY = s.sd == 3 ? "NCDHW" : "NCHW";
            s.combo = Combo{dir, t, t};
            ASSERT_LE(s.flops(), 20e6) << s.describe();
            const CaseResult r = runCase(*solver, s, rng, caseIndex++);
            EXPECT_TRUE(r.accepted) << solver->name() << " declined " << s.describe();
            EXPECT_TRUE(r.ok) << solver->name() << ": " << s.describe();
        }
}

TEST(SolverAccuracyFixed, StridedBackwardWeights1x1) { checkStrided1x1(102, Direction::BackwardWeights); }

TEST(SolverAccuracyFixed, StridedForward1x1) { checkStrided1x1(90, Direction::Forward); }

// The phase-grid solvers (1201-1203) on fixed 2-D shapes the random ones rarely reach: strides
// 2 and 3 with dilation (several phase planes per dim, taps sharing planes, residues no tap
// uses), K blocks (C*FS > 256 rows), several column blocks per image, groups, and one image
// (forward: two column parts; backward data: channel blocks; backward weights: the grid split
// over the threads); each direction in fp32, fp16 and bf16.
TEST(SolverAccuracyFixed, PhaseGridStridesDilationsAndBlocks)
{
    struct Shape
    {
        std::size_t n, c, k, g, h, w, f;
        int pad, str, dil;
    };
    const Shape shapes[] = {
        {2, 40, 24, 1, 31, 33, 3, 1, 2, 1}, // 360 K rows: two K blocks; 16 x 17 grid
        {1, 8, 12, 1, 45, 47, 3, 1, 1, 1},  // one image: parts / channel blocks; 45 x 49 grid (2205 columns)
        {3, 6, 10, 1, 23, 20, 5, 2, 3, 2},  // stride 3, dilation 2: residues 0, 2, 1 (three planes)
        {2, 9, 6, 3, 19, 25, 3, 0, 2, 2},   // dilation 2 = stride: one plane per dim
        {2, 5, 7, 1, 29, 30, 7, 3, 2, 1},   // 7x7 stride 2 (the ResNet stem's shape, small)
        {2, 4, 6, 1, 20, 21, 1, 0, 3, 1},   // 1x1 stride 3: residues 1 and 2 unused
    };
    std::mt19937 rng(1201);
    int caseIndex = 0;
    const std::pair<std::uint64_t, Direction> solvers[] = {
        {1201, Direction::Forward}, {1202, Direction::BackwardData}, {1203, Direction::BackwardWeights}};
    for(const auto& [id, dir] : solvers)
        for(const miopenDataType_t t : {miopenFloat, miopenHalf, miopenBFloat16})
            for(const Shape& sh : shapes)
            {
                const Solver* solver = miopen::conv::findSolver(id);
                ASSERT_NE(solver, nullptr);
                Spec s;
                s.sd  = 2;
                s.n   = sh.n;
                s.c   = sh.c;
                s.k   = sh.k;
                s.g   = sh.g;
                s.in  = {sh.h, sh.w};
                s.fil = {sh.f, sh.f};
                for(const std::size_t len : s.in)
                    s.out.push_back(conv_reference::outputLength(len, sh.f, sh.pad, sh.str, sh.dil));
                s.pad    = {sh.pad, sh.pad};
                s.str    = {sh.str, sh.str};
                s.dil    = {sh.dil, sh.dil};
                s.orderX = s.orderW = s.orderY = "NCHW";
                s.combo  = Combo{dir, t, t};
                ASSERT_LE(s.flops(), 20e6) << s.describe();
                const CaseResult r = runCase(*solver, s, rng, caseIndex++);
                EXPECT_TRUE(r.accepted) << solver->name() << " declined " << s.describe();
                EXPECT_TRUE(r.ok) << solver->name() << ": " << s.describe();
            }
}

// GemmFwdRest's fp32 AVX-512 im2col packs a column block from a table of runs (Im2colB): blocks
// whose table would pass kIm2colRunsMax (4096) runs or filters of more than kIm2colTapsMax (512)
// taps take the row-by-row packing instead. Shapes: outputs one column wide, so a block of more
// than 455 columns needs a run per column and tap (9 x 768 in a whole block: the fallback; with
// 2 threads each thread's last block is short enough for the table), with and without stride 2
// along H (thousands of columns, so every thread count up to a few has whole blocks); and a
// 23x23 filter (529 taps).
TEST(SolverAccuracyFixed, ForwardIm2colRunTableFallback)
{
    struct Shape
    {
        std::size_t n, c, k, h, w, fh, fw;
        int padH, padW, strH;
    };
    const Shape shapes[] = {
        {4, 2, 3, 1600, 3, 3, 3, 1, 0, 1},  // 1600 x 1 outputs: 6400 columns
        {3, 4, 6, 3201, 3, 3, 3, 1, 0, 2},  // stride 2 along H: 1601 x 1 outputs, 4803 columns
        {2, 2, 3, 24, 25, 23, 23, 0, 0, 1}, // 529 taps: 2 x 3 outputs
    };
    const Solver* solver = miopen::conv::findSolver(91);
    ASSERT_NE(solver, nullptr);
    std::mt19937 rng(1091);
    int caseIndex = 0;
    for(const Shape& sh : shapes)
    {
        Spec s;
        s.sd  = 2;
        s.n   = sh.n;
        s.c   = sh.c;
        s.k   = sh.k;
        s.g   = 1;
        s.in  = {sh.h, sh.w};
        s.fil = {sh.fh, sh.fw};
        s.pad = {sh.padH, sh.padW};
        s.str = {sh.strH, 1};
        s.dil = {1, 1};
        for(std::size_t d = 0; d < 2; ++d)
            s.out.push_back(conv_reference::outputLength(s.in[d], s.fil[d], s.pad[d], s.str[d], 1));
        s.orderX = s.orderW = s.orderY = "NCHW";
        s.combo = Combo{Direction::Forward, miopenFloat, miopenFloat};
        ASSERT_LE(s.flops(), 20e6) << s.describe();
        const CaseResult r = runCase(*solver, s, rng, caseIndex++);
        EXPECT_TRUE(r.accepted) << solver->name() << " declined " << s.describe();
        EXPECT_TRUE(r.ok) << solver->name() << ": " << s.describe();
    }
}

// ---------------------------------------------------------------------------------------------
// Registry.

TEST(SolverRegistry, IdsAndNamesAreUniqueAndFindRoundTrips)
{
    const auto& reg = miopen::conv::solverRegistry();
    ASSERT_FALSE(reg.empty());
    std::set<std::uint64_t> ids;
    std::set<std::string> names;
    for(const Solver* s : reg)
    {
        EXPECT_TRUE(ids.insert(s->id()).second) << "duplicate id " << s->id();
        EXPECT_TRUE(names.insert(s->name()).second) << "duplicate name " << s->name();
        EXPECT_NE(s->id(), 0u);
        EXPECT_EQ(miopen::conv::findSolver(s->id()), s);
        EXPECT_EQ(miopen::conv::findSolver(std::string(s->name())), s);
    }
    EXPECT_EQ(miopen::conv::findSolver(std::uint64_t{0}), nullptr);
    EXPECT_EQ(miopen::conv::findSolver(std::uint64_t{999999}), nullptr);
    EXPECT_EQ(miopen::conv::findSolver(std::string("NoSuchSolver")), nullptr);
}

TEST(SolverRegistry, UpstreamIdsAndNames)
{
    const std::map<std::uint64_t, std::string> expected{
        {84, "ConvBinWinogradRxSf2x3g1"}, {85, "ConvDirectNaiveConvFwd"}, {86, "ConvDirectNaiveConvBwd"},
        {87, "ConvDirectNaiveConvWrw"},   {88, "GemmFwd1x1_0_1"},         {90, "GemmFwd1x1_0_2"},
        {91, "GemmFwdRest"},              {95, "GemmBwd1x1_stride2"},     {96, "GemmBwd1x1_stride1"},
        {97, "GemmBwdRest"},              {101, "GemmWrw1x1_stride1"},    {102, "GemmWrwUniversal"},
        {1001, "ConvCpuWinogradF4x4_3x3"}, {1002, "ConvCpuWinogradWrwF4x4_3x3"},
        {1003, "ConvCpuWinogradWrwF2x2_3x3"}};
    for(const auto& [id, name] : expected)
    {
        const Solver* s = miopen::conv::findSolver(id);
        ASSERT_NE(s, nullptr) << "id " << id;
        EXPECT_EQ(std::string(s->name()), name);
    }
    EXPECT_EQ(miopen::conv::findSolver(85)->algorithm(), miopenConvolutionAlgoDirect);
    EXPECT_EQ(miopen::conv::findSolver(91)->algorithm(), miopenConvolutionAlgoGEMM);
    EXPECT_EQ(miopen::conv::findSolver(84)->algorithm(), miopenConvolutionAlgoWinograd);
    EXPECT_EQ(miopen::conv::findSolver(1001)->algorithm(), miopenConvolutionAlgoWinograd);
    EXPECT_EQ(miopen::conv::findSolver(1002)->algorithm(), miopenConvolutionAlgoWinograd);
    EXPECT_EQ(miopen::conv::findSolver(1003)->algorithm(), miopenConvolutionAlgoWinograd);
}

TEST(SolverRegistry, PreferenceOrder)
{
    // 1x1 GEMM first, then Winograd F4 then F2, then the general GEMM solvers, then the
    // OpenBLAS solvers, naive last.
    const auto& reg = miopen::conv::solverRegistry();
    auto pos        = [&](std::uint64_t id) {
        for(std::size_t i = 0; i < reg.size(); ++i)
            if(reg[i]->id() == id)
                return static_cast<int>(i);
        return -1;
    };
    for(std::uint64_t oneByOne : {88, 90, 95, 96, 101})
    {
        EXPECT_LT(pos(oneByOne), pos(1001));
        EXPECT_LT(pos(oneByOne), pos(91));
    }
    EXPECT_LT(pos(1001), pos(84));
    // Phase grid: before GemmBwdRest, after GemmFwdRest and GemmWrwUniversal (gemm.cpp says why).
    EXPECT_LT(pos(91), pos(1201));
    EXPECT_LT(pos(1202), pos(97));
    EXPECT_LT(pos(102), pos(1203));
    for(std::uint64_t rest : {1201, 91, 1202, 97, 1203, 102})
    {
        EXPECT_LT(pos(84), pos(rest));
        EXPECT_LT(pos(rest), pos(1101)); // the packed engine before OpenBLAS
    }
    for(std::uint64_t blas = 1101; blas <= 1108; ++blas)
    {
        EXPECT_GE(pos(blas), 0) << blas;
        EXPECT_LT(pos(blas), pos(85)) << blas;
    }
    EXPECT_EQ(reg[reg.size() - 3]->id(), 85u);
    EXPECT_EQ(reg[reg.size() - 2]->id(), 86u);
    EXPECT_EQ(reg.back()->id(), 87u);
}

ProblemDescription simpleProblem(Direction dir, bool deterministic, std::size_t filter = 3)
{
    miopen::TensorDescriptor x(miopenFloat, {2, 8, 10, 10});
    miopen::TensorDescriptor w(miopenFloat, {16, 8, filter, filter});
    const std::size_t o = 10 + 2 - filter + 1;
    miopen::TensorDescriptor y(miopenFloat, {2, 16, o, o});
    miopen::ConvolutionDescriptor conv;
    const int pads[2] = {1, 1}, strides[2] = {1, 1}, dils[2] = {1, 1};
    conv.init(2, miopenConvolution, pads, strides, dils);
    if(deterministic)
        conv.setAttribute(MIOPEN_CONVOLUTION_ATTRIB_DETERMINISTIC, 1);
    return ProblemDescription(x, w, y, conv, dir);
}

TEST(SolverRegistry, ApplicableSolversFollowRegistryOrderAndApplicability)
{
    for(Direction dir : {Direction::Forward, Direction::BackwardData, Direction::BackwardWeights})
        for(bool det : {false, true})
        {
            const ProblemDescription p = simpleProblem(dir, det);
            const auto list            = miopen::conv::applicableSolvers(p);
            std::vector<const Solver*> expected;
            for(const Solver* s : miopen::conv::solverRegistry())
                if(s->isApplicable(p) && (!det || s->isDeterministic()))
                    expected.push_back(s);
            EXPECT_EQ(list, expected);
            EXPECT_FALSE(list.empty());
            EXPECT_EQ(list.back()->algorithm(), miopenConvolutionAlgoDirect) << "naive comes last";
        }
    // A 3x3 forward problem: Winograd F4 is the first choice.
    const auto fwd = miopen::conv::applicableSolvers(simpleProblem(Direction::Forward, false));
    ASSERT_FALSE(fwd.empty());
    EXPECT_EQ(fwd.front()->id(), 1001u);
}

TEST(SolverRegistry, OrderedListPerDirection)
{
    // One list per direction: the registry's solvers that compute it, in registry order; every
    // solver is in at least one, and a solver outside a direction's list declines its problems.
    std::set<const Solver*> listed;
    for(Direction dir : {Direction::Forward, Direction::BackwardData, Direction::BackwardWeights})
    {
        const auto& list = miopen::conv::solversFor(dir);
        std::vector<const Solver*> expected;
        for(const Solver* s : miopen::conv::solverRegistry())
            if(s->computes(dir))
                expected.push_back(s);
        EXPECT_EQ(list, expected) << miopen::conv::directionName(dir);
        ASSERT_FALSE(list.empty()) << miopen::conv::directionName(dir);
        EXPECT_EQ(list.back()->algorithm(), miopenConvolutionAlgoDirect) << "naive comes last";
        listed.insert(list.begin(), list.end());
        const ProblemDescription p = simpleProblem(dir, false);
        for(const Solver* s : miopen::conv::solverRegistry())
            if(!s->computes(dir))
            {
                EXPECT_FALSE(s->isApplicable(p)) << s->name() << " applies to a direction it does not list";
            }
    }
    EXPECT_EQ(listed.size(), miopen::conv::solverRegistry().size());
    // Winograd F(4x4,3x3) and F(2x2,3x3) serve forward and backward data, each in both lists.
    for(std::uint64_t id : {1001u, 84u})
    {
        const Solver* s = miopen::conv::findSolver(id);
        ASSERT_NE(s, nullptr);
        EXPECT_TRUE(s->computes(Direction::Forward) && s->computes(Direction::BackwardData) &&
                    !s->computes(Direction::BackwardWeights))
            << s->name();
    }
}

TEST(SolverRegistry, DeclinesCarryReasons)
{
    // Every solver declines at least one of these, and says why.
    const std::vector<ProblemDescription> problems{simpleProblem(Direction::Forward, false, 1),
                                                   simpleProblem(Direction::BackwardData, false, 3),
                                                   simpleProblem(Direction::BackwardWeights, false, 3)};
    for(const Solver* s : miopen::conv::solverRegistry())
    {
        int declines = 0;
        for(const auto& p : problems)
        {
            const auto a = s->isApplicable(p);
            if(!a)
            {
                ++declines;
                EXPECT_FALSE(a.reason.empty()) << s->name();
            }
            else
                EXPECT_TRUE(a.reason.empty()) << s->name() << " applies but gives a reason";
        }
        EXPECT_GT(declines, 0) << s->name() << " applies to every direction";
    }
}

TEST(SolverRegistry, WorkspaceTooSmallIsRefused)
{
    // A solver that needs workspace refuses a smaller one instead of writing past it.
    const ProblemDescription p = simpleProblem(Direction::Forward, false);
    for(const Solver* s : miopen::conv::solverRegistry())
    {
        if(!s->isApplicable(p))
            continue;
        const std::size_t need = s->workspaceSize(p);
        if(need == 0)
            continue;
        std::vector<float> x(2 * 8 * 100, 0.5f), w(16 * 8 * 9, 0.25f), y(2 * 16 * 100, 0.0f);
        std::vector<unsigned char> ws(need - 1);
        miopen::conv::ConvTensors t;
        t.in     = x.data();
        t.wei    = w.data();
        t.outOut = y.data();
        miopen::Handle h;
        EXPECT_THROW(s->run(h, p, t, ws.data(), ws.size()), miopen::Exception) << s->name();
    }
}

} // namespace
