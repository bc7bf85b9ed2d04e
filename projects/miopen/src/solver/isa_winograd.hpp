// Winograd F(m x m, 3 x 3) convolution, m = 2 or 4, fp32, stride 1, dilation 1, one group,
// packed NCHW. NOT include-guarded: included once per instruction set after isa_gemm.hpp (see
// isa.hpp).
//
// Core: dst (N, Cout, Hd, Wd) = conv3x3(src (N, Cin, Hs, Ws), filters, pad) with Hd = Hs + 2*pad - 2
// (pads may be negative: backward data runs this core with pad' = 2 - pad).
//   U[xi] (Cout x Cin) = G g G^T          filter transform, once, prepacked as GEMM A
//   V[xi] (Cin x tiles) = B^T d B          input transform of a block of tiles, written directly in
//                                          the packed-B layout of the GEMM
//   M[xi] = U[xi] * V[xi]                  alpha^2 GEMMs (alpha = m + 2) on the packed engine
//   Y tile = A^T M A                       output transform, clipped at the image edge
// Tiles run over all images (tile t = (n, ty, tx)) so small images still give long GEMMs.
// Transforms work on 32 tiles at a time (one micro-panel), vectorized across tiles.
//
// Two schedules: with many tiles and a small U every slot transforms and multiplies its own
// blocks of tiles (no synchronization, blocks stay in L2); otherwise (large U, few tiles) all
// slots share one big block at a time, splitting the input transform by channel, the GEMMs by
// xi and the output transform by output channel, so U streams from memory once per block.

constexpr std::size_t kWinoLanes = kNR; // tiles per transform step (one GEMM micro-panel)
constexpr std::size_t kMaxBlock  = 512; // tiles per block at most
constexpr std::size_t kMaxPanels = kMaxBlock / kWinoLanes;

template <int M>
struct WinogradTransforms;

// F(2x2, 3x3): interpolation points 0, 1, -1, infinity.
template <>
struct WinogradTransforms<2>
{
    static constexpr int kAlpha = 4;
    static constexpr double kG[4][3] = {{1, 0, 0}, {0.5, 0.5, 0.5}, {0.5, -0.5, 0.5}, {0, 0, 1}};
    // B^T d of alpha values: floats, or whole vectors (GCC vector extensions).
    template <class V>
    static void inputVals(const V* d, V* r)
    {
        r[0] = d[0] - d[2];
        r[1] = d[1] + d[2];
        r[2] = d[2] - d[1];
        r[3] = d[1] - d[3];
    }
    // B^T d for alpha vectors of kWinoLanes lanes.
    static void inputRows(const float* const* d, float* const* r)
    {
        for(std::size_t l = 0; l < kWinoLanes; ++l)
        {
            const float dv[4] = {d[0][l], d[1][l], d[2][l], d[3][l]};
            float rv[4];
            inputVals(dv, rv);
            for(int k = 0; k < 4; ++k)
                r[k][l] = rv[k];
        }
    }
    // A^T m for alpha vectors -> m vectors.
    static void outputRows(const float* const* m, float* const* o)
    {
        for(std::size_t l = 0; l < kWinoLanes; ++l)
        {
            const float m0 = m[0][l], m1 = m[1][l], m2 = m[2][l], m3 = m[3][l];
            o[0][l] = m0 + m1 + m2;
            o[1][l] = m1 - m2 - m3;
        }
    }
    // A g for m vectors -> alpha vectors (the transpose of outputRows; backward weights).
    static void gradRows(const float* const* g, float* const* r)
    {
        for(std::size_t l = 0; l < kWinoLanes; ++l)
        {
            const float g0 = g[0][l], g1 = g[1][l];
            r[0][l] = g0;
            r[1][l] = g0 + g1;
            r[2][l] = g0 - g1;
            r[3][l] = -g1;
        }
    }
};

// F(4x4, 3x3): interpolation points 0, 1, -1, 2, -2, infinity.
template <>
struct WinogradTransforms<4>
{
    static constexpr int kAlpha = 6;
    static constexpr double kG[6][3] = {{1.0 / 4, 0, 0},
                                        {-1.0 / 6, -1.0 / 6, -1.0 / 6},
                                        {-1.0 / 6, 1.0 / 6, -1.0 / 6},
                                        {1.0 / 24, 1.0 / 12, 1.0 / 6},
                                        {1.0 / 24, -1.0 / 12, 1.0 / 6},
                                        {0, 0, 1}};
    template <class V>
    static void inputVals(const V* d, V* r)
    {
        const V a = d[4] - 4.0f * d[2]; // shared terms
        const V b = d[3] - 4.0f * d[1];
        const V c = d[4] - d[2];
        const V e = 2.0f * (d[3] - d[1]);
        r[0]      = 4.0f * d[0] - 5.0f * d[2] + d[4];
        r[1]      = a + b;
        r[2]      = a - b;
        r[3]      = c + e;
        r[4]      = c - e;
        r[5]      = 4.0f * d[1] - 5.0f * d[3] + d[5];
    }
    static void inputRows(const float* const* d, float* const* r)
    {
        for(std::size_t l = 0; l < kWinoLanes; ++l)
        {
            const float dv[6] = {d[0][l], d[1][l], d[2][l], d[3][l], d[4][l], d[5][l]};
            float rv[6];
            inputVals(dv, rv);
            for(int k = 0; k < 6; ++k)
                r[k][l] = rv[k];
        }
    }
    static void outputRows(const float* const* m, float* const* o)
    {
        for(std::size_t l = 0; l < kWinoLanes; ++l)
        {
            const float m0 = m[0][l], m1 = m[1][l], m2 = m[2][l], m3 = m[3][l], m4 = m[4][l], m5 = m[5][l];
            const float s12 = m1 + m2, d12 = m1 - m2, s34 = m3 + m4, d34 = m3 - m4;
            o[0][l] = m0 + s12 + s34;
            o[1][l] = d12 + 2.0f * d34;
            o[2][l] = s12 + 4.0f * s34;
            o[3][l] = d12 + 8.0f * d34 + m5;
        }
    }
    static void gradRows(const float* const* g, float* const* r)
    {
        for(std::size_t l = 0; l < kWinoLanes; ++l)
        {
            const float g0 = g[0][l], g1 = g[1][l], g2 = g[2][l], g3 = g[3][l];
            const float e02 = g0 + g2, o13 = g1 + g3;
            const float e4 = g0 + 4.0f * g2, o8 = 2.0f * g1 + 8.0f * g3;
            r[0][l] = g0;
            r[1][l] = e02 + o13;
            r[2][l] = e02 - o13;
            r[3][l] = e4 + o8;
            r[4][l] = e4 - o8;
            r[5][l] = g3;
        }
    }
};

// ---- Strided gather / interleaved scatter between image rows and tile lanes ----

#if MIOPEN_ISA_AVX512
inline __mmask16 firstLanes(long n)
{
    return n >= 16 ? static_cast<__mmask16>(0xffff) : n <= 0 ? static_cast<__mmask16>(0)
                                                              : static_cast<__mmask16>((1u << n) - 1u);
}
// Lanes i of a 16-float load at offset o with lo <= o + i < hi.
inline __mmask16 rangeLanes(long lo, long hi, long o)
{
    return static_cast<__mmask16>(firstLanes(hi - o) & ~firstLanes(lo - o));
}
// p[o + i] for the lanes with lo <= o + i < hi, zero elsewhere (a plain load inside the row:
// see loadLanes).
inline __m512 loadRange(const float* p, long lo, long hi, long o)
{
    if(o >= lo && o + 16 <= hi)
        return _mm512_loadu_ps(p + o);
    return _mm512_maskz_loadu_ps(rangeLanes(lo, hi, o), p + o);
}
#endif

#if MIOPEN_ISA_AVX512
// Stores the alpha column vectors of 16 tiles at lane `at` of dst[j] (the `store` lanes), input-
// transformed along x first with kAlongX.
template <int M, bool kAlongX>
void storeColumns(__m512 (&col)[M + 2], float* const* dst, std::size_t at, __mmask16 store)
{
    if constexpr(kAlongX)
    {
        __m512 t[M + 2];
        WinogradTransforms<M>::inputVals(col, t);
        for(int j = 0; j < M + 2; ++j)
            col[j] = t[j];
    }
    for(int j = 0; j < M + 2; ++j)
        storeLanes(dst[j] + at, store, col[j]);
}
#endif

