/* <hip/hip_runtime.h> as a C11 program sees it: every type and entry point with HIP 6's
 * signature, no C++ constructs. */
#include <hip/hip_runtime.h>

#ifndef __HIP_HOST_RUNTIME_CPU__
#error "__HIP_HOST_RUNTIME_CPU__ is not defined"
#endif
#ifdef __HIP_PLATFORM_AMD__
#error "__HIP_PLATFORM_AMD__ must not be defined by the host runtime"
#endif
#if HIP_VERSION != HIP_VERSION_MAJOR * 10000000 + HIP_VERSION_MINOR * 100000 + HIP_VERSION_PATCH
#error "HIP_VERSION is not built from its parts"
#endif

/* C11: the enumerators and flags are constant expressions of HIP's values. */
_Static_assert(hipErrorHostMemoryNotRegistered == 713, "HIP's value");
_Static_assert(hipDeviceAttributePciDomainID == 69 && hipDeviceAttributeWarpSize == 87, "HIP's value");
_Static_assert(hipDeviceAttributeMaxSharedMemoryPerMultiprocessor == 10002, "HIP's value");
_Static_assert(hipLimitMallocHeapSize == 2 && hipHostRegisterMapped == 2, "HIP's value");
_Static_assert(sizeof(hipDeviceptr_t) == sizeof(void*), "a plain address");

int hip_host_header_c11_signatures(void);
int hip_host_header_c11_signatures(void)
{
    int n = 0;
#define HIP_HOST_SIGNATURE(name, ret, params) \
    {                                         \
        ret(*const fn) params = name;         \
        n += fn != NULL;                      \
    }
#include "hip_signatures.inc"
#undef HIP_HOST_SIGNATURE
    return n;
}

static void hip_host_header_c11_callback(hipStream_t stream, hipError_t status, void* userData)
{
    (void)stream;
    *(int*)userData = (int)status;
}

static void hip_host_header_c11_host_fn(void* userData) { *(int*)userData += 1; }

int hip_host_header_c11_probe(void);
int hip_host_header_c11_probe(void)
{
    void* p = NULL;
    hipDeviceptr_t d = NULL;
    hipStream_t s = NULL;
    hipEvent_t e = NULL;
    hipDeviceProp_t prop;
    size_t limit = 0;
    float ms = 0.0f;
    int n = 0, least = 0, greatest = 0, seen = 0;
    char bus[16];
    hipError_t st = hipMalloc(&p, 16);
    st = st != hipSuccess ? st : hipMemsetAsync(p, 0, 16, s);
    st = st != hipSuccess ? st : hipMemcpyAsync(p, p, 16, hipMemcpyDeviceToDevice, s);
    st = st != hipSuccess ? st : hipMallocManaged(&p, 16, hipMemAttachGlobal);
    st = st != hipSuccess ? st : hipMallocAsync(&d, 16, hipStreamPerThread);
    st = st != hipSuccess ? st : hipMemsetD32Async(d, 1, 4, s);
    st = st != hipSuccess ? st : hipMemcpyDtoHAsync(&n, d, sizeof n, s);
    st = st != hipSuccess ? st : hipMemcpy2D(d, 8, p, 8, 8, 2, hipMemcpyDefault);
    st = st != hipSuccess ? st : hipDeviceGetStreamPriorityRange(&least, &greatest);
    st = st != hipSuccess ? st : hipStreamCreateWithPriority(&s, hipStreamNonBlocking, greatest);
    st = st != hipSuccess ? st : hipStreamAddCallback(s, hip_host_header_c11_callback, &seen, 0);
    st = st != hipSuccess ? st : hipLaunchHostFunc(s, hip_host_header_c11_host_fn, &seen);
    st = st != hipSuccess ? st : hipEventCreate(&e);
    st = st != hipSuccess ? st : hipEventRecord(e, s);
    st = st != hipSuccess ? st : hipStreamWaitEvent(s, e, 0);
    st = st != hipSuccess ? st : hipEventElapsedTime(&ms, e, e);
    st = st != hipSuccess ? st : hipGetDeviceProperties(&prop, 0);
    st = st != hipSuccess ? st : hipDeviceGetLimit(&limit, hipLimitStackSize);
    st = st != hipSuccess ? st : hipDeviceGetPCIBusId(bus, (int)sizeof bus, 0);
    st = st != hipSuccess ? st : hipFreeAsync(d, s);
    st = st != hipSuccess ? st : hipGetDeviceCount(&n);
    return (int)st + n + (int)ms + prop.multiProcessorCount + (int)prop.arch.hasDoubles + seen + (int)limit;
}
