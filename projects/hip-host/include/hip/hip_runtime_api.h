/*
 * hip_host: the host-side subset of the HIP runtime API that MIOpen client programs call, run on
 * the CPU (libhip_host.so.1). "Device" memory is host memory, every operation completes before
 * the call returns (streams and events exist, and are checked, but never hold pending work), and
 * there is exactly one device, 0, which describes this CPU.
 *
 * Names, signatures and the numeric values of hipError_t, hipMemcpyKind, hipDeviceAttribute_t and
 * the flag words are those of the HIP runtime (hip_runtime_api.h, HIP 6.x), so a program written
 * against HIP compiles unchanged. The headers live in their own include directory
 * (<prefix>/include/hip_host): they are found only by a consumer that asks for them, and never
 * shadow a real ROCm install. __HIP_PLATFORM_AMD__ is not defined; __HIP_HOST_RUNTIME_CPU__ is.
 *
 * Conventions of every function below:
 *  - A null output pointer, an unknown flag bit or an unknown enum value returns
 *    hipErrorInvalidValue (hipErrorInvalidMemcpyDirection for a bad hipMemcpyKind).
 *  - A stream or event that was not created by this library, or was destroyed, returns
 *    hipErrorInvalidHandle; the null stream (0) is the default stream and always valid.
 *  - A device pointer must lie, with the whole range a call touches, inside one live allocation
 *    of hipMalloc / hipMallocManaged / hipHostMalloc; otherwise hipErrorInvalidValue.
 *  - Each failure is also kept as the calling thread's last error (hipGetLastError,
 *    hipPeekAtLastError). No function throws or prints.
 *  - All functions are thread-safe.
 */
#ifndef HIP_HOST_HIP_RUNTIME_API_H
#define HIP_HOST_HIP_RUNTIME_API_H

#include <stddef.h>

/* Marker: this is the CPU host runtime, not ROCm. */
#define __HIP_HOST_RUNTIME_CPU__ 1

/* The HIP version this subset follows (HIP_VERSION = major * 10000000 + minor * 100000 + patch). */
#define HIP_VERSION_MAJOR 6
#define HIP_VERSION_MINOR 4
#define HIP_VERSION_PATCH 0
#define HIP_VERSION (HIP_VERSION_MAJOR * 10000000 + HIP_VERSION_MINOR * 100000 + HIP_VERSION_PATCH)

#if defined(__GNUC__)
#define HIP_HOST_EXPORT __attribute__((visibility("default")))
#else
#define HIP_HOST_EXPORT
#endif

#ifdef __cplusplus
#define HIP_HOST_DEFAULT_ARG(value) = value
#else
#define HIP_HOST_DEFAULT_ARG(value)
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* ---- status ------------------------------------------------------------------------------------- */

typedef enum hipError_t
{
    hipSuccess                     = 0,
    hipErrorInvalidValue           = 1,
    hipErrorOutOfMemory            = 2,
    hipErrorMemoryAllocation       = 2, /* old name of hipErrorOutOfMemory */
    hipErrorNotInitialized         = 3,
    hipErrorInitializationError    = 3, /* old name of hipErrorNotInitialized */
    hipErrorDeinitialized          = 4,
    hipErrorInvalidConfiguration   = 9,
    hipErrorInvalidPitchValue      = 12,
    hipErrorInvalidSymbol          = 13,
    hipErrorInvalidDevicePointer   = 17,
    hipErrorInvalidMemcpyDirection = 21,
    hipErrorInsufficientDriver     = 35,
    hipErrorInvalidDeviceFunction  = 98,
    hipErrorNoDevice               = 100,
    hipErrorInvalidDevice          = 101,
    hipErrorInvalidImage           = 200,
    hipErrorInvalidContext         = 201,
    hipErrorFileNotFound           = 301,
    hipErrorInvalidHandle          = 400,
    hipErrorInvalidResourceHandle  = 400, /* old name of hipErrorInvalidHandle */
    hipErrorIllegalState           = 401,
    hipErrorNotFound               = 500,
    hipErrorNotReady               = 600,
    hipErrorIllegalAddress         = 700,
    hipErrorLaunchFailure          = 719,
    hipErrorNotSupported           = 801,
    hipErrorUnknown                = 999,
    hipErrorRuntimeMemory          = 1052,
    hipErrorRuntimeOther           = 1053,
    hipErrorTbd                    = 1054
} hipError_t;

/* ---- handles ------------------------------------------------------------------------------------ */

