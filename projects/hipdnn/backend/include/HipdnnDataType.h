#pragma once

/** Tensor element types of the C API (numbering differs from the FlatBuffers DataType). */
typedef enum
{
    HIPDNN_DATA_FLOAT = 0,
    HIPDNN_DATA_DOUBLE = 1,
    HIPDNN_DATA_HALF = 2,
    HIPDNN_DATA_INT8 = 3,
    HIPDNN_DATA_INT32 = 4,
    HIPDNN_DATA_UINT8 = 5,
    HIPDNN_DATA_BFLOAT16 = 6,
    HIPDNN_DATA_FP8_E4M3 = 7,
    HIPDNN_DATA_FP8_E5M2 = 8,
    HIPDNN_DATA_FP8_E8M0 = 9,
    HIPDNN_DATA_FP4_E2M1 = 10,
    HIPDNN_DATA_INT4 = 11,
    HIPDNN_DATA_FP6_E2M3_EXT = 12,
    HIPDNN_DATA_FP6_E3M2_EXT = 13,
    HIPDNN_DATA_INT64 = 14,
    HIPDNN_DATA_FP8_E4M3_FNUZ = 15,
    HIPDNN_DATA_FP8_E5M2_FNUZ = 16
} hipdnnDataType_t;
