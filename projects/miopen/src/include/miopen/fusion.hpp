// Fusion plans: operators chained on one input, compiled to a fused execution (a producer -- a
// convolution solver or batchnorm inference -- followed by one epilogue pass that applies bias,
// batchnorm inference and activation to each output element), and the fused
// convolution + residual + bias + activation call.
#pragma once

#include <miopen/activation.hpp>
#include <miopen/batchnorm.hpp>
#include <miopen/conv/operations.hpp>
#include <miopen/convolution.hpp>
#include <miopen/handle.hpp>
#include <miopen/object.hpp>
#include <miopen/tensor.hpp>

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace miopen {

enum class FusionOpKind
{
    ConvForward,
    BiasForward,
    ActivForward,
    ActivBackward,
    BnInference,
    BnForwardTraining,
    BnBackward,
};

const char* fusionOpKindName(FusionOpKind k);

class FusionOp : public Object<miopenFusionOpDescriptor, ObjectKind::FusionOp>
{
public:
    FusionOpKind kind = FusionOpKind::ConvForward;
    ConvolutionDescriptor conv;                        // ConvForward
    TensorDescriptor desc;                             // ConvForward: weights; BiasForward: bias;
                                                       // BnInference: scale/bias/mean/var
    miopenActivationMode_t activMode = miopenActivationPASTHRU; // Activ*
    miopenBatchNormMode_t bnMode     = miopenBNSpatial;         // Bn*
    bool runningMeanVariance         = false;                   // BnForwardTraining

    // "{convolution forward, {conv2d, ...}, {FP32, ...}}" (API logging).
    std::string toString() const;
};

// Arguments of one operator as the setters record them (pointers are borrowed).
struct FusionOpArgs
{
    float alpha = 1.0f, beta = 0.0f;
    const void* w = nullptr;     // ConvForward
    const void* bias = nullptr;  // BiasForward; bnBias of the Bn ops
    const void* scale = nullptr; // Bn ops
    const void* mean = nullptr;  // estimated / saved mean
    const void* var = nullptr;   // estimated variance / saved inverse variance
    void* savedMean = nullptr, *savedInvVar = nullptr, *runningMean = nullptr, *runningVar = nullptr;
    const void* x = nullptr, *y = nullptr;
    void* dScale = nullptr, *dBias = nullptr;
    double epsilon = 0.0, expAvgFactor = 0.0;
    ActivationParams activ;
};

class OperatorArgs : public Object<miopenOperatorArgs, ObjectKind::OperatorArgs>
{
public:
    void set(const FusionOp* op, const FusionOpArgs& a) { _args[op] = a; }
    const FusionOpArgs* find(const FusionOp* op) const;

private:
    std::map<const FusionOp*, FusionOpArgs> _args;
};

class FusionPlan : public Object<miopenFusionPlanDescriptor, ObjectKind::FusionPlan>
{
public:
    FusionPlan(miopenFusionDirection_t dir, const TensorDescriptor& input) : _dir(dir), _input(input) {}

    FusionOp& addOp(std::unique_ptr<FusionOp> op);
    FusionOp& op(int index) const; // BadParm when out of range
    std::size_t opCount() const noexcept { return _ops.size(); }
    const FusionOp* convOp() const noexcept;

    void setConvAlgorithm(miopenConvAlgorithm_t a) { _algo = a; _compiled.reset(); }
    // Algorithms of the applicable solvers for the convolution operator, preferred first.
    std::vector<miopenConvAlgorithm_t> convAlgorithms() const;

    // Success, or UnsupportedOp with the reason in `why` (no exception for an unfusable plan).
    // Throws BadParm when operator shapes do not chain.
    miopenStatus_t compile(std::string& why);
    bool isCompiled() const noexcept { return _compiled.has_value(); }

    void execute(const Handle& handle,
                 const TensorDescriptor& inputDesc,
                 const void* input,
                 const TensorDescriptor& outputDesc,
                 void* output,
                 const OperatorArgs& args) const;

    // "{miopenVerticalFusion, input {FP32, ...}, 3 operators: convolution forward, bias forward,
    // activation forward, compiled}" (API logging).
    std::string toString() const;

    // MIOpenDriver flags reproducing the plan (MIOPEN_ENABLE_LOGGING_CMD), as upstream's
    // LogCmdFusion: "CBAInfer[fp16|bfp16] -F <fusion mode>" then the convolution's geometry flags
    // (" -n ... -j 1 -g 1") or, for batchnorm inference + activation (mode 2), the batchnorm ones
    // (" -n ... -m <bn mode>"). Modes (upstream's): 0 conv+bias+bn+activ, 1 conv+bn+activ,
    // 2 bn+activ, 3 conv+bn, 4 conv+bias+activ, 5 conv+activ, 6 conv+bias. Empty for any other
    // sequence (upstream prints no command for those either).
    std::string driverArgs() const;

private:
    struct Compiled
    {
        TensorDescriptor output;
        const conv::Solver* solver = nullptr;
        std::optional<conv::ApiProblem> problem;
    };

    miopenFusionDirection_t _dir;
    TensorDescriptor _input;
    std::vector<std::unique_ptr<FusionOp>> _ops;
    std::optional<miopenConvAlgorithm_t> _algo;
    std::optional<Compiled> _compiled;
};

// The CBAInfer command of a fused convolution (fusion mode 4 = conv + bias + activation) on the
// problem's forward geometry, as FusionPlan::driverArgs.
std::string convFusionDriverArgs(int fusionMode, const conv::ApiProblem& problem);

// y = act(alpha1 * conv(x, w) + alpha2 * z + bias); z may be null. Throws NotImplemented for a
// mode other than RELU (as upstream) and UnsupportedOp when no solver of `algo` applies.
void convBiasActivForward(const Handle& handle,
                          float alpha1,
                          const TensorDescriptor& xDesc,
                          const void* x,
                          const TensorDescriptor& wDesc,
                          const void* w,
                          const ConvolutionDescriptor& conv,
                          miopenConvAlgorithm_t algo,
                          float alpha2,
                          const TensorDescriptor* zDesc,
                          const void* z,
                          const TensorDescriptor& biasDesc,
                          const void* bias,
                          const ActivationParams& activ,
                          const TensorDescriptor& yDesc,
                          void* y);

} // namespace miopen
