// Helpers of the graph analyses: declines with reasons, hipDNN tensors as oneDNN memory
// descriptors, per-channel vectors and pass-by-value scalars.
#pragma once

#include "DnnlPlan.hpp"
#include "DnnlRuntime.hpp"

#include <hipdnn_data_sdk/flatbuffer_utilities/DataTypeUtils.hpp>
#include <hipdnn_data_sdk/types.hpp>
#include <hipdnn_plugin_sdk/GraphView.hpp>

#include <oneapi/dnnl/dnnl.hpp>

#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace dnnl_provider
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

inline std::vector<int64_t> vec(const flatbuffers::Vector<int64_t>* v)
{
    return v == nullptr ? std::vector<int64_t>() : std::vector<int64_t>(v->begin(), v->end());
}

inline std::string label(const dobj::TensorAttributes& t)
{
    std::string name = t.name() != nullptr && t.name()->size() > 0 ? "'" + t.name()->str() + "' " : std::string();
    return "tensor " + name + "(uid " + std::to_string(t.uid()) + ")";
}

inline std::string dimsText(const std::vector<int64_t>& d)
{
    std::string s = "[";
    for(size_t i = 0; i < d.size(); ++i)
    {
        s += (i ? "," : "") + std::to_string(d[i]);
    }
    return s + "]";
}

/// oneDNN's type of a tensor type; declines fp16 and every type oneDNN cannot compute here.
inline dnnl::memory::data_type dnnlType(const dobj::TensorAttributes& t)
{
    switch(t.data_type())
    {
    case dobj::DataType::FLOAT: return dnnl::memory::data_type::f32;
    case dobj::DataType::BFLOAT16: return dnnl::memory::data_type::bf16;
    case dobj::DataType::HALF:
        throw Decline(label(t) + " is fp16: declined, oneDNN 2.6 cannot build fp16 convolutions (nor most fp16 "
                                 "primitives) on CPUs");
    default:
        throw Decline(label(t) + " has data type "
                      + hipdnn_data_sdk::flatbuffer_utilities::dataTypeName(t.data_type())
                      + ": the oneDNN provider runs fp32 and bf16 tensors only");
    }
}

/// The caller's tensor as oneDNN sees it: dims, strides and type.
inline dnnl::memory::desc userDesc(const dobj::TensorAttributes& t)
{
    const auto d = vec(t.dims());
    const auto s = vec(t.strides());
    declineIf(d.empty() || d.size() != s.size(), label(t) + " has no dims or strides of another rank");
    for(size_t i = 0; i < d.size(); ++i)
    {
        declineIf(d[i] <= 0 || s[i] < 0, label(t) + " has a non-positive dim or a negative stride");
    }
    return dnnl::memory::desc(d, dnnlType(t), s);
}

/// Grouped weights [G*K', C', f...] seen as oneDNN's [G, K', C', f...] (plain when G == 1).
inline dnnl::memory::desc weightsDesc(const dobj::TensorAttributes& t, int64_t groups)
{
    const dnnl::memory::desc plain = userDesc(t);
    if(groups == 1)
    {
        return plain;
    }
    const auto d = vec(t.dims());
    const auto s = vec(t.strides());
    std::vector<int64_t> gd = {groups, d[0] / groups};
    std::vector<int64_t> gs = {d[0] / groups * s[0], s[0]};
    gd.insert(gd.end(), d.begin() + 1, d.end());
    gs.insert(gs.end(), s.begin() + 1, s.end());
    return dnnl::memory::desc(gd, dnnlType(t), gs);
}

inline std::vector<int64_t> groupedDims(const std::vector<int64_t>& w, int64_t groups)
{
    if(groups == 1)
    {
        return w;
    }
    std::vector<int64_t> d = {groups, w[0] / groups};
    d.insert(d.end(), w.begin() + 1, w.end());
    return d;
}

/// A per-channel tensor ([C], [1,C,1,1], ...): C values at a fixed stride, fp32 or bf16.
struct ChannelVector
{
    int64_t uid = 0;
    dobj::DataType type = dobj::DataType::FLOAT;
    int64_t stride = 1;

