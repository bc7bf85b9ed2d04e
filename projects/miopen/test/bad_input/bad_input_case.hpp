// One bad-input case: a call made in a fresh World and the statuses it may return.
#pragma once

#include "bad_input_world.hpp"

#include <functional>
#include <vector>

namespace bad_input {

struct BadCase
{
    const char* name;
    Expect expect;
    std::function<miopenStatus_t(World&)> call;
};

// The corpus generated from miopen.h at build time (bad_input_generated_cases.inc).
const std::vector<BadCase>& generatedCases();
// One call per entry point with every argument valid (bad_input_generated_baselines.inc).
const std::vector<BadCase>& baselineCases();
// The hand-written cases (bad_input_handwritten.cpp).
const std::vector<BadCase>& handWrittenCases();

} // namespace bad_input
