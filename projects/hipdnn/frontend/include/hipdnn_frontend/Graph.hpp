// hipdnn_frontend::graph::Graph: build a graph of tensors and nodes, then
//   validate -> build_operation_graph(handle) -> create_execution_plans({FALLBACK}) ->
//   check_support -> build_plans -> get_workspace_size -> execute(handle, variantPack, workspace)
// or build(handle) for the middle steps. Nothing throws: every step returns an Error, and a
// failed backend call carries the backend's last-error text.
#pragma once

#include <hipdnn_data_sdk/utilities/EngineNames.hpp>
#include <hipdnn_data_sdk/utilities/ShapeUtilities.hpp>
#include <hipdnn_frontend/Error.hpp>
#include <hipdnn_frontend/attributes/BatchnormAttributes.hpp>
#include <hipdnn_frontend/attributes/ConvolutionAttributes.hpp>
#include <hipdnn_frontend/attributes/PointwiseAttributes.hpp>
#include <hipdnn_frontend/attributes/ReductionAttributes.hpp>
#include <hipdnn_frontend/attributes/ResampleAttributes.hpp>
#include <hipdnn_frontend/attributes/TensorAttributes.hpp>
#include <hipdnn_frontend/detail/BackendWrapper.hpp>
#include <hipdnn_frontend/detail/VariantPackCache.hpp>

#include <array>
#include <map>
#include <memory>
#include <numeric>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

namespace hipdnn_frontend
{

namespace detail
{
/// Error of a failed backend call, with the backend's status name and last-error text.
inline Error backendError(hipdnnStatus_t status, const std::string& what)
{
    auto backend = hipdnnBackend();
    char message[HIPDNN_ERROR_STRING_MAX_LENGTH] = {};
    backend->getLastErrorString(message, sizeof(message));
    const ErrorCode code = status == HIPDNN_STATUS_NOT_SUPPORTED ? ErrorCode::GRAPH_NOT_SUPPORTED
                                                                 : ErrorCode::HIPDNN_BACKEND_ERROR;
    return Error(code, what + " failed: " + backend->getErrorString(status)
                           + (message[0] != '\0' ? std::string(": ") + message : std::string()));
}

/// A backend descriptor destroyed with its owner.
class ScopedDescriptor
{
public:
    ScopedDescriptor() = default;
    ~ScopedDescriptor() { reset(); }
    ScopedDescriptor(const ScopedDescriptor&) = delete;
    ScopedDescriptor& operator=(const ScopedDescriptor&) = delete;
    ScopedDescriptor(ScopedDescriptor&& o) noexcept : _desc(o._desc) { o._desc = nullptr; }
    ScopedDescriptor& operator=(ScopedDescriptor&& o) noexcept
    {
        if(this != &o)
        {
            reset();
            _desc = o._desc;
            o._desc = nullptr;
        }
        return *this;
    }
    void reset()
    {
        if(_desc != nullptr)
        {
            (void)hipdnnBackend()->backendDestroyDescriptor(_desc);
            _desc = nullptr;
        }
    }
    hipdnnBackendDescriptor_t get() const { return _desc; }
    hipdnnBackendDescriptor_t* out() { reset(); return &_desc; }
    /// Gives up ownership (the caller destroys the descriptor).
    hipdnnBackendDescriptor_t release()
    {
        hipdnnBackendDescriptor_t d = _desc;
        _desc = nullptr;
        return d;
    }

private:
    hipdnnBackendDescriptor_t _desc = nullptr;
};
} // namespace detail

namespace graph
{

using TensorPtr = std::shared_ptr<TensorAttributes>;

/// One node: its kind, role-ordered inputs/outputs (nullptr = absent optional) and parameters.
struct Node
{
    enum class Kind
    {
        ConvFprop,
        ConvDgrad,
        ConvWgrad,
        Pointwise,
        BatchnormTraining,
        BatchnormInference,
        BatchnormBackward,
        ResampleFwd,
        ResampleBwd,
        Reduction
    };
    Kind kind;
    std::string name;
    DataType computeType = DataType::NOT_SET;
    std::vector<TensorPtr> inputs;
    std::vector<TensorPtr> outputs;
    std::vector<int64_t> prePadding, postPadding, stride, dilation;
    ConvolutionMode convMode = ConvolutionMode::CROSS_CORRELATION;
    PointwiseAttributes pointwise;
    // Resample (pooling): window, modes, index output; prePadding/postPadding/stride above.
    std::vector<int64_t> window = {};
    ResampleMode resampleMode = ResampleMode::NOT_SET;
    PaddingMode paddingMode = PaddingMode::NOT_SET;
    bool generateIndex = false;
    // Reduction.
    std::optional<ReductionMode> reductionMode = std::nullopt;
    bool deterministic = false;
};

class Graph
{
public:
    Graph() = default;
    Graph(const Graph&) = delete;
    Graph& operator=(const Graph&) = delete;

