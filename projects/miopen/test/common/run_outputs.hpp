// Output buffers of one test run, kept for comparison with another run (api.cmake: the
// forwarding-disabled and forwarding-enabled runs of the public-API suite write theirs to two
// directories, and miopen_compare_run_outputs compares them case by case).
//
// save(tag, type, data, bytes) writes the bytes, when MIOPEN_TEST_RUN_OUTPUT_DIR is set (the
// directory is created if missing), to
//   <dir>/<test suite>.<test name>.<tag>.<type suffix>
// ('/' in gtest names becomes '_'); the suffix (f32, f16, bf16, i32, i8) tells the comparison
// how to read the elements. Returns false (and the caller should fail) when writing fails.
#pragma once

#include <miopen/miopen.h>

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <system_error>

namespace test {
namespace run_outputs {

inline const char* typeSuffix(miopenDataType_t t)
{
    switch(t)
    {
    case miopenFloat: return "f32";
    case miopenHalf: return "f16";
    case miopenBFloat16: return "bf16";
    case miopenInt32: return "i32";
    case miopenInt8: return "i8";
    default: return nullptr;
    }
}

inline std::string directory()
{
    const char* d = std::getenv("MIOPEN_TEST_RUN_OUTPUT_DIR");
    return d == nullptr ? "" : d;
}

inline ::testing::AssertionResult save(const std::string& tag, miopenDataType_t type, const void* data,
                                       std::size_t bytes)
{
    const std::string dir = directory();
    if(dir.empty())
        return ::testing::AssertionSuccess();
    const char* suffix = typeSuffix(type);
    const auto* info   = ::testing::UnitTest::GetInstance()->current_test_info();
    if(suffix == nullptr || info == nullptr)
        return ::testing::AssertionFailure() << "run_outputs::save: no type suffix or no current test";
    std::string name = std::string(info->test_suite_name()) + "." + info->name() + "." + tag + "." + suffix;
    for(auto& ch : name)
        if(ch == '/')
            ch = '_';
    std::error_code ec;
    std::filesystem::create_directories(dir, ec); // the run's first writer creates it
    const std::string path = dir + "/" + name;
    std::FILE* f           = std::fopen(path.c_str(), "wb");
    if(f == nullptr)
        return ::testing::AssertionFailure() << "cannot write " << path;
    const bool ok = std::fwrite(data, 1, bytes, f) == bytes;
    if(std::fclose(f) != 0 || !ok)
        return ::testing::AssertionFailure() << "cannot write " << path;
    return ::testing::AssertionSuccess();
}

} // namespace run_outputs
} // namespace test
