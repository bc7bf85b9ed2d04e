#include <miopen/activation.hpp>
#include <miopen/elementwise.hpp>
#include <miopen/logger.hpp>

#include <algorithm>
#include <initializer_list>
#include <sstream>
#include <utility>
#include <vector>

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

// Elements per block of the dense paths: a block is loaded into float buffers, computed and
// stored in separate plain loops (each vectorisable; the loads of a block precede its stores, so
// in-place calls with y == x or dx == dy stay exact).
constexpr std::size_t kBlock = 1024;

// Whether every tensor has ref's strides and they cover a range without gaps (any dimension
// order), so that element i of each one sits at offset i and a flat loop visits them all.
bool denseAndAlike(const TensorDescriptor& ref, std::initializer_list<const TensorDescriptor*> others)
{
    for(const auto* d : others)
        if(d->strides() != ref.strides())
            return false;
    std::vector<std::pair<std::size_t, std::size_t>> dims; // (stride, length)
    for(std::size_t i = 0; i < ref.numDims(); ++i)
        if(ref.len(i) > 1)
            dims.emplace_back(ref.stride(i), ref.len(i));
    std::sort(dims.begin(), dims.end());
    std::size_t span = 1;
    for(const auto& [stride, len] : dims)
    {
        if(stride != span)
            return false;
        span *= len;
    }
    return true;
}

// Calls body(offset, length) over [0, count) in blocks of kBlock, blocks split over the threads.
template <class F>
void forEachBlock(std::size_t count, F&& body)
{
    parallelFor(
        (count + kBlock - 1) / kBlock,
        [&](std::size_t begin, std::size_t end) {
            for(std::size_t b = begin; b < end; ++b)
                body(b * kBlock, std::min(kBlock, count - b * kBlock));
        },
        std::max<std::size_t>(1, 16384 / kBlock));
}

} // namespace

// Both directions choose the element type and the mode once (fn.visitMode) and compute
// alpha * f + beta * out per element exactly as the scalar definition does: dense tensors of equal
// strides run as flat blocks, others through forEachStrided.
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
    const bool dense = denseAndAlike(xDesc, {&yDesc});
    elementwise::visitFloatType(xDesc.type(), [&](auto io) {
        using Io = decltype(io);
        fn.visitMode([&](auto mode) {
            constexpr miopenActivationMode_t M = decltype(mode)::value;
            if(!dense)
            {
                elementwise::forEachStrided<2>(xDesc.lens(), {&xDesc.strides(), &yDesc.strides()}, [&](const auto& off) {
                    const float r = alpha * fn.template forwardAs<M>(Io::load(x, off[0]));
                    Io::store(y, off[1], beta == 0.0f ? r : r + beta * Io::load(y, off[1]));
                });
                return;
            }
            forEachBlock(xDesc.elementCount(), [&](std::size_t off, std::size_t n) {
                float v[kBlock];
                for(std::size_t i = 0; i < n; ++i)
                    v[i] = Io::load(x, off + i);
                for(std::size_t i = 0; i < n; ++i)
                    v[i] = alpha * fn.template forwardAs<M>(v[i]);
                if(beta == 0.0f)
                    for(std::size_t i = 0; i < n; ++i)
                        Io::store(y, off + i, v[i]);
                else
                    for(std::size_t i = 0; i < n; ++i)
                        Io::store(y, off + i, v[i] + beta * Io::load(y, off + i));
            });
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
    const bool dense = denseAndAlike(xDesc, {&yDesc, &dyDesc, &dxDesc});
    elementwise::visitFloatType(xDesc.type(), [&](auto io) {
        using Io = decltype(io);
        fn.visitMode([&](auto mode) {
            constexpr miopenActivationMode_t M = decltype(mode)::value;
            if(!dense)
            {
                elementwise::forEachStrided<4>(
                    xDesc.lens(), {&xDesc.strides(), &yDesc.strides(), &dyDesc.strides(), &dxDesc.strides()},
                    [&](const auto& off) {
                        const float r = alpha * fn.template backwardAs<M>(Io::load(dy, off[2]), Io::load(x, off[0]),
                                                                          Io::load(y, off[1]));
                        Io::store(dx, off[3], beta == 0.0f ? r : r + beta * Io::load(dx, off[3]));
                    });
                return;
            }
            // Operands the mode does not read are not loaded (they would only cost bandwidth).
            constexpr bool kReadsX = ActivationFn::backwardReadsX(M);
            constexpr bool kReadsY = ActivationFn::backwardReadsY(M);
            forEachBlock(xDesc.elementCount(), [&](std::size_t off, std::size_t n) {
                float g[kBlock], xv[kReadsX ? kBlock : 1], yv[kReadsY ? kBlock : 1];
                for(std::size_t i = 0; i < n; ++i)
                    g[i] = Io::load(dy, off + i);
                if constexpr(kReadsX)
                    for(std::size_t i = 0; i < n; ++i)
                        xv[i] = Io::load(x, off + i);
                if constexpr(kReadsY)
                    for(std::size_t i = 0; i < n; ++i)
                        yv[i] = Io::load(y, off + i);
                for(std::size_t i = 0; i < n; ++i)
                    g[i] = alpha * fn.template backwardAs<M>(g[i], kReadsX ? xv[i] : 0.0f, kReadsY ? yv[i] : 0.0f);
                if(beta == 0.0f)
                    for(std::size_t i = 0; i < n; ++i)
                        Io::store(dx, off + i, g[i]);
                else
                    for(std::size_t i = 0; i < n; ++i)
                        Io::store(dx, off + i, g[i] + beta * Io::load(dx, off + i));
            });
        });
    });
}

} // namespace miopen
