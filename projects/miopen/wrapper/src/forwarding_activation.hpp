// MIOpen activation descriptors as hipDNN pointwise nodes: one translation shared by every
// forwarded family that carries an activation (convolution bias-activation, the fusion-plan API,
// the activation family). Internal to libMIOpen.so.
//
// MIOpen's modes (y = f(x), with the descriptor's alpha, beta, gamma) and their pointwise form:
//   PASTHRU      y = x                        IDENTITY            (backward: dx = dy, IDENTITY of dy)
//   LOGISTIC     y = 1 / (1 + e^-x)           SIGMOID_FWD / SIGMOID_BWD
//   TANH         y = beta * tanh(alpha * x)   TANH_FWD / TANH_BWD, only alpha = beta = 1
//   RELU         y = max(0, x)                RELU_FWD / RELU_BWD
//   SOFTRELU     y = log(1 + e^x)             SOFTPLUS_FWD / SOFTPLUS_BWD, softplus beta 1
//   ABS          y = |x|                      ABS (forward only: no pointwise mode is its backward)
//   POWER        y = (alpha + beta * x)^gamma declined: no pointwise mode
//   CLIPPEDRELU  y = min(alpha, max(0, x))    RELU_FWD with upper clip alpha (forward only: MIOpen's
//                                             backward passes dy at x == alpha, RELU_BWD gives 0)
//   LEAKYRELU    y = x > 0 ? x : alpha * x    RELU_FWD / RELU_BWD with lower clip slope alpha
//   ELU          y = x > 0 ? x : alpha(e^x-1) ELU_FWD / ELU_BWD with elu alpha
#pragma once

#include <miopen/miopen.h>

#include <hipdnn_frontend/Graph.hpp>

#include <cstring>

namespace miopen {
namespace wrapper {
namespace fwd {
namespace core {

struct ActivationTranslation
{
    bool ok            = false;
    const char* reason = nullptr; // the decline reason (trace text) when !ok
    hipdnn_frontend::graph::PointwiseAttributes attributes; // mode and parameters; compute type FLOAT
};

// The pointwise node of MIOpen activation `mode` with the descriptor's parameters, forward or
// backward. `mode` is the raw value Private returned from miopenGetActivationDescriptor_impl.
inline ActivationTranslation translateActivation(int mode, double alpha, double beta, double gamma, bool backward)
{
    namespace fe = hipdnn_frontend;
    (void)gamma;
    ActivationTranslation t;
    t.attributes.set_compute_data_type(fe::DataType::FLOAT);
    auto use = [&](fe::PointwiseMode fwd, fe::PointwiseMode bwd) {
        t.ok = true;
        t.attributes.set_mode(backward ? bwd : fwd);
    };
    const float a = static_cast<float>(alpha);
    switch(mode)
    {
    case miopenActivationPASTHRU: use(fe::PointwiseMode::IDENTITY, fe::PointwiseMode::IDENTITY); break;
    case miopenActivationLOGISTIC: use(fe::PointwiseMode::SIGMOID_FWD, fe::PointwiseMode::SIGMOID_BWD); break;
    case miopenActivationTANH:
        if(alpha != 1.0 || beta != 1.0)
        {
            t.reason = "activation-tanh-scaled"; // beta * tanh(alpha * x): no pointwise parameters
            return t;
        }
        use(fe::PointwiseMode::TANH_FWD, fe::PointwiseMode::TANH_BWD);
        break;
    case miopenActivationRELU: use(fe::PointwiseMode::RELU_FWD, fe::PointwiseMode::RELU_BWD); break;
    case miopenActivationSOFTRELU:
        use(fe::PointwiseMode::SOFTPLUS_FWD, fe::PointwiseMode::SOFTPLUS_BWD);
        t.attributes.set_softplus_beta(1.0f);
        break;
    case miopenActivationABS:
        if(backward)
        {
            t.reason = "activation-abs-backward"; // no pointwise mode computes sign(x) * dy
            return t;
        }
        use(fe::PointwiseMode::ABS, fe::PointwiseMode::ABS);
        break;
    case miopenActivationCLIPPEDRELU:
        if(backward)
        {
            t.reason = "activation-clipped-backward"; // dx = dy for 0 < x <= alpha: the node's bound is open
            return t;
        }
        use(fe::PointwiseMode::RELU_FWD, fe::PointwiseMode::RELU_BWD);
        t.attributes.set_relu_upper_clip(a);
        break;
    case miopenActivationLEAKYRELU:
        use(fe::PointwiseMode::RELU_FWD, fe::PointwiseMode::RELU_BWD);
        t.attributes.set_relu_lower_clip_slope(a);
        break;
    case miopenActivationELU:
        use(fe::PointwiseMode::ELU_FWD, fe::PointwiseMode::ELU_BWD);
        t.attributes.set_elu_alpha(a);
        break;
    case miopenActivationPOWER: t.reason = "activation-power"; return t; // (alpha + beta x)^gamma
    default: t.reason = "activation-mode"; return t;
    }
    return t;
}

} // namespace core
} // namespace fwd
} // namespace wrapper
} // namespace miopen