/* The same opaque stream type HIP declares (and <miopen/miopen.h> declares when HIP is absent). */
typedef struct ihipStream_t* hipStream_t;
typedef struct ihipEvent_t* hipEvent_t;
typedef int hipDevice_t;

/* ---- enums and flags ---------------------------------------------------------------------------- */

typedef enum hipMemcpyKind
{
    hipMemcpyHostToHost         = 0,
    hipMemcpyHostToDevice       = 1,
    hipMemcpyDeviceToHost       = 2,
    hipMemcpyDeviceToDevice     = 3,
    hipMemcpyDefault            = 4, /* direction inferred from the pointers */
    hipMemcpyDeviceToDeviceNoCU = 1024
} hipMemcpyKind;

typedef enum hipMemoryType
{
    hipMemoryTypeUnregistered = 0,
    hipMemoryTypeHost         = 1,
    hipMemoryTypeDevice       = 2,
    hipMemoryTypeManaged      = 3,
    hipMemoryTypeArray        = 10,
    hipMemoryTypeUnified      = 11
} hipMemoryType;

typedef enum hipDeviceAttribute_t
{
    hipDeviceAttributeCudaCompatibleBegin       = 0,
    hipDeviceAttributeEccEnabled                = 0,
    hipDeviceAttributeCanMapHostMemory          = 3,
    hipDeviceAttributeClockRate                 = 5,
    hipDeviceAttributeComputeMode               = 6,
    hipDeviceAttributeConcurrentKernels         = 8,
    hipDeviceAttributeConcurrentManagedAccess   = 9,
    hipDeviceAttributeIntegrated                = 16,
    hipDeviceAttributeL2CacheSize               = 19,
    hipDeviceAttributeComputeCapabilityMajor    = 23,
    hipDeviceAttributeManagedMemory             = 24,
    hipDeviceAttributeMaxBlockDimX              = 26,
    hipDeviceAttributeMaxBlockDimY              = 27,
    hipDeviceAttributeMaxBlockDimZ              = 28,
    hipDeviceAttributeMaxGridDimX               = 29,
    hipDeviceAttributeMaxGridDimY               = 30,
    hipDeviceAttributeMaxGridDimZ               = 31,
    hipDeviceAttributeMaxThreadsPerBlock        = 56,
    hipDeviceAttributeMaxThreadsPerMultiProcessor = 57,
    hipDeviceAttributeComputeCapabilityMinor    = 61,
    hipDeviceAttributeMultiprocessorCount       = 63,
    hipDeviceAttributePageableMemoryAccess      = 65,
    hipDeviceAttributePciBusId                  = 67,
    hipDeviceAttributePciDeviceId               = 68,
    hipDeviceAttributePciDomainId               = 69,
    hipDeviceAttributeMaxSharedMemoryPerBlock   = 74,
    hipDeviceAttributeUnifiedAddressing         = 85,
    hipDeviceAttributeWarpSize                  = 87,
    hipDeviceAttributeCudaCompatibleEnd         = 9999,
    hipDeviceAttributeAmdSpecificBegin          = 10000,
    hipDeviceAttributeMaxSharedMemoryPerMultiprocessor = 10002,
    hipDeviceAttributeIsLargeBar                = 10011,
    hipDeviceAttributePhysicalMultiProcessorCount = 10015,
    hipDeviceAttributeFineGrainSupport          = 10016,
    hipDeviceAttributeAmdSpecificEnd            = 19999,
    hipDeviceAttributeVendorSpecificBegin       = 20000
} hipDeviceAttribute_t;

/* hipStreamCreateWithFlags */
#define hipStreamDefault 0x00
#define hipStreamNonBlocking 0x01
/* hipEventCreateWithFlags */
#define hipEventDefault 0x0
#define hipEventBlockingSync 0x1
#define hipEventDisableTiming 0x2
#define hipEventInterprocess 0x4
/* hipHostMalloc */
#define hipHostMallocDefault 0x0
#define hipHostMallocPortable 0x1
#define hipHostMallocMapped 0x2
#define hipHostMallocWriteCombined 0x4
#define hipHostMallocNumaUser 0x20000000
#define hipHostMallocCoherent 0x40000000
#define hipHostMallocNonCoherent 0x80000000
/* hipMallocManaged */
#define hipMemAttachGlobal 0x01
#define hipMemAttachHost 0x02

/* ---- device properties -------------------------------------------------------------------------- */

