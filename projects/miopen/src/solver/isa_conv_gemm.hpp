// GEMM-based convolution algorithms (forward, backward data, backward weights) on the packed
// GEMM engine of isa_gemm.hpp. NOT include-guarded: included once per instruction set after
// isa_gemm.hpp (see isa.hpp).
//
// Every routine here both measures and runs: called with null data pointers it only carves the
// workspace and returns the bytes it needs; called with data it checks the workspace it got and
// computes. Tensors are packed NCHW / NCDHW (the solvers check that), so Geometry strides are the
// packed ones.
//
// Threading: the work is split into threadCount() slots (pixel columns, images or output
// columns; statically, or as items the slots claim one after another), each slot with its own
// scratch carved from the workspace; every output element is produced by exactly one slot or
// item in a fixed order, so results are bitwise reproducible for a given thread count.

// Column block for staged outputs: keep the stage (M x ncBlock floats) around 4 MiB.
inline std::size_t stagedColumnBlock(std::size_t M)
{
    constexpr std::size_t kStageFloats = std::size_t{1} << 20;
    const std::size_t n                = kStageFloats / std::max<std::size_t>(M, 1) / kNR * kNR;
    return std::min(kNCMax, std::max(kNR, n));
}

// Rows ahead whose staged values the staged epilogues prefetch. A stage (M x ncBlock floats,
// megabytes) is larger than L2, and the epilogues read it a short run per row (a channel's pixels
// of one image, a col row), rows ld floats apart, which the hardware prefetchers do not follow:
// without prefetching each run waits for L3 or memory. On 1x1_1024_512_14_s2 backward data at a
// busy hour of the Zen 5 VM, GemmBwd1x1_stride2 with the plane spread took 8.2-9.4 ms without it
// (row by row: 7.1-7.2) and 6.3 ms with it (oneDNN 4.9-5.0); 8 to 64 rows ahead measured the same.
constexpr std::size_t kStagePrefetchRows = 16;

// Prefetches the cache lines of floats [p, p + n), at most the first kMaxLines of them.
inline void prefetchFloats(const float* p, std::size_t n)
{
    constexpr std::size_t kMaxLines = 64;
    const char* b         = reinterpret_cast<const char*>(p);
    const std::size_t len = std::min(n * sizeof(float), kMaxLines * 64);
    for(std::size_t off = 0; off < len; off += 64)
        __builtin_prefetch(b + off);
    if(len > 0)
        __builtin_prefetch(b + len - 1);
}

// The per-slot buffers of a GEMM whose A is packed on the fly (the backward-weights solvers):
// declared in a SlotRegions, then handed out as the slot's GemmScratch.
struct DynamicGemmRegions
{
    std::size_t bPack = 0, aPack = 0, tile = 0;
    DynamicGemmRegions(SlotRegions& sr, std::size_t ncBlock)
        : bPack(sr.add(kKC * ncBlock)), aPack(sr.add(kMCDynamic * kKC)), tile(sr.add(kMR * kNR))
    {
    }
    GemmScratch scratch(const SlotRegions& sr, std::size_t s) const
    {
        GemmScratch sc;
        sc.bPack = sr.at(s, bPack);
        sc.aPack = sr.at(s, aPack);
        sc.tile  = sr.at(s, tile);
        return sc;
    }
};

class PlaneSpread;

// Where element (i, column j = n*P + p) of a GEMM result goes in an NCHW tensor of element type
// E: n*imageStride + (rowBase + i)*rowStride + p. With `strided` (1x1 strided backward data) the
// pixels p of the small (output) grid land on every stride-th element of the large (input) grid
// described by g, and the epilogue writes the zeros between them; with `zeroRows` (2-D, fp32)
// also the input rows no output row reaches, after the row before them (each output cache line
// is then written once, by one slot), and with `stream` it writes with non-temporal stores.
struct OutputMap
{
    std::size_t imageStride = 0, rowStride = 0, P = 1;
    bool strided            = false;
    const Geometry* g       = nullptr;
    bool zeroRows           = false;
    bool stream             = false;
    const PlaneSpread* plane = nullptr; // zeroRows: whole planes in one step (null: row by row)
};

// Floats of the span the strided epilogue assembles before writing it (zeroRows: a run of one
// input row and the zero rows after it, at most stride x input width).
constexpr std::size_t kSpreadSpanMax = 2048;

// Spreads a whole output plane (the out[1] x out[2] values of one channel of one image, in row
// order) onto its input plane (in[1] x in[2] floats) of a 2-D 1x1, pad 0, strided convolution:
// each value at its stride-th position, zeros everywhere else. The positions are planned once
// per call: for each group of kLanes consecutive plane floats, the first value it takes, the
// lanes that take one and from which of the values after the first. The values of a group are
// consecutive (both orders are row-major), so a group costs one masked load, one permute and one
// store, where spreading row by row costs a few dozen instructions per output row (14x14 inputs
// with stride 2: 7 values a row, 7 rows a plane).
class PlaneSpread
{
public:
#if MIOPEN_ISA_AVX512
    static constexpr std::size_t kLanes = 16;
#else
    static constexpr std::size_t kLanes = 8;
#endif
    static constexpr std::size_t kMaxGroups = kSpreadSpanMax / kLanes;

    // False (and the plan unusable) when the plane is not 2-D or larger than a spread span.
    bool build(const Geometry& g)
    {
        len_ = g.in[1] * g.in[2];
        if(g.in[0] != 1 || g.out[0] != 1 || len_ == 0 || len_ > kSpreadSpanMax)
            return false;
        const std::size_t s1 = static_cast<std::size_t>(g.str[1]), s2 = static_cast<std::size_t>(g.str[2]);
        groups_ = ceilDiv(len_, kLanes);
        for(std::size_t v = 0; v < groups_; ++v)
        {
            Group& gr = group_[v];
            gr        = Group{};
            bool any  = false;
            for(std::size_t t = 0; t < kLanes && v * kLanes + t < len_; ++t)
            {
                const std::size_t q = v * kLanes + t, ih = q / g.in[2], iw = q % g.in[2];
                if(ih % s1 != 0 || ih / s1 >= g.out[1] || iw % s2 != 0 || iw / s2 >= g.out[2])
                    continue;
                const std::size_t src = ih / s1 * g.out[2] + iw / s2;
                if(!any)
                    gr.first = static_cast<std::int32_t>(src);
                any = true;
                const std::size_t rel = src - static_cast<std::size_t>(gr.first);
                if(rel >= kLanes) // cannot happen for row-major orders; keep the row path then
                    return false;
                gr.index[t] = static_cast<std::int32_t>(rel);
                gr.values |= 1u << t;
                gr.count = static_cast<std::uint32_t>(rel + 1);
            }
        }
        return true;
    }

    std::size_t length() const { return len_; }

    // dst[0 .. length()) = the input plane of the values src[0 .. out[1]*out[2]).
    void apply(const float* src, float* dst) const
    {
        for(std::size_t v = 0; v < groups_; ++v)
        {
            const Group& gr       = group_[v];
            const std::size_t off = v * kLanes;
            const std::size_t n   = std::min(kLanes, len_ - off);
#if MIOPEN_ISA_AVX512
            const __m512 in  = _mm512_maskz_loadu_ps(static_cast<__mmask16>((1u << gr.count) - 1), src + gr.first);
            const __m512i ix = _mm512_load_si512(gr.index);
            const __m512 out = _mm512_maskz_permutexvar_ps(static_cast<__mmask16>(gr.values), ix, in);
            _mm512_mask_storeu_ps(dst + off, static_cast<__mmask16>((1u << n) - 1), out);
#elif MIOPEN_ISA_AVX2
            const __m256i lane  = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
            const __m256i bits  = _mm256_setr_epi32(1, 2, 4, 8, 16, 32, 64, 128);
            const __m256i load  = _mm256_cmpgt_epi32(_mm256_set1_epi32(static_cast<int>(gr.count)), lane);
            const __m256i set   = _mm256_and_si256(_mm256_set1_epi32(static_cast<int>(gr.values)), bits);
            const __m256i keep  = _mm256_cmpeq_epi32(set, bits);
            const __m256 in     = _mm256_maskload_ps(src + gr.first, load);
            const __m256i ix    = _mm256_load_si256(reinterpret_cast<const __m256i*>(gr.index));
            const __m256 out    = _mm256_and_ps(_mm256_permutevar8x32_ps(in, ix), _mm256_castsi256_ps(keep));
            const __m256i store = _mm256_cmpgt_epi32(_mm256_set1_epi32(static_cast<int>(n)), lane);
            _mm256_maskstore_ps(dst + off, store, out);
#else
            for(std::size_t t = 0; t < n; ++t)
                dst[off + t] = (gr.values >> t & 1u) != 0 ? src[gr.first + gr.index[t]] : 0.0f;
#endif
        }
    }

private:
    struct alignas(64) Group
    {
        std::int32_t index[kLanes] = {};
        std::int32_t first         = 0;
        std::uint32_t values       = 0; // lane t takes src[first + index[t]] when bit t is set
        std::uint32_t count        = 0; // values src[first .. first + count) are read
    };
    Group group_[kMaxGroups];
    std::size_t len_ = 0, groups_ = 0;
};

// dst[0 .. n) = src[0 .. n); with `stream`, the whole cache lines of dst are written with
// non-temporal stores (the caller fences).
inline void copyOut(const float* src, std::size_t n, float* dst, bool stream)
{
#if MIOPEN_ISA_AVX512
    if(stream && reinterpret_cast<std::uintptr_t>(dst) % sizeof(float) == 0)
    {
        const std::size_t head = std::min(n, (64 - reinterpret_cast<std::uintptr_t>(dst) % 64) % 64 / sizeof(float));
        std::memcpy(dst, src, head * sizeof(float));
        std::size_t t = head;
        for(; t + 16 <= n; t += 16)
            _mm512_stream_ps(dst + t, _mm512_loadu_ps(src + t));
        std::memcpy(dst + t, src + t, (n - t) * sizeof(float));
        return;
    }
#elif MIOPEN_ISA_AVX2
    if(stream && reinterpret_cast<std::uintptr_t>(dst) % sizeof(float) == 0)
    {
        const std::size_t head = std::min(n, (64 - reinterpret_cast<std::uintptr_t>(dst) % 64) % 64 / sizeof(float));
        std::memcpy(dst, src, head * sizeof(float));
        std::size_t t = head;
        for(; t + 16 <= n; t += 16) // whole 64-byte lines, two 32-byte streaming stores each
        {
            _mm256_stream_ps(dst + t, _mm256_loadu_ps(src + t));
            _mm256_stream_ps(dst + t + 8, _mm256_loadu_ps(src + t + 8));
        }
        std::memcpy(dst + t, src + t, (n - t) * sizeof(float));
        return;
    }
#endif
    static_cast<void>(stream);
    std::memcpy(dst, src, n * sizeof(float));
}

