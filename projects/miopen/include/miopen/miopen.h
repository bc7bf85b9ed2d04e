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

/* hipDNN forwarding (MIOpen Public only; see docs/wrapper.md). Reports the last call on this
 * thread that MIOpen forwarded to hipDNN (MIOPEN_HIPDNN_FORWARDING=enabled): *hipdnnStatus
 * receives its hipDNN status as an integer (hipdnnStatus_t; 0 when it succeeded or when no call
 * on this thread was forwarded yet) and, when message is not null, *message a NUL-terminated
 * text (empty on success). The text is owned by the library and stays valid on this thread until
 * its next forwarded call. A call of the forwarding set served by MIOpen itself does not change
 * the record. Statuses: Success; BadParm (null hipdnnStatus). */
MIOPEN_EXPORT miopenStatus_t miopenGetLastForwardedError(int* hipdnnStatus, const char** message);

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
/* Pooling
 *
 * A pooling descriptor holds a mode (max, average excluding padding, average including padding),
 * a spatial rank (2 or 3) with one window length, padding and stride per spatial dimension, an
 * index type and a workspace index mode. Tensors are N, C, spatial... (4-D for 2-D pooling, 5-D
 * for 3-D pooling), of any strides (NCHW, NHWC, NCDHW, NDHWC, or others), in fp32, fp16 or bf16
 * (arithmetic in fp32). Output lengths per spatial dimension: max(1, (in + 2*pad - window) /
 * stride + 1) with integer division truncating (no ceil mode).
 *
 * Max pooling records, when asked (do_backward), one index per output element in a workspace of
 * index_type elements, laid out as a packed N, C, spatial... tensor of y's lengths:
 *  - miopenPoolingWorkspaceIndexMask: the position inside the window, row-major over the window
 *    (for 2-D: i_h * window_w + i_w, counted from the window's padded origin);
 *  - miopenPoolingWorkspaceIndexImage: the position inside the input image plane (or volume),
 *    row-major (for 2-D: h * W + w).
 * The first maximum in row-major window order wins; padded positions never win. A window that
 * holds no input element gives the lowest finite value of the type and index 0. The largest
 * index must be smaller than the index type's maximum, else miopenStatusUnknownError.
 * Both index modes work for 2-D and 3-D pooling (Mask in 3-D: i_d * window_h * window_w +
 * i_h * window_w + i_w). New descriptors: index type uint8, index mode Mask. */

/* Creates a pooling descriptor, owned by the caller until miopenDestroyPoolingDescriptor.
 * poolDesc null: BadParm. */
MIOPEN_EXPORT miopenStatus_t miopenCreatePoolingDescriptor(miopenPoolingDescriptor_t* poolDesc);

/* Sets the type of the indices max pooling writes. Unknown index_type: BadParm. */
MIOPEN_EXPORT miopenStatus_t miopenSetPoolingIndexType(miopenPoolingDescriptor_t poolDesc,
                                                       miopenIndexType_t index_type);

/* Reads the index type into *index_type (non-null, else BadParm). */
MIOPEN_EXPORT miopenStatus_t miopenGetPoolingIndexType(miopenPoolingDescriptor_t poolDesc,
                                                       miopenIndexType_t* index_type);

/* Sets the workspace index mode. Unknown mode: BadParm. */
MIOPEN_EXPORT miopenStatus_t miopenSetPoolingWorkSpaceIndexMode(
    miopenPoolingDescriptor_t poolDesc, miopenPoolingWorkspaceIndexMode_t workspace_index);

/* Reads the workspace index mode into *workspace_index (non-null, else BadParm). */
MIOPEN_EXPORT miopenStatus_t miopenGetPoolingWorkSpaceIndexMode(
    miopenPoolingDescriptor_t poolDesc, miopenPoolingWorkspaceIndexMode_t* workspace_index);

/* Sets a 2-D pooling. As upstream, this resets the index type to uint8 and the index mode to
 * Mask: set those after this call. Unknown mode, window or stride < 1, or padding < 0: BadParm,
 * and the descriptor is unchanged. */
MIOPEN_EXPORT miopenStatus_t miopenSet2dPoolingDescriptor(miopenPoolingDescriptor_t poolDesc,
                                                          miopenPoolingMode_t mode,
                                                          int windowHeight,
                                                          int windowWidth,
                                                          int pad_h,
                                                          int pad_w,
                                                          int stride_h,
                                                          int stride_w);

/* Reads a 2-D pooling descriptor. Every output pointer non-null, else BadParm; a descriptor
 * never set: NotInitialized; a 3-D one: BadParm. */
MIOPEN_EXPORT miopenStatus_t miopenGet2dPoolingDescriptor(const miopenPoolingDescriptor_t poolDesc,
                                                          miopenPoolingMode_t* mode,
                                                          int* windowHeight,
                                                          int* windowWidth,
                                                          int* pad_h,
                                                          int* pad_w,
                                                          int* stride_h,
                                                          int* stride_w);

/* Output lengths of 2-D pooling of the 4-D tensorDesc. Outputs non-null, else BadParm; the
 * descriptor must be 2-D and the tensor 4-D (BadParm); either never set: NotInitialized. */
