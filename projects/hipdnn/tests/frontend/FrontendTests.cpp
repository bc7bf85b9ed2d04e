// Frontend unit tests (mock backend behind IHipdnnBackend) and integration with the real backend.
#include "../common/GraphFixtures.hpp"

#include <hipdnn_test_sdk/mocks/MockHipdnnBackend.hpp>
#include <hipdnn_test_sdk/utilities/CpuFpReferenceConvolution.hpp>
#include <hipdnn_test_sdk/utilities/CpuFpReferenceValidation.hpp>
#include <hipdnn_test_sdk/utilities/Seeds.hpp>

#include <gtest/gtest.h>

using namespace hipdnn_frontend;
using hipdnn_test_sdk::mocks::MockHipdnnBackend;

namespace
{
/// Installs a backend for the test's duration and restores the default afterwards.
struct BackendOverride
{
    explicit BackendOverride(std::shared_ptr<detail::IHipdnnBackend> backend) { detail::IHipdnnBackend::setInstance(std::move(backend)); }
    ~BackendOverride() { detail::IHipdnnBackend::setInstance(nullptr); }
};

std::shared_ptr<detail::IHipdnnBackend> realBackend()
{
    return detail::createDefaultBackend();
}
} // namespace

TEST(FrontendValidate, InfersShapesTypesAndUids)
{
    auto g = hipdnn_tests::makeConvGraph();
    ASSERT_TRUE(g->validate().is_good());
    const auto& y = g->get_nodes()[0].outputs[0];
    EXPECT_EQ(y->get_dim(), (std::vector<int64_t>{1, 3, 5, 5}));
    EXPECT_EQ(y->get_stride(), (std::vector<int64_t>{75, 25, 5, 1}));
    EXPECT_EQ(y->get_data_type(), DataType::FLOAT);
}

TEST(FrontendValidate, ReportsErrorsWithoutThrowing)
{
    {
        graph::Graph g;
        EXPECT_EQ(g.validate().get_code(), ErrorCode::INVALID_VALUE);
    }
    {
        graph::Graph g;
        g.set_io_data_type(DataType::FLOAT);
        auto x = g.tensor(graph::TensorAttributes().set_uid(1).set_dim({1, 3, 4, 4}));
        auto w = g.tensor(graph::TensorAttributes().set_uid(1).set_dim({2, 3, 3, 3})); // duplicate uid
        auto y = g.conv_fprop(x, w, graph::ConvFpropAttributes());
        y->set_output(true);
        const auto e = g.validate();
        EXPECT_EQ(e.get_code(), ErrorCode::INVALID_VALUE);
        EXPECT_NE(e.get_message().find("duplicate tensor uid 1"), std::string::npos) << e;
    }
    {
        graph::Graph g;
        g.set_io_data_type(DataType::FLOAT);
        auto x = g.tensor(graph::TensorAttributes().set_dim({1, 3, 4, 4}));
        auto w = g.tensor(graph::TensorAttributes().set_dim({2, 2, 3, 3})); // 3 channels vs 2
        g.conv_fprop(x, w, graph::ConvFpropAttributes());
        EXPECT_EQ(g.validate().get_code(), ErrorCode::SHAPE_DEDUCTION_FAILED);
    }
    {
        graph::Graph g;
        g.set_io_data_type(DataType::FLOAT);
        auto dy = g.tensor(graph::TensorAttributes().set_dim({1, 2, 4, 4}));
        auto w = g.tensor(graph::TensorAttributes().set_dim({2, 3, 3, 3}));
        g.conv_dgrad(dy, w, graph::ConvDgradAttributes());
        const auto e = g.validate();
        EXPECT_EQ(e.get_code(), ErrorCode::SHAPE_DEDUCTION_FAILED);
        EXPECT_NE(e.get_message().find("output dims"), std::string::npos) << e;
    }
    {
        graph::Graph g; // two unrelated nodes
        g.set_io_data_type(DataType::FLOAT);
        auto a = g.tensor(graph::TensorAttributes().set_dim({2, 2}));
        auto b = g.tensor(graph::TensorAttributes().set_dim({2, 2}));
        g.pointwise(a, graph::PointwiseAttributes().set_mode(PointwiseMode::RELU_FWD))->set_output(true);
        g.pointwise(b, graph::PointwiseAttributes().set_mode(PointwiseMode::RELU_FWD))->set_output(true);
        const auto e = g.validate();
        EXPECT_NE(e.get_message().find("not connected"), std::string::npos) << e;
    }
    {
        graph::Graph g;
        auto a = g.tensor(graph::TensorAttributes().set_dim({2, 2}));
        g.pointwise(a, graph::PointwiseAttributes().set_mode(PointwiseMode::RELU_FWD));
        EXPECT_EQ(g.validate().get_code(), ErrorCode::ATTRIBUTE_NOT_SET); // no data type anywhere
    }
}

