#include <miopen/conv/find_db.hpp>
#include <miopen/conv/operations.hpp>
#include <miopen/env.hpp>
#include <miopen/float_storage.hpp>
#include <miopen/logger.hpp>
#include <miopen/tensor_ops.hpp>
#include <miopen/threading.hpp>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <limits>
#include <map>
#include <sstream>

namespace miopen {
namespace conv {

namespace {

// ---- find controls (MIOPEN_FIND_MODE, MIOPEN_FIND_ENFORCE), read once per process ----------

enum class FindMode
{
    Normal        = 1,
    Fast          = 2,
    Hybrid        = 3,
    DynamicHybrid = 5,
};

enum class FindEnforce
{
    None           = 1,
    DbUpdate       = 2,
    Search         = 3,
    SearchDbUpdate = 4,
    DbClean        = 5,
};

std::string upper(std::string s)
{
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) {
        return static_cast<char>(std::toupper(c));
    });
    return s;
}

// nullopt: unset or invalid (the descriptor's mode applies).
std::optional<FindMode> envFindMode()
{
    static const std::optional<FindMode> mode = [] () -> std::optional<FindMode> {
        auto v = env::raw("MIOPEN_FIND_MODE");
        if(!v)
            return std::nullopt;
        const std::string s = upper(*v);
        if(s == "NORMAL" || s == "1")
            return FindMode::Normal;
        if(s == "FAST" || s == "2")
            return FindMode::Fast;
        if(s == "HYBRID" || s == "3")
            return FindMode::Hybrid;
        if(s == "DYNAMIC_HYBRID" || s == "5")
            return FindMode::DynamicHybrid;
        MIOPEN_LOG_W("Wrong MIOPEN_FIND_MODE, using default.");
        return std::nullopt;
    }();
    return mode;
}

FindEnforce envFindEnforce()
{
    static const FindEnforce enforce = [] {
        auto v = env::raw("MIOPEN_FIND_ENFORCE");
        if(!v)
            return FindEnforce::None;
        const std::string s = upper(*v);
        if(s == "NONE" || s == "1")
            return FindEnforce::None;
        if(s == "DB_UPDATE" || s == "2")
            return FindEnforce::DbUpdate;
        if(s == "SEARCH" || s == "3")
            return FindEnforce::Search;
        if(s == "SEARCH_DB_UPDATE" || s == "4")
            return FindEnforce::SearchDbUpdate;
        if(s == "DB_CLEAN" || s == "5")
            return FindEnforce::DbClean;
        MIOPEN_LOG_W("Wrong MIOPEN_FIND_ENFORCE, using NONE.");
        return FindEnforce::None;
    }();
    return enforce;
}

FindMode effectiveFindMode(const ConvolutionDescriptor& conv)
{
    if(auto m = envFindMode())
        return *m;
    switch(conv.findMode())
    {
    case 1: return FindMode::Normal;
    case 2: return FindMode::Fast;
    case 3: return FindMode::Hybrid;
    default: return FindMode::DynamicHybrid; // 5, and the trust-verify modes 6 and 7
    }
}

// Heuristic time estimate (ms) for immediate mode without a find-db record: the flop count at
// a nominal rate per algorithm family. Only the order matters; registry order breaks ties.
float estimateMs(const Solver& s, const ProblemDescription& p)
{
    double gflops = 2.0;
    switch(s.algorithm())
    {
    case miopenConvolutionAlgoWinograd: gflops = 80.0; break;
    case miopenConvolutionAlgoGEMM: gflops = 60.0; break;
    default: gflops = 2.0; break;
    }
    return static_cast<float>(p.flopCount() / (gflops * 1e6));
}

std::size_t registryIndex(const Solver* s)
{
    const auto& reg = solverRegistry();
    return static_cast<std::size_t>(std::find(reg.begin(), reg.end(), s) - reg.begin());
}

std::vector<FindDbEntry> toDbEntries(const std::vector<FindResult>& results, ApiDirection dir)
{
    std::vector<FindDbEntry> entries;
    for(const auto& r : results)
        entries.push_back({r.solver->name(), r.timeMs, r.workspace, algorithmName(dir, r.solver->algorithm())});
    return entries;
}

// Records of the find-db for this problem, as applicable solvers; nullopt on a miss.
std::optional<std::vector<FindResult>> lookupDb(const ProblemDescription& p)
{
    auto entries = FindDb().load(p.dbKey());
    if(!entries)
        return std::nullopt;
    std::vector<FindResult> out;
    for(const auto& e : *entries)
    {
        const Solver* s = findSolver(e.solver);
        if(s == nullptr)
        {
            MIOPEN_LOG_W("find-db names an unknown solver " << e.solver << "; record ignored");
            continue;
        }
        if(solverDisabledBy(*s) != nullptr || !s->isApplicable(p) || (p.isDeterministic() && !s->isDeterministic()))
            continue;
        out.push_back({s, e.timeMs, s->workspaceSize(p)});
    }
    if(out.empty())
        return std::nullopt;
    std::stable_sort(out.begin(), out.end(), [](const FindResult& a, const FindResult& b) { return a.timeMs < b.timeMs; });
    return out;
}

// Keeps the fastest entry per algorithm, fastest first.
std::vector<FindResult> bestPerAlgorithm(std::vector<FindResult> all)
{
    std::stable_sort(all.begin(), all.end(), [](const FindResult& a, const FindResult& b) { return a.timeMs < b.timeMs; });
    std::vector<FindResult> out;
    for(const auto& r : all)
    {
        const bool seen = std::any_of(out.begin(), out.end(), [&](const FindResult& o) {
            return o.solver->algorithm() == r.solver->algorithm();
        });
        if(!seen)
            out.push_back(r);
    }
    return out;
}

float timeRunMs(const Handle& h, const Solver& s, const ProblemDescription& p, const ConvTensors& t, void* ws, std::size_t wsBytes)
{
    const auto start = std::chrono::steady_clock::now();
    s.run(h, p, t, ws, wsBytes);
    return std::chrono::duration<float, std::milli>(std::chrono::steady_clock::now() - start).count();
}

std::vector<FindResult> benchmark(const Handle& h,
                                  const ProblemDescription& p,
                                  const ConvTensors& t,
                                  void* ws,
                                  std::size_t wsBytes)
{
    std::vector<FindResult> results; // the solvers to time, with their workspace sizes
    for(const Solver* s : applicableSolvers(p))
    {
        if(!findAllowsSolver(*s))
        {
            MIOPEN_LOG_I2(s->name() << ": skipped by Find, not in MIOPEN_DEBUG_FIND_ONLY_SOLVER");
            continue;
        }
        const std::size_t need = s->workspaceSize(p);
        if(need > wsBytes || (need > 0 && ws == nullptr))
        {
            MIOPEN_LOG_I2(s->name() << ": skipped by Find, needs " << need << " workspace bytes, given " << wsBytes);
            continue;
        }
        // One untimed run each (first touches of the buffers, state built lazily).
        timeRunMs(h, *s, p, t, ws, wsBytes);
        results.push_back({s, std::numeric_limits<float>::max(), need});
    }
    // Then the best of two timed runs each, in two rounds over the solvers, the second in reverse
    // order: a solver's runs are apart in time, so a disturbance of a few ms (another process, a
    // neighbour VM) slows one of them, not both. Back to back, both timed runs of one solver were
    // slowed: ResNet-50's 1x1 64->64 56x56 backward data, N=32, timed GemmBwd1x1_stride1 at 5.89
    // ms (2.7 ms undisturbed) and chose a 5.03 ms solver (benchmarks/README.md).
    for(int round = 0; round < 2; ++round)
        for(std::size_t k = 0; k < results.size(); ++k)
        {
            FindResult& r  = results[round == 0 ? k : results.size() - 1 - k];
            const float ms = timeRunMs(h, *r.solver, p, t, ws, wsBytes);
            MIOPEN_LOG_I2("Find round " << round + 1 << ": " << r.solver->name() << " " << ms << " ms");
            r.timeMs = std::min(r.timeMs, ms);
        }
    for(const FindResult& r : results)
        MIOPEN_LOG_I2(r.solver->name() << ": " << r.timeMs << " ms");
    return results;
}

} // namespace

