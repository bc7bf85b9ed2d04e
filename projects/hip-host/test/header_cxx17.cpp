// <hip/hip_runtime.h> as a C++17 program sees it: every entry point with HIP 6's signature, the
// typed overloads and default arguments HIP gives C++ callers, and hipDeviceProp_t laid out as
// HIP 6's R0600 struct (offsets measured from HIP 6.x's header on LP64 Linux).
#include <hip/hip_runtime.h>

#include <cstddef>
#include <type_traits>

#ifndef __HIP_HOST_RUNTIME_CPU__
#error "__HIP_HOST_RUNTIME_CPU__ is not defined"
#endif

static_assert(std::is_same_v<hipDeviceptr_t, void*>);
static_assert(std::is_same_v<hipDeviceProp_t, hipDeviceProp_tR0600>);
#if defined(__LP64__)
static_assert(sizeof(hipDeviceProp_t) == 1472);
static_assert(offsetof(hipDeviceProp_t, uuid) == 256);
static_assert(offsetof(hipDeviceProp_t, luid) == 272);
static_assert(offsetof(hipDeviceProp_t, totalGlobalMem) == 288);
static_assert(offsetof(hipDeviceProp_t, textureAlignment) == 368);
static_assert(offsetof(hipDeviceProp_t, texturePitchAlignment) == 376);
static_assert(offsetof(hipDeviceProp_t, maxTexture1D) == 408);
static_assert(offsetof(hipDeviceProp_t, surfaceAlignment) == 568);
static_assert(offsetof(hipDeviceProp_t, concurrentKernels) == 576);
static_assert(offsetof(hipDeviceProp_t, ECCEnabled) == 580);
static_assert(offsetof(hipDeviceProp_t, pciBusID) == 584);
static_assert(offsetof(hipDeviceProp_t, l2CacheSize) == 616);
static_assert(offsetof(hipDeviceProp_t, sharedMemPerMultiprocessor) == 640);
static_assert(offsetof(hipDeviceProp_t, sharedMemPerBlockOptin) == 696);
static_assert(offsetof(hipDeviceProp_t, reservedSharedMemPerBlock) == 720);
static_assert(offsetof(hipDeviceProp_t, memoryPoolsSupported) == 744);
static_assert(offsetof(hipDeviceProp_t, unifiedFunctionPointers) == 776);
static_assert(offsetof(hipDeviceProp_t, reserved) == 780);
static_assert(offsetof(hipDeviceProp_t, hipReserved) == 1032);
static_assert(offsetof(hipDeviceProp_t, gcnArchName) == 1160);
static_assert(offsetof(hipDeviceProp_t, maxSharedMemoryPerMultiProcessor) == 1416);
static_assert(offsetof(hipDeviceProp_t, clockInstructionRate) == 1424);
static_assert(offsetof(hipDeviceProp_t, arch) == 1428);
static_assert(offsetof(hipDeviceProp_t, hdpMemFlushCntl) == 1432);
static_assert(offsetof(hipDeviceProp_t, isLargeBar) == 1464);
static_assert(offsetof(hipDeviceProp_t, asicRevision) == 1468);
static_assert(sizeof(hipDeviceArch_t) == 4);
#endif

int hipHostHeaderCxx17Signatures();
int hipHostHeaderCxx17Signatures()
{
    int n = 0;
#define HIP_HOST_SIGNATURE(name, ret, params) \
    {                                         \
        ret(*const fn) params = name;         \
        n += fn != nullptr;                   \
    }
#include "hip_signatures.inc"
#undef HIP_HOST_SIGNATURE
    return n;
}

int hipHostHeaderCxx17Probe();
int hipHostHeaderCxx17Probe()
{
    float* f      = nullptr;
    double* h     = nullptr;
    int* m        = nullptr;
    char* a       = nullptr;
    hipEvent_t e  = nullptr;
    hipStream_t s = nullptr;
    // Typed overloads.
    hipError_t st = hipMalloc(&f, 64);
    st = st != hipSuccess ? st : hipHostMalloc(&h, 64);
    st = st != hipSuccess ? st : hipHostAlloc(&a, 64);
    st = st != hipSuccess ? st : hipMallocManaged(&m, 64);
    st = st != hipSuccess ? st : hipMallocAsync(&f, 64, s);
    // Default arguments: the null stream, flags 0.
    st = st != hipSuccess ? st : hipMemcpyAsync(f, h, 64, hipMemcpyHostToDevice);
    st = st != hipSuccess ? st : hipMemsetAsync(f, 0, 64);
    st = st != hipSuccess ? st : hipMemsetD8Async(f, 1, 64);
    st = st != hipSuccess ? st : hipMemsetD16Async(f, 1, 32);
    st = st != hipSuccess ? st : hipMemsetD32Async(f, 1, 16);
    st = st != hipSuccess ? st : hipMemcpy2DAsync(f, 8, h, 8, 8, 8, hipMemcpyHostToDevice);
    st = st != hipSuccess ? st : hipMemcpyPeerAsync(f, 0, f, 0, 64);
    st = st != hipSuccess ? st : hipEventCreate(&e);
    st = st != hipSuccess ? st : hipEventRecord(e);
    st = st != hipSuccess ? st : hipStreamWaitEvent(s, e);
    // A lambda without captures is a hipStreamCallback_t / hipHostFn_t.
    st = st != hipSuccess ? st : hipStreamAddCallback(s, [](hipStream_t, hipError_t, void*) {}, nullptr, 0);
    st = st != hipSuccess ? st : hipLaunchHostFunc(s, [](void*) {}, nullptr);
    size_t v = 0;
    st = st != hipSuccess ? st : hipDeviceGetLimit(&v, hipLimitMallocHeapSize);
    return static_cast<int>(st) + static_cast<int>(v);
}
