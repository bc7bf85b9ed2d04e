// End-to-end through the C API: a conv + bias + ReLU graph built from operation descriptors
// (cuDNN-backend style), the test plugins (each rejected or handled with a precise error), and
// finalized plans shared across threads (each thread with its own handle).
#include "../common/GraphFixtures.hpp"
#include "BlackBoxHelpers.hpp"

#include <hipdnn_test_sdk/utilities/CpuFpReferenceConvolution.hpp>
#include <hipdnn_test_sdk/utilities/CpuFpReferenceValidation.hpp>
#include <hipdnn_test_sdk/utilities/Seeds.hpp>
#include <hipdnn_test_sdk/utilities/TestTolerances.hpp>

#include <thread>

using blackbox::lastError;
using namespace hipdnn_test_sdk::utilities;

namespace
{
#define OK(call) ASSERT_EQ((call), HIPDNN_STATUS_SUCCESS) << #call << ": " << lastError()

class Descriptors
{
public:
    ~Descriptors()
    {
        for(auto it = _all.rbegin(); it != _all.rend(); ++it)
        {
            hipdnnBackendDestroyDescriptor(*it);
        }
    }
    hipdnnBackendDescriptor_t make(hipdnnBackendDescriptorType_t type)
    {
        hipdnnBackendDescriptor_t d = nullptr;
        EXPECT_EQ(hipdnnBackendCreateDescriptor(type, &d), HIPDNN_STATUS_SUCCESS) << lastError();
        _all.push_back(d);
        return d;
    }

private:
    std::vector<hipdnnBackendDescriptor_t> _all;
};

void makeTensor(Descriptors& ds, hipdnnBackendDescriptor_t& out, int64_t uid, const std::vector<int64_t>& dims, bool isVirtual)
{
    out = ds.make(HIPDNN_BACKEND_TENSOR_DESCRIPTOR);
    const auto strides = hipdnn_data_sdk::utilities::packedStrides(dims);
    const hipdnnDataType_t dt = HIPDNN_DATA_FLOAT;
    OK(hipdnnBackendSetAttribute(out, HIPDNN_ATTR_TENSOR_UNIQUE_ID, HIPDNN_TYPE_INT64, 1, &uid));
    OK(hipdnnBackendSetAttribute(out, HIPDNN_ATTR_TENSOR_DATA_TYPE, HIPDNN_TYPE_DATA_TYPE, 1, &dt));
    OK(hipdnnBackendSetAttribute(out, HIPDNN_ATTR_TENSOR_DIMENSIONS, HIPDNN_TYPE_INT64, static_cast<int64_t>(dims.size()), dims.data()));
    OK(hipdnnBackendSetAttribute(out, HIPDNN_ATTR_TENSOR_STRIDES, HIPDNN_TYPE_INT64, static_cast<int64_t>(strides.size()), strides.data()));
    OK(hipdnnBackendSetAttribute(out, HIPDNN_ATTR_TENSOR_IS_VIRTUAL, HIPDNN_TYPE_BOOLEAN, 1, &isVirtual));
    OK(hipdnnBackendFinalize(out));
}

/// Builds heuristics -> config -> plan for a finalized graph; returns the plan.
void buildPlan(Descriptors& ds, hipdnnBackendDescriptor_t graph, hipdnnBackendDescriptor_t& plan, int64_t& workspace)
{
    auto heur = ds.make(HIPDNN_BACKEND_ENGINEHEUR_DESCRIPTOR);
    const hipdnnBackendHeurMode_t mode = HIPDNN_HEUR_MODE_FALLBACK;
    OK(hipdnnBackendSetAttribute(heur, HIPDNN_ATTR_ENGINEHEUR_OPERATION_GRAPH, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &graph));
    OK(hipdnnBackendSetAttribute(heur, HIPDNN_ATTR_ENGINEHEUR_MODE, HIPDNN_TYPE_HEUR_MODE, 1, &mode));
    OK(hipdnnBackendFinalize(heur));
    int64_t count = 0;
    OK(hipdnnBackendGetAttribute(heur, HIPDNN_ATTR_ENGINEHEUR_RESULTS, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 0, &count, nullptr));
    ASSERT_GE(count, 1);
    auto cfg = ds.make(HIPDNN_BACKEND_ENGINECFG_DESCRIPTOR);
    OK(hipdnnBackendGetAttribute(heur, HIPDNN_ATTR_ENGINEHEUR_RESULTS, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &count, &cfg));
    plan = ds.make(HIPDNN_BACKEND_EXECUTION_PLAN_DESCRIPTOR);
    OK(hipdnnBackendSetAttribute(plan, HIPDNN_ATTR_EXECUTION_PLAN_ENGINE_CONFIG, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &cfg));
    OK(hipdnnBackendFinalize(plan));
    OK(hipdnnBackendGetAttribute(plan, HIPDNN_ATTR_EXECUTION_PLAN_WORKSPACE_SIZE, HIPDNN_TYPE_INT64, 1, &count, &workspace));
}

void execute(hipdnnHandle_t handle, hipdnnBackendDescriptor_t plan, const std::vector<int64_t>& uids,
             std::vector<void*> ptrs, void* workspace, hipdnnStatus_t expected = HIPDNN_STATUS_SUCCESS,
             const std::string& fragment = "")
{
    Descriptors ds;
    auto pack = ds.make(HIPDNN_BACKEND_VARIANT_PACK_DESCRIPTOR);
    OK(hipdnnBackendSetAttribute(pack, HIPDNN_ATTR_VARIANT_PACK_UNIQUE_IDS, HIPDNN_TYPE_INT64, static_cast<int64_t>(uids.size()), uids.data()));
    OK(hipdnnBackendSetAttribute(pack, HIPDNN_ATTR_VARIANT_PACK_DATA_POINTERS, HIPDNN_TYPE_VOID_PTR, static_cast<int64_t>(ptrs.size()), ptrs.data()));
    OK(hipdnnBackendSetAttribute(pack, HIPDNN_ATTR_VARIANT_PACK_WORKSPACE, HIPDNN_TYPE_VOID_PTR, 1, &workspace));
    OK(hipdnnBackendFinalize(pack));
    EXPECT_EQ(hipdnnBackendExecute(handle, plan, pack), expected);
    const std::string message = expected == HIPDNN_STATUS_SUCCESS ? std::string() : lastError();
    EXPECT_NE(message.find(fragment), std::string::npos) << message;
}

hipdnnBackendDescriptor_t deserializedConvGraph(Descriptors& ds, hipdnnHandle_t handle)
{
    (void)ds;
    const auto bytes = hipdnn_tests::serializedConvGraph();
    hipdnnBackendDescriptor_t g = nullptr;
    EXPECT_EQ(hipdnnBackendCreateAndDeserializeGraph_ext(&g, bytes.data(), bytes.size()), HIPDNN_STATUS_SUCCESS);
    EXPECT_EQ(hipdnnBackendSetAttribute(g, HIPDNN_ATTR_OPERATIONGRAPH_HANDLE, HIPDNN_TYPE_HANDLE, 1, &handle), HIPDNN_STATUS_SUCCESS);
    EXPECT_EQ(hipdnnBackendFinalize(g), HIPDNN_STATUS_SUCCESS) << lastError();
    return g;
}
} // namespace

