// Black-box tests of the C API: every entry point, bad input -> upstream status + last-error
// message, never a crash. Links only libhipdnn_backend.so (plus header-only helpers).
#include "../common/GraphFixtures.hpp"
#include "BlackBoxHelpers.hpp"

#include <chrono>
#include <condition_variable>
#include <cstring>

using blackbox::lastError;

namespace
{
struct HandleGuard
{
    hipdnnHandle_t handle = nullptr;
    HandleGuard() { EXPECT_EQ(hipdnnCreate(&handle), HIPDNN_STATUS_SUCCESS); }
    ~HandleGuard()
    {
        if(handle != nullptr)
        {
            EXPECT_EQ(hipdnnDestroy(handle), HIPDNN_STATUS_SUCCESS);
        }
    }
};

struct Desc
{
    hipdnnBackendDescriptor_t d = nullptr;
    explicit Desc(hipdnnBackendDescriptorType_t t) { EXPECT_EQ(hipdnnBackendCreateDescriptor(t, &d), HIPDNN_STATUS_SUCCESS); }
    Desc() = default;
    ~Desc()
    {
        if(d != nullptr)
        {
            hipdnnBackendDestroyDescriptor(d);
        }
    }
};

hipdnnBackendDescriptor_t fakeDescriptor()
{
    static int storage = 0;
    return reinterpret_cast<hipdnnBackendDescriptor_t>(&storage);
}
} // namespace

TEST(BackendApiHandle, CreateDestroyAndStreams)
{
    EXPECT_STATUS_AND_MESSAGE(hipdnnCreate(nullptr), HIPDNN_STATUS_BAD_PARAM_NULL_POINTER, "handle is null");
    EXPECT_STATUS_AND_MESSAGE(hipdnnDestroy(nullptr), HIPDNN_STATUS_BAD_PARAM, "handle is null");
    int notAHandle = 0;
    EXPECT_STATUS_AND_MESSAGE(hipdnnDestroy(reinterpret_cast<hipdnnHandle_t>(&notAHandle)), HIPDNN_STATUS_BAD_PARAM,
                              "not a live hipDNN handle");
    HandleGuard h;
    auto* stream = reinterpret_cast<hipStream_t>(0x1234);
    EXPECT_EQ(hipdnnSetStream(h.handle, stream), HIPDNN_STATUS_SUCCESS);
    hipStream_t got = nullptr;
    EXPECT_EQ(hipdnnGetStream(h.handle, &got), HIPDNN_STATUS_SUCCESS);
    EXPECT_EQ(got, stream);
    EXPECT_STATUS_AND_MESSAGE(hipdnnGetStream(h.handle, nullptr), HIPDNN_STATUS_BAD_PARAM_NULL_POINTER, "streamId");
    EXPECT_STATUS_AND_MESSAGE(hipdnnSetStream(nullptr, stream), HIPDNN_STATUS_BAD_PARAM, "handle is null");
}

TEST(BackendApiErrors, ErrorStringsAndLastErrorSemantics)
{
    for(int s = HIPDNN_STATUS_SUCCESS; s <= HIPDNN_STATUS_PLUGIN_ERROR; ++s)
    {
        EXPECT_NE(std::string(hipdnnGetErrorString(static_cast<hipdnnStatus_t>(s))).find("HIPDNN_STATUS_"), std::string::npos);
    }
    EXPECT_STREQ(hipdnnGetErrorString(HIPDNN_STATUS_PLUGIN_ERROR), "HIPDNN_STATUS_PLUGIN_ERROR");
    EXPECT_STREQ(hipdnnGetErrorString(static_cast<hipdnnStatus_t>(999)), "HIPDNN_STATUS_UNKNOWN");

    EXPECT_EQ(hipdnnCreate(nullptr), HIPDNN_STATUS_BAD_PARAM_NULL_POINTER);
    char small[8];
    hipdnnPeekLastErrorString_ext(small, sizeof(small));
    EXPECT_EQ(std::strlen(small), 7u); // truncated, NUL-terminated
    char full[HIPDNN_ERROR_STRING_MAX_LENGTH];
    hipdnnPeekLastErrorString_ext(full, sizeof(full));
    EXPECT_NE(std::string(full).find("hipdnnCreate"), std::string::npos); // peek did not clear
    hipdnnGetLastErrorString(nullptr, 10);                                // no crash
    hipdnnGetLastErrorString(full, 0);                                    // no crash, no write
    hipdnnGetLastErrorString(full, sizeof(full));
    EXPECT_NE(std::string(full).find("hipdnnCreate"), std::string::npos);
    hipdnnGetLastErrorString(full, sizeof(full));
    EXPECT_STREQ(full, ""); // cleared by the previous read
}

