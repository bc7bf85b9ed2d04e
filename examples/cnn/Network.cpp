#include "Network.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace cnn {

namespace {

const float kOne  = 1.0f;
const float kZero = 0.0f;

void fillUniform(DeviceBuffer& buf, std::mt19937& rng, float lo, float hi)
{
    std::uniform_real_distribution<float> dist(lo, hi);
    std::vector<float> host(buf.elements());
    for(auto& v : host)
        v = dist(rng);
    buf.upload(host);
}

Shape convOut(const Shape& in, int k, int kernel, int stride, int pad)
{
    return Shape{in.n, k, (in.h + 2 * pad - kernel) / stride + 1, (in.w + 2 * pad - kernel) / stride + 1};
}

} // namespace

void Context::reserveWorkspace(std::size_t bytes)
{
    if(bytes > workspaceBytes())
        workspace.allocate((bytes + sizeof(float) - 1) / sizeof(float));
}

// ---------------------------------------------------------------------------------------------
ConvLayer::ConvLayer(Context& ctx, std::string name, const Shape& in, int outChannels, int kernel, int stride,
                     int pad, bool withBias, std::mt19937& rng)
    : weight(name + ".w", Shape{outChannels, in.c, kernel, kernel}),
      _ctx(ctx),
      _name(std::move(name)),
      _out(convOut(in, outChannels, kernel, stride, pad)),
      _kernel(kernel),
      _stride(stride),
      _pad(pad)
{
    CNN_MIOPEN(miopenCreateConvolutionDescriptor(&_conv));
    CNN_MIOPEN(miopenInitConvolutionDescriptor(_conv, miopenConvolution, pad, pad, stride, stride, 1, 1));
    // He-uniform initialisation: variance 2 / fan-in.
    const float a = std::sqrt(6.0f / static_cast<float>(in.c * kernel * kernel));
    fillUniform(weight.value, rng, -a, a);
    if(withBias)
    {
        bias = std::make_unique<Param>(_name + ".b", Shape{1, outChannels, 1, 1});
        fillUniform(bias->value, rng, -0.1f, 0.1f);
    }
}

ConvLayer::~ConvLayer() { (void)miopenDestroyConvolutionDescriptor(_conv); }

void ConvLayer::forward(const char* phase, const Activation& x, Activation& y)
{
    if(!_foundFwd)
    {
        std::size_t ws = 0;
        CNN_MIOPEN(miopenConvolutionForwardGetWorkSpaceSize(_ctx.handle, weight.desc.get(), x.desc.get(), _conv,
                                                            y.desc.get(), &ws));
        _ctx.reserveWorkspace(ws);
        miopenConvAlgoPerf_t perf[4];
        int found = 0;
        CNN_MIOPEN(miopenFindConvolutionForwardAlgorithm(_ctx.handle, x.desc.get(), x.data.get(), weight.desc.get(),
                                                         weight.value.get(), _conv, y.desc.get(), y.data.get(), 4,
                                                         &found, perf, _ctx.workspacePtr(), _ctx.workspaceBytes(),
                                                         false));
        if(found < 1)
            throw std::runtime_error(_name + ": Find (forward) returned no algorithm");
        _fwdAlgo  = perf[0].fwd_algo;
        _foundFwd = true;
    }
    _ctx.profiler->time(phase, _name, "fwd", [&] {
        CNN_MIOPEN(miopenConvolutionForward(_ctx.handle, &kOne, x.desc.get(), x.data.get(), weight.desc.get(),
                                            weight.value.get(), _conv, _fwdAlgo, &kZero, y.desc.get(), y.data.get(),
                                            _ctx.workspacePtr(), _ctx.workspaceBytes()));
    });
    if(bias)
        _ctx.profiler->time(phase, _name, "fwd-bias", [&] {
            CNN_MIOPEN(miopenConvolutionForwardBias(_ctx.handle, &kOne, bias->desc.get(), bias->value.get(), &kOne,
                                                    y.desc.get(), y.data.get()));
        });
}

