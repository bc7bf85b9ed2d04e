// The one forwarding sequence every op family runs (RFC 4.4; docs/wrapper.md "One skeleton"):
//
//   route (mode, opt-out, MIOpen-only variables: resolved once per entry point)
//   -> examine (what Private must judge stays there with its own status; what hipDNN cannot
//      express is declined with a reason) -> plan-cache lookup (+ the facts kept with the plan)
//   -> keep on Private, or: log the driver command -> snapshot for verify mode -> build the plan
//      once, bind the variant pack, execute -> verify against Private (verify mode)
//
// A family supplies only its hooks: free functions in its own file, found by argument-dependent
// lookup on its Problem type (declare them next to it, in the same namespace), and the types of
// the call it takes, in `tryForward(const Call& c, miopenStatus_t* s) { return
// core::forwardCall<Problem, Plan, Snapshot>(c, s); }`:
//   Call     the record its generated stubs pack (forwarding.hpp); has `id` and `handle`
//   Problem  what examine() reads from the descriptors; has `stream`
//   Plan     the cached plan: PlanRecord, or a struct derived from it with the family's facts
//   Snapshot what verify mode keeps of the caller's memory before the call (NoSnapshot: nothing)
// and, each taking (const Call& c, const Problem& p, ...):
//   Check examine(c, Problem& p)              validity (Private's status) then declines, in order
//   ProblemKey key(c, p)                      the plan-cache key
//   std::unique_ptr<gr::Graph> translate(c, p)
//   std::string planName(c, p)                "building the hipDNN plan for <name> failed"
//   void bind(c, p, Bindings&)                the memory of each non-virtual graph tensor
//   void logDriverCommand(c, p)               MIOPEN_ENABLE_LOGGING_CMD: Private's line
//   Verification shadowVerify(c, p, const Snapshot&)   Private's run, compared (verify mode)
//   std::string describe(c, p)                the problem, in a mismatch report
// and where the family needs them (the defaults below otherwise):
//   Check checkPlan(c, p, Plan&)              facts read once per cached problem
//   void snapshot(c, p, Snapshot&)            before the forwarded call (verify mode)
//   std::pair<void*, std::size_t> callerWorkspace(c, p)   a workspace the engine may use
#pragma once

#include "forwarding.hpp"
#include "forwarding_core.hpp"

#include <memory>
#include <string>
#include <utility>

namespace miopen {
namespace wrapper {
namespace fwd {
namespace core {

// Nothing kept before the call.
struct NoSnapshot
{
};

// The defaults of the optional hooks (a family's own overload is the better match).
template <class Call, class Problem, class Snapshot>
void snapshot(const Call&, const Problem&, Snapshot&)
{
}

template <class Call, class Problem, class Plan>
Check checkPlan(const Call&, const Problem&, Plan&)
{
    return {};
}

// The engine's scratch is the handle's buffer: the caller's workspace may hold what Private keeps
// between calls (pooling's indices), or the call has none.
template <class Call, class Problem>
std::pair<void*, std::size_t> callerWorkspace(const Call&, const Problem&)
{
    return {nullptr, 0};
}

// The outcome of a shadow run on Private (verify mode).
struct Verification
{
    bool ok = true;
    std::string what; // the first disagreement, or Private's failure
};

// Private's shadow run returned `st` and wrote `ref` (n elements of type t): its failure, or the
// comparison of the forwarded result `got` within `bound`, named `label` ("y: ...") when it differs.
Verification compared(miopenStatus_t st, miopenDataType_t t, const void* got, const void* ref, std::size_t n,
                      double bound, const char* label);

// Each family's plan cache (one per Problem type). Deliberately never destroyed: plans and hipDNN handles hold backend
// descriptors, and at process exit the backend's own statics may already be gone (destroying
// them then deadlocks or crashes).
template <class Problem, class Plan>
PlanCache<Plan>& planCacheOf()
{
    static auto* cache = new PlanCache<Plan>(planCacheCapacity());
    return *cache;
}

// The hipDNN plan of a problem, built once (a failure is kept with the plan: the call that hits
// it again fails the same way without another build).
void buildPlan(EntryId id, std::unique_ptr<gr::Graph> graph, const std::string& planName, PlanRecord& plan,
               hipdnnHandle_t h);

// The frontend's execute with the handle's hipDNN handle, timing for miopenGetKernelTime, and the
// route record; hs.m is held.
miopenStatus_t run(EntryId id, miopenHandle_t handle, HandleState& hs, PlanRecord& plan,
                   const std::unordered_map<std::int64_t, void*>& pack, void* workspace);

// The workspace the plan runs with: the caller's when it is large enough, else the handle's.
void* workspaceFor(HandleState& hs, const PlanRecord& plan, std::pair<void*, std::size_t> caller);

template <class Call, class Problem, class Plan>
miopenStatus_t execute(const Call& c, const Problem& p, Plan& plan)
{
    if(!backendState().usable)
        return fail(c.id, kHipdnnNotInitialized, backendState().error, "");
    HandleState& hs = forwardedHandleState(c.handle);
    std::lock_guard<std::mutex> lock(hs.m);
    if(const miopenStatus_t st = bindHipdnnHandle(c.id, hs, p.stream); st != miopenStatusSuccess)
        return st;
    std::call_once(plan.buildOnce, [&] { buildPlan(c.id, translate(c, p), planName(c, p), plan, *hs.hipdnn); });
    if(plan.graph == nullptr)
        return fail(c.id, plan.buildStatus, plan.buildMessage, "");
    Bindings b;
    bind(c, p, b);
    thread_local std::array<std::unordered_map<std::int64_t, void*>, 8> maps;
    thread_local std::size_t next = 0;
    return run(c.id, c.handle, hs, plan, variantPack(maps, next, b), workspaceFor(hs, plan, callerWorkspace(c, p)));
}

// The skeleton: true when the call took the hipDNN route (*status is its result), false when the
// caller serves it with its _impl. Never throws.
template <class Problem, class Plan, class Snapshot = NoSnapshot, class Call>
bool forwardCall(const Call& c, miopenStatus_t* status) noexcept
{
    return guarded(c.id, status, [&] {
        bool toPrivate = false;
        if(refusedOrRouted(c.id, status, &toPrivate))
            return true;
        if(toPrivate)
            return false;
        Problem p; // every family's Problem initializes its members
        Check chk = examine(c, p);
        std::shared_ptr<Plan> plan;
        if(chk.verdict == Verdict::Forward)
        {
            plan = planCacheOf<Problem, Plan>().get(key(c, p));
            chk  = checkPlan(c, p, *plan);
        }
        if(chk.verdict != Verdict::Forward)
            return keepOnPrivate(c.id, chk);
        const Config& cfg = config();
        if(cfg.enableLoggingCmd)
            logDriverCommand(c, p);
        const bool verifying = cfg.mode == Mode::Verify;
        Snapshot before;
        if(verifying)
            snapshot(c, p, before);
        *status = execute(c, p, *plan);
        if(verifying && *status == miopenStatusSuccess)
        {
            const Verification v = shadowVerify(c, p, before);
            keepForwardedKernelTime(c.handle);
            recordVerification(c.id, v.ok, *plan, [&] { return describe(c, p); }, v.what);
        }
        return true;
    });
}

} // namespace core
} // namespace fwd
} // namespace wrapper
} // namespace miopen
