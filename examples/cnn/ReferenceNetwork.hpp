// A plain-loop forward pass of the whole Network (convolution, batchnorm, ReLU, pooling, residual
// add, classifier), written here independently of the library: it reads the network's shapes
// and copies its parameters back with hipMemcpy, and computes the logits in double.
#pragma once

#include "Network.hpp"

#include <vector>

namespace cnn {

// Logits (N x classes) of the network for the given images. batchStatistics: batchnorm
// normalises with the batch's own mean and biased variance (training mode) instead of the
// running statistics (inference mode).
std::vector<double> referenceLogits(Network& net, const std::vector<float>& images, bool batchStatistics);

} // namespace cnn
