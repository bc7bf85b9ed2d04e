// Pooling through the public C API against a reference written here in plain loops (double):
// seeded random shapes, 2-D and 3-D, NCHW/NHWC/strided, padding, strides, windows larger than
// strides, every mode, index type and workspace index mode, fp32/fp16/bf16, forward and backward
// through the saved indices. Each call asserts its hipDNN route (common/forwarding_route.hpp):
// forwarded, or declined with its reason (max pooling forward with saved indices:
// workspace-indices; tensors with gaps: layout). The max backward is forwarded as the gradient
// from x after a forward that Private served: the opt-out mix in every configuration.
#include "common/forwarding_route.hpp"
#include "common/layer_test_helpers.hpp"

#include <algorithm>
#include <cstdlib>
#include <map>
#include <cstdint>
#include <memory>
#include <random>
#include <string>
#include <vector>

namespace {

using test::HostTensor;

class PoolDesc
{
public:
    PoolDesc() { EXPECT_MIOPEN_OK(miopenCreatePoolingDescriptor(&_d)); }
    ~PoolDesc() { miopenDestroyPoolingDescriptor(_d); }
    PoolDesc(const PoolDesc&) = delete;
    PoolDesc& operator=(const PoolDesc&) = delete;
    operator miopenPoolingDescriptor_t() const { return _d; }

private:
    miopenPoolingDescriptor_t _d = nullptr;
};

struct PoolConfig
{
    miopenPoolingMode_t mode = miopenPoolingMax;
    std::vector<int> window, pad, stride;
    miopenIndexType_t indexType                 = miopenIndexUint8;
    miopenPoolingWorkspaceIndexMode_t indexMode = miopenPoolingWorkspaceIndexMask;

