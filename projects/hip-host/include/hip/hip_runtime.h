/*
 * hip_host: <hip/hip_runtime.h> for host programs on the CPU. It brings the runtime API
 * (<hip/hip_runtime_api.h>) and nothing for device code: there are no kernels here, so a program
 * that defines or launches one does not compile against this header (it needs a real ROCm install).
 */
#ifndef HIP_HOST_HIP_RUNTIME_H
#define HIP_HOST_HIP_RUNTIME_H

#include <hip/hip_runtime_api.h>

/* Host-code annotations compile to nothing on the host. */
#ifndef __host__
#define __host__
#endif

#endif /* HIP_HOST_HIP_RUNTIME_H */