MIOPEN_EXPORT miopenStatus_t
miopenGetPoolingForwardOutputDim(const miopenPoolingDescriptor_t poolDesc,
                                 const miopenTensorDescriptor_t tensorDesc,
                                 int* n,
                                 int* c,
                                 int* h,
                                 int* w);

/* Sets an N-D pooling: nbDims is 2 or 3, the arrays hold nbDims values each (read only). As
 * upstream, this resets the index type to uint8 and the index mode to Mask (2-D) or Image (3-D).
 * Bad rank, null arrays, unknown mode, window or stride < 1, padding < 0: BadParm, descriptor
 * unchanged. */
MIOPEN_EXPORT miopenStatus_t miopenSetNdPoolingDescriptor(miopenPoolingDescriptor_t poolDesc,
                                                          const miopenPoolingMode_t mode,
                                                          int nbDims,
                                                          const int* windowDimA,
                                                          const int* padA,
                                                          const int* stridesA);

/* Reads an N-D pooling descriptor. Each output pointer may be null (then it is skipped); the
 * arrays receive min(nbDimsRequested, rank) values. nbDimsRequested < 0: BadParm; a descriptor
 * never set: NotInitialized. */
MIOPEN_EXPORT miopenStatus_t miopenGetNdPoolingDescriptor(const miopenPoolingDescriptor_t poolDesc,
                                                          int nbDimsRequested,
                                                          miopenPoolingMode_t* mode,
                                                          int* nbDims,
                                                          int* windowDimA,
                                                          int* padA,
                                                          int* stridesA);

/* Output lengths (N, C, spatial...) of pooling tensorDesc into tensorDimArr[0..dims). dims must
 * equal the tensor's rank, which must be the descriptor's rank + 2 (BadParm); tensorDimArr
 * non-null (BadParm). */
MIOPEN_EXPORT miopenStatus_t
miopenGetPoolingNdForwardOutputDim(const miopenPoolingDescriptor_t poolDesc,
                                   const miopenTensorDescriptor_t tensorDesc,
                                   int dims,
                                   int* tensorDimArr);

/* Legacy workspace size: one byte per element of yDesc, whatever the mode and index type (as
 * upstream). Use miopenPoolingGetWorkSpaceSizeV2 for index types wider than uint8. */
MIOPEN_EXPORT miopenStatus_t miopenPoolingGetWorkSpaceSize(const miopenTensorDescriptor_t yDesc,
                                                           size_t* workSpaceSize);

/* Workspace size for the backward pass: elements of yDesc times the index type's size for max
 * pooling, 0 for the average modes. */
MIOPEN_EXPORT miopenStatus_t
miopenPoolingGetWorkSpaceSizeV2(const miopenPoolingDescriptor_t poolDesc,
                                const miopenTensorDescriptor_t yDesc,
                                size_t* workSpaceSize);

/* y = pool(x). alpha and beta point to floats and must be 1 and 0 (as upstream; other values
 * give UnknownError, null pointers BadParm). y's lengths must be the output lengths of x (BadParm),
 * x and y of one type (BadParm), fp32/fp16/bf16 (else NotImplemented). When do_backward is true
 * and the mode is max, the indices are written to workSpace, which must hold workSpaceSize >=
 * miopenPoolingGetWorkSpaceSizeV2 bytes (null or smaller: BadParm); otherwise workSpace is not
 * used. y must not overlap x (not checked); a y that addresses one element twice gives BadParm.
 * Nothing is written on failure. */
MIOPEN_EXPORT miopenStatus_t miopenPoolingForward(miopenHandle_t handle,
                                                  const miopenPoolingDescriptor_t poolDesc,
                                                  const void* alpha,
                                                  const miopenTensorDescriptor_t xDesc,
                                                  const void* x,
                                                  const void* beta,
                                                  const miopenTensorDescriptor_t yDesc,
                                                  void* y,
                                                  bool do_backward,
                                                  void* workSpace,
                                                  size_t workSpaceSize);

/* dx = gradient of pooling, dx fully overwritten. Max pooling routes each dy element to the input
 * position its saved index names (workSpace from a forward call with do_backward and the same
 * descriptor and shapes; non-null, else BadParm); indices that name no input position are
 * skipped. Average pooling spreads dy evenly over the window's input positions (dividing by the
 * window size for AverageInclusive, by the positions inside the input for Average). alpha and
 * beta as for miopenPoolingForward. y and x are not read (may be null); their descriptors must
 * match dyDesc and dxDesc in lengths (BadParm), and dy's lengths must be dx's output lengths. */
MIOPEN_EXPORT miopenStatus_t miopenPoolingBackward(miopenHandle_t handle,
                                                   const miopenPoolingDescriptor_t poolDesc,
                                                   const void* alpha,
                                                   const miopenTensorDescriptor_t yDesc,
                                                   const void* y,
                                                   const miopenTensorDescriptor_t dyDesc,
                                                   const void* dy,
                                                   const miopenTensorDescriptor_t xDesc,
                                                   const void* x,
                                                   const void* beta,
                                                   const miopenTensorDescriptor_t dxDesc,
                                                   void* dx,
                                                   void* workSpace);

