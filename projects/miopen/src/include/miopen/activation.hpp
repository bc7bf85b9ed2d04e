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
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <string>
#include <type_traits>

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

    // Calls f(std::integral_constant<miopenActivationMode_t, mode>{}) so loops over many
    // elements choose the mode once; an unknown mode is treated as PASTHRU.
    template <class F>
    void visitMode(F&& f) const
    {
        switch(_mode)
        {
        case miopenActivationPASTHRU: break;
        case miopenActivationLOGISTIC: f(Mode<miopenActivationLOGISTIC>{}); return;
        case miopenActivationTANH: f(Mode<miopenActivationTANH>{}); return;
        case miopenActivationRELU: f(Mode<miopenActivationRELU>{}); return;
        case miopenActivationSOFTRELU: f(Mode<miopenActivationSOFTRELU>{}); return;
        case miopenActivationABS: f(Mode<miopenActivationABS>{}); return;
        case miopenActivationPOWER: f(Mode<miopenActivationPOWER>{}); return;
        case miopenActivationCLIPPEDRELU: f(Mode<miopenActivationCLIPPEDRELU>{}); return;
        case miopenActivationLEAKYRELU: f(Mode<miopenActivationLEAKYRELU>{}); return;
        case miopenActivationELU: f(Mode<miopenActivationELU>{}); return;
        }
        f(Mode<miopenActivationPASTHRU>{});
    }

    // f(x) of mode M (the piecewise-linear modes compile to plain vectorisable expressions).
    template <miopenActivationMode_t M>
    float forwardAs(float x) const noexcept
    {
        if constexpr(M == miopenActivationLOGISTIC)
            return 1.0f / (1.0f + std::exp(-x));
        else if constexpr(M == miopenActivationTANH)
            return _b * std::tanh(_a * x);
        else if constexpr(M == miopenActivationRELU)
            return x > 0.0f ? x : 0.0f;
        else if constexpr(M == miopenActivationSOFTRELU)
            return x > 0.0f ? x + std::log1p(std::exp(-x)) : std::log1p(std::exp(x));
        else if constexpr(M == miopenActivationABS)
            return std::fabs(x);
        else if constexpr(M == miopenActivationPOWER)
        {
            const float v = _a + _b * x;
            return v <= FLT_EPSILON ? 0.0f : std::pow(v, _g);
        }
        else if constexpr(M == miopenActivationCLIPPEDRELU)
            return std::min(_a, std::max(0.0f, x));
        else if constexpr(M == miopenActivationLEAKYRELU)
            return select(x > 0.0f, x, _a * x);
        else if constexpr(M == miopenActivationELU)
            return x > 0.0f ? x : _a * std::expm1(x);
        else
            return x;
    }

    // dL/dx of mode M from dy, the forward input x and the forward output y.
    template <miopenActivationMode_t M>
    float backwardAs(float dy, [[maybe_unused]] float x, [[maybe_unused]] float y) const noexcept
    {
        if constexpr(M == miopenActivationLOGISTIC)
            return dy * y * (1.0f - y);
        else if constexpr(M == miopenActivationTANH)
            return std::fabs(_b) <= FLT_EPSILON ? 0.0f : dy * _a * (_b - y * y / _b);
        else if constexpr(M == miopenActivationRELU)
            return select(x > 0.0f, dy, 0.0f);
        else if constexpr(M == miopenActivationSOFTRELU)
        {
            const float e = std::exp(std::min(x, 50.0f));
            return dy * e / (e + 1.0f);
        }
        else if constexpr(M == miopenActivationABS)
            return select(x > 0.0f, dy, -dy);
        else if constexpr(M == miopenActivationPOWER)
        {
            const float v = _a + _b * x;
            return v <= FLT_EPSILON ? 0.0f : dy * _g * _b * y / v;
        }
        else if constexpr(M == miopenActivationCLIPPEDRELU)
            return select((x > 0.0f) & (x <= _a), dy, 0.0f);
        else if constexpr(M == miopenActivationLEAKYRELU)
            return select(x > 0.0f, dy, dy * _a);
        else if constexpr(M == miopenActivationELU)
            return x > 0.0f ? dy : dy * (y + _a);
        else
            return dy;
    }

    // Which operands backwardAs<M> reads, so dense loops skip loading the others.
    static constexpr bool backwardReadsX(miopenActivationMode_t m) noexcept
    {
        return m != miopenActivationPASTHRU && m != miopenActivationLOGISTIC && m != miopenActivationTANH;
    }
    static constexpr bool backwardReadsY(miopenActivationMode_t m) noexcept
    {
        return m == miopenActivationLOGISTIC || m == miopenActivationTANH || m == miopenActivationPOWER ||
               m == miopenActivationELU;
    }

    float forward(float x) const noexcept
    {
        float r = x;
        visitMode([&](auto m) { r = forwardAs<decltype(m)::value>(x); });
        return r;
    }

    // v[i] = forward(v[i]) for i < n, with the mode chosen once per row. Same results as forward().
    void forwardRow(float* v, std::size_t n) const noexcept
    {
        visitMode([&](auto m) {
            for(std::size_t i = 0; i < n; ++i)
                v[i] = forwardAs<decltype(m)::value>(v[i]);
        });
    }

    float backward(float dy, float x, float y) const noexcept
    {
        float r = dy;
        visitMode([&](auto m) { r = backwardAs<decltype(m)::value>(dy, x, y); });
        return r;
    }

private:
    // c ? a : b through integer masks: both operands are computed and the loops that use it
    // vectorise (GCC keeps a float select whose operands may trap as a branch).
    static float select(bool c, float a, float b) noexcept
    {
        std::uint32_t ia, ib;
        std::memcpy(&ia, &a, sizeof ia);
        std::memcpy(&ib, &b, sizeof ib);
        const std::uint32_t m = 0u - static_cast<std::uint32_t>(c);
        const std::uint32_t r = (ia & m) | (ib & ~m);
        float f;
        std::memcpy(&f, &r, sizeof f);
        return f;
    }

    template <miopenActivationMode_t M>
    using Mode = std::integral_constant<miopenActivationMode_t, M>;

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
