// Packed single-precision GEMM engine for the convolution solvers.
//
// NOT include-guarded on purpose: a solver .cpp includes this file once per instruction set,
// each time inside its own namespace and with MIOPEN_ISA_AVX512 set to 0 or 1 (see isa.hpp), so
// the same source is compiled for AVX-512 (under `#pragma GCC target`) and for the baseline ISA.
// It must include nothing itself (isa.hpp includes what it needs before the namespaces open).
//
// The engine computes C (M x N) = A (M x K) * B (K x N) in the BLIS order:
//   for jc (block of ncBlock columns)                              C target: begin(jc)
//     for pc (block of kKC along K)
//       block-wise B providers pack the kc x nc block here (it then lives in L2)
//       for ic (block of A rows: kMCPrepacked / kMCDynamic rows, in L2)
//         for jr (micro-panel of kNR columns: in L1)
//           panel-wise B providers (fp32 1x1 inputs) pack the panel now, inside the first
//           micro-kernel call that reads it (no separate pass over memory)
//           for ir (micro-panel of kMR rows): micro-kernel kMR x kNR over kc
//   C target: done(jc)
// A and B come from "providers" that pack straight from the tensors (im2col is fused into the
// packing of B, so no im2col matrix is ever written), and C goes to a "target" that writes in
// place or stages and post-processes (type conversion, strided scatter, col2im).
// The micro-kernel is AVX-512 (14 x 32 tile, 28 zmm accumulators) in the AVX-512 build, AVX2 +
// FMA (6 x 16 tile, 12 ymm accumulators) in the AVX2 build and plain C++ (4 x 16) in the
// baseline build. Everything is single-threaded: callers split the
// work into per-thread slots.
//
// Packed formats:
//   A block (rows ic.., k pc..pc+kc): micro-panel p at ptr + p*kMR*kc, element (i,k) at [k*kMR+i]
//   B block (k pc.., cols jc..jc+nc): micro-panel q at ptr + q*kNR*kc, element (k,j) at [k*kNR+j]
// Rows/columns beyond the matrix edge are zero in the packed panels.

#if MIOPEN_ISA_AVX512
constexpr std::size_t kMR = 14;
constexpr std::size_t kNR = 32;
#elif MIOPEN_ISA_AVX2
constexpr std::size_t kMR = 6; // 6 x 16: 12 ymm accumulators, 2 for B, 1 broadcast (of 16)
constexpr std::size_t kNR = 16;
#else
constexpr std::size_t kMR = 4;
constexpr std::size_t kNR = 16;
#endif
constexpr std::size_t kKC        = 256;  // K block (B block = kKC x ncBlock floats stays in L2)
constexpr std::size_t kNCMax     = 768;  // column block, a multiple of kNR
// A block rows when A is packed on the fly (dY rows in backward weights). Small: each block
// prefetches its rows' next K block from memory, so with few rows per block these bursts are
// short and spread over the K block instead of one burst for all rows (and the packed block is
// 56 KB instead of 252). Measured on the 1x1 backward-weights layers at N=32 (Zen 5, 2 threads,
// alternating runs): 1x1_64_256_56 234-245 GFLOP/s with 18 panels, 291-297 with 4; 28x28 to 7x7
// layers +10-25% (benchmarks/README.md).
constexpr std::size_t kMCDynamic = 4 * kMR;
static_assert(kNCMax % kNR == 0, "column block must be whole micro-panels");

inline std::size_t roundUp(std::size_t v, std::size_t m) { return (v + m - 1) / m * m; }
inline std::size_t ceilDiv(std::size_t a, std::size_t b) { return (a + b - 1) / b; }

// ---------------------------------------------------------------------------------------------
// Micro-kernels: C[mr x nr] (+)= A-panel * B-panel over kc.
//
// With PACK the B panel is not packed yet: the kernel reads it from the source matrix (row
// stride ldb, nr valid columns), prefetching a few rows ahead, and writes the packed panel as it
// goes, so packing costs no separate pass over memory (the other row panels then read the packed
// copy).

struct KernelArgs
{
    std::size_t kc   = 0;
    const float* a   = nullptr; // packed A micro-panel
    float* b         = nullptr; // packed B micro-panel (written when PACK)
    float* c         = nullptr;
    std::size_t ldc  = 0;
    bool accumulate  = false;
    std::size_t nr   = 0;
    const float* src = nullptr; // PACK: B source, row stride ldb
    std::size_t ldb  = 0;
    // Lines [pf, pfEnd) of a PrefetchStream (the driver's optional background prefetch): one
    // 64-byte line per k step, so their memory traffic overlaps the arithmetic.
    const char* pf    = nullptr;
    const char* pfEnd = nullptr;
};

#if MIOPEN_ISA_AVX512

constexpr int kVecsPerPanel = 2; // kNR / 16

inline __mmask16 columnMask(std::size_t nr, int v)
{
    const std::size_t lo = 16 * static_cast<std::size_t>(v);
    return nr >= lo + 16 ? static_cast<__mmask16>(0xffff)
           : nr > lo     ? static_cast<__mmask16>((1u << (nr - lo)) - 1u)
                         : static_cast<__mmask16>(0);
}

// Masked loads and stores cost more than plain ones on this project's machines (AMD Zen 5 VMs)
// even when the mask is full: in the Winograd input gather they held about half of the
// transform's samples. Where a mask is usually full (whole panels, row interiors) these take the
// plain instruction then, and the masked one only at the edges.
inline __m512 loadLanes(__mmask16 m, const float* p)
{
    return m == static_cast<__mmask16>(0xffff) ? _mm512_loadu_ps(p) : _mm512_maskz_loadu_ps(m, p);
}
inline void storeLanes(float* p, __mmask16 m, __m512 v)
{
    if(m == static_cast<__mmask16>(0xffff))
        _mm512_storeu_ps(p, v);
    else
        _mm512_mask_storeu_ps(p, m, v);
}

template <int MR, int NV, bool PACK>
void microKernel(const KernelArgs& args)
{
    constexpr std::size_t kAhead = 16; // rows of the B source prefetched ahead
    const std::size_t kc         = args.kc;
    const float* __restrict a    = args.a;
    float* __restrict b          = args.b;
    const float* __restrict src  = args.src;
    __mmask16 mask[NV];
#pragma GCC unroll 4
    for(int v = 0; v < NV; ++v)
        mask[v] = columnMask(args.nr, v);
    __m512 acc[MR][NV];
#pragma GCC unroll 16
    for(int i = 0; i < MR; ++i)
#pragma GCC unroll 4
        for(int v = 0; v < NV; ++v)
            acc[i][v] = _mm512_setzero_ps();
    // Accumulating: the C tile is loaded after the k loop, beyond the reach of out-of-order
    // execution, so its lines are requested now (a partial dW or a K-blocked stage is megabytes,
    // in L3 or memory). Alternating runs (Zen 5 VM, paired ratios to oneDNN): 1x1_1024_2048_14_s2
    // backward data (K = 2048) 0.76-0.77 -> 0.83-0.84, 1x1_2048_512_7 B 0.77-0.80 -> 0.83, 12
    // other F/B/W rows unchanged within the noise. (Not in the AVX2 kernel: not measured there.)
    if(args.accumulate)
    {
#pragma GCC unroll 16
        for(int i = 0; i < MR; ++i)
        {
            const char* row = reinterpret_cast<const char*>(args.c + static_cast<std::size_t>(i) * args.ldc);
            _mm_prefetch(row, _MM_HINT_T0);
            _mm_prefetch(row + 16 * NV * sizeof(float) - 1, _MM_HINT_T0);
        }
    }
    const char* pf    = args.pf;
    const char* pfEnd = args.pfEnd;
    for(std::size_t k = 0; k < kc; ++k)
    {
        __m512 bv[NV];
        if(pf < pfEnd)
        {
            _mm_prefetch(pf, _MM_HINT_T1);
            pf += 64;
        }
        if constexpr(PACK)
        {
            _mm_prefetch(reinterpret_cast<const char*>(src + kAhead * args.ldb), _MM_HINT_T0);
            _mm_prefetch(reinterpret_cast<const char*>(src + kAhead * args.ldb + 16 * NV - 1), _MM_HINT_T0);
            _mm_prefetch(reinterpret_cast<const char*>(src + kNR), _MM_HINT_T1);
            _mm_prefetch(reinterpret_cast<const char*>(src + kNR + 16), _MM_HINT_T1);
            _mm_prefetch(reinterpret_cast<const char*>(src + kNR + 31), _MM_HINT_T1);
#pragma GCC unroll 4
            for(int v = 0; v < NV; ++v)
            {
                bv[v] = loadLanes(mask[v], src + 16 * v);
                _mm512_store_ps(b + 16 * v, bv[v]);
            }
            src += args.ldb;
        }
        else
        {
#pragma GCC unroll 4
            for(int v = 0; v < NV; ++v)
                bv[v] = _mm512_load_ps(b + 16 * v);
        }
#pragma GCC unroll 16
        for(int i = 0; i < MR; ++i)
        {
            const __m512 av = _mm512_set1_ps(a[i]);
#pragma GCC unroll 4
            for(int v = 0; v < NV; ++v)
                acc[i][v] = _mm512_fmadd_ps(av, bv[v], acc[i][v]);
        }
        a += kMR;
        b += kNR;
    }
#pragma GCC unroll 16
    for(int i = 0; i < MR; ++i)
    {
        float* row = args.c + static_cast<std::size_t>(i) * args.ldc;
#pragma GCC unroll 4
        for(int v = 0; v < NV; ++v)
        {
            __m512 r = acc[i][v];
            if(args.accumulate)
                r = _mm512_add_ps(r, loadLanes(mask[v], row + 16 * v));
            storeLanes(row + 16 * v, mask[v], r);
        }
    }
}

