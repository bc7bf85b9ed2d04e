// Frontend resample (pooling) and reduction nodes: shape inference, validation errors, the
// serialized attributes, and a run through the real backend on the example engine (the test
// SDK's graph executor) checked against the references.
#include <hipdnn_frontend.hpp>
#include <hipdnn_test_sdk/utilities/CpuFpReferenceReduction.hpp>
#include <hipdnn_test_sdk/utilities/CpuFpReferenceResample.hpp>
#include <hipdnn_test_sdk/utilities/CpuFpReferenceValidation.hpp>
#include <hipdnn_test_sdk/utilities/Seeds.hpp>

#include <gtest/gtest.h>

using namespace hipdnn_frontend;
namespace dobj = hipdnn_data_sdk::data_objects;

namespace
{
graph::ResampleFwdAttributes maxPool2x2()
{
    return graph::ResampleFwdAttributes()
        .set_resampling_mode(ResampleMode::MAXPOOL)
        .set_padding_mode(PaddingMode::NEG_INF_PAD)
        .set_window({2, 2})
        .set_stride({2, 2});
}
} // namespace

TEST(FrontendResample, InfersOutputDimsLayoutAndTheInt32Index)
{
    graph::Graph g;
    g.set_io_data_type(DataType::HALF);
    const std::vector<int64_t> dims = {2, 3, 7, 6};
    auto x = g.tensor(graph::TensorAttributes().set_dim(dims).set_stride(
        hipdnn_data_sdk::utilities::channelsLastStrides(dims)));
    auto [y, index] = g.resample(x, graph::ResampleFwdAttributes()
                                        .set_resampling_mode(ResampleMode::MAXPOOL)
                                        .set_window({3, 2})
                                        .set_stride({2, 2})
                                        .set_pre_padding({1, 0})
                                        .set_post_padding({0, 1})
                                        .set_generate_index(true));
    y->set_output(true);
    ASSERT_NE(index, nullptr);
    index->set_output(true);
    ASSERT_TRUE(g.validate().is_good());
    // (7 + 1 + 0 - 3) / 2 + 1 = 3, (6 + 0 + 1 - 2) / 2 + 1 = 3
    EXPECT_EQ(y->get_dim(), (std::vector<int64_t>{2, 3, 3, 3}));
    EXPECT_EQ(y->get_stride(), hipdnn_data_sdk::utilities::channelsLastStrides(y->get_dim()));
    EXPECT_EQ(y->get_data_type(), DataType::HALF);
    EXPECT_EQ(index->get_dim(), y->get_dim());
    EXPECT_EQ(index->get_data_type(), DataType::INT32);

    graph::Graph noIndex;
    noIndex.set_io_data_type(DataType::FLOAT);
    auto outs = noIndex.resample(noIndex.tensor(graph::TensorAttributes().set_dim({1, 1, 4, 4})), maxPool2x2());
    EXPECT_EQ(outs[1], nullptr);
}

TEST(FrontendResample, ReportsBadGeometryWithoutThrowing)
{
    auto validate = [](const graph::ResampleFwdAttributes& a, std::vector<int64_t> dims = {1, 2, 4, 4}) {
        graph::Graph g;
        g.set_io_data_type(DataType::FLOAT);
        auto outs = g.resample(g.tensor(graph::TensorAttributes().set_dim(std::move(dims))), a);
        outs[0]->set_output(true);
        if(outs[1] != nullptr)
        {
            outs[1]->set_output(true);
        }
        return g.validate();
    };
    EXPECT_TRUE(validate(maxPool2x2()).is_good());
    EXPECT_EQ(validate(maxPool2x2().set_window({2})).get_code(), ErrorCode::INVALID_VALUE);
    EXPECT_EQ(validate(maxPool2x2().set_window({5, 2})).get_code(), ErrorCode::SHAPE_DEDUCTION_FAILED);
    EXPECT_EQ(validate(maxPool2x2().set_resampling_mode(ResampleMode::NOT_SET)).get_code(),
              ErrorCode::ATTRIBUTE_NOT_SET);
    EXPECT_EQ(validate(maxPool2x2().set_resampling_mode(ResampleMode::BILINEAR)).get_code(),
              ErrorCode::GRAPH_NOT_SUPPORTED);
    const auto avgIndex = validate(
        maxPool2x2().set_resampling_mode(ResampleMode::AVGPOOL_INCLUDE_PADDING).set_generate_index(true));
    EXPECT_EQ(avgIndex.get_code(), ErrorCode::INVALID_VALUE);
    EXPECT_NE(avgIndex.get_message().find("only max pooling"), std::string::npos) << avgIndex;
    EXPECT_EQ(validate(maxPool2x2(), {4, 4}).get_code(), ErrorCode::INVALID_VALUE);
}

