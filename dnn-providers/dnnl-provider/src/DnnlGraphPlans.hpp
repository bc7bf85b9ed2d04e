// The oneDNN provider's one entry into graph analysis: a plan for the graph, or the reason the
// provider declines it. Accepted graphs (fp32; bf16 where oneDNN has bf16 kernels on this CPU):
//   conv_fprop [-> pointwise ADD (bias or broadcast addend) / activation]*  (post-ops),
//   conv_dgrad, conv_wgrad, batchnorm inference / training / backward, a unary pointwise
//   activation, resample (pooling) forward without index and average-pooling backward, reduction
//   (ADD, MUL, MIN_OP, MAX_OP, AVG, NORM1, NORM2).
#pragma once

#include "DnnlPlan.hpp"

#include <hipdnn_plugin_sdk/GraphView.hpp>

#include <memory>
#include <string>

namespace dnnl_provider
{

/// The plan of `graph`; null with `whyNot` set when the provider does not run it. Never throws
/// for a verified graph (oneDNN failures become declines with oneDNN's message).
std::unique_ptr<DnnlPlan> buildDnnlPlan(const hipdnn_plugin_sdk::GraphView& graph, std::string& whyNot);

} // namespace dnnl_provider
