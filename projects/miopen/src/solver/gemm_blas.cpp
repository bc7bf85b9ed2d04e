// im2col/col2im + GEMM convolution solvers on OpenBLAS (ids 1101..1108 of the reserved range; the
// roles of upstream's GEMM solvers 88..102, which here run on the packed AVX-512 engine of
// solver/gemm.cpp). Per image and group, with P = output spatial size and
// CRS = C/G * filter size:
//   forward          Y[g]  (K/G x P)   = W[g] (K/G x CRS) * col(X)  (CRS x P)
//   backward data    col   (CRS x P)   = W[g]^T           * dY[g]   (K/G x P), then col2im
//   backward weights dW[g] (K/G x CRS) = sum_n dY[g] (K/G x P) * col(X)^T
// The 1x1 variants skip im2col (stride 1: the image is the column matrix; stride > 1: a strided
// gather). Packed NCHW / NCDHW / NCW tensors; fp32, and fp16/bf16 converted to fp32 in the
// workspace. Threading (docs/threading.md): parallelFor over (image, group, column chunk) work
// items, cblas_sgemm single-threaded inside; every per-thread buffer lives in the workspace.
// Backward weights accumulates per-thread partial sums over a fixed partition of the images and
// adds them in thread order, so it is deterministic for a given thread count.
#include <miopen/conv/solvers.hpp>
#include <miopen/datatype.hpp>
#include <miopen/threading.hpp>

#include "conv_geometry.hpp"

#include <cblas.h>

#include <algorithm>
#include <cstring>
#include <string>

namespace miopen {
namespace conv {
namespace {

using detail::Geometry;

enum class Kind
{
    Fwd1x1Stride1, // 1101 (role of upstream 88)
    Fwd1x1Strided, // 1102 (90)
    FwdRest,       // 1103 (91)
    Bwd1x1Strided, // 1104 (95)
    Bwd1x1Stride1, // 1105 (96)
    BwdRest,       // 1106 (97)
    Wrw1x1Stride1, // 1107 (101)
    WrwUniversal,  // 1108 (102)
};

constexpr std::size_t kAlign = 64; // bytes; every workspace slice starts aligned

std::size_t alignUp(std::size_t bytes) { return (bytes + kAlign - 1) / kAlign * kAlign; }

// The workspace, carved into slices: shared fp32 copies of the operands (16-bit types only),
// then one slot per thread.
struct Layout
{
    std::size_t weightsF32 = 0; // bytes of the fp32 weights (16-bit types), or of dW (wrw)
    std::size_t inF32      = 0; // per thread: one fp32 input image (16-bit types)
    std::size_t outF32     = 0; // per thread: one fp32 output image (16-bit types)
    std::size_t col        = 0; // per thread: the column matrix (chunk)
    std::size_t partialDw  = 0; // per thread: partial dW sums (wrw)
    std::size_t threads    = 1;