TEST(BackendApiVersion, VersionStringIsOneDotZero)
{
    const std::string v = hipdnnVersionString_ext();
    EXPECT_EQ(v.rfind("1.0.0.", 0), 0u) << v;
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
    const char* old = nullptr;
    EXPECT_EQ(hipdnnGetVersion_ext(&old), HIPDNN_STATUS_SUCCESS);
    EXPECT_EQ(v, old);
    EXPECT_STATUS_AND_MESSAGE(hipdnnGetVersion_ext(nullptr), HIPDNN_STATUS_BAD_PARAM_NULL_POINTER, "version");
#pragma GCC diagnostic pop
}

TEST(BackendApiDescriptors, CreateDestroyAndWrongUse)
{
    EXPECT_STATUS_AND_MESSAGE(hipdnnBackendCreateDescriptor(HIPDNN_BACKEND_TENSOR_DESCRIPTOR, nullptr),
                              HIPDNN_STATUS_BAD_PARAM_NULL_POINTER, "descriptor is null");
    hipdnnBackendDescriptor_t d = nullptr;
    EXPECT_STATUS_AND_MESSAGE(hipdnnBackendCreateDescriptor(HIPDNN_BACKEND_KERNEL_CACHE_DESCRIPTOR, &d),
                              HIPDNN_STATUS_NOT_SUPPORTED, "not supported");
    EXPECT_STATUS_AND_MESSAGE(hipdnnBackendCreateDescriptor(static_cast<hipdnnBackendDescriptorType_t>(777), &d),
                              HIPDNN_STATUS_NOT_SUPPORTED, "777");
    ASSERT_EQ(hipdnnBackendCreateDescriptor(HIPDNN_BACKEND_TENSOR_DESCRIPTOR, &d), HIPDNN_STATUS_SUCCESS);
    EXPECT_EQ(hipdnnBackendDestroyDescriptor(d), HIPDNN_STATUS_SUCCESS);
    EXPECT_STATUS_AND_MESSAGE(hipdnnBackendDestroyDescriptor(d), HIPDNN_STATUS_BAD_PARAM, "not a live");
    EXPECT_STATUS_AND_MESSAGE(hipdnnBackendDestroyDescriptor(nullptr), HIPDNN_STATUS_BAD_PARAM, "null");
    EXPECT_STATUS_AND_MESSAGE(hipdnnBackendFinalize(fakeDescriptor()), HIPDNN_STATUS_BAD_PARAM, "not a live");
    EXPECT_STATUS_AND_MESSAGE(hipdnnBackendFinalize(nullptr), HIPDNN_STATUS_BAD_PARAM_NULL_POINTER, "null");
}

