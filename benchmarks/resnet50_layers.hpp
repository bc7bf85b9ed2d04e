// The convolution layers the engine benchmarks share: every distinct 3x3 and 1x1 convolution of
// ResNet-50 (v1.5: stride 2 in the 3x3 and in the 1x1 projection shortcut) in conv2_x .. conv5_x,
// input spatial size H = W, and two tiny smoke layers. Used by engines/engines_bench and
// dnnl_fprop_variants.
#ifndef BENCHMARKS_RESNET50_LAYERS_HPP
#define BENCHMARKS_RESNET50_LAYERS_HPP

#include <vector>

namespace bench {

struct ConvLayer
{
    const char* name;
    int c, k, hw, rs, stride;
    bool smoke; // only when a quick run or the filter names it
};

inline const std::vector<ConvLayer>& resnet50Layers()
{
    static const std::vector<ConvLayer> layers = {
        {"c2_1x1_64_64", 64, 64, 56, 1, 1, false},
        {"c2_3x3_64", 64, 64, 56, 3, 1, false},
        {"c2_1x1_64_256", 64, 256, 56, 1, 1, false},
        {"c2_1x1_256_64", 256, 64, 56, 1, 1, false},
        {"c3_1x1_256_128", 256, 128, 56, 1, 1, false},
        {"c3_3x3_128_s2", 128, 128, 56, 3, 2, false},
        {"c3_1x1_128_512", 128, 512, 28, 1, 1, false},
        {"c3_1x1_256_512_s2", 256, 512, 56, 1, 2, false},
        {"c3_1x1_512_128", 512, 128, 28, 1, 1, false},
        {"c3_3x3_128", 128, 128, 28, 3, 1, false},
        {"c4_1x1_512_256", 512, 256, 28, 1, 1, false},
        {"c4_3x3_256_s2", 256, 256, 28, 3, 2, false},
        {"c4_1x1_256_1024", 256, 1024, 14, 1, 1, false},
        {"c4_1x1_512_1024_s2", 512, 1024, 28, 1, 2, false},
        {"c4_1x1_1024_256", 1024, 256, 14, 1, 1, false},
        {"c4_3x3_256", 256, 256, 14, 3, 1, false},
        {"c5_1x1_1024_512", 1024, 512, 14, 1, 1, false},
        {"c5_3x3_512_s2", 512, 512, 14, 3, 2, false},
        {"c5_1x1_512_2048", 512, 2048, 7, 1, 1, false},
        {"c5_1x1_1024_2048_s2", 1024, 2048, 14, 1, 2, false},
        {"c5_1x1_2048_512", 2048, 512, 7, 1, 1, false},
        {"c5_3x3_512", 512, 512, 7, 3, 1, false},
        {"smoke_3x3", 8, 12, 9, 3, 1, true},
        {"smoke_1x1_s2", 12, 8, 9, 1, 2, true},
    };
    return layers;
}

} // namespace bench

#endif // BENCHMARKS_RESNET50_LAYERS_HPP