// dst[j][l] = p[l*M + j] for lanes l < count (<= kWinoLanes) and j < M + 2, reading p[i] only for
// lo <= i < hi and taking zero elsewhere (the image border: masked loads never touch memory
// outside [lo, hi), so p may point before the row). With kAlongX the alpha values of each lane are
// input-transformed (d B, the x pass of B^T d B) before they are stored, while still in registers.
template <int M, bool kAlongX = false>
void gatherTileColumns(const float* p, long lo, long hi, std::size_t count, float* const* dst)
{
#if MIOPEN_ISA_AVX512
    if constexpr(M == 4)
    {
        const __m512i idx[4] = {
            _mm512_setr_epi32(0, 4, 8, 12, 16, 20, 24, 28, 0, 4, 8, 12, 16, 20, 24, 28),
            _mm512_setr_epi32(1, 5, 9, 13, 17, 21, 25, 29, 1, 5, 9, 13, 17, 21, 25, 29),
            _mm512_setr_epi32(2, 6, 10, 14, 18, 22, 26, 30, 2, 6, 10, 14, 18, 22, 26, 30),
            _mm512_setr_epi32(3, 7, 11, 15, 19, 23, 27, 31, 3, 7, 11, 15, 19, 23, 27, 31)};
        for(std::size_t h = 0; h * 16 < count; ++h)
        {
            const long base  = 64 * static_cast<long>(h);
            const auto store = firstLanes(static_cast<long>(count) - 16 * static_cast<long>(h));
            __m512 l[4], s4[4];
            for(int k = 0; k < 4; ++k)
            {
                const long o1 = base + 16 * k, o2 = base + 4 + 16 * k;
                l[k]          = loadRange(p, lo, hi, o1);
                s4[k]         = loadRange(p, lo, hi, o2);
            }
            __m512 col[6];
            for(int j = 0; j < 6; ++j)
            {
                const __m512* src = j < 4 ? l : s4;
                const __m512i& ix = idx[j & 3];
                const __m512 a    = _mm512_permutex2var_ps(src[0], ix, src[1]);
                const __m512 b    = _mm512_permutex2var_ps(src[2], ix, src[3]);
                col[j]            = _mm512_mask_blend_ps(0xff00, a, b);
            }
            storeColumns<M, kAlongX>(col, dst, 16 * h, store);
        }
        return;
    }
    else
    {
        const __m512i idx[2] = {_mm512_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30),
                                _mm512_setr_epi32(1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25, 27, 29, 31)};
        for(std::size_t h = 0; h * 16 < count; ++h)
        {
            const long base  = 32 * static_cast<long>(h);
            const auto store = firstLanes(static_cast<long>(count) - 16 * static_cast<long>(h));
            __m512 l[2], s2[2];
            for(int k = 0; k < 2; ++k)
            {
                const long o1 = base + 16 * k, o2 = base + 2 + 16 * k;
                l[k]          = loadRange(p, lo, hi, o1);
                s2[k]         = loadRange(p, lo, hi, o2);
            }
            __m512 col[4];
            for(int j = 0; j < 4; ++j)
            {
                const __m512* src = j < 2 ? l : s2;
                col[j]            = _mm512_permutex2var_ps(src[0], idx[j & 1], src[1]);
            }
            storeColumns<M, kAlongX>(col, dst, 16 * h, store);
        }
        return;
    }
#else
    for(std::size_t l = 0; l < count; ++l)
    {
        float col[M + 2];
        for(int j = 0; j < M + 2; ++j)
        {
            const long i = static_cast<long>(l) * M + j;
            col[j]       = i >= lo && i < hi ? p[i] : 0.0f;
        }
        if constexpr(kAlongX)
        {
            float out[M + 2];
            WinogradTransforms<M>::inputVals(col, out);
            for(int j = 0; j < M + 2; ++j)
                dst[j][l] = out[j];
        }
        else
        {
            for(int j = 0; j < M + 2; ++j)
                dst[j][l] = col[j];
        }
    }
#endif
}

// d[l*M + j] = src[j][l] for lanes l < count and j < M, only positions below `avail`.
template <int M>
void scatterTileColumns(const float* const* src, std::size_t count, float* d, std::size_t avail)
{
#if MIOPEN_ISA_AVX512
    const long total = static_cast<long>(std::min(avail, count * M));
    if constexpr(M == 4)
    {
        const __m512i pairLo = _mm512_setr_epi32(0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23);
        const __m512i pairHi = _mm512_setr_epi32(8, 24, 9, 25, 10, 26, 11, 27, 12, 28, 13, 29, 14, 30, 15, 31);
        const __m512i quadA  = _mm512_setr_epi32(0, 1, 16, 17, 2, 3, 18, 19, 4, 5, 20, 21, 6, 7, 22, 23);
        const __m512i quadB  = _mm512_setr_epi32(8, 9, 24, 25, 10, 11, 26, 27, 12, 13, 28, 29, 14, 15, 30, 31);
        for(std::size_t h = 0; h * 16 < count; ++h)
        {
            // Only the run's lanes are read (the rows may end right after them).
            const auto in   = firstLanes(static_cast<long>(count) - 16 * static_cast<long>(h));
            const __m512 v0 = loadLanes(in, src[0] + 16 * h);
            const __m512 v1 = loadLanes(in, src[1] + 16 * h);
            const __m512 v2 = loadLanes(in, src[2] + 16 * h);
            const __m512 v3 = loadLanes(in, src[3] + 16 * h);
            const __m512 x0 = _mm512_permutex2var_ps(v0, pairLo, v1), y0 = _mm512_permutex2var_ps(v2, pairLo, v3);
            const __m512 x1 = _mm512_permutex2var_ps(v0, pairHi, v1), y1 = _mm512_permutex2var_ps(v2, pairHi, v3);
            const __m512 o[4] = {_mm512_permutex2var_ps(x0, quadA, y0), _mm512_permutex2var_ps(x0, quadB, y0),
                                 _mm512_permutex2var_ps(x1, quadA, y1), _mm512_permutex2var_ps(x1, quadB, y1)};
            for(int k = 0; k < 4; ++k)
            {
                const long at = 64 * static_cast<long>(h) + 16 * k;
                storeLanes(d + at, firstLanes(total - at), o[k]);
            }
        }
    }
    else
    {
        const __m512i pairLo = _mm512_setr_epi32(0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23);
        const __m512i pairHi = _mm512_setr_epi32(8, 24, 9, 25, 10, 26, 11, 27, 12, 28, 13, 29, 14, 30, 15, 31);
        for(std::size_t h = 0; h * 16 < count; ++h)
        {
            const auto in   = firstLanes(static_cast<long>(count) - 16 * static_cast<long>(h));
            const __m512 v0 = loadLanes(in, src[0] + 16 * h);
            const __m512 v1 = loadLanes(in, src[1] + 16 * h);
            const long at   = 32 * static_cast<long>(h);
            storeLanes(d + at, firstLanes(total - at), _mm512_permutex2var_ps(v0, pairLo, v1));
            storeLanes(d + at + 16, firstLanes(total - at - 16), _mm512_permutex2var_ps(v0, pairHi, v1));
        }
    }
#else
    for(std::size_t l = 0; l < count; ++l)
        for(int j = 0; j < M; ++j)
        {
            const std::size_t x = l * M + static_cast<std::size_t>(j);
            if(x < avail)
                d[x] = src[j][l];
        }
#endif
}

struct WinogradShape
{
    std::size_t n = 0, cin = 0, cout = 0;
    std::size_t hs = 0, ws = 0, hd = 0, wd = 0;
    long padH = 0, padW = 0;
    std::size_t tilesH = 0, tilesW = 0, tiles = 0; // tiles per image and in total
};

// Index of element (i, k) of an M x K matrix in the prepacked-A layout.
inline std::size_t prepackedIndex(std::size_t M, std::size_t K, std::size_t i, std::size_t k)
{
    const std::size_t pc = k / kKC * kKC;
    const std::size_t kc = std::min(kKC, K - pc);
    return pc * roundUp(M, kMR) + (i / kMR) * kMR * kc + (k - pc) * kMR + i % kMR;
}

// Packed B block of the GEMM for one xi: rows = input channels, columns = the block's tiles.
struct PackedTilesB
{
    static constexpr bool kPanelwise = false;
    const float* base  = nullptr;
    std::size_t tiles  = 0; // columns of the block
    const float* get(std::size_t pc, std::size_t kc, std::size_t jc, std::size_t, float*) const
    {
        return base + pc * tiles + jc * kc;
    }
};

template <int M>
struct WinogradPlan
{
    using Tr                    = WinogradTransforms<M>;
    static constexpr int kAlpha = Tr::kAlpha;
    static constexpr int kXi    = kAlpha * kAlpha;