TEST(BackendApiAttributes, TypeCountFinalizationChecks)
{
    Desc t(HIPDNN_BACKEND_TENSOR_DESCRIPTOR);
    const int64_t uid = 1, dims[4] = {1, 2, 3, 4}, strides[4] = {24, 12, 4, 1};
    const hipdnnDataType_t dt = HIPDNN_DATA_FLOAT;
    const float f = 1.0f;
    EXPECT_STATUS_AND_MESSAGE(hipdnnBackendSetAttribute(t.d, HIPDNN_ATTR_TENSOR_UNIQUE_ID, HIPDNN_TYPE_FLOAT, 1, &f),
                              HIPDNN_STATUS_BAD_PARAM, "type");
    EXPECT_STATUS_AND_MESSAGE(hipdnnBackendSetAttribute(t.d, HIPDNN_ATTR_TENSOR_UNIQUE_ID, HIPDNN_TYPE_INT64, 2, dims),
                              HIPDNN_STATUS_BAD_PARAM, "element");
    EXPECT_STATUS_AND_MESSAGE(hipdnnBackendSetAttribute(t.d, HIPDNN_ATTR_TENSOR_UNIQUE_ID, HIPDNN_TYPE_INT64, 1, nullptr),
                              HIPDNN_STATUS_BAD_PARAM_NULL_POINTER, "arrayOfElements");
    EXPECT_STATUS_AND_MESSAGE(hipdnnBackendSetAttribute(t.d, HIPDNN_ATTR_ENGINEHEUR_MODE, HIPDNN_TYPE_INT64, 1, &uid),
                              HIPDNN_STATUS_BAD_PARAM, "not an attribute of HIPDNN_BACKEND_TENSOR_DESCRIPTOR");
    const auto badType = static_cast<hipdnnDataType_t>(99);
    EXPECT_STATUS_AND_MESSAGE(hipdnnBackendSetAttribute(t.d, HIPDNN_ATTR_TENSOR_DATA_TYPE, HIPDNN_TYPE_DATA_TYPE, 1, &badType),
                              HIPDNN_STATUS_BAD_PARAM, "invalid hipdnnDataType_t");
    int64_t count = 0;
    int64_t out = 0;
    EXPECT_STATUS_AND_MESSAGE(hipdnnBackendGetAttribute(t.d, HIPDNN_ATTR_TENSOR_UNIQUE_ID, HIPDNN_TYPE_INT64, 1, &count, &out),
                              HIPDNN_STATUS_NOT_INITIALIZED, "not finalized");
    EXPECT_STATUS_AND_MESSAGE(hipdnnBackendFinalize(t.d), HIPDNN_STATUS_BAD_PARAM, "unique id");
    ASSERT_EQ(hipdnnBackendSetAttribute(t.d, HIPDNN_ATTR_TENSOR_UNIQUE_ID, HIPDNN_TYPE_INT64, 1, &uid), HIPDNN_STATUS_SUCCESS);
    ASSERT_EQ(hipdnnBackendSetAttribute(t.d, HIPDNN_ATTR_TENSOR_DATA_TYPE, HIPDNN_TYPE_DATA_TYPE, 1, &dt), HIPDNN_STATUS_SUCCESS);
    ASSERT_EQ(hipdnnBackendSetAttribute(t.d, HIPDNN_ATTR_TENSOR_DIMENSIONS, HIPDNN_TYPE_INT64, 4, dims), HIPDNN_STATUS_SUCCESS);
    ASSERT_EQ(hipdnnBackendSetAttribute(t.d, HIPDNN_ATTR_TENSOR_STRIDES, HIPDNN_TYPE_INT64, 4, strides), HIPDNN_STATUS_SUCCESS);
    ASSERT_EQ(hipdnnBackendFinalize(t.d), HIPDNN_STATUS_SUCCESS);
    EXPECT_STATUS_AND_MESSAGE(hipdnnBackendFinalize(t.d), HIPDNN_STATUS_NOT_INITIALIZED, "already finalized");
    EXPECT_STATUS_AND_MESSAGE(hipdnnBackendSetAttribute(t.d, HIPDNN_ATTR_TENSOR_UNIQUE_ID, HIPDNN_TYPE_INT64, 1, &uid),
                              HIPDNN_STATUS_NOT_INITIALIZED, "read-only");
    int64_t gotDims[4] = {};
    EXPECT_EQ(hipdnnBackendGetAttribute(t.d, HIPDNN_ATTR_TENSOR_DIMENSIONS, HIPDNN_TYPE_INT64, 0, &count, nullptr),
              HIPDNN_STATUS_SUCCESS);
    EXPECT_EQ(count, 4);
    EXPECT_EQ(hipdnnBackendGetAttribute(t.d, HIPDNN_ATTR_TENSOR_DIMENSIONS, HIPDNN_TYPE_INT64, 4, &count, gotDims),
              HIPDNN_STATUS_SUCCESS);
    EXPECT_EQ(gotDims[3], 4);
    EXPECT_STATUS_AND_MESSAGE(hipdnnBackendGetAttribute(t.d, HIPDNN_ATTR_TENSOR_DIMENSIONS, HIPDNN_TYPE_INT64, 4, &count, nullptr),
                              HIPDNN_STATUS_BAD_PARAM_NULL_POINTER, "arrayOfElements");

    // An operation refuses an unfinalized tensor and a descriptor of the wrong kind.
    Desc conv(HIPDNN_BACKEND_OPERATION_CONVOLUTION_FORWARD_DESCRIPTOR);
    Desc unfinalized(HIPDNN_BACKEND_TENSOR_DESCRIPTOR);
    EXPECT_STATUS_AND_MESSAGE(hipdnnBackendSetAttribute(conv.d, HIPDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_X,
                                                        HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &unfinalized.d),
                              HIPDNN_STATUS_BAD_PARAM_NOT_FINALIZED, "not finalized");
    EXPECT_STATUS_AND_MESSAGE(hipdnnBackendSetAttribute(conv.d, HIPDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_X,
                                                        HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &conv.d),
                              HIPDNN_STATUS_BAD_PARAM, "must be a HIPDNN_BACKEND_TENSOR_DESCRIPTOR");
    EXPECT_STATUS_AND_MESSAGE(hipdnnBackendFinalize(conv.d), HIPDNN_STATUS_BAD_PARAM, "required");
}

