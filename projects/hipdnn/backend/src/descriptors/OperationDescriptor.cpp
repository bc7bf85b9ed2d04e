#include "OperationDescriptor.hpp"

#include "AttributeIo.hpp"

#include <hipdnn_data_sdk/utilities/ShapeUtilities.hpp>

#include <algorithm>

namespace hipdnn_backend
{

namespace dobj = hipdnn_data_sdk::data_objects;

namespace
{
constexpr bool kReq = true;
constexpr bool kOpt = false;

std::vector<AttributeSlot> convSlots(hipdnnBackendAttributeName_t a,
                                     hipdnnBackendAttributeName_t b,
                                     hipdnnBackendAttributeName_t c)
{
    return {{a, SlotKind::Tensor, kReq},
            {b, SlotKind::Tensor, kReq},
            {c, SlotKind::Tensor, kReq},
            {HIPDNN_ATTR_CONVOLUTION_COMP_TYPE, SlotKind::DataType, kOpt},
            {HIPDNN_ATTR_CONVOLUTION_CONV_MODE, SlotKind::ConvMode, kOpt},
            {HIPDNN_ATTR_CONVOLUTION_DILATIONS, SlotKind::Int64Array, kReq},
            {HIPDNN_ATTR_CONVOLUTION_FILTER_STRIDES, SlotKind::Int64Array, kReq},
            {HIPDNN_ATTR_CONVOLUTION_POST_PADDINGS, SlotKind::Int64Array, kReq},
            {HIPDNN_ATTR_CONVOLUTION_PRE_PADDINGS, SlotKind::Int64Array, kReq}};
}

const std::vector<OperationSpec>& specs()
{
    static const std::vector<OperationSpec> kSpecs = {
        {HIPDNN_BACKEND_OPERATION_CONVOLUTION_FORWARD_DESCRIPTOR,
         convSlots(HIPDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_X,
                   HIPDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_W,
                   HIPDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_Y)},
        {HIPDNN_BACKEND_OPERATION_CONVOLUTION_BACKWARD_DESCRIPTOR,
         convSlots(HIPDNN_ATTR_OPERATION_CONVOLUTION_BWD_DATA_DY,
                   HIPDNN_ATTR_OPERATION_CONVOLUTION_BWD_DATA_W,
                   HIPDNN_ATTR_OPERATION_CONVOLUTION_BWD_DATA_DX)},
        {HIPDNN_BACKEND_OPERATION_CONVOLUTION_BACKWARD_FILTER_DESCRIPTOR,
         convSlots(HIPDNN_ATTR_OPERATION_CONVOLUTION_BWD_FILTER_X,
                   HIPDNN_ATTR_OPERATION_CONVOLUTION_BWD_FILTER_DY,
                   HIPDNN_ATTR_OPERATION_CONVOLUTION_BWD_FILTER_DW)},
        {HIPDNN_BACKEND_OPERATION_POINTWISE_DESCRIPTOR,
         {{HIPDNN_ATTR_OPERATION_POINTWISE_IN_0_EXT, SlotKind::Tensor, kReq},
          {HIPDNN_ATTR_OPERATION_POINTWISE_OUT_0_EXT, SlotKind::Tensor, kReq},
          {HIPDNN_ATTR_OPERATION_POINTWISE_IN_1_EXT, SlotKind::Tensor, kOpt},
          {HIPDNN_ATTR_OPERATION_POINTWISE_IN_2_EXT, SlotKind::Tensor, kOpt},
          {HIPDNN_ATTR_POINTWISE_MODE, SlotKind::PointwiseMode, kReq},
          {HIPDNN_ATTR_POINTWISE_RELU_LOWER_CLIP, SlotKind::Real, kOpt},
          {HIPDNN_ATTR_POINTWISE_RELU_UPPER_CLIP, SlotKind::Real, kOpt},
          {HIPDNN_ATTR_POINTWISE_RELU_LOWER_CLIP_SLOPE, SlotKind::Real, kOpt},
          {HIPDNN_ATTR_POINTWISE_SWISH_BETA, SlotKind::Real, kOpt},
          {HIPDNN_ATTR_POINTWISE_ELU_ALPHA, SlotKind::Real, kOpt},
          {HIPDNN_ATTR_POINTWISE_SOFTPLUS_BETA, SlotKind::Real, kOpt},
          {HIPDNN_ATTR_POINTWISE_MATH_PREC, SlotKind::DataType, kOpt},
          {HIPDNN_ATTR_POINTWISE_AXIS, SlotKind::Int64, kOpt}}},
        {HIPDNN_BACKEND_OPERATION_BATCHNORM_INFERENCE_DESCRIPTOR_EXT,
         {{HIPDNN_ATTR_OPERATION_BATCHNORM_INFERENCE_X_EXT, SlotKind::Tensor, kReq},
          {HIPDNN_ATTR_OPERATION_BATCHNORM_INFERENCE_MEAN_EXT, SlotKind::Tensor, kReq},
          {HIPDNN_ATTR_OPERATION_BATCHNORM_INFERENCE_INV_VARIANCE_EXT, SlotKind::Tensor, kReq},
          {HIPDNN_ATTR_OPERATION_BATCHNORM_INFERENCE_SCALE_EXT, SlotKind::Tensor, kReq},
          {HIPDNN_ATTR_OPERATION_BATCHNORM_INFERENCE_BIAS_EXT, SlotKind::Tensor, kReq},
          {HIPDNN_ATTR_OPERATION_BATCHNORM_INFERENCE_Y_EXT, SlotKind::Tensor, kReq},
          {HIPDNN_ATTR_BATCHNORM_INF_COMP_TYPE_EXT, SlotKind::DataType, kOpt}}},
        {HIPDNN_BACKEND_OPERATION_BATCHNORM_INFERENCE_VARIANCE_DESCRIPTOR_EXT,
         {{HIPDNN_ATTR_OPERATION_BATCHNORM_INFERENCE_VARIANCE_X_EXT, SlotKind::Tensor, kReq},
          {HIPDNN_ATTR_OPERATION_BATCHNORM_INFERENCE_VARIANCE_MEAN_EXT, SlotKind::Tensor, kReq},
          {HIPDNN_ATTR_OPERATION_BATCHNORM_INFERENCE_VARIANCE_VARIANCE_EXT, SlotKind::Tensor, kReq},
          {HIPDNN_ATTR_OPERATION_BATCHNORM_INFERENCE_VARIANCE_SCALE_EXT, SlotKind::Tensor, kReq},
          {HIPDNN_ATTR_OPERATION_BATCHNORM_INFERENCE_VARIANCE_BIAS_EXT, SlotKind::Tensor, kReq},
          {HIPDNN_ATTR_OPERATION_BATCHNORM_INFERENCE_VARIANCE_Y_EXT, SlotKind::Tensor, kReq},
          {HIPDNN_ATTR_OPERATION_BATCHNORM_INFERENCE_VARIANCE_EPSILON_EXT, SlotKind::Tensor, kReq},
          {HIPDNN_ATTR_BATCHNORM_INF_VAR_COMP_TYPE_EXT, SlotKind::DataType, kOpt}}},
        {HIPDNN_BACKEND_OPERATION_BATCHNORM_DESCRIPTOR_EXT,
         {{HIPDNN_ATTR_OPERATION_BATCHNORM_X_EXT, SlotKind::Tensor, kReq},
          {HIPDNN_ATTR_OPERATION_BATCHNORM_SCALE_EXT, SlotKind::Tensor, kReq},
          {HIPDNN_ATTR_OPERATION_BATCHNORM_BIAS_EXT, SlotKind::Tensor, kReq},
          {HIPDNN_ATTR_OPERATION_BATCHNORM_EPSILON_EXT, SlotKind::Tensor, kReq},
          {HIPDNN_ATTR_OPERATION_BATCHNORM_Y_EXT, SlotKind::Tensor, kReq},
          {HIPDNN_ATTR_OPERATION_BATCHNORM_PREV_RUNNING_MEAN_EXT, SlotKind::Tensor, kOpt},
          {HIPDNN_ATTR_OPERATION_BATCHNORM_PREV_RUNNING_VARIANCE_EXT, SlotKind::Tensor, kOpt},
          {HIPDNN_ATTR_OPERATION_BATCHNORM_MOMENTUM_EXT, SlotKind::Tensor, kOpt},
          {HIPDNN_ATTR_OPERATION_BATCHNORM_MEAN_EXT, SlotKind::Tensor, kOpt},
          {HIPDNN_ATTR_OPERATION_BATCHNORM_INV_VARIANCE_EXT, SlotKind::Tensor, kOpt},
          {HIPDNN_ATTR_OPERATION_BATCHNORM_NEXT_RUNNING_MEAN_EXT, SlotKind::Tensor, kOpt},
          {HIPDNN_ATTR_OPERATION_BATCHNORM_NEXT_RUNNING_VARIANCE_EXT, SlotKind::Tensor, kOpt},
          {HIPDNN_ATTR_BATCHNORM_COMP_TYPE_EXT, SlotKind::DataType, kOpt},
          {HIPDNN_ATTR_OPERATION_BATCHNORM_PEER_STATS_EXT, SlotKind::TensorArray, kOpt}}},
        {HIPDNN_BACKEND_OPERATION_BATCHNORM_BACKWARD_DESCRIPTOR_EXT,
         {{HIPDNN_ATTR_OPERATION_BATCHNORM_BACKWARD_DY_EXT, SlotKind::Tensor, kReq},
          {HIPDNN_ATTR_OPERATION_BATCHNORM_BACKWARD_X_EXT, SlotKind::Tensor, kReq},
          {HIPDNN_ATTR_OPERATION_BATCHNORM_BACKWARD_SCALE_EXT, SlotKind::Tensor, kReq},
          {HIPDNN_ATTR_OPERATION_BATCHNORM_BACKWARD_DX_EXT, SlotKind::Tensor, kReq},
          {HIPDNN_ATTR_OPERATION_BATCHNORM_BACKWARD_DSCALE_EXT, SlotKind::Tensor, kReq},
          {HIPDNN_ATTR_OPERATION_BATCHNORM_BACKWARD_DBIAS_EXT, SlotKind::Tensor, kReq},
          {HIPDNN_ATTR_OPERATION_BATCHNORM_BACKWARD_MEAN_EXT, SlotKind::Tensor, kOpt},
          {HIPDNN_ATTR_OPERATION_BATCHNORM_BACKWARD_INV_VARIANCE_EXT, SlotKind::Tensor, kOpt},
          {HIPDNN_ATTR_BATCHNORM_BACKWARD_COMP_TYPE_EXT, SlotKind::DataType, kOpt},
          {HIPDNN_ATTR_OPERATION_BATCHNORM_BACKWARD_PEER_STATS_EXT, SlotKind::TensorArray, kOpt}}}};
    return kSpecs;
}

bool isConvolution(hipdnnBackendDescriptorType_t t)
{
    return t == HIPDNN_BACKEND_OPERATION_CONVOLUTION_FORWARD_DESCRIPTOR
           || t == HIPDNN_BACKEND_OPERATION_CONVOLUTION_BACKWARD_DESCRIPTOR
           || t == HIPDNN_BACKEND_OPERATION_CONVOLUTION_BACKWARD_FILTER_DESCRIPTOR;
}

// The compute-type slot of each kind (none for kinds without one).
hipdnnBackendAttributeName_t computeSlot(hipdnnBackendDescriptorType_t t)
{
    switch(t)
    {
    case HIPDNN_BACKEND_OPERATION_POINTWISE_DESCRIPTOR: return HIPDNN_ATTR_POINTWISE_MATH_PREC;
    case HIPDNN_BACKEND_OPERATION_BATCHNORM_INFERENCE_DESCRIPTOR_EXT: return HIPDNN_ATTR_BATCHNORM_INF_COMP_TYPE_EXT;
    case HIPDNN_BACKEND_OPERATION_BATCHNORM_INFERENCE_VARIANCE_DESCRIPTOR_EXT: return HIPDNN_ATTR_BATCHNORM_INF_VAR_COMP_TYPE_EXT;
    case HIPDNN_BACKEND_OPERATION_BATCHNORM_DESCRIPTOR_EXT: return HIPDNN_ATTR_BATCHNORM_COMP_TYPE_EXT;
    case HIPDNN_BACKEND_OPERATION_BATCHNORM_BACKWARD_DESCRIPTOR_EXT: return HIPDNN_ATTR_BATCHNORM_BACKWARD_COMP_TYPE_EXT;
    default: return HIPDNN_ATTR_CONVOLUTION_COMP_TYPE;
    }
}
} // namespace

const OperationSpec* findOperationSpec(hipdnnBackendDescriptorType_t type)
{
    for(const auto& spec : specs())
    {
        if(spec.type == type)
        {
            return &spec;
        }
    }
    return nullptr;
}

const AttributeSlot& OperationDescriptor::slot(hipdnnBackendAttributeName_t name) const
{
    for(const auto& s : _spec->slots)
    {
        if(s.name == name)
        {
            return s;
        }
    }
    throwUnknownAttribute(name);
}

void OperationDescriptor::doSetAttribute(hipdnnBackendAttributeName_t name,
                                         hipdnnBackendAttributeType_t type,
                                         int64_t count,
                                         const void* values)
{
    const AttributeSlot& s = slot(name);
    const int key = static_cast<int>(name);
    switch(s.kind)
    {
    case SlotKind::Tensor:
        _tensors[key] = readDescriptor<TensorDescriptor>(name, type, count, values,
                                                         HIPDNN_BACKEND_TENSOR_DESCRIPTOR);
        return;
    case SlotKind::TensorArray:
    {
        const auto handles = readArray<hipdnnBackendDescriptor_t>(
            name, type, HIPDNN_TYPE_BACKEND_DESCRIPTOR, count, values);
        std::vector<std::shared_ptr<TensorDescriptor>> list;
        for(auto h : handles)
        {
            list.push_back(DescriptorRegistry::getAs<TensorDescriptor>(
                h, HIPDNN_BACKEND_TENSOR_DESCRIPTOR, attributeLabel(name), true));
        }
        _tensorArrays[key] = std::move(list);
        return;
    }
    case SlotKind::Int64Array:
        _ints[key] = readArray<int64_t>(name, type, HIPDNN_TYPE_INT64, count, values);
        return;
    case SlotKind::DataType:
        _enums[key] = static_cast<int64_t>(readDataType(name, type, count, values));
        return;
    case SlotKind::ConvMode:
    {
        const auto mode = readEnum<hipdnnConvolutionMode_t>(name, type, HIPDNN_TYPE_CONVOLUTION_MODE, count, values,
                                                            HIPDNN_CONVOLUTION, HIPDNN_CROSS_CORRELATION,
                                                            "convolution mode");
        _enums[key] = mode;
        return;
    }
    case SlotKind::PointwiseMode:
    {
        const auto mode = readEnum<hipdnnPointwiseMode_t>(name, type, HIPDNN_TYPE_POINTWISE_MODE, count, values,
                                                          HIPDNN_POINTWISE_MODE_ABS, HIPDNN_POINTWISE_MODE_TANH_FWD,
                                                          "pointwise mode");
        _enums[key] = mode;
        return;
    }
    case SlotKind::Real:
        _reals[key] = readReal(name, type, count, values);
        return;
    case SlotKind::Int64:
        _enums[key] = readScalar<int64_t>(name, type, HIPDNN_TYPE_INT64, count, values);
        return;
    }
}

void OperationDescriptor::doGetAttribute(hipdnnBackendAttributeName_t name,
                                         hipdnnBackendAttributeType_t type,
                                         int64_t requested,
                                         int64_t* count,
                                         void* values) const
{
    const AttributeSlot& s = slot(name);
    const int key = static_cast<int>(name);
    switch(s.kind)
    {
    case SlotKind::Tensor:
    {
        auto it = _tensors.find(key);
        throwIf(it == _tensors.end(), HIPDNN_STATUS_BAD_PARAM, attributeLabel(name) + " is not set");
        writeScalar(name, type, HIPDNN_TYPE_BACKEND_DESCRIPTOR, requested, count, values,
                    DescriptorRegistry::toHandle(*it->second));
        return;
    }
    case SlotKind::TensorArray:
    {
        std::vector<hipdnnBackendDescriptor_t> handles;
        auto it = _tensorArrays.find(key);
        if(it != _tensorArrays.end())
        {
            for(const auto& t : it->second)
            {
                handles.push_back(DescriptorRegistry::toHandle(*t));
            }
        }
        writeArray(name, type, HIPDNN_TYPE_BACKEND_DESCRIPTOR, requested, count, values, handles);
        return;
    }
    case SlotKind::Int64Array:
        writeArray(name, type, HIPDNN_TYPE_INT64, requested, count, values, ints(name));
        return;
    case SlotKind::DataType:
    {
        auto it = _enums.find(key);
        throwIf(it == _enums.end(), HIPDNN_STATUS_BAD_PARAM, attributeLabel(name) + " is not set");
        writeScalar(name, type, HIPDNN_TYPE_DATA_TYPE, requested, count, values,
                    fromWireDataType(static_cast<FbDataType>(it->second)));
        return;
    }
    case SlotKind::ConvMode:
    {
        auto it = _enums.find(key);
        const auto mode = it == _enums.end() ? HIPDNN_CROSS_CORRELATION
                                             : static_cast<hipdnnConvolutionMode_t>(it->second);
        writeScalar(name, type, HIPDNN_TYPE_CONVOLUTION_MODE, requested, count, values, mode);
        return;
    }
    case SlotKind::PointwiseMode:
        writeScalar(name, type, HIPDNN_TYPE_POINTWISE_MODE, requested, count, values,
                    static_cast<hipdnnPointwiseMode_t>(_enums.at(key)));
        return;
    case SlotKind::Real:
    {
        auto it = _reals.find(key);
        throwIf(it == _reals.end(), HIPDNN_STATUS_BAD_PARAM, attributeLabel(name) + " is not set");
        if(type == HIPDNN_TYPE_DOUBLE)
        {
            writeScalar(name, type, HIPDNN_TYPE_DOUBLE, requested, count, values, it->second);
        }
        else
        {
            writeScalar(name, type, HIPDNN_TYPE_FLOAT, requested, count, values,
                        static_cast<float>(it->second));
        }
        return;
    }
    case SlotKind::Int64:
    {
        auto it = _enums.find(key);
        throwIf(it == _enums.end(), HIPDNN_STATUS_BAD_PARAM, attributeLabel(name) + " is not set");
        writeScalar(name, type, HIPDNN_TYPE_INT64, requested, count, values, it->second);
        return;
    }
    }
}

const std::vector<int64_t>& OperationDescriptor::ints(hipdnnBackendAttributeName_t name) const
{
    static const std::vector<int64_t> kEmpty;
    auto it = _ints.find(static_cast<int>(name));
    return it == _ints.end() ? kEmpty : it->second;
}

void OperationDescriptor::doFinalize()
{
    for(const auto& s : _spec->slots)
    {
        if(!s.required)
        {
            continue;
        }
        const int key = static_cast<int>(s.name);
        const bool present = _tensors.count(key) != 0 || _tensorArrays.count(key) != 0
                             || _ints.count(key) != 0 || _enums.count(key) != 0
                             || _reals.count(key) != 0;
        throwIf(!present, HIPDNN_STATUS_BAD_PARAM,
                std::string(typeName()) + ": required " + attributeLabel(s.name) + " is not set");
    }
    if(isConvolution(type()))
    {
        checkConvolution();
    }
    if(type() == HIPDNN_BACKEND_OPERATION_BATCHNORM_DESCRIPTOR_EXT)
    {
        const bool prevMean = _tensors.count(HIPDNN_ATTR_OPERATION_BATCHNORM_PREV_RUNNING_MEAN_EXT) != 0;
        const bool prevVar = _tensors.count(HIPDNN_ATTR_OPERATION_BATCHNORM_PREV_RUNNING_VARIANCE_EXT) != 0;
        const bool momentum = _tensors.count(HIPDNN_ATTR_OPERATION_BATCHNORM_MOMENTUM_EXT) != 0;
        throwIf(prevMean != prevVar || (prevMean && !momentum), HIPDNN_STATUS_BAD_PARAM,
                "batchnorm running statistics need previous mean, previous variance and momentum "
                "together");
    }
}

void OperationDescriptor::checkConvolution() const
{
    const auto& pre = ints(HIPDNN_ATTR_CONVOLUTION_PRE_PADDINGS);
    const auto& post = ints(HIPDNN_ATTR_CONVOLUTION_POST_PADDINGS);
    const auto& stride = ints(HIPDNN_ATTR_CONVOLUTION_FILTER_STRIDES);
    const auto& dilation = ints(HIPDNN_ATTR_CONVOLUTION_DILATIONS);
    // Tensor roles: x/w/y for every direction.
    std::shared_ptr<TensorDescriptor> x, w, y;
    switch(type())
    {
    case HIPDNN_BACKEND_OPERATION_CONVOLUTION_FORWARD_DESCRIPTOR:
        x = _tensors.at(HIPDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_X);
        w = _tensors.at(HIPDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_W);
        y = _tensors.at(HIPDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_Y);
        break;
    case HIPDNN_BACKEND_OPERATION_CONVOLUTION_BACKWARD_DESCRIPTOR:
        x = _tensors.at(HIPDNN_ATTR_OPERATION_CONVOLUTION_BWD_DATA_DX);
        w = _tensors.at(HIPDNN_ATTR_OPERATION_CONVOLUTION_BWD_DATA_W);
        y = _tensors.at(HIPDNN_ATTR_OPERATION_CONVOLUTION_BWD_DATA_DY);
        break;
    default:
        x = _tensors.at(HIPDNN_ATTR_OPERATION_CONVOLUTION_BWD_FILTER_X);
        w = _tensors.at(HIPDNN_ATTR_OPERATION_CONVOLUTION_BWD_FILTER_DW);
        y = _tensors.at(HIPDNN_ATTR_OPERATION_CONVOLUTION_BWD_FILTER_DY);
        break;
    }
    auto dimsOf = [](const std::shared_ptr<TensorDescriptor>& t) {
        int64_t n = 0;
        std::vector<int64_t> dims(16);
        t->getAttribute(HIPDNN_ATTR_TENSOR_DIMENSIONS, HIPDNN_TYPE_INT64, 16, &n, dims.data());
        dims.resize(static_cast<size_t>(n));
        return dims;
    };
    std::vector<int64_t> expected;
    try
    {
        expected = hipdnn_data_sdk::utilities::convForwardOutputDims(dimsOf(x), dimsOf(w), pre,
                                                                     post, stride, dilation);
    }
    catch(const std::invalid_argument& e)
    {
        throw HipdnnException(HIPDNN_STATUS_BAD_PARAM, std::string(typeName()) + ": " + e.what());
    }
    const auto actual = dimsOf(y);
    throwIf(actual != expected, HIPDNN_STATUS_BAD_PARAM,
            std::string(typeName()) + ": output-side tensor uid " + std::to_string(y->uid())
                + " has dims that do not match the convolution geometry");
}

std::vector<std::shared_ptr<TensorDescriptor>> OperationDescriptor::tensors() const
{
    std::vector<std::shared_ptr<TensorDescriptor>> all;
    for(const auto& [key, t] : _tensors)
    {
        all.push_back(t);
    }
    for(const auto& [key, list] : _tensorArrays)
    {
        all.insert(all.end(), list.begin(), list.end());
    }
    return all;
}

int64_t OperationDescriptor::uidOf(hipdnnBackendAttributeName_t name) const
{
    return _tensors.at(static_cast<int>(name))->uid();
}

flatbuffers::Optional<int64_t> OperationDescriptor::optionalUid(hipdnnBackendAttributeName_t name) const
{
    auto it = _tensors.find(static_cast<int>(name));
    if(it == _tensors.end())
    {
        return flatbuffers::nullopt;
    }
    return it->second->uid();
}

flatbuffers::Optional<float> OperationDescriptor::optionalReal(hipdnnBackendAttributeName_t name) const
{
    auto it = _reals.find(static_cast<int>(name));
    if(it == _reals.end())
    {
        return flatbuffers::nullopt;
    }
    return static_cast<float>(it->second);
}

flatbuffers::Offset<dobj::Node> OperationDescriptor::serialize(flatbuffers::FlatBufferBuilder& fbb,
                                                               dobj::DataType graphCompute,
                                                               size_t index) const
{
    dobj::DataType compute = graphCompute;
    auto ct = _enums.find(static_cast<int>(computeSlot(type())));
    if(ct != _enums.end())
    {
        compute = static_cast<dobj::DataType>(ct->second);
    }
    dobj::NodeAttributes attrType = dobj::NodeAttributes::NONE;
    flatbuffers::Offset<void> attrs;
    auto peerStats = [&](hipdnnBackendAttributeName_t n) {
        std::vector<int64_t> uids;
        auto it = _tensorArrays.find(static_cast<int>(n));
        if(it != _tensorArrays.end())
        {
            for(const auto& t : it->second)
            {
                uids.push_back(t->uid());
            }
        }
        return fbb.CreateVector(uids);
    };
    const bool conv = isConvolution(type());
    dobj::ConvMode convMode = dobj::ConvMode::CROSS_CORRELATION;
    if(conv)
    {
        auto it = _enums.find(HIPDNN_ATTR_CONVOLUTION_CONV_MODE);
        if(it != _enums.end() && it->second == HIPDNN_CONVOLUTION)
        {
            convMode = dobj::ConvMode::CONVOLUTION;
        }
    }
    switch(type())
    {
    case HIPDNN_BACKEND_OPERATION_CONVOLUTION_FORWARD_DESCRIPTOR:
        attrType = dobj::NodeAttributes::ConvolutionFwdAttributes;
        attrs = dobj::CreateConvolutionFwdAttributesDirect(
                    fbb, uidOf(HIPDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_X),
                    uidOf(HIPDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_W),
                    uidOf(HIPDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_Y),
                    &ints(HIPDNN_ATTR_CONVOLUTION_PRE_PADDINGS),
                    &ints(HIPDNN_ATTR_CONVOLUTION_POST_PADDINGS),
                    &ints(HIPDNN_ATTR_CONVOLUTION_FILTER_STRIDES),
                    &ints(HIPDNN_ATTR_CONVOLUTION_DILATIONS), convMode)
                    .Union();
        break;
    case HIPDNN_BACKEND_OPERATION_CONVOLUTION_BACKWARD_DESCRIPTOR:
        attrType = dobj::NodeAttributes::ConvolutionBwdAttributes;
        attrs = dobj::CreateConvolutionBwdAttributesDirect(
                    fbb, uidOf(HIPDNN_ATTR_OPERATION_CONVOLUTION_BWD_DATA_DY),
                    uidOf(HIPDNN_ATTR_OPERATION_CONVOLUTION_BWD_DATA_W),
                    uidOf(HIPDNN_ATTR_OPERATION_CONVOLUTION_BWD_DATA_DX),
                    &ints(HIPDNN_ATTR_CONVOLUTION_PRE_PADDINGS),
                    &ints(HIPDNN_ATTR_CONVOLUTION_POST_PADDINGS),
                    &ints(HIPDNN_ATTR_CONVOLUTION_FILTER_STRIDES),
                    &ints(HIPDNN_ATTR_CONVOLUTION_DILATIONS), convMode)
                    .Union();
        break;
    case HIPDNN_BACKEND_OPERATION_CONVOLUTION_BACKWARD_FILTER_DESCRIPTOR:
        attrType = dobj::NodeAttributes::ConvolutionWrwAttributes;
        attrs = dobj::CreateConvolutionWrwAttributesDirect(
                    fbb, uidOf(HIPDNN_ATTR_OPERATION_CONVOLUTION_BWD_FILTER_X),
                    uidOf(HIPDNN_ATTR_OPERATION_CONVOLUTION_BWD_FILTER_DY),
                    uidOf(HIPDNN_ATTR_OPERATION_CONVOLUTION_BWD_FILTER_DW),
                    &ints(HIPDNN_ATTR_CONVOLUTION_PRE_PADDINGS),
                    &ints(HIPDNN_ATTR_CONVOLUTION_POST_PADDINGS),
                    &ints(HIPDNN_ATTR_CONVOLUTION_FILTER_STRIDES),
                    &ints(HIPDNN_ATTR_CONVOLUTION_DILATIONS), convMode)
                    .Union();
        break;
    case HIPDNN_BACKEND_OPERATION_POINTWISE_DESCRIPTOR:
    {
        attrType = dobj::NodeAttributes::PointwiseAttributes;
        auto axis = _enums.find(HIPDNN_ATTR_POINTWISE_AXIS);
        attrs = dobj::CreatePointwiseAttributes(
                    fbb, static_cast<dobj::PointwiseMode>(_enums.at(HIPDNN_ATTR_POINTWISE_MODE)),
                    optionalReal(HIPDNN_ATTR_POINTWISE_RELU_LOWER_CLIP),
                    optionalReal(HIPDNN_ATTR_POINTWISE_RELU_UPPER_CLIP),
                    optionalReal(HIPDNN_ATTR_POINTWISE_RELU_LOWER_CLIP_SLOPE),
                    axis == _enums.end() ? flatbuffers::Optional<int64_t>() : axis->second,
                    uidOf(HIPDNN_ATTR_OPERATION_POINTWISE_IN_0_EXT),
                    optionalUid(HIPDNN_ATTR_OPERATION_POINTWISE_IN_1_EXT),
                    optionalUid(HIPDNN_ATTR_OPERATION_POINTWISE_IN_2_EXT),
                    uidOf(HIPDNN_ATTR_OPERATION_POINTWISE_OUT_0_EXT),
                    optionalReal(HIPDNN_ATTR_POINTWISE_SWISH_BETA),
                    optionalReal(HIPDNN_ATTR_POINTWISE_ELU_ALPHA),
                    optionalReal(HIPDNN_ATTR_POINTWISE_SOFTPLUS_BETA))
                    .Union();
        break;
    }
    case HIPDNN_BACKEND_OPERATION_BATCHNORM_INFERENCE_DESCRIPTOR_EXT:
        attrType = dobj::NodeAttributes::BatchnormInferenceAttributes;
        attrs = dobj::CreateBatchnormInferenceAttributes(
                    fbb, uidOf(HIPDNN_ATTR_OPERATION_BATCHNORM_INFERENCE_X_EXT),
                    uidOf(HIPDNN_ATTR_OPERATION_BATCHNORM_INFERENCE_MEAN_EXT),
                    uidOf(HIPDNN_ATTR_OPERATION_BATCHNORM_INFERENCE_INV_VARIANCE_EXT),
                    uidOf(HIPDNN_ATTR_OPERATION_BATCHNORM_INFERENCE_SCALE_EXT),
                    uidOf(HIPDNN_ATTR_OPERATION_BATCHNORM_INFERENCE_BIAS_EXT),
                    uidOf(HIPDNN_ATTR_OPERATION_BATCHNORM_INFERENCE_Y_EXT))
                    .Union();
        break;
    case HIPDNN_BACKEND_OPERATION_BATCHNORM_INFERENCE_VARIANCE_DESCRIPTOR_EXT:
        attrType = dobj::NodeAttributes::BatchnormInferenceAttributesVarianceExt;
        attrs = dobj::CreateBatchnormInferenceAttributesVarianceExt(
                    fbb, uidOf(HIPDNN_ATTR_OPERATION_BATCHNORM_INFERENCE_VARIANCE_X_EXT),
                    uidOf(HIPDNN_ATTR_OPERATION_BATCHNORM_INFERENCE_VARIANCE_MEAN_EXT),
                    uidOf(HIPDNN_ATTR_OPERATION_BATCHNORM_INFERENCE_VARIANCE_VARIANCE_EXT),
                    uidOf(HIPDNN_ATTR_OPERATION_BATCHNORM_INFERENCE_VARIANCE_SCALE_EXT),
                    uidOf(HIPDNN_ATTR_OPERATION_BATCHNORM_INFERENCE_VARIANCE_BIAS_EXT),
                    uidOf(HIPDNN_ATTR_OPERATION_BATCHNORM_INFERENCE_VARIANCE_Y_EXT),
                    uidOf(HIPDNN_ATTR_OPERATION_BATCHNORM_INFERENCE_VARIANCE_EPSILON_EXT))
                    .Union();
        break;
    case HIPDNN_BACKEND_OPERATION_BATCHNORM_DESCRIPTOR_EXT:
    {
        attrType = dobj::NodeAttributes::BatchnormAttributes;
        auto peers = peerStats(HIPDNN_ATTR_OPERATION_BATCHNORM_PEER_STATS_EXT);
        attrs = dobj::CreateBatchnormAttributes(
                    fbb, uidOf(HIPDNN_ATTR_OPERATION_BATCHNORM_X_EXT),
                    uidOf(HIPDNN_ATTR_OPERATION_BATCHNORM_SCALE_EXT),
                    uidOf(HIPDNN_ATTR_OPERATION_BATCHNORM_BIAS_EXT),
                    uidOf(HIPDNN_ATTR_OPERATION_BATCHNORM_EPSILON_EXT), peers,
                    optionalUid(HIPDNN_ATTR_OPERATION_BATCHNORM_PREV_RUNNING_MEAN_EXT),
                    optionalUid(HIPDNN_ATTR_OPERATION_BATCHNORM_PREV_RUNNING_VARIANCE_EXT),
                    optionalUid(HIPDNN_ATTR_OPERATION_BATCHNORM_MOMENTUM_EXT),
                    uidOf(HIPDNN_ATTR_OPERATION_BATCHNORM_Y_EXT),
                    optionalUid(HIPDNN_ATTR_OPERATION_BATCHNORM_MEAN_EXT),
                    optionalUid(HIPDNN_ATTR_OPERATION_BATCHNORM_INV_VARIANCE_EXT),
                    optionalUid(HIPDNN_ATTR_OPERATION_BATCHNORM_NEXT_RUNNING_MEAN_EXT),
                    optionalUid(HIPDNN_ATTR_OPERATION_BATCHNORM_NEXT_RUNNING_VARIANCE_EXT))
                    .Union();
        break;
    }
    case HIPDNN_BACKEND_OPERATION_BATCHNORM_BACKWARD_DESCRIPTOR_EXT:
    {
        attrType = dobj::NodeAttributes::BatchnormBackwardAttributes;
        auto peers = peerStats(HIPDNN_ATTR_OPERATION_BATCHNORM_BACKWARD_PEER_STATS_EXT);
        attrs = dobj::CreateBatchnormBackwardAttributes(
                    fbb, uidOf(HIPDNN_ATTR_OPERATION_BATCHNORM_BACKWARD_DY_EXT),
                    uidOf(HIPDNN_ATTR_OPERATION_BATCHNORM_BACKWARD_X_EXT),
                    optionalUid(HIPDNN_ATTR_OPERATION_BATCHNORM_BACKWARD_MEAN_EXT),
                    optionalUid(HIPDNN_ATTR_OPERATION_BATCHNORM_BACKWARD_INV_VARIANCE_EXT),
                    uidOf(HIPDNN_ATTR_OPERATION_BATCHNORM_BACKWARD_SCALE_EXT), peers,
                    uidOf(HIPDNN_ATTR_OPERATION_BATCHNORM_BACKWARD_DX_EXT),
                    uidOf(HIPDNN_ATTR_OPERATION_BATCHNORM_BACKWARD_DSCALE_EXT),
                    uidOf(HIPDNN_ATTR_OPERATION_BATCHNORM_BACKWARD_DBIAS_EXT))
                    .Union();
        break;
    }
    default:
        throw HipdnnException(HIPDNN_STATUS_INTERNAL_ERROR, "operation kind without serializer");
    }
    auto name = fbb.CreateString("node" + std::to_string(index));
    return dobj::CreateNode(fbb, name, compute, attrType, attrs);
}

} // namespace hipdnn_backend