    std::string str() const
    {
        return "mode " + std::to_string(mode) + " window " + test::lensString(window) + " pad " +
               test::lensString(pad) + " stride " + test::lensString(stride) + " index type " +
               std::to_string(indexType) + " index mode " + std::to_string(indexMode);
    }
};

std::vector<int> outputLens(const std::vector<int>& x, const PoolConfig& c)
{
    std::vector<int> y{x[0], x[1]};
    for(std::size_t i = 0; i < c.window.size(); ++i)
        y.push_back(std::max(1, (x[2 + i] + 2 * c.pad[i] - c.window[i]) / c.stride[i] + 1));
    return y;
}

int product(const std::vector<int>& v)
{
    int p = 1;
    for(int e : v)
        p *= e;
    return p;
}

// Row-major multi-index of `flat` over `lens`.
std::vector<int> unflatten(int flat, const std::vector<int>& lens)
{
    std::vector<int> idx(lens.size());
    for(std::size_t d = lens.size(); d-- > 0;)
    {
        idx[d] = flat % lens[d];
        flat /= lens[d];
    }
    return idx;
}

struct Reference
{
    std::vector<double> y;             // packed N, C, out-spatial
    std::vector<std::uint64_t> index;  // packed as y (max mode)
    std::vector<std::vector<int>> arg; // argmax input position (spatial), packed as y
};

// Forward reference: windows visited in row-major order over the window; the first strict
// maximum wins; padded positions are skipped.
Reference referenceForward(const HostTensor& x, const PoolConfig& c)
{
    const auto& xl    = x.lens();
    const auto yl     = outputLens(xl, c);
    const std::size_t r = c.window.size();
    const std::vector<int> inSpatial(xl.begin() + 2, xl.end());
    const std::vector<int> outSpatial(yl.begin() + 2, yl.end());
    Reference ref;
    for(int n = 0; n < yl[0]; ++n)
        for(int ch = 0; ch < yl[1]; ++ch)
            for(int o = 0; o < product(outSpatial); ++o)
            {
                const auto op  = unflatten(o, outSpatial);
                double best    = -INFINITY;
                double sum     = 0;
                int inside     = 0;
                int bestWindow = 0, bestImage = 0;
                std::vector<int> bestPos;
                for(int wi = 0; wi < product(c.window); ++wi)
                {
                    const auto wp = unflatten(wi, c.window);
                    std::vector<int> pos(r);
                    bool in = true;
                    for(std::size_t d = 0; d < r; ++d)
                    {
                        pos[d] = op[d] * c.stride[d] - c.pad[d] + wp[d];
                        in     = in && pos[d] >= 0 && pos[d] < inSpatial[d];
                    }
                    if(!in)
                        continue;
                    std::vector<int> full{n, ch};
                    full.insert(full.end(), pos.begin(), pos.end());
                    const double v = x.at(full);
                    sum += v;
                    ++inside;
                    if(v > best)
                    {
                        best       = v;
                        bestWindow = wi;
                        int img    = 0;
                        for(std::size_t d = 0; d < r; ++d)
                            img = img * inSpatial[d] + pos[d];
                        bestImage = img;
                        bestPos   = pos;
                    }
                }
                double out = 0;
                switch(c.mode)
                {
                case miopenPoolingMax: out = best; break;
                case miopenPoolingAverage: out = sum / std::max(inside, 1); break;
                case miopenPoolingAverageInclusive: out = sum / product(c.window); break;
                }
                ref.y.push_back(out);
                ref.index.push_back(static_cast<std::uint64_t>(
                    c.indexMode == miopenPoolingWorkspaceIndexMask ? bestWindow : bestImage));
                ref.arg.push_back(bestPos);
            }
    return ref;
}

// Backward reference: dx packed N, C, in-spatial.
std::vector<double> referenceBackward(const HostTensor& dy, const std::vector<int>& xl, const PoolConfig& c,
                                      const Reference& fwd)
{
    const std::size_t r = c.window.size();
    const std::vector<int> inSpatial(xl.begin() + 2, xl.end());
    const auto yl = outputLens(xl, c);
    const std::vector<int> outSpatial(yl.begin() + 2, yl.end());
    const int inPlane = product(inSpatial), outPlane = product(outSpatial);
    std::vector<double> dx(static_cast<std::size_t>(xl[0] * xl[1] * inPlane), 0.0);
    auto flatIn = [&](const std::vector<int>& pos) {
        int f = 0;
        for(std::size_t d = 0; d < r; ++d)
            f = f * inSpatial[d] + pos[d];
        return f;
    };
    for(int n = 0; n < xl[0]; ++n)
        for(int ch = 0; ch < xl[1]; ++ch)
            for(int o = 0; o < outPlane; ++o)
            {
                const auto op = unflatten(o, outSpatial);
                std::vector<int> full{n, ch};
                full.insert(full.end(), op.begin(), op.end());
                const double g       = dy.at(full);
                const std::size_t yi = static_cast<std::size_t>((n * xl[1] + ch) * outPlane + o);
                double* plane        = dx.data() + static_cast<std::size_t>((n * xl[1] + ch) * inPlane);
                if(c.mode == miopenPoolingMax)
                {
                    plane[flatIn(fwd.arg[yi])] += g;
                    continue;
                }
                std::vector<std::vector<int>> positions;
                for(int wi = 0; wi < product(c.window); ++wi)
                {
                    const auto wp = unflatten(wi, c.window);
                    std::vector<int> pos(r);
                    bool in = true;
                    for(std::size_t d = 0; d < r; ++d)
                    {
                        pos[d] = op[d] * c.stride[d] - c.pad[d] + wp[d];
                        in     = in && pos[d] >= 0 && pos[d] < inSpatial[d];
                    }
                    if(in)
                        positions.push_back(pos);
                }
                const double div = c.mode == miopenPoolingAverage ? static_cast<double>(positions.size())
                                                                  : static_cast<double>(product(c.window));
                for(const auto& pos : positions)
                    plane[flatIn(pos)] += g / div;
            }
    return dx;
}

std::uint64_t readIndex(const test::GuardedBuffer& ws, miopenIndexType_t t, std::size_t i)
{
    const auto* p = static_cast<const unsigned char*>(ws.data());
    switch(t)
    {
    case miopenIndexUint8: return p[i];
    case miopenIndexUint16: {
        std::uint16_t v;
        std::memcpy(&v, p + 2 * i, 2);
        return v;
    }
    case miopenIndexUint32: {
        std::uint32_t v;
        std::memcpy(&v, p + 4 * i, 4);
        return v;
    }
    case miopenIndexUint64: {
        std::uint64_t v;
        std::memcpy(&v, p + 8 * i, 8);
        return v;
    }
    }
    return ~std::uint64_t{0};
}

// The opt-out-mix runs (pooling.cmake: MIOPEN_DISABLE_HIPDNN_FOR names one direction): the
// opted-out entry point is routed to Private whatever its arguments, the other keeps its route.
class RouteCheck
{
public:
    ::testing::AssertionResult check(const std::string& entry, const test::route::Expected& expected) const
    {
        const char* optOut = std::getenv("MIOPEN_DISABLE_HIPDNN_FOR");
        if(!test::route::forwardingEnabled() || optOut == nullptr ||
           (entry != optOut && std::string(optOut) != "pooling"))
            return _probe.check(entry, expected);
        const auto after = test::route::readCounters();
        const auto b     = _before.count(entry) ? _before.at(entry) : test::route::EntryCounts{};
        const auto a     = after.count(entry) ? after.at(entry) : test::route::EntryCounts{};
        if(a.routed == b.routed + 1 && a.forwarded == b.forwarded && a.declined == b.declined)
            return ::testing::AssertionSuccess();
        return ::testing::AssertionFailure() << entry << " (opted out): expected routed+1, got routed+"
                                             << a.routed - b.routed << " forwarded+" << a.forwarded - b.forwarded
                                             << " declined+" << a.declined - b.declined;
    }

private:
    test::route::Probe _probe;
    std::map<std::string, test::route::EntryCounts> _before = test::route::readCounters();
};

std::vector<int> stridesFor(const std::vector<int>& lens, int layoutKind)
{
    // 0: channels second (NCHW/NCDHW), 1: channels last (NHWC/NDHWC), 2: NCHW with gaps.
    auto s = test::packedStrides(lens, layoutKind == 1);
    if(layoutKind == 2)
    {
        s[1] = s[1] + 3; // gaps between channels and between images
        s[0] = s[1] * lens[1] + 5;
    }
    return s;
}

// ties: x holds ReLU-like data with many equal values (about half zeros, the rest 1 or 2), so
// most windows hold several maxima and only the first-maximum rule gives the reference's index.
void runPooling(const PoolConfig& c, miopenDataType_t type, const std::vector<int>& xl, int layoutKind,
                std::mt19937& rng, bool ties = false)
{
    SCOPED_TRACE(c.str() + " x " + test::lensString(xl) + " " + test::typeName(type) + " layout " +
                 std::to_string(layoutKind));
    test::Handle h;
    PoolDesc pd;
    const int r = static_cast<int>(c.window.size());
    ASSERT_MIOPEN_OK(miopenSetNdPoolingDescriptor(pd, c.mode, r, c.window.data(), c.pad.data(), c.stride.data()));
    ASSERT_MIOPEN_OK(miopenSetPoolingIndexType(pd, c.indexType));
    ASSERT_MIOPEN_OK(miopenSetPoolingWorkSpaceIndexMode(pd, c.indexMode));

    auto x = std::make_unique<HostTensor>(type, xl, stridesFor(xl, layoutKind));
    x->fill(rng);
    if(ties)
        for(std::size_t i = 0; i < x->count(); ++i)
            x->set(x->offset(x->index(i)),
                   static_cast<float>(std::max(0, std::uniform_int_distribution<int>(-2, 2)(rng))));
    std::vector<int> yl(xl.size());
    ASSERT_MIOPEN_OK(miopenGetPoolingNdForwardOutputDim(pd, x->desc(), static_cast<int>(xl.size()), yl.data()));
    ASSERT_EQ(yl, outputLens(xl, c));
    auto y = std::make_unique<HostTensor>(type, yl, stridesFor(yl, layoutKind));
    y->fill(rng); // garbage that must be overwritten

    size_t wsSize = 0;
    ASSERT_MIOPEN_OK(miopenPoolingGetWorkSpaceSizeV2(pd, y->desc(), &wsSize));
    const std::size_t idxSize = std::size_t{1} << static_cast<int>(c.indexType);
    ASSERT_EQ(wsSize, c.mode == miopenPoolingMax ? y->count() * idxSize : 0u);
    test::GuardedBuffer ws(std::max<std::size_t>(wsSize, 1));

    const float one = 1.0f, zero = 0.0f;
    // The route the wrapper must take: MIOpen's max-pooling indices have no graph counterpart, and
    // only dense tensors are forwarded.
    const bool isMax = c.mode == miopenPoolingMax;
    // (The gaps of layout 2 sit between channels and images: none when N = C = 1.)
    const bool gaps = layoutKind == 2 && (xl[0] > 1 || xl[1] > 1);
    auto expected   = [&](const char* maxReason) {
        return gaps    ? test::route::Expected::declined("layout")
               : isMax         ? test::route::Expected::declined(maxReason)
                               : test::route::Expected::forwarded();
    };
    const RouteCheck fwdProbe;
    ASSERT_MIOPEN_OK(miopenPoolingForward(h, pd, &one, x->desc(), x->data(), &zero, y->desc(), y->data(), true,
                                          ws.data(), wsSize));
    EXPECT_TRUE(fwdProbe.check("miopenPoolingForward", expected("workspace-indices")));
    EXPECT_TRUE(y->buffer().guardsIntact() && ws.guardsIntact());

    const Reference ref = referenceForward(*x, c);
    const double tol    = test::tolerance(type);
    int bad             = 0;
    for(std::size_t i = 0; i < y->count() && bad < 5; ++i)
    {
        const double got = y->at(y->index(i));
        const bool ok    = c.mode == miopenPoolingMax ? got == ref.y[i] : test::near(got, ref.y[i], tol);
        if(!ok)
        {
            ++bad;
            ADD_FAILURE() << "y[" << i << "] = " << got << ", reference " << ref.y[i];
        }
        if(c.mode == miopenPoolingMax && readIndex(ws, c.indexType, i) != ref.index[i])
        {
            ++bad;
            ADD_FAILURE() << "index[" << i << "] = " << readIndex(ws, c.indexType, i) << ", reference "
                          << ref.index[i];
        }
    }

    // Backward through the saved indices (max) or the window geometry (average).
    auto dy = std::make_unique<HostTensor>(type, yl, stridesFor(yl, layoutKind));
    dy->fill(rng);
    auto dx = std::make_unique<HostTensor>(type, xl, stridesFor(xl, layoutKind));
    dx->fill(rng, 100.0f, 200.0f); // garbage that must be overwritten
    const RouteCheck bwdProbe;
    ASSERT_MIOPEN_OK(miopenPoolingBackward(h, pd, &one, y->desc(), y->data(), dy->desc(), dy->data(), x->desc(),
                                           x->data(), &zero, dx->desc(), dx->data(), ws.data()));
    // The max backward is forwarded as the gradient from x (it never reads the workspace).
    EXPECT_TRUE(bwdProbe.check("miopenPoolingBackward",
                               gaps ? test::route::Expected::declined("layout") : test::route::Expected::forwarded()));
    EXPECT_TRUE(dx->buffer().guardsIntact());
    const auto want = referenceBackward(*dy, xl, c, ref);
    for(std::size_t i = 0; i < dx->count() && bad < 10; ++i)
    {
        const double got = dx->at(dx->index(i));
        if(!test::near(got, want[i], 2 * tol))
        {
            ++bad;
            ADD_FAILURE() << "dx[" << i << "] = " << got << ", reference " << want[i];
        }
    }
}

class PoolingRandom : public ::testing::TestWithParam<std::tuple<int, miopenDataType_t>>
{
};

TEST_P(PoolingRandom, ForwardAndBackwardMatchReference)
{
    const auto [seed, type] = GetParam();
    std::mt19937 rng(static_cast<unsigned>(1000 + seed * 7 + static_cast<int>(type)));
    auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
    const int r = seed % 3 == 2 ? 3 : 2;
    for(int mode = 0; mode < 3; ++mode)
    {
        PoolConfig c;
        c.mode = static_cast<miopenPoolingMode_t>(mode);
        std::vector<int> xl{pick(1, 2), pick(1, 3)};
        for(int d = 0; d < r; ++d)
        {
            const int k = pick(1, r == 2 ? 4 : 3);
            // Windows larger than strides in most cases (overlapping windows).
            const int s = pick(1, std::max(1, k - (seed % 2)));
            c.window.push_back(k);
            c.stride.push_back(s);
            c.pad.push_back(pick(0, k - 1)); // every window holds an input element
            xl.push_back(pick(std::max(1, k - 2 * c.pad.back()), r == 2 ? 9 : 6));
        }
        c.indexType = static_cast<miopenIndexType_t>((seed + mode) % 4);
        c.indexMode = static_cast<miopenPoolingWorkspaceIndexMode_t>((seed / 2 + mode) % 2);
        runPooling(c, type, xl, (seed + mode) % 3, rng);
        if(HasFailure())
            return;
    }
}

INSTANTIATE_TEST_SUITE_P(Seeds,
                         PoolingRandom,
                         ::testing::Combine(::testing::Range(0, 12),
                                            ::testing::Values(miopenFloat, miopenHalf, miopenBFloat16)),
                         [](const auto& pi) {
                             return "seed" + std::to_string(std::get<0>(pi.param)) + "_" +
                                    test::typeName(std::get<1>(pi.param));
                         });

// Known indices, independent of the reference above: x = 0..15 over a 4x4 plane.
struct KnownCase
{
    int window, pad, stride;
    std::vector<float> y;
    std::vector<std::uint64_t> mask, image;
};

TEST(PoolingIndices, KnownValuesInBothModesAndAllIndexTypes)
{
    const std::vector<KnownCase> cases = {
        {2, 0, 2, {5, 7, 13, 15}, {3, 3, 3, 3}, {5, 7, 13, 15}},
        // The window of output (0, 0) starts at (-1, -1): its maximum (1, 1) is window position 8.
        // Every maximum here sits at window position (2, 2).
        {3, 1, 2, {5, 7, 13, 15}, {8, 8, 8, 8}, {5, 7, 13, 15}},
    };
    for(const auto& kc : cases)
        for(int it = 0; it < 4; ++it)
            for(int im = 0; im < 2; ++im)
            {
                test::Handle h;
                PoolDesc pd;
                ASSERT_MIOPEN_OK(miopenSet2dPoolingDescriptor(pd, miopenPoolingMax, kc.window, kc.window, kc.pad,
                                                              kc.pad, kc.stride, kc.stride));
                ASSERT_MIOPEN_OK(miopenSetPoolingIndexType(pd, static_cast<miopenIndexType_t>(it)));
                ASSERT_MIOPEN_OK(
                    miopenSetPoolingWorkSpaceIndexMode(pd, static_cast<miopenPoolingWorkspaceIndexMode_t>(im)));
                test::Tensor xd(miopenFloat, {1, 1, 4, 4}, {});
                test::Tensor yd(miopenFloat, {1, 1, 2, 2}, {});
                std::vector<float> x(16), y(4, -1.0f);
                for(int i = 0; i < 16; ++i)
                    x[static_cast<std::size_t>(i)] = static_cast<float>(i);
                test::GuardedBuffer ws(4 * 8);
                const float one = 1.0f, zero = 0.0f;
                ASSERT_MIOPEN_OK(miopenPoolingForward(h, pd, &one, xd, x.data(), &zero, yd, y.data(), true,
                                                      ws.data(), ws.size()));
                EXPECT_EQ(y, kc.y);
                for(std::size_t i = 0; i < 4; ++i)
                    EXPECT_EQ(readIndex(ws, static_cast<miopenIndexType_t>(it), i), (im == 0 ? kc.mask : kc.image)[i])
                        << "window " << kc.window << " index type " << it << " mode " << im << " output " << i;

                // Backward routes dy to the saved positions only.
                std::vector<float> dy{1, 2, 3, 4}, dx(16, 9.0f);
                ASSERT_MIOPEN_OK(miopenPoolingBackward(h, pd, &one, yd, y.data(), yd, dy.data(), xd, x.data(), &zero,
                                                       xd, dx.data(), ws.data()));
                std::vector<float> want(16, 0.0f);
                for(std::size_t i = 0; i < 4; ++i)
                    want[static_cast<std::size_t>(kc.image[i])] += dy[i];
                EXPECT_EQ(dx, want);
            }
}

TEST(PoolingIndices, IndexTypeTooNarrowIsRefused)
{
    test::Handle h;
    PoolDesc pd;
    ASSERT_MIOPEN_OK(miopenSet2dPoolingDescriptor(pd, miopenPoolingMax, 2, 2, 0, 0, 2, 2));
    ASSERT_MIOPEN_OK(miopenSetPoolingWorkSpaceIndexMode(pd, miopenPoolingWorkspaceIndexImage));
    test::Tensor xd(miopenFloat, {1, 1, 16, 16}, {}); // 256 positions: uint8 cannot hold them
    test::Tensor yd(miopenFloat, {1, 1, 8, 8}, {});
    std::vector<float> x(256, 1.0f), y(64, 0.0f);
    test::GuardedBuffer ws(64 * 8);
    const auto before = ws.snapshot();
    const float one = 1.0f, zero = 0.0f;
    EXPECT_EQ(miopenStatusUnknownError,
              miopenPoolingForward(h, pd, &one, xd, x.data(), &zero, yd, y.data(), true, ws.data(), ws.size()));
    EXPECT_EQ(ws.snapshot(), before);
    EXPECT_EQ(y, std::vector<float>(64, 0.0f));
    // uint16 holds them; without do_backward no index is needed at all.
    ASSERT_MIOPEN_OK(miopenSetPoolingIndexType(pd, miopenIndexUint16));
    EXPECT_MIOPEN_OK(miopenPoolingForward(h, pd, &one, xd, x.data(), &zero, yd, y.data(), true, ws.data(), ws.size()));
    ASSERT_MIOPEN_OK(miopenSetPoolingIndexType(pd, miopenIndexUint8));
    EXPECT_MIOPEN_OK(miopenPoolingForward(h, pd, &one, xd, x.data(), &zero, yd, y.data(), false, nullptr, 0));
}

TEST(PoolingDescriptor, SetGetRoundTripAndDefaults)
{
    PoolDesc pd;
    miopenIndexType_t it;
    miopenPoolingWorkspaceIndexMode_t im;
    ASSERT_MIOPEN_OK(miopenGetPoolingIndexType(pd, &it));
    ASSERT_MIOPEN_OK(miopenGetPoolingWorkSpaceIndexMode(pd, &im));
    EXPECT_EQ(it, miopenIndexUint8);
    EXPECT_EQ(im, miopenPoolingWorkspaceIndexMask);

    ASSERT_MIOPEN_OK(miopenSetPoolingIndexType(pd, miopenIndexUint32));
    ASSERT_MIOPEN_OK(miopenSet2dPoolingDescriptor(pd, miopenPoolingAverageInclusive, 3, 2, 1, 0, 2, 3));
    ASSERT_MIOPEN_OK(miopenGetPoolingIndexType(pd, &it));
    EXPECT_EQ(it, miopenIndexUint8) << "a set resets the index type, as upstream";
    miopenPoolingMode_t m;
    int v[6];
    ASSERT_MIOPEN_OK(miopenGet2dPoolingDescriptor(pd, &m, &v[0], &v[1], &v[2], &v[3], &v[4], &v[5]));
    EXPECT_EQ(m, miopenPoolingAverageInclusive);
    EXPECT_EQ(std::vector<int>(v, v + 6), (std::vector<int>{3, 2, 1, 0, 2, 3}));

    test::Tensor xd(miopenHalf, {2, 3, 7, 9}, {});
    int n, c, hh, w;
    ASSERT_MIOPEN_OK(miopenGetPoolingForwardOutputDim(pd, xd, &n, &c, &hh, &w));
    EXPECT_EQ(std::vector<int>({n, c, hh, w}), (std::vector<int>{2, 3, 4, 3}));

    const int win[3] = {2, 3, 4}, pad[3] = {0, 1, 2}, str[3] = {1, 2, 3};
    ASSERT_MIOPEN_OK(miopenSetNdPoolingDescriptor(pd, miopenPoolingMax, 3, win, pad, str));
    ASSERT_MIOPEN_OK(miopenGetPoolingWorkSpaceIndexMode(pd, &im));
    EXPECT_EQ(im, miopenPoolingWorkspaceIndexImage) << "3-D descriptors default to Image, as upstream";
    int nb = 0, gw[3] = {0, 0, 0}, gp[3] = {0, 0, 0}, gs[3] = {0, 0, 0};
    ASSERT_MIOPEN_OK(miopenGetNdPoolingDescriptor(pd, 3, &m, &nb, gw, gp, gs));
    EXPECT_EQ(nb, 3);
    EXPECT_EQ(m, miopenPoolingMax);
    EXPECT_EQ(std::vector<int>(gw, gw + 3), std::vector<int>(win, win + 3));
    EXPECT_EQ(std::vector<int>(gp, gp + 3), std::vector<int>(pad, pad + 3));
    EXPECT_EQ(std::vector<int>(gs, gs + 3), std::vector<int>(str, str + 3));
    int gw2[1] = {-1};
    ASSERT_MIOPEN_OK(miopenGetNdPoolingDescriptor(pd, 1, nullptr, nullptr, gw2, nullptr, nullptr));
    EXPECT_EQ(gw2[0], 2);

    test::Tensor x5(miopenFloat, {1, 2, 5, 6, 7}, {});
    int out[5];
    ASSERT_MIOPEN_OK(miopenGetPoolingNdForwardOutputDim(pd, x5, 5, out));
    EXPECT_EQ(std::vector<int>(out, out + 5), (std::vector<int>{1, 2, 4, 3, 3}));
    // A 2-D query of a 3-D descriptor is refused.
    EXPECT_EQ(miopenStatusBadParm, miopenGetPoolingForwardOutputDim(pd, xd, &n, &c, &hh, &w));
}

TEST(PoolingDescriptor, WorkspaceSizes)
{
    PoolDesc pd;
    ASSERT_MIOPEN_OK(miopenSet2dPoolingDescriptor(pd, miopenPoolingMax, 2, 2, 0, 0, 2, 2));
    test::Tensor yd(miopenFloat, {2, 3, 4, 5}, {});
    size_t s = 0;
    ASSERT_MIOPEN_OK(miopenPoolingGetWorkSpaceSize(yd, &s));
    EXPECT_EQ(s, 120u);
    for(int it = 0; it < 4; ++it)
    {
        ASSERT_MIOPEN_OK(miopenSetPoolingIndexType(pd, static_cast<miopenIndexType_t>(it)));
        ASSERT_MIOPEN_OK(miopenPoolingGetWorkSpaceSizeV2(pd, yd, &s));
        EXPECT_EQ(s, 120u << it);
    }
    ASSERT_MIOPEN_OK(miopenSet2dPoolingDescriptor(pd, miopenPoolingAverage, 2, 2, 0, 0, 2, 2));
    ASSERT_MIOPEN_OK(miopenPoolingGetWorkSpaceSizeV2(pd, yd, &s));
    EXPECT_EQ(s, 0u);
    ASSERT_MIOPEN_OK(miopenPoolingGetWorkSpaceSize(yd, &s));
    EXPECT_EQ(s, 120u) << "the legacy size ignores the mode, as upstream";
}

// Average pooling needs no workspace, forward or backward.
TEST(PoolingAverage, NoWorkspaceNeeded)
{
    test::Handle h;
    PoolDesc pd;
    ASSERT_MIOPEN_OK(miopenSet2dPoolingDescriptor(pd, miopenPoolingAverage, 3, 3, 1, 1, 1, 1));
    test::Tensor xd(miopenFloat, {1, 1, 3, 3}, {});
    std::vector<float> x{1, 2, 3, 4, 5, 6, 7, 8, 9}, y(9, 0.0f);
    const float one = 1.0f, zero = 0.0f;
    ASSERT_MIOPEN_OK(miopenPoolingForward(h, pd, &one, xd, x.data(), &zero, xd, y.data(), true, nullptr, 0));
    // Corner (0, 0) averages 1, 2, 4, 5 (exclusive of padding); the centre averages all nine.
    EXPECT_FLOAT_EQ(y[0], 3.0f);
    EXPECT_FLOAT_EQ(y[4], 5.0f);
    std::vector<float> dy(9, 1.0f), dx(9, 0.0f);
    ASSERT_MIOPEN_OK(miopenPoolingBackward(h, pd, &one, xd, y.data(), xd, dy.data(), xd, x.data(), &zero, xd,
                                           dx.data(), nullptr));
    // The centre input is in all nine windows: 4 corners (1/4), 4 edges (1/6), centre (1/9).
    EXPECT_NEAR(dx[4], 4.0 / 4 + 4.0 / 6 + 1.0 / 9, 1e-6);
}

} // namespace

