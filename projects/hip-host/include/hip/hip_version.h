/*
 * hip_host: <hip/hip_version.h>, the HIP version this CPU host runtime follows (HIP 6.x). Included
 * by <hip/hip_runtime_api.h>; a program may also include it on its own, as with ROCm.
 */
#ifndef HIP_HOST_HIP_VERSION_H
#define HIP_HOST_HIP_VERSION_H

/* HIP_VERSION = major * 10000000 + minor * 100000 + patch, as ROCm defines it. */
#define HIP_VERSION_MAJOR 6
#define HIP_VERSION_MINOR 4
#define HIP_VERSION_PATCH 0
#define HIP_VERSION_GITHASH ""
#define HIP_VERSION_BUILD_ID 0
#define HIP_VERSION_BUILD_NAME "hip_host"
#define HIP_VERSION (HIP_VERSION_MAJOR * 10000000 + HIP_VERSION_MINOR * 100000 + HIP_VERSION_PATCH)

#endif /* HIP_HOST_HIP_VERSION_H */
