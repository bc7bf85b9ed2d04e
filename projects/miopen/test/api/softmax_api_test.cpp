// Softmax through the public C API against a reference written here in plain loops (double):
// seeded random shapes (rank 2 to 5, channels-first and channels-last), every algorithm x mode,
// forward and backward, alpha/beta, fp32/fp16/bf16.
#include "common/forwarding_route.hpp"
#include "common/layer_test_helpers.hpp"

#include <algorithm>
#include <cmath>
#include <memory>
#include <random>
#include <string>
#include <vector>

namespace {

using test::HostTensor;

// Groups of packed element indices: INSTANCE one group per n (C and spatial), CHANNEL one group
// per (n, spatial position) over C.
std::vector<std::vector<std::size_t>> groups(const std::vector<int>& lens, miopenSoftmaxMode_t mode)
{
    const std::size_t n = static_cast<std::size_t>(lens[0]), c = static_cast<std::size_t>(lens[1]);
    std::size_t s = 1;
    for(std::size_t i = 2; i < lens.size(); ++i)
        s *= static_cast<std::size_t>(lens[i]);
    std::vector<std::vector<std::size_t>> out;
    if(mode == MIOPEN_SOFTMAX_MODE_INSTANCE)
    {
        for(std::size_t in = 0; in < n; ++in)
        {
            std::vector<std::size_t> g;
            for(std::size_t j = 0; j < c * s; ++j)
                g.push_back(in * c * s + j);
            out.push_back(g);
        }
    }
    else
    {
        for(std::size_t in = 0; in < n; ++in)
            for(std::size_t is = 0; is < s; ++is)
            {
                std::vector<std::size_t> g;
                for(std::size_t ic = 0; ic < c; ++ic)
                    g.push_back((in * c + ic) * s + is);
                out.push_back(g);
            }
    }
    return out;
}

std::vector<int> stridesFor(const std::vector<int>& lens, int layoutKind)
{
    auto s = test::packedStrides(lens, layoutKind == 1);
    if(layoutKind == 2) // channels first with gaps between channels and images
    {
        s[1] += 2;
        s[0] = s[1] * lens[1] + 3;
    }
    return s;
}

struct Case
{
    miopenSoftmaxAlgorithm_t algo;
    miopenSoftmaxMode_t mode;
    miopenDataType_t type;
    std::vector<int> lens;
    int layout;
    float alpha, beta;