#elif MIOPEN_ISA_AVX2

constexpr int kVecsPerPanel = 2; // kNR / 8

// Lanes [0, nr - 8v) of vector v (all-ones lanes select).
inline __m256i columnMask(std::size_t nr, int v)
{
    const std::size_t lo = 8 * static_cast<std::size_t>(v);
    const int n          = nr >= lo + 8 ? 8 : nr > lo ? static_cast<int>(nr - lo) : 0;
    return _mm256_cmpgt_epi32(_mm256_set1_epi32(n), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
}

template <int MR, int NV, bool PACK>
void microKernel(const KernelArgs& args)
{
    constexpr std::size_t kAhead = 16; // rows of the B source prefetched ahead
    const std::size_t kc         = args.kc;
    const float* __restrict a    = args.a;
    float* __restrict b          = args.b;
    const float* __restrict src  = args.src;
    __m256i mask[NV];
    bool full[NV];
#pragma GCC unroll 2
    for(int v = 0; v < NV; ++v)
    {
        mask[v] = columnMask(args.nr, v);
        full[v] = args.nr >= 8 * static_cast<std::size_t>(v) + 8;
    }
    // The C tile's lines are fetched while the tile is computed: with a short K (1x1 layers of
    // few input channels) the tile's stores otherwise wait for each line's read-for-ownership.
#pragma GCC unroll 8
    for(int i = 0; i < MR; ++i)
    {
        const char* row = reinterpret_cast<const char*>(args.c + static_cast<std::size_t>(i) * args.ldc);
        _mm_prefetch(row, _MM_HINT_T0);
        _mm_prefetch(row + 8 * NV * sizeof(float) - 1, _MM_HINT_T0);
    }
    __m256 acc[MR][NV];
#pragma GCC unroll 8
    for(int i = 0; i < MR; ++i)
#pragma GCC unroll 2
        for(int v = 0; v < NV; ++v)
            acc[i][v] = _mm256_setzero_ps();
    const char* pf    = args.pf;
    const char* pfEnd = args.pfEnd;
#pragma GCC unroll 4
    for(std::size_t k = 0; k < kc; ++k)
    {
        __m256 bv[NV];
        if(pf < pfEnd)
        {
            _mm_prefetch(pf, _MM_HINT_T1);
            pf += 64;
        }
        if constexpr(PACK)
        {
            _mm_prefetch(reinterpret_cast<const char*>(src + kAhead * args.ldb), _MM_HINT_T0);
            _mm_prefetch(reinterpret_cast<const char*>(src + kAhead * args.ldb + 8 * NV - 1), _MM_HINT_T0);
#pragma GCC unroll 2
            for(int v = 0; v < NV; ++v)
            {
                bv[v] = full[v] ? _mm256_loadu_ps(src + 8 * v) : _mm256_maskload_ps(src + 8 * v, mask[v]);
                _mm256_store_ps(b + 8 * v, bv[v]);
            }
            src += args.ldb;
        }
        else
        {
#pragma GCC unroll 2
            for(int v = 0; v < NV; ++v)
                bv[v] = _mm256_load_ps(b + 8 * v);
        }
#pragma GCC unroll 8
        for(int i = 0; i < MR; ++i)
        {
            const __m256 av = _mm256_broadcast_ss(a + i);
#pragma GCC unroll 2
            for(int v = 0; v < NV; ++v)
                acc[i][v] = _mm256_fmadd_ps(av, bv[v], acc[i][v]);
        }
        a += kMR;
        b += kNR;
    }
#pragma GCC unroll 8
    for(int i = 0; i < MR; ++i)
    {
        float* row = args.c + static_cast<std::size_t>(i) * args.ldc;
#pragma GCC unroll 2
        for(int v = 0; v < NV; ++v)
        {
            __m256 r = acc[i][v];
            if(full[v])
            {
                if(args.accumulate)
                    r = _mm256_add_ps(r, _mm256_loadu_ps(row + 8 * v));
                _mm256_storeu_ps(row + 8 * v, r);
            }
            else
            {
                if(args.accumulate)
                    r = _mm256_add_ps(r, _mm256_maskload_ps(row + 8 * v, mask[v]));
                _mm256_maskstore_ps(row + 8 * v, mask[v], r);
            }
        }
    }
}

#else // baseline ISA: plain C++ the compiler vectorizes for SSE2

constexpr int kVecsPerPanel = 2; // kNR / 8

template <int MR, int NV, bool PACK>
void microKernel(const KernelArgs& args)
{
    constexpr int W = NV * 8;
    const std::size_t n = std::min<std::size_t>(args.nr, W);
    float acc[MR][W]    = {};
    const float* a      = args.a;
    float* b            = args.b;
    const float* src    = args.src;
    const char* pf      = args.pf;
    for(std::size_t k = 0; k < args.kc; ++k)
    {
        if(pf < args.pfEnd)
        {
            __builtin_prefetch(pf, 0, 2);
            pf += 64;
        }
        if constexpr(PACK)
        {
            for(int j = 0; j < W; ++j)
                b[j] = static_cast<std::size_t>(j) < n ? src[j] : 0.0f;
            src += args.ldb;
        }
        for(int i = 0; i < MR; ++i)
        {
            const float av = a[i];
            for(int j = 0; j < W; ++j)
                acc[i][j] += av * b[j];
        }
        a += kMR;
        b += kNR;
    }
    for(int i = 0; i < MR; ++i)
    {
        float* row = args.c + static_cast<std::size_t>(i) * args.ldc;
        for(std::size_t j = 0; j < n; ++j)
            row[j] = args.accumulate ? row[j] + acc[i][j] : acc[i][j];
    }
}

#endif

using MicroKernelFn = void (*)(const KernelArgs&);

template <int... I>
struct KernelTable
{
    // [mr-1][nv-1][pack]
    static constexpr MicroKernelFn table[sizeof...(I)][2][2] = {
        {{&microKernel<I + 1, 1, false>, &microKernel<I + 1, 1, true>},
         {&microKernel<I + 1, 2, false>, &microKernel<I + 1, 2, true>}}...};
};

template <std::size_t... I>
constexpr auto makeKernelTable(std::index_sequence<I...>)
{
    return KernelTable<static_cast<int>(I)...>{};
}

inline void runMicroKernel(std::size_t mr, bool pack, const KernelArgs& args)
{
    using Table = decltype(makeKernelTable(std::make_index_sequence<kMR>{}));
    // With PACK the panel is written whole (both vectors), so it uses the full width.
    const std::size_t nv = (pack || args.nr > kNR / kVecsPerPanel) ? 2 : 1;
    Table::table[mr - 1][nv - 1][pack ? 1 : 0](args);
}

// ---------------------------------------------------------------------------------------------
// The driver.

struct GemmScratch
{
    float* bPack = nullptr; // kKC * ncBlock floats, 64-byte aligned
    float* aPack = nullptr; // kMCDynamic * kKC floats (only for providers that pack A on the fly)
    float* tile  = nullptr; // kMR * kNR floats
};

// C target interface:
//   void begin(std::size_t jc, std::size_t nc);
//   float* direct(std::size_t i, std::size_t j, std::size_t nr, std::size_t& ldc);  // or nullptr
//   void scatter(std::size_t i, std::size_t j, std::size_t mr, std::size_t nr, const float* tile, bool accumulate);
//   void done(std::size_t jc, std::size_t nc);
// A provider: std::size_t blockRows() const; const float* get(ic, mc, pc, kc, float* scratch);
//   static constexpr bool kPrepacked: get() returns blocks that are in memory already (it packs
//   nothing), so the driver may look at the next block ahead of time.
// B provider, either block-wise (kPanelwise = false):
//   const float* get(pc, kc, jc, nc, float* scratch);   // packs the whole kc x nc block
// or panel-wise (kPanelwise = true):
//   const float* source(pc, j, nr, std::size_t& ldb);   // fp32 rows readable in place, or nullptr
//   void packPanel(pc, kc, j, nr, float* dst);          // otherwise
// With accumulateInto the product is added to what C holds (C += A*B).
//
// `prefetch` (optional): memory to bring into cache while this product computes, for a pass that
// alternates a memory-bound step with a GEMM (e.g. the strided 1x1 gather of the next images).
// The micro-kernels take its lines one per k step, spread through the arithmetic: issued in
// bursts between micro-kernel calls they stall the core on its miss buffers instead.
// Without it, a prepacked A is prefetched: while the first column panel of a block runs, each
// micro-kernel takes the same panel of the next A block (the next row block, else the first of the
// next K block or column block) into L2, one line per k step. With few columns per A block an A
// larger than L2 otherwise streams from L3 or memory at the kernels' pace (conv5_1 3x3 stride 2
// backward data: per image 4608 x 512 floats of A for 64 columns); in alternating runs on the Zen 5
// VM that layer's ratio to oneDNN went from 0.70-0.78 to 0.78-0.87, and the 3x3 and 1x1 forward and
// backward-data layers by +1.7% on average (within the noise, either way, one by one).
struct PrefetchStream
{
    const char* next = nullptr;
    const char* end  = nullptr;

    PrefetchStream() = default;
    PrefetchStream(const void* begin, std::size_t bytes)
        : next(static_cast<const char*>(begin)), end(static_cast<const char*>(begin) + bytes)
    {
    }
    // The lines of a micro-kernel call of kc steps.
    void take(std::size_t kc, const char*& from, const char*& to)
    {
        from = next;
        next += std::min<std::size_t>(static_cast<std::size_t>(end - next), 64 * kc);
        to = next;
    }
};

// The source memory of a B block, as up to kMaxRanges byte ranges: a block-wise B provider that
// packs from memory too large for the caches (im2col of X) names the ranges its next block will
// read (`sourceRanges`), and the driver prefetches them during the current block's products,
// spread over the micro-kernel calls that carry no A prefetch. Packing the block then finds its
// input in L2 instead of stalling on memory (conv4_1_3x3_s2 forward: about half of the packing's
// time waited on X).
struct SourceRanges
{
    static constexpr std::size_t kMaxRanges = 32;
    const char* begin[kMaxRanges]{};
    const char* end[kMaxRanges]{};
    std::size_t count = 0;

    void add(const void* p, std::size_t bytes)
    {
        if(count < kMaxRanges && bytes > 0)
        {
            begin[count] = static_cast<const char*>(p);
            end[count]   = static_cast<const char*>(p) + bytes;
            ++count;
        }
    }
    std::size_t lines() const
    {
        std::size_t n = 0;
        for(std::size_t i = 0; i < count; ++i)
            n += static_cast<std::size_t>(end[i] - begin[i] + 63) / 64;
        return n;
    }
    // The next `lines` lines (fewer at the end of a range): [from, to).
    void take(std::size_t lines, const char*& from, const char*& to)
    {
        while(count > 0 && begin[0] >= end[0])
            drop();
        if(count == 0)
        {
            from = to = nullptr;
            return;
        }
        from = begin[0];
        to   = begin[0] + std::min<std::size_t>(static_cast<std::size_t>(end[0] - begin[0]), 64 * lines);
        begin[0] = to;
    }

private:
    void drop()
    {
        for(std::size_t i = 1; i < count; ++i)
        {
            begin[i - 1] = begin[i];
            end[i - 1]   = end[i];
        }
        --count;
    }
};

template <class B, class = void>
struct NamesSourceRanges : std::false_type
{
};
template <class B>
struct NamesSourceRanges<B, decltype(std::declval<const B&>().sourceRanges(std::size_t{}, std::size_t{}, std::size_t{},
                                                                             std::size_t{}, std::declval<SourceRanges&>()))>
    : std::true_type
{
};

template <class AProv, class BProv, class CTgt>
void gemm(std::size_t M, std::size_t N, std::size_t K, std::size_t ncBlock, AProv& a, BProv& b, CTgt& c,
          const GemmScratch& s, bool accumulateInto = false, PrefetchStream* prefetch = nullptr)
{
    const std::size_t mcBlock = a.blockRows();
    for(std::size_t jc = 0; jc < N; jc += ncBlock)
    {
        const std::size_t nc = std::min(ncBlock, N - jc);
        c.begin(jc, nc);
        for(std::size_t pc = 0; pc < K; pc += kKC)
        {
            const std::size_t kc = std::min(kKC, K - pc);
            KernelArgs args;
            args.kc         = kc;
            args.accumulate = accumulateInto || pc > 0;
            const float* bBlock = s.bPack;
            if constexpr(!BProv::kPanelwise)
                bBlock = b.get(pc, kc, jc, nc, s.bPack);
            // The next block's source, prefetched during this block's products (see SourceRanges).
            SourceRanges nextB;
            std::size_t nextBPerCall = 0;
            if constexpr(NamesSourceRanges<BProv>::value)
            {
                if(prefetch == nullptr)
                {
                    if(pc + kc < K)
                        b.sourceRanges(pc + kc, std::min(kKC, K - pc - kc), jc, nc, nextB);
                    else if(jc + nc < N)
                        b.sourceRanges(0, std::min(kKC, K), jc + nc, std::min(ncBlock, N - jc - nc), nextB);
                    else // pc = K: what the caller multiplies after this product, if the provider knows
                        b.sourceRanges(K, std::min(kKC, K), N, 0, nextB);
                    // The calls free to carry it: a prepacked A takes the first column panel's.
                    const std::size_t panels = ceilDiv(nc, kNR);
                    const std::size_t calls =
                        ceilDiv(M, kMR) * (AProv::kPrepacked && panels > 1 ? panels - 1 : panels);
                    nextBPerCall = ceilDiv(nextB.lines(), calls);
                }
            }
            for(std::size_t ic = 0; ic < M; ic += mcBlock)
            {
                const std::size_t mc = std::min(mcBlock, M - ic);
                const float* aBlock  = a.get(ic, mc, pc, kc, s.aPack);
                const float* nextA   = nullptr; // the block after this one, its K extent and rows
                std::size_t nextKc = 0, nextMc = 0;
                if constexpr(AProv::kPrepacked)
                {
                    if(prefetch == nullptr)
                    {
                        const bool lastRows = ic + mc >= M;
                        const std::size_t npc = !lastRows ? pc : pc + kc < K ? pc + kc : jc + nc < N ? 0 : K;
                        if(npc < K)
                        {
                            const std::size_t nic = lastRows ? 0 : ic + mc;
                            nextKc                = std::min(kKC, K - npc);
                            nextMc                = std::min(mcBlock, M - nic);
                            nextA                 = a.get(nic, nextMc, npc, nextKc, nullptr);
                        }
                    }
                }
                for(std::size_t jr = 0; jr < nc; jr += kNR)
                {
                    args.nr   = std::min(kNR, nc - jr);
                    args.b    = const_cast<float*>(bBlock + jr * kc);
                    bool pack = false;
                    if constexpr(BProv::kPanelwise)
                    {
                        if(ic == 0)
                        {
                            args.src = b.source(pc, jc + jr, args.nr, args.ldb);
                            pack     = args.src != nullptr;
                            if(!pack)
                                b.packPanel(pc, kc, jc + jr, args.nr, args.b);
                        }
                    }
                    for(std::size_t ir = 0; ir < mc; ir += kMR)
                    {
                        const std::size_t mr = std::min(kMR, mc - ir);
                        args.a               = aBlock + ir * kc;
                        if(prefetch != nullptr)
                            prefetch->take(kc, args.pf, args.pfEnd);
                        else if(nextA != nullptr && jr == 0 && ir < nextMc)
                        {
                            args.pf    = reinterpret_cast<const char*>(nextA + ir * nextKc);
                            args.pfEnd = args.pf + kMR * nextKc * sizeof(float);
                        }
                        else if(nextB.count > 0)
                            nextB.take(nextBPerCall, args.pf, args.pfEnd);
                        else
                            args.pf = args.pfEnd = nullptr;
                        std::size_t ldc      = 0;
                        float* cp            = c.direct(ic + ir, jc + jr, args.nr, ldc);
                        if(cp != nullptr)
                        {
                            args.c   = cp;
                            args.ldc = ldc;
                            runMicroKernel(mr, pack, args);
                        }
                        else
                        {
                            KernelArgs t = args;
                            t.c          = s.tile;
                            t.ldc        = kNR;
                            t.accumulate = false;
                            runMicroKernel(mr, pack, t);
                            c.scatter(ic + ir, jc + jr, mr, args.nr, s.tile, args.accumulate);
                        }
                        pack = false; // the panel is packed now
                    }
                }
            }
        }
        c.done(jc, nc);
    }
}

// ---------------------------------------------------------------------------------------------
// A providers.

// Size in floats of a fully prepacked M x K matrix.
inline std::size_t prepackedSize(std::size_t M, std::size_t K) { return roundUp(M, kMR) * K; }

// Packs micro-panels [p0, p1) of the M x K matrix elem(i, k) into the prepacked layout: block pc
// at dst + pc*Mpad, panel p inside it at + p*kMR*kc.
template <class Elem>
void prepackPanels(std::size_t M, std::size_t K, std::size_t p0, std::size_t p1, const Elem& elem, float* dst)
{
    const std::size_t mPad = roundUp(M, kMR);
    for(std::size_t pc = 0; pc < K; pc += kKC)
    {
        const std::size_t kc = std::min(kKC, K - pc);
        for(std::size_t p = p0; p < p1; ++p)
        {
            float* panel = dst + pc * mPad + p * kMR * kc;
            for(std::size_t i = 0; i < kMR; ++i)
            {
                const std::size_t row = p * kMR + i;
                if(row < M)
                    for(std::size_t k = 0; k < kc; ++k)
                        panel[k * kMR + i] = elem(row, pc + k);
                else
                    for(std::size_t k = 0; k < kc; ++k)
                        panel[k * kMR + i] = 0.0f;
            }
        }
    }
}

// A block rows for a prepacked A: the block (rows x kKC floats) stays in L2 next to the B block.
constexpr std::size_t kMCPrepacked = 16 * kMR;

struct PrepackedA
{
    const float* base = nullptr;
    std::size_t M     = 0;
    static constexpr bool kPrepacked = true;
    std::size_t blockRows() const { return kMCPrepacked; }
    const float* get(std::size_t ic, std::size_t, std::size_t pc, std::size_t kc, float*) const
    {
        return base + pc * roundUp(M, kMR) + ic * kc;
    }
};

// ---------------------------------------------------------------------------------------------
// Image-batched matrices: element (r, j) of a matrix whose columns j = n*P + p run over the
// pixels p of images n: src[n*imageStride + r*rowStride + p]. This is an NCHW tensor seen as
// (channels x all pixels), used for 1x1 convolutions and for dY.

struct ColumnSegment
{
    std::size_t offset; // position in the destination range
    std::size_t len;
    std::size_t n;      // image
    std::size_t p;      // first pixel in the image
};

// Splits columns [j0, j0+len) at image boundaries. `out` holds at least len/P + 2 entries.
inline std::size_t splitByImage(std::size_t j0, std::size_t len, std::size_t P, ColumnSegment* out)
{
    std::size_t count = 0, done = 0;
    std::size_t n = j0 / P, p = j0 % P;
    while(done < len)
    {
        const std::size_t take = std::min(len - done, P - p);
        out[count++]           = {done, take, n, p};
        done += take;
        ++n;
        p = 0;
    }
    return count;
}

// Zeroes the columns beyond nc of the last micro-panel of a packed B block.
inline void zeroPanelTail(std::size_t kc, std::size_t nc, float* dst)
{
    if(nc % kNR == 0)
        return;
    float* panel = dst + (nc / kNR) * kNR * kc;
    for(std::size_t k = 0; k < kc; ++k)
        for(std::size_t t = nc % kNR; t < kNR; ++t)
            panel[k * kNR + t] = 0.0f;
}

// Copies row k of a B block, given contiguous in `row` (nc values), into the micro-panels.
inline void panelizeRow(const float* row, std::size_t k, std::size_t kc, std::size_t nc, float* dst)
{
    std::size_t q = 0;
    for(; (q + 1) * kNR <= nc; ++q) // whole panels: a fixed-size copy (vector moves)
        std::memcpy(dst + q * kNR * kc + k * kNR, row + q * kNR, kNR * sizeof(float));
    if(q * kNR < nc)
        std::memcpy(dst + q * kNR * kc + k * kNR, row + q * kNR, (nc - q * kNR) * sizeof(float));
}

// Packs a kc x nc B block row by row: row(k, buf) writes row k's nc values contiguously into buf,
// ahead(k) prefetches row k's input; both are called for k = 0, 1, ... in order, ahead kAhead
// rows before row. Rows pass through a small ring of buffers into the micro-panels a few rows
// later: reading a row right after its (unaligned, masked) stores would stall on store-to-load
// forwarding.
template <class Row, class Ahead>
void packRowsThroughRing(std::size_t kc, std::size_t nc, float* dst, Row&& row, Ahead&& ahead)
{
    constexpr std::size_t kRing  = 4;
    constexpr std::size_t kAhead = 4;
    alignas(64) float ring[kRing][kNCMax];
    for(std::size_t k = 0; k < kAhead && k < kc; ++k)
        ahead(k);
    for(std::size_t k = 0; k < kc; ++k)
    {
        if(k + kAhead < kc)
            ahead(k + kAhead);
        if(k >= kRing)
            panelizeRow(ring[k % kRing], k - kRing, kc, nc, dst);
        row(k, ring[k % kRing]);
    }
    for(std::size_t k = kc > kRing ? kc - kRing : 0; k < kc; ++k)
        panelizeRow(ring[k % kRing], k, kc, nc, dst);
    zeroPanelTail(kc, nc, dst);
}

// dst[t*width + i] = rows[i][t] for i < nrows, t < len; zero for nrows <= i < width. Turns
// rows that run along the K dim into a micro-panel (backward weights packs both operands so).
// GCC 12's AVX-512 shuffle intrinsics start from _mm512_undefined_ps(), which -Wmaybe-uninitialized
// reports as uninitialized (a false positive inside the compiler's own header).
#pragma GCC diagnostic push
#if !defined(__clang__) // a GCC-only warning
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
inline void transposeIntoPanel(const float* const* rows, std::size_t nrows, std::size_t len, float* dst,
                               std::size_t width)
{
#if MIOPEN_ISA_AVX512
    for(std::size_t i0 = 0; i0 < width; i0 += 16)
    {
        const std::size_t cnt   = nrows > i0 ? std::min<std::size_t>(16, nrows - i0) : 0;
        const std::size_t lanes = std::min<std::size_t>(16, width - i0);
        const auto laneMask     = static_cast<__mmask16>(lanes == 16 ? 0xffffu : (1u << lanes) - 1u);
        for(std::size_t t = 0; t < len; t += 16)
        {
            const std::size_t n = std::min<std::size_t>(16, len - t);
            const auto kMask    = static_cast<__mmask16>(n == 16 ? 0xffffu : (1u << n) - 1u);
            __m512 r[16], u[16];
            for(std::size_t i = 0; i < 16; ++i)
            {
                // The rows are separate streams far apart: fetch a few lines ahead explicitly.
                if(i < cnt)
                    _mm_prefetch(reinterpret_cast<const char*>(rows[i0 + i] + t + 64), _MM_HINT_T0);
                r[i] = i < cnt ? loadLanes(kMask, rows[i0 + i] + t) : _mm512_setzero_ps();
            }
            for(int i = 0; i < 8; ++i)
            {
                u[2 * i]     = _mm512_unpacklo_ps(r[2 * i], r[2 * i + 1]);
                u[2 * i + 1] = _mm512_unpackhi_ps(r[2 * i], r[2 * i + 1]);
            }
            for(int i = 0; i < 4; ++i)
            {
                r[4 * i + 0] = _mm512_shuffle_ps(u[4 * i], u[4 * i + 2], _MM_SHUFFLE(1, 0, 1, 0));
                r[4 * i + 1] = _mm512_shuffle_ps(u[4 * i], u[4 * i + 2], _MM_SHUFFLE(3, 2, 3, 2));
                r[4 * i + 2] = _mm512_shuffle_ps(u[4 * i + 1], u[4 * i + 3], _MM_SHUFFLE(1, 0, 1, 0));
                r[4 * i + 3] = _mm512_shuffle_ps(u[4 * i + 1], u[4 * i + 3], _MM_SHUFFLE(3, 2, 3, 2));
            }
            for(int m = 0; m < 4; ++m)
            {
                u[m]      = _mm512_shuffle_f32x4(r[m], r[4 + m], 0x88);
                u[m + 4]  = _mm512_shuffle_f32x4(r[m], r[4 + m], 0xdd);
                u[m + 8]  = _mm512_shuffle_f32x4(r[8 + m], r[12 + m], 0x88);
                u[m + 12] = _mm512_shuffle_f32x4(r[8 + m], r[12 + m], 0xdd);
            }
            __m512 out[16];
            for(int m = 0; m < 4; ++m)
            {
                out[m]      = _mm512_shuffle_f32x4(u[m], u[m + 8], 0x88);
                out[8 + m]  = _mm512_shuffle_f32x4(u[m], u[m + 8], 0xdd);
                out[4 + m]  = _mm512_shuffle_f32x4(u[m + 4], u[m + 12], 0x88);
                out[12 + m] = _mm512_shuffle_f32x4(u[m + 4], u[m + 12], 0xdd);
            }
            for(std::size_t j = 0; j < n; ++j)
                storeLanes(dst + (t + j) * width + i0, laneMask, out[j]);
        }
    }
#else
    for(std::size_t t = 0; t < len; ++t)
        for(std::size_t i = 0; i < width; ++i)
            dst[t * width + i] = i < nrows ? rows[i][t] : 0.0f;
#endif
}
#pragma GCC diagnostic pop

template <class E>
struct BatchedMatrix
{
    using T                 = typename E::T;
    const T* src            = nullptr;
    std::size_t rowStride   = 0;
    std::size_t imageStride = 0;
    std::size_t P           = 1; // columns (pixels) per image
    std::size_t rows        = 0; // valid rows
    std::size_t colOffset   = 0; // global column of local column 0

    const T* at(std::size_t r, const ColumnSegment& s) const { return src + s.n * imageStride + r * rowStride + s.p; }

    // As B (rows are the K dim, columns the N dim): block k in [pc, pc+kc), cols [jc, jc+nc).
    // Row by row, so the source is read sequentially.
    void packAsB(std::size_t pc, std::size_t kc, std::size_t jc, std::size_t nc, float* dst) const
    {
        ColumnSegment segs[kNCMax + 2];
        const std::size_t nseg = splitByImage(colOffset + jc, nc, P, segs);
        constexpr std::size_t kAhead = 4; // rows prefetched ahead: the runs start far apart
        for(std::size_t k = 0; k < kc; ++k)
        {
            if(k + kAhead < kc)
                for(std::size_t si = 0; si < nseg; ++si)
                {
                    const char* pf = reinterpret_cast<const char*>(at(pc + k + kAhead, segs[si]));
                    for(std::size_t b = 0; b < segs[si].len * sizeof(T); b += 64)
                        __builtin_prefetch(pf + b);
                }
            for(std::size_t si = 0; si < nseg; ++si)
            {
                const T* s         = at(pc + k, segs[si]);
                std::size_t col    = segs[si].offset;
                const std::size_t e = col + segs[si].len;
                while(col < e)
                {
                    // Up to the end of the micro-panel holding `col`.
                    const std::size_t take = std::min(e - col, kNR - col % kNR);
                    float* d = dst + (col / kNR) * kNR * kc + k * kNR + col % kNR;
                    for(std::size_t t = 0; t < take; ++t)
                        d[t] = E::load(s[t]);
                    s += take;
                    col += take;
                }
            }
        }
        zeroPanelTail(kc, nc, dst);
    }

    // Prefetches rows [r0, r0+nrows), columns [t0, t0+len) (len <= kKC) into L2: the next K block
    // of a provider that packs rows as panels reads one stream per row, from memory.
    void prefetchRows(std::size_t r0, std::size_t nrows, std::size_t t0, std::size_t len) const
    {
        ColumnSegment segs[kKC + 2];
        const std::size_t nseg = splitByImage(colOffset + t0, len, P, segs);
        for(std::size_t r = r0; r < std::min(r0 + nrows, rows); ++r)
            for(std::size_t si = 0; si < nseg; ++si)
            {
                const char* p = reinterpret_cast<const char*>(at(r, segs[si]));
                for(std::size_t b = 0; b < segs[si].len * sizeof(T); b += 64)
                    __builtin_prefetch(p + b, 0, 2);
            }
    }

    // Rows become the panel width: rows [r0, r0+nrows) in panels of `width` (kMR for A, kNR for
    // B^T), K dim = columns [t0, t0+kc). Panel p at dst + p*width*kc, element (row, t) at
    // [t*width + row].
    void packRowsAsPanels(std::size_t r0, std::size_t nrows, std::size_t t0, std::size_t kc, std::size_t width,
                          float* dst, ColumnSegment* segs) const
    {
        const std::size_t nseg = splitByImage(colOffset + t0, kc, P, segs);
        if constexpr(std::is_same<E, ElemF32>::value)
        {
            const float* ptrs[kNR];
            for(std::size_t p = 0; p * width < nrows; ++p)
            {
                float* panel = dst + p * width * kc;
                for(std::size_t si = 0; si < nseg; ++si)
                {
                    std::size_t cnt = 0;
                    for(std::size_t i = 0; i < width; ++i)
                    {
                        const std::size_t r = r0 + p * width + i;
                        if(p * width + i >= nrows || r >= rows)
                            break;
                        ptrs[cnt++] = at(r, segs[si]);
                    }
                    transposeIntoPanel(ptrs, cnt, segs[si].len, panel + segs[si].offset * width, width);
                }
            }
            return;
        }
        for(std::size_t p = 0; p * width < nrows; ++p)
        {
            float* panel = dst + p * width * kc;
            for(std::size_t i = 0; i < width; ++i)
            {
                const std::size_t r = r0 + p * width + i;
                if(p * width + i < nrows && r < rows)
                {
                    for(std::size_t si = 0; si < nseg; ++si)
                    {
                        const T* s = at(r, segs[si]);
                        float* d   = panel + segs[si].offset * width + i;
                        for(std::size_t t = 0; t < segs[si].len; ++t)
                            d[t * width] = E::load(s[t]);
                    }
                }
                else
                    for(std::size_t t = 0; t < kc; ++t)
                        panel[t * width + i] = 0.0f;
            }
        }
    }
};

// B = a batched matrix. For fp32 it is panel-wise: micro-panels inside one image are read in
// place by the packing micro-kernel; the others are packed here.
template <class E>
struct BatchedB
{
    static constexpr bool kPanelwise = std::is_same<E, ElemF32>::value;
    BatchedMatrix<E> m;
    const float* source(std::size_t pc, std::size_t j, std::size_t nr, std::size_t& ldb) const
    {
        if constexpr(!std::is_same<E, ElemF32>::value)
            return nullptr;
        else
        {
            const std::size_t g = m.colOffset + j;
            const std::size_t n = g / m.P, p = g % m.P;
            if(p + nr > m.P)
                return nullptr;
            ldb = m.rowStride;
            return m.src + n * m.imageStride + pc * m.rowStride + p;
        }
    }
    void packPanel(std::size_t pc, std::size_t kc, std::size_t j, std::size_t nr, float* dst) const
    {
        m.packAsB(pc, kc, j, nr, dst);
    }
    const float* get(std::size_t pc, std::size_t kc, std::size_t jc, std::size_t nc, float* scratch) const
    {
        m.packAsB(pc, kc, jc, nc, scratch);
        return scratch;
    }
};

// A = rows of a batched matrix, K dim along its columns (dY in backward weights).
template <class E>
struct BatchedRowsA
{
    BatchedMatrix<E> m;
    mutable ColumnSegment segs[kKC + 2];
    std::size_t kExtent = 0; // K-dim columns: with it, each block prefetches the next one's rows
    static constexpr bool kPrepacked = false;
    std::size_t blockRows() const { return kMCDynamic; }
    const float* get(std::size_t ic, std::size_t mc, std::size_t pc, std::size_t kc, float* scratch) const
    {
        if(pc + kc < kExtent)
            m.prefetchRows(ic, mc, pc + kc, std::min(kKC, kExtent - pc - kc));
        m.packRowsAsPanels(ic, mc, pc, kc, kMR, scratch, segs);
        return scratch;
    }
};

// B = transposed rows of a batched matrix (x in 1x1 backward weights): B(t, j) = m(j, t).
template <class E>
struct BatchedRowsB
{
    static constexpr bool kPanelwise = false;
    BatchedMatrix<E> m;
    mutable ColumnSegment segs[kKC + 2];
    std::size_t kExtent = 0; // K-dim columns: with it, each block prefetches the next one's rows
    const float* get(std::size_t pc, std::size_t kc, std::size_t jc, std::size_t nc, float* scratch) const
    {
        if(pc + kc < kExtent)
            m.prefetchRows(jc, nc, pc + kc, std::min(kKC, kExtent - pc - kc));
        m.packRowsAsPanels(jc, nc, pc, kc, kNR, scratch, segs);
        return scratch;
    }
};

// A B provider seen with its columns shifted by `shift` (a column range of a larger product).
template <class B>
struct ShiftedB
{
    static constexpr bool kPanelwise = false;
    static_assert(!B::kPanelwise, "ShiftedB forwards block-wise providers only");
    B b;
    std::size_t shift = 0;
    const float* get(std::size_t pc, std::size_t kc, std::size_t jc, std::size_t nc, float* scratch) const
    {
        return b.get(pc, kc, jc + shift, nc, scratch);
    }
};

// ---------------------------------------------------------------------------------------------
// C targets.

// C(i, j) = base[n*imageStride + i*ld + p] with global column colOffset + j = n*P + p. Tiles
// that stay inside one image are written in place, the others through the tile buffer.
struct BatchedC
{
    float* base             = nullptr;
    std::size_t ld          = 0;
    std::size_t imageStride = 0;
    std::size_t P           = 1;
    std::size_t colOffset   = 0;

    void begin(std::size_t, std::size_t) {}
    void done(std::size_t, std::size_t) {}
    float* direct(std::size_t i, std::size_t j, std::size_t nr, std::size_t& ldc) const
    {
        const std::size_t g = colOffset + j;
        const std::size_t n = g / P, p = g % P;
        if(p + nr > P)
            return nullptr;
        ldc = ld;
        return base + n * imageStride + i * ld + p;
    }
    void scatter(std::size_t i, std::size_t j, std::size_t mr, std::size_t nr, const float* tile, bool accumulate) const
    {
        ColumnSegment segs[kNR + 2];
        const std::size_t nseg = splitByImage(colOffset + j, nr, P, segs);
        for(std::size_t r = 0; r < mr; ++r)
            for(std::size_t si = 0; si < nseg; ++si)
            {
                float* d       = base + segs[si].n * imageStride + (i + r) * ld + segs[si].p;
                const float* t = tile + r * kNR + segs[si].offset;
                if(accumulate)
                    for(std::size_t u = 0; u < segs[si].len; ++u)
                        d[u] += t[u];
                else
                    for(std::size_t u = 0; u < segs[si].len; ++u)
                        d[u] = t[u];
            }
    }
};

// Stages a column block (M x nc, row stride ld) and hands it to `epilogue(stage, ld, jc, nc)`
// once all of K is accumulated.
template <class Epilogue>
struct StagedC
{
    float* stage = nullptr;
    std::size_t ld = 0; // >= ncBlock
    Epilogue epilogue;
    std::size_t current = 0;

    void begin(std::size_t jc, std::size_t) { current = jc; }
    void done(std::size_t jc, std::size_t nc) { epilogue(stage, ld, jc, nc); }
    float* direct(std::size_t i, std::size_t j, std::size_t, std::size_t& ldc) const
    {
        ldc = ld;
        return stage + i * ld + (j - current);
    }
    void scatter(std::size_t, std::size_t, std::size_t, std::size_t, const float*, bool) const {}
};

template <class Epilogue>
StagedC<Epilogue> makeStagedC(float* stage, std::size_t ld, Epilogue e)
{
    return StagedC<Epilogue>{stage, ld, std::move(e), 0};
}

// ---------------------------------------------------------------------------------------------
// Fused im2col. Rows r = ((c*FD + fd)*FH + fh)*FW + fw of group `group`; columns j = n*P + p over
// the output pixels p = (od*OH + oh)*OW + ow of all images.

struct OutputRowSegment
{
    std::size_t offset; // position in the destination range
    std::size_t len;
    std::size_t n, od, oh, ow0;
    long id0, ih0;      // input d/h of filter tap 0
    std::size_t base;   // n * xs[0]
};

struct Im2colGeometry
{
    const Geometry* g = nullptr;
    std::size_t group = 0;

    std::size_t rows() const { return g->cPerGroup * g->filterSpatial(); }

    // Splits pixel columns [j0, j0+len) into runs along one output row. `out` holds len + 2.
    std::size_t split(std::size_t j0, std::size_t len, OutputRowSegment* out) const
    {
        const std::size_t P = g->outSpatial();
        std::size_t n       = j0 / P;
        std::size_t rem     = j0 % P;
        std::size_t od      = rem / (g->out[1] * g->out[2]);
        rem %= g->out[1] * g->out[2];
        std::size_t oh = rem / g->out[2];
        std::size_t ow = rem % g->out[2];
        std::size_t count = 0, done = 0;
        while(done < len)
        {
            const std::size_t take = std::min(len - done, g->out[2] - ow);
            out[count++]           = {done,
                            take,
                            n,
                            od,
                            oh,
                            ow,
                            static_cast<long>(od) * g->str[0] - g->pad[0],
                            static_cast<long>(oh) * g->str[1] - g->pad[1],
                            n * g->xs[0]};
            done += take;
            ow = 0;
            if(++oh == g->out[1])
            {
                oh = 0;
                if(++od == g->out[0])
                {
                    od = 0;
                    ++n;
                }
            }
        }
        return count;
    }

    struct Row
    {
        std::size_t c, fd, fh, fw;
    };
    Row decompose(std::size_t r) const
    {
        Row w;
        w.fw = r % g->fil[2];
        r /= g->fil[2];
        w.fh = r % g->fil[1];
        r /= g->fil[1];
        w.fd = r % g->fil[0];
        w.c  = r / g->fil[0];
        return w;
    }
    void next(Row& w) const
    {
        if(++w.fw < g->fil[2])
            return;
        w.fw = 0;
        if(++w.fh < g->fil[1])
            return;
        w.fh = 0;
        if(++w.fd < g->fil[0])
            return;
        w.fd = 0;
        ++w.c;
    }

    // Calls fn(segment, inputOffset of ow = lo, lo, hi) for the in-range part [lo, hi) (relative
    // to the segment start) of every segment; the caller fills the rest with zeros.
    template <class Fn>
    void forEachRun(const Row& w, const OutputRowSegment* segs, std::size_t nseg, Fn&& fn) const
    {
        const Geometry& G = *g;
        const long offW   = static_cast<long>(w.fw) * G.dil[2] - G.pad[2];
        const long s2     = G.str[2];
        // Output columns ow with 0 <= ow*s2 + offW < in[2].
        const long owFirst = offW >= 0 ? 0 : (-offW + s2 - 1) / s2;
        const long lastIn  = static_cast<long>(G.in[2]) - 1 - offW;
        const long owEnd   = lastIn < 0 ? 0 : lastIn / s2 + 1;
        const std::size_t chan = (group * G.cPerGroup + w.c) * G.xs[1];
        const long offD        = static_cast<long>(w.fd) * G.dil[0];
        const long offH        = static_cast<long>(w.fh) * G.dil[1];
        for(std::size_t si = 0; si < nseg; ++si)
        {
            const OutputRowSegment& s = segs[si];
            const long idd = s.id0 + offD;
            const long ih  = s.ih0 + offH;
            std::size_t lo = 0, hi = 0;
            if(idd >= 0 && idd < static_cast<long>(G.in[0]) && ih >= 0 && ih < static_cast<long>(G.in[1]))
            {
                const long a = std::max<long>(owFirst, static_cast<long>(s.ow0));
                const long b = std::min<long>(owEnd, static_cast<long>(s.ow0 + s.len));
                if(a < b)
                {
                    lo = static_cast<std::size_t>(a) - s.ow0;
                    hi = static_cast<std::size_t>(b) - s.ow0;
                }
            }
            std::size_t inOff = 0;
            if(hi > lo)
                inOff = s.base + chan + static_cast<std::size_t>(idd) * G.xs[2] +
                        static_cast<std::size_t>(ih) * G.xs[3] +
                        static_cast<std::size_t>(static_cast<long>(s.ow0 + lo) * s2 + offW) * G.xs[4];
            fn(s, inOff, lo, hi);
        }
    }
};

// dst[t] = src[t * step] for t < n (fp32).
inline void copyStrided(const float* __restrict src, std::size_t step, float* __restrict dst, std::size_t n)
{
#if MIOPEN_ISA_AVX512
    if(step == 1)
    {
        std::size_t t = 0;
        for(; t + 16 <= n; t += 16)
            _mm512_storeu_ps(dst + t, _mm512_loadu_ps(src + t));
        if(t < n)
        {
            const __mmask16 m = static_cast<__mmask16>((1u << (n - t)) - 1u);
            _mm512_mask_storeu_ps(dst + t, m, _mm512_maskz_loadu_ps(m, src + t));
        }
        return;
    }
    if(step == 2)
    {
        const __m512i even = _mm512_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30);
        std::size_t t      = 0;
        // The last element read is src[2n - 2]: while t + 17 <= n the second load's 16th element
        // (src[2t + 31]) is inside, so the load need not be masked.
        for(; t + 17 <= n; t += 16)
        {
            const __m512 a = _mm512_loadu_ps(src + 2 * t);
            const __m512 b = _mm512_loadu_ps(src + 2 * t + 16);
            _mm512_storeu_ps(dst + t, _mm512_permutex2var_ps(a, even, b));
        }
        for(; t + 16 <= n; t += 16)
        {
            // The second load reads 31 elements at most: src[2t + 16 .. 2t + 30].
            const __m512 a = _mm512_loadu_ps(src + 2 * t);
            const __m512 b = _mm512_maskz_loadu_ps(static_cast<__mmask16>(0x7fff), src + 2 * t + 16);
            _mm512_storeu_ps(dst + t, _mm512_permutex2var_ps(a, even, b));
        }
        if(t < n)
        {
            const std::size_t need = 2 * (n - t) - 1; // input elements read
            const __mmask16 m0 = static_cast<__mmask16>(need >= 16 ? 0xffffu : (1u << need) - 1u);
            const __mmask16 m1 = static_cast<__mmask16>(need > 16 ? (1u << (need - 16)) - 1u : 0u);
            const __m512 a     = _mm512_maskz_loadu_ps(m0, src + 2 * t);
            const __m512 b     = _mm512_maskz_loadu_ps(m1, src + 2 * t + 16);
            _mm512_mask_storeu_ps(dst + t, static_cast<__mmask16>((1u << (n - t)) - 1u),
                                  _mm512_permutex2var_ps(a, even, b));
        }
        return;
    }
#elif MIOPEN_ISA_AVX2
    if(step == 2)
    {
        std::size_t t = 0;
        // The last element read is src[2n - 2]: while t + 9 <= n the second load's 8th element
        // (src[2t + 15]) is inside. Per 128-bit lane shuffle_ps takes a0 a2 b0 b2 | a4 a6 b4 b6;
        // the 64-bit permute (0, 2, 1, 3) puts a's evens before b's.
        for(; t + 9 <= n; t += 8)
        {
            const __m256 a = _mm256_loadu_ps(src + 2 * t);
            const __m256 b = _mm256_loadu_ps(src + 2 * t + 8);
            const __m256 e = _mm256_shuffle_ps(a, b, _MM_SHUFFLE(2, 0, 2, 0));
            _mm256_storeu_ps(dst + t, _mm256_castpd_ps(_mm256_permute4x64_pd(_mm256_castps_pd(e), 0xd8)));
        }
        for(; t < n; ++t)
            dst[t] = src[2 * t];
        return;
    }
#endif
    for(std::size_t t = 0; t < n; ++t)
        dst[t] = src[t * step];
}

