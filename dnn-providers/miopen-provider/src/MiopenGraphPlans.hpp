// The MIOpen provider's one entry into graph analysis: a plan for the graph, or the reason the
// provider declines it. Accepted graphs (fp32, fp16, bf16 tensors; FLOAT compute):
//   conv_fprop, conv_dgrad, conv_wgrad (immediate mode, a DB-free solution choice),
//   conv_fprop -> [pointwise ADD bias] -> [activation] (MIOpen fusion plan),
//   batchnorm inference / training / backward, a standalone activation (forward or
//   backward), and resample (pooling) forward / backward, 2-D and 3-D (PoolingPlans.cpp).
//   Reduction graphs are declined: MIOpen Private has no miopenReduceTensor_impl. MIOPEN_ENGINE_DETERMINISTIC runs the convolution kinds only, with MIOpen's
//   deterministic attribute set.
#pragma once

#include "MiopenPlan.hpp"

#include <hipdnn_plugin_sdk/GraphView.hpp>

#include <memory>
#include <string>

namespace miopen_provider
{

/// The plan of `graph`; null with `whyNot` set when the provider does not run it. Never throws
/// for a verified graph (MIOpen failures while building become declines with MIOpen's status).
std::unique_ptr<MiopenPlan> buildMiopenPlan(const hipdnn_plugin_sdk::GraphView& graph, bool deterministic,
                                            std::string& whyNot);

} // namespace miopen_provider