    std::size_t perThread() const { return inF32 + outF32 + col + partialDw; }
    std::size_t total() const { return weightsF32 + perThread() * threads; }
};

bool is1x1Pad0(const Geometry& g)
{
    for(int i = 0; i < 3; ++i)
        if(g.fil[i] != 1 || g.pad[i] != 0)
            return false;
    return true;
}

bool isUnitStride(const Geometry& g) { return g.str[0] == 1 && g.str[1] == 1 && g.str[2] == 1; }

// im2col of channels [c0, c0 + cpg) of one fp32 image (C x D x H x W, packed) into col
// (cpg*F x P), columns [p0, p1) only (the col matrix has row length p1 - p0).
void im2col(const Geometry& g, const float* img, std::size_t c0, std::size_t p0, std::size_t p1, float* col)
{
    const std::size_t F  = g.filterSpatial();
    const std::size_t np = p1 - p0;
    const std::size_t inPlane = g.inSpatial();
    for(std::size_t c = 0; c < g.cPerGroup; ++c)
    {
        const float* src = img + (c0 + c) * inPlane;
        for(std::size_t f = 0; f < F; ++f)
        {
            const std::size_t fd = f / (g.fil[1] * g.fil[2]), fh = (f / g.fil[2]) % g.fil[1], fw = f % g.fil[2];
            float* row           = col + (c * F + f) * np;
            for(std::size_t p = p0; p < p1; ++p)
            {
                const std::size_t od = p / (g.out[1] * g.out[2]), oh = (p / g.out[2]) % g.out[1], ow = p % g.out[2];
                const long id = static_cast<long>(od) * g.str[0] - g.pad[0] + static_cast<long>(fd) * g.dil[0];
                const long ih = static_cast<long>(oh) * g.str[1] - g.pad[1] + static_cast<long>(fh) * g.dil[1];
                const long iw = static_cast<long>(ow) * g.str[2] - g.pad[2] + static_cast<long>(fw) * g.dil[2];
                const bool inside = id >= 0 && ih >= 0 && iw >= 0 && id < static_cast<long>(g.in[0]) &&
                                    ih < static_cast<long>(g.in[1]) && iw < static_cast<long>(g.in[2]);
                row[p - p0] = inside ? src[(static_cast<std::size_t>(id) * g.in[1] + static_cast<std::size_t>(ih)) * g.in[2] +
                                           static_cast<std::size_t>(iw)]
                                     : 0.0f;
            }
        }
    }
}

// Adds col (cpg*F x P) back into channels [c0, c0 + cpg) of one fp32 image (zeroed by the caller).
void col2im(const Geometry& g, const float* col, std::size_t c0, float* img)
{
    const std::size_t F = g.filterSpatial(), P = g.outSpatial(), inPlane = g.inSpatial();
    for(std::size_t c = 0; c < g.cPerGroup; ++c)
    {
        float* dst = img + (c0 + c) * inPlane;
        for(std::size_t f = 0; f < F; ++f)
        {
            const std::size_t fd = f / (g.fil[1] * g.fil[2]), fh = (f / g.fil[2]) % g.fil[1], fw = f % g.fil[2];
            const float* row     = col + (c * F + f) * P;
            for(std::size_t p = 0; p < P; ++p)
            {
                const std::size_t od = p / (g.out[1] * g.out[2]), oh = (p / g.out[2]) % g.out[1], ow = p % g.out[2];
                const long id = static_cast<long>(od) * g.str[0] - g.pad[0] + static_cast<long>(fd) * g.dil[0];
                const long ih = static_cast<long>(oh) * g.str[1] - g.pad[1] + static_cast<long>(fh) * g.dil[1];
                const long iw = static_cast<long>(ow) * g.str[2] - g.pad[2] + static_cast<long>(fw) * g.dil[2];
                if(id >= 0 && ih >= 0 && iw >= 0 && id < static_cast<long>(g.in[0]) && ih < static_cast<long>(g.in[1]) &&
                   iw < static_cast<long>(g.in[2]))
                    dst[(static_cast<std::size_t>(id) * g.in[1] + static_cast<std::size_t>(ih)) * g.in[2] +
                        static_cast<std::size_t>(iw)] += row[p];
            }
        }
    }
}

class BlasGemmSolver final : public Solver
{
public:
    BlasGemmSolver(Kind kind, std::uint64_t id, const char* name) : _kind(kind), _id(id), _name(name) {}

    std::uint64_t id() const noexcept override { return _id; }
    const char* name() const noexcept override { return _name; }
    miopenConvAlgorithm_t algorithm() const noexcept override { return miopenConvolutionAlgoGEMM; }
    bool computes(Direction d) const noexcept override { return d == direction(); }

    Direction direction() const noexcept
    {
        switch(_kind)
        {
        case Kind::Fwd1x1Stride1:
        case Kind::Fwd1x1Strided:
        case Kind::FwdRest: return Direction::Forward;
        case Kind::Bwd1x1Strided:
        case Kind::Bwd1x1Stride1:
        case Kind::BwdRest: return Direction::BackwardData;
        default: return Direction::BackwardWeights;
        }
    }