    Graph& set_name(const std::string& name) { _name = name; return *this; }
    Graph& set_io_data_type(DataType t) { _ioType = t; return *this; }
    Graph& set_intermediate_data_type(DataType t) { _intermediateType = t; return *this; }
    Graph& set_compute_data_type(DataType t) { _computeType = t; return *this; }
    /// The engine to rank first when it can run the graph.
    Graph& set_preferred_engine_id_ext(int64_t engineId) { _preferredEngine = engineId; return *this; }
    Graph& set_preferred_engine_id_ext(const std::string& engineName)
    {
        _preferredEngine = hipdnn_data_sdk::utilities::engineNameToId(engineName);
        return *this;
    }
    const std::string& get_name() const { return _name; }
    const std::vector<Node>& get_nodes() const { return _nodes; }

    /// A graph input (or any tensor the caller describes fully).
    static TensorPtr tensor(const TensorAttributes& attributes)
    {
        return std::make_shared<TensorAttributes>(attributes);
    }

    TensorPtr conv_fprop(const TensorPtr& x, const TensorPtr& w, const ConvFpropAttributes& a)
    {
        return addConv(Node::Kind::ConvFprop, x, w, a);
    }
    TensorPtr conv_dgrad(const TensorPtr& dy, const TensorPtr& w, const ConvDgradAttributes& a)
    {
        return addConv(Node::Kind::ConvDgrad, dy, w, a);
    }
    TensorPtr conv_wgrad(const TensorPtr& dy, const TensorPtr& x, const ConvWgradAttributes& a)
    {
        return addConv(Node::Kind::ConvWgrad, dy, x, a);
    }

    TensorPtr pointwise(const TensorPtr& in0, const PointwiseAttributes& a) { return addPointwise({in0}, a); }
    TensorPtr pointwise(const TensorPtr& in0, const TensorPtr& in1, const PointwiseAttributes& a)
    {
        return addPointwise({in0, in1}, a);
    }
    TensorPtr pointwise(const TensorPtr& in0, const TensorPtr& in1, const TensorPtr& in2, const PointwiseAttributes& a)
    {
        return addPointwise({in0, in1, in2}, a);
    }

    /// Training forward; returns {y, mean, inv_variance, next_running_mean, next_running_var}
    /// (the last two are null without previous running statistics).
    std::array<TensorPtr, 5> batchnorm(const TensorPtr& x, const TensorPtr& scale, const TensorPtr& bias,
                                       const BatchnormAttributes& a)
    {
        Node n{Node::Kind::BatchnormTraining, a.get_name(), a.get_compute_data_type(), {}, {}, {}, {}, {}, {}, {}, {}};
        const bool running = a.get_prev_running_mean() != nullptr;
        n.inputs = {x, scale, bias, a.get_epsilon(), a.get_prev_running_mean(), a.get_prev_running_variance(),
                    a.get_momentum()};
        std::array<TensorPtr, 5> out = {newOutput(), newOutput(), newOutput(), running ? newOutput() : nullptr,
                                        running ? newOutput() : nullptr};
        n.outputs.assign(out.begin(), out.end());
        _nodes.push_back(std::move(n));
        return out;
    }

    TensorPtr batchnorm_inference(const TensorPtr& x, const TensorPtr& mean, const TensorPtr& invVariance,
                                  const TensorPtr& scale, const TensorPtr& bias,
                                  const BatchnormInferenceAttributes& a)
    {
        Node n{Node::Kind::BatchnormInference, a.get_name(), a.get_compute_data_type(), {}, {}, {}, {}, {}, {}, {}, {}};
        n.inputs = {x, mean, invVariance, scale, bias};
        auto y = newOutput();
        n.outputs = {y};
        _nodes.push_back(std::move(n));
        return y;
    }

