/*
 * MIOpen on the CPU -- public C API.
 *
 * Source-compatible with the upstream MIOpen C API (ROCm/MIOpen, include/miopen/miopen.h): the
 * same function names, signatures, enumerator values, struct layouts and status codes, for the
 * families this library implements. Programs written against upstream MIOpen that use these
 * families compile against this header unchanged.
 *
 * Conventions used by every function below (a contract, not a hint):
 *  - Every function returns miopenStatus_t, except miopenGetErrorString.
 *  - A null handle, descriptor or required output pointer gives miopenStatusBadParm.
 *  - Reading a descriptor that was created but never set gives miopenStatusNotInitialized;
 *    setting functions accept fresh descriptors.
 *  - Objects created by miopenCreate* are owned by the caller until the matching miopenDestroy*.
 *    Destroying a descriptor does not affect operations that already returned.
 *  - Data pointers ("device memory") are host memory on this implementation. They are borrowed
 *    for the duration of the call only; work is synchronous, so every buffer may be reused as
 *    soon as the call returns.
 *  - Failures never leave an exception behind, never abort, and never write to caller memory
 *    other than the documented outputs.
 *
 * The header compiles as C11 and as C++17. As upstream, entry points marked beta are declared only
 * when MIOPEN_BETA_API is defined before inclusion; the library always exports them.
 */
#ifndef MIOPEN_GUARD_MIOPEN_H_
#define MIOPEN_GUARD_MIOPEN_H_

#ifdef __clang__
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wextern-c-compat"
#endif

#include <stddef.h>
#include <stdbool.h>
#include <stdint.h>
#include <miopen/config.h>
#include <miopen/export.h>

#if MIOPEN_BACKEND_HIP
#if defined(__has_include)
#if __has_include(<hip/hip_runtime_api.h>)
#include <hip/hip_runtime_api.h>
#define MIOPEN_HAS_HIP_RUNTIME_API_H 1
#endif
#endif
#ifndef MIOPEN_HAS_HIP_RUNTIME_API_H
/* No HIP runtime headers on this machine: the identical opaque stream type HIP declares. */
typedef struct ihipStream_t* hipStream_t;
#endif
#endif

/* An opaque object: an empty struct and a pointer typedef, as upstream. */
#define MIOPEN_DECLARE_OBJECT(name) \
    struct name                     \
    {                               \
    };                              \
    typedef struct name* name##_t;