void ConvLayer::backwardData(const Activation& dy, Activation& dx)
{
    if(!_foundBwdData)
    {
        std::size_t ws = 0;
        CNN_MIOPEN(miopenConvolutionBackwardDataGetWorkSpaceSize(_ctx.handle, dy.desc.get(), weight.desc.get(), _conv,
                                                                 dx.desc.get(), &ws));
        _ctx.reserveWorkspace(ws);
        miopenConvAlgoPerf_t perf[4];
        int found = 0;
        CNN_MIOPEN(miopenFindConvolutionBackwardDataAlgorithm(
            _ctx.handle, dy.desc.get(), dy.data.get(), weight.desc.get(), weight.value.get(), _conv, dx.desc.get(),
            dx.data.get(), 4, &found, perf, _ctx.workspacePtr(), _ctx.workspaceBytes(), false));
        if(found < 1)
            throw std::runtime_error(_name + ": Find (backward data) returned no algorithm");
        _bwdDataAlgo  = perf[0].bwd_data_algo;
        _foundBwdData = true;
    }
    _ctx.profiler->time("backward", _name, "bwd-data", [&] {
        CNN_MIOPEN(miopenConvolutionBackwardData(_ctx.handle, &kOne, dy.desc.get(), dy.data.get(), weight.desc.get(),
                                                 weight.value.get(), _conv, _bwdDataAlgo, &kZero, dx.desc.get(),
                                                 dx.data.get(), _ctx.workspacePtr(), _ctx.workspaceBytes()));
    });
}

void ConvLayer::backwardWeights(const Activation& dy, const Activation& x)
{
    if(!_foundBwdWeights)
    {
        std::size_t ws = 0;
        CNN_MIOPEN(miopenConvolutionBackwardWeightsGetWorkSpaceSize(_ctx.handle, dy.desc.get(), x.desc.get(), _conv,
                                                                    weight.desc.get(), &ws));
        _ctx.reserveWorkspace(ws);
        miopenConvAlgoPerf_t perf[4];
        int found = 0;
        CNN_MIOPEN(miopenFindConvolutionBackwardWeightsAlgorithm(
            _ctx.handle, dy.desc.get(), dy.data.get(), x.desc.get(), x.data.get(), _conv, weight.desc.get(),
            weight.grad.get(), 4, &found, perf, _ctx.workspacePtr(), _ctx.workspaceBytes(), false));
        if(found < 1)
            throw std::runtime_error(_name + ": Find (backward weights) returned no algorithm");
        _bwdWeightsAlgo  = perf[0].bwd_weights_algo;
        _foundBwdWeights = true;
    }
    _ctx.profiler->time("backward", _name, "bwd-weights", [&] {
        CNN_MIOPEN(miopenConvolutionBackwardWeights(_ctx.handle, &kOne, dy.desc.get(), dy.data.get(), x.desc.get(),
                                                    x.data.get(), _conv, _bwdWeightsAlgo, &kZero, weight.desc.get(),
                                                    weight.grad.get(), _ctx.workspacePtr(), _ctx.workspaceBytes()));
    });
    if(bias)
        _ctx.profiler->time("backward", _name, "bwd-bias", [&] {
            CNN_MIOPEN(miopenConvolutionBackwardBias(_ctx.handle, &kOne, dy.desc.get(), dy.data.get(), &kZero,
                                                     bias->desc.get(), bias->grad.get()));
        });
}

// ---------------------------------------------------------------------------------------------
BatchNormLayer::BatchNormLayer(Context& ctx, std::string name, const Shape& s, std::mt19937& rng)
    : scale(name + ".gamma", Shape{1, s.c, 1, 1}),
      bias(name + ".beta", Shape{1, s.c, 1, 1}),
      runningMean(static_cast<std::size_t>(s.c)),
      runningVar(static_cast<std::size_t>(s.c)),
      savedMean(static_cast<std::size_t>(s.c)),
      savedInvVar(static_cast<std::size_t>(s.c)),
      _ctx(ctx),
      _name(std::move(name))
{
    // The parameter descriptor as MIOpen derives it for spatial batchnorm (1 x C x 1 x 1).
    TensorDesc x(s);
    CNN_MIOPEN(miopenDeriveBNTensorDescriptor(paramDesc.get(), x.get(), miopenBNSpatial));
    // Non-trivial parameters and running statistics, as a trained network would have.
    fillUniform(scale.value, rng, 0.5f, 1.5f);
    fillUniform(bias.value, rng, -0.2f, 0.2f);
    fillUniform(runningMean, rng, -0.1f, 0.1f);
    fillUniform(runningVar, rng, 0.5f, 1.5f);
}

