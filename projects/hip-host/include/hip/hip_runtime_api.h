/*
 * hip_host: the host-side subset of the HIP runtime API that MIOpen client programs call, run on
 * the CPU (libhip_host.so.1). "Device" memory is host memory, every operation completes before
 * the call returns (streams and events exist, and are checked, but never hold pending work), and
 * there is exactly one device, 0, which describes this CPU.
 *
 * Names, signatures and the numeric values of hipError_t, hipMemcpyKind, hipDeviceAttribute_t,
 * hipLimit_t, the flag words and the layout of hipDeviceProp_t (HIP 6's R0600 struct) are those of
 * the HIP runtime (hip_runtime_api.h, HIP 6.x), so a program written against HIP compiles
 * unchanged. The headers live in their own include directory (<prefix>/include/hip_host): they are
 * found only by a consumer that asks for them, and never shadow a real ROCm install.
 * __HIP_PLATFORM_AMD__ is not defined; __HIP_HOST_RUNTIME_CPU__ is.
 *
 * Conventions of every function below:
 *  - A null output pointer, an unknown flag bit or an unknown enum value returns
 *    hipErrorInvalidValue (hipErrorInvalidMemcpyDirection for a bad hipMemcpyKind).
 *  - A device id other than 0 returns hipErrorInvalidDevice.
 *  - A stream or event that was not created by this library, or was destroyed, returns
 *    hipErrorInvalidHandle; the null stream (0), hipStreamLegacy and hipStreamPerThread are the
 *    default stream and always valid.
 *  - A device pointer must lie, with the whole range a call touches, inside one live allocation
 *    of hipMalloc / hipMallocAsync / hipMallocManaged / hipHostMalloc or one hipHostRegister'ed
 *    range; otherwise hipErrorInvalidValue.
 *  - Stream order: a call that enqueues work on a stream (a copy, a memset, an event record, a
 *    host callback, a wait) does it before it returns, so the work of one stream runs in the order
 *    it was enqueued, a host callback runs after everything enqueued before it (on the calling
 *    thread, inside hipStreamAddCallback / hipLaunchHostFunc), and an event is complete once
 *    recorded (hipStreamWaitEvent has nothing to wait for).
 *  - Each failure is also kept as the calling thread's last error: hipGetLastError returns it and
 *    resets it to hipSuccess, hipPeekAtLastError returns it; a later successful call does not
 *    clear it (CUDA's rule, and HIP's from 7.0; HIP 6.x's runtime overwrote it with every call).
 *  - No function throws or prints. All functions are thread-safe.
 *
 * Not provided (they need device code or several devices): kernels and their launch
 * (__global__, hipLaunchKernelGGL, <<<...>>>), modules, graphs, arrays and textures, IPC, peer
 * access between distinct devices, memory pools (hipMemPool*).
 */
#ifndef HIP_HOST_HIP_RUNTIME_API_H
#define HIP_HOST_HIP_RUNTIME_API_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <hip/hip_version.h>

/* Marker: this is the CPU host runtime, not ROCm. */
#define __HIP_HOST_RUNTIME_CPU__ 1

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

