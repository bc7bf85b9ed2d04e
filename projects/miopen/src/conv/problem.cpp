#include <miopen/conv/problem.hpp>

#include <algorithm>
#include <string>

namespace miopen {
namespace conv {

const char* directionName(Direction d)
{
    switch(d)
    {
    case Direction::Forward: return "Forward";
    case Direction::BackwardData: return "BackwardData";
    case Direction::BackwardWeights: return "BackwardWeights";
    }
    return "?";
}

char directionLetter(Direction d)
{
    switch(d)
    {
    case Direction::Forward: return 'F';
    case Direction::BackwardData: return 'B';
    case Direction::BackwardWeights: return 'W';
    }
    return '?';
}

namespace {

bool isIntegerOutputAllowed(miopenDataType_t in, miopenDataType_t out, Direction d)
{
    return in == miopenInt8 && d == Direction::Forward && (out == miopenInt32 || out == miopenFloat);
}

} // namespace

ProblemDescription::ProblemDescription(const TensorDescriptor& inDesc,
                                       const TensorDescriptor& weiDesc,
                                       const TensorDescriptor& outDesc,
                                       const ConvolutionDescriptor& conv,
                                       Direction direction)
    : _direction(direction)
{
    conv.checkSet("convolution descriptor");
    inDesc.checkSet("input tensor descriptor");
    weiDesc.checkSet("filter tensor descriptor");
    outDesc.checkSet("output tensor descriptor");
    _in  = inDesc;
    _wei = weiDesc;
    _out = outDesc;

    _spatialDims           = conv.spatialDim();
    const std::size_t rank = static_cast<std::size_t>(_spatialDims) + 2;
    if(_in.numDims() != rank || _wei.numDims() != rank || _out.numDims() != rank)
        fail(miopenStatusBadParm, "tensors must have " + std::to_string(rank) + " dimensions for a " +
                                      std::to_string(_spatialDims) + "-D convolution");

    // Data types: one floating type throughout, or int8 forward with int32/float output.
    const miopenDataType_t t = _in.type();
    if(_wei.type() != t)
        fail(miopenStatusBadParm, "input and filter data types differ");
    if(_out.type() != t && !isIntegerOutputAllowed(t, _out.type(), direction))
        fail(miopenStatusBadParm, "input and output data types differ");
    if(t != miopenFloat && t != miopenHalf && t != miopenBFloat16 && t != miopenInt8)
        fail(miopenStatusBadParm, std::string("convolution does not support data type ") + dataTypeName(t));
    if(t == miopenInt8 && direction != Direction::Forward)
        fail(miopenStatusBadParm, "int8 convolution is forward only");

    _groups              = static_cast<std::size_t>(conv.groupCount());
    const std::size_t c  = _in.len(1);
    const std::size_t k  = _out.len(1);
    if(_in.len(0) != _out.len(0))
        fail(miopenStatusBadParm, "input and output batch sizes differ");
    if(c % _groups != 0 || _wei.len(1) * _groups != c)
        fail(miopenStatusBadParm, "input channels (" + std::to_string(c) + ") must equal filter channels (" +
                                      std::to_string(_wei.len(1)) + ") times groups (" +
                                      std::to_string(_groups) + ")");
    if(_wei.len(0) != k)
        fail(miopenStatusBadParm, "filter output channels (" + std::to_string(_wei.len(0)) +
                                      ") differ from output tensor channels (" + std::to_string(k) + ")");
    if(k % _groups != 0)
        fail(miopenStatusBadParm, "output channels are not divisible by the group count");

    _pads      = conv.pads();
    _strides   = conv.strides();
    _dilations = conv.dilations();
    for(std::size_t i = 0; i < static_cast<std::size_t>(_spatialDims); ++i)
    {
        const std::size_t in  = _in.len(i + 2);
        const std::size_t f   = _wei.len(i + 2);
        const std::size_t out = _out.len(i + 2);
        const long long eff   = static_cast<long long>(_dilations[i]) * (static_cast<long long>(f) - 1) + 1;
        const long long padded = static_cast<long long>(in) + 2LL * _pads[i];
        if(padded < eff)
            fail(miopenStatusBadParm, "padded input is smaller than the dilated filter");
        const long long expected = (padded - eff) / _strides[i] + 1;
        if(static_cast<long long>(out) != expected)
            fail(miopenStatusBadParm, "output spatial size " + std::to_string(out) + " in dim " +
                                          std::to_string(i) + " does not match the convolution (expected " +
                                          std::to_string(expected) + ")");
        _inSpatial.push_back(in);
        _filterSpatial.push_back(f);
        _outSpatial.push_back(out);
    }
    _deterministic = conv.isDeterministic();

    // The solvers size their workspaces from products of these lengths (the column matrix of
    // GEMM: N * C * filter * output elements, per thread, in fp32 or wider). A problem whose
    // products cannot be computed in size_t is refused here, before any solver wraps them into
    // a small workspace size (issue 10, bad input: conv.workspace.hugeTensorsOverflow).
    std::size_t colBytes = 8 * 4096; // widest element (8 bytes) times a bound on threads
    bool overflow        = false;
    for(std::size_t v : {_in.len(0), _in.len(1)})
        overflow = overflow || __builtin_mul_overflow(colBytes, v, &colBytes);
    for(std::size_t i = 0; i < static_cast<std::size_t>(_spatialDims); ++i)
        overflow = overflow || __builtin_mul_overflow(colBytes, _filterSpatial[i], &colBytes) ||
                   __builtin_mul_overflow(colBytes, std::max(_outSpatial[i], _inSpatial[i]), &colBytes);
    if(overflow)
        fail(miopenStatusBadParm, "convolution problem too large: its column-matrix size overflows size_t");

    const std::string li = _in.layoutString();
    const std::string lw = _wei.layoutString();
    const std::string lo = _out.layoutString();
    _layout              = (li == lw && lw == lo) ? li : std::string();
}

bool ProblemDescription::is1x1() const noexcept
{
    for(auto f : _filterSpatial)
        if(f != 1)
            return false;
    return true;
}

bool ProblemDescription::isUnitStride() const noexcept
{
    for(auto s : _strides)
        if(s != 1)
            return false;
    return true;
}

bool ProblemDescription::isUnitDilation() const noexcept
{
    for(auto d : _dilations)
        if(d != 1)
            return false;
    return true;
}

bool ProblemDescription::isZeroPad() const noexcept
{
    for(auto p : _pads)
        if(p != 0)
            return false;
    return true;
}

double ProblemDescription::flopCount() const noexcept
{
    double f = 2.0 * static_cast<double>(batch()) * static_cast<double>(outChannels()) *
               static_cast<double>(inChannels() / _groups);
    for(auto o : _outSpatial)
        f *= static_cast<double>(o);
    for(auto k : _filterSpatial)
        f *= static_cast<double>(k);
    return f;
}

std::string ProblemDescription::dbKey() const
{
    auto joinX = [](const auto& v) {
        std::string s;
        for(std::size_t i = 0; i < v.size(); ++i)
            s += (i ? "x" : "") + std::to_string(v[i]);
        return s;
    };
    std::string key = std::to_string(inChannels());
    for(auto v : _inSpatial)
        key += "-" + std::to_string(v);
    key += "-" + joinX(_filterSpatial) + "-" + std::to_string(outChannels());
    for(auto v : _outSpatial)
        key += "-" + std::to_string(v);
    key += "-" + std::to_string(batch());
    key += "-" + joinX(_pads) + "-" + joinX(_strides) + "-" + joinX(_dilations) + "-0-";
    if(!_layout.empty())
        key += _layout;
    else
    {
        auto lay = [](const TensorDescriptor& t) {
            const std::string l = t.layoutString();
            return l.empty() ? std::string("STRIDED") : l;
        };
        key += lay(_in) + "-" + lay(_wei) + "-" + lay(_out);
    }
    key += "-";
    key += dataTypeName(_in.type());
    if(_out.type() != _in.type())
        key += std::string("-") + dataTypeName(_out.type());
    key += "-";
    key += directionLetter(_direction);
    if(_groups > 1)
        key += "_g" + std::to_string(_groups);
    return key;
}

} // namespace conv
} // namespace miopen
