// The valid-value factories of the generated bad-input corpus (gen_bad_input_cases.py): one World
// per case holds a live handle, set descriptors of every kind with shapes that agree per family
// (convolution x/w/y/bias, batch-norm x/bn, pooling x/pooled), canary-guarded buffers, and
// descriptors of each kind created but never set. Every buffer a case receives is guarded (the
// guards must survive the call) and every input is compared with its copy taken before the call.
#pragma once

#include "common/api_helpers.hpp"

#include <miopen/miopen.h>

#include <cstddef>
#include <cstring>
#include <deque>
#include <functional>
#include <initializer_list>
#include <map>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

namespace bad_input {

using test::GuardedBuffer;

// Bytes of every data buffer: more than the largest tensor of the world (x: 2*3*8*8 floats).
constexpr std::size_t kBufferBytes    = 16384;
constexpr std::size_t kWorkspaceBytes = 1 << 16;
// Bytes of an output slot (a scalar or an array the call fills).
constexpr std::size_t kSlotBytes = 4096;

// What a case accepts: one of a set of statuses.
struct Expect
{
    std::vector<miopenStatus_t> statuses;
    static Expect oneOf(std::initializer_list<miopenStatus_t> s) { return Expect{std::vector<miopenStatus_t>(s)}; }
    bool accepts(miopenStatus_t s) const
    {
        for(auto e : statuses)
            if(e == s)
                return true;
        return false;
    }
};

class World
{
public:
    World()
    {
        setTensor(_x, {2, 3, 8, 8});
        setTensor(_w, {4, 3, 3, 3});
        setTensor(_y, {2, 4, 6, 6});
        setTensor(_bias, {1, 4, 1, 1});
        setTensor(_bn, {1, 3, 1, 1});
        setTensor(_pooled, {2, 3, 4, 4});
        EXPECT_MIOPEN_OK(miopenInitConvolutionDescriptor(_conv, miopenConvolution, 0, 0, 1, 1, 1, 1));
        EXPECT_MIOPEN_OK(miopenCreatePoolingDescriptor(&_pooling));
        EXPECT_MIOPEN_OK(miopenSet2dPoolingDescriptor(_pooling, miopenPoolingMax, 2, 2, 0, 0, 2, 2));
        EXPECT_MIOPEN_OK(miopenCreateLRNDescriptor(&_lrn));
        EXPECT_MIOPEN_OK(miopenSetLRNDescriptor(_lrn, miopenLRNCrossChannel, 5, 1e-4, 0.75, 1.0));
        EXPECT_MIOPEN_OK(miopenCreateActivationDescriptor(&_activation));
        EXPECT_MIOPEN_OK(miopenSetActivationDescriptor(_activation, miopenActivationRELU, 0.0, 0.0, 0.0));
        EXPECT_MIOPEN_OK(miopenCreateSeqTensorDescriptor(&_seq));
        EXPECT_MIOPEN_OK(miopenCreateFusionPlan(&_plan, miopenVerticalFusion, _x));
        // conv -> bias -> ReLU (a plan that compiles); the other operators each in a plan of its own.
        EXPECT_MIOPEN_OK(miopenCreateOpConvForward(_plan, &_convOp, _conv, _w));
        EXPECT_MIOPEN_OK(miopenCreateOpBiasForward(_plan, &_biasOp, _bias));
        EXPECT_MIOPEN_OK(miopenCreateOpActivationForward(_plan, &_activFwdOp, miopenActivationRELU));
        for(auto* p : {&_activBwdPlan, &_bnInferencePlan, &_bnForwardPlan, &_bnBackwardPlan})
            EXPECT_MIOPEN_OK(miopenCreateFusionPlan(p, miopenVerticalFusion, _x));
        EXPECT_MIOPEN_OK(miopenCreateOpActivationBackward(_activBwdPlan, &_activBwdOp, miopenActivationRELU));
        EXPECT_MIOPEN_OK(miopenCreateOpBatchNormInference(_bnInferencePlan, &_bnInferenceOp, miopenBNSpatial, _bn));
        EXPECT_MIOPEN_OK(miopenCreateOpBatchNormForward(_bnForwardPlan, &_bnForwardOp, miopenBNSpatial, true));
        EXPECT_MIOPEN_OK(miopenCreateOpBatchNormBackward(_bnBackwardPlan, &_bnBackwardOp, miopenBNSpatial));
        EXPECT_MIOPEN_OK(miopenCreateOperatorArgs(&_args));
        EXPECT_MIOPEN_OK(miopenCreatePoolingDescriptor(&_unsetPooling));
        EXPECT_MIOPEN_OK(miopenCreateLRNDescriptor(&_unsetLrn));
        EXPECT_MIOPEN_OK(miopenCreateActivationDescriptor(&_unsetActivation));
    }
    ~World()
    {
        miopenDestroyOperatorArgs(_args);
        for(auto p : {_plan, _activBwdPlan, _bnInferencePlan, _bnForwardPlan, _bnBackwardPlan})
            miopenDestroyFusionPlan(p);
        miopenDestroySeqTensorDescriptor(_seq);
        miopenDestroyActivationDescriptor(_unsetActivation);
        miopenDestroyActivationDescriptor(_activation);
        miopenDestroyLRNDescriptor(_unsetLrn);
        miopenDestroyLRNDescriptor(_lrn);
        miopenDestroyPoolingDescriptor(_unsetPooling);
        miopenDestroyPoolingDescriptor(_pooling);
    }
    World(const World&) = delete;
    World& operator=(const World&) = delete;