const char* algorithmName(ApiDirection dir, miopenConvAlgorithm_t algo)
{
    switch(dir)
    {
    case ApiDirection::Forward:
        switch(algo)
        {
        case miopenConvolutionAlgoGEMM: return "miopenConvolutionFwdAlgoGEMM";
        case miopenConvolutionAlgoDirect: return "miopenConvolutionFwdAlgoDirect";
        case miopenConvolutionAlgoFFT: return "miopenConvolutionFwdAlgoFFT";
        case miopenConvolutionAlgoWinograd: return "miopenConvolutionFwdAlgoWinograd";
        case miopenConvolutionAlgoImplicitGEMM: return "miopenConvolutionFwdAlgoImplicitGEMM";
        }
        break;
    case ApiDirection::BackwardData:
        switch(algo)
        {
        case miopenConvolutionAlgoGEMM: return "miopenConvolutionBwdDataAlgoGEMM";
        case miopenConvolutionAlgoDirect: return "miopenConvolutionBwdDataAlgoDirect";
        case miopenConvolutionAlgoFFT: return "miopenConvolutionBwdDataAlgoFFT";
        case miopenConvolutionAlgoWinograd: return "miopenConvolutionBwdDataAlgoWinograd";
        case miopenConvolutionAlgoImplicitGEMM: return "miopenConvolutionBwdDataAlgoImplicitGEMM";
        }
        break;
    case ApiDirection::BackwardWeights:
        switch(algo)
        {
        case miopenConvolutionAlgoGEMM: return "miopenConvolutionBwdWeightsAlgoGEMM";
        case miopenConvolutionAlgoDirect: return "miopenConvolutionBwdWeightsAlgoDirect";
        case miopenConvolutionAlgoFFT: return "miopenConvolutionBwdWeightsAlgoFFT";
        case miopenConvolutionAlgoWinograd: return "miopenConvolutionBwdWeightsAlgoWinograd";
        case miopenConvolutionAlgoImplicitGEMM: return "miopenConvolutionBwdWeightsAlgoImplicitGEMM";
        }
        break;
    }
    return "miopenConvolutionAlgoUnknown";
}

