// Frontend enums and their mapping to the wire (FlatBuffers) types.
#pragma once

#include <hipdnn_data_sdk/flatbuffer_utilities/DataObjects.hpp>

#include <cstdint>

namespace hipdnn_frontend
{

enum class DataType
{
    NOT_SET,
    FLOAT,
    HALF,
    BFLOAT16,
    DOUBLE,
    UINT8,
    INT32,
    INT8,
    INT64,
    FP8_E4M3,
    FP8_E5M2,
    FP8_E4M3_FNUZ,
    FP8_E5M2_FNUZ
};

enum class ConvolutionMode
{
    CONVOLUTION,
    CROSS_CORRELATION
};

enum class HeuristicMode
{
    FALLBACK
};

/// The pointwise modes; values equal the wire PointwiseMode.
enum class PointwiseMode : int8_t
{
    NOT_SET = 0, ABS = 1, ADD = 2, ADD_SQUARE = 3, BINARY_SELECT = 4, CEIL = 5, CMP_EQ = 6,
    CMP_GE = 7, CMP_GT = 8, CMP_LE = 9, CMP_LT = 10, CMP_NEQ = 11, DIV = 12, ELU_BWD = 13,
    ELU_FWD = 14, ERF = 15, EXP = 16, FLOOR = 17, GELU_APPROX_TANH_BWD = 18,
    GELU_APPROX_TANH_FWD = 19, GELU_BWD = 20, GELU_FWD = 21, GEN_INDEX = 22, IDENTITY = 23,
    LOG = 24, LOGICAL_AND = 25, LOGICAL_NOT = 26, LOGICAL_OR = 27, MAX_OP = 28, MIN_OP = 29,
    MUL = 30, NEG = 31, RECIPROCAL = 32, RELU_BWD = 33, RELU_FWD = 34, RSQRT = 35,
    SIGMOID_BWD = 36, SIGMOID_FWD = 37, SIN = 38, SOFTPLUS_BWD = 39, SOFTPLUS_FWD = 40,
    SQRT = 41, SUB = 42, SWISH_BWD = 43, SWISH_FWD = 44, TAN = 45, TANH_BWD = 46, TANH_FWD = 47
};

/// Resample (pooling) modes; values equal the wire ResampleMode.
enum class ResampleMode : int8_t
{
    NOT_SET = 0,
    MAXPOOL = 1,
    AVGPOOL_EXCLUDE_PADDING = 2,
    AVGPOOL_INCLUDE_PADDING = 3,
    BILINEAR = 4,
    NEAREST = 5
};
typedef ResampleMode ResampleMode_t; // NOLINT(readability-identifier-naming)

/// How positions outside the input count in a resample; values equal the wire PaddingMode.
enum class PaddingMode : int8_t
{
    NOT_SET = 0,
    NEG_INF_PAD = 1,
    ZERO_PAD = 2,
    EDGE_VAL_PAD = 3
};
typedef PaddingMode PaddingMode_t; // NOLINT(readability-identifier-naming)

/// Reduction modes; values equal upstream's frontend ReductionMode (and the wire's).
enum class ReductionMode : int8_t
{
    NOT_SET = 0,
    ADD = 1,
    MUL = 2,
    MIN = 3,
    MAX = 4,
    AMAX = 5,
    AVG = 6,
    NORM1 = 7,
    NORM2 = 8,
    MUL_NO_ZEROS = 9
};
typedef ReductionMode ReductionMode_t; // NOLINT(readability-identifier-naming)

namespace detail
{

inline hipdnn_data_sdk::data_objects::DataType toWire(DataType t)
{
    using W = hipdnn_data_sdk::data_objects::DataType;
    switch(t)
    {
    case DataType::NOT_SET: return W::UNSET;
    case DataType::FLOAT: return W::FLOAT;
    case DataType::HALF: return W::HALF;
    case DataType::BFLOAT16: return W::BFLOAT16;
    case DataType::DOUBLE: return W::DOUBLE;
    case DataType::UINT8: return W::UINT8;
    case DataType::INT32: return W::INT32;
    case DataType::INT8: return W::INT8;
    case DataType::INT64: return W::INT64;
    case DataType::FP8_E4M3: return W::FP8_E4M3;
    case DataType::FP8_E5M2: return W::FP8_E5M2;
    case DataType::FP8_E4M3_FNUZ: return W::FP8_E4M3_FNUZ;
    case DataType::FP8_E5M2_FNUZ: return W::FP8_E5M2_FNUZ;
    }
    return W::UNSET;
}

inline hipdnn_data_sdk::data_objects::PointwiseMode toWire(PointwiseMode m)
{
    return static_cast<hipdnn_data_sdk::data_objects::PointwiseMode>(static_cast<int8_t>(m));
}

inline hipdnn_data_sdk::data_objects::ResampleMode toWire(ResampleMode m)
{
    return static_cast<hipdnn_data_sdk::data_objects::ResampleMode>(static_cast<int8_t>(m));
}

inline hipdnn_data_sdk::data_objects::PaddingMode toWire(PaddingMode m)
{
    return static_cast<hipdnn_data_sdk::data_objects::PaddingMode>(static_cast<int8_t>(m));
}

inline hipdnn_data_sdk::data_objects::ReductionMode toWire(ReductionMode m)
{
    return static_cast<hipdnn_data_sdk::data_objects::ReductionMode>(static_cast<int8_t>(m));
}

inline hipdnn_data_sdk::data_objects::ConvMode toWire(ConvolutionMode m)
{
    return m == ConvolutionMode::CONVOLUTION ? hipdnn_data_sdk::data_objects::ConvMode::CONVOLUTION
                                             : hipdnn_data_sdk::data_objects::ConvMode::CROSS_CORRELATION;
}

} // namespace detail
} // namespace hipdnn_frontend
