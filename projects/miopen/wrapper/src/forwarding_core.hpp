// The family-independent part of hipDNN forwarding (forwarding.hpp), shared by the skeleton
// (forwarding_skeleton.hpp) and each op family's hooks (forwarding_<family>.cpp): per-entry
// counters and the route record, the last forwarded error, status translation, the backend (loaded
// once), descriptors read through Private's getters, the plan cache and per-handle state.
// Defined in forwarding_core.cpp. Internal to libMIOpen.so (hidden visibility).
#pragma once

#include "forwarding_set.hpp"
#include "routing.hpp"
#include "wrapper_runtime.hpp"

#include <miopen/miopen.h>

#include <hipdnn_frontend/Graph.hpp>
#include <hipdnn_frontend/Handle.hpp>

#include <algorithm>
#include <array>
#include <atomic>
#include <cstdint>
#include <cstring>
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

std::array<EntryStats, kForwardedEntryCount>& stats();
inline EntryStats& statsOf(EntryId id) { return stats()[static_cast<std::size_t>(id)]; }
// MIOPEN_HIPDNN_COUNTERS_FILE, read once (nullptr when unset or empty).
const char* countersPath();
void dumpCounters();

// Records the route of one call: the counter always (an atomic add); the route text — built by
// `routeText()` only when someone reads it — for the last-route record, the trace line and the
// counters file. A forwarded call with neither the trace nor the counters file on builds no string
// and takes no lock here.
template <class RouteText>
void record(EntryId id, std::atomic<long> EntryStats::*counter, RouteText&& routeText)
{
    auto& s = statsOf(id);
    (s.*counter).fetch_add(1, std::memory_order_relaxed);
    const bool trace = traceOn();
    if(!trace && countersPath() == nullptr)
        return;
    const std::string text = routeText();
    {
        std::lock_guard<std::mutex> l(s.m);
        s.last = text;
    }
    if(trace)
        printLine("Info2", "route " + std::string(entryName(id)) + " mode=" + modeName(config().mode) + " " + text);
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
miopenStatus_t fail(EntryId id, int hipdnnStatus, const std::string& message, const std::string& extra);

// The routing prologue of the skeleton: a version skew at load refuses the call (*status =
// miopenStatusVersionMismatch, true); a call the routing policy keeps on Private (mode, opt-out, a
// MIOpen-only variable) is recorded as routed (*toPrivate = true, false); otherwise false with
// *toPrivate = false and the family examines the call. The route of each entry point is resolved
// once per process (routing.hpp, resolveRoute). Throws only std::bad_alloc (the caller's catch
// translates it).
bool refusedOrRouted(EntryId id, miopenStatus_t* status, bool* toPrivate);

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
bool keepOnPrivate(EntryId id, const Check& chk);

// The body of a family's tryForward: an exception escaping it becomes a failed forwarded call
// (std::exception: hipDNN internal error, recorded) or miopenStatusUnknownError; never crosses
// the C boundary.
template <class Body>
bool guarded(EntryId id, miopenStatus_t* status, Body&& body) noexcept
{
    try
    {
        return body();
    }
    catch(const std::exception& e)
    {
        *status = fail(id, kHipdnnInternalError, std::string("exception in the forwarding layer: ") + e.what(), "");
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
void recordVerification(EntryId id, bool ok, PlanRecord& plan, Describe&& describe, const std::string& what)
{
    auto& s = statsOf(id);
    (ok ? s.verified : s.mismatched).fetch_add(1, std::memory_order_relaxed);
    if(!ok && !plan.mismatchReported.exchange(true))
        printLine("Warning", "[hipDNN-verify] " + std::string(entryName(id)) + " (" + describe() + ") on engine " +
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
    // Only [0, rank) is ever read (readTensor writes it): not cleared, so a family's Problem
    // costs no memset per call.
    std::array<int, kMaxDims> lens, strides;
};

// Two getter calls: the rank, then the 4-D getter or the N-D one. false when Private rejects the
// descriptor (null, never set) or its rank is out of range.
bool readTensor(miopenTensorDescriptor_t d, TensorInfo& t);
// Dense: the strides are the packed strides of some order of the dimensions (NCHW, NHWC, ...).
bool isDense(const TensorInfo& t);
bool readFloat(const void* p, float& v);
// The element types the forwarded families compute in.
inline bool isComputeType(miopenDataType_t t) { return t == miopenFloat || t == miopenHalf || t == miopenBFloat16; }
inline bool sameLens(const TensorInfo& a, const TensorInfo& b)
{
    return a.rank == b.rank && std::equal(a.lens.begin(), a.lens.begin() + a.rank, b.lens.begin());
}
std::size_t elementCount(const TensorInfo& t);
std::size_t elementBytes(miopenDataType_t t);
std::string shapeText(const TensorInfo& t);
// The layout name Private's logger gives a dense tensor (NCHW, NHWC, NCDHW, NDHWC); "" when none.
std::string layoutName(const TensorInfo& t);

// A convolution descriptor (1 to kMaxDims spatial dimensions), read through Private's getters.
struct ConvInfo
{
    int spatial = 0;
    std::array<int, kMaxDims> pads{}, strides{}, dilations{};
    miopenConvolutionMode_t mode = miopenConvolution;
    int groups                   = 1;
};
bool readConv(miopenConvolutionDescriptor_t d, ConvInfo& c);

// ---- translation helpers -----------------------------------------------------------------------

// A new graph whose tensors are of MIOpen type `io`, computing in fp32.
std::unique_ptr<gr::Graph> newGraph(miopenDataType_t io);

std::vector<std::int64_t> i64(const std::array<int, kMaxDims>& v, int n);

// The attributes of a convolution node (ConvFprop/Dgrad/WgradAttributes) for a MIOpen descriptor:
// its symmetric padding as equal pre and post padding, cross-correlation (miopenConvolution), fp32.
template <class A>
A convAttributes(const ConvInfo& c)
{
    A a;
    const auto pads = i64(c.pads, c.spatial);
    a.set_pre_padding(pads)
        .set_post_padding(pads)
        .set_stride(i64(c.strides, c.spatial))
        .set_dilation(i64(c.dilations, c.spatial))
        .set_convolution_mode(fe::ConvolutionMode::CROSS_CORRELATION)
        .set_compute_data_type(fe::DataType::FLOAT);
    return a;
}

fe::DataType toHipdnn(miopenDataType_t t);
gr::TensorPtr graphTensor(const TensorInfo& t, std::int64_t uid, const char* name);
void setOutput(const gr::TensorPtr& out, const TensorInfo& t, std::int64_t uid, const char* name);

// ---- plan cache ----------------------------------------------------------------------------------

// Everything that identifies a cached problem, in a fixed-size record (no heap per lookup).
struct ProblemKey
{
    static constexpr std::size_t kCapacity = 8 * (1 + 2 * kMaxDims) + 8;
    std::array<std::int32_t, kCapacity> v; // only v[0, n) is ever read: not cleared per call
    std::size_t n = 0;

    void push(std::int32_t x) { v[n++] = x; }
    // The bits of a scalar the graph holds as a value (fp32: the engines read it as such).
    void pushFloat(float f)
    {
        std::int32_t b = 0;
        std::memcpy(&b, &f, sizeof b);
        push(b);
    }
    void pushDouble(double d)
    {
        std::int32_t w[2];
        std::memcpy(w, &d, sizeof w);
        push(w[0]);
        push(w[1]);
    }
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
    // A copy of the used words only.
    void assign(const ProblemKey& o)
    {
        n = o.n;
        std::copy(o.v.begin(), o.v.begin() + static_cast<std::ptrdiff_t>(n), v.begin());
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
        // This thread's last plan of this cache: a call repeating the problem of the one before
        // takes no lock and hashes nothing. The memo keeps its plan alive if the LRU drops it.
        struct Memo
        {
            const PlanCache* owner = nullptr;
            ProblemKey key;
            std::shared_ptr<P> plan;
        };
        thread_local Memo memo;
        if(memo.owner == this && memo.key == key)
            return memo.plan;
        memo.plan  = lookup(key);
        memo.owner = this;
        memo.key.assign(key);
        return memo.plan;
    }

private:
    std::shared_ptr<P> lookup(const ProblemKey& key)
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

    using Entry = std::pair<ProblemKey, std::shared_ptr<P>>;
    std::size_t _capacity;
    std::mutex _m;
    std::list<Entry> _lru;
    std::unordered_map<ProblemKey, typename std::list<Entry>::iterator, ProblemKeyHash> _index;
};

// MIOPEN_HIPDNN_PLAN_CACHE_SIZE (default 256): the capacity of each family's cache.
std::size_t planCacheCapacity();

// What every family's cached plan holds: the hipDNN plan, built once per problem, or why it could
// not be built; the engine that runs it; whether verify mode has reported a mismatch for it.
struct PlanRecord
{
    std::once_flag buildOnce;
    std::unique_ptr<gr::Graph> graph;
    int buildStatus = kHipdnnSuccess;
    std::string buildMessage;
    std::string engineName;
    std::int64_t engineId      = 0;
    std::int64_t workspaceSize = 0;
    std::atomic<bool> mismatchReported{false}; // verify mode: a mismatch is logged once per problem
};

// ---- variant packs -------------------------------------------------------------------------------

// The memory of one forwarded call, by tensor uid (a family's bind hook fills it).
struct Bindings
{
    struct Binding
    {
        std::int64_t uid;
        void* memory;
    };
    static constexpr std::size_t kCapacity = 16;
    std::array<Binding, kCapacity> v; // only v[0, n) is read: not cleared per call
    std::size_t n = 0;

    void add(std::int64_t uid, const void* p) { v[n++] = {uid, const_cast<void*>(p)}; }
};

// The frontend's variant pack for `b`: a map of this thread's (one set per family) whose keys are
// exactly b's uids, its values re-pointed; a new map only the first time a set of uids is seen
// (no allocation per call).
std::unordered_map<std::int64_t, void*>& variantPack(std::array<std::unordered_map<std::int64_t, void*>, 8>& maps,
                                                     std::size_t& next, const Bindings& b);

// Verify mode: Private's shadow run changed its kernel time; a forwarded call's time stays the answer.
void keepForwardedKernelTime(miopenHandle_t handle);

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
// The state of the handle of a forwarded call, created on first use: this thread's memo of its
// last handle while no handle has been destroyed since (an address may be reused by a new
// handle), else handleState(h, true).
HandleState& forwardedHandleState(miopenHandle_t h);
// Creates the handle's hipDNN handle on first use, or moves it to `stream`; hs.m must be held.
// Success, or the translated status of a failure (recorded with fail()).
miopenStatus_t bindHipdnnHandle(EntryId id, HandleState& hs, miopenAcceleratorQueue_t stream);

} // namespace core
} // namespace fwd
} // namespace wrapper
} // namespace miopen