// Packs the weights of every group as GEMM A. Forward: A(i, k) = W[g*M + i][k] (K = C/G *
// filter); backward data (transposeW): A(i, k) = W[g*K + k][i] (M = C/G * filter).
template <class E>
void prepackWeights(std::size_t G, std::size_t M, std::size_t K, const typename E::T* w, bool transposeW, float* apack)
{
    const std::size_t aSize  = prepackedSize(M, K);
    const std::size_t panels = ceilDiv(M, kMR);
    parallelFor(G * panels, [&](std::size_t b, std::size_t e) {
        for(std::size_t item = b; item < e; ++item)
        {
            const std::size_t grp = item / panels, p = item % panels;
            const typename E::T* wg = w + grp * M * K;
            if constexpr(std::is_same<E, ElemF32>::value)
            {
                // fp32: whole rows at a time (the 1x1 layers with the most weights spent ~6% of
                // their time here element by element). Forward: the panel's rows are rows of W,
                // transposed into it; backward data: each k is kMR consecutive floats of W.
                const std::size_t rows = std::min(kMR, M - p * kMR);
                for(std::size_t pc = 0; pc < K; pc += kKC)
                {
                    const std::size_t kc = std::min(kKC, K - pc);
                    float* panel         = apack + grp * aSize + pc * roundUp(M, kMR) + p * kMR * kc;
                    if(transposeW)
                        for(std::size_t k = 0; k < kc; ++k)
                        {
                            std::memcpy(panel + k * kMR, wg + (pc + k) * M + p * kMR, rows * sizeof(float));
                            std::fill(panel + k * kMR + rows, panel + (k + 1) * kMR, 0.0f);
                        }
                    else
                    {
                        const float* ptrs[kMR];
                        for(std::size_t i = 0; i < rows; ++i)
                            ptrs[i] = wg + (p * kMR + i) * K + pc;
                        transposeIntoPanel(ptrs, rows, kc, panel, kMR);
                    }
                }
                continue;
            }
            if(transposeW)
                prepackPanels(M, K, p, p + 1, [&](std::size_t i, std::size_t k) { return E::load(wg[k * M + i]); },
                              apack + grp * aSize);
            else
                prepackPanels(M, K, p, p + 1, [&](std::size_t i, std::size_t k) { return E::load(wg[i * K + k]); },
                              apack + grp * aSize);
        }
    });
}

// C (M x Ntot) = A_g (prepacked) * B_g for every group, the Ntot pixel columns split over the
// slots. makeB(group, colOffset) gives the B provider of a slot; the result goes to `out` through
// `map` (in place for fp32 with a plain map, staged otherwise).
template <class E, class MakeB>
std::size_t columnParallelGemm(const char* solver, std::size_t G, std::size_t M, std::size_t K, std::size_t Ntot,
                               const typename E::T* w, bool transposeW, MakeB makeB,
                               typename E::T* out, const OutputMap& map, std::size_t groupRowOffset, void* ws,
                               std::size_t wsBytes)
{
    const bool inPlace        = std::is_same<E, ElemF32>::value && !map.strided;
    const std::size_t ncBlock = inPlace ? kNCMax : stagedColumnBlock(M);
    const std::size_t slots   = threadCount();
    const std::size_t aSize   = prepackedSize(M, K);

    SlotRegions sr;
    const std::size_t oPack  = sr.add(kKC * ncBlock);
    const std::size_t oTile  = sr.add(kMR * kNR);
    const std::size_t oStage = inPlace ? 0 : sr.add(M * ncBlock);
    Carver cv(ws);
    float* apack = cv.take(G * aSize);
    sr.place(cv.take(slots * sr.strideFloats()));
    if(w == nullptr)
        return cv.requiredBytes();
    checkWorkspace(solver, ws, wsBytes, cv.requiredBytes());

    prepackWeights<E>(G, M, K, w, transposeW, apack);

    forEachSlot(slots, [&](std::size_t s) {
        const auto range = splitRange(Ntot, s, slots, kNR);
        if(range.first >= range.second)
            return;
        GemmScratch scratch;
        scratch.bPack = sr.at(s, oPack);
        scratch.tile  = sr.at(s, oTile);
        float* stage  = sr.at(s, oStage);
        const std::size_t n = range.second - range.first;
        for(std::size_t grp = 0; grp < G; ++grp)
        {
            PrepackedA a{apack + grp * aSize, M};
            auto b = makeB(grp, range.first);
            typename E::T* og = out + grp * groupRowOffset * map.rowStride;
            if(inPlace)
            {
                BatchedC c{reinterpret_cast<float*>(og), map.rowStride, map.imageStride, map.P, range.first};
                gemm(M, n, K, ncBlock, a, b, c, scratch);
            }
            else
            {
                const std::size_t colBase = range.first;
                auto c = makeStagedC(stage, ncBlock, [&](const float* st, std::size_t ld, std::size_t jc, std::size_t nc) {
                    if(map.strided)
                    {
                        // Whole input rows from each output-row run: the values at every
                        // stride-th position, zeros between and after the last one.
                        const Geometry& geo = *map.g;
                        OutputRowSegment segs[kNCMax + 2];
                        const std::size_t nseg = Im2colGeometry{map.g, 0}.split(colBase + jc, nc, segs);
                        const std::size_t s2   = static_cast<std::size_t>(geo.str[2]);
                        // zeroRows: the spans of consecutive runs that continue each other in dX
                        // (the rows of one image's channel plane) are assembled together and
                        // written at once: on small images a run and its zero row are only a few
                        // cache lines, and written one by one most of their lines were partial
                        // (read for ownership, no streaming).
                        alignas(64) float span[kSpreadSpanMax];
                        float* pendingDst      = nullptr;
                        std::size_t pendingLen = 0;
                        const auto flush = [&] {
                            if(pendingLen > 0)
                                copyOut(span, pendingLen, pendingDst, map.stream);
                            pendingLen = 0;
                        };
                        // Image by image, and in each image channel by channel: dX is then
                        // written in memory order, so with zeroRows the planes of consecutive
                        // channels continue each other too.
                        for(std::size_t sa = 0, sb = 0; sa < nseg; sa = sb)
                        {
                            while(sb < nseg && segs[sb].n == segs[sa].n)
                                ++sb;
                            // Floats of one channel's run of this image in the stage.
                            const std::size_t runFloats = segs[sb - 1].offset + segs[sb - 1].len - segs[sa].offset;
                            if constexpr(std::is_same<E, ElemF32>::value)
                            {
                                // The whole image in this block: plane by plane.
                                if(map.plane != nullptr && sb - sa == geo.out[1] && segs[sa].oh == 0 &&
                                   segs[sa].ow0 == 0 && segs[sb - 1].len == geo.out[2])
                                {
                                    const std::size_t L = map.plane->length();
                                    for(std::size_t i = 0; i < M; ++i)
                                    {
                                        float* d = og + segs[sa].n * map.imageStride + i * map.rowStride;
                                        if(pendingDst + pendingLen != d || pendingLen + L > kSpreadSpanMax)
                                            flush();
                                        if(pendingLen == 0)
                                            pendingDst = d;
                                        if(i + kStagePrefetchRows < M)
                                            prefetchFloats(st + (i + kStagePrefetchRows) * ld + segs[sa].offset, runFloats);
                                        map.plane->apply(st + i * ld + segs[sa].offset, span + pendingLen);
                                        pendingLen += L;
                                    }
                                    continue;
                                }
                            }
                            for(std::size_t i = 0; i < M; ++i)
                            {
                                if(i + kStagePrefetchRows < M)
                                    prefetchFloats(st + (i + kStagePrefetchRows) * ld + segs[sa].offset, runFloats);
                                for(std::size_t si = sa; si < sb; ++si)
                                {
                                    const OutputRowSegment& sg = segs[si];
                                    typename E::T* d = og + sg.n * map.imageStride + i * map.rowStride +
                                                       sg.od * static_cast<std::size_t>(geo.str[0]) * geo.xs[2] +
                                                       sg.oh * static_cast<std::size_t>(geo.str[1]) * geo.xs[3];
                                    const float* src      = st + i * ld + sg.offset;
                                    const std::size_t x0  = sg.ow0 * s2;
                                    const std::size_t x1  = sg.ow0 + sg.len == geo.out[2] ? geo.in[2]
                                                                                          : (sg.ow0 + sg.len) * s2;
                                    // All but the last value with the zeros after each, then the last
                                    // value and zeros up to x1 (the row end for the last run).
                                    const std::size_t full = sg.len - 1;
                                    if constexpr(std::is_same<E, ElemF32>::value)
                                    {
                                        if(map.zeroRows)
                                        {
                                            // The run and, when it ends its row, the zero rows up to
                                            // the next row an output row reaches (or the plane's end),
                                            // assembled in L1 and written as one span.
                                            const std::size_t s1 = static_cast<std::size_t>(geo.str[1]);
                                            const std::size_t ih = sg.oh * s1;
                                            const std::size_t zeroRows = x1 != geo.in[2]            ? 0
                                                                         : sg.oh + 1 < geo.out[1] ? s1 - 1
                                                                                                  : geo.in[1] - 1 - ih;
                                            const std::size_t spanLen = x1 - x0 + zeroRows * geo.in[2];
                                            if(pendingDst + pendingLen != d + x0 ||
                                               pendingLen + spanLen > kSpreadSpanMax)
                                                flush();
                                            if(pendingLen == 0)
                                                pendingDst = d + x0;
                                            float* sp = span + pendingLen;
                                            spreadStrided(src, full, s2, sp);
                                            sp[full * s2] = src[full];
                                            std::fill(sp + full * s2 + 1, sp + spanLen, 0.0f);
                                            pendingLen += spanLen;
                                            continue;
                                        }
                                        spreadStrided(src, full, s2, d + x0);
                                    }
                                    else
                                        for(std::size_t t = 0; t < full; ++t)
                                        {
                                            d[x0 + t * s2] = E::store(src[t]);
                                            for(std::size_t z = 1; z < s2; ++z)
                                                d[x0 + t * s2 + z] = E::store(0.0f);
                                        }
                                    d[x0 + full * s2] = E::store(src[full]);
                                    for(std::size_t x = x0 + full * s2 + 1; x < x1; ++x)
                                        d[x] = E::store(0.0f);
                                }
                            }
                        }
                        flush();
                        return;
                    }
                    ColumnSegment segs[kNCMax + 2];
                    const std::size_t nseg = splitByImage(colBase + jc, nc, map.P, segs);
                    for(std::size_t i = 0; i < M; ++i)
                    {
                        if(i + kStagePrefetchRows < M)
                            prefetchFloats(st + (i + kStagePrefetchRows) * ld, nc);
                        for(std::size_t si = 0; si < nseg; ++si)
                        {
                            const ColumnSegment& sg = segs[si];
                            typename E::T* d        = og + sg.n * map.imageStride + i * map.rowStride;
                            const float* src        = st + i * ld + sg.offset;
                            for(std::size_t t = 0; t < sg.len; ++t)
                                d[sg.p + t] = E::store(src[t]);
                        }
                    }
                });
                gemm(M, n, K, ncBlock, a, b, c, scratch);
            }
        }
#if MIOPEN_ISA_AVX512 || MIOPEN_ISA_AVX2
        if(map.stream)
            _mm_sfence(); // the slot's non-temporal stores are visible when the call returns
#endif
    });
    return 0;
}