/* Every value of HIP 6.x; hipGetErrorName / hipGetErrorString know each one. */
typedef enum hipError_t
{
    hipSuccess                          = 0,
    hipErrorInvalidValue                = 1,
    hipErrorOutOfMemory                 = 2,
    hipErrorMemoryAllocation            = 2, /* old name of hipErrorOutOfMemory */
    hipErrorNotInitialized              = 3,
    hipErrorInitializationError         = 3, /* old name of hipErrorNotInitialized */
    hipErrorDeinitialized               = 4,
    hipErrorProfilerDisabled            = 5,
    hipErrorProfilerNotInitialized      = 6,
    hipErrorProfilerAlreadyStarted      = 7,
    hipErrorProfilerAlreadyStopped      = 8,
    hipErrorInvalidConfiguration        = 9,
    hipErrorInvalidPitchValue           = 12,
    hipErrorInvalidSymbol               = 13,
    hipErrorInvalidDevicePointer        = 17,
    hipErrorInvalidMemcpyDirection      = 21,
    hipErrorInsufficientDriver          = 35,
    hipErrorMissingConfiguration        = 52,
    hipErrorPriorLaunchFailure          = 53,
    hipErrorInvalidDeviceFunction       = 98,
    hipErrorNoDevice                    = 100,
    hipErrorInvalidDevice               = 101,
    hipErrorInvalidImage                = 200,
    hipErrorInvalidContext              = 201,
    hipErrorContextAlreadyCurrent       = 202,
    hipErrorMapFailed                   = 205,
    hipErrorMapBufferObjectFailed       = 205, /* old name of hipErrorMapFailed */
    hipErrorUnmapFailed                 = 206,
    hipErrorArrayIsMapped               = 207,
    hipErrorAlreadyMapped               = 208,
    hipErrorNoBinaryForGpu              = 209,
    hipErrorAlreadyAcquired             = 210,
    hipErrorNotMapped                   = 211,
    hipErrorNotMappedAsArray            = 212,
    hipErrorNotMappedAsPointer          = 213,
    hipErrorECCNotCorrectable           = 214,
    hipErrorUnsupportedLimit            = 215,
    hipErrorContextAlreadyInUse         = 216,
    hipErrorPeerAccessUnsupported       = 217,
    hipErrorInvalidKernelFile           = 218,
    hipErrorInvalidGraphicsContext      = 219,
    hipErrorInvalidSource               = 300,
    hipErrorFileNotFound                = 301,
    hipErrorSharedObjectSymbolNotFound  = 302,
    hipErrorSharedObjectInitFailed      = 303,
    hipErrorOperatingSystem             = 304,
    hipErrorInvalidHandle               = 400,
    hipErrorInvalidResourceHandle       = 400, /* old name of hipErrorInvalidHandle */
    hipErrorIllegalState                = 401,
    hipErrorNotFound                    = 500,
    hipErrorNotReady                    = 600,
    hipErrorIllegalAddress              = 700,
    hipErrorLaunchOutOfResources        = 701,
    hipErrorLaunchTimeOut               = 702,
    hipErrorPeerAccessAlreadyEnabled    = 704,
    hipErrorPeerAccessNotEnabled        = 705,
    hipErrorSetOnActiveProcess          = 708,
    hipErrorContextIsDestroyed          = 709,
    hipErrorAssert                      = 710,
    hipErrorHostMemoryAlreadyRegistered = 712,
    hipErrorHostMemoryNotRegistered     = 713,
    hipErrorLaunchFailure               = 719,
    hipErrorCooperativeLaunchTooLarge   = 720,
    hipErrorNotSupported                = 801,
    hipErrorStreamCaptureUnsupported    = 900,
    hipErrorStreamCaptureInvalidated    = 901,
    hipErrorStreamCaptureMerge          = 902,
    hipErrorStreamCaptureUnmatched      = 903,
    hipErrorStreamCaptureUnjoined       = 904,
    hipErrorStreamCaptureIsolation      = 905,
    hipErrorStreamCaptureImplicit       = 906,
    hipErrorCapturedEvent               = 907,
    hipErrorStreamCaptureWrongThread    = 908,
    hipErrorGraphExecUpdateFailure      = 910,
    hipErrorInvalidChannelDescriptor    = 911,
    hipErrorInvalidTexture              = 912,
    hipErrorUnknown                     = 999,
    hipErrorRuntimeMemory               = 1052,
    hipErrorRuntimeOther                = 1053,
    hipErrorTbd                         = 1054
} hipError_t;

/* ---- handles ------------------------------------------------------------------------------------ */

/* The same opaque stream type HIP declares (and <miopen/miopen.h> declares when HIP is absent). */
typedef struct ihipStream_t* hipStream_t;
typedef struct ihipEvent_t* hipEvent_t;
typedef int hipDevice_t;
/* The driver-style device pointer (hipMemcpyHtoD and friends): a plain address, as in HIP. */
typedef void* hipDeviceptr_t;

/* Other names of the default stream, as in HIP; valid wherever a stream is. */
#define hipStreamLegacy ((hipStream_t)1)
#define hipStreamPerThread ((hipStream_t)2)

/* Host callbacks (hipStreamAddCallback, hipLaunchHostFunc). */
typedef void (*hipStreamCallback_t)(hipStream_t stream, hipError_t status, void* userData);
typedef void (*hipHostFn_t)(void* userData);

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

/* Every value of HIP 6.x (numbered as HIP numbers them). hipDeviceGetAttribute answers those that
 * HIP's runtime answers (each from the hipDeviceProp_t field of the same meaning) and returns
 * hipErrorInvalidValue for the rest (the multi-dimensional texture/surface limits, Luid, the
 * HDP registers and the unused slots). */
