/* Fuzz target: sequences of MIOpen descriptor calls through the public C API (libMIOpen.so, the
 * generated wrapper over MIOpen Private, as an application calls it). The input is a program:
 * each step picks an operation and its arguments — set, get, size and output-dimension queries
 * and workspace sizes on a few tensor, convolution, activation, pooling and LRN descriptors, the
 * batch-norm derived descriptor, destroying and recreating a descriptor (so steps also meet
 * descriptors never set). Any status is fine; a crash, a sanitizer report or a leak is not, and
 * neither is a getter that reports success with values other than the last successful setter
 * gave. Written in C: a C caller may pass any int as an enumeration value. */
#include <miopen/miopen.h>

#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum
{
    kTensors = 4,
    kConvs   = 2,
    kMaxDims = 16, /* every array handed to the library has this many entries */
};

typedef struct
{
    const uint8_t* data;
    size_t size;
    size_t pos;
} Input;

static uint8_t byte_(Input* in) { return in->pos < in->size ? in->data[in->pos++] : 0; }

static uint32_t u32_(Input* in)
{
    uint32_t v = 0;
    for(int i = 0; i < 4; ++i)
        v = (v << 8) | byte_(in);
    return v;
}

static double real_(Input* in)
{
    static const double kReals[] = {0.0, 1.0, -1.0, 0.5, 1e-4, 2.0, 1e308, -1e308, 5e-324};
    const uint8_t b = byte_(in);
    if(b < 0xF0)
        return kReals[b % (sizeof(kReals) / sizeof(kReals[0]))];
    uint64_t bits = ((uint64_t)u32_(in) << 32) | u32_(in);
    double d;
    memcpy(&d, &bits, sizeof d);
    return d;
}

/* Usually small (0..16), sometimes an edge value. */
static int dim_(Input* in)
{
    static const int kEdges[] = {-1, -2, 0, 1, 64, 1 << 15, (1 << 16) + 1, 1 << 20, 1 << 24, 46341,
                                 INT_MAX / 2, INT_MAX - 1, INT_MAX, INT_MIN, INT_MIN + 1, -65536};
    const uint8_t b = byte_(in);
    if(b < 0xE0)
        return b % 17;
    return kEdges[b % (sizeof(kEdges) / sizeof(kEdges[0]))];
}

/* An enumeration value: mostly valid, sometimes just outside, or any int. */
static int enum_(Input* in, int count)
{
    const uint8_t b = byte_(in);
    if(b < 0xF0)
        return b % (count + 1);
    if(b < 0xF8)
        return -1 - (b & 3);
    return (int)u32_(in);
}

static void check(int cond, const char* what)
{
    if(!cond)
    {
        fprintf(stderr, "fuzz invariant violated: %s\n", what);
        abort();
    }
}

static miopenHandle_t g_handle;