    /// Inference from the running mean and variance and an epsilon (a.set_epsilon, required):
    /// serialized as BatchnormInferenceAttributesVarianceExt.
    TensorPtr batchnorm_inference_variance_ext(const TensorPtr& x, const TensorPtr& mean, const TensorPtr& variance,
                                               const TensorPtr& scale, const TensorPtr& bias,
                                               const BatchnormInferenceAttributes& a)
    {
        Node n{Node::Kind::BatchnormInference, a.get_name(), a.get_compute_data_type(), {}, {}, {}, {}, {}, {}, {}, {}};
        n.inputs = {x, mean, variance, scale, bias, a.get_epsilon()};
        auto y = newOutput();
        n.outputs = {y};
        _nodes.push_back(std::move(n));
        return y;
    }

    /// Returns {dx, dscale, dbias}.
    std::array<TensorPtr, 3> batchnorm_backward(const TensorPtr& dy, const TensorPtr& x, const TensorPtr& scale,
                                                const BatchnormBackwardAttributes& a)
    {
        Node n{Node::Kind::BatchnormBackward, a.get_name(), a.get_compute_data_type(), {}, {}, {}, {}, {}, {}, {}, {}};
        n.inputs = {dy, x, scale, a.get_mean(), a.get_inv_variance()};
        std::array<TensorPtr, 3> out = {newOutput(), newOutput(), newOutput()};
        n.outputs.assign(out.begin(), out.end());
        _nodes.push_back(std::move(n));
        return out;
    }

    /// Resample forward (pooling); returns {y, index}. The index tensor (INT32, y's dims) exists
    /// only with a.set_generate_index(true).
    std::array<TensorPtr, 2> resample(const TensorPtr& x, const ResampleFwdAttributes& a)
    {
        Node n{Node::Kind::ResampleFwd, a.get_name(), a.get_compute_data_type(), {x}, {}, a.get_pre_padding(),
               a.get_post_padding(), a.get_stride(), {}, {}, {}};
        setResample(n, a);
        n.generateIndex = a.get_generate_index();
        std::array<TensorPtr, 2> out = {newOutput(), a.get_generate_index() ? newOutput() : nullptr};
        if(out[1] != nullptr)
        {
            out[1]->set_data_type(DataType::INT32);
        }
        n.outputs.assign(out.begin(), out.end());
        _nodes.push_back(std::move(n));
        return out;
    }

    /// Resample backward (pooling gradient): dx from dy; max pooling needs the forward's index
    /// tensor. dx's dims cannot be inferred: set them on the returned tensor.
    TensorPtr resample_bwd(const TensorPtr& dy, const ResampleBwdAttributes& a, const TensorPtr& index = nullptr)
    {
        Node n{Node::Kind::ResampleBwd, a.get_name(), a.get_compute_data_type(), {dy, index}, {},
               a.get_pre_padding(), a.get_post_padding(), a.get_stride(), {}, {}, {}};
        setResample(n, a);
        auto dx = newOutput();
        n.outputs = {dx};
        _nodes.push_back(std::move(n));
        return dx;
    }

    /// Reduction of x; set the output's dims (x's rank, 1 in every reduced dimension).
    TensorPtr reduction(const TensorPtr& x, const ReductionAttributes& a)
    {
        Node n{Node::Kind::Reduction, a.get_name(), a.get_compute_data_type(), {x}, {}, {}, {}, {}, {}, {}, {}};
        n.reductionMode = a.get_mode();
        n.deterministic = a.get_is_deterministic();
        auto y = newOutput();
        n.outputs = {y};
        _nodes.push_back(std::move(n));
        return y;
    }

