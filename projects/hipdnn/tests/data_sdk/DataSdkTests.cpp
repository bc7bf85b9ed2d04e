#include <hipdnn_data_sdk/flatbuffer_utilities/BufferVerification.hpp>
#include <hipdnn_data_sdk/flatbuffer_utilities/NodeOperands.hpp>
#include <hipdnn_data_sdk/logging/Logger.hpp>
#include <hipdnn_data_sdk/types.hpp>
#include <hipdnn_data_sdk/utilities/EngineNames.hpp>
#include <hipdnn_data_sdk/utilities/ShapeUtilities.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

using namespace hipdnn_data_sdk;
namespace dobj = hipdnn_data_sdk::data_objects;

TEST(DataSdkTypes, HalfRoundTripsEveryFiniteValue)
{
    for(uint32_t bits = 0; bits < 0x10000; ++bits)
    {
        const auto h = types::half::fromBits(static_cast<uint16_t>(bits));
        const float f = h;
        if(std::isnan(f))
        {
            EXPECT_TRUE(std::isnan(static_cast<float>(types::half(f))));
            continue;
        }
        ASSERT_EQ(types::half(f).bits(), bits) << "bits " << bits;
    }
}

TEST(DataSdkTypes, HalfRoundsToNearestEvenAndOverflows)
{
    EXPECT_EQ(static_cast<float>(types::half(1.0f + 1.0f / 4096.0f)), 1.0f); // halfway: to even
    EXPECT_EQ(static_cast<float>(types::half(1.0f + 3.0f / 4096.0f)), 1.0f + 1.0f / 1024.0f); // 0.75 ulp: up
    EXPECT_TRUE(std::isinf(static_cast<float>(types::half(70000.0f))));
    EXPECT_EQ(static_cast<float>(types::half(65504.0f)), 65504.0f);
    EXPECT_EQ(static_cast<float>(types::half(5.9604645e-8f)), 5.9604645e-8f); // smallest subnormal
    EXPECT_EQ(static_cast<float>(types::half(2.0e-8f)), 0.0f);
}

TEST(DataSdkTypes, BFloat16RoundsToNearestEven)
{
    EXPECT_EQ(static_cast<float>(types::bfloat16(1.0f)), 1.0f);
    EXPECT_EQ(static_cast<float>(types::bfloat16(1.00390625f)), 1.0f);         // halfway -> even
    EXPECT_EQ(static_cast<float>(types::bfloat16(1.01171875f)), 1.015625f);    // halfway -> even (up)
    EXPECT_TRUE(std::isnan(static_cast<float>(types::bfloat16(std::nanf("")))));
    EXPECT_EQ(static_cast<float>(std::numeric_limits<types::bfloat16>::epsilon()), 0.0078125f);
}

TEST(DataSdkEngineNames, IdsAreFnv1a64OfTheName)
{
    EXPECT_EQ(utilities::fnv1a64(""), 0u);
    EXPECT_EQ(utilities::fnv1a64("a"), 0xaf63dc4c8601ec8cULL); // published FNV-1a test vector
    EXPECT_EQ(utilities::engineNameToId("MIOPEN_ENGINE"), static_cast<int64_t>(0x15B46865C717A122ULL));
    EXPECT_EQ(utilities::MIOPEN_ENGINE_DETERMINISTIC_ID, -6748551569128940061LL);
    EXPECT_EQ(utilities::engineIdToName(utilities::HIPBLASLT_ENGINE_ID), "HIPBLASLT_ENGINE");
    EXPECT_TRUE(utilities::engineIdToName(12345).empty());
}

TEST(DataSdkLogging, ParsesLevelsAndFiltersBelowTheLevel)
{
    hipdnnSeverity_t s = HIPDNN_SEV_OFF;
    EXPECT_TRUE(logging::parseSeverity("WaRn", s));
    EXPECT_EQ(s, HIPDNN_SEV_WARN);
    EXPECT_FALSE(logging::parseSeverity("verbose", s));
    static std::vector<std::string> seen;
    auto& logger = logging::Logger::instance();
    logger.setCallback([](hipdnnSeverity_t, const char* m) { seen.emplace_back(m); });
    logger.setLevel(HIPDNN_SEV_ERROR);
    HIPDNN_SDK_LOG_INFO("dropped " << 1);
    HIPDNN_SDK_LOG_ERROR("kept " << 2);
    logger.setCallback(nullptr);
    ASSERT_EQ(seen.size(), 1u);
    EXPECT_EQ(seen[0], "kept 2");
}

