// hip_host through its exported C API: each function, its results and its error paths, and the
// thread's last error after each failure.
#include "HipHostTest.hpp"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <thread>
#include <vector>

namespace {

TEST_F(HipHost, EnumValuesAreHips)
{
    EXPECT_EQ(0, hipSuccess);
    EXPECT_EQ(1, hipErrorInvalidValue);
    EXPECT_EQ(2, hipErrorOutOfMemory);
    EXPECT_EQ(hipErrorOutOfMemory, hipErrorMemoryAllocation);
    EXPECT_EQ(21, hipErrorInvalidMemcpyDirection);
    EXPECT_EQ(101, hipErrorInvalidDevice);
    EXPECT_EQ(400, hipErrorInvalidHandle);
    EXPECT_EQ(600, hipErrorNotReady);
    EXPECT_EQ(801, hipErrorNotSupported);
    EXPECT_EQ(999, hipErrorUnknown);
    EXPECT_EQ(0, hipMemcpyHostToHost);
    EXPECT_EQ(1, hipMemcpyHostToDevice);
    EXPECT_EQ(2, hipMemcpyDeviceToHost);
    EXPECT_EQ(3, hipMemcpyDeviceToDevice);
    EXPECT_EQ(4, hipMemcpyDefault);
    EXPECT_EQ(63, hipDeviceAttributeMultiprocessorCount);
    EXPECT_EQ(87, hipDeviceAttributeWarpSize);
    EXPECT_EQ(5, hipDeviceAttributeClockRate);
}

TEST_F(HipHost, ErrorStringsAndNames)
{
    EXPECT_STREQ("hipSuccess", hipGetErrorName(hipSuccess));
    EXPECT_STREQ("hipErrorInvalidValue", hipGetErrorName(hipErrorInvalidValue));
    EXPECT_STREQ("hipErrorOutOfMemory", hipGetErrorName(hipErrorMemoryAllocation));
    EXPECT_STREQ("hipErrorInvalidHandle", hipGetErrorName(hipErrorInvalidHandle));
    EXPECT_STREQ("no error", hipGetErrorString(hipSuccess));
    EXPECT_STREQ("out of memory", hipGetErrorString(hipErrorOutOfMemory));
    const auto bogus = static_cast<hipError_t>(12345);
    EXPECT_STREQ("hipErrorUnknown", hipGetErrorName(bogus));
    EXPECT_STREQ("unknown error", hipGetErrorString(bogus));
    // Every value of the header has its own non-empty text.
    for(hipError_t e : {hipErrorNotInitialized, hipErrorInvalidDevice, hipErrorNotReady, hipErrorNotSupported,
                        hipErrorInvalidMemcpyDirection, hipErrorInvalidHandle})
    {
        EXPECT_NE(std::string(hipGetErrorName(e)), "hipErrorUnknown") << static_cast<int>(e);
        EXPECT_GT(std::strlen(hipGetErrorString(e)), 0u);
    }
}

TEST_F(HipHost, LastErrorIsPerThreadAndResetByGet)
{
    EXPECT_EQ(hipErrorInvalidDevice, hipSetDevice(3));
    EXPECT_EQ(hipErrorInvalidDevice, hipPeekAtLastError());
    EXPECT_EQ(hipErrorInvalidDevice, hipPeekAtLastError()); // peek does not reset
    // A later success does not clear it.
    int n = 0;
    EXPECT_HIP_OK(hipGetDeviceCount(&n));
    hipError_t other = hipSuccess;
    std::thread([&] { other = hipPeekAtLastError(); }).join();
    EXPECT_EQ(hipSuccess, other);
    EXPECT_EQ(hipErrorInvalidDevice, hipGetLastError());
    EXPECT_EQ(hipSuccess, hipGetLastError());
}

TEST_F(HipHost, Versions)
{
    int rt = 0, drv = 0;
    ASSERT_HIP_OK(hipRuntimeGetVersion(&rt));
    ASSERT_HIP_OK(hipDriverGetVersion(&drv));
    EXPECT_EQ(HIP_VERSION, rt);
    EXPECT_EQ(HIP_VERSION_MAJOR, rt / 10000000);
    EXPECT_EQ(HIP_VERSION_MINOR, rt / 100000 % 100);
    EXPECT_EQ(HIP_VERSION, drv);
    EXPECT_TRUE(fails(hipRuntimeGetVersion(nullptr), hipErrorInvalidValue));
    EXPECT_TRUE(fails(hipDriverGetVersion(nullptr), hipErrorInvalidValue));
}

TEST_F(HipHost, OneDeviceZero)
{
    int n = -1, d = -1;
    ASSERT_HIP_OK(hipGetDeviceCount(&n));
    EXPECT_EQ(1, n);
    ASSERT_HIP_OK(hipGetDevice(&d));
    EXPECT_EQ(0, d);
    EXPECT_HIP_OK(hipSetDevice(0));
    EXPECT_TRUE(fails(hipSetDevice(1), hipErrorInvalidDevice));
    EXPECT_TRUE(fails(hipSetDevice(-1), hipErrorInvalidDevice));
    EXPECT_TRUE(fails(hipGetDeviceCount(nullptr), hipErrorInvalidValue));
    EXPECT_TRUE(fails(hipGetDevice(nullptr), hipErrorInvalidValue));
    EXPECT_HIP_OK(hipDeviceSynchronize());
}

TEST_F(HipHost, PropertiesDescribeTheCpu)
{
    hipDeviceProp_t p;
    std::memset(&p, 0xff, sizeof(p));
    ASSERT_HIP_OK(hipGetDeviceProperties(&p, 0));
    EXPECT_GT(std::strlen(p.name), 0u);
    EXPECT_LT(std::strlen(p.name), sizeof(p.name));
    EXPECT_EQ(0, std::strncmp(p.gcnArchName, "cpu-", 4)) << p.gcnArchName;
    EXPECT_EQ(std::max(1u, std::thread::hardware_concurrency()), static_cast<unsigned>(p.multiProcessorCount));
    EXPECT_GT(p.totalGlobalMem, std::size_t{1} << 20);
    EXPECT_EQ(1, p.managedMemory);
    EXPECT_EQ(1, p.unifiedAddressing);
    EXPECT_EQ(0, p.major);
    EXPECT_TRUE(fails(hipGetDeviceProperties(nullptr, 0), hipErrorInvalidValue));
    EXPECT_TRUE(fails(hipGetDeviceProperties(&p, 1), hipErrorInvalidDevice));

    // Attributes agree with the properties.
    int v = -1;
    ASSERT_HIP_OK(hipDeviceGetAttribute(&v, hipDeviceAttributeMultiprocessorCount, 0));
    EXPECT_EQ(p.multiProcessorCount, v);
    ASSERT_HIP_OK(hipDeviceGetAttribute(&v, hipDeviceAttributeWarpSize, 0));
    EXPECT_EQ(p.warpSize, v);
    ASSERT_HIP_OK(hipDeviceGetAttribute(&v, hipDeviceAttributeClockRate, 0));
    EXPECT_EQ(p.clockRate, v);
    ASSERT_HIP_OK(hipDeviceGetAttribute(&v, hipDeviceAttributeL2CacheSize, 0));
    EXPECT_EQ(p.l2CacheSize, v);
    ASSERT_HIP_OK(hipDeviceGetAttribute(&v, hipDeviceAttributeManagedMemory, 0));
    EXPECT_EQ(1, v);
    ASSERT_HIP_OK(hipDeviceGetAttribute(&v, hipDeviceAttributeComputeCapabilityMajor, 0));
    EXPECT_EQ(p.major, v);
    EXPECT_TRUE(fails(hipDeviceGetAttribute(nullptr, hipDeviceAttributeWarpSize, 0), hipErrorInvalidValue));
    EXPECT_TRUE(fails(hipDeviceGetAttribute(&v, hipDeviceAttributeWarpSize, 2), hipErrorInvalidDevice));
    EXPECT_TRUE(fails(hipDeviceGetAttribute(&v, hipDeviceAttributeCudaCompatibleEnd, 0), hipErrorInvalidValue));
}

TEST_F(HipHost, MemGetInfo)
{
    std::size_t freeBytes = 0, total = 0;
    ASSERT_HIP_OK(hipMemGetInfo(&freeBytes, &total));
    hipDeviceProp_t p;
    ASSERT_HIP_OK(hipGetDeviceProperties(&p, 0));
    EXPECT_EQ(p.totalGlobalMem, total);
    EXPECT_LE(freeBytes, total);
    EXPECT_GT(freeBytes, 0u);
    EXPECT_TRUE(fails(hipMemGetInfo(nullptr, &total), hipErrorInvalidValue));
    EXPECT_TRUE(fails(hipMemGetInfo(&freeBytes, nullptr), hipErrorInvalidValue));
}

TEST_F(HipHost, MallocFreeAndAlignment)
{
    float* d = nullptr;
    ASSERT_HIP_OK(hipMalloc(&d, 1000 * sizeof(float))); // the typed C++ overload
    ASSERT_NE(nullptr, d);
    EXPECT_EQ(0u, reinterpret_cast<std::uintptr_t>(d) % 256);
    void* zero = reinterpret_cast<void*>(0x1);
    ASSERT_HIP_OK(hipMalloc(&zero, 0));
    EXPECT_EQ(nullptr, zero);
    EXPECT_HIP_OK(hipFree(nullptr));
    EXPECT_HIP_OK(hipFree(d));
    EXPECT_TRUE(fails(hipFree(d), hipErrorInvalidValue)); // double free
    int onStack = 0;
    EXPECT_TRUE(fails(hipFree(&onStack), hipErrorInvalidValue));
    EXPECT_TRUE(fails(hipMalloc(static_cast<void**>(nullptr), 16), hipErrorInvalidValue));
    void* huge = reinterpret_cast<void*>(0x1);
    EXPECT_TRUE(fails(hipMalloc(&huge, std::numeric_limits<std::size_t>::max()), hipErrorOutOfMemory));
    EXPECT_EQ(nullptr, huge);
    // An interior pointer is not an allocation.
    char* c = nullptr;
    ASSERT_HIP_OK(hipMalloc(&c, 64));
    EXPECT_TRUE(fails(hipFree(c + 8), hipErrorInvalidValue));
    EXPECT_HIP_OK(hipFree(c));
}

TEST_F(HipHost, ManagedAndHostMemory)
{
    int* m = nullptr;
    ASSERT_HIP_OK(hipMallocManaged(&m, 64 * sizeof(int)));
    for(int i = 0; i < 64; ++i)
        m[i] = i; // directly addressable from the host
    ASSERT_HIP_OK(hipMemset(m, 0, 16 * sizeof(int)));
    EXPECT_EQ(0, m[15]);
    EXPECT_EQ(16, m[16]);
    EXPECT_TRUE(fails(hipMallocManaged(&m, 16, 0x7), hipErrorInvalidValue));
    EXPECT_TRUE(fails(hipHostFree(m), hipErrorInvalidValue)); // not host memory
    EXPECT_HIP_OK(hipFree(m));

    double* h = nullptr;
    ASSERT_HIP_OK(hipHostMalloc(&h, 32 * sizeof(double), hipHostMallocDefault));
    ASSERT_NE(nullptr, h);
    EXPECT_TRUE(fails(hipFree(h), hipErrorInvalidValue)); // not device memory
    EXPECT_HIP_OK(hipHostFree(h));
    EXPECT_TRUE(fails(hipHostFree(h), hipErrorInvalidValue));
    EXPECT_HIP_OK(hipHostFree(nullptr));
    void* bad = nullptr;
    EXPECT_TRUE(fails(hipHostMalloc(&bad, 16, 0x100), hipErrorInvalidValue));
    EXPECT_TRUE(fails(hipHostMalloc(&bad, 16, hipHostMallocCoherent | hipHostMallocNonCoherent), hipErrorInvalidValue));
    // The old names.
    void* old = nullptr;
    ASSERT_HIP_OK(hipMallocHost(&old, 128));
    EXPECT_HIP_OK(hipFreeHost(old));
    EXPECT_TRUE(fails(hipFreeHost(old), hipErrorInvalidValue));
}

TEST_F(HipHost, MemcpyEveryDirection)
{
    std::vector<float> host(256), back(256, -1.0f);
    for(std::size_t i = 0; i < host.size(); ++i)
        host[i] = static_cast<float>(i) * 0.5f;
    const std::size_t bytes = host.size() * sizeof(float);
    float *a = nullptr, *b = nullptr;
    ASSERT_HIP_OK(hipMalloc(&a, bytes));
    ASSERT_HIP_OK(hipMalloc(&b, bytes));
    ASSERT_HIP_OK(hipMemcpy(a, host.data(), bytes, hipMemcpyHostToDevice));
    ASSERT_HIP_OK(hipMemcpy(b, a, bytes, hipMemcpyDeviceToDevice));
    ASSERT_HIP_OK(hipMemcpy(back.data(), b, bytes, hipMemcpyDeviceToHost));
    EXPECT_EQ(host, back);
    std::vector<float> hh(256, 0.0f);
    ASSERT_HIP_OK(hipMemcpy(hh.data(), host.data(), bytes, hipMemcpyHostToHost));
    EXPECT_EQ(host, hh);
    std::fill(back.begin(), back.end(), 0.0f);
    ASSERT_HIP_OK(hipMemcpy(back.data(), a, bytes, hipMemcpyDefault));
    EXPECT_EQ(host, back);
    // A sub-range at an offset.
    ASSERT_HIP_OK(hipMemcpy(b + 10, host.data(), 5 * sizeof(float), hipMemcpyHostToDevice));
    ASSERT_HIP_OK(hipMemcpy(back.data(), b + 10, 5 * sizeof(float), hipMemcpyDeviceToHost));
    EXPECT_EQ(0.0f, back[0]);
    EXPECT_EQ(2.0f, back[4]);
    // Zero bytes is a no-op, even with null pointers.
    EXPECT_HIP_OK(hipMemcpy(nullptr, nullptr, 0, hipMemcpyHostToDevice));

    // Errors: direction, nulls, ranges outside an allocation, host pointers on the device side.
    EXPECT_TRUE(fails(hipMemcpy(a, host.data(), bytes, static_cast<hipMemcpyKind>(7)), hipErrorInvalidMemcpyDirection));
    EXPECT_TRUE(fails(hipMemcpy(nullptr, host.data(), bytes, hipMemcpyHostToDevice), hipErrorInvalidValue));
    EXPECT_TRUE(fails(hipMemcpy(a, nullptr, bytes, hipMemcpyHostToDevice), hipErrorInvalidValue));
    EXPECT_TRUE(fails(hipMemcpy(a + 1, host.data(), bytes, hipMemcpyHostToDevice), hipErrorInvalidValue));
    EXPECT_TRUE(fails(hipMemcpy(back.data(), host.data(), bytes, hipMemcpyHostToDevice), hipErrorInvalidValue));
    EXPECT_TRUE(fails(hipMemcpy(back.data(), host.data(), bytes, hipMemcpyDeviceToHost), hipErrorInvalidValue));
    EXPECT_TRUE(fails(hipMemcpy(a, back.data(), bytes, hipMemcpyDeviceToDevice), hipErrorInvalidValue));
    EXPECT_HIP_OK(hipFree(a));
    // A freed allocation is no longer a device range.
    EXPECT_TRUE(fails(hipMemcpy(a, host.data(), bytes, hipMemcpyHostToDevice), hipErrorInvalidValue));
    EXPECT_HIP_OK(hipFree(b));
}

TEST_F(HipHost, MemsetAndAsyncForms)
{
    unsigned char* d = nullptr;
    ASSERT_HIP_OK(hipMalloc(&d, 100));
    ASSERT_HIP_OK(hipMemset(d, 0x1AB, 100)); // the low byte only
    std::vector<unsigned char> back(100);
    ASSERT_HIP_OK(hipMemcpy(back.data(), d, 100, hipMemcpyDeviceToHost));
    for(auto v : back)
        ASSERT_EQ(0xAB, v);
    EXPECT_TRUE(fails(hipMemset(d + 50, 0, 51), hipErrorInvalidValue));
    EXPECT_TRUE(fails(hipMemset(back.data(), 0, 10), hipErrorInvalidValue));
    EXPECT_HIP_OK(hipMemset(nullptr, 0, 0));

    hipStream_t s = nullptr;
    ASSERT_HIP_OK(hipStreamCreate(&s));
    ASSERT_HIP_OK(hipMemsetAsync(d, 7, 100, s));
    ASSERT_HIP_OK(hipMemcpyAsync(back.data(), d, 100, hipMemcpyDeviceToHost, s));
    ASSERT_HIP_OK(hipStreamSynchronize(s));
    for(auto v : back)
        ASSERT_EQ(7, v);
    ASSERT_HIP_OK(hipMemsetAsync(d, 9, 100)); // the null stream by default
    ASSERT_HIP_OK(hipMemcpyAsync(back.data(), d, 100, hipMemcpyDeviceToHost));
    EXPECT_EQ(9, back[99]);
    ASSERT_HIP_OK(hipStreamDestroy(s));
    EXPECT_TRUE(fails(hipMemsetAsync(d, 0, 100, s), hipErrorInvalidHandle));
    EXPECT_TRUE(fails(hipMemcpyAsync(back.data(), d, 100, hipMemcpyDeviceToHost, s), hipErrorInvalidHandle));
    EXPECT_HIP_OK(hipFree(d));
}

TEST_F(HipHost, Streams)
{
    hipStream_t a = nullptr, b = nullptr;
    ASSERT_HIP_OK(hipStreamCreate(&a));
    ASSERT_HIP_OK(hipStreamCreateWithFlags(&b, hipStreamNonBlocking));
    EXPECT_NE(a, b);
    EXPECT_HIP_OK(hipStreamQuery(a));
    EXPECT_HIP_OK(hipStreamSynchronize(b));
    EXPECT_HIP_OK(hipStreamQuery(nullptr)); // the null stream
    EXPECT_HIP_OK(hipStreamSynchronize(nullptr));
    EXPECT_TRUE(fails(hipStreamCreate(nullptr), hipErrorInvalidValue));
    hipStream_t c = nullptr;
    EXPECT_TRUE(fails(hipStreamCreateWithFlags(&c, 0x10), hipErrorInvalidValue));
    EXPECT_TRUE(fails(hipStreamDestroy(nullptr), hipErrorInvalidHandle));
    ASSERT_HIP_OK(hipStreamDestroy(a));
    EXPECT_TRUE(fails(hipStreamDestroy(a), hipErrorInvalidHandle));
    EXPECT_TRUE(fails(hipStreamQuery(a), hipErrorInvalidHandle));
    EXPECT_TRUE(fails(hipStreamSynchronize(a), hipErrorInvalidHandle));
    int notAStream = 0;
    EXPECT_TRUE(fails(hipStreamQuery(reinterpret_cast<hipStream_t>(&notAStream)), hipErrorInvalidHandle));
    ASSERT_HIP_OK(hipStreamDestroy(b));
}

TEST_F(HipHost, EventsMeasureSteadyClockTime)
{
    hipStream_t s = nullptr;
    ASSERT_HIP_OK(hipStreamCreate(&s));
    hipEvent_t start = nullptr, stop = nullptr;
    ASSERT_HIP_OK(hipEventCreate(&start));
    ASSERT_HIP_OK(hipEventCreateWithFlags(&stop, hipEventBlockingSync));
    float ms = -1.0f;
    // Not recorded yet.
    EXPECT_TRUE(fails(hipEventElapsedTime(&ms, start, stop), hipErrorInvalidHandle));
    EXPECT_HIP_OK(hipEventQuery(start));
    // The interval lies within the steady-clock interval around the two records and is at least
    // the sleep between them (causal bounds, not a speed assumption).
    const auto outerStart = std::chrono::steady_clock::now();
    ASSERT_HIP_OK(hipEventRecord(start, s));
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    ASSERT_HIP_OK(hipEventRecord(stop, s));
    const auto outerStop = std::chrono::steady_clock::now();
    ASSERT_HIP_OK(hipEventSynchronize(stop));
    EXPECT_HIP_OK(hipEventQuery(stop));
    ASSERT_HIP_OK(hipEventElapsedTime(&ms, start, stop));
    EXPECT_GE(ms, 20.0f * 0.999f);
    using Millis = std::chrono::duration<float, std::milli>;
    EXPECT_LE(ms, Millis(outerStop - outerStart).count() * 1.001f);
    float back = 0.0f;
    ASSERT_HIP_OK(hipEventElapsedTime(&back, stop, start));
    EXPECT_FLOAT_EQ(-ms, back);
    EXPECT_TRUE(fails(hipEventElapsedTime(nullptr, start, stop), hipErrorInvalidValue));
    // The null stream; an invalid stream.
    ASSERT_HIP_OK(hipEventRecord(start));
    ASSERT_HIP_OK(hipStreamDestroy(s));
    EXPECT_TRUE(fails(hipEventRecord(start, s), hipErrorInvalidHandle));

    // Timing disabled; unknown flags; interprocess without disable-timing.
    hipEvent_t untimed = nullptr, bad = nullptr;
    ASSERT_HIP_OK(hipEventCreateWithFlags(&untimed, hipEventDisableTiming));
    ASSERT_HIP_OK(hipEventRecord(untimed, nullptr));
    EXPECT_TRUE(fails(hipEventElapsedTime(&ms, start, untimed), hipErrorInvalidHandle));
    EXPECT_TRUE(fails(hipEventCreateWithFlags(&bad, 0x80), hipErrorInvalidValue));
    EXPECT_TRUE(fails(hipEventCreateWithFlags(&bad, hipEventInterprocess), hipErrorInvalidValue));
    EXPECT_TRUE(fails(hipEventCreate(nullptr), hipErrorInvalidValue));

    ASSERT_HIP_OK(hipEventDestroy(untimed));
    ASSERT_HIP_OK(hipEventDestroy(start));
    ASSERT_HIP_OK(hipEventDestroy(stop));
    EXPECT_TRUE(fails(hipEventDestroy(stop), hipErrorInvalidHandle));
    EXPECT_TRUE(fails(hipEventDestroy(nullptr), hipErrorInvalidHandle));
    EXPECT_TRUE(fails(hipEventRecord(stop, nullptr), hipErrorInvalidHandle));
    EXPECT_TRUE(fails(hipEventSynchronize(stop), hipErrorInvalidHandle));
    EXPECT_TRUE(fails(hipEventQuery(stop), hipErrorInvalidHandle));
    EXPECT_TRUE(fails(hipEventElapsedTime(&ms, start, stop), hipErrorInvalidHandle));
}

TEST_F(HipHost, PointerAttributes)
{
    void *d = nullptr, *m = nullptr, *h = nullptr;
    ASSERT_HIP_OK(hipMalloc(&d, 64));
    ASSERT_HIP_OK(hipMallocManaged(&m, 64, hipMemAttachHost));
    ASSERT_HIP_OK(hipHostMalloc(&h, 64, hipHostMallocMapped));
    hipPointerAttribute_t a;
    ASSERT_HIP_OK(hipPointerGetAttributes(&a, static_cast<char*>(d) + 8));
    EXPECT_EQ(hipMemoryTypeDevice, a.type);
    EXPECT_EQ(0, a.device);
    EXPECT_EQ(static_cast<char*>(d) + 8, a.devicePointer);
    EXPECT_EQ(0, a.isManaged);
    ASSERT_HIP_OK(hipPointerGetAttributes(&a, m));
    EXPECT_EQ(hipMemoryTypeManaged, a.type);
    EXPECT_EQ(1, a.isManaged);
    EXPECT_EQ(static_cast<unsigned>(hipMemAttachHost), a.allocationFlags);
    ASSERT_HIP_OK(hipPointerGetAttributes(&a, h));
    EXPECT_EQ(hipMemoryTypeHost, a.type);
    EXPECT_EQ(h, a.hostPointer);
    EXPECT_EQ(static_cast<unsigned>(hipHostMallocMapped), a.allocationFlags);
    int local = 0;
    ASSERT_HIP_OK(hipPointerGetAttributes(&a, &local));
    EXPECT_EQ(hipMemoryTypeUnregistered, a.type);
    // One past the end is not inside.
    ASSERT_HIP_OK(hipPointerGetAttributes(&a, static_cast<char*>(d) + 64));
    EXPECT_EQ(hipMemoryTypeUnregistered, a.type);
    EXPECT_TRUE(fails(hipPointerGetAttributes(nullptr, d), hipErrorInvalidValue));
    EXPECT_TRUE(fails(hipPointerGetAttributes(&a, nullptr), hipErrorInvalidValue));
    EXPECT_HIP_OK(hipFree(d));
    EXPECT_HIP_OK(hipFree(m));
    EXPECT_HIP_OK(hipHostFree(h));
}

TEST_F(HipHost, DeviceResetReleasesEverything)
{
    void* d = nullptr;
    hipStream_t s = nullptr;
    hipEvent_t e = nullptr;
    ASSERT_HIP_OK(hipMalloc(&d, 64));
    ASSERT_HIP_OK(hipStreamCreate(&s));
    ASSERT_HIP_OK(hipEventCreate(&e));
    ASSERT_HIP_OK(hipDeviceReset());
    EXPECT_TRUE(fails(hipFree(d), hipErrorInvalidValue));
    EXPECT_TRUE(fails(hipStreamQuery(s), hipErrorInvalidHandle));
    EXPECT_TRUE(fails(hipEventQuery(e), hipErrorInvalidHandle));
    // Still usable afterwards.
    ASSERT_HIP_OK(hipMalloc(&d, 64));
    EXPECT_HIP_OK(hipFree(d));
}

TEST_F(HipHost, ConcurrentAllocationsAndCopies)
{
    std::vector<std::thread> threads;
    std::vector<int> ok(4, 0);
    for(int t = 0; t < 4; ++t)
        threads.emplace_back([t, &ok] {
            int good = 0;
            for(int i = 0; i < 200; ++i)
            {
                int* d = nullptr;
                const int value = t * 1000 + i;
                int back = -1;
                if(hipMalloc(&d, sizeof(int) * 4) == hipSuccess &&
                   hipMemcpy(d + 2, &value, sizeof(int), hipMemcpyHostToDevice) == hipSuccess &&
                   hipMemcpy(&back, d + 2, sizeof(int), hipMemcpyDeviceToHost) == hipSuccess && back == value &&
                   hipFree(d) == hipSuccess)
                    ++good;
            }
            ok[static_cast<std::size_t>(t)] = good;
        });
    for(auto& th : threads)
        th.join();
    for(int g : ok)
        EXPECT_EQ(200, g);
}

} // namespace