    WinogradShape s;
    bool independent   = false; // each slot its own blocks
    std::size_t block  = 0;     // tiles per block (multiple of kWinoLanes)
    std::size_t uSize  = 0;     // floats per prepacked U[xi]
    std::size_t vStride = 0;    // floats from V[xi] to V[xi + 1]
    std::size_t mStride = 0;    // floats from M[xi] to M[xi + 1]

    // The transforms touch all alpha^2 matrices of V (or M) at once, one 128-byte run each. Their
    // natural stride (channels x block tiles) is a multiple of 4 KB (conv2_x: 64 x 32 floats =
    // 8 KB), so the 36 runs all fell into the same two L1 sets (12 ways) and evicted each other on
    // every channel; two cache lines of padding per matrix spread them over the sets.
    static constexpr std::size_t kXiPad = 32;

    WinogradPlan(const WinogradShape& shape, std::size_t slots) : s(shape)
    {
        uSize                        = prepackedSize(s.cout, s.cin);
        const double uBytes          = 4.0 * kXi * static_cast<double>(uSize);
        const std::size_t perTile    = static_cast<std::size_t>(kXi) * (s.cin + s.cout) * sizeof(float);
        // Blocks whose V and M take up to 3 MB: larger blocks re-read U less often and give the
        // GEMMs more columns, which outweighs V and M not staying in the 1 MB L2 (measured on
        // conv2_x: 128-tile blocks 535-585 GFLOP/s forward, 32-tile blocks 490-510).
        const std::size_t vmBlock    = std::max(kWinoLanes, (std::size_t{3} << 20) / perTile / kWinoLanes * kWinoLanes);
        const std::size_t smallBlock = std::min<std::size_t>(vmBlock, 8 * kWinoLanes);
        independent = uBytes <= 8.0 * (1 << 20) && s.tiles >= 2 * slots * smallBlock;
        if(independent)
            block = smallBlock;
        else
        {
            // Shared schedule: each block re-reads all of U, so as few blocks as a 48 MB V + M
            // allows, of equal size (conv4_x forward, 512 tiles: one block 580-630 GFLOP/s,
            // 320 + 192 tiles 430-530, 32-tile blocks 510-600, in interleaved runs).
            const std::size_t budget = std::max(kWinoLanes, std::min<std::size_t>((std::size_t{48} << 20) / perTile, kMaxBlock));
            const std::size_t count  = ceilDiv(s.tiles, budget);
            block = std::min(kMaxBlock, roundUp(ceilDiv(s.tiles, count), kWinoLanes));
        }
        vStride = s.cin * block + kXiPad;
        mStride = s.cout * block + kXiPad;
    }
    std::size_t blocks() const { return ceilDiv(s.tiles, block); }
    std::size_t vSize() const { return static_cast<std::size_t>(kXi) * vStride; }
    std::size_t mSize() const { return static_cast<std::size_t>(kXi) * mStride; }

    // Filter transform of output channels [p*kMR, p*kMR + kMR) (one micro-panel of the prepacked
    // U, lanes = output channels) and input channel i; g[t][lane] holds the 3x3 taps.
    // Writes, for each xi, the values of input channels [i0, i0 + n) into U[xi] (one contiguous run
    // of n * kMR floats: consecutive input channels of a micro-panel are adjacent, and i0 .. i0+n
    // never crosses a K block).
    void transformFilterPanel(const float (*g)[9][kMR], std::size_t p, std::size_t i0, std::size_t n, float* u) const
    {
        constexpr std::size_t kBatch = 16;
        alignas(64) float vals[kXi][kBatch][kMR];
        for(std::size_t ii = 0; ii < n; ++ii)
        {
            float gg[kAlpha][3][kMR];
            for(int a = 0; a < kAlpha; ++a)
                for(int c = 0; c < 3; ++c)
                {
                    const float k0 = static_cast<float>(Tr::kG[a][0]);
                    const float k1 = static_cast<float>(Tr::kG[a][1]);
                    const float k2 = static_cast<float>(Tr::kG[a][2]);
                    for(std::size_t l = 0; l < kMR; ++l)
                        gg[a][c][l] = k0 * g[ii][c][l] + k1 * g[ii][3 + c][l] + k2 * g[ii][6 + c][l];
                }
            for(int a = 0; a < kAlpha; ++a)
                for(int b = 0; b < kAlpha; ++b)
                {
                    const float k0 = static_cast<float>(Tr::kG[b][0]);
                    const float k1 = static_cast<float>(Tr::kG[b][1]);
                    const float k2 = static_cast<float>(Tr::kG[b][2]);
                    for(std::size_t l = 0; l < kMR; ++l)
                        vals[a * kAlpha + b][ii][l] = gg[a][0][l] * k0 + gg[a][1][l] * k1 + gg[a][2][l] * k2;
                }
        }
        const std::size_t idx = prepackedIndex(s.cout, s.cin, p * kMR, i0);
        for(int x = 0; x < kXi; ++x)
            std::memcpy(u + static_cast<std::size_t>(x) * uSize + idx, vals[x], n * kMR * sizeof(float));
    }

    // Tiles [t0, t0 + kWinoLanes) as (image, tile row, first tile column, count) runs.
    struct TileRun
    {
        std::size_t lane, len, n, ty, tx;
    };
    std::size_t tileRuns(std::size_t t0, TileRun* runs) const
    {
        std::size_t count = 0;
        std::size_t lane  = 0;
        std::size_t t     = t0;
        while(lane < kWinoLanes && t < s.tiles)
        {
            const std::size_t n  = t / (s.tilesH * s.tilesW);
            const std::size_t r  = t % (s.tilesH * s.tilesW);
            const std::size_t ty = r / s.tilesW, tx = r % s.tilesW;
            const std::size_t len = std::min(kWinoLanes - lane, std::min(s.tilesW - tx, s.tiles - t));
            runs[count++]         = {lane, len, n, ty, tx};
            lane += len;
            t += len;
        }
        return count;
    }

    // Gathers the alpha x alpha patches of channel c for the tiles of `runs`, transformed along x
    // (d B), into patch[r*alpha + j][lane] (zero outside the image and past the last tile).
    void gatherPatches(const float* src, std::size_t c, const TileRun* runs, std::size_t nruns,
                       float (*patch)[kWinoLanes]) const
    {
        std::size_t covered = 0;
        for(std::size_t ri = 0; ri < nruns; ++ri)
        {
            const TileRun& run      = runs[ri];
            const float* img        = src + (run.n * s.cin + c) * s.hs * s.ws;
            const long x0           = static_cast<long>(run.tx * M) - s.padW;
            const long width        = static_cast<long>(run.len * M + (kAlpha - M));
            // The valid part [a, b) of the run's input columns.
            const long a            = std::max<long>(0, -x0);
            const long b            = std::min<long>(width, static_cast<long>(s.ws) - x0);
            covered                 = run.lane + run.len;
            for(int r = 0; r < kAlpha; ++r)
            {
                float* d[kAlpha];
                for(int j = 0; j < kAlpha; ++j)
                    d[j] = &patch[r * kAlpha + j][run.lane];
                const long y = static_cast<long>(run.ty * M) - s.padH + r;
                if(y < 0 || y >= static_cast<long>(s.hs) || a >= b)
                {
                    for(int j = 0; j < kAlpha; ++j)
                        for(std::size_t l = 0; l < run.len; ++l)
                            d[j][l] = 0.0f;
                    continue;
                }
                // p may point before the row (x0 < 0); only [a, b) is read.
                const float* p = img + static_cast<std::ptrdiff_t>(static_cast<std::size_t>(y) * s.ws) + x0;
                gatherTileColumns<M, true>(p, a, b, run.len, d);
            }
        }
        for(int x = 0; x < kXi; ++x)
            for(std::size_t l = covered; l < kWinoLanes; ++l)
                patch[x][l] = 0.0f;
    }

    // One pass of B^T d B over kAlpha x kAlpha patches (element r*alpha + j is row r, column j):
    // along x (within each row) or along y (within each column).
    template <bool kAlongX>
    static void inputPass(const float (*in)[kWinoLanes], float (*out)[kWinoLanes])
    {
        for(int a = 0; a < kAlpha; ++a)
        {
            const float* i[kAlpha];
            float* o[kAlpha];
            for(int b = 0; b < kAlpha; ++b)
            {
                const int x = kAlongX ? a * kAlpha + b : b * kAlpha + a;
                i[b]        = in[x];
                o[b]        = out[x];
            }
            Tr::inputRows(i, o);
        }
    }