typedef struct hipUUID_t
{
    char bytes[16];
} hipUUID;

/* The commonly read fields of HIP's hipDeviceProp_t, describing this CPU (one "multiprocessor" per
 * hardware thread, memory = physical RAM, no kernels: compute capability 0.0). */
typedef struct hipDeviceProp_t
{
    char name[256];            /* the CPU's model name */
    hipUUID uuid;
    size_t totalGlobalMem;     /* physical RAM, bytes */
    size_t sharedMemPerBlock;
    int regsPerBlock;
    int warpSize;
    size_t memPitch;
    int maxThreadsPerBlock;
    int maxThreadsDim[3];
    int maxGridSize[3];
    int clockRate;             /* kHz */
    size_t totalConstMem;
    int major;
    int minor;
    size_t textureAlignment;
    int deviceOverlap;
    int multiProcessorCount;   /* hardware threads */
    int kernelExecTimeoutEnabled;
    int integrated;
    int canMapHostMemory;
    int computeMode;
    int concurrentKernels;
    int pciDomainID;
    int pciBusID;
    int pciDeviceID;
    int memoryClockRate;
    int memoryBusWidth;
    int l2CacheSize;           /* bytes */
    int maxThreadsPerMultiProcessor;
    int isMultiGpuBoard;
    int managedMemory;
    int concurrentManagedAccess;
    int pageableMemoryAccess;
    int unifiedAddressing;
    size_t sharedMemPerMultiprocessor;
    size_t maxSharedMemoryPerMultiProcessor;
    char gcnArchName[256];     /* "cpu-<machine>", e.g. "cpu-x86_64" */
    int isLargeBar;
    int asicRevision;
} hipDeviceProp_t;

typedef struct hipPointerAttribute_t
{
    hipMemoryType type;
    int device;
    void* devicePointer;
    void* hostPointer;
    int isManaged;
    unsigned allocationFlags;
} hipPointerAttribute_t;

/* ---- errors and versions ------------------------------------------------------------------------ */

/* A static, never-null description (an unknown value gives "unknown error"). */
HIP_HOST_EXPORT const char* hipGetErrorString(hipError_t error);
/* A static, never-null enumerator name (an unknown value gives "hipErrorUnknown"). */
HIP_HOST_EXPORT const char* hipGetErrorName(hipError_t error);
/* The calling thread's last failure, then reset to hipSuccess. */
HIP_HOST_EXPORT hipError_t hipGetLastError(void);
/* The calling thread's last failure, not reset. */
HIP_HOST_EXPORT hipError_t hipPeekAtLastError(void);
/* HIP_VERSION of this runtime. */
HIP_HOST_EXPORT hipError_t hipRuntimeGetVersion(int* runtimeVersion);
HIP_HOST_EXPORT hipError_t hipDriverGetVersion(int* driverVersion);

/* ---- device ------------------------------------------------------------------------------------- */

HIP_HOST_EXPORT hipError_t hipGetDeviceCount(int* count); /* always 1 */
HIP_HOST_EXPORT hipError_t hipGetDevice(int* deviceId);   /* always 0 */
/* 0 only; any other id returns hipErrorInvalidDevice. */
HIP_HOST_EXPORT hipError_t hipSetDevice(int deviceId);
HIP_HOST_EXPORT hipError_t hipGetDeviceProperties(hipDeviceProp_t* prop, int deviceId);
/* hipErrorInvalidValue for an attribute this runtime does not describe. */
HIP_HOST_EXPORT hipError_t hipDeviceGetAttribute(int* pi, hipDeviceAttribute_t attr, int deviceId);
HIP_HOST_EXPORT hipError_t hipDeviceSynchronize(void);
/* Frees every allocation and destroys every stream and event of the process. */
HIP_HOST_EXPORT hipError_t hipDeviceReset(void);
/* free = available physical RAM, total = physical RAM. */
HIP_HOST_EXPORT hipError_t hipMemGetInfo(size_t* free, size_t* total);

/* ---- memory ------------------------------------------------------------------------------------- */