/* Destroys a pooling descriptor. Null or not a pooling descriptor: BadParm. */
MIOPEN_EXPORT miopenStatus_t miopenDestroyPoolingDescriptor(miopenPoolingDescriptor_t poolDesc);

/* Local response normalization (LRN)
 *
 * For an element x of a 4-D N, C, H, W tensor (any strides), with rl = (lrnN - 1) / 2 and
 * ru = lrnN / 2:
 *   cross-channel:  scale = K + lrnAlpha / lrnN   * sum of x^2 over channels c-rl .. c+ru
 *   within-channel: scale = K + lrnAlpha / lrnN^2 * sum of x^2 over the window h-rl .. h+ru,
 *                   w-rl .. w+ru of its channel
 * (positions outside the tensor count as 0), and y = x * scale^(-lrnBeta). The gradient is
 *   dx = scale^(-lrnBeta) * dy - 2 * lrnAlpha * lrnBeta / area * x * sum(y * dy / scale)
 * with area lrnN (cross) or lrnN^2 (within) and the sum over the transposed window.
 * Data types fp32 and fp16 (arithmetic in fp32); bf16 and others give NotImplemented, as
 * upstream. As upstream, the alpha and beta scalars of the forward and backward calls are not
 * used (the output is overwritten) and may be null. Outputs must not overlap inputs (not
 * checked); an output that addresses one element twice gives BadParm. */

/* Creates an LRN descriptor, owned by the caller until miopenDestroyLRNDescriptor. */
MIOPEN_EXPORT miopenStatus_t miopenCreateLRNDescriptor(miopenLRNDescriptor_t* lrnDesc);

/* Sets the LRN parameters. Unknown mode or lrnN == 0: BadParm, descriptor unchanged. */
MIOPEN_EXPORT miopenStatus_t miopenSetLRNDescriptor(const miopenLRNDescriptor_t lrnDesc,
                                                    miopenLRNMode_t mode,
                                                    unsigned int lrnN,
                                                    double lrnAlpha,
                                                    double lrnBeta,
                                                    double lrnK);

/* Reads the LRN parameters; every output pointer non-null (else BadParm). Never set:
 * NotInitialized. */
MIOPEN_EXPORT miopenStatus_t miopenGetLRNDescriptor(const miopenLRNDescriptor_t lrnDesc,
                                                    miopenLRNMode_t* mode,
                                                    unsigned int* lrnN,
                                                    double* lrnAlpha,
                                                    double* lrnBeta,
                                                    double* lrnK);

/* Bytes of the workspace miopenLRNForward writes when do_backward is true (one float per
 * element): as upstream lengths[0] * strides[0] * sizeof(float), and never less than the element
 * count times sizeof(float). */
MIOPEN_EXPORT miopenStatus_t miopenLRNGetWorkSpaceSize(const miopenTensorDescriptor_t yDesc,
                                                       size_t* workSpaceSize);

/* y = LRN(x). x and y: 4-D, same lengths and type (BadParm). K == 0 gives UnknownError, as
 * upstream. When do_backward is true the scales are written to workSpace (non-null, of
 * miopenLRNGetWorkSpaceSize bytes; null: BadParm). */
MIOPEN_EXPORT miopenStatus_t miopenLRNForward(miopenHandle_t handle,
                                              const miopenLRNDescriptor_t lrnDesc,
                                              const void* alpha,
                                              const miopenTensorDescriptor_t xDesc,
                                              const void* x,
                                              const void* beta,
                                              const miopenTensorDescriptor_t yDesc,
                                              void* y,
                                              bool do_backward,
                                              void* workSpace);

/* dx = gradient of LRN, from y, dy, x and the workspace a forward call with do_backward wrote
 * (non-null, else BadParm). All four tensors 4-D with one type and one set of lengths (BadParm). */
MIOPEN_EXPORT miopenStatus_t miopenLRNBackward(miopenHandle_t handle,
                                               const miopenLRNDescriptor_t lrnDesc,
                                               const void* alpha,
                                               const miopenTensorDescriptor_t yDesc,
                                               const void* y,
                                               const miopenTensorDescriptor_t dyDesc,
                                               const void* dy,
                                               const miopenTensorDescriptor_t xDesc,
                                               const void* x,
                                               const void* beta,
                                               const miopenTensorDescriptor_t dxDesc,
                                               void* dx,
                                               const void* workSpace);

/* Destroys an LRN descriptor. Null or not an LRN descriptor: BadParm. */
MIOPEN_EXPORT miopenStatus_t miopenDestroyLRNDescriptor(miopenLRNDescriptor_t lrnDesc);

/* Softmax
 *
 * Tensors of rank 2 to 8 read as N, C, spatial...; mode INSTANCE normalizes over C and the
 * spatial dimensions of each n, mode CHANNEL over C at each (n, spatial position). Algorithms:
 * ACCURATE exp(x - max) / sum, FAST exp(x) / sum (no max subtraction: may overflow), LOG
 * x - max - log(sum exp(x - max)). Forward: y = alpha * softmax(x) + beta * y. Backward:
 * dx = alpha * g + beta * dx with g = y * (dy - sum(y * dy)) (ACCURATE, FAST) or
 * g = dy - exp(y) * sum(dy) (LOG, where y holds log-probabilities). alpha and beta point to
 * floats (null: BadParm); beta == 0 means the output is not read. Data types fp32, fp16, bf16
 * (arithmetic in fp32; others NotImplemented). Tensors of one call share lengths and type
 * (BadParm); strides are free; y may be x itself (in place), other overlaps are not supported;
 * an output that addresses one element twice gives BadParm. Rank < 2: BadParm. */