#if MIOPEN_ISA_AVX512
// gatherStridedDense for fp32 rows of at most kMaxCompressRow selected values (ResNet-50's 14x14
// inputs at stride 2 select 7 a row), where a row copy costs its fixed overhead for a handful of
// values. A channel's plane is read a vector at a time; each vector holding selected pixels is
// compressed to them (plan computed once per call) and stored at the next output position.
// False (nothing written) for wider rows or planes past kMaxCompressVectors vectors.
// Alternating runs (2026-12-06, docs/solvers.md): the 14x14 stride-2 layers' forward and backward
// weights 2-8% faster, up to 20% while the VM's host was busy; rows of 14 (28x28 inputs) were up
// to 6% slower than with the row copy, so they keep it. 16-lane hardware gathers in place of the
// compress were 8% slower than the row copy (1x1_1024_512_14_s2 W).
constexpr std::size_t kMaxCompressRow     = 8;
constexpr std::size_t kMaxCompressVectors = 64;
inline bool gatherStridedDenseByCompress(const Geometry& g, const float* xt, std::size_t n0, std::size_t nb,
                                         std::size_t c0, std::size_t c1, float* dense)
{
    const std::size_t P = g.outSpatial();
    if(g.out[2] > kMaxCompressRow || P == 0)
        return false;
    const std::size_t sd   = static_cast<std::size_t>(g.str[0]) * g.xs[2];
    const std::size_t sh   = static_cast<std::size_t>(g.str[1]) * g.xs[3];
    const std::size_t sw   = static_cast<std::size_t>(g.str[2]) * g.xs[4];
    const std::size_t span = (g.out[0] - 1) * sd + (g.out[1] - 1) * sh + (g.out[2] - 1) * sw + 1;
    if(sw == 0 || span > 16 * kMaxCompressVectors || (g.out[2] > 1 && sh < g.out[2] * sw) ||
       (g.out[0] > 1 && sd < (g.out[1] - 1) * sh + g.out[2] * sw))
        return false; // offsets not increasing in output order
    struct Step
    {
        std::uint32_t at, pos;     // input offset of the vector, output position of its first value
        __mmask16 take, load, put; // selected lanes, lanes inside the span, output lanes to write
    };
    Step steps[kMaxCompressVectors];
    std::size_t nsteps = 0, p = 0;
    std::size_t next[3] = {0, 0, 0}; // (od, oh, ow) of pixel p
    auto offsetOf       = [&] { return next[0] * sd + next[1] * sh + next[2] * sw; };
    for(std::size_t v = 0; v * 16 < span && p < P; ++v)
    {
        const std::size_t first = p; // the vector's first selected pixel
        unsigned take           = 0;
        while(p < P && offsetOf() < v * 16 + 16)
        {
            take |= 1u << (offsetOf() - v * 16);
            ++p;
            if(++next[2] == g.out[2])
            {
                next[2] = 0;
                if(++next[1] == g.out[1])
                {
                    next[1] = 0;
                    ++next[0];
                }
            }
        }
        if(p == first)
            continue;
        Step& st = steps[nsteps++];
        st.at    = static_cast<std::uint32_t>(v * 16);
        st.pos   = static_cast<std::uint32_t>(first);
        st.take  = static_cast<__mmask16>(take);
        st.load  = columnMask(span - v * 16, 0);
        st.put   = columnMask(P - first, 0);
    }
    const std::size_t cols = nb * P;
    for(std::size_t c = c0; c < c1; ++c)
        for(std::size_t i = 0; i < nb; ++i)
        {
            const float* base = xt + (n0 + i) * g.xs[0] + c * g.xs[1];
            float* d          = dense + (c - c0) * cols + i * P;
            for(std::size_t k = 0; k < nsteps; ++k)
            {
                const Step& st = steps[k];
                const __m512 in = loadLanes(st.load, base + st.at);
                storeLanes(d + st.pos, st.put, _mm512_maskz_compress_ps(st.take, in));
            }
        }
    return true;
}
#endif

// dense[c - c0][i*P + p] = x[n0 + i][c][strided pixel p] for channels [c0, c1) of nb images
// (1x1, pad 0): the input rows the strides select, read in memory order (with explicit prefetch:
// they are every stride-th row), as a dense fp32 matrix (c1 - c0) x nb*P.
template <class E>
void gatherStridedDense(const Geometry& g, const typename E::T* xt, std::size_t n0, std::size_t nb, std::size_t c0,
                        std::size_t c1, float* dense)
{
    using T                 = typename E::T;
#if MIOPEN_ISA_AVX512
    if constexpr(std::is_same<E, ElemF32>::value)
    {
        if(gatherStridedDenseByCompress(g, xt, n0, nb, c0, c1, dense))
            return;
    }
#endif
    const std::size_t P     = g.outSpatial();
    const std::size_t cols  = nb * P;
    const std::size_t step  = static_cast<std::size_t>(g.str[2]) * g.xs[4];
    const std::size_t bytes = ((g.out[2] - 1) * step + 1) * sizeof(T);
    for(std::size_t c = c0; c < c1; ++c)
        for(std::size_t i = 0; i < nb; ++i)
            for(std::size_t od = 0; od < g.out[0]; ++od)
                for(std::size_t oh = 0; oh < g.out[1]; ++oh)
                {
                    const T* src = xt + (n0 + i) * g.xs[0] + c * g.xs[1] +
                                   od * static_cast<std::size_t>(g.str[0]) * g.xs[2] +
                                   oh * static_cast<std::size_t>(g.str[1]) * g.xs[3];
                    float* d = dense + (c - c0) * cols + i * P + (od * g.out[1] + oh) * g.out[2];
                    // A few selected rows ahead (past the plane's end: the next channel's rows).
                    const char* ahead =
                        reinterpret_cast<const char*>(src + 12 * static_cast<std::size_t>(g.str[1]) * g.xs[3]);
                    for(std::size_t b = 0; b < bytes; b += 64)
                        __builtin_prefetch(ahead + b);
                    if constexpr(std::is_same<E, ElemF32>::value)
                        copyStrided(src, step, d, g.out[2]);
                    else
                        for(std::size_t t = 0; t < g.out[2]; ++t)
                            d[t] = E::load(src[t * step]);
                }
}

// out[i] = the sum over slots s, in slot order, of partialOf(s)[i] for i < total (the
// deterministic reduction of the backward-weights solvers' per-slot partial dW).
template <class E, class PartialOf>
void addPartialsInSlotOrder(std::size_t total, std::size_t slots, const PartialOf& partialOf, typename E::T* out)
{
    parallelFor(total, [&](std::size_t b, std::size_t e) {
        for(std::size_t i = b; i < e; ++i)
        {
            float v = partialOf(0)[i];
            for(std::size_t s = 1; s < slots; ++s)
                v += partialOf(s)[i];
            out[i] = E::store(v);
        }
    }, 4096);
}

// Packs W_g^T by channel blocks as GEMM A for backward data: block blk of group grp is rows
// c0*FS .. of W_g^T (c0 = blk*cPerBlock), A(r, k) = W[grp*K + k][c0*FS + r], with the layout of
// cPerBlock*FS rows (a short last block is zero-padded).
template <class E>
void prepackTransposedWeightBlocks(const Geometry& g, std::size_t cPerBlock, std::size_t nBlocks,
                                   const typename E::T* wt, float* apack)
{
    const std::size_t FS     = g.filterSpatial();
    const std::size_t K      = g.kPerGroup;
    const std::size_t mMax   = cPerBlock * FS;
    const std::size_t aSize  = prepackedSize(mMax, K);
    const std::size_t panels = ceilDiv(mMax, kMR);
    parallelFor(g.groups * nBlocks * panels, [&](std::size_t b, std::size_t e) {
        for(std::size_t item = b; item < e; ++item)
        {
            const std::size_t p   = item % panels;
            const std::size_t blk = (item / panels) % nBlocks;
            const std::size_t grp = item / panels / nBlocks;
            const std::size_t c0  = blk * cPerBlock;
            const std::size_t m   = (std::min(g.cPerGroup, c0 + cPerBlock) - c0) * FS;
            const typename E::T* wg = wt + grp * K * g.cPerGroup * FS;
            prepackPanels(mMax, K, p, p + 1,
                          [&](std::size_t r, std::size_t k) {
                              return r < m ? E::load(wg[k * g.cPerGroup * FS + c0 * FS + r]) : 0.0f;
                          },
                          apack + (grp * nBlocks + blk) * aSize);
        }
    });
}

// B of the strided 1x1 forward for the images [n0, n0 + nb) and the channels [cBase, cBase + K)
// of a group: the strided input pixels as a dense fp32 matrix (channels x images*output pixels),
// gathered one K block (kKC channels) at a time when the GEMM first asks for that block, into a
// slice of kKC rows that the GEMM's packing then reads from L2. (Gathering all C channels first
// wrote and re-read C*nb*P floats, 2.2 MB per slot for 1x1_1024_512_14_s2, beyond L2.) With more
// than one column block the GEMM visits the K blocks once per column block, and a K block is
// gathered again when it comes back; forwardStrided1x1Gemm keeps a chunk of images within one
// column block, so that happens only for a single image wider than a block with K > kKC.
template <class E>
struct StridedGatherB
{
    static constexpr bool kPanelwise = true;
    const Geometry* g         = nullptr;
    const typename E::T* x    = nullptr;
    std::size_t n0 = 0, nb = 0, cBase = 0, K = 0;
    std::size_t nextN0 = 0, nextNb = 0, nextCBase = 0; // what the caller multiplies next (none: nextNb 0)
    float* slice              = nullptr; // min(kKC, K) x nb*P floats
    std::size_t gathered      = ~std::size_t{0}; // the K block in the slice

