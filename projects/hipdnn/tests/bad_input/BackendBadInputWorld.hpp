// The valid-value factories of the generated hipDNN backend bad-input corpus
// (gen_backend_bad_input_cases.py). One BackendWorld per case, built before the call: a live
// handle; tensor descriptors open and finalized; the conv graph of tests/common/GraphFixtures.hpp
// deserialized (open and finalized), its execution plan and a variant pack over guarded buffers
// (finalized, and open ones of the same types); guarded output slots, strings and length
// arguments that state the real buffer sizes. After the call every guard must be intact and every
// input unchanged.
#pragma once

#include "../common/GraphFixtures.hpp"

#include <hipdnn_backend.h>

#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <deque>
#include <functional>
#include <initializer_list>
#include <map>
#include <string>
#include <type_traits>
#include <vector>

namespace backend_bad_input
{

constexpr int kNoStatus = -1; // a void function's "status"

// The statuses a case may return; noStatus: a void function (it must simply return).
struct Expect
{
    std::vector<int> statuses;
    bool isVoid = false;
    static Expect oneOf(std::initializer_list<hipdnnStatus_t> s)
    {
        Expect e;
        for(auto v : s)
        {
            e.statuses.push_back(static_cast<int>(v));
        }
        return e;
    }
    static Expect noStatus()
    {
        Expect e;
        e.isVoid = true;
        e.statuses.push_back(kNoStatus);
        return e;
    }
    bool accepts(int s) const
    {
        for(auto v : statuses)
        {
            if(v == s)
            {
                return true;
            }
        }
        return false;
    }
};

// Bytes with guard bytes on both sides (as MIOpen's api_helpers.hpp GuardedBuffer).
class Guarded
{
public:
    static constexpr std::size_t kGuard = 256;
    static constexpr unsigned char kCanary = 0xA5;
    explicit Guarded(std::size_t bytes) : _bytes(bytes), _storage(bytes + 2 * kGuard, kCanary) {}
    void* data() { return _storage.data() + kGuard; }
    std::size_t size() const { return _bytes; }
    bool guardsIntact() const
    {
        for(std::size_t i = 0; i < kGuard; ++i)
        {
            if(_storage[i] != kCanary || _storage[kGuard + _bytes + i] != kCanary)
            {
                return false;
            }
        }
        return true;
    }
    std::vector<unsigned char> snapshot() const
    {
        return {_storage.begin() + static_cast<std::ptrdiff_t>(kGuard),
                _storage.begin() + static_cast<std::ptrdiff_t>(kGuard + _bytes)};
    }

private:
    std::size_t _bytes;
    std::vector<unsigned char> _storage;
};

class BackendWorld
{
public:
    static constexpr std::size_t kPathCount   = 8;
    static constexpr std::size_t kStringBytes = 256;
    static constexpr std::size_t kBigBytes    = 1 << 16;

    BackendWorld()
    {
        expectOk(hipdnnCreate(&_handle), "hipdnnCreate");
        _finalizedTensor = makeTensor(11, true);
        _openTensor      = makeTensor(12, false);
        _fresh           = make(HIPDNN_BACKEND_TENSOR_DESCRIPTOR);
        _graphBytes      = hipdnn_tests::serializedConvGraph();
        EXPECT_FALSE(_graphBytes.empty());
        _graph     = deserialize(true);
        _openGraph = deserialize(false);
        buildPlan();
        _openPlan = make(HIPDNN_BACKEND_EXECUTION_PLAN_DESCRIPTOR);
        _openPack = make(HIPDNN_BACKEND_VARIANT_PACK_DESCRIPTOR);
        _pack     = makePack();
    }
    ~BackendWorld()
    {
        for(auto& f : _created)
        {
            f();
        }
        hipdnnSetUserLogCallback_ext(&ignoreLog, HIPDNN_SEV_OFF, HIPDNN_LOG_CALLBACK_SYNC, &_logUser);
        for(auto it = _descriptors.rbegin(); it != _descriptors.rend(); ++it)
        {
            hipdnnBackendDestroyDescriptor(*it);
        }
        hipdnnDestroy(_handle);
        char drain[kStringBytes];
        hipdnnGetLastErrorString(drain, sizeof(drain));
    }
    BackendWorld(const BackendWorld&)            = delete;
    BackendWorld& operator=(const BackendWorld&) = delete;

