// Recognition of the softmax composite (hipDNN has no softmax node): the exact reduction +
// pointwise node sequences below, as MIOpen Public builds them for miopenSoftmax*
// (projects/miopen/wrapper/src/forwarding_softmax.cpp), so an engine with a softmax primitive can
// run the whole graph as one. A = x (forward) or y (backward), B = dy; #k = node k's output; the
// reductions keep the rank with 1 over the softmax axes and the pointwise nodes broadcast them.
//   forward FAST      EXP(A); REDUCE ADD(#0); DIV(#0, #1)
//   forward ACCURATE  REDUCE MAX(A); SUB(A, #0); EXP(#1); REDUCE ADD(#2); DIV(#2, #3)
//   forward LOG       REDUCE MAX(A); SUB(A, #0); EXP(#1); REDUCE ADD(#2); LOG(#3); SUB(#1, #4)
//   backward          MUL(B, A); REDUCE ADD(#0); SUB(B, #1); MUL(A, #2)      (ACCURATE and FAST)
//   backward LOG      REDUCE ADD(B); EXP(A); MUL(#1, #0); SUB(B, #2)
// The softmax axes: C alone (CHANNEL) or every dimension but N (INSTANCE); when the spatial
// dimensions are all 1 the two are the same and CHANNEL is reported. The last node's output is the
// graph's output; every other node output is virtual.
#pragma once

