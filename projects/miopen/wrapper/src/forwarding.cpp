// hipDNN forwarding of the convolution family (see forwarding.hpp), and the family-independent
// core every family's translation uses (forwarding_core.hpp). MIOpen descriptors are read
// only through Private's public _impl getters; hipDNN is reached only through the frontend in
// run-time-load mode (hipdnn_frontend_dynamic), so libMIOpen.so neither needs nor references the
// backend until the first forwarded call.
#include "forwarding.hpp"

#include "env_mapping.hpp"
#include "forwarding_activation.hpp"
#include "forwarding_core.hpp"
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
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <list>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include <climits>
#include <dlfcn.h>
#include <stdlib.h>

namespace miopen {
namespace wrapper {
namespace fwd {

namespace core {

// ---- per-entry counters and last route ---------------------------------------------------------

int entryIndex(const char* entry)
{
    const auto& set = forwardingSet();
    for(std::size_t i = 0; i < set.size() && i < kMaxEntries; ++i)
        if(set[i] == entry)
            return static_cast<int>(i);
    return -1;
}

std::array<EntryStats, kMaxEntries>& stats()
{
    static std::array<EntryStats, kMaxEntries> s;
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
    const auto& set = forwardingSet();
    for(std::size_t i = 0; i < set.size() && i < kMaxEntries; ++i)
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

} // namespace core

using namespace core;

namespace {

struct ConvInfo
{
    int spatial = 0;
    std::array<int, kMaxDims> pads{}, strides{}, dilations{};
    miopenConvolutionMode_t mode = miopenConvolution;
    int groups                   = 1;
};

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

} // namespace

namespace core {

// Dense: the strides are the packed strides of some order of the dimensions (NCHW, NHWC, ...).
bool isDense(const TensorInfo& t)
{
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

} // namespace core

namespace {

struct Plan
{
    // Facts of the problem read once through Private (the cache key holds everything they depend
    // on): whether the output tensor has the dimensions the convolution produces, and Private's
    // applicable solutions (validation of algo, workspace, solution id).
    std::once_flag solutionsOnce;
    bool outputDimsOk  = false;
    bool solutionsRead = false;
    std::vector<miopenConvSolution_t> solutions;
    // The hipDNN plan.
    std::once_flag buildOnce;
    std::unique_ptr<gr::Graph> graph;
    int buildStatus = kHipdnnSuccess;
    std::string buildMessage;
    std::string engineName;
    std::int64_t engineId = 0;
    std::int64_t workspaceSize = 0;
    std::atomic<bool> mismatchReported{false}; // verify mode: a mismatch is logged once per problem
};

// Deliberately never destroyed: plans and hipDNN handles hold backend descriptors, and at process
// exit the backend's own statics may already be gone (destroying them then deadlocks or crashes).
PlanCache<Plan>& planCache()
{
    static auto* cache = new PlanCache<Plan>(planCacheCapacity());
    return *cache;
}

} // namespace

namespace core {

// ---- per-handle state ----------------------------------------------------------------------------

std::mutex gHandlesMutex;
std::unordered_map<miopenHandle_t, std::shared_ptr<HandleState>>& handles()
{
    static auto* h = new std::unordered_map<miopenHandle_t, std::shared_ptr<HandleState>>(); // see planCache()
    return *h;
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

std::vector<std::int64_t> i64(const std::array<int, kMaxDims>& v, int n)
{
    return std::vector<std::int64_t>(v.begin(), v.begin() + n);
}

} // namespace core

namespace {

// The graph's problem in regular roles. A transposed convolution is the regular one with x and y
// swapped and Forward / BackwardData exchanged (as Private runs it): `op` is that regular
// direction, `x` the caller's y and `y` the caller's x.
struct Problem
{
    Op op;
    TensorInfo x, w, y, bias;
    ConvInfo conv;
    miopenAcceleratorQueue_t stream = nullptr; // the handle's stream (not part of the problem key)
    bool transposed = false;
    // The epilogue (graph nodes after the convolution): written = alpha * conv + beta * prior; for
    // BiasActivation y = act(alpha * conv + alpha2 * z + bias) (MIOpen's alpha1).
    float alpha = 1.0f, beta = 0.0f, alpha2 = 1.0f;
    bool hasZ = false;
    TensorInfo z;
    int activation = miopenActivationRELU;
    double activA = 0.0, activB = 0.0, activG = 0.0;
};

std::int32_t bitsOf(float f)
{
    std::int32_t b = 0;
    std::memcpy(&b, &f, sizeof b);
    return b;
}

// Activation parameters reach the graph as floats (pointwise attributes).
std::int32_t bitsOf(double d) { return bitsOf(static_cast<float>(d)); }

ProblemKey problemKey(const Problem& p)
{
    ProblemKey k;
    k.push(static_cast<std::int32_t>(p.op));
    k.push(static_cast<std::int32_t>(p.x.type));
    auto addTensor = [&k](const TensorInfo& t) {
        k.push(t.rank);
        for(int i = 0; i < t.rank; ++i)
        {
            k.push(t.lens[static_cast<std::size_t>(i)]);
            k.push(t.strides[static_cast<std::size_t>(i)]);
        }
    };
    addTensor(p.x);
    addTensor(p.w);
    addTensor(p.y);
    if(p.op == Op::BiasActivation)
        addTensor(p.bias);
    k.push(p.conv.spatial);
    for(int i = 0; i < p.conv.spatial; ++i)
    {
        k.push(p.conv.pads[static_cast<std::size_t>(i)]);
        k.push(p.conv.strides[static_cast<std::size_t>(i)]);
        k.push(p.conv.dilations[static_cast<std::size_t>(i)]);
    }
    k.push(p.conv.groups);
    k.push(p.transposed ? 1 : 0);
    k.push(bitsOf(p.alpha));
    k.push(bitsOf(p.beta));
    if(p.op == Op::BiasActivation)
    {
        k.push(bitsOf(p.alpha2));
        k.push(p.hasZ ? 1 : 0);
        if(p.hasZ)
            addTensor(p.z);
        k.push(p.activation);
        k.push(bitsOf(p.activA));
        k.push(bitsOf(p.activB));
        k.push(bitsOf(p.activG));
    }
    return k;
}

} // namespace

namespace core {

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

} // namespace core

namespace {

// uids: 1 and 2 the inputs, 3 the written tensor, 4 the bias, 5 the caller's prior output (beta;
// the same memory as 3), 6 the residual z; 7, 8, 9 the pass-by-value scalars alpha (alpha1), beta,
// alpha2.
constexpr std::int64_t kUidPrior = 5, kUidZ = 6, kUidAlpha = 7, kUidBeta = 8, kUidAlpha2 = 9;

gr::TensorPtr scalarTensor(float v, std::int64_t uid, const char* name, int rank)
{
    // Dims of all ones at the output's rank: the factor broadcasts against the output.
    gr::TensorAttributes a;
    a.set_uid(uid).set_name(name).set_data_type(fe::DataType::FLOAT).set_dim(std::vector<std::int64_t>(static_cast<std::size_t>(rank), 1))
        .set_stride(std::vector<std::int64_t>(static_cast<std::size_t>(rank), 1)).set_value(v);
    return gr::Graph::tensor(a);
}

gr::PointwiseAttributes pointwiseOf(fe::PointwiseMode m)
{
    return gr::PointwiseAttributes().set_mode(m).set_compute_data_type(fe::DataType::FLOAT);
}

// The epilogue of the plain directions (issue 11), in the node order the engines match:
// conv -> t; [t = MUL(t, alpha)]; [t = ADD(t, MUL(prior, beta))]. alpha == 1 and beta == 0 are
// identities and have no node.
gr::TensorPtr blend(gr::Graph& g, gr::TensorPtr t, const Problem& p, const TensorInfo& out)
{
    // The convolution's result becomes virtual: give it the output's dims (dgrad and wgrad cannot
    // infer them) and layout.
    if(p.alpha != 1.0f || p.beta != 0.0f)
        t->set_dim(i64(out.lens, out.rank)).set_stride(i64(out.strides, out.rank));
    if(p.alpha != 1.0f)
        t = g.pointwise(t, scalarTensor(p.alpha, kUidAlpha, "alpha", out.rank), pointwiseOf(fe::PointwiseMode::MUL));
    if(p.beta != 0.0f)
    {
        auto prior = g.pointwise(graphTensor(out, kUidPrior, "prior"), scalarTensor(p.beta, kUidBeta, "beta", out.rank),
                                 pointwiseOf(fe::PointwiseMode::MUL));
        t = g.pointwise(t, prior, pointwiseOf(fe::PointwiseMode::ADD));
    }
    return t;
}

std::unique_ptr<gr::Graph> translate(const Problem& p, const char* entry)
{
    auto g = std::make_unique<gr::Graph>();
    g->set_name(entry)
        .set_io_data_type(toHipdnn(p.x.type))
        .set_compute_data_type(fe::DataType::FLOAT)
        .set_intermediate_data_type(fe::DataType::FLOAT);
    static const char* preferred = std::getenv("MIOPEN_HIPDNN_PREFERRED_ENGINE");
    if(preferred != nullptr && *preferred != '\0')
        g->set_preferred_engine_id_ext(std::string(preferred));
    const auto pads = i64(p.conv.pads, p.conv.spatial), strides = i64(p.conv.strides, p.conv.spatial),
               dil = i64(p.conv.dilations, p.conv.spatial);
    auto attrs = [&](auto a) {
        a.set_pre_padding(pads)
            .set_post_padding(pads)
            .set_stride(strides)
            .set_dilation(dil)
            .set_convolution_mode(fe::ConvolutionMode::CROSS_CORRELATION) // miopenConvolution
            .set_compute_data_type(fe::DataType::FLOAT);
        return a;
    };
    switch(p.op)
    {
    case Op::Forward:
    {
        auto out = g->conv_fprop(graphTensor(p.x, 1, "x"), graphTensor(p.w, 2, "w"), attrs(gr::ConvFpropAttributes()));
        setOutput(blend(*g, out, p, p.y), p.y, 3, "y");
        break;
    }
    case Op::BackwardData:
    {
        auto out = g->conv_dgrad(graphTensor(p.y, 1, "dy"), graphTensor(p.w, 2, "w"), attrs(gr::ConvDgradAttributes()));
        setOutput(blend(*g, out, p, p.x), p.x, 3, "dx");
        break;
    }
    case Op::BackwardWeights:
    {
        auto out = g->conv_wgrad(graphTensor(p.y, 1, "dy"), graphTensor(p.x, 2, "x"), attrs(gr::ConvWgradAttributes()));
        setOutput(blend(*g, out, p, p.w), p.w, 3, "dw");
        break;
    }
    case Op::BiasActivation:
    {
        // y = act(alpha1 * conv + alpha2 * z + bias): conv -> [MUL alpha1] -> [ADD (MUL z alpha2 | z)]
        // -> ADD bias -> [activation] (no node for identities: alpha1 == 1, alpha2 == 1, PASTHRU).
        auto t = g->conv_fprop(graphTensor(p.x, 1, "x"), graphTensor(p.w, 2, "w"), attrs(gr::ConvFpropAttributes()));
        if(p.alpha != 1.0f)
            t = g->pointwise(t, scalarTensor(p.alpha, kUidAlpha, "alpha1", p.y.rank), pointwiseOf(fe::PointwiseMode::MUL));
        if(p.hasZ)
        {
            auto z = graphTensor(p.z, kUidZ, "z");
            if(p.alpha2 != 1.0f)
                z = g->pointwise(z, scalarTensor(p.alpha2, kUidAlpha2, "alpha2", p.y.rank), pointwiseOf(fe::PointwiseMode::MUL));
            t = g->pointwise(t, z, pointwiseOf(fe::PointwiseMode::ADD));
        }
        t = g->pointwise(t, graphTensor(p.bias, 4, "bias"), pointwiseOf(fe::PointwiseMode::ADD));
        if(p.activation != miopenActivationPASTHRU)
            t = g->pointwise(t, translateActivation(p.activation, p.activA, p.activB, p.activG, false).attributes);
        setOutput(t, p.y, 3, "y");
        break;
    }
    }
    return g;
}

const char* opName(Op op)
{
    switch(op)
    {
    case Op::Forward: return "forward";
    case Op::BackwardData: return "backward-data";
    case Op::BackwardWeights: return "backward-weights";
    case Op::BiasActivation: return "bias-activation";
    }
    return "?";
}

} // namespace

namespace core {

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

} // namespace core

namespace {

// The MIOpenDriver command Private prints for this call (`ApiProblem::driverArgs` and the fusion
// logger in projects/miopen/src): a forwarded call prints the same line, so a logged reproducer
// does not depend on the route. Forwarded problems are 2-D or 3-D, of one data type.
void logDriverCommand(const ConvCall& c, const Problem& regular)
{
    Problem p = regular; // the caller's roles
    if(p.transposed)
        std::swap(p.x, p.y);
    const TensorInfo &x = p.x, &w = p.w;
    const auto& cv      = p.conv;
    const char* suffix  = x.type == miopenHalf ? "fp16" : x.type == miopenBFloat16 ? "bfp16" : x.type == miopenInt8 ? "int8" : "";
    auto n              = [](const std::array<int, kMaxDims>& a, int i) { return std::to_string(a[static_cast<std::size_t>(i)]); };
    // Transposed: K is the output's channels (w is C_in x C_out/G), as Private prints it.
    const std::string kText = p.transposed ? std::to_string(w.lens[1] * cv.groups) : n(w.lens, 0);
    std::string args    = " -n " + n(x.lens, 0) + " -c " + n(x.lens, 1);
    const char* def     = "NCHW";
    if(cv.spatial == 3)
    {
        def = "NCDHW";
        args += " --in_d " + n(x.lens, 2) + " -H " + n(x.lens, 3) + " -W " + n(x.lens, 4) + " -k " + kText +
                " --fil_d " + n(w.lens, 2) + " -y " + n(w.lens, 3) + " -x " + n(w.lens, 4) + " --pad_d " + n(cv.pads, 0) +
                " -p " + n(cv.pads, 1) + " -q " + n(cv.pads, 2) + " --conv_stride_d " + n(cv.strides, 0) + " -u " +
                n(cv.strides, 1) + " -v " + n(cv.strides, 2) + " --dilation_d " + n(cv.dilations, 0) + " -l " +
                n(cv.dilations, 1) + " -j " + n(cv.dilations, 2) + " --spatial_dim 3";
    }
    else
        args += " -H " + n(x.lens, 2) + " -W " + n(x.lens, 3) + " -k " + kText + " -y " + n(w.lens, 2) + " -x " +
                n(w.lens, 3) + " -p " + n(cv.pads, 0) + " -q " + n(cv.pads, 1) + " -u " + n(cv.strides, 0) + " -v " +
                n(cv.strides, 1) + " -l " + n(cv.dilations, 0) + " -j " + n(cv.dilations, 1);
    if(p.transposed)
    {
        // The output padding, as Private prints it: the caller's y beyond (in-1)*s - 2p + d(f-1) + 1.
        static const char* const kAdjFlags[2][3] = {{"-Y", "-X", ""}, {"-%", "-Y", "-X"}};
        for(int i = 0; i < cv.spatial; ++i)
        {
            const auto d   = static_cast<std::size_t>(i);
            const long adj = static_cast<long>(p.y.lens[d + 2]) -
                             ((static_cast<long>(x.lens[d + 2]) - 1) * cv.strides[d] - 2L * cv.pads[d] +
                              static_cast<long>(cv.dilations[d]) * (w.lens[d + 2] - 1) + 1);
            if(adj != 0)
                args += std::string(" ") + kAdjFlags[cv.spatial == 3 ? 1 : 0][d] + " " + std::to_string(adj);
        }
    }
    for(const auto& [t, flag] : {std::pair<const TensorInfo*, const char*>{&p.x, " --in_layout "},
                                 {&p.w, " --fil_layout "},
                                 {&p.y, " --out_layout "}})
    {
        std::string l = layoutName(*t);
        if(l.empty())
            l = def;
        if(l != def)
            args += flag + l;
    }
    std::string line;
    if(c.op == Op::BiasActivation)
        line = "Command [LogCmdFusion] ./bin/MIOpenDriver CBAInfer" + std::string(x.type == miopenHalf ? "fp16" : x.type == miopenBFloat16 ? "bfp16" : "") +
               " -F 4" + args + " -g " + std::to_string(cv.groups);
    else
    {
        const int direction = c.op == Op::Forward ? 1 : c.op == Op::BackwardData ? 2 : 4;
        line = "Command [LogCmdConvolution] ./bin/MIOpenDriver conv" + std::string(suffix) + args + (p.transposed ? " -m trans -g " : " -m conv -g ") +
               std::to_string(cv.groups) + " -F " + std::to_string(direction) + " -t 1";
        if(c.immediate)
            line += " -S " + std::to_string(c.solutionId);
    }
    std::fprintf(stderr, "MIOpen(HIP): %s\n", line.c_str());
}

// ---- the decision ------------------------------------------------------------------------------------


// Reads and checks everything that does not need the plan cache.
Check examine(const ConvCall& c, Problem& p)
{
    if(miopenGetStream_impl(c.handle, &p.stream) != miopenStatusSuccess)
        return invalid("handle");
    if(!readTensor(c.xDesc, p.x) || !readTensor(c.wDesc, p.w) || !readTensor(c.yDesc, p.y) || !readConv(c.conv, p.conv))
        return invalid("descriptor");
    if(c.x == nullptr || c.w == nullptr || c.y == nullptr)
        return invalid("null-data-pointer");
    // Declines: what hipDNN cannot express.
    if(p.conv.mode == miopenTranspose)
    {
        if(c.op == Op::BiasActivation)
            return decline("transposed-mode");
        // The regular convolution with the roles swapped (Private's own reading): the graph's x is
        // the caller's y with its full dims, so output padding needs nothing more.
        p.transposed = true;
        std::swap(p.x, p.y);
        p.op = c.op == Op::Forward ? Op::BackwardData : c.op == Op::BackwardData ? Op::Forward : Op::BackwardWeights;
    }
    else if(p.conv.mode != miopenConvolution && p.conv.mode != miopenGroupConv && p.conv.mode != miopenDepthwise)
        return invalid("convolution-mode");
    if(p.conv.spatial > 3)
        return decline("spatial-dims>3");
    if(p.conv.spatial < 2)
        return decline("1-d-convolution");
    if(p.x.type != p.w.type || p.x.type != p.y.type)
        return decline("mixed-dtype");
    if(toHipdnn(p.x.type) == fe::DataType::NOT_SET)
        return decline("dtype");
    if(c.op == Op::BiasActivation)
    {
        // Null alpha1 / alpha2 mean 1, as in Private.
        if(c.alpha != nullptr)
            (void)readFloat(c.alpha, p.alpha);
        if(c.z != nullptr)
        {
            if(c.zDesc == nullptr || !readTensor(c.zDesc, p.z))
                return invalid("z-descriptor");
            p.hasZ = true;
            if(c.alpha2 != nullptr)
                (void)readFloat(c.alpha2, p.alpha2);
        }
        miopenActivationMode_t mode = miopenActivationPASTHRU;
        double ab = 0, bb = 0, gb = 0;
        if(miopenGetActivationDescriptor_impl(c.activ, &mode, &ab, &bb, &gb) != miopenStatusSuccess)
            return invalid("activation-descriptor");
        if(const ActivationTranslation t = translateActivation(mode, ab, bb, gb, false); !t.ok)
            return decline(t.reason);
        // Private (as upstream) implements this call for RELU only and answers every other mode
        // with miopenStatusNotImplemented: forwarding those would turn that status into a result
        // and leave verify mode nothing to compare with. The graph and the engines take any
        // translated mode (the fusion-plan API's forwarding uses them).
        if(mode != miopenActivationRELU)
            return decline("activation");
        p.activation = mode;
        p.activA     = ab;
        p.activB     = bb;
        p.activG     = gb;
        if(c.bias == nullptr || !readTensor(c.biasDesc, p.bias))
            return invalid("bias");
        if(p.bias.rank != p.y.rank)
            return decline("bias-layout");
        if(p.bias.type != p.y.type)
            return decline("mixed-dtype");
    }
    else if(!c.immediate)
    {
        float a = 0.0f, b = 0.0f;
        if(!readFloat(c.alpha, a) || !readFloat(c.beta, b))
            return invalid("null-alpha-beta");
        p.alpha = a; // the epilogue nodes (blend)
        p.beta  = b;
    }
    for(const TensorInfo* t : {&p.x, &p.w, &p.y})
        if(!isDense(*t))
            return decline("layout");
    // Validity (what Private would reject goes to Private).
    const int rank = p.conv.spatial + 2;
    if(p.x.rank != rank || p.w.rank != rank || p.y.rank != rank)
        return invalid("rank");
    const int g = p.conv.groups;
    if(g < 1 || p.x.lens[1] != p.w.lens[1] * g || p.w.lens[0] % g != 0 || p.y.lens[1] != p.w.lens[0] ||
       p.x.lens[0] != p.y.lens[0])
        return invalid("channels");
    // The output dimensions are checked once per cached problem (readProblemFacts).
    if(c.op == Op::BiasActivation)
    {
        for(std::size_t i = 0; i < static_cast<std::size_t>(rank); ++i)
            if(p.bias.lens[i] != (i == 1 ? p.y.lens[1] : 1))
                return invalid("bias-dims");
        if(!isDense(p.bias))
            return decline("layout");
        if(p.hasZ)
        {
            if(p.z.rank != p.y.rank || !std::equal(p.z.lens.begin(), p.z.lens.begin() + rank, p.y.lens.begin()))
                return invalid("z-dims");
            if(p.z.type != p.y.type)
                return decline("mixed-dtype");
            if(!isDense(p.z))
                return decline("layout");
        }
    }
    return {};
}

// Read once per cached problem: the output dimensions Private computes, and Private's applicable
// solutions.
void readProblemFacts(const ConvCall& c, const Problem& p, Plan& plan)
{
    std::call_once(plan.solutionsOnce, [&] {
        int nDim = 0;
        std::array<int, kMaxDims> out{};
        plan.outputDimsOk =
            miopenGetConvolutionNdForwardOutputDim_impl(c.conv, c.xDesc, c.wDesc, &nDim, out.data()) ==
                miopenStatusSuccess &&
            nDim == (p.transposed ? p.x : p.y).rank &&
            std::equal(out.begin(), out.begin() + nDim, (p.transposed ? p.x : p.y).lens.begin());
        size_t count = 0;
        miopenStatus_t st = miopenStatusSuccess;
        // Regular roles to each direction's argument order.
        switch(c.op)
        {
        case Op::Forward:
        case Op::BiasActivation:
            st = miopenConvolutionForwardGetSolutionCount_impl(c.handle, c.wDesc, c.xDesc, c.conv, c.yDesc, &count);
            break;
        case Op::BackwardData:
            st = miopenConvolutionBackwardDataGetSolutionCount_impl(c.handle, c.yDesc, c.wDesc, c.conv, c.xDesc, &count);
            break;
        case Op::BackwardWeights:
            st = miopenConvolutionBackwardWeightsGetSolutionCount_impl(c.handle, c.yDesc, c.xDesc, c.conv, c.wDesc, &count);
            break;
        }
        if(st != miopenStatusSuccess)
            return;
        plan.solutions.resize(count);
        size_t got = 0;
        if(count > 0)
        {
            switch(c.op)
            {
            case Op::Forward:
            case Op::BiasActivation:
                st = miopenConvolutionForwardGetSolution_impl(c.handle, c.wDesc, c.xDesc, c.conv, c.yDesc, count, &got,
                                                              plan.solutions.data());
                break;
            case Op::BackwardData:
                st = miopenConvolutionBackwardDataGetSolution_impl(c.handle, c.yDesc, c.wDesc, c.conv, c.xDesc, count,
                                                                   &got, plan.solutions.data());
                break;
            case Op::BackwardWeights:
                st = miopenConvolutionBackwardWeightsGetSolution_impl(c.handle, c.yDesc, c.xDesc, c.conv, c.wDesc, count,
                                                                      &got, plan.solutions.data());
                break;
            }
            if(st != miopenStatusSuccess)
                return;
        }
        plan.solutions.resize(got);
        plan.solutionsRead = true;
    });
}

// The algorithm / solution / workspace arguments, judged as Private would.
Check checkSolutionArgs(const ConvCall& c, const Plan& plan)
{
    if(!plan.outputDimsOk)
        return invalid("output-dims");
    if(!plan.solutionsRead)
        return invalid("solutions");
    const std::size_t ws = c.workspace == nullptr ? 0 : c.workspaceSize;
    if(c.immediate)
    {
        for(const auto& s : plan.solutions)
            if(s.solution_id == c.solutionId)
                return s.workspace_size <= ws ? Check{} : invalid("workspace-too-small");
        return invalid("solution-id");
    }
    if(c.algo < 0 || c.algo > 5 || c.algo == 4)
        return invalid("algorithm");
    for(const auto& s : plan.solutions)
        if(static_cast<int>(s.algorithm) == c.algo && (c.op == Op::BiasActivation || s.workspace_size <= ws))
            return {};
    return invalid("algorithm-not-applicable");
}

void buildPlan(const ConvCall& c, const Problem& p, Plan& plan, hipdnnHandle_t h)
{
    std::call_once(plan.buildOnce, [&] {
        auto g = translate(p, c.entry);
        fe::Error e = g->build(h);
        if(e.is_bad())
        {
            plan.buildStatus  = hipdnnStatusOf(e);
            plan.buildMessage = "building the hipDNN plan for " + std::string(opName(c.op)) + " failed: " + e.get_message();
            return;
        }
        plan.engineName    = g->get_engine_name_ext();
        plan.engineId      = hipdnn_data_sdk::utilities::engineNameToId(plan.engineName);
        plan.workspaceSize = g->get_workspace_size();
        plan.graph         = std::move(g);
    });
}

// This thread's variant pack for the problem's graph: uids 1 and 2 the inputs, 3 the written
// tensor, and those of 4 (bias), 5 (prior output), 6 (z) the graph has. One map per set of uids,
// whose keys stay.
std::unordered_map<std::int64_t, void*>& variantPack(const Problem& p)
{
    thread_local std::array<std::unordered_map<std::int64_t, void*>, 8> packs;
    const bool bias = p.op == Op::BiasActivation, prior = p.op != Op::BiasActivation && p.beta != 0.0f;
    const std::size_t i = (bias ? 1u : 0u) | (prior ? 2u : 0u) | (p.hasZ ? 4u : 0u);
    auto& pack = packs[i];
    if(pack.empty())
    {
        pack = {{1, nullptr}, {2, nullptr}, {3, nullptr}};
        if(bias)
            pack.emplace(4, nullptr);
        if(prior)
            pack.emplace(kUidPrior, nullptr);
        if(p.hasZ)
            pack.emplace(kUidZ, nullptr);
    }
    return pack;
}

} // namespace

namespace core {

miopenStatus_t fail(const char* entry, int hipdnnStatus, const std::string& message, const std::string& extra)
{
    const miopenStatus_t st = toMiopen(hipdnnStatus);
    tLast.hipdnnStatus      = hipdnnStatus;
    tLast.message           = message;
    tLast.prefixStatus      = static_cast<int>(st);
    // Counted as forwarded before record() writes the counters file, so the file shows it.
    stats()[static_cast<std::size_t>(std::max(0, entryIndex(entry)))].forwarded.fetch_add(1, std::memory_order_relaxed);
    record(entry, &EntryStats::failed, [&] {
        return std::string("route=hipdnn reason=in-forwarding-set ") + extra + "status=" + miopenGetErrorString_impl(st) +
               " hipdnn_status=" + std::to_string(hipdnnStatus);
    });
    if(config().logLevel >= 3 || traceOn())
        printLine("Error", std::string("[hipDNN-forwarded] ") + entry + ": " + message);
    return st;
}

miopenStatus_t bindHipdnnHandle(const char* entry, HandleState& hs, miopenAcceleratorQueue_t stream)
{
    if(hs.hipdnn == nullptr)
    {
        auto [handle, err] = fe::createHipdnnHandle(stream);
        if(err.is_bad())
            return fail(entry, hipdnnStatusOf(err), "creating the hipDNN handle failed: " + err.get_message(), "");
        hs.hipdnn = std::move(handle);
        hs.stream = stream;
    }
    else if(hs.stream != stream)
    {
        fe::Error err = fe::setHipdnnHandleStream(hs.hipdnn, stream);
        if(err.is_bad())
            return fail(entry, hipdnnStatusOf(err), "setting the hipDNN stream failed: " + err.get_message(), "");
        hs.stream = stream;
    }
    return miopenStatusSuccess;
}

} // namespace core

namespace {

miopenStatus_t forward(const ConvCall& c, const Problem& p, Plan& plan)
{
    if(!backendState().usable)
        return fail(c.entry, kHipdnnNotInitialized, backendState().error, "");
    auto hs = handleState(c.handle, true);
    std::lock_guard<std::mutex> lock(hs->m);
    if(const miopenStatus_t st = bindHipdnnHandle(c.entry, *hs, p.stream); st != miopenStatusSuccess)
        return st;
    buildPlan(c, p, plan, *hs->hipdnn);
    if(plan.graph == nullptr)
        return fail(c.entry, plan.buildStatus, plan.buildMessage, "");
    auto engine = [&] { return "engine=" + plan.engineName + " engine_id=" + std::to_string(plan.engineId) + " "; };
    void* ws = nullptr;
    if(plan.workspaceSize > 0)
    {
        const auto need = static_cast<std::size_t>(plan.workspaceSize);
        if(c.workspace != nullptr && c.workspaceSize >= need)
            ws = c.workspace;
        else
        {
            if(hs->workspace.size() < need)
                hs->workspace.resize(need);
            ws = hs->workspace.data();
        }
    }
    // The variant pack: this thread's map, whose keys stay and whose values are re-pointed (no
    // allocation per call). The frontend copies what it needs before execute() returns.
    auto& pack = variantPack(p);
    auto at    = [&pack](std::int64_t uid) -> void*& { return pack.find(uid)->second; };
    switch(c.op)
    {
    case Op::Forward:
    case Op::BiasActivation:
        at(1) = const_cast<void*>(c.x);
        at(2) = const_cast<void*>(c.w);
        break;
    case Op::BackwardData:
        at(1) = const_cast<void*>(c.y);
        at(2) = const_cast<void*>(c.w);
        break;
    case Op::BackwardWeights:
        at(1) = const_cast<void*>(c.y);
        at(2) = const_cast<void*>(c.x);
        break;
    }
    at(3) = c.written;
    if(c.op == Op::BiasActivation)
        at(4) = const_cast<void*>(c.bias);
    if(p.op != Op::BiasActivation && p.beta != 0.0f)
        at(kUidPrior) = c.written; // read by the graph before it writes uid 3
    if(p.hasZ)
        at(kUidZ) = const_cast<void*>(c.z);
    const bool timed = hs->profiling;
    const auto t0    = timed ? std::chrono::steady_clock::now() : std::chrono::steady_clock::time_point{};
    fe::Error err    = plan.graph->execute(*hs->hipdnn, pack, ws);
    if(err.is_bad())
        return fail(c.entry, hipdnnStatusOf(err), "executing the hipDNN plan on " + plan.engineName + " failed: " +
                                                      err.get_message(), engine());
    if(timed)
    {
        const auto t1        = std::chrono::steady_clock::now();
        hs->forwardedMs      = std::chrono::duration<float, std::milli>(t1 - t0).count();
        hs->lastWasForwarded = true;
        (void)miopenGetKernelTime_impl(c.handle, &hs->privateSnapshot);
    }
    tLast.hipdnnStatus = kHipdnnSuccess;
    tLast.message.clear();
    tLast.prefixStatus = -1;
    record(c.entry, &EntryStats::forwarded,
           [&] { return "route=hipdnn reason=in-forwarding-set " + engine() + "status=miopenStatusSuccess"; });
    return miopenStatusSuccess;
}

} // namespace

namespace core {

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

} // namespace core

namespace {

// Runs the call on Private with the written tensor redirected into `scratch` (the arguments were
// validated as Private validates them; with beta != 0 `scratch` holds the caller's prior output).
miopenStatus_t runOnPrivate(const ConvCall& c, void* scratch)
{
    void* ws = c.workspace;
    const std::size_t wsSize = c.workspaceSize;
    switch(c.op)
    {
    case Op::Forward:
        return c.immediate ? miopenConvolutionForwardImmediate_impl(c.handle, c.wDesc, c.w, c.xDesc, c.x, c.conv, c.yDesc,
                                                                    scratch, ws, wsSize, c.solutionId)
                           : miopenConvolutionForward_impl(c.handle, c.alpha, c.xDesc, c.x, c.wDesc, c.w, c.conv,
                                                           static_cast<miopenConvFwdAlgorithm_t>(c.algo), c.beta,
                                                           c.yDesc, scratch, ws, wsSize);
    case Op::BackwardData:
        return c.immediate ? miopenConvolutionBackwardDataImmediate_impl(c.handle, c.yDesc, c.y, c.wDesc, c.w, c.conv,
                                                                         c.xDesc, scratch, ws, wsSize, c.solutionId)
                           : miopenConvolutionBackwardData_impl(c.handle, c.alpha, c.yDesc, c.y, c.wDesc, c.w, c.conv,
                                                                static_cast<miopenConvBwdDataAlgorithm_t>(c.algo),
                                                                c.beta, c.xDesc, scratch, ws, wsSize);
    case Op::BackwardWeights:
        return c.immediate ? miopenConvolutionBackwardWeightsImmediate_impl(c.handle, c.yDesc, c.y, c.xDesc, c.x, c.conv,
                                                                            c.wDesc, scratch, ws, wsSize, c.solutionId)
                           : miopenConvolutionBackwardWeights_impl(c.handle, c.alpha, c.yDesc, c.y, c.xDesc, c.x, c.conv,
                                                                   static_cast<miopenConvBwdWeightsAlgorithm_t>(c.algo),
                                                                   c.beta, c.wDesc, scratch, ws, wsSize);
    case Op::BiasActivation:
        return miopenConvolutionBiasActivationForward_impl(c.handle, c.alpha, c.xDesc, c.x, c.wDesc, c.w, c.conv,
                                                           static_cast<miopenConvFwdAlgorithm_t>(c.algo), ws, wsSize,
                                                           c.alpha2, c.zDesc, c.z, c.biasDesc, c.bias, c.activ, c.yDesc,
                                                           scratch);
    }
    return miopenStatusInternalError;
}

// The forwarded call succeeded: run it on Private too and compare (shadow_verify.hpp). Counted per
// entry point (verified / mismatched); a mismatch is logged once per problem. The caller keeps
// hipDNN's result.
// `c` is the caller's call (run on Private), `rc` the same in the graph's regular roles (problem
// `p`, transposed swapped); `prior` the caller's output before the forwarded call wrote it (beta
// != 0), else empty.
void shadowVerify(const ConvCall& c, const ConvCall& rc, const Problem& p, Plan& plan,
                  const std::vector<unsigned char>& prior)
{
    const TensorInfo& out = p.op == Op::BackwardData ? p.x : p.op == Op::BackwardWeights ? p.w : p.y;
    const std::size_t n   = elementCount(out);
    thread_local std::vector<unsigned char> scratch;
    scratch.resize(n * elementBytes(out.type));
    if(!prior.empty())
        std::memcpy(scratch.data(), prior.data(), scratch.size()); // Private blends into the same prior output
    const miopenStatus_t st = runOnPrivate(c, scratch.data());
    // Private's compute call changed its kernel time: a forwarded call's time stays the answer.
    if(auto hs = handleState(c.handle, false))
    {
        std::lock_guard<std::mutex> lock(hs->m);
        if(hs->lastWasForwarded)
            (void)miopenGetKernelTime_impl(c.handle, &hs->privateSnapshot);
    }
    // The reduction of one output element and the magnitudes of its two factors.
    std::int64_t filter = 1, outSpatial = 1;
    for(int i = 2; i < p.w.rank; ++i)
    {
        filter *= p.w.lens[static_cast<std::size_t>(i)];
        outSpatial *= p.y.lens[static_cast<std::size_t>(i)];
    }
    const int g = std::max(1, p.conv.groups);
    std::int64_t length = 0;
    double maxA = 0.0, maxB = 0.0, maxAddend = 0.0;
    switch(p.op)
    {
    case Op::Forward:
    case Op::BiasActivation:
        length = p.w.lens[1] * filter;
        maxA   = verify::maxAbs(p.x.type, rc.x, elementCount(p.x));
        maxB   = verify::maxAbs(p.w.type, rc.w, elementCount(p.w));
        if(p.op == Op::BiasActivation)
            maxAddend = verify::maxAbs(p.bias.type, rc.bias, elementCount(p.bias));
        if(p.hasZ)
            maxAddend += std::fabs(p.alpha2) * verify::maxAbs(p.z.type, rc.z, elementCount(p.z));
        break;
    case Op::BackwardData:
        length = p.w.lens[0] / g * filter;
        maxA   = verify::maxAbs(p.y.type, rc.y, elementCount(p.y));
        maxB   = verify::maxAbs(p.w.type, rc.w, elementCount(p.w));
        break;
    case Op::BackwardWeights:
        length = p.x.lens[0] * outSpatial;
        maxA   = verify::maxAbs(p.x.type, rc.x, elementCount(p.x));
        maxB   = verify::maxAbs(p.y.type, rc.y, elementCount(p.y));
        break;
    }
    // The epilogue: alpha scales the reduction, beta * prior is one more addend.
    maxA *= std::fabs(p.alpha);
    if(!prior.empty())
        maxAddend += std::fabs(p.beta) * verify::maxAbs(out.type, prior.data(), n);
    verify::Outcome o;
    if(st != miopenStatusSuccess)
        o.ok = false;
    else
        o = verify::compare(out.type, c.written, scratch.data(), n,
                            verify::convBound(out.type, length, maxA, maxB, maxAddend));
    const std::string what = o.ok                      ? std::string()
                             : st != miopenStatusSuccess ? std::string("MIOpen Private failed: ") + miopenGetErrorString_impl(st)
                                                         : verify::describe(o);
    recordVerification(c.entry, o.ok, plan, [&] {
        return std::string(opName(c.op)) + (p.transposed ? ", transposed" : "") + ", x " + shapeText(p.x) + ", w " +
               shapeText(p.w) + ", y " + shapeText(p.y) + ", groups " + std::to_string(p.conv.groups);
    }, what);
}

} // namespace

namespace core {

bool refusedOrRouted(const char* entry, miopenStatus_t* status, bool* toPrivate)
{
    ensureInit();
    *toPrivate = false;
    if(callsRefused()) // version skew at load: nothing reaches Private or hipDNN
    {
        *status = miopenStatusVersionMismatch;
        return true;
    }
    const Config& cfg = config();
    const Decision d  = resolveRoute(cfg.mode, entry, cfg.optOut, forwardingSet(), cfg.miopenOnlyVariable);
    if(d.route == Route::HipDnn)
        return false;
    tLast.prefixStatus = -1;
    record(entry, &EntryStats::routed, [&] {
        std::string text = std::string("route=miopen reason=") + reasonName(d.reason);
        if(d.reason == Reason::MiopenOnlyVariable)
            text += ":" + cfg.miopenOnlyVariable;
        return text;
    });
    *toPrivate = true;
    return false;
}

bool keepOnPrivate(const char* entry, const Check& chk)
{
    tLast.prefixStatus  = -1;
    const bool declined = chk.verdict == Verdict::Decline;
    record(entry, declined ? &EntryStats::declined : &EntryStats::invalid, [&] {
        return std::string("route=miopen reason=") + (declined ? "declined:" : "invalid-arguments:") + chk.why;
    });
    return false;
}

} // namespace core

bool tryForward(const ConvCall& c, miopenStatus_t* status) noexcept
{
    return guarded(c.entry, status, [&] {
    bool toPrivate = false;
    if(refusedOrRouted(c.entry, status, &toPrivate))
        return true;
    if(toPrivate)
        return false;
    const Config& cfg = config();
    Problem p{};
    p.op = c.op;
    Check chk = examine(c, p);
    std::shared_ptr<Plan> plan;
    if(chk.verdict == Verdict::Forward)
    {
        plan = planCache().get(problemKey(p));
        readProblemFacts(c, p, *plan);
        chk = checkSolutionArgs(c, *plan);
    }
    if(chk.verdict != Verdict::Forward)
        return keepOnPrivate(c.entry, chk);
    if(cfg.enableLoggingCmd)
        logDriverCommand(c, p);
    // The call in the graph's regular roles: a transposed call has x and y swapped.
    ConvCall rc = c;
    rc.op       = p.op;
    if(p.transposed)
    {
        std::swap(rc.xDesc, rc.yDesc);
        std::swap(rc.x, rc.y);
    }
    // Verify mode with beta != 0: Private must blend into the same prior output the forwarded
    // call read, so keep a copy before the graph overwrites it (dense: n elements, no gaps).
    thread_local std::vector<unsigned char> prior;
    prior.clear();
    if(cfg.mode == Mode::Verify && p.op != Op::BiasActivation && p.beta != 0.0f)
    {
        const TensorInfo& out = p.op == Op::BackwardData ? p.x : p.op == Op::BackwardWeights ? p.w : p.y;
        const auto* from      = static_cast<const unsigned char*>(c.written);
        prior.assign(from, from + elementCount(out) * elementBytes(out.type));
    }
    // Likewise a residual z that is the output's memory (MIOpen allows z == y).
    thread_local std::vector<unsigned char> zCopy;
    ConvCall pc = c; // the call Private verifies with
    if(cfg.mode == Mode::Verify && p.hasZ && c.z == c.written)
    {
        const auto* from = static_cast<const unsigned char*>(c.z);
        zCopy.assign(from, from + elementCount(p.z) * elementBytes(p.z.type));
        pc.z = zCopy.data();
    }
    *status = forward(rc, p, *plan);
    if(cfg.mode == Mode::Verify && *status == miopenStatusSuccess)
    {
        rc.z = pc.z;
        shadowVerify(pc, rc, p, *plan, prior);
    }
    return true;
    });
}

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
