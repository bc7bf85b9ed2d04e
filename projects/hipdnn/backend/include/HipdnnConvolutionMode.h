#pragma once

typedef enum
{
    HIPDNN_CONVOLUTION = 0,       ///< mathematical convolution (flipped filter)
    HIPDNN_CROSS_CORRELATION = 1  ///< cross-correlation (the deep-learning convention)
} hipdnnConvolutionMode_t;
