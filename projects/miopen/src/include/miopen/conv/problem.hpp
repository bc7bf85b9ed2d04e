// A convolution problem in "regular convolution" terms, the only form solvers see.
//
//   in  (N, C, in spatial...)        weights (K, C/G, filter spatial...)
//   out (N, K, out spatial...)       out = floor((in + 2*pad - dil*(k-1) - 1) / stride) + 1
//
// and a direction: Forward reads in+weights and writes out; BackwardData reads out (dy) and
// weights and writes in (dx); BackwardWeights reads in (x) and out (dy) and writes weights (dw).
// A transpose convolution's public forward is the BackwardData problem of the regular
// convolution (and its backward data is the regular Forward); the API layer does that mapping.
#pragma once

#include <miopen/convolution.hpp>
#include <miopen/tensor.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace miopen {
namespace conv {

enum class Direction
{
    Forward,
    BackwardData,
    BackwardWeights,
};

const char* directionName(Direction d); // "Forward", "BackwardData", "BackwardWeights"
char directionLetter(Direction d);      // 'F', 'B', 'W' (find-db keys)

class ProblemDescription
{
public:
    // inDesc/outDesc/weiDesc are in regular-convolution roles (see above). Validates shapes,
    // channel and group consistency against the descriptor; throws BadParm on a mismatch.
    ProblemDescription(const TensorDescriptor& inDesc,
                       const TensorDescriptor& weiDesc,
                       const TensorDescriptor& outDesc,
                       const ConvolutionDescriptor& conv,
                       Direction direction);

    Direction direction() const noexcept { return _direction; }
    const TensorDescriptor& in() const noexcept { return _in; }
    const TensorDescriptor& weights() const noexcept { return _wei; }
    const TensorDescriptor& out() const noexcept { return _out; }

    int spatialDims() const noexcept { return _spatialDims; }
    std::size_t batch() const noexcept { return _in.len(0); }
    std::size_t inChannels() const noexcept { return _in.len(1); }   // C
    std::size_t outChannels() const noexcept { return _out.len(1); } // K
    std::size_t groups() const noexcept { return _groups; }
    // Spatial sizes, index 0 = outermost (D or H), size spatialDims().
    const std::vector<std::size_t>& inSpatial() const noexcept { return _inSpatial; }
    const std::vector<std::size_t>& outSpatial() const noexcept { return _outSpatial; }
    const std::vector<std::size_t>& filterSpatial() const noexcept { return _filterSpatial; }
    const std::vector<int>& pads() const noexcept { return _pads; }
    const std::vector<int>& strides() const noexcept { return _strides; }
    const std::vector<int>& dilations() const noexcept { return _dilations; }

    // Element type of the input tensors (in/weights); the output may differ for int8 (int32 or
    // float output).
    miopenDataType_t dataType() const noexcept { return _in.type(); }
    bool isDeterministic() const noexcept { return _deterministic; }

    // Layout of all three tensors when they share one packed layout ("NCHW", "NHWC", "NCDHW",
    // "NDHWC"); "" when they do not.
    const std::string& commonLayout() const noexcept { return _layout; }
    bool isPackedNCHW() const noexcept { return _layout == "NCHW" || _layout == "NCDHW" || (_spatialDims == 1 && _layout == "NCW"); }

    // Helpers used by solvers.
    bool is1x1() const noexcept;           // every filter dim is 1
    bool isUnitStride() const noexcept;    // every stride is 1
    bool isUnitDilation() const noexcept;  // every dilation is 1
    bool isZeroPad() const noexcept;       // every pad is 0
    double flopCount() const noexcept;     // 2 * N * K * out spatial * C/G * filter spatial

    // The find-db key (upstream's shape: C-inSpatial-filter-K-outSpatial-N-pads-strides-
    // dilations-bias-layout-type-direction[_g<G>]).
    std::string dbKey() const;

private:
    Direction _direction;
    TensorDescriptor _in, _wei, _out;
    int _spatialDims = 2;
    std::size_t _groups = 1;
    std::vector<std::size_t> _inSpatial, _outSpatial, _filterSpatial;
    std::vector<int> _pads, _strides, _dilations;
    bool _deterministic = false;
    std::string _layout;
};

// Buffers of one execution in regular-convolution roles. For each direction exactly one of them
// is written (see Direction); the other two are read.
struct ConvTensors
{
    const void* in   = nullptr;
    const void* wei  = nullptr;
    const void* out  = nullptr;
    void* inOut      = nullptr; // written buffer: dx (BackwardData)
    void* weiOut     = nullptr; // written buffer: dw (BackwardWeights)
    void* outOut     = nullptr; // written buffer: y (Forward)
};

} // namespace conv
} // namespace miopen
