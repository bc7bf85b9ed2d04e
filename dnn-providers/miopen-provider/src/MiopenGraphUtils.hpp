// Helpers of the graph analyses: declines with reasons, hipDNN tensors as MIOpen tensor
// descriptors, per-channel vectors, pass-by-value scalars and activation modes.
#pragma once

#include "MiopenPlan.hpp"

#include <hipdnn_data_sdk/flatbuffer_utilities/DataTypeUtils.hpp>
#include <hipdnn_plugin_sdk/GraphView.hpp>

#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace miopen_provider
{

namespace dobj = hipdnn_data_sdk::data_objects;
using hipdnn_plugin_sdk::GraphView;

/// Thrown by the analyses when the provider does not run a graph; carries the reason.
class Decline : public std::runtime_error
{
public:
    using std::runtime_error::runtime_error;
};

inline void declineIf(bool condition, const std::string& why)
{
    if(condition)
    {
        throw Decline(why);
    }
}

/// What every plan builder gets: the engine's flavour and the handle the plan will own.
struct BuildContext
{
    bool deterministic = false;
    Handle handle;
};

inline std::vector<int64_t> vec(const flatbuffers::Vector<int64_t>* v)
{
    return v == nullptr ? std::vector<int64_t>() : std::vector<int64_t>(v->begin(), v->end());
}

std::string label(const dobj::TensorAttributes& t);
std::string dimsText(const std::vector<int64_t>& d);

/// MIOpen's type of a tensor: fp32, fp16 and bf16; every other type is declined.
miopenDataType_t miopenType(const dobj::TensorAttributes& t);
size_t elementSize(miopenDataType_t type);

/// A MIOpen descriptor with the tensor's dims, strides and type (declines what MIOpen cannot
/// describe: no dims, more than 8, values beyond int).
TensorDesc tensorDesc(const dobj::TensorAttributes& t);
/// A packed descriptor of `dims` and `type` (workspace buffers).
TensorDesc packedDesc(const std::vector<int64_t>& dims, miopenDataType_t type);

/// A per-channel tensor ([C], [1,C,1,...]) as MIOpen's 1xCx1.. parameter descriptor of rank
/// `rank`; declines tensors that are virtual or not a vector of `channels` values.
TensorDesc channelDesc(const dobj::TensorAttributes& t, int64_t channels, size_t rank);

/// The value of a pass-by-value scalar tensor.
double scalarValue(const dobj::TensorAttributes& t);

/// A MIOpen activation (mode and its alpha/beta/gamma) of a pointwise node.
struct Activation
{
    miopenActivationMode_t mode = miopenActivationPASTHRU;
    double alpha = 0.0, beta = 0.0, gamma = 0.0;
    bool backward = false;
    std::string text;
};
/// The activation of a unary forward mode (or of a backward mode when `allowBackward`); declines
/// modes MIOpen has no activation for.
Activation activationFor(const dobj::PointwiseAttributes& p, bool allowBackward);

/// Declines compute types other than FLOAT (MIOpen computes in fp32) and mixed tensor types.
void checkComputeTypes(const GraphView& graph);

// The graph kinds: each returns the plan or throws Decline.
std::unique_ptr<MiopenPlan> buildConvFprop(const GraphView& graph, const BuildContext& ctx);
std::unique_ptr<MiopenPlan> buildConvDgrad(const GraphView& graph, const BuildContext& ctx);
std::unique_ptr<MiopenPlan> buildConvWgrad(const GraphView& graph, const BuildContext& ctx);
std::unique_ptr<MiopenPlan> buildConvFusion(const GraphView& graph, const BuildContext& ctx);
std::unique_ptr<MiopenPlan> buildBatchnormInference(const GraphView& graph, const BuildContext& ctx);
std::unique_ptr<MiopenPlan> buildBatchnormTraining(const GraphView& graph, const BuildContext& ctx);
std::unique_ptr<MiopenPlan> buildBatchnormBackward(const GraphView& graph, const BuildContext& ctx);
std::unique_ptr<MiopenPlan> buildActivation(const GraphView& graph, const BuildContext& ctx);
std::unique_ptr<MiopenPlan> buildResampleFwd(const GraphView& graph, const BuildContext& ctx);
std::unique_ptr<MiopenPlan> buildResampleBwd(const GraphView& graph, const BuildContext& ctx);
/// SoftmaxPlans.cpp: the softmax composite (hipdnn_plugin_sdk/SoftmaxComposite.hpp).
bool isSoftmaxComposite(const GraphView& graph);
std::unique_ptr<MiopenPlan> buildSoftmax(const GraphView& graph, const BuildContext& ctx);

} // namespace miopen_provider
