// Pointwise graphs of MIOpen's activation and tensor-op calls, each run by one Private call with
// the scalars the graph carries:
//   core                      f(x) | f'(dy, x) | op(A', B') (ADD/MUL/MIN_OP/MAX_OP) | MUL(y, s)
//   A', B'                    A | MUL(A, alpha1)      (a pass-by-value scalar; likewise B, alpha2)
//   blend (activations, op)   out = [MUL(core, alpha)] [ADD(., MUL(prior, beta))]
// as libMIOpen.so's forwarding builds them (forwarding_pointwise.cpp). f(x) goes to
// miopenActivationForward_impl, f'(dy, x) to miopenActivationBackward_impl (which also reads the
// forward output: the plan computes it into the workspace first), op to miopenOpTensor_impl and
// MUL(y, s) to miopenScaleTensor_impl in place (miopenTransformTensor_impl when the output is
// another buffer). `prior` is the output's previous content: when it is another buffer than the
// output, it is copied into the output first (Private blends in place). Other shapes are declined.
#include "MiopenGraphUtils.hpp"

#include <hipdnn_data_sdk/types.hpp>

#include <cstring>
#include <map>

namespace miopen_provider
{

namespace
{

using dobj::PointwiseMode;

/// The graph's pointwise nodes by output uid.
class PointwiseGraph
{
public:
    explicit PointwiseGraph(const GraphView& g)
        : _g(g)
    {
        for(size_t i = 0; i < g.nodeCount(); ++i)
        {
            const auto* p = g.node(i).attributes_as_PointwiseAttributes();
            declineIf(p == nullptr, "a pointwise graph of MIOpen's activation / tensor-op calls has pointwise nodes only");
            _producer[p->out_0_tensor_uid()] = p;
        }
    }

    const dobj::TensorAttributes& tensor(int64_t uid) const { return _g.tensor(uid); }
    bool isValue(int64_t uid) const { return tensor(uid).value_type() != dobj::TensorValue::NONE; }
    bool isVirtual(int64_t uid) const { return tensor(uid).virtual_(); }
    /// A buffer of the variant pack: neither virtual nor a pass-by-value scalar.
    bool isBuffer(int64_t uid) const { return !isVirtual(uid) && !isValue(uid); }

