// Shared pieces of the wrapper measurement programs (conv_dump, wrapper_hop_bench,
// conv_workload): public C API only (<miopen/miopen.h>), so that each program also compiles
// against the pre-split baseline's header, which declares only handle, tensor and convolution.
// Header-only. See README.md, "Wrapper overhead and the pre-split baseline".
#ifndef BENCHMARKS_WRAPPER_WRAPPER_COMMON_HPP
#define BENCHMARKS_WRAPPER_WRAPPER_COMMON_HPP

#include <miopen/miopen.h>

#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

namespace wrapper_bench {

// A failed MIOpen call ends the program: these are measurement drivers, not library code.
inline void checkStatus(miopenStatus_t s, const char* what, int line)
{
    if(s != miopenStatusSuccess)
    {
        std::fprintf(stderr, "error: %s failed with status %d (%s) at line %d\n", what, static_cast<int>(s),
                     miopenGetErrorString(s), line);
        std::exit(1);
    }
}
#define WB_CHECK(call) ::wrapper_bench::checkStatus((call), #call, __LINE__)

// ---- The library this process really loaded --------------------------------------------------

// The path of the mapped libMIOpen.so.* (from /proc/self/maps), empty when none is mapped.
inline std::string loadedLibrary(const char* stem = "/libMIOpen.so")
{
    std::ifstream maps("/proc/self/maps");
    std::string line;
    while(std::getline(maps, line))
    {
        const auto slash = line.find('/');
        if(slash == std::string::npos)
            continue;
        const std::string path = line.substr(slash);
        if(path.find(stem) != std::string::npos)
            return path;
    }
    return {};
}

inline std::string dirOf(const std::string& path)
{
    const auto p = path.rfind('/');
    return p == std::string::npos ? std::string(".") : path.substr(0, p);
}

inline std::string realPath(const std::string& path)
{
    char buf[4096];
    return ::realpath(path.c_str(), buf) ? std::string(buf) : path;
}

// Prints which libMIOpen.so is mapped and its version; when expectDir is not empty, exits with
// status 2 unless the mapped library lives in that directory (symbolic links resolved).
inline void reportLibrary(const std::string& expectDir, FILE* out = stdout)
{
    std::size_t major = 0, minor = 0, patch = 0;
    WB_CHECK(miopenGetVersion(&major, &minor, &patch));
    const std::string lib = loadedLibrary();
    const std::string priv = loadedLibrary("/libMIOpen_private.so");
    std::fprintf(out, "# library: %s (MIOpen %zu.%zu.%zu)%s%s\n", lib.c_str(), major, minor, patch,
                 priv.empty() ? "" : " over ", priv.c_str());
    if(!expectDir.empty() && realPath(dirOf(lib)) != realPath(expectDir))
    {
        std::fprintf(stderr, "error: loaded %s, expected the libMIOpen.so in %s\n", lib.c_str(), expectDir.c_str());
        std::exit(2);
    }
}

// ---- Deterministic data ----------------------------------------------------------------------

// xorshift64*: fixed seeds give the same inputs in every process and every library.
class Rng
{
public:
    explicit Rng(std::uint64_t seed) : _s(seed * 0x9E3779B97F4A7C15ull + 1) {}
    // Uniform in [-1, 1), a multiple of 2^-12 (exact in fp16 and bf16 too).
    float next()
    {
        _s ^= _s >> 12;
        _s ^= _s << 25;
        _s ^= _s >> 27;
        const std::uint64_t v = (_s * 0x2545F4914F6CDD1Dull) >> 52; // 12 bits
        return static_cast<float>(static_cast<int>(v) - 2048) / 2048.0f;
    }

private:
    std::uint64_t _s;
};

inline std::size_t elementSize(miopenDataType_t t)
{
    return t == miopenHalf || t == miopenBFloat16 ? 2 : 4;
}

inline std::uint16_t toBf16(float f)
{
    std::uint32_t u;
    std::memcpy(&u, &f, 4);
    return static_cast<std::uint16_t>((u + 0x7FFFu + ((u >> 16) & 1u)) >> 16);
}

// Values from Rng are multiples of 2^-12 in [-1, 1): exactly representable in binary16.
inline std::uint16_t toHalf(float f)
{
    std::uint32_t u;
    std::memcpy(&u, &f, 4);
    const std::uint32_t sign = (u >> 16) & 0x8000u;
    const int exp            = static_cast<int>((u >> 23) & 0xFF) - 127 + 15;
    std::uint32_t mant       = u & 0x7FFFFFu;
    if((u & 0x7FFFFFFFu) == 0)
        return static_cast<std::uint16_t>(sign);
    if(exp <= 0)
    {
        mant |= 0x800000u;
        const int shift = 14 - exp;
        return static_cast<std::uint16_t>(sign | (mant >> shift));
    }
    return static_cast<std::uint16_t>(sign | (static_cast<std::uint32_t>(exp) << 10) | (mant >> 13));
}

// count elements of type t from a seeded generator.
inline std::vector<unsigned char> randomTensor(miopenDataType_t t, std::size_t count, std::uint64_t seed)
{
    Rng rng(seed);
    std::vector<unsigned char> bytes(count * elementSize(t));
    for(std::size_t i = 0; i < count; ++i)
    {
        const float v = rng.next();
        if(t == miopenFloat)
            std::memcpy(bytes.data() + 4 * i, &v, 4);
        else
        {
            const std::uint16_t h = t == miopenHalf ? toHalf(v) : toBf16(v);
            std::memcpy(bytes.data() + 2 * i, &h, 2);
        }
    }
    return bytes;
}

// ---- Descriptors -------------------------------------------------------------------------------

struct TensorDesc
{
    miopenTensorDescriptor_t d = nullptr;
    TensorDesc(miopenDataType_t t, int n, int c, int h, int w)
    {
        WB_CHECK(miopenCreateTensorDescriptor(&d));
        WB_CHECK(miopenSet4dTensorDescriptor(d, t, n, c, h, w));
    }
    ~TensorDesc() { miopenDestroyTensorDescriptor(d); }
    TensorDesc(const TensorDesc&) = delete;
    TensorDesc& operator=(const TensorDesc&) = delete;
};

struct ConvDesc
{
    miopenConvolutionDescriptor_t d = nullptr;
    ConvDesc(int padH, int padW, int strideH, int strideW, int dilH, int dilW, int groups)
    {
        WB_CHECK(miopenCreateConvolutionDescriptor(&d));
        WB_CHECK(miopenInitConvolutionDescriptor(d, miopenConvolution, padH, padW, strideH, strideW, dilH, dilW));
        if(groups > 1)
            WB_CHECK(miopenSetConvolutionGroupCount(d, groups));
    }
    ~ConvDesc() { miopenDestroyConvolutionDescriptor(d); }
    ConvDesc(const ConvDesc&) = delete;
    ConvDesc& operator=(const ConvDesc&) = delete;
};

struct Handle
{
    miopenHandle_t h = nullptr;
    Handle() { WB_CHECK(miopenCreate(&h)); }
    ~Handle() { miopenDestroy(h); }
    Handle(const Handle&) = delete;
    Handle& operator=(const Handle&) = delete;
};

// ---- Time and process counters -------------------------------------------------------------

inline double nowSeconds()
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

inline double median(std::vector<double> v)
{
    if(v.empty())
        return 0.0;
    std::sort(v.begin(), v.end());
    const std::size_t n = v.size();
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

struct Usage
{
    long minorFaults = 0;
    long majorFaults = 0;
    long maxRssKb    = 0;
};

inline Usage usageNow()
{
    rusage ru{};
    getrusage(RUSAGE_SELF, &ru);
    return {ru.ru_minflt, ru.ru_majflt, ru.ru_maxrss};
}

inline bool startsWith(const std::string& s, const char* prefix) { return s.rfind(prefix, 0) == 0; }

} // namespace wrapper_bench

#endif // BENCHMARKS_WRAPPER_WRAPPER_COMMON_HPP