// ---- ApiProblem -------------------------------------------------------------------------------

namespace {

Direction regularDirection(ApiDirection dir, bool transpose)
{
    switch(dir)
    {
    case ApiDirection::Forward: return transpose ? Direction::BackwardData : Direction::Forward;
    case ApiDirection::BackwardData: return transpose ? Direction::Forward : Direction::BackwardData;
    case ApiDirection::BackwardWeights: return Direction::BackwardWeights;
    }
    return Direction::Forward;
}

ProblemDescription makeRegular(ApiDirection dir,
                               const TensorDescriptor& x,
                               const TensorDescriptor& w,
                               const TensorDescriptor& y,
                               const ConvolutionDescriptor& conv)
{
    conv.checkSet("convDesc");
    x.checkSet("x tensor descriptor");
    w.checkSet("w tensor descriptor");
    y.checkSet("y tensor descriptor");
    const bool t = conv.isTranspose();
    if(t)
    {
        // The caller's output y must have the transpose convolution's output size.
        const auto expected = conv.forwardOutputLengths(x, w);
        if(expected != y.lens())
            fail(miopenStatusBadParm, "output tensor " + y.toString() +
                                          " does not match the transpose convolution's output size");
    }
    // Regular roles: the transpose convolution's output is the regular convolution's input.
    return ProblemDescription(t ? y : x, w, t ? x : y, conv, regularDirection(dir, t));
}

} // namespace

