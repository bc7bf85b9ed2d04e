// The family-independent core of hipDNN forwarding (forwarding_core.hpp): per-entry counters and
// the route record, the last forwarded error, status translation, the backend (found and loaded
// once, at the first forwarded call), MIOpen descriptors read through Private's public _impl
// getters, per-handle state, and the non-template steps of the skeleton (forwarding_skeleton.hpp).
// hipDNN is reached only through the frontend in run-time-load mode (hipdnn_frontend_dynamic), so
// libMIOpen.so neither needs nor references the backend until the first forwarded call.
#include "forwarding_core.hpp"

#include "env_mapping.hpp"
#include "forwarding.hpp"
#include "forwarding_skeleton.hpp"
#include "routing.hpp"
#include "shadow_verify.hpp"
#include "wrapper_runtime.hpp"

#include <miopen/miopen_impl.h>

#include <hipdnn_frontend/Graph.hpp>
#include <hipdnn_frontend/Handle.hpp>

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include <dlfcn.h>
#include <stdlib.h>

namespace miopen {
namespace wrapper {
namespace fwd {

namespace core {

// ---- per-entry counters and last route ---------------------------------------------------------

std::array<EntryStats, kForwardedEntryCount>& stats()
{
    static std::array<EntryStats, kForwardedEntryCount> s;
    return s;
}

// MIOPEN_HIPDNN_COUNTERS_FILE, read once (nullptr when unset or empty).
const char* countersPath()
{
    static const char* path = [] {
        const char* p = secure_getenv("MIOPEN_HIPDNN_COUNTERS_FILE"); // a file written: never under setuid
        return p != nullptr && *p != '\0' ? p : nullptr;
    }();
    return path;
}

void dumpCounters()
{
    const char* path = countersPath();
    if(path == nullptr)
        return;
    static std::mutex m;
    std::lock_guard<std::mutex> lock(m);
    std::FILE* f = std::fopen(path, "w");
    if(f == nullptr)
        return;
    const auto& set = kForwardedEntries;
    for(std::size_t i = 0; i < set.size(); ++i)
    {
        auto& s = stats()[i];
        std::string last;
        {
            std::lock_guard<std::mutex> l(s.m);
            last = s.last;
        }
        std::fprintf(f, "%.*s forwarded=%ld failed=%ld declined=%ld invalid=%ld routed=%ld verified=%ld mismatched=%ld last=%s\n",
                     static_cast<int>(set[i].size()), set[i].data(), s.forwarded.load(), s.failed.load(),
                     s.declined.load(), s.invalid.load(), s.routed.load(), s.verified.load(), s.mismatched.load(),
                     last.empty() ? "none" : last.c_str());
    }
    std::fclose(f);
}

// ---- the per-thread record of the last forwarded call ------------------------------------------

thread_local LastForwarded tLast;

// ---- status translation ------------------------------------------------------------------------

miopenStatus_t toMiopen(int hipdnnStatus)
{
    switch(hipdnnStatus)
    {
    case 0: return miopenStatusSuccess;
    case 1: return miopenStatusNotInitialized;
    case 2:
    case 3:
    case 4:
    case 5:
    case 6:
    case 7: return miopenStatusBadParm;
    case 8: return miopenStatusUnsupportedOp;
    case 10:
    case 11:
    case 12: return miopenStatusAllocFailed;
    case 9:
    case 13:
    case 14: return miopenStatusInternalError;
    default: return miopenStatusUnknownError;
    }
}

// The hipDNN status of a frontend error: the backend status named in its message (the longest
// name that occurs), else one derived from the frontend's error code.
int hipdnnStatusOf(const fe::Error& e)
{
    auto backend     = fe::detail::hipdnnBackend();
    int best         = -1;
    std::size_t blen = 0;
    for(int i = 1; i <= kHipdnnMaxStatus; ++i)
    {
        const char* n = backend->getErrorString(static_cast<hipdnnStatus_t>(i));
        const std::size_t len = n == nullptr ? 0 : std::strlen(n);
        if(len > blen && std::strncmp(n, "HIPDNN_STATUS_", 14) == 0 && e.get_message().find(n) != std::string::npos)
        {
            best = i;
            blen = len;
        }
    }
    if(best > 0)
        return best;
    const auto c = e.get_code();
    if(c == fe::ErrorCode::GRAPH_NOT_SUPPORTED || c == fe::ErrorCode::UNSUPPORTED_GRAPH_FORMAT)
        return kHipdnnNotSupported;
    if(c == fe::ErrorCode::INVALID_VALUE || c == fe::ErrorCode::ATTRIBUTE_NOT_SET ||
       c == fe::ErrorCode::SHAPE_DEDUCTION_FAILED || c == fe::ErrorCode::INVALID_TENSOR_NAME ||
       c == fe::ErrorCode::INVALID_VARIANT_PACK)
        return kHipdnnBadParam;
    return kHipdnnInternalError;
}

// ---- the backend: found and loaded once, at the first forwarded call ---------------------------

constexpr const char* kBackendSoname = "libhipdnn_backend.so.1";

// The directory of libMIOpen.so as an absolute path (dladdr's name resolved with realpath), or ""
// when it cannot be made absolute: the current directory is never searched.
std::string dirOfThisLibrary()
{
    Dl_info info{};
    if(dladdr(reinterpret_cast<void*>(&dirOfThisLibrary), &info) == 0 || info.dli_fname == nullptr)
        return "";
    char resolved[PATH_MAX];
    if(realpath(info.dli_fname, resolved) == nullptr || resolved[0] != '/')
        return "";
    const std::string path(resolved);
    const auto slash = path.find_last_of('/');
    return slash == 0 ? "/" : path.substr(0, slash);
}

BackendState probeBackend()
{
    BackendState b;
    std::vector<std::string> dirs;
    std::string tried;
    // Library search (docs/security.md): HIPDNN_BACKEND_LIBRARY_PATH only as an absolute
    // directory and never under secure execution (secure_getenv), then the directory of
    // libMIOpen.so; never the current directory. A rejected value warns once (this probe runs once
    // per process).
    const char* env = secure_getenv("HIPDNN_BACKEND_LIBRARY_PATH");
    if(env == nullptr && std::getenv("HIPDNN_BACKEND_LIBRARY_PATH") != nullptr)
        tried += "; HIPDNN_BACKEND_LIBRARY_PATH ignored under secure execution";
    if(env != nullptr && *env != '\0')
    {
        if(*env == '/')
            dirs.emplace_back(env);
        else
        {
            const std::string why = std::string("HIPDNN_BACKEND_LIBRARY_PATH='") + env +
                                    "' ignored: it must be an absolute directory (a relative one would resolve "
                                    "against the current directory)";
            printLine("Warning", why);
            tried += "; " + why;
        }
    }
    const char* noDefault = secure_getenv("MIOPEN_HIPDNN_TEST_NO_DEFAULT_SEARCH");
    if(noDefault == nullptr || std::strcmp(noDefault, "1") != 0)
    {
        const std::string own = dirOfThisLibrary();
        if(!own.empty())
            dirs.push_back(own);
        else
            tried += "; the directory of libMIOpen.so could not be resolved to an absolute path";
    }
    else
        tried += "; the directory of libMIOpen.so not searched (MIOPEN_HIPDNN_TEST_NO_DEFAULT_SEARCH=1)";
    std::string found;
    for(const auto& d : dirs)
    {
        const std::string path = d + "/" + kBackendSoname;
        dlerror();
        // Kept open for the life of the process; the frontend's own dlopen of it shares it.
        if(dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL) != nullptr)
        {
            found = d;
            break;
        }
        const char* why = dlerror();
        tried = "; " + path + ": " + (why != nullptr ? why : "cannot be loaded") + tried;
    }
    if(found.empty())
    {
        b.error = std::string("hipDNN forwarding is enabled (MIOPEN_HIPDNN_FORWARDING) but the hipDNN backend ") +
                  kBackendSoname + " is unavailable; looked for it in HIPDNN_BACKEND_LIBRARY_PATH and next to "
                  "libMIOpen.so" + (dirs.empty() ? std::string("; no directory to search") : std::string()) + tried +
                  "; forwarded calls fail";
        return b;
    }
    fe::detail::setBackendLibraryPath(found);
    auto backend = fe::detail::hipdnnBackend();
    if(auto* unavailable = dynamic_cast<fe::detail::UnavailableBackendWrapper*>(backend.get()))
    {
        // Names the library file: a wrong major (the frontend's version handshake) reads
        // "the hipDNN backend <path> is unusable: the hipDNN backend 2.0.0 has major version 2; ...".
        b.error = "hipDNN forwarding is enabled (MIOPEN_HIPDNN_FORWARDING) but the hipDNN backend " + found + "/" +
                  kBackendSoname + " is unusable: " + unavailable->reason() + "; forwarded calls fail";
        return b;
    }
    b.usable = true;
    return b;
}

// hipDNN's messages as MIOpen log lines (registered by mapLogging).
void hipdnnLogToMiopen(hipdnnUserLogCallbackHandle_t, hipdnnSeverity_t severity, const char* message)
{
    try
    {
        std::fprintf(stderr, "%s\n", miopenLineForHipdnn(static_cast<int>(severity), message).c_str());
    }
    catch(...) // a log line must never unwind into the backend
    {
    }
}

// MIOPEN_LOG_LEVEL / MIOPEN_ENABLE_LOGGING drive hipDNN's log level, and hipDNN's messages come
// out in MIOpen's format (env_mapping.hpp); HIPDNN_LOG_LEVEL, when set, keeps hipDNN's own.
void mapLogging()
{
    const int severity = hipdnnSeverityFor(config());
    if(severity < 0)
        return;
    static int token = 0; // the callback's user handle: identifies this registration
    auto backend     = fe::detail::hipdnnBackend();
    const auto sev   = static_cast<hipdnnSeverity_t>(severity);
    if(backend->setUserLogCallbackExt(&hipdnnLogToMiopen, sev, HIPDNN_LOG_CALLBACK_SYNC, &token) != kHipdnnSuccess ||
       backend->backendSetGlobalLogLevelExt(sev) != kHipdnnSuccess)
        printLine("Warning", "hipDNN's log level could not be set from MIOPEN_LOG_LEVEL; hipDNN logs as configured");
}

const BackendState& backendState()
{
    static const BackendState b = [] {
        BackendState s = probeBackend();
        if(!s.usable)
            printLine("Error", s.error); // once per process
        else
            mapLogging();
        return s;
    }();
    return b;
}

// ---- MIOpen descriptors, read through Private's getters ----------------------------------------

// Two getter calls: the rank, then the 4-D getter (no vectors inside Private) or the N-D one.
bool readTensor(miopenTensorDescriptor_t d, TensorInfo& t)
{
    int n = 0;
    if(miopenGetTensorDescriptorSize_impl(d, &n) != miopenStatusSuccess || n < 1 || n > kMaxDims)
        return false;
    t.rank = n;
    if(n == 4)
        return miopenGet4dTensorDescriptor_impl(d, &t.type, &t.lens[0], &t.lens[1], &t.lens[2], &t.lens[3],
                                                &t.strides[0], &t.strides[1], &t.strides[2],
                                                &t.strides[3]) == miopenStatusSuccess;
    return miopenGetTensorDescriptor_impl(d, &t.type, t.lens.data(), t.strides.data()) == miopenStatusSuccess;
}

// Dense: the strides are the packed strides of some order of the dimensions (NCHW, NHWC, ...).
bool isDense(const TensorInfo& t)
{
    // The common case first: packed in the natural order (NCHW, NCDHW, ...).
    long long packed = 1;
    int dim          = t.rank - 1;
    for(; dim >= 0; --dim)
    {
        const auto d = static_cast<std::size_t>(dim);
        if(t.lens[d] != 1 && t.strides[d] != packed)
            break;
        packed *= t.lens[d];
    }
    if(dim < 0)
        return true;
    // Dimensions by increasing stride, ties in dimension order (a stable insertion sort).
    std::array<int, kMaxDims> order{};
    for(int i = 0; i < t.rank; ++i)
    {
        int j = i;
        for(; j > 0 && t.strides[static_cast<std::size_t>(order[static_cast<std::size_t>(j - 1)])] >
                           t.strides[static_cast<std::size_t>(i)];
            --j)
            order[static_cast<std::size_t>(j)] = order[static_cast<std::size_t>(j - 1)];
        order[static_cast<std::size_t>(j)] = i;
    }
    long long expect = 1;
    for(int k = 0; k < t.rank; ++k)
    {
        const auto i = static_cast<std::size_t>(order[static_cast<std::size_t>(k)]);
        if(t.lens[i] != 1 && t.strides[i] != expect)
            return false;
        expect *= t.lens[i];
    }
    return true;
}

bool readFloat(const void* p, float& v)
{
    if(p == nullptr)
        return false;
    std::memcpy(&v, p, sizeof v);
    return true;
}

// ---- plan cache ----------------------------------------------------------------------------------

std::size_t planCacheCapacity()
{
    static const std::size_t capacity = [] {
        const char* v = std::getenv("MIOPEN_HIPDNN_PLAN_CACHE_SIZE");
        const long n  = v != nullptr ? std::strtol(v, nullptr, 10) : 0;
        return n > 0 ? static_cast<std::size_t>(n) : std::size_t{256};
    }();
    return capacity;
}

// ---- per-handle state ----------------------------------------------------------------------------

std::mutex gHandlesMutex;
std::unordered_map<miopenHandle_t, std::shared_ptr<HandleState>>& handles()
{
    static auto* h = new std::unordered_map<miopenHandle_t, std::shared_ptr<HandleState>>(); // see planCache()
    return *h;
}

// Bumped by onDestroy: the memos of forwardedHandleState are stale from then on.
std::atomic<std::uint64_t> gHandleGeneration{0};

HandleState& forwardedHandleState(miopenHandle_t h)
{
    struct Memo
    {
        miopenHandle_t handle  = nullptr;
        std::uint64_t generation = 0;
        std::shared_ptr<HandleState> state;
    };
    thread_local Memo memo;
    const std::uint64_t generation = gHandleGeneration.load(std::memory_order_acquire);
    if(memo.state == nullptr || memo.handle != h || memo.generation != generation)
    {
        memo.state      = handleState(h, true);
        memo.handle     = h;
        memo.generation = generation;
    }
    return *memo.state;
}

std::shared_ptr<HandleState> handleState(miopenHandle_t h, bool create)
{
    std::lock_guard<std::mutex> lock(gHandlesMutex);
    auto it = handles().find(h);
    if(it != handles().end())
        return it->second;
    if(!create)
        return nullptr;
    auto s = std::make_shared<HandleState>();
    handles().emplace(h, s);
    return s;
}

// ---- translation -----------------------------------------------------------------------------------

fe::DataType toHipdnn(miopenDataType_t t)
{
    switch(t)
    {
    case miopenHalf: return fe::DataType::HALF;
    case miopenFloat: return fe::DataType::FLOAT;
    case miopenBFloat16: return fe::DataType::BFLOAT16;
    default: return fe::DataType::NOT_SET;
    }
}

bool readConv(miopenConvolutionDescriptor_t d, ConvInfo& c)
{
    if(miopenGetConvolutionNdDescriptor_impl(d, 0, &c.spatial, nullptr, nullptr, nullptr, &c.mode) !=
           miopenStatusSuccess ||
       c.spatial < 1 || c.spatial > kMaxDims)
        return false;
    return miopenGetConvolutionNdDescriptor_impl(d, c.spatial, &c.spatial, c.pads.data(), c.strides.data(),
                                                 c.dilations.data(), &c.mode) == miopenStatusSuccess &&
           c.spatial >= 1 && c.spatial <= kMaxDims &&
           miopenGetConvolutionGroupCount_impl(d, &c.groups) == miopenStatusSuccess;
}

std::unique_ptr<gr::Graph> newGraph(miopenDataType_t io)
{
    auto g = std::make_unique<gr::Graph>();
    g->set_io_data_type(toHipdnn(io))
        .set_compute_data_type(fe::DataType::FLOAT)
        .set_intermediate_data_type(fe::DataType::FLOAT);
    return g;
}

std::vector<std::int64_t> i64(const std::array<int, kMaxDims>& v, int n)
{
    return std::vector<std::int64_t>(v.begin(), v.begin() + n);
}

gr::TensorPtr graphTensor(const TensorInfo& t, std::int64_t uid, const char* name)
{
    gr::TensorAttributes a;
    a.set_uid(uid).set_name(name).set_data_type(toHipdnn(t.type)).set_dim(i64(t.lens, t.rank)).set_stride(i64(t.strides, t.rank));
    return gr::Graph::tensor(a);
}

void setOutput(const gr::TensorPtr& out, const TensorInfo& t, std::int64_t uid, const char* name)
{
    out->set_uid(uid).set_name(name).set_data_type(toHipdnn(t.type)).set_dim(i64(t.lens, t.rank)).set_stride(i64(t.strides, t.rank));
    out->set_output(true);
}

// ---- MIOPEN_ENABLE_LOGGING_CMD ----------------------------------------------------------------------

// The layout name Private's logger gives a dense tensor: the first of NCHW, NHWC (NCDHW, NDHWC)
// whose packed strides it has, ignoring dimensions of length 1; "" when none.
std::string layoutName(const TensorInfo& t)
{
    static const char* const kCandidates[] = {"NCHW", "NHWC", "NCDHW", "NDHWC"};
    static const char kCanonical[2][6]    = {"NCHW", "NCDHW"};
    for(const char* layout : kCandidates)
    {
        if(static_cast<int>(std::strlen(layout)) != t.rank)
            continue;
        const char* canonical = kCanonical[t.rank == 5 ? 1 : 0];
        bool match            = true;
        for(int i = 0; i < t.rank && match; ++i)
        {
            // Packed stride of canonical dimension i in `layout`: the product of the lengths of
            // the dimensions that follow it there.
            long long stride = 1;
            for(const char* after = std::strchr(layout, canonical[i]) + 1; *after != '\0'; ++after)
                stride *= t.lens[static_cast<std::size_t>(std::strchr(canonical, *after) - canonical)];
            const auto d = static_cast<std::size_t>(i);
            match        = t.lens[d] == 1 || t.strides[d] == stride;
        }
        if(match)
            return layout;
    }
    return "";
}

miopenStatus_t fail(EntryId id, int hipdnnStatus, const std::string& message, const std::string& extra)
{
    const miopenStatus_t st = toMiopen(hipdnnStatus);
    tLast.hipdnnStatus      = hipdnnStatus;
    tLast.message           = message;
    tLast.prefixStatus      = static_cast<int>(st);
    // Counted as forwarded before record() writes the counters file, so the file shows it.
    statsOf(id).forwarded.fetch_add(1, std::memory_order_relaxed);
    record(id, &EntryStats::failed, [&] {
        return std::string("route=hipdnn reason=in-forwarding-set ") + extra + "status=" + miopenGetErrorString_impl(st) +
               " hipdnn_status=" + std::to_string(hipdnnStatus);
    });
    if(config().logLevel >= 3 || traceOn())
        printLine("Error", "[hipDNN-forwarded] " + std::string(entryName(id)) + ": " + message);
    return st;
}

miopenStatus_t bindHipdnnHandle(EntryId id, HandleState& hs, miopenAcceleratorQueue_t stream)
{
    if(hs.hipdnn == nullptr)
    {
        auto [handle, err] = fe::createHipdnnHandle(stream);
        if(err.is_bad())
            return fail(id, hipdnnStatusOf(err), "creating the hipDNN handle failed: " + err.get_message(), "");
        hs.hipdnn = std::move(handle);
        hs.stream = stream;
    }
    else if(hs.stream != stream)
    {
        fe::Error err = fe::setHipdnnHandleStream(hs.hipdnn, stream);
        if(err.is_bad())
            return fail(id, hipdnnStatusOf(err), "setting the hipDNN stream failed: " + err.get_message(), "");
        hs.stream = stream;
    }
    return miopenStatusSuccess;
}

// ---- MIOPEN_HIPDNN_FORWARDING=verify ------------------------------------------------------------

std::size_t elementCount(const TensorInfo& t)
{
    std::size_t n = 1;
    for(int i = 0; i < t.rank; ++i)
        n *= static_cast<std::size_t>(t.lens[static_cast<std::size_t>(i)]);
    return n;
}

std::size_t elementBytes(miopenDataType_t t) { return t == miopenHalf || t == miopenBFloat16 ? 2 : 4; }

std::string shapeText(const TensorInfo& t)
{
    std::string s;
    for(int i = 0; i < t.rank; ++i)
        s += (i ? "x" : "") + std::to_string(t.lens[static_cast<std::size_t>(i)]);
    return s;
}

namespace {

// The route of every entry point of the set, resolved once from the process's configuration.
const std::array<Decision, kForwardedEntryCount>& routes()
{
    static const std::array<Decision, kForwardedEntryCount> kRoutes = [] {
        std::array<Decision, kForwardedEntryCount> r{};
        const Config& cfg = config();
        for(std::size_t i = 0; i < kForwardedEntryCount; ++i)
            r[i] = resolveRoute(cfg.mode, kForwardedEntries[i], cfg.optOut, forwardingSet(), cfg.miopenOnlyVariable);
        return r;
    }();
    return kRoutes;
}

} // namespace

bool refusedOrRouted(EntryId id, miopenStatus_t* status, bool* toPrivate)
{
    ensureInit();
    *toPrivate = false;
    if(callsRefused()) // version skew at load: nothing reaches Private or hipDNN
    {
        *status = miopenStatusVersionMismatch;
        return true;
    }
    const Decision d = routes()[static_cast<std::size_t>(id)];
    if(d.route == Route::HipDnn)
        return false;
    const Config& cfg  = config();
    tLast.prefixStatus = -1;
    record(id, &EntryStats::routed, [&] {
        std::string text = std::string("route=miopen reason=") + reasonName(d.reason);
        if(d.reason == Reason::MiopenOnlyVariable)
            text += ":" + cfg.miopenOnlyVariable;
        return text;
    });
    *toPrivate = true;
    return false;
}

bool keepOnPrivate(EntryId id, const Check& chk)
{
    tLast.prefixStatus  = -1;
    const bool declined = chk.verdict == Verdict::Decline;
    record(id, declined ? &EntryStats::declined : &EntryStats::invalid, [&] {
        return std::string("route=miopen reason=") + (declined ? "declined:" : "invalid-arguments:") + chk.why;
    });
    return false;
}

// ---- the non-template steps of the skeleton -------------------------------------------------------

namespace {

// MIOPEN_HIPDNN_PREFERRED_ENGINE, read once (nullptr when unset or empty).
const char* preferredEngine()
{
    static const char* name = [] {
        const char* v = std::getenv("MIOPEN_HIPDNN_PREFERRED_ENGINE");
        return v != nullptr && *v != '\0' ? v : nullptr;
    }();
    return name;
}

} // namespace

void buildPlan(EntryId id, std::unique_ptr<gr::Graph> graph, const std::string& planName, PlanRecord& plan,
               hipdnnHandle_t h)
{
    graph->set_name(std::string(entryName(id)));
    if(const char* preferred = preferredEngine())
        graph->set_preferred_engine_id_ext(std::string(preferred));
    fe::Error e = graph->build(h);
    if(e.is_bad())
    {
        plan.buildStatus  = hipdnnStatusOf(e);
        plan.buildMessage = "building the hipDNN plan for " + planName + " failed: " + e.get_message();
        return;
    }
    plan.engineName    = graph->get_engine_name_ext();
    plan.engineId      = hipdnn_data_sdk::utilities::engineNameToId(plan.engineName);
    plan.workspaceSize = graph->get_workspace_size();
    plan.graph         = std::move(graph);
}

void* workspaceFor(HandleState& hs, const PlanRecord& plan, std::pair<void*, std::size_t> caller)
{
    if(plan.workspaceSize <= 0)
        return nullptr;
    const auto need = static_cast<std::size_t>(plan.workspaceSize);
    if(caller.first != nullptr && caller.second >= need)
        return caller.first;
    if(hs.workspace.size() < need)
        hs.workspace.resize(need);
    return hs.workspace.data();
}

std::unordered_map<std::int64_t, void*>& variantPack(std::array<std::unordered_map<std::int64_t, void*>, 8>& maps,
                                                     std::size_t& next, const Bindings& b)
{
    auto sameKeys = [&b](const std::unordered_map<std::int64_t, void*>& m) {
        if(m.size() != b.n)
            return false;
        for(std::size_t i = 0; i < b.n; ++i)
            if(m.find(b.v[i].uid) == m.end())
                return false;
        return true;
    };
    std::unordered_map<std::int64_t, void*>* pack = nullptr;
    for(auto& m : maps)
        if(sameKeys(m))
        {
            pack = &m;
            break;
        }
    if(pack == nullptr)
    {
        // A set of uids not seen on this thread: replace the oldest map.
        pack = &maps[next];
        next = (next + 1) % maps.size();
        pack->clear();
    }
    for(std::size_t i = 0; i < b.n; ++i)
        (*pack)[b.v[i].uid] = b.v[i].memory;
    return *pack;
}

miopenStatus_t run(EntryId id, miopenHandle_t handle, HandleState& hs, PlanRecord& plan,
                   const std::unordered_map<std::int64_t, void*>& pack, void* workspace)
{
    auto engine = [&] { return "engine=" + plan.engineName + " engine_id=" + std::to_string(plan.engineId) + " "; };
    const bool timed = hs.profiling;
    const auto t0    = timed ? std::chrono::steady_clock::now() : std::chrono::steady_clock::time_point{};
    fe::Error err    = plan.graph->execute(*hs.hipdnn, pack, workspace);
    if(err.is_bad())
        return fail(id, hipdnnStatusOf(err),
                    "executing the hipDNN plan on " + plan.engineName + " failed: " + err.get_message(), engine());
    if(timed)
    {
        const auto t1       = std::chrono::steady_clock::now();
        hs.forwardedMs      = std::chrono::duration<float, std::milli>(t1 - t0).count();
        hs.lastWasForwarded = true;
        (void)miopenGetKernelTime_impl(handle, &hs.privateSnapshot);
    }
    tLast.hipdnnStatus = kHipdnnSuccess;
    tLast.message.clear();
    tLast.prefixStatus = -1;
    record(id, &EntryStats::forwarded,
           [&] { return "route=hipdnn reason=in-forwarding-set " + engine() + "status=miopenStatusSuccess"; });
    return miopenStatusSuccess;
}

Verification compared(miopenStatus_t st, miopenDataType_t t, const void* got, const void* ref, std::size_t n,
                      double bound, const char* label)
{
    if(st != miopenStatusSuccess)
        return {false, std::string("MIOpen Private failed: ") + miopenGetErrorString_impl(st)};
    const verify::Outcome r = verify::compare(t, got, ref, n, bound);
    return {r.ok, r.ok ? std::string() : std::string(label) + verify::describe(r)};
}

void keepForwardedKernelTime(miopenHandle_t handle)
{
    if(auto hs = handleState(handle, false))
    {
        std::lock_guard<std::mutex> lock(hs->m);
        if(hs->lastWasForwarded)
            (void)miopenGetKernelTime_impl(handle, &hs->privateSnapshot);
    }
}

} // namespace core

using namespace core;

void onDestroy(miopenHandle_t handle) noexcept
{
    try
    {
        std::shared_ptr<HandleState> s;
        {
            std::lock_guard<std::mutex> lock(gHandlesMutex);
            auto it = handles().find(handle);
            if(it == handles().end())
                return;
            s = std::move(it->second);
            handles().erase(it);
            gHandleGeneration.fetch_add(1, std::memory_order_acq_rel);
        }
        std::lock_guard<std::mutex> lock(s->m); // waits for a call still using it
        s->hipdnn.reset();
    }
    catch(...)
    {
    }
}

void onEnableProfiling(miopenHandle_t handle, bool enable) noexcept
{
    try
    {
        if(auto s = handleState(handle, enable))
        {
            std::lock_guard<std::mutex> lock(s->m);
            // As Private: toggling profiling keeps the time of the last profiled call.
            s->profiling = enable;
        }
    }
    catch(...)
    {
    }
}

bool forwardedKernelTime(miopenHandle_t handle, float* time) noexcept
{
    try
    {
        auto s = handleState(handle, false);
        if(s == nullptr || time == nullptr)
            return false;
        std::lock_guard<std::mutex> lock(s->m);
        if(!s->lastWasForwarded)
            return false;
        // A compute call Private served since then changed Private's time: that one is the last.
        float now = 0.0f;
        if(miopenGetKernelTime_impl(handle, &now) != miopenStatusSuccess || now != s->privateSnapshot)
            return false;
        *time = s->forwardedMs;
        return true;
    }
    catch(...)
    {
        return false;
    }
}

miopenStatus_t lastForwardedError(int* hipdnnStatus, const char** message) noexcept
{
    if(hipdnnStatus == nullptr)
        return miopenStatusBadParm;
    *hipdnnStatus = tLast.hipdnnStatus;
    if(message != nullptr)
        *message = tLast.message.c_str();
    return miopenStatusSuccess;
}

const char* forwardedErrorString(miopenStatus_t status) noexcept
{
    const int s = static_cast<int>(status);
    if(tLast.prefixStatus < 0 || tLast.prefixStatus != s || s < 0 || s > 10)
        return nullptr;
    try
    {
        static const std::array<std::string, 11> prefixed = [] {
            std::array<std::string, 11> a;
            for(int i = 0; i < 11; ++i)
                a[static_cast<std::size_t>(i)] =
                    std::string("[hipDNN-forwarded] ") + miopenGetErrorString_impl(static_cast<miopenStatus_t>(i));
            return a;
        }();
        return prefixed[static_cast<std::size_t>(s)].c_str();
    }
    catch(...)
    {
        return nullptr;
    }
}

} // namespace fwd
} // namespace wrapper
} // namespace miopen
