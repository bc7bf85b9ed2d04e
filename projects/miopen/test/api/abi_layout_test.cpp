// Struct layouts and enumerator values consumers rely on (PyTorch reinterprets
// miopenConvAlgoPerf_t; MIOpenDriver and TF pass raw values).
#include <miopen/miopen.h>

#include <gtest/gtest.h>

#include <cstddef>

namespace {

TEST(AbiLayout, ConvAlgoPerf)
{
    EXPECT_EQ(sizeof(miopenConvAlgoPerf_t), 16u);
    EXPECT_EQ(offsetof(miopenConvAlgoPerf_t, fwd_algo), 0u);
    EXPECT_EQ(offsetof(miopenConvAlgoPerf_t, bwd_data_algo), 0u);
    EXPECT_EQ(offsetof(miopenConvAlgoPerf_t, bwd_weights_algo), 0u);
    EXPECT_EQ(offsetof(miopenConvAlgoPerf_t, time), 4u);
    EXPECT_EQ(offsetof(miopenConvAlgoPerf_t, memory), 8u);
}

TEST(AbiLayout, ConvSolution)
{
    EXPECT_EQ(sizeof(miopenConvSolution_t), 32u);
    EXPECT_EQ(offsetof(miopenConvSolution_t, time), 0u);
    EXPECT_EQ(offsetof(miopenConvSolution_t, workspace_size), 8u);
    EXPECT_EQ(offsetof(miopenConvSolution_t, solution_id), 16u);
    EXPECT_EQ(offsetof(miopenConvSolution_t, algorithm), 24u);
}

TEST(AbiLayout, EnumeratorValues)
{
    EXPECT_EQ(miopenStatusNotImplemented, 6);
    EXPECT_EQ(miopenStatusGpuOperationsSkipped, 9);
    EXPECT_EQ(miopenBFloat16, 5);
    EXPECT_EQ(miopenDouble, 6);
    EXPECT_EQ(miopenInt64, 9);
    EXPECT_EQ(miopenTensorNDHWC, 8);
    EXPECT_EQ(miopenDepthwise, 3);
    EXPECT_EQ(miopenConvolutionFwdAlgoImplicitGEMM, 5);
    EXPECT_EQ(miopenTransposeBwdDataAlgoGEMM, 4);
    EXPECT_EQ(miopenConvolutionBwdWeightsAlgoWinograd, 3);
    EXPECT_EQ(MIOPEN_CONVOLUTION_ATTRIB_DETERMINISTIC, 1);
    EXPECT_EQ(MIOPEN_CONVOLUTION_ATTRIB_MATH_TYPE, 3);
    EXPECT_EQ(miopenConvolutionFindModeDynamicHybrid, 5);
    EXPECT_EQ(miopenActivationELU, 9);
    EXPECT_EQ(miopenBNSpatial, 1);
}

} // namespace