TEST(DataSdkShapes, ConvolutionOutputDims)
{
    EXPECT_EQ(utilities::convForwardOutputDims({2, 4, 9, 9}, {6, 2, 3, 3}, {1, 0}, {1, 2}, {2, 1}, {1, 2}),
              (std::vector<int64_t>{2, 6, 5, 7}));
    EXPECT_THROW(utilities::convForwardOutputDims({1, 3, 4, 4}, {2, 2, 3, 3}, {0, 0}, {0, 0}, {1, 1}, {1, 1}),
                 std::invalid_argument); // 3 channels not a multiple of 2
    EXPECT_EQ(utilities::channelsLastStrides({2, 3, 4, 5}), (std::vector<int64_t>{60, 1, 15, 3}));
}

namespace
{
std::vector<uint8_t> buildGraph(bool topological, bool duplicateUid, bool disconnected)
{
    flatbuffers::FlatBufferBuilder fbb;
    auto tensor = [&](int64_t uid, bool isVirtual) {
        std::vector<int64_t> d{1, 2, 2, 2}, s{8, 4, 2, 1};
        return dobj::CreateTensorAttributesDirect(fbb, uid, "", dobj::DataType::FLOAT, &s, &d, isVirtual);
    };
    std::vector<flatbuffers::Offset<dobj::TensorAttributes>> tensors = {tensor(1, false), tensor(2, true),
                                                                        tensor(duplicateUid ? 1 : 3, false)};
    if(disconnected)
    {
        tensors.push_back(tensor(4, false));
        tensors.push_back(tensor(5, false));
    }
    auto relu = [&](int64_t in, int64_t out) {
        auto a = dobj::CreatePointwiseAttributes(fbb, dobj::PointwiseMode::RELU_FWD, flatbuffers::nullopt,
                                                 flatbuffers::nullopt, flatbuffers::nullopt, flatbuffers::nullopt, in,
                                                 flatbuffers::nullopt, flatbuffers::nullopt, out);
        return dobj::CreateNodeDirect(fbb, "relu", dobj::DataType::FLOAT, dobj::NodeAttributes::PointwiseAttributes,
                                      a.Union());
    };
    std::vector<flatbuffers::Offset<dobj::Node>> nodes;
    if(topological)
    {
        nodes = {relu(1, 2), relu(2, 3)};
    }
    else
    {
        nodes = {relu(2, 3), relu(1, 2)};
    }
    if(disconnected)
    {
        nodes.push_back(relu(4, 5));
    }
    fbb.Finish(dobj::CreateGraphDirect(fbb, "g", dobj::DataType::FLOAT, dobj::DataType::FLOAT, dobj::DataType::FLOAT,
                                       &tensors, &nodes));
    return {fbb.GetBufferPointer(), fbb.GetBufferPointer() + fbb.GetSize()};
}
} // namespace

TEST(DataSdkVerification, AcceptsAWellFormedGraph)
{
    auto bytes = buildGraph(true, false, false);
    std::string why;
    EXPECT_NE(flatbuffer_utilities::verifyGraph(bytes.data(), bytes.size(), why), nullptr) << why;
}

TEST(DataSdkVerification, RejectsCorruptAndTruncatedBuffers)
{
    auto bytes = buildGraph(true, false, false);
    std::string why;
    EXPECT_EQ(flatbuffer_utilities::verifyGraph(bytes.data(), 7, why), nullptr);
    EXPECT_NE(why.find("verification"), std::string::npos) << why;
    for(size_t i = 0; i < bytes.size(); i += 3)
    {
        auto corrupt = bytes;
        corrupt[i] ^= 0xA5;
        flatbuffer_utilities::verifyGraph(corrupt.data(), corrupt.size(), why); // must not crash
    }
    std::vector<uint8_t> garbage(64, 0xFF);
    EXPECT_EQ(flatbuffer_utilities::verifyGraph(garbage.data(), garbage.size(), why), nullptr);
    EXPECT_EQ(flatbuffer_utilities::verifyGraph(nullptr, 0, why), nullptr);
}