void BatchNormLayer::forwardTraining(const Activation& x, Activation& y, bool updateRunningStats)
{
    _ctx.profiler->time("forward", _name, "fwd", [&] {
        float alpha = 1.0f, beta = 0.0f;
        CNN_MIOPEN(miopenBatchNormalizationForwardTraining(
            _ctx.handle, miopenBNSpatial, &alpha, &beta, x.desc.get(), x.data.get(), y.desc.get(), y.data.get(),
            paramDesc.get(), scale.value.get(), bias.value.get(), kMomentum,
            updateRunningStats ? runningMean.get() : nullptr, updateRunningStats ? runningVar.get() : nullptr,
            kEpsilon, savedMean.get(), savedInvVar.get()));
    });
}

void BatchNormLayer::forwardInference(const Activation& x, Activation& y)
{
    _ctx.profiler->time("inference", _name, "fwd", [&] {
        float alpha = 1.0f, beta = 0.0f;
        CNN_MIOPEN(miopenBatchNormalizationForwardInference(
            _ctx.handle, miopenBNSpatial, &alpha, &beta, x.desc.get(), x.data.get(), y.desc.get(), y.data.get(),
            paramDesc.get(), scale.value.get(), bias.value.get(), runningMean.get(), runningVar.get(), kEpsilon));
    });
}

void BatchNormLayer::backward(const Activation& x, const Activation& dy, Activation& dx)
{
    _ctx.profiler->time("backward", _name, "bwd", [&] {
        CNN_MIOPEN(miopenBatchNormalizationBackward(_ctx.handle, miopenBNSpatial, &kOne, &kZero, &kOne, &kZero,
                                                    x.desc.get(), x.data.get(), dy.desc.get(), dy.data.get(),
                                                    dx.desc.get(), dx.data.get(), paramDesc.get(), scale.value.get(),
                                                    scale.grad.get(), bias.grad.get(), kEpsilon, savedMean.get(),
                                                    savedInvVar.get()));
    });
}

// ---------------------------------------------------------------------------------------------
PoolLayer::PoolLayer(Context& ctx, std::string name, const Shape& in, miopenPoolingMode_t mode, int window,
                     int stride, int pad)
    : _ctx(ctx), _name(std::move(name)), _mode(mode), _window(window), _stride(stride), _pad(pad)
{
    CNN_MIOPEN(miopenCreatePoolingDescriptor(&_pool));
    CNN_MIOPEN(miopenSet2dPoolingDescriptor(_pool, mode, window, window, pad, pad, stride, stride));
    CNN_MIOPEN(miopenSetPoolingIndexType(_pool, miopenIndexUint32));
    TensorDesc x(in);
    int n = 0, c = 0, h = 0, w = 0;
    CNN_MIOPEN(miopenGetPoolingForwardOutputDim(_pool, x.get(), &n, &c, &h, &w));
    _out = Shape{n, c, h, w};
    TensorDesc y(_out);
    CNN_MIOPEN(miopenPoolingGetWorkSpaceSizeV2(_pool, y.get(), &_indexBytes));
    if(_indexBytes > 0)
        _indices.allocate((_indexBytes + sizeof(float) - 1) / sizeof(float));
}

PoolLayer::~PoolLayer() { (void)miopenDestroyPoolingDescriptor(_pool); }

void PoolLayer::forward(const char* phase, const Activation& x, Activation& y, bool keepIndices)
{
    _ctx.profiler->time(phase, _name, "fwd", [&] {
        CNN_MIOPEN(miopenPoolingForward(_ctx.handle, _pool, &kOne, x.desc.get(), x.data.get(), &kZero, y.desc.get(),
                                        y.data.get(), keepIndices && _indexBytes > 0, _indices.get(), _indexBytes));
    });
}

void PoolLayer::backward(const Activation& y, const Activation& dy, const Activation& x, Activation& dx)
{
    _ctx.profiler->time("backward", _name, "bwd", [&] {
        CNN_MIOPEN(miopenPoolingBackward(_ctx.handle, _pool, &kOne, y.desc.get(), y.data.get(), dy.desc.get(),
                                         dy.data.get(), x.desc.get(), x.data.get(), &kZero, dx.desc.get(),
                                         dx.data.get(), _indices.get()));
    });
}