#ifdef __cplusplus
extern "C" {
#endif

#if MIOPEN_BACKEND_HIP
typedef hipStream_t miopenAcceleratorQueue_t;
#endif

MIOPEN_DECLARE_OBJECT(miopenHandle);

/* ---------------------------------------------------------------------------------------------
 * Handle
 * ------------------------------------------------------------------------------------------- */

/* Status returned by every entry point. */
typedef enum
{
    miopenStatusSuccess              = 0,  /* no error */
    miopenStatusNotInitialized       = 1,  /* an object was used before it was set up */
    miopenStatusInvalidValue         = 2,  /* a value is outside what the call accepts */
    miopenStatusBadParm              = 3,  /* a parameter is wrong (null, mismatched, negative) */
    miopenStatusAllocFailed          = 4,  /* a memory allocation failed */
    miopenStatusInternalError        = 5,  /* a failure inside the library */
    miopenStatusNotImplemented       = 6,  /* the combination is not implemented */
    miopenStatusUnknownError         = 7,  /* an unclassified error */
    miopenStatusUnsupportedOp        = 8,  /* an operator cannot be fused */
    miopenStatusGpuOperationsSkipped = 9,  /* not an error */
    miopenStatusVersionMismatch      = 10, /* serialized data of another version */
} miopenStatus_t;

#ifdef MIOPEN_BETA_API
typedef enum
{
    miopenF8RoundingModeStandard   = 0,
    miopenF8RoundingModeStochastic = 1,
} miopenF8RoundingMode_t;
#endif

/* Returns a static, NUL-terminated name for a status: the enumerator's own name, or
 * "Unknown error status" for a value outside the enumeration. Never returns NULL. */
MIOPEN_EXPORT const char* miopenGetErrorString(miopenStatus_t error);

/* Custom allocator used for workspace and scratch allocations the library makes on the caller's
 * behalf. The allocator returns NULL on failure (the call then fails with AllocFailed). */
typedef void* (*miopenAllocatorFunction)(void* context, size_t sizeBytes);
typedef void (*miopenDeallocatorFunction)(void* context, void* memory);

/* Writes the library version (3.5.0 or later). Null outputs: BadParm. */
MIOPEN_EXPORT miopenStatus_t miopenGetVersion(size_t* major, size_t* minor, size_t* patch);

/* Creates a handle on the default (null) stream. Statuses: Success, BadParm, AllocFailed. */
MIOPEN_EXPORT miopenStatus_t miopenCreate(miopenHandle_t* handle);

/* Creates a handle bound to a caller-owned stream (stored; work is synchronous on the CPU). */
MIOPEN_EXPORT miopenStatus_t miopenCreateWithStream(miopenHandle_t* handle,
                                                    miopenAcceleratorQueue_t stream);

/* Destroys a handle. Statuses: Success, BadParm (null handle). */
MIOPEN_EXPORT miopenStatus_t miopenDestroy(miopenHandle_t handle);

/* Sets / gets the stream the handle is bound to. The stream stays owned by the caller. */
MIOPEN_EXPORT miopenStatus_t miopenSetStream(miopenHandle_t handle,
                                             miopenAcceleratorQueue_t streamID);
MIOPEN_EXPORT miopenStatus_t miopenGetStream(miopenHandle_t handle,
                                             miopenAcceleratorQueue_t* streamID);

/* Installs an allocator pair for the handle's internal allocations. A null allocator restores
 * the default; a non-null allocator needs a non-null deallocator (else BadParm). */
MIOPEN_EXPORT miopenStatus_t miopenSetAllocator(miopenHandle_t handle,
                                                miopenAllocatorFunction allocator,
                                                miopenDeallocatorFunction deallocator,
                                                void* allocatorContext);

/* Time in milliseconds of the last compute call made on the handle while profiling was enabled
 * (host wall time of that call). Statuses: Success, BadParm. */
MIOPEN_EXPORT miopenStatus_t miopenGetKernelTime(miopenHandle_t handle, float* time);

/* Turns timing of compute calls on or off. */
MIOPEN_EXPORT miopenStatus_t miopenEnableProfiling(miopenHandle_t handle, bool enable);

/* ---------------------------------------------------------------------------------------------
 * Objects and enumerations shared by several families
 * ------------------------------------------------------------------------------------------- */

MIOPEN_DECLARE_OBJECT(miopenFusionOpDescriptor);
MIOPEN_DECLARE_OBJECT(miopenTensorDescriptor);
MIOPEN_DECLARE_OBJECT(miopenSeqTensorDescriptor);
MIOPEN_DECLARE_OBJECT(miopenConvolutionDescriptor);
MIOPEN_DECLARE_OBJECT(miopenPoolingDescriptor);
MIOPEN_DECLARE_OBJECT(miopenLRNDescriptor);
MIOPEN_DECLARE_OBJECT(miopenActivationDescriptor);
MIOPEN_DECLARE_OBJECT(miopenRNNDescriptor);
MIOPEN_DECLARE_OBJECT(miopenCTCLossDescriptor);
MIOPEN_DECLARE_OBJECT(miopenDropoutDescriptor);
MIOPEN_DECLARE_OBJECT(miopenReduceTensorDescriptor);
MIOPEN_DECLARE_OBJECT(miopenMhaDescriptor);
MIOPEN_DECLARE_OBJECT(miopenSoftmaxDescriptor);

/* Element types. Value 4 (Int8x4) is retired. */
typedef enum
{
    miopenHalf     = 0, /* IEEE binary16 */
    miopenFloat    = 1, /* IEEE binary32 */
    miopenInt32    = 2,
    miopenInt8     = 3,
    miopenBFloat16 = 5, /* bfloat16: 8-bit exponent, 7-bit fraction */
    miopenDouble   = 6,
#ifdef MIOPEN_BETA_API
    miopenFloat8  = 7,
    miopenBFloat8 = 8,
#endif
    miopenInt64 = 9,
} miopenDataType_t;

/* Memory layouts. */
typedef enum
{
    miopenTensorNCHW   = 0,
    miopenTensorNHWC   = 1,
    miopenTensorCHWN   = 2,
    miopenTensorNCHWc4 = 3,
    miopenTensorNCHWc8 = 4,
    miopenTensorCHWNc4 = 5,
    miopenTensorCHWNc8 = 6,
    miopenTensorNCDHW  = 7,
    miopenTensorNDHWC  = 8,
} miopenTensorLayout_t;

typedef enum
{
    miopenIndexUint8  = 0,
    miopenIndexUint16 = 1,
    miopenIndexUint32 = 2,
    miopenIndexUint64 = 3,
} miopenIndexType_t;

/* Element-wise operations of miopenOpTensor. */
typedef enum
{
    miopenTensorOpAdd = 0,
    miopenTensorOpMul = 1,
    miopenTensorOpMin = 2,
    miopenTensorOpMax = 3,
} miopenTensorOp_t;

/* Convolution modes. GroupConv and Depthwise are legacy spellings of miopenConvolution (the
 * group count comes from miopenSetConvolutionGroupCount); they are accepted and mapped to it. */
typedef enum
{
    miopenConvolution = 0,
    miopenTranspose   = 1,
    miopenGroupConv   = 2,
    miopenDepthwise   = 3,
} miopenConvolutionMode_t;

typedef enum
{
    miopenPaddingDefault = 0,
    miopenPaddingSame    = 1,
    miopenPaddingValid   = 2,
} miopenPaddingMode_t;

typedef enum
{
    miopenPoolingMax              = 0,
    miopenPoolingAverage          = 1,
    miopenPoolingAverageInclusive = 2,
} miopenPoolingMode_t;

typedef enum
{
    miopenPoolingWorkspaceIndexMask  = 0,
    miopenPoolingWorkspaceIndexImage = 1,
} miopenPoolingWorkspaceIndexMode_t;

typedef enum
{
    miopenLRNWithinChannel = 0,
    miopenLRNCrossChannel  = 1,
} miopenLRNMode_t;

typedef enum
{
    miopenBNPerActivation = 0,
    miopenBNSpatial       = 1,
} miopenBatchNormMode_t;

typedef enum
{
    miopenActivationPASTHRU     = 0,
    miopenActivationLOGISTIC    = 1,
    miopenActivationTANH        = 2,
    miopenActivationRELU        = 3,
    miopenActivationSOFTRELU    = 4,
    miopenActivationABS         = 5,
    miopenActivationPOWER       = 6,
    miopenActivationCLIPPEDRELU = 7,
    miopenActivationLEAKYRELU   = 8,
    miopenActivationELU         = 9,
} miopenActivationMode_t;

typedef enum
{
    MIOPEN_SOFTMAX_FAST     = 0,
    MIOPEN_SOFTMAX_ACCURATE = 1,
    MIOPEN_SOFTMAX_LOG      = 2,
} miopenSoftmaxAlgorithm_t;

typedef enum
{
    MIOPEN_SOFTMAX_MODE_INSTANCE = 0,
    MIOPEN_SOFTMAX_MODE_CHANNEL  = 1,
} miopenSoftmaxMode_t;

/* Convolution descriptor attributes (miopenSetConvolutionAttribute). */
typedef enum
{
    MIOPEN_CONVOLUTION_ATTRIB_FP16_ALT_IMPL = 0, /* -1 default, 0 off, 1 on; no effect on a CPU */
    MIOPEN_CONVOLUTION_ATTRIB_DETERMINISTIC = 1, /* 0 (default) or 1: bitwise-reproducible solvers only */
#ifdef MIOPEN_BETA_API
    MIOPEN_CONVOLUTION_ATTRIB_FP8_ROUNDING_MODE = 2,
#endif
    MIOPEN_CONVOLUTION_ATTRIB_MATH_TYPE = 3, /* a miopenMathType_t */
} miopenConvolutionAttrib_t;

typedef enum
{
    miopenMathDefault  = 0,
    miopenMathPedantic = 1,
} miopenMathType_t;

/* ---------------------------------------------------------------------------------------------
 * Tensor
 *
 * A tensor descriptor holds a data type, 1 to 8 lengths and their strides (in elements). Lengths
 * must be >= 1 and strides >= 1; the element space (1 + sum((len-1)*stride)) times the element
 * size must fit in size_t, else BadParm.
 * ------------------------------------------------------------------------------------------- */

MIOPEN_EXPORT miopenStatus_t miopenCreateTensorDescriptor(miopenTensorDescriptor_t* tensorDesc);

/* Packed NCHW 4-D tensor. */
MIOPEN_EXPORT miopenStatus_t miopenSet4dTensorDescriptor(
    miopenTensorDescriptor_t tensorDesc, miopenDataType_t dataType, int n, int c, int h, int w);

/* Packed N-D tensor in the given layout. `lens` are always given in N, C, (D,) H, W order; the
 * layout decides the strides. NCHW/NHWC need 4 lengths, NCDHW/NDHWC 5. Other layouts: BadParm. */
MIOPEN_EXPORT miopenStatus_t
miopenSetNdTensorDescriptorWithLayout(miopenTensorDescriptor_t tensorDesc,
                                      miopenDataType_t dataType,
                                      miopenTensorLayout_t tensorLayout,
                                      const int* lens,
                                      int num_lens);

/* 4-D tensor with explicit strides. */
MIOPEN_EXPORT miopenStatus_t miopenSet4dTensorDescriptorEx(miopenTensorDescriptor_t tensorDesc,
                                                           miopenDataType_t dataType,
                                                           int n,
                                                           int c,
                                                           int h,
                                                           int w,
                                                           int nStride,
                                                           int cStride,
                                                           int hStride,
                                                           int wStride);

/* Reads back a 4-D descriptor. Every output pointer must be non-null (else BadParm); a
 * descriptor of another rank gives BadParm. */
MIOPEN_EXPORT miopenStatus_t miopenGet4dTensorDescriptor(miopenTensorDescriptor_t tensorDesc,
                                                         miopenDataType_t* dataType,
                                                         int* n,
                                                         int* c,
                                                         int* h,
                                                         int* w,
                                                         int* nStride,
                                                         int* cStride,
                                                         int* hStride,
                                                         int* wStride);

/* N-D tensor (1 <= nbDims <= 8). A null stridesA means packed (row-major) strides. */
MIOPEN_EXPORT miopenStatus_t miopenSetTensorDescriptor(miopenTensorDescriptor_t tensorDesc,
                                                       miopenDataType_t dataType,
                                                       int nbDims,
                                                       const int* dimsA,
                                                       const int* stridesA);

#ifdef MIOPEN_BETA_API
/* As miopenSetTensorDescriptor, with 64-bit lengths and strides. */
MIOPEN_EXPORT miopenStatus_t miopenSetTensorDescriptorV2(miopenTensorDescriptor_t tensorDesc,
                                                         miopenDataType_t dataType,
                                                         int nbDims,
                                                         const size_t* dimsA,
                                                         const size_t* stridesA);
#endif

#ifdef MIOPEN_BETA_API
/* Records a cast type on the descriptor (used by 8-bit float convolutions upstream). */
MIOPEN_EXPORT miopenStatus_t miopenSetTensorCastType(miopenTensorDescriptor_t tensorDesc,
                                                     miopenDataType_t cast_type);
#endif

/* Number of dimensions of the descriptor. */
MIOPEN_EXPORT miopenStatus_t miopenGetTensorDescriptorSize(miopenTensorDescriptor_t tensorDesc,
                                                           int* size);

/* Reads data type, lengths and strides. dimsA and stridesA must hold GetTensorDescriptorSize
 * entries; either may be null to skip it. */
MIOPEN_EXPORT miopenStatus_t miopenGetTensorDescriptor(miopenTensorDescriptor_t tensorDesc,
                                                       miopenDataType_t* dataType,
                                                       int* dimsA,
                                                       int* stridesA);

MIOPEN_EXPORT miopenStatus_t miopenDestroyTensorDescriptor(miopenTensorDescriptor_t tensorDesc);

MIOPEN_EXPORT miopenStatus_t
miopenCreateSeqTensorDescriptor(miopenSeqTensorDescriptor_t* tensorDesc);

MIOPEN_EXPORT miopenStatus_t
miopenDestroySeqTensorDescriptor(miopenSeqTensorDescriptor_t tensorDesc);

/* C = op(alpha1 * A, alpha2 * B) + beta * C, element-wise. B is broadcast: each of its lengths
 * must equal C's or be 1. A and C must have the same lengths; all three the same data type.
 * Scalars are float for half/bfloat16/float tensors and double for double tensors. */
MIOPEN_EXPORT miopenStatus_t miopenOpTensor(miopenHandle_t handle,
                                            miopenTensorOp_t tensorOp,
                                            const void* alpha1,
                                            const miopenTensorDescriptor_t aDesc,
                                            const void* A,
                                            const void* alpha2,
                                            const miopenTensorDescriptor_t bDesc,
                                            const void* B,
                                            const void* beta,
                                            const miopenTensorDescriptor_t cDesc,
                                            void* C);

/* y[i] = *alpha for every element the descriptor addresses (alpha has y's element type). */
MIOPEN_EXPORT miopenStatus_t miopenSetTensor(miopenHandle_t handle,
                                             const miopenTensorDescriptor_t yDesc,
                                             void* y,
                                             const void* alpha);

/* y[i] *= *alpha for every element the descriptor addresses (alpha has y's element type). */
MIOPEN_EXPORT miopenStatus_t miopenScaleTensor(miopenHandle_t handle,
                                               const miopenTensorDescriptor_t yDesc,
                                               void* y,
                                               const void* alpha);

/* Bytes spanned by the descriptor (element space times element size). */
MIOPEN_EXPORT miopenStatus_t miopenGetTensorNumBytes(miopenTensorDescriptor_t tensorDesc,
                                                     size_t* numBytes);

/* y = alpha * x + beta * y with x and y of equal lengths and any strides (layout changes) and,
 * between floating types, any data types (dtype changes; scalars are float). */
MIOPEN_EXPORT miopenStatus_t miopenTransformTensor(miopenHandle_t handle,
                                                   const void* alpha,
                                                   const miopenTensorDescriptor_t xDesc,
                                                   const void* x,
                                                   const void* beta,
                                                   const miopenTensorDescriptor_t yDesc,
                                                   void* y);

/* ---------------------------------------------------------------------------------------------
 * Convolution
 *
 * Tensors: x (N, C, spatial...), w (K, C/groups, filter...), y (N, K, out...) in NCHW/NCDHW or
 * NHWC/NDHWC layouts; 1 or 2 or 3 spatial dimensions. For transpose mode the filter is
 * (C, K/groups, filter...) and the roles of forward and backward-data exchange.
 * ------------------------------------------------------------------------------------------- */

MIOPEN_EXPORT miopenStatus_t
miopenCreateConvolutionDescriptor(miopenConvolutionDescriptor_t* convDesc);

/* 2-D descriptor. pads >= 0, strides >= 1, dilations >= 1, else BadParm. */
MIOPEN_EXPORT miopenStatus_t miopenInitConvolutionDescriptor(miopenConvolutionDescriptor_t convDesc,
                                                             miopenConvolutionMode_t c_mode,
                                                             int pad_h,
                                                             int pad_w,
                                                             int stride_h,
                                                             int stride_w,
                                                             int dilation_h,
                                                             int dilation_w);

/* N-D descriptor with spatialDim in 1..3 (arrays of spatialDim entries). */
MIOPEN_EXPORT miopenStatus_t
miopenInitConvolutionNdDescriptor(miopenConvolutionDescriptor_t convDesc,
                                  int spatialDim,
                                  const int* padA,
                                  const int* strideA,
                                  const int* dilationA,
                                  miopenConvolutionMode_t c_mode);

MIOPEN_EXPORT miopenStatus_t miopenGetConvolutionSpatialDim(miopenConvolutionDescriptor_t convDesc,
                                                            int* spatialDim);

/* Reads a 2-D descriptor (BadParm for another spatial rank). */
MIOPEN_EXPORT miopenStatus_t miopenGetConvolutionDescriptor(miopenConvolutionDescriptor_t convDesc,
                                                            miopenConvolutionMode_t* c_mode,
                                                            int* pad_h,
                                                            int* pad_w,
                                                            int* stride_h,
                                                            int* stride_w,
                                                            int* dilation_h,
                                                            int* dilation_w);

/* Reads an N-D descriptor. requestedSpatialDim may be 0 with null arrays to query the rank only;
 * a request above the actual rank gives BadParm. Arrays receive requestedSpatialDim entries. */
MIOPEN_EXPORT miopenStatus_t
miopenGetConvolutionNdDescriptor(miopenConvolutionDescriptor_t convDesc,
                                 int requestedSpatialDim,
                                 int* spatialDim,
                                 int* padA,
                                 int* strideA,
                                 int* dilationA,
                                 miopenConvolutionMode_t* c_mode);

MIOPEN_EXPORT miopenStatus_t miopenGetConvolutionGroupCount(miopenConvolutionDescriptor_t convDesc,
                                                            int* groupCount);

/* groupCount >= 1. */
MIOPEN_EXPORT miopenStatus_t miopenSetConvolutionGroupCount(miopenConvolutionDescriptor_t convDesc,
                                                            int groupCount);

/* Output padding of a transpose convolution; each value must be >= 0 and < its stride (checked
 * when the output size is computed). */
MIOPEN_EXPORT miopenStatus_t
miopenSetTransposeConvOutputPadding(miopenConvolutionDescriptor_t convDesc, int adj_h, int adj_w);

MIOPEN_EXPORT miopenStatus_t miopenSetTransposeConvNdOutputPadding(
    miopenConvolutionDescriptor_t convDesc, int spatialDim, const int* adjA);

/* Output shape of a 2-D forward convolution of input x with filter w. */
MIOPEN_EXPORT miopenStatus_t
miopenGetConvolutionForwardOutputDim(miopenConvolutionDescriptor_t convDesc,
                                     const miopenTensorDescriptor_t inputTensorDesc,
                                     const miopenTensorDescriptor_t filterDesc,
                                     int* n,
                                     int* c,
                                     int* h,
                                     int* w);

/* Output shape of an N-D forward convolution; outputTensorDimA receives spatialDim + 2 entries. */
MIOPEN_EXPORT miopenStatus_t
miopenGetConvolutionNdForwardOutputDim(miopenConvolutionDescriptor_t convDesc,
                                       const miopenTensorDescriptor_t inputTensorDesc,
                                       const miopenTensorDescriptor_t filterDesc,
                                       int* nDim,
                                       int* outputTensorDimA);

MIOPEN_EXPORT miopenStatus_t
miopenDestroyConvolutionDescriptor(miopenConvolutionDescriptor_t convDesc);

/* Attributes: FP16_ALT_IMPL in {-1, 0, 1}, DETERMINISTIC in {0, 1}, MATH_TYPE a miopenMathType_t.
 * Other attributes or values: BadParm. */
MIOPEN_EXPORT miopenStatus_t miopenSetConvolutionAttribute(miopenConvolutionDescriptor_t convDesc,
                                                           const miopenConvolutionAttrib_t attr,
                                                           int value);

MIOPEN_EXPORT miopenStatus_t miopenGetConvolutionAttribute(miopenConvolutionDescriptor_t convDesc,
                                                           const miopenConvolutionAttrib_t attr,
                                                           int* value);

/* Find modes (public since MIOpen 3.4). On this CPU implementation: Normal benchmarks every
 * applicable solver; Fast and the hybrids use a find-db hit when there is one and otherwise the
 * heuristic choice (Hybrid and DynamicHybrid benchmark on a miss). */
typedef enum
{
    miopenConvolutionFindModeNormal          = 1,
    miopenConvolutionFindModeFast            = 2,
    miopenConvolutionFindModeHybrid          = 3,
    miopenConvolutionFindModeReserved_4      = 4,
    miopenConvolutionFindModeDynamicHybrid   = 5,
    miopenConvolutionFindModeTrustVerify     = 6,
    miopenConvolutionFindModeTrustVerifyFull = 7,
    miopenConvolutionFindModeDefault         = miopenConvolutionFindModeDynamicHybrid
} miopenConvolutionFindMode_t;

/* Sets / gets the descriptor's find mode (MIOPEN_FIND_MODE, when set, overrides it). */
MIOPEN_EXPORT miopenStatus_t miopenSetConvolutionFindMode(miopenConvolutionDescriptor_t convDesc,
                                                          miopenConvolutionFindMode_t findMode);
MIOPEN_EXPORT miopenStatus_t miopenGetConvolutionFindMode(
    const miopenConvolutionDescriptor_t convDesc, miopenConvolutionFindMode_t* findMode);

typedef enum
{
    miopenConvolutionFwdAlgoGEMM         = 0,
    miopenConvolutionFwdAlgoDirect       = 1,
    miopenConvolutionFwdAlgoFFT          = 2,
    miopenConvolutionFwdAlgoWinograd     = 3,
    miopenConvolutionFwdAlgoImplicitGEMM = 5,
} miopenConvFwdAlgorithm_t;

typedef enum
{
    miopenConvolutionBwdWeightsAlgoGEMM         = 0,
    miopenConvolutionBwdWeightsAlgoDirect       = 1,
    miopenConvolutionBwdWeightsAlgoWinograd     = 3,
    miopenConvolutionBwdWeightsAlgoImplicitGEMM = 5,
} miopenConvBwdWeightsAlgorithm_t;

typedef enum
{
    miopenConvolutionBwdDataAlgoGEMM         = 0,
    miopenConvolutionBwdDataAlgoDirect       = 1,
    miopenConvolutionBwdDataAlgoFFT          = 2,
    miopenConvolutionBwdDataAlgoWinograd     = 3,
    miopenTransposeBwdDataAlgoGEMM           = 4, /* deprecated */
    miopenConvolutionBwdDataAlgoImplicitGEMM = 5,
} miopenConvBwdDataAlgorithm_t;

typedef enum
{
    miopenConvolutionAlgoGEMM         = 0,
    miopenConvolutionAlgoDirect       = 1,
    miopenConvolutionAlgoFFT          = 2,
    miopenConvolutionAlgoWinograd     = 3,
    miopenConvolutionAlgoImplicitGEMM = 5,
} miopenConvAlgorithm_t;

/* One Find result (16 bytes: the algorithm at offset 0, time at 4, workspace bytes at 8). */
typedef struct
{
    union
    {
        miopenConvFwdAlgorithm_t fwd_algo;
        miopenConvBwdWeightsAlgorithm_t bwd_weights_algo;
        miopenConvBwdDataAlgorithm_t bwd_data_algo;
    };
    float time;    /* milliseconds measured by Find */
    size_t memory; /* workspace bytes the algorithm needs */
} miopenConvAlgoPerf_t;

/* One immediate-mode solution (32 bytes). */
typedef struct
{
    float time;                      /* milliseconds: measured (find-db) or estimated */
    size_t workspace_size;           /* workspace bytes */
    uint64_t solution_id;            /* stable solver id, never 0 */
    miopenConvAlgorithm_t algorithm; /* algorithm family of the solver */
} miopenConvSolution_t;

/* Immediate mode. Argument order: forward (w, x, conv, y); backward data (dy, w, conv, dx);
 * backward weights (dy, x, conv, dw). GetSolutionCount reports the number of applicable solvers;
 * GetSolution writes up to maxSolutionCount of them, fastest first; an id that is unknown or not
 * applicable to the problem gives BadParm; a workspace smaller than the solution needs gives
 * BadParm. */
MIOPEN_EXPORT miopenStatus_t
miopenConvolutionForwardGetSolutionCount(miopenHandle_t handle,
                                         const miopenTensorDescriptor_t wDesc,
                                         const miopenTensorDescriptor_t xDesc,
                                         const miopenConvolutionDescriptor_t convDesc,
                                         const miopenTensorDescriptor_t yDesc,
                                         size_t* solutionCount);

MIOPEN_EXPORT miopenStatus_t
miopenConvolutionForwardGetSolution(miopenHandle_t handle,
                                    const miopenTensorDescriptor_t wDesc,
                                    const miopenTensorDescriptor_t xDesc,
                                    const miopenConvolutionDescriptor_t convDesc,
                                    const miopenTensorDescriptor_t yDesc,
                                    const size_t maxSolutionCount,
                                    size_t* solutionCount,
                                    miopenConvSolution_t* solutions);

MIOPEN_EXPORT miopenStatus_t
miopenConvolutionForwardGetSolutionWorkspaceSize(miopenHandle_t handle,
                                                 const miopenTensorDescriptor_t wDesc,
                                                 const miopenTensorDescriptor_t xDesc,
                                                 const miopenConvolutionDescriptor_t convDesc,
                                                 const miopenTensorDescriptor_t yDesc,
                                                 const uint64_t solution_id,
                                                 size_t* workSpaceSize);

MIOPEN_EXPORT miopenStatus_t
miopenConvolutionForwardCompileSolution(miopenHandle_t handle,
                                        const miopenTensorDescriptor_t wDesc,
                                        const miopenTensorDescriptor_t xDesc,
                                        const miopenConvolutionDescriptor_t convDesc,
                                        const miopenTensorDescriptor_t yDesc,
                                        const uint64_t solution_id);

MIOPEN_EXPORT miopenStatus_t
miopenConvolutionForwardImmediate(miopenHandle_t handle,
                                  const miopenTensorDescriptor_t wDesc,
                                  const void* w,
                                  const miopenTensorDescriptor_t xDesc,
                                  const void* x,
                                  const miopenConvolutionDescriptor_t convDesc,
                                  const miopenTensorDescriptor_t yDesc,
                                  void* y,
                                  void* workSpace,
                                  size_t workSpaceSize,
                                  const uint64_t solution_id);

MIOPEN_EXPORT miopenStatus_t
miopenConvolutionBackwardDataGetSolutionCount(miopenHandle_t handle,
                                              const miopenTensorDescriptor_t dyDesc,
                                              const miopenTensorDescriptor_t wDesc,
                                              const miopenConvolutionDescriptor_t convDesc,
                                              const miopenTensorDescriptor_t dxDesc,
                                              size_t* solutionCount);

MIOPEN_EXPORT miopenStatus_t
miopenConvolutionBackwardDataGetSolution(miopenHandle_t handle,
                                         const miopenTensorDescriptor_t dyDesc,
                                         const miopenTensorDescriptor_t wDesc,
                                         const miopenConvolutionDescriptor_t convDesc,
                                         const miopenTensorDescriptor_t dxDesc,
                                         const size_t maxSolutionCount,
                                         size_t* solutionCount,
                                         miopenConvSolution_t* solutions);

MIOPEN_EXPORT miopenStatus_t
miopenConvolutionBackwardDataGetSolutionWorkspaceSize(miopenHandle_t handle,
                                                      const miopenTensorDescriptor_t dyDesc,
                                                      const miopenTensorDescriptor_t wDesc,
                                                      const miopenConvolutionDescriptor_t convDesc,
                                                      const miopenTensorDescriptor_t dxDesc,
                                                      const uint64_t solution_id,
                                                      size_t* workSpaceSize);

MIOPEN_EXPORT miopenStatus_t
miopenConvolutionBackwardDataCompileSolution(miopenHandle_t handle,
                                             const miopenTensorDescriptor_t dyDesc,
                                             const miopenTensorDescriptor_t wDesc,
                                             const miopenConvolutionDescriptor_t convDesc,
                                             const miopenTensorDescriptor_t dxDesc,
                                             const uint64_t solution_id);

MIOPEN_EXPORT miopenStatus_t
miopenConvolutionBackwardDataImmediate(miopenHandle_t handle,
                                       const miopenTensorDescriptor_t dyDesc,
                                       const void* dy,
                                       const miopenTensorDescriptor_t wDesc,
                                       const void* w,
                                       const miopenConvolutionDescriptor_t convDesc,
                                       const miopenTensorDescriptor_t dxDesc,
                                       void* dx,
                                       void* workSpace,
                                       size_t workSpaceSize,
                                       const uint64_t solution_id);

MIOPEN_EXPORT miopenStatus_t
miopenConvolutionBackwardWeightsGetSolutionCount(miopenHandle_t handle,
                                                 const miopenTensorDescriptor_t dyDesc,
                                                 const miopenTensorDescriptor_t xDesc,
                                                 const miopenConvolutionDescriptor_t convDesc,
                                                 const miopenTensorDescriptor_t dwDesc,
                                                 size_t* solutionCount);

MIOPEN_EXPORT miopenStatus_t
miopenConvolutionBackwardWeightsGetSolution(miopenHandle_t handle,
                                            const miopenTensorDescriptor_t dyDesc,
                                            const miopenTensorDescriptor_t xDesc,
                                            const miopenConvolutionDescriptor_t convDesc,
                                            const miopenTensorDescriptor_t dwDesc,
                                            const size_t maxSolutionCount,
                                            size_t* solutionCount,
                                            miopenConvSolution_t* solutions);

MIOPEN_EXPORT miopenStatus_t miopenConvolutionBackwardWeightsGetSolutionWorkspaceSize(
    miopenHandle_t handle,
    const miopenTensorDescriptor_t dyDesc,
    const miopenTensorDescriptor_t xDesc,
    const miopenConvolutionDescriptor_t convDesc,
    const miopenTensorDescriptor_t dwDesc,
    const uint64_t solution_id,
    size_t* workSpaceSize);

MIOPEN_EXPORT miopenStatus_t
miopenConvolutionBackwardWeightsCompileSolution(miopenHandle_t handle,
                                                const miopenTensorDescriptor_t dyDesc,
                                                const miopenTensorDescriptor_t xDesc,
                                                const miopenConvolutionDescriptor_t convDesc,
                                                const miopenTensorDescriptor_t dwDesc,
                                                const uint64_t solution_id);

MIOPEN_EXPORT miopenStatus_t
miopenConvolutionBackwardWeightsImmediate(miopenHandle_t handle,
                                          const miopenTensorDescriptor_t dyDesc,
                                          const void* dy,
                                          const miopenTensorDescriptor_t xDesc,
                                          const void* x,
                                          const miopenConvolutionDescriptor_t convDesc,
                                          const miopenTensorDescriptor_t dwDesc,
                                          void* dw,
                                          void* workSpace,
                                          size_t workSpaceSize,
                                          const uint64_t solution_id);

/* Workspace a Find or execute call may need: the maximum over the applicable solvers. */
MIOPEN_EXPORT miopenStatus_t
miopenConvolutionForwardGetWorkSpaceSize(miopenHandle_t handle,
                                         const miopenTensorDescriptor_t wDesc,
                                         const miopenTensorDescriptor_t xDesc,
                                         const miopenConvolutionDescriptor_t convDesc,
                                         const miopenTensorDescriptor_t yDesc,
                                         size_t* workSpaceSize);

/* Benchmarks the applicable solvers within the given workspace and writes up to
 * requestAlgoCount results (one per algorithm, fastest first). requestAlgoCount < 1 or a null
 * returnedAlgoCount / perfResults gives BadParm. y is used as scratch output. Results are
 * recorded in the user find-db. */
MIOPEN_EXPORT miopenStatus_t
miopenFindConvolutionForwardAlgorithm(miopenHandle_t handle,
                                      const miopenTensorDescriptor_t xDesc,
                                      const void* x,
                                      const miopenTensorDescriptor_t wDesc,
                                      const void* w,
                                      const miopenConvolutionDescriptor_t convDesc,
                                      const miopenTensorDescriptor_t yDesc,
                                      void* y,
                                      const int requestAlgoCount,
                                      int* returnedAlgoCount,
                                      miopenConvAlgoPerf_t* perfResults,
                                      void* workSpace,
                                      size_t workSpaceSize,
                                      bool exhaustiveSearch);

/* y = alpha * conv(x, w) + beta * y, with the best solver of the requested algorithm family.
 * alpha and beta are float (double for double tensors). */
MIOPEN_EXPORT miopenStatus_t miopenConvolutionForward(miopenHandle_t handle,
                                                      const void* alpha,
                                                      const miopenTensorDescriptor_t xDesc,
                                                      const void* x,
                                                      const miopenTensorDescriptor_t wDesc,
                                                      const void* w,
                                                      const miopenConvolutionDescriptor_t convDesc,
                                                      miopenConvFwdAlgorithm_t algo,
                                                      const void* beta,
                                                      const miopenTensorDescriptor_t yDesc,
                                                      void* y,
                                                      void* workSpace,
                                                      size_t workSpaceSize);

/* y = alpha * b + beta * y, b of shape (1, K, 1, 1[, 1]) broadcast over y. */
MIOPEN_EXPORT miopenStatus_t miopenConvolutionForwardBias(miopenHandle_t handle,
                                                          const void* alpha,
                                                          const miopenTensorDescriptor_t bDesc,
                                                          const void* b,
                                                          const void* beta,
                                                          const miopenTensorDescriptor_t yDesc,
                                                          void* y);

MIOPEN_EXPORT miopenStatus_t
miopenConvolutionBackwardDataGetWorkSpaceSize(miopenHandle_t handle,
                                              const miopenTensorDescriptor_t dyDesc,
                                              const miopenTensorDescriptor_t wDesc,
                                              const miopenConvolutionDescriptor_t convDesc,
                                              const miopenTensorDescriptor_t dxDesc,
                                              size_t* workSpaceSize);

MIOPEN_EXPORT miopenStatus_t
miopenFindConvolutionBackwardDataAlgorithm(miopenHandle_t handle,
                                           const miopenTensorDescriptor_t dyDesc,
                                           const void* dy,
                                           const miopenTensorDescriptor_t wDesc,
                                           const void* w,
                                           const miopenConvolutionDescriptor_t convDesc,
                                           const miopenTensorDescriptor_t dxDesc,
                                           void* dx,
                                           const int requestAlgoCount,
                                           int* returnedAlgoCount,
                                           miopenConvAlgoPerf_t* perfResults,
                                           void* workSpace,
                                           size_t workSpaceSize,
                                           bool exhaustiveSearch);

/* dx = alpha * conv_bwd_data(dy, w) + beta * dx. */
MIOPEN_EXPORT miopenStatus_t
miopenConvolutionBackwardData(miopenHandle_t handle,
                              const void* alpha,
                              const miopenTensorDescriptor_t dyDesc,
                              const void* dy,
                              const miopenTensorDescriptor_t wDesc,
                              const void* w,
                              const miopenConvolutionDescriptor_t convDesc,
                              miopenConvBwdDataAlgorithm_t algo,
                              const void* beta,
                              const miopenTensorDescriptor_t dxDesc,
                              void* dx,
                              void* workSpace,
                              size_t workSpaceSize);

MIOPEN_EXPORT miopenStatus_t
miopenConvolutionBackwardWeightsGetWorkSpaceSize(miopenHandle_t handle,
                                                 const miopenTensorDescriptor_t dyDesc,
                                                 const miopenTensorDescriptor_t xDesc,
                                                 const miopenConvolutionDescriptor_t convDesc,
                                                 const miopenTensorDescriptor_t dwDesc,
                                                 size_t* workSpaceSize);

MIOPEN_EXPORT miopenStatus_t
miopenFindConvolutionBackwardWeightsAlgorithm(miopenHandle_t handle,
                                              const miopenTensorDescriptor_t dyDesc,
                                              const void* dy,
                                              const miopenTensorDescriptor_t xDesc,
                                              const void* x,
                                              const miopenConvolutionDescriptor_t convDesc,
                                              const miopenTensorDescriptor_t dwDesc,
                                              void* dw,
                                              const int requestAlgoCount,
                                              int* returnedAlgoCount,
                                              miopenConvAlgoPerf_t* perfResults,
                                              void* workSpace,
                                              size_t workSpaceSize,
                                              bool exhaustiveSearch);

/* dw = alpha * conv_bwd_weights(dy, x) + beta * dw. */
MIOPEN_EXPORT miopenStatus_t
miopenConvolutionBackwardWeights(miopenHandle_t handle,
                                 const void* alpha,
                                 const miopenTensorDescriptor_t dyDesc,
                                 const void* dy,
                                 const miopenTensorDescriptor_t xDesc,
                                 const void* x,
                                 const miopenConvolutionDescriptor_t convDesc,
                                 miopenConvBwdWeightsAlgorithm_t algo,
                                 const void* beta,
                                 const miopenTensorDescriptor_t dwDesc,
                                 void* dw,
                                 void* workSpace,
                                 size_t workSpaceSize);

/* db = alpha * sum over N and spatial of dy + beta * db; db of shape (1, K, 1, 1[, 1]). */
MIOPEN_EXPORT miopenStatus_t miopenConvolutionBackwardBias(miopenHandle_t handle,
                                                           const void* alpha,
                                                           const miopenTensorDescriptor_t dyDesc,
                                                           const void* dy,
                                                           const void* beta,
                                                           const miopenTensorDescriptor_t dbDesc,
                                                           void* db);

/* ---------------------------------------------------------------------------------------------
 * Pooling, LRN, softmax
 * ------------------------------------------------------------------------------------------- */
/* @@POOLING_LRN_SOFTMAX@@ */

/* ---------------------------------------------------------------------------------------------
 * Activation, batch normalization, fusion
 * ------------------------------------------------------------------------------------------- */
/* @@ACTIVATION_BATCHNORM_FUSION@@ */

#ifdef __cplusplus
}
#endif

#ifdef __clang__
#pragma clang diagnostic pop
#endif

#endif /* MIOPEN_GUARD_MIOPEN_H_ */
