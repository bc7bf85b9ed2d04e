// LRN through the public C API against a reference written here in plain loops (double):
// seeded random shapes and layouts, both modes, odd and even window sizes, forward and backward
// (through the saved scales), fp32 and fp16.
#include "common/layer_test_helpers.hpp"

#include <algorithm>
#include <cmath>
#include <memory>
#include <random>
#include <string>
#include <vector>

namespace {

using test::HostTensor;

class LrnDesc
{
public:
    LrnDesc() { EXPECT_MIOPEN_OK(miopenCreateLRNDescriptor(&_d)); }
    ~LrnDesc() { miopenDestroyLRNDescriptor(_d); }
    LrnDesc(const LrnDesc&) = delete;
    LrnDesc& operator=(const LrnDesc&) = delete;
    operator miopenLRNDescriptor_t() const { return _d; }

private:
    miopenLRNDescriptor_t _d = nullptr;
};

struct Params
{
    miopenLRNMode_t mode;
    unsigned n;
    double alpha, beta, k;
};

std::vector<int> stridesFor(const std::vector<int>& lens, int layoutKind)
{
    auto s = test::packedStrides(lens, layoutKind == 1);
    if(layoutKind == 2)
    {
        s[1] += 4;
        s[0] = s[1] * lens[1] + 1;
    }
    return s;
}

// The window of position i along a dimension of length len: [i - lo, i + hi] clipped.
template <class F>
void forWindow(int i, int lo, int hi, int len, F&& f)
{
    for(int j = std::max(0, i - lo); j <= std::min(len - 1, i + hi); ++j)
        f(j);
}

void runLrn(const Params& p, miopenDataType_t type, const std::vector<int>& lens, int layout, std::mt19937& rng)
{
    SCOPED_TRACE(std::string("mode ") + std::to_string(p.mode) + " N " + std::to_string(p.n) + " alpha " +
                 std::to_string(p.alpha) + " beta " + std::to_string(p.beta) + " K " + std::to_string(p.k) + " " +
                 test::typeName(type) + " lens " + test::lensString(lens) + " layout " + std::to_string(layout));
    test::Handle h;
    LrnDesc d;
    ASSERT_MIOPEN_OK(miopenSetLRNDescriptor(d, p.mode, p.n, p.alpha, p.beta, p.k));
    const auto strides = stridesFor(lens, layout);
    auto x             = std::make_unique<HostTensor>(type, lens, strides);
    auto y             = std::make_unique<HostTensor>(type, lens, strides);
    x->fill(rng, -2.0f, 2.0f);
    y->fill(rng);
    size_t wsSize = 0;
    ASSERT_MIOPEN_OK(miopenLRNGetWorkSpaceSize(y->desc(), &wsSize));
    ASSERT_GE(wsSize, y->count() * sizeof(float));
    test::GuardedBuffer ws(wsSize);
    const float one = 1.0f, zero = 0.0f;
    ASSERT_MIOPEN_OK(miopenLRNForward(h, d, &one, x->desc(), x->data(), &zero, y->desc(), y->data(), true, ws.data()));
    EXPECT_TRUE(y->buffer().guardsIntact() && ws.guardsIntact());

    const int N = lens[0], C = lens[1], H = lens[2], W = lens[3];
    const int rl = static_cast<int>((p.n - 1) / 2), ru = static_cast<int>(p.n / 2);
    const bool cross  = p.mode == miopenLRNCrossChannel;
    const double area = cross ? p.n : double(p.n) * p.n;
    std::vector<double> scale(x->count());
    auto at = [&](int n, int c, int hh, int w) { return static_cast<std::size_t>(((n * C + c) * H + hh) * W + w); };
    const double tol = test::tolerance(type);
    int bad          = 0;
    for(int n = 0; n < N; ++n)
        for(int c = 0; c < C; ++c)
            for(int hh = 0; hh < H; ++hh)
                for(int w = 0; w < W; ++w)
                {
                    double sum = 0;
                    if(cross)
                        forWindow(c, rl, ru, C, [&](int k) { sum += std::pow(x->at({n, k, hh, w}), 2); });
                    else
                        forWindow(hh, rl, ru, H, [&](int i) {
                            forWindow(w, rl, ru, W, [&](int j) { sum += std::pow(x->at({n, c, i, j}), 2); });
                        });
                    scale[at(n, c, hh, w)] = p.k + p.alpha / area * sum;
                    const double want      = x->at({n, c, hh, w}) * std::pow(scale[at(n, c, hh, w)], -p.beta);
                    const double got       = y->at({n, c, hh, w});
                    if(bad < 5 && !test::near(got, want, tol))
                    {
                        ++bad;
                        ADD_FAILURE() << "y(" << n << "," << c << "," << hh << "," << w << ") = " << got
                                      << ", reference " << want;
                    }
                }

    auto dy = std::make_unique<HostTensor>(type, lens, strides);
    auto dx = std::make_unique<HostTensor>(type, lens, strides);
    dy->fill(rng);
    dx->fill(rng, 50.0f, 60.0f);
    ASSERT_MIOPEN_OK(miopenLRNBackward(h, d, &one, y->desc(), y->data(), dy->desc(), dy->data(), x->desc(), x->data(),
                                       &zero, dx->desc(), dx->data(), ws.data()));
    EXPECT_TRUE(dx->buffer().guardsIntact());
    const double ratio = 2.0 * p.alpha * p.beta / area;
    auto term          = [&](int n, int c, int i, int j) {
        return y->at({n, c, i, j}) * dy->at({n, c, i, j}) / scale[at(n, c, i, j)];
    };
    for(int n = 0; n < N; ++n)
        for(int c = 0; c < C; ++c)
            for(int hh = 0; hh < H; ++hh)
                for(int w = 0; w < W; ++w)
                {
                    double sum = 0; // the transposed window
                    if(cross)
                        forWindow(c, ru, rl, C, [&](int k) { sum += term(n, k, hh, w); });
                    else
                        forWindow(hh, ru, rl, H, [&](int i) {
                            forWindow(w, ru, rl, W, [&](int j) { sum += term(n, c, i, j); });
                        });
                    const double want = std::pow(scale[at(n, c, hh, w)], -p.beta) * dy->at({n, c, hh, w}) -
                                        ratio * x->at({n, c, hh, w}) * sum;
                    const double got = dx->at({n, c, hh, w});
                    if(bad < 10 && !test::near(got, want, 2 * tol))
                    {
                        ++bad;
                        ADD_FAILURE() << "dx(" << n << "," << c << "," << hh << "," << w << ") = " << got
                                      << ", reference " << want;
                    }
                }
}

class LrnRandom : public ::testing::TestWithParam<std::tuple<int, miopenDataType_t>>
{
};

TEST_P(LrnRandom, ForwardAndBackwardMatchReference)
{
    const auto [seed, type] = GetParam();
    std::mt19937 rng(static_cast<unsigned>(300 + seed * 31 + static_cast<int>(type)));
    auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
    const double alphas[] = {1e-1, 1.0, 2.0};
    const double betas[]  = {0.75, 0.5, 1.0};
    for(int mode = 0; mode < 2; ++mode)
    {
        Params p;
        p.mode  = static_cast<miopenLRNMode_t>(mode);
        p.n     = static_cast<unsigned>(1 + (seed + mode) % 5); // odd and even windows
        p.alpha = alphas[(seed + mode) % 3];
        p.beta  = betas[seed % 3];
        p.k     = seed % 2 == 0 ? 1.0 : 2.0;
        const std::vector<int> lens{pick(1, 2), pick(1, 8), pick(1, 7), pick(1, 7)};
        runLrn(p, type, lens, (seed + mode) % 3, rng);
        if(HasFailure())
            return;
    }
}

INSTANTIATE_TEST_SUITE_P(Seeds,
                         LrnRandom,
                         ::testing::Combine(::testing::Range(0, 10), ::testing::Values(miopenFloat, miopenHalf)),
                         [](const auto& pi) {
                             return "seed" + std::to_string(std::get<0>(pi.param)) + "_" +
                                    test::typeName(std::get<1>(pi.param));
                         });

TEST(LrnDescriptor, SetGetRoundTrip)
{
    LrnDesc d;
    ASSERT_MIOPEN_OK(miopenSetLRNDescriptor(d, miopenLRNWithinChannel, 5, 1e-4, 0.75, 2.0));
    miopenLRNMode_t m;
    unsigned n;
    double a, b, k;
    ASSERT_MIOPEN_OK(miopenGetLRNDescriptor(d, &m, &n, &a, &b, &k));
    EXPECT_EQ(m, miopenLRNWithinChannel);
    EXPECT_EQ(n, 5u);
    EXPECT_EQ(a, 1e-4);
    EXPECT_EQ(b, 0.75);
    EXPECT_EQ(k, 2.0);
}

TEST(LrnWorkspace, UpstreamFormulaAndFloor)
{
    size_t s = 0;
    test::Tensor packed(miopenHalf, {2, 3, 4, 5}, {});
    ASSERT_MIOPEN_OK(miopenLRNGetWorkSpaceSize(packed, &s));
    EXPECT_EQ(s, 2u * 60u * sizeof(float)) << "lengths[0] * strides[0] floats, as upstream";
    test::Tensor gapped(miopenFloat, {2, 3, 4, 5}, {100, 20, 5, 1});
    ASSERT_MIOPEN_OK(miopenLRNGetWorkSpaceSize(gapped, &s));
    EXPECT_EQ(s, 200u * sizeof(float));
}

// A known value: cross-channel N = 3 over channels (1, 2, 3) at one position, alpha 3, beta 1,
// K 1: the middle channel's scale is 1 + 3/3 * (1 + 4 + 9) = 15, so y = 2 / 15.
TEST(LrnKnownValue, CrossChannelMiddle)
{
    test::Handle h;
    LrnDesc d;
    ASSERT_MIOPEN_OK(miopenSetLRNDescriptor(d, miopenLRNCrossChannel, 3, 3.0, 1.0, 1.0));
    test::Tensor t(miopenFloat, {1, 3, 1, 1}, {});
    std::vector<float> x{1, 2, 3}, y(3, 0.0f);
    ASSERT_MIOPEN_OK(miopenLRNForward(h, d, nullptr, t, x.data(), nullptr, t, y.data(), false, nullptr));
    EXPECT_FLOAT_EQ(y[1], 2.0f / 15.0f);
    EXPECT_FLOAT_EQ(y[0], 1.0f / (1.0f + 5.0f)); // channels 0 and 1: 1 + (1 + 4)
}

} // namespace

namespace {

// Large enough that the library splits the planes over its threads.
TEST(LrnLarge, ParallelPlanesMatchReference)
{
    std::mt19937 rng(97);
    runLrn({miopenLRNCrossChannel, 5, 1e-1, 0.75, 2.0}, miopenFloat, {2, 16, 32, 32}, 1, rng);
    runLrn({miopenLRNWithinChannel, 3, 1.0, 0.75, 1.0}, miopenHalf, {2, 16, 32, 32}, 0, rng);
}

} // namespace
