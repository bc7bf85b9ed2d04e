// Convolution solvers: stateless objects with applicability (and a reason when they decline),
// workspace size and execution. Ids and names are stable: upstream's where the role matches
// (naive 85/86/87, GEMM 88..102, Winograd 84), new ones from the reserved range 1000..1999.
// Never derive an id from a class name.
#pragma once

#include <miopen/conv/problem.hpp>
#include <miopen/handle.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace miopen {
namespace conv {

// Why a solver declines, or empty when it applies.
struct Applicability
{
    bool applicable = true;
    std::string reason;
    static Applicability yes() { return {}; }
    static Applicability no(std::string why) { return {false, std::move(why)}; }
    explicit operator bool() const noexcept { return applicable; }
};

class Solver
{
public:
    virtual ~Solver() = default;
    virtual std::uint64_t id() const noexcept            = 0;
    virtual const char* name() const noexcept            = 0;
    virtual miopenConvAlgorithm_t algorithm() const noexcept = 0;
    // The directions it computes (its place in solversFor's lists); isApplicable declines the others.
    virtual bool computes(Direction d) const noexcept = 0;
    // Checks everything `run` relies on: direction, data type, layout, geometry.
    virtual Applicability isApplicable(const ProblemDescription& problem) const = 0;
    virtual std::size_t workspaceSize(const ProblemDescription& problem) const = 0;
    // Bitwise-reproducible from run to run (honours the DETERMINISTIC attribute).
    virtual bool isDeterministic() const noexcept { return true; }
    // Computes the written tensor with beta = 0 semantics (the result overwrites it). The
    // workspace holds at least workspaceSize(problem) bytes. Throws on failure.
    virtual void run(const Handle& handle,
                     const ProblemDescription& problem,
                     const ConvTensors& tensors,
                     void* workspace,
                     std::size_t workspaceBytes) const = 0;
};

// Every solver in preference order (the order a heuristic choice walks).
const std::vector<const Solver*>& solverRegistry();

// The ordered solver list of one direction: the registry's solvers that compute it, in registry
// order (upstream keeps one list per direction as well).
const std::vector<const Solver*>& solversFor(Direction d);

// The solver with this id, or nullptr.
const Solver* findSolver(std::uint64_t id);
const Solver* findSolver(const std::string& name);

// Applicable solvers for the problem: solversFor(its direction) filtered, in that order; each
// decline is logged at Info2 with its reason. Honours the deterministic attribute and the solver
// switches below.
std::vector<const Solver*> applicableSolvers(const ProblemDescription& problem);

// Upstream's algorithm switches, read once per process: MIOPEN_DEBUG_CONV_GEMM, _DIRECT,
// _WINOGRAD, _FFT, _IMPLICIT_GEMM set to a false boolean (0/off/no/false/disable/disabled) turn
// every solver of that algorithm off (not applicable, find-db records of it ignored). nullptr when
// the solver is enabled, else the name of the variable that disables it.
const char* solverDisabledBy(const Solver& solver) noexcept;

// MIOPEN_DEBUG_FIND_ONLY_SOLVER=<id|name>[;<id|name>...]: Find benchmarks and reports only the
// listed solvers (read once per process; unknown entries are warned about once and ignored).
// true when the variable is unset or lists the solver.
bool findAllowsSolver(const Solver& solver);

} // namespace conv
} // namespace miopen