TEST(BackendGraphDescriptors, ConvBiasReluBuiltFromOperationDescriptors)
{
    // The example engine, whose plan needs workspace for the two virtual intermediates.
    blackbox::PluginPathsGuard paths({"hipdnn_plugins/engines/libexample_engine_plugin.so"}, HIPDNN_PLUGIN_LOADING_ABSOLUTE);
    hipdnnHandle_t handle = nullptr;
    OK(hipdnnCreate(&handle));
    {
        Descriptors ds;
        const std::vector<int64_t> xd = {2, 3, 6, 6}, wd = {4, 3, 3, 3}, yd = {2, 4, 6, 6}, bd = {1, 4, 1, 1};
        hipdnnBackendDescriptor_t x, w, y, b, yb, out;
        makeTensor(ds, x, 10, xd, false);
        makeTensor(ds, w, 11, wd, false);
        makeTensor(ds, y, 12, yd, true);
        makeTensor(ds, b, 13, bd, false);
        makeTensor(ds, yb, 14, yd, true);
        makeTensor(ds, out, 15, yd, false);

        auto conv = ds.make(HIPDNN_BACKEND_OPERATION_CONVOLUTION_FORWARD_DESCRIPTOR);
        const int64_t pad[2] = {1, 1}, one[2] = {1, 1};
        const hipdnnConvolutionMode_t mode = HIPDNN_CROSS_CORRELATION;
        const hipdnnDataType_t f32 = HIPDNN_DATA_FLOAT;
        OK(hipdnnBackendSetAttribute(conv, HIPDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_X, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &x));
        OK(hipdnnBackendSetAttribute(conv, HIPDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_W, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &w));
        OK(hipdnnBackendSetAttribute(conv, HIPDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_Y, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &y));
        OK(hipdnnBackendSetAttribute(conv, HIPDNN_ATTR_CONVOLUTION_PRE_PADDINGS, HIPDNN_TYPE_INT64, 2, pad));
        OK(hipdnnBackendSetAttribute(conv, HIPDNN_ATTR_CONVOLUTION_POST_PADDINGS, HIPDNN_TYPE_INT64, 2, pad));
        OK(hipdnnBackendSetAttribute(conv, HIPDNN_ATTR_CONVOLUTION_FILTER_STRIDES, HIPDNN_TYPE_INT64, 2, one));
        OK(hipdnnBackendSetAttribute(conv, HIPDNN_ATTR_CONVOLUTION_DILATIONS, HIPDNN_TYPE_INT64, 2, one));
        OK(hipdnnBackendSetAttribute(conv, HIPDNN_ATTR_CONVOLUTION_CONV_MODE, HIPDNN_TYPE_CONVOLUTION_MODE, 1, &mode));
        OK(hipdnnBackendSetAttribute(conv, HIPDNN_ATTR_CONVOLUTION_COMP_TYPE, HIPDNN_TYPE_DATA_TYPE, 1, &f32));
        OK(hipdnnBackendFinalize(conv));

        auto add = ds.make(HIPDNN_BACKEND_OPERATION_POINTWISE_DESCRIPTOR);
        const hipdnnPointwiseMode_t addMode = HIPDNN_POINTWISE_MODE_ADD, reluMode = HIPDNN_POINTWISE_MODE_RELU_FWD;
        OK(hipdnnBackendSetAttribute(add, HIPDNN_ATTR_POINTWISE_MODE, HIPDNN_TYPE_POINTWISE_MODE, 1, &addMode));
        OK(hipdnnBackendSetAttribute(add, HIPDNN_ATTR_OPERATION_POINTWISE_IN_0_EXT, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &y));
        OK(hipdnnBackendSetAttribute(add, HIPDNN_ATTR_OPERATION_POINTWISE_IN_1_EXT, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &b));
        OK(hipdnnBackendSetAttribute(add, HIPDNN_ATTR_OPERATION_POINTWISE_OUT_0_EXT, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &yb));
        OK(hipdnnBackendFinalize(add));
        auto relu = ds.make(HIPDNN_BACKEND_OPERATION_POINTWISE_DESCRIPTOR);
        const float slope = 0.1f;
        OK(hipdnnBackendSetAttribute(relu, HIPDNN_ATTR_POINTWISE_MODE, HIPDNN_TYPE_POINTWISE_MODE, 1, &reluMode));
        OK(hipdnnBackendSetAttribute(relu, HIPDNN_ATTR_POINTWISE_RELU_LOWER_CLIP_SLOPE, HIPDNN_TYPE_FLOAT, 1, &slope));
        OK(hipdnnBackendSetAttribute(relu, HIPDNN_ATTR_OPERATION_POINTWISE_IN_0_EXT, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &yb));
        OK(hipdnnBackendSetAttribute(relu, HIPDNN_ATTR_OPERATION_POINTWISE_OUT_0_EXT, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &out));
        OK(hipdnnBackendFinalize(relu));

        auto graph = ds.make(HIPDNN_BACKEND_OPERATIONGRAPH_DESCRIPTOR);
        hipdnnBackendDescriptor_t ops[3] = {conv, add, relu};
        OK(hipdnnBackendSetAttribute(graph, HIPDNN_ATTR_OPERATIONGRAPH_OPS, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 3, ops));
        OK(hipdnnBackendSetAttribute(graph, HIPDNN_ATTR_OPERATIONGRAPH_HANDLE, HIPDNN_TYPE_HANDLE, 1, &handle));
        OK(hipdnnBackendFinalize(graph));

        hipdnnBackendDescriptor_t plan = nullptr;
        int64_t wsSize = 0;
        buildPlan(ds, graph, plan, wsSize);
        EXPECT_GT(wsSize, 0); // two virtual intermediates

        Tensor<float> xt(xd), wt(wd), bt(bd), result(yd), expected(yd);
        xt.fillUniform(-1, 1, deriveSeed(61));
        wt.fillUniform(-1, 1, deriveSeed(62));
        bt.fillUniform(-1, 1, deriveSeed(63));
        std::vector<uint8_t> ws(static_cast<size_t>(wsSize));
        execute(handle, plan, {10, 11, 13, 15}, {xt.data(), wt.data(), bt.data(), result.data()}, ws.data());
        // Missing pointer and unknown uid are refused.
        execute(handle, plan, {10, 11, 15}, {xt.data(), wt.data(), result.data()}, ws.data(), HIPDNN_STATUS_BAD_PARAM,
                "no data pointer for tensor uid 13");
        execute(handle, plan, {10, 11, 13, 15, 99}, {xt.data(), wt.data(), bt.data(), result.data(), xt.data()}, ws.data(),
                HIPDNN_STATUS_BAD_PARAM, "uid 99");
        execute(handle, plan, {10, 11, 13, 15}, {xt.data(), wt.data(), bt.data(), result.data()}, nullptr,
                HIPDNN_STATUS_BAD_PARAM, "workspace");

        CpuFpReferenceConvolution::fprop<float, float, float>(xt.view(), wt.view(), expected.view(),
                                                              {{1, 1}, {1, 1}, {1, 1}, {1, 1}});
        forEachIndex(yd, [&](const std::vector<int64_t>& i) {
            const float v = expected.at(i) + bt.at({0, i[1], 0, 0});
            expected.at(i) = v > 0 ? v : 0.1f * v;
        });
        std::string why;
        EXPECT_TRUE(CpuFpReferenceValidation<float>(1e-5, 1e-5).allClose(expected, result, &why)) << why;
    }
    OK(hipdnnDestroy(handle));
}