typedef enum hipDeviceAttribute_t
{
    hipDeviceAttributeCudaCompatibleBegin = 0,
    hipDeviceAttributeEccEnabled = hipDeviceAttributeCudaCompatibleBegin,
    hipDeviceAttributeAccessPolicyMaxWindowSize,                 /* 1 */
    hipDeviceAttributeAsyncEngineCount,                          /* 2 */
    hipDeviceAttributeCanMapHostMemory,                          /* 3 */
    hipDeviceAttributeCanUseHostPointerForRegisteredMem,         /* 4 */
    hipDeviceAttributeClockRate,                                 /* 5 */
    hipDeviceAttributeComputeMode,                               /* 6 */
    hipDeviceAttributeComputePreemptionSupported,                /* 7 */
    hipDeviceAttributeConcurrentKernels,                         /* 8 */
    hipDeviceAttributeConcurrentManagedAccess,                   /* 9 */
    hipDeviceAttributeCooperativeLaunch,                         /* 10 */
    hipDeviceAttributeCooperativeMultiDeviceLaunch,              /* 11 */
    hipDeviceAttributeDeviceOverlap,                             /* 12 */
    hipDeviceAttributeDirectManagedMemAccessFromHost,            /* 13 */
    hipDeviceAttributeGlobalL1CacheSupported,                    /* 14 */
    hipDeviceAttributeHostNativeAtomicSupported,                 /* 15 */
    hipDeviceAttributeIntegrated,                                /* 16 */
    hipDeviceAttributeIsMultiGpuBoard,                           /* 17 */
    hipDeviceAttributeKernelExecTimeout,                         /* 18 */
    hipDeviceAttributeL2CacheSize,                               /* 19 */
    hipDeviceAttributeLocalL1CacheSupported,                     /* 20 */
    hipDeviceAttributeLuid,                                      /* 21 */
    hipDeviceAttributeLuidDeviceNodeMask,                        /* 22 */
    hipDeviceAttributeComputeCapabilityMajor,                    /* 23 */
    hipDeviceAttributeManagedMemory,                             /* 24 */
    hipDeviceAttributeMaxBlocksPerMultiProcessor,                /* 25 */
    hipDeviceAttributeMaxBlockDimX,                              /* 26 */
    hipDeviceAttributeMaxBlockDimY,                              /* 27 */
    hipDeviceAttributeMaxBlockDimZ,                              /* 28 */
    hipDeviceAttributeMaxGridDimX,                               /* 29 */
    hipDeviceAttributeMaxGridDimY,                               /* 30 */
    hipDeviceAttributeMaxGridDimZ,                               /* 31 */
    hipDeviceAttributeMaxSurface1D,                              /* 32 */
    hipDeviceAttributeMaxSurface1DLayered,                       /* 33 */
    hipDeviceAttributeMaxSurface2D,                              /* 34 */
    hipDeviceAttributeMaxSurface2DLayered,                       /* 35 */
    hipDeviceAttributeMaxSurface3D,                              /* 36 */
    hipDeviceAttributeMaxSurfaceCubemap,                         /* 37 */
    hipDeviceAttributeMaxSurfaceCubemapLayered,                  /* 38 */
    hipDeviceAttributeMaxTexture1DWidth,                         /* 39 */
    hipDeviceAttributeMaxTexture1DLayered,                       /* 40 */
    hipDeviceAttributeMaxTexture1DLinear,                        /* 41 */
    hipDeviceAttributeMaxTexture1DMipmap,                        /* 42 */
    hipDeviceAttributeMaxTexture2DWidth,                         /* 43 */
    hipDeviceAttributeMaxTexture2DHeight,                        /* 44 */
    hipDeviceAttributeMaxTexture2DGather,                        /* 45 */
    hipDeviceAttributeMaxTexture2DLayered,                       /* 46 */
    hipDeviceAttributeMaxTexture2DLinear,                        /* 47 */
    hipDeviceAttributeMaxTexture2DMipmap,                        /* 48 */
    hipDeviceAttributeMaxTexture3DWidth,                         /* 49 */
    hipDeviceAttributeMaxTexture3DHeight,                        /* 50 */
    hipDeviceAttributeMaxTexture3DDepth,                         /* 51 */
    hipDeviceAttributeMaxTexture3DAlt,                           /* 52 */
    hipDeviceAttributeMaxTextureCubemap,                         /* 53 */
    hipDeviceAttributeMaxTextureCubemapLayered,                  /* 54 */
    hipDeviceAttributeMaxThreadsDim,                             /* 55 */
    hipDeviceAttributeMaxThreadsPerBlock,                        /* 56 */
    hipDeviceAttributeMaxThreadsPerMultiProcessor,               /* 57 */
    hipDeviceAttributeMaxPitch,                                  /* 58 */
    hipDeviceAttributeMemoryBusWidth,                            /* 59 */
    hipDeviceAttributeMemoryClockRate,                           /* 60 */
    hipDeviceAttributeComputeCapabilityMinor,                    /* 61 */
    hipDeviceAttributeMultiGpuBoardGroupID,                      /* 62 */
    hipDeviceAttributeMultiprocessorCount,                       /* 63 */
    hipDeviceAttributeUnused1,                                   /* 64 */
    hipDeviceAttributePageableMemoryAccess,                      /* 65 */
    hipDeviceAttributePageableMemoryAccessUsesHostPageTables,    /* 66 */
    hipDeviceAttributePciBusId,                                  /* 67 */
    hipDeviceAttributePciDeviceId,                               /* 68 */
    hipDeviceAttributePciDomainID,                               /* 69 */
    hipDeviceAttributePersistingL2CacheMaxSize,                  /* 70 */
    hipDeviceAttributeMaxRegistersPerBlock,                      /* 71 */
    hipDeviceAttributeMaxRegistersPerMultiprocessor,             /* 72 */
    hipDeviceAttributeReservedSharedMemPerBlock,                 /* 73 */
    hipDeviceAttributeMaxSharedMemoryPerBlock,                   /* 74 */
    hipDeviceAttributeSharedMemPerBlockOptin,                    /* 75 */
    hipDeviceAttributeSharedMemPerMultiprocessor,                /* 76 */
    hipDeviceAttributeSingleToDoublePrecisionPerfRatio,          /* 77 */
    hipDeviceAttributeStreamPrioritiesSupported,                 /* 78 */
    hipDeviceAttributeSurfaceAlignment,                          /* 79 */
    hipDeviceAttributeTccDriver,                                 /* 80 */
    hipDeviceAttributeTextureAlignment,                          /* 81 */
    hipDeviceAttributeTexturePitchAlignment,                     /* 82 */
    hipDeviceAttributeTotalConstantMemory,                       /* 83 */
    hipDeviceAttributeTotalGlobalMem,                            /* 84 */
    hipDeviceAttributeUnifiedAddressing,                         /* 85 */
    hipDeviceAttributeUnused2,                                   /* 86 */
    hipDeviceAttributeWarpSize,                                  /* 87 */
    hipDeviceAttributeMemoryPoolsSupported,                      /* 88 */
    hipDeviceAttributeVirtualMemoryManagementSupported,          /* 89 */
    hipDeviceAttributeHostRegisterSupported,                     /* 90 */
    hipDeviceAttributeMemoryPoolSupportedHandleTypes,            /* 91 */
    hipDeviceAttributeCudaCompatibleEnd = 9999,
    hipDeviceAttributeAmdSpecificBegin = 10000,
    hipDeviceAttributeClockInstructionRate = hipDeviceAttributeAmdSpecificBegin,
    hipDeviceAttributeUnused3,                                   /* 10001 */
    hipDeviceAttributeMaxSharedMemoryPerMultiprocessor,          /* 10002 */
    hipDeviceAttributeUnused4,                                   /* 10003 */
    hipDeviceAttributeUnused5,                                   /* 10004 */
    hipDeviceAttributeHdpMemFlushCntl,                           /* 10005 */
    hipDeviceAttributeHdpRegFlushCntl,                           /* 10006 */
    hipDeviceAttributeCooperativeMultiDeviceUnmatchedFunc,       /* 10007 */
    hipDeviceAttributeCooperativeMultiDeviceUnmatchedGridDim,    /* 10008 */
    hipDeviceAttributeCooperativeMultiDeviceUnmatchedBlockDim,   /* 10009 */
    hipDeviceAttributeCooperativeMultiDeviceUnmatchedSharedMem,  /* 10010 */
    hipDeviceAttributeIsLargeBar,                                /* 10011 */
    hipDeviceAttributeAsicRevision,                              /* 10012 */
    hipDeviceAttributeCanUseStreamWaitValue,                     /* 10013 */
    hipDeviceAttributeImageSupport,                              /* 10014 */
    hipDeviceAttributePhysicalMultiProcessorCount,               /* 10015 */
    hipDeviceAttributeFineGrainSupport,                          /* 10016 */
    hipDeviceAttributeWallClockRate,                             /* 10017 */
    hipDeviceAttributeAmdSpecificEnd = 19999,
    hipDeviceAttributeVendorSpecificBegin = 20000
} hipDeviceAttribute_t;