#include <hipdnn_plugin_sdk/GraphView.hpp>

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace hipdnn_plugin_sdk
{

struct SoftmaxComposite
{
    enum class Algorithm
    {
        Fast,
        Accurate,
        Log,
    };
    bool backward = false;
    Algorithm algorithm = Algorithm::Accurate; // backward: Accurate stands for FAST too (one formula)
    bool instance = false;                     // INSTANCE (every dimension but N) or CHANNEL (C)
    int64_t aUid = 0;                          // x (forward) or y (backward)
    int64_t bUid = 0;                          // dy (backward)
    int64_t outUid = 0;                        // y (forward) or dx (backward)
};

namespace softmax_detail
{

namespace dobj = hipdnn_data_sdk::data_objects;

constexpr int kA = -1, kB = -2, kNone = -3;

struct Step
{
    bool reduce;
    int op; // dobj::ReductionMode or dobj::PointwiseMode
    int in0, in1;
};

struct Pattern
{
    bool backward;
    SoftmaxComposite::Algorithm algorithm;
    std::vector<Step> steps;
};

inline const std::vector<Pattern>& patterns()
{
    using PM = dobj::PointwiseMode;
    using RM = dobj::ReductionMode;
    using Alg = SoftmaxComposite::Algorithm;
    auto p = [](PM m, int a, int b = kNone) { return Step{false, static_cast<int>(m), a, b}; };
    auto r = [](RM m, int a) { return Step{true, static_cast<int>(m), a, kNone}; };
    static const std::vector<Pattern> kPatterns = {
        {false, Alg::Fast, {p(PM::EXP, kA), r(RM::ADD, 0), p(PM::DIV, 0, 1)}},
        {false, Alg::Accurate, {r(RM::MAX_OP, kA), p(PM::SUB, kA, 0), p(PM::EXP, 1), r(RM::ADD, 2), p(PM::DIV, 2, 3)}},
        {false, Alg::Log,
         {r(RM::MAX_OP, kA), p(PM::SUB, kA, 0), p(PM::EXP, 1), r(RM::ADD, 2), p(PM::LOG, 3), p(PM::SUB, 1, 4)}},
        {true, Alg::Accurate, {p(PM::MUL, kB, kA), r(RM::ADD, 0), p(PM::SUB, kB, 1), p(PM::MUL, kA, 2)}},
        {true, Alg::Log, {r(RM::ADD, kB), p(PM::EXP, kA), p(PM::MUL, 1, 0), p(PM::SUB, kB, 2)}},
    };
    return kPatterns;
}

inline std::vector<int64_t> dimsOf(const dobj::TensorAttributes& t)
{
    return t.dims() == nullptr ? std::vector<int64_t>{} : std::vector<int64_t>(t.dims()->begin(), t.dims()->end());
}

inline bool matches(const GraphView& g, const Pattern& pat, SoftmaxComposite& out, std::string& why)
{
    if(g.nodeCount() != pat.steps.size())
    {
        why = "node count";
        return false;
    }
    std::optional<int64_t> a, b;
    std::vector<int64_t> outputs;
    std::vector<int64_t> reducedDims;
    auto bindInput = [&](int ref, int64_t uid) {
        if(ref >= 0)
            return static_cast<size_t>(ref) < outputs.size() && outputs[static_cast<size_t>(ref)] == uid;
        auto& slot = ref == kA ? a : b;
        for(int64_t o : outputs)
            if(o == uid)
                return false;
        if(!slot)
            slot = uid;
        return *slot == uid;
    };
    for(size_t i = 0; i < pat.steps.size(); ++i)
    {
        const Step& s = pat.steps[i];
        const auto& node = g.node(i);
        int64_t o = 0;
        if(s.reduce)
        {
            const auto* r = node.attributes_as_ReductionAttributes();
            if(r == nullptr || static_cast<int>(r->mode()) != s.op || !bindInput(s.in0, r->in_tensor_uid()))
            {
                why = "node " + std::to_string(i);
                return false;
            }
            o = r->out_tensor_uid();
            const auto d = dimsOf(g.tensor(o));
            if(!reducedDims.empty() && d != reducedDims)
            {
                why = "the reductions differ in shape";
                return false;
            }
            reducedDims = d;
        }
        else
        {
            const auto* pw = node.attributes_as_PointwiseAttributes();
            if(pw == nullptr || static_cast<int>(pw->operation()) != s.op || pw->in_2_tensor_uid().has_value()
               || !bindInput(s.in0, pw->in_0_tensor_uid())
               || (s.in1 == kNone ? pw->in_1_tensor_uid().has_value()
                                  : !pw->in_1_tensor_uid().has_value() || !bindInput(s.in1, *pw->in_1_tensor_uid())))
            {
                why = "node " + std::to_string(i);
                return false;
            }
            o = pw->out_0_tensor_uid();
        }
        const bool last = i + 1 == pat.steps.size();
        if(g.tensor(o).virtual_() == last)
        {
            why = "node " + std::to_string(i) + (last ? "'s output is virtual" : "'s output is not virtual");
            return false;
        }
        outputs.push_back(o);
    }
    if(!a || (pat.backward && (!b || *a == *b)))
    {
        why = "inputs";
        return false;
    }
    // Every full-size tensor has the output's dims; the reductions 1 over the softmax axes.
    const auto full = dimsOf(g.tensor(outputs.back()));
    if(full.size() < 2 || dimsOf(g.tensor(*a)) != full || (b && dimsOf(g.tensor(*b)) != full))
    {
        why = "the inputs and the output differ in dims (or rank < 2)";
        return false;
    }
    auto channel = full, instance = full;
    channel[1] = 1;
    for(size_t i = 1; i < instance.size(); ++i)
        instance[i] = 1;
    if(reducedDims != channel && reducedDims != instance)
    {
        why = "the reductions are not over C (CHANNEL) or every dimension but N (INSTANCE)";
        return false;
    }
    out.backward = pat.backward;
    out.algorithm = pat.algorithm;
    out.instance = reducedDims != channel;
    out.aUid = *a;
    out.bUid = b.value_or(0);
    out.outUid = outputs.back();
    return true;
}

} // namespace softmax_detail

/// The softmax composite `graph` is, or nullopt with `whyNot` saying why not (for an engine's
/// decline message).
inline std::optional<SoftmaxComposite> matchSoftmaxComposite(const GraphView& graph, std::string& whyNot)
{
    std::string last;
    for(const auto& pat : softmax_detail::patterns())
    {
        SoftmaxComposite c;
        std::string why;
        if(softmax_detail::matches(graph, pat, c, why))
            return c;
        if(why != "node count" && why.rfind("node ", 0) != 0)
            last = why;
    }
    whyNot = last.empty() ? "not one of the softmax composites (reduction + pointwise node sequences of "
                            "hipdnn_plugin_sdk/SoftmaxComposite.hpp)"
                          : "softmax composite: " + last;
    return std::nullopt;
}

} // namespace hipdnn_plugin_sdk