// ---------------------------------------------------------------------------------------------
namespace {

void reluForward(Context& ctx, const char* phase, const std::string& layer, const Activation& x, Activation& y)
{
    ctx.profiler->time(phase, layer, "fwd", [&] {
        CNN_MIOPEN(miopenActivationForward(ctx.handle, ctx.relu, &kOne, x.desc.get(), x.data.get(), &kZero,
                                           y.desc.get(), y.data.get()));
    });
}

void reluBackward(Context& ctx, const std::string& layer, const Activation& y, const Activation& dy,
                  const Activation& x, Activation& dx)
{
    ctx.profiler->time("backward", layer, "bwd", [&] {
        CNN_MIOPEN(miopenActivationBackward(ctx.handle, ctx.relu, &kOne, y.desc.get(), y.data.get(), dy.desc.get(),
                                            dy.data.get(), x.desc.get(), x.data.get(), &kZero, dx.desc.get(),
                                            dx.data.get()));
    });
}

// c = a + b (miopenOpTensor); the residual add and, backwards, the sum of the two branches'
// gradients.
void add(Context& ctx, const char* phase, const std::string& layer, const char* direction, const Activation& a,
         const Activation& b, Activation& c)
{
    ctx.profiler->time(phase, layer, direction, [&] {
        CNN_MIOPEN(miopenOpTensor(ctx.handle, miopenTensorOpAdd, &kOne, a.desc.get(), a.data.get(), &kOne,
                                  b.desc.get(), b.data.get(), &kZero, c.desc.get(), c.data.get()));
    });
}

} // namespace

BasicBlock::BasicBlock(Context& ctx, const std::string& blockName, const Shape& in, int outChannels, int stride,
                       std::mt19937& rng)
    : name(blockName),
      conv1(ctx, blockName + ".conv1", in, outChannels, 3, stride, 1, false, rng),
      bn1(ctx, blockName + ".bn1", conv1.outShape(), rng),
      conv2(ctx, blockName + ".conv2", conv1.outShape(), outChannels, 3, 1, 1, false, rng),
      bn2(ctx, blockName + ".bn2", conv2.outShape(), rng),
      c1(conv1.outShape()),
      b1(conv1.outShape()),
      r1(conv1.outShape()),
      c2(conv2.outShape()),
      b2(conv2.outShape()),
      sum(conv2.outShape()),
      out(conv2.outShape()),
      dSum(conv2.outShape()),
      dC2(conv2.outShape()),
      dR1(conv1.outShape()),
      dB1(conv1.outShape()),
      dC1(conv1.outShape()),
      dXMain(in),
      dX(in),
      _ctx(ctx)
{
    if(stride != 1 || outChannels != in.c)
    {
        proj       = std::make_unique<ConvLayer>(ctx, blockName + ".proj", in, outChannels, 1, stride, 0, false, rng);
        projBn     = std::make_unique<BatchNormLayer>(ctx, blockName + ".proj_bn", proj->outShape(), rng);
        pc         = std::make_unique<Activation>(proj->outShape());
        pb         = std::make_unique<Activation>(proj->outShape());
        dPc        = std::make_unique<Activation>(proj->outShape());
        dXShortcut = std::make_unique<Activation>(in);
    }
}

void BasicBlock::forward(const char* phase, const Activation& x, bool training, bool updateRunningStats)
{
    auto bn = [&](BatchNormLayer& layer, const Activation& in, Activation& o) {
        if(training)
            layer.forwardTraining(in, o, updateRunningStats);
        else
            layer.forwardInference(in, o);
    };
    conv1.forward(phase, x, c1);
    bn(bn1, c1, b1);
    reluForward(_ctx, phase, name + ".relu1", b1, r1);
    conv2.forward(phase, r1, c2);
    bn(bn2, c2, b2);
    const Activation* shortcut = &x;
    if(proj)
    {
        proj->forward(phase, x, *pc);
        bn(*projBn, *pc, *pb);
        shortcut = pb.get();
    }
    add(_ctx, phase, name + ".add", "fwd", b2, *shortcut, sum);
    reluForward(_ctx, phase, name + ".relu2", sum, out);
}

void BasicBlock::backward(const Activation& x, const Activation& dOut)
{
    reluBackward(_ctx, name + ".relu2", out, dOut, sum, dSum);
    // The add passes dSum unchanged to both branches.
    bn2.backward(c2, dSum, dC2);
    conv2.backwardWeights(dC2, r1);
    conv2.backwardData(dC2, dR1);
    reluBackward(_ctx, name + ".relu1", r1, dR1, b1, dB1);
    bn1.backward(c1, dB1, dC1);
    conv1.backwardWeights(dC1, x);
    conv1.backwardData(dC1, dXMain);
    if(proj)
    {
        projBn->backward(*pc, dSum, *dPc);
        proj->backwardWeights(*dPc, x);
        proj->backwardData(*dPc, *dXShortcut);
    }
    // The add's backward: the two branches' input gradients summed.
    add(_ctx, "backward", name + ".add", "bwd", dXMain, proj ? *dXShortcut : dSum, dX);
}

