#include <miopen/convolution.hpp>

#include <miopen/env.hpp>

#include <string>

namespace miopen {

namespace {
// MIOPEN_DEBUG_CONVOLUTION_DETERMINISTIC, read once: set to a boolean, it overrides every
// descriptor's DETERMINISTIC attribute (as upstream's attribute getter does); -1 when unset.
int deterministicOverride() noexcept
{
    static const int v = []() noexcept {
        try
        {
            const bool on  = env::boolean("MIOPEN_DEBUG_CONVOLUTION_DETERMINISTIC", false);
            const bool off = !env::boolean("MIOPEN_DEBUG_CONVOLUTION_DETERMINISTIC", true);
            return on ? 1 : (off ? 0 : -1); // unset or not a boolean: no override
        }
        catch(...)
        {
            return -1;
        }
    }();
    return v;
}

std::string vecToString(const std::vector<int>& v)
{
    std::string s;
    for(std::size_t i = 0; i < v.size(); ++i)
        s += (i ? "x" : "") + std::to_string(v[i]);
    return s;
}
} // namespace

ConvolutionDescriptor::ConvolutionDescriptor(int spatialDim,
                                             miopenConvolutionMode_t mode,
                                             std::vector<int> pads,
                                             std::vector<int> strides,
                                             std::vector<int> dilations)
{
    check(static_cast<int>(pads.size()) == spatialDim && static_cast<int>(strides.size()) == spatialDim &&
              static_cast<int>(dilations.size()) == spatialDim,
          "convolution parameter arrays must have spatialDim entries");
    init(spatialDim, mode, pads.data(), strides.data(), dilations.data());
}

void ConvolutionDescriptor::init(int spatialDim,
                                 miopenConvolutionMode_t mode,
                                 const int* pads,
                                 const int* strides,
                                 const int* dilations)
{
    if(spatialDim < 1 || spatialDim > 3)
        fail(miopenStatusBadParm,
             "convolution spatial dimension must be 1, 2 or 3, got " + std::to_string(spatialDim));
    check(pads != nullptr && strides != nullptr && dilations != nullptr,
          "convolution pad/stride/dilation array is null");
    const int m = static_cast<int>(mode);
    if(m < 0 || m > 3)
        fail(miopenStatusBadParm, "unknown convolution mode " + std::to_string(m));
    for(int i = 0; i < spatialDim; ++i)
    {
        if(pads[i] < 0)
            fail(miopenStatusBadParm, "convolution padding must be >= 0");
        if(strides[i] < 1)
            fail(miopenStatusBadParm, "convolution stride must be >= 1");
        if(dilations[i] < 1)
            fail(miopenStatusBadParm, "convolution dilation must be >= 1");
    }
    // Legacy group/depthwise modes are plain convolutions; the group count is set separately.
    _mode         = (mode == miopenTranspose) ? miopenTranspose : miopenConvolution;
    _spatialDim   = spatialDim;
    _pads.assign(pads, pads + spatialDim);
    _strides.assign(strides, strides + spatialDim);
    _dilations.assign(dilations, dilations + spatialDim);
    _transOutPads.assign(static_cast<std::size_t>(spatialDim), 0);
    _isSet = true;
}

const ConvolutionDescriptor& ConvolutionDescriptor::checkSet(const char* what) const
{
    if(!_isSet)
        fail(miopenStatusNotInitialized, std::string(what) + " was never initialized");
    return *this;
}

void ConvolutionDescriptor::setGroupCount(int g)
{
    if(g < 1)
        fail(miopenStatusBadParm, "group count must be >= 1, got " + std::to_string(g));
    _groupCount = g;
}

void ConvolutionDescriptor::setTransposeOutputPads(int spatialDim, const int* adj)
{
    check(adj != nullptr, "output padding array is null");
    if(spatialDim != _spatialDim)
        fail(miopenStatusBadParm, "output padding rank " + std::to_string(spatialDim) +
                                      " differs from the descriptor's " + std::to_string(_spatialDim));
    for(int i = 0; i < spatialDim; ++i)
        if(adj[i] < 0)
            fail(miopenStatusBadParm, "output padding must be >= 0");
    _transOutPads.assign(adj, adj + spatialDim);
}

void ConvolutionDescriptor::setAttribute(miopenConvolutionAttrib_t attr, int value)
{
    switch(attr)
    {
    case MIOPEN_CONVOLUTION_ATTRIB_FP16_ALT_IMPL:
        if(value < -1 || value > 1)
            fail(miopenStatusBadParm, "FP16_ALT_IMPL takes -1, 0 or 1");
        _fp16AltImpl = value;
        return;
    case MIOPEN_CONVOLUTION_ATTRIB_DETERMINISTIC:
        if(value < 0 || value > 1)
            fail(miopenStatusBadParm, "DETERMINISTIC takes 0 or 1");
        _deterministic = value;
        return;
    case MIOPEN_CONVOLUTION_ATTRIB_MATH_TYPE:
        if(value != miopenMathDefault && value != miopenMathPedantic)
            fail(miopenStatusBadParm, "MATH_TYPE takes miopenMathDefault or miopenMathPedantic");
        _mathType = value;
        return;
    default: break;
    }
    fail(miopenStatusBadParm, "unsupported convolution attribute " + std::to_string(static_cast<int>(attr)));
}

int ConvolutionDescriptor::attribute(miopenConvolutionAttrib_t attr) const
{
    switch(attr)
    {
    case MIOPEN_CONVOLUTION_ATTRIB_FP16_ALT_IMPL: return _fp16AltImpl;
    case MIOPEN_CONVOLUTION_ATTRIB_DETERMINISTIC: return deterministicOverride() >= 0 ? deterministicOverride() : _deterministic;
    case MIOPEN_CONVOLUTION_ATTRIB_MATH_TYPE: return _mathType;
    default: break;
    }
    fail(miopenStatusBadParm, "unsupported convolution attribute " + std::to_string(static_cast<int>(attr)));
}

bool ConvolutionDescriptor::isDeterministic() const noexcept
{
    const int o = deterministicOverride();
    return (o >= 0 ? o : _deterministic) == 1;
}

void ConvolutionDescriptor::setFindMode(int mode)
{
    if(mode < 1 || mode > 7 || mode == 4)
        fail(miopenStatusBadParm, "unknown find mode " + std::to_string(mode));
    _findMode = mode;
}

std::vector<std::size_t> ConvolutionDescriptor::forwardOutputLengths(const TensorDescriptor& x,
                                                                     const TensorDescriptor& w) const
{
    checkSet("convolution descriptor");
    x.checkSet("input tensor descriptor");
    w.checkSet("filter tensor descriptor");
    const std::size_t rank = static_cast<std::size_t>(_spatialDim) + 2;
    if(x.numDims() != rank || w.numDims() != rank)
        fail(miopenStatusBadParm, "input and filter must have " + std::to_string(rank) +
                                      " dimensions for a " + std::to_string(_spatialDim) +
                                      "-D convolution, got " + std::to_string(x.numDims()) + " and " +
                                      std::to_string(w.numDims()));
    const std::size_t g = static_cast<std::size_t>(_groupCount);
    const std::size_t n = x.len(0);
    const std::size_t c = x.len(1);
    std::vector<std::size_t> out(rank);
    out[0] = n;
    if(_mode == miopenTranspose)
    {
        // Filter (C_in, C_out/G, k...).
        if(w.len(0) != c)
            fail(miopenStatusBadParm, "transpose convolution: filter dim 0 (" + std::to_string(w.len(0)) +
                                          ") must equal input channels (" + std::to_string(c) + ")");
        if(c % g != 0)
            fail(miopenStatusBadParm, "input channels are not divisible by the group count");
        out[1] = w.len(1) * g;
    }
    else
    {
        // Filter (K, C/G, k...).
        if(c % g != 0 || w.len(1) * g != c)
            fail(miopenStatusBadParm, "input channels (" + std::to_string(c) + ") must equal filter channels (" +
                                          std::to_string(w.len(1)) + ") times groups (" +
                                          std::to_string(g) + ")");
        if(w.len(0) % g != 0)
            fail(miopenStatusBadParm, "output channels (" + std::to_string(w.len(0)) +
                                          ") are not divisible by the group count");
        out[1] = w.len(0);
    }
    for(std::size_t i = 0; i < static_cast<std::size_t>(_spatialDim); ++i)
    {
        const long long in  = static_cast<long long>(x.len(i + 2));
        const long long k   = static_cast<long long>(w.len(i + 2));
        const long long p   = _pads[i];
        const long long s   = _strides[i];
        const long long d   = _dilations[i];
        const long long eff = d * (k - 1) + 1;
        long long o         = 0;
        if(_mode == miopenTranspose)
        {
            const long long adj = _transOutPads[i];
            if(adj >= s)
                fail(miopenStatusBadParm, "transpose output padding must be smaller than the stride");
            o = s * (in - 1) + eff - 2 * p + adj;
        }
        else
        {
            if(in + 2 * p < eff)
                fail(miopenStatusBadParm, "padded input (" + std::to_string(in + 2 * p) +
                                              ") is smaller than the dilated filter (" +
                                              std::to_string(eff) + ") in spatial dim " + std::to_string(i));
            o = (in + 2 * p - eff) / s + 1;
        }
        if(o < 1)
            fail(miopenStatusBadParm, "convolution output size is not positive (pads " + vecToString(_pads) + ")");
        out[i + 2] = static_cast<std::size_t>(o);
    }
    return out;
}

TensorDescriptor ConvolutionDescriptor::forwardOutputTensor(const TensorDescriptor& x,
                                                            const TensorDescriptor& w,
                                                            miopenDataType_t yType) const
{
    auto lens = forwardOutputLengths(x, w);
    // Keep the input's layout for the output.
    const std::string layout = x.layoutString();
    if(!layout.empty() && layout.size() == lens.size())
        return TensorDescriptor(yType, lens, packedStridesForLayout(lens, layout));
    return TensorDescriptor(yType, lens);
}

std::string ConvolutionDescriptor::toString() const
{
    if(!_isSet)
        return "{unset}";
    const auto join = [](const std::vector<int>& v) { return vecToString(v); };
    std::string s = "{conv" + std::to_string(_spatialDim) + "d, " +
                    (_mode == miopenTranspose ? "miopenTranspose" : "miopenConvolution") + ", pads " + join(_pads) +
                    ", strides " + join(_strides) + ", dilations " + join(_dilations) + ", groups " +
                    std::to_string(_groupCount);
    if(_mode == miopenTranspose)
        s += ", output pads " + join(_transOutPads);
    return s + "}";
}

} // namespace miopen