    /// Checks the graph, infers missing output shapes and types, assigns missing uids.
    Error validate();
    /// Serializes the graph and creates the backend operation graph on `handle`.
    Error build_operation_graph(hipdnnHandle_t handle);
    /// Asks the backend's heuristics for ranked engine configurations.
    Error create_execution_plans(const std::vector<HeuristicMode>& modes = {HeuristicMode::FALLBACK});
    Error check_support() const;
    Error check_support(hipdnnHandle_t /*handle*/) const { return check_support(); }
    /// Builds the first configuration (in ranked order) that the backend accepts.
    Error build_plans();
    Error build_plans(hipdnnHandle_t /*handle*/) { return build_plans(); }
    Error build(hipdnnHandle_t handle, const std::vector<HeuristicMode>& modes = {HeuristicMode::FALLBACK})
    {
        HIPDNN_CHECK_ERROR(validate());
        HIPDNN_CHECK_ERROR(build_operation_graph(handle));
        HIPDNN_CHECK_ERROR(create_execution_plans(modes));
        HIPDNN_CHECK_ERROR(check_support());
        return build_plans();
    }

    Error get_workspace_size(int64_t& size) const
    {
        HIPDNN_RETURN_IF_TRUE(_plan.get() == nullptr, ErrorCode::INVALID_VALUE, "no execution plan was built");
        size = _workspaceSize;
        return {};
    }
    int64_t get_workspace_size() const { return _workspaceSize; }
    /// Name of the engine the plan was built on.
    const std::string& get_engine_name_ext() const { return _engineName; }

    Error execute(hipdnnHandle_t handle, const std::unordered_map<int64_t, void*>& variantPack, void* workspace) const;
    Error execute(hipdnnHandle_t handle, const std::unordered_map<TensorPtr, void*>& variantPack, void* workspace) const
    {
        std::unordered_map<int64_t, void*> byUid;
        for(const auto& [tensor, ptr] : variantPack)
        {
            HIPDNN_RETURN_IF_TRUE(tensor == nullptr, ErrorCode::INVALID_VARIANT_PACK, "null tensor in variant pack");
            byUid[tensor->get_uid()] = ptr;
        }
        return execute(handle, byUid, workspace);
    }

    /// The serialized FlatBuffer Graph (valid after validate()).
    Error serialize(std::vector<uint8_t>& out) const;

private:
    TensorPtr newOutput()
    {
        auto t = std::make_shared<TensorAttributes>();
        t->set_is_virtual(true);
        return t;
    }

    template <typename A>
    TensorPtr addConv(Node::Kind kind, const TensorPtr& a, const TensorPtr& b, const A& attrs)
    {
        Node n{kind, attrs.get_name(), attrs.get_compute_data_type(), {a, b}, {}, attrs.get_pre_padding(),
               attrs.get_post_padding(), attrs.get_stride(), attrs.get_dilation(), attrs.get_convolution_mode(), {}};
        auto out = newOutput();
        n.outputs = {out};
        _nodes.push_back(std::move(n));
        return out;
    }

    template <typename A>
    static void setResample(Node& n, const A& a)
    {
        n.window = a.get_window();
        n.resampleMode = a.get_resample_mode();
        n.paddingMode = a.get_padding_mode();
    }

    TensorPtr addPointwise(std::vector<TensorPtr> inputs, const PointwiseAttributes& a)
    {
        Node n{Node::Kind::Pointwise, a.get_name(), a.get_compute_data_type(), std::move(inputs), {}, {}, {}, {}, {},
               ConvolutionMode::CROSS_CORRELATION, a};
        auto out = newOutput();
        n.outputs = {out};
        _nodes.push_back(std::move(n));
        return out;
    }

    Error inferNode(Node& n);
    std::vector<TensorPtr> orderedTensors() const;

    std::string _name;
    DataType _ioType = DataType::NOT_SET;
    DataType _intermediateType = DataType::NOT_SET;
    DataType _computeType = DataType::NOT_SET;
    std::optional<int64_t> _preferredEngine;
    std::vector<Node> _nodes;
    bool _validated = false;

    hipdnnHandle_t _handle = nullptr;
    detail::ScopedDescriptor _graphDesc;
    detail::ScopedDescriptor _heuristics;
    std::vector<detail::ScopedDescriptor> _configs;
    detail::ScopedDescriptor _plan;
    int64_t _workspaceSize = 0;
    std::string _engineName;
    // The tensors execute() takes memory for (non-virtual, not by value), in variant-pack order;
    // set when a plan is built.
    std::vector<int64_t> _ioUids;
    std::vector<TensorPtr> _ioTensors;
};

} // namespace graph
} // namespace hipdnn_frontend

#include <hipdnn_frontend/GraphImpl.inl>