ApiProblem::ApiProblem(ApiDirection dir,
                       const TensorDescriptor& x,
                       const TensorDescriptor& w,
                       const TensorDescriptor& y,
                       const ConvolutionDescriptor& conv)
    : _dir(dir), _x(x), _w(w), _y(y), _conv(conv), _problem(makeRegular(dir, x, w, y, conv))
{
}

ConvTensors ApiProblem::tensors(const void* x, const void* w, const void* y, void* written) const
{
    const bool t = _conv.isTranspose();
    ConvTensors ct;
    ct.in  = t ? y : x;
    ct.out = t ? x : y;
    ct.wei = w;
    switch(_problem.direction())
    {
    case Direction::Forward: ct.outOut = written; break;
    case Direction::BackwardData: ct.inOut = written; break;
    case Direction::BackwardWeights: ct.weiOut = written; break;
    }
    return ct;
}

const TensorDescriptor& ApiProblem::writtenDesc() const noexcept
{
    switch(_dir)
    {
    case ApiDirection::Forward: return _y;
    case ApiDirection::BackwardData: return _x;
    case ApiDirection::BackwardWeights: return _w;
    }
    return _y;
}

std::string ApiProblem::driverCommand(std::optional<std::uint64_t> solverId) const
{
    return std::string(kDriverExecutable) + " " + driverArgs(true, solverId);
}

std::string ApiProblem::driverArgs(bool forConvDriver, std::optional<std::uint64_t> solverId) const
{
    std::ostringstream ss;
    if(forConvDriver)
    {
        switch(_x.type())
        {
        case miopenHalf: ss << "convfp16"; break;
        case miopenBFloat16: ss << "convbfp16"; break;
        case miopenInt8: ss << "convint8"; break;
        default: ss << "conv"; break;
        }
    }
    const auto& xl  = _x.lens();
    const auto& wl  = _w.lens();
    const auto& p   = _conv.pads();
    const auto& s   = _conv.strides();
    const auto& d   = _conv.dilations();
    const auto k    = _conv.isTranspose() ? wl[1] * static_cast<std::size_t>(_conv.groupCount()) : wl[0];
    const int sd    = _conv.spatialDim();
    const char* def = sd == 3 ? "NCDHW" : "NCHW";
    if(sd == 3)
    {
        ss << " -n " << xl[0] << " -c " << xl[1] << " --in_d " << xl[2] << " -H " << xl[3] << " -W " << xl[4]
           << " -k " << k << " --fil_d " << wl[2] << " -y " << wl[3] << " -x " << wl[4] << " --pad_d " << p[0]
           << " -p " << p[1] << " -q " << p[2] << " --conv_stride_d " << s[0] << " -u " << s[1] << " -v "
           << s[2] << " --dilation_d " << d[0] << " -l " << d[1] << " -j " << d[2] << " --spatial_dim 3";
    }
    else if(sd == 2)
    {
        ss << " -n " << xl[0] << " -c " << xl[1] << " -H " << xl[2] << " -W " << xl[3] << " -k " << k << " -y "
           << wl[2] << " -x " << wl[3] << " -p " << p[0] << " -q " << p[1] << " -u " << s[0] << " -v " << s[1]
           << " -l " << d[0] << " -j " << d[1];
    }
    else
    {
        // 1-D convolutions are expressed as 2-D ones with H = 1.
        ss << " -n " << xl[0] << " -c " << xl[1] << " -H 1 -W " << xl[2] << " -k " << k << " -y 1 -x " << wl[2]
           << " -p 0 -q " << p[0] << " -u 1 -v " << s[0] << " -l 1 -j " << d[0];
        def = "NCW";
    }
    if(_conv.isTranspose())
    {
        const auto& adj = _conv.transposeOutputPads();
        static const char* const kAdjFlags[3][3] = {{"-X"}, {"-Y", "-X"}, {"-%", "-Y", "-X"}};
        for(int i = 0; i < sd; ++i)
            if(adj[static_cast<std::size_t>(i)] != 0)
                ss << ' ' << kAdjFlags[sd - 1][i] << ' ' << adj[static_cast<std::size_t>(i)];
    }
    auto layout = [&](const TensorDescriptor& t) {
        const std::string l = t.layoutString();
        return l.empty() ? std::string(def) : l;
    };
    if(layout(_x) != def)
        ss << " --in_layout " << layout(_x);
    if(layout(_w) != def)
        ss << " --fil_layout " << layout(_w);
    if(layout(_y) != def)
        ss << " --out_layout " << layout(_y);
    if(forConvDriver)
        ss << " -m " << (_conv.isTranspose() ? "trans" : "conv");
    ss << " -g " << _conv.groupCount();
    if(forConvDriver)
        ss << " -F " << static_cast<int>(_dir) << " -t 1";
    if(solverId)
        ss << " -S " << *solverId;
    return ss.str();
}