    float read(const HostContext& ctx, int64_t c) const
    {
        const auto* base = static_cast<const uint8_t*>(ctx.user(uid));
        if(type == dobj::DataType::BFLOAT16)
        {
            return static_cast<float>(reinterpret_cast<const hipdnn_data_sdk::types::bfloat16*>(base)[c * stride]);
        }
        return reinterpret_cast<const float*>(base)[c * stride];
    }
    void write(const HostContext& ctx, int64_t c, float v) const
    {
        auto* base = static_cast<uint8_t*>(ctx.user(uid));
        if(type == dobj::DataType::BFLOAT16)
        {
            reinterpret_cast<hipdnn_data_sdk::types::bfloat16*>(base)[c * stride] = hipdnn_data_sdk::types::bfloat16(v);
        }
        else
        {
            reinterpret_cast<float*>(base)[c * stride] = v;
        }
    }
};

inline ChannelVector channelVector(const dobj::TensorAttributes& t, int64_t channels)
{
    (void)dnnlType(t);
    declineIf(t.virtual_(), label(t) + " is virtual: per-channel tensors must be graph inputs or outputs");
    const auto d = vec(t.dims());
    const auto s = vec(t.strides());
    ChannelVector v{t.uid(), t.data_type(), 1};
    int64_t count = 1;
    int nonUnit = 0;
    for(size_t i = 0; i < d.size(); ++i)
    {
        count *= d[i];
        if(d[i] != 1)
        {
            ++nonUnit;
            v.stride = s.at(i);
        }
    }
    declineIf(count != channels || nonUnit > 1,
              label(t) + " of dims " + dimsText(d) + " is not a per-channel vector of " + std::to_string(channels)
                  + " values");
    return v;
}

/// The value of a pass-by-value scalar tensor.
inline float scalarValue(const dobj::TensorAttributes& t)
{
    switch(t.value_type())
    {
    case dobj::TensorValue::Float32Value: return t.value_as_Float32Value()->value();
    case dobj::TensorValue::Float16Value: return t.value_as_Float16Value()->value();
    case dobj::TensorValue::BFloat16Value: return t.value_as_BFloat16Value()->value();
    case dobj::TensorValue::Float64Value: return static_cast<float>(t.value_as_Float64Value()->value());
    default: break;
    }
    throw Decline(label(t) + " must be a pass-by-value floating-point scalar");
}

/// f32 [C] vector descriptor of oneDNN's per-channel arguments.
inline dnnl::memory::desc channelDesc(int64_t channels)
{
    return dnnl::memory::desc({channels}, dnnl::memory::data_type::f32, dnnl::memory::format_tag::a);
}

// The graph kinds (each returns the recipe filled, or throws Decline).
void buildConvFprop(const GraphView& graph, PlanRecipe& recipe);
void buildConvDgrad(const GraphView& graph, PlanRecipe& recipe);
void buildConvWgrad(const GraphView& graph, PlanRecipe& recipe);
void buildBatchnormInference(const GraphView& graph, PlanRecipe& recipe);
void buildBatchnormTraining(const GraphView& graph, PlanRecipe& recipe);
void buildBatchnormBackward(const GraphView& graph, PlanRecipe& recipe);
void buildPointwise(const GraphView& graph, PlanRecipe& recipe);
/// Declines graphs that write or read hipDNN's max-pooling index tensor (before the type checks, which
/// would only name its INT32 type), except max pooling's gradient from x, whose virtual index uid
/// it returns (the type checks skip it: oneDNN's own workspace replaces it).
std::optional<int64_t> declineResampleIndex(const GraphView& graph);
void buildResampleFwd(const GraphView& graph, PlanRecipe& recipe);
void buildResampleBwd(const GraphView& graph, PlanRecipe& recipe);
void buildReduction(const GraphView& graph, PlanRecipe& recipe);
/// SoftmaxPlans.cpp: the softmax composite (hipdnn_plugin_sdk/SoftmaxComposite.hpp).
bool isSoftmaxComposite(const GraphView& graph);
void buildSoftmax(const GraphView& graph, PlanRecipe& recipe);

/// oneDNN eltwise algorithm and parameters of a pointwise activation; declines other modes.
struct EltwiseOp
{
    dnnl::algorithm algorithm;
    float alpha = 0.f;
    float beta = 0.f;
};
EltwiseOp eltwiseFor(const dobj::PointwiseAttributes& attributes);

} // namespace dnnl_provider