/* Softmax forward with upstream's defaults: ACCURATE, CHANNEL. */
MIOPEN_EXPORT miopenStatus_t miopenSoftmaxForward(miopenHandle_t handle,
                                                  const void* alpha,
                                                  const miopenTensorDescriptor_t xDesc,
                                                  const void* x,
                                                  const void* beta,
                                                  const miopenTensorDescriptor_t yDesc,
                                                  void* y);

/* Softmax backward with upstream's defaults: ACCURATE, CHANNEL. */
MIOPEN_EXPORT miopenStatus_t miopenSoftmaxBackward(miopenHandle_t handle,
                                                   const void* alpha,
                                                   const miopenTensorDescriptor_t yDesc,
                                                   const void* y,
                                                   const miopenTensorDescriptor_t dyDesc,
                                                   const void* dy,
                                                   const void* beta,
                                                   const miopenTensorDescriptor_t dxDesc,
                                                   void* dx);

/* Softmax forward with an explicit algorithm and mode (unknown values: BadParm). */
MIOPEN_EXPORT miopenStatus_t miopenSoftmaxForward_V2(miopenHandle_t handle,
                                                     const void* alpha,
                                                     const miopenTensorDescriptor_t xDesc,
                                                     const void* x,
                                                     const void* beta,
                                                     const miopenTensorDescriptor_t yDesc,
                                                     void* y,
                                                     miopenSoftmaxAlgorithm_t algorithm,
                                                     miopenSoftmaxMode_t mode);

/* Softmax backward with an explicit algorithm and mode (unknown values: BadParm). */
MIOPEN_EXPORT miopenStatus_t miopenSoftmaxBackward_V2(miopenHandle_t handle,
                                                      const void* alpha,
                                                      const miopenTensorDescriptor_t yDesc,
                                                      const void* y,
                                                      const miopenTensorDescriptor_t dyDesc,
                                                      const void* dy,
                                                      const void* beta,
                                                      const miopenTensorDescriptor_t dxDesc,
                                                      void* dx,
                                                      miopenSoftmaxAlgorithm_t algorithm,
                                                      miopenSoftmaxMode_t mode);

/* ---------------------------------------------------------------------------------------------
 * Activation, batch normalization, fusion
 * ------------------------------------------------------------------------------------------- */
/* Activation. Modes and their parameters (activAlpha = a, activBeta = b, activGamma = g):
 *   PASTHRU x; LOGISTIC 1/(1+e^-x); TANH b*tanh(a*x); RELU max(0,x); SOFTRELU log(1+e^x);
 *   ABS |x|; POWER (a+b*x)^g, 0 where a+b*x <= FLT_EPSILON; CLIPPEDRELU min(a, max(0,x));
 *   LEAKYRELU x > 0 ? x : a*x; ELU x > 0 ? x : a*(e^x - 1).
 * Backward uses upstream's derivatives (from x or y as upstream does), multiplied by dy. For
 * POWER the result is dy*g*b*y/(a+b*x); upstream's kernel omits the dy factor, this library does
 * not. Tensors: half, bfloat16 or float (computed in float), any strides, equal lengths and
 * types. The blend alpha/beta (float, host memory) gives out = alpha*f + beta*out; upstream
 * accepts only alpha = 1, beta = 0, which behave identically here. */
MIOPEN_EXPORT miopenStatus_t miopenCreateActivationDescriptor(miopenActivationDescriptor_t* activDesc);

/* Statuses: Success; BadParm for a null or destroyed descriptor or a mode outside 0..9. */
MIOPEN_EXPORT miopenStatus_t miopenSetActivationDescriptor(const miopenActivationDescriptor_t activDesc,
                                                           miopenActivationMode_t mode,
                                                           double activAlpha,
                                                           double activBeta,
                                                           double activGamma);

/* Statuses: Success; BadParm for a null descriptor or a null output pointer; NotInitialized for
 * a descriptor never set (also from Forward/Backward). */
MIOPEN_EXPORT miopenStatus_t miopenGetActivationDescriptor(const miopenActivationDescriptor_t activDesc,
                                                           miopenActivationMode_t* mode,
                                                           double* activAlpha,
                                                           double* activBeta,
                                                           double* activGamma);

/* y = alpha * f(x) + beta * y. x and y may be the same buffer when their descriptors are equal.
 * Statuses: Success; BadParm (null argument, lengths or types differ, unsupported type);
 * NotInitialized (a tensor descriptor never set). */
MIOPEN_EXPORT miopenStatus_t miopenActivationForward(miopenHandle_t handle,
                                                     const miopenActivationDescriptor_t activDesc,
                                                     const void* alpha,
                                                     const miopenTensorDescriptor_t xDesc,
                                                     const void* x,
                                                     const void* beta,
                                                     const miopenTensorDescriptor_t yDesc,
                                                     void* y);