void ApiProblem::logDriverCommand(const char* tag, std::optional<std::uint64_t> solverId) const
{
    if(!isCmdLoggingEnabled())
        return;
    ::miopen::logDriverCommand(tag, driverArgs(true, solverId));
}

// ---- queries, immediate mode ----------------------------------------------------------------

std::size_t workspaceSize(const ProblemDescription& problem)
{
    std::size_t ws = 0;
    for(const Solver* s : applicableSolvers(problem))
        ws = std::max(ws, s->workspaceSize(problem));
    return ws;
}

std::vector<miopenConvSolution_t> solutions(const ProblemDescription& problem)
{
    const auto recorded = lookupDb(problem);
    std::vector<std::pair<std::size_t, miopenConvSolution_t>> ranked;
    for(const Solver* s : applicableSolvers(problem))
    {
        float time = estimateMs(*s, problem);
        if(recorded)
            for(const auto& r : *recorded)
                if(r.solver == s)
                    time = r.timeMs;
        miopenConvSolution_t sol{};
        sol.time           = time;
        sol.workspace_size = s->workspaceSize(problem);
        sol.solution_id    = s->id();
        sol.algorithm      = s->algorithm();
        ranked.emplace_back(registryIndex(s), sol);
    }
    std::stable_sort(ranked.begin(), ranked.end(), [](const auto& a, const auto& b) {
        return a.second.time < b.second.time || (a.second.time == b.second.time && a.first < b.first);
    });
    std::vector<miopenConvSolution_t> out;
    for(const auto& r : ranked)
        out.push_back(r.second);
    return out;
}

const Solver& applicableSolver(const ProblemDescription& problem, std::uint64_t id)
{
    const Solver* s = findSolver(id);
    if(s == nullptr)
        fail(miopenStatusBadParm, "unknown solution id " + std::to_string(id));
    if(const char* var = solverDisabledBy(*s))
        fail(miopenStatusBadParm, std::string("solution ") + s->name() + " is disabled by " + var);
    const auto a = s->isApplicable(problem);
    if(!a)
        fail(miopenStatusBadParm, std::string("solution ") + s->name() + " does not apply: " + a.reason);
    if(problem.isDeterministic() && !s->isDeterministic())
        fail(miopenStatusBadParm, std::string("solution ") + s->name() + " is not deterministic");
    return *s;
}

void runSolver(const Handle& handle,
               const Solver& solver,
               const ProblemDescription& problem,
               const ConvTensors& tensors,
               void* workspace,
               std::size_t workspaceBytes)
{
    const std::size_t need = solver.workspaceSize(problem);
    if(need > workspaceBytes || (need > 0 && workspace == nullptr))
        fail(miopenStatusBadParm, std::string(solver.name()) + " needs " + std::to_string(need) +
                                      " workspace bytes, given " + std::to_string(workspaceBytes));
    MIOPEN_LOG_I2(solver.name() << " runs " << directionName(problem.direction()) << " " << problem.dbKey());
    solver.run(handle, problem, tensors, workspace, workspaceBytes);
}

// ---- Find ---------------------------------------------------------------------------------------