    // ---- valid values --------------------------------------------------------------------------
    miopenHandle_t handle() const { return _handle; }
    miopenTensorDescriptor_t tensor(const std::string& role) const
    {
        if(role == "w")
            return _w;
        if(role == "y")
            return _y;
        if(role == "bias")
            return _bias;
        if(role == "bn")
            return _bn;
        if(role == "pooled")
            return _pooled;
        return _x;
    }
    miopenConvolutionDescriptor_t conv() const { return _conv; }
    miopenPoolingDescriptor_t pooling() const { return _pooling; }
    miopenLRNDescriptor_t lrn() const { return _lrn; }
    miopenActivationDescriptor_t activation() const { return _activation; }
    miopenSeqTensorDescriptor_t seqTensor() const { return _seq; }
    miopenFusionPlanDescriptor_t fusionPlan() const { return _plan; }
    // An operator of the role's kind: conv, bias, activFwd (the conv plan), activBwd, bnInference,
    // bnForward, bnBackward (plans of their own).
    miopenFusionOpDescriptor_t fusionOp(const std::string& role = "conv") const
    {
        if(role == "bias")
            return _biasOp;
        if(role == "activFwd")
            return _activFwdOp;
        if(role == "activBwd")
            return _activBwdOp;
        if(role == "bnInference")
            return _bnInferenceOp;
        if(role == "bnForward")
            return _bnForwardOp;
        if(role == "bnBackward")
            return _bnBackwardOp;
        return _convOp;
    }
    miopenOperatorArgs_t operatorArgs() const { return _args; }