    const float* source(std::size_t pc, std::size_t j, std::size_t, std::size_t& ldb)
    {
        if(pc != gathered)
        {
            gatherStridedDense<E>(*g, x, n0, nb, cBase + pc, cBase + pc + std::min(kKC, K - pc), slice);
            gathered = pc;
        }
        ldb = nb * g->outSpatial();
        return slice + j;
    }
    // The input of K block (pc, kc): the planes of its channels in each image (gemm prefetches
    // them during the previous block's products); pc = K: the first block of the next images
    // [nextN0, nextN0 + nextNb), which the caller multiplies next.
    void sourceRanges(std::size_t pc, std::size_t kc, std::size_t, std::size_t, SourceRanges& out) const
    {
        const bool following  = pc >= K;
        const std::size_t c0  = following ? nextCBase : cBase + pc;
        const std::size_t img = following ? nextN0 : n0;
        const std::size_t cnt = following ? nextNb : nb;
        for(std::size_t n = img; n < img + cnt; ++n)
            out.add(x + n * g->xs[0] + c0 * g->xs[1], kc * g->xs[1] * sizeof(typename E::T));
    }
    // The GEMM packs from source(), which always has the panel; this completes the interface.
    void packPanel(std::size_t pc, std::size_t kc, std::size_t j, std::size_t nr, float* dst)
    {
        std::size_t ldb = 0;
        source(pc, j, nr, ldb);
        BatchedMatrix<ElemF32>{slice, ldb, 0, ldb, kc, 0}.packAsB(0, kc, j, nr, dst);
    }
};

// Forward 1x1, pad 0, strides > 1 with at least as many images as threads: each slot takes a
// contiguous range of images and, a few images at a time (enough for ~512 GEMM columns),
// multiplies their strided input pixels like a stride-1 1x1 problem, B gathered block by block
// into a dense slice (StridedGatherB: the selected rows read in memory order). Sequential reads
// beat gathering the stride straight into the GEMM packing. In fp32 the GEMM prefetches each K
// block's input planes during the previous block's products (StridedGatherB::sourceRanges; the
// last block prefetches the next images' first); the staged types prefetch the next images'
// whole input, one stream (as in backwardWeightsStrided1x1Gemm).
template <class E>
std::size_t forwardStrided1x1Gemm(const char* solver, const Geometry& g, const void* x, const void* w, void* y,
                                  void* ws, std::size_t wsBytes)
{
    using T                   = typename E::T;
    const std::size_t M       = g.kPerGroup;
    const std::size_t K       = g.cPerGroup;
    const std::size_t P       = g.outSpatial();
    const std::size_t slots   = threadCount();
    const bool fp32           = std::is_same<E, ElemF32>::value;
    const std::size_t ncBlock = fp32 ? kNCMax : stagedColumnBlock(M);
    const std::size_t aSize   = prepackedSize(M, K);
    // Images per GEMM: ~512 columns, within one column block (StridedGatherB).
    const std::size_t chunk =
        std::max<std::size_t>(1, std::min({ceilDiv(512, P), ncBlock / P, ceilDiv(g.n, slots)}));

    SlotRegions sr;
    const std::size_t oSlice = sr.add(std::min(kKC, K) * chunk * P);
    const std::size_t oPack  = sr.add(kKC * ncBlock);
    const std::size_t oTile  = sr.add(kMR * kNR);
    const std::size_t oStage = fp32 ? 0 : sr.add(M * ncBlock);
    Carver cv(ws);
    float* apack = cv.take(g.groups * aSize);
    sr.place(cv.take(slots * sr.strideFloats()));
    if(w == nullptr)
        return cv.requiredBytes();
    checkWorkspace(solver, ws, wsBytes, cv.requiredBytes());

    prepackWeights<E>(g.groups, M, K, static_cast<const T*>(w), false, apack);
    const auto* xt = static_cast<const T*>(x);
    auto* yt       = static_cast<T*>(y);
    forEachSlot(slots, [&](std::size_t s) {
        float* slice = sr.at(s, oSlice);
        GemmScratch scratch;
        scratch.bPack    = sr.at(s, oPack);
        scratch.tile     = sr.at(s, oTile);
        const auto range = splitRange(g.n, s, slots, 1);
        for(std::size_t n0 = range.first; n0 < range.second; n0 += chunk)
        {
            const std::size_t nb   = std::min(chunk, range.second - n0);
            const std::size_t cols = nb * P;
            const std::size_t nextImages = std::min(chunk, range.second - std::min(range.second, n0 + nb));
            PrefetchStream next(xt + (n0 + nb) * g.xs[0], nextImages * g.xs[0] * sizeof(T));
            for(std::size_t grp = 0; grp < g.groups; ++grp)
            {
                PrepackedA a{apack + grp * aSize, M};
                StridedGatherB<E> b;
                b.g     = &g;
                b.x     = xt;
                b.n0    = n0;
                b.nb    = nb;
                b.cBase = grp * K;
                b.K     = K;
                b.slice = slice;
                if(grp + 1 < g.groups) // the next group's first block, of the same images
                {
                    b.nextN0    = n0;
                    b.nextNb    = nb;
                    b.nextCBase = (grp + 1) * K;
                }
                else
                {
                    b.nextN0 = n0 + nb;
                    b.nextNb = nextImages;
                }
                T* yg = yt + n0 * g.ys[0] + grp * M * g.ys[1];
                if(fp32)
                {
                    BatchedC c{reinterpret_cast<float*>(yg), g.ys[1], g.ys[0], P, 0};
                    gemm(M, cols, K, ncBlock, a, b, c, scratch, false, nullptr);
                }
                else
                {
                    auto c = makeStagedC(sr.at(s, oStage), ncBlock,
                                         [&](const float* st, std::size_t ld, std::size_t jc, std::size_t nc) {
                                             for(std::size_t i = 0; i < M; ++i)
                                                 for(std::size_t t = 0; t < nc; ++t)
                                                 {
                                                     const std::size_t col = jc + t;
                                                     yg[(col / P) * g.ys[0] + i * g.ys[1] + col % P] =
                                                         E::store(st[i * ld + t]);
                                                 }
                                         });
                    gemm(M, cols, K, ncBlock, a, b, c, scratch, false, &next);
                }
            }
        }
    });
    return 0;
}

// Forward: Y_g (K/G x N*P) = W_g (K/G x C/G*FS) * im2col(X_g). `pointwise`: 1x1, stride 1,
// pad 0, so B is X itself (no im2col).
template <class E>
std::size_t forwardGemm(const char* solver, const Geometry& g, bool pointwise, const void* x, const void* w,
                        void* y, void* ws, std::size_t wsBytes)
{
    using T               = typename E::T;
    const std::size_t M   = g.kPerGroup;
    const std::size_t K   = g.cPerGroup * g.filterSpatial();
    const std::size_t P   = g.outSpatial();
    const auto* xt        = static_cast<const T*>(x);
    OutputMap map{g.ys[0], g.ys[1], P, false, &g};
    if(pointwise)
    {
        auto makeB = [&](std::size_t grp, std::size_t colOffset) {
            BatchedB<E> b;
            b.m = BatchedMatrix<E>{xt + grp * g.cPerGroup * g.xs[1], g.xs[1], g.xs[0], P, g.cPerGroup, colOffset};
            return b;
        };
        return columnParallelGemm<E>(solver, g.groups, M, K, g.n * P, static_cast<const T*>(w), false, makeB,
                                     static_cast<T*>(y), map, g.kPerGroup, ws, wsBytes);
    }
    auto makeB = [&](std::size_t grp, std::size_t colOffset) {
        Im2colB<E> b;
        b.ig        = Im2colGeometry{&g, grp};
        b.x         = xt;
        b.colOffset = colOffset;
        return b;
    };
    return columnParallelGemm<E>(solver, g.groups, M, K, g.n * P, static_cast<const T*>(w), false, makeB,
                                 static_cast<T*>(y), map, g.kPerGroup, ws, wsBytes);
}

// ---------------------------------------------------------------------------------------------
// Forward on a phase-split grid (2-D and 1-D; any stride, dilation and padding).
//
// Output pixel (oh, ow) reads the padded input at (oh*sh + fh*dh, ow*sw + fw*dw). Split the
// padded input of an image into phase planes P_ab[u][v] = xpad[u*sh + a][v*sw + b]: the tap
// (fh, fw) then reads P_ab at (oh + fh*dh / sh, ow + fw*dw / sw) with a = fh*dh % sh and
// b = fw*dw % sw. The planes are stored with a row pitch of gw = OW + (FW-1)*dw / sw columns and
// the output pixels are numbered on the same grid (j = oh*gw + ow; the columns ow >= OW are
// junk: computed, then dropped), so im2col row (c, fh, fw) is one contiguous run of plane P_ab
// of channel c starting at (fh*dh / sh)*gw + fw*dw / sw. Packing B is then a copy of long runs
// instead of a gather of short output rows (with strides, a strided gather of each row), and the
// phases are split once per image (about one pass over X) instead of once per tap.