    Applicability isApplicable(const ProblemDescription& p) const override
    {
        if(p.direction() != direction())
            return Applicability::no(std::string("direction is ") + directionName(p.direction()) + ", solver handles " +
                                     directionName(direction()));
        const auto t = p.dataType();
        if(t != miopenFloat && t != miopenHalf && t != miopenBFloat16)
            return Applicability::no(std::string("data type ") + dataTypeName(t) + " is not fp32, fp16 or bf16");
        if(p.out().type() != t)
            return Applicability::no("output data type differs from the input's");
        if(!p.isPackedNCHW())
            return Applicability::no("tensors are not all packed NCHW/NCDHW/NCW (layout '" + p.commonLayout() + "')");
        const Geometry g = detail::makeGeometry(p);
        const bool oneByOne = is1x1Pad0(g);
        const bool unit     = isUnitStride(g);
        switch(_kind)
        {
        case Kind::Fwd1x1Stride1:
        case Kind::Bwd1x1Stride1:
        case Kind::Wrw1x1Stride1:
            if(!oneByOne || !unit)
                return Applicability::no("needs a 1x1 filter, zero padding and unit strides");
            break;
        case Kind::Fwd1x1Strided:
        case Kind::Bwd1x1Strided:
            if(!oneByOne || unit)
                return Applicability::no("needs a 1x1 filter, zero padding and a stride > 1");
            break;
        default: break;
        }
        return Applicability::yes();
    }

    std::size_t workspaceSize(const ProblemDescription& p) const override { return layout(p).total(); }

    void run(const Handle&, const ProblemDescription& p, const ConvTensors& t, void* workspace, std::size_t bytes) const override
    {
        const Layout l = layout(p);
        if(bytes < l.total() || (l.total() > 0 && workspace == nullptr))
            fail(miopenStatusBadParm, std::string(_name) + ": workspace too small");
        auto* base = static_cast<unsigned char*>(workspace);
        switch(direction())
        {
        case Direction::Forward: forward(p, t, l, base); break;
        case Direction::BackwardData: backwardData(p, t, l, base); break;
        case Direction::BackwardWeights: backwardWeights(p, t, l, base); break;
        }
    }

private:
    bool needsCol() const { return _kind == Kind::FwdRest || _kind == Kind::BwdRest || _kind == Kind::WrwUniversal ||
                                   _kind == Kind::Fwd1x1Strided || _kind == Kind::Bwd1x1Strided; }

    Layout layout(const ProblemDescription& p) const
    {
        const Geometry g   = detail::makeGeometry(p);
        const bool f32     = p.dataType() == miopenFloat;
        const std::size_t crs = g.cPerGroup * g.filterSpatial();
        Layout l;
        l.threads = threadCount();
        if(!f32)
        {
            l.weightsF32 = alignUp(g.k * crs * sizeof(float));
            l.inF32      = alignUp(g.c * g.inSpatial() * sizeof(float));
            l.outF32     = alignUp(g.k * g.outSpatial() * sizeof(float));
        }
        if(needsCol())
            l.col = alignUp(crs * g.outSpatial() * sizeof(float));
        if(direction() == Direction::BackwardWeights)
        {
            // fp32 problems sum into thread 0's partial directly only if there is one thread;
            // keep one partial per thread for a fixed reduction order.
            l.partialDw = alignUp(g.k * crs * sizeof(float));
            if(f32)
                l.weightsF32 = 0;
        }
        return l;
    }

    static float* slot(unsigned char* base, const Layout& l, std::size_t thread, std::size_t offsetInSlot)
    {
        return reinterpret_cast<float*>(base + l.weightsF32 + thread * l.perThread() + offsetInSlot);
    }

