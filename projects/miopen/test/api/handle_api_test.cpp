// Handle family through the public C API.
#include "common/api_helpers.hpp"

#include <miopen/version.h>

#include <cstdlib>
#include <string>

namespace {

TEST(HandleApi, CreateDestroy)
{
    miopenHandle_t h = nullptr;
    ASSERT_MIOPEN_OK(miopenCreate(&h));
    ASSERT_NE(h, nullptr);
    EXPECT_MIOPEN_OK(miopenDestroy(h));
}

TEST(HandleApi, StreamIsStoredAndReturned)
{
    auto* fakeStream = reinterpret_cast<miopenAcceleratorQueue_t>(static_cast<std::uintptr_t>(0x1234));
    miopenHandle_t h = nullptr;
    ASSERT_MIOPEN_OK(miopenCreateWithStream(&h, fakeStream));
    miopenAcceleratorQueue_t s = nullptr;
    ASSERT_MIOPEN_OK(miopenGetStream(h, &s));
    EXPECT_EQ(s, fakeStream);
    ASSERT_MIOPEN_OK(miopenSetStream(h, nullptr));
    ASSERT_MIOPEN_OK(miopenGetStream(h, &s));
    EXPECT_EQ(s, nullptr);
    EXPECT_MIOPEN_OK(miopenDestroy(h));
}

TEST(HandleApi, VersionIsAtLeast350AndMatchesHeader)
{
    size_t major = 0, minor = 0, patch = 0;
    ASSERT_MIOPEN_OK(miopenGetVersion(&major, &minor, &patch));
    EXPECT_EQ(major, static_cast<size_t>(MIOPEN_VERSION_MAJOR));
    EXPECT_EQ(minor, static_cast<size_t>(MIOPEN_VERSION_MINOR));
    EXPECT_EQ(patch, static_cast<size_t>(MIOPEN_VERSION_PATCH));
    EXPECT_GE(major * 1000 + minor, 3005u);
}

TEST(HandleApi, ErrorStringsAreEnumeratorNames)
{
    EXPECT_STREQ(miopenGetErrorString(miopenStatusSuccess), "miopenStatusSuccess");
    EXPECT_STREQ(miopenGetErrorString(miopenStatusBadParm), "miopenStatusBadParm");
    EXPECT_STREQ(miopenGetErrorString(miopenStatusUnsupportedOp), "miopenStatusUnsupportedOp");
    EXPECT_STREQ(miopenGetErrorString(miopenStatusVersionMismatch), "miopenStatusVersionMismatch");
    EXPECT_STREQ(miopenGetErrorString(static_cast<miopenStatus_t>(77)), "Unknown error status");
    for(int s = 0; s <= 10; ++s)
        EXPECT_EQ(std::string(miopenGetErrorString(static_cast<miopenStatus_t>(s))).rfind("miopenStatus", 0), 0u);
}

struct CountingAllocator
{
    int allocs = 0, frees = 0;
    bool failNext = false;
    static void* alloc(void* ctx, size_t bytes)
    {
        auto* self = static_cast<CountingAllocator*>(ctx);
        if(self->failNext)
            return nullptr;
        ++self->allocs;
        return std::malloc(bytes);
    }
    static void dealloc(void* ctx, void* p)
    {
        ++static_cast<CountingAllocator*>(ctx)->frees;
        std::free(p);
    }
};

// A convolution with alpha/beta != 1/0 needs scratch from the handle's allocator. 1-D, so that
// MIOpen Private serves it in the forwarding runs too (hipDNN takes 2-D and 3-D convolutions only;
// a forwarded call's plan workspace is the caller's or the wrapper's, not the handle allocator's).
miopenStatus_t runScaledConv(miopenHandle_t h)
{
    test::Tensor x(miopenFloat, {1, 2, 5}, {}), w(miopenFloat, {3, 2, 3}, {}), y(miopenFloat, {1, 3, 3}, {});
    test::Conv conv;
    const int pad = 0, stride = 1, dilation = 1;
    EXPECT_MIOPEN_OK(miopenInitConvolutionNdDescriptor(conv, 1, &pad, &stride, &dilation, miopenConvolution));
    std::vector<float> xb(10, 1.0f), wb(18, 1.0f), yb(9, 1.0f);
    const float alpha = 2.0f, beta = 1.0f;
    return miopenConvolutionForward(h, &alpha, x, xb.data(), w, wb.data(), conv, miopenConvolutionFwdAlgoDirect,
                                     &beta, y, yb.data(), nullptr, 0);
}

TEST(HandleApi, AllocatorIsUsedAndFailureIsReported)
{
    test::Handle h;
    CountingAllocator counter;
    ASSERT_MIOPEN_OK(miopenSetAllocator(h, &CountingAllocator::alloc, &CountingAllocator::dealloc, &counter));
    ASSERT_MIOPEN_OK(runScaledConv(h));
    EXPECT_GE(counter.allocs, 1);
    EXPECT_EQ(counter.allocs, counter.frees);
    counter.failNext = true;
    EXPECT_EQ(runScaledConv(h), miopenStatusAllocFailed);
    EXPECT_EQ(counter.allocs, counter.frees);
    // An allocator without a deallocator is refused; a null allocator restores the default.
    EXPECT_EQ(miopenSetAllocator(h, &CountingAllocator::alloc, nullptr, &counter), miopenStatusBadParm);
    ASSERT_MIOPEN_OK(miopenSetAllocator(h, nullptr, nullptr, nullptr));
    EXPECT_MIOPEN_OK(runScaledConv(h));
}

TEST(HandleApi, ProfilingOffLeavesKernelTimeZero)
{
    test::Handle h;
    float t = -1.0f;
    ASSERT_MIOPEN_OK(miopenGetKernelTime(h, &t));
    EXPECT_EQ(t, 0.0f);
    ASSERT_MIOPEN_OK(runScaledConv(h));
    ASSERT_MIOPEN_OK(miopenGetKernelTime(h, &t));
    EXPECT_EQ(t, 0.0f);
    ASSERT_MIOPEN_OK(miopenEnableProfiling(h, true));
    ASSERT_MIOPEN_OK(runScaledConv(h));
    ASSERT_MIOPEN_OK(miopenGetKernelTime(h, &t));
    EXPECT_GT(t, 0.0f);
}

} // namespace