// dst[t * step] = src[t] and zeros between, for dst[0 .. n*step) (fp32).
inline void spreadStrided(const float* __restrict src, std::size_t n, std::size_t step, float* __restrict dst)
{
#if MIOPEN_ISA_AVX512
    if(step == 2)
    {
        const __m512i lo = _mm512_setr_epi32(0, 16, 1, 16, 2, 16, 3, 16, 4, 16, 5, 16, 6, 16, 7, 16);
        const __m512i hi = _mm512_setr_epi32(8, 16, 9, 16, 10, 16, 11, 16, 12, 16, 13, 16, 14, 16, 15, 16);
        const __m512 zero = _mm512_setzero_ps();
        std::size_t t     = 0;
        for(; t + 16 <= n; t += 16)
        {
            const __m512 v = _mm512_loadu_ps(src + t);
            _mm512_storeu_ps(dst + 2 * t, _mm512_permutex2var_ps(v, lo, zero));
            _mm512_storeu_ps(dst + 2 * t + 16, _mm512_permutex2var_ps(v, hi, zero));
        }
        for(; t < n; ++t)
        {
            dst[2 * t]     = src[t];
            dst[2 * t + 1] = 0.0f;
        }
        return;
    }
#elif MIOPEN_ISA_AVX2
    if(step == 2)
    {
        const __m256 zero = _mm256_setzero_ps();
        std::size_t t     = 0;
        for(; t + 8 <= n; t += 8)
        {
            // unpacklo / unpackhi interleave per 128-bit lane: s0 0 s1 0 | s4 0 s5 0 and
            // s2 0 s3 0 | s6 0 s7 0; the lane permutes put them in order.
            const __m256 v  = _mm256_loadu_ps(src + t);
            const __m256 lo = _mm256_unpacklo_ps(v, zero);
            const __m256 hi = _mm256_unpackhi_ps(v, zero);
            _mm256_storeu_ps(dst + 2 * t, _mm256_permute2f128_ps(lo, hi, 0x20));
            _mm256_storeu_ps(dst + 2 * t + 8, _mm256_permute2f128_ps(lo, hi, 0x31));
        }
        for(; t < n; ++t)
        {
            dst[2 * t]     = src[t];
            dst[2 * t + 1] = 0.0f;
        }
        return;
    }
#endif
    for(std::size_t t = 0; t < n; ++t)
    {
        dst[t * step] = src[t];
        for(std::size_t z = 1; z < step; ++z)
            dst[t * step + z] = 0.0f;
    }
}

