// Fixed tolerances per operation and data type (upstream's values), and dynamic bounds that grow
// with the reduction length.
#pragma once

#include <hipdnn_data_sdk/types.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

namespace hipdnn_test_sdk::utilities
{

namespace detail
{
template <typename T>
constexpr int typeIndex()
{
    using hipdnn_data_sdk::types::bfloat16;
    using hipdnn_data_sdk::types::half;
    if constexpr(std::is_same_v<T, half>)
    {
        return 1;
    }
    else if constexpr(std::is_same_v<T, bfloat16>)
    {
        return 2;
    }
    else
    {
        return 0; // float, double
    }
}
template <typename T>
constexpr double pick(double fp32, double fp16, double bf16)
{
    constexpr int i = typeIndex<T>();
    return i == 0 ? fp32 : (i == 1 ? fp16 : bf16);
}
} // namespace detail

namespace conv
{
template <typename T> constexpr double getToleranceFwd() { return detail::pick<T>(1e-5, 1e-1, 1e-1); }
template <typename T> constexpr double getRelativeToleranceFwd() { return detail::pick<T>(1e-5, 1e-2, 2e-2); }
template <typename T> constexpr double getToleranceBwd() { return detail::pick<T>(8.5e-6, 2e-2, 2e-2); }
template <typename T> constexpr double getToleranceWrw() { return detail::pick<T>(2e-4, 2e-1, 2e-1); }
} // namespace conv

namespace pointwise
{
template <typename T> constexpr double getTolerance() { return detail::pick<T>(1e-5, 1e-3, 1e-2); }
} // namespace pointwise

namespace batchnorm
{
template <typename T> constexpr double getToleranceInference() { return detail::pick<T>(2e-4, 5e-4, 5e-3); }
template <typename T> constexpr double getToleranceTraining() { return detail::pick<T>(4e-3, 4e-3, 8e-3); }
template <typename T> constexpr double getToleranceBackward() { return detail::pick<T>(2e-3, 4e-4, 3e-3); }
} // namespace batchnorm

namespace resample
{
/// Max pooling copies an input value (exact); the averages sum at most a window of values of
/// magnitude <= ~2 and divide once.
template <typename T> constexpr double getToleranceFwd() { return detail::pick<T>(1e-5, 2e-3, 1.6e-2); }
template <typename T> constexpr double getToleranceBwd() { return detail::pick<T>(1e-5, 2e-3, 1.6e-2); }
} // namespace resample

namespace reduction
{
/// Fixed floor of the reduction bounds (see calculateReductionTolerance for the part that grows
/// with the reduction length).
template <typename T> constexpr double getTolerance() { return detail::pick<T>(1e-5, 1e-3, 1e-2); }
} // namespace reduction

/// Unit roundoff of T.
template <typename T>
double unitRoundoff()
{
    return static_cast<double>(static_cast<float>(std::numeric_limits<T>::epsilon())) / 2.0;
}

/// gamma(n) = n*u / (1 - n*u): the classic bound on the relative error of an n-term sum.
inline double gamma(int64_t n, double u)
{
    const double nu = static_cast<double>(n) * u;
    return nu < 1.0 ? nu / (1.0 - nu) : std::numeric_limits<double>::infinity();
}

/// Absolute error bound of a dot product of length n whose terms are at most maxAbsProduct in
/// magnitude, accumulated in TCompute and stored in TOut: accumulation (gamma(n) * n * max|ab|,
/// linear in n for 32/64-bit accumulation, ~sqrt(n) probabilistic for 16-bit) plus the output
/// rounding. Inputs are assumed exactly representable (they are generated in their own type).
template <typename TOut, typename TCompute = float>
double dotProductErrorBound(int64_t n, double maxAbsProduct)
{
    const double uCompute = unitRoundoff<TCompute>();
    const double sumBound = static_cast<double>(n) * maxAbsProduct;
    double accumulation;
    if constexpr(sizeof(TCompute) >= 4)
    {
        accumulation = gamma(n, uCompute) * sumBound;
    }
    else
    {
        accumulation = 4.0 * std::sqrt(static_cast<double>(n)) * uCompute * sumBound;
    }
    const double outputRounding = unitRoundoff<TOut>() * sumBound;
    return accumulation + outputRounding + std::numeric_limits<float>::min();
}

/// Dynamic bounds for convolutions: reduction length C/G*prod(filter) for fprop,
/// K/G*prod(filter) for dgrad, N*prod(output spatial) for wgrad.
template <typename TOut, typename TIn, typename TCompute = float>
double calculateConvFpropTolerance(double maxAbsX, double maxAbsW, int64_t reductionLength)
{
    (void)sizeof(TIn);
    return dotProductErrorBound<TOut, TCompute>(reductionLength, maxAbsX * maxAbsW);
}
template <typename TOut, typename TIn, typename TCompute = float>
double calculateConvDgradTolerance(double maxAbsDy, double maxAbsW, int64_t reductionLength)
{
    (void)sizeof(TIn);
    return dotProductErrorBound<TOut, TCompute>(reductionLength, maxAbsDy * maxAbsW);
}
template <typename TOut, typename TIn, typename TCompute = float>
double calculateConvWrwTolerance(double maxAbsX, double maxAbsDy, int64_t reductionLength)
{
    (void)sizeof(TIn);
    return dotProductErrorBound<TOut, TCompute>(reductionLength, maxAbsX * maxAbsDy);
}

/// Bound of a sum-like reduction (ADD, AVG, NORM1, NORM2) of n terms of magnitude at most
/// maxAbs, accumulated in TCompute and stored in TOut; at least the fixed per-type floor.
template <typename TOut, typename TCompute = float>
double calculateReductionTolerance(int64_t n, double maxAbs)
{
    return std::max(reduction::getTolerance<TOut>(), dotProductErrorBound<TOut, TCompute>(n, maxAbs));
}

} // namespace hipdnn_test_sdk::utilities