    // The x pass on raw patches: rows[r*alpha + j] = (d B)[r][j].
    static void alongX(const float (*patch)[kWinoLanes], float (*rows)[kWinoLanes]) { inputPass<true>(patch, rows); }

    // The y pass on rows transformed along x: dst[xi * xiStride + lane] for xi = i*alpha + j,
    // i the y frequency. Stores straight from registers (AVX-512); the portable path computes
    // into a local buffer first, so the compiler can vectorize it without aliasing doubts.
    static void alongYStore(const float (*rows)[kWinoLanes], float* dst, std::size_t xiStride)
    {
#if MIOPEN_ISA_AVX512
        for(int j = 0; j < kAlpha; ++j)
            for(std::size_t h = 0; h < kWinoLanes; h += 16)
            {
                __m512 d[kAlpha], r[kAlpha];
                for(int k = 0; k < kAlpha; ++k)
                    d[k] = _mm512_load_ps(rows[k * kAlpha + j] + h);
                Tr::inputVals(d, r);
                for(int i = 0; i < kAlpha; ++i)
                    _mm512_storeu_ps(dst + static_cast<std::size_t>(i * kAlpha + j) * xiStride + h, r[i]);
            }
#else
        alignas(64) float out[kXi][kWinoLanes];
        inputPass<false>(rows, out);
        for(int x = 0; x < kXi; ++x)
            for(std::size_t l = 0; l < kWinoLanes; ++l)
                dst[static_cast<std::size_t>(x) * xiStride + l] = out[x][l];
#endif
    }

#if MIOPEN_ISA_AVX512
    // Small images (short tile rows): the alpha x alpha patches of a panel's 32 tiles are gathered
    // lane by lane with precomputed element offsets (relative to channel 0 of image 0) and masks
    // (zero outside the image), reused for every channel, instead of run by run.
    struct PatchIndex
    {
        alignas(64) std::int32_t idx[kXi][kWinoLanes];
        __mmask16 mask[kXi][kWinoLanes / 16];
    };
    static bool indexable(std::size_t elems) { return elems < (std::size_t{1} << 31); }
    // Short tile rows: fewer than 8 tiles (F(4x4)) or 5 tiles (F(2x2)) per row (ResNet-50 conv3_x..
    // conv5_x for F(4x4), conv5_x for F(2x2), where the run-by-run gather measured no better).
    bool gatherByIndex() const
    {
        return s.tilesW < (M == 4 ? 8u : 5u) && indexable(s.n * s.cin * s.hs * s.ws);
    }
    // Offsets of the rows x cols patch elements at (tile row * M + rowOff, tile col * M + colOff) in
    // an (imageStride, h, w) tensor.
    static void indexPanel(const TileRun* runs, std::size_t nruns, int rows, int cols, long rowOff, long colOff,
                           std::size_t imageStride, std::size_t h, std::size_t w, PatchIndex& pi)
    {
        for(int x = 0; x < rows * cols; ++x)
        {
            for(std::size_t l = 0; l < kWinoLanes; ++l)
                pi.idx[x][l] = 0;
            for(std::size_t v = 0; v < kWinoLanes / 16; ++v)
                pi.mask[x][v] = 0;
        }
        for(std::size_t ri = 0; ri < nruns; ++ri)
        {
            const TileRun& run = runs[ri];
            for(std::size_t l = 0; l < run.len; ++l)
            {
                const std::size_t lane = run.lane + l;
                for(int r = 0; r < rows; ++r)
                {
                    const long y = static_cast<long>(run.ty * M) + rowOff + r;
                    for(int j = 0; j < cols; ++j)
                    {
                        const long xx = static_cast<long>((run.tx + l) * M) + colOff + j;
                        if(y < 0 || y >= static_cast<long>(h) || xx < 0 || xx >= static_cast<long>(w))
                            continue;
                        pi.idx[r * cols + j][lane] =
                            static_cast<std::int32_t>(run.n * imageStride + static_cast<std::size_t>(y) * w + static_cast<std::size_t>(xx));
                        pi.mask[r * cols + j][lane / 16] = static_cast<__mmask16>(pi.mask[r * cols + j][lane / 16] | (1u << (lane % 16)));
                    }
                }
            }
        }
    }
    void indexPatches(const TileRun* runs, std::size_t nruns, PatchIndex& pi) const
    {
        indexPanel(runs, nruns, kAlpha, kAlpha, -s.padH, -s.padW, s.cin * s.hs * s.ws, s.hs, s.ws, pi);
    }
    static void gatherIndexed(const float* plane, const PatchIndex& pi, int count, float (*patch)[kWinoLanes])
    {
        for(int x = 0; x < count; ++x)
            for(std::size_t v = 0; v < kWinoLanes / 16; ++v)
            {
                const __m512i ix = _mm512_load_si512(static_cast<const void*>(&pi.idx[x][16 * v]));
                _mm512_store_ps(&patch[x][16 * v], _mm512_mask_i32gather_ps(_mm512_setzero_ps(), pi.mask[x][v], ix, plane, 4));
            }
    }
#endif

    // The y pass of one channel's patches (already transformed along x), stored as row c of every
    // V[xi] micro-panel q.
    void transformPatches(const float (*rowsX)[kWinoLanes], std::size_t c, std::size_t q, float* v) const
    {
        const std::size_t pc = c / kKC * kKC;
        const std::size_t kc = std::min(kKC, s.cin - pc);
        alongYStore(rowsX, v + pc * block + q * kWinoLanes * kc + (c - pc) * kWinoLanes, vStride);
    }

    // Input transform of channels [c0, c1) for the tiles of block `b`, into V (packed B layout).
    // The next channel's patches are gathered before this channel's are transformed, so the
    // transform never reads values still in flight from the gather's unaligned stores.
    void inputTransform(const float* src, std::size_t b, std::size_t c0, std::size_t c1, float* v) const
    {
        // Channel-major: each input plane is swept once, in memory order, over the block's tile
        // rows (the hardware prefetcher follows that); the next (channel, panel) step is gathered
        // before the current one is transformed.
        const std::size_t t0     = b * block;
        const std::size_t panels = block / kWinoLanes;
        alignas(64) float patch[2][kXi][kWinoLanes];
        TileRun runs[kMaxPanels][kWinoLanes];
        std::size_t nruns[kMaxPanels];
        for(std::size_t q = 0; q < panels; ++q)
            nruns[q] = tileRuns(t0 + q * kWinoLanes, runs[q]);
        const std::size_t steps = (c1 - c0) * panels;
        if(steps == 0)
            return;
#if MIOPEN_ISA_AVX512
        if(gatherByIndex())
        {
            PatchIndex pidx[kMaxPanels];
            for(std::size_t q = 0; q < panels; ++q)
                indexPatches(runs[q], nruns[q], pidx[q]);
            for(std::size_t c = c0; c < c1; ++c)
                for(std::size_t q = 0; q < panels; ++q)
                {
                    gatherIndexed(src + c * s.hs * s.ws, pidx[q], kXi, patch[0]);
                    alongX(patch[0], patch[1]);
                    transformPatches(patch[1], c, q, v);
                }
            return;
        }
#endif
        gatherPatches(src, c0, runs[0], nruns[0], patch[0]);
        for(std::size_t i = 0; i < steps; ++i)
        {
            if(i + 1 < steps)
            {
                const std::size_t c = c0 + (i + 1) / panels, q = (i + 1) % panels;
                gatherPatches(src, c, runs[q], nruns[q], patch[(i + 1) & 1]);
            }
            transformPatches(patch[i & 1], c0 + i / panels, i % panels, v);
        }
    }

    // M[xi] = U[xi] * V[xi] for xi in [x0, x1).
    void multiply(const float* u, const float* v, float* m, std::size_t x0, std::size_t x1, const GemmScratch& sc) const
    {
        for(std::size_t x = x0; x < x1; ++x)
        {
            PrepackedA a{u + x * uSize, s.cout};
            PackedTilesB b{v + x * vStride, block};
            BatchedC c{m + x * mStride, block, 0, static_cast<std::size_t>(-1) / 2, 0};
            gemm(s.cout, block, s.cin, block, a, b, c, sc);
        }
    }

