#include <miopen/batchnorm.hpp>
#include <miopen/elementwise.hpp>
#include <miopen/logger.hpp>

#include <cmath>
#include <sstream>

namespace miopen {

namespace {

using elementwise::visitFloatType;

// Offsets of the packed spatial indices (row-major over dims 2..) in a tensor's strides.
std::vector<std::size_t> spatialOffsets(const TensorDescriptor& d)
{
    const auto& lens = d.lens();
    std::size_t count = 1;
    for(std::size_t i = 2; i < lens.size(); ++i)
        count *= lens[i];
    std::vector<std::size_t> out(count);
    for(std::size_t s = 0; s < count; ++s)
    {
        std::size_t rem = s, off = 0;
        for(std::size_t i = lens.size(); i-- > 2;)
        {
            off += (rem % lens[i]) * d.stride(i);
            rem /= lens[i];
        }
        out[s] = off;
    }
    return out;
}

// Geometry of one batchnorm call: features (channels or channel x spatial position) and, for
// each, the elements of the data tensors that feed it.
struct BnGeometry
{
    bool perAct = false;
    std::size_t n = 0, c = 0, s = 0; // batch, channels, spatial elements
    std::size_t features() const noexcept { return perAct ? c * s : c; }
    std::size_t count() const noexcept { return perAct ? n : n * s; } // elements per feature
    std::size_t channel(std::size_t f) const noexcept { return perAct ? f / s : f; }
    std::size_t sBegin(std::size_t f) const noexcept { return perAct ? f % s : 0; }
    std::size_t sEnd(std::size_t f) const noexcept { return perAct ? f % s + 1 : s; }
};

// Data-tensor addressing: offset(n, c, s) = n * ns + c * cs + sp[s].
struct DataAddr
{
    std::size_t ns, cs;
    std::vector<std::size_t> sp;
    explicit DataAddr(const TensorDescriptor& d) : ns(d.stride(0)), cs(d.stride(1)), sp(spatialOffsets(d)) {}
};

// Parameter-tensor addressing by feature.
struct ParamAddr
{
    miopenDataType_t type;
    std::vector<std::size_t> featureOffset;
    ParamAddr(const TensorDescriptor& d, const BnGeometry& g) : type(d.type())
    {
        const auto sp = spatialOffsets(d);
        featureOffset.resize(g.features());
        for(std::size_t f = 0; f < g.features(); ++f)
            featureOffset[f] = g.channel(f) * d.stride(1) + (g.perAct ? sp[g.sBegin(f)] : 0);
    }
    float load(const void* p, std::size_t f) const { return loadAsFloat(type, p, featureOffset[f]); }
    void store(void* p, std::size_t f, float v) const { storeFromFloat(type, p, featureOffset[f], v); }
};

BnGeometry geometry(const TensorDescriptor& x, miopenBatchNormMode_t mode)
{
    BnGeometry g;
    g.perAct = mode == miopenBNPerActivation;
    g.n      = x.len(0);
    g.c      = x.len(1);
    g.s      = 1;
    for(std::size_t i = 2; i < x.numDims(); ++i)
        g.s *= x.len(i);
    return g;
}

void checkData(const TensorDescriptor& x, const char* xn, const TensorDescriptor& o, const char* on)
{
    x.checkSet(xn);
    o.checkSet(on);
    if(x.numDims() < 3)
        fail(miopenStatusBadParm, std::string(xn) + " must have rank >= 3, got " + x.toString());
    if(!elementwise::isComputeType(x.type()))
        fail(miopenStatusBadParm, std::string(xn) + " must be half, bfloat16 or float");
    if(x.lens() != o.lens())
        fail(miopenStatusBadParm, std::string(xn) + " and " + on + " lengths differ");
    if(x.type() != o.type())
        fail(miopenStatusBadParm, std::string(xn) + " and " + on + " types differ");
}

std::size_t grainFor(std::size_t elementsPerFeature)
{
    return std::max<std::size_t>(1, 32768 / std::max<std::size_t>(1, elementsPerFeature));
}

// Batch mean and biased variance of feature f (two passes, double accumulation).
template <class Io>
void featureStats(const BnGeometry& g, const DataAddr& xa, const void* x, std::size_t f, double& mean, double& var)
{
    const std::size_t c = g.channel(f), s0 = g.sBegin(f), s1 = g.sEnd(f);
    double sum = 0.0;
    for(std::size_t in = 0; in < g.n; ++in)
    {
        const std::size_t base = in * xa.ns + c * xa.cs;
        for(std::size_t is = s0; is < s1; ++is)
            sum += Io::load(x, base + xa.sp[is]);
    }
    mean       = sum / static_cast<double>(g.count());
    double acc = 0.0;
    for(std::size_t in = 0; in < g.n; ++in)
    {
        const std::size_t base = in * xa.ns + c * xa.cs;
        for(std::size_t is = s0; is < s1; ++is)
        {
            const double d = static_cast<double>(Io::load(x, base + xa.sp[is])) - mean;
            acc += d * d;
        }
    }
    var = acc / static_cast<double>(g.count());
}

// y = alpha * (a * x + b) + beta * y over the elements of feature f.
template <class Io>
void applyAffine(const BnGeometry& g, const DataAddr& xa, const void* x, const DataAddr& ya, void* y,
                 std::size_t f, float a, float b, float alpha, float beta)
{
    const std::size_t c = g.channel(f), s0 = g.sBegin(f), s1 = g.sEnd(f);
    for(std::size_t in = 0; in < g.n; ++in)
    {
        const std::size_t xb = in * xa.ns + c * xa.cs, yb = in * ya.ns + c * ya.cs;
        for(std::size_t is = s0; is < s1; ++is)
        {
            const float r = alpha * (a * Io::load(x, xb + xa.sp[is]) + b);
            const std::size_t yo = yb + ya.sp[is];
            Io::store(y, yo, beta == 0.0f ? r : r + beta * Io::load(y, yo));
        }
    }
}

} // namespace

TensorDescriptor deriveBnDescriptor(const TensorDescriptor& xDesc, miopenBatchNormMode_t mode)
{
    xDesc.checkSet("xDesc");
    if(xDesc.numDims() < 3)
        fail(miopenStatusBadParm, "batchnorm input must have rank >= 3, got " + xDesc.toString());
    std::vector<std::size_t> lens(xDesc.numDims(), 1);
    lens[1] = xDesc.len(1);
    if(mode == miopenBNPerActivation)
        for(std::size_t i = 2; i < lens.size(); ++i)
            lens[i] = xDesc.len(i);
    return TensorDescriptor(miopenFloat, lens);
}

void checkBnParamDescs(miopenBatchNormMode_t mode, const TensorDescriptor& xDesc, const BnParamDescs& params)
{
    const auto expected = deriveBnDescriptor(xDesc, mode).lens();
    const TensorDescriptor* all[4]    = {params.scale, params.bias, params.mean, params.var};
    const char* names[4]              = {"scale descriptor", "bias descriptor", "mean descriptor", "variance descriptor"};
    for(int i = 0; i < 4; ++i)
    {
        all[i]->checkSet(names[i]);
        if(all[i]->lens() != expected)
            fail(miopenStatusBadParm, std::string(names[i]) + " " + all[i]->toString() +
                                          " does not match the derived batchnorm shape");
        const auto t = all[i]->type();
        if(t != miopenFloat && t != xDesc.type())
            fail(miopenStatusBadParm, std::string(names[i]) + " must be float or the type of x");
    }
}

void bnForwardTraining(const Handle&,
                       miopenBatchNormMode_t mode,
                       float alpha,
                       float beta,
                       const TensorDescriptor& xDesc,
                       const void* x,
                       const TensorDescriptor& yDesc,
                       void* y,
                       const BnParamDescs& params,
                       const void* scale,
                       const void* bias,
                       double expAvgFactor,
                       void* runningMean,
                       void* runningVar,
                       double epsilon,
                       void* savedMean,
                       void* savedInvVar)
{
    checkData(xDesc, "xDesc", yDesc, "yDesc");
    checkBnParamDescs(mode, xDesc, params);
    check(x != nullptr && y != nullptr && scale != nullptr && bias != nullptr, "x, y, bnScale or bnBias is null");
    check(epsilon >= 0.0, "epsilon must not be negative");
    const BnGeometry g = geometry(xDesc, mode);
    const DataAddr xa(xDesc), ya(yDesc);
    const ParamAddr sa(*params.scale, g), ba(*params.bias, g), ma(*params.mean, g), va(*params.var, g);
    const double m        = static_cast<double>(g.count());
    const double unbias   = m > 1.0 ? m / (m - 1.0) : 1.0;
    visitFloatType(xDesc.type(), [&](auto io) {
        using Io = decltype(io);
        parallelFor(g.features(), [&](std::size_t begin, std::size_t end) {
            for(std::size_t f = begin; f < end; ++f)
            {
                double mean, var;
                featureStats<Io>(g, xa, x, f, mean, var);
                const double invStd = 1.0 / std::sqrt(var + epsilon);
                const double sc     = sa.load(scale, f);
                const float a       = static_cast<float>(sc * invStd);
                const float b       = static_cast<float>(ba.load(bias, f) - sc * invStd * mean);
                applyAffine<Io>(g, xa, x, ya, y, f, a, b, alpha, beta);
                if(savedMean != nullptr)
                    ma.store(savedMean, f, static_cast<float>(mean));
                if(savedInvVar != nullptr)
                    va.store(savedInvVar, f, static_cast<float>(invStd));
                if(runningMean != nullptr)
                    ma.store(runningMean, f, static_cast<float>((1.0 - expAvgFactor) * ma.load(runningMean, f) + expAvgFactor * mean));
                if(runningVar != nullptr)
                    va.store(runningVar, f, static_cast<float>((1.0 - expAvgFactor) * va.load(runningVar, f) +
                                                               expAvgFactor * unbias * var));
            }
        }, grainFor(g.count()));
    });
}

BnAffine bnInferenceAffine(miopenBatchNormMode_t mode,
                           const TensorDescriptor& xDesc,
                           const BnParamDescs& params,
                           const void* scale,
                           const void* bias,
                           const void* estimatedMean,
                           const void* estimatedVar,
                           double epsilon)
{
    checkBnParamDescs(mode, xDesc, params);
    check(scale != nullptr && bias != nullptr && estimatedMean != nullptr && estimatedVar != nullptr,
          "bnScale, bnBias, estimatedMean or estimatedVariance is null");
    check(epsilon >= 0.0, "epsilon must not be negative");
    const BnGeometry g = geometry(xDesc, mode);
    const ParamAddr sa(*params.scale, g), ba(*params.bias, g), ma(*params.mean, g), va(*params.var, g);
    BnAffine out;
    out.perActivation = g.perAct;
    out.spatial       = g.s;
    out.a.resize(g.features());
    out.b.resize(g.features());
    for(std::size_t f = 0; f < g.features(); ++f)
    {
        const double invStd = 1.0 / std::sqrt(static_cast<double>(va.load(estimatedVar, f)) + epsilon);
        const double sc     = sa.load(scale, f);
        out.a[f]            = static_cast<float>(sc * invStd);
        out.b[f]            = static_cast<float>(ba.load(bias, f) - sc * invStd * ma.load(estimatedMean, f));
    }
    return out;
}

void bnForwardInference(const Handle& handle,
                        miopenBatchNormMode_t mode,
                        float alpha,
                        float beta,
                        const TensorDescriptor& xDesc,
                        const void* x,
                        const TensorDescriptor& yDesc,
                        void* y,
                        const BnParamDescs& params,
                        const void* scale,
                        const void* bias,
                        const void* estimatedMean,
                        const void* estimatedVar,
                        double epsilon)
{
    if(estimatedMean == nullptr || estimatedVar == nullptr)
    {
        // As upstream: without estimates the batch statistics normalize x (nothing is saved).
        bnForwardTraining(handle, mode, alpha, beta, xDesc, x, yDesc, y, params, scale, bias, 0.0, nullptr,
                          nullptr, epsilon, nullptr, nullptr);
        return;
    }
    checkData(xDesc, "xDesc", yDesc, "yDesc");
    check(x != nullptr && y != nullptr, "x or y is null");
    const BnAffine aff = bnInferenceAffine(mode, xDesc, params, scale, bias, estimatedMean, estimatedVar, epsilon);
    const BnGeometry g = geometry(xDesc, mode);
    const DataAddr xa(xDesc), ya(yDesc);
    visitFloatType(xDesc.type(), [&](auto io) {
        using Io = decltype(io);
        parallelFor(g.features(), [&](std::size_t begin, std::size_t end) {
            for(std::size_t f = begin; f < end; ++f)
                applyAffine<Io>(g, xa, x, ya, y, f, aff.a[f], aff.b[f], alpha, beta);
        }, grainFor(g.count()));
    });
}

void bnBackward(const Handle&,
                miopenBatchNormMode_t mode,
                float alphaData,
                float betaData,
                float alphaParam,
                float betaParam,
                const TensorDescriptor& xDesc,
                const void* x,
                const TensorDescriptor& dyDesc,
                const void* dy,
                const TensorDescriptor& dxDesc,
                void* dx,
                const BnParamDescs& params,
                const void* scale,
                void* dScale,
                void* dBias,
                double epsilon,
                const void* savedMean,
                const void* savedInvVar)
{
    checkData(xDesc, "xDesc", dyDesc, "dyDesc");
    checkData(xDesc, "xDesc", dxDesc, "dxDesc");
    checkBnParamDescs(mode, xDesc, params);
    check(x != nullptr && dy != nullptr && dx != nullptr && scale != nullptr && dScale != nullptr && dBias != nullptr,
          "x, dy, dx, bnScale, resultBnScaleDiff or resultBnBiasDiff is null");
    check(epsilon >= 0.0, "epsilon must not be negative");
    const bool useSaved = savedMean != nullptr && savedInvVar != nullptr;
    const BnGeometry g  = geometry(xDesc, mode);
    const DataAddr xa(xDesc), dya(dyDesc), dxa(dxDesc);
    const ParamAddr sa(*params.scale, g), ba(*params.bias, g), ma(*params.mean, g), va(*params.var, g);
    const double m = static_cast<double>(g.count());
    visitFloatType(xDesc.type(), [&](auto io) {
        using Io = decltype(io);
        parallelFor(g.features(), [&](std::size_t begin, std::size_t end) {
            for(std::size_t f = begin; f < end; ++f)
            {
                double mean, invStd;
                if(useSaved)
                {
                    mean   = ma.load(savedMean, f);
                    invStd = va.load(savedInvVar, f);
                }
                else
                {
                    double var;
                    featureStats<Io>(g, xa, x, f, mean, var);
                    invStd = 1.0 / std::sqrt(var + epsilon);
                }
                const std::size_t c = g.channel(f), s0 = g.sBegin(f), s1 = g.sEnd(f);
                double sumDy = 0.0, sumDyXhat = 0.0;
                for(std::size_t in = 0; in < g.n; ++in)
                {
                    const std::size_t xb = in * xa.ns + c * xa.cs, db = in * dya.ns + c * dya.cs;
                    for(std::size_t is = s0; is < s1; ++is)
                    {
                        const double d = Io::load(dy, db + dya.sp[is]);
                        sumDy += d;
                        sumDyXhat += d * (static_cast<double>(Io::load(x, xb + xa.sp[is])) - mean) * invStd;
                    }
                }
                const double k = static_cast<double>(sa.load(scale, f)) * invStd / m;
                for(std::size_t in = 0; in < g.n; ++in)
                {
                    const std::size_t xb = in * xa.ns + c * xa.cs, db = in * dya.ns + c * dya.cs,
                                      ob = in * dxa.ns + c * dxa.cs;
                    for(std::size_t is = s0; is < s1; ++is)
                    {
                        const double xhat = (static_cast<double>(Io::load(x, xb + xa.sp[is])) - mean) * invStd;
                        const double v    = k * (m * Io::load(dy, db + dya.sp[is]) - sumDy - xhat * sumDyXhat);
                        const float r     = alphaData * static_cast<float>(v);
                        const std::size_t o = ob + dxa.sp[is];
                        Io::store(dx, o, betaData == 0.0f ? r : r + betaData * Io::load(dx, o));
                    }
                }
                const float ds = alphaParam * static_cast<float>(sumDyXhat);
                const float dbv = alphaParam * static_cast<float>(sumDy);
                sa.store(dScale, f, betaParam == 0.0f ? ds : ds + betaParam * sa.load(dScale, f));
                ba.store(dBias, f, betaParam == 0.0f ? dbv : dbv + betaParam * ba.load(dBias, f));
            }
        }, grainFor(g.count()));
    });
}

std::string bnDriverArgs(const TensorDescriptor& x,
                         const TensorDescriptor& meanDesc,
                         miopenBatchNormMode_t mode,
                         BnDriverDirection dir,
                         bool saved,
                         bool running,
                         bool forBnDriver)
{
    std::ostringstream ss;
    if(forBnDriver)
    {
        const auto xt = x.type(), mt = meanDesc.type();
        if(xt == miopenHalf && mt == miopenHalf)
            ss << "bnormfp16";
        else if(xt == miopenBFloat16 && mt == miopenBFloat16)
            ss << "bnormbfp16";
        else if(xt == miopenHalf && mt == miopenFloat)
            ss << "bnormfp16fp32";
        else if(xt == miopenBFloat16 && mt == miopenFloat)
            ss << "bnormbfp16fp32";
        else
            ss << "bnorm";
    }
    const bool is3d = x.numDims() == 5;
    if(is3d)
        ss << " -n " << x.len(0) << " -c " << x.len(1) << " -D " << x.len(2) << " -H " << x.len(3) << " -W "
           << x.len(4);
    else
    {
        const auto d = driverNchw(x);
        ss << " -n " << d[0] << " -c " << d[1] << " -H " << d[2] << " -W " << d[3];
    }
    ss << " -m " << static_cast<int>(mode);
    if(!forBnDriver)
        return ss.str();
    switch(dir)
    {
    case BnDriverDirection::ForwardTraining: ss << " --forw 1 -b 0"; break;
    case BnDriverDirection::ForwardInference: ss << " --forw 2 -b 0"; break;
    case BnDriverDirection::Backward: ss << " --forw 0 -b 1"; break;
    }
    if(saved)
        ss << " -s 1";
    if(running)
        ss << " -r 1";
    const char* def     = is3d ? "NCDHW" : "NCHW";
    const std::string l = x.layoutString();
    ss << " --layout " << ((x.numDims() == 4 || is3d) && !l.empty() ? l : std::string(def));
    return ss.str();
}

} // namespace miopen