std::vector<FindResult> find(const Handle& handle,
                             const ApiProblem& api,
                             const ConvTensors& tensors,
                             void* workspace,
                             std::size_t workspaceBytes,
                             bool exhaustive)
{
    const auto& p          = api.problem();
    const FindMode mode    = effectiveFindMode(api.conv());
    const FindEnforce enf  = envFindEnforce();
    const std::string key  = p.dbKey();
    FindDb db;

    if(enf == FindEnforce::DbClean)
        db.store(key, {}); // an empty record set removes the key

    // The CPU solvers have no tuning parameters: exhaustive search and SEARCH enforce benchmark
    // like Normal mode does.
    const bool mustBenchmark = exhaustive || mode == FindMode::Normal || enf == FindEnforce::DbUpdate ||
                               enf == FindEnforce::Search || enf == FindEnforce::SearchDbUpdate;
    if(!mustBenchmark)
    {
        if(auto hit = lookupDb(p))
        {
            std::vector<FindResult> fitting;
            for(const auto& r : *hit)
                if(r.workspace <= workspaceBytes && findAllowsSolver(*r.solver))
                    fitting.push_back(r);
            if(!fitting.empty())
            {
                MIOPEN_LOG_I2("find-db hit for " << key);
                return bestPerAlgorithm(fitting);
            }
        }
        if(mode == FindMode::Fast)
        {
            // Fast mode on a miss: the heuristic choice, not benchmarked, not recorded.
            for(const Solver* s : applicableSolvers(p))
                if(s->workspaceSize(p) <= workspaceBytes && findAllowsSolver(*s))
                    return {{s, estimateMs(*s, p), s->workspaceSize(p)}};
        }
    }

    auto all = benchmark(handle, p, tensors, workspace, workspaceBytes);
    if(all.empty())
        fail(miopenStatusUnknownError, "no convolution solver applies within the given workspace (" +
                                           std::to_string(workspaceBytes) + " bytes)");
    std::stable_sort(all.begin(), all.end(), [](const FindResult& a, const FindResult& b) { return a.timeMs < b.timeMs; });
    db.store(key, toDbEntries(all, api.direction()));
    return bestPerAlgorithm(all);
}

// ---- execute ------------------------------------------------------------------------------------

namespace {

const Solver& chooseSolver(const ProblemDescription& p, miopenConvAlgorithm_t algorithm, std::size_t wsBytes)
{
    if(auto hit = lookupDb(p))
        for(const auto& r : *hit)
            if(r.solver->algorithm() == algorithm && r.workspace <= wsBytes)
                return *r.solver;
    std::string reasons;
    for(const Solver* s : applicableSolvers(p))
    {
        if(s->algorithm() != algorithm)
            continue;
        if(s->workspaceSize(p) <= wsBytes)
            return *s;
        reasons += std::string(" ") + s->name() + " needs " + std::to_string(s->workspaceSize(p)) + " bytes;";
    }
    fail(miopenStatusBadParm, "no applicable solver of the requested algorithm fits the workspace (" +
                                  std::to_string(wsBytes) + " bytes):" + (reasons.empty() ? std::string(" none applies") : reasons));
}

} // namespace

void execute(const Handle& handle,
             const ApiProblem& api,
             miopenConvAlgorithm_t algorithm,
             const ConvTensors& tensors,
             float alpha,
             float beta,
             void* workspace,
             std::size_t workspaceBytes)
{
    const auto& p        = api.problem();
    const Solver& solver = chooseSolver(p, algorithm, workspace == nullptr ? 0 : workspaceBytes);
    if(alpha == 1.0f && beta == 0.0f)
    {
        runSolver(handle, solver, p, tensors, workspace, workspaceBytes);
        return;
    }
    // written = alpha * result + beta * written: compute into scratch of the written tensor's
    // shape and strides, then blend.
    const TensorDescriptor& wd = api.writtenDesc();
    Allocation scratch         = handle.allocate(wd.numBytes());
    ConvTensors t              = tensors;
    void* written              = nullptr;
    switch(p.direction())
    {
    case Direction::Forward: written = t.outOut; t.outOut = scratch.get(); break;
    case Direction::BackwardData: written = t.inOut; t.inOut = scratch.get(); break;
    case Direction::BackwardWeights: written = t.weiOut; t.weiOut = scratch.get(); break;
    }
    runSolver(handle, solver, p, t, workspace, workspaceBytes);
    transformTensor(handle, &alpha, wd, scratch.get(), &beta, wd, written);
}

