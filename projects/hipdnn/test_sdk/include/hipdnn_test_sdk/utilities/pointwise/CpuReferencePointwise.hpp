// CPU reference of every pointwise mode. Inputs broadcast against the output (size-1 dims).
// Backward modes take in_0 = dy (incoming gradient) and in_1 = x (forward input).
// BINARY_SELECT: out = in_2 != 0 ? in_0 : in_1. GEN_INDEX: out = index along `axis`.
#pragma once

#include <hipdnn_data_sdk/flatbuffer_utilities/DataObjects.hpp>
#include <hipdnn_test_sdk/utilities/Tensor.hpp>

#include <cmath>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>

namespace hipdnn_test_sdk::utilities
{

using PointwiseMode = hipdnn_data_sdk::data_objects::PointwiseMode;

struct PointwiseParams
{
    double reluLowerClip = 0.0;
    double reluUpperClip = std::numeric_limits<double>::infinity();
    double reluLowerClipSlope = 0.0;
    double swishBeta = 1.0;
    double eluAlpha = 1.0;
    double softplusBeta = 1.0;
    int64_t axis = 0;
};

/// Number of inputs a mode reads (1, 2 or 3); throws for UNSET/unknown.
inline int pointwiseArity(PointwiseMode mode)
{
    switch(mode)
    {
    case PointwiseMode::ABS: case PointwiseMode::CEIL: case PointwiseMode::ELU_FWD:
    case PointwiseMode::ERF: case PointwiseMode::EXP: case PointwiseMode::FLOOR:
    case PointwiseMode::GELU_APPROX_TANH_FWD: case PointwiseMode::GELU_FWD:
    case PointwiseMode::GEN_INDEX: case PointwiseMode::IDENTITY: case PointwiseMode::LOG:
    case PointwiseMode::LOGICAL_NOT: case PointwiseMode::NEG: case PointwiseMode::RECIPROCAL:
    case PointwiseMode::RELU_FWD: case PointwiseMode::RSQRT: case PointwiseMode::SIGMOID_FWD:
    case PointwiseMode::SIN: case PointwiseMode::SOFTPLUS_FWD: case PointwiseMode::SQRT:
    case PointwiseMode::SWISH_FWD: case PointwiseMode::TAN: case PointwiseMode::TANH_FWD:
        return 1;
    case PointwiseMode::BINARY_SELECT:
        return 3;
    case PointwiseMode::UNSET:
        throw std::invalid_argument("pointwise mode is UNSET");
    default:
        return 2;
    }
}

class CpuReferencePointwise
{
public:
    static double apply(PointwiseMode mode, double a, double b, double c, const PointwiseParams& p)
    {
        constexpr double kPi = 3.14159265358979323846;
        auto sigmoid = [](double v) { return 1.0 / (1.0 + std::exp(-v)); };
        auto geluTanhInner = [&](double v) { return std::sqrt(2.0 / kPi) * (v + 0.044715 * v * v * v); };
        switch(mode)
        {
        case PointwiseMode::ABS: return std::fabs(a);
        case PointwiseMode::ADD: return a + b;
        case PointwiseMode::ADD_SQUARE: return a + b * b;
        case PointwiseMode::BINARY_SELECT: return c != 0.0 ? a : b;
        case PointwiseMode::CEIL: return std::ceil(a);
        case PointwiseMode::CMP_EQ: return a == b ? 1.0 : 0.0;
        case PointwiseMode::CMP_GE: return a >= b ? 1.0 : 0.0;
        case PointwiseMode::CMP_GT: return a > b ? 1.0 : 0.0;
        case PointwiseMode::CMP_LE: return a <= b ? 1.0 : 0.0;
        case PointwiseMode::CMP_LT: return a < b ? 1.0 : 0.0;
        case PointwiseMode::CMP_NEQ: return a != b ? 1.0 : 0.0;
        case PointwiseMode::DIV: return a / b;
        case PointwiseMode::ELU_BWD: return b > 0.0 ? a : a * p.eluAlpha * std::exp(b);
        case PointwiseMode::ELU_FWD: return a > 0.0 ? a : p.eluAlpha * (std::exp(a) - 1.0);
        case PointwiseMode::ERF: return std::erf(a);
        case PointwiseMode::EXP: return std::exp(a);
        case PointwiseMode::FLOOR: return std::floor(a);
        case PointwiseMode::GELU_APPROX_TANH_BWD:
        {
            const double t = std::tanh(geluTanhInner(b));
            const double dInner = std::sqrt(2.0 / kPi) * (1.0 + 3.0 * 0.044715 * b * b);
            return a * (0.5 * (1.0 + t) + 0.5 * b * (1.0 - t * t) * dInner);
        }
        case PointwiseMode::GELU_APPROX_TANH_FWD: return 0.5 * a * (1.0 + std::tanh(geluTanhInner(a)));
        case PointwiseMode::GELU_BWD:
        {
            const double cdf = 0.5 * (1.0 + std::erf(b / std::sqrt(2.0)));
            const double pdf = std::exp(-0.5 * b * b) / std::sqrt(2.0 * kPi);
            return a * (cdf + b * pdf);
        }
        case PointwiseMode::GELU_FWD: return 0.5 * a * (1.0 + std::erf(a / std::sqrt(2.0)));
        case PointwiseMode::IDENTITY: return a;
        case PointwiseMode::LOG: return std::log(a);
        case PointwiseMode::LOGICAL_AND: return (a != 0.0 && b != 0.0) ? 1.0 : 0.0;
        case PointwiseMode::LOGICAL_NOT: return a == 0.0 ? 1.0 : 0.0;
        case PointwiseMode::LOGICAL_OR: return (a != 0.0 || b != 0.0) ? 1.0 : 0.0;
        case PointwiseMode::MAX_OP: return std::fmax(a, b);
        case PointwiseMode::MIN_OP: return std::fmin(a, b);
        case PointwiseMode::MUL: return a * b;
        case PointwiseMode::NEG: return -a;
        case PointwiseMode::RECIPROCAL: return 1.0 / a;
        case PointwiseMode::RELU_BWD:
            return (b > p.reluLowerClip && b < p.reluUpperClip) ? a
                   : (b <= p.reluLowerClip ? a * p.reluLowerClipSlope : 0.0);
        case PointwiseMode::RELU_FWD:
        {
            if(a <= p.reluLowerClip)
            {
                return p.reluLowerClip + p.reluLowerClipSlope * (a - p.reluLowerClip);
            }
            return std::fmin(a, p.reluUpperClip);
        }
        case PointwiseMode::RSQRT: return 1.0 / std::sqrt(a);
        case PointwiseMode::SIGMOID_BWD: return a * sigmoid(b) * (1.0 - sigmoid(b));
        case PointwiseMode::SIGMOID_FWD: return sigmoid(a);
        case PointwiseMode::SIN: return std::sin(a);
        case PointwiseMode::SOFTPLUS_BWD: return a * sigmoid(p.softplusBeta * b);
        case PointwiseMode::SOFTPLUS_FWD: return std::log1p(std::exp(p.softplusBeta * a)) / p.softplusBeta;
        case PointwiseMode::SQRT: return std::sqrt(a);
        case PointwiseMode::SUB: return a - b;
        case PointwiseMode::SWISH_BWD:
        {
            const double s = sigmoid(p.swishBeta * b);
            return a * (s + p.swishBeta * b * s * (1.0 - s));
        }
        case PointwiseMode::SWISH_FWD: return a * sigmoid(p.swishBeta * a);
        case PointwiseMode::TAN: return std::tan(a);
        case PointwiseMode::TANH_BWD: return a * (1.0 - std::tanh(b) * std::tanh(b));
        case PointwiseMode::TANH_FWD: return std::tanh(a);
        default:
            throw std::invalid_argument("pointwise mode "
                                        + std::string(hipdnn_data_sdk::data_objects::EnumNamePointwiseMode(mode))
                                        + " has no reference");
        }
    }

