// Convolution operations behind the C API: problem construction from the public descriptors,
// solver choice, Find, execution with alpha/beta, immediate mode, bias, driver-command logging.
#pragma once

#include <miopen/conv/problem.hpp>
#include <miopen/conv/solver.hpp>
#include <miopen/convolution.hpp>
#include <miopen/handle.hpp>
#include <miopen/tensor.hpp>

#include <cstdint>
#include <optional>
#include <vector>

namespace miopen {
namespace conv {

// The public call's direction (MIOpenDriver's -F values: 1, 2, 4).
enum class ApiDirection
{
    Forward         = 1,
    BackwardData    = 2,
    BackwardWeights = 4,
};

// A public call's problem: descriptors as the caller named them (x, w, y: for backward data,
// x is dx and y is dy; for backward weights, w is dw), and its mapping to a regular problem
// (a transpose convolution exchanges the roles of input and output).
class ApiProblem
{
public:
    ApiProblem(ApiDirection dir,
               const TensorDescriptor& x,
               const TensorDescriptor& w,
               const TensorDescriptor& y,
               const ConvolutionDescriptor& conv);

    ApiDirection direction() const noexcept { return _dir; }
    const ProblemDescription& problem() const noexcept { return _problem; }
    const ConvolutionDescriptor& conv() const noexcept { return _conv; }
    const TensorDescriptor& x() const noexcept { return _x; }
    const TensorDescriptor& w() const noexcept { return _w; }
    const TensorDescriptor& y() const noexcept { return _y; }

    // Regular-role buffers from the caller's x, w, y (the written one is non-const).
    ConvTensors tensors(const void* x, const void* w, const void* y, void* written) const;
    // Descriptor of the written tensor (y, dx or dw).
    const TensorDescriptor& writtenDesc() const noexcept;

    // "./bin/MIOpenDriver conv -n ... -F 1 -t 1" (MIOPEN_ENABLE_LOGGING_CMD).
    std::string driverCommand(std::optional<std::uint64_t> solverId) const;
    // The command without the executable. forConvDriver false: only the geometry flags
    // " -n ... -j 1 [--in_layout ...] -g 1" (leading space, no base argument, -m, -F or -t), as
    // upstream's fusion command (CBAInfer) appends them.
    std::string driverArgs(bool forConvDriver, std::optional<std::uint64_t> solverId) const;
    void logDriverCommand(const char* tag, std::optional<std::uint64_t> solverId) const;

private:
    ApiDirection _dir;
    TensorDescriptor _x, _w, _y;
    ConvolutionDescriptor _conv;
    ProblemDescription _problem;
};

// Maximum workspace over the applicable solvers.
std::size_t workspaceSize(const ProblemDescription& problem);

// Immediate mode: applicable solutions, fastest first (find-db times where recorded, otherwise
// the documented heuristic estimate).
std::vector<miopenConvSolution_t> solutions(const ProblemDescription& problem);
// The solver for `id` if it exists and applies to `problem`; else throws BadParm with the reason.
const Solver& applicableSolver(const ProblemDescription& problem, std::uint64_t id);
void runSolver(const Handle& handle,
               const Solver& solver,
               const ProblemDescription& problem,
               const ConvTensors& tensors,
               void* workspace,
               std::size_t workspaceBytes);

struct FindResult
{
    const Solver* solver;
    float timeMs;
    std::size_t workspace;
};

// Find: benchmarks (or, per find mode, looks up) the applicable solvers that fit in the given
// workspace; returns the fastest solver of each algorithm, fastest first. Records the result in
// the user find-db.
std::vector<FindResult> find(const Handle& handle,
                             const ApiProblem& api,
                             const ConvTensors& tensors,
                             void* workspace,
                             std::size_t workspaceBytes,
                             bool exhaustive);

// Executes written = alpha * conv + beta * written with the preferred applicable solver of
// `algorithm` that fits the workspace (find-db choice first, then registry order).
void execute(const Handle& handle,
             const ApiProblem& api,
             miopenConvAlgorithm_t algorithm,
             const ConvTensors& tensors,
             float alpha,
             float beta,
             void* workspace,
             std::size_t workspaceBytes);

// y = alpha * b + beta * y, b of shape (1, K, 1, 1[, 1]) (or K elements) broadcast over y.
void forwardBias(const Handle& handle,
                 float alpha,
                 const TensorDescriptor& bDesc,
                 const void* b,
                 float beta,
                 const TensorDescriptor& yDesc,
                 void* y);
// db = alpha * sum_{n, spatial} dy + beta * db.
void backwardBias(const Handle& handle,
                  float alpha,
                  const TensorDescriptor& dyDesc,
                  const void* dy,
                  float beta,
                  const TensorDescriptor& dbDesc,
                  void* db);

const char* algorithmName(ApiDirection dir, miopenConvAlgorithm_t algo); // upstream enum names

} // namespace conv
} // namespace miopen