// ---- bias ---------------------------------------------------------------------------------------

namespace {

// Checks that b has K elements laid out along dim 1 of a tensor with y's rank (or is 1-D K).
std::size_t biasStride(const TensorDescriptor& bDesc, const TensorDescriptor& yDesc)
{
    const std::size_t k = yDesc.len(1);
    if(bDesc.numDims() == 1 && bDesc.len(0) == k)
        return bDesc.stride(0);
    if(bDesc.numDims() != yDesc.numDims())
        fail(miopenStatusBadParm, "bias tensor rank differs from the output's");
    for(std::size_t i = 0; i < bDesc.numDims(); ++i)
        if(bDesc.len(i) != (i == 1 ? k : 1))
            fail(miopenStatusBadParm, "bias tensor must be 1 x K x 1 x ... with K = " + std::to_string(k));
    return bDesc.stride(1);
}

} // namespace

void forwardBias(const Handle&,
                 float alpha,
                 const TensorDescriptor& bDesc,
                 const void* b,
                 float beta,
                 const TensorDescriptor& yDesc,
                 void* y)
{
    bDesc.checkSet("bDesc");
    yDesc.checkSet("yDesc");
    check(b != nullptr && y != nullptr, "bias or output pointer is null");
    if(yDesc.numDims() < 3)
        fail(miopenStatusBadParm, "output tensor must have at least 3 dimensions");
    if(bDesc.type() != yDesc.type() || !isFloatingType(yDesc.type()) || yDesc.type() == miopenDouble)
        fail(miopenStatusBadParm, "bias and output must share a half, bfloat16 or float type");
    const std::size_t bs = biasStride(bDesc, yDesc);
    const auto t         = yDesc.type();
    const auto& lens     = yDesc.lens();
    const auto& strides  = yDesc.strides();
    const std::size_t n = lens[0], k = lens[1];
    // alpha * bias[c], computed once (as the per-element formula did: alpha * bias + beta * y).
    std::vector<float> scaled(k);
    for(std::size_t c = 0; c < k; ++c)
        scaled[c] = alpha * loadAsFloat(t, b, c * bs);

    // Rows are runs of elements with unit stride; the inner loops below are plain loops over a
    // row (vectorisable), threaded over rows:
    //  - spatial rows (NCHW-like: the spatial dims are packed with unit innermost stride): one
    //    row per (n, c) holding all its spatial elements, one bias value per row;
    //  - channel rows (NHWC-like: the channel stride is 1): one row per (n, spatial position)
    //    holding its K channels, the bias vector along the row;
    //  - otherwise one row per (n, c) through a table of spatial offsets.
    std::size_t spatial = 1;
    for(std::size_t i = 2; i < lens.size(); ++i)
        spatial *= lens[i];
    bool spatialContiguous = true;
    std::size_t expect     = 1;
    for(std::size_t i = lens.size(); i-- > 2;)
    {
        if(lens[i] != 1 && strides[i] != expect)
            spatialContiguous = false;
        expect *= lens[i];
    }
    const bool channelContiguous = !spatialContiguous && (strides[1] == 1 || k == 1);
    std::vector<std::size_t> offsets; // spatial offsets, unless the spatial rows are contiguous
    if(!spatialContiguous)
    {
        offsets.resize(spatial);
        for(std::size_t s = 0; s < spatial; ++s)
        {
            std::size_t rem = s, off = 0;
            for(std::size_t d = lens.size(); d-- > 2;)
            {
                off += (rem % lens[d]) * strides[d];
                rem /= lens[d];
            }
            offsets[s] = off;
        }
    }
    storage::visit(t, "miopenConvolutionForwardBias", [&](auto tag) {
        using Tag  = decltype(tag);
        using Bits = typename Tag::Bits;
        Bits* yt   = static_cast<Bits*>(y);
        if(channelContiguous)
        {
            parallelFor(n * spatial, [&](std::size_t begin, std::size_t end) {
                for(std::size_t r = begin; r < end; ++r)
                {
                    Bits* row = yt + (r / spatial) * strides[0] + offsets[r % spatial];
                    if(beta == 0.0f)
                        for(std::size_t c = 0; c < k; ++c)
                            row[c] = Tag::store(scaled[c]);
                    else
                        for(std::size_t c = 0; c < k; ++c)
                            row[c] = Tag::store(scaled[c] + beta * Tag::load(row[c]));
                }
            }, std::max<std::size_t>(1, 16384 / k));
            return;
        }
        parallelFor(n * k, [&](std::size_t begin, std::size_t end) {
            for(std::size_t r = begin; r < end; ++r)
            {
                const std::size_t c = r % k;
                Bits* row           = yt + (r / k) * strides[0] + c * strides[1];
                const float v       = scaled[c];
                if(spatialContiguous)
                {
                    if(beta == 0.0f)
                        std::fill(row, row + spatial, Tag::store(v));
                    else
                        for(std::size_t i = 0; i < spatial; ++i)
                            row[i] = Tag::store(v + beta * Tag::load(row[i]));
                }
                else if(beta == 0.0f)
                {
                    const Bits stored = Tag::store(v);
                    for(std::size_t i = 0; i < spatial; ++i)
                        row[offsets[i]] = stored;
                }
                else
                    for(std::size_t i = 0; i < spatial; ++i)
                        row[offsets[i]] = Tag::store(v + beta * Tag::load(row[offsets[i]]));
            }
        }, std::max<std::size_t>(1, 16384 / spatial));
    });
}