TEST(BackendApiGraph, DeserializeRejectsBadBuffers)
{
    hipdnnBackendDescriptor_t g = nullptr;
    const auto bytes = hipdnn_tests::serializedConvGraph();
    ASSERT_FALSE(bytes.empty());
    EXPECT_STATUS_AND_MESSAGE(hipdnnBackendCreateAndDeserializeGraph_ext(nullptr, bytes.data(), bytes.size()),
                              HIPDNN_STATUS_BAD_PARAM_NULL_POINTER, "descriptor");
    EXPECT_STATUS_AND_MESSAGE(hipdnnBackendCreateAndDeserializeGraph_ext(&g, nullptr, 10),
                              HIPDNN_STATUS_BAD_PARAM_NULL_POINTER, "serializedGraph");
    EXPECT_STATUS_AND_MESSAGE(hipdnnBackendCreateAndDeserializeGraph_ext(&g, bytes.data(), 0), HIPDNN_STATUS_BAD_PARAM,
                              "graphByteSize is 0");
    std::vector<uint8_t> corrupt = bytes;
    corrupt[0] ^= 0xFF;
    corrupt[1] ^= 0xFF;
    EXPECT_STATUS_AND_MESSAGE(hipdnnBackendCreateAndDeserializeGraph_ext(&g, corrupt.data(), corrupt.size()),
                              HIPDNN_STATUS_BAD_PARAM, "invalid serialized graph");
    std::vector<uint8_t> noise(200, 0x5A);
    EXPECT_STATUS_AND_MESSAGE(hipdnnBackendCreateAndDeserializeGraph_ext(&g, noise.data(), noise.size()),
                              HIPDNN_STATUS_BAD_PARAM, "verification");
    ASSERT_EQ(hipdnnBackendCreateAndDeserializeGraph_ext(&g, bytes.data(), bytes.size()), HIPDNN_STATUS_SUCCESS);
    EXPECT_STATUS_AND_MESSAGE(hipdnnBackendFinalize(g), HIPDNN_STATUS_BAD_PARAM, "HIPDNN_ATTR_OPERATIONGRAPH_HANDLE");
    size_t size = 0;
    EXPECT_STATUS_AND_MESSAGE(hipdnnBackendGetSerializedBinaryGraph_ext(g, 0, &size, nullptr), HIPDNN_STATUS_NOT_INITIALIZED,
                              "not finalized");
    HandleGuard h;
    ASSERT_EQ(hipdnnBackendSetAttribute(g, HIPDNN_ATTR_OPERATIONGRAPH_HANDLE, HIPDNN_TYPE_HANDLE, 1, &h.handle),
              HIPDNN_STATUS_SUCCESS);
    ASSERT_EQ(hipdnnBackendFinalize(g), HIPDNN_STATUS_SUCCESS);
    EXPECT_EQ(hipdnnBackendGetSerializedBinaryGraph_ext(g, 0, &size, nullptr), HIPDNN_STATUS_SUCCESS);
    EXPECT_EQ(size, bytes.size());
    std::vector<uint8_t> copy(size);
    EXPECT_STATUS_AND_MESSAGE(hipdnnBackendGetSerializedBinaryGraph_ext(g, size - 1, &size, copy.data()),
                              HIPDNN_STATUS_BAD_PARAM_SIZE_INSUFFICIENT, "bytes");
    EXPECT_EQ(hipdnnBackendGetSerializedBinaryGraph_ext(g, copy.size(), &size, copy.data()), HIPDNN_STATUS_SUCCESS);
    EXPECT_EQ(copy, bytes);
    int64_t engines = 0, count = 0;
    EXPECT_EQ(hipdnnBackendGetAttribute(g, HIPDNN_ATTR_OPERATIONGRAPH_ENGINE_GLOBAL_COUNT, HIPDNN_TYPE_INT64, 1, &count, &engines),
              HIPDNN_STATUS_SUCCESS);
    EXPECT_GE(engines, 1);

    // Engines: an out-of-range global index is rejected.
    Desc engine(HIPDNN_BACKEND_ENGINE_DESCRIPTOR);
    const int64_t index = 1000;
    EXPECT_EQ(hipdnnBackendSetAttribute(engine.d, HIPDNN_ATTR_ENGINE_OPERATION_GRAPH, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &g),
              HIPDNN_STATUS_SUCCESS);
    EXPECT_EQ(hipdnnBackendSetAttribute(engine.d, HIPDNN_ATTR_ENGINE_GLOBAL_INDEX, HIPDNN_TYPE_INT64, 1, &index),
              HIPDNN_STATUS_SUCCESS);
    EXPECT_STATUS_AND_MESSAGE(hipdnnBackendFinalize(engine.d), HIPDNN_STATUS_BAD_PARAM_OUT_OF_BOUND, "out of range");

    // Heuristics: wrong mode, missing graph.
    Desc heur(HIPDNN_BACKEND_ENGINEHEUR_DESCRIPTOR);
    const auto badMode = static_cast<hipdnnBackendHeurMode_t>(3);
    EXPECT_STATUS_AND_MESSAGE(hipdnnBackendSetAttribute(heur.d, HIPDNN_ATTR_ENGINEHEUR_MODE, HIPDNN_TYPE_HEUR_MODE, 1, &badMode),
                              HIPDNN_STATUS_BAD_PARAM, "invalid heuristic mode (only HIPDNN_HEUR_MODE_FALLBACK is supported): 3");
    EXPECT_STATUS_AND_MESSAGE(hipdnnBackendFinalize(heur.d), HIPDNN_STATUS_BAD_PARAM, "OPERATION_GRAPH");

    // Execute with descriptors of the wrong kind or unfinalized.
    Desc plan(HIPDNN_BACKEND_EXECUTION_PLAN_DESCRIPTOR);
    Desc pack(HIPDNN_BACKEND_VARIANT_PACK_DESCRIPTOR);
    EXPECT_STATUS_AND_MESSAGE(hipdnnBackendExecute(h.handle, pack.d, plan.d), HIPDNN_STATUS_BAD_PARAM,
                              "must be a HIPDNN_BACKEND_EXECUTION_PLAN_DESCRIPTOR");
    EXPECT_STATUS_AND_MESSAGE(hipdnnBackendExecute(h.handle, plan.d, pack.d), HIPDNN_STATUS_BAD_PARAM_NOT_FINALIZED,
                              "not finalized");
    EXPECT_STATUS_AND_MESSAGE(hipdnnBackendExecute(nullptr, plan.d, pack.d), HIPDNN_STATUS_BAD_PARAM, "handle");
    EXPECT_EQ(hipdnnBackendDestroyDescriptor(g), HIPDNN_STATUS_SUCCESS);
}

