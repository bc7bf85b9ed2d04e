// Element-wise tensor operations behind miopenOpTensor, miopenSetTensor, miopenScaleTensor and
// miopenTransformTensor. Every function validates all of its arguments before it touches memory:
// on bad input it throws miopen::Exception and leaves every buffer untouched.
//
// Common rules:
//  - Descriptors must have been set (NotInitialized otherwise); pointers must be non-null
//  (BadParm).
//  - Strides are arbitrary (1..8 dims); only the elements a descriptor addresses are read or
//    written, so memory in the gaps of a strided tensor is never touched.
//  - An output whose descriptor addresses the same element twice is refused (BadParm), except by
//    setTensor, where every write stores the same value.
//  - Half and bfloat16 are computed in fp32 and stored rounded to nearest even; double in double.
//  - Large tensors are processed on the library's thread pool (threading.hpp); results do not
//    depend on the thread count.
#pragma once

#include <miopen/handle.hpp>
#include <miopen/miopen.h>
#include <miopen/tensor.hpp>

namespace miopen {

// C = op(alpha1 * A, alpha2 * B) + beta * C, op one of Add, Mul, Min, Max (Min/Max as the
// comparisons a < b ? a : b and a > b ? a : b).
//  - A and C: same rank and lengths (strides may differ). B: same rank; each length equals C's
//    or is 1 (broadcast).
//  - One data type for all three: half, bfloat16, float or double (BadParm otherwise).
//  - alpha1, alpha2, beta point to float (double when the tensors are double).
//  - beta == 0: C is written without being read (NaN garbage in C does not propagate).
//  - C may be A or B itself (same pointer, type, lengths and strides); any other overlap of C
//    with A or B is refused (BadParm).
void opTensor(const Handle& handle,
              miopenTensorOp_t op,
              const void* alpha1,
              const TensorDescriptor& aDesc,
              const void* a,
              const void* alpha2,
              const TensorDescriptor& bDesc,
              const void* b,
              const void* beta,
              const TensorDescriptor& cDesc,
              void* c);

// y[i] = *alpha for every element yDesc addresses. alpha has y's element type: half, bfloat16,
// float, double, int8 or int32 (its bits are stored as they are).
void setTensor(const Handle& handle, const TensorDescriptor& yDesc, void* y, const void* alpha);

// y[i] = y[i] * *alpha for every element yDesc addresses. alpha has y's element type: half,
// bfloat16, float, double or int32 (int32 products wrap modulo 2^32). int8 is refused, as
// upstream refuses it.
void scaleTensor(const Handle& handle, const TensorDescriptor& yDesc, void* y, const void* alpha);

// y = alpha * x + beta * y, element by element, for x and y of the same rank and lengths.
//  - Strides are independent (layout changes such as NCHW <-> NHWC).
//  - Floating types (half, bfloat16, float, double) may differ between x and y. alpha and beta
//    point to float, or to double when x or y is double; the arithmetic is done in that type.
//    beta == 0: y is not read. alpha == 1 and beta == 0 with equal types: an exact bit copy.
//  - int8 and int32: x and y must have the same type; only the copy (alpha == 1, beta == 0,
//    scalars as float) is implemented; other scalars give NotImplemented.
//  - y may be x itself (same pointer, type, lengths and strides); any other overlap is refused.
void transformTensor(const Handle& handle,
                     const void* alpha,
                     const TensorDescriptor& xDesc,
                     const void* x,
                     const void* beta,
                     const TensorDescriptor& yDesc,
                     void* y);

} // namespace miopen
