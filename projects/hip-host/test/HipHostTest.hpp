// The fixture of the hip_host runtime tests: every test starts and ends with no pending last
// error, and fails() checks a failing call's status and the thread's last error together.
#pragma once

#include <hip/hip_runtime.h>

#include <gtest/gtest.h>

#define ASSERT_HIP_OK(expr) ASSERT_EQ(hipSuccess, (expr)) << #expr
#define EXPECT_HIP_OK(expr) EXPECT_EQ(hipSuccess, (expr)) << #expr

class HipHost : public ::testing::Test
{
protected:
    void SetUp() override { (void)hipGetLastError(); }
    void TearDown() override { EXPECT_EQ(hipSuccess, hipGetLastError()); }

    // The call failed with `want`, and the thread's last error says so (read and cleared).
    static ::testing::AssertionResult fails(hipError_t got, hipError_t want)
    {
        const hipError_t last = hipGetLastError();
        if(got != want || last != want)
            return ::testing::AssertionFailure() << "got " << hipGetErrorName(got) << ", last error "
                                                 << hipGetErrorName(last) << ", want " << hipGetErrorName(want);
        return ::testing::AssertionSuccess();
    }
};