// Splits the padded image `xn` (all channels) into its phase planes, in fp32.
template <class E>
void buildPhasePlanes(const Geometry& g, const PhaseGrid& pg, const typename E::T* xn, float* planes)
{
    using T                  = typename E::T;
    const std::size_t stepW  = pg.sw * g.xs[4];
    const std::size_t gridSz = pg.gh * pg.gw;
    for(std::size_t c = 0; c < g.c; ++c)
        for(std::size_t ia = 0; ia < pg.phasesH; ++ia)
            for(std::size_t ib = 0; ib < pg.phasesW; ++ib)
            {
                float* plane = planes + c * pg.chanLen + (ia * pg.phasesW + ib) * pg.planeLen;
                // Columns v with 0 <= v*sw + b - padW < W.
                const long offW  = static_cast<long>(pg.residueW[ib]) - g.pad[2];
                const long sw    = static_cast<long>(pg.sw);
                const long lastW = static_cast<long>(g.in[2]) - 1 - offW;
                const std::size_t v0 = std::min(pg.gw, static_cast<std::size_t>(offW >= 0 ? 0 : (-offW + sw - 1) / sw));
                const std::size_t v1 =
                    std::max(v0, std::min(pg.gw, static_cast<std::size_t>(lastW < 0 ? 0 : lastW / sw + 1)));
                for(std::size_t u = 0; u < pg.gh; ++u)
                {
                    float* row     = plane + u * pg.gw;
                    const long ih  = static_cast<long>(u * pg.sh + pg.residueH[ia]) - g.pad[1];
                    if(ih < 0 || ih >= static_cast<long>(g.in[1]) || v0 == v1)
                    {
                        std::fill(row, row + pg.gw, 0.0f);
                        continue;
                    }
                    std::fill(row, row + v0, 0.0f);
                    const T* src = xn + c * g.xs[1] + static_cast<std::size_t>(ih) * g.xs[3] +
                                   static_cast<std::size_t>(static_cast<long>(v0) * sw + offW) * g.xs[4];
                    if constexpr(std::is_same<E, ElemF32>::value)
                        copyStrided(src, stepW, row + v0, v1 - v0);
                    else
                        for(std::size_t v = v0; v < v1; ++v)
                            row[v] = E::load(src[(v - v0) * stepW]);
                    std::fill(row + v1, row + pg.gw, 0.0f);
                }
                std::fill(plane + gridSz, plane + pg.planeLen, 0.0f);
            }
}

// B = im2col(x) of one image on the phase grid: row r = (c, fh, fw) of `group`, columns = grid
// columns [colBase, ...): each row of a block is one contiguous run of a plane.
struct PhaseGridB
{
    static constexpr bool kPanelwise = false;
    const Geometry* g    = nullptr;
    const PhaseGrid* pg  = nullptr;
    const float* planes  = nullptr;
    std::size_t group    = 0;
    std::size_t colBase  = 0;

    // Offset of row r's run (grid column 0) in the planes.
    std::size_t rowOffset(std::size_t r) const
    {
        const std::size_t fw = r % g->fil[2];
        const std::size_t fh = r / g->fil[2] % g->fil[1];
        const std::size_t c  = r / (g->fil[2] * g->fil[1]);
        return pg->rowOffset(group * g->cPerGroup + c, fh, fw);
    }
    const float* rowStart(std::size_t r) const { return planes + rowOffset(r) + colBase; }
    const float* get(std::size_t pc, std::size_t kc, std::size_t jc, std::size_t nc, float* scratch) const
    {
        constexpr std::size_t kAhead = 4; // rows prefetched ahead (they start in different planes)
        const std::size_t bytes      = nc * sizeof(float);
        for(std::size_t k = 0; k < kc; ++k)
        {
            if(k + kAhead < kc)
            {
                const char* p = reinterpret_cast<const char*>(rowStart(pc + k + kAhead) + jc);
                for(std::size_t b = 0; b < bytes; b += 64)
                    __builtin_prefetch(p + b);
            }
            panelizeRow(rowStart(pc + k) + jc, k, kc, nc, scratch);
        }
        zeroPanelTail(kc, nc, scratch);
        return scratch;
    }
};

template <class E>
std::size_t forwardPhaseGridGemm(const char* solver, const Geometry& g, const void* x, const void* w, void* y,
                                 void* ws, std::size_t wsBytes)
{
    using T                   = typename E::T;
    const PhaseGrid pg        = makePhaseGrid(g);
    const std::size_t M       = g.kPerGroup;
    const std::size_t K       = g.cPerGroup * g.filterSpatial();
    const std::size_t slots   = threadCount();
    const std::size_t ncBlock = stagedColumnBlock(M);
    const std::size_t aSize   = prepackedSize(M, K);
    // Items (image, column part): one part per image unless there are fewer images than slots
    // (then each part splits its image's planes again: the split is about one pass over X).
    const std::size_t parts = g.n >= slots ? 1 : std::min(ceilDiv(slots, g.n), ceilDiv(pg.cols, kNR));

    SlotRegions sr;
    const std::size_t oPlanes = sr.add(g.c * pg.chanLen);
    const std::size_t oPack   = sr.add(kKC * ncBlock);
    const std::size_t oTile   = sr.add(kMR * kNR);
    const std::size_t oStage  = sr.add(M * ncBlock);
    Carver cv(ws);
    float* apack = cv.take(g.groups * aSize);
    sr.place(cv.take(slots * sr.strideFloats()));
    if(w == nullptr)
        return cv.requiredBytes();
    checkWorkspace(solver, ws, wsBytes, cv.requiredBytes());

    prepackWeights<E>(g.groups, M, K, static_cast<const T*>(w), false, apack);
    const auto* xt = static_cast<const T*>(x);
    auto* yt       = static_cast<T*>(y);
    const std::size_t OW = g.out[2];
    forEachClaimed(slots, g.n * parts, [&](std::size_t s, std::size_t item) {
        const std::size_t n = item / parts;
        const auto range    = splitRange(pg.cols, item % parts, parts, kNR);
        if(range.first >= range.second)
            return;
        float* planes = sr.at(s, oPlanes);
        buildPhasePlanes<E>(g, pg, xt + n * g.xs[0], planes);
        GemmScratch scratch;
        scratch.bPack = sr.at(s, oPack);
        scratch.tile  = sr.at(s, oTile);
        // Equal column blocks: a short last block would stream all of A for a few columns.
        const std::size_t cols = range.second - range.first;
        const std::size_t nc   = std::min(ncBlock, roundUp(ceilDiv(cols, ceilDiv(cols, ncBlock)), kNR));
        for(std::size_t grp = 0; grp < g.groups; ++grp)
        {
            PrepackedA a{apack + grp * aSize, M};
            PhaseGridB b{&g, &pg, planes, grp, range.first};
            T* yg = yt + n * g.ys[0] + grp * M * g.ys[1];
            // Grid columns [range.first + jc, + ncols): the output pixels among them (ow < OW).
            // Staged, not in place: with OW < gw most tiles straddle a row end, and the stage
            // keeps the K blocks' accumulation inside the micro-kernel.
            auto c = makeStagedC(sr.at(s, oStage), ncBlock, [&](const float* st, std::size_t ld, std::size_t jc,
                                                                std::size_t ncols) {
                const std::size_t j0 = range.first + jc, j1 = j0 + ncols;
                for(std::size_t j = j0; j < j1;)
                {
                    const std::size_t oh = j / pg.gw, ow = j % pg.gw;
                    const std::size_t rowEnd = std::min(j1, (oh + 1) * pg.gw);
                    const std::size_t len    = ow < OW ? std::min(OW, rowEnd - oh * pg.gw) - ow : 0;
                    for(std::size_t i = 0; i < M && len > 0; ++i)
                    {
                        const float* src = st + i * ld + (j - j0);
                        T* d             = yg + i * g.ys[1] + oh * g.ys[3] + ow;
                        if constexpr(std::is_same<E, ElemF32>::value)
                            std::memcpy(d, src, len * sizeof(float));
                        else
                            for(std::size_t t = 0; t < len; ++t)
                                d[t] = E::store(src[t]);
                    }
                    j = rowEnd;
                }
            });
            gemm(M, cols, K, nc, a, b, c, scratch);
        }
    });
    return 0;
}

// dst[t] += src[t] for t < n.
inline void addRow(const float* __restrict src, std::size_t n, float* __restrict dst)
{
    for(std::size_t t = 0; t < n; ++t)
        dst[t] += src[t];
}

// wide[u*s + b] = rows[b][u] for u < n and b < s (zero where rows[b] is null: a residue no tap
// uses), zero from n*s up to len.
inline void interleaveRows(const float* const* rows, std::size_t s, std::size_t n, float* wide, std::size_t len)
{
#if MIOPEN_ISA_AVX512
    if(s == 2 && rows[0] != nullptr && rows[1] != nullptr)
    {
        const __m512i lo = _mm512_setr_epi32(0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23);
        const __m512i hi = _mm512_setr_epi32(8, 24, 9, 25, 10, 26, 11, 27, 12, 28, 13, 29, 14, 30, 15, 31);
        std::size_t u    = 0;
        for(; u + 16 <= n; u += 16)
        {
            const __m512 a = _mm512_loadu_ps(rows[0] + u);
            const __m512 b = _mm512_loadu_ps(rows[1] + u);
            _mm512_storeu_ps(wide + 2 * u, _mm512_permutex2var_ps(a, lo, b));
            _mm512_storeu_ps(wide + 2 * u + 16, _mm512_permutex2var_ps(a, hi, b));
        }
        for(; u < n; ++u)
        {
            wide[2 * u]     = rows[0][u];
            wide[2 * u + 1] = rows[1][u];
        }
        std::fill(wide + 2 * n, wide + std::max(len, 2 * n), 0.0f);
        return;
    }
#elif MIOPEN_ISA_AVX2
    if(s == 2 && rows[0] != nullptr && rows[1] != nullptr)
    {
        std::size_t u = 0;
        for(; u + 8 <= n; u += 8)
        {
            // unpacklo / unpackhi interleave per 128-bit lane; the lane permutes put them in order.
            const __m256 a  = _mm256_loadu_ps(rows[0] + u);
            const __m256 b  = _mm256_loadu_ps(rows[1] + u);
            const __m256 lo = _mm256_unpacklo_ps(a, b);
            const __m256 hi = _mm256_unpackhi_ps(a, b);
            _mm256_storeu_ps(wide + 2 * u, _mm256_permute2f128_ps(lo, hi, 0x20));
            _mm256_storeu_ps(wide + 2 * u + 8, _mm256_permute2f128_ps(lo, hi, 0x31));
        }
        for(; u < n; ++u)
        {
            wide[2 * u]     = rows[0][u];
            wide[2 * u + 1] = rows[1][u];
        }
        std::fill(wide + 2 * n, wide + std::max(len, 2 * n), 0.0f);
        return;
    }
#endif
    if(s == 1 && rows[0] != nullptr)
        std::memcpy(wide, rows[0], n * sizeof(float));
    else
        for(std::size_t b = 0; b < s; ++b)
            for(std::size_t u = 0; u < n; ++u)
                wide[u * s + b] = rows[b] != nullptr ? rows[b][u] : 0.0f;
    std::fill(wide + n * s, wide + std::max(len, n * s), 0.0f);
}