/* 256-byte aligned; size 0 gives *ptr = NULL and hipSuccess; hipErrorOutOfMemory when it fails. */
HIP_HOST_EXPORT hipError_t hipMalloc(void** ptr, size_t size);
/* NULL is a no-op; a pointer not returned by hipMalloc/hipMallocManaged is hipErrorInvalidValue. */
HIP_HOST_EXPORT hipError_t hipFree(void* ptr);
HIP_HOST_EXPORT hipError_t hipMallocManaged(void** devPtr, size_t size, unsigned int flags HIP_HOST_DEFAULT_ARG(hipMemAttachGlobal));
HIP_HOST_EXPORT hipError_t hipHostMalloc(void** ptr, size_t size, unsigned int flags);
/* NULL is a no-op; a pointer not returned by hipHostMalloc/hipMallocHost is hipErrorInvalidValue. */
HIP_HOST_EXPORT hipError_t hipHostFree(void* ptr);
/* Old names of hipHostMalloc(ptr, size, 0) and hipHostFree. */
HIP_HOST_EXPORT hipError_t hipMallocHost(void** ptr, size_t size);
HIP_HOST_EXPORT hipError_t hipFreeHost(void* ptr);
HIP_HOST_EXPORT hipError_t hipMemcpy(void* dst, const void* src, size_t sizeBytes, hipMemcpyKind kind);
HIP_HOST_EXPORT hipError_t hipMemcpyAsync(void* dst, const void* src, size_t sizeBytes, hipMemcpyKind kind,
                                          hipStream_t stream HIP_HOST_DEFAULT_ARG(0));
/* Sets sizeBytes bytes of device memory to (unsigned char)value. */
HIP_HOST_EXPORT hipError_t hipMemset(void* dst, int value, size_t sizeBytes);
HIP_HOST_EXPORT hipError_t hipMemsetAsync(void* dst, int value, size_t sizeBytes, hipStream_t stream HIP_HOST_DEFAULT_ARG(0));
/* A pointer this runtime did not allocate gives hipSuccess with type hipMemoryTypeUnregistered. */
HIP_HOST_EXPORT hipError_t hipPointerGetAttributes(hipPointerAttribute_t* attributes, const void* ptr);

/* ---- streams ------------------------------------------------------------------------------------ */

HIP_HOST_EXPORT hipError_t hipStreamCreate(hipStream_t* stream);
HIP_HOST_EXPORT hipError_t hipStreamCreateWithFlags(hipStream_t* stream, unsigned int flags);
/* The null stream cannot be destroyed (hipErrorInvalidHandle). */
HIP_HOST_EXPORT hipError_t hipStreamDestroy(hipStream_t stream);
HIP_HOST_EXPORT hipError_t hipStreamSynchronize(hipStream_t stream);
/* hipSuccess: nothing is ever pending. */
HIP_HOST_EXPORT hipError_t hipStreamQuery(hipStream_t stream);

/* ---- events ------------------------------------------------------------------------------------- */

HIP_HOST_EXPORT hipError_t hipEventCreate(hipEvent_t* event);
HIP_HOST_EXPORT hipError_t hipEventCreateWithFlags(hipEvent_t* event, unsigned flags);
/* Takes the steady-clock time now (the stream's earlier work is already complete). */
HIP_HOST_EXPORT hipError_t hipEventRecord(hipEvent_t event, hipStream_t stream HIP_HOST_DEFAULT_ARG(NULL));
HIP_HOST_EXPORT hipError_t hipEventSynchronize(hipEvent_t event);
HIP_HOST_EXPORT hipError_t hipEventQuery(hipEvent_t event);
HIP_HOST_EXPORT hipError_t hipEventDestroy(hipEvent_t event);
/* Milliseconds from start to stop (negative when stop was recorded first). hipErrorInvalidHandle
 * when either event was never recorded or was created with hipEventDisableTiming. */
HIP_HOST_EXPORT hipError_t hipEventElapsedTime(float* ms, hipEvent_t start, hipEvent_t stop);

#ifdef __cplusplus
} /* extern "C" */

/* Typed overloads, as HIP provides them to C++ callers (hipMalloc(&floatPtr, bytes)). */
template <class T>
static inline hipError_t hipMalloc(T** devPtr, size_t size)
{
    return hipMalloc(reinterpret_cast<void**>(devPtr), size);
}
template <class T>
static inline hipError_t hipHostMalloc(T** ptr, size_t size, unsigned int flags = hipHostMallocDefault)
{
    return hipHostMalloc(reinterpret_cast<void**>(ptr), size, flags);
}
template <class T>
static inline hipError_t hipMallocManaged(T** devPtr, size_t size, unsigned int flags = hipMemAttachGlobal)
{
    return hipMallocManaged(reinterpret_cast<void**>(devPtr), size, flags);
}
#endif

#endif /* HIP_HOST_HIP_RUNTIME_API_H */
