/* <hip/hip_runtime.h> as a C11 program sees it: every type and entry point, no C++ constructs. */
#include <hip/hip_runtime.h>

#ifndef __HIP_HOST_RUNTIME_CPU__
#error "__HIP_HOST_RUNTIME_CPU__ is not defined"
#endif
#ifdef __HIP_PLATFORM_AMD__
#error "__HIP_PLATFORM_AMD__ must not be defined by the host runtime"
#endif

int hip_host_header_c11_probe(void);
int hip_host_header_c11_probe(void)
{
    void* p = NULL;
    hipStream_t s = NULL;
    hipEvent_t e = NULL;
    hipDeviceProp_t prop;
    float ms = 0.0f;
    int n = 0;
    hipError_t st = hipMalloc(&p, 16);
    st = st != hipSuccess ? st : hipMemsetAsync(p, 0, 16, s);
    st = st != hipSuccess ? st : hipMemcpyAsync(p, p, 16, hipMemcpyDeviceToDevice, s);
    st = st != hipSuccess ? st : hipMallocManaged(&p, 16, hipMemAttachGlobal);
    st = st != hipSuccess ? st : hipEventCreate(&e);
    st = st != hipSuccess ? st : hipEventRecord(e, s);
    st = st != hipSuccess ? st : hipEventElapsedTime(&ms, e, e);
    st = st != hipSuccess ? st : hipGetDeviceProperties(&prop, 0);
    st = st != hipSuccess ? st : hipGetDeviceCount(&n);
    return (int)st + n + (int)ms + prop.multiProcessorCount;
}