    void forward(const ProblemDescription& p, const ConvTensors& t, const Layout& l, unsigned char* base) const
    {
        const Geometry g      = detail::makeGeometry(p);
        const auto type       = p.dataType();
        const bool f32        = type == miopenFloat;
        const std::size_t crs = g.cPerGroup * g.filterSpatial(), P = g.outSpatial(), inImg = g.c * g.inSpatial(),
                          outImg = g.k * P;
        const float* w = static_cast<const float*>(t.wei);
        if(!f32)
        {
            auto* wf = reinterpret_cast<float*>(base);
            convertToFloat(type, t.wei, wf, g.k * crs);
            w = wf;
        }
        parallelForIndexed(g.n, [&](std::size_t th, std::size_t b, std::size_t e) {
            float* inF   = slot(base, l, th, 0);
            float* outF  = slot(base, l, th, l.inF32);
            float* col   = slot(base, l, th, l.inF32 + l.outF32);
            for(std::size_t n = b; n < e; ++n)
            {
                const float* x = f32 ? static_cast<const float*>(t.in) + n * inImg : inF;
                float* y       = f32 ? static_cast<float*>(t.outOut) + n * outImg : outF;
                if(!f32)
                    convertToFloat(type, static_cast<const unsigned char*>(t.in) + n * inImg * dataTypeSize(type), inF, inImg);
                for(std::size_t grp = 0; grp < g.groups; ++grp)
                {
                    const float* bMat = x + grp * g.cPerGroup * g.inSpatial();
                    if(needsCol())
                    {
                        im2col(g, x, grp * g.cPerGroup, 0, P, col);
                        bMat = col;
                    }
                    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, static_cast<int>(g.kPerGroup), static_cast<int>(P),
                                static_cast<int>(crs), 1.0f, w + grp * g.kPerGroup * crs, static_cast<int>(crs), bMat,
                                static_cast<int>(P), 0.0f, y + grp * g.kPerGroup * P, static_cast<int>(P));
                }
                if(!f32)
                    convertFromFloat(type, outF, static_cast<unsigned char*>(t.outOut) + n * outImg * dataTypeSize(type), outImg);
            }
        });
    }

    void backwardData(const ProblemDescription& p, const ConvTensors& t, const Layout& l, unsigned char* base) const
    {
        const Geometry g      = detail::makeGeometry(p);
        const auto type       = p.dataType();
        const bool f32        = type == miopenFloat;
        const std::size_t crs = g.cPerGroup * g.filterSpatial(), P = g.outSpatial(), inImg = g.c * g.inSpatial(),
                          outImg = g.k * P;
        const float* w = static_cast<const float*>(t.wei);
        if(!f32)
        {
            auto* wf = reinterpret_cast<float*>(base);
            convertToFloat(type, t.wei, wf, g.k * crs);
            w = wf;
        }
        parallelForIndexed(g.n, [&](std::size_t th, std::size_t b, std::size_t e) {
            float* dxF = slot(base, l, th, 0);
            float* dyF = slot(base, l, th, l.inF32);
            float* col = slot(base, l, th, l.inF32 + l.outF32);
            for(std::size_t n = b; n < e; ++n)
            {
                const float* dy = f32 ? static_cast<const float*>(t.out) + n * outImg : dyF;
                float* dx       = f32 ? static_cast<float*>(t.inOut) + n * inImg : dxF;
                if(!f32)
                    convertToFloat(type, static_cast<const unsigned char*>(t.out) + n * outImg * dataTypeSize(type), dyF, outImg);
                if(needsCol())
                    std::fill(dx, dx + inImg, 0.0f);
                for(std::size_t grp = 0; grp < g.groups; ++grp)
                {
                    float* cMat = needsCol() ? col : dx + grp * g.cPerGroup * g.inSpatial();
                    cblas_sgemm(CblasRowMajor, CblasTrans, CblasNoTrans, static_cast<int>(crs), static_cast<int>(P),
                                static_cast<int>(g.kPerGroup), 1.0f, w + grp * g.kPerGroup * crs, static_cast<int>(crs),
                                dy + grp * g.kPerGroup * P, static_cast<int>(P), 0.0f, cMat, static_cast<int>(P));
                    if(needsCol())
                        col2im(g, col, grp * g.cPerGroup, dx);
                }
                if(!f32)
                    convertFromFloat(type, dxF, static_cast<unsigned char*>(t.inOut) + n * inImg * dataTypeSize(type), inImg);
            }
        });
    }