void backwardBias(const Handle&,
                  float alpha,
                  const TensorDescriptor& dyDesc,
                  const void* dy,
                  float beta,
                  const TensorDescriptor& dbDesc,
                  void* db)
{
    dyDesc.checkSet("dyDesc");
    dbDesc.checkSet("dbDesc");
    check(dy != nullptr && db != nullptr, "gradient or bias pointer is null");
    if(dyDesc.numDims() < 3)
        fail(miopenStatusBadParm, "gradient tensor must have at least 3 dimensions");
    if(dbDesc.type() != dyDesc.type() || !isFloatingType(dyDesc.type()) || dyDesc.type() == miopenDouble)
        fail(miopenStatusBadParm, "bias and gradient must share a half, bfloat16 or float type");
    const std::size_t bs = biasStride(dbDesc, dyDesc);
    const auto t         = dyDesc.type();
    const auto& lens     = dyDesc.lens();
    const auto& strides  = dyDesc.strides();
    const std::size_t k  = lens[1];
    std::size_t inner    = 1;
    for(std::size_t i = 2; i < lens.size(); ++i)
        inner *= lens[i];
    // Each channel's sum is computed by one thread in a fixed order (deterministic).
    parallelFor(k, [&](std::size_t begin, std::size_t end) {
        for(std::size_t ik = begin; ik < end; ++ik)
        {
            double sum = 0.0;
            for(std::size_t in = 0; in < lens[0]; ++in)
                for(std::size_t e = 0; e < inner; ++e)
                {
                    std::size_t rem = e, off = in * strides[0] + ik * strides[1];
                    for(std::size_t d = lens.size(); d-- > 2;)
                    {
                        off += (rem % lens[d]) * strides[d];
                        rem /= lens[d];
                    }
                    sum += static_cast<double>(loadAsFloat(t, dy, off));
                }
            const double prev = beta == 0.0f ? 0.0 : static_cast<double>(beta) * loadAsFloat(t, db, ik * bs);
            storeFromDouble(t, db, ik * bs, static_cast<double>(alpha) * sum + prev);
        }
    });
}

} // namespace conv
} // namespace miopen