/* This runtime's earlier spelling of hipDeviceAttributePciDomainID (same value), kept so that
 * programs built against it still compile. */
#define hipDeviceAttributePciDomainId hipDeviceAttributePciDomainID

/* hipDeviceGetLimit / hipDeviceSetLimit (HIP declares it as a plain enum, used as enum hipLimit_t). */
enum hipLimit_t
{
    hipLimitStackSize      = 0x0, /* here: the stack size of a thread of this process */
    hipLimitPrintfFifoSize = 0x1, /* not supported (hipErrorUnsupportedLimit), as in HIP */
    hipLimitMallocHeapSize = 0x2, /* here: a recorded value; device code has no heap */
    hipLimitRange
};

/* hipStreamCreateWithFlags */
#define hipStreamDefault 0x00
#define hipStreamNonBlocking 0x01
/* hipEventCreateWithFlags (at most one of the three release/fence flags) */
#define hipEventDefault 0x0
#define hipEventBlockingSync 0x1
#define hipEventDisableTiming 0x2
#define hipEventInterprocess 0x4
#define hipEventDisableSystemFence 0x20000000
#define hipEventReleaseToDevice 0x40000000
#define hipEventReleaseToSystem 0x80000000
/* hipHostMalloc (hipHostAlloc* are HIP's CUDA-style names of the same values) */
#define hipHostMallocDefault 0x0
#define hipHostMallocPortable 0x1
#define hipHostMallocMapped 0x2
#define hipHostMallocWriteCombined 0x4
#define hipHostMallocNumaUser 0x20000000
#define hipHostMallocCoherent 0x40000000
#define hipHostMallocNonCoherent 0x80000000
#define hipHostAllocDefault 0x0
#define hipHostAllocPortable 0x1
#define hipHostAllocMapped 0x2
#define hipHostAllocWriteCombined 0x4
/* hipMallocManaged */
#define hipMemAttachGlobal 0x01
#define hipMemAttachHost 0x02
#define hipMemAttachSingle 0x04
/* hipHostRegister */
#define hipHostRegisterDefault 0x0
#define hipHostRegisterPortable 0x1
#define hipHostRegisterMapped 0x2
#define hipHostRegisterIoMemory 0x4
#define hipHostRegisterReadOnly 0x08
#define hipExtHostRegisterCoarseGrained 0x8
/* hipSetDeviceFlags (one scheduling flag at most) */
#define hipDeviceScheduleAuto 0x0
#define hipDeviceScheduleSpin 0x1
#define hipDeviceScheduleYield 0x2
#define hipDeviceScheduleBlockingSync 0x4
#define hipDeviceScheduleMask 0x7
#define hipDeviceMapHost 0x8
#define hipDeviceLmemResizeToMax 0x10

/* ---- device properties -------------------------------------------------------------------------- */

typedef struct hipUUID_t
{
    char bytes[16];
} hipUUID;