TEST(BackendGraphDescriptors, ConvolutionGeometryIsValidated)
{
    Descriptors ds;
    hipdnnBackendDescriptor_t x, w, y;
    makeTensor(ds, x, 1, {1, 3, 6, 6}, false);
    makeTensor(ds, w, 2, {4, 3, 3, 3}, false);
    makeTensor(ds, y, 3, {1, 4, 5, 5}, false); // should be 4x4 without padding
    auto conv = ds.make(HIPDNN_BACKEND_OPERATION_CONVOLUTION_FORWARD_DESCRIPTOR);
    const int64_t zero[2] = {0, 0}, one[2] = {1, 1};
    OK(hipdnnBackendSetAttribute(conv, HIPDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_X, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &x));
    OK(hipdnnBackendSetAttribute(conv, HIPDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_W, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &w));
    OK(hipdnnBackendSetAttribute(conv, HIPDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_Y, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &y));
    OK(hipdnnBackendSetAttribute(conv, HIPDNN_ATTR_CONVOLUTION_PRE_PADDINGS, HIPDNN_TYPE_INT64, 2, zero));
    OK(hipdnnBackendSetAttribute(conv, HIPDNN_ATTR_CONVOLUTION_POST_PADDINGS, HIPDNN_TYPE_INT64, 2, zero));
    OK(hipdnnBackendSetAttribute(conv, HIPDNN_ATTR_CONVOLUTION_FILTER_STRIDES, HIPDNN_TYPE_INT64, 2, one));
    OK(hipdnnBackendSetAttribute(conv, HIPDNN_ATTR_CONVOLUTION_DILATIONS, HIPDNN_TYPE_INT64, 2, one));
    EXPECT_STATUS_AND_MESSAGE(hipdnnBackendFinalize(conv), HIPDNN_STATUS_BAD_PARAM, "convolution geometry");
}

