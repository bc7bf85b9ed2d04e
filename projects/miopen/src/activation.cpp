#include <miopen/activation.hpp>
#include <miopen/elementwise.hpp>
#include <miopen/logger.hpp>

#include <sstream>

namespace miopen {

const ActivationParams& ActivationDescriptor::params() const
{
    if(!_isSet)
        fail(miopenStatusNotInitialized, "activation descriptor was never set");
    return _params;
}

std::string ActivationDescriptor::toString() const
{
    if(!_isSet)
        return "{unset}";
    std::ostringstream ss;
    ss << '{' << activationModeName(_params.mode) << ", alpha " << _params.alpha << ", beta " << _params.beta
       << ", gamma " << _params.gamma << '}';
    return ss.str();
}

const char* activationModeName(miopenActivationMode_t mode) noexcept
{
    switch(static_cast<int>(mode))
    {
    case miopenActivationPASTHRU: return "miopenActivationPASTHRU";
    case miopenActivationLOGISTIC: return "miopenActivationLOGISTIC";
    case miopenActivationTANH: return "miopenActivationTANH";
    case miopenActivationRELU: return "miopenActivationRELU";
    case miopenActivationSOFTRELU: return "miopenActivationSOFTRELU";
    case miopenActivationABS: return "miopenActivationABS";
    case miopenActivationPOWER: return "miopenActivationPOWER";
    case miopenActivationCLIPPEDRELU: return "miopenActivationCLIPPEDRELU";
    case miopenActivationLEAKYRELU: return "miopenActivationLEAKYRELU";
    case miopenActivationELU: return "miopenActivationELU";
    default: return "unknown";
    }
}

std::string activationDriverArgs(const TensorDescriptor& x, const ActivationParams& p, bool forward)
{
    const auto d = driverNchw(x);
    std::ostringstream ss;
    ss << driverBaseArg("activ", x.type()) << " -n " << d[0] << " -c " << d[1] << " -H " << d[2] << " -W " << d[3]
       << " -m " << static_cast<int>(p.mode) << " --forw " << (forward ? 1 : 2) << " -A " << p.alpha << " -B "
       << p.beta << " -G " << p.gamma;
    return ss.str();
}

namespace {

void checkSameShape(const TensorDescriptor& a, const char* an, const TensorDescriptor& b, const char* bn)
{
    a.checkSet(an);
    b.checkSet(bn);
    if(a.lens() != b.lens())
        fail(miopenStatusBadParm, std::string(an) + " and " + bn + " lengths differ: " + a.toString() + " vs " + b.toString());
    if(a.type() != b.type())
        fail(miopenStatusBadParm, std::string(an) + " and " + bn + " types differ");
}

} // namespace

void activationForward(const Handle&,
                       const ActivationParams& p,
                       float alpha,
                       const TensorDescriptor& xDesc,
                       const void* x,
                       float beta,
                       const TensorDescriptor& yDesc,
                       void* y)
{
    checkSameShape(xDesc, "xDesc", yDesc, "yDesc");
    check(x != nullptr && y != nullptr, "x or y is null");
    const ActivationFn fn(p);
    elementwise::visitFloatType(xDesc.type(), [&](auto io) {
        using Io = decltype(io);
        elementwise::forEachStrided<2>(xDesc.lens(), {&xDesc.strides(), &yDesc.strides()}, [&](const auto& off) {
            const float r = alpha * fn.forward(Io::load(x, off[0]));
            Io::store(y, off[1], beta == 0.0f ? r : r + beta * Io::load(y, off[1]));
        });
    });
}

void activationBackward(const Handle&,
                        const ActivationParams& p,
                        float alpha,
                        const TensorDescriptor& yDesc,
                        const void* y,
                        const TensorDescriptor& dyDesc,
                        const void* dy,
                        const TensorDescriptor& xDesc,
                        const void* x,
                        float beta,
                        const TensorDescriptor& dxDesc,
                        void* dx)
{
    checkSameShape(xDesc, "xDesc", yDesc, "yDesc");
    checkSameShape(xDesc, "xDesc", dyDesc, "dyDesc");
    checkSameShape(xDesc, "xDesc", dxDesc, "dxDesc");
    check(x != nullptr && y != nullptr && dy != nullptr && dx != nullptr, "x, y, dy or dx is null");
    const ActivationFn fn(p);
    elementwise::visitFloatType(xDesc.type(), [&](auto io) {
        using Io = decltype(io);
        elementwise::forEachStrided<4>(
            xDesc.lens(), {&xDesc.strides(), &yDesc.strides(), &dyDesc.strides(), &dxDesc.strides()},
            [&](const auto& off) {
                const float r = alpha * fn.backward(Io::load(dy, off[2]), Io::load(x, off[0]), Io::load(y, off[1]));
                Io::store(dx, off[3], beta == 0.0f ? r : r + beta * Io::load(dx, off[3]));
            });
    });
}

} // namespace miopen