    // ---- valid values --------------------------------------------------------------------------
    hipdnnHandle_t handle() const { return _handle; }
    hipdnnBackendDescriptor_t finalizedTensor() const { return _finalizedTensor; }
    hipdnnBackendDescriptor_t openTensor() const { return _openTensor; }
    hipdnnBackendDescriptor_t freshDescriptor() const { return _fresh; }
    hipdnnBackendDescriptor_t graph() const { return _graph; }
    hipdnnBackendDescriptor_t openGraph() const { return _openGraph; }
    hipdnnBackendDescriptor_t plan() const { return _plan; }
    hipdnnBackendDescriptor_t openPlan() const { return _openPlan; }
    hipdnnBackendDescriptor_t variantPack() const { return _pack; }
    hipdnnBackendDescriptor_t openVariantPack() const { return _openPack; }
    int64_t workspaceBytes() const { return _workspaceBytes; }

    template <class T>
    T* slot(const char*)
    {
        Guarded& g = add(4096);
        T* p       = static_cast<T*>(g.data());
        if constexpr(std::is_same_v<T, hipdnnHandle_t>)
        {
            _onSuccess.push_back([this, p] { _created.push_back([h = *p] { hipdnnDestroy(h); }); });
        }
        else if constexpr(std::is_same_v<T, hipdnnBackendDescriptor_t>)
        {
            _onSuccess.push_back([this, p] { _descriptors.push_back(*p); });
        }
        return p;
    }
    template <class T>
    const T* input(std::initializer_list<T> values)
    {
        Guarded& g = add(values.size() * sizeof(T));
        std::memcpy(g.data(), values.begin(), values.size() * sizeof(T));
        remember(g);
        return static_cast<const T*>(g.data());
    }
    char* chars() { return static_cast<char*>(add(kStringBytes).data()); }
    size_t stringBytes() const { return kStringBytes; }
    size_t bigBytes() const { return kBigBytes; }
    uint8_t* bytes() { return static_cast<uint8_t*>(add(kBigBytes).data()); }
    size_t* lengthSlot(size_t value)
    {
        Guarded& g = add(sizeof(size_t));
        std::memcpy(g.data(), &value, sizeof value);
        return static_cast<size_t*>(g.data());
    }
    char** pathBuffers()
    {
        Guarded& table = add(kPathCount * sizeof(char*));
        auto** p       = static_cast<char**>(table.data());
        for(std::size_t i = 0; i < kPathCount; ++i)
        {
            p[i] = chars();
        }
        remember(table); // the table of pointers is read, never written
        return p;
    }
    const char* const* pluginPaths()
    {
        const char* path = text("/nonexistent/bad-input-plugins");
        Guarded& table   = add(sizeof(char*));
        std::memcpy(table.data(), &path, sizeof path);
        remember(table);
        return static_cast<const char* const*>(table.data());
    }
    const char* text(const char* s)
    {
        Guarded& g = add(std::strlen(s) + 1);
        std::memcpy(g.data(), s, std::strlen(s) + 1);
        remember(g);
        return static_cast<const char*>(g.data());
    }
    const uint8_t* graphBytes()
    {
        Guarded& g = add(_graphBytes.size());
        std::memcpy(g.data(), _graphBytes.data(), _graphBytes.size());
        remember(g);
        return static_cast<const uint8_t*>(g.data());
    }
    size_t graphByteCount() const { return _graphBytes.size(); }
    hipdnnUserLogCallbackHandle_t logUserHandle() { return &_logUser; }
    static void ignoreLog(hipdnnUserLogCallbackHandle_t, hipdnnSeverity_t, const char*) {}

    // ---- objects of the other C type (cast through void*) -------------------------------------
    hipdnnHandle_t descriptorAsHandle() const
    {
        return static_cast<hipdnnHandle_t>(static_cast<void*>(_finalizedTensor));
    }
    hipdnnBackendDescriptor_t handleAsDescriptor() const
    {
        return static_cast<hipdnnBackendDescriptor_t>(static_cast<void*>(_handle));
    }

    // ---- checks --------------------------------------------------------------------------------
    void afterCall(int status)
    {
        if(status == HIPDNN_STATUS_SUCCESS)
        {
            for(auto& f : _onSuccess)
            {
                f();
            }
        }
        _onSuccess.clear();
    }
    std::string damage() const
    {
        std::string out;
        for(std::size_t i = 0; i < _buffers.size(); ++i)
        {
            if(!_buffers[i].guardsIntact())
            {
                out += " buffer " + std::to_string(i) + ": guard overwritten;";
            }
            auto it = _copies.find(i);
            if(it != _copies.end() && _buffers[i].snapshot() != it->second)
            {
                out += " buffer " + std::to_string(i) + ": input modified;";
            }
        }
        return out;
    }