TEST(FrontendResample, BackwardChecksDxAgainstDyAndNeedsTheIndexForMax)
{
    auto validate = [](ResampleMode mode, bool withIndex, std::vector<int64_t> dxDims) {
        graph::Graph g;
        g.set_io_data_type(DataType::FLOAT);
        auto dy = g.tensor(graph::TensorAttributes().set_dim({1, 2, 2, 2}));
        auto index = withIndex ? g.tensor(graph::TensorAttributes().set_dim({1, 2, 2, 2}).set_data_type(DataType::INT32))
                               : nullptr;
        auto dx = g.resample_bwd(dy, graph::ResampleBwdAttributes().set_resample_mode(mode).set_window({2, 2}).set_stride(
                                         {2, 2}),
                                 index);
        dx->set_output(true).set_dim(std::move(dxDims));
        return g.validate();
    };
    EXPECT_TRUE(validate(ResampleMode::MAXPOOL, true, {1, 2, 4, 5}).is_good()); // (5 - 2) / 2 + 1 = 2
    EXPECT_TRUE(validate(ResampleMode::AVGPOOL_EXCLUDE_PADDING, false, {1, 2, 4, 4}).is_good());
    EXPECT_EQ(validate(ResampleMode::MAXPOOL, false, {1, 2, 4, 4}).get_code(), ErrorCode::ATTRIBUTE_NOT_SET);
    EXPECT_EQ(validate(ResampleMode::MAXPOOL, true, {1, 2, 6, 4}).get_code(), ErrorCode::SHAPE_DEDUCTION_FAILED);
    EXPECT_EQ(validate(ResampleMode::MAXPOOL, true, {}).get_code(), ErrorCode::SHAPE_DEDUCTION_FAILED);
}

TEST(FrontendReduction, OutputMustKeepTheRankWithOnesInReducedDims)
{
    auto validate = [](std::optional<ReductionMode> mode, std::vector<int64_t> yDims) {
        graph::Graph g;
        g.set_io_data_type(DataType::FLOAT);
        graph::ReductionAttributes a;
        if(mode.has_value())
        {
            a.set_mode(*mode);
        }
        auto y = g.reduction(g.tensor(graph::TensorAttributes().set_dim({2, 3, 4})), a);
        y->set_output(true).set_dim(std::move(yDims));
        return g.validate();
    };
    EXPECT_TRUE(validate(ReductionMode::ADD, {1, 3, 1}).is_good());
    EXPECT_TRUE(validate(ReductionMode::AMAX, {1, 1, 1}).is_good());
    EXPECT_EQ(validate(std::nullopt, {1, 3, 1}).get_code(), ErrorCode::ATTRIBUTE_NOT_SET);
    EXPECT_EQ(validate(ReductionMode::ADD, {}).get_code(), ErrorCode::SHAPE_DEDUCTION_FAILED);
    EXPECT_EQ(validate(ReductionMode::ADD, {2, 2, 1}).get_code(), ErrorCode::SHAPE_DEDUCTION_FAILED);
    EXPECT_EQ(validate(ReductionMode::ADD, {1, 3}).get_code(), ErrorCode::SHAPE_DEDUCTION_FAILED);
}