    void backwardWeights(const ProblemDescription& p, const ConvTensors& t, const Layout& l, unsigned char* base) const
    {
        const Geometry g      = detail::makeGeometry(p);
        const auto type       = p.dataType();
        const bool f32        = type == miopenFloat;
        const std::size_t crs = g.cPerGroup * g.filterSpatial(), P = g.outSpatial(), inImg = g.c * g.inSpatial(),
                          outImg = g.k * P, wSize = g.k * crs;
        const std::size_t partialOffset = l.inF32 + l.outF32 + l.col;
        const std::size_t chunks = parallelForIndexed(g.n, [&](std::size_t th, std::size_t b, std::size_t e) {
            float* xF      = slot(base, l, th, 0);
            float* dyF     = slot(base, l, th, l.inF32);
            float* col     = slot(base, l, th, l.inF32 + l.outF32);
            float* partial = slot(base, l, th, partialOffset);
            std::fill(partial, partial + wSize, 0.0f);
            for(std::size_t n = b; n < e; ++n)
            {
                const float* x  = f32 ? static_cast<const float*>(t.in) + n * inImg : xF;
                const float* dy = f32 ? static_cast<const float*>(t.out) + n * outImg : dyF;
                if(!f32)
                {
                    convertToFloat(type, static_cast<const unsigned char*>(t.in) + n * inImg * dataTypeSize(type), xF, inImg);
                    convertToFloat(type, static_cast<const unsigned char*>(t.out) + n * outImg * dataTypeSize(type), dyF, outImg);
                }
                for(std::size_t grp = 0; grp < g.groups; ++grp)
                {
                    const float* bMat = x + grp * g.cPerGroup * g.inSpatial();
                    if(needsCol())
                    {
                        im2col(g, x, grp * g.cPerGroup, 0, P, col);
                        bMat = col;
                    }
                    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, static_cast<int>(g.kPerGroup), static_cast<int>(crs),
                                static_cast<int>(P), 1.0f, dy + grp * g.kPerGroup * P, static_cast<int>(P), bMat,
                                static_cast<int>(P), 1.0f, partial + grp * g.kPerGroup * crs, static_cast<int>(crs));
                }
            }
        });
        // Fixed-order reduction of the partial sums (deterministic).
        float* dw = f32 ? static_cast<float*>(t.weiOut) : reinterpret_cast<float*>(base);
        const float* first = slot(base, l, 0, partialOffset);
        std::copy(first, first + wSize, dw);
        for(std::size_t th = 1; th < chunks; ++th)
        {
            const float* part = slot(base, l, th, partialOffset);
            for(std::size_t i = 0; i < wSize; ++i)
                dw[i] += part[i];
        }
        if(!f32)
            convertFromFloat(type, dw, t.weiOut, wSize);
    }

    Kind _kind;
    std::uint64_t _id;
    const char* _name;
};

} // namespace

std::vector<const Solver*> blasGemmSolvers()
{
    static const BlasGemmSolver fwd11(Kind::Fwd1x1Stride1, 1101, "GemmBlasFwd1x1_0_1");
    static const BlasGemmSolver fwd11s(Kind::Fwd1x1Strided, 1102, "GemmBlasFwd1x1_0_2");
    static const BlasGemmSolver fwdRest(Kind::FwdRest, 1103, "GemmBlasFwdRest");
    static const BlasGemmSolver bwd11s(Kind::Bwd1x1Strided, 1104, "GemmBlasBwd1x1_stride2");
    static const BlasGemmSolver bwd11(Kind::Bwd1x1Stride1, 1105, "GemmBlasBwd1x1_stride1");
    static const BlasGemmSolver bwdRest(Kind::BwdRest, 1106, "GemmBlasBwdRest");
    static const BlasGemmSolver wrw11(Kind::Wrw1x1Stride1, 1107, "GemmBlasWrw1x1_stride1");
    static const BlasGemmSolver wrwAll(Kind::WrwUniversal, 1108, "GemmBlasWrwUniversal");
    return {&fwd11, &fwd11s, &fwdRest, &bwd11s, &bwd11, &bwdRest, &wrw11, &wrwAll};
}

} // namespace conv
} // namespace miopen
