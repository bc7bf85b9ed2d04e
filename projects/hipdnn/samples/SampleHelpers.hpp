// Helpers shared by the samples: error checks that print and exit non-zero.
#pragma once

#include <hipdnn_frontend.hpp>
#include <hipdnn_test_sdk/utilities/CpuFpReferenceValidation.hpp>
#include <hipdnn_test_sdk/utilities/Seeds.hpp>

#include <cstdlib>
#include <iostream>
#include <string>

#define HIPDNN_FE_CHECK(expr)                                                                   \
    do                                                                                           \
    {                                                                                            \
        const ::hipdnn_frontend::Error sampleError_ = (expr);                                    \
        if(sampleError_.is_bad())                                                                \
        {                                                                                        \
            std::cerr << #expr << " failed: " << sampleError_ << std::endl;                      \
            std::exit(1);                                                                        \
        }                                                                                        \
    } while(false)

namespace samples
{

/// Compares and reports; returns true when all elements are close.
template <typename T>
bool verify(const std::string& what,
            const hipdnn_test_sdk::utilities::Tensor<T>& reference,
            const hipdnn_test_sdk::utilities::Tensor<T>& result,
            double tolerance)
{
    std::string why;
    hipdnn_test_sdk::utilities::CpuFpReferenceValidation<T> validation(tolerance, tolerance);
    if(!validation.allClose(reference, result, &why))
    {
        std::cerr << what << ": MISMATCH against the CPU reference (seed "
                  << hipdnn_test_sdk::utilities::getGlobalTestSeed() << "): " << why << std::endl;
        return false;
    }
    std::cout << what << ": matches the CPU reference (" << reference.elementCount() << " elements)" << std::endl;
    return true;
}

} // namespace samples
