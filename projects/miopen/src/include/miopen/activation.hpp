// Activation: the descriptor behind miopenActivationDescriptor_t and the element functions of the
// ten upstream modes, shared by the activation calls and the fusion epilogues.
#pragma once

#include <miopen/handle.hpp>
#include <miopen/object.hpp>
#include <miopen/tensor.hpp>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstddef>
#include <initializer_list>
#include <string>

namespace miopen {

// Parameters of one activation: mode and upstream's alpha, beta, gamma.
struct ActivationParams
{
    miopenActivationMode_t mode = miopenActivationPASTHRU;
    double alpha = 0.0, beta = 0.0, gamma = 0.0;
};

class ActivationDescriptor : public Object<miopenActivationDescriptor, ObjectKind::Activation>
{
public:
    void set(const ActivationParams& p) noexcept { _params = p; _isSet = true; }
    bool isSet() const noexcept { return _isSet; }
    // Throws NotInitialized when never set.
    const ActivationParams& params() const;
    // "{miopenActivationRELU, alpha 1, beta 0, gamma 0}" or "{unset}" (API logging).
    std::string toString() const;

private:
    ActivationParams _params;
    bool _isSet = false;
};

// The enumerator's name ("miopenActivationRELU"), or "unknown".
const char* activationModeName(miopenActivationMode_t mode) noexcept;

// MIOpenDriver flags reproducing an activation call on x (MIOPEN_ENABLE_LOGGING_CMD), as
// upstream's LogCmdActivation: "activ[fp16|bfp16] -n N -c C -H H -W W -m <mode> --forw 1|2
// -A alpha -B beta -G gamma" (--forw 1 forward, 2 backward).
std::string activationDriverArgs(const TensorDescriptor& x, const ActivationParams& p, bool forward);

// The valid mode values (0..9), for checkedEnum.
inline constexpr std::initializer_list<int> kActivationModes = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9};

// f(x) for one element, computed in float.
class ActivationFn
{
public:
    explicit ActivationFn(const ActivationParams& p)
        : _mode(p.mode), _a(static_cast<float>(p.alpha)), _b(static_cast<float>(p.beta)), _g(static_cast<float>(p.gamma))
    {
    }

    float forward(float x) const noexcept
    {
        switch(_mode)
        {
        case miopenActivationPASTHRU: return x;
        case miopenActivationLOGISTIC: return 1.0f / (1.0f + std::exp(-x));
        case miopenActivationTANH: return _b * std::tanh(_a * x);
        case miopenActivationRELU: return x > 0.0f ? x : 0.0f;
        case miopenActivationSOFTRELU: return x > 0.0f ? x + std::log1p(std::exp(-x)) : std::log1p(std::exp(x));
        case miopenActivationABS: return std::fabs(x);
        case miopenActivationPOWER:
        {
            const float v = _a + _b * x;
            return v <= FLT_EPSILON ? 0.0f : std::pow(v, _g);
        }
        case miopenActivationCLIPPEDRELU: return std::min(_a, std::max(0.0f, x));
        case miopenActivationLEAKYRELU: return x > 0.0f ? x : _a * x;
        case miopenActivationELU: return x > 0.0f ? x : _a * std::expm1(x);
        }
        return x;
    }

    // v[i] = forward(v[i]) for i < n, with the mode chosen once per row (the piecewise-linear
    // modes are plain vectorisable loops). Same results as forward().
    void forwardRow(float* v, std::size_t n) const noexcept
    {
        switch(_mode)
        {
        case miopenActivationPASTHRU: return;
        case miopenActivationRELU:
            for(std::size_t i = 0; i < n; ++i)
                v[i] = v[i] > 0.0f ? v[i] : 0.0f;
            return;
        case miopenActivationLEAKYRELU:
            for(std::size_t i = 0; i < n; ++i)
                v[i] = v[i] > 0.0f ? v[i] : _a * v[i];
            return;
        case miopenActivationCLIPPEDRELU:
            for(std::size_t i = 0; i < n; ++i)
                v[i] = std::min(_a, std::max(0.0f, v[i]));
            return;
        case miopenActivationABS:
            for(std::size_t i = 0; i < n; ++i)
                v[i] = std::fabs(v[i]);
            return;
        default:
            for(std::size_t i = 0; i < n; ++i)
                v[i] = forward(v[i]);
            return;
        }
    }

    // dL/dx from dy, the forward input x and the forward output y.
    float backward(float dy, float x, float y) const noexcept
    {
        switch(_mode)
        {
        case miopenActivationPASTHRU: return dy;
        case miopenActivationLOGISTIC: return dy * y * (1.0f - y);
        case miopenActivationTANH: return std::fabs(_b) <= FLT_EPSILON ? 0.0f : dy * _a * (_b - y * y / _b);
        case miopenActivationRELU: return x > 0.0f ? dy : 0.0f;
        case miopenActivationSOFTRELU:
        {
            const float e = std::exp(std::min(x, 50.0f));
            return dy * e / (e + 1.0f);
        }
        case miopenActivationABS: return x > 0.0f ? dy : -dy;
        case miopenActivationPOWER:
        {
            const float v = _a + _b * x;
            return v <= FLT_EPSILON ? 0.0f : dy * _g * _b * y / v;
        }
        case miopenActivationCLIPPEDRELU: return (x > 0.0f && x <= _a) ? dy : 0.0f;
        case miopenActivationLEAKYRELU: return x > 0.0f ? dy : dy * _a;
        case miopenActivationELU: return x > 0.0f ? dy : dy * (y + _a);
        }
        return dy;
    }

private:
    miopenActivationMode_t _mode;
    float _a, _b, _g;
};

// y = alpha * f(x) + beta * y (beta == 0: y is not read).
void activationForward(const Handle& handle,
                       const ActivationParams& p,
                       float alpha,
                       const TensorDescriptor& xDesc,
                       const void* x,
                       float beta,
                       const TensorDescriptor& yDesc,
                       void* y);

// dx = alpha * f'(x, y) * dy + beta * dx.
void activationBackward(const Handle& handle,
                        const ActivationParams& p,
                        float alpha,
                        const TensorDescriptor& yDesc,
                        const void* y,
                        const TensorDescriptor& dyDesc,
                        const void* dy,
                        const TensorDescriptor& xDesc,
                        const void* x,
                        float beta,
                        const TensorDescriptor& dxDesc,
                        void* dx);

} // namespace miopen