// ---------------------------------------------------------------------------------------------
namespace {

Shape inputShape(const Config& cfg) { return Shape{cfg.batch, 3, cfg.imageSize, cfg.imageSize}; }

Context makeContext(miopenHandle_t handle, Profiler& profiler)
{
    Context ctx;
    ctx.handle   = handle;
    ctx.profiler = &profiler;
    CNN_MIOPEN(miopenCreateActivationDescriptor(&ctx.relu));
    CNN_MIOPEN(miopenSetActivationDescriptor(ctx.relu, miopenActivationRELU, 0.0, 0.0, 0.0));
    return ctx;
}

Config validated(const Config& cfg)
{
    if(cfg.batch < 1 || cfg.imageSize < 16 || cfg.width < 1 || cfg.classes < 2 || cfg.blocks < 2 || cfg.blocks > 4)
        throw std::runtime_error("invalid configuration (batch >= 1, image >= 16, width >= 1, classes >= 2, "
                                 "blocks 2..4)");
    return cfg;
}

} // namespace

Network::Network(miopenHandle_t handle, Profiler& profiler, const Config& cfg)
    : _cfg(validated(cfg)),
      _ctx(makeContext(handle, profiler)),
      _rng(cfg.seed),
      _input(inputShape(cfg)),
      _stemConv(_ctx, "stem.conv", inputShape(cfg), cfg.width, 7, 2, 3, false, _rng),
      _stemBn(_ctx, "stem.bn", _stemConv.outShape(), _rng),
      _c0(_stemConv.outShape()),
      _b0(_stemConv.outShape()),
      _r0(_stemConv.outShape()),
      _stemPool(_ctx, "stem.maxpool", _stemConv.outShape(), miopenPoolingMax, 3, 2, 1),
      _p0(_stemPool.outShape())
{
    Shape s = _stemPool.outShape();
    for(int i = 0; i < cfg.blocks; ++i)
    {
        const bool strided = (i % 2) == 1;
        const int channels = strided ? s.c * 2 : s.c;
        _blocks.push_back(
            std::make_unique<BasicBlock>(_ctx, "block" + std::to_string(i), s, channels, strided ? 2 : 1, _rng));
        s = _blocks.back()->outShape();
    }
    _gap    = std::make_unique<PoolLayer>(_ctx, "head.avgpool", s, miopenPoolingAverage, s.h, 1, 0);
    _g      = std::make_unique<Activation>(_gap->outShape());
    _fc     = std::make_unique<ConvLayer>(_ctx, "head.fc", _gap->outShape(), cfg.classes, 1, 1, 0, true, _rng);
    _logits = std::make_unique<Activation>(_fc->outShape());
    _logProbs  = std::make_unique<Activation>(_fc->outShape());
    _dLogProbs = std::make_unique<Activation>(_fc->outShape());
    _dLogits   = std::make_unique<Activation>(_fc->outShape());
    _dG        = std::make_unique<Activation>(_gap->outShape());
    _dLast     = std::make_unique<Activation>(s);
    _dR0       = std::make_unique<Activation>(_stemConv.outShape());
    _dB0       = std::make_unique<Activation>(_stemConv.outShape());
    _dC0       = std::make_unique<Activation>(_stemConv.outShape());
}

Network::~Network() { (void)miopenDestroyActivationDescriptor(_ctx.relu); }

void Network::setBatch(const std::vector<float>& images, const std::vector<int>& labels)
{
    _input.data.upload(images);
    _labels = labels;
}

std::vector<Param*> Network::params()
{
    std::vector<Param*> out{&_stemConv.weight, &_stemBn.scale, &_stemBn.bias};
    for(auto& b : _blocks)
    {
        for(Param* p : {&b->conv1.weight, &b->bn1.scale, &b->bn1.bias, &b->conv2.weight, &b->bn2.scale, &b->bn2.bias})
            out.push_back(p);
        if(b->proj)
            for(Param* p : {&b->proj->weight, &b->projBn->scale, &b->projBn->bias})
                out.push_back(p);
    }
    out.push_back(&_fc->weight);
    out.push_back(_fc->bias.get());
    return out;
}

