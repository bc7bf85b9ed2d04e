// The family-independent part of hipDNN forwarding (forwarding.hpp), shared by the translation
// of each op family (forwarding.cpp: convolution; forwarding_batchnorm.cpp: batchnorm): per-entry
// counters and the route record, the last forwarded error, status translation, the backend (loaded
// once), descriptors read through Private's getters, the plan cache and per-handle state.
// Defined in forwarding.cpp. Internal to libMIOpen.so (hidden visibility).
#pragma once

#include "routing.hpp"
#include "wrapper_runtime.hpp"

#include <miopen/miopen.h>

#include <hipdnn_frontend/Graph.hpp>
#include <hipdnn_frontend/Handle.hpp>

#include <algorithm>
#include <array>
#include <atomic>
#include <cstdint>
#include <list>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace miopen {
namespace wrapper {
namespace fwd {
namespace core {

namespace fe = hipdnn_frontend;
namespace gr = hipdnn_frontend::graph;

// ---- per-entry counters and last route ---------------------------------------------------------

constexpr std::size_t kMaxEntries = 64; // >= forwardingSet().size() (checked in forwarding.cpp)

struct EntryStats
{
    std::atomic<long> forwarded{0}; // took the hipDNN route (successful or not)
    std::atomic<long> failed{0};    // ... and hipDNN failed
    std::atomic<long> declined{0};  // routed to Private up front (hipDNN cannot express it)
    std::atomic<long> invalid{0};   // arguments Private must judge (its status is the answer)
    std::atomic<long> routed{0};    // routed to Private by the routing policy (mode, opt-out)
    std::atomic<long> verified{0};   // verify mode: forwarded, and Private's result agreed
    std::atomic<long> mismatched{0}; // verify mode: forwarded, and Private's result differed
    std::mutex m;
    std::string last;
};

int entryIndex(const char* entry);
std::array<EntryStats, kMaxEntries>& stats();
// MIOPEN_HIPDNN_COUNTERS_FILE, read once (nullptr when unset or empty).
const char* countersPath();
void dumpCounters();

// Records the route of one call: the counter always (an atomic add); the route text — built by
// `routeText()` only when someone reads it — for the last-route record, the trace line and the
// counters file. A forwarded call with neither the trace nor the counters file on builds no string
// and takes no lock here.
template <class RouteText>
void record(const char* entry, std::atomic<long> EntryStats::*counter, RouteText&& routeText)
{
    const int i = entryIndex(entry);
    if(i >= 0)
        (stats()[static_cast<std::size_t>(i)].*counter).fetch_add(1, std::memory_order_relaxed);
    const bool trace = traceOn();
    if(!trace && countersPath() == nullptr)
        return;
    const std::string text = routeText();
    if(i >= 0)
    {
        auto& s = stats()[static_cast<std::size_t>(i)];
        std::lock_guard<std::mutex> l(s.m);
        s.last = text;
    }
    if(trace)
        printLine("Info2", std::string("route ") + entry + " mode=" + modeName(config().mode) + " " + text);
    dumpCounters();
}

// ---- the per-thread record of the last forwarded call ------------------------------------------

struct LastForwarded
{
    int hipdnnStatus = 0;
    std::string message;
    int prefixStatus = -1; // miopenStatus_t of a forwarded failure that miopenGetErrorString prefixes
};
extern thread_local LastForwarded tLast;

// ---- status translation ------------------------------------------------------------------------

constexpr int kHipdnnSuccess        = 0;
constexpr int kHipdnnNotInitialized = 1;
constexpr int kHipdnnBadParam       = 2;
constexpr int kHipdnnNotSupported   = 8;
constexpr int kHipdnnInternalError  = 9;
constexpr int kHipdnnMaxStatus      = 14;

miopenStatus_t toMiopen(int hipdnnStatus);
// The hipDNN status of a frontend error.
int hipdnnStatusOf(const fe::Error& e);
// A forwarded call failed: records it (counters, last forwarded error, trace) and returns the
// translated status. `extra` is inserted in the route text before "status=".
miopenStatus_t fail(const char* entry, int hipdnnStatus, const std::string& message, const std::string& extra);

// The routing prologue every family's tryForward starts with: a version skew at load refuses the
// call (*status = miopenStatusVersionMismatch, true); a call the routing policy keeps on Private
// (mode, opt-out, a MIOpen-only variable) is recorded as routed (*toPrivate = true, false);
// otherwise false with *toPrivate = false and the family examines the call. Throws only
// std::bad_alloc (the caller's catch translates it).
bool refusedOrRouted(const char* entry, miopenStatus_t* status, bool* toPrivate);

// ---- a family's decision on one call -----------------------------------------------------------

enum class Verdict
{
    Forward,
    Decline, // hipDNN cannot express it: Private serves it
    Invalid, // arguments Private must judge
};

struct Check
{
    Verdict verdict = Verdict::Forward;
    std::string why; // the reason (trace text); empty, and no heap, when forwarded
};

inline Check decline(std::string why) { return {Verdict::Decline, std::move(why)}; }
inline Check invalid(std::string why) { return {Verdict::Invalid, std::move(why)}; }

// A call the family keeps on Private (chk is Decline or Invalid): recorded with its reason; the
// caller then serves it with miopenFoo_impl. Always false (the tryForward answer).
bool keepOnPrivate(const char* entry, const Check& chk);

// The body of a family's tryForward: an exception escaping it becomes a failed forwarded call
// (std::exception: hipDNN internal error, recorded) or miopenStatusUnknownError; never crosses
// the C boundary.
template <class Body>
bool guarded(const char* entry, miopenStatus_t* status, Body&& body) noexcept
{
    try
    {
        return body();
    }
    catch(const std::exception& e)
    {
        *status = fail(entry, kHipdnnInternalError, std::string("exception in the forwarding layer: ") + e.what(), "");
        return true;
    }
    catch(...)
    {
        *status = miopenStatusUnknownError;
        return true;
    }
}

// Verify mode: counts the outcome of one shadow comparison and logs a mismatch once per problem
// (the plan record's mismatchReported flag): "[hipDNN-verify] <entry> (<describe()>) on engine
// <name> (engine_id <id>) differs from MIOpen: <what>".
template <class PlanRecord, class Describe>
void recordVerification(const char* entry, bool ok, PlanRecord& plan, Describe&& describe, const std::string& what)
{
    auto& s = stats()[static_cast<std::size_t>(std::max(0, entryIndex(entry)))];
    (ok ? s.verified : s.mismatched).fetch_add(1, std::memory_order_relaxed);
    if(!ok && !plan.mismatchReported.exchange(true))
        printLine("Warning", std::string("[hipDNN-verify] ") + entry + " (" + describe() + ") on engine " +
                                 plan.engineName + " (engine_id " + std::to_string(plan.engineId) +
                                 ") differs from MIOpen: " + what);
    dumpCounters();
}

// ---- the backend: found and loaded once, at the first forwarded call ---------------------------

struct BackendState
{
    bool usable = false;
    std::string error;
};
const BackendState& backendState();

// ---- MIOpen descriptors, read through Private's getters ----------------------------------------

// Fixed-size records (no heap on the per-call path): MIOpen Private's tensors have at most
// kMaxTensorDims dimensions, and a convolution has at most kMaxTensorDims - 2 spatial ones.
constexpr int kMaxDims = 8;

struct TensorInfo
{
    miopenDataType_t type = miopenFloat;
    int rank              = 0;
    std::array<int, kMaxDims> lens{}, strides{};
};

// Two getter calls: the rank, then the 4-D getter or the N-D one. false when Private rejects the
// descriptor (null, never set) or its rank is out of range.
bool readTensor(miopenTensorDescriptor_t d, TensorInfo& t);
// Dense: the strides are the packed strides of some order of the dimensions (NCHW, NHWC, ...).
bool isDense(const TensorInfo& t);
bool readFloat(const void* p, float& v);
std::size_t elementCount(const TensorInfo& t);
std::size_t elementBytes(miopenDataType_t t);
std::string shapeText(const TensorInfo& t);
// The layout name Private's logger gives a dense tensor (NCHW, NHWC, NCDHW, NDHWC); "" when none.
std::string layoutName(const TensorInfo& t);

// ---- translation helpers -----------------------------------------------------------------------

fe::DataType toHipdnn(miopenDataType_t t);
std::vector<std::int64_t> i64(const std::array<int, kMaxDims>& v, int n);
gr::TensorPtr graphTensor(const TensorInfo& t, std::int64_t uid, const char* name);
void setOutput(const gr::TensorPtr& out, const TensorInfo& t, std::int64_t uid, const char* name);

// ---- plan cache ----------------------------------------------------------------------------------

// Everything that identifies a cached problem, in a fixed-size record (no heap per lookup).
struct ProblemKey
{
    static constexpr std::size_t kCapacity = 8 * (1 + 2 * kMaxDims) + 8;
    std::array<std::int32_t, kCapacity> v{};
    std::size_t n = 0;