    // A^T M A of output channel k for the 32 tiles of micro-panel q: out[i*M + j][lane].
    void transformOutputs(const float* m, std::size_t k, std::size_t q, float (*out)[kWinoLanes]) const
    {
        alignas(64) float rows[M * kAlpha][kWinoLanes];
        const float* base = m + k * block + q * kWinoLanes;
        for(int j = 0; j < kAlpha; ++j)
        {
            const float* in[kAlpha];
            float* o[M];
            for(int r = 0; r < kAlpha; ++r)
                in[r] = base + static_cast<std::size_t>(r * kAlpha + j) * mStride;
            for(int i = 0; i < M; ++i)
                o[i] = rows[i * kAlpha + j];
            Tr::outputRows(in, o);
        }
        for(int i = 0; i < M; ++i)
        {
            const float* in[kAlpha];
            float* o[M];
            for(int j = 0; j < kAlpha; ++j)
                in[j] = rows[i * kAlpha + j];
            for(int j = 0; j < M; ++j)
                o[j] = out[i * M + j];
            Tr::outputRows(in, o);
        }
    }

    // Writes output channel k's tiles (out[i*M + j][lane]) into dst, clipped at the image edge.
    void scatterOutputs(const float (*out)[kWinoLanes], std::size_t k, const TileRun* runs, std::size_t nruns,
                        float* dst) const
    {
        for(std::size_t ri = 0; ri < nruns; ++ri)
        {
            const TileRun& run = runs[ri];
            float* img         = dst + (run.n * s.cout + k) * s.hd * s.wd;
            const std::size_t x0 = run.tx * M;
            for(int i = 0; i < M; ++i)
            {
                const std::size_t y = run.ty * M + static_cast<std::size_t>(i);
                if(y >= s.hd)
                    break;
                const float* srcRows[M];
                for(int j = 0; j < M; ++j)
                    srcRows[j] = out[i * M + j] + run.lane;
                scatterTileColumns<M>(srcRows, run.len, img + y * s.wd + x0, s.wd - x0);
            }
        }
    }

    // Output transform of output channels [k0, k1) for block `b`, channel-major so each output
    // plane is written in order (the next step is transformed before the current one is
    // scattered, for the same store-forwarding reason as the input side).
    void outputTransform(const float* m, std::size_t b, std::size_t k0, std::size_t k1, float* dst) const
    {
        const std::size_t t0 = b * block;
        std::size_t panels   = 0;
        alignas(64) float out[2][M * M][kWinoLanes];
        TileRun runs[kMaxPanels][kWinoLanes];
        std::size_t nruns[kMaxPanels];
        for(std::size_t q = 0; q < block / kWinoLanes; ++q)
        {
            nruns[q] = tileRuns(t0 + q * kWinoLanes, runs[q]);
            if(nruns[q] == 0)
                break;
            panels = q + 1;
        }
        const std::size_t steps = (k1 - k0) * panels;
        if(steps == 0)
            return;
        transformOutputs(m, k0, 0, out[0]);
        for(std::size_t i = 0; i < steps; ++i)
        {
            if(i + 1 < steps)
                transformOutputs(m, k0 + (i + 1) / panels, (i + 1) % panels, out[(i + 1) & 1]);
            const std::size_t q = i % panels;
            scatterOutputs(out[i & 1], k0 + i / panels, runs[q], nruns[q], dst);
        }
    }
};

// Tap t of (output channel o, input channel i) is at w[o*so + i*si + t*st + off].
struct FilterAffine
{
    const float* w = nullptr;
    long so = 0, si = 0, st = 0, off = 0;
};

#if MIOPEN_ISA_AVX512
// Filter transform of output-channel micro-panels [p0, p1): the 3x3 taps of a panel's 14 output
// channels are gathered per input channel (one 16-lane gather per tap, lanes = output channels)
// and G g G^T is written into the prepacked U (14 consecutive floats per input channel).
// The results of kGroup = 8 input channels (8 * 14 = 112 floats = 7 cache lines per xi, 64-byte
// aligned in U) are staged and written as whole lines: the 36 (or 16) U streams then never
// write a partial line, and with `stream` (U larger than the caches: conv5_x's is 38 MB) the
// lines go out with non-temporal stores, so writing U does not first read it from memory.
template <int M>
void transformFilterGathered(const WinogradPlan<M>& plan, const FilterAffine& fa, std::size_t p0, std::size_t p1,
                             float* u, bool stream)
{
    using Tr                    = WinogradTransforms<M>;
    constexpr int kAlpha        = Tr::kAlpha;
    constexpr int kXi           = kAlpha * kAlpha;
    constexpr std::size_t kGroup = 8;
    constexpr std::size_t kLine  = kGroup * kMR / 16; // whole 16-float vectors per xi and group
    static_assert(kGroup * kMR % 16 == 0, "a group must fill whole vectors");
    const std::size_t S = plan.s.cout, C = plan.s.cin;
    const std::size_t mPad = roundUp(S, kMR);
    const __m512i lanes    = _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    const __m512i vo       = _mm512_mullo_epi32(lanes, _mm512_set1_epi32(static_cast<int>(fa.so)));
    // Rows padded by one vector: a tap row is stored as a whole vector (14 floats and 2 of junk
    // that the next input channel's row or the padding takes; see loadLanes on masked stores).
    alignas(64) float staged[kXi][kGroup * kMR + 16];
    // When a panel's taps of one input channel lie close together (backward data: the 14 output
    // channels' taps are 126 consecutive floats) consecutive input channels are a whole filter
    // row apart, a new page each time, where the hardware prefetcher does not follow: the taps
    // kAhead input channels on are prefetched. (Forward: the 14 lanes are 14 rows that advance
    // by 9 floats per input channel, which the hardware prefetcher streams.)
    constexpr std::size_t kAhead = 4;
    const long tapLo    = std::min(0L, 8 * fa.st);
    const long tapHi    = static_cast<long>(kMR - 1) * fa.so + std::max(0L, 8 * fa.st);
    const bool prefetch = fa.so >= 0 && tapHi - tapLo < 256;
    for(std::size_t p = p0; p < p1; ++p)
    {
        const long first    = static_cast<long>(p * kMR);
        const long valid    = std::min<long>(static_cast<long>(kMR), static_cast<long>(S) - first);
        const __mmask16 vm  = firstLanes(valid);
        const float* base   = fa.w + fa.off + first * fa.so;
        for(std::size_t pc = 0; pc < C; pc += kKC)
        {
            const std::size_t kc = std::min(kKC, C - pc);
            float* dst           = u + pc * mPad + p * kMR * kc;
            // Whole-line stores need a 64-byte aligned panel start in every U[xi]: true unless the
            // K block follows a partial one or uSize is not a multiple of 16 (then plain copies).
            const bool aligned = (reinterpret_cast<std::uintptr_t>(dst) % 64 == 0) && plan.uSize % 16 == 0;
            for(std::size_t g0 = 0; g0 < kc; g0 += kGroup)
            {
                const std::size_t gn = std::min(kGroup, kc - g0);
                for(std::size_t gi = 0; gi < gn; ++gi)
                {
                    const float* bi = base + static_cast<long>(pc + g0 + gi) * fa.si;
                    if(prefetch)
                    {
                        // Addresses only (a prefetch past the filter's end never faults).
                        const char* ahead = reinterpret_cast<const char*>(bi + static_cast<long>(kAhead) * fa.si);
                        for(long o = tapLo; o <= tapHi; o += 16)
                            _mm_prefetch(ahead + o * static_cast<long>(sizeof(float)), _MM_HINT_T0);
                        _mm_prefetch(ahead + tapHi * static_cast<long>(sizeof(float)), _MM_HINT_T0);
                    }
                    __m512 g[9];
                    for(int t = 0; t < 9; ++t)
                        g[t] = _mm512_mask_i32gather_ps(_mm512_setzero_ps(), vm, vo, bi + t * fa.st, 4);
                    __m512 gg[kAlpha][3];
                    for(int a = 0; a < kAlpha; ++a)
                        for(int c = 0; c < 3; ++c)
                        {
                            __m512 v = _mm512_setzero_ps();
                            for(int r = 0; r < 3; ++r)
                                if(Tr::kG[a][r] != 0.0)
                                    v = _mm512_fmadd_ps(_mm512_set1_ps(static_cast<float>(Tr::kG[a][r])), g[3 * r + c], v);
                            gg[a][c] = v;
                        }
                    for(int a = 0; a < kAlpha; ++a)
                        for(int b = 0; b < kAlpha; ++b)
                        {
                            __m512 v = _mm512_setzero_ps();
                            for(int c = 0; c < 3; ++c)
                                if(Tr::kG[b][c] != 0.0)
                                    v = _mm512_fmadd_ps(gg[a][c], _mm512_set1_ps(static_cast<float>(Tr::kG[b][c])), v);
                            _mm512_storeu_ps(&staged[a * kAlpha + b][gi * kMR], v);
                        }
                }
                float* out = dst + g0 * kMR;
                if(gn == kGroup && aligned)
                {
                    for(int x = 0; x < kXi; ++x)
                    {
                        float* d = out + static_cast<std::size_t>(x) * plan.uSize;
                        for(std::size_t v = 0; v < kLine; ++v)
                        {
                            const __m512 val = _mm512_load_ps(&staged[x][16 * v]);
                            if(stream)
                                _mm512_stream_ps(d + 16 * v, val);
                            else
                                _mm512_store_ps(d + 16 * v, val);
                        }
                    }
                }
                else
                {
                    for(int x = 0; x < kXi; ++x)
                        std::memcpy(out + static_cast<std::size_t>(x) * plan.uSize, staged[x], gn * kMR * sizeof(float));
                }
            }
        }
    }
    if(stream)
        _mm_sfence(); // the non-temporal stores are visible before the GEMMs read U
}
#endif

