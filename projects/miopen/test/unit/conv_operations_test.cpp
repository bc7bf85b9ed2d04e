// Unit tests of the convolution operations: problem mapping, db keys, driver commands, Find and
// the find-db, solver choice.
#include "unit/find_db_fixture.hpp"

#include <miopen/conv/find_db.hpp>
#include <miopen/conv/operations.hpp>
#include <miopen/conv/solver.hpp>
#include <miopen/handle.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <random>
#include <sstream>
#include <string>

namespace {

using namespace miopen;
using namespace miopen::conv;

ConvolutionDescriptor conv2d(int pad, int stride, int dil, miopenConvolutionMode_t mode = miopenConvolution)
{
    return ConvolutionDescriptor(2, mode, {pad, pad}, {stride, stride}, {dil, dil});
}

TEST(ConvOperations, DbKeyHasUpstreamShape)
{
    const TensorDescriptor x(miopenFloat, {8, 576, 4, 4}), w(miopenFloat, {192, 576, 1, 1}), y(miopenFloat, {8, 192, 4, 4});
    const ApiProblem p(ApiDirection::Forward, x, w, y, conv2d(0, 1, 1));
    EXPECT_EQ(p.problem().dbKey(), "576-4-4-1x1-192-4-4-8-0x0-1x1-1x1-0-NCHW-FP32-F");
    const ApiProblem b(ApiDirection::BackwardWeights, x, w, y, conv2d(0, 1, 1));
    EXPECT_EQ(b.problem().dbKey(), "576-4-4-1x1-192-4-4-8-0x0-1x1-1x1-0-NCHW-FP32-W");
    auto g = conv2d(0, 1, 1);
    g.setGroupCount(4);
    const TensorDescriptor wg(miopenFloat, {192, 144, 1, 1});
    EXPECT_EQ(ApiProblem(ApiDirection::BackwardData, x, wg, y, g).problem().dbKey(),
              "576-4-4-1x1-192-4-4-8-0x0-1x1-1x1-0-NCHW-FP32-B_g4");
    EXPECT_TRUE(isValidFindDbKey(p.problem().dbKey()));
}

TEST(ConvOperations, DriverCommandMatchesUpstreamFormat)
{
    const TensorDescriptor x(miopenFloat, {128, 3, 32, 32}), w(miopenFloat, {64, 3, 3, 3}), y(miopenFloat, {128, 64, 32, 32});
    const ApiProblem p(ApiDirection::Forward, x, w, y, conv2d(1, 1, 1));
    EXPECT_EQ(p.driverCommand(std::nullopt),
              "./bin/MIOpenDriver conv -n 128 -c 3 -H 32 -W 32 -k 64 -y 3 -x 3 -p 1 -q 1 -u 1 -v 1 -l 1 -j 1 -m conv -g 1 -F 1 -t 1");
    const TensorDescriptor xh(miopenHalf, {2, 4, 9, 9}), wh(miopenHalf, {6, 4, 3, 3}), yh(miopenHalf, {2, 6, 4, 4});
    EXPECT_EQ(ApiProblem(ApiDirection::BackwardWeights, xh, wh, yh, conv2d(0, 2, 1)).driverCommand(86),
              "./bin/MIOpenDriver convfp16 -n 2 -c 4 -H 9 -W 9 -k 6 -y 3 -x 3 -p 0 -q 0 -u 2 -v 2 -l 1 -j 1 -m conv -g 1 -F 4 -t 1 -S 86");
}

TEST(ConvOperations, TransposeMapsToTheRegularProblem)
{
    // Transpose: x (N, 4, 5, 5), filter (4, 6, 3, 3) -> y (N, 6, 7, 7) at stride 1, pad 0.
    const TensorDescriptor x(miopenFloat, {2, 4, 5, 5}), w(miopenFloat, {4, 6, 3, 3}), y(miopenFloat, {2, 6, 7, 7});
    const auto c = conv2d(0, 1, 1, miopenTranspose);
    const ApiProblem fwd(ApiDirection::Forward, x, w, y, c);
    EXPECT_EQ(fwd.problem().direction(), Direction::BackwardData);
    EXPECT_EQ(fwd.problem().inChannels(), 6u);
    EXPECT_EQ(fwd.problem().outChannels(), 4u);
    EXPECT_EQ(ApiProblem(ApiDirection::BackwardData, x, w, y, c).problem().direction(), Direction::Forward);
    EXPECT_EQ(ApiProblem(ApiDirection::BackwardWeights, x, w, y, c).problem().direction(), Direction::BackwardWeights);
    const TensorDescriptor yWrong(miopenFloat, {2, 6, 8, 8});
    EXPECT_THROW(ApiProblem(ApiDirection::Forward, x, w, yWrong, c), Exception);
}

// At MIOPEN_LOG_LEVEL=6 the solver choice logs why each solver of the direction declines, with
// the reason isApplicable gives ("<name>: <reason>").
TEST(ConvOperations, DeclineReasonsAreLogged)
{
    // 1x1 stride 2 with a group count of 2: declined by Winograd (not 3x3) and several others.
    const TensorDescriptor x(miopenFloat, {2, 8, 9, 9}), w(miopenFloat, {6, 4, 1, 1}), y(miopenFloat, {2, 6, 5, 5});
    auto c = conv2d(0, 2, 1);
    c.setGroupCount(2);
    for(ApiDirection dir : {ApiDirection::Forward, ApiDirection::BackwardData, ApiDirection::BackwardWeights})
    {
        const ApiProblem p(dir, x, w, y, c);
        std::string log;
        std::vector<const Solver*> applicable;
        {
            find_db_test::CapturedLog capture("6");
            applicable = applicableSolvers(p.problem());
            log        = capture.stop();
        }
        miopen::resetLoggingForTests();
        ASSERT_FALSE(applicable.empty());
        std::size_t declined = 0;
        for(const Solver* s : solversFor(p.problem().direction()))
        {
            const Applicability a = s->isApplicable(p.problem());
            if(a)
                continue;
            ++declined;
            EXPECT_NE(log.find(std::string(s->name()) + ": " + a.reason), std::string::npos)
                << s->name() << " declined (" << a.reason << ") without a log line; log:\n" << log;
        }
        EXPECT_GT(declined, 0u);
    }
}

class FindDbFlow : public ::testing::Test
{
protected:
    void SetUp() override
    {
        std::mt19937 rng(3);
        std::uniform_real_distribution<float> d(-1, 1);
        for(auto* v : {&_x, &_w, &_y})
            for(auto& e : *v)
                e = d(rng);
    }
    TensorDescriptor _xd{miopenFloat, {2, 8, 10, 10}}, _wd{miopenFloat, {8, 8, 3, 3}}, _yd{miopenFloat, {2, 8, 10, 10}};
    std::vector<float> _x = std::vector<float>(1600), _w = std::vector<float>(576), _y = std::vector<float>(1600);
    Handle _h;
};

TEST_F(FindDbFlow, FindRecordsAndLaterCallsUseTheRecord)
{
    const ApiProblem p(ApiDirection::Forward, _xd, _wd, _yd, conv2d(1, 1, 1));
    const std::size_t ws = workspaceSize(p.problem());
    std::vector<unsigned char> work(ws + 1);
    const auto tensors = p.tensors(_x.data(), _w.data(), _y.data(), _y.data());
    const auto results = find(_h, p, tensors, work.data(), ws, false);
    ASSERT_FALSE(results.empty());
    FindDb db;
    auto recorded = db.load(p.problem().dbKey());
    ASSERT_TRUE(recorded.has_value());
    // Every applicable solver that fits was benchmarked and recorded.
    EXPECT_EQ(recorded->size(), applicableSolvers(p.problem()).size());

    // A crafted record: the naive solver "fastest". Find (default mode) and immediate mode
    // follow the record; execute of the Direct algorithm picks it.
    std::vector<FindDbEntry> crafted = {{"ConvDirectNaiveConvFwd", 0.001f, 0, "miopenConvolutionFwdAlgoDirect"},
                                        {"GemmFwdRest", 5.0f, workspaceSize(p.problem()), "miopenConvolutionFwdAlgoGEMM"}};
    ASSERT_TRUE(db.store(p.problem().dbKey(), crafted));
    const auto again = find(_h, p, tensors, work.data(), ws, false);
    ASSERT_EQ(again.size(), 2u);
    EXPECT_STREQ(again[0].solver->name(), "ConvDirectNaiveConvFwd");
    EXPECT_FLOAT_EQ(again[0].timeMs, 0.001f);
    const auto sols = solutions(p.problem());
    ASSERT_FALSE(sols.empty());
    EXPECT_EQ(sols[0].solution_id, 85u);
    // Exhaustive search benchmarks again and replaces the crafted record.
    find(_h, p, tensors, work.data(), ws, true);
    recorded = db.load(p.problem().dbKey());
    ASSERT_TRUE(recorded.has_value());
    EXPECT_EQ(recorded->size(), applicableSolvers(p.problem()).size());
}

// Find's timed runs go in two rounds over the solvers, the second in reverse order, so that a
// solver's two timed runs are apart in time (a disturbance of a few ms slows one, not both).
TEST_F(FindDbFlow, TimedRunsGoInTwoRoundsTheSecondReversed)
{
    const ApiProblem p(ApiDirection::Forward, _xd, _wd, _yd, conv2d(1, 1, 1));
    const std::size_t ws = workspaceSize(p.problem());
    std::vector<unsigned char> work(ws + 1);
    const auto tensors = p.tensors(_x.data(), _w.data(), _y.data(), _y.data());
    std::string log;
    {
        find_db_test::CapturedLog capture("6");
        find(_h, p, tensors, work.data(), ws, true);
        log = capture.stop();
    }
    miopen::resetLoggingForTests(); // the level of the restored environment
    std::vector<std::string> rounds[2];
    std::istringstream in(log);
    for(std::string line; std::getline(in, line);)
        for(int r = 0; r < 2; ++r)
        {
            const std::string tag = "Find round " + std::to_string(r + 1) + ": ";
            const auto at         = line.find(tag);
            if(at != std::string::npos)
            {
                const std::string rest = line.substr(at + tag.size());
                rounds[r].push_back(rest.substr(0, rest.find(' ')));
            }
        }
    ASSERT_GE(rounds[0].size(), 2u) << log;
    EXPECT_EQ(rounds[0].size(), applicableSolvers(p.problem()).size());
    std::reverse(rounds[1].begin(), rounds[1].end());
    EXPECT_EQ(rounds[1], rounds[0]) << log;
}

TEST_F(FindDbFlow, DeterministicAttributeFiltersSolvers)
{
    auto c = conv2d(1, 1, 1);
    c.setAttribute(MIOPEN_CONVOLUTION_ATTRIB_DETERMINISTIC, 1);
    const ApiProblem p(ApiDirection::BackwardWeights, _xd, _wd, _yd, c);
    for(const Solver* s : applicableSolvers(p.problem()))
        EXPECT_TRUE(s->isDeterministic()) << s->name();
}

TEST(ConvOperations, ExecuteFailsLoudlyWhenNoSolverOfTheAlgorithmFits)
{
    Handle h;
    const TensorDescriptor x(miopenFloat, {1, 4, 6, 6}), w(miopenFloat, {4, 4, 3, 3}), y(miopenFloat, {1, 4, 4, 4});
    const ApiProblem p(ApiDirection::Forward, x, w, y, conv2d(0, 1, 1));
    std::vector<float> xb(144), wb(144), yb(64, 7.0f);
    EXPECT_THROW(execute(h, p, miopenConvolutionAlgoFFT, p.tensors(xb.data(), wb.data(), yb.data(), yb.data()), 1.0f,
                         0.0f, nullptr, 0),
                 Exception);
    for(float v : yb)
        EXPECT_EQ(v, 7.0f);
}

} // namespace
