/* A fixture header with every syntactic hazard of the real miopen.h the generator must handle
 * (../shared/reference/miopen-facts.md 1.4). Its parsed signatures must equal expected.txt. */
#ifndef FIXTURE_H_
#define FIXTURE_H_
#include <stddef.h>
#include <stdbool.h>
#include <miopen/config.h>
#include <miopen/export.h>
#include <hip/hip_runtime_api.h>

#define MIOPEN_DECLARE_OBJECT(name) \
    struct name                     \
    {                               \
    };                              \
    typedef struct name* name##_t;

#ifdef __cplusplus
extern "C" {
#endif

MIOPEN_DECLARE_OBJECT(miopenHandle);
MIOPEN_DECLARE_OBJECT(miopenBackendDescriptor) /* no trailing semicolon, as upstream */

typedef enum
{
    miopenStatusSuccess = 0,
    miopenStatusBadParm =
        3, /* a value on the next line */
} miopenStatus_t;

typedef enum
{
    miopenFloat = 1,
#ifdef MIOPEN_BETA_API
    miopenFloat8 = 7, /* enumerators inside a beta block */
#else
// miopenReserved1 = 7,
#endif
    miopenArgScalar = 1U << 31,
} miopenDataType_t;

/* function pointer typedefs */
typedef void* (*miopenAllocatorFunction)(void* context, size_t sizeBytes);
typedef void (*miopenDeallocatorFunction)(void* context, void* memory);

/* return type on its own line */
MIOPEN_EXPORT miopenStatus_t
miopenFixtureReturnOnOwnLine(miopenHandle_t handle);

MIOPEN_EXPORT miopenStatus_t miopenFixtureBreakAfterParen(
    miopenHandle_t handle, miopenAllocatorFunction allocator, miopenDeallocatorFunction deallocator, void* context);

MIOPEN_EXPORT const char* miopenFixtureString(miopenStatus_t error);

/* 22 parameters, one per line */
MIOPEN_EXPORT miopenStatus_t miopenFixtureMany(miopenHandle_t handle,
                                               const void* p1,
                                               const void* p2,
                                               const void* p3,
                                               const void* p4,
                                               const void* p5,
                                               void* p6,
                                               void* p7,
                                               double p8,
                                               double p9,
                                               const void* p10,
                                               const void* p11,
                                               int p12,
                                               int p13,
                                               const int* p14,
                                               size_t p15,
                                               size_t* p16,
                                               bool p17,
                                               const bool p18,
                                               unsigned long long p19,
                                               long p20,
                                               const void* const* p21);

/* a struct without typedef, used through its tag only in C++ */
struct miopenTensorArgument_t
{
    int id;
    void* buffer;
};

#ifdef MIOPEN_BETA_API
/* C++ default arguments inside extern "C" (beta only) */
MIOPEN_EXPORT miopenStatus_t miopenFixtureDefaults(miopenHandle_t handle,
                                                   size_t k,
                                                   int32_t dim = -1,
                                                   bool keepDim = false,
                                                   void* workspace = nullptr);
MIOPEN_EXPORT miopenStatus_t miopenFixtureStructArg(miopenHandle_t handle,
                                                    size_t n,
                                                    const miopenTensorArgument_t* tensors,
                                                    hipStream_t stream,
                                                    uint64_t id);
#endif

/* declared but not exported: ignored */
miopenStatus_t miopenFixtureNotExported(miopenHandle_t handle);

#ifdef __cplusplus
}
#endif
#endif