TEST(FrontendBackendSeam, BackendFailuresCarryTheBackendMessage)
{
    auto mock = std::make_shared<MockHipdnnBackend>(realBackend());
    BackendOverride guard(mock);
    auto [handle, error] = createHipdnnHandle();
    ASSERT_TRUE(error.is_good()) << error;
    mock->failCall("backendFinalize", HIPDNN_STATUS_INTERNAL_ERROR, "injected finalize failure");
    auto g = hipdnn_tests::makeConvGraph();
    const auto e = g->build(*handle);
    EXPECT_EQ(e.get_code(), ErrorCode::HIPDNN_BACKEND_ERROR);
    EXPECT_NE(e.get_message().find("injected finalize failure"), std::string::npos) << e;
    EXPECT_NE(e.get_message().find("HIPDNN_STATUS_INTERNAL_ERROR"), std::string::npos) << e;
    EXPECT_EQ(mock->callCount("backendCreateAndDeserializeGraphExt"), 1u);
}

TEST(FrontendBackendSeam, NotSupportedBecomesGraphNotSupported)
{
    auto mock = std::make_shared<MockHipdnnBackend>(realBackend());
    BackendOverride guard(mock);
    auto [handle, error] = createHipdnnHandle();
    ASSERT_TRUE(error.is_good()) << error;
    mock->failCall("backendFinalize", HIPDNN_STATUS_NOT_SUPPORTED, "no engine", 1); // graph ok, heuristics fail
    auto g = hipdnn_tests::makeConvGraph();
    EXPECT_EQ(g->build(*handle).get_code(), ErrorCode::GRAPH_NOT_SUPPORTED);
}

TEST(FrontendBackendSeam, ABackendOfAnotherMajorIsRefused)
{
    auto mock = std::make_shared<MockHipdnnBackend>();
    mock->setVersion("2.1.0.abc");
    auto chosen = detail::tryToUseBackendInterface(mock);
    auto* unavailable = dynamic_cast<detail::UnavailableBackendWrapper*>(chosen.get());
    ASSERT_NE(unavailable, nullptr);
    EXPECT_NE(unavailable->reason().find("major version 2"), std::string::npos) << unavailable->reason();
    hipdnnHandle_t h = nullptr;
    EXPECT_EQ(chosen->create(&h), HIPDNN_STATUS_NOT_INITIALIZED);
    mock->setVersion("garbage");
    EXPECT_NE(dynamic_cast<detail::UnavailableBackendWrapper*>(detail::tryToUseBackendInterface(mock).get()), nullptr);
    mock->setVersion("1.7.3.x");
    EXPECT_EQ(detail::tryToUseBackendInterface(mock), mock);
}

TEST(FrontendExecute, VariantPackIsCheckedBeforeTheBackend)
{
    auto [handle, error] = createHipdnnHandle();
    ASSERT_TRUE(error.is_good()) << error;
    auto g = hipdnn_tests::makeConvGraph();
    ASSERT_TRUE(g->build(*handle).is_good());
    std::vector<float> x(50), w(54), y(75);
    std::vector<uint8_t> ws(static_cast<size_t>(g->get_workspace_size()) + 1);
    const auto missing = g->execute(*handle, std::unordered_map<int64_t, void*>{{1, x.data()}, {2, w.data()}}, ws.data());
    EXPECT_EQ(missing.get_code(), ErrorCode::INVALID_VARIANT_PACK);
    const auto extra = g->execute(*handle, std::unordered_map<int64_t, void*>{{1, x.data()}, {2, w.data()}, {3, y.data()}, {9, y.data()}},
                                  ws.data());
    EXPECT_EQ(extra.get_code(), ErrorCode::INVALID_VARIANT_PACK);
    EXPECT_TRUE(g->execute(*handle, std::unordered_map<int64_t, void*>{{1, x.data()}, {2, w.data()}, {3, y.data()}}, ws.data()).is_good());
}

TEST(FrontendExecute, StepByStepFlowMatchesTheReference)
{
    using namespace hipdnn_test_sdk::utilities;
    auto [handle, error] = createHipdnnHandle();
    ASSERT_TRUE(error.is_good()) << error;
    auto g = hipdnn_tests::makeConvGraph();
    ASSERT_TRUE(g->validate().is_good());
    ASSERT_TRUE(g->build_operation_graph(*handle).is_good());
    ASSERT_TRUE(g->create_execution_plans().is_good());
    ASSERT_TRUE(g->check_support().is_good());
    ASSERT_TRUE(g->build_plans().is_good());
    int64_t ws = -1;
    ASSERT_TRUE(g->get_workspace_size(ws).is_good());
    Tensor<float> x({1, 2, 5, 5}), w({3, 2, 3, 3}), y({1, 3, 5, 5}), ref({1, 3, 5, 5});
    x.fillUniform(-1, 1, deriveSeed(71));
    w.fillUniform(-1, 1, deriveSeed(72));
    std::vector<uint8_t> workspace(static_cast<size_t>(ws) + 1);
    ASSERT_TRUE(g->execute(*handle, std::unordered_map<int64_t, void*>{{1, x.data()}, {2, w.data()}, {3, y.data()}},
                           workspace.data())
                    .is_good());
    CpuFpReferenceConvolution::fprop<float, float, float>(x.view(), w.view(), ref.view(), {{1, 1}, {1, 1}, {1, 1}, {1, 1}});
    EXPECT_TRUE(CpuFpReferenceValidation<float>(1e-5, 1e-5).allClose(ref, y));
}
