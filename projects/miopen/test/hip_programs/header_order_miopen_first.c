/* C11: <hip/hip_runtime_api.h> (hip_host) and <miopen/miopen.h> together, miopen first --
 * both declare hipStream_t as the same opaque struct ihipStream_t*, so a stream from
 * hipStreamCreate is MIOpen's stream type. */
#include <miopen/miopen.h>
#include <hip/hip_runtime_api.h>

#ifndef __HIP_HOST_RUNTIME_CPU__
#error "hip_host's header was not the one included"
#endif
#ifndef MIOPEN_HAS_HIP_RUNTIME_API_H
#error "<miopen/miopen.h> did not find <hip/hip_runtime_api.h>"
#endif

int header_order_miopen_first_c(void);
int header_order_miopen_first_c(void)
{
    hipStream_t stream = 0;
    miopenHandle_t handle = 0;
    struct ihipStream_t* opaque = 0;
    if(hipStreamCreate(&stream) != hipSuccess)
        return 1;
    opaque = stream;
    if(miopenCreateWithStream(&handle, opaque) != miopenStatusSuccess)
        return 2;
    if(miopenGetStream(handle, &stream) != miopenStatusSuccess || stream != opaque)
        return 3;
    miopenDestroy(handle);
    return hipStreamDestroy(stream) == hipSuccess ? 0 : 4;
}
