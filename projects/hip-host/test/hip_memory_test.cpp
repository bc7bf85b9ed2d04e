// Memory: stream-ordered allocation (hipMallocAsync / hipFreeAsync), hipMemPtrGetInfo,
// hipMemGetAddressRange, host registration (hipHostRegister / hipHostUnregister,
// hipHostGetDevicePointer, hipHostGetFlags) and hipHostAlloc: results and error paths.
#include "HipHostTest.hpp"

#include <cstdint>
#include <cstdlib>
#include <limits>
#include <vector>

namespace {

TEST_F(HipHost, MallocAsyncAndFreeAsync)
{
    hipStream_t s = nullptr;
    ASSERT_HIP_OK(hipStreamCreate(&s));
    float* d = nullptr;
    ASSERT_HIP_OK(hipMallocAsync(&d, 100 * sizeof(float), s)); // the typed C++ overload
    ASSERT_NE(nullptr, d);
    EXPECT_EQ(0u, reinterpret_cast<std::uintptr_t>(d) % 256);
    hipPointerAttribute_t a;
    ASSERT_HIP_OK(hipPointerGetAttributes(&a, d));
    EXPECT_EQ(hipMemoryTypeDevice, a.type);
    const float x = 1.5f;
    ASSERT_HIP_OK(hipMemcpyAsync(d + 99, &x, sizeof x, hipMemcpyHostToDevice, s)); // usable at once
    ASSERT_HIP_OK(hipFreeAsync(d, s));
    EXPECT_TRUE(fails(hipFree(d), hipErrorInvalidValue)); // already freed in stream order
    // hipFree releases hipMallocAsync memory too; the default stream; size 0.
    void* p = nullptr;
    ASSERT_HIP_OK(hipMallocAsync(&p, 64, nullptr));
    EXPECT_HIP_OK(hipFree(p));
    p = reinterpret_cast<void*>(0x1);
    ASSERT_HIP_OK(hipMallocAsync(&p, 0, s));
    EXPECT_EQ(nullptr, p);
    // hipFreeAsync frees hipMalloc memory.
    ASSERT_HIP_OK(hipMalloc(&p, 64));
    EXPECT_HIP_OK(hipFreeAsync(p, hipStreamPerThread));

    // Errors.
    EXPECT_TRUE(fails(hipMallocAsync(static_cast<void**>(nullptr), 64, s), hipErrorInvalidValue));
    EXPECT_TRUE(fails(hipFreeAsync(nullptr, s), hipErrorInvalidValue)); // unlike hipFree, as HIP
    int onStack = 0;
    EXPECT_TRUE(fails(hipFreeAsync(&onStack, s), hipErrorInvalidValue));
    void* big = reinterpret_cast<void*>(0x1);
    EXPECT_TRUE(fails(hipMallocAsync(&big, std::numeric_limits<std::size_t>::max(), s), hipErrorOutOfMemory));
    EXPECT_EQ(nullptr, big);
    void* host = nullptr;
    ASSERT_HIP_OK(hipHostMalloc(&host, 64, 0));
    EXPECT_TRUE(fails(hipFreeAsync(host, s), hipErrorInvalidValue)); // host memory is hipHostFree's
    EXPECT_HIP_OK(hipHostFree(host));
    ASSERT_HIP_OK(hipStreamDestroy(s));
    void* q = nullptr;
    EXPECT_TRUE(fails(hipMallocAsync(&q, 64, s), hipErrorInvalidHandle));
    EXPECT_EQ(nullptr, q);
    ASSERT_HIP_OK(hipMalloc(&q, 64));
    EXPECT_TRUE(fails(hipFreeAsync(q, s), hipErrorInvalidHandle));
    EXPECT_HIP_OK(hipFree(q)); // still live
}

TEST_F(HipHost, MemPtrGetInfoAndAddressRange)
{
    char* d = nullptr;
    ASSERT_HIP_OK(hipMalloc(&d, 1000));
    std::size_t size = 0;
    ASSERT_HIP_OK(hipMemPtrGetInfo(d, &size));
    EXPECT_EQ(1000u, size);
    ASSERT_HIP_OK(hipMemPtrGetInfo(d + 999, &size)); // any address inside: the allocation's size
    EXPECT_EQ(1000u, size);
    hipDeviceptr_t base = nullptr;
    ASSERT_HIP_OK(hipMemGetAddressRange(&base, &size, d + 500));
    EXPECT_EQ(static_cast<void*>(d), base);
    EXPECT_EQ(1000u, size);
    EXPECT_HIP_OK(hipMemGetAddressRange(nullptr, &size, d));
    EXPECT_HIP_OK(hipMemGetAddressRange(&base, nullptr, d));

    EXPECT_TRUE(fails(hipMemPtrGetInfo(d + 1000, &size), hipErrorInvalidValue)); // one past the end
    EXPECT_TRUE(fails(hipMemPtrGetInfo(d, nullptr), hipErrorInvalidValue));
    EXPECT_TRUE(fails(hipMemPtrGetInfo(nullptr, &size), hipErrorInvalidValue));
    int local = 0;
    EXPECT_TRUE(fails(hipMemPtrGetInfo(&local, &size), hipErrorInvalidValue));
    EXPECT_TRUE(fails(hipMemGetAddressRange(&base, &size, &local), hipErrorNotFound));
    EXPECT_HIP_OK(hipFree(d));
    EXPECT_TRUE(fails(hipMemPtrGetInfo(d, &size), hipErrorInvalidValue));
}

TEST_F(HipHost, HostRegisterMakesHostMemoryDeviceMemory)
{
    std::vector<int> mem(256, 0);
    void* p = mem.data();
    const std::size_t bytes = mem.size() * sizeof(int);
    // Not device memory before.
    EXPECT_TRUE(fails(hipMemsetD32(p, 5, mem.size()), hipErrorInvalidValue));
    ASSERT_HIP_OK(hipHostRegister(p, bytes, hipHostRegisterMapped));
    // Device memory now: device-side copies and fills work, at the same address.
    ASSERT_HIP_OK(hipMemsetD32(p, 5, mem.size()));
    EXPECT_EQ(5, mem[255]);
    void* dp = nullptr;
    ASSERT_HIP_OK(hipHostGetDevicePointer(&dp, mem.data() + 10, 0));
    EXPECT_EQ(static_cast<void*>(mem.data() + 10), dp);
    unsigned flags = 42;
    ASSERT_HIP_OK(hipHostGetFlags(&flags, p));
    EXPECT_EQ(static_cast<unsigned>(hipHostRegisterMapped), flags);
    std::size_t size = 0;
    ASSERT_HIP_OK(hipMemPtrGetInfo(mem.data() + 100, &size));
    EXPECT_EQ(bytes, size);
    hipPointerAttribute_t a;
    ASSERT_HIP_OK(hipPointerGetAttributes(&a, mem.data() + 1));
    EXPECT_EQ(hipMemoryTypeHost, a.type);
    EXPECT_EQ(static_cast<void*>(mem.data() + 1), a.hostPointer);
    EXPECT_EQ(static_cast<void*>(mem.data() + 1), a.devicePointer);
    EXPECT_EQ(static_cast<unsigned>(hipHostRegisterMapped), a.allocationFlags);
    int* d = nullptr;
    ASSERT_HIP_OK(hipMalloc(&d, bytes));
    ASSERT_HIP_OK(hipMemcpy(d, p, bytes, hipMemcpyDeviceToDevice));
    // The memory stays the caller's: hipFree / hipHostFree refuse it.
    EXPECT_TRUE(fails(hipFree(p), hipErrorInvalidValue));
    EXPECT_TRUE(fails(hipHostFree(p), hipErrorInvalidValue));
    // Registering it, or part of it, again.
    EXPECT_TRUE(fails(hipHostRegister(p, bytes, 0), hipErrorHostMemoryAlreadyRegistered));
    EXPECT_TRUE(fails(hipHostRegister(mem.data() + 128, 16, 0), hipErrorHostMemoryAlreadyRegistered));
    EXPECT_TRUE(fails(hipHostRegister(d, 16, 0), hipErrorHostMemoryAlreadyRegistered)); // runtime memory
    // Unregistering: the start only.
    EXPECT_TRUE(fails(hipHostUnregister(mem.data() + 1), hipErrorHostMemoryNotRegistered));
    ASSERT_HIP_OK(hipHostUnregister(p));
    EXPECT_TRUE(fails(hipHostUnregister(p), hipErrorHostMemoryNotRegistered));
    EXPECT_TRUE(fails(hipMemsetD32(p, 0, 1), hipErrorInvalidValue)); // no longer device memory
    EXPECT_TRUE(fails(hipHostGetDevicePointer(&dp, p, 0), hipErrorInvalidValue));
    EXPECT_EQ(5, mem[0]) << "unregistering leaves the contents";
    // Adjacent registrations do not overlap.
    ASSERT_HIP_OK(hipHostRegister(mem.data(), 128 * sizeof(int), hipHostRegisterDefault));
    ASSERT_HIP_OK(hipHostRegister(mem.data() + 128, 128 * sizeof(int), hipHostRegisterPortable | hipHostRegisterReadOnly));
    ASSERT_HIP_OK(hipHostGetFlags(&flags, mem.data() + 200));
    EXPECT_EQ(static_cast<unsigned>(hipHostRegisterPortable | hipHostRegisterReadOnly), flags);
    EXPECT_TRUE(fails(hipMemsetD32(mem.data() + 127, 0, 2), hipErrorInvalidValue)) << "a range across two registrations";
    ASSERT_HIP_OK(hipHostUnregister(mem.data()));
    ASSERT_HIP_OK(hipHostUnregister(mem.data() + 128));

    // Errors.
    EXPECT_TRUE(fails(hipHostRegister(nullptr, 16, 0), hipErrorInvalidValue));
    EXPECT_TRUE(fails(hipHostRegister(p, 0, 0), hipErrorInvalidValue));
    EXPECT_TRUE(fails(hipHostRegister(p, 16, 0x10), hipErrorInvalidValue));
    EXPECT_TRUE(fails(hipHostRegister(p, std::numeric_limits<std::size_t>::max(), 0), hipErrorInvalidValue));
    EXPECT_TRUE(fails(hipHostUnregister(nullptr), hipErrorInvalidValue));
    EXPECT_HIP_OK(hipFree(d));
}

TEST_F(HipHost, HostGetDevicePointerAndFlags)
{
    void* h = nullptr;
    ASSERT_HIP_OK(hipHostMalloc(&h, 128, hipHostMallocMapped | hipHostMallocPortable));
    void* dp = nullptr;
    ASSERT_HIP_OK(hipHostGetDevicePointer(&dp, h, 0));
    EXPECT_EQ(h, dp);
    unsigned flags = 0;
    ASSERT_HIP_OK(hipHostGetFlags(&flags, static_cast<char*>(h) + 64));
    EXPECT_EQ(static_cast<unsigned>(hipHostMallocMapped | hipHostMallocPortable), flags);
    // Device memory has a device pointer (itself) but no host flags.
    void* d = nullptr;
    ASSERT_HIP_OK(hipMalloc(&d, 16));
    ASSERT_HIP_OK(hipHostGetDevicePointer(&dp, d, 0));
    EXPECT_EQ(d, dp);
    EXPECT_TRUE(fails(hipHostGetFlags(&flags, d), hipErrorInvalidValue));

    int local = 0;
    EXPECT_TRUE(fails(hipHostGetDevicePointer(&dp, &local, 0), hipErrorInvalidValue)); // unregistered
    EXPECT_TRUE(fails(hipHostGetDevicePointer(&dp, h, 1), hipErrorInvalidValue));
    EXPECT_TRUE(fails(hipHostGetDevicePointer(nullptr, h, 0), hipErrorInvalidValue));
    EXPECT_TRUE(fails(hipHostGetDevicePointer(&dp, nullptr, 0), hipErrorInvalidValue));
    EXPECT_TRUE(fails(hipHostGetFlags(nullptr, h), hipErrorInvalidValue));
    EXPECT_TRUE(fails(hipHostGetFlags(&flags, &local), hipErrorInvalidValue));
    EXPECT_HIP_OK(hipHostFree(h));
    EXPECT_HIP_OK(hipFree(d));
}

TEST_F(HipHost, HostAllocTakesTheCudaStyleFlags)
{
    double* h = nullptr;
    ASSERT_HIP_OK(hipHostAlloc(&h, 8 * sizeof(double))); // the typed overload, default flags
    h[7] = 1.0;
    EXPECT_HIP_OK(hipHostFree(h));
    void* p = nullptr;
    ASSERT_HIP_OK(hipHostAlloc(&p, 64, hipHostAllocMapped | hipHostAllocWriteCombined));
    hipPointerAttribute_t a;
    ASSERT_HIP_OK(hipPointerGetAttributes(&a, p));
    EXPECT_EQ(hipMemoryTypeHost, a.type);
    EXPECT_HIP_OK(hipFreeHost(p));
    EXPECT_TRUE(fails(hipHostAlloc(&p, 64, hipHostMallocCoherent), hipErrorInvalidValue)); // not a hipHostAlloc flag
    EXPECT_TRUE(fails(hipHostAlloc(static_cast<void**>(nullptr), 64, 0), hipErrorInvalidValue));
}

TEST_F(HipHost, DeviceResetForgetsRegistrationsButLeavesTheMemory)
{
    std::vector<int> mem(16, 3);
    ASSERT_HIP_OK(hipHostRegister(mem.data(), mem.size() * sizeof(int), 0));
    ASSERT_HIP_OK(hipDeviceReset());
    EXPECT_TRUE(fails(hipHostUnregister(mem.data()), hipErrorHostMemoryNotRegistered));
    EXPECT_EQ(3, mem[15]);
}

TEST_F(HipHost, FreedRegisteredMemoryDoesNotConfuseNewAllocations)
{
    // A caller that frees registered memory without unregistering it: when the C library hands
    // the memory back to hipMalloc, the stale registration is forgotten.
    for(int i = 0; i < 8; ++i)
    {
        void* raw = std::aligned_alloc(256, 4096);
        ASSERT_NE(nullptr, raw);
        ASSERT_HIP_OK(hipHostRegister(raw, 4096, 0));
        std::free(raw);
        void* d = nullptr;
        ASSERT_HIP_OK(hipMalloc(&d, 4096));
        std::size_t size = 0;
        ASSERT_HIP_OK(hipMemPtrGetInfo(d, &size));
        EXPECT_EQ(4096u, size);
        EXPECT_HIP_OK(hipMemsetD8(d, 1, 4096));
        EXPECT_HIP_OK(hipFree(d));
    }
    ASSERT_HIP_OK(hipDeviceReset()); // forgets the registrations that were not reused
}

} // namespace