/* dx = alpha * f'(x, y) * dy + beta * dx. y is the forward output, x the forward input; all four
 * are required. Statuses as miopenActivationForward. */
MIOPEN_EXPORT miopenStatus_t miopenActivationBackward(miopenHandle_t handle,
                                                      const miopenActivationDescriptor_t activDesc,
                                                      const void* alpha,
                                                      const miopenTensorDescriptor_t yDesc,
                                                      const void* y,
                                                      const miopenTensorDescriptor_t dyDesc,
                                                      const void* dy,
                                                      const miopenTensorDescriptor_t xDesc,
                                                      const void* x,
                                                      const void* beta,
                                                      const miopenTensorDescriptor_t dxDesc,
                                                      void* dx);

/* Statuses: Success; BadParm for a null or already destroyed descriptor. */
MIOPEN_EXPORT miopenStatus_t miopenDestroyActivationDescriptor(miopenActivationDescriptor_t activDesc);

/* Batch normalization over dimension 1 (channels) of a tensor of rank 3..5, any strides (NCHW,
 * NHWC, NCDHW, NDHWC). Spatial mode: one statistic per channel over N and the spatial dims;
 * per-activation mode: one per (channel, spatial position) over N. x, y, dy, dx are half,
 * bfloat16 or float; the parameter tensors (scale, bias, means, variances) are float or the
 * type of x (upstream's mixed precision: half/bfloat16 data with float parameters). Computation
 * is in float with double accumulation. Parameter descriptors have x's rank and the lengths
 * miopenDeriveBNTensorDescriptor gives. alpha/beta pairs blend the data output
 * (out = alpha*result + beta*out); upstream accepts only 1 and 0. All pointers are borrowed for
 * the call. Statuses of the compute calls: Success; BadParm (null required argument, mode not
 * 0/1, rank, lengths or types inconsistent); NotInitialized (a descriptor never set). */

/* derivedBnDesc := float tensor 1xCx1x1[x1] (spatial) or 1xCxHxW[xD] (per-activation), packed.
 * Statuses: Success; BadParm (null, rank < 3, bad mode); NotInitialized (xDesc never set). */
MIOPEN_EXPORT miopenStatus_t miopenDeriveBNTensorDescriptor(miopenTensorDescriptor_t derivedBnDesc,
                                                            const miopenTensorDescriptor_t xDesc,
                                                            miopenBatchNormMode_t bn_mode);

/* y = scale * (x - mean) / sqrt(var + epsilon) + bias with the batch mean and biased variance.
 * resultRunningMean/Variance (read and written) become (1-f)*old + f*batch, f = expAvgFactor,
 * with the unbiased batch variance; resultSaveMean/InvVariance receive the batch mean and
 * 1/sqrt(var + epsilon). Each of those four may be null: that output is skipped. */
MIOPEN_EXPORT miopenStatus_t
miopenBatchNormalizationForwardTraining(miopenHandle_t handle,
                                        miopenBatchNormMode_t bn_mode,
                                        void* alpha,
                                        void* beta,
                                        const miopenTensorDescriptor_t xDesc,
                                        const void* x,
                                        const miopenTensorDescriptor_t yDesc,
                                        void* y,
                                        const miopenTensorDescriptor_t bnScaleBiasMeanVarDesc,
                                        void* bnScale,
                                        void* bnBias,
                                        double expAvgFactor,
                                        void* resultRunningMean,
                                        void* resultRunningVariance,
                                        double epsilon,
                                        void* resultSaveMean,
                                        void* resultSaveInvVariance);

/* As miopenBatchNormalizationForwardTraining with one descriptor per parameter tensor. */
MIOPEN_EXPORT miopenStatus_t
miopenBatchNormalizationForwardTraining_V2(miopenHandle_t handle,
                                           miopenBatchNormMode_t bn_mode,
                                           void* alpha,
                                           void* beta,
                                           const miopenTensorDescriptor_t xDesc,
                                           const void* x,
                                           const miopenTensorDescriptor_t yDesc,
                                           void* y,
                                           const miopenTensorDescriptor_t scaleDesc,
                                           const miopenTensorDescriptor_t biasVarDesc,
                                           const miopenTensorDescriptor_t savedMeanDesc,
                                           const miopenTensorDescriptor_t savedVarDesc,
                                           void* bnScale,
                                           void* bnBias,
                                           double expAvgFactor,
                                           void* resultRunningMean,
                                           void* resultRunningVariance,
                                           double epsilon,
                                           void* resultSaveMean,
                                           void* resultSaveInvVariance);

/* y = scale * (x - estimatedMean) / sqrt(estimatedVariance + epsilon) + bias. When either
 * estimate is null, the batch statistics of x are used instead (as upstream). */
MIOPEN_EXPORT miopenStatus_t
miopenBatchNormalizationForwardInference(miopenHandle_t handle,
                                         miopenBatchNormMode_t bn_mode,
                                         void* alpha,
                                         void* beta,
                                         const miopenTensorDescriptor_t xDesc,
                                         const void* x,
                                         const miopenTensorDescriptor_t yDesc,
                                         void* y,
                                         const miopenTensorDescriptor_t bnScaleBiasMeanVarDesc,
                                         void* bnScale,
                                         void* bnBias,
                                         void* estimatedMean,
                                         void* estimatedVariance,
                                         double epsilon);