// Gathers one im2col row for the given segments into dst[offset*dstStride ...].
template <class E>
void im2colRow(const Im2colGeometry& ig, const typename E::T* x, const Im2colGeometry::Row& w,
               const OutputRowSegment* segs, std::size_t nseg, float* dst, std::size_t dstStride)
{
    const std::size_t step = static_cast<std::size_t>(ig.g->str[2]) * ig.g->xs[4];
    // The rows of one filter column of the next channel: short runs a channel apart, which the
    // hardware prefetchers do not predict (conv3_1 stride 2 backward weights: the packing
    // stalled on these loads).
    const bool prefetchNext = w.fw == 0;
    ig.forEachRun(w, segs, nseg, [&](const OutputRowSegment& s, std::size_t inOff, std::size_t lo, std::size_t hi) {
        float* d = dst + s.offset * dstStride;
        for(std::size_t t = 0; t < lo; ++t)
            d[t * dstStride] = 0.0f;
        const typename E::T* src = x + inOff;
        if(prefetchNext && hi > lo)
        {
            const char* next      = reinterpret_cast<const char*>(src + ig.g->xs[1]);
            const std::size_t len = ((hi - lo - 1) * step + 1) * sizeof(typename E::T);
            for(std::size_t b = 0; b < len; b += 64)
                __builtin_prefetch(next + b);
            __builtin_prefetch(next + len - 1);
        }
        if constexpr(std::is_same<E, ElemF32>::value)
        {
            if(dstStride == 1)
                copyStrided(src, step, d + lo, hi > lo ? hi - lo : 0);
            else
                for(std::size_t t = lo; t < hi; ++t)
                    d[t * dstStride] = src[(t - lo) * step];
        }
        else
        {
            for(std::size_t t = lo; t < hi; ++t)
                d[t * dstStride] = E::load(src[(t - lo) * step]);
        }
        for(std::size_t t = std::max(hi, lo); t < s.len; ++t)
            d[t * dstStride] = 0.0f;
    });
}