TEST(FrontendSerialize, ResampleAndReductionAttributesReachTheWire)
{
    graph::Graph g;
    g.set_io_data_type(DataType::FLOAT);
    auto x = g.tensor(graph::TensorAttributes().set_uid(10).set_dim({1, 2, 5, 5}));
    auto [y, index] = g.resample(x, graph::ResampleFwdAttributes()
                                        .set_resampling_mode(ResampleMode::MAXPOOL)
                                        .set_padding_mode(PaddingMode::ZERO_PAD)
                                        .set_window({3, 3})
                                        .set_stride({2, 1})
                                        .set_pre_padding({1, 0})
                                        .set_generate_index(true));
    y->set_uid(11).set_output(true);
    index->set_uid(12).set_output(true);
    auto r = g.reduction(y, graph::ReductionAttributes().set_mode(ReductionMode::NORM2).set_is_deterministic(true));
    r->set_uid(13).set_output(true).set_dim({1, 2, 1, 1});
    ASSERT_TRUE(g.validate().is_good());
    std::vector<uint8_t> bytes;
    ASSERT_TRUE(g.serialize(bytes).is_good());
    const auto* wire = dobj::GetGraph(bytes.data());
    ASSERT_EQ(wire->nodes()->size(), 2u);
    const auto* pool = wire->nodes()->Get(0)->attributes_as_ResampleFwdAttributes();
    ASSERT_NE(pool, nullptr);
    EXPECT_EQ(pool->x_tensor_uid(), 10);
    EXPECT_EQ(pool->y_tensor_uid(), 11);
    EXPECT_EQ(pool->index_tensor_uid(), flatbuffers::Optional<int64_t>(12));
    EXPECT_EQ(std::vector<int64_t>(pool->window()->begin(), pool->window()->end()), (std::vector<int64_t>{3, 3}));
    EXPECT_EQ(std::vector<int64_t>(pool->stride()->begin(), pool->stride()->end()), (std::vector<int64_t>{2, 1}));
    EXPECT_EQ(std::vector<int64_t>(pool->post_padding()->begin(), pool->post_padding()->end()),
              (std::vector<int64_t>{1, 0})); // post defaults to pre
    EXPECT_EQ(pool->resample_mode(), dobj::ResampleMode::MAXPOOL);
    EXPECT_EQ(pool->padding_mode(), dobj::PaddingMode::ZERO_PAD);
    EXPECT_TRUE(pool->generate_index());
    const auto* red = wire->nodes()->Get(1)->attributes_as_ReductionAttributes();
    ASSERT_NE(red, nullptr);
    EXPECT_EQ(red->mode(), dobj::ReductionMode::NORM2);
    EXPECT_EQ(red->in_tensor_uid(), 11);
    EXPECT_EQ(red->out_tensor_uid(), 13);
    EXPECT_TRUE(red->is_deterministic());
    int indexTensors = 0;
    for(const auto* t : *wire->tensors())
    {
        if(t->uid() == 12)
        {
            ++indexTensors;
            EXPECT_EQ(t->data_type(), dobj::DataType::INT32);
        }
    }
    EXPECT_EQ(indexTensors, 1);
}

TEST(FrontendExecute, PoolingThenReductionOnTheExampleEngineMatchesTheReferences)
{
    using namespace hipdnn_test_sdk::utilities;
    auto [handle, error] = createHipdnnHandle();
    ASSERT_TRUE(error.is_good()) << error;
    graph::Graph g;
    g.set_io_data_type(DataType::FLOAT).set_preferred_engine_id_ext("EXAMPLE_NAIVE_ENGINE");
    auto x = g.tensor(graph::TensorAttributes().set_name("x").set_dim({2, 3, 6, 5}));
    auto [y, index] = g.resample(x, graph::ResampleFwdAttributes()
                                        .set_resampling_mode(ResampleMode::MAXPOOL)
                                        .set_padding_mode(PaddingMode::NEG_INF_PAD)
                                        .set_window({3, 2})
                                        .set_stride({2, 2})
                                        .set_pre_padding({1, 1})
                                        .set_generate_index(true));
    y->set_output(true);
    index->set_output(true);
    auto sum = g.reduction(y, graph::ReductionAttributes().set_mode(ReductionMode::ADD));
    sum->set_output(true).set_dim({1, 3, 1, 1});
    ASSERT_TRUE(g.build(*handle).is_good());
    EXPECT_EQ(g.get_engine_name_ext(), "EXAMPLE_NAIVE_ENGINE");
    ASSERT_EQ(y->get_dim(), (std::vector<int64_t>{2, 3, 3, 3}));
    Tensor<float> xt({2, 3, 6, 5}), yt({2, 3, 3, 3}), st({1, 3, 1, 1}), yr({2, 3, 3, 3}), sr({1, 3, 1, 1});
    Tensor<int32_t> it({2, 3, 3, 3}), ir({2, 3, 3, 3});
    xt.fillUniform(-1, 1, deriveSeed(401));
    std::vector<uint8_t> workspace(static_cast<size_t>(g.get_workspace_size()) + 1);
    ASSERT_TRUE(g.execute(*handle, std::unordered_map<graph::TensorPtr, void*>{{x, xt.data()}, {y, yt.data()},
                                                                              {index, it.data()}, {sum, st.data()}},
                          workspace.data())
                    .is_good());
    TensorView<int32_t> iv = ir.view();
    CpuFpReferenceResample::forward<float, float>(
        xt.view(), yr.view(), {{1, 1}, {2, 2}, {3, 2}, dobj::ResampleMode::MAXPOOL, dobj::PaddingMode::NEG_INF_PAD},
        &iv);
    CpuFpReferenceReduction::reduce<float, float>(dobj::ReductionMode::ADD, yr.view(), sr.view());
    EXPECT_TRUE(CpuFpReferenceValidation<float>(0, 0).allClose(yr, yt));
    EXPECT_EQ(std::vector<int32_t>(ir.data(), ir.data() + ir.elementCount()),
              std::vector<int32_t>(it.data(), it.data() + it.elementCount()));
    EXPECT_TRUE(CpuFpReferenceValidation<float>(1e-5, 1e-5).allClose(sr, st));
}