TEST(BackendApiPlugins, PathsModesAndEngineQueries)
{
    EXPECT_STATUS_AND_MESSAGE(hipdnnSetEnginePluginPaths_ext(1, nullptr, HIPDNN_PLUGIN_LOADING_ADDITIVE),
                              HIPDNN_STATUS_BAD_PARAM_NULL_POINTER, "pluginPaths");
    const char* paths[] = {nullptr};
    EXPECT_STATUS_AND_MESSAGE(hipdnnSetEnginePluginPaths_ext(1, paths, HIPDNN_PLUGIN_LOADING_ADDITIVE),
                              HIPDNN_STATUS_BAD_PARAM_NULL_POINTER, "pluginPaths[0]");
    EXPECT_STATUS_AND_MESSAGE(hipdnnSetEnginePluginPaths_ext(0, nullptr, static_cast<hipdnnPluginLoadingMode_ext_t>(5)),
                              HIPDNN_STATUS_BAD_PARAM, "invalid loading mode");
    EXPECT_STATUS_AND_MESSAGE(hipdnnSetPluginUnloadMode_ext(static_cast<hipdnnPluginUnloadingMode_ext_t>(9)),
                              HIPDNN_STATUS_BAD_PARAM, "invalid unloading mode");
    EXPECT_EQ(hipdnnSetPluginUnloadMode_ext(HIPDNN_PLUGIN_UNLOAD_LAZY), HIPDNN_STATUS_SUCCESS);
    HandleGuard h;
    EXPECT_STATUS_AND_MESSAGE(hipdnnSetEnginePluginPaths_ext(0, nullptr, HIPDNN_PLUGIN_LOADING_ADDITIVE),
                              HIPDNN_STATUS_NOT_SUPPORTED, "handle is alive");

    size_t engines = 0;
    ASSERT_EQ(hipdnnGetEngineCount_ext(h.handle, &engines), HIPDNN_STATUS_SUCCESS);
    ASSERT_GE(engines, 1u);
    EXPECT_STATUS_AND_MESSAGE(hipdnnGetEngineCount_ext(h.handle, nullptr), HIPDNN_STATUS_BAD_PARAM_NULL_POINTER, "numEngines");
    // The example engine is among the defaults (provider plugins may be installed beside it).
    size_t nameLen = 0, pluginLen = 0, versionLen = 0, typeLen = 0;
    int64_t id = 0;
    std::string name, plugin, version, type;
    size_t exampleIndex = engines;
    for(size_t i = 0; i < engines && exampleIndex == engines; ++i)
    {
        nameLen = pluginLen = versionLen = typeLen = 0;
        ASSERT_EQ(hipdnnGetEngineInfo_ext(h.handle, i, &id, nullptr, &nameLen, nullptr, &pluginLen, nullptr, &versionLen,
                                          nullptr, &typeLen),
                  HIPDNN_STATUS_SUCCESS);
        name.assign(nameLen, '\0');
        plugin.assign(pluginLen, '\0');
        version.assign(versionLen, '\0');
        type.assign(typeLen, '\0');
        ASSERT_EQ(hipdnnGetEngineInfo_ext(h.handle, i, &id, name.data(), &nameLen, plugin.data(), &pluginLen,
                                          version.data(), &versionLen, type.data(), &typeLen),
                  HIPDNN_STATUS_SUCCESS);
        if(std::string(name.c_str()) == "EXAMPLE_NAIVE_ENGINE")
            exampleIndex = i;
    }
    ASSERT_LT(exampleIndex, engines) << "the example engine is not loaded by default";
    EXPECT_STREQ(name.c_str(), "EXAMPLE_NAIVE_ENGINE");
    EXPECT_STREQ(plugin.c_str(), "example_engine_plugin");
    EXPECT_EQ(id, static_cast<int64_t>(hipdnn_data_sdk::utilities::EXAMPLE_NAIVE_ENGINE_ID));
    size_t tooSmall = 2;
    EXPECT_STATUS_AND_MESSAGE(hipdnnGetEngineInfo_ext(h.handle, exampleIndex, &id, name.data(), &tooSmall, plugin.data(), &pluginLen,
                                                      version.data(), &versionLen, type.data(), &typeLen),
                              HIPDNN_STATUS_BAD_PARAM_SIZE_INSUFFICIENT, "engineName");
    EXPECT_STATUS_AND_MESSAGE(hipdnnGetEngineInfo_ext(h.handle, engines, &id, nullptr, &nameLen, nullptr, &pluginLen,
                                                      nullptr, &versionLen, nullptr, &typeLen),
                              HIPDNN_STATUS_BAD_PARAM_OUT_OF_BOUND, "out of range");

    size_t numPaths = 0, maxLen = 0;
    ASSERT_EQ(hipdnnGetLoadedEnginePluginPaths_ext(h.handle, &numPaths, nullptr, &maxLen), HIPDNN_STATUS_SUCCESS);
    ASSERT_GE(numPaths, 1u);
    std::vector<std::string> storage(numPaths, std::string(maxLen, '\0'));
    std::vector<char*> ptrs;
    for(auto& s : storage)
    {
        ptrs.push_back(s.data());
    }
    ASSERT_EQ(hipdnnGetLoadedEnginePluginPaths_ext(h.handle, &numPaths, ptrs.data(), &maxLen), HIPDNN_STATUS_SUCCESS);
    EXPECT_NE(std::string(ptrs[0]).find("hipdnn_plugins/engines/libexample_engine_plugin.so"), std::string::npos) << ptrs[0];
}

