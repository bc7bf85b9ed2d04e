#pragma once

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** A serialized FlatBuffer exchanged through attributes of type FLATBUFFER_DATA_STRUCT_EXT. */
typedef struct
{
    const void* ptr;
    size_t size;
} hipdnnBackendFlatbufferData_t;

#ifdef __cplusplus
}
#endif