// Adds one col row back into the image (col2im), dx in fp32 with the strides of `acc`.
inline void col2imRow(const Im2colGeometry& ig, float* dx, const std::size_t* xs, std::size_t channelBase,
                      const Im2colGeometry::Row& w, const OutputRowSegment* segs, std::size_t nseg, const float* src)
{
    const Geometry& G = *ig.g;
    const long offW   = static_cast<long>(w.fw) * G.dil[2] - G.pad[2];
    const long s2     = G.str[2];
    const long owFirst = offW >= 0 ? 0 : (-offW + s2 - 1) / s2;
    const long lastIn  = static_cast<long>(G.in[2]) - 1 - offW;
    const long owEnd   = lastIn < 0 ? 0 : lastIn / s2 + 1;
    const std::size_t step = static_cast<std::size_t>(s2) * xs[4];
    for(std::size_t si = 0; si < nseg; ++si)
    {
        const OutputRowSegment& s = segs[si];
        const long idd = static_cast<long>(s.od) * G.str[0] - G.pad[0] + static_cast<long>(w.fd) * G.dil[0];
        const long ih  = static_cast<long>(s.oh) * G.str[1] - G.pad[1] + static_cast<long>(w.fh) * G.dil[1];
        if(idd < 0 || idd >= static_cast<long>(G.in[0]) || ih < 0 || ih >= static_cast<long>(G.in[1]))
            continue;
        const long a = std::max<long>(owFirst, static_cast<long>(s.ow0));
        const long b = std::min<long>(owEnd, static_cast<long>(s.ow0 + s.len));
        if(a >= b)
            continue;
        float* d = dx + s.n * xs[0] + (channelBase + w.c) * xs[1] + static_cast<std::size_t>(idd) * xs[2] +
                   static_cast<std::size_t>(ih) * xs[3] + static_cast<std::size_t>(a * s2 + offW) * xs[4];
        const float* sp = src + s.offset + static_cast<std::size_t>(a) - s.ow0;
        const std::size_t cnt = static_cast<std::size_t>(b - a);
        for(std::size_t t = 0; t < cnt; ++t)
            d[t * step] += sp[t];
    }
}

