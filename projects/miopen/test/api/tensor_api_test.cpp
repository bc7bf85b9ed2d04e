// Tensor descriptors and tensor operations through the public C API.
#include "common/api_helpers.hpp"

#include <cmath>

namespace {

TEST(TensorApi, Set4dAndGet4dRoundTrip)
{
    test::Tensor t;
    ASSERT_MIOPEN_OK(miopenSet4dTensorDescriptor(t, miopenHalf, 2, 3, 4, 5));
    miopenDataType_t dt;
    int n, c, h, w, ns, cs, hs, ws;
    ASSERT_MIOPEN_OK(miopenGet4dTensorDescriptor(t, &dt, &n, &c, &h, &w, &ns, &cs, &hs, &ws));
    EXPECT_EQ(dt, miopenHalf);
    EXPECT_EQ((std::vector<int>{n, c, h, w, ns, cs, hs, ws}), (std::vector<int>{2, 3, 4, 5, 60, 20, 5, 1}));
    size_t bytes = 0;
    ASSERT_MIOPEN_OK(miopenGetTensorNumBytes(t, &bytes));
    EXPECT_EQ(bytes, 2u * 120u);
}

TEST(TensorApi, Set4dExKeepsStrides)
{
    test::Tensor t;
    ASSERT_MIOPEN_OK(miopenSet4dTensorDescriptorEx(t, miopenFloat, 2, 3, 4, 5, 100, 1, 15, 3));
    int dims[4], strides[4];
    miopenDataType_t dt;
    ASSERT_MIOPEN_OK(miopenGetTensorDescriptor(t, &dt, dims, strides));
    EXPECT_EQ((std::vector<int>(strides, strides + 4)), (std::vector<int>{100, 1, 15, 3}));
    size_t bytes = 0;
    ASSERT_MIOPEN_OK(miopenGetTensorNumBytes(t, &bytes));
    EXPECT_EQ(bytes, 4u * (1 + 100 + 2 + 45 + 12));
}

TEST(TensorApi, NdWithLayoutGivesChannelsLastStrides)
{
    test::Tensor t;
    const int lens[4] = {2, 3, 4, 5};
    ASSERT_MIOPEN_OK(miopenSetNdTensorDescriptorWithLayout(t, miopenFloat, miopenTensorNHWC, lens, 4));
    int size = 0;
    ASSERT_MIOPEN_OK(miopenGetTensorDescriptorSize(t, &size));
    ASSERT_EQ(size, 4);
    int dims[4], strides[4];
    miopenDataType_t dt;
    ASSERT_MIOPEN_OK(miopenGetTensorDescriptor(t, &dt, dims, strides));
    EXPECT_EQ((std::vector<int>(dims, dims + 4)), (std::vector<int>{2, 3, 4, 5}));
    EXPECT_EQ((std::vector<int>(strides, strides + 4)), (std::vector<int>{60, 1, 15, 3}));
    const int lens5[5] = {1, 2, 3, 4, 5};
    ASSERT_MIOPEN_OK(miopenSetNdTensorDescriptorWithLayout(t, miopenFloat, miopenTensorNDHWC, lens5, 5));
    int d5[5], s5[5];
    ASSERT_MIOPEN_OK(miopenGetTensorDescriptor(t, &dt, d5, s5));
    EXPECT_EQ((std::vector<int>(s5, s5 + 5)), (std::vector<int>{120, 1, 40, 10, 2}));
    EXPECT_EQ(miopenSetNdTensorDescriptorWithLayout(t, miopenFloat, miopenTensorNHWC, lens5, 5), miopenStatusBadParm);
    EXPECT_EQ(miopenSetNdTensorDescriptorWithLayout(t, miopenFloat, miopenTensorCHWN, lens, 4), miopenStatusBadParm);
}

TEST(TensorApi, EightDimsAndV2)
{
    test::Tensor t;
    const int lens[8] = {2, 1, 2, 1, 2, 1, 2, 3};
    ASSERT_MIOPEN_OK(miopenSetTensorDescriptor(t, miopenFloat, 8, lens, nullptr));
    int strides[8], dims[8];
    miopenDataType_t dt;
    ASSERT_MIOPEN_OK(miopenGetTensorDescriptor(t, &dt, dims, strides));
    EXPECT_EQ(strides[7], 1);
    EXPECT_EQ(strides[0], 24);
    const size_t big[2] = {size_t(1) << 31, 2};
    ASSERT_MIOPEN_OK(miopenSetTensorDescriptorV2(t, miopenHalf, 2, big, nullptr));
    size_t bytes = 0;
    ASSERT_MIOPEN_OK(miopenGetTensorNumBytes(t, &bytes));
    EXPECT_EQ(bytes, (size_t(1) << 31) * 2 * 2);
    // Lengths beyond int cannot be read back through the int API.
    EXPECT_EQ(miopenGetTensorDescriptor(t, &dt, dims, strides), miopenStatusBadParm);
}

TEST(TensorApi, OpsThroughTheApi)
{
    test::Handle h;
    test::Tensor d(miopenFloat, {2, 3, 2, 2}, {});
    test::Tensor bd(miopenFloat, {1, 3, 1, 1}, {});
    std::vector<float> a(24), b(3), c(24, 5.0f);
    for(std::size_t i = 0; i < a.size(); ++i)
        a[i] = static_cast<float>(i) - 10.0f;
    b = {1.0f, -2.0f, 3.0f};
    const float one = 1.0f, two = 2.0f, zero = 0.0f;
    ASSERT_MIOPEN_OK(miopenOpTensor(h, miopenTensorOpAdd, &one, d, a.data(), &two, bd, b.data(), &zero, d, c.data()));
    for(std::size_t i = 0; i < a.size(); ++i)
        EXPECT_FLOAT_EQ(c[i], a[i] + 2.0f * b[(i / 4) % 3]);
    ASSERT_MIOPEN_OK(miopenScaleTensor(h, d, c.data(), &two));
    for(std::size_t i = 0; i < a.size(); ++i)
        EXPECT_FLOAT_EQ(c[i], 2.0f * (a[i] + 2.0f * b[(i / 4) % 3]));
    const float v = 3.5f;
    ASSERT_MIOPEN_OK(miopenSetTensor(h, d, c.data(), &v));
    for(float x : c)
        EXPECT_EQ(x, 3.5f);
    // NCHW -> NHWC with a dtype change to half.
    test::Tensor nhwc;
    const int lens[4] = {2, 3, 2, 2};
    ASSERT_MIOPEN_OK(miopenSetNdTensorDescriptorWithLayout(nhwc, miopenHalf, miopenTensorNHWC, lens, 4));
    std::vector<std::uint16_t> out(24, 0);
    ASSERT_MIOPEN_OK(miopenTransformTensor(h, &one, d, a.data(), &zero, nhwc, out.data()));
    for(int n = 0; n < 2; ++n)
        for(int ch = 0; ch < 3; ++ch)
            for(int e = 0; e < 4; ++e)
                EXPECT_EQ(out[static_cast<std::size_t>(n * 12 + e * 3 + ch)],
                          test::floatToHalfBits(a[static_cast<std::size_t>(n * 12 + ch * 4 + e)]));
}

TEST(TensorApi, SeqTensorDescriptorLifetime)
{
    miopenSeqTensorDescriptor_t s = nullptr;
    ASSERT_MIOPEN_OK(miopenCreateSeqTensorDescriptor(&s));
    EXPECT_MIOPEN_OK(miopenDestroySeqTensorDescriptor(s));
}

} // namespace
