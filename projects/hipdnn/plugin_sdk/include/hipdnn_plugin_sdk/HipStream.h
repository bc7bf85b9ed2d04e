// hipStream_t: from the HIP runtime headers when present, else the identical opaque type HIP
// declares (this CPU build has no HIP runtime; streams are carried, never dereferenced).
#pragma once

#if defined(__has_include)
#if __has_include(<hip/hip_runtime_api.h>)
#include <hip/hip_runtime_api.h>
#define HIPDNN_HAS_HIP_RUNTIME_API_H 1
#endif
#endif
#if !defined(HIPDNN_HAS_HIP_RUNTIME_API_H) && !defined(HIPDNN_HIP_STREAM_DECLARED)
#define HIPDNN_HIP_STREAM_DECLARED 1
typedef struct ihipStream_t* hipStream_t;
#endif
