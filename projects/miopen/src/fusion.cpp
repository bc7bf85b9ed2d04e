#include <miopen/elementwise.hpp>
#include <miopen/fusion.hpp>
#include <miopen/logger.hpp>
#include <miopen/tensor_ops.hpp>
#include <miopen/threading.hpp>

#include <algorithm>
#include <type_traits>

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

std::string FusionOp::toString() const
{
    std::string s = std::string("{") + fusionOpKindName(kind);
    switch(kind)
    {
    case FusionOpKind::ConvForward: s += ", " + conv.toString() + ", weights " + desc.toString(); break;
    case FusionOpKind::BiasForward: s += ", bias " + desc.toString(); break;
    case FusionOpKind::ActivForward:
    case FusionOpKind::ActivBackward: s += std::string(", ") + activationModeName(activMode); break;
    case FusionOpKind::BnInference:
    case FusionOpKind::BnForwardTraining:
    case FusionOpKind::BnBackward:
        s += bnMode == miopenBNSpatial ? ", miopenBNSpatial" : ", miopenBNPerActivation";
        if(kind == FusionOpKind::BnInference)
            s += ", " + desc.toString();
        break;
    }
    return s + "}";
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

// True when the spatial dims (2..) are packed with unit innermost stride: each (n, c) row is one
// contiguous run.
bool spatialContiguous(const TensorDescriptor& d)
{
    std::size_t expect = 1;
    for(std::size_t i = d.numDims(); i-- > 2;)
    {
        if(d.len(i) != 1 && d.stride(i) != expect)
            return false;
        expect *= d.len(i);
    }
    return true;
}

// dst = epilogue(src) over tensors of equal lengths and type (src may be dst). One (n, c) row at
// a time, each step a plain loop over the row in float (vectorisable), threaded over rows: fp32
// rows with contiguous spatial dims are computed in place in dst, others in a per-thread float
// row of the handle's scratch.
void runEpilogue(const Handle& handle, const TensorDescriptor& srcDesc, const void* src,
                 const TensorDescriptor& dstDesc, void* dst, const Epilogue& e)
{
    const std::size_t n = srcDesc.len(0), c = srcDesc.len(1);
    std::size_t s = 1;
    for(std::size_t i = 2; i < srcDesc.numDims(); ++i)
        s *= srcDesc.len(i);
    const bool srcC = spatialContiguous(srcDesc), dstC = spatialContiguous(dstDesc);
    const bool zC   = e.z == nullptr || spatialContiguous(*e.zDesc);
    const auto srcSp = srcC ? std::vector<std::size_t>{} : spatialOffsets(srcDesc);
    const auto dstSp = dstC ? std::vector<std::size_t>{} : spatialOffsets(dstDesc);
    const auto zSp   = zC ? std::vector<std::size_t>{} : spatialOffsets(*e.zDesc);
    storage::visit(dstDesc.type(), "the fusion epilogue", [&](auto tag) {
        using Tag          = decltype(tag);
        using Bits         = typename Tag::Bits;
        const bool inPlace = std::is_same<Tag, storage::Fp32>::value && dstC;
        Allocation scratch = handle.allocate(inPlace ? 0 : threadCount() * s * sizeof(float));
        parallelForIndexed(n * c, [&](std::size_t slot, std::size_t begin, std::size_t end) {
            for(std::size_t nc = begin; nc < end; ++nc)
            {
                const std::size_t in = nc / c, ic = nc % c;
                const Bits* srow = static_cast<const Bits*>(src) + in * srcDesc.stride(0) + ic * srcDesc.stride(1);
                Bits* drow       = static_cast<Bits*>(dst) + in * dstDesc.stride(0) + ic * dstDesc.stride(1);
                float* v = inPlace ? reinterpret_cast<float*>(drow) : scratch.as<float>() + slot * s;
                if(!(inPlace && static_cast<const void*>(srow) == static_cast<const void*>(drow)))
                {
                    if(srcC)
                        for(std::size_t i = 0; i < s; ++i)
                            v[i] = Tag::load(srow[i]);
                    else
                        for(std::size_t i = 0; i < s; ++i)
                            v[i] = Tag::load(srow[srcSp[i]]);
                }
                const float scale = e.scale, b = e.bias.empty() ? 0.0f : e.bias[ic];
                for(std::size_t i = 0; i < s; ++i)
                    v[i] = scale * v[i] + b;
                if(e.z != nullptr)
                {
                    const Bits* zrow =
                        static_cast<const Bits*>(e.z) + in * e.zDesc->stride(0) + ic * e.zDesc->stride(1);
                    const float zs = e.zScale;
                    if(zC)
                        for(std::size_t i = 0; i < s; ++i)
                            v[i] += zs * Tag::load(zrow[i]);
                    else
                        for(std::size_t i = 0; i < s; ++i)
                            v[i] += zs * Tag::load(zrow[zSp[i]]);
                }
                if(e.bn != nullptr)
                {
                    if(e.bn->perActivation)
                    {
                        const float* a  = e.bn->a.data() + ic * e.bn->spatial;
                        const float* bb = e.bn->b.data() + ic * e.bn->spatial;
                        for(std::size_t i = 0; i < s; ++i)
                            v[i] = a[i] * v[i] + bb[i];
                    }
                    else
                    {
                        const float a = e.bn->a[ic], bb = e.bn->b[ic];
                        for(std::size_t i = 0; i < s; ++i)
                            v[i] = a * v[i] + bb;
                    }
                }
                if(e.act)
                    e.act->forwardRow(v, s);
                if(!inPlace)
                {
                    if(dstC)
                        for(std::size_t i = 0; i < s; ++i)
                            drow[i] = Tag::store(v[i]);
                    else
                        for(std::size_t i = 0; i < s; ++i)
                            drow[dstSp[i]] = Tag::store(v[i]);
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

// Output bytes per thread in a convolution chunk of convThenEpilogue: a chunk (this times the
// pool size) is small enough that its output is still in cache (the last level at least) when
// the epilogue reads it back, and large enough that every thread gets a share of the solver's
// work (GEMM column blocks, Winograd tile blocks) in each chunk.
constexpr std::size_t kFusedChunkBytesPerThread = std::size_t(2) << 20;

// The first nb images of d (same strides).
TensorDescriptor firstImages(const TensorDescriptor& d, std::size_t nb)
{
    auto lens = d.lens();
    lens[0]   = nb;
    return TensorDescriptor(d.type(), lens, d.strides());
}

// p advanced by n0 images of d.
template <class P>
P* atImage(P* p, const TensorDescriptor& d, std::size_t n0)
{
    using Byte = std::conditional_t<std::is_const<P>::value, const char, char>;
    return reinterpret_cast<P*>(reinterpret_cast<Byte*>(p) + n0 * d.stride(0) * dataTypeSize(d.type()));
}

// y = epilogue(conv(x, w)) for the forward problem `api`, a few images at a time: each chunk is
// convolved by `solver` (threaded inside) and its epilogue runs right after, while the chunk's
// output is still in cache, instead of a second pass over the whole output. The solver sees an
// ordinary smaller problem (only N differs), so nothing in the solver changes; when it does not
// apply to the smaller batch, the whole batch runs at once. e.z, when set, is y-shaped and is
// read per chunk; z == y is allowed (each chunk of z is copied before the convolution
// overwrites it).
void convThenEpilogue(const Handle& handle, const conv::Solver& solver, const conv::ApiProblem& api, const void* x,
                      const void* w, void* y, const Epilogue& e)
{
    const TensorDescriptor& xd = api.x();
    const TensorDescriptor& yd = api.y();
    const std::size_t n        = yd.len(0);
    const std::size_t perImage = std::max<std::size_t>(1, yd.elementCount() / std::max<std::size_t>(1, n)) *
                                 dataTypeSize(yd.type());
    std::size_t chunk = std::clamp<std::size_t>(kFusedChunkBytesPerThread * threadCount() / perImage, 1, n);
    std::optional<conv::ApiProblem> full, part, tail;
    if(chunk < n)
    {
        part.emplace(conv::ApiDirection::Forward, firstImages(xd, chunk), api.w(), firstImages(yd, chunk), api.conv());
        if(n % chunk != 0)
            tail.emplace(conv::ApiDirection::Forward, firstImages(xd, n % chunk), api.w(),
                         firstImages(yd, n % chunk), api.conv());
        if(!solver.isApplicable(part->problem()) || (tail && !solver.isApplicable(tail->problem())))
        {
            MIOPEN_LOG_I2(solver.name() << " does not apply to a batch of " << chunk
                                        << "; the fused epilogue runs after the whole convolution");
            chunk = n;
        }
    }
    if(chunk >= n)
    {
        part.reset();
        tail.reset();
    }
    const conv::ApiProblem& body = part ? *part : api;
    const std::size_t need =
        std::max(solver.workspaceSize(body.problem()), tail ? solver.workspaceSize(tail->problem()) : 0);
    Allocation ws = handle.allocate(need);
    const bool zAliasesY = e.z != nullptr && e.z == y;
    Allocation zCopy = handle.allocate(zAliasesY ? chunk * perImage : 0);
    for(std::size_t n0 = 0; n0 < n; n0 += chunk)
    {
        const std::size_t nb         = std::min(chunk, n - n0);
        const conv::ApiProblem& cp   = nb == chunk ? body : *tail;
        void* yc                     = atImage(y, yd, n0);
        Epilogue ec                  = e;
        TensorDescriptor zc;
        if(e.z != nullptr)
        {
            zc      = firstImages(*e.zDesc, nb);
            ec.zDesc = &zc;
            ec.z     = atImage(e.z, *e.zDesc, n0);
            if(zAliasesY)
            {
                // A packed copy of this chunk of z: the convolution is about to overwrite it.
                zc = TensorDescriptor(zc.type(), zc.lens());
                const float one = 1.0f, zero = 0.0f;
                transformTensor(handle, &one, firstImages(*e.zDesc, nb), ec.z, &zero, zc, zCopy.get());
                ec.z = zCopy.get();
            }
        }
        conv::runSolver(handle, solver, cp.problem(), cp.tensors(atImage(x, xd, n0), w, yc, yc), ws.get(), need);
        const TensorDescriptor yc_d = firstImages(yd, nb);
        runEpilogue(handle, yc_d, yc, yc_d, yc, ec);
    }
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
        convThenEpilogue(handle, *_compiled->solver, *_compiled->problem, input, a[0]->w, output, e);
    else
        runEpilogue(handle, inputDesc, input, outputDesc, output, e);
}

std::string FusionPlan::toString() const
{
    std::string s = std::string("{") + (_dir == miopenVerticalFusion ? "miopenVerticalFusion" : "miopenHorizontalFusion") +
                    ", input " + _input.toString() + ", " + std::to_string(_ops.size()) + " operators";
    for(std::size_t i = 0; i < _ops.size(); ++i)
        s += std::string(i == 0 ? ": " : ", ") + fusionOpKindName(_ops[i]->kind);
    return s + (_compiled ? ", compiled}" : "}");
}

std::string convFusionDriverArgs(int fusionMode, const conv::ApiProblem& problem)
{
    return driverBaseArg("CBAInfer", problem.x().type()) + " -F " + std::to_string(fusionMode) +
           problem.driverArgs(false, std::nullopt);
}

std::string FusionPlan::driverArgs() const
{
    // Upstream's fusion modes, by the exact operator sequence.
    using K = FusionOpKind;
    static const std::vector<std::pair<int, std::vector<K>>> kModes = {
        {0, {K::ConvForward, K::BiasForward, K::BnInference, K::ActivForward}},
        {1, {K::ConvForward, K::BnInference, K::ActivForward}},
        {2, {K::BnInference, K::ActivForward}},
        {3, {K::ConvForward, K::BnInference}},
        {4, {K::ConvForward, K::BiasForward, K::ActivForward}},
        {5, {K::ConvForward, K::ActivForward}},
        {6, {K::ConvForward, K::BiasForward}},
    };
    std::vector<K> kinds;
    for(const auto& o : _ops)
        kinds.push_back(o->kind);
    for(const auto& [mode, seq] : kModes)
    {
        if(seq != kinds)
            continue;
        if(mode == 2)
            return driverBaseArg("CBAInfer", _input.type()) + " -F 2" +
                   bnDriverArgs(_input, _ops[0]->desc, _ops[0]->bnMode, BnDriverDirection::ForwardInference, false,
                                true, false);
        const FusionOp& c = *_ops[0];
        const TensorDescriptor out = c.conv.forwardOutputTensor(_input, c.desc, _input.type());
        return convFusionDriverArgs(mode, conv::ApiProblem(conv::ApiDirection::Forward, _input, c.desc, out, c.conv));
    }
    return "";
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
    convThenEpilogue(handle, *solver, api, x, w, y, e);
}

} // namespace miopen
