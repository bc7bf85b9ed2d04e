// The find-db line format: strict parsing, exact formatting, upstream compatibility.
#include "unit/find_db_fixture.hpp"

#include <miopen/errors.hpp>

#include <cfloat>
#include <limits>
#include <random>

namespace find_db_test {
namespace {

using miopen::conv::formatFindDbLine;
using miopen::conv::parseFindDbLine;

TEST(FindDbFormat, ParsesUpstreamRecord)
{
    // A real upstream line (gfx90a68 user find-db).
    const auto r = parseFindDbLine(
        "1-1-1-1-1x4x4-512-1-4-4-128-0x0x0-1x1x1-1x1x1-0-NCDHW-FP32-B=ConvDirectNaiveConvBwd:0."
        "771373,0,miopenConvolutionBwdDataAlgoDirect;GemmBwdRest:3.19093,32768,"
        "miopenConvolutionBwdDataAlgoGEMM");
    ASSERT_TRUE(r);
    EXPECT_EQ(r->key, "1-1-1-1-1x4x4-512-1-4-4-128-0x0x0-1x1x1-1x1x1-0-NCDHW-FP32-B");
    ASSERT_EQ(r->entries.size(), 2u);
    EXPECT_EQ(r->entries[0],
              entry("ConvDirectNaiveConvBwd", 0.771373f, 0, "miopenConvolutionBwdDataAlgoDirect"));
    EXPECT_EQ(r->entries[1],
              entry("GemmBwdRest", 3.19093f, 32768, "miopenConvolutionBwdDataAlgoGEMM"));
}

TEST(FindDbFormat, FormatsExactlyUpstreamShape)
{
    EXPECT_EQ(formatFindDbLine("576-4-4-1x1-192-4-4-8-1x1-2x2-3x3-0-NCHW-FP32-F",
                               {entry("GemmFwd1x1_0_1", 0.77f, 0)}),
              "576-4-4-1x1-192-4-4-8-1x1-2x2-3x3-0-NCHW-FP32-F=GemmFwd1x1_0_1:0.77,0,"
              "miopenConvolutionFwdAlgoGEMM");
    EXPECT_EQ(formatFindDbLine("k",
                               {entry("A", 1.5f, 7),
                                entry("B", 0.0f, 18446744073709551615u,
                                      "miopenTransposeBwdDataAlgoGEMM")}),
              "k=A:1.5,7,miopenConvolutionFwdAlgoGEMM;B:0,18446744073709551615,"
              "miopenTransposeBwdDataAlgoGEMM");
}

TEST(FindDbFormat, TimesRoundTripBitExactly)
{
    std::mt19937 rng(12345);
    std::uniform_real_distribution<float> dist(0.0f, 10000.0f);
    std::vector<float> times = {0.0f,
                                std::numeric_limits<float>::denorm_min(),
                                FLT_MIN,
                                FLT_MAX,
                                1e-7f,
                                0.1f,
                                1.0f / 3.0f,
                                123456792.0f,
                                3.4028e38f};
    for(int i = 0; i < 2000; ++i)
        times.push_back(dist(rng));
    for(const float t : times)
    {
        const std::string line = formatFindDbLine("k-1", {entry("S", t, 42)});
        const auto r           = parseFindDbLine(line);
        ASSERT_TRUE(r) << line;
        ASSERT_EQ(r->entries.size(), 1u);
        EXPECT_EQ(r->entries[0].timeMs, t) << line; // exact, not approximately
    }
}

TEST(FindDbFormat, WorkspaceRoundTripsFullRange)
{
    for(const std::size_t ws : {std::size_t{0}, std::size_t{1}, std::size_t{4096},
                                std::numeric_limits<std::size_t>::max()})
    {
        const auto r = parseFindDbLine(formatFindDbLine("k", {entry("S", 1.0f, ws)}));
        ASSERT_TRUE(r);
        EXPECT_EQ(r->entries[0].workspace, ws);
    }
}

TEST(FindDbFormat, AcceptsUpstreamNumberSpellings)
{
    for(const char* line : {"k=S:1e-05,0,miopenConvolutionFwdAlgoGEMM",
                            "k=S:3,0,miopenConvolutionFwdAlgoGEMM",
                            "k=S:.5,0,miopenConvolutionFwdAlgoGEMM",
                            "k=S:2.5E+3,0,miopenConvolutionFwdAlgoGEMM",
                            "k=S:0.5,007,miopenConvolutionFwdAlgoGEMM",
                            "k=S:0.5,0,miopenConvolutionFwdAlgoGEMM\r"})
        EXPECT_TRUE(parseFindDbLine(line)) << line;
    EXPECT_EQ(parseFindDbLine("k=S:2.5E+3,0,miopenConvolutionFwdAlgoGEMM")->entries[0].timeMs,
              2500.0f);
}

TEST(FindDbFormat, RejectsMalformedLines)
{
    const char* bad[] = {
        "",
        "no equals sign",
        "=S:1,0,miopenConvolutionFwdAlgoGEMM",                  // empty key
        "k=",                                                   // no entries
        "k=S:1,0,miopenConvolutionFwdAlgoGEMM;",                // empty trailing entry
        "k=;S:1,0,miopenConvolutionFwdAlgoGEMM",                // empty leading entry
        "k=S1,0,miopenConvolutionFwdAlgoGEMM",                  // no colon
        "k=:1,0,miopenConvolutionFwdAlgoGEMM",                  // empty solver
        "k=S:1,0",                                              // missing algorithm
        "k=S:1,0,miopenConvolutionFwdAlgoGEMM,extra",           // four fields
        "k=S:,0,miopenConvolutionFwdAlgoGEMM",                  // empty time
        "k=S:abc,0,miopenConvolutionFwdAlgoGEMM",               // non-numeric time
        "k=S:1.5ms,0,miopenConvolutionFwdAlgoGEMM",             // trailing junk
        "k=S:-1,0,miopenConvolutionFwdAlgoGEMM",                // negative time
        "k=S:-0,0,miopenConvolutionFwdAlgoGEMM",                // signed zero
        "k=S:+1,0,miopenConvolutionFwdAlgoGEMM",                // explicit sign
        "k=S: 1,0,miopenConvolutionFwdAlgoGEMM",                // whitespace
        "k=S:nan,0,miopenConvolutionFwdAlgoGEMM",               // not a number
        "k=S:inf,0,miopenConvolutionFwdAlgoGEMM",               // infinite
        "k=S:1e99,0,miopenConvolutionFwdAlgoGEMM",              // out of float range
        "k=S:1,-5,miopenConvolutionFwdAlgoGEMM",                // negative size
        "k=S:1,+5,miopenConvolutionFwdAlgoGEMM",                // signed size
        "k=S:1,5.0,miopenConvolutionFwdAlgoGEMM",               // fractional size
        "k=S:1,,miopenConvolutionFwdAlgoGEMM",                  // empty size
        "k=S:1,18446744073709551616,miopenConvolutionFwdAlgoGEMM", // size overflow
        "k=S:1,0,miopenConvolutionFwdAlgoGEM",                  // truncated algorithm
        "k=S:1,0,miopenConvolutionFwdAlgoBogus",                // unknown algorithm
        "k=S:1,0,",                                             // empty algorithm
        "k=S-x:1,0,miopenConvolutionFwdAlgoGEMM",               // bad solver character
        "k k=S:1,0,miopenConvolutionFwdAlgoGEMM",               // space in key
        "k=S:1,0,miopenConvolutionFwdAlgoGEMM=",                // second '='
        "k=S:1,0,miopenConvolutionFwdAlgoGEMM;S:2,0,miopenConvolutionFwdAlgoGEMM", // dup solver
        "k=S:1,0,miopenConvolutionFwdAlgoGEMM\r\r",             // junk after CR
    };
    for(const char* line : bad)
        EXPECT_FALSE(parseFindDbLine(line)) << '"' << line << '"';

    const std::string withNul("k=S:1,0,miopenConvolutionFwdAlgoGEMM\0x", 38);
    EXPECT_FALSE(parseFindDbLine(withNul));
    EXPECT_FALSE(parseFindDbLine("\xff\xfe=S:1,0,miopenConvolutionFwdAlgoGEMM"));
}

TEST(FindDbFormat, ConvertsLegacyEntries)
{
    const auto r = parseFindDbLine(
        "k-F=miopenConvolutionFwdAlgoDirect:ConvOclDirectFwd1x1,0.0368,0,"
        "miopenConvolutionFwdAlgoDirect,<unused>;miopenConvolutionFwdAlgoGEMM:gemm,1.25,"
        "1024,miopenConvolutionFwdAlgoGEMM,cfg3x3x16");
    ASSERT_TRUE(r);
    ASSERT_EQ(r->entries.size(), 2u);
    EXPECT_EQ(r->entries[0],
              entry("ConvOclDirectFwd1x1", 0.0368f, 0, "miopenConvolutionFwdAlgoDirect"));
    EXPECT_EQ(r->entries[1], entry("gemm", 1.25f, 1024, "miopenConvolutionFwdAlgoGEMM"));
    // Written back in the current form.
    EXPECT_EQ(formatFindDbLine(r->key, r->entries),
              "k-F=ConvOclDirectFwd1x1:0.0368,0,miopenConvolutionFwdAlgoDirect;gemm:1.25,1024,"
              "miopenConvolutionFwdAlgoGEMM");

    // The two algorithm names of a legacy entry must agree; the tag must be present.
    EXPECT_FALSE(parseFindDbLine("k=miopenConvolutionFwdAlgoDirect:S,1,0,"
                                 "miopenConvolutionFwdAlgoGEMM,<unused>"));
    EXPECT_FALSE(
        parseFindDbLine("k=miopenConvolutionFwdAlgoDirect:S,1,0,miopenConvolutionFwdAlgoDirect,"));
    EXPECT_FALSE(parseFindDbLine("k=NotAnAlgo:S,1,0,NotAnAlgo,<unused>"));
}

TEST(FindDbFormat, FormatRejectsInvalidInput)
{
    auto expectBadParm = [](const std::string& key, const std::vector<FindDbEntry>& entries) {
        try
        {
            (void)formatFindDbLine(key, entries);
            ADD_FAILURE() << "no exception for key '" << key << "'";
        }
        catch(const miopen::Exception& e)
        {
            EXPECT_EQ(e.status(), miopenStatusBadParm) << e.what();
        }
    };
    expectBadParm("", {entry("S", 1.0f, 0)});
    expectBadParm("a=b", {entry("S", 1.0f, 0)});
    expectBadParm("a\nb", {entry("S", 1.0f, 0)});
    expectBadParm("k", {});
    expectBadParm("k", {entry("", 1.0f, 0)});
    expectBadParm("k", {entry("S;T", 1.0f, 0)});
    expectBadParm("k", {entry("S", -1.0f, 0)});
    expectBadParm("k", {entry("S", std::numeric_limits<float>::quiet_NaN(), 0)});
    expectBadParm("k", {entry("S", std::numeric_limits<float>::infinity(), 0)});
    expectBadParm("k", {entry("S", 1.0f, 0, "miopenConvolutionFwdAlgoNope")});
    expectBadParm("k", {entry("S", 1.0f, 0), entry("S", 2.0f, 0)});
}

TEST(FindDbFormat, KnowsEveryUpstreamAlgorithmName)
{
    using miopen::conv::isKnownAlgorithmName;
    for(const char* dir : {"Fwd", "BwdData", "BwdWeights"})
        for(const char* algo : {"GEMM", "Direct", "FFT", "Winograd", "ImplicitGEMM"})
        {
            const std::string name = std::string("miopenConvolution") + dir + "Algo" + algo;
            EXPECT_TRUE(isKnownAlgorithmName(name)) << name;
        }
    EXPECT_TRUE(isKnownAlgorithmName("miopenTransposeBwdDataAlgoGEMM"));
    EXPECT_FALSE(isKnownAlgorithmName("miopenConvolutionAlgoGEMM")); // not directional
    EXPECT_FALSE(isKnownAlgorithmName(""));
}

} // namespace
} // namespace find_db_test