    // A host scalar (alpha 1, beta 0), guarded and compared after the call like any input.
    void* scalar(const std::string& name)
    {
        const float v = name.rfind("beta", 0) == 0 ? 0.0f : 1.0f;
        GuardedBuffer& b = add(sizeof(double));
        std::memset(b.data(), 0, sizeof(double));
        std::memcpy(b.data(), &v, sizeof v);
        remember(b);
        return b.data();
    }
    // A data input: positive floats (valid variances, scales, ...), unchanged by the call.
    void* input(const std::string&)
    {
        GuardedBuffer& b = add(kBufferBytes);
        auto* f          = b.as<float>();
        for(std::size_t i = 0; i < kBufferBytes / sizeof(float); ++i)
            f[i] = 0.25f + 0.125f * static_cast<float>(i % 7);
        remember(b);
        return b.data();
    }
    // A data output: written only inside its bounds.
    void* output(const std::string&) { return add(kBufferBytes).data(); }
    void* workspace() { return add(kWorkspaceBytes).data(); }
    std::size_t workspaceSize() const { return kWorkspaceBytes; }
    // An input array (lengths, strides, pads, ...).
    template <class T>
    const T* inputArray(const std::string&, std::initializer_list<T> values)
    {
        GuardedBuffer& b = add(values.size() * sizeof(T));
        std::memcpy(b.data(), values.begin(), values.size() * sizeof(T));
        remember(b);
        return b.as<T>();
    }
    // An output slot (a scalar or an array the call fills). A descriptor or handle created into a
    // slot by a call that succeeded is destroyed with the world.
    template <class T>
    T* slot(const std::string&)
    {
        GuardedBuffer& b = add(kSlotBytes);
        T* p             = b.as<T>();
        if constexpr(std::is_same_v<T, miopenHandle_t> || std::is_same_v<T, miopenTensorDescriptor_t> ||
                     std::is_same_v<T, miopenConvolutionDescriptor_t> ||
                     std::is_same_v<T, miopenPoolingDescriptor_t> || std::is_same_v<T, miopenLRNDescriptor_t> ||
                     std::is_same_v<T, miopenActivationDescriptor_t> ||
                     std::is_same_v<T, miopenSeqTensorDescriptor_t> ||
                     std::is_same_v<T, miopenFusionPlanDescriptor_t> || std::is_same_v<T, miopenOperatorArgs_t>)
        {
            _created.push_back([p] { destroy(*p); });
        }
        return p;
    }

    // An object of its own for a destroyer's baseline (the call frees it).
    template <class T>
    T fresh() const
    {
        T d{};
        if constexpr(std::is_same_v<T, miopenHandle_t>)
            EXPECT_MIOPEN_OK(miopenCreate(&d));
        else if constexpr(std::is_same_v<T, miopenTensorDescriptor_t>)
            EXPECT_MIOPEN_OK(miopenCreateTensorDescriptor(&d));
        else if constexpr(std::is_same_v<T, miopenSeqTensorDescriptor_t>)
            EXPECT_MIOPEN_OK(miopenCreateSeqTensorDescriptor(&d));
        else if constexpr(std::is_same_v<T, miopenConvolutionDescriptor_t>)
            EXPECT_MIOPEN_OK(miopenCreateConvolutionDescriptor(&d));
        else if constexpr(std::is_same_v<T, miopenPoolingDescriptor_t>)
            EXPECT_MIOPEN_OK(miopenCreatePoolingDescriptor(&d));
        else if constexpr(std::is_same_v<T, miopenLRNDescriptor_t>)
            EXPECT_MIOPEN_OK(miopenCreateLRNDescriptor(&d));
        else if constexpr(std::is_same_v<T, miopenActivationDescriptor_t>)
            EXPECT_MIOPEN_OK(miopenCreateActivationDescriptor(&d));
        else if constexpr(std::is_same_v<T, miopenFusionPlanDescriptor_t>)
            EXPECT_MIOPEN_OK(miopenCreateFusionPlan(&d, miopenVerticalFusion, _x));
        else
        {
            static_assert(std::is_same_v<T, miopenOperatorArgs_t>, "no fresh factory for this kind");
            EXPECT_MIOPEN_OK(miopenCreateOperatorArgs(&d));
        }
        return d;
    }

    // An output array of exactly n elements: its guards catch a call writing one more.
    template <class T>
    T* exact(std::size_t n)
    {
        return add(n * sizeof(T)).as<T>();
    }

    // ---- invalid values ------------------------------------------------------------------------
    // Created, never set.
    template <class T>
    T unset() const
    {
        if constexpr(std::is_same_v<T, miopenTensorDescriptor_t>)
            return _unsetTensor;
        else if constexpr(std::is_same_v<T, miopenConvolutionDescriptor_t>)
            return _unsetConv;
        else if constexpr(std::is_same_v<T, miopenPoolingDescriptor_t>)
            return _unsetPooling;
        else if constexpr(std::is_same_v<T, miopenLRNDescriptor_t>)
            return _unsetLrn;
        else
        {
            static_assert(std::is_same_v<T, miopenActivationDescriptor_t>, "no never-set factory for this kind");
            return _unsetActivation;
        }
    }
    // A live object of another kind, cast through void* (a convolution descriptor where a tensor
    // descriptor is expected; a tensor descriptor anywhere else).
    template <class T>
    T otherKind() const
    {
        void* p = std::is_same_v<T, miopenTensorDescriptor_t>
                      ? static_cast<void*>(static_cast<miopenConvolutionDescriptor_t>(_conv))
                      : static_cast<void*>(static_cast<miopenTensorDescriptor_t>(_x));
        return static_cast<T>(p);
    }