    /// The node that writes `uid` (consumed: every node must be consumed exactly once).
    const dobj::PointwiseAttributes* take(int64_t uid)
    {
        auto it = _producer.find(uid);
        declineIf(it == _producer.end(), "virtual tensor " + label(tensor(uid)) + " has no producer");
        const auto* p = it->second;
        ++_used;
        return p;
    }
    const dobj::PointwiseAttributes* peek(int64_t uid) const
    {
        auto it = _producer.find(uid);
        return it == _producer.end() ? nullptr : it->second;
    }
    /// MUL(buffer, scalar) writing virtual `uid`: the buffer's uid and the scalar.
    bool leafScale(int64_t uid, int64_t& src, float& s) const
    {
        if(!isVirtual(uid))
        {
            return false;
        }
        const auto* p = peek(uid);
        if(p == nullptr || p->operation() != PointwiseMode::MUL || !p->in_1_tensor_uid().has_value()
           || p->in_2_tensor_uid().has_value() || !isBuffer(p->in_0_tensor_uid()) || !isValue(*p->in_1_tensor_uid()))
        {
            return false;
        }
        src = p->in_0_tensor_uid();
        s = static_cast<float>(scalarValue(tensor(*p->in_1_tensor_uid())));
        return true;
    }
    /// An operand of the op-tensor core: a buffer, or MUL(buffer, scalar).
    void operand(int64_t uid, int64_t& src, float& s)
    {
        if(isBuffer(uid))
        {
            src = uid;
            s = 1.f;
            return;
        }
        declineIf(!leafScale(uid, src, s), "an op-tensor operand is a buffer or a buffer times a scalar");
        take(uid);
    }
    size_t used() const { return _used; }
    size_t count() const { return _g.nodeCount(); }

private:
    const GraphView& _g;
    std::map<int64_t, const dobj::PointwiseAttributes*> _producer;
    size_t _used = 0;
};

bool isTensorOp(PointwiseMode m)
{
    return m == PointwiseMode::ADD || m == PointwiseMode::MUL || m == PointwiseMode::MIN_OP
           || m == PointwiseMode::MAX_OP;
}

miopenTensorOp_t tensorOpOf(PointwiseMode m)
{
    switch(m)
    {
    case PointwiseMode::ADD: return miopenTensorOpAdd;
    case PointwiseMode::MUL: return miopenTensorOpMul;
    case PointwiseMode::MIN_OP: return miopenTensorOpMin;
    default: return miopenTensorOpMax;
    }
}

/// Copies the prior content into the output when the graph binds them to different buffers
/// (Private blends with beta in place); `inputs` must not alias the output then.
void priorIntoOutput(miopenHandle_t h, const Buffers& b, int64_t priorUid, const TensorDesc& priorDesc,
                     int64_t outUid, const TensorDesc& outDesc, const std::vector<int64_t>& inputs)
{
    void* out = b.at(outUid);
    const void* prior = b.at(priorUid);
    if(prior == out)
    {
        return;
    }
    for(int64_t in : inputs)
    {
        if(b.at(in) == out)
        {
            throw hipdnn_plugin_sdk::PluginException(HIPDNN_PLUGIN_STATUS_BAD_PARAM,
                                                     "the output aliases an input but the prior output is "
                                                     "another buffer: MIOpen blends in place");
        }
    }
    const float one = 1.f, zero = 0.f;
    checkMiopen(miopenTransformTensor_impl(h, &one, priorDesc.get(), prior, &zero, outDesc.get(), out),
                "miopenTransformTensor_impl");
}

/// The scalar MIOpen's ScaleTensor reads: of y's element type.
std::vector<unsigned char> elementOf(float v, miopenDataType_t type)
{
    std::vector<unsigned char> bytes(elementSize(type));
    if(type == miopenHalf)
    {
        const hipdnn_data_sdk::types::half h(v);
        std::memcpy(bytes.data(), &h, bytes.size());
    }
    else if(type == miopenBFloat16)
    {
        const hipdnn_data_sdk::types::bfloat16 bf(v);
        std::memcpy(bytes.data(), &bf, bytes.size());
    }
    else
    {
        std::memcpy(bytes.data(), &v, bytes.size());
    }
    return bytes;
}

} // namespace

std::unique_ptr<MiopenPlan> buildActivation(const GraphView& graph, const BuildContext& ctx)
{
    PointwiseGraph pg(graph);
    // The output: the one non-virtual tensor a node writes.
    std::optional<int64_t> outUid;
    for(size_t i = 0; i < graph.nodeCount(); ++i)
    {
        const int64_t o = graph.node(i).attributes_as_PointwiseAttributes()->out_0_tensor_uid();
        if(!pg.isVirtual(o))
        {
            declineIf(outUid.has_value(), "a pointwise graph with several outputs is not one MIOpen call");
            outUid = o;
        }
    }
    declineIf(!outUid.has_value(), "the pointwise graph has no output");
    const auto* node = pg.take(*outUid);
    // Blend: ADD(v, MUL(prior, beta)) with v not itself a buffer times a scalar.
    float beta = 0.f;
    std::optional<int64_t> priorUid;
    if(node->operation() == PointwiseMode::ADD && node->in_1_tensor_uid().has_value()
       && !node->in_2_tensor_uid().has_value())
    {
        int64_t src = 0, unused = 0;
        float s = 0.f, unusedS = 0.f;
        const int64_t v = node->in_0_tensor_uid(), w = *node->in_1_tensor_uid();
        if(pg.isVirtual(v) && !pg.leafScale(v, unused, unusedS) && pg.leafScale(w, src, s))
        {
            pg.take(w);
            beta = s;
            priorUid = src;
            node = pg.take(v);
        }
    }
    // alpha: MUL(v, scalar) with v virtual.
    float alpha = 1.f;
    bool scaled = false;
    if(node->operation() == PointwiseMode::MUL && node->in_1_tensor_uid().has_value()
       && !node->in_2_tensor_uid().has_value() && pg.isVirtual(node->in_0_tensor_uid())
       && pg.isValue(*node->in_1_tensor_uid()))
    {
        alpha = static_cast<float>(scalarValue(pg.tensor(*node->in_1_tensor_uid())));
        scaled = true;
        node = pg.take(node->in_0_tensor_uid());
    }
    const auto& out = pg.tensor(*outUid);
    const TensorDesc outDesc = tensorDesc(out);
    const miopenDataType_t type = miopenType(out);
    miopenHandle_t h = ctx.handle.get();
    const int64_t oUid = *outUid;
    std::optional<TensorDesc> priorDesc;
    if(priorUid)
    {
        declineIf(vec(pg.tensor(*priorUid).dims()) != vec(out.dims()), "the prior output's dims differ from the output's");
        priorDesc = tensorDesc(pg.tensor(*priorUid));
    }
    const auto mode = node->operation();
    const bool scaleTensor = mode == PointwiseMode::MUL && node->in_1_tensor_uid().has_value()
                             && pg.isBuffer(node->in_0_tensor_uid()) && pg.isValue(*node->in_1_tensor_uid());
    // ---- y = MUL(y, s): ScaleTensor ----
    if(scaleTensor && !node->in_2_tensor_uid().has_value())
    {
        declineIf(scaled || priorUid.has_value(), "a scaled tensor with a further blend is not one MIOpen call");
        const auto& in = pg.tensor(node->in_0_tensor_uid());
        declineIf(vec(in.dims()) != vec(out.dims()) || vec(in.strides()) != vec(out.strides()) || miopenType(in) != type,
                  "scale tensor: the input and output descriptors differ");
        declineIf(pg.used() != pg.count(), "the pointwise graph has nodes outside the scale-tensor pattern");
        const float s = static_cast<float>(scalarValue(pg.tensor(*node->in_1_tensor_uid())));
        const auto sBytes = elementOf(s, type);
        const TensorDesc d = tensorDesc(in);
        const int64_t inUid = in.uid();
        PlanBody body = [=](const Buffers& b) {
            void* y = b.at(oUid);
            if(b.at(inUid) != y)
            {
                const float zero = 0.f;
                checkMiopen(miopenTransformTensor_impl(h, &s, d.get(), b.at(inUid), &zero, outDesc.get(), y),
                            "miopenTransformTensor_impl");
                return;
            }
            checkMiopen(miopenScaleTensor_impl(h, outDesc.get(), y, sBytes.data()), "miopenScaleTensor_impl");
        };
        return std::make_unique<MiopenPlan>(ctx.handle, 0, "scale tensor", std::move(body));
    }
    // ---- C = op(alpha1 A, alpha2 B) + beta C: OpTensor ----
    if(isTensorOp(mode) && node->in_1_tensor_uid().has_value() && !node->in_2_tensor_uid().has_value())
    {
        declineIf(scaled, "a scale after the tensor op has no MIOpen OpTensor argument");
        int64_t aUid = 0, bUid = 0;
        float a1 = 1.f, a2 = 1.f;
        pg.operand(node->in_0_tensor_uid(), aUid, a1);
        pg.operand(*node->in_1_tensor_uid(), bUid, a2);
        declineIf(pg.used() != pg.count(), "the pointwise graph has nodes outside the op-tensor pattern");
        const auto& a = pg.tensor(aUid);
        const auto& bt = pg.tensor(bUid);
        const auto dims = vec(out.dims());
        declineIf(vec(a.dims()) != dims, "op tensor: A's dims differ from the output's (MIOpen broadcasts B only)");
        const auto bDims = vec(bt.dims());
        declineIf(bDims.size() != dims.size(), "op tensor: B's rank differs from the output's");
        for(size_t i = 0; i < dims.size(); ++i)
        {
            declineIf(bDims[i] != 1 && bDims[i] != dims[i], "op tensor: B is not broadcastable to the output");
        }
        declineIf(miopenType(a) != type || miopenType(bt) != type, "op tensor: A, B and C have one data type in MIOpen");
        const TensorDesc ad = tensorDesc(a), bd = tensorDesc(bt);
        const miopenTensorOp_t op = tensorOpOf(mode);
        const std::optional<int64_t> pUid = priorUid;
        PlanBody body = [=](const Buffers& b) {
            if(pUid)
            {
                priorIntoOutput(h, b, *pUid, *priorDesc, oUid, outDesc, {aUid, bUid});
            }
            checkMiopen(miopenOpTensor_impl(h, op, &a1, ad.get(), b.at(aUid), &a2, bd.get(), b.at(bUid), &beta,
                                            outDesc.get(), b.at(oUid)),
                        "miopenOpTensor_impl");
        };
        return std::make_unique<MiopenPlan>(ctx.handle, 0,
                                            std::string("op tensor ") + dobj::EnumNamePointwiseMode(mode),
                                            std::move(body));
    }
    // ---- activations ----
    const Activation act = activationFor(*node, true);
    declineIf(pg.used() != pg.count(), "the pointwise graph has nodes outside the activation pattern");
    const ActivationDesc desc = createActivationDesc();
    checkMiopen(miopenSetActivationDescriptor_impl(desc.get(), act.mode, act.alpha, act.beta, act.gamma),
                "miopenSetActivationDescriptor_impl", HIPDNN_PLUGIN_STATUS_NOT_APPLICABLE);
    const std::optional<int64_t> pUid = priorUid;
    if(!act.backward)
    {
        declineIf(node->in_1_tensor_uid().has_value() || node->in_2_tensor_uid().has_value(),
                  "pointwise " + act.text + " with several inputs is not an activation");
        const auto& in = pg.tensor(node->in_0_tensor_uid());
        declineIf(!pg.isBuffer(in.uid()), "the activation's input is a buffer of the variant pack");
        declineIf(vec(in.dims()) != vec(out.dims()), "pointwise input and output dims differ (no broadcast here)");
        const TensorDesc xd = tensorDesc(in);
        const int64_t xUid = in.uid();
        PlanBody body = [=](const Buffers& b) {
            if(pUid)
            {
                priorIntoOutput(h, b, *pUid, *priorDesc, oUid, outDesc, {xUid});
            }
            checkMiopen(miopenActivationForward_impl(h, desc.get(), &alpha, xd.get(), b.at(xUid), &beta, outDesc.get(),
                                                     b.at(oUid)),
                        "miopenActivationForward_impl");
        };
        return std::make_unique<MiopenPlan>(ctx.handle, 0, "activation " + act.text, std::move(body));
    }
    declineIf(!node->in_1_tensor_uid().has_value() || node->in_2_tensor_uid().has_value(),
              "pointwise " + act.text + " needs exactly two inputs (dy, x)");
    const auto& dy = pg.tensor(node->in_0_tensor_uid());
    const auto& x = pg.tensor(*node->in_1_tensor_uid());
    declineIf(!pg.isBuffer(dy.uid()) || !pg.isBuffer(x.uid()), "the activation's inputs are buffers of the variant pack");
    const auto dims = vec(x.dims());
    declineIf(vec(dy.dims()) != dims || vec(out.dims()) != dims, "pointwise dy, x and dx dims differ (no broadcast here)");
    const TensorDesc dyd = tensorDesc(dy), xd = tensorDesc(x);
    const TensorDesc yd = packedDesc(dims, miopenType(x)); // the forward output, in the workspace
    size_t ws = elementSize(miopenType(x));
    for(int64_t d : dims)
    {
        ws *= static_cast<size_t>(d);
    }
    const int64_t dyUid = dy.uid(), xUid = x.uid();
    PlanBody body = [=](const Buffers& b) {
        if(pUid)
        {
            priorIntoOutput(h, b, *pUid, *priorDesc, oUid, outDesc, {dyUid, xUid});
        }
        const float one = 1.f, zero = 0.f;
        checkMiopen(miopenActivationForward_impl(h, desc.get(), &one, xd.get(), b.at(xUid), &zero, yd.get(),
                                                 b.workspace()),
                    "miopenActivationForward_impl");
        checkMiopen(miopenActivationBackward_impl(h, desc.get(), &alpha, yd.get(), b.workspace(), dyd.get(),
                                                  b.at(dyUid), xd.get(), b.at(xUid), &beta, outDesc.get(), b.at(oUid)),
                    "miopenActivationBackward_impl");
    };
    return std::make_unique<MiopenPlan>(ctx.handle, ws, "activation " + act.text, std::move(body));
}

} // namespace miopen_provider
