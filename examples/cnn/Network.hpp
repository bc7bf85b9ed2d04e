// A small ResNet-18-style network over the public MIOpen C API:
//   stem   conv 7x7/2 - batchnorm - ReLU - max-pool 3x3/2
//   blocks conv 3x3 - BN - ReLU - conv 3x3 - BN, + identity or (strided blocks) 1x1 projection
//          conv + BN, then ReLU; blocks 1 and 3 are strided and double the channels
//   head   global average pool - 1x1 conv classifier with bias - log-softmax
// Inference (batchnorm with running statistics) and training (batch statistics, softmax
// cross-entropy loss, backward through every layer, plain SGD). Weights are deterministic random
// values from a fixed seed. All tensors are fp32 NCHW in hipMalloc'd memory.
#pragma once

#include "Common.hpp"

#include <memory>
#include <random>
#include <string>
#include <vector>

namespace cnn {

struct Config
{
    int batch      = 8;
    int imageSize  = 64;
    int width      = 16; // channels of the stem and the first block
    int blocks     = 3;  // 2..4
    int classes    = 10;
    float lr       = 0.1f;
    unsigned seed  = 2026;
};

// What the layers share: the handle, the profiler, one workspace and the ReLU descriptor.
struct Context
{
    miopenHandle_t handle = nullptr;
    Profiler* profiler    = nullptr;
    DeviceBuffer workspace;
    miopenActivationDescriptor_t relu = nullptr;
    void reserveWorkspace(std::size_t bytes);
    void* workspacePtr() const { return workspace.get(); }
    std::size_t workspaceBytes() const { return workspace.elements() * sizeof(float); }
};

// A learnable tensor and its gradient.
struct Param
{
    std::string name;
    TensorDesc desc;
    DeviceBuffer value;
    DeviceBuffer grad;
    Param(std::string n, const Shape& s) : name(std::move(n)), desc(s), value(s.elements()), grad(s.elements()) {}
};

class ConvLayer
{
public:
    ConvLayer(Context& ctx, std::string name, const Shape& in, int outChannels, int kernel, int stride, int pad,
              bool bias, std::mt19937& rng);
    ConvLayer(const ConvLayer&)            = delete;
    ConvLayer& operator=(const ConvLayer&) = delete;
    ~ConvLayer();

    const Shape& outShape() const { return _out; }
    int kernel() const { return _kernel; }
    int stride() const { return _stride; }
    int pad() const { return _pad; }
    const std::string& name() const { return _name; }

    void forward(const char* phase, const Activation& x, Activation& y);
    void backwardData(const Activation& dy, Activation& dx);
    void backwardWeights(const Activation& dy, const Activation& x);

    Param weight;
    std::unique_ptr<Param> bias; // the classifier only

private:
    Context& _ctx;
    std::string _name;
    Shape _out;
    int _kernel, _stride, _pad;
    miopenConvolutionDescriptor_t _conv = nullptr;
    // Algorithms chosen by Find at the first call of each direction (as frameworks do).
    bool _foundFwd = false, _foundBwdData = false, _foundBwdWeights = false;
    miopenConvFwdAlgorithm_t _fwdAlgo                = miopenConvolutionFwdAlgoGEMM;
    miopenConvBwdDataAlgorithm_t _bwdDataAlgo        = miopenConvolutionBwdDataAlgoGEMM;
    miopenConvBwdWeightsAlgorithm_t _bwdWeightsAlgo  = miopenConvolutionBwdWeightsAlgoGEMM;
};

class BatchNormLayer
{
public:
    BatchNormLayer(Context& ctx, std::string name, const Shape& s, std::mt19937& rng);
    void forwardTraining(const Activation& x, Activation& y, bool updateRunningStats);
    void forwardInference(const Activation& x, Activation& y);
    void backward(const Activation& x, const Activation& dy, Activation& dx);
    const std::string& name() const { return _name; }

