#include <miopen/elementwise.hpp>
#include <miopen/fusion.hpp>
#include <miopen/logger.hpp>
#include <miopen/threading.hpp>

namespace miopen {

const char* fusionOpKindName(FusionOpKind k)
{
    switch(k)
    {
    case FusionOpKind::ConvForward: return "convolution forward";
    case FusionOpKind::BiasForward: return "bias forward";
    case FusionOpKind::ActivForward: return "activation forward";
    case FusionOpKind::ActivBackward: return "activation backward";
    case FusionOpKind::BnInference: return "batchnorm inference";
    case FusionOpKind::BnForwardTraining: return "batchnorm forward training";
    case FusionOpKind::BnBackward: return "batchnorm backward";
    }
    return "unknown";
}

const FusionOpArgs* OperatorArgs::find(const FusionOp* op) const
{
    const auto it = _args.find(op);
    return it == _args.end() ? nullptr : &it->second;
}

namespace {

// Per-element work after the producer: v = act(bn(scale * v + zScale * z + bias[c])).
struct Epilogue
{
    float scale = 1.0f;
    const TensorDescriptor* zDesc = nullptr;
    const void* z = nullptr;
    float zScale = 1.0f;
    std::vector<float> bias;            // per channel, empty when none
    const BnAffine* bn = nullptr;
    std::optional<ActivationFn> act;
};

std::vector<std::size_t> spatialOffsets(const TensorDescriptor& d)
{
    const auto& lens = d.lens();
    std::size_t count = 1;
    for(std::size_t i = 2; i < lens.size(); ++i)
        count *= lens[i];
    std::vector<std::size_t> out(count);
    for(std::size_t s = 0; s < count; ++s)
    {
        std::size_t rem = s, off = 0;
        for(std::size_t i = lens.size(); i-- > 2;)
        {
            off += (rem % lens[i]) * d.stride(i);
            rem /= lens[i];
        }
        out[s] = off;
    }
    return out;
}

// dst = epilogue(src) over tensors of equal lengths and type (src may be dst).
void runEpilogue(const TensorDescriptor& srcDesc, const void* src, const TensorDescriptor& dstDesc, void* dst,
                 const Epilogue& e)
{
    const std::size_t n = srcDesc.len(0), c = srcDesc.len(1);
    const auto srcSp = spatialOffsets(srcDesc), dstSp = spatialOffsets(dstDesc);
    const auto zSp   = e.z != nullptr ? spatialOffsets(*e.zDesc) : std::vector<std::size_t>{};
    const std::size_t s = srcSp.size();
    elementwise::visitFloatType(dstDesc.type(), [&](auto io) {
        using Io = decltype(io);
        parallelFor(n * c, [&](std::size_t begin, std::size_t end) {
            for(std::size_t nc = begin; nc < end; ++nc)
            {
                const std::size_t in = nc / c, ic = nc % c;
                const std::size_t sb = in * srcDesc.stride(0) + ic * srcDesc.stride(1);
                const std::size_t db = in * dstDesc.stride(0) + ic * dstDesc.stride(1);
                const std::size_t zb = e.z != nullptr ? in * e.zDesc->stride(0) + ic * e.zDesc->stride(1) : 0;
                const float b        = e.bias.empty() ? 0.0f : e.bias[ic];
                for(std::size_t is = 0; is < s; ++is)
                {
                    float v = e.scale * Io::load(src, sb + srcSp[is]) + b;
                    if(e.z != nullptr)
                        v += e.zScale * Io::load(e.z, zb + zSp[is]);
                    if(e.bn != nullptr)
                    {
                        const std::size_t f = e.bn->perActivation ? ic * e.bn->spatial + is : ic;
                        v = e.bn->a[f] * v + e.bn->b[f];
                    }
                    if(e.act)
                        v = e.act->forward(v);
                    Io::store(dst, db + dstSp[is], v);
                }
            }
        }, std::max<std::size_t>(1, 16384 / std::max<std::size_t>(1, s)));
    });
}

// Bias values (K of them) of a 1xKx1.. (or K) tensor of the output's type.
std::vector<float> biasValues(const TensorDescriptor& bDesc, const void* b, const TensorDescriptor& out)
{
    const std::size_t k = out.len(1);
    std::size_t stride  = 0;
    if(bDesc.numDims() == 1 && bDesc.len(0) == k)
        stride = bDesc.stride(0);
    else
    {
        if(bDesc.numDims() != out.numDims())
            fail(miopenStatusBadParm, "bias rank differs from the output's");
        for(std::size_t i = 0; i < bDesc.numDims(); ++i)
            if(bDesc.len(i) != (i == 1 ? k : 1))
                fail(miopenStatusBadParm, "bias must be 1 x K x 1 ... with K = " + std::to_string(k));
        stride = bDesc.stride(1);
    }
    if(bDesc.type() != out.type())
        fail(miopenStatusBadParm, "bias type differs from the output's");
    std::vector<float> v(k);
    if(b != nullptr)
        for(std::size_t i = 0; i < k; ++i)
            v[i] = loadAsFloat(bDesc.type(), b, i * stride);
    return v;
}

// The preferred applicable solver of the problem (of `algo` when given), or nullptr.
const conv::Solver* chooseSolver(const conv::ProblemDescription& p, std::optional<miopenConvAlgorithm_t> algo,
                                 std::string& why)
{
    const auto solvers = conv::applicableSolvers(p);
    for(const conv::Solver* s : solvers)
        if(!algo || s->algorithm() == *algo)
            return s;
    why = solvers.empty() ? "no convolution solver applies to " + p.dbKey()
                          : "no applicable convolution solver of algorithm " + std::to_string(static_cast<int>(*algo));
    return nullptr;
}

void runConv(const Handle& handle, const conv::Solver& solver, const conv::ApiProblem& api, const void* x,
             const void* w, void* y)
{
    const std::size_t need = solver.workspaceSize(api.problem());
    Allocation ws          = handle.allocate(need);
    conv::runSolver(handle, solver, api.problem(), api.tensors(x, w, y, y), ws.get(), need);
}

} // namespace

FusionOp& FusionPlan::addOp(std::unique_ptr<FusionOp> op)
{
    _ops.push_back(std::move(op));
    _compiled.reset();
    return *_ops.back();
}

FusionOp& FusionPlan::op(int index) const
{
    if(index < 0 || static_cast<std::size_t>(index) >= _ops.size())
        fail(miopenStatusBadParm, "operator index " + std::to_string(index) + " out of range (plan has " +
                                      std::to_string(_ops.size()) + " operators)");
    return *_ops[static_cast<std::size_t>(index)];
}

const FusionOp* FusionPlan::convOp() const noexcept
{
    for(const auto& o : _ops)
        if(o->kind == FusionOpKind::ConvForward)
            return o.get();
    return nullptr;
}

std::vector<miopenConvAlgorithm_t> FusionPlan::convAlgorithms() const
{
    const FusionOp* c = convOp();
    if(c == nullptr)
        fail(miopenStatusBadParm, "the fusion plan has no convolution operator");
    const TensorDescriptor out = c->conv.forwardOutputTensor(_input, c->desc, _input.type());
    const conv::ApiProblem api(conv::ApiDirection::Forward, _input, c->desc, out, c->conv);
    std::vector<miopenConvAlgorithm_t> algos;
    for(const conv::Solver* s : conv::applicableSolvers(api.problem()))
        if(std::find(algos.begin(), algos.end(), s->algorithm()) == algos.end())
            algos.push_back(s->algorithm());
    return algos;
}

miopenStatus_t FusionPlan::compile(std::string& why)
{
    _compiled.reset();
    if(_dir != miopenVerticalFusion)
    {
        why = "only vertical fusion is implemented";
        return miopenStatusUnsupportedOp;
    }
    // The fusable shapes: conv [bias] [bn-inference] [activ-fwd] or bn-inference activ-fwd, at
    // least two operators.
    std::size_t i = 0;
    const auto at = [&](FusionOpKind k) { return i < _ops.size() && _ops[i]->kind == k; };
    const bool conv = at(FusionOpKind::ConvForward);
    if(conv)
    {
        ++i;
        if(at(FusionOpKind::BiasForward))
            ++i;
        if(at(FusionOpKind::BnInference))
            ++i;
        if(at(FusionOpKind::ActivForward))
            ++i;
    }
    else if(at(FusionOpKind::BnInference))
    {
        ++i;
        if(at(FusionOpKind::ActivForward))
            ++i;
    }
    if(_ops.size() < 2 || i != _ops.size())
    {
        why = "no fused implementation for the sequence:";
        for(const auto& o : _ops)
            why += std::string(" ") + fusionOpKindName(o->kind) + ";";
        return miopenStatusUnsupportedOp;
    }

    Compiled c;
    c.output = TensorDescriptor(_input.type(), _input.lens(), _input.strides());
    if(!elementwise::isComputeType(_input.type()))
    {
        why = std::string("no fused implementation for ") + dataTypeName(_input.type()) + " data";
        return miopenStatusUnsupportedOp;
    }
    for(const auto& o : _ops)
    {
        switch(o->kind)
        {
        case FusionOpKind::ConvForward:
        {
            c.output = o->conv.forwardOutputTensor(_input, o->desc, _input.type());
            c.problem.emplace(conv::ApiDirection::Forward, _input, o->desc, c.output, o->conv);
            c.solver = chooseSolver(c.problem->problem(), _algo, why);
            if(c.solver == nullptr)
                return miopenStatusUnsupportedOp;
            break;
        }
        case FusionOpKind::BiasForward: biasValues(o->desc, nullptr, c.output); break;
        case FusionOpKind::BnInference:
            checkBnParamDescs(o->bnMode, c.output, {&o->desc, &o->desc, &o->desc, &o->desc});
            break;
        default: break;
        }
    }
    if(c.output.numDims() < 3)
        fail(miopenStatusBadParm, "fusion needs tensors of rank >= 3");
    MIOPEN_LOG_I2("fusion plan compiled: " << _ops.size() << " operators"
                                          << (c.solver != nullptr ? std::string(", convolution by ") + c.solver->name() : std::string()));
    _compiled = std::move(c);
    return miopenStatusSuccess;
}

void FusionPlan::execute(const Handle& handle,
                         const TensorDescriptor& inputDesc,
                         const void* input,
                         const TensorDescriptor& outputDesc,
                         void* output,
                         const OperatorArgs& args) const
{
    if(!_compiled)
        fail(miopenStatusBadParm, "the fusion plan was not compiled successfully");
    if(inputDesc != _input)
        fail(miopenStatusBadParm, "input descriptor " + inputDesc.toString() + " differs from the plan's " + _input.toString());
    if(outputDesc != _compiled->output)
        fail(miopenStatusBadParm, "output descriptor " + outputDesc.toString() + " differs from the plan's " +
                                      _compiled->output.toString());
    check(input != nullptr && output != nullptr, "input or output is null");

    std::vector<const FusionOpArgs*> a(_ops.size());
    for(std::size_t i = 0; i < _ops.size(); ++i)
    {
        a[i] = args.find(_ops[i].get());
        if(a[i] == nullptr)
            fail(miopenStatusBadParm, std::string("no arguments were set for operator ") + std::to_string(i) + " (" +
                                          fusionOpKindName(_ops[i]->kind) + ")");
    }

    Epilogue e;
    std::optional<BnAffine> bn;
    for(std::size_t i = 0; i < _ops.size(); ++i)
    {
        const FusionOp& o = *_ops[i];
        switch(o.kind)
        {
        case FusionOpKind::ConvForward:
            check(a[i]->w != nullptr, "convolution weights are null");
            e.scale = a[i]->alpha;
            break;
        case FusionOpKind::BiasForward:
            check(a[i]->bias != nullptr, "bias is null");
            e.bias = biasValues(o.desc, a[i]->bias, _compiled->output);
            break;
        case FusionOpKind::BnInference:
            bn = bnInferenceAffine(o.bnMode, _compiled->output, {&o.desc, &o.desc, &o.desc, &o.desc}, a[i]->scale,
                                   a[i]->bias, a[i]->mean, a[i]->var, a[i]->epsilon);
            e.bn = &*bn;
            break;
        case FusionOpKind::ActivForward: e.act.emplace(a[i]->activ); break;
        default: fail(miopenStatusInternalError, "operator kind not fusable (compile should have refused it)");
        }
    }

    KernelTimer timer(const_cast<Handle&>(handle));
    if(_compiled->solver != nullptr)
    {
        runConv(handle, *_compiled->solver, *_compiled->problem, input, a[0]->w, output);
        runEpilogue(outputDesc, output, outputDesc, output, e);
    }
    else
        runEpilogue(inputDesc, input, outputDesc, output, e);
}

void convBiasActivForward(const Handle& handle,
                          float alpha1,
                          const TensorDescriptor& xDesc,
                          const void* x,
                          const TensorDescriptor& wDesc,
                          const void* w,
                          const ConvolutionDescriptor& conv,
                          miopenConvAlgorithm_t algo,
                          float alpha2,
                          const TensorDescriptor* zDesc,
                          const void* z,
                          const TensorDescriptor& biasDesc,
                          const void* bias,
                          const ActivationParams& activ,
                          const TensorDescriptor& yDesc,
                          void* y)
{
    if(activ.mode != miopenActivationRELU)
        fail(miopenStatusNotImplemented, "only activation mode RELU is supported (as upstream)");
    check(x != nullptr && w != nullptr && y != nullptr && bias != nullptr, "x, w, bias or y is null");
    const conv::ApiProblem api(conv::ApiDirection::Forward, xDesc, wDesc, yDesc, conv);
    if(yDesc.type() != xDesc.type() || !elementwise::isComputeType(yDesc.type()))
        fail(miopenStatusBadParm, "x and y must share a half, bfloat16 or float type");
    Epilogue e;
    e.scale = alpha1;
    e.bias  = biasValues(biasDesc, bias, yDesc);
    if(z != nullptr)
    {
        check(zDesc != nullptr, "zDesc is null while z is not");
        zDesc->checkSet("zDesc");
        if(zDesc->lens() != yDesc.lens() || zDesc->type() != yDesc.type())
            fail(miopenStatusBadParm, "z must have y's lengths and type");
        e.zDesc  = zDesc;
        e.z      = z;
        e.zScale = alpha2;
    }
    e.act.emplace(activ);
    std::string why;
    const conv::Solver* solver = chooseSolver(api.problem(), algo, why);
    if(solver == nullptr)
        fail(miopenStatusUnsupportedOp, why);
    // y may alias z: the convolution would overwrite z before the epilogue reads it.
    if(z != nullptr && z == y)
    {
        Allocation copy = handle.allocate(yDesc.numBytes());
        std::memcpy(copy.get(), z, yDesc.numBytes());
        e.z = copy.get();
        runConv(handle, *solver, api, x, w, y);
        runEpilogue(yDesc, y, yDesc, y, e);
        return;
    }
    runConv(handle, *solver, api, x, w, y);
    runEpilogue(yDesc, y, yDesc, y, e);
}

} // namespace miopen
