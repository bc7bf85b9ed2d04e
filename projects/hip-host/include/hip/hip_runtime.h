/*
 * hip_host: <hip/hip_runtime.h> for host programs on the CPU. It brings the runtime API
 * (<hip/hip_runtime_api.h>) and the standard headers ROCm's <hip/hip_runtime.h> brings to host
 * code (programs written for ROCm use assert, printf, exit, std::thread... through it), and nothing
 * for device code: there are no kernels here (__global__, __device__, hipLaunchKernelGGL,
 * <<<...>>>, threadIdx), so a program that defines or launches one does not compile against this
 * header; it needs a real ROCm install.
 */
#ifndef HIP_HOST_HIP_RUNTIME_H
#define HIP_HOST_HIP_RUNTIME_H

#include <assert.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <math.h>

#ifdef __cplusplus
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <thread>
#include <tuple>
#endif

#include <hip/hip_runtime_api.h>

/* Host-code annotations compile to nothing on the host. */
#ifndef __host__
#define __host__
#endif

#endif /* HIP_HOST_HIP_RUNTIME_H */