// ---- Test plugins --------------------------------------------------------------------------

TEST(BackendTestPlugins, BrokenPluginsAreRejectedWithReasons)
{
    blackbox::LogCapture capture(HIPDNN_SEV_WARN);
    blackbox::PluginPathsGuard paths({"test_plugins/libhipdnn_test_good_plugin.so", "test_plugins/hipdnn_test_version_liar_plugin",
                                      "test_plugins/libhipdnn_test_malformed_version_plugin", "test_plugins/libhipdnn_test_missing_symbols_plugin.so",
                                      "test_plugins/libhipdnn_test_duplicate_id_plugin.so", "test_plugins/no_such_plugin"},
                                     HIPDNN_PLUGIN_LOADING_ABSOLUTE);
    hipdnnHandle_t handle = nullptr;
    OK(hipdnnCreate(&handle));
    size_t engines = 0;
    OK(hipdnnGetEngineCount_ext(handle, &engines));
    EXPECT_EQ(engines, 1u) << capture.all();
    EXPECT_TRUE(capture.contains("major 2")) << capture.all();
    EXPECT_TRUE(capture.contains("malformed plugin API version 'one.two'")) << capture.all();
    EXPECT_TRUE(capture.contains("missing required symbol hipdnnEnginePluginExecuteOpGraph")) << capture.all();
    EXPECT_TRUE(capture.contains("already provided by")) << capture.all();
    EXPECT_TRUE(capture.contains("no_such_plugin")) << capture.all();
    OK(hipdnnDestroy(handle));
}