/* As miopenBatchNormalizationForwardInference with one descriptor per parameter tensor. */
MIOPEN_EXPORT miopenStatus_t
miopenBatchNormalizationForwardInference_V2(miopenHandle_t handle,
                                            miopenBatchNormMode_t bn_mode,
                                            void* alpha,
                                            void* beta,
                                            const miopenTensorDescriptor_t xDesc,
                                            const void* x,
                                            const miopenTensorDescriptor_t yDesc,
                                            void* y,
                                            const miopenTensorDescriptor_t scaleDesc,
                                            const miopenTensorDescriptor_t biasDesc,
                                            const miopenTensorDescriptor_t estMeanDesc,
                                            const miopenTensorDescriptor_t estVarianceDesc,
                                            void* bnScale,
                                            void* bnBias,
                                            void* estimatedMean,
                                            void* estimatedVariance,
                                            double epsilon);

/* dx, dscale = sum(dy * xhat), dbias = sum(dy), xhat = (x - mean) * invStd. When both
 * savedMean and savedInvVariance are given they are used; otherwise the statistics are
 * recomputed from x with epsilon. alphaDataDiff/betaDataDiff blend dx, alphaParamDiff/
 * betaParamDiff blend the two parameter gradients. x, dy, bnScale, dx, resultBnScaleDiff and
 * resultBnBiasDiff are required. */
MIOPEN_EXPORT miopenStatus_t
miopenBatchNormalizationBackward(miopenHandle_t handle,
                                 miopenBatchNormMode_t bn_mode,
                                 const void* alphaDataDiff,
                                 const void* betaDataDiff,
                                 const void* alphaParamDiff,
                                 const void* betaParamDiff,
                                 const miopenTensorDescriptor_t xDesc,
                                 const void* x,
                                 const miopenTensorDescriptor_t dyDesc,
                                 const void* dy,
                                 const miopenTensorDescriptor_t dxDesc,
                                 void* dx,
                                 const miopenTensorDescriptor_t bnScaleBiasDiffDesc,
                                 const void* bnScale,
                                 void* resultBnScaleDiff,
                                 void* resultBnBiasDiff,
                                 double epsilon,
                                 const void* savedMean,
                                 const void* savedInvVariance);

/* As miopenBatchNormalizationBackward with one descriptor per parameter tensor (biasDesc
 * describes resultBnBiasDiff, scaleDesc bnScale and resultBnScaleDiff). */
MIOPEN_EXPORT miopenStatus_t
miopenBatchNormalizationBackward_V2(miopenHandle_t handle,
                                    miopenBatchNormMode_t bn_mode,
                                    const void* alphaDataDiff,
                                    const void* betaDataDiff,
                                    const void* alphaParamDiff,
                                    const void* betaParamDiff,
                                    const miopenTensorDescriptor_t xDesc,
                                    const void* x,
                                    const miopenTensorDescriptor_t dyDesc,
                                    const void* dy,
                                    const miopenTensorDescriptor_t dxDesc,
                                    void* dx,
                                    const miopenTensorDescriptor_t scaleDesc,
                                    const miopenTensorDescriptor_t biasDesc,
                                    const miopenTensorDescriptor_t savedMeanDesc,
                                    const miopenTensorDescriptor_t savedVarDesc,
                                    const void* bnScale,
                                    void* resultBnScaleDiff,
                                    void* resultBnBiasDiff,
                                    double epsilon,
                                    const void* savedMean,
                                    const void* savedInvVariance);

/* Fusion plans. A plan is a sequence of operators applied to one input tensor, compiled once and
 * executed many times with different operator arguments. Fusable (vertical) plans, run as one
 * pass over the output:
 *   convolution [-> bias] [-> batchnorm inference] [-> activation forward]  (at least 2 ops)
 *   batchnorm inference -> activation forward
 * The convolution runs through a convolution solver and the remaining operators are applied to
 * each output element while it is in cache. Any other plan (horizontal direction, activation
 * backward, batchnorm training or backward, other orderings) compiles to UnsupportedOp, as
 * upstream does for plans without a fused solver.
 * Ownership: operators belong to their plan (valid until miopenDestroyFusionPlan); operator
 * argument objects belong to the caller until miopenDestroyOperatorArgs and store only
 * pointers, which must stay valid until the execution that uses them. */
MIOPEN_DECLARE_OBJECT(miopenFusionPlanDescriptor);
MIOPEN_DECLARE_OBJECT(miopenOperatorDescriptor); /* declared as upstream; unused */
MIOPEN_DECLARE_OBJECT(miopenOperatorArgs);

typedef enum
{
    miopenVerticalFusion   = 0, /* operators applied one after the other */
    miopenHorizontalFusion = 1, /* accepted at creation; never compiles */
} miopenFusionDirection_t;

/* Statuses: Success; BadParm (null output, bad direction, null inputDesc); NotInitialized. The
 * input descriptor is copied. */
MIOPEN_EXPORT miopenStatus_t miopenCreateFusionPlan(miopenFusionPlanDescriptor_t* fusePlanDesc,
                                                    const miopenFusionDirection_t fuseDirection,
                                                    const miopenTensorDescriptor_t inputDesc);