/* Architectural feature flags of device code: all 0 here, there is no device code. */
typedef struct
{
    unsigned hasGlobalInt32Atomics : 1;
    unsigned hasGlobalFloatAtomicExch : 1;
    unsigned hasSharedInt32Atomics : 1;
    unsigned hasSharedFloatAtomicExch : 1;
    unsigned hasFloatAtomicAdd : 1;
    unsigned hasGlobalInt64Atomics : 1;
    unsigned hasSharedInt64Atomics : 1;
    unsigned hasDoubles : 1;
    unsigned hasWarpVote : 1;
    unsigned hasWarpBallot : 1;
    unsigned hasWarpShuffle : 1;
    unsigned hasFunnelShift : 1;
    unsigned hasThreadFenceSystem : 1;
    unsigned hasSyncThreadsExt : 1;
    unsigned hasSurfaceFuncs : 1;
    unsigned has3dGrid : 1;
    unsigned hasDynamicParallelism : 1;
} hipDeviceArch_t;

/* As in HIP 6: the struct and the query are the R0600 versions (the exported symbol is
 * hipGetDevicePropertiesR0600); the plain hipGetDeviceProperties symbol stays exported for
 * programs built against this runtime's earlier, shorter struct. */
#define hipGetDeviceProperties hipGetDevicePropertiesR0600
#define hipDeviceProp_t hipDeviceProp_tR0600
#define hipChooseDevice hipChooseDeviceR0600

/* HIP 6's hipDeviceProp_t, field for field, describing this CPU: name = the CPU's model name,
 * multiProcessorCount = hardware threads, totalGlobalMem = physical RAM, clockRate = the CPU's
 * clock, l2CacheSize = its L2 cache, gcnArchName = "cpu-<machine>"; no kernels run here, so the
 * launch limits are 1, compute capability 0.0, and texture/surface/shared-memory limits 0. */