// dY of image `dyn` on the phase grid, fp32: grid[k][oh*gw + ow] = dY[k][oh][ow], zero in the
// junk columns (ow >= OW), so that junk columns add nothing to a reduction over the grid.
template <class E>
void buildGridDy(const Geometry& g, const PhaseGrid& pg, const typename E::T* dyn, float* grid)
{
    const std::size_t OH = g.out[1], OW = g.out[2];
    for(std::size_t k = 0; k < g.k; ++k)
        for(std::size_t oh = 0; oh < OH; ++oh)
        {
            const typename E::T* src = dyn + k * g.ys[1] + oh * g.ys[3];
            float* d                 = grid + k * pg.cols + oh * pg.gw;
            if constexpr(std::is_same<E, ElemF32>::value)
                std::memcpy(d, src, OW * sizeof(float));
            else
                for(std::size_t ow = 0; ow < OW; ++ow)
                    d[ow] = E::load(src[ow]);
            std::fill(d + OW, d + pg.gw, 0.0f);
        }
}

// B = the im2col rows of one image on the phase grid, transposed: K dim = grid columns
// (pixelOffset added), N dim = rows r = (c, fh, fw) of the group. Each micro-panel turns kNR
// contiguous plane runs into columns.
struct PhaseGridRowsB
{
    static constexpr bool kPanelwise = false;
    PhaseGridB rows; // colBase 0
    std::size_t pixelOffset = 0;
    const float* get(std::size_t pc, std::size_t kc, std::size_t jc, std::size_t nc, float* scratch) const
    {
        const float* ptrs[kNR];
        for(std::size_t q = 0; q * kNR < nc; ++q)
        {
            const std::size_t cnt = std::min(kNR, nc - q * kNR);
            for(std::size_t i = 0; i < cnt; ++i)
                ptrs[i] = rows.rowStart(jc + q * kNR + i) + pixelOffset + pc;
            transposeIntoPanel(ptrs, cnt, kc, scratch + q * kNR * kc, kNR);
        }
        return scratch;
    }
};

// Backward weights on the phase grid (2-D/1-D): dW_g (K/G x C/G*FS) = sum over images of
// dYgrid_g * rows_g^T, the reduction running over grid columns (dY's junk columns are zero). The
// (image, grid column) reduction is split statically over the slots; each slot splits the phase
// planes of every image it touches, writes a partial dW, and the partials are added in slot
// order (deterministic for a thread count).
template <class E>
std::size_t backwardWeightsPhaseGridGemm(const char* solver, const Geometry& g, const void* x, const void* dy,
                                         void* dw, void* ws, std::size_t wsBytes)
{
    using T                 = typename E::T;
    const PhaseGrid pg      = makePhaseGrid(g);
    const std::size_t M     = g.kPerGroup;
    const std::size_t N     = g.cPerGroup * g.filterSpatial();
    const std::size_t slots = threadCount();
    const std::size_t total = g.groups * M * N;

    SlotRegions sr;
    const std::size_t oPlanes  = sr.add(g.c * pg.chanLen);
    const std::size_t oGrid    = sr.add(g.k * pg.cols);
    const DynamicGemmRegions gr(sr, kNCMax);
    const std::size_t oPartial = sr.add(total);
    Carver cv(ws);
    sr.place(cv.take(slots * sr.strideFloats()));
    if(x == nullptr)
        return cv.requiredBytes();
    checkWorkspace(solver, ws, wsBytes, cv.requiredBytes());

    const auto* xt  = static_cast<const T*>(x);
    const auto* dyt = static_cast<const T*>(dy);
    forEachSlot(slots, [&](std::size_t s) {
        float* planes             = sr.at(s, oPlanes);
        float* grid               = sr.at(s, oGrid);
        float* partial            = sr.at(s, oPartial);
        const GemmScratch scratch = gr.scratch(sr, s);
        const auto range          = splitRange(g.n * pg.cols, s, slots, kNR);
        if(range.first >= range.second)
            std::memset(static_cast<void*>(partial), 0, total * sizeof(float));
        for(std::size_t j = range.first; j < range.second;)
        {
            const std::size_t n  = j / pg.cols;
            const std::size_t c0 = j % pg.cols;
            const std::size_t c1 = std::min(pg.cols, range.second - n * pg.cols);
            buildPhasePlanes<E>(g, pg, xt + n * g.xs[0], planes);
            buildGridDy<E>(g, pg, dyt + n * g.ys[0], grid);
            for(std::size_t grp = 0; grp < g.groups; ++grp)
            {
                BatchedRowsA<ElemF32> a;
                a.m = BatchedMatrix<ElemF32>{grid + grp * M * pg.cols, pg.cols, 0, pg.cols, M, c0};
                PhaseGridRowsB b{PhaseGridB{&g, &pg, planes, grp, 0}, c0};
                BatchedC c{partial + grp * M * N, N, 0, static_cast<std::size_t>(-1) / 2, 0};
                gemm(M, N, c1 - c0, kNCMax, a, b, c, scratch, j > range.first);
            }
            j = n * pg.cols + c1;
        }
    });
    addPartialsInSlotOrder<E>(total, slots, [&](std::size_t s) { return sr.at(s, oPartial); }, static_cast<T*>(dw));
    return 0;
}

// Backward data on the phase grid (2-D/1-D): per image, col (C/G*FS x grid columns) = W_g^T *
// dYgrid_g (junk columns of dY zero, so junk columns of col are zero), each col row added as one
// contiguous run into the phase plane of dX it belongs to (col2im without a gather), then the
// planes are merged back into dX (elements no tap reaches get zero). Items: (image, channel
// block); several blocks per image only with fewer images than slots. Every dX element is
// written by one item, in a fixed order.
template <class E>
std::size_t backwardDataPhaseGridGemm(const char* solver, const Geometry& g, const void* dy, const void* w,
                                      void* dx, void* ws, std::size_t wsBytes)
{
    using T                  = typename E::T;
    const PhaseGrid pg       = makePhaseGrid(g);
    const std::size_t FS     = g.filterSpatial();
    const std::size_t K      = g.kPerGroup;
    const std::size_t slots  = threadCount();
    const std::size_t images = g.n * g.groups;
    const std::size_t blocks = images >= slots ? 1 : std::min(g.cPerGroup, ceilDiv(slots, images));
    const std::size_t cPerBlock = ceilDiv(g.cPerGroup, blocks);
    const std::size_t nBlocks   = ceilDiv(g.cPerGroup, cPerBlock);
    const std::size_t mMax      = cPerBlock * FS;
    const std::size_t ncBlock   = stagedColumnBlock(mMax);
    const std::size_t aSize     = prepackedSize(mMax, K);

    Carver cv(ws);
    float* apack = cv.take(g.groups * nBlocks * aSize);
    SlotRegions sr;
    const std::size_t oPlanes = sr.add(cPerBlock * pg.chanLen);
    const std::size_t oGrid   = sr.add(K * pg.cols);
    const std::size_t oPack   = sr.add(kKC * ncBlock);
    const std::size_t oTile   = sr.add(kMR * kNR);
    const std::size_t oStage  = sr.add(mMax * ncBlock);
    // One merged row of the padded input: the planes' rows interleaved (padW + W floats at least).
    const std::size_t wideLen = std::max(pg.gw * pg.sw, static_cast<std::size_t>(g.pad[2]) + g.in[2]);
    const std::size_t oWide   = sr.add(wideLen);
    sr.place(cv.take(slots * sr.strideFloats()));
    if(w == nullptr)
        return cv.requiredBytes();
    checkWorkspace(solver, ws, wsBytes, cv.requiredBytes());

    const auto* wt  = static_cast<const T*>(w);
    const auto* dyt = static_cast<const T*>(dy);
    auto* dxt       = static_cast<T*>(dx);
    prepackTransposedWeightBlocks<E>(g, cPerBlock, nBlocks, wt, apack);

    // The planes of a block hold its channels only: a view of the geometry whose channel 0 is
    // the block's first.
    forEachClaimed(slots, g.n * g.groups * nBlocks, [&](std::size_t s, std::size_t item) {
        const std::size_t blk = item % nBlocks;
        const std::size_t grp = (item / nBlocks) % g.groups;
        const std::size_t n   = item / nBlocks / g.groups;
        const std::size_t c0  = blk * cPerBlock;
        const std::size_t cb  = std::min(g.cPerGroup, c0 + cPerBlock) - c0;
        float* planes         = sr.at(s, oPlanes);
        float* grid           = sr.at(s, oGrid);
        std::memset(static_cast<void*>(planes), 0, cb * pg.chanLen * sizeof(float));
        Geometry gy = g; // dY of this group only
        gy.k        = K;
        buildGridDy<E>(gy, pg, dyt + n * g.ys[0] + grp * K * g.ys[1], grid);
        GemmScratch scratch;
        scratch.bPack = sr.at(s, oPack);
        scratch.tile  = sr.at(s, oTile);
        PrepackedA a{apack + (grp * nBlocks + blk) * aSize, mMax};
        BatchedB<ElemF32> b;
        b.m = BatchedMatrix<ElemF32>{grid, pg.cols, 0, pg.cols, K, 0};
        // Row r = (c, fh, fw) of the block: added into plane (residues of fh, fw) of channel c.
        Geometry gb  = g; // channel c of the block is plane channel c (group 0)
        gb.cPerGroup = cb;
        PhaseGridB rows{&gb, &pg, planes, 0, 0};
        auto c = makeStagedC(sr.at(s, oStage), ncBlock, [&](const float* st, std::size_t ld, std::size_t jc, std::size_t nc) {
            for(std::size_t r = 0; r < cb * FS; ++r)
            {
                if(r + kStagePrefetchRows < cb * FS)
                    prefetchFloats(st + (r + kStagePrefetchRows) * ld, nc);
                addRow(st + r * ld, nc, planes + rows.rowOffset(r) + jc);
            }
        });
        gemm(cb * FS, pg.cols, K, ncBlock, a, b, c, scratch);
        // Merge: dX[c][ih][iw] = plane (residues of ih + padH, iw + padW) at their quotients;
        // zero where no tap reaches.
        T* out       = dxt + n * g.xs[0] + (grp * g.cPerGroup + c0) * g.xs[1];
        float* wide  = sr.at(s, oWide);
        for(std::size_t ch = 0; ch < cb; ++ch)
            for(std::size_t ih = 0; ih < g.in[1]; ++ih)
            {
                const std::size_t hp = ih + static_cast<std::size_t>(g.pad[1]);
                const std::size_t ia = pg.phaseH[hp % pg.sh];
                T* d                 = out + ch * g.xs[1] + ih * g.xs[3];
                if(ia == kNoPhase || hp / pg.sh >= pg.gh)
                {
                    for(std::size_t iw = 0; iw < g.in[2]; ++iw)
                        d[iw] = E::store(0.0f);
                    continue;
                }
                const float* rowsOf[kPhaseStrideMax];
                for(std::size_t b2 = 0; b2 < pg.sw; ++b2)
                    rowsOf[b2] = pg.phaseW[b2] == kNoPhase
                                     ? nullptr
                                     : planes + ch * pg.chanLen + (ia * pg.phasesW + pg.phaseW[b2]) * pg.planeLen +
                                           hp / pg.sh * pg.gw;
                interleaveRows(rowsOf, pg.sw, pg.gw, wide, wideLen);
                const float* src = wide + g.pad[2];
                if constexpr(std::is_same<E, ElemF32>::value)
                    std::memcpy(d, src, g.in[2] * sizeof(float));
                else
                    for(std::size_t iw = 0; iw < g.in[2]; ++iw)
                        d[iw] = E::store(src[iw]);
            }
    });
    return 0;
}