    std::string str() const
    {
        return "algo " + std::to_string(algo) + " mode " + std::to_string(mode) + " " + test::typeName(type) +
               " lens " + test::lensString(lens) + " layout " + std::to_string(layout) + " alpha " +
               std::to_string(alpha) + " beta " + std::to_string(beta);
    }
};

void runSoftmax(const Case& c, std::mt19937& rng)
{
    SCOPED_TRACE(c.str());
    test::Handle h;
    const auto strides = stridesFor(c.lens, c.layout);
    auto x             = std::make_unique<HostTensor>(c.type, c.lens, strides);
    auto y             = std::make_unique<HostTensor>(c.type, c.lens, strides);
    x->fill(rng, -3.0f, 3.0f);
    y->fill(rng);
    const std::size_t count = x->count();
    std::vector<double> yOld(count), want(count);
    for(std::size_t i = 0; i < count; ++i)
        yOld[i] = y->at(y->index(i));

    for(const auto& g : groups(c.lens, c.mode))
    {
        double mx = -INFINITY, sum = 0;
        for(auto i : g)
            mx = std::max(mx, x->at(x->index(i)));
        for(auto i : g)
            sum += std::exp(x->at(x->index(i)) - mx);
        for(auto i : g)
        {
            const double v = x->at(x->index(i));
            const double r = c.algo == MIOPEN_SOFTMAX_LOG ? v - mx - std::log(sum) : std::exp(v - mx) / sum;
            want[i]        = c.alpha * r + c.beta * yOld[i];
        }
    }
    // The route the wrapper must take: alpha = 1 and beta = 0 only, dense tensors only (the gaps of
    // layout 2 sit between channels and images: none when N = C = 1).
    const bool gaps   = c.layout == 2 && (c.lens[0] > 1 || c.lens[1] > 1);
    const auto expect = c.alpha != 1.0f || c.beta != 0.0f ? test::route::Expected::declined("alpha!=1-or-beta!=0")
                        : gaps                            ? test::route::Expected::declined("layout")
                                                          : test::route::Expected::forwarded();
    const test::route::Probe fwdProbe;
    ASSERT_MIOPEN_OK(miopenSoftmaxForward_V2(h, &c.alpha, x->desc(), x->data(), &c.beta, y->desc(), y->data(), c.algo,
                                             c.mode));
    EXPECT_TRUE(fwdProbe.check("miopenSoftmaxForward_V2", expect));
    EXPECT_TRUE(y->buffer().guardsIntact());
    const double tol = test::tolerance(c.type);
    int bad          = 0;
    for(std::size_t i = 0; i < count && bad < 5; ++i)
        if(!test::near(y->at(y->index(i)), want[i], tol))
        {
            ++bad;
            ADD_FAILURE() << "y[" << i << "] = " << y->at(y->index(i)) << ", reference " << want[i];
        }

    // Backward from a y of the algorithm's kind (probabilities, or log-probabilities for LOG).
    auto yb = std::make_unique<HostTensor>(c.type, c.lens, strides);
    auto dy = std::make_unique<HostTensor>(c.type, c.lens, strides);
    auto dx = std::make_unique<HostTensor>(c.type, c.lens, strides);
    if(c.algo == MIOPEN_SOFTMAX_LOG)
        yb->fill(rng, -4.0f, -0.1f);
    else
        yb->fill(rng, 0.0f, 1.0f);
    dy->fill(rng);
    dx->fill(rng);
    std::vector<double> dxOld(count), dwant(count);
    for(std::size_t i = 0; i < count; ++i)
        dxOld[i] = dx->at(dx->index(i));
    for(const auto& g : groups(c.lens, c.mode))
    {
        double dot = 0;
        for(auto i : g)
            dot += c.algo == MIOPEN_SOFTMAX_LOG ? dy->at(dy->index(i)) : yb->at(yb->index(i)) * dy->at(dy->index(i));
        for(auto i : g)
        {
            const double yv = yb->at(yb->index(i)), dyv = dy->at(dy->index(i));
            const double gr = c.algo == MIOPEN_SOFTMAX_LOG ? dyv - std::exp(yv) * dot : yv * (dyv - dot);
            dwant[i]        = c.alpha * gr + c.beta * dxOld[i];
        }
    }
    const test::route::Probe bwdProbe;
    ASSERT_MIOPEN_OK(miopenSoftmaxBackward_V2(h, &c.alpha, yb->desc(), yb->data(), dy->desc(), dy->data(), &c.beta,
                                              dx->desc(), dx->data(), c.algo, c.mode));
    EXPECT_TRUE(bwdProbe.check("miopenSoftmaxBackward_V2", expect));
    EXPECT_TRUE(dx->buffer().guardsIntact());
    for(std::size_t i = 0; i < count && bad < 10; ++i)
        if(!test::near(dx->at(dx->index(i)), dwant[i], 2 * tol))
        {
            ++bad;
            ADD_FAILURE() << "dx[" << i << "] = " << dx->at(dx->index(i)) << ", reference " << dwant[i];
        }
}

class SoftmaxRandom : public ::testing::TestWithParam<std::tuple<int, miopenDataType_t>>
{
};

TEST_P(SoftmaxRandom, EveryAlgorithmAndModeMatchesReference)
{
    const auto [seed, type] = GetParam();
    std::mt19937 rng(static_cast<unsigned>(500 + seed * 13 + static_cast<int>(type)));
    auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
    const float alphas[] = {1.0f, 0.75f, 1.0f, 2.0f};
    const float betas[]  = {0.0f, 0.0f, 0.5f, -1.0f};
    for(int algo = 0; algo < 3; ++algo)
        for(int mode = 0; mode < 2; ++mode)
        {
            Case c;
            c.algo = static_cast<miopenSoftmaxAlgorithm_t>(algo);
            c.mode = static_cast<miopenSoftmaxMode_t>(mode);
            c.type = type;
            const int rank = 2 + (seed + algo) % 4; // 2..5
            c.lens         = {pick(1, 3), pick(1, 9)};
            for(int d = 2; d < rank; ++d)
                c.lens.push_back(pick(1, rank == 5 ? 3 : 5));
            c.layout = rank >= 3 ? (seed + mode) % 3 : 0;
            c.alpha  = alphas[(seed + algo + mode) % 4];
            c.beta   = betas[(seed + 2 * algo + mode) % 4];
            runSoftmax(c, rng);
            if(HasFailure())
                return;
        }
}

INSTANTIATE_TEST_SUITE_P(Seeds,
                         SoftmaxRandom,
                         ::testing::Combine(::testing::Range(0, 8),
                                            ::testing::Values(miopenFloat, miopenHalf, miopenBFloat16)),
                         [](const auto& pi) {
                             return "seed" + std::to_string(std::get<0>(pi.param)) + "_" +
                                    test::typeName(std::get<1>(pi.param));
                         });

// The V1 calls are ACCURATE and CHANNEL; the result differs from INSTANCE.
TEST(SoftmaxDefaults, V1IsAccurateChannel)
{
    test::Handle h;
    std::mt19937 rng(7);
    HostTensor x(miopenFloat, {2, 5, 3, 2}, {});
    HostTensor y1(miopenFloat, {2, 5, 3, 2}, {}), y2(miopenFloat, {2, 5, 3, 2}, {}), y3(miopenFloat, {2, 5, 3, 2}, {});
    x.fill(rng);
    const float one = 1.0f, zero = 0.0f;
    ASSERT_MIOPEN_OK(miopenSoftmaxForward(h, &one, x.desc(), x.data(), &zero, y1.desc(), y1.data()));
    ASSERT_MIOPEN_OK(miopenSoftmaxForward_V2(h, &one, x.desc(), x.data(), &zero, y2.desc(), y2.data(),
                                             MIOPEN_SOFTMAX_ACCURATE, MIOPEN_SOFTMAX_MODE_CHANNEL));
    ASSERT_MIOPEN_OK(miopenSoftmaxForward_V2(h, &one, x.desc(), x.data(), &zero, y3.desc(), y3.data(),
                                             MIOPEN_SOFTMAX_ACCURATE, MIOPEN_SOFTMAX_MODE_INSTANCE));
    EXPECT_EQ(y1.buffer().snapshot(), y2.buffer().snapshot());
    EXPECT_NE(y1.buffer().snapshot(), y3.buffer().snapshot());

    HostTensor dy(miopenFloat, {2, 5, 3, 2}, {}), dx1(miopenFloat, {2, 5, 3, 2}, {}), dx2(miopenFloat, {2, 5, 3, 2}, {});
    dy.fill(rng);
    ASSERT_MIOPEN_OK(miopenSoftmaxBackward(h, &one, y1.desc(), y1.data(), dy.desc(), dy.data(), &zero, dx1.desc(), dx1.data()));
    ASSERT_MIOPEN_OK(miopenSoftmaxBackward_V2(h, &one, y1.desc(), y1.data(), dy.desc(), dy.data(), &zero, dx2.desc(),
                                              dx2.data(), MIOPEN_SOFTMAX_ACCURATE, MIOPEN_SOFTMAX_MODE_CHANNEL));
    EXPECT_EQ(dx1.buffer().snapshot(), dx2.buffer().snapshot());
}

// In place (y == x) gives the out-of-place result; beta == 0 never reads y (NaN stays out).
TEST(SoftmaxInPlace, SameResultAndBetaZeroIgnoresOutput)
{
    test::Handle h;
    std::mt19937 rng(11);
    HostTensor x(miopenFloat, {3, 4, 2, 3}, {}), y(miopenFloat, {3, 4, 2, 3}, {});
    x.fill(rng);
    for(std::size_t i = 0; i < y.count(); ++i)
        y.set(i, NAN);
    const float one = 1.0f, zero = 0.0f;
    ASSERT_MIOPEN_OK(miopenSoftmaxForward_V2(h, &one, x.desc(), x.data(), &zero, y.desc(), y.data(),
                                             MIOPEN_SOFTMAX_LOG, MIOPEN_SOFTMAX_MODE_INSTANCE));
    for(std::size_t i = 0; i < y.count(); ++i)
        ASSERT_FALSE(std::isnan(y.at(i))) << i;
    const test::route::Probe probe;
    ASSERT_MIOPEN_OK(miopenSoftmaxForward_V2(h, &one, x.desc(), x.data(), &zero, x.desc(), x.data(),
                                             MIOPEN_SOFTMAX_LOG, MIOPEN_SOFTMAX_MODE_INSTANCE));
    // In place is declined (the composite reads x after writing y may have begun): the first call
    // was forwarded, so with forwarding on the two routes agree within the tolerance only.
    EXPECT_TRUE(probe.check("miopenSoftmaxForward_V2", test::route::Expected::declined("in-place")));
    if(!test::route::forwardingEnabled())
    {
        EXPECT_EQ(x.buffer().snapshot(), y.buffer().snapshot());
    }
    for(std::size_t i = 0; i < y.count(); ++i)
        EXPECT_TRUE(test::near(x.at(i), y.at(i), test::tolerance(miopenFloat))) << i;
}

} // namespace

namespace {

// Large enough that the library splits the groups over its threads.
TEST(SoftmaxLarge, ParallelGroupsMatchReference)
{
    std::mt19937 rng(98);
    runSoftmax({MIOPEN_SOFTMAX_ACCURATE, MIOPEN_SOFTMAX_MODE_CHANNEL, miopenFloat, {4, 16, 32, 32}, 1, 1.0f, 0.0f}, rng);
    runSoftmax({MIOPEN_SOFTMAX_LOG, MIOPEN_SOFTMAX_MODE_INSTANCE, miopenBFloat16, {8, 16, 16, 16}, 0, 1.0f, 0.5f}, rng);
}

} // namespace