// Runs (or measures, when src is null) the Winograd core. `filterAt(o, i, g)` writes the 3x3
// taps of (output channel o, input channel i) into g; `fa` gives the same taps as an affine map.
template <int M, class FilterAt>
std::size_t winogradCore(const char* solver, const WinogradShape& shape, const float* src, FilterAt filterAt,
                         const FilterAffine& fa, float* dst, void* ws, std::size_t wsBytes)
{
    using Plan              = WinogradPlan<M>;
    const std::size_t slots = threadCount();
    const Plan plan(shape, slots);
    const std::size_t bufferSets = plan.independent ? slots : 1;

    // V and M buffers: one set per slot (independent) or one shared set; a GEMM tile per slot.
    SlotRegions buffers, tiles;
    const std::size_t oV    = buffers.add(plan.vSize());
    const std::size_t oM    = buffers.add(plan.mSize());
    const std::size_t oTile = tiles.add(kMR * kNR);
    Carver cv(ws);
    float* u = cv.take(static_cast<std::size_t>(Plan::kXi) * plan.uSize);
    buffers.place(cv.take(bufferSets * buffers.strideFloats()));
    tiles.place(cv.take(slots * tiles.strideFloats()));
    auto scratchOf = [&](std::size_t s) {
        GemmScratch sc;
        sc.tile = tiles.at(s, oTile);
        return sc;
    };
    if(src == nullptr)
        return cv.requiredBytes();
    checkWorkspace(solver, ws, wsBytes, cv.requiredBytes());

    // Filter transform, one micro-panel of output channels and 16 input channels at a time
    // (padding rows are zero).
    const std::size_t S = shape.cout;
    static_cast<void>(fa); // the baseline build reads the taps through filterAt
#if MIOPEN_ISA_AVX512
    // Gather offsets are 32-bit: lane l reads o = first + l at l * so.
    if(static_cast<double>(kMR) * static_cast<double>(std::labs(fa.so)) < 2147483647.0)
    {
        // Non-temporal stores when U cannot stay in the caches anyway (the GEMMs read it back
        // from memory either way); measured on conv5_x (38 MB of U).
        const bool stream = 4.0 * Plan::kXi * static_cast<double>(plan.uSize) > 16.0 * (1 << 20);
        // One micro-panel per claim (see the shared schedule below).
        forEachClaimed(slots, ceilDiv(S, kMR),
                       [&](std::size_t, std::size_t p) { transformFilterGathered<M>(plan, fa, p, p + 1, u, stream); });
    }
    else
#endif
    forEachClaimed(slots, ceilDiv(S, kMR), [&](std::size_t, std::size_t p) {
        float g[16][9][kMR];
        float taps[9];
        for(std::size_t i0 = 0; i0 < shape.cin; i0 += 16)
        {
            const std::size_t n = std::min<std::size_t>(16, shape.cin - i0);
            for(std::size_t ii = 0; ii < n; ++ii)
                for(std::size_t l = 0; l < kMR; ++l)
                {
                    const std::size_t o = p * kMR + l;
                    if(o < S)
                        filterAt(o, i0 + ii, taps);
                    else
                        std::fill(taps, taps + 9, 0.0f);
                    for(int t = 0; t < 9; ++t)
                        g[ii][t][l] = taps[t];
                }
            plan.transformFilterPanel(g, p, i0, n, u);
        }
    });

    if(plan.independent)
    {
        forEachClaimed(slots, plan.blocks(), [&](std::size_t s, std::size_t b) {
            float* v = buffers.at(s, oV);
            float* m = buffers.at(s, oM);
            plan.inputTransform(src, b, 0, shape.cin, v);
            plan.multiply(u, v, m, 0, Plan::kXi, scratchOf(s));
            plan.outputTransform(m, b, 0, shape.cout, dst);
        });
        return 0;
    }
    // Shared schedule: every step is split into items that the slots claim as they finish the
    // previous one (channel runs of the transforms, one matrix per GEMM; each item writes only its
    // own part, so the result does not depend on which slot ran it). A slot whose core another
    // process takes then does fewer items instead of holding the other at the end of each step:
    // with a busy loop on one core, conv4_x and conv5_x (F and B) went from 0.76-0.86 of oneDNN
    // to 0.96-1.11 in alternating runs (a static split waits for its slowest half); on a quiet
    // machine they measured the same within the noise (conv4_x perhaps 0.01 lower).
    constexpr std::size_t kChannelRun = 16;
    float* v = buffers.at(0, oV);
    float* m = buffers.at(0, oM);
    for(std::size_t b = 0; b < plan.blocks(); ++b)
    {
        forEachClaimed(slots, ceilDiv(shape.cin, kChannelRun), [&](std::size_t, std::size_t i) {
            plan.inputTransform(src, b, i * kChannelRun, std::min(shape.cin, (i + 1) * kChannelRun), v);
        });
        forEachClaimed(slots, Plan::kXi, [&](std::size_t s, std::size_t x) {
            plan.multiply(u, v, m, x, x + 1, scratchOf(s));
        });
        forEachClaimed(slots, ceilDiv(shape.cout, kChannelRun), [&](std::size_t, std::size_t i) {
            plan.outputTransform(m, b, i * kChannelRun, std::min(shape.cout, (i + 1) * kChannelRun), dst);
        });
    }
    return 0;
}

// Forward (backward = false): dst = y, src = x, filter (o = k, i = c) = w[k][c].
// Backward data: dst = dx, src = dy, filter (o = c, i = k) = w[k][c] rotated by 180 degrees,
// pad' = 2 - pad.
template <int M>
std::size_t winogradConv(const char* solver, const Geometry& g, bool backward, const void* in, const void* w,
                         void* out, void* ws, std::size_t wsBytes)
{
    WinogradShape s;
    s.n = g.n;
    if(!backward)
    {
        s.cin = g.c, s.cout = g.k;
        s.hs = g.in[1], s.ws = g.in[2], s.hd = g.out[1], s.wd = g.out[2];
        s.padH = g.pad[1], s.padW = g.pad[2];
    }
    else
    {
        s.cin = g.k, s.cout = g.c;
        s.hs = g.out[1], s.ws = g.out[2], s.hd = g.in[1], s.wd = g.in[2];
        s.padH = 2 - g.pad[1], s.padW = 2 - g.pad[2];
    }
    s.tilesH = ceilDiv(s.hd, M);
    s.tilesW = ceilDiv(s.wd, M);
    s.tiles  = s.n * s.tilesH * s.tilesW;
    const auto* wt = static_cast<const float*>(w);
    if(!backward)
        return winogradCore<M>(
            solver, s, static_cast<const float*>(in),
            [&](std::size_t o, std::size_t i, float* taps) {
                const float* src = wt + (o * g.c + i) * 9;
                for(int t = 0; t < 9; ++t)
                    taps[t] = src[t];
            },
            FilterAffine{wt, static_cast<long>(g.c * 9), 9, 1, 0}, static_cast<float*>(out), ws, wsBytes);
    return winogradCore<M>(
        solver, s, static_cast<const float*>(in),
        [&](std::size_t o, std::size_t i, float* taps) {
            const float* src = wt + (i * g.c + o) * 9; // w[k = i][c = o]
            for(int t = 0; t < 9; ++t)
                taps[t] = src[8 - t];
        },
        FilterAffine{wt, 9, static_cast<long>(g.c * 9), -1, 8}, static_cast<float*>(out), ws, wsBytes);
}