namespace {

// Large enough that the library splits the planes over its threads.
TEST(PoolingLarge, ParallelPlanesMatchReference)
{
    std::mt19937 rng(99);
    PoolConfig c;
    c.mode      = miopenPoolingMax;
    c.window    = {3, 3};
    c.pad       = {1, 1};
    c.stride    = {2, 2};
    c.indexType = miopenIndexUint16;
    c.indexMode = miopenPoolingWorkspaceIndexImage;
    runPooling(c, miopenFloat, {4, 16, 32, 32}, 1, rng);
    c.mode = miopenPoolingAverage;
    runPooling(c, miopenHalf, {4, 16, 32, 32}, 0, rng);
}

// Max pooling on data full of ties: the saved index (every index type, Mask and Image) and the
// backward's dx must follow the first maximum in window order, in every layout (unit, pooling
// and channels-last steps along the row), 2-D and 3-D, each type.
TEST(PoolingTies, FirstMaximumIndexAndGradient)
{
    std::mt19937 rng(777);
    auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
    for(int round = 0; round < 24; ++round)
    {
        const miopenDataType_t type = round % 3 == 0 ? miopenFloat : round % 3 == 1 ? miopenHalf : miopenBFloat16;
        const int r = round % 4 == 3 ? 3 : 2;
        PoolConfig c;
        c.mode = miopenPoolingMax;
        std::vector<int> xl{pick(1, 2), pick(1, 3)};
        for(int d = 0; d < r; ++d)
        {
            const int k = pick(1, r == 2 ? 4 : 3);
            c.window.push_back(k);
            c.stride.push_back(pick(1, k));
            c.pad.push_back(pick(0, k - 1));
            xl.push_back(pick(std::max(1, k - 2 * c.pad.back()), r == 2 ? 20 : 7));
        }
        c.indexType = static_cast<miopenIndexType_t>(round % 4);
        c.indexMode = static_cast<miopenPoolingWorkspaceIndexMode_t>((round / 4) % 2);
        int plane = 1;
        for(std::size_t d = 2; d < xl.size(); ++d)
            plane *= xl[d];
        // Image indices of a plane this large need more than 8 bits.
        if(c.indexMode == miopenPoolingWorkspaceIndexImage && plane >= 255 && c.indexType == miopenIndexUint8)
            c.indexType = miopenIndexUint16;
        runPooling(c, type, xl, round % 3, rng, true);
        if(HasFailure())
            return;
    }
}

} // namespace