TEST(BackendTestPlugins, GoodPluginRunsAndPreferredEngineRanksFirst)
{
    // Exactly two engines, whatever provider plugins the build installs in the engines directory.
    blackbox::PluginPathsGuard paths({"hipdnn_plugins/engines/libexample_engine_plugin.so",
                                      "test_plugins/libhipdnn_test_good_plugin.so"},
                                     HIPDNN_PLUGIN_LOADING_ABSOLUTE);
    hipdnnHandle_t handle = nullptr;
    OK(hipdnnCreate(&handle));
    size_t engines = 0;
    OK(hipdnnGetEngineCount_ext(handle, &engines));
    ASSERT_EQ(engines, 2u); // the example plugin + the good plugin
    for(const char* preferred : {"TEST_GOOD_ENGINE", "EXAMPLE_NAIVE_ENGINE"})
    {
        auto g = hipdnn_tests::makeConvGraph();
        g->set_preferred_engine_id_ext(std::string(preferred));
        ASSERT_TRUE(g->validate().is_good());
        std::vector<uint8_t> bytes;
        ASSERT_TRUE(g->serialize(bytes).is_good());
        Descriptors ds;
        hipdnnBackendDescriptor_t graph = nullptr;
        OK(hipdnnBackendCreateAndDeserializeGraph_ext(&graph, bytes.data(), bytes.size()));
        OK(hipdnnBackendSetAttribute(graph, HIPDNN_ATTR_OPERATIONGRAPH_HANDLE, HIPDNN_TYPE_HANDLE, 1, &handle));
        OK(hipdnnBackendFinalize(graph));
        auto heur = ds.make(HIPDNN_BACKEND_ENGINEHEUR_DESCRIPTOR);
        const hipdnnBackendHeurMode_t mode = HIPDNN_HEUR_MODE_FALLBACK;
        OK(hipdnnBackendSetAttribute(heur, HIPDNN_ATTR_ENGINEHEUR_OPERATION_GRAPH, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &graph));
        OK(hipdnnBackendSetAttribute(heur, HIPDNN_ATTR_ENGINEHEUR_MODE, HIPDNN_TYPE_HEUR_MODE, 1, &mode));
        OK(hipdnnBackendFinalize(heur));
        hipdnnBackendDescriptor_t cfgs[2] = {ds.make(HIPDNN_BACKEND_ENGINECFG_DESCRIPTOR), ds.make(HIPDNN_BACKEND_ENGINECFG_DESCRIPTOR)};
        int64_t count = 0;
        OK(hipdnnBackendGetAttribute(heur, HIPDNN_ATTR_ENGINEHEUR_RESULTS, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 2, &count, cfgs));
        ASSERT_EQ(count, 1); // an applicable pinned engine is the whole list (README, "Engine order")
        hipdnnBackendDescriptor_t engine = nullptr;
        OK(hipdnnBackendGetAttribute(cfgs[0], HIPDNN_ATTR_ENGINECFG_ENGINE, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &count, &engine));
        char name[64] = {};
        OK(hipdnnBackendGetAttribute(engine, HIPDNN_ATTR_ENGINE_NAME_EXT, HIPDNN_TYPE_CHAR, sizeof(name), &count, name));
        EXPECT_STREQ(name, preferred);
        EXPECT_STATUS_AND_MESSAGE(hipdnnBackendDestroyDescriptor(engine), HIPDNN_STATUS_BAD_PARAM, "owned by another descriptor");
        OK(hipdnnBackendDestroyDescriptor(graph));
    }
    OK(hipdnnDestroy(handle));
}

