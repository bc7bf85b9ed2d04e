// The bad-input corpus of the public MIOpen C API (issue 10): every case runs in a fresh World,
// must return one of its expected statuses, must not crash, must leave every guard byte intact
// and every input unchanged. The generated part comes from miopen.h (gen_bad_input_cases.py);
// its size is checked against the header's own count of pointer parameters.
#include "bad_input_case.hpp"

#include "bad_input_generated_counts.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <fstream>
#include <set>
#include <sstream>
#include <string>

namespace bad_input {

const std::vector<BadCase>& generatedCases()
{
    static const std::vector<BadCase> kCases = {
#include "bad_input_generated_cases.inc"
    };
    return kCases;
}

const std::vector<BadCase>& baselineCases()
{
    static const std::vector<BadCase> kCases = {
#include "bad_input_generated_baselines.inc"
    };
    return kCases;
}

} // namespace bad_input

namespace {

using bad_input::BadCase;
using bad_input::World;

void runCase(const BadCase& c)
{
    World w;
    const miopenStatus_t status = c.call(w);
    w.afterCall(status);
    EXPECT_TRUE(c.expect.accepts(status)) << c.name << " returned " << miopenGetErrorString(status);
    EXPECT_EQ(w.damage(), "") << c.name;
}

std::string caseName(const std::vector<BadCase>& cases, std::size_t i)
{
    std::string n = cases[i].name;
    for(auto& ch : n)
        if(!std::isalnum(static_cast<unsigned char>(ch)))
            ch = '_';
    return n;
}

class Generated : public ::testing::TestWithParam<std::size_t>
{
};
TEST_P(Generated, ReturnsStatusAndWritesNothingOutside) { runCase(bad_input::generatedCases()[GetParam()]); }
INSTANTIATE_TEST_SUITE_P(FromHeader, Generated, ::testing::Range<std::size_t>(0, bad_input::generatedCases().size()),
                         [](const ::testing::TestParamInfo<std::size_t>& i) { return caseName(bad_input::generatedCases(), i.param); });

// Not bad input: every argument valid, the call must succeed. Proves that the factories build
// valid companions, so each generated case fails for its one bad argument (policy.txt lists the
// entry points whose baseline cannot be built generically).
class ValidCompanions : public ::testing::TestWithParam<std::size_t>
{
};
TEST_P(ValidCompanions, AllArgumentsValidSucceeds) { runCase(bad_input::baselineCases()[GetParam()]); }
INSTANTIATE_TEST_SUITE_P(FromHeader, ValidCompanions, ::testing::Range<std::size_t>(0, bad_input::baselineCases().size()),
                         [](const ::testing::TestParamInfo<std::size_t>& i) { return caseName(bad_input::baselineCases(), i.param); });

class HandWritten : public ::testing::TestWithParam<std::size_t>
{
};
TEST_P(HandWritten, ReturnsStatusAndWritesNothingOutside) { runCase(bad_input::handWrittenCases()[GetParam()]); }
INSTANTIATE_TEST_SUITE_P(Table, HandWritten, ::testing::Range<std::size_t>(0, bad_input::handWrittenCases().size()),
                         [](const ::testing::TestParamInfo<std::size_t>& i) { return caseName(bad_input::handWrittenCases(), i.param); });

// Pointer parameters counted independently of the corpus generator: from the wrapper generator's
// signatures.txt (one line per exported entry point: return|name|type name|...).
std::size_t pointerParametersInSignatures(std::size_t& entries)
{
    static const std::set<std::string> kPointerTypedefs = {
        "miopenHandle_t", "miopenTensorDescriptor_t", "miopenSeqTensorDescriptor_t", "miopenConvolutionDescriptor_t",
        "miopenPoolingDescriptor_t", "miopenLRNDescriptor_t", "miopenActivationDescriptor_t",
        "miopenFusionPlanDescriptor_t", "miopenFusionOpDescriptor_t", "miopenOperatorArgs_t",
        "miopenAcceleratorQueue_t", "miopenAllocatorFunction", "miopenDeallocatorFunction"};
    std::ifstream in(MIOPEN_BAD_INPUT_SIGNATURES);
    EXPECT_TRUE(in.good()) << MIOPEN_BAD_INPUT_SIGNATURES;
    std::size_t pointers = 0;
    entries              = 0;
    std::string line;
    while(std::getline(in, line))
    {
        std::vector<std::string> fields;
        std::stringstream ss(line);
        for(std::string f; std::getline(ss, f, '|');)
            fields.push_back(f);
        if(fields.size() < 2 || fields[1].rfind("miopenHidden", 0) == 0) // not declared in miopen.h
            continue;
        ++entries;
        for(std::size_t i = 2; i < fields.size(); ++i)
        {
            std::string type = fields[i].substr(0, fields[i].rfind(' '));
            if(type.rfind("const ", 0) == 0)
                type = type.substr(6);
            if(type.find('*') != std::string::npos || kPointerTypedefs.count(type) != 0)
                ++pointers;
        }
    }
    return pointers;
}

TEST(BadInputCorpus, CaseCount)
{
    const std::size_t g = bad_input::generatedCases().size();
    const std::size_t h = bad_input::handWrittenCases().size();
    std::printf("bad-input cases: %zu (generated %zu, hand-written %zu)\n", g + h, g, h);
    std::printf("entry points in miopen.h: %d, with generated cases: %d, skipped by policy: %d; pointer parameters: %d\n",
                BAD_INPUT_HEADER_ENTRY_POINTS, BAD_INPUT_GENERATED_ENTRY_POINTS, BAD_INPUT_SKIPPED_ENTRY_POINTS,
                BAD_INPUT_POINTER_PARAMETERS);
    EXPECT_EQ(g, static_cast<std::size_t>(BAD_INPUT_GENERATED_CASES));
    // Every entry point of the header has its cases (none skipped), and there is at least one
    // case per pointer parameter of the header, counted here from the wrapper's signatures.
    std::size_t entries       = 0;
    const std::size_t pointer = pointerParametersInSignatures(entries);
    std::printf("independent count from signatures.txt: %zu entry points, %zu pointer parameters\n", entries, pointer);
    EXPECT_EQ(entries, static_cast<std::size_t>(BAD_INPUT_HEADER_ENTRY_POINTS));
    EXPECT_EQ(pointer, static_cast<std::size_t>(BAD_INPUT_POINTER_PARAMETERS));
    EXPECT_EQ(BAD_INPUT_SKIPPED_ENTRY_POINTS, 0);
    EXPECT_GE(g, pointer);
    std::printf("valid-companion baselines: %zu of %d entry points (%d without one, policy.txt)\n",
                bad_input::baselineCases().size(), BAD_INPUT_GENERATED_ENTRY_POINTS, BAD_INPUT_NO_BASELINE);
    // Every entry point returning a status has its baseline or a stated reason in policy.txt.
    EXPECT_EQ(bad_input::baselineCases().size() + BAD_INPUT_NO_BASELINE + BAD_INPUT_NON_STATUS_ENTRY_POINTS,
              static_cast<std::size_t>(BAD_INPUT_GENERATED_ENTRY_POINTS));
    // The stated floor (CMake: MIOPEN_BAD_INPUT_MIN_CASES): a generator regression fails here.
    EXPECT_GE(g + h, static_cast<std::size_t>(MIOPEN_BAD_INPUT_MIN_CASES));
}

} // namespace