/* Destroys the plan and its operators. Statuses: Success; BadParm. */
MIOPEN_EXPORT miopenStatus_t miopenDestroyFusionPlan(miopenFusionPlanDescriptor_t fusePlanDesc);

/* Statuses: Success; UnsupportedOp (no fused implementation for this plan); BadParm (null
 * handle or plan, or operator shapes that do not chain). */
MIOPEN_EXPORT miopenStatus_t miopenCompileFusionPlan(miopenHandle_t handle,
                                                     miopenFusionPlanDescriptor_t fusePlanDesc);

/* The op_idx-th operator in insertion order. Statuses: Success; BadParm (index out of range,
 * null pointer). */
MIOPEN_EXPORT miopenStatus_t miopenFusionPlanGetOp(miopenFusionPlanDescriptor_t fusePlanDesc,
                                                   const int op_idx,
                                                   miopenFusionOpDescriptor_t* op);

/* Workspace bytes miopenExecuteFusionPlan needs: 0 (execution allocates its own scratch through
 * the handle's allocator). Statuses: Success; BadParm. */
MIOPEN_EXPORT miopenStatus_t miopenFusionPlanGetWorkSpaceSize(miopenHandle_t handle,
                                                              miopenFusionPlanDescriptor_t fusePlanDesc,
                                                              size_t* workSpaceSize,
                                                              miopenConvFwdAlgorithm_t algo);

/* Algorithms the convolution operator can use, preferred first (at most requestAlgoCount).
 * Statuses: Success; BadParm (no convolution operator, requestAlgoCount < 1, null pointers). */
MIOPEN_EXPORT miopenStatus_t miopenFusionPlanConvolutionGetAlgo(miopenFusionPlanDescriptor_t fusePlanDesc,
                                                                const int requestAlgoCount,
                                                                int* returnedAlgoCount,
                                                                miopenConvFwdAlgorithm_t* returnedAlgos);

/* Restricts the convolution operator to one algorithm (takes effect at the next compile).
 * Statuses: Success; BadParm (unknown algorithm value). */
MIOPEN_EXPORT miopenStatus_t miopenFusionPlanConvolutionSetAlgo(miopenFusionPlanDescriptor_t fusePlanDesc,
                                                                miopenConvFwdAlgorithm_t algo);

/* Operator constructors: each appends one operator to the plan and returns it in *op (owned by
 * the plan). Descriptors are copied. Statuses: Success; BadParm (null arguments, bad enum
 * values); NotInitialized (a descriptor never set). Whether the sequence fuses is decided by
 * miopenCompileFusionPlan. */
MIOPEN_EXPORT miopenStatus_t miopenCreateOpConvForward(miopenFusionPlanDescriptor_t fusePlanDesc,
                                                       miopenFusionOpDescriptor_t* convOp,
                                                       miopenConvolutionDescriptor_t convDesc,
                                                       const miopenTensorDescriptor_t wDesc);

MIOPEN_EXPORT miopenStatus_t miopenCreateOpActivationForward(miopenFusionPlanDescriptor_t fusePlanDesc,
                                                             miopenFusionOpDescriptor_t* activFwdOp,
                                                             miopenActivationMode_t mode);

MIOPEN_EXPORT miopenStatus_t miopenCreateOpActivationBackward(miopenFusionPlanDescriptor_t fusePlanDesc,
                                                              miopenFusionOpDescriptor_t* activBwdOp,
                                                              miopenActivationMode_t mode);

MIOPEN_EXPORT miopenStatus_t miopenCreateOpBiasForward(miopenFusionPlanDescriptor_t fusePlanDesc,
                                                       miopenFusionOpDescriptor_t* biasOp,
                                                       const miopenTensorDescriptor_t bDesc);

MIOPEN_EXPORT miopenStatus_t
miopenCreateOpBatchNormInference(miopenFusionPlanDescriptor_t fusePlanDesc,
                                 miopenFusionOpDescriptor_t* bnOp,
                                 const miopenBatchNormMode_t bn_mode,
                                 const miopenTensorDescriptor_t bnScaleBiasMeanVarDesc);

MIOPEN_EXPORT miopenStatus_t miopenCreateOpBatchNormForward(miopenFusionPlanDescriptor_t fusePlanDesc,
                                                            miopenFusionOpDescriptor_t* bnFwdOp,
                                                            const miopenBatchNormMode_t bn_mode,
                                                            bool runningMeanVariance);

MIOPEN_EXPORT miopenStatus_t miopenCreateOpBatchNormBackward(miopenFusionPlanDescriptor_t fusePlanDesc,
                                                             miopenFusionOpDescriptor_t* bnBwdOp,
                                                             const miopenBatchNormMode_t bn_mode);

/* Statuses: Success; BadParm (null). */
MIOPEN_EXPORT miopenStatus_t miopenCreateOperatorArgs(miopenOperatorArgs_t* args);
MIOPEN_EXPORT miopenStatus_t miopenDestroyOperatorArgs(miopenOperatorArgs_t args);

