// MIOPEN_HIPDNN_FORWARDING=verify (shadow verification): each forwarded call also runs on MIOpen
// Private into scratch memory; the two results are compared here, element by element, against the
// hipDNN test SDK's dynamic bound for a dot product of the call's reduction length
// (hipdnn_test_sdk/utilities/TestTolerances.hpp), doubled because both results carry an error of
// up to that bound; batchnorm outputs against the test SDK's batchnorm tolerances (bnBound). The caller keeps hipDNN's result either way.
#pragma once

#include <miopen/miopen.h>

#include <cstddef>
#include <cstdint>
#include <string>

namespace miopen {
namespace wrapper {
namespace verify {

// Largest |value| of n elements of type t (fp32, fp16, bf16; 0 for other types).
double maxAbs(miopenDataType_t t, const void* data, std::size_t n) noexcept;

// The bound on |forwarded - private| for one element of a convolution output of type t whose
// reduction has `length` terms, each a product of values at most maxA and maxB in magnitude,
// plus `maxAddend` added after the reduction (a bias), rounded once more.
double convBound(miopenDataType_t t, std::int64_t length, double maxA, double maxB, double maxAddend) noexcept;

// The batchnorm outputs' bound on |forwarded - private| for an output of type t whose largest
// |value| (on Private's side) is maxRef: the hipDNN test SDK's batchnorm tolerance for t and the
// direction (0 inference, 1 training forward, 2 backward), relative to max(1, maxRef), doubled.
double bnBound(miopenDataType_t t, int direction, double maxRef) noexcept;

// The pointwise outputs' bound (activation, op tensor, scale tensor): the hipDNN test SDK's
// pointwise tolerance for t relative to max(1, maxRef), times 4 (the blend with alpha / beta
// rounds up to three more times on either side).
double pointwiseBound(miopenDataType_t t, double maxRef) noexcept;

struct Outcome
{
    bool ok               = true;
    std::size_t worstAt   = 0;   // the element with the largest error relative to the bound
    double worstError     = 0.0; // |forwarded - private| there
    double privateValue   = 0.0, forwardedValue = 0.0;
    double bound          = 0.0;
    std::size_t mismatches = 0;  // elements over the bound
};

// Compares n elements of type t (same layout on both sides). A NaN on one side only is a mismatch.
Outcome compare(miopenDataType_t t, const void* forwarded, const void* reference, std::size_t n, double bound) noexcept;

std::string describe(const Outcome& o);

} // namespace verify
} // namespace wrapper
} // namespace miopen