void Network::forward(const char* phase, bool training, bool updateRunningStats)
{
    _stemConv.forward(phase, _input, _c0);
    if(training)
        _stemBn.forwardTraining(_c0, _b0, updateRunningStats);
    else
        _stemBn.forwardInference(_c0, _b0);
    reluForward(_ctx, phase, "stem.relu", _b0, _r0);
    _stemPool.forward(phase, _r0, _p0, training);
    const Activation* x = &_p0;
    for(auto& b : _blocks)
    {
        b->forward(phase, *x, training, updateRunningStats);
        x = &b->out;
    }
    _gap->forward(phase, *x, *_g, false);
    _fc->forward(phase, *_g, *_logits);
    _lastLogits = _logits->data.download();
}

std::vector<float> Network::inference()
{
    forward("inference", false, false);
    return _lastLogits;
}

float Network::lossFromLogProbs()
{
    const std::vector<float> logp = _logProbs->data.download();
    const int n = _cfg.batch, k = _cfg.classes;
    float loss = 0.0f;
    for(int i = 0; i < n; ++i)
        loss -= logp[static_cast<std::size_t>(i) * k + _labels[static_cast<std::size_t>(i)]];
    return loss / static_cast<float>(n);
}

float Network::forwardTraining(bool updateRunningStats)
{
    forward("forward", true, updateRunningStats);
    _ctx.profiler->time("forward", "head.softmax", "fwd", [&] {
        CNN_MIOPEN(miopenSoftmaxForward_V2(_ctx.handle, &kOne, _logits->desc.get(), _logits->data.get(), &kZero,
                                           _logProbs->desc.get(), _logProbs->data.get(), MIOPEN_SOFTMAX_LOG,
                                           MIOPEN_SOFTMAX_MODE_CHANNEL));
    });
    return lossFromLogProbs();
}

void Network::backward()
{
    // d(loss)/d(log p) = -1/N at each sample's label; the log-softmax backward turns it into
    // (softmax - onehot) / N.
    const int n = _cfg.batch, k = _cfg.classes;
    std::vector<float> dlogp(static_cast<std::size_t>(n) * k, 0.0f);
    for(int i = 0; i < n; ++i)
        dlogp[static_cast<std::size_t>(i) * k + _labels[static_cast<std::size_t>(i)]] = -1.0f / static_cast<float>(n);
    _dLogProbs->data.upload(dlogp);
    _ctx.profiler->time("backward", "head.softmax", "bwd", [&] {
        CNN_MIOPEN(miopenSoftmaxBackward_V2(_ctx.handle, &kOne, _logProbs->desc.get(), _logProbs->data.get(),
                                            _dLogProbs->desc.get(), _dLogProbs->data.get(), &kZero,
                                            _dLogits->desc.get(), _dLogits->data.get(), MIOPEN_SOFTMAX_LOG,
                                            MIOPEN_SOFTMAX_MODE_CHANNEL));
    });
    _fc->backwardWeights(*_dLogits, *_g);
    _fc->backwardData(*_dLogits, *_dG);
    const Activation* last = _blocks.empty() ? &_p0 : &_blocks.back()->out;
    _gap->backward(*_g, *_dG, *last, *_dLast);
    const Activation* dOut = _dLast.get();
    for(std::size_t i = _blocks.size(); i-- > 0;)
    {
        const Activation& x = i == 0 ? _p0 : _blocks[i - 1]->out;
        _blocks[i]->backward(x, *dOut);
        dOut = &_blocks[i]->dX;
    }
    _stemPool.backward(_p0, *dOut, _r0, *_dR0);
    reluBackward(_ctx, "stem.relu", _r0, *_dR0, _b0, *_dB0);
    _stemBn.backward(_c0, *_dB0, *_dC0);
    // The input image needs no gradient (as in frameworks): the stem's backward data is skipped.
    _stemConv.backwardWeights(*_dC0, _input);
}

void Network::sgdStep(float lr)
{
    const float minusLr = -lr;
    for(Param* p : params())
        _ctx.profiler->time("update", p->name, "sgd", [&] {
            // value = (-lr * grad + 0 * grad) + 1 * value
            CNN_MIOPEN(miopenOpTensor(_ctx.handle, miopenTensorOpAdd, &minusLr, p->desc.get(), p->grad.get(), &kZero,
                                      p->desc.get(), p->grad.get(), &kOne, p->desc.get(), p->value.get()));
        });
}

} // namespace cnn
