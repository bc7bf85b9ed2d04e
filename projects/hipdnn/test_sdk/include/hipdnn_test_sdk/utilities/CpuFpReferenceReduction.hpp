// CPU reference reduction, any rank and strides: y has x's rank and every dimension where y is 1
// and x is not is reduced. Accumulation in double. Modes (upstream's ReductionMode):
// ADD sum, MUL product, MIN_OP / MAX_OP, AMAX max |x|, AVG mean, NORM1 sum |x|, NORM2 sqrt(sum x^2),
// MUL_NO_ZEROS product of the non-zero elements (1 when every element is zero).
#pragma once

#include <hipdnn_data_sdk/data_objects/reduction_attributes_generated.h>
#include <hipdnn_test_sdk/utilities/Tensor.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <vector>

namespace hipdnn_test_sdk::utilities
{

class CpuFpReferenceReduction
{
public:
    using Mode = hipdnn_data_sdk::data_objects::ReductionMode;

    /// Number of x elements that reduce into one y element; throws for shapes that do not reduce.
    static int64_t reductionLength(const std::vector<int64_t>& x, const std::vector<int64_t>& y)
    {
        if(x.size() != y.size())
        {
            throw std::invalid_argument("reduction reference: x and y differ in rank");
        }
        int64_t n = 1;
        for(size_t i = 0; i < x.size(); ++i)
        {
            if(y[i] != x[i] && y[i] != 1)
            {
                throw std::invalid_argument("reduction reference: y dim " + std::to_string(i)
                                            + " is neither x's nor 1");
            }
            n *= y[i] == x[i] ? 1 : x[i];
        }
        return n;
    }

    template <typename TX, typename TY>
    static void reduce(Mode mode, TensorView<const TX> x, TensorView<TY> y)
    {
        const int64_t n = reductionLength(x.dims(), y.dims());
        if(mode == Mode::NOT_SET || static_cast<int>(mode) > static_cast<int>(Mode::MUL_NO_ZEROS))
        {
            throw std::invalid_argument("reduction reference: unknown mode");
        }
        const auto& yd = y.dims();
        const size_t count = static_cast<size_t>(y.elementCount());
        std::vector<double> acc(count, initial(mode));
        auto slot = [&](const std::vector<int64_t>& xi) {
            int64_t off = 0;
            for(size_t d = 0; d < yd.size(); ++d)
            {
                off = off * yd[d] + (yd[d] == 1 ? 0 : xi[d]);
            }
            return static_cast<size_t>(off);
        };
        forEachIndex(x.dims(), [&](const std::vector<int64_t>& i) {
            double& a = acc[slot(i)];
            const double v = toDouble(x.at(i));
            switch(mode)
            {
            case Mode::ADD:
            case Mode::AVG: a += v; break;
            case Mode::MUL: a *= v; break;
            case Mode::MUL_NO_ZEROS: a *= v == 0.0 ? 1.0 : v; break;
            case Mode::MIN_OP: a = std::min(a, v); break;
            case Mode::MAX_OP: a = std::max(a, v); break;
            case Mode::AMAX: a = std::max(a, std::fabs(v)); break;
            case Mode::NORM1: a += std::fabs(v); break;
            case Mode::NORM2: a += v * v; break;
            default: break;
            }
        });
        forEachIndex(yd, [&](const std::vector<int64_t>& o) {
            int64_t off = 0;
            for(size_t d = 0; d < yd.size(); ++d)
            {
                off = off * yd[d] + o[d];
            }
            double r = acc[static_cast<size_t>(off)];
            if(mode == Mode::AVG)
            {
                r /= static_cast<double>(n);
            }
            else if(mode == Mode::NORM2)
            {
                r = std::sqrt(r);
            }
            y.at(o) = fromDouble<TY>(r);
        });
    }

private:
    static double initial(Mode mode)
    {
        switch(mode)
        {
        case Mode::MUL:
        case Mode::MUL_NO_ZEROS: return 1.0;
        case Mode::MIN_OP: return std::numeric_limits<double>::infinity();
        case Mode::MAX_OP: return -std::numeric_limits<double>::infinity();
        default: return 0.0;
        }
    }
};

} // namespace hipdnn_test_sdk::utilities