#if MIOPEN_ISA_AVX512
// The fp32 im2col rows of a column block as a table (AVX-512, strides 1 and 2 along the row).
// Which input values a row takes depends on its filter tap and the block's output-row segments,
// not on its channel: for each tap, every segment is cut into runs of at most 16 columns, each
// run knowing where its first value is (an offset from the channel's base), its columns in the
// block and which of them lie inside the input. A row is then a walk over its tap's runs, each
// two masked loads, one permute that also puts the zeros of the padding in place, and one masked
// store; the table is built once per column block. The generic path (forEachRun per
// row, a decision and a call per segment, and a second walk to prefetch) spent 17% of
// GemmFwdRest's time on conv4_1_3x3_s2 forward (perf, Zen 5), as much as 30 cycles per 14-value
// segment.
// No default member initializers: Im2colB holds kIm2colRunsMax of them, and a provider is made
// per group and slot (a depthwise convolution makes hundreds); buildIm2colRuns sets every field.
struct Im2colRun
{
    std::size_t src;         // offset of the run's first value from the channel's base (0 if none)
    std::uint16_t dst;       // first column of the run in the block
    __mmask16 load0, load1;  // input floats read: [0, 16) and [16, 32) from src
    __mmask16 valid;         // columns taking a value (the others are padding: zero)
    __mmask16 store;         // the run's columns
    std::uint8_t lo;         // first valid column
};

