#include "shadow_verify.hpp"

#include <hipdnn_data_sdk/types.hpp>
#include <hipdnn_test_sdk/utilities/TestTolerances.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <sstream>

namespace miopen {
namespace wrapper {
namespace verify {

namespace {

namespace tol = hipdnn_test_sdk::utilities;
using hipdnn_data_sdk::types::bfloat16;
using hipdnn_data_sdk::types::half;

double valueAt(miopenDataType_t t, const void* data, std::size_t i) noexcept
{
    switch(t)
    {
    case miopenFloat: return static_cast<const float*>(data)[i];
    case miopenHalf:
    {
        half h;
        std::memcpy(&h, static_cast<const unsigned char*>(data) + 2 * i, 2);
        return static_cast<double>(static_cast<float>(h));
    }
    case miopenBFloat16:
    {
        bfloat16 b;
        std::memcpy(&b, static_cast<const unsigned char*>(data) + 2 * i, 2);
        return static_cast<double>(static_cast<float>(b));
    }
    default: return 0.0;
    }
}

template <class TOut>
double bound(std::int64_t length, double maxA, double maxB, double maxAddend)
{
    // Each side within the dot-product bound of the exact value (then the bias, rounded once).
    const double conv   = tol::calculateConvFpropTolerance<TOut, TOut>(maxA, maxB, length);
    const double addend = maxAddend > 0.0 ? tol::unitRoundoff<TOut>() * (static_cast<double>(length) * maxA * maxB + maxAddend) : 0.0;
    return 2.0 * (conv + addend);
}

} // namespace

double maxAbs(miopenDataType_t t, const void* data, std::size_t n) noexcept
{
    double m = 0.0;
    for(std::size_t i = 0; i < n; ++i)
    {
        const double v = std::fabs(valueAt(t, data, i));
        if(v > m) // NaN never raises the maximum
            m = v;
    }
    return m;
}

double convBound(miopenDataType_t t, std::int64_t length, double maxA, double maxB, double maxAddend) noexcept
{
    switch(t)
    {
    case miopenHalf: return bound<half>(length, maxA, maxB, maxAddend);
    case miopenBFloat16: return bound<bfloat16>(length, maxA, maxB, maxAddend);
    default: return bound<float>(length, maxA, maxB, maxAddend);
    }
}

namespace {

template <class T>
double bnTolerance(int direction)
{
    namespace bn = tol::batchnorm;
    return direction == 0 ? bn::getToleranceInference<T>()
                          : direction == 1 ? bn::getToleranceTraining<T>() : bn::getToleranceBackward<T>();
}

} // namespace

double bnBound(miopenDataType_t t, int direction, double maxRef) noexcept
{
    const double scale = std::max(1.0, maxRef);
    switch(t)
    {
    case miopenHalf: return 2.0 * bnTolerance<half>(direction) * scale;
    case miopenBFloat16: return 2.0 * bnTolerance<bfloat16>(direction) * scale;
    default: return 2.0 * bnTolerance<float>(direction) * scale;
    }
}

double pointwiseBound(miopenDataType_t t, double maxRef) noexcept
{
    namespace pw       = tol::pointwise;
    const double scale = std::max(1.0, maxRef);
    switch(t)
    {
    case miopenHalf: return 4.0 * pw::getTolerance<half>() * scale;
    case miopenBFloat16: return 4.0 * pw::getTolerance<bfloat16>() * scale;
    default: return 4.0 * pw::getTolerance<float>() * scale;
    }
}

Outcome compare(miopenDataType_t t, const void* forwarded, const void* reference, std::size_t n, double limit) noexcept
{
    Outcome o;
    o.bound      = limit;
    double worst = -1.0;
    for(std::size_t i = 0; i < n; ++i)
    {
        const double f = valueAt(t, forwarded, i), r = valueAt(t, reference, i);
        double err     = std::fabs(f - r);
        if(std::isnan(f) || std::isnan(r))
            err = std::isnan(f) && std::isnan(r) ? 0.0 : INFINITY;
        if(err > limit)
            ++o.mismatches;
        if(err > worst)
        {
            worst            = err;
            o.worstAt        = i;
            o.worstError     = err;
            o.forwardedValue = f;
            o.privateValue   = r;
        }
    }
    o.ok = o.mismatches == 0;
    return o;
}

std::string describe(const Outcome& o)
{
    std::ostringstream s;
    s << o.mismatches << " element(s) over the bound " << o.bound << "; worst at element " << o.worstAt
      << ": hipDNN " << o.forwardedValue << ", MIOpen " << o.privateValue << " (error " << o.worstError << ")";
    return s.str();
}

} // namespace verify
} // namespace wrapper
} // namespace miopen
