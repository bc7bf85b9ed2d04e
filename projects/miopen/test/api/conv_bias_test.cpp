// miopenConvolutionForwardBias on seeded random shapes, in every data type (fp32, fp16, bf16) and
// layout class the implementation distinguishes (packed NCHW / NCDHW: contiguous spatial rows;
// NHWC: contiguous channel rows; padded strides: neither), with beta = 0 (y is not read: it
// starts as NaN) and beta != 0, against a plain index-by-index reference computed in double from
// exact element loads. Elements between the strided ones and bytes around the buffer must stay
// untouched.
#include "api/act_bn_test_util.hpp"
#include "common/api_helpers.hpp"

#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <vector>

namespace {

enum class LayoutKind
{
    Packed,
    ChannelsLast,
    Padded,
};

struct Param
{
    miopenDataType_t type;
    LayoutKind layout;
    int rank; // 4 or 5
    int seed;
};

std::string paramName(const ::testing::TestParamInfo<Param>& info)
{
    const Param& p = info.param;
    std::string s  = p.type == miopenFloat ? "fp32" : p.type == miopenHalf ? "fp16" : "bf16";
    s += p.layout == LayoutKind::Packed ? "_packed" : p.layout == LayoutKind::ChannelsLast ? "_nhwc" : "_padded";
    return s + "_" + std::to_string(p.rank) + "d_seed" + std::to_string(p.seed);
}

// A quiet NaN of type t at element i.
void storeNaN(miopenDataType_t t, void* p, std::size_t i)
{
    switch(t)
    {
    case miopenFloat: static_cast<float*>(p)[i] = std::numeric_limits<float>::quiet_NaN(); break;
    case miopenHalf: static_cast<std::uint16_t*>(p)[i] = 0x7e00; break;
    default: static_cast<std::uint16_t*>(p)[i] = 0x7fc0; break;
    }
}

class ConvForwardBias : public ::testing::TestWithParam<Param>
{
};

TEST_P(ConvForwardBias, RandomShapeAgainstReference)
{
    const Param prm = GetParam();
    std::mt19937 rng(static_cast<unsigned>(prm.seed));
    std::uniform_int_distribution<int> len(1, 9);
    std::vector<int> lens{len(rng), len(rng) + 1};
    for(int i = 2; i < prm.rank; ++i)
        lens.push_back(len(rng) + 2);
    const test::Layout l = prm.layout == LayoutKind::Packed       ? test::makeLayout(lens, 0)
                           : prm.layout == LayoutKind::ChannelsLast ? test::channelsLast(lens)
                                                                    : test::makeLayout(lens, 3);
    const std::size_t ts = test::typeSize(prm.type);
    const std::size_t k  = static_cast<std::size_t>(lens[1]);
    std::size_t count    = 1;
    for(int v : lens)
        count *= static_cast<std::size_t>(v);

    test::Tensor yd(prm.type, l.lens, l.strides);
    // The bias as 1 x K x 1 ... (seed even) or as a 1-D K tensor (seed odd).
    std::vector<int> blens(lens.size(), 1);
    blens[1] = lens[1];
    test::Tensor bd(prm.type, prm.seed % 2 == 0 ? blens : std::vector<int>{lens[1]}, {});
    std::vector<unsigned char> bias(k * ts);
    test::fillRandom(prm.type, bias.data(), k, rng);

    for(const float beta : {0.0f, 0.75f})
    {
        const float alpha = 1.5f;
        test::GuardedBuffer y(l.span() * ts);
        test::fillRandom(prm.type, y.data(), l.span(), rng);
        if(beta == 0.0f) // beta == 0: y must not be read
            for(std::size_t i = 0; i < count; ++i)
                storeNaN(prm.type, y.data(), l.offset(i));
        const auto before = y.snapshot();
        ASSERT_MIOPEN_OK(miopenConvolutionForwardBias(test::Handle(), &alpha, bd, bias.data(), &beta, yd, y.data()));
        EXPECT_TRUE(y.guardsIntact());
        const auto after = y.snapshot();
        // Every addressed element against the reference; the others unchanged.
        std::vector<bool> addressed(l.span(), false);
        const double tol = prm.type == miopenFloat ? 1e-6 : prm.type == miopenHalf ? 2e-3 : 1e-2;
        std::size_t bad  = 0;
        for(std::size_t i = 0; i < count; ++i)
        {
            const std::size_t off = l.offset(i);
            addressed[off]        = true;
            std::size_t rem = i;
            for(std::size_t d = lens.size(); d-- > 2;)
                rem /= static_cast<std::size_t>(lens[d]);
            const std::size_t c = rem % k;
            const double prev   = beta == 0.0f ? 0.0 : static_cast<double>(test::load(prm.type, before.data(), off));
            const double ref    = alpha * static_cast<double>(test::load(prm.type, bias.data(), c)) + beta * prev;
            const double got    = test::load(prm.type, after.data(), off);
            if(!(std::fabs(got - ref) <= tol * std::max(1.0, std::fabs(ref))) && bad++ < 5)
                ADD_FAILURE() << "element " << i << " (offset " << off << "): " << got << ", expected " << ref
                              << " (beta " << beta << ")";
        }
        EXPECT_EQ(bad, 0u);
        for(std::size_t off = 0; off < l.span(); ++off)
        {
            if(addressed[off])
                continue;
            for(std::size_t byte = 0; byte < ts; ++byte)
            {
                ASSERT_EQ(before[off * ts + byte], after[off * ts + byte]) << "unaddressed element " << off;
            }
        }
    }
}

std::vector<Param> params()
{
    std::vector<Param> out;
    int seed = 1;
    for(const auto t : {miopenFloat, miopenHalf, miopenBFloat16})
        for(const auto l : {LayoutKind::Packed, LayoutKind::ChannelsLast, LayoutKind::Padded})
            for(const int rank : {4, 5})
                for(int rep = 0; rep < 2; ++rep)
                    out.push_back({t, l, rank, seed++});
    return out;
}

INSTANTIATE_TEST_SUITE_P(Random, ConvForwardBias, ::testing::ValuesIn(params()), paramName);

} // namespace
