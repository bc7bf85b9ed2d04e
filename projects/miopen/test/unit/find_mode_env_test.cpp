// Find controls read from the environment once per process (MIOPEN_FIND_MODE,
// MIOPEN_FIND_ENFORCE, MIOPEN_DEBUG_DISABLE_FIND_DB). Each ctest entry runs this binary with one
// setting and a gtest filter naming the matching test (see api.cmake); the test also checks that
// the setting it needs is in effect, so a misregistered entry fails instead of passing vacuously.
#include <miopen/conv/find_db.hpp>
#include <miopen/conv/operations.hpp>
#include <miopen/handle.hpp>

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <string>

namespace {

using namespace miopen;
using namespace miopen::conv;

void requireEnv(const char* name, const char* value)
{
    const char* v = std::getenv(name);
    ASSERT_NE(v, nullptr) << name << " must be set for this test";
    ASSERT_EQ(std::string(v), value) << name;
}

struct Problem
{
    TensorDescriptor x{miopenFloat, {2, 6, 9, 9}}, w{miopenFloat, {6, 6, 3, 3}}, y{miopenFloat, {2, 6, 9, 9}};
    ConvolutionDescriptor conv{2, miopenConvolution, {1, 1}, {1, 1}, {1, 1}};
    ApiProblem api{ApiDirection::Forward, x, w, y, conv};
    std::vector<float> xb = std::vector<float>(972, 0.5f), wb = std::vector<float>(324, 0.25f), yb = std::vector<float>(972);
    std::vector<unsigned char> ws = std::vector<unsigned char>(workspaceSize(api.problem()) + 1);
    Handle h;

    std::vector<FindResult> find(bool exhaustive = false)
    {
        return conv::find(h, api, api.tensors(xb.data(), wb.data(), yb.data(), yb.data()), ws.data(), ws.size(),
                          exhaustive);
    }
    const std::string key() const { return api.problem().dbKey(); }
};

const std::vector<FindDbEntry> kCrafted = {{"ConvDirectNaiveConvFwd", 0.0001f, 0, "miopenConvolutionFwdAlgoDirect"}};

TEST(FindModeEnv, FastMissIsNotBenchmarkedNorRecorded)
{
    requireEnv("MIOPEN_FIND_MODE", "FAST");
    Problem p;
    const auto r = p.find();
    ASSERT_EQ(r.size(), 1u);
    EXPECT_EQ(r[0].solver, applicableSolvers(p.api.problem()).front()); // the heuristic choice
    EXPECT_FALSE(FindDb().load(p.key()).has_value());
    // A hit is used as recorded.
    ASSERT_TRUE(FindDb().store(p.key(), kCrafted));
    const auto hit = p.find();
    ASSERT_EQ(hit.size(), 1u);
    EXPECT_STREQ(hit[0].solver->name(), "ConvDirectNaiveConvFwd");
}

TEST(FindModeEnv, NormalAlwaysBenchmarks)
{
    requireEnv("MIOPEN_FIND_MODE", "NORMAL");
    Problem p;
    ASSERT_TRUE(FindDb().store(p.key(), kCrafted));
    p.find();
    const auto rec = FindDb().load(p.key());
    ASSERT_TRUE(rec.has_value());
    EXPECT_EQ(rec->size(), applicableSolvers(p.api.problem()).size()); // re-benchmarked, rewritten
}

TEST(FindModeEnv, InvalidModeFallsBackToTheDescriptorMode)
{
    requireEnv("MIOPEN_FIND_MODE", "bogus");
    Problem p;
    ASSERT_TRUE(FindDb().store(p.key(), kCrafted));
    // Default (dynamic hybrid): the record is a hit.
    const auto hit = p.find();
    ASSERT_EQ(hit.size(), 1u);
    EXPECT_STREQ(hit[0].solver->name(), "ConvDirectNaiveConvFwd");
}

TEST(FindModeEnv, EnforceDbCleanRemovesTheRecordFirst)
{
    requireEnv("MIOPEN_FIND_ENFORCE", "DB_CLEAN");
    Problem p;
    ASSERT_TRUE(FindDb().store(p.key(), kCrafted));
    p.find();
    const auto rec = FindDb().load(p.key());
    ASSERT_TRUE(rec.has_value());
    for(const auto& e : *rec)
        EXPECT_NE(e.timeMs, 0.0001f) << "the crafted record survived";
}

TEST(FindModeEnv, EnforceDbUpdateRewritesTheRecord)
{
    requireEnv("MIOPEN_FIND_ENFORCE", "DB_UPDATE");
    Problem p;
    ASSERT_TRUE(FindDb().store(p.key(), kCrafted));
    p.find();
    const auto rec = FindDb().load(p.key());
    ASSERT_TRUE(rec.has_value());
    EXPECT_EQ(rec->size(), applicableSolvers(p.api.problem()).size());
}

TEST(FindModeEnv, DisabledFindDbIsNeitherReadNorWritten)
{
    requireEnv("MIOPEN_DEBUG_DISABLE_FIND_DB", "1");
    Problem p;
    const auto r = p.find();
    EXPECT_FALSE(r.empty());
    EXPECT_FALSE(std::filesystem::exists(FindDb::userDbFile()));
}

} // namespace