// ---- Backward weights ----
//
// With U = G g G^T and V_t = B^T x_t B, the forward output tile is A^T (U . V_t) A, so
//   dU = sum over tiles t of (A dy_t A^T) . V_t        (elementwise, alpha x alpha)
//   dW = G^T dU G                                      (3 x 3)
// Per xi that sum is a GEMM: dU[xi] (K x C) = Y[xi] (K x tiles) * V[xi]^T (tiles x C), with the
// tiles as the reduction. The transforms of a block of tiles are written row-major (rows =
// channels, columns = the block's tiles, vectorized across tiles like the forward transforms) and
// the GEMM packs both operands from them (BatchedRowsA / BatchedRowsB).
//
// Two schedules, both with a fixed summation order (deterministic for a given thread count):
//   independent: small dU, many tiles: slot s transforms and multiplies its own blocks into its
//                own partial dU; the partials are added in slot order before the filter transform;
//   shared:      all slots transform one block (split by channel), then multiply it (split by
//                xi) into the single dU; every xi sums the blocks in order.
template <int M>
struct WinogradWrwPlan
{
    using Tr                    = WinogradTransforms<M>;
    static constexpr int kAlpha = Tr::kAlpha;
    static constexpr int kXi    = kAlpha * kAlpha;

    WinogradPlan<M> geo;      // geometry and input patch gathering (cin = C, cout = K, dst = dy)
    bool independent  = false;
    std::size_t block = 0;    // tiles per block (multiple of kWinoLanes)
    std::size_t uSize = 0;    // floats per dU[xi] (K x C, row-major)

    WinogradWrwPlan(const WinogradShape& shape, std::size_t slots) : geo(shape, slots)
    {
        const WinogradShape& s = geo.s;
        uSize                  = s.cout * s.cin;
        const double duBytes   = 4.0 * kXi * static_cast<double>(uSize);
        const std::size_t indepBlock = 128;
        independent = slots > 1 && duBytes <= 4.0 * (1 << 20) && s.tiles >= 2 * slots * indepBlock;
        block       = std::min(roundUp(s.tiles, kWinoLanes), independent ? indepBlock : kKC);
    }
    std::size_t blocks() const { return ceilDiv(geo.s.tiles, block); }
    // Padded xi strides, for the L1-set reason given at WinogradPlan::kXiPad.
    std::size_t vStride() const { return geo.s.cin * block + WinogradPlan<M>::kXiPad; }
    std::size_t yStride() const { return geo.s.cout * block + WinogradPlan<M>::kXiPad; }
    std::size_t vSize() const { return static_cast<std::size_t>(kXi) * vStride(); }
    std::size_t ySize() const { return static_cast<std::size_t>(kXi) * yStride(); }
    // Tiles of block b actually used (whole panels).
    std::size_t blockTiles(std::size_t b) const
    {
        return std::min(block, roundUp(geo.s.tiles - b * block, kWinoLanes));
    }

    // dst[x * stride + at + lane] = rows[x][lane] for x < count. The gradient transform computes
    // into local rows and copies them out here: written straight into the strided Y, the compiler
    // could not rule out aliasing with the inputs and left the transform loops scalar.
    static void storeRows(const float (*rows)[kWinoLanes], int count, std::size_t stride, std::size_t at, float* dst)
    {
        for(int x = 0; x < count; ++x)
        {
            float* d = dst + static_cast<std::size_t>(x) * stride + at;
            for(std::size_t l = 0; l < kWinoLanes; ++l)
                d[l] = rows[x][l];
        }
    }

    // B^T x B of input channel c for the tiles of block b: v[xi][c][tile].
    void inputTransform(const float* x, std::size_t b, std::size_t c0, std::size_t c1, float* v) const
    {
        const std::size_t panels = blockTiles(b) / kWinoLanes;
        alignas(64) float patch[kXi][kWinoLanes];
        [[maybe_unused]] alignas(64) float rows[kXi][kWinoLanes]; // the indexed gather's x pass
        typename WinogradPlan<M>::TileRun runs[kWinoLanes];
        for(std::size_t q = 0; q < panels; ++q)
        {
            const std::size_t nruns = geo.tileRuns(b * block + q * kWinoLanes, runs);
#if MIOPEN_ISA_AVX512
            const bool indexed = geo.gatherByIndex();
            typename WinogradPlan<M>::PatchIndex pidx;
            if(indexed)
                geo.indexPatches(runs, nruns, pidx);
#endif
            for(std::size_t c = c0; c < c1; ++c)
            {
                const float(*xRows)[kWinoLanes] = patch;
#if MIOPEN_ISA_AVX512
                if(indexed)
                {
                    WinogradPlan<M>::gatherIndexed(x + c * geo.s.hs * geo.s.ws, pidx, kXi, patch);
                    WinogradPlan<M>::alongX(patch, rows);
                    xRows = rows;
                }
                else
#endif
                    geo.gatherPatches(x, c, runs, nruns, patch);
                WinogradPlan<M>::alongYStore(xRows, v + c * block + q * kWinoLanes, vStride());
            }
        }
    }

    // A dy A^T of output channel k for the tiles of block b: y[xi][k][tile] (dy is zero past the
    // output edge).
    void gradTransform(const float* dy, std::size_t b, std::size_t k0, std::size_t k1, float* y) const
    {
#if !MIOPEN_ISA_AVX512
        constexpr bool indexed = false;
#endif
        const WinogradShape& s   = geo.s;
        const std::size_t panels = blockTiles(b) / kWinoLanes;
        alignas(64) float patch[M * M][kWinoLanes];
        alignas(64) float junk[2][kWinoLanes];
        alignas(64) float rows[kAlpha * M][kWinoLanes];
        alignas(64) float out[kXi][kWinoLanes];
        typename WinogradPlan<M>::TileRun runs[kWinoLanes];
        for(std::size_t q = 0; q < panels; ++q)
        {
            const std::size_t nruns = geo.tileRuns(b * block + q * kWinoLanes, runs);
            std::size_t covered     = 0;
            for(std::size_t ri = 0; ri < nruns; ++ri)
                covered = runs[ri].lane + runs[ri].len;
#if MIOPEN_ISA_AVX512
            const bool indexed = geo.gatherByIndex() && WinogradPlan<M>::indexable(s.n * s.cout * s.hd * s.wd);
            typename WinogradPlan<M>::PatchIndex pidx;
            if(indexed)
                WinogradPlan<M>::indexPanel(runs, nruns, M, M, 0, 0, s.cout * s.hd * s.wd, s.hd, s.wd, pidx);
#endif
            for(std::size_t k = k0; k < k1; ++k)
            {
#if MIOPEN_ISA_AVX512
                if(indexed)
                    WinogradPlan<M>::gatherIndexed(dy + k * s.hd * s.wd, pidx, M * M, patch);
#endif
                for(std::size_t ri = 0; ri < nruns && !indexedGrad(indexed); ++ri)
                {
                    const auto& run  = runs[ri];
                    const float* img = dy + (run.n * s.cout + k) * s.hd * s.wd;
                    const long x0    = static_cast<long>(run.tx * M);
                    const long hi    = static_cast<long>(s.wd) - x0;
                    for(int i = 0; i < M; ++i)
                    {
                        float* d[M + 2];
                        for(int j = 0; j < M; ++j)
                            d[j] = &patch[i * M + j][run.lane];
                        d[M]            = &junk[0][0];
                        d[M + 1]        = &junk[1][0];
                        const std::size_t yy = run.ty * M + static_cast<std::size_t>(i);
                        if(yy >= s.hd)
                        {
                            for(int j = 0; j < M; ++j)
                                for(std::size_t l = 0; l < run.len; ++l)
                                    d[j][l] = 0.0f;
                            continue;
                        }
                        gatherTileColumns<M>(img + yy * s.wd + x0, 0, hi, run.len, d);
                    }
                }
                for(int x = 0; x < M * M; ++x)
                    for(std::size_t l = covered; l < kWinoLanes; ++l)
                        patch[x][l] = 0.0f;
                // Along y: rows[r*M + j] = sum_i A[r][i] g[i][j].
                for(int j = 0; j < M; ++j)
                {
                    const float* in[M];
                    float* o[kAlpha];
                    for(int i = 0; i < M; ++i)
                        in[i] = patch[i * M + j];
                    for(int r = 0; r < kAlpha; ++r)
                        o[r] = rows[r * M + j];
                    Tr::gradRows(in, o);
                }
                // Along x: y[r*alpha + t] = sum_j rows[r][j] A[t][j].
                for(int r = 0; r < kAlpha; ++r)
                {
                    const float* in[M];
                    float* o[kAlpha];
                    for(int j = 0; j < M; ++j)
                        in[j] = rows[r * M + j];
                    for(int t = 0; t < kAlpha; ++t)
                        o[t] = out[r * kAlpha + t];
                    Tr::gradRows(in, o);
                }
                storeRows(out, kXi, yStride(), k * block + q * kWinoLanes, y);
            }
        }
    }