TEST(BackendTestPlugins, ExecuteFailureIsReportedWithThePluginMessage)
{
    blackbox::PluginPathsGuard paths({"test_plugins/libhipdnn_test_execute_fails_plugin.so"}, HIPDNN_PLUGIN_LOADING_ABSOLUTE);
    hipdnnHandle_t handle = nullptr;
    OK(hipdnnCreate(&handle));
    {
        Descriptors ds;
        auto graph = deserializedConvGraph(ds, handle);
        hipdnnBackendDescriptor_t plan = nullptr;
        int64_t ws = 0;
        buildPlan(ds, graph, plan, ws);
        std::vector<float> x(50), w(54), y(75);
        execute(handle, plan, {1, 2, 3}, {x.data(), w.data(), y.data()}, nullptr, HIPDNN_STATUS_EXECUTION_FAILED,
                "simulated execution failure");
        hipdnnBackendDestroyDescriptor(graph);
    }
    OK(hipdnnDestroy(handle));
}

TEST(BackendTestPlugins, ThrowingPluginIsContainedAndExplained)
{
    blackbox::LogCapture capture(HIPDNN_SEV_WARN);
    blackbox::PluginPathsGuard paths({"test_plugins/libhipdnn_test_throws_plugin.so"}, HIPDNN_PLUGIN_LOADING_ABSOLUTE);
    hipdnnHandle_t handle = nullptr;
    OK(hipdnnCreate(&handle));
    {
        Descriptors ds;
        auto graph = deserializedConvGraph(ds, handle);
        auto heur = ds.make(HIPDNN_BACKEND_ENGINEHEUR_DESCRIPTOR);
        const hipdnnBackendHeurMode_t mode = HIPDNN_HEUR_MODE_FALLBACK;
        OK(hipdnnBackendSetAttribute(heur, HIPDNN_ATTR_ENGINEHEUR_OPERATION_GRAPH, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &graph));
        OK(hipdnnBackendSetAttribute(heur, HIPDNN_ATTR_ENGINEHEUR_MODE, HIPDNN_TYPE_HEUR_MODE, 1, &mode));
        EXPECT_STATUS_AND_MESSAGE(hipdnnBackendFinalize(heur), HIPDNN_STATUS_NOT_SUPPORTED, "simulated exception in isApplicable");
        hipdnnBackendDestroyDescriptor(graph);
    }
    OK(hipdnnDestroy(handle));
}

TEST(BackendTestPlugins, NoPluginsMeansNotSupported)
{
    blackbox::PluginPathsGuard paths({}, HIPDNN_PLUGIN_LOADING_ABSOLUTE);
    hipdnnHandle_t handle = nullptr;
    OK(hipdnnCreate(&handle));
    {
        Descriptors ds;
        auto graph = deserializedConvGraph(ds, handle);
        auto heur = ds.make(HIPDNN_BACKEND_ENGINEHEUR_DESCRIPTOR);
        const hipdnnBackendHeurMode_t mode = HIPDNN_HEUR_MODE_FALLBACK;
        OK(hipdnnBackendSetAttribute(heur, HIPDNN_ATTR_ENGINEHEUR_OPERATION_GRAPH, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &graph));
        OK(hipdnnBackendSetAttribute(heur, HIPDNN_ATTR_ENGINEHEUR_MODE, HIPDNN_TYPE_HEUR_MODE, 1, &mode));
        EXPECT_STATUS_AND_MESSAGE(hipdnnBackendFinalize(heur), HIPDNN_STATUS_NOT_SUPPORTED, "0 engine(s) loaded");
        hipdnnBackendDestroyDescriptor(graph);
    }
    OK(hipdnnDestroy(handle));
}

// ---- Threads -----------------------------------------------------------------------------