    static constexpr double kEpsilon   = 1e-5;
    static constexpr double kMomentum  = 0.1;
    TensorDesc paramDesc;
    Param scale, bias;
    DeviceBuffer runningMean, runningVar, savedMean, savedInvVar;

private:
    Context& _ctx;
    std::string _name;
};

class PoolLayer
{
public:
    PoolLayer(Context& ctx, std::string name, const Shape& in, miopenPoolingMode_t mode, int window, int stride,
              int pad);
    PoolLayer(const PoolLayer&)            = delete;
    PoolLayer& operator=(const PoolLayer&) = delete;
    ~PoolLayer();
    const Shape& outShape() const { return _out; }
    void forward(const char* phase, const Activation& x, Activation& y, bool keepIndices);
    void backward(const Activation& y, const Activation& dy, const Activation& x, Activation& dx);
    int window() const { return _window; }
    int stride() const { return _stride; }
    int pad() const { return _pad; }
    miopenPoolingMode_t mode() const { return _mode; }

private:
    Context& _ctx;
    std::string _name;
    Shape _out;
    miopenPoolingMode_t _mode;
    int _window, _stride, _pad;
    miopenPoolingDescriptor_t _pool = nullptr;
    DeviceBuffer _indices; // max pooling: the argmax indices (uint32, packed in float-sized words)
    std::size_t _indexBytes = 0;
};

class BasicBlock
{
public:
    BasicBlock(Context& ctx, const std::string& name, const Shape& in, int outChannels, int stride,
               std::mt19937& rng);
    const Shape& outShape() const { return out.shape(); }
    void forward(const char* phase, const Activation& x, bool training, bool updateRunningStats);
    // dOut: gradient of out; writes dx (gradient of the block's input).
    void backward(const Activation& x, const Activation& dOut);

    std::string name;
    ConvLayer conv1;
    BatchNormLayer bn1;
    ConvLayer conv2;
    BatchNormLayer bn2;
    std::unique_ptr<ConvLayer> proj; // strided / widening blocks
    std::unique_ptr<BatchNormLayer> projBn;
    Activation c1, b1, r1, c2, b2, sum, out;
    std::unique_ptr<Activation> pc, pb;
    Activation dSum, dC2, dR1, dB1, dC1, dXMain, dX;
    std::unique_ptr<Activation> dPc, dXShortcut;

private:
    Context& _ctx;
};

class Network
{
public:
    Network(miopenHandle_t handle, Profiler& profiler, const Config& cfg);
    ~Network();
    Network(const Network&)            = delete;
    Network& operator=(const Network&) = delete;

    void setBatch(const std::vector<float>& images, const std::vector<int>& labels);
    // Inference forward (running statistics); returns the logits (N x classes).
    std::vector<float> inference();
    // Training forward (batch statistics); returns the mean cross-entropy loss. The logits of
    // this pass are kept (lastLogits).
    float forwardTraining(bool updateRunningStats);
    // Backward of the last training forward: fills every Param's grad.
    void backward();
    // w -= lr * dw for every parameter (miopenOpTensor).
    void sgdStep(float lr);

    std::vector<Param*> params();
    const std::vector<float>& lastLogits() const { return _lastLogits; }
    const Config& config() const { return _cfg; }

    // For the plain-loop reference (ReferenceNetwork.cpp).
    ConvLayer& stemConv() { return _stemConv; }
    BatchNormLayer& stemBn() { return _stemBn; }
    PoolLayer& stemPool() { return _stemPool; }
    std::vector<std::unique_ptr<BasicBlock>>& blocks() { return _blocks; }
    ConvLayer& classifier() { return *_fc; }

private:
    void forward(const char* phase, bool training, bool updateRunningStats);
    float lossFromLogProbs();

    Config _cfg;
    Context _ctx;
    std::mt19937 _rng;
    Activation _input;
    ConvLayer _stemConv;
    BatchNormLayer _stemBn;
    Activation _c0, _b0, _r0;
    PoolLayer _stemPool;
    Activation _p0;
    std::vector<std::unique_ptr<BasicBlock>> _blocks;
    std::unique_ptr<PoolLayer> _gap;
    std::unique_ptr<Activation> _g;
    std::unique_ptr<ConvLayer> _fc;
    std::unique_ptr<Activation> _logits, _logProbs, _dLogProbs, _dLogits, _dG, _dLast;
    std::unique_ptr<Activation> _dR0, _dB0, _dC0;
    std::vector<int> _labels;
    std::vector<float> _lastLogits;
};

} // namespace cnn