TEST(DataSdkVerification, RejectsGraphContractViolations)
{
    std::string why;
    auto unordered = buildGraph(false, false, false);
    EXPECT_EQ(flatbuffer_utilities::verifyGraph(unordered.data(), unordered.size(), why), nullptr);
    EXPECT_NE(why.find("topological"), std::string::npos) << why;
    auto duplicate = buildGraph(true, true, false);
    EXPECT_EQ(flatbuffer_utilities::verifyGraph(duplicate.data(), duplicate.size(), why), nullptr);
    EXPECT_NE(why.find("duplicate tensor uid"), std::string::npos) << why;
    auto disconnected = buildGraph(true, false, true);
    EXPECT_EQ(flatbuffer_utilities::verifyGraph(disconnected.data(), disconnected.size(), why), nullptr);
    EXPECT_NE(why.find("not connected"), std::string::npos) << why;
}

TEST(DataSdkSchema, UnionTagsAndFieldSlotsMatchUpstream)
{
    EXPECT_EQ(static_cast<int>(dobj::NodeAttributes::BatchnormInferenceAttributes), 1);
    EXPECT_EQ(static_cast<int>(dobj::NodeAttributes::PointwiseAttributes), 2);
    EXPECT_EQ(static_cast<int>(dobj::NodeAttributes::BatchnormBackwardAttributes), 3);
    EXPECT_EQ(static_cast<int>(dobj::NodeAttributes::BatchnormAttributes), 4);
    EXPECT_EQ(static_cast<int>(dobj::NodeAttributes::ConvolutionFwdAttributes), 5);
    EXPECT_EQ(static_cast<int>(dobj::NodeAttributes::ConvolutionBwdAttributes), 6);
    EXPECT_EQ(static_cast<int>(dobj::NodeAttributes::ConvolutionWrwAttributes), 7);
    EXPECT_EQ(static_cast<int>(dobj::DataType::FP8_E5M2_FNUZ), 17);
    EXPECT_EQ(static_cast<int>(dobj::PointwiseMode::RELU_FWD), 34);
    // vtable offsets: field index i lives at 4 + 2*i.
    EXPECT_EQ(dobj::TensorAttributes::VT_STRIDES, 4 + 2 * 3);
    EXPECT_EQ(dobj::TensorAttributes::VT_DIMS, 4 + 2 * 4);
    EXPECT_EQ(dobj::Graph::VT_PREFERRED_ENGINE_ID, 4 + 2 * 6);
    EXPECT_EQ(dobj::PointwiseAttributes::VT_IN_0_TENSOR_UID, 4 + 2 * 5);
    EXPECT_EQ(dobj::ConvolutionFwdAttributes::VT_CONV_MODE, 4 + 2 * 7);
    // Pooling and reduction: upstream's tags 18, 19 and 21 (9-17 and 20 are not defined here).
    EXPECT_EQ(static_cast<int>(dobj::NodeAttributes::ReductionAttributes), 18);
    EXPECT_EQ(static_cast<int>(dobj::NodeAttributes::ResampleFwdAttributes), 19);
    EXPECT_EQ(static_cast<int>(dobj::NodeAttributes::ResampleBwdAttributes), 21);
    EXPECT_STREQ(dobj::EnumNameNodeAttributes(static_cast<dobj::NodeAttributes>(9)), "");
    EXPECT_STREQ(dobj::EnumNameNodeAttributes(static_cast<dobj::NodeAttributes>(20)), "");
    EXPECT_EQ(static_cast<int>(dobj::ResampleMode::MAXPOOL), 1);
    EXPECT_EQ(static_cast<int>(dobj::ResampleMode::AVGPOOL_EXCLUDE_PADDING), 2);
    EXPECT_EQ(static_cast<int>(dobj::ResampleMode::AVGPOOL_INCLUDE_PADDING), 3);
    EXPECT_EQ(static_cast<int>(dobj::ResampleMode::NEAREST), 5);
    EXPECT_EQ(static_cast<int>(dobj::PaddingMode::NEG_INF_PAD), 1);
    EXPECT_EQ(static_cast<int>(dobj::PaddingMode::ZERO_PAD), 2);
    EXPECT_EQ(static_cast<int>(dobj::PaddingMode::EDGE_VAL_PAD), 3);
    EXPECT_EQ(static_cast<int>(dobj::ReductionMode::MIN_OP), 3);
    EXPECT_EQ(static_cast<int>(dobj::ReductionMode::AVG), 6);
    EXPECT_EQ(static_cast<int>(dobj::ReductionMode::MUL_NO_ZEROS), 9);
    EXPECT_EQ(dobj::ResampleFwdAttributes::VT_INDEX_TENSOR_UID, 4 + 2 * 2);
    EXPECT_EQ(dobj::ResampleFwdAttributes::VT_WINDOW, 4 + 2 * 6);
    EXPECT_EQ(dobj::ResampleFwdAttributes::VT_RESAMPLE_MODE, 4 + 2 * 7);
    EXPECT_EQ(dobj::ResampleFwdAttributes::VT_GENERATE_INDEX, 4 + 2 * 9);
    EXPECT_EQ(dobj::ResampleBwdAttributes::VT_DX_TENSOR_UID, 4 + 2 * 1);
    EXPECT_EQ(dobj::ResampleBwdAttributes::VT_PADDING_MODE, 4 + 2 * 8);
    EXPECT_EQ(dobj::ResampleBwdAttributes::VT_GENERATE_INDEX, 4 + 2 * 9);
    EXPECT_EQ(dobj::ReductionAttributes::VT_IN_TENSOR_UID, 4 + 2 * 1);
    EXPECT_EQ(dobj::ReductionAttributes::VT_IS_DETERMINISTIC, 4 + 2 * 3);
}

