// Driver-style copies (hipMemcpyHtoD/DtoH/DtoD and their Async forms), hipMemcpyWithStream,
// hipMemcpy2D, hipMemcpyPeer and the element fills hipMemsetD8/D16/D32: results, and the error
// paths (null pointers, ranges outside an allocation, bad pitches, devices and streams).
#include "HipHostTest.hpp"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <numeric>
#include <vector>

namespace {

std::vector<int> iota(std::size_t n, int first = 0)
{
    std::vector<int> v(n);
    std::iota(v.begin(), v.end(), first);
    return v;
}

TEST_F(HipHost, DriverStyleCopies)
{
    const std::size_t n = 256, bytes = n * sizeof(int);
    std::vector<int> host = iota(n), back(n, -1);
    hipDeviceptr_t a = nullptr, b = nullptr;
    ASSERT_HIP_OK(hipMalloc(&a, bytes));
    ASSERT_HIP_OK(hipMalloc(&b, bytes));
    ASSERT_HIP_OK(hipMemcpyHtoD(a, host.data(), bytes));
    ASSERT_HIP_OK(hipMemcpyDtoD(b, a, bytes));
    ASSERT_HIP_OK(hipMemcpyDtoH(back.data(), b, bytes));
    EXPECT_EQ(host, back);
    // An interior range.
    const int seven[2] = {7, 7};
    ASSERT_HIP_OK(hipMemcpyHtoD(static_cast<int*>(a) + 10, const_cast<int*>(seven), sizeof seven));
    int got[3] = {};
    ASSERT_HIP_OK(hipMemcpyDtoH(got, static_cast<int*>(a) + 9, sizeof got));
    EXPECT_EQ(9, got[0]);
    EXPECT_EQ(7, got[1]);
    EXPECT_EQ(7, got[2]);
    // Zero bytes: nothing, even with null pointers.
    EXPECT_HIP_OK(hipMemcpyHtoD(nullptr, nullptr, 0));

    // The device side must be device memory of the right extent; the host side must not be null.
    EXPECT_TRUE(fails(hipMemcpyHtoD(back.data(), host.data(), bytes), hipErrorInvalidValue));
    EXPECT_TRUE(fails(hipMemcpyHtoD(a, nullptr, bytes), hipErrorInvalidValue));
    EXPECT_TRUE(fails(hipMemcpyHtoD(static_cast<char*>(a) + 1, host.data(), bytes), hipErrorInvalidValue));
    EXPECT_TRUE(fails(hipMemcpyDtoH(back.data(), host.data(), bytes), hipErrorInvalidValue));
    EXPECT_TRUE(fails(hipMemcpyDtoH(nullptr, a, bytes), hipErrorInvalidValue));
    EXPECT_TRUE(fails(hipMemcpyDtoD(a, host.data(), bytes), hipErrorInvalidValue));
    EXPECT_TRUE(fails(hipMemcpyDtoD(back.data(), a, bytes), hipErrorInvalidValue));
    EXPECT_TRUE(fails(hipMemcpyDtoD(a, b, bytes + 1), hipErrorInvalidValue));
    EXPECT_HIP_OK(hipFree(b));
    EXPECT_TRUE(fails(hipMemcpyDtoD(a, b, bytes), hipErrorInvalidValue)); // freed
    EXPECT_HIP_OK(hipFree(a));
}

TEST_F(HipHost, DriverStyleAsyncCopiesAndWithStream)
{
    const std::size_t n = 64, bytes = n * sizeof(int);
    std::vector<int> host = iota(n, 100), back(n, 0);
    hipStream_t s = nullptr;
    ASSERT_HIP_OK(hipStreamCreate(&s));
    hipDeviceptr_t a = nullptr, b = nullptr;
    ASSERT_HIP_OK(hipMalloc(&a, bytes));
    ASSERT_HIP_OK(hipMalloc(&b, bytes));
    ASSERT_HIP_OK(hipMemcpyHtoDAsync(a, host.data(), bytes, s));
    ASSERT_HIP_OK(hipMemcpyDtoDAsync(b, a, bytes, s));
    ASSERT_HIP_OK(hipMemcpyDtoHAsync(back.data(), b, bytes, s));
    ASSERT_HIP_OK(hipStreamSynchronize(s));
    EXPECT_EQ(host, back);
    // The null stream and the other default-stream names.
    std::fill(back.begin(), back.end(), 0);
    ASSERT_HIP_OK(hipMemcpyDtoHAsync(back.data(), a, bytes, nullptr));
    EXPECT_EQ(host, back);
    std::fill(back.begin(), back.end(), 0);
    ASSERT_HIP_OK(hipMemcpyDtoHAsync(back.data(), a, bytes, hipStreamPerThread));
    EXPECT_EQ(host, back);
    std::fill(back.begin(), back.end(), 0);
    ASSERT_HIP_OK(hipMemcpyWithStream(back.data(), b, bytes, hipMemcpyDeviceToHost, hipStreamLegacy));
    EXPECT_EQ(host, back);
    std::fill(back.begin(), back.end(), 0);
    ASSERT_HIP_OK(hipMemcpyWithStream(back.data(), b, bytes, hipMemcpyDefault, s));
    EXPECT_EQ(host, back);

    EXPECT_TRUE(fails(hipMemcpyHtoDAsync(back.data(), host.data(), bytes, s), hipErrorInvalidValue));
    EXPECT_TRUE(fails(hipMemcpyWithStream(a, host.data(), bytes, static_cast<hipMemcpyKind>(9), s),
                      hipErrorInvalidMemcpyDirection));
    ASSERT_HIP_OK(hipStreamDestroy(s));
    // A destroyed stream: nothing is copied.
    std::vector<int> zeros(n, 0);
    ASSERT_HIP_OK(hipMemcpyHtoD(b, zeros.data(), bytes));
    EXPECT_TRUE(fails(hipMemcpyHtoDAsync(b, host.data(), bytes, s), hipErrorInvalidHandle));
    EXPECT_TRUE(fails(hipMemcpyDtoHAsync(back.data(), a, bytes, s), hipErrorInvalidHandle));
    EXPECT_TRUE(fails(hipMemcpyDtoDAsync(b, a, bytes, s), hipErrorInvalidHandle));
    EXPECT_TRUE(fails(hipMemcpyWithStream(b, a, bytes, hipMemcpyDeviceToDevice, s), hipErrorInvalidHandle));
    ASSERT_HIP_OK(hipMemcpyDtoH(back.data(), b, bytes));
    EXPECT_EQ(zeros, back);
    EXPECT_HIP_OK(hipFree(a));
    EXPECT_HIP_OK(hipFree(b));
}

TEST_F(HipHost, Memcpy2DCopiesRowsBetweenPitches)
{
    // A 5x3 block (width 5 ints) out of a 8-int-pitch host matrix into a 6-int-pitch device one.
    const std::size_t width = 5 * sizeof(int), height = 3, spitch = 8 * sizeof(int), dpitch = 6 * sizeof(int);
    std::vector<int> src = iota(8 * height), back(6 * height, -1);
    int* d = nullptr;
    ASSERT_HIP_OK(hipMalloc(&d, dpitch * height));
    ASSERT_HIP_OK(hipMemset(d, 0xff, dpitch * height));
    ASSERT_HIP_OK(hipMemcpy2D(d, dpitch, src.data(), spitch, width, height, hipMemcpyHostToDevice));
    ASSERT_HIP_OK(hipMemcpy(back.data(), d, dpitch * height, hipMemcpyDeviceToHost));
    for(std::size_t r = 0; r < height; ++r)
    {
        for(std::size_t c = 0; c < 5; ++c)
            EXPECT_EQ(src[r * 8 + c], back[r * 6 + c]) << r << "," << c;
        EXPECT_EQ(-1, back[r * 6 + 5]) << "the pitch padding is untouched";
    }
    // And back, through a stream, into a tight host matrix.
    std::vector<int> tight(5 * height, 0);
    hipStream_t s = nullptr;
    ASSERT_HIP_OK(hipStreamCreate(&s));
    ASSERT_HIP_OK(hipMemcpy2DAsync(tight.data(), width, d, dpitch, width, height, hipMemcpyDeviceToHost, s));
    for(std::size_t r = 0; r < height; ++r)
        for(std::size_t c = 0; c < 5; ++c)
            EXPECT_EQ(src[r * 8 + c], tight[r * 5 + c]);
    // The device extent is pitch * (height - 1) + width: the last row needs no padding.
    int* exact = nullptr;
    ASSERT_HIP_OK(hipMalloc(&exact, dpitch * (height - 1) + width));
    EXPECT_HIP_OK(hipMemcpy2D(exact, dpitch, src.data(), spitch, width, height, hipMemcpyHostToDevice));
    // Zero width or height: nothing.
    EXPECT_HIP_OK(hipMemcpy2D(nullptr, 0, nullptr, 0, 0, 4, hipMemcpyHostToDevice));
    EXPECT_HIP_OK(hipMemcpy2D(nullptr, 0, nullptr, 0, 4, 0, hipMemcpyHostToDevice));

    // Errors.
    EXPECT_TRUE(fails(hipMemcpy2D(d, width - 1, src.data(), spitch, width, height, hipMemcpyHostToDevice),
                      hipErrorInvalidPitchValue));
    EXPECT_TRUE(fails(hipMemcpy2D(d, dpitch, src.data(), width - 4, width, height, hipMemcpyHostToDevice),
                      hipErrorInvalidPitchValue));
    EXPECT_TRUE(fails(hipMemcpy2D(d, dpitch, src.data(), spitch, width, height + 1, hipMemcpyHostToDevice),
                      hipErrorInvalidValue)); // one row past the allocation
    EXPECT_TRUE(fails(hipMemcpy2D(d, dpitch, nullptr, spitch, width, height, hipMemcpyHostToDevice), hipErrorInvalidValue));
    EXPECT_TRUE(fails(hipMemcpy2D(back.data(), dpitch, src.data(), spitch, width, height, hipMemcpyHostToDevice),
                      hipErrorInvalidValue));
    EXPECT_TRUE(fails(hipMemcpy2D(d, dpitch, src.data(), spitch, width, height, static_cast<hipMemcpyKind>(5)),
                      hipErrorInvalidMemcpyDirection));
    const std::size_t huge = std::numeric_limits<std::size_t>::max() / 2;
    EXPECT_TRUE(fails(hipMemcpy2D(d, huge, src.data(), huge, width, 3, hipMemcpyHostToDevice), hipErrorInvalidValue));
    ASSERT_HIP_OK(hipStreamDestroy(s));
    EXPECT_TRUE(fails(hipMemcpy2DAsync(d, dpitch, src.data(), spitch, width, height, hipMemcpyHostToDevice, s),
                      hipErrorInvalidHandle));
    EXPECT_HIP_OK(hipFree(exact));
    EXPECT_HIP_OK(hipFree(d));
}

TEST_F(HipHost, MemcpyPeerIsADeviceCopyOnDeviceZero)
{
    const std::size_t bytes = 32 * sizeof(int);
    std::vector<int> host = iota(32), back(32, 0);
    int *a = nullptr, *b = nullptr;
    ASSERT_HIP_OK(hipMalloc(&a, bytes));
    ASSERT_HIP_OK(hipMalloc(&b, bytes));
    ASSERT_HIP_OK(hipMemcpyHtoD(a, host.data(), bytes));
    ASSERT_HIP_OK(hipMemcpyPeer(b, 0, a, 0, bytes));
    ASSERT_HIP_OK(hipMemcpyDtoH(back.data(), b, bytes));
    EXPECT_EQ(host, back);
    ASSERT_HIP_OK(hipMemset(b, 0, bytes));
    ASSERT_HIP_OK(hipMemcpyPeerAsync(b, 0, a, 0, bytes)); // the null stream by default
    ASSERT_HIP_OK(hipMemcpyDtoH(back.data(), b, bytes));
    EXPECT_EQ(host, back);
    EXPECT_TRUE(fails(hipMemcpyPeer(b, 1, a, 0, bytes), hipErrorInvalidDevice));
    EXPECT_TRUE(fails(hipMemcpyPeer(b, 0, a, -1, bytes), hipErrorInvalidDevice));
    EXPECT_TRUE(fails(hipMemcpyPeer(b, 0, host.data(), 0, bytes), hipErrorInvalidValue)); // not device memory
    EXPECT_TRUE(fails(hipMemcpyPeerAsync(b, 0, a, 1, bytes, nullptr), hipErrorInvalidDevice));
    int notAStream = 0;
    EXPECT_TRUE(fails(hipMemcpyPeerAsync(b, 0, a, 0, bytes, reinterpret_cast<hipStream_t>(&notAStream)),
                      hipErrorInvalidHandle));
    EXPECT_HIP_OK(hipFree(a));
    EXPECT_HIP_OK(hipFree(b));
}

TEST_F(HipHost, MemsetD8D16D32FillElements)
{
    unsigned char* d = nullptr;
    ASSERT_HIP_OK(hipMalloc(&d, 64));
    std::vector<unsigned char> bytes(64);
    ASSERT_HIP_OK(hipMemsetD8(d, 0xA5, 64));
    ASSERT_HIP_OK(hipMemcpyDtoH(bytes.data(), d, 64));
    for(auto v : bytes)
        ASSERT_EQ(0xA5, v);

    ASSERT_HIP_OK(hipMemsetD16(d + 2, 0xBEEF, 5)); // unaligned to the allocation's start is fine
    std::uint16_t halves[5] = {};
    ASSERT_HIP_OK(hipMemcpyDtoH(halves, d + 2, sizeof halves));
    for(auto v : halves)
        EXPECT_EQ(0xBEEF, v);
    unsigned char edge[2] = {};
    ASSERT_HIP_OK(hipMemcpyDtoH(edge, d + 12, 2));
    EXPECT_EQ(0xA5, edge[0]) << "exactly count elements";

    ASSERT_HIP_OK(hipMemsetD32(d, -2, 16));
    std::int32_t words[16] = {};
    ASSERT_HIP_OK(hipMemcpyDtoH(words, d, sizeof words));
    for(auto v : words)
        EXPECT_EQ(-2, v);

    // Async forms: a stream, the null stream by default.
    hipStream_t s = nullptr;
    ASSERT_HIP_OK(hipStreamCreate(&s));
    ASSERT_HIP_OK(hipMemsetD32Async(d, 0x01020304, 16, s));
    ASSERT_HIP_OK(hipMemcpyDtoH(words, d, sizeof words));
    EXPECT_EQ(0x01020304, words[15]);
    ASSERT_HIP_OK(hipMemsetD16Async(d, 0x0102, 32, s));
    ASSERT_HIP_OK(hipMemsetD8Async(d, 9, 1));
    ASSERT_HIP_OK(hipMemcpyDtoH(bytes.data(), d, 64));
    EXPECT_EQ(9, bytes[0]);
    EXPECT_EQ(0x01, bytes[1]); // little-endian 0x0102
    EXPECT_EQ(0x02, bytes[2]);
    EXPECT_EQ(0x01, bytes[63]);
    // Zero elements: nothing, even at null.
    EXPECT_HIP_OK(hipMemsetD32(nullptr, 0, 0));

    // Errors: past the allocation (in elements), host memory, null, overflowing counts, streams.
    EXPECT_TRUE(fails(hipMemsetD32(d, 0, 17), hipErrorInvalidValue));
    EXPECT_TRUE(fails(hipMemsetD16(d + 1, 0, 32), hipErrorInvalidValue));
    EXPECT_TRUE(fails(hipMemsetD8(d, 0, 65), hipErrorInvalidValue));
    EXPECT_TRUE(fails(hipMemsetD8(bytes.data(), 0, 1), hipErrorInvalidValue));
    EXPECT_TRUE(fails(hipMemsetD16(nullptr, 0, 1), hipErrorInvalidValue));
    EXPECT_TRUE(fails(hipMemsetD32(d, 0, std::numeric_limits<std::size_t>::max() / 2), hipErrorInvalidValue));
    ASSERT_HIP_OK(hipStreamDestroy(s));
    EXPECT_TRUE(fails(hipMemsetD8Async(d, 0, 1, s), hipErrorInvalidHandle));
    EXPECT_TRUE(fails(hipMemsetD16Async(d, 0, 1, s), hipErrorInvalidHandle));
    EXPECT_TRUE(fails(hipMemsetD32Async(d, 0, 1, s), hipErrorInvalidHandle));
    EXPECT_HIP_OK(hipFree(d));
}

} // namespace
