// allClose: |impl - ref| <= atol + rtol * |ref| per element; NaN and Inf must match on both
// sides. Reports the first mismatch.
#pragma once

#include <hipdnn_test_sdk/utilities/Tensor.hpp>

#include <cmath>
#include <limits>
#include <sstream>
#include <string>

namespace hipdnn_test_sdk::utilities
{

template <typename T>
class CpuFpReferenceValidation
{
public:
    CpuFpReferenceValidation(double atol, double rtol)
        : _atol(atol)
        , _rtol(rtol)
    {
    }
    /// Defaults: atol = rtol = epsilon of T.
    CpuFpReferenceValidation()
        : CpuFpReferenceValidation(static_cast<double>(static_cast<float>(std::numeric_limits<T>::epsilon())),
                                   static_cast<double>(static_cast<float>(std::numeric_limits<T>::epsilon())))
    {
    }

    bool allClose(TensorView<const T> reference, TensorView<const T> implementation, std::string* why = nullptr) const
    {
        if(reference.dims() != implementation.dims())
        {
            if(why != nullptr)
            {
                *why = "shapes differ";
            }
            return false;
        }
        bool ok = true;
        size_t mismatches = 0;
        std::ostringstream first;
        forEachIndex(reference.dims(), [&](const std::vector<int64_t>& i) {
            const double r = toDouble(reference.at(i));
            const double v = toDouble(implementation.at(i));
            bool good;
            if(std::isnan(r) || std::isnan(v))
            {
                good = std::isnan(r) && std::isnan(v);
            }
            else if(std::isinf(r) || std::isinf(v))
            {
                good = r == v;
            }
            else
            {
                good = std::fabs(v - r) <= _atol + _rtol * std::fabs(r);
            }
            if(!good)
            {
                if(ok)
                {
                    first << "first mismatch at [";
                    for(size_t k = 0; k < i.size(); ++k)
                    {
                        first << (k ? "," : "") << i[k];
                    }
                    first << "]: reference " << r << ", got " << v << " (atol " << _atol << ", rtol "
                          << _rtol << ")";
                }
                ok = false;
                ++mismatches;
            }
        });
        if(!ok && why != nullptr)
        {
            *why = std::to_string(mismatches) + " mismatching element(s); " + first.str();
        }
        return ok;
    }

    bool allClose(const Tensor<T>& reference, const Tensor<T>& implementation, std::string* why = nullptr) const
    {
        return allClose(reference.view(), implementation.view(), why);
    }

private:
    double _atol;
    double _rtol;
};

} // namespace hipdnn_test_sdk::utilities