// Backward data of a 1x1 convolution with pad 0: dX_g (C/G x N*P) = W_g^T * dY_g. With stride 1
// the pixels map one to one; with strides the result is scattered onto every stride-th input
// element and the others are zero.
template <class E>
std::size_t backwardData1x1Gemm(const char* solver, const Geometry& g, const void* dy, const void* w, void* dx,
                                void* ws, std::size_t wsBytes)
{
    using T             = typename E::T;
    const std::size_t M = g.cPerGroup;
    const std::size_t K = g.kPerGroup;
    const std::size_t P = g.outSpatial();
    const bool strided  = g.inSpatial() != P || g.str[0] != 1 || g.str[1] != 1 || g.str[2] != 1;
    const auto* dyt     = static_cast<const T*>(dy);
    OutputMap map{g.xs[0], g.xs[1], P, strided, &g};
    // 2-D fp32: the epilogue writes the zero rows too (see OutputMap), with non-temporal stores
    // when dX is too large to stay in the caches for its reader anyway.
    map.zeroRows = strided && std::is_same<E, ElemF32>::value && g.in[0] == 1 && g.out[0] == 1 &&
                   static_cast<std::size_t>(g.str[1]) * g.in[2] <= kSpreadSpanMax;
    map.stream   = map.zeroRows && static_cast<double>(g.n) * static_cast<double>(g.xs[0]) * sizeof(float) > 16.0 * (1 << 20);
    PlaneSpread plane;
    if(map.zeroRows && dx != nullptr && plane.build(g))
        map.plane = &plane;
    if(strided && dx != nullptr && !map.zeroRows)
    {
        // Input rows no output row reaches are zero; the others are written whole (values and the
        // zeros between them) by the epilogue.
        T* d = static_cast<T*>(dx);
        const std::size_t rowsPerImage = g.c * g.in[0] * g.in[1];
        parallelFor(g.n * rowsPerImage, [&](std::size_t b, std::size_t e) {
            for(std::size_t r = b; r < e; ++r)
            {
                const std::size_t ih = r % g.in[1];
                const std::size_t id = (r / g.in[1]) % g.in[0];
                const bool hit = ih % static_cast<std::size_t>(g.str[1]) == 0 && ih / static_cast<std::size_t>(g.str[1]) < g.out[1] &&
                                 id % static_cast<std::size_t>(g.str[0]) == 0 && id / static_cast<std::size_t>(g.str[0]) < g.out[0];
                if(!hit)
                    std::memset(static_cast<void*>(d + r * g.in[2]), 0, g.in[2] * sizeof(T));
            }
        }, 64);
    }
    auto makeB = [&](std::size_t grp, std::size_t colOffset) {
        BatchedB<E> b;
        b.m = BatchedMatrix<E>{dyt + grp * g.kPerGroup * g.ys[1], g.ys[1], g.ys[0], P, g.kPerGroup, colOffset};
        return b;
    };
    return columnParallelGemm<E>(solver, g.groups, M, K, g.n * P, static_cast<const T*>(w), true, makeB,
                                 static_cast<T*>(dx), map, g.cPerGroup, ws, wsBytes);
}

// General backward data: col (C/G*FS x P) = W_g^T * dY_g(n), then col2im adds col into dX. The
// work items are (image, group, channel block); a channel block's dX elements are written by
// that item only, in a fixed order, so the result is deterministic.
template <class E>
std::size_t backwardDataGemm(const char* solver, const Geometry& g, const void* dy, const void* w, void* dx,
                             void* ws, std::size_t wsBytes)
{
    using T                 = typename E::T;
    const std::size_t FS    = g.filterSpatial();
    const std::size_t K     = g.kPerGroup;
    const std::size_t P     = g.outSpatial();
    const std::size_t slots = threadCount();
    // Channel blocks: enough items to keep every slot busy.
    const std::size_t images = g.n * g.groups;
    const std::size_t blocks =
        images >= 2 * slots ? 1 : std::min(g.cPerGroup, ceilDiv(2 * slots, images));
    const std::size_t cPerBlock = ceilDiv(g.cPerGroup, blocks);
    const std::size_t mMax      = cPerBlock * FS;
    const std::size_t ncBlock   = stagedColumnBlock(mMax);
    const bool fp32             = std::is_same<E, ElemF32>::value;
    const std::size_t nBlocks   = ceilDiv(g.cPerGroup, cPerBlock);

    Carver cv(ws);
    // Prepacked W^T per (group, channel block).
    const std::size_t aSize = prepackedSize(mMax, K);
    float* apack            = cv.take(g.groups * nBlocks * aSize);
    SlotRegions sr;
    const std::size_t oPack  = sr.add(kKC * ncBlock);
    const std::size_t oTile  = sr.add(kMR * kNR);
    const std::size_t oStage = sr.add(mMax * ncBlock);
    const std::size_t oAcc   = fp32 ? 0 : sr.add(cPerBlock * g.inSpatial());
    sr.place(cv.take(slots * sr.strideFloats()));
    if(w == nullptr)
        return cv.requiredBytes();
    checkWorkspace(solver, ws, wsBytes, cv.requiredBytes());

    const auto* wt  = static_cast<const T*>(w);
    const auto* dyt = static_cast<const T*>(dy);
    auto* dxt       = static_cast<T*>(dx);
    prepackTransposedWeightBlocks<E>(g, cPerBlock, nBlocks, wt, apack);

    const std::size_t items = g.n * g.groups * nBlocks;
    forEachClaimed(slots, items, [&](std::size_t s, std::size_t item) {
        GemmScratch scratch;
        scratch.bPack = sr.at(s, oPack);
        scratch.tile  = sr.at(s, oTile);
        float* stage  = sr.at(s, oStage);
        const std::size_t blk = item % nBlocks;
        const std::size_t grp = (item / nBlocks) % g.groups;
        const std::size_t n   = item / nBlocks / g.groups;
        const std::size_t c0  = blk * cPerBlock;
        const std::size_t cb  = std::min(g.cPerGroup, c0 + cPerBlock) - c0;
        const std::size_t M   = cb * FS;
        // Accumulate into dX itself (fp32) or an fp32 buffer for the block (fp16/bf16).
        const std::size_t chanBase = grp * g.cPerGroup + c0;
        float* dst;
        std::size_t xs[5];
        if(fp32)
        {
            dst   = reinterpret_cast<float*>(dxt) + n * g.xs[0] + chanBase * g.xs[1];
            xs[0] = 0;
            for(int d = 1; d < 5; ++d)
                xs[d] = g.xs[d];
        }
        else
        {
            dst   = sr.at(s, oAcc);
            xs[0] = 0;
            xs[1] = g.inSpatial();
            xs[2] = g.in[1] * g.in[2];
            xs[3] = g.in[2];
            xs[4] = 1;
        }
        for(std::size_t c = 0; c < cb; ++c)
            std::memset(static_cast<void*>(dst + c * xs[1]), 0, g.inSpatial() * sizeof(float));

        BatchedB<E> b;
        b.m = BatchedMatrix<E>{dyt + n * g.ys[0] + grp * K * g.ys[1], g.ys[1], 0, P, K, 0};
        Im2colGeometry ig{&g, 0};
        auto c = makeStagedC(stage, ncBlock, [&](const float* st, std::size_t ld, std::size_t jc, std::size_t nc) {
            OutputRowSegment segs[kNCMax + 2];
            const std::size_t nseg = ig.split(jc, nc, segs); // image 0: pixels of this image
            Im2colGeometry::Row row = ig.decompose(0);
            for(std::size_t r = 0; r < M; ++r, ig.next(row))
            {
                if(r + kStagePrefetchRows < M)
                    prefetchFloats(st + (r + kStagePrefetchRows) * ld, nc);
                col2imRow(ig, dst, xs, 0, row, segs, nseg, st + r * ld);
            }
        });
        // Only the block's own M <= mMax rows are computed (the layout is that of mMax rows).
        PrepackedA aBlock{apack + (grp * nBlocks + blk) * aSize, mMax};
        gemm(M, P, K, ncBlock, aBlock, b, c, scratch);
        if(!fp32)
        {
            T* out = dxt + n * g.xs[0] + chanBase * g.xs[1];
            for(std::size_t c2 = 0; c2 < cb; ++c2)
                for(std::size_t i = 0; i < g.inSpatial(); ++i)
                    out[c2 * g.xs[1] + i] = E::store(dst[c2 * xs[1] + i]);
        }
    });
    return 0;
}

