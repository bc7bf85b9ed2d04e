// Out-of-class definitions of hipdnn_frontend::graph::Graph (included by Graph.hpp).
#pragma once

namespace hipdnn_frontend::graph
{

namespace detail_graph
{
inline std::string label(const TensorPtr& t)
{
    if(!t->get_name().empty())
    {
        return "tensor '" + t->get_name() + "'";
    }
    return t->has_uid() ? "tensor uid " + std::to_string(t->get_uid()) : std::string("unnamed tensor");
}

inline const char* kindName(Node::Kind k)
{
    switch(k)
    {
    case Node::Kind::ConvFprop: return "conv_fprop";
    case Node::Kind::ConvDgrad: return "conv_dgrad";
    case Node::Kind::ConvWgrad: return "conv_wgrad";
    case Node::Kind::Pointwise: return "pointwise";
    case Node::Kind::BatchnormTraining: return "batchnorm";
    case Node::Kind::BatchnormInference: return "batchnorm_inference";
    case Node::Kind::BatchnormBackward: return "batchnorm_backward";
    case Node::Kind::ResampleFwd: return "resample";
    case Node::Kind::ResampleBwd: return "resample_bwd";
    case Node::Kind::Reduction: return "reduction";
    }
    return "node";
}

/// Strides of a new tensor of `dims` laid out like `like` (channels-last stays channels-last).
inline std::vector<int64_t> stridesLike(const std::vector<int64_t>& dims, const TensorPtr& like)
{
    using hipdnn_data_sdk::utilities::channelsLastStrides;
    using hipdnn_data_sdk::utilities::packedStrides;
    if(like != nullptr && like->get_dim().size() == dims.size() && dims.size() >= 3
       && like->get_stride() == channelsLastStrides(like->get_dim())
       && like->get_stride() != packedStrides(like->get_dim()))
    {
        return channelsLastStrides(dims);
    }
    return packedStrides(dims);
}

/// Fills the resample geometry's defaults (stride 1, padding 0, post = pre) and checks it against
/// x's dims; returns the output dims (N, C, then (x + pre + post - window) / stride + 1).
inline Error resampleGeometry(Node& n, const std::vector<int64_t>& x, std::vector<int64_t>& y)
{
    const char* kind = n.kind == Node::Kind::ResampleFwd ? "resample" : "resample_bwd";
    HIPDNN_RETURN_IF_TRUE(x.size() < 3, ErrorCode::INVALID_VALUE,
                          std::string(kind) + ": tensors need N, C and at least one spatial dimension");
    const size_t spatial = x.size() - 2;
    HIPDNN_RETURN_IF_TRUE(n.resampleMode == ResampleMode::NOT_SET, ErrorCode::ATTRIBUTE_NOT_SET,
                          std::string(kind) + ": the resample mode is not set");
    HIPDNN_RETURN_IF_TRUE(n.resampleMode == ResampleMode::BILINEAR || n.resampleMode == ResampleMode::NEAREST,
                          ErrorCode::GRAPH_NOT_SUPPORTED,
                          std::string(kind) + ": only the pooling modes (MAXPOOL, AVGPOOL_*) are supported");
    HIPDNN_RETURN_IF_TRUE(n.window.size() != spatial, ErrorCode::INVALID_VALUE,
                          std::string(kind) + ": the window needs one length per spatial dimension ("
                              + std::to_string(spatial) + ")");
    if(n.stride.empty()) n.stride.assign(spatial, 1);
    if(n.prePadding.empty()) n.prePadding.assign(spatial, 0);
    if(n.postPadding.empty()) n.postPadding = n.prePadding;
    HIPDNN_RETURN_IF_TRUE(n.stride.size() != spatial || n.prePadding.size() != spatial
                              || n.postPadding.size() != spatial,
                          ErrorCode::INVALID_VALUE,
                          std::string(kind) + ": stride and paddings need one value per spatial dimension");
    y = {x[0], x[1]};
    for(size_t i = 0; i < spatial; ++i)
    {
        HIPDNN_RETURN_IF_TRUE(n.window[i] < 1 || n.stride[i] < 1 || n.prePadding[i] < 0 || n.postPadding[i] < 0,
                              ErrorCode::INVALID_VALUE,
                              std::string(kind) + ": window and stride must be >= 1 and paddings >= 0");
        const int64_t span = x[i + 2] + n.prePadding[i] + n.postPadding[i] - n.window[i];
        HIPDNN_RETURN_IF_TRUE(span < 0, ErrorCode::SHAPE_DEDUCTION_FAILED,
                              std::string(kind) + ": the window is larger than the padded input in spatial dim "
                                  + std::to_string(i));
        y.push_back(span / n.stride[i] + 1);
    }
    return {};
}

inline std::vector<int64_t> perChannel(const std::vector<int64_t>& x)
{
    std::vector<int64_t> d(x.size(), 1);
    d[1] = x[1];
    return d;
}
} // namespace detail_graph

inline Error Graph::inferNode(Node& n)
{
    using detail_graph::label;
    const char* kind = detail_graph::kindName(n.kind);
    for(size_t i = 0; i < n.inputs.size(); ++i)
    {
        const auto& t = n.inputs[i];
        if(t == nullptr)
        {
            continue; // optional operand
        }
        HIPDNN_RETURN_IF_TRUE(t->get_dim().empty(), ErrorCode::ATTRIBUTE_NOT_SET,
                              std::string(kind) + ": input " + label(t) + " has no dims");
        if(t->get_stride().empty())
        {
            t->set_stride(hipdnn_data_sdk::utilities::packedStrides(t->get_dim()));
        }
        HIPDNN_RETURN_IF_TRUE(t->get_stride().size() != t->get_dim().size(), ErrorCode::INVALID_VALUE,
                              std::string(kind) + ": " + label(t) + " has strides of another rank than its dims");
        if(t->get_data_type() == DataType::NOT_SET)
        {
            t->set_data_type(t->get_is_virtual() ? _intermediateType : _ioType);
        }
        HIPDNN_RETURN_IF_TRUE(t->get_data_type() == DataType::NOT_SET, ErrorCode::ATTRIBUTE_NOT_SET,
                              std::string(kind) + ": " + label(t) + " has no data type (set it or the graph's io type)");
    }
    const auto& in = n.inputs;
    std::vector<std::vector<int64_t>> outDims(n.outputs.size());
    switch(n.kind)
    {
    case Node::Kind::ConvFprop:
    {
        const size_t spatial = in[0]->get_dim().size() >= 2 ? in[0]->get_dim().size() - 2 : 0;
        if(n.dilation.empty()) n.dilation.assign(spatial, 1);
        if(n.stride.empty()) n.stride.assign(spatial, 1);
        if(n.prePadding.empty()) n.prePadding.assign(spatial, 0);
        if(n.postPadding.empty()) n.postPadding = n.prePadding;
        try
        {
            outDims[0] = hipdnn_data_sdk::utilities::convForwardOutputDims(
                in[0]->get_dim(), in[1]->get_dim(), n.prePadding, n.postPadding, n.stride, n.dilation);
        }
        catch(const std::exception& e)
        {
            return Error(ErrorCode::SHAPE_DEDUCTION_FAILED, std::string("conv_fprop: ") + e.what());
        }
        break;
    }
    case Node::Kind::ConvDgrad:
    case Node::Kind::ConvWgrad:
    {
        const size_t spatial = in[0]->get_dim().size() >= 2 ? in[0]->get_dim().size() - 2 : 0;
        if(n.dilation.empty()) n.dilation.assign(spatial, 1);
        if(n.stride.empty()) n.stride.assign(spatial, 1);
        if(n.prePadding.empty()) n.prePadding.assign(spatial, 0);
        if(n.postPadding.empty()) n.postPadding = n.prePadding;
        HIPDNN_RETURN_IF_TRUE(n.outputs[0]->get_dim().empty(), ErrorCode::SHAPE_DEDUCTION_FAILED,
                              std::string(kind) + ": set the output dims explicitly (they cannot be inferred)");
        outDims[0] = n.outputs[0]->get_dim();
        // Check the geometry: forward output of (dx|x, w|dw) must equal dy.
        const auto& x = n.kind == Node::Kind::ConvDgrad ? outDims[0] : in[1]->get_dim();
        const auto& w = n.kind == Node::Kind::ConvDgrad ? in[1]->get_dim() : outDims[0];
        try
        {
            const auto y = hipdnn_data_sdk::utilities::convForwardOutputDims(x, w, n.prePadding, n.postPadding,
                                                                             n.stride, n.dilation);
            HIPDNN_RETURN_IF_TRUE(y != in[0]->get_dim(), ErrorCode::SHAPE_DEDUCTION_FAILED,
                                  std::string(kind) + ": dy dims do not match the convolution geometry");
        }
        catch(const std::exception& e)
        {
            return Error(ErrorCode::SHAPE_DEDUCTION_FAILED, std::string(kind) + ": " + e.what());
        }
        break;
    }
    case Node::Kind::Pointwise:
    {
        HIPDNN_RETURN_IF_TRUE(n.pointwise.get_mode() == PointwiseMode::NOT_SET, ErrorCode::ATTRIBUTE_NOT_SET,
                              "pointwise: mode is not set");
        std::vector<int64_t> dims = in[0]->get_dim();
        for(size_t i = 1; i < in.size(); ++i)
        {
            const auto& d = in[i]->get_dim();
            HIPDNN_RETURN_IF_TRUE(d.size() != dims.size(), ErrorCode::SHAPE_DEDUCTION_FAILED,
                                  "pointwise: inputs have different ranks");
            for(size_t k = 0; k < d.size(); ++k)
            {
                HIPDNN_RETURN_IF_TRUE(d[k] != dims[k] && d[k] != 1 && dims[k] != 1, ErrorCode::SHAPE_DEDUCTION_FAILED,
                                      "pointwise: inputs do not broadcast at dim " + std::to_string(k));
                dims[k] = std::max(dims[k], d[k]);
            }
        }
        outDims[0] = dims;
        break;
    }
    case Node::Kind::BatchnormTraining:
        HIPDNN_RETURN_IF_TRUE(in[3] == nullptr, ErrorCode::ATTRIBUTE_NOT_SET, "batchnorm: epsilon is not set");
        outDims = {in[0]->get_dim(), detail_graph::perChannel(in[0]->get_dim()),
                   detail_graph::perChannel(in[0]->get_dim()), detail_graph::perChannel(in[0]->get_dim()),
                   detail_graph::perChannel(in[0]->get_dim())};
        break;
    case Node::Kind::BatchnormInference:
        HIPDNN_RETURN_IF_TRUE(in.size() > 5 && in[5] == nullptr, ErrorCode::ATTRIBUTE_NOT_SET,
                              "batchnorm_inference_variance_ext: epsilon is not set");
        outDims[0] = in[0]->get_dim();
        break;
    case Node::Kind::ResampleFwd:
        HIPDNN_CHECK_ERROR(detail_graph::resampleGeometry(n, in[0]->get_dim(), outDims[0]));
        if(n.outputs.size() > 1 && n.outputs[1] != nullptr)
        {
            HIPDNN_RETURN_IF_TRUE(n.resampleMode != ResampleMode::MAXPOOL, ErrorCode::INVALID_VALUE,
                                  "resample: only max pooling generates an index tensor");
            HIPDNN_RETURN_IF_TRUE(n.outputs[1]->get_data_type() != DataType::INT32, ErrorCode::INVALID_VALUE,
                                  "resample: the index tensor must be INT32");
            outDims[1] = outDims[0];
        }
        break;
    case Node::Kind::ResampleBwd:
    {
        HIPDNN_RETURN_IF_TRUE(n.outputs[0]->get_dim().empty(), ErrorCode::SHAPE_DEDUCTION_FAILED,
                              "resample_bwd: set dx's dims explicitly (they cannot be inferred)");
        outDims[0] = n.outputs[0]->get_dim();
        std::vector<int64_t> y;
        HIPDNN_CHECK_ERROR(detail_graph::resampleGeometry(n, outDims[0], y));
        HIPDNN_RETURN_IF_TRUE(y != in[0]->get_dim(), ErrorCode::SHAPE_DEDUCTION_FAILED,
                              "resample_bwd: dy dims do not match the pooling geometry of dx");
        HIPDNN_RETURN_IF_TRUE(n.resampleMode == ResampleMode::MAXPOOL && in[1] == nullptr, ErrorCode::ATTRIBUTE_NOT_SET,
                              "resample_bwd: max pooling needs the forward's index tensor");
        HIPDNN_RETURN_IF_TRUE(in[1] != nullptr
                                  && (in[1]->get_data_type() != DataType::INT32 || in[1]->get_dim() != y),
                              ErrorCode::INVALID_VALUE, "resample_bwd: the index tensor must be INT32 with dy's dims");
        break;
    }
    case Node::Kind::Reduction:
    {
        HIPDNN_RETURN_IF_TRUE(!n.reductionMode.has_value() || *n.reductionMode == ReductionMode::NOT_SET,
                              ErrorCode::ATTRIBUTE_NOT_SET, "reduction: mode is not set");
        HIPDNN_RETURN_IF_TRUE(n.outputs[0]->get_dim().empty(), ErrorCode::SHAPE_DEDUCTION_FAILED,
                              "reduction: set the output's dims (x's rank, 1 in every reduced dimension)");
        outDims[0] = n.outputs[0]->get_dim();
        const auto& x = in[0]->get_dim();
        HIPDNN_RETURN_IF_TRUE(outDims[0].size() != x.size(), ErrorCode::SHAPE_DEDUCTION_FAILED,
                              "reduction: the output must have the input's rank");
        for(size_t k = 0; k < x.size(); ++k)
        {
            HIPDNN_RETURN_IF_TRUE(outDims[0][k] != x[k] && outDims[0][k] != 1, ErrorCode::SHAPE_DEDUCTION_FAILED,
                                  "reduction: output dim " + std::to_string(k) + " is neither the input's nor 1");
        }
        break;
    }
    case Node::Kind::BatchnormBackward:
        HIPDNN_RETURN_IF_TRUE(in[3] == nullptr || in[4] == nullptr, ErrorCode::ATTRIBUTE_NOT_SET,
                              "batchnorm_backward: set_saved_mean_and_inv_variance is required");
        outDims = {in[1]->get_dim(), detail_graph::perChannel(in[1]->get_dim()),
                   detail_graph::perChannel(in[1]->get_dim())};
        break;
    }
    for(size_t i = 0; i < n.outputs.size(); ++i)
    {
        const auto& t = n.outputs[i];
        if(t == nullptr)
        {
            continue;
        }
        if(t->get_dim().empty())
        {
            t->set_dim(outDims[i]);
        }
        HIPDNN_RETURN_IF_TRUE(t->get_dim() != outDims[i], ErrorCode::SHAPE_DEDUCTION_FAILED,
                              std::string(kind) + ": output " + label(t) + " has dims that differ from the inferred ones");
        if(t->get_stride().empty())
        {
            t->set_stride(detail_graph::stridesLike(t->get_dim(), in[0]));
        }
        if(t->get_data_type() == DataType::NOT_SET)
        {
            t->set_data_type(t->get_is_virtual() ? _intermediateType : _ioType);
        }
        HIPDNN_RETURN_IF_TRUE(t->get_data_type() == DataType::NOT_SET, ErrorCode::ATTRIBUTE_NOT_SET,
                              std::string(kind) + ": output " + label(t)
                                  + " has no data type (set it, or the graph's intermediate/io type)");
    }
    return {};
}

inline std::vector<TensorPtr> Graph::orderedTensors() const
{
    std::vector<TensorPtr> out;
    std::set<const TensorAttributes*> seen;
    for(const auto& n : _nodes)
    {
        for(const auto* list : {&n.inputs, &n.outputs})
        {
            for(const auto& t : *list)
            {
                if(t != nullptr && seen.insert(t.get()).second)
                {
                    out.push_back(t);
                }
            }
        }
    }
    return out;
}

inline Error Graph::validate()
{
    _validated = false;
    HIPDNN_RETURN_IF_TRUE(_nodes.empty(), ErrorCode::INVALID_VALUE, "the graph has no nodes");
    for(auto& n : _nodes)
    {
        HIPDNN_CHECK_ERROR(inferNode(n));
    }
    // Every virtual tensor must be produced inside the graph.
    std::set<const TensorAttributes*> produced;
    for(const auto& n : _nodes)
    {
        for(const auto& t : n.outputs)
        {
            if(t != nullptr)
            {
                HIPDNN_RETURN_IF_TRUE(!produced.insert(t.get()).second, ErrorCode::INVALID_VALUE,
                                      detail_graph::label(t) + " is written by two nodes");
            }
        }
    }
    auto tensors = orderedTensors();
    for(const auto& t : tensors)
    {
        HIPDNN_RETURN_IF_TRUE(t->get_is_virtual() && produced.count(t.get()) == 0, ErrorCode::INVALID_VALUE,
                              detail_graph::label(t) + " is virtual but no node writes it");
        HIPDNN_RETURN_IF_TRUE(t->get_is_virtual() && t->get_is_pass_by_value(), ErrorCode::INVALID_VALUE,
                              detail_graph::label(t) + " cannot be virtual and pass-by-value");
    }
    // Unique uids; assign missing ones above the largest given uid.
    std::map<int64_t, const TensorAttributes*> byUid;
    int64_t next = 1;
    for(const auto& t : tensors)
    {
        if(t->has_uid())
        {
            auto [it, inserted] = byUid.emplace(t->get_uid(), t.get());
            HIPDNN_RETURN_IF_TRUE(!inserted && it->second != t.get(), ErrorCode::INVALID_VALUE,
                                  "duplicate tensor uid " + std::to_string(t->get_uid()));
            next = std::max(next, t->get_uid() + 1);
        }
    }
    for(const auto& t : tensors)
    {
        if(!t->has_uid())
        {
            t->set_uid(next++);
        }
    }
    // Connectivity over nodes sharing tensors.
    std::vector<size_t> parent(_nodes.size());
    std::iota(parent.begin(), parent.end(), size_t{0});
    auto find = [&parent](size_t v) {
        while(parent[v] != v)
        {
            v = parent[v] = parent[parent[v]];
        }
        return v;
    };
    std::map<const TensorAttributes*, size_t> firstUser;
    for(size_t i = 0; i < _nodes.size(); ++i)
    {
        for(const auto* list : {&_nodes[i].inputs, &_nodes[i].outputs})
        {
            for(const auto& t : *list)
            {
                if(t == nullptr)
                {
                    continue;
                }
                auto [it, inserted] = firstUser.emplace(t.get(), i);
                if(!inserted)
                {
                    parent[find(i)] = find(it->second);
                }
            }
        }
    }
    for(size_t i = 1; i < _nodes.size(); ++i)
    {
        HIPDNN_RETURN_IF_TRUE(find(i) != find(0), ErrorCode::INVALID_VALUE,
                              "the graph is not connected (node " + std::to_string(i) + " is isolated from node 0)");
    }
    _validated = true;
    return {};
}

inline Error Graph::serialize(std::vector<uint8_t>& out) const
{
    namespace dobj = hipdnn_data_sdk::data_objects;
    using detail::toWire;
    HIPDNN_RETURN_IF_TRUE(!_validated, ErrorCode::INVALID_VALUE, "validate() the graph before serializing it");
    flatbuffers::FlatBufferBuilder fbb;
    std::vector<flatbuffers::Offset<dobj::TensorAttributes>> tensors;
    for(const auto& t : orderedTensors())
    {
        auto name = fbb.CreateString(t->get_name());
        auto strides = fbb.CreateVector(t->get_stride());
        auto dims = fbb.CreateVector(t->get_dim());
        flatbuffers::Offset<void> value;
        dobj::TensorValue valueType = dobj::TensorValue::NONE;
        if(t->get_value().has_value())
        {
            dobj::Float32Value v(*t->get_value());
            value = fbb.CreateStruct(v).Union();
            valueType = dobj::TensorValue::Float32Value;
        }
        dobj::TensorAttributesBuilder b(fbb);
        b.add_uid(t->get_uid());
        b.add_name(name);
        b.add_data_type(toWire(t->get_data_type()));
        b.add_strides(strides);
        b.add_dims(dims);
        b.add_virtual_(t->get_is_virtual());
        if(valueType != dobj::TensorValue::NONE)
        {
            b.add_value_type(valueType);
            b.add_value(value);
        }
        tensors.push_back(b.Finish());
    }
    auto uid = [](const TensorPtr& t) { return t->get_uid(); };
    auto opt = [](const TensorPtr& t) {
        return t == nullptr ? flatbuffers::Optional<int64_t>() : flatbuffers::Optional<int64_t>(t->get_uid());
    };
    auto optF = [](const std::optional<float>& v) {
        return v.has_value() ? flatbuffers::Optional<float>(*v) : flatbuffers::Optional<float>();
    };
    std::vector<flatbuffers::Offset<dobj::Node>> nodes;
    for(size_t i = 0; i < _nodes.size(); ++i)
    {
        const Node& n = _nodes[i];
        const auto& in = n.inputs;
        const auto& o = n.outputs;
        dobj::NodeAttributes type = dobj::NodeAttributes::NONE;
        flatbuffers::Offset<void> attrs;
        switch(n.kind)
        {
        case Node::Kind::ConvFprop:
            type = dobj::NodeAttributes::ConvolutionFwdAttributes;
            attrs = dobj::CreateConvolutionFwdAttributesDirect(fbb, uid(in[0]), uid(in[1]), uid(o[0]), &n.prePadding,
                                                               &n.postPadding, &n.stride, &n.dilation, toWire(n.convMode))
                        .Union();
            break;
        case Node::Kind::ConvDgrad:
            type = dobj::NodeAttributes::ConvolutionBwdAttributes;
            attrs = dobj::CreateConvolutionBwdAttributesDirect(fbb, uid(in[0]), uid(in[1]), uid(o[0]), &n.prePadding,
                                                               &n.postPadding, &n.stride, &n.dilation, toWire(n.convMode))
                        .Union();
            break;
        case Node::Kind::ConvWgrad:
            type = dobj::NodeAttributes::ConvolutionWrwAttributes;
            attrs = dobj::CreateConvolutionWrwAttributesDirect(fbb, uid(in[1]), uid(in[0]), uid(o[0]), &n.prePadding,
                                                               &n.postPadding, &n.stride, &n.dilation, toWire(n.convMode))
                        .Union();
            break;
        case Node::Kind::Pointwise:
        {
            const auto& p = n.pointwise;
            type = dobj::NodeAttributes::PointwiseAttributes;
            attrs = dobj::CreatePointwiseAttributes(
                        fbb, toWire(p.get_mode()), optF(p.get_relu_lower_clip()), optF(p.get_relu_upper_clip()),
                        optF(p.get_relu_lower_clip_slope()), flatbuffers::nullopt, uid(in[0]),
                        in.size() > 1 ? opt(in[1]) : flatbuffers::nullopt,
                        in.size() > 2 ? opt(in[2]) : flatbuffers::nullopt, uid(o[0]), optF(p.get_swish_beta()),
                        optF(p.get_elu_alpha()), optF(p.get_softplus_beta()))
                        .Union();
            break;
        }
        case Node::Kind::BatchnormTraining:
            type = dobj::NodeAttributes::BatchnormAttributes;
            attrs = dobj::CreateBatchnormAttributesDirect(fbb, uid(in[0]), uid(in[1]), uid(in[2]), uid(in[3]), nullptr,
                                                          opt(in[4]), opt(in[5]), opt(in[6]), uid(o[0]), opt(o[1]),
                                                          opt(o[2]), opt(o[3]), opt(o[4]))
                        .Union();
            break;
        case Node::Kind::BatchnormInference:
            if(in.size() > 5) // batchnorm_inference_variance_ext: x, mean, variance, scale, bias, epsilon
            {
                type = dobj::NodeAttributes::BatchnormInferenceAttributesVarianceExt;
                attrs = dobj::CreateBatchnormInferenceAttributesVarianceExt(fbb, uid(in[0]), uid(in[1]), uid(in[2]),
                                                                            uid(in[3]), uid(in[4]), uid(o[0]), uid(in[5]))
                            .Union();
                break;
            }
            type = dobj::NodeAttributes::BatchnormInferenceAttributes;
            attrs = dobj::CreateBatchnormInferenceAttributes(fbb, uid(in[0]), uid(in[1]), uid(in[2]), uid(in[3]),
                                                             uid(in[4]), uid(o[0]))
                        .Union();
            break;
        case Node::Kind::ResampleFwd:
            type = dobj::NodeAttributes::ResampleFwdAttributes;
            attrs = dobj::CreateResampleFwdAttributesDirect(
                        fbb, uid(in[0]), uid(o[0]), o.size() > 1 ? opt(o[1]) : flatbuffers::nullopt, &n.prePadding,
                        &n.postPadding, &n.stride, &n.window, toWire(n.resampleMode), toWire(n.paddingMode),
                        n.generateIndex)
                        .Union();
            break;
        case Node::Kind::ResampleBwd:
            type = dobj::NodeAttributes::ResampleBwdAttributes;
            attrs = dobj::CreateResampleBwdAttributesDirect(fbb, uid(in[0]), uid(o[0]), opt(in[1]), &n.prePadding,
                                                            &n.postPadding, &n.stride, &n.window,
                                                            toWire(n.resampleMode), toWire(n.paddingMode))
                        .Union();
            break;
        case Node::Kind::Reduction:
            type = dobj::NodeAttributes::ReductionAttributes;
            attrs = dobj::CreateReductionAttributes(fbb, toWire(*n.reductionMode), uid(in[0]), uid(o[0]),
                                                    n.deterministic)
                        .Union();
            break;
        case Node::Kind::BatchnormBackward:
            type = dobj::NodeAttributes::BatchnormBackwardAttributes;
            attrs = dobj::CreateBatchnormBackwardAttributesDirect(fbb, uid(in[0]), uid(in[1]), opt(in[3]), opt(in[4]),
                                                                  uid(in[2]), nullptr, uid(o[0]), uid(o[1]), uid(o[2]))
                        .Union();
            break;
        }
        const DataType compute = n.computeType != DataType::NOT_SET ? n.computeType : _computeType;
        auto name = fbb.CreateString(n.name.empty() ? std::string(detail_graph::kindName(n.kind)) + std::to_string(i) : n.name);
        nodes.push_back(dobj::CreateNode(fbb, name, toWire(compute == DataType::NOT_SET ? DataType::FLOAT : compute), type, attrs));
    }
    const DataType compute = _computeType == DataType::NOT_SET ? DataType::FLOAT : _computeType;
    auto root = dobj::CreateGraphDirect(fbb, _name.c_str(), toWire(compute),
                                        toWire(_intermediateType == DataType::NOT_SET ? compute : _intermediateType),
                                        toWire(_ioType), &tensors, &nodes,
                                        _preferredEngine.has_value() ? flatbuffers::Optional<int64_t>(*_preferredEngine)
                                                                     : flatbuffers::nullopt);
    fbb.Finish(root);
    out.assign(fbb.GetBufferPointer(), fbb.GetBufferPointer() + fbb.GetSize());
    return {};
}

inline Error Graph::build_operation_graph(hipdnnHandle_t handle)
{
    HIPDNN_RETURN_IF_TRUE(handle == nullptr, ErrorCode::INVALID_VALUE, "handle is null");
    if(!_validated)
    {
        HIPDNN_CHECK_ERROR(validate());
    }
    std::vector<uint8_t> bytes;
    HIPDNN_CHECK_ERROR(serialize(bytes));
    auto backend = detail::hipdnnBackend();
    _plan.reset();
    _configs.clear();
    _heuristics.reset();
    hipdnnStatus_t st = backend->backendCreateAndDeserializeGraphExt(_graphDesc.out(), bytes.data(), bytes.size());
    if(st != HIPDNN_STATUS_SUCCESS)
    {
        return detail::backendError(st, "hipdnnBackendCreateAndDeserializeGraph_ext");
    }
    st = backend->backendSetAttribute(_graphDesc.get(), HIPDNN_ATTR_OPERATIONGRAPH_HANDLE, HIPDNN_TYPE_HANDLE, 1, &handle);
    if(st != HIPDNN_STATUS_SUCCESS)
    {
        return detail::backendError(st, "setting HIPDNN_ATTR_OPERATIONGRAPH_HANDLE");
    }
    st = backend->backendFinalize(_graphDesc.get());
    if(st != HIPDNN_STATUS_SUCCESS)
    {
        return detail::backendError(st, "finalizing the operation graph");
    }
    _handle = handle;
    return {};
}

inline Error Graph::create_execution_plans(const std::vector<HeuristicMode>& modes)
{
    HIPDNN_RETURN_IF_TRUE(_graphDesc.get() == nullptr, ErrorCode::INVALID_VALUE,
                          "build_operation_graph() must succeed before create_execution_plans()");
    HIPDNN_RETURN_IF_TRUE(modes.empty(), ErrorCode::INVALID_VALUE, "no heuristic mode given");
    auto backend = detail::hipdnnBackend();
    _configs.clear();
    hipdnnStatus_t st = backend->backendCreateDescriptor(HIPDNN_BACKEND_ENGINEHEUR_DESCRIPTOR, _heuristics.out());
    if(st != HIPDNN_STATUS_SUCCESS)
    {
        return detail::backendError(st, "creating the engine heuristic descriptor");
    }
    hipdnnBackendDescriptor_t graph = _graphDesc.get();
    st = backend->backendSetAttribute(_heuristics.get(), HIPDNN_ATTR_ENGINEHEUR_OPERATION_GRAPH,
                                      HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &graph);
    if(st != HIPDNN_STATUS_SUCCESS)
    {
        return detail::backendError(st, "setting HIPDNN_ATTR_ENGINEHEUR_OPERATION_GRAPH");
    }
    const hipdnnBackendHeurMode_t mode = HIPDNN_HEUR_MODE_FALLBACK;
    st = backend->backendSetAttribute(_heuristics.get(), HIPDNN_ATTR_ENGINEHEUR_MODE, HIPDNN_TYPE_HEUR_MODE, 1, &mode);
    if(st != HIPDNN_STATUS_SUCCESS)
    {
        return detail::backendError(st, "setting HIPDNN_ATTR_ENGINEHEUR_MODE");
    }
    st = backend->backendFinalize(_heuristics.get());
    if(st != HIPDNN_STATUS_SUCCESS)
    {
        return detail::backendError(st, "finalizing the engine heuristics");
    }
    int64_t count = 0;
    st = backend->backendGetAttribute(_heuristics.get(), HIPDNN_ATTR_ENGINEHEUR_RESULTS, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 0,
                                      &count, nullptr);
    if(st != HIPDNN_STATUS_SUCCESS)
    {
        return detail::backendError(st, "counting the engine heuristic results");
    }
    std::vector<hipdnnBackendDescriptor_t> raw(static_cast<size_t>(count), nullptr);
    _configs.resize(static_cast<size_t>(count));
    for(size_t i = 0; i < raw.size(); ++i)
    {
        st = backend->backendCreateDescriptor(HIPDNN_BACKEND_ENGINECFG_DESCRIPTOR, _configs[i].out());
        if(st != HIPDNN_STATUS_SUCCESS)
        {
            return detail::backendError(st, "creating an engine config descriptor");
        }
        raw[i] = _configs[i].get();
    }
    if(count > 0)
    {
        int64_t got = 0;
        st = backend->backendGetAttribute(_heuristics.get(), HIPDNN_ATTR_ENGINEHEUR_RESULTS,
                                          HIPDNN_TYPE_BACKEND_DESCRIPTOR, count, &got, raw.data());
        if(st != HIPDNN_STATUS_SUCCESS)
        {
            return detail::backendError(st, "reading the engine heuristic results");
        }
    }
    return {};
}

inline Error Graph::check_support() const
{
    HIPDNN_RETURN_IF_TRUE(_configs.empty(), ErrorCode::GRAPH_NOT_SUPPORTED,
                          "no engine configuration supports the graph (run create_execution_plans() first)");
    return {};
}

inline Error Graph::build_plans()
{
    HIPDNN_CHECK_ERROR(check_support());
    auto backend = detail::hipdnnBackend();
    std::string failures;
    for(size_t i = 0; i < _configs.size(); ++i)
    {
        detail::ScopedDescriptor plan;
        hipdnnStatus_t st = backend->backendCreateDescriptor(HIPDNN_BACKEND_EXECUTION_PLAN_DESCRIPTOR, plan.out());
        if(st != HIPDNN_STATUS_SUCCESS)
        {
            return detail::backendError(st, "creating an execution plan descriptor");
        }
        hipdnnBackendDescriptor_t config = _configs[i].get();
        st = backend->backendSetAttribute(plan.get(), HIPDNN_ATTR_EXECUTION_PLAN_ENGINE_CONFIG,
                                          HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &config);
        if(st == HIPDNN_STATUS_SUCCESS)
        {
            st = backend->backendFinalize(plan.get());
        }
        if(st != HIPDNN_STATUS_SUCCESS)
        {
            failures += "; config " + std::to_string(i) + ": " + detail::backendError(st, "plan build").get_message();
            continue;
        }
        int64_t count = 0;
        st = backend->backendGetAttribute(plan.get(), HIPDNN_ATTR_EXECUTION_PLAN_WORKSPACE_SIZE, HIPDNN_TYPE_INT64, 1,
                                          &count, &_workspaceSize);
        if(st != HIPDNN_STATUS_SUCCESS)
        {
            return detail::backendError(st, "reading the plan's workspace size");
        }
        hipdnnBackendDescriptor_t engine = nullptr;
        st = backend->backendGetAttribute(config, HIPDNN_ATTR_ENGINECFG_ENGINE, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &count,
                                          &engine);
        if(st == HIPDNN_STATUS_SUCCESS)
        {
            char name[256] = {};
            if(backend->backendGetAttribute(engine, HIPDNN_ATTR_ENGINE_NAME_EXT, HIPDNN_TYPE_CHAR, sizeof(name), &count,
                                            name)
               == HIPDNN_STATUS_SUCCESS)
            {
                _engineName = name;
            }
        }
        _plan = std::move(plan);
        _ioUids.clear();
        _ioTensors.clear();
        for(const auto& t : orderedTensors())
        {
            if(!t->get_is_virtual() && !t->get_is_pass_by_value())
            {
                _ioUids.push_back(t->get_uid());
                _ioTensors.push_back(t);
            }
        }
        return {};
    }
    return Error(ErrorCode::GRAPH_NOT_SUPPORTED, "no engine configuration could build a plan" + failures);
}

// No heap allocation and no string on the success path: the uids were listed when the plan was
// built, the pointers go to stack arrays, and the backend variant pack comes from this thread's
// cache when the same buffers were used before (detail/VariantPackCache.hpp).
inline Error Graph::execute(hipdnnHandle_t handle, const std::unordered_map<int64_t, void*>& variantPack,
                            void* workspace) const
{
    using Cache = detail::VariantPackCache;
    HIPDNN_RETURN_IF_TRUE(_plan.get() == nullptr, ErrorCode::INVALID_VALUE, "build_plans() must succeed before execute()");
    HIPDNN_RETURN_IF_TRUE(handle == nullptr, ErrorCode::INVALID_VALUE, "handle is null");
    const size_t n = _ioUids.size();
    std::array<int64_t, Cache::kMaxTensors> uidBuffer{};
    std::array<void*, Cache::kMaxTensors> pointerBuffer{};
    std::vector<int64_t> uidHeap;
    std::vector<void*> pointerHeap;
    int64_t* uids = uidBuffer.data();
    void** pointers = pointerBuffer.data();
    if(n > Cache::kMaxTensors)
    {
        uidHeap.resize(n);
        pointerHeap.resize(n);
        uids = uidHeap.data();
        pointers = pointerHeap.data();
    }
    for(size_t i = 0; i < n; ++i)
    {
        auto it = variantPack.find(_ioUids[i]);
        HIPDNN_RETURN_IF_TRUE(it == variantPack.end() || it->second == nullptr, ErrorCode::INVALID_VARIANT_PACK,
                              "the variant pack has no memory for " + detail_graph::label(_ioTensors[i]));
        uids[i] = _ioUids[i];
        pointers[i] = it->second;
    }
    HIPDNN_RETURN_IF_TRUE(n != variantPack.size(), ErrorCode::INVALID_VARIANT_PACK,
                          "the variant pack names tensors that are not non-virtual tensors of the graph");
    HIPDNN_RETURN_IF_TRUE(_workspaceSize > 0 && workspace == nullptr, ErrorCode::INVALID_VALUE,
                          "the plan needs " + std::to_string(_workspaceSize) + " workspace bytes");
    auto backend = detail::hipdnnBackend();
    const bool cached = n <= Cache::kMaxTensors && Cache::enabled();
    hipdnnBackendDescriptor_t pack
        = cached ? Cache::forThisThread().find(backend.get(), uids, pointers, n, workspace) : nullptr;
    detail::ScopedDescriptor fresh;
    if(pack == nullptr)
    {
        hipdnnStatus_t st = backend->backendCreateDescriptor(HIPDNN_BACKEND_VARIANT_PACK_DESCRIPTOR, fresh.out());
        if(st == HIPDNN_STATUS_SUCCESS)
            st = backend->backendSetAttribute(fresh.get(), HIPDNN_ATTR_VARIANT_PACK_UNIQUE_IDS, HIPDNN_TYPE_INT64,
                                              static_cast<int64_t>(n), uids);
        if(st == HIPDNN_STATUS_SUCCESS)
            st = backend->backendSetAttribute(fresh.get(), HIPDNN_ATTR_VARIANT_PACK_DATA_POINTERS, HIPDNN_TYPE_VOID_PTR,
                                              static_cast<int64_t>(n), pointers);
        if(st == HIPDNN_STATUS_SUCCESS)
            st = backend->backendSetAttribute(fresh.get(), HIPDNN_ATTR_VARIANT_PACK_WORKSPACE, HIPDNN_TYPE_VOID_PTR, 1,
                                              &workspace);
        if(st == HIPDNN_STATUS_SUCCESS)
            st = backend->backendFinalize(fresh.get());
        if(st != HIPDNN_STATUS_SUCCESS)
        {
            return detail::backendError(st, "building the variant pack");
        }
        pack = fresh.get();
        if(cached)
        {
            Cache::forThisThread().insert(backend, fresh.release(), uids, pointers, n, workspace);
        }
    }
    const hipdnnStatus_t st = backend->backendExecute(handle, _plan.get(), pack);
    if(st != HIPDNN_STATUS_SUCCESS)
    {
        return detail::backendError(st, "hipdnnBackendExecute");
    }
    return {};
}

} // namespace hipdnn_frontend::graph