    /// out = mode(in0[, in1[, in2]]) elementwise with broadcasting of the inputs.
    template <typename TIn, typename TOut>
    static void compute(PointwiseMode mode, TensorView<TOut> out, TensorView<const TIn> in0,
                        const TensorView<const TIn>* in1, const TensorView<const TIn>* in2,
                        const PointwiseParams& p)
    {
        const int arity = pointwiseArity(mode);
        if((arity >= 2 && in1 == nullptr) || (arity >= 3 && in2 == nullptr))
        {
            throw std::invalid_argument("pointwise mode needs " + std::to_string(arity) + " inputs");
        }
        forEachIndex(out.dims(), [&](const std::vector<int64_t>& i) {
            if(mode == PointwiseMode::GEN_INDEX)
            {
                out.at(i) = fromDouble<TOut>(static_cast<double>(i.at(static_cast<size_t>(p.axis))));
                return;
            }
            const double a = toDouble(in0.data()[in0.broadcastOffset(i)]);
            const double b = in1 != nullptr ? toDouble(in1->data()[in1->broadcastOffset(i)]) : 0.0;
            const double c = in2 != nullptr ? toDouble(in2->data()[in2->broadcastOffset(i)]) : 0.0;
            out.at(i) = fromDouble<TOut>(static_cast<double>(apply(mode, a, b, c, p)));
        });
    }
};

} // namespace hipdnn_test_sdk::utilities