// Backward weights of a 1x1, pad 0, strided convolution with at least as many images as
// threads: each slot owns a range of dW's columns (input channels) and, a few images at a time,
// gathers its channels' selected pixels densely (as the strided forward does) and accumulates
// dY * dense^T straight into its columns of dW (fp32; an fp32 buffer for fp16 and bf16), so no
// partial dW is swept or summed. While the GEMM of one chunk computes, the micro-kernels prefetch
// the next chunk's input (all of it: the hardware prefetchers fetch the rows the strides skip
// anyway; every slot fetches the other slots' channels too, one stream being one range), so its
// gather reads from cache; without that the gather and the GEMM take turns on
// the memory bus and the GEMM's arithmetic units (ResNet-50's 1x1_256_128_56_s2: ~7 ms against
// ~6 ms with it). Splitting the images instead (each slot a partial dW over all columns, added
// in slot order at the end: 2 x 8 MB of partials swept once per chunk, then summed, for
// 1x1_1024_2048_14_s2) measured slower on the 14x14 layers (alternating runs, Zen 5 VM,
// 2026-12-07, paired ratio to oneDNN, 9 pairs: 1x1_1024_512_14_s2 median 0.80 -> 0.85,
// 1x1_1024_2048_14_s2 0.81 -> 0.89; the 28x28 and 56x56 layers within the noise,
// 1x1_256_128_56_s2 ~0.03 lower in three pairs).
template <class E>
std::size_t backwardWeightsStrided1x1Gemm(const char* solver, const Geometry& g, const void* x, const void* dy,
                                          void* dw, void* ws, std::size_t wsBytes)
{
    using T                 = typename E::T;
    const std::size_t M     = g.kPerGroup;
    const std::size_t N     = g.cPerGroup;
    const std::size_t P     = g.outSpatial();
    const std::size_t slots = threadCount();
    // Images per gather: enough for ~512 GEMM columns, but a dense matrix (the slot's channels)
    // of at most kStridedWrwDenseFloats, so that it stays in the L2 while the GEMM reads it. (With
    // the images split, 1x1_1024_512_14_s2 gathered all 1024 channels of 11 images, 2.2 MB, then
    // of 4: GemmWrwUniversal 224-281 -> 303-304 GFLOP/s, the 28x28 layers +10-25%; a slot's 512
    // channels now take 8.) The forward's GEMM reads its dense matrix differently and measured no
    // gain from the same cap.
    constexpr std::size_t kStridedWrwDenseFloats = 200 * 1024;
    const bool fp32         = std::is_same<E, ElemF32>::value;
    const std::size_t parts = std::max<std::size_t>(1, std::min(slots, ceilDiv(N, kNR)));
    const std::size_t wMax  = ceilDiv(ceilDiv(N, kNR), parts) * kNR;
    const std::size_t chunk = std::max<std::size_t>(
        1, std::min({ceilDiv(512, P), g.n, kStridedWrwDenseFloats / (g.groups * wMax * P)}));

    SlotRegions sr;
    const std::size_t oDense = sr.add(g.groups * wMax * chunk * P);
    const DynamicGemmRegions gr(sr, kNCMax);
    const std::size_t oAcc = fp32 ? 0 : sr.add(g.groups * M * wMax);
    Carver cv(ws);
    sr.place(cv.take(slots * sr.strideFloats()));
    if(x == nullptr)
        return cv.requiredBytes();
    checkWorkspace(solver, ws, wsBytes, cv.requiredBytes());

    const auto* xt  = static_cast<const T*>(x);
    const auto* dyt = static_cast<const T*>(dy);
    auto* dwt       = static_cast<T*>(dw);
    forEachSlot(slots, [&](std::size_t s) {
        if(s >= parts)
            return;
        const auto range = splitRange(N, s, parts, kNR);
        const std::size_t w = range.second - range.first;
        if(w == 0)
            return;
        float* dense              = sr.at(s, oDense);
        float* acc                = fp32 ? nullptr : sr.at(s, oAcc);
        const GemmScratch scratch = gr.scratch(sr, s);
        for(std::size_t n0 = 0; n0 < g.n; n0 += chunk)
        {
            const std::size_t nb   = std::min(chunk, g.n - n0);
            const std::size_t cols = nb * P;
            for(std::size_t grp = 0; grp < g.groups; ++grp)
                gatherStridedDense<E>(g, xt, n0, nb, grp * N + range.first, grp * N + range.second,
                                      dense + grp * w * cols);
            const std::size_t nextImages = std::min(chunk, g.n - std::min(g.n, n0 + nb));
            PrefetchStream next(xt + (n0 + nb) * g.xs[0], nextImages * g.xs[0] * sizeof(T));
            for(std::size_t grp = 0; grp < g.groups; ++grp)
            {
                BatchedRowsA<E> a;
                a.m       = BatchedMatrix<E>{dyt + n0 * g.ys[0] + grp * M * g.ys[1], g.ys[1], g.ys[0], P, M, 0};
                a.kExtent = cols;
                BatchedRowsB<ElemF32> b;
                b.m = BatchedMatrix<ElemF32>{dense + grp * w * cols, cols, 0, cols, w, 0};
                float* cBase = fp32 ? reinterpret_cast<float*>(dwt) + grp * M * N + range.first : acc + grp * M * w;
                BatchedC c{cBase, fp32 ? N : w, 0, static_cast<std::size_t>(-1) / 2, 0};
                gemm(M, w, cols, kNCMax, a, b, c, scratch, n0 > 0, &next);
            }
        }
        if(!fp32)
            for(std::size_t grp = 0; grp < g.groups; ++grp)
                for(std::size_t i = 0; i < M; ++i)
                    for(std::size_t j = 0; j < w; ++j)
                        dwt[grp * M * N + i * N + range.first + j] = E::store(acc[(grp * M + i) * w + j]);
    });
    return 0;
}

// Backward weights: dW_g (K/G x C/G*FS) = sum over images and pixels of dY_g * im2col(X_g)^T.
// With enough output columns each slot computes whole columns of dW over the full reduction
// (no partial sums); otherwise the pixels are split into one range per slot, each slot writes a
// partial dW, and the partials are added in slot order. Either way the summation order is fixed.
template <class E>
std::size_t backwardWeightsGemm(const char* solver, const Geometry& g, bool pointwise, const void* x,
                                const void* dy, void* dw, void* ws, std::size_t wsBytes)
{
    using T                 = typename E::T;
    const std::size_t M     = g.kPerGroup;
    const std::size_t N     = g.cPerGroup * g.filterSpatial();
    const std::size_t P     = g.outSpatial();
    const std::size_t NP    = g.n * P;
    const std::size_t slots = threadCount();
    const bool fp32         = std::is_same<E, ElemF32>::value;

    // Split the reduction (partial dW per slot) when there are plenty of pixels: no operand is then
    // packed twice. Split the dW columns when the reduction is short but dW is wide.
    const std::size_t colPanels = ceilDiv(N, kNR);
    const bool columnMode       = g.groups * colPanels >= slots && NP < 8 * kKC * slots;
    // Column mode: items (group, column part); enough parts that items divide evenly when possible.
    std::size_t colParts = 1;
    if(columnMode)
    {
        std::size_t gcd = slots, b = g.groups;
        while(b != 0)
        {
            const std::size_t t = gcd % b;
            gcd                 = b;
            b                   = t;
        }
        colParts = std::min(colPanels, slots / gcd);
    }
    const std::size_t ncBlock = (columnMode && fp32) ? kNCMax : stagedColumnBlock(M);

    Carver cv(ws);
    float* partials = columnMode ? nullptr : cv.take(slots * g.groups * M * N);
    SlotRegions sr;
    const DynamicGemmRegions gr(sr, ncBlock);
    const std::size_t oStage = (columnMode && !fp32) ? sr.add(M * ncBlock) : 0;
    sr.place(cv.take(slots * sr.strideFloats()));
    auto scratchOf = [&](std::size_t s) { return gr.scratch(sr, s); };
    if(x == nullptr)
        return cv.requiredBytes();
    checkWorkspace(solver, ws, wsBytes, cv.requiredBytes());

    const auto* xt  = static_cast<const T*>(x);
    const auto* dyt = static_cast<const T*>(dy);
    auto* dwt       = static_cast<T*>(dw);

    // One GEMM: rows of dW_g, columns [c0, c1) of it, pixels [p0, p1), into target c.
    auto runGemm = [&](std::size_t s, std::size_t grp, std::size_t c0, std::size_t c1, std::size_t p0,
                       std::size_t p1, auto& target) {
        // dY and (1x1) X rows are streams from memory: each K block prefetches the next.
        BatchedRowsA<E> a;
        a.m       = BatchedMatrix<E>{dyt + grp * M * g.ys[1], g.ys[1], g.ys[0], P, M, p0};
        a.kExtent = p1 - p0;
        if(pointwise)
        {
            BatchedRowsB<E> b;
            b.m       = BatchedMatrix<E>{xt + grp * g.cPerGroup * g.xs[1] + 0, g.xs[1], g.xs[0], P, N, p0};
            b.kExtent = p1 - p0;
            ShiftedB<BatchedRowsB<E>> sb{b, c0};
            gemm(M, c1 - c0, p1 - p0, ncBlock, a, sb, target, scratchOf(s));
        }
        else
        {
            Im2colTransposedB<E> b;
            b.ig          = Im2colGeometry{&g, grp};
            b.x           = xt;
            b.pixelOffset = p0;
            ShiftedB<Im2colTransposedB<E>> sb{b, c0};
            gemm(M, c1 - c0, p1 - p0, ncBlock, a, sb, target, scratchOf(s));
        }
    };

    if(columnMode)
    {
        const std::size_t items = g.groups * colParts;
        forEachClaimed(slots, items, [&](std::size_t s, std::size_t item) {
            const std::size_t grp  = item / colParts;
            const auto range       = splitRange(N, item % colParts, colParts, kNR);
            if(range.first >= range.second)
                return;
            T* dwg = dwt + grp * M * N;
            if(fp32)
            {
                BatchedC c{reinterpret_cast<float*>(dwg) + range.first, N, 0, static_cast<std::size_t>(-1) / 2, 0};
                runGemm(s, grp, range.first, range.second, 0, NP, c);
            }
            else
            {
                const std::size_t cb = range.first;
                auto c = makeStagedC(sr.at(s, oStage), ncBlock, [&](const float* st, std::size_t ld, std::size_t jc, std::size_t nc) {
                    for(std::size_t i = 0; i < M; ++i)
                        for(std::size_t t = 0; t < nc; ++t)
                            dwg[i * N + cb + jc + t] = E::store(st[i * ld + t]);
                });
                runGemm(s, grp, range.first, range.second, 0, NP, c);
            }
        });
        return 0;
    }

    // Reduction mode: slot s sums pixels [p0, p1) for every group into its partial dW.
    forEachSlot(slots, [&](std::size_t s) {
        const auto range = splitRange(NP, s, slots, 1);
        float* part      = partials + s * g.groups * M * N;
        if(range.first >= range.second)
        {
            std::memset(static_cast<void*>(part), 0, g.groups * M * N * sizeof(float));
            return;
        }
        for(std::size_t grp = 0; grp < g.groups; ++grp)
        {
            BatchedC c{part + grp * M * N, N, 0, static_cast<std::size_t>(-1) / 2, 0};
            runGemm(s, grp, 0, N, range.first, range.second, c);
        }
    });
    const std::size_t total = g.groups * M * N;
    addPartialsInSlotOrder<E>(total, slots, [&](std::size_t s) { return partials + s * total; }, dwt);
    return 0;
}
