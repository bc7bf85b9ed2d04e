// The engine-independent graph cases: each kind (e.g. "conv_fprop.asym_pad", "conv_bias_act.gelu",
// "batchnorm_training.nhwc", "pointwise.exp") in each data type, a few seeded random samples of
// small shape (HIPDNN_GLOBAL_TEST_SEED), each built through the hipDNN frontend and checked
// against the test SDK's CPU references with per-dtype tolerances.
#pragma once

#include "EngineConfig.hpp"

#include <hipdnn_frontend.hpp>

#include <functional>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

namespace integration_tests
{

/// One random sample of a case: its graph (not yet built), host tensors, and the check.
class CaseSample
{
public:
    virtual ~CaseSample() = default;
    hipdnn_frontend::graph::Graph& graph() { return _graph; }
    /// Shape, layout and seed, for failure messages.
    const std::string& text() const { return _text; }
    /// Tensor -> host memory for execute().
    virtual std::unordered_map<hipdnn_frontend::graph::TensorPtr, void*> variantPack() = 0;
    /// Compares the engine's outputs with the references (gtest EXPECTs).
    virtual void check() = 0;

protected:
    hipdnn_frontend::graph::Graph _graph;
    std::string _text;
};

struct GraphCase
{
    std::string kind;
    DType dtype = DType::Fp32;
    int samples = 1;
    /// Builds sample `index` (0 <= index < samples).
    std::function<std::unique_ptr<CaseSample>(int index)> make;

    /// "<kind with '.' as '_'>__<dtype>", a valid gtest name part.
    std::string testName() const;
};

/// Every case of the suite (stable order).
const std::vector<GraphCase>& allGraphCases();

/// Every kind name of the suite (each once).
std::vector<std::string> allGraphKinds();

} // namespace integration_tests