TEST(BackendApiLogging, LevelsAndUserCallbacks)
{
    hipdnnSeverity_t level;
    EXPECT_STATUS_AND_MESSAGE(hipdnnBackendGetGlobalLogLevel_ext(nullptr), HIPDNN_STATUS_BAD_PARAM_NULL_POINTER, "level");
    EXPECT_STATUS_AND_MESSAGE(hipdnnBackendSetGlobalLogLevel_ext(static_cast<hipdnnSeverity_t>(42)), HIPDNN_STATUS_BAD_PARAM,
                              "invalid log level");
    auto cb = [](hipdnnUserLogCallbackHandle_t, hipdnnSeverity_t, const char*) {};
    int user = 0;
    EXPECT_STATUS_AND_MESSAGE(hipdnnSetUserLogCallback_ext(nullptr, HIPDNN_SEV_INFO, HIPDNN_LOG_CALLBACK_SYNC, &user),
                              HIPDNN_STATUS_BAD_PARAM, "callback is null");
    EXPECT_STATUS_AND_MESSAGE(hipdnnSetUserLogCallback_ext(cb, HIPDNN_SEV_INFO, HIPDNN_LOG_CALLBACK_SYNC, nullptr),
                              HIPDNN_STATUS_BAD_PARAM, "userHandle is null");
    EXPECT_STATUS_AND_MESSAGE(hipdnnSetUserLogCallback_ext(cb, HIPDNN_SEV_OFF, HIPDNN_LOG_CALLBACK_SYNC, &user),
                              HIPDNN_STATUS_BAD_PARAM, "not registered");
    {
        blackbox::LogCapture capture(HIPDNN_SEV_INFO);
        ASSERT_EQ(hipdnnBackendGetGlobalLogLevel_ext(&level), HIPDNN_STATUS_SUCCESS);
        EXPECT_EQ(level, HIPDNN_SEV_INFO);
        hipdnnLoggingCallback_ext(HIPDNN_SEV_WARN, "a frontend message");
        hipdnnLoggingCallback_ext(HIPDNN_SEV_WARN, nullptr); // ignored, no crash
        EXPECT_TRUE(capture.contains("a frontend message")) << capture.all();
    }
    // Async callbacks deliver on the worker thread.
    struct Async
    {
        std::mutex m;
        std::condition_variable cv;
        bool got = false;
    } async;
    auto asyncCb = [](hipdnnUserLogCallbackHandle_t u, hipdnnSeverity_t, const char* msg) {
        auto* a = static_cast<Async*>(u);
        if(std::string(msg).find("async ping") != std::string::npos)
        {
            std::lock_guard<std::mutex> l(a->m);
            a->got = true;
            a->cv.notify_all();
        }
    };
    hipdnnSeverity_t previous;
    hipdnnBackendGetGlobalLogLevel_ext(&previous);
    ASSERT_EQ(hipdnnSetUserLogCallback_ext(asyncCb, HIPDNN_SEV_WARN, HIPDNN_LOG_CALLBACK_ASYNC, &async), HIPDNN_STATUS_SUCCESS);
    hipdnnBackendSetGlobalLogLevel_ext(HIPDNN_SEV_WARN);
    hipdnnLoggingCallback_ext(HIPDNN_SEV_ERROR, "async ping");
    {
        std::unique_lock<std::mutex> l(async.m);
        EXPECT_TRUE(async.cv.wait_for(l, std::chrono::seconds(5), [&] { return async.got; }));
    }
    EXPECT_EQ(hipdnnSetUserLogCallback_ext(asyncCb, HIPDNN_SEV_OFF, HIPDNN_LOG_CALLBACK_ASYNC, &async), HIPDNN_STATUS_SUCCESS);
    hipdnnBackendSetGlobalLogLevel_ext(previous);
}