// Runs kept per block at most (the fast path is taken only when they fit): a 3x3 filter on
// output rows of 7 columns takes 9 x ~112, the 7x7 stem (rows of 112) 49 x ~55.
constexpr std::size_t kIm2colRunsMax = 4096;
constexpr std::size_t kIm2colTapsMax = 512; // filter taps (FD x FH x FW) of the fast path

// Builds the runs of every tap for the segments of one block; false (table unusable) when they
// are more than kIm2colRunsMax. runsOfTap[t] .. runsOfTap[t + 1] are tap t's runs.
inline bool buildIm2colRuns(const Im2colGeometry& ig, const OutputRowSegment* segs, std::size_t nseg,
                            Im2colRun* runs, std::size_t* runsOfTap)
{
    const Geometry& G  = *ig.g;
    const long s2      = G.str[2];
    std::size_t count  = 0;
    std::size_t tap    = 0;
    for(std::size_t fd = 0; fd < G.fil[0]; ++fd)
        for(std::size_t fh = 0; fh < G.fil[1]; ++fh)
            for(std::size_t fw = 0; fw < G.fil[2]; ++fw, ++tap)
            {
                runsOfTap[tap]      = count;
                const long offW     = static_cast<long>(fw) * G.dil[2] - G.pad[2];
                const long owFirst  = offW >= 0 ? 0 : (-offW + s2 - 1) / s2;
                const long lastIn   = static_cast<long>(G.in[2]) - 1 - offW;
                const long owEnd    = lastIn < 0 ? 0 : lastIn / s2 + 1;
                const long offD     = static_cast<long>(fd) * G.dil[0];
                const long offH     = static_cast<long>(fh) * G.dil[1];
                for(std::size_t si = 0; si < nseg; ++si)
                {
                    const OutputRowSegment& s = segs[si];
                    const long idd            = s.id0 + offD;
                    const long ih             = s.ih0 + offH;
                    const bool rowInside =
                        idd >= 0 && idd < static_cast<long>(G.in[0]) && ih >= 0 && ih < static_cast<long>(G.in[1]);
                    for(std::size_t c0 = 0; c0 < s.len; c0 += 16)
                    {
                        if(count == kIm2colRunsMax)
                            return false;
                        const std::size_t len = std::min<std::size_t>(16, s.len - c0);
                        const long first      = static_cast<long>(s.ow0 + c0);
                        const long a = rowInside ? std::max<long>(owFirst, first) : 0;
                        const long b = rowInside ? std::min<long>(owEnd, first + static_cast<long>(len)) : 0;
                        Im2colRun& r = runs[count++];
                        r            = Im2colRun{};
                        r.dst        = static_cast<std::uint16_t>(s.offset + c0);
                        r.store      = static_cast<__mmask16>((1u << len) - 1u);
                        if(a >= b)
                            continue; // all padding: zeros
                        const std::size_t n    = static_cast<std::size_t>(b - a);
                        const std::size_t need = (n - 1) * static_cast<std::size_t>(s2) + 1; // floats read
                        r.lo    = static_cast<std::uint8_t>(a - first);
                        r.valid = static_cast<__mmask16>(((1u << n) - 1u) << r.lo);
                        r.load0 = static_cast<__mmask16>(need >= 16 ? 0xffffu : (1u << need) - 1u);
                        r.load1 = static_cast<__mmask16>(need > 16 ? (1u << (need - 16)) - 1u : 0u);
                        r.src   = s.base + static_cast<std::size_t>(idd) * G.xs[2] +
                                static_cast<std::size_t>(ih) * G.xs[3] + static_cast<std::size_t>(a * s2 + offW);
                    }
                }
            }
    runsOfTap[tap] = count;
    return true;
}