int LLVMFuzzerInitialize(int* argc, char*** argv);
int LLVMFuzzerInitialize(int* argc, char*** argv)
{
    (void)argc;
    (void)argv;
    check(miopenCreate(&g_handle) == miopenStatusSuccess, "miopenCreate");
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    Input in = {data, size, 0};
    miopenTensorDescriptor_t t[kTensors];
    miopenConvolutionDescriptor_t conv[kConvs];
    miopenActivationDescriptor_t act;
    miopenPoolingDescriptor_t pool;
    miopenLRNDescriptor_t lrn;
    for(int i = 0; i < kTensors; ++i)
        check(miopenCreateTensorDescriptor(&t[i]) == miopenStatusSuccess, "create tensor");
    for(int i = 0; i < kConvs; ++i)
        check(miopenCreateConvolutionDescriptor(&conv[i]) == miopenStatusSuccess, "create conv");
    check(miopenCreateActivationDescriptor(&act) == miopenStatusSuccess, "create activation");
    check(miopenCreatePoolingDescriptor(&pool) == miopenStatusSuccess, "create pooling");
    check(miopenCreateLRNDescriptor(&lrn) == miopenStatusSuccess, "create LRN");

    int a[kMaxDims], b[kMaxDims], c[kMaxDims], d[kMaxDims];
    size_t za[kMaxDims], zb[kMaxDims];
    for(int steps = 0; in.pos < in.size && steps < 64; ++steps)
    {
        const uint8_t op             = byte_(&in);
        miopenTensorDescriptor_t x   = t[byte_(&in) % kTensors];
        miopenTensorDescriptor_t w   = t[byte_(&in) % kTensors];
        miopenTensorDescriptor_t y   = t[byte_(&in) % kTensors];
        miopenConvolutionDescriptor_t cv = conv[byte_(&in) % kConvs];
        size_t bytes = 0;
        int n = 0, ch = 0, h = 0, wd = 0, ns = 0, cs = 0, hs = 0, ws = 0;
        switch(op % 19)
        {
        case 0: {
            const int dt = enum_(&in, 10);
            n = dim_(&in), ch = dim_(&in), h = dim_(&in), wd = dim_(&in);
            if(miopenSet4dTensorDescriptor(x, dt, n, ch, h, wd) == miopenStatusSuccess)
            {
                miopenDataType_t got;
                int gn, gc, gh, gw;
                const miopenStatus_t st = miopenGet4dTensorDescriptor(x, &got, &gn, &gc, &gh, &gw, &ns, &cs, &hs, &ws);
                if(st != miopenStatusSuccess)
                    fprintf(stderr, "Set4d(%d, %d, %d, %d, %d) then Get4d: %s\n", dt, n, ch, h, wd,
                            miopenGetErrorString(st));
                /* Get4d reports ints: BadParm is its answer when a packed stride exceeds INT_MAX. */
                const long long cStride = (long long)h * wd, nStride = cStride * ch;
                check(st == miopenStatusSuccess || nStride > INT_MAX || cStride > INT_MAX,
                      "a 4-D descriptor reads back");
                if(st == miopenStatusSuccess)
                    check((int)got == dt && gn == n && gc == ch && gh == h && gw == wd, "4-D lengths read back");
            }
            break;
        }
        case 1:
            n = dim_(&in), ch = dim_(&in), h = dim_(&in), wd = dim_(&in);
            ns = dim_(&in), cs = dim_(&in), hs = dim_(&in), ws = dim_(&in);
            miopenSet4dTensorDescriptorEx(x, enum_(&in, 10), n, ch, h, wd, ns, cs, hs, ws);
            break;
        case 2: {
            const int nb = byte_(&in) % 11 - 1; /* -1..9 */
            for(int i = 0; i < kMaxDims; ++i)
                a[i] = dim_(&in), b[i] = dim_(&in);
            const int dt = enum_(&in, 10), withDims = byte_(&in) & 7, withStrides = byte_(&in) & 1;
            miopenSetTensorDescriptor(x, dt, nb, withDims ? a : NULL, withStrides ? b : NULL);
            break;
        }
        case 3: {
            const int nb = byte_(&in) % 11 - 1;
            for(int i = 0; i < kMaxDims; ++i)
            {
                if(byte_(&in) & 0x80)
                {
                    const size_t big = u32_(&in);
                    za[i]            = big << (byte_(&in) % 40);
                }
                else
                    za[i] = byte_(&in) % 9;
                zb[i] = (size_t)dim_(&in);
            }
            const int dt = enum_(&in, 10), withStrides = byte_(&in) & 1;
            miopenSetTensorDescriptorV2(x, dt, nb, za, withStrides ? zb : NULL);
            break;
        }
        case 4: {
            const int num = byte_(&in) % 8 - 1;
            for(int i = 0; i < kMaxDims; ++i)
                a[i] = dim_(&in);
            const int dt = enum_(&in, 10), layout = enum_(&in, 9), withLens = byte_(&in) & 7;
            miopenSetNdTensorDescriptorWithLayout(x, dt, layout, withLens ? a : NULL, num);
            break;
        }
        case 5:
            miopenSetTensorCastType(x, enum_(&in, 10));
            break;
        case 6: {
            miopenDataType_t dt;
            int rank = -1;
            miopenGet4dTensorDescriptor(x, &dt, &n, &ch, &h, &wd, &ns, &cs, &hs, &ws);
            if(miopenGetTensorDescriptorSize(x, &rank) == miopenStatusSuccess)
            {
                check(rank >= 0 && rank <= 8, "a tensor's rank is 0..8");
                miopenGetTensorDescriptor(x, &dt, a, b);
            }
            miopenGetTensorNumBytes(x, &bytes);
            break;
        }
        case 7: {
            const int mode = enum_(&in, 4);
            for(int i = 0; i < 6; ++i)
                a[i] = dim_(&in);
            miopenInitConvolutionDescriptor(cv, mode, a[0], a[1], a[2], a[3], a[4], a[5]);
            break;
        }
        case 8: {
            const int sd = byte_(&in) % 6 - 1; /* -1..4 */
            for(int i = 0; i < kMaxDims; ++i)
                a[i] = dim_(&in), b[i] = dim_(&in), c[i] = dim_(&in);
            const int mode = enum_(&in, 4);
            miopenInitConvolutionNdDescriptor(cv, sd, a, b, c, mode);
            break;
        }
        case 9: {
            const int which = byte_(&in) % 4;
            if(which == 0)
                miopenSetConvolutionGroupCount(cv, dim_(&in));
            else if(which == 1)
            {
                n = dim_(&in), ch = dim_(&in);
                miopenSetTransposeConvOutputPadding(cv, n, ch);
            }
            else if(which == 2)
            {
                const int sd = byte_(&in) % 6 - 1;
                for(int i = 0; i < kMaxDims; ++i)
                    a[i] = dim_(&in);
                miopenSetTransposeConvNdOutputPadding(cv, sd, a);
            }
            else
            {
                const int attr = enum_(&in, 4), value = enum_(&in, 2) - 1;
                if(miopenSetConvolutionAttribute(cv, attr, value) == miopenStatusSuccess)
                {
                    int got = 0;
                    check(miopenGetConvolutionAttribute(cv, attr, &got) == miopenStatusSuccess && got == value,
                          "a convolution attribute reads back");
                }
            }
            break;
        }
        case 10: {
            miopenConvolutionMode_t mode;
            int sd = 0, groups = 0, value = 0;
            miopenGetConvolutionSpatialDim(cv, &sd);
            miopenGetConvolutionDescriptor(cv, &mode, &n, &ch, &h, &wd, &ns, &cs);
            const int requested = byte_(&in) % 6 - 1;
            miopenGetConvolutionNdDescriptor(cv, requested, &sd, a, b, c, &mode);
            miopenGetConvolutionNdDescriptor(cv, 0, &sd, NULL, NULL, NULL, &mode);
            miopenGetConvolutionGroupCount(cv, &groups);
            miopenGetConvolutionAttribute(cv, enum_(&in, 4), &value);
            break;
        }
        case 11: {
            int nd = 0;
            miopenGetConvolutionForwardOutputDim(cv, x, w, &n, &ch, &h, &wd);
            if(miopenGetConvolutionNdForwardOutputDim(cv, x, w, &nd, a) == miopenStatusSuccess)
                check(nd >= 3 && nd <= 5, "an N-D output has 3..5 dimensions");
            break;
        }
        case 12:
            miopenConvolutionForwardGetWorkSpaceSize(g_handle, w, x, cv, y, &bytes);
            miopenConvolutionBackwardDataGetWorkSpaceSize(g_handle, y, w, cv, x, &bytes);
            miopenConvolutionBackwardWeightsGetWorkSpaceSize(g_handle, y, x, cv, w, &bytes);
            break;
        case 13: {
            const int mode = enum_(&in, 10);
            const double al = real_(&in), be = real_(&in), ga = real_(&in);
            if(miopenSetActivationDescriptor(act, mode, al, be, ga) == miopenStatusSuccess)
            {
                miopenActivationMode_t got;
                double gal, gbe, gga;
                check(miopenGetActivationDescriptor(act, &got, &gal, &gbe, &gga) == miopenStatusSuccess &&
                          (int)got == mode && memcmp(&gal, &al, sizeof al) == 0,
                      "an activation reads back");
            }
            break;
        }
        case 14: {
            const int which = byte_(&in) % 4;
            if(which == 0)
            {
                const int mode = enum_(&in, 3);
                for(int i = 0; i < 6; ++i)
                    a[i] = dim_(&in);
                miopenSet2dPoolingDescriptor(pool, mode, a[0], a[1], a[2], a[3], a[4], a[5]);
            }
            else if(which == 1)
            {
                const int nb = byte_(&in) % 7 - 1;
                for(int i = 0; i < kMaxDims; ++i)
                    a[i] = dim_(&in), b[i] = dim_(&in), c[i] = dim_(&in);
                const int mode = enum_(&in, 3);
                miopenSetNdPoolingDescriptor(pool, mode, nb, a, b, c);
            }
            else if(which == 2)
                miopenSetPoolingIndexType(pool, enum_(&in, 4));
            else
                miopenSetPoolingWorkSpaceIndexMode(pool, enum_(&in, 2));
            break;
        }
        case 15: {
            miopenPoolingMode_t mode;
            miopenIndexType_t it;
            miopenPoolingWorkspaceIndexMode_t wim;
            int nb = 0;
            miopenGet2dPoolingDescriptor(pool, &mode, &n, &ch, &h, &wd, &ns, &cs);
            const int requested = byte_(&in) % 10 - 1; /* -1..8 */
            miopenGetNdPoolingDescriptor(pool, requested, &mode, &nb, a, b, c);
            miopenGetPoolingIndexType(pool, &it);
            miopenGetPoolingWorkSpaceIndexMode(pool, &wim);
            miopenGetPoolingForwardOutputDim(pool, x, &n, &ch, &h, &wd);
            const int outDims = byte_(&in) % 10 - 1;
            miopenGetPoolingNdForwardOutputDim(pool, x, outDims, d);
            miopenPoolingGetWorkSpaceSize(x, &bytes);
            miopenPoolingGetWorkSpaceSizeV2(pool, x, &bytes);
            break;
        }
        case 16: {
            const int mode  = enum_(&in, 2);
            const unsigned lrnN = (byte_(&in) & 0x80) ? u32_(&in) : byte_(&in) % 12;
            const double al = real_(&in), be = real_(&in), k = real_(&in);
            if(miopenSetLRNDescriptor(lrn, mode, lrnN, al, be, k) == miopenStatusSuccess)
            {
                miopenLRNMode_t got;
                unsigned gotN = 0;
                double gal, gbe, gk;
                check(miopenGetLRNDescriptor(lrn, &got, &gotN, &gal, &gbe, &gk) == miopenStatusSuccess &&
                          (int)got == mode && gotN == lrnN,
                      "an LRN descriptor reads back");
            }
            miopenLRNGetWorkSpaceSize(x, &bytes);
            break;
        }
        case 17:
            miopenDeriveBNTensorDescriptor(w, x, enum_(&in, 2));
            break;
        default: {
            /* Destroy and recreate one descriptor: later steps meet a descriptor never set. */
            const int which = byte_(&in) % 5;
            if(which == 0)
            {
                const int i = byte_(&in) % kTensors;
                check(miopenDestroyTensorDescriptor(t[i]) == miopenStatusSuccess, "destroy tensor");
                check(miopenCreateTensorDescriptor(&t[i]) == miopenStatusSuccess, "create tensor");
            }
            else if(which == 1)
            {
                const int i = byte_(&in) % kConvs;
                check(miopenDestroyConvolutionDescriptor(conv[i]) == miopenStatusSuccess, "destroy conv");
                check(miopenCreateConvolutionDescriptor(&conv[i]) == miopenStatusSuccess, "create conv");
            }
            else if(which == 2)
            {
                check(miopenDestroyActivationDescriptor(act) == miopenStatusSuccess, "destroy activation");
                check(miopenCreateActivationDescriptor(&act) == miopenStatusSuccess, "create activation");
            }
            else if(which == 3)
            {
                check(miopenDestroyPoolingDescriptor(pool) == miopenStatusSuccess, "destroy pooling");
                check(miopenCreatePoolingDescriptor(&pool) == miopenStatusSuccess, "create pooling");
            }
            else
            {
                check(miopenDestroyLRNDescriptor(lrn) == miopenStatusSuccess, "destroy LRN");
                check(miopenCreateLRNDescriptor(&lrn) == miopenStatusSuccess, "create LRN");
            }
            break;
        }
        }
    }

    for(int i = 0; i < kTensors; ++i)
        miopenDestroyTensorDescriptor(t[i]);
    for(int i = 0; i < kConvs; ++i)
        miopenDestroyConvolutionDescriptor(conv[i]);
    miopenDestroyActivationDescriptor(act);
    miopenDestroyPoolingDescriptor(pool);
    miopenDestroyLRNDescriptor(lrn);
    return 0;
}