namespace {

// Max pooling without saved indices has a graph form (a resample node): forwarded, and exact
// (a maximum is one of the inputs), in every layout that is dense, 2-D and 3-D, each type.
TEST(PoolingForwarding, MaxWithoutIndicesIsForwardedAndExact)
{
    std::mt19937 rng(4242);
    auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
    for(int round = 0; round < 6; ++round)
    {
        const miopenDataType_t type = round % 3 == 0 ? miopenFloat : round % 3 == 1 ? miopenHalf : miopenBFloat16;
        const int r = round < 4 ? 2 : 3;
        PoolConfig c;
        c.mode = miopenPoolingMax;
        std::vector<int> xl{pick(1, 3), pick(1, 5)};
        for(int d = 0; d < r; ++d)
        {
            const int k = pick(1, 3);
            c.window.push_back(k);
            c.stride.push_back(pick(1, k));
            c.pad.push_back(pick(0, k - 1));
            xl.push_back(pick(std::max(1, k - 2 * c.pad.back()), 8));
        }
        const int layoutKind = round % 2;
        SCOPED_TRACE(c.str() + " x " + test::lensString(xl) + " " + test::typeName(type));
        test::Handle h;
        PoolDesc pd;
        ASSERT_MIOPEN_OK(miopenSetNdPoolingDescriptor(pd, c.mode, r, c.window.data(), c.pad.data(), c.stride.data()));
        HostTensor x(type, xl, stridesFor(xl, layoutKind));
        x.fill(rng);
        const auto yl = outputLens(xl, c);
        HostTensor y(type, yl, stridesFor(yl, layoutKind));
        y.fill(rng);
        const float one = 1.0f, zero = 0.0f;
        const test::route::Probe probe;
        ASSERT_MIOPEN_OK(
            miopenPoolingForward(h, pd, &one, x.desc(), x.data(), &zero, y.desc(), y.data(), false, nullptr, 0));
        EXPECT_TRUE(probe.check("miopenPoolingForward", test::route::Expected::forwarded()));
        EXPECT_TRUE(y.buffer().guardsIntact());
        const Reference ref = referenceForward(x, c);
        for(std::size_t i = 0; i < y.count(); ++i)
            ASSERT_EQ(y.at(y.index(i)), ref.y[i]) << "y[" << i << "]";
    }
}

// A window that can hold only padding (padding >= window; MIOpen: the lowest value) has no engine
// that runs it: declined up front, and Private's answer is the caller's.
TEST(PoolingForwarding, PaddingAsLargeAsTheWindowIsDeclined)
{
    test::Handle h;
    PoolDesc pd;
    ASSERT_MIOPEN_OK(miopenSet2dPoolingDescriptor(pd, miopenPoolingAverageInclusive, 2, 2, 2, 2, 1, 1));
    test::Tensor xd(miopenFloat, {1, 1, 2, 2}, {});
    std::vector<int> yl(4);
    ASSERT_MIOPEN_OK(miopenGetPoolingNdForwardOutputDim(pd, xd, 4, yl.data()));
    test::Tensor yd(miopenFloat, yl, {});
    std::vector<float> x{1, 2, 3, 4}, y(static_cast<std::size_t>(product(yl)), -7.0f);
    const float one = 1.0f, zero = 0.0f;
    const test::route::Probe probe;
    ASSERT_MIOPEN_OK(miopenPoolingForward(h, pd, &one, xd, x.data(), &zero, yd, y.data(), false, nullptr, 0));
    EXPECT_TRUE(probe.check("miopenPoolingForward", test::route::Expected::declined("padding>=window")));
    // yl = 1, 1, 5, 5: the window of output (2, 2) covers the whole input, inclusive average 10 / 4.
    ASSERT_EQ(yl, (std::vector<int>{1, 1, 5, 5}));
    EXPECT_FLOAT_EQ(y[2 * 5 + 2], 10.0f / 4.0f);
}

} // namespace