/* Argument setters: record, for one operator, its scalars (copied; alpha/beta are float in host
 * memory) and buffer pointers (borrowed until execution). Setting again replaces the record.
 * Statuses: Success; BadParm (null args or operator, an operator of another kind, a null
 * required pointer). The convolution's alpha scales its result; other alpha/beta values are
 * accepted and, as upstream, not used. */
MIOPEN_EXPORT miopenStatus_t miopenSetOpArgsConvForward(miopenOperatorArgs_t args,
                                                        const miopenFusionOpDescriptor_t convOp,
                                                        const void* alpha,
                                                        const void* beta,
                                                        const void* w);

MIOPEN_EXPORT miopenStatus_t miopenSetOpArgsActivForward(miopenOperatorArgs_t args,
                                                         const miopenFusionOpDescriptor_t activFwdOp,
                                                         const void* alpha,
                                                         const void* beta,
                                                         double activAlpha,
                                                         double activBeta,
                                                         double activGamma);

MIOPEN_EXPORT miopenStatus_t miopenSetOpArgsActivBackward(miopenOperatorArgs_t args,
                                                          const miopenFusionOpDescriptor_t activBwdOp,
                                                          const void* alpha,
                                                          const void* beta,
                                                          const void* y,
                                                          const void* reserved,
                                                          double activAlpha,
                                                          double activBeta,
                                                          double activGamma);

MIOPEN_EXPORT miopenStatus_t miopenSetOpArgsBatchNormInference(miopenOperatorArgs_t args,
                                                               const miopenFusionOpDescriptor_t bnOp,
                                                               const void* alpha,
                                                               const void* beta,
                                                               const void* bnScale,
                                                               const void* bnBias,
                                                               const void* estimatedMean,
                                                               const void* estimatedVariance,
                                                               double epsilon);

MIOPEN_EXPORT miopenStatus_t miopenSetOpArgsBatchNormForward(miopenOperatorArgs_t args,
                                                             const miopenFusionOpDescriptor_t bnOp,
                                                             const void* alpha,
                                                             const void* beta,
                                                             const void* bnScale,
                                                             const void* bnBias,
                                                             void* savedMean,
                                                             void* savedInvVariance,
                                                             void* runningMean,
                                                             void* runningVariance,
                                                             double expAvgFactor,
                                                             double epsilon);

MIOPEN_EXPORT miopenStatus_t miopenSetOpArgsBatchNormBackward(miopenOperatorArgs_t args,
                                                              const miopenFusionOpDescriptor_t bnOp,
                                                              const void* alpha,
                                                              const void* beta,
                                                              const void* x,
                                                              const void* bnScale,
                                                              const void* bnBias,
                                                              void* resultBnScaleDiff,
                                                              void* resultBnBiasDiff,
                                                              const void* savedMean,
                                                              const void* savedInvVariance);

MIOPEN_EXPORT miopenStatus_t miopenSetOpArgsBiasForward(miopenOperatorArgs_t args,
                                                        const miopenFusionOpDescriptor_t biasOp,
                                                        const void* alpha,
                                                        const void* beta,
                                                        const void* bias);

/* Runs a compiled plan. inputDesc and outputDesc must equal the plan's input and derived output
 * (lengths, type and strides); every operator needs its arguments in args. Statuses: Success;
 * BadParm (not compiled, descriptor mismatch, missing arguments, null pointers). */
MIOPEN_EXPORT miopenStatus_t miopenExecuteFusionPlan(const miopenHandle_t handle,
                                                     const miopenFusionPlanDescriptor_t fusePlanDesc,
                                                     const miopenTensorDescriptor_t inputDesc,
                                                     const void* input,
                                                     const miopenTensorDescriptor_t outputDesc,
                                                     void* output,
                                                     miopenOperatorArgs_t args);

/* y = act(alpha1 * conv(x, w) + alpha2 * z + bias), fused. As upstream, the activation mode must
 * be RELU (NotImplemented otherwise); alpha1/alpha2 are float (null means 1); z (of y's shape)
 * may be null, meaning no residual term; bias is 1xKx1x1. The workspace is not used (upstream
 * requires none). Statuses: Success; NotImplemented; BadParm (null or mismatched arguments);
 * NotInitialized. */
MIOPEN_EXPORT miopenStatus_t miopenConvolutionBiasActivationForward(miopenHandle_t handle,
                                                                    const void* alpha1,
                                                                    const miopenTensorDescriptor_t xDesc,
                                                                    const void* x,
                                                                    const miopenTensorDescriptor_t wDesc,
                                                                    const void* w,
                                                                    const miopenConvolutionDescriptor_t convDesc,
                                                                    miopenConvFwdAlgorithm_t algo,
                                                                    void* workspace,
                                                                    size_t workspaceSizeInBytes,
                                                                    const void* alpha2,
                                                                    const miopenTensorDescriptor_t zDesc,
                                                                    const void* z,
                                                                    const miopenTensorDescriptor_t biasDesc,
                                                                    const void* bias,
                                                                    const miopenActivationDescriptor_t activationDesc,
                                                                    const miopenTensorDescriptor_t yDesc,
                                                                    void* y);

#ifdef __cplusplus
}
#endif

#ifdef __clang__
#pragma clang diagnostic pop
#endif

#endif /* MIOPEN_GUARD_MIOPEN_H_ */