    void push(std::int32_t x) { v[n++] = x; }
    void pushTensor(const TensorInfo& t)
    {
        push(static_cast<std::int32_t>(t.type));
        push(t.rank);
        for(int i = 0; i < t.rank; ++i)
        {
            push(t.lens[static_cast<std::size_t>(i)]);
            push(t.strides[static_cast<std::size_t>(i)]);
        }
    }
    bool operator==(const ProblemKey& o) const
    {
        return n == o.n && std::equal(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(n), o.v.begin());
    }
};

struct ProblemKeyHash
{
    std::size_t operator()(const ProblemKey& k) const noexcept
    {
        std::uint64_t h = 1469598103934665603ull; // FNV-1a over the used words
        for(std::size_t i = 0; i < k.n; ++i)
        {
            h ^= static_cast<std::uint32_t>(k.v[i]);
            h *= 1099511628211ull;
        }
        return static_cast<std::size_t>(h);
    }
};

// An LRU of plans (one per family: the plan record is the family's own).
template <class P>
class PlanCache
{
public:
    explicit PlanCache(std::size_t capacity) : _capacity(capacity == 0 ? 1 : capacity) {}

    std::shared_ptr<P> get(const ProblemKey& key)
    {
        std::lock_guard<std::mutex> lock(_m);
        auto it = _index.find(key);
        if(it != _index.end())
        {
            _lru.splice(_lru.begin(), _lru, it->second);
            return it->second->second;
        }
        _lru.emplace_front(key, std::make_shared<P>());
        _index.emplace(key, _lru.begin());
        if(_lru.size() > _capacity)
        {
            _index.erase(_lru.back().first);
            _lru.pop_back(); // in-flight users keep their shared_ptr
        }
        return _lru.front().second;
    }

private:
    using Entry = std::pair<ProblemKey, std::shared_ptr<P>>;
    std::size_t _capacity;
    std::mutex _m;
    std::list<Entry> _lru;
    std::unordered_map<ProblemKey, typename std::list<Entry>::iterator, ProblemKeyHash> _index;
};

// MIOPEN_HIPDNN_PLAN_CACHE_SIZE (default 256): the capacity of each family's cache.
std::size_t planCacheCapacity();

// ---- per-handle state ----------------------------------------------------------------------------

struct HandleState
{
    std::mutex m;
    fe::HipdnnHandlePtr hipdnn;
    miopenAcceleratorQueue_t stream = nullptr;
    std::vector<unsigned char> workspace; // used when the caller's is missing or too small
    bool profiling = false;
    bool lastWasForwarded = false;
    float forwardedMs = 0.0f;
    float privateSnapshot = 0.0f; // Private's kernel time when the forwarded time was taken
};

std::shared_ptr<HandleState> handleState(miopenHandle_t h, bool create);
// Creates the handle's hipDNN handle on first use, or moves it to `stream`; hs.m must be held.
// Success, or the translated status of a failure (recorded with fail()).
miopenStatus_t bindHipdnnHandle(const char* entry, HandleState& hs, miopenAcceleratorQueue_t stream);

} // namespace core
} // namespace fwd
} // namespace wrapper
} // namespace miopen