TEST(DataSdkVerification, ResampleAndReductionNodesConnectTheirOperands)
{
    // x(1) -> resample -> y(2) + index(3); y(2) -> reduction -> r(4); the index feeds a backward
    // node with dy(5) -> dx(6): one connected graph only through the operands of the new kinds.
    flatbuffers::FlatBufferBuilder fbb;
    auto tensor = [&](int64_t uid, std::vector<int64_t> d, dobj::DataType type) {
        auto s = hipdnn_data_sdk::utilities::packedStrides(d);
        return dobj::CreateTensorAttributesDirect(fbb, uid, "", type, &s, &d, false);
    };
    std::vector<flatbuffers::Offset<dobj::TensorAttributes>> tensors = {
        tensor(1, {1, 2, 4, 4}, dobj::DataType::FLOAT), tensor(2, {1, 2, 2, 2}, dobj::DataType::FLOAT),
        tensor(3, {1, 2, 2, 2}, dobj::DataType::INT32), tensor(4, {1, 2, 1, 1}, dobj::DataType::FLOAT),
        tensor(5, {1, 2, 2, 2}, dobj::DataType::FLOAT), tensor(6, {1, 2, 4, 4}, dobj::DataType::FLOAT)};
    const std::vector<int64_t> two = {2, 2}, zero = {0, 0};
    auto fwd = dobj::CreateResampleFwdAttributesDirect(fbb, 1, 2, 3, &zero, &zero, &two, &two,
                                                       dobj::ResampleMode::MAXPOOL, dobj::PaddingMode::NEG_INF_PAD, true);
    auto red = dobj::CreateReductionAttributes(fbb, dobj::ReductionMode::ADD, 2, 4);
    auto bwd = dobj::CreateResampleBwdAttributesDirect(fbb, 5, 6, 3, &zero, &zero, &two, &two,
                                                       dobj::ResampleMode::MAXPOOL, dobj::PaddingMode::NEG_INF_PAD);
    std::vector<flatbuffers::Offset<dobj::Node>> nodes = {
        dobj::CreateNodeDirect(fbb, "pool", dobj::DataType::FLOAT, dobj::NodeAttributes::ResampleFwdAttributes,
                               fwd.Union()),
        dobj::CreateNodeDirect(fbb, "sum", dobj::DataType::FLOAT, dobj::NodeAttributes::ReductionAttributes,
                               red.Union()),
        dobj::CreateNodeDirect(fbb, "unpool", dobj::DataType::FLOAT, dobj::NodeAttributes::ResampleBwdAttributes,
                               bwd.Union())};
    fbb.Finish(dobj::CreateGraphDirect(fbb, "g", dobj::DataType::FLOAT, dobj::DataType::FLOAT, dobj::DataType::FLOAT,
                                       &tensors, &nodes));
    std::string why;
    EXPECT_NE(flatbuffer_utilities::verifyGraph(fbb.GetBufferPointer(), fbb.GetSize(), why), nullptr) << why;
    const auto* graph = dobj::GetGraph(fbb.GetBufferPointer());
    const auto ops = flatbuffer_utilities::nodeOperands(*graph->nodes()->Get(2));
    EXPECT_EQ(ops.inputs, (std::vector<int64_t>{5, 3}));
    EXPECT_EQ(ops.outputs, (std::vector<int64_t>{6}));
}
