// MIOpen's activations as scalar functions for the CPU references of MIOpenDriver (activ, and
// the activation operator of CBAInfer): the test SDK's pointwise reference
// (CpuReferencePointwise) with the MIOpen mode mapped onto its pointwise operation; POWER, which
// has no pointwise twin, and the scaled TANH are composed here from the same scalar reference.
#pragma once

#include "Driver.hpp"

#include <hipdnn_test_sdk/utilities/pointwise/CpuReferencePointwise.hpp>

#include <cfloat>
#include <cmath>
#include <string>

namespace miopen_driver
{

// The activation y = f(x) and its gradient dx = f'(x) dy, with MIOpen's alpha, beta and gamma.
struct ActivationReference
{
    using Mode   = hipdnn_test_sdk::utilities::PointwiseMode;
    using Params = hipdnn_test_sdk::utilities::PointwiseParams;

    miopenActivationMode_t mode;
    double alpha, beta, gamma;

    double pw(Mode m, double a, double b, const Params& p = {}) const
    {
        return hipdnn_test_sdk::utilities::CpuReferencePointwise::apply(m, a, b, 0.0, p);
    }
    double forward(double x) const
    {
        Params p;
        switch(mode)
        {
        case miopenActivationPASTHRU: return pw(Mode::IDENTITY, x, 0.0);
        case miopenActivationLOGISTIC: return pw(Mode::SIGMOID_FWD, x, 0.0);
        case miopenActivationTANH: return beta * pw(Mode::TANH_FWD, alpha * x, 0.0);
        case miopenActivationRELU: return pw(Mode::RELU_FWD, x, 0.0);
        case miopenActivationSOFTRELU: return pw(Mode::SOFTPLUS_FWD, x, 0.0);
        case miopenActivationABS: return pw(Mode::ABS, x, 0.0);
        case miopenActivationPOWER:
        {
            const double v = alpha + beta * x;
            return v <= FLT_EPSILON ? 0.0 : std::pow(v, gamma);
        }
        case miopenActivationCLIPPEDRELU: p.reluUpperClip = alpha; return pw(Mode::RELU_FWD, x, 0.0, p);
        case miopenActivationLEAKYRELU: p.reluLowerClipSlope = alpha; return pw(Mode::RELU_FWD, x, 0.0, p);
        case miopenActivationELU: p.eluAlpha = alpha; return pw(Mode::ELU_FWD, x, 0.0, p);
        }
        throw DriverError("unknown activation mode " + std::to_string(static_cast<int>(mode)));
    }
    double backward(double dy, double x) const
    {
        Params p;
        switch(mode)
        {
        case miopenActivationPASTHRU: return dy;
        case miopenActivationLOGISTIC: return pw(Mode::SIGMOID_BWD, dy, x);
        case miopenActivationTANH: return beta * alpha * pw(Mode::TANH_BWD, dy, alpha * x);
        case miopenActivationRELU: return pw(Mode::RELU_BWD, dy, x);
        case miopenActivationSOFTRELU: return pw(Mode::SOFTPLUS_BWD, dy, x);
        case miopenActivationABS: return x > 0.0 ? dy : -dy;
        case miopenActivationPOWER:
        {
            const double v = alpha + beta * x;
            return v <= FLT_EPSILON ? 0.0 : dy * gamma * beta * std::pow(v, gamma - 1.0);
        }
        case miopenActivationCLIPPEDRELU: return (x > 0.0 && x <= alpha) ? dy : 0.0;
        case miopenActivationLEAKYRELU: p.reluLowerClipSlope = alpha; return pw(Mode::RELU_BWD, dy, x, p);
        case miopenActivationELU: p.eluAlpha = alpha; return pw(Mode::ELU_BWD, dy, x, p);
        }
        throw DriverError("unknown activation mode " + std::to_string(static_cast<int>(mode)));
    }
};

} // namespace miopen_driver
