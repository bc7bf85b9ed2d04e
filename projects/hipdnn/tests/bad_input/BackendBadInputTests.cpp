// The bad-input corpus of the hipDNN backend C API (issue 10): every case runs in a fresh
// BackendWorld, must return one of its expected statuses with a last-error message when it
// fails, must not crash, and must leave every guard byte intact and every input unchanged. The
// generated part comes from hipdnn_backend.h (gen_backend_bad_input_cases.py).
#include "BackendBadInputWorld.hpp"

#include "backend_bad_input_generated_counts.hpp"

#include <cctype>
#include <cstdio>

// hipdnnGetVersion_ext is deprecated, and is part of the corpus all the same.
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

namespace backend_bad_input
{

const std::vector<BadCase>& generatedCases()
{
    static const std::vector<BadCase> kCases = {
#include "backend_bad_input_generated_cases.inc"
    };
    return kCases;
}

} // namespace backend_bad_input

namespace
{

using backend_bad_input::BackendWorld;
using backend_bad_input::BadCase;

void runCase(const BadCase& c)
{
    BackendWorld w;
    char message[BackendWorld::kStringBytes];
    hipdnnGetLastErrorString(message, sizeof(message)); // start from no message
    const int status = c.call(w);
    w.afterCall(status);
    EXPECT_TRUE(c.expect.accepts(status))
        << c.name << " returned " << (status < 0 ? "nothing" : hipdnnGetErrorString(static_cast<hipdnnStatus_t>(status)));
    if(!c.expect.isVoid && status != HIPDNN_STATUS_SUCCESS)
    {
        hipdnnGetLastErrorString(message, sizeof(message));
        EXPECT_NE(message[0], '\0') << c.name << ": a failed call left no last-error message";
    }
    EXPECT_EQ(w.damage(), "") << c.name;
}

std::string caseName(const std::vector<BadCase>& cases, std::size_t i)
{
    std::string n = cases[i].name;
    for(auto& ch : n)
    {
        if(!std::isalnum(static_cast<unsigned char>(ch)))
        {
            ch = '_';
        }
    }
    return n;
}

class Generated : public ::testing::TestWithParam<std::size_t>
{
};
TEST_P(Generated, ReturnsStatusAndWritesNothingOutside) { runCase(backend_bad_input::generatedCases()[GetParam()]); }
INSTANTIATE_TEST_SUITE_P(FromHeader, Generated,
                         ::testing::Range<std::size_t>(0, backend_bad_input::generatedCases().size()),
                         [](const ::testing::TestParamInfo<std::size_t>& i) {
                             return caseName(backend_bad_input::generatedCases(), i.param);
                         });

class HandWritten : public ::testing::TestWithParam<std::size_t>
{
};
TEST_P(HandWritten, ReturnsStatusAndWritesNothingOutside) { runCase(backend_bad_input::handWrittenCases()[GetParam()]); }
INSTANTIATE_TEST_SUITE_P(Table, HandWritten,
                         ::testing::Range<std::size_t>(0, backend_bad_input::handWrittenCases().size()),
                         [](const ::testing::TestParamInfo<std::size_t>& i) {
                             return caseName(backend_bad_input::handWrittenCases(), i.param);
                         });

TEST(BackendBadInputCorpus, CaseCount)
{
    const std::size_t g = backend_bad_input::generatedCases().size();
    const std::size_t h = backend_bad_input::handWrittenCases().size();
    std::printf("bad-input cases: %zu (generated %zu, hand-written %zu)\n", g + h, g, h);
    std::printf("functions in hipdnn_backend.h: %d, with generated cases: %d; pointer parameters: %d\n",
                BACKEND_BAD_INPUT_HEADER_FUNCTIONS, BACKEND_BAD_INPUT_FUNCTIONS_WITH_CASES,
                BACKEND_BAD_INPUT_POINTER_PARAMETERS);
    EXPECT_EQ(g, static_cast<std::size_t>(BACKEND_BAD_INPUT_GENERATED_CASES));
    // One null case per pointer parameter of the header at least, and the stated floors (CMake).
    EXPECT_GE(g, static_cast<std::size_t>(BACKEND_BAD_INPUT_POINTER_PARAMETERS));
    EXPECT_GE(BACKEND_BAD_INPUT_HEADER_FUNCTIONS, HIPDNN_BAD_INPUT_MIN_FUNCTIONS);
    EXPECT_GE(BACKEND_BAD_INPUT_POINTER_PARAMETERS, HIPDNN_BAD_INPUT_MIN_POINTER_PARAMETERS);
    EXPECT_GE(g + h, static_cast<std::size_t>(HIPDNN_BAD_INPUT_MIN_CASES));
}

} // namespace