    // ---- checks --------------------------------------------------------------------------------
    // Called once the call returned: objects it created (only when it claims success) are freed.
    void afterCall(miopenStatus_t status)
    {
        if(status == miopenStatusSuccess)
            for(auto& f : _created)
                f();
        _created.clear();
    }
    // Empty when every guard is intact and every input equals its copy; otherwise what differs.
    std::string damage() const
    {
        std::string out;
        for(std::size_t i = 0; i < _buffers.size(); ++i)
        {
            if(!_buffers[i].guardsIntact())
                out += " buffer " + std::to_string(i) + ": guard overwritten;";
            auto it = _copies.find(i);
            if(it != _copies.end() && _buffers[i].snapshot() != it->second)
                out += " buffer " + std::to_string(i) + ": input modified;";
        }
        return out;
    }

private:
    static void setTensor(const test::Tensor& t, std::vector<int> lens)
    {
        EXPECT_MIOPEN_OK(miopenSetTensorDescriptor(t, miopenFloat, static_cast<int>(lens.size()), lens.data(), nullptr));
    }
    GuardedBuffer& add(std::size_t bytes)
    {
        _buffers.emplace_back(bytes);
        return _buffers.back();
    }
    void remember(const GuardedBuffer& b) { _copies[index(b)] = b.snapshot(); }
    std::size_t index(const GuardedBuffer& b) const
    {
        for(std::size_t i = 0; i < _buffers.size(); ++i)
            if(&_buffers[i] == &b)
                return i;
        return 0;
    }
    static void destroy(miopenHandle_t h) { miopenDestroy(h); }
    static void destroy(miopenTensorDescriptor_t d) { miopenDestroyTensorDescriptor(d); }
    static void destroy(miopenConvolutionDescriptor_t d) { miopenDestroyConvolutionDescriptor(d); }
    static void destroy(miopenPoolingDescriptor_t d) { miopenDestroyPoolingDescriptor(d); }
    static void destroy(miopenLRNDescriptor_t d) { miopenDestroyLRNDescriptor(d); }
    static void destroy(miopenActivationDescriptor_t d) { miopenDestroyActivationDescriptor(d); }
    static void destroy(miopenSeqTensorDescriptor_t d) { miopenDestroySeqTensorDescriptor(d); }
    static void destroy(miopenFusionPlanDescriptor_t d) { miopenDestroyFusionPlan(d); }
    static void destroy(miopenOperatorArgs_t d) { miopenDestroyOperatorArgs(d); }

    test::Handle _handle;
    test::Tensor _x, _w, _y, _bias, _bn, _pooled, _unsetTensor;
    test::Conv _conv, _unsetConv;
    miopenPoolingDescriptor_t _pooling = nullptr, _unsetPooling = nullptr;
    miopenLRNDescriptor_t _lrn = nullptr, _unsetLrn = nullptr;
    miopenActivationDescriptor_t _activation = nullptr, _unsetActivation = nullptr;
    miopenSeqTensorDescriptor_t _seq = nullptr;
    miopenFusionPlanDescriptor_t _plan = nullptr;
    miopenFusionPlanDescriptor_t _activBwdPlan = nullptr, _bnInferencePlan = nullptr, _bnForwardPlan = nullptr,
                                 _bnBackwardPlan = nullptr;
    miopenFusionOpDescriptor_t _convOp = nullptr, _biasOp = nullptr, _activFwdOp = nullptr, _activBwdOp = nullptr,
                               _bnInferenceOp = nullptr, _bnForwardOp = nullptr, _bnBackwardOp = nullptr;
    miopenOperatorArgs_t _args = nullptr;
    std::deque<GuardedBuffer> _buffers;                       // stable addresses
    std::map<std::size_t, std::vector<unsigned char>> _copies; // input index -> bytes before the call
    std::vector<std::function<void()>> _created;
};

} // namespace bad_input