// One im2col row from its tap's runs: xc is the row's channel base, step the stride (1 or 2).
// (-Wmaybe-uninitialized: GCC 12's permute intrinsics start from _mm512_undefined_ps(), see
// transposeIntoPanel.)
#pragma GCC diagnostic push
#if !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
inline void im2colRowFromRuns(const Im2colRun* r, const Im2colRun* end, const float* xc, long step, float* dst)
{
    const __m512i iota = _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    for(; r != end; ++r)
    {
        const float* s = xc + r->src;
        const __m512 a = _mm512_maskz_loadu_ps(r->load0, s);
        const __m512 b = _mm512_maskz_loadu_ps(r->load1, s + 16);
        // Column t takes input float (t - lo) * step; columns outside `valid` are zeroed.
        __m512i idx = _mm512_sub_epi32(iota, _mm512_set1_epi32(r->lo));
        if(step == 2)
            idx = _mm512_slli_epi32(idx, 1);
        _mm512_mask_storeu_ps(dst + r->dst, r->store, _mm512_maskz_permutex2var_ps(r->valid, a, idx, b));
    }
}
#pragma GCC diagnostic pop

// Prefetches the input lines that a row's runs read.
inline void prefetchRuns(const Im2colRun* r, const Im2colRun* end, const float* xc)
{
    for(; r != end; ++r)
        if(r->valid != 0)
        {
            const char* s = reinterpret_cast<const char*>(xc + r->src);
            _mm_prefetch(s, _MM_HINT_T0);
            _mm_prefetch(s + 31 * sizeof(float), _MM_HINT_T0);
        }
}
#endif

// B = im2col(x): K dim = rows, N dim = output pixels of all images.
template <class E>
struct Im2colB
{
    static constexpr bool kPanelwise = false;
    Im2colGeometry ig;
    const typename E::T* x = nullptr;
    std::size_t colOffset  = 0;

    mutable OutputRowSegment segs[kNCMax + 2];
    // The input that block (pc, kc, jc, nc) reads: per image its columns touch, the planes of the
    // block's channels (one contiguous range in packed NCHW / NCDHW).
    void sourceRanges(std::size_t pc, std::size_t kc, std::size_t jc, std::size_t nc, SourceRanges& out) const
    {
        if(pc >= ig.rows()) // what follows the product: not known here
            return;
        const Geometry& G      = *ig.g;
        const std::size_t taps = G.filterSpatial();
        const std::size_t P    = G.outSpatial();
        const std::size_t c0   = ig.group * G.cPerGroup + pc / taps;
        const std::size_t c1   = ig.group * G.cPerGroup + (pc + kc - 1) / taps + 1;
        const std::size_t n0   = (colOffset + jc) / P;
        const std::size_t n1   = (colOffset + jc + nc - 1) / P + 1;
        for(std::size_t n = n0; n < n1; ++n)
            out.add(x + n * G.xs[0] + c0 * G.xs[1], (c1 - c0) * G.xs[1] * sizeof(typename E::T));
    }

#if MIOPEN_ISA_AVX512
    // The table of the fp32 fast path and the block it was built for.
    mutable Im2colRun runs[kIm2colRunsMax];
    mutable std::size_t runsOfTap[kIm2colTapsMax + 1];
    mutable std::size_t tableJc = 0, tableNc = 0;
    mutable bool tableOk = false;

    // The fast path: fp32, rows packed (unit stride along W), stride 1 or 2 along W.
    bool fastPathApplies() const
    {
        return std::is_same<E, ElemF32>::value && ig.g->xs[4] == 1 && (ig.g->str[2] == 1 || ig.g->str[2] == 2) &&
               ig.g->filterSpatial() <= kIm2colTapsMax;
    }

    const float* getFromRuns(std::size_t pc, std::size_t kc, std::size_t nc, float* scratch) const
    {
        const Geometry& G       = *ig.g;
        const float* xf         = reinterpret_cast<const float*>(x);
        const std::size_t taps  = G.filterSpatial();
        const std::size_t cBase = ig.group * G.cPerGroup;
        const long step         = G.str[2];
        // Row r: its channel's base and its tap's runs.
        auto rowRuns = [&](std::size_t r, const float*& xc, const Im2colRun*& b, const Im2colRun*& e) {
            const std::size_t tap = r % taps;
            xc                    = xf + (cBase + r / taps) * G.xs[1];
            b                     = runs + runsOfTap[tap];
            e                     = runs + runsOfTap[tap + 1];
        };
        packRowsThroughRing(
            kc, nc, scratch,
            [&](std::size_t k, float* buf) {
                const float* xc;
                const Im2colRun *b, *e;
                rowRuns(pc + k, xc, b, e);
                im2colRowFromRuns(b, e, xc, step, buf);
            },
            [&](std::size_t k) {
                const float* xc;
                const Im2colRun *b, *e;
                rowRuns(pc + k, xc, b, e);
                prefetchRuns(b, e, xc);
            });
        return scratch;
    }
#endif

    // Row by row over the whole column block (long contiguous runs of the input), each row
    // gathered into a contiguous buffer and then split into the micro-panels.
    const float* get(std::size_t pc, std::size_t kc, std::size_t jc, std::size_t nc, float* scratch) const
    {
#if MIOPEN_ISA_AVX512
        if(fastPathApplies())
        {
            if(tableNc == 0 || tableJc != jc || tableNc != nc)
            {
                const std::size_t nseg = ig.split(colOffset + jc, nc, segs);
                tableOk                = buildIm2colRuns(ig, segs, nseg, runs, runsOfTap);
                tableJc                = jc;
                tableNc                = nc;
            }
            if(tableOk)
                return getFromRuns(pc, kc, nc, scratch);
        }
#endif
        const std::size_t nseg = ig.split(colOffset + jc, nc, segs);
        const std::size_t step = static_cast<std::size_t>(ig.g->str[2]) * ig.g->xs[4] * sizeof(typename E::T);
        Im2colGeometry::Row w     = ig.decompose(pc); // row k's, then k + 1's, ...
        Im2colGeometry::Row ahead = ig.decompose(pc); // the row the next ahead() prefetches
        packRowsThroughRing(
            kc, nc, scratch,
            [&](std::size_t, float* buf) {
                im2colRow<E>(ig, x, w, segs, nseg, buf, 1);
                ig.next(w);
            },
            [&](std::size_t) { // the runs lie far apart: each one's lines
                ig.forEachRun(ahead, segs, nseg,
                              [&](const OutputRowSegment&, std::size_t inOff, std::size_t lo, std::size_t hi) {
                                  const char* p = reinterpret_cast<const char*>(x + inOff);
                                  const std::size_t bytes = (hi > lo ? hi - lo : 0) * step;
                                  for(std::size_t b = 0; b < bytes; b += 64)
                                      __builtin_prefetch(p + b);
                              });
                ig.next(ahead);
            });
        return scratch;
    }
};

// B = im2col(x)^T: K dim = output pixels (global, colOffset added), N dim = rows.
template <class E>
struct Im2colTransposedB
{
    static constexpr bool kPanelwise = false;
    Im2colGeometry ig;
    const typename E::T* x = nullptr;
    std::size_t pixelOffset = 0;
    mutable OutputRowSegment segs[kKC + 2];

    // Each micro-panel: its kNR im2col rows are gathered along the pixels, then transposed.
    const float* get(std::size_t pc, std::size_t kc, std::size_t jc, std::size_t nc, float* scratch) const
    {
        alignas(64) float rowBuf[kNR][kKC];
        const float* ptrs[kNR];
        const std::size_t nseg = ig.split(pixelOffset + pc, kc, segs);
        const std::size_t rows = ig.rows();
        for(std::size_t q = 0; q * kNR < nc; ++q)
        {
            Im2colGeometry::Row w = ig.decompose(jc + q * kNR);
            std::size_t cnt       = 0;
            for(std::size_t col = 0; col < kNR; ++col, ig.next(w))
            {
                const std::size_t r = jc + q * kNR + col;
                if(q * kNR + col >= nc || r >= rows)
                    break;
                im2colRow<E>(ig, x, w, segs, nseg, rowBuf[col], 1);
                ptrs[cnt++] = rowBuf[col];
            }
            transposeIntoPanel(ptrs, cnt, kc, scratch + q * kNR * kc, kNR);
        }
        return scratch;
    }
};
