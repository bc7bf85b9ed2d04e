// Runs a whole serialized graph on host memory with the CPU references, node by node in
// topological order. Virtual (intermediate) tensors live in the caller's workspace. Tensors of
// type FLOAT, HALF and BFLOAT16 with any strides (and INT32 resample index tensors); compute in
// float.
#pragma once

#include <hipdnn_data_sdk/flatbuffer_utilities/DataTypeUtils.hpp>
#include <hipdnn_plugin_sdk/GraphView.hpp>
#include <hipdnn_test_sdk/utilities/CpuFpReferenceBatchnorm.hpp>
#include <hipdnn_test_sdk/utilities/CpuFpReferenceConvolution.hpp>
#include <hipdnn_test_sdk/utilities/CpuFpReferenceReduction.hpp>
#include <hipdnn_test_sdk/utilities/CpuFpReferenceResample.hpp>
#include <hipdnn_test_sdk/utilities/pointwise/CpuReferencePointwise.hpp>

#include <algorithm>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace hipdnn_test_sdk::utilities
{

class CpuReferenceGraphExecutor
{
public:
    using GraphView = hipdnn_plugin_sdk::GraphView;

    /// True when every node and tensor of the graph is supported; `why` says what is not.
    static bool supports(const GraphView& graph, std::string& why)
    {
        namespace dobj = hipdnn_data_sdk::data_objects;
        const std::vector<int64_t> indexUids = resampleIndexUids(graph);
        for(const auto& [uid, t] : graph.tensors())
        {
            const auto dt = t->data_type();
            const bool isIndex = std::find(indexUids.begin(), indexUids.end(), uid) != indexUids.end();
            if(isIndex && dt != dobj::DataType::INT32)
            {
                why = "resample index tensor uid " + std::to_string(uid) + " is not INT32";
                return false;
            }
            if(!isIndex && dt != dobj::DataType::FLOAT && dt != dobj::DataType::HALF && dt != dobj::DataType::BFLOAT16)
            {
                why = "tensor uid " + std::to_string(uid) + " has unsupported data type "
                      + hipdnn_data_sdk::flatbuffer_utilities::dataTypeName(dt);
                return false;
            }
        }
        for(size_t n = 0; n < graph.nodeCount(); ++n)
        {
            const auto& node = graph.node(n);
            switch(node.attributes_type())
            {
            case dobj::NodeAttributes::ConvolutionFwdAttributes:
                if(node.attributes_as_ConvolutionFwdAttributes()->conv_mode() != dobj::ConvMode::CROSS_CORRELATION)
                {
                    why = "only CROSS_CORRELATION convolutions are supported";
                    return false;
                }
                break;
            case dobj::NodeAttributes::ConvolutionBwdAttributes:
                if(node.attributes_as_ConvolutionBwdAttributes()->conv_mode() != dobj::ConvMode::CROSS_CORRELATION)
                {
                    why = "only CROSS_CORRELATION convolutions are supported";
                    return false;
                }
                break;
            case dobj::NodeAttributes::ConvolutionWrwAttributes:
                if(node.attributes_as_ConvolutionWrwAttributes()->conv_mode() != dobj::ConvMode::CROSS_CORRELATION)
                {
                    why = "only CROSS_CORRELATION convolutions are supported";
                    return false;
                }
                break;
            case dobj::NodeAttributes::PointwiseAttributes:
                if(node.attributes_as_PointwiseAttributes()->operation() == dobj::PointwiseMode::UNSET)
                {
                    why = "pointwise mode is UNSET";
                    return false;
                }
                break;
            case dobj::NodeAttributes::BatchnormInferenceAttributes:
            case dobj::NodeAttributes::BatchnormInferenceAttributesVarianceExt:
                break;
            case dobj::NodeAttributes::BatchnormAttributes:
            {
                auto* peers = node.attributes_as_BatchnormAttributes()->peer_stats_tensor_uid();
                if(peers != nullptr && peers->size() != 0)
                {
                    why = "batchnorm peer statistics are not supported";
                    return false;
                }
                break;
            }
            case dobj::NodeAttributes::BatchnormBackwardAttributes:
            {
                auto* a = node.attributes_as_BatchnormBackwardAttributes();
                if(!a->mean_tensor_uid().has_value() || !a->inv_variance_tensor_uid().has_value())
                {
                    why = "batchnorm backward needs the saved mean and inverse variance";
                    return false;
                }
                if(a->peer_stats_tensor_uid() != nullptr && a->peer_stats_tensor_uid()->size() != 0)
                {
                    why = "batchnorm peer statistics are not supported";
                    return false;
                }
                break;
            }
            case dobj::NodeAttributes::ResampleFwdAttributes:
            case dobj::NodeAttributes::ResampleBwdAttributes:
            {
                const auto* f = node.attributes_as_ResampleFwdAttributes();
                const auto* b = node.attributes_as_ResampleBwdAttributes();
                const auto mode = f != nullptr ? f->resample_mode() : b->resample_mode();
                const auto padding = f != nullptr ? f->padding_mode() : b->padding_mode();
                if(mode != dobj::ResampleMode::MAXPOOL && mode != dobj::ResampleMode::AVGPOOL_EXCLUDE_PADDING
                   && mode != dobj::ResampleMode::AVGPOOL_INCLUDE_PADDING)
                {
                    why = std::string("resample mode ") + dobj::EnumNameResampleMode(mode) + " is not supported";
                    return false;
                }
                if(padding == dobj::PaddingMode::EDGE_VAL_PAD)
                {
                    why = "resample padding mode EDGE_VAL_PAD is not supported";
                    return false;
                }
                if(b != nullptr && mode == dobj::ResampleMode::MAXPOOL && !b->index_tensor_uid().has_value())
                {
                    why = "max pooling backward needs the index tensor";
                    return false;
                }
                break;
            }
            case dobj::NodeAttributes::ReductionAttributes:
            {
                const auto mode = node.attributes_as_ReductionAttributes()->mode();
                if(mode == dobj::ReductionMode::NOT_SET || dobj::EnumNameReductionMode(mode)[0] == '\0')
                {
                    why = "reduction mode is not set or unknown";
                    return false;
                }
                break;
            }
            default:
                why = std::string("node type ")
                      + dobj::EnumNameNodeAttributes(node.attributes_type()) + " is not supported";
                return false;
            }
        }
        return true;
    }

    static constexpr size_t kWorkspaceAlignment = 64;

    /// Workspace bytes: every virtual tensor's span, each aligned.
    static size_t workspaceSize(const GraphView& graph)
    {
        size_t total = 0;
        for(const auto& [uid, t] : graph.tensors())
        {
            if(t->virtual_())
            {
                total += alignUp(spanBytes(*t));
            }
        }
        return total;
    }

    /// Runs the graph. `buffers` maps every non-virtual, non-by-value tensor uid to memory.
    static void execute(const GraphView& graph, const std::map<int64_t, void*>& buffers, void* workspace)
    {
        namespace dobj = hipdnn_data_sdk::data_objects;
        std::map<int64_t, void*> memory = buffers;
        auto* ws = static_cast<uint8_t*>(workspace);
        size_t offset = 0;
        for(const auto& [uid, t] : graph.tensors())
        {
            if(t->virtual_())
            {
                if(ws == nullptr)
                {
                    throw std::invalid_argument("the graph has virtual tensors but no workspace was given");
                }
                memory[uid] = ws + offset;
                offset += alignUp(spanBytes(*t));
            }
        }
        Context ctx{graph, memory};
        for(size_t n = 0; n < graph.nodeCount(); ++n)
        {
            const auto& node = graph.node(n);
            switch(node.attributes_type())
            {
            case dobj::NodeAttributes::ConvolutionFwdAttributes:
            {
                auto* a = node.attributes_as_ConvolutionFwdAttributes();
                auto x = ctx.load(a->x_tensor_uid());
                auto w = ctx.load(a->w_tensor_uid());
                Tensor<float> y(ctx.dims(a->y_tensor_uid()));
                CpuFpReferenceConvolution::fprop<float, float, float>(x.view(), w.view(), y.view(), convParams(*a));
                ctx.store(a->y_tensor_uid(), y);
                break;
            }
            case dobj::NodeAttributes::ConvolutionBwdAttributes:
            {
                auto* a = node.attributes_as_ConvolutionBwdAttributes();
                auto dy = ctx.load(a->dy_tensor_uid());
                auto w = ctx.load(a->w_tensor_uid());
                Tensor<float> dx(ctx.dims(a->dx_tensor_uid()));
                CpuFpReferenceConvolution::dgrad<float, float, float>(dy.view(), w.view(), dx.view(), convParams(*a));
                ctx.store(a->dx_tensor_uid(), dx);
                break;
            }
            case dobj::NodeAttributes::ConvolutionWrwAttributes:
            {
                auto* a = node.attributes_as_ConvolutionWrwAttributes();
                auto x = ctx.load(a->x_tensor_uid());
                auto dy = ctx.load(a->dy_tensor_uid());
                Tensor<float> dw(ctx.dims(a->dw_tensor_uid()));
                CpuFpReferenceConvolution::wgrad<float, float, float>(x.view(), dy.view(), dw.view(), convParams(*a));
                ctx.store(a->dw_tensor_uid(), dw);
                break;
            }
            case dobj::NodeAttributes::PointwiseAttributes:
            {
                auto* a = node.attributes_as_PointwiseAttributes();
                PointwiseParams p;
                if(a->relu_lower_clip().has_value()) p.reluLowerClip = *a->relu_lower_clip();
                if(a->relu_upper_clip().has_value()) p.reluUpperClip = *a->relu_upper_clip();
                if(a->relu_lower_clip_slope().has_value()) p.reluLowerClipSlope = *a->relu_lower_clip_slope();
                if(a->swish_beta().has_value()) p.swishBeta = *a->swish_beta();
                if(a->elu_alpha().has_value()) p.eluAlpha = *a->elu_alpha();
                if(a->softplus_beta().has_value()) p.softplusBeta = *a->softplus_beta();
                if(a->axis_tensor_uid().has_value()) p.axis = static_cast<int64_t>(ctx.scalar(*a->axis_tensor_uid()));
                auto in0 = ctx.load(a->in_0_tensor_uid());
                Tensor<float> in1, in2;
                if(a->in_1_tensor_uid().has_value()) in1 = ctx.load(*a->in_1_tensor_uid());
                if(a->in_2_tensor_uid().has_value()) in2 = ctx.load(*a->in_2_tensor_uid());
                TensorView<const float> v1 = in1.view();
                TensorView<const float> v2 = in2.view();
                Tensor<float> out(ctx.dims(a->out_0_tensor_uid()));
                CpuReferencePointwise::compute<float, float>(
                    a->operation(), out.view(), in0.view(),
                    a->in_1_tensor_uid().has_value() ? &v1 : nullptr,
                    a->in_2_tensor_uid().has_value() ? &v2 : nullptr, p);
                ctx.store(a->out_0_tensor_uid(), out);
                break;
            }
            case dobj::NodeAttributes::BatchnormInferenceAttributes:
            {
                auto* a = node.attributes_as_BatchnormInferenceAttributes();
                auto x = ctx.load(a->x_tensor_uid());
                auto mean = ctx.load(a->mean_tensor_uid());
                auto iv = ctx.load(a->inv_variance_tensor_uid());
                auto scale = ctx.load(a->scale_tensor_uid());
                auto bias = ctx.load(a->bias_tensor_uid());
                Tensor<float> y(ctx.dims(a->y_tensor_uid()));
                CpuFpReferenceBatchnorm::inference<float, float, float>(x.view(), mean.view(), iv.view(),
                                                                        scale.view(), bias.view(), y.view());
                ctx.store(a->y_tensor_uid(), y);
                break;
            }
            case dobj::NodeAttributes::BatchnormInferenceAttributesVarianceExt:
            {
                auto* a = node.attributes_as_BatchnormInferenceAttributesVarianceExt();
                auto x = ctx.load(a->x_tensor_uid());
                auto mean = ctx.load(a->mean_tensor_uid());
                auto var = ctx.load(a->variance_tensor_uid());
                const double eps = ctx.scalar(a->epsilon_tensor_uid());
                Tensor<float> iv(var.dims());
                forEachIndex(var.dims(), [&](const std::vector<int64_t>& i) {
                    iv.at(i) = static_cast<float>(1.0 / std::sqrt(static_cast<double>(var.at(i)) + eps));
                });
                auto scale = ctx.load(a->scale_tensor_uid());
                auto bias = ctx.load(a->bias_tensor_uid());
                Tensor<float> y(ctx.dims(a->y_tensor_uid()));
                CpuFpReferenceBatchnorm::inference<float, float, float>(x.view(), mean.view(), iv.view(),
                                                                        scale.view(), bias.view(), y.view());
                ctx.store(a->y_tensor_uid(), y);
                break;
            }
            case dobj::NodeAttributes::BatchnormAttributes:
            {
                auto* a = node.attributes_as_BatchnormAttributes();
                auto x = ctx.load(a->x_tensor_uid());
                auto scale = ctx.load(a->scale_tensor_uid());
                auto bias = ctx.load(a->bias_tensor_uid());
                const double eps = ctx.scalar(a->epsilon_tensor_uid());
                Tensor<float> y(ctx.dims(a->y_tensor_uid()));
                const std::vector<int64_t> statDims = perChannelDims(x.dims());
                Tensor<float> mean(statDims), iv(statDims), nextMean(statDims), nextVar(statDims), prevMean, prevVar;
                double momentum = 0.0;
                const bool running = a->prev_running_mean_tensor_uid().has_value();
                if(running)
                {
                    prevMean = ctx.load(*a->prev_running_mean_tensor_uid());
                    prevVar = ctx.load(*a->prev_running_variance_tensor_uid());
                    momentum = ctx.scalar(*a->momentum_tensor_uid());
                }
                CpuFpReferenceBatchnorm::training<float, float, float>(
                    x.view(), scale.view(), bias.view(), eps, y.view(), mean.view(), iv.view(),
                    running ? flatView(prevMean) : TensorView<const float>(),
                    running ? flatView(prevVar) : TensorView<const float>(), momentum,
                    running ? nextMean.view() : TensorView<float>(),
                    running ? nextVar.view() : TensorView<float>());
                ctx.store(a->y_tensor_uid(), y);
                if(a->mean_tensor_uid().has_value()) ctx.storeFlat(*a->mean_tensor_uid(), mean);
                if(a->inv_variance_tensor_uid().has_value()) ctx.storeFlat(*a->inv_variance_tensor_uid(), iv);
                if(running && a->next_running_mean_tensor_uid().has_value())
                    ctx.storeFlat(*a->next_running_mean_tensor_uid(), nextMean);
                if(running && a->next_running_variance_tensor_uid().has_value())
                    ctx.storeFlat(*a->next_running_variance_tensor_uid(), nextVar);
                break;
            }
            case dobj::NodeAttributes::BatchnormBackwardAttributes:
            {
                auto* a = node.attributes_as_BatchnormBackwardAttributes();
                auto dy = ctx.load(a->dy_tensor_uid());
                auto x = ctx.load(a->x_tensor_uid());
                auto mean = ctx.load(*a->mean_tensor_uid());
                auto iv = ctx.load(*a->inv_variance_tensor_uid());
                auto scale = ctx.load(a->scale_tensor_uid());
                Tensor<float> dx(ctx.dims(a->dx_tensor_uid()));
                const std::vector<int64_t> statDims = perChannelDims(x.dims());
                Tensor<float> dscale(statDims), dbias(statDims);
                CpuFpReferenceBatchnorm::backward<float, float, float>(
                    dy.view(), x.view(), flatView(mean), flatView(iv), flatView(scale), dx.view(),
                    dscale.view(), dbias.view());
                ctx.store(a->dx_tensor_uid(), dx);
                ctx.storeFlat(a->dscale_tensor_uid(), dscale);
                ctx.storeFlat(a->dbias_tensor_uid(), dbias);
                break;
            }
            case dobj::NodeAttributes::ResampleFwdAttributes:
            {
                auto* a = node.attributes_as_ResampleFwdAttributes();
                auto x = ctx.load(a->x_tensor_uid());
                Tensor<float> y(ctx.dims(a->y_tensor_uid()));
                const bool withIndex = a->index_tensor_uid().has_value();
                Tensor<int32_t> index(withIndex ? ctx.dims(*a->index_tensor_uid()) : std::vector<int64_t>{});
                TensorView<int32_t> indexView = index.view();
                CpuFpReferenceResample::forward<float, float>(x.view(), y.view(), resampleParams(*a),
                                                              withIndex ? &indexView : nullptr);
                ctx.store(a->y_tensor_uid(), y);
                if(withIndex)
                {
                    ctx.storeIndex(*a->index_tensor_uid(), index);
                }
                break;
            }
            case dobj::NodeAttributes::ResampleBwdAttributes:
            {
                auto* a = node.attributes_as_ResampleBwdAttributes();
                auto dy = ctx.load(a->dy_tensor_uid());
                Tensor<float> dx(ctx.dims(a->dx_tensor_uid()));
                const bool withIndex = a->index_tensor_uid().has_value();
                Tensor<int32_t> index = withIndex ? ctx.loadIndex(*a->index_tensor_uid()) : Tensor<int32_t>();
                const TensorView<const int32_t> indexView = index.view();
                CpuFpReferenceResample::backward<float, float>(dy.view(), dx.view(), resampleParams(*a),
                                                               withIndex ? &indexView : nullptr);
                ctx.store(a->dx_tensor_uid(), dx);
                break;
            }
            case dobj::NodeAttributes::ReductionAttributes:
            {
                auto* a = node.attributes_as_ReductionAttributes();
                auto x = ctx.load(a->in_tensor_uid());
                Tensor<float> y(ctx.dims(a->out_tensor_uid()));
                CpuFpReferenceReduction::reduce<float, float>(a->mode(), x.view(), y.view());
                ctx.store(a->out_tensor_uid(), y);
                break;
            }
            default:
                throw std::invalid_argument("unsupported node type");
            }
        }
    }

private:
    static size_t alignUp(size_t n) { return (n + kWorkspaceAlignment - 1) / kWorkspaceAlignment * kWorkspaceAlignment; }

    static std::vector<int64_t> vec(const flatbuffers::Vector<int64_t>* v)
    {
        return v == nullptr ? std::vector<int64_t>() : std::vector<int64_t>(v->begin(), v->end());
    }

    static size_t spanBytes(const hipdnn_data_sdk::data_objects::TensorAttributes& t)
    {
        return static_cast<size_t>(hipdnn_data_sdk::utilities::spanElements(vec(t.dims()), vec(t.strides())))
               * hipdnn_data_sdk::flatbuffer_utilities::dataTypeSize(t.data_type());
    }

    template <typename A>
    static ConvolutionParams convParams(const A& a)
    {
        return {vec(a.pre_padding()), vec(a.post_padding()), vec(a.stride()), vec(a.dilation())};
    }

    template <typename A>
    static ResampleParams resampleParams(const A& a)
    {
        return {vec(a.pre_padding()), vec(a.stride()), vec(a.window()), a.resample_mode(), a.padding_mode()};
    }

    /// The uids of the index tensors of the graph's resample nodes.
    static std::vector<int64_t> resampleIndexUids(const GraphView& graph)
    {
        std::vector<int64_t> uids;
        for(size_t n = 0; n < graph.nodeCount(); ++n)
        {
            const auto& node = graph.node(n);
            if(const auto* f = node.attributes_as_ResampleFwdAttributes(); f != nullptr && f->index_tensor_uid())
            {
                uids.push_back(*f->index_tensor_uid());
            }
            if(const auto* b = node.attributes_as_ResampleBwdAttributes(); b != nullptr && b->index_tensor_uid())
            {
                uids.push_back(*b->index_tensor_uid());
            }
        }
        return uids;
    }

    /// [1, C, 1, ...] statistics shape of an x shape.
    static std::vector<int64_t> perChannelDims(const std::vector<int64_t>& x)
    {
        std::vector<int64_t> d(x.size(), 1);
        d[1] = x[1];
        return d;
    }

    /// Statistics tensors are per channel whatever their declared shape: view them as [1,C,1..].
    static TensorView<const float> flatView(const Tensor<float>& t)
    {
        return TensorView<const float>(t.data(), t.dims(), t.strides());
    }

    struct Context
    {
        const GraphView& graph;
        const std::map<int64_t, void*>& memory;

        std::vector<int64_t> dims(int64_t uid) const { return vec(graph.tensor(uid).dims()); }

        void* pointer(int64_t uid) const
        {
            auto it = memory.find(uid);
            if(it == memory.end() || it->second == nullptr)
            {
                throw std::invalid_argument("no buffer for tensor uid " + std::to_string(uid));
            }
            return it->second;
        }

        double scalar(int64_t uid) const
        {
            namespace dobj = hipdnn_data_sdk::data_objects;
            const auto& t = graph.tensor(uid);
            switch(t.value_type())
            {
            case dobj::TensorValue::Float32Value: return t.value_as_Float32Value()->value();
            case dobj::TensorValue::Float16Value: return t.value_as_Float16Value()->value();
            case dobj::TensorValue::BFloat16Value: return t.value_as_BFloat16Value()->value();
            case dobj::TensorValue::Float64Value: return t.value_as_Float64Value()->value();
            case dobj::TensorValue::Int32Value: return t.value_as_Int32Value()->value();
            case dobj::TensorValue::Int64Value: return static_cast<double>(t.value_as_Int64Value()->value());
            default: break;
            }
            auto loaded = load(uid);
            return loaded.data()[0];
        }

        template <typename F>
        void forElements(int64_t uid, F&& f) const
        {
            namespace dobj = hipdnn_data_sdk::data_objects;
            const auto& t = graph.tensor(uid);
            TensorView<uint8_t> raw(static_cast<uint8_t*>(pointer(uid)), vec(t.dims()), vec(t.strides()));
            const size_t esize = hipdnn_data_sdk::flatbuffer_utilities::dataTypeSize(t.data_type());
            forEachIndex(raw.dims(), [&](const std::vector<int64_t>& i) {
                f(i, raw.data() + static_cast<size_t>(raw.offset(i)) * esize, t.data_type());
            });
            (void)dobj::DataType::FLOAT;
        }

        Tensor<float> load(int64_t uid) const
        {
            namespace dobj = hipdnn_data_sdk::data_objects;
            Tensor<float> out(dims(uid));
            if(graph.tensor(uid).value_type() != dobj::TensorValue::NONE)
            {
                // A pass-by-value scalar (e.g. a pointwise MUL's factor): not in the variant pack.
                const auto v = static_cast<float>(scalar(uid));
                forEachIndex(out.dims(), [&](const std::vector<int64_t>& i) { out.at(i) = v; });
                return out;
            }
            forElements(uid, [&](const std::vector<int64_t>& i, const uint8_t* p, dobj::DataType dt) {
                float v;
                if(dt == dobj::DataType::HALF)
                {
                    v = *reinterpret_cast<const hipdnn_data_sdk::types::half*>(p);
                }
                else if(dt == dobj::DataType::BFLOAT16)
                {
                    v = *reinterpret_cast<const hipdnn_data_sdk::types::bfloat16*>(p);
                }
                else
                {
                    v = *reinterpret_cast<const float*>(p);
                }
                out.at(i) = v;
            });
            return out;
        }

        void store(int64_t uid, const Tensor<float>& values) const
        {
            namespace dobj = hipdnn_data_sdk::data_objects;
            forElements(uid, [&](const std::vector<int64_t>& i, const uint8_t* cp, dobj::DataType dt) {
                auto* p = const_cast<uint8_t*>(cp);
                const float v = values.at(i);
                if(dt == dobj::DataType::HALF)
                {
                    *reinterpret_cast<hipdnn_data_sdk::types::half*>(p) = hipdnn_data_sdk::types::half(v);
                }
                else if(dt == dobj::DataType::BFLOAT16)
                {
                    *reinterpret_cast<hipdnn_data_sdk::types::bfloat16*>(p) = hipdnn_data_sdk::types::bfloat16(v);
                }
                else
                {
                    *reinterpret_cast<float*>(p) = v;
                }
            });
        }

        /// An INT32 index tensor.
        Tensor<int32_t> loadIndex(int64_t uid) const
        {
            namespace dobj = hipdnn_data_sdk::data_objects;
            Tensor<int32_t> out(dims(uid));
            forElements(uid, [&](const std::vector<int64_t>& i, const uint8_t* p, dobj::DataType) {
                out.at(i) = *reinterpret_cast<const int32_t*>(p);
            });
            return out;
        }

        void storeIndex(int64_t uid, const Tensor<int32_t>& values) const
        {
            namespace dobj = hipdnn_data_sdk::data_objects;
            forElements(uid, [&](const std::vector<int64_t>& i, const uint8_t* cp, dobj::DataType) {
                *reinterpret_cast<int32_t*>(const_cast<uint8_t*>(cp)) = values.at(i);
            });
        }

        /// Stores per-channel values into a tensor of any shape holding C elements.
        void storeFlat(int64_t uid, const Tensor<float>& perChannel) const
        {
            const auto d = dims(uid);
            if(hipdnn_data_sdk::utilities::elementCount(d) != perChannel.elementCount())
            {
                throw std::invalid_argument("statistics tensor uid " + std::to_string(uid)
                                            + " does not hold one value per channel");
            }
            Tensor<float> reshaped(d);
            for(int64_t k = 0; k < perChannel.elementCount(); ++k)
            {
                reshaped.data()[k] = perChannel.data()[k];
            }
            store(uid, reshaped);
        }
    };
};

} // namespace hipdnn_test_sdk::utilities