    static constexpr bool indexedGrad(bool v) { return v; }

    // dU[xi] (+)= Y[xi] * V[xi]^T for xi in [x0, x1), over the `tiles` columns of the block.
    void multiply(const float* y, const float* v, float* du, std::size_t tiles, bool accumulate, std::size_t x0,
                  std::size_t x1, std::size_t ncBlock, const GemmScratch& sc) const
    {
        const WinogradShape& s = geo.s;
        for(std::size_t x = x0; x < x1; ++x)
        {
            BatchedRowsA<ElemF32> a;
            a.m = BatchedMatrix<ElemF32>{y + x * yStride(), block, 0, block, s.cout, 0};
            BatchedRowsB<ElemF32> bm;
            bm.m = BatchedMatrix<ElemF32>{v + x * vStride(), block, 0, block, s.cin, 0};
            BatchedC c{du + x * uSize, s.cin, 0, static_cast<std::size_t>(-1) / 2, 0};
            gemm(s.cout, s.cin, tiles, ncBlock, a, bm, c, sc, accumulate);
        }
    }

    // dW[k][c] = G^T (sum of the `parts` partial dU) G for output channels [k0, k1).
    void filterTransform(const float* du, std::size_t parts, std::size_t k0, std::size_t k1, float* dw) const
    {
        constexpr std::size_t kV = 16;
        const std::size_t C      = geo.s.cin;
        const std::size_t partStride = static_cast<std::size_t>(kXi) * uSize;
        for(std::size_t k = k0; k < k1; ++k)
            for(std::size_t c0 = 0; c0 < C; c0 += kV)
            {
                const std::size_t n = std::min(kV, C - c0);
                alignas(64) float acc[kXi][kV];
                for(int x = 0; x < kXi; ++x)
                {
                    const float* src = du + static_cast<std::size_t>(x) * uSize + k * C + c0;
                    if(n == kV)
                    {
                        for(std::size_t l = 0; l < kV; ++l)
                            acc[x][l] = src[l];
                        for(std::size_t p = 1; p < parts; ++p)
                            for(std::size_t l = 0; l < kV; ++l)
                                acc[x][l] += src[p * partStride + l];
                    }
                    else
                    {
                        for(std::size_t l = 0; l < kV; ++l)
                            acc[x][l] = l < n ? src[l] : 0.0f;
                        for(std::size_t p = 1; p < parts; ++p)
                            for(std::size_t l = 0; l < n; ++l)
                                acc[x][l] += src[p * partStride + l];
                    }
                }
                // t[a][j] = sum_i G[i][a] acc[i][j]; o[a][b] = sum_j t[a][j] G[j][b] (lanes innermost).
                alignas(64) float t[3][kAlpha][kV];
                for(int a = 0; a < 3; ++a)
                    for(int j = 0; j < kAlpha; ++j)
                    {
                        float* tt = t[a][j];
                        for(std::size_t l = 0; l < kV; ++l)
                            tt[l] = 0.0f;
                        for(int i = 0; i < kAlpha; ++i)
                        {
                            const float gi = static_cast<float>(Tr::kG[i][a]);
                            if(gi == 0.0f)
                                continue;
                            const float* ai = acc[i * kAlpha + j];
                            for(std::size_t l = 0; l < kV; ++l)
                                tt[l] += gi * ai[l];
                        }
                    }
                alignas(64) float o9[9][kV];
                for(int a = 0; a < 3; ++a)
                    for(int bb = 0; bb < 3; ++bb)
                    {
                        float* oo = o9[a * 3 + bb];
                        for(std::size_t l = 0; l < kV; ++l)
                            oo[l] = 0.0f;
                        for(int j = 0; j < kAlpha; ++j)
                        {
                            const float gj = static_cast<float>(Tr::kG[j][bb]);
                            if(gj == 0.0f)
                                continue;
                            const float* tj = t[a][j];
                            for(std::size_t l = 0; l < kV; ++l)
                                oo[l] += tj[l] * gj;
                        }
                    }
                float* d = dw + (k * C + c0) * 9;
                for(std::size_t l = 0; l < n; ++l)
                    for(int e = 0; e < 9; ++e)
                        d[l * 9 + static_cast<std::size_t>(e)] = o9[e][l];
            }
    }
};

// Backward weights: x (N, C, H, W), dy (N, K, P, Q), dw (K, C, 3, 3), P = H + 2*pad - 2. Runs (or
// measures, when x is null) the Winograd backward-weights core.
template <int M>
std::size_t winogradWrw(const char* solver, const Geometry& g, const void* x, const void* dy, void* dw, void* ws,
                        std::size_t wsBytes)
{
    using Plan = WinogradWrwPlan<M>;
    WinogradShape s;
    s.n = g.n, s.cin = g.c, s.cout = g.k;
    s.hs = g.in[1], s.ws = g.in[2], s.hd = g.out[1], s.wd = g.out[2];
    s.padH = g.pad[1], s.padW = g.pad[2];
    s.tilesH = ceilDiv(s.hd, M);
    s.tilesW = ceilDiv(s.wd, M);
    s.tiles  = s.n * s.tilesH * s.tilesW;

    const std::size_t slots      = threadCount();
    const Plan plan(s, slots);
    const std::size_t sets       = plan.independent ? slots : 1;
    const std::size_t ncBlock    = std::min(kNCMax, roundUp(s.cin, kNR));

    Carver cv(ws);
    float* du = cv.take(sets * static_cast<std::size_t>(Plan::kXi) * plan.uSize);
    SlotRegions buffers, scratch;
    const std::size_t oV = buffers.add(plan.vSize());
    const std::size_t oY = buffers.add(plan.ySize());
    const std::size_t oB = scratch.add(kKC * ncBlock);
    const std::size_t oA = scratch.add(kMCDynamic * kKC);
    const std::size_t oT = scratch.add(kMR * kNR);
    buffers.place(cv.take(sets * buffers.strideFloats()));
    scratch.place(cv.take(slots * scratch.strideFloats()));
    auto scratchOf = [&](std::size_t sl) {
        GemmScratch sc;
        sc.bPack = scratch.at(sl, oB);
        sc.aPack = scratch.at(sl, oA);
        sc.tile  = scratch.at(sl, oT);
        return sc;
    };
    if(x == nullptr)
        return cv.requiredBytes();
    checkWorkspace(solver, ws, wsBytes, cv.requiredBytes());

    const auto* xt  = static_cast<const float*>(x);
    const auto* dyt = static_cast<const float*>(dy);
    auto* dwt       = static_cast<float*>(dw);
    const std::size_t duFloats = static_cast<std::size_t>(Plan::kXi) * plan.uSize;

    if(plan.independent)
    {
        forEachSlot(slots, [&](std::size_t sl) {
            float* v    = buffers.at(sl, oV);
            float* y    = buffers.at(sl, oY);
            float* part = du + sl * duFloats;
            bool first  = true;
            for(std::size_t b = sl; b < plan.blocks(); b += slots)
            {
                plan.inputTransform(xt, b, 0, s.cin, v);
                plan.gradTransform(dyt, b, 0, s.cout, y);
                plan.multiply(y, v, part, plan.blockTiles(b), !first, 0, Plan::kXi, ncBlock, scratchOf(sl));
                first = false;
            }
            if(first)
                std::memset(static_cast<void*>(part), 0, duFloats * sizeof(float));
        });
    }
    else
    {
        float* v = buffers.at(0, oV);
        float* y = buffers.at(0, oY);
        for(std::size_t b = 0; b < plan.blocks(); ++b)
        {
            parallelFor(s.cin + s.cout, [&](std::size_t j0, std::size_t j1) {
                if(j0 < s.cin)
                    plan.inputTransform(xt, b, j0, std::min(j1, s.cin), v);
                if(j1 > s.cin)
                    plan.gradTransform(dyt, b, std::max(j0, s.cin) - s.cin, j1 - s.cin, y);
            });
            forEachSlot(slots, [&](std::size_t sl) {
                const auto r = splitRange(Plan::kXi, sl, slots, 1);
                plan.multiply(y, v, du, plan.blockTiles(b), b > 0, r.first, r.second, ncBlock, scratchOf(sl));
            });
        }
    }
    parallelFor(s.cout, [&](std::size_t k0, std::size_t k1) { plan.filterTransform(du, sets, k0, k1, dwt); });
    return 0;
}