TEST(BackendThreads, FinalizedPlansAreSharedAcrossThreadsWithOwnHandles)
{
    hipdnnHandle_t owner = nullptr;
    OK(hipdnnCreate(&owner));
    Descriptors ds;
    auto graph = deserializedConvGraph(ds, owner);
    hipdnnBackendDescriptor_t plan = nullptr;
    int64_t ws = 0;
    buildPlan(ds, graph, plan, ws);
    OK(hipdnnDestroy(owner)); // plans outlive the handle that built them

    constexpr int kThreads = 4;
    std::vector<std::thread> threads;
    std::vector<int> failures(kThreads, 0);
    for(int t = 0; t < kThreads; ++t)
    {
        threads.emplace_back([&, t] {
            hipdnnHandle_t handle = nullptr;
            if(hipdnnCreate(&handle) != HIPDNN_STATUS_SUCCESS)
            {
                failures[t] = 100;
                return;
            }
            for(int iteration = 0; iteration < 5; ++iteration)
            {
                Tensor<float> x({1, 2, 5, 5}), w({3, 2, 3, 3}), y({1, 3, 5, 5}), ref({1, 3, 5, 5});
                x.fillUniform(-1, 1, deriveSeed(static_cast<uint32_t>(100 + t * 10 + iteration)));
                w.fillUniform(-1, 1, deriveSeed(static_cast<uint32_t>(200 + t * 10 + iteration)));
                std::vector<uint8_t> workspace(static_cast<size_t>(ws) + 1);
                execute(handle, plan, {1, 2, 3}, {x.data(), w.data(), y.data()}, workspace.data());
                CpuFpReferenceConvolution::fprop<float, float, float>(x.view(), w.view(), ref.view(),
                                                                      {{1, 1}, {1, 1}, {1, 1}, {1, 1}});
                failures[t] += CpuFpReferenceValidation<float>(1e-5, 1e-5).allClose(ref, y) ? 0 : 1;
            }
            hipdnnDestroy(handle);
        });
    }
    for(auto& th : threads)
    {
        th.join();
    }
    for(int t = 0; t < kThreads; ++t)
    {
        EXPECT_EQ(failures[t], 0) << "thread " << t;
    }
    hipdnnBackendDestroyDescriptor(graph);
}

// ---- Environment --------------------------------------------------------------------------

#include <dlfcn.h>

namespace
{
std::string backendDirectory()
{
    Dl_info info{};
    if(dladdr(reinterpret_cast<void*>(&hipdnnCreate), &info) == 0 || info.dli_fname == nullptr)
    {
        return {};
    }
    std::string path(info.dli_fname);
    return path.substr(0, path.find_last_of('/'));
}

struct EnvGuard
{
    explicit EnvGuard(const char* value) { setenv("HIPDNN_PLUGIN_DIR", value, 1); }
    ~EnvGuard() { unsetenv("HIPDNN_PLUGIN_DIR"); }
};
} // namespace

TEST(BackendEnvironment, PluginDirReplacesTheDefaultDirectory)
{
    const std::string dir = backendDirectory() + "/test_plugins";
    ASSERT_FALSE(backendDirectory().empty());
    blackbox::LogCapture capture(HIPDNN_SEV_WARN);
    EnvGuard env(dir.c_str());
    hipdnnHandle_t handle = nullptr;
    OK(hipdnnCreate(&handle));
    size_t engines = 0;
    OK(hipdnnGetEngineCount_ext(handle, &engines));
    // good, execute_fails, throws load; liar, malformed, missing-symbols and duplicate are rejected;
    // the default directory (example plugin) is not searched.
    EXPECT_EQ(engines, 3u) << capture.all();
    for(size_t i = 0; i < engines; ++i)
    {
        size_t len = 64, l2 = 64, l3 = 64, l4 = 64;
        char name[64], plugin[64], version[64], type[64];
        int64_t id = 0;
        OK(hipdnnGetEngineInfo_ext(handle, i, &id, name, &len, plugin, &l2, version, &l3, type, &l4));
        EXPECT_STRNE(name, "EXAMPLE_NAIVE_ENGINE");
    }
    OK(hipdnnDestroy(handle));
}

TEST(BackendEnvironment, RelativePluginDirIsIgnoredWithAWarning)
{
    const size_t defaults = blackbox::defaultEngineCount();
    blackbox::LogCapture capture(HIPDNN_SEV_WARN);
    EnvGuard env("relative/dir");
    hipdnnHandle_t handle = nullptr;
    OK(hipdnnCreate(&handle));
    size_t engines = 0;
    OK(hipdnnGetEngineCount_ext(handle, &engines));
    EXPECT_EQ(engines, defaults); // the relative directory is ignored; the default one loads
    EXPECT_TRUE(capture.contains("must be an absolute path")) << capture.all();
    OK(hipdnnDestroy(handle));
}