    // A guarded buffer of `bytes` the case may use for anything (its guards are checked).
    Guarded& add(std::size_t bytes)
    {
        _buffers.emplace_back(bytes);
        return _buffers.back();
    }
    void remember(const Guarded& g)
    {
        for(std::size_t i = 0; i < _buffers.size(); ++i)
        {
            if(&_buffers[i] == &g)
            {
                _copies[i] = g.snapshot();
            }
        }
    }
    hipdnnBackendDescriptor_t make(hipdnnBackendDescriptorType_t type)
    {
        hipdnnBackendDescriptor_t d = nullptr;
        expectOk(hipdnnBackendCreateDescriptor(type, &d), "hipdnnBackendCreateDescriptor");
        _descriptors.push_back(d);
        return d;
    }
    hipdnnBackendDescriptor_t makeTensor(int64_t uid, bool finalize, std::vector<int64_t> dims = {1, 2, 5, 5})
    {
        auto d = make(HIPDNN_BACKEND_TENSOR_DESCRIPTOR);
        std::vector<int64_t> strides(dims.size(), 1);
        for(std::size_t i = dims.size(); i-- > 1;)
        {
            strides[i - 1] = strides[i] * dims[i];
        }
        const hipdnnDataType_t dt = HIPDNN_DATA_FLOAT;
        const bool isVirtual      = false;
        expectOk(hipdnnBackendSetAttribute(d, HIPDNN_ATTR_TENSOR_UNIQUE_ID, HIPDNN_TYPE_INT64, 1, &uid), "uid");
        expectOk(hipdnnBackendSetAttribute(d, HIPDNN_ATTR_TENSOR_DATA_TYPE, HIPDNN_TYPE_DATA_TYPE, 1, &dt), "type");
        expectOk(hipdnnBackendSetAttribute(d, HIPDNN_ATTR_TENSOR_DIMENSIONS, HIPDNN_TYPE_INT64,
                                           static_cast<int64_t>(dims.size()), dims.data()), "dims");
        expectOk(hipdnnBackendSetAttribute(d, HIPDNN_ATTR_TENSOR_STRIDES, HIPDNN_TYPE_INT64,
                                           static_cast<int64_t>(strides.size()), strides.data()), "strides");
        expectOk(hipdnnBackendSetAttribute(d, HIPDNN_ATTR_TENSOR_IS_VIRTUAL, HIPDNN_TYPE_BOOLEAN, 1, &isVirtual), "virtual");
        if(finalize)
        {
            expectOk(hipdnnBackendFinalize(d), "finalize tensor");
        }
        return d;
    }
    // Variant pack over guarded x [1,2,5,5], w [3,2,3,3], y [1,3,5,5] (uids 1, 2, 3).
    hipdnnBackendDescriptor_t makePack(std::vector<int64_t> uids = {1, 2, 3}, bool withWorkspace = true)
    {
        auto pack = make(HIPDNN_BACKEND_VARIANT_PACK_DESCRIPTOR);
        std::vector<void*> ptrs;
        for(std::size_t i = 0; i < uids.size(); ++i)
        {
            const std::size_t elems = uids[i] == 2 ? 3 * 2 * 3 * 3 : uids[i] == 3 ? 1 * 3 * 5 * 5 : 1 * 2 * 5 * 5;
            Guarded& g              = add(elems * sizeof(float));
            auto* f                 = static_cast<float*>(g.data());
            for(std::size_t e = 0; e < elems; ++e)
            {
                f[e] = 0.5f - 0.125f * static_cast<float>(e % 9);
            }
            if(uids[i] != 3)
            {
                remember(g);
            }
            ptrs.push_back(g.data());
        }
        void* ws = withWorkspace ? add(static_cast<std::size_t>(_workspaceBytes) + 64).data() : nullptr;
        expectOk(hipdnnBackendSetAttribute(pack, HIPDNN_ATTR_VARIANT_PACK_UNIQUE_IDS, HIPDNN_TYPE_INT64,
                                           static_cast<int64_t>(uids.size()), uids.data()), "uids");
        expectOk(hipdnnBackendSetAttribute(pack, HIPDNN_ATTR_VARIANT_PACK_DATA_POINTERS, HIPDNN_TYPE_VOID_PTR,
                                           static_cast<int64_t>(ptrs.size()), ptrs.data()), "pointers");
        expectOk(hipdnnBackendSetAttribute(pack, HIPDNN_ATTR_VARIANT_PACK_WORKSPACE, HIPDNN_TYPE_VOID_PTR, 1, &ws), "workspace");
        expectOk(hipdnnBackendFinalize(pack), "finalize pack");
        return pack;
    }

private:
    static void expectOk(hipdnnStatus_t s, const char* what)
    {
        if(s != HIPDNN_STATUS_SUCCESS)
        {
            char message[kStringBytes];
            hipdnnGetLastErrorString(message, sizeof(message));
            ADD_FAILURE() << what << ": " << hipdnnGetErrorString(s) << ": " << message;
        }
    }
    hipdnnBackendDescriptor_t deserialize(bool finalize)
    {
        hipdnnBackendDescriptor_t g = nullptr;
        expectOk(hipdnnBackendCreateAndDeserializeGraph_ext(&g, _graphBytes.data(), _graphBytes.size()), "deserialize");
        _descriptors.push_back(g);
        expectOk(hipdnnBackendSetAttribute(g, HIPDNN_ATTR_OPERATIONGRAPH_HANDLE, HIPDNN_TYPE_HANDLE, 1, &_handle), "graph handle");
        if(finalize)
        {
            expectOk(hipdnnBackendFinalize(g), "finalize graph");
        }
        return g;
    }
    void buildPlan()
    {
        auto heur                          = make(HIPDNN_BACKEND_ENGINEHEUR_DESCRIPTOR);
        const hipdnnBackendHeurMode_t mode = HIPDNN_HEUR_MODE_FALLBACK;
        expectOk(hipdnnBackendSetAttribute(heur, HIPDNN_ATTR_ENGINEHEUR_OPERATION_GRAPH, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &_graph), "heur graph");
        expectOk(hipdnnBackendSetAttribute(heur, HIPDNN_ATTR_ENGINEHEUR_MODE, HIPDNN_TYPE_HEUR_MODE, 1, &mode), "heur mode");
        expectOk(hipdnnBackendFinalize(heur), "finalize heur");
        int64_t count = 0;
        auto cfg      = make(HIPDNN_BACKEND_ENGINECFG_DESCRIPTOR);
        expectOk(hipdnnBackendGetAttribute(heur, HIPDNN_ATTR_ENGINEHEUR_RESULTS, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &count, &cfg), "heur results");
        _plan = make(HIPDNN_BACKEND_EXECUTION_PLAN_DESCRIPTOR);
        expectOk(hipdnnBackendSetAttribute(_plan, HIPDNN_ATTR_EXECUTION_PLAN_ENGINE_CONFIG, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &cfg), "plan cfg");
        expectOk(hipdnnBackendFinalize(_plan), "finalize plan");
        expectOk(hipdnnBackendGetAttribute(_plan, HIPDNN_ATTR_EXECUTION_PLAN_WORKSPACE_SIZE, HIPDNN_TYPE_INT64, 1, &count, &_workspaceBytes), "workspace");
    }

    hipdnnHandle_t _handle = nullptr;
    hipdnnBackendDescriptor_t _finalizedTensor = nullptr, _openTensor = nullptr, _fresh = nullptr;
    hipdnnBackendDescriptor_t _graph = nullptr, _openGraph = nullptr, _plan = nullptr, _openPlan = nullptr;
    hipdnnBackendDescriptor_t _pack = nullptr, _openPack = nullptr;
    int64_t _workspaceBytes = 0;
    int _logUser            = 0;
    std::vector<uint8_t> _graphBytes;
    std::vector<hipdnnBackendDescriptor_t> _descriptors;
    std::deque<Guarded> _buffers;
    std::map<std::size_t, std::vector<unsigned char>> _copies;
    std::vector<std::function<void()>> _onSuccess, _created;
};

struct BadCase
{
    const char* name;
    Expect expect;
    std::function<int(BackendWorld&)> call;
};

const std::vector<BadCase>& generatedCases();
const std::vector<BadCase>& handWrittenCases();

} // namespace backend_bad_input
