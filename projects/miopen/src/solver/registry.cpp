// The solver registry: every solver once, in the order a heuristic choice walks them.
//
//   1. 1x1 GEMM solvers (no im2col: the GEMM reads the tensors directly),
//   2. Winograd F(4x4,3x3), then F(2x2,3x3) (3x3 stride 1: fewest multiplications); for backward
//      weights the Winograd solvers 1002 (F(4x4)) then 1003 (F(2x2)),
//   3. the general GEMM solvers (im2col/col2im fused into the packed GEMM engine, and the
//      phase-grid solvers 1201-1203, in the order gemmSolvers() gives),
//   4. the OpenBLAS im2col/col2im + GEMM solvers (1101..1108: the same roles on the library BLAS,
//      slower here because OpenBLAS 0.3.21 runs AVX2 kernels on this CPU; kept as the
//      BLAS-based reference path and for CPUs where the packed engine has no fast kernel),
//   5. the naive direct solvers (cover everything, slowest).
#include <miopen/conv/solver.hpp>
#include <miopen/conv/solvers.hpp>
#include <miopen/env.hpp>
#include <miopen/errors.hpp>
#include <miopen/logger.hpp>

#include "isa.hpp"

#include <array>
#include <set>
#include <string>
#include <utility>

namespace miopen {
namespace conv {
namespace {

bool isGemm1x1(const Solver* s)
{
    switch(s->id())
    {
    case 88:  // GemmFwd1x1_0_1
    case 90:  // GemmFwd1x1_0_2
    case 95:  // GemmBwd1x1_stride2
    case 96:  // GemmBwd1x1_stride1
    case 101: // GemmWrw1x1_stride1
        return true;
    default: return false;
    }
}

std::vector<const Solver*> buildRegistry()
{
    const std::vector<const Solver*> gemm     = gemmSolvers();
    const std::vector<const Solver*> winograd = winogradSolvers();
    const std::vector<const Solver*> naive    = naiveSolvers();
    const std::vector<const Solver*> blas     = blasGemmSolvers();

    std::vector<const Solver*> all;
    for(const Solver* s : gemm)
        if(isGemm1x1(s))
            all.push_back(s);
    // Winograd: the larger output tile first (F(4x4,3x3) has id 1001, F(2x2,3x3) id 84; backward
    // weights: 1002 F(4x4), then 1003 F(2x2), in winogradSolvers() order).
    for(const Solver* s : winograd)
        if(s->id() == 1001)
            all.push_back(s);
    for(const Solver* s : winograd)
        if(s->id() != 1001)
            all.push_back(s);
    for(const Solver* s : gemm)
        if(!isGemm1x1(s))
            all.push_back(s);
    for(const Solver* s : blas)
        all.push_back(s);
    for(const Solver* s : naive)
        all.push_back(s);

    // Identities must be unique: a duplicate would make find-db records ambiguous.
    std::set<std::uint64_t> ids;
    std::set<std::string> names;
    for(const Solver* s : all)
    {
        if(!ids.insert(s->id()).second)
            fail(miopenStatusInternalError, "duplicate solver id " + std::to_string(s->id()));
        if(!names.insert(s->name()).second)
            fail(miopenStatusInternalError, std::string("duplicate solver name ") + s->name());
    }
    return all;
}

} // namespace

const std::vector<const Solver*>& solverRegistry()
{
    static const std::vector<const Solver*> registry = buildRegistry();
    return registry;
}

const std::vector<const Solver*>& solversFor(Direction d)
{
    static const std::array<std::vector<const Solver*>, 3> lists = [] {
        std::array<std::vector<const Solver*>, 3> l;
        const Direction all[] = {Direction::Forward, Direction::BackwardData, Direction::BackwardWeights};
        for(std::size_t i = 0; i < l.size(); ++i)
            for(const Solver* s : solverRegistry())
                if(s->computes(all[i]))
                    l[i].push_back(s);
        return l;
    }();
    switch(d)
    {
    case Direction::Forward: return lists[0];
    case Direction::BackwardData: return lists[1];
    case Direction::BackwardWeights: return lists[2];
    }
    return lists[0];
}

const Solver* findSolver(std::uint64_t id)
{
    for(const Solver* s : solverRegistry())
        if(s->id() == id)
            return s;
    return nullptr;
}

const Solver* findSolver(const std::string& name)
{
    for(const Solver* s : solverRegistry())
        if(name == s->name())
            return s;
    return nullptr;
}

const char* solverDisabledBy(const Solver& solver) noexcept
{
    // One flag per algorithm value (miopenConvAlgorithm_t 0..5), read once.
    static const std::array<const char*, 6> disabledBy = [] {
        std::array<const char*, 6> d{};
        const std::pair<miopenConvAlgorithm_t, const char*> kSwitches[] = {
            {miopenConvolutionAlgoGEMM, "MIOPEN_DEBUG_CONV_GEMM"},
            {miopenConvolutionAlgoDirect, "MIOPEN_DEBUG_CONV_DIRECT"},
            {miopenConvolutionAlgoFFT, "MIOPEN_DEBUG_CONV_FFT"},
            {miopenConvolutionAlgoWinograd, "MIOPEN_DEBUG_CONV_WINOGRAD"},
            {miopenConvolutionAlgoImplicitGEMM, "MIOPEN_DEBUG_CONV_IMPLICIT_GEMM"}};
        for(const auto& [algo, var] : kSwitches)
            if(!env::boolean(var, true))
                d[static_cast<std::size_t>(algo)] = var;
        return d;
    }();
    const auto a = static_cast<std::size_t>(solver.algorithm());
    return a < disabledBy.size() ? disabledBy[a] : nullptr;
}

bool findAllowsSolver(const Solver& solver)
{
    struct OnlyList
    {
        bool set = false;
        std::set<const Solver*> solvers;
    };
    static const OnlyList only = [] {
        OnlyList o;
        const auto v = env::raw("MIOPEN_DEBUG_FIND_ONLY_SOLVER");
        if(!v || v->empty())
            return o;
        o.set = true;
        std::size_t start = 0;
        while(start <= v->size())
        {
            const std::size_t end = v->find_first_of(";,", start);
            const std::string item = v->substr(start, end == std::string::npos ? std::string::npos : end - start);
            if(!item.empty())
            {
                const Solver* s = nullptr;
                if(item.find_first_not_of("0123456789") == std::string::npos && item.size() <= 18)
                    s = findSolver(static_cast<std::uint64_t>(std::stoull(item)));
                if(s == nullptr)
                    s = findSolver(item);
                if(s == nullptr)
                    MIOPEN_LOG_W("MIOPEN_DEBUG_FIND_ONLY_SOLVER names '" << item << "', which is not a solver; ignored");
                else
                    o.solvers.insert(s);
            }
            if(end == std::string::npos)
                break;
            start = end + 1;
        }
        return o;
    }();
    return !only.set || only.solvers.count(&solver) != 0;
}

std::vector<const Solver*> applicableSolvers(const ProblemDescription& problem)
{
    std::vector<const Solver*> result;
    const bool deterministic = problem.isDeterministic();
    for(const Solver* s : solversFor(problem.direction()))
    {
        if(const char* var = solverDisabledBy(*s))
        {
            MIOPEN_LOG_I2(s->name() << ": disabled by " << var);
            continue;
        }
        const Applicability a = s->isApplicable(problem);
        if(!a)
        {
            MIOPEN_LOG_I2(s->name() << ": " << a.reason);
            continue;
        }
        if(deterministic && !s->isDeterministic())
        {
            MIOPEN_LOG_I2(s->name() << ": not deterministic, and the problem asks for determinism");
            continue;
        }
        result.push_back(s);
    }
    return result;
}

std::string cpuKernelSummary()
{
    const auto forced = env::raw("MIOPEN_DEBUG_CONV_CPU_ISA");
    return std::string("cpu kernels: ") + detail::isaName(detail::selectedIsa()) +
           " (CPU: " + detail::isaName(detail::cpuIsa()) + ", MIOPEN_DEBUG_CONV_CPU_ISA " +
           (forced ? "=" + *forced : std::string("unset")) + ")";
}

} // namespace conv
} // namespace miopen
