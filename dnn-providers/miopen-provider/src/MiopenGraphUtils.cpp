#include "MiopenGraphUtils.hpp"

#include <cmath>
#include <limits>

namespace miopen_provider
{

std::string label(const dobj::TensorAttributes& t)
{
    std::string name = t.name() != nullptr && t.name()->size() > 0 ? "'" + t.name()->str() + "' " : std::string();
    return "tensor " + name + "(uid " + std::to_string(t.uid()) + ")";
}

std::string dimsText(const std::vector<int64_t>& d)
{
    std::string s = "[";
    for(size_t i = 0; i < d.size(); ++i)
    {
        s += (i ? "," : "") + std::to_string(d[i]);
    }
    return s + "]";
}

miopenDataType_t miopenType(const dobj::TensorAttributes& t)
{
    switch(t.data_type())
    {
    case dobj::DataType::FLOAT: return miopenFloat;
    case dobj::DataType::HALF: return miopenHalf;
    case dobj::DataType::BFLOAT16: return miopenBFloat16;
    default: break;
    }
    throw Decline(label(t) + " has data type " + hipdnn_data_sdk::flatbuffer_utilities::dataTypeName(t.data_type())
                  + ": the MIOpen provider runs fp32, fp16 and bf16 tensors only");
}

size_t elementSize(miopenDataType_t type)
{
    return type == miopenFloat ? 4 : 2;
}

namespace
{
int toInt(int64_t v, const std::string& what)
{
    declineIf(v < 1 || v > std::numeric_limits<int>::max(),
              what + " has a dim or stride of " + std::to_string(v) + ": MIOpen takes values in 1..INT_MAX");
    return static_cast<int>(v);
}

TensorDesc makeDesc(miopenDataType_t type, const std::vector<int64_t>& d, const std::vector<int64_t>& s,
                    const std::string& what)
{
    declineIf(d.empty() || d.size() > 8 || d.size() != s.size(),
              what + " has " + std::to_string(d.size()) + " dims and " + std::to_string(s.size())
                  + " strides: MIOpen describes 1 to 8 dims with one stride each");
    std::vector<int> dims, strides;
    for(size_t i = 0; i < d.size(); ++i)
    {
        dims.push_back(toInt(d[i], what));
        strides.push_back(toInt(s[i], what));
    }
    TensorDesc desc = createTensorDesc();
    const miopenStatus_t status = miopenSetTensorDescriptor_impl(desc.get(), type, static_cast<int>(dims.size()),
                                                                 dims.data(), strides.data());
    declineIf(status != miopenStatusSuccess, what + " " + dimsText(d) + " strides " + dimsText(s)
                                                 + " is rejected by miopenSetTensorDescriptor_impl ("
                                                 + miopenGetErrorString_impl(status) + ")");
    return desc;
}
} // namespace

TensorDesc tensorDesc(const dobj::TensorAttributes& t)
{
    return makeDesc(miopenType(t), vec(t.dims()), vec(t.strides()), label(t));
}

TensorDesc packedDesc(const std::vector<int64_t>& dims, miopenDataType_t type)
{
    std::vector<int64_t> strides(dims.size(), 1);
    for(size_t i = dims.size(); i-- > 1;)
    {
        strides[i - 1] = strides[i] * dims[i];
    }
    return makeDesc(type, dims, strides, "a workspace tensor");
}

TensorDesc channelDesc(const dobj::TensorAttributes& t, int64_t channels, size_t rank)
{
    declineIf(t.virtual_(), label(t) + " is virtual: per-channel tensors must be graph inputs or outputs");
    const auto d = vec(t.dims());
    const auto s = vec(t.strides());
    int64_t count = 1, stride = 1;
    int nonUnit = 0;
    for(size_t i = 0; i < d.size(); ++i)
    {
        count *= d[i];
        if(d[i] != 1)
        {
            ++nonUnit;
            stride = s.at(i);
        }
    }
    declineIf(count != channels || nonUnit > 1, label(t) + " of dims " + dimsText(d)
                                                    + " is not a per-channel vector of " + std::to_string(channels)
                                                    + " values");
    std::vector<int64_t> dims(rank, 1), strides(rank, 1);
    dims[1] = channels;
    // The graph bounds the span of the tensor's own dims, not channels * stride (found by the
    // plugin graph fuzzer: an overflow here is undefined).
    declineIf(__builtin_mul_overflow(channels, stride, &strides[0]),
              label(t) + " has a channel stride too large to address " + std::to_string(channels) + " channels");
    strides[1] = stride;
    return makeDesc(miopenType(t), dims, strides, label(t));
}

double scalarValue(const dobj::TensorAttributes& t)
{
    switch(t.value_type())
    {
    case dobj::TensorValue::Float32Value: return t.value_as_Float32Value()->value();
    case dobj::TensorValue::Float16Value: return t.value_as_Float16Value()->value();
    case dobj::TensorValue::BFloat16Value: return t.value_as_BFloat16Value()->value();
    case dobj::TensorValue::Float64Value: return t.value_as_Float64Value()->value();
    default: break;
    }
    throw Decline(label(t) + " must be a pass-by-value floating-point scalar");
}

Activation activationFor(const dobj::PointwiseAttributes& p, bool allowBackward)
{
    const auto mode = p.operation();
    Activation a;
    a.text = dobj::EnumNamePointwiseMode(mode);
    switch(mode)
    {
    case dobj::PointwiseMode::RELU_BWD: a.backward = true; [[fallthrough]];
    case dobj::PointwiseMode::RELU_FWD:
    {
        const float lower = p.relu_lower_clip().value_or(0.f);
        const float upper = p.relu_upper_clip().value_or(std::numeric_limits<float>::infinity());
        const float slope = p.relu_lower_clip_slope().value_or(0.f);
        declineIf(lower != 0.f, a.text + " with a lower clip other than 0 has no MIOpen activation");
        declineIf(slope != 0.f && !std::isinf(upper),
                  a.text + " with both an upper clip and a lower-clip slope has no MIOpen activation");
        if(slope != 0.f)
        {
            a.mode = miopenActivationLEAKYRELU;
            a.alpha = slope;
        }
        else if(!std::isinf(upper))
        {
            declineIf(!(upper > 0.f), a.text + " with an upper clip <= 0 has no MIOpen activation");
            a.mode = miopenActivationCLIPPEDRELU;
            a.alpha = upper;
        }
        else
        {
            a.mode = miopenActivationRELU;
        }
        break;
    }
    case dobj::PointwiseMode::TANH_BWD: a.backward = true; [[fallthrough]];
    case dobj::PointwiseMode::TANH_FWD:
        a.mode = miopenActivationTANH; // beta * tanh(alpha * x)
        a.alpha = 1.0;
        a.beta = 1.0;
        break;
    case dobj::PointwiseMode::SIGMOID_BWD: a.backward = true; [[fallthrough]];
    case dobj::PointwiseMode::SIGMOID_FWD: a.mode = miopenActivationLOGISTIC; break;
    case dobj::PointwiseMode::ELU_BWD: a.backward = true; [[fallthrough]];
    case dobj::PointwiseMode::ELU_FWD:
        a.mode = miopenActivationELU;
        a.alpha = p.elu_alpha().value_or(1.f);
        break;
    case dobj::PointwiseMode::SOFTPLUS_BWD: a.backward = true; [[fallthrough]];
    case dobj::PointwiseMode::SOFTPLUS_FWD:
        declineIf(p.softplus_beta().value_or(1.f) != 1.f,
                  a.text + " with beta != 1: MIOpen's SOFTRELU is log(1 + e^x)");
        a.mode = miopenActivationSOFTRELU;
        break;
    case dobj::PointwiseMode::ABS: a.mode = miopenActivationABS; break;
    case dobj::PointwiseMode::IDENTITY: a.mode = miopenActivationPASTHRU; break;
    default:
        throw Decline("pointwise mode " + a.text
                      + " has no MIOpen activation (RELU/leaky/clipped, TANH, SIGMOID, ELU, SOFTPLUS with beta 1, "
                        "ABS, IDENTITY and their backward modes only)");
    }
    declineIf(a.backward && !allowBackward, "pointwise mode " + a.text + " is only run standalone");
    return a;
}

void checkComputeTypes(const GraphView& graph)
{
    auto check = [](dobj::DataType type, const std::string& where) {
        declineIf(type != dobj::DataType::FLOAT && type != dobj::DataType::UNSET,
                  where + " compute type " + hipdnn_data_sdk::flatbuffer_utilities::dataTypeName(type)
                      + ": MIOpen computes in fp32 (set FLOAT)");
    };
    check(graph.graph().compute_data_type(), "graph");
    for(size_t n = 0; n < graph.nodeCount(); ++n)
    {
        check(graph.node(n).compute_data_type(), "node " + std::to_string(n));
    }
}

} // namespace miopen_provider