typedef struct hipDeviceProp_t
{
    char name[256];
    hipUUID uuid;
    char luid[8];
    unsigned int luidDeviceNodeMask;
    size_t totalGlobalMem;
    size_t sharedMemPerBlock;
    int regsPerBlock;
    int warpSize;
    size_t memPitch;
    int maxThreadsPerBlock;
    int maxThreadsDim[3];
    int maxGridSize[3];
    int clockRate; /* kHz */
    size_t totalConstMem;
    int major;
    int minor;
    size_t textureAlignment;
    size_t texturePitchAlignment;
    int deviceOverlap;
    int multiProcessorCount;
    int kernelExecTimeoutEnabled;
    int integrated;
    int canMapHostMemory;
    int computeMode;
    int maxTexture1D;
    int maxTexture1DMipmap;
    int maxTexture1DLinear;
    int maxTexture2D[2];
    int maxTexture2DMipmap[2];
    int maxTexture2DLinear[3];
    int maxTexture2DGather[2];
    int maxTexture3D[3];
    int maxTexture3DAlt[3];
    int maxTextureCubemap;
    int maxTexture1DLayered[2];
    int maxTexture2DLayered[3];
    int maxTextureCubemapLayered[2];
    int maxSurface1D;
    int maxSurface2D[2];
    int maxSurface3D[3];
    int maxSurface1DLayered[2];
    int maxSurface2DLayered[3];
    int maxSurfaceCubemap;
    int maxSurfaceCubemapLayered[2];
    size_t surfaceAlignment;
    int concurrentKernels;
    int ECCEnabled;
    int pciBusID;
    int pciDeviceID;
    int pciDomainID;
    int tccDriver;
    int asyncEngineCount;
    int unifiedAddressing;
    int memoryClockRate;
    int memoryBusWidth;
    int l2CacheSize; /* bytes */
    int persistingL2CacheMaxSize;
    int maxThreadsPerMultiProcessor;
    int streamPrioritiesSupported;
    int globalL1CacheSupported;
    int localL1CacheSupported;
    size_t sharedMemPerMultiprocessor;
    int regsPerMultiprocessor;
    int managedMemory;
    int isMultiGpuBoard;
    int multiGpuBoardGroupID;
    int hostNativeAtomicSupported;
    int singleToDoublePrecisionPerfRatio;
    int pageableMemoryAccess;
    int concurrentManagedAccess;
    int computePreemptionSupported;
    int canUseHostPointerForRegisteredMem;
    int cooperativeLaunch;
    int cooperativeMultiDeviceLaunch;
    size_t sharedMemPerBlockOptin;
    int pageableMemoryAccessUsesHostPageTables;
    int directManagedMemAccessFromHost;
    int maxBlocksPerMultiProcessor;
    int accessPolicyMaxWindowSize;
    size_t reservedSharedMemPerBlock;
    int hostRegisterSupported;
    int sparseHipArraySupported;
    int hostRegisterReadOnlySupported;
    int timelineSemaphoreInteropSupported;
    int memoryPoolsSupported; /* 0: hipMallocAsync works, the hipMemPool* API does not exist here */
    int gpuDirectRDMASupported;
    unsigned int gpuDirectRDMAFlushWritesOptions;
    int gpuDirectRDMAWritesOrdering;
    unsigned int memoryPoolSupportedHandleTypes;
    int deferredMappingHipArraySupported;
    int ipcEventSupported;
    int clusterLaunch;
    int unifiedFunctionPointers;
    int reserved[63];
    int hipReserved[32];
    /* HIP-only members */
    char gcnArchName[256]; /* "cpu-<machine>", e.g. "cpu-x86_64" */
    size_t maxSharedMemoryPerMultiProcessor;
    int clockInstructionRate;
    hipDeviceArch_t arch;
    unsigned int* hdpMemFlushCntl;
    unsigned int* hdpRegFlushCntl;
    int cooperativeMultiDeviceUnmatchedFunc;
    int cooperativeMultiDeviceUnmatchedGridDim;
    int cooperativeMultiDeviceUnmatchedBlockDim;
    int cooperativeMultiDeviceUnmatchedSharedMem;
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
/* flags must be 0; nothing to initialize. */
HIP_HOST_EXPORT hipError_t hipInit(unsigned int flags);

/* ---- device ------------------------------------------------------------------------------------- */

HIP_HOST_EXPORT hipError_t hipGetDeviceCount(int* count); /* always 1 */
HIP_HOST_EXPORT hipError_t hipGetDevice(int* deviceId);   /* always 0 */
HIP_HOST_EXPORT hipError_t hipSetDevice(int deviceId);
/* The device handle of ordinal 0 (0). */
HIP_HOST_EXPORT hipError_t hipDeviceGet(hipDevice_t* device, int ordinal);
HIP_HOST_EXPORT hipError_t hipGetDeviceProperties(hipDeviceProp_t* prop, int deviceId);
/* Any prop: device 0. */
HIP_HOST_EXPORT hipError_t hipChooseDevice(int* device, const hipDeviceProp_t* prop);
/* hipErrorInvalidValue for an attribute this runtime does not describe (see the enum). */
HIP_HOST_EXPORT hipError_t hipDeviceGetAttribute(int* pi, hipDeviceAttribute_t attr, int deviceId);
/* The CPU's model name, truncated to len - 1 characters (len <= 0: hipErrorInvalidValue). */
HIP_HOST_EXPORT hipError_t hipDeviceGetName(char* name, int len, hipDevice_t device);
/* "0000:00:00.0" (domain:bus:device.function of device 0). Written truncated to len; len <= 12
 * (too short for the 13 characters) gives hipErrorInvalidValue, as in HIP. */
HIP_HOST_EXPORT hipError_t hipDeviceGetPCIBusId(char* pciBusId, int len, int device);
/* The device whose hipDeviceGetPCIBusId is pciBusId; no match (or not that form): hipErrorInvalidValue. */
HIP_HOST_EXPORT hipError_t hipDeviceGetByPCIBusId(int* device, const char* pciBusId);
/* The compute capability of hipDeviceProp_t (0.0: no kernels run here). */
HIP_HOST_EXPORT hipError_t hipDeviceComputeCapability(int* major, int* minor, hipDevice_t device);
/* hipDeviceProp_t::totalGlobalMem (physical RAM). */
HIP_HOST_EXPORT hipError_t hipDeviceTotalMem(size_t* bytes, hipDevice_t device);
/* Kept and returned by hipGetDeviceFlags (initially hipDeviceScheduleAuto); nothing else changes.
 * Unknown bits or two scheduling flags: hipErrorInvalidValue. */
HIP_HOST_EXPORT hipError_t hipSetDeviceFlags(unsigned flags);
HIP_HOST_EXPORT hipError_t hipGetDeviceFlags(unsigned int* flags);
/* hipLimitStackSize: the thread stack size of this process (RLIMIT_STACK, 8 MiB when unlimited)
 * unless set; hipLimitMallocHeapSize: the value set (initially 0: device code has no heap);
 * hipLimitPrintfFifoSize: hipErrorUnsupportedLimit; hipLimitRange or beyond: hipErrorInvalidValue. */
HIP_HOST_EXPORT hipError_t hipDeviceGetLimit(size_t* pValue, enum hipLimit_t limit);
HIP_HOST_EXPORT hipError_t hipDeviceSetLimit(enum hipLimit_t limit, size_t value);
/* [*greatestPriority, *leastPriority] = [-1, 1], HIP's range on AMD; either pointer may be null. */
HIP_HOST_EXPORT hipError_t hipDeviceGetStreamPriorityRange(int* leastPriority, int* greatestPriority);
/* One device: never a peer of itself (*canAccessPeer = 0). */
HIP_HOST_EXPORT hipError_t hipDeviceCanAccessPeer(int* canAccessPeer, int deviceId, int peerDeviceId);
HIP_HOST_EXPORT hipError_t hipDeviceSynchronize(void);
/* Frees every allocation, forgets every registration, destroys every stream and event, and
 * resets the device flags and limits. */
HIP_HOST_EXPORT hipError_t hipDeviceReset(void);
/* free = available physical RAM, total = physical RAM. */
HIP_HOST_EXPORT hipError_t hipMemGetInfo(size_t* free, size_t* total);

/* ---- memory ------------------------------------------------------------------------------------- */

/* 256-byte aligned; size 0 gives *ptr = NULL and hipSuccess; hipErrorOutOfMemory when it fails. */
HIP_HOST_EXPORT hipError_t hipMalloc(void** ptr, size_t size);
/* NULL is a no-op; a pointer not returned by hipMalloc/hipMallocAsync/hipMallocManaged is
 * hipErrorInvalidValue. */
HIP_HOST_EXPORT hipError_t hipFree(void* ptr);
/* hipMalloc / hipFree in stream order: done when the call returns (the stream must be valid).
 * hipFreeAsync(NULL) is hipErrorInvalidValue, as in HIP. */
HIP_HOST_EXPORT hipError_t hipMallocAsync(void** devPtr, size_t size, hipStream_t stream);
HIP_HOST_EXPORT hipError_t hipFreeAsync(void* devPtr, hipStream_t stream);
HIP_HOST_EXPORT hipError_t hipMallocManaged(void** devPtr, size_t size, unsigned int flags HIP_HOST_DEFAULT_ARG(hipMemAttachGlobal));
HIP_HOST_EXPORT hipError_t hipHostMalloc(void** ptr, size_t size, unsigned int flags);
/* hipHostMalloc with the CUDA-style flags (portable, mapped, write-combined only). */
HIP_HOST_EXPORT hipError_t hipHostAlloc(void** ptr, size_t size, unsigned int flags);
/* NULL is a no-op; a pointer not returned by hipHostMalloc/hipHostAlloc/hipMallocHost is
 * hipErrorInvalidValue. */
HIP_HOST_EXPORT hipError_t hipHostFree(void* ptr);
/* Old names of hipHostMalloc(ptr, size, 0) and hipHostFree. */
HIP_HOST_EXPORT hipError_t hipMallocHost(void** ptr, size_t size);
HIP_HOST_EXPORT hipError_t hipFreeHost(void* ptr);
/* Makes [hostPtr, hostPtr + sizeBytes) usable as device memory (at the same address). Null or
 * size 0 or unknown flags: hipErrorInvalidValue; a range overlapping a registration or an
 * allocation of this runtime: hipErrorHostMemoryAlreadyRegistered. The memory stays the caller's. */
HIP_HOST_EXPORT hipError_t hipHostRegister(void* hostPtr, size_t sizeBytes, unsigned int flags);
/* hostPtr must be the start of a registration (else hipErrorHostMemoryNotRegistered; NULL:
 * hipErrorInvalidValue). */
HIP_HOST_EXPORT hipError_t hipHostUnregister(void* hostPtr);
/* The device address of host memory this runtime knows (hipHostMalloc'd, registered, or any
 * allocation): the same address. flags must be 0; unknown memory: hipErrorInvalidValue. */
HIP_HOST_EXPORT hipError_t hipHostGetDevicePointer(void** devPtr, void* hostPtr, unsigned int flags);
/* The flags hipHostMalloc / hipHostRegister was given for the memory holding hostPtr. */
HIP_HOST_EXPORT hipError_t hipHostGetFlags(unsigned int* flagsPtr, void* hostPtr);
/* The size of the allocation (or registration) holding ptr; unknown ptr: hipErrorInvalidValue. */
HIP_HOST_EXPORT hipError_t hipMemPtrGetInfo(void* ptr, size_t* size);
/* Base and size of the allocation (or registration) holding dptr (either output may be NULL). */
HIP_HOST_EXPORT hipError_t hipMemGetAddressRange(hipDeviceptr_t* pbase, size_t* psize, hipDeviceptr_t dptr);
/* A pointer this runtime did not allocate or register gives hipSuccess with type
 * hipMemoryTypeUnregistered. */
HIP_HOST_EXPORT hipError_t hipPointerGetAttributes(hipPointerAttribute_t* attributes, const void* ptr);

/* ---- copies and fills --------------------------------------------------------------------------- */

HIP_HOST_EXPORT hipError_t hipMemcpy(void* dst, const void* src, size_t sizeBytes, hipMemcpyKind kind);
HIP_HOST_EXPORT hipError_t hipMemcpyAsync(void* dst, const void* src, size_t sizeBytes, hipMemcpyKind kind,
                                          hipStream_t stream HIP_HOST_DEFAULT_ARG(0));
HIP_HOST_EXPORT hipError_t hipMemcpyWithStream(void* dst, const void* src, size_t sizeBytes, hipMemcpyKind kind,
                                               hipStream_t stream);
/* Driver-style copies: the hipDeviceptr_t side must be device memory, as hipMemcpy's kinds say. */
HIP_HOST_EXPORT hipError_t hipMemcpyHtoD(hipDeviceptr_t dst, void* src, size_t sizeBytes);
HIP_HOST_EXPORT hipError_t hipMemcpyDtoH(void* dst, hipDeviceptr_t src, size_t sizeBytes);
HIP_HOST_EXPORT hipError_t hipMemcpyDtoD(hipDeviceptr_t dst, hipDeviceptr_t src, size_t sizeBytes);
HIP_HOST_EXPORT hipError_t hipMemcpyHtoDAsync(hipDeviceptr_t dst, void* src, size_t sizeBytes, hipStream_t stream);
HIP_HOST_EXPORT hipError_t hipMemcpyDtoHAsync(void* dst, hipDeviceptr_t src, size_t sizeBytes, hipStream_t stream);
HIP_HOST_EXPORT hipError_t hipMemcpyDtoDAsync(hipDeviceptr_t dst, hipDeviceptr_t src, size_t sizeBytes,
                                              hipStream_t stream);
/* height rows of width bytes, rows dpitch / spitch bytes apart. width or height 0: nothing;
 * width > dpitch or width > spitch: hipErrorInvalidPitchValue. A device side must hold
 * pitch * (height - 1) + width bytes. */
HIP_HOST_EXPORT hipError_t hipMemcpy2D(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width,
                                       size_t height, hipMemcpyKind kind);
HIP_HOST_EXPORT hipError_t hipMemcpy2DAsync(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width,
                                            size_t height, hipMemcpyKind kind, hipStream_t stream HIP_HOST_DEFAULT_ARG(0));
/* A device-to-device copy between devices dstDeviceId and srcDeviceId (both must be 0). */
HIP_HOST_EXPORT hipError_t hipMemcpyPeer(void* dst, int dstDeviceId, const void* src, int srcDeviceId, size_t sizeBytes);
HIP_HOST_EXPORT hipError_t hipMemcpyPeerAsync(void* dst, int dstDeviceId, const void* src, int srcDevice,
                                              size_t sizeBytes, hipStream_t stream HIP_HOST_DEFAULT_ARG(0));
/* Sets sizeBytes bytes of device memory to (unsigned char)value. */
HIP_HOST_EXPORT hipError_t hipMemset(void* dst, int value, size_t sizeBytes);
HIP_HOST_EXPORT hipError_t hipMemsetAsync(void* dst, int value, size_t sizeBytes, hipStream_t stream HIP_HOST_DEFAULT_ARG(0));
/* Sets count 8-, 16- or 32-bit elements of device memory to value. */
HIP_HOST_EXPORT hipError_t hipMemsetD8(hipDeviceptr_t dest, unsigned char value, size_t count);
HIP_HOST_EXPORT hipError_t hipMemsetD8Async(hipDeviceptr_t dest, unsigned char value, size_t count,
                                            hipStream_t stream HIP_HOST_DEFAULT_ARG(0));
HIP_HOST_EXPORT hipError_t hipMemsetD16(hipDeviceptr_t dest, unsigned short value, size_t count);
HIP_HOST_EXPORT hipError_t hipMemsetD16Async(hipDeviceptr_t dest, unsigned short value, size_t count,
                                             hipStream_t stream HIP_HOST_DEFAULT_ARG(0));
HIP_HOST_EXPORT hipError_t hipMemsetD32(hipDeviceptr_t dest, int value, size_t count);
HIP_HOST_EXPORT hipError_t hipMemsetD32Async(hipDeviceptr_t dst, int value, size_t count,
                                             hipStream_t stream HIP_HOST_DEFAULT_ARG(0));

/* ---- streams ------------------------------------------------------------------------------------ */

HIP_HOST_EXPORT hipError_t hipStreamCreate(hipStream_t* stream);
HIP_HOST_EXPORT hipError_t hipStreamCreateWithFlags(hipStream_t* stream, unsigned int flags);
/* priority is clamped to hipDeviceGetStreamPriorityRange; lower is higher priority. */
HIP_HOST_EXPORT hipError_t hipStreamCreateWithPriority(hipStream_t* stream, unsigned int flags, int priority);
/* The flags given at creation. The null stream gives hipErrorInvalidValue, as in HIP;
 * hipStreamLegacy / hipStreamPerThread give hipStreamDefault. */
HIP_HOST_EXPORT hipError_t hipStreamGetFlags(hipStream_t stream, unsigned int* flags);
/* The (clamped) priority given at creation; 0 for the default stream. */
HIP_HOST_EXPORT hipError_t hipStreamGetPriority(hipStream_t stream, int* priority);
/* The default stream cannot be destroyed (hipErrorInvalidHandle). */
HIP_HOST_EXPORT hipError_t hipStreamDestroy(hipStream_t stream);
HIP_HOST_EXPORT hipError_t hipStreamSynchronize(hipStream_t stream);
/* hipSuccess: nothing is ever pending. */
HIP_HOST_EXPORT hipError_t hipStreamQuery(hipStream_t stream);
/* Later work on stream waits for event: it is complete once recorded (or never recorded), so
 * this checks the stream, the event and flags (must be 0) and returns. */
HIP_HOST_EXPORT hipError_t hipStreamWaitEvent(hipStream_t stream, hipEvent_t event,
                                              unsigned int flags HIP_HOST_DEFAULT_ARG(0));
/* Calls callback(stream, hipSuccess, userData) once, after the work enqueued before it, on the
 * calling thread before returning. callback NULL or flags != 0: hipErrorInvalidValue. A callback
 * that waits for work the calling thread would do next never returns. */
HIP_HOST_EXPORT hipError_t hipStreamAddCallback(hipStream_t stream, hipStreamCallback_t callback, void* userData,
                                                unsigned int flags);
/* Calls fn(userData) as hipStreamAddCallback calls its callback. fn NULL: hipErrorInvalidValue. */
HIP_HOST_EXPORT hipError_t hipLaunchHostFunc(hipStream_t stream, hipHostFn_t fn, void* userData);

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
static inline hipError_t hipMallocAsync(T** devPtr, size_t size, hipStream_t stream)
{
    return hipMallocAsync(reinterpret_cast<void**>(devPtr), size, stream);
}
template <class T>
static inline hipError_t hipHostMalloc(T** ptr, size_t size, unsigned int flags = hipHostMallocDefault)
{
    return hipHostMalloc(reinterpret_cast<void**>(ptr), size, flags);
}
template <class T>
static inline hipError_t hipHostAlloc(T** ptr, size_t size, unsigned int flags = hipHostAllocDefault)
{
    return hipHostAlloc(reinterpret_cast<void**>(ptr), size, flags);
}
template <class T>
static inline hipError_t hipMallocManaged(T** devPtr, size_t size, unsigned int flags = hipMemAttachGlobal)
{
    return hipMallocManaged(reinterpret_cast<void**>(devPtr), size, flags);
}
#endif

#endif /* HIP_HOST_HIP_RUNTIME_API_H */
