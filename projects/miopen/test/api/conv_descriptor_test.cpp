// Convolution descriptors through the public C API.
#include "common/api_helpers.hpp"

namespace {

TEST(ConvDescriptorApi, TwoDRoundTrip)
{
    test::Conv c;
    ASSERT_MIOPEN_OK(miopenInitConvolutionDescriptor(c, miopenConvolution, 1, 2, 3, 4, 5, 6));
    miopenConvolutionMode_t m;
    int ph, pw, sh, sw, dh, dw;
    ASSERT_MIOPEN_OK(miopenGetConvolutionDescriptor(c, &m, &ph, &pw, &sh, &sw, &dh, &dw));
    EXPECT_EQ(m, miopenConvolution);
    EXPECT_EQ((std::vector<int>{ph, pw, sh, sw, dh, dw}), (std::vector<int>{1, 2, 3, 4, 5, 6}));
    int sd = 0;
    ASSERT_MIOPEN_OK(miopenGetConvolutionSpatialDim(c, &sd));
    EXPECT_EQ(sd, 2);
}

TEST(ConvDescriptorApi, NdRoundTripAndRankProbe)
{
    test::Conv c;
    const int pad[3] = {0, 1, 2}, stride[3] = {1, 2, 1}, dil[3] = {1, 1, 2};
    ASSERT_MIOPEN_OK(miopenInitConvolutionNdDescriptor(c, 3, pad, stride, dil, miopenTranspose));
    int sd = 0;
    miopenConvolutionMode_t m;
    // XLA probes the rank with requestedSpatialDim = 0 and null arrays.
    ASSERT_MIOPEN_OK(miopenGetConvolutionNdDescriptor(c, 0, &sd, nullptr, nullptr, nullptr, &m));
    EXPECT_EQ(sd, 3);
    EXPECT_EQ(m, miopenTranspose);
    int p[3], s[3], d[3];
    ASSERT_MIOPEN_OK(miopenGetConvolutionNdDescriptor(c, 3, &sd, p, s, d, &m));
    EXPECT_EQ((std::vector<int>(p, p + 3)), (std::vector<int>{0, 1, 2}));
    EXPECT_EQ((std::vector<int>(s, s + 3)), (std::vector<int>{1, 2, 1}));
    EXPECT_EQ((std::vector<int>(d, d + 3)), (std::vector<int>{1, 1, 2}));
    EXPECT_EQ(miopenGetConvolutionNdDescriptor(c, 4, &sd, p, s, d, &m), miopenStatusBadParm);
    EXPECT_EQ(miopenGetConvolutionDescriptor(c, &m, p, p, p, p, p, p), miopenStatusBadParm);
}

TEST(ConvDescriptorApi, LegacyModesMapToConvolution)
{
    for(auto mode : {miopenGroupConv, miopenDepthwise})
    {
        test::Conv c;
        ASSERT_MIOPEN_OK(miopenInitConvolutionDescriptor(c, mode, 0, 0, 1, 1, 1, 1));
        miopenConvolutionMode_t m;
        int v;
        ASSERT_MIOPEN_OK(miopenGetConvolutionDescriptor(c, &m, &v, &v, &v, &v, &v, &v));
        EXPECT_EQ(m, miopenConvolution);
    }
}

TEST(ConvDescriptorApi, GroupsAttributesFindMode)
{
    test::Conv c;
    ASSERT_MIOPEN_OK(miopenInitConvolutionDescriptor(c, miopenConvolution, 0, 0, 1, 1, 1, 1));
    int g = 0;
    ASSERT_MIOPEN_OK(miopenGetConvolutionGroupCount(c, &g));
    EXPECT_EQ(g, 1);
    ASSERT_MIOPEN_OK(miopenSetConvolutionGroupCount(c, 4));
    ASSERT_MIOPEN_OK(miopenGetConvolutionGroupCount(c, &g));
    EXPECT_EQ(g, 4);
    EXPECT_EQ(miopenSetConvolutionGroupCount(c, 0), miopenStatusBadParm);

    int v = -5;
    ASSERT_MIOPEN_OK(miopenGetConvolutionAttribute(c, MIOPEN_CONVOLUTION_ATTRIB_DETERMINISTIC, &v));
    EXPECT_EQ(v, 0);
    ASSERT_MIOPEN_OK(miopenSetConvolutionAttribute(c, MIOPEN_CONVOLUTION_ATTRIB_DETERMINISTIC, 1));
    ASSERT_MIOPEN_OK(miopenGetConvolutionAttribute(c, MIOPEN_CONVOLUTION_ATTRIB_DETERMINISTIC, &v));
    EXPECT_EQ(v, 1);
    EXPECT_EQ(miopenSetConvolutionAttribute(c, MIOPEN_CONVOLUTION_ATTRIB_DETERMINISTIC, 2), miopenStatusBadParm);
    ASSERT_MIOPEN_OK(miopenGetConvolutionAttribute(c, MIOPEN_CONVOLUTION_ATTRIB_FP16_ALT_IMPL, &v));
    EXPECT_EQ(v, -1);
    ASSERT_MIOPEN_OK(miopenSetConvolutionAttribute(c, MIOPEN_CONVOLUTION_ATTRIB_MATH_TYPE, miopenMathPedantic));
    ASSERT_MIOPEN_OK(miopenGetConvolutionAttribute(c, MIOPEN_CONVOLUTION_ATTRIB_MATH_TYPE, &v));
    EXPECT_EQ(v, miopenMathPedantic);
    EXPECT_EQ(miopenSetConvolutionAttribute(c, static_cast<miopenConvolutionAttrib_t>(42), 0), miopenStatusBadParm);

    miopenConvolutionFindMode_t fm;
    ASSERT_MIOPEN_OK(miopenGetConvolutionFindMode(c, &fm));
    EXPECT_EQ(fm, miopenConvolutionFindModeDefault);
    for(auto mode : {miopenConvolutionFindModeNormal, miopenConvolutionFindModeFast, miopenConvolutionFindModeHybrid,
                     miopenConvolutionFindModeDynamicHybrid, miopenConvolutionFindModeTrustVerify,
                     miopenConvolutionFindModeTrustVerifyFull})
    {
        ASSERT_MIOPEN_OK(miopenSetConvolutionFindMode(c, mode));
        ASSERT_MIOPEN_OK(miopenGetConvolutionFindMode(c, &fm));
        EXPECT_EQ(fm, mode);
    }
    EXPECT_EQ(miopenSetConvolutionFindMode(c, miopenConvolutionFindModeReserved_4), miopenStatusBadParm);
    EXPECT_EQ(miopenSetConvolutionFindMode(c, static_cast<miopenConvolutionFindMode_t>(0)), miopenStatusBadParm);
}

// The hidden find-mode pair is exported, as upstream, though not declared.
extern "C" miopenStatus_t miopenHiddenSetConvolutionFindMode(miopenConvolutionDescriptor_t, int);
extern "C" miopenStatus_t miopenHiddenGetConvolutionFindMode(miopenConvolutionDescriptor_t, int*);

TEST(ConvDescriptorApi, HiddenFindModePair)
{
    test::Conv c;
    ASSERT_MIOPEN_OK(miopenHiddenSetConvolutionFindMode(c, 1));
    int v = 0;
    ASSERT_MIOPEN_OK(miopenHiddenGetConvolutionFindMode(c, &v));
    EXPECT_EQ(v, 1);
    EXPECT_EQ(miopenHiddenSetConvolutionFindMode(c, 9), miopenStatusBadParm);
}

TEST(ConvDescriptorApi, OutputDims)
{
    test::Conv c;
    ASSERT_MIOPEN_OK(miopenInitConvolutionDescriptor(c, miopenConvolution, 1, 1, 2, 2, 1, 1));
    test::Tensor x(miopenFloat, {8, 3, 32, 31}, {}), w(miopenFloat, {16, 3, 3, 3}, {});
    int n, ch, h, wd;
    ASSERT_MIOPEN_OK(miopenGetConvolutionForwardOutputDim(c, x, w, &n, &ch, &h, &wd));
    EXPECT_EQ((std::vector<int>{n, ch, h, wd}), (std::vector<int>{8, 16, 16, 16}));
    // Transpose: filter (C_in, C_out/G, ...); out = s*(in-1) + d*(k-1) + 1 - 2p + adj.
    test::Conv t;
    ASSERT_MIOPEN_OK(miopenInitConvolutionDescriptor(t, miopenTranspose, 1, 0, 2, 3, 1, 1));
    ASSERT_MIOPEN_OK(miopenSetTransposeConvOutputPadding(t, 1, 2));
    test::Tensor tx(miopenFloat, {2, 4, 5, 6}, {}), tw(miopenFloat, {4, 7, 3, 2}, {});
    ASSERT_MIOPEN_OK(miopenGetConvolutionForwardOutputDim(t, tx, tw, &n, &ch, &h, &wd));
    EXPECT_EQ((std::vector<int>{n, ch, h, wd}), (std::vector<int>{2, 7, 2 * 4 + 3 - 2 + 1, 3 * 5 + 2 + 2}));
    ASSERT_MIOPEN_OK(miopenSetTransposeConvOutputPadding(t, 2, 0)); // adj >= stride
    EXPECT_EQ(miopenGetConvolutionForwardOutputDim(t, tx, tw, &n, &ch, &h, &wd), miopenStatusBadParm);
    // Groups: filter channels * groups must equal input channels.
    ASSERT_MIOPEN_OK(miopenSetConvolutionGroupCount(c, 3));
    EXPECT_EQ(miopenGetConvolutionForwardOutputDim(c, x, w, &n, &ch, &h, &wd), miopenStatusBadParm);
    test::Tensor wg(miopenFloat, {15, 1, 3, 3}, {});
    ASSERT_MIOPEN_OK(miopenGetConvolutionForwardOutputDim(c, x, wg, &n, &ch, &h, &wd));
    EXPECT_EQ(ch, 15);
}

} // namespace
