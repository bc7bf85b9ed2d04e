// Unit tests of the base library: data types, tensor descriptors, threading, environment,
// errors.
#include <miopen/datatype.hpp>
#include <miopen/env.hpp>
#include <miopen/errors.hpp>
#include <miopen/tensor.hpp>
#include <miopen/threading.hpp>

#include <gtest/gtest.h>

#include <sched.h>

#include <atomic>
#include <chrono>
#include <set>
#include <thread>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

namespace {

// Independent half conversion: round-to-nearest-even of a double onto the binary16 grid.
double roundToHalfGrid(double v)
{
    if(std::isnan(v))
        return v;
    const double a = std::fabs(v);
    if(a >= 65520.0)
        return std::copysign(INFINITY, v);
    int e;
    std::frexp(a, &e);                        // a = m * 2^e, m in [0.5, 1)
    const int expo  = std::max(e - 1, -14);   // binary16 exponent (subnormals share -14)
    const double ulp = std::ldexp(1.0, expo - 10);
    return std::copysign(std::nearbyint(a / ulp) * ulp, v); // nearbyint: ties to even
}

TEST(DataType, HalfRoundTripAllBitPatterns)
{
    for(std::uint32_t bits = 0; bits < 0x10000U; ++bits)
    {
        const auto h = static_cast<std::uint16_t>(bits);
        const float f = miopen::halfToFloat(h);
        if(std::isnan(f))
        {
            EXPECT_TRUE(std::isnan(miopen::halfToFloat(miopen::floatToHalf(f))));
            continue;
        }
        EXPECT_EQ(miopen::floatToHalf(f), h) << bits;
    }
}

TEST(DataType, FloatToHalfRoundsToNearestEven)
{
    std::mt19937 rng(7);
    std::uniform_real_distribution<float> mag(-20.0f, 17.0f);
    for(int i = 0; i < 200000; ++i)
    {
        const float v = (i % 2 ? -1.0f : 1.0f) * std::exp2(mag(rng));
        const double expected = roundToHalfGrid(v);
        const float got = miopen::halfToFloat(miopen::floatToHalf(v));
        ASSERT_EQ(static_cast<double>(got), expected) << v;
    }
}

TEST(DataType, Bfloat16RoundsToNearestEven)
{
    std::mt19937 rng(11);
    std::uniform_int_distribution<std::uint32_t> bitsDist(0, 0x7f7fffffU);
    for(int i = 0; i < 200000; ++i)
    {
        std::uint32_t bits = bitsDist(rng);
        float f;
        std::memcpy(&f, &bits, 4);
        const float got = miopen::bfloat16ToFloat(miopen::floatToBfloat16(f));
        // Neighbours on the bfloat16 grid.
        const std::uint32_t lo = bits & 0xffff0000U, hi = lo + 0x10000U;
        float flo, fhi;
        std::memcpy(&flo, &lo, 4);
        std::memcpy(&fhi, &hi, 4);
        // Above the largest bfloat16 the upper neighbour is infinity, at distance 2^128 - f.
        const double hiValue = std::isinf(fhi) ? std::ldexp(1.0, 128) : static_cast<double>(fhi);
        const double dlo = std::fabs(static_cast<double>(f) - flo), dhi = std::fabs(hiValue - f);
        const float expected = dlo < dhi ? flo : dhi < dlo ? fhi : (((lo >> 16) & 1U) ? fhi : flo);
        ASSERT_EQ(got, expected);
    }
}

TEST(DataType, SizesAndNames)
{
    EXPECT_EQ(miopen::dataTypeSize(miopenHalf), 2u);
    EXPECT_EQ(miopen::dataTypeSize(miopenBFloat16), 2u);
    EXPECT_EQ(miopen::dataTypeSize(miopenFloat), 4u);
    EXPECT_EQ(miopen::dataTypeSize(miopenInt8), 1u);
    EXPECT_STREQ(miopen::dataTypeName(miopenFloat), "FP32");
    EXPECT_THROW(miopen::dataTypeSize(static_cast<miopenDataType_t>(4)), miopen::Exception);
}

TEST(TensorDescriptor, LayoutDetection)
{
    const std::vector<std::size_t> lens{2, 3, 4, 5};
    miopen::TensorDescriptor nchw(miopenFloat, lens);
    EXPECT_EQ(nchw.layoutString(), "NCHW");
    EXPECT_TRUE(nchw.isPacked());
    miopen::TensorDescriptor nhwc(miopenFloat, lens, miopen::packedStridesForLayout(lens, "NHWC"));
    EXPECT_EQ(nhwc.layoutString(), "NHWC");
    EXPECT_FALSE(nhwc.isPacked());
    EXPECT_EQ(nhwc.elementSpace(), 120u);
    miopen::TensorDescriptor gaps(miopenFloat, lens, {100, 25, 6, 1});
    EXPECT_EQ(gaps.layoutString(), "");
    EXPECT_EQ(gaps.elementSpace(), 1u + 100 + 50 + 18 + 4);
}

TEST(TensorDescriptor, RejectsOverflowAndZero)
{
    miopen::TensorDescriptor t;
    EXPECT_FALSE(t.isSet());
    EXPECT_THROW(t.checkSet("t"), miopen::Exception);
    EXPECT_THROW(t.set(miopenFloat, {0, 1}, {1, 1}), miopen::Exception);
    const std::size_t huge = std::numeric_limits<std::size_t>::max() / 2;
    EXPECT_THROW(t.set(miopenFloat, {huge, 3}, {3, 1}), miopen::Exception);
    EXPECT_FALSE(t.isSet()); // a failed set leaves the descriptor as it was
}

TEST(Threading, ParallelForCoversEveryIndexOnce)
{
    for(std::size_t n : {0u, 1u, 2u, 3u, 17u, 1000u})
    {
        std::vector<std::atomic<int>> hits(n);
        miopen::parallelFor(n, [&](std::size_t b, std::size_t e) {
            for(std::size_t i = b; i < e; ++i)
                hits[i].fetch_add(1);
        });
        for(std::size_t i = 0; i < n; ++i)
            EXPECT_EQ(hits[i].load(), 1) << n << ' ' << i;
    }
}

TEST(Threading, NestedRegionsRunInlineAndExceptionsPropagate)
{
    std::atomic<int> total{0};
    miopen::parallelFor(4, [&](std::size_t b, std::size_t e) {
        for(std::size_t i = b; i < e; ++i)
            miopen::parallelFor(10, [&](std::size_t b2, std::size_t e2) { total += static_cast<int>(e2 - b2); });
    });
    EXPECT_EQ(total.load(), 40);
    EXPECT_THROW(miopen::parallelFor(8, [](std::size_t b, std::size_t) {
                     if(b == 0)
                         throw std::runtime_error("boom");
                 }),
                 std::runtime_error);
    EXPECT_NE(miopen::threadingSummary().find("openblas threads=1"), std::string::npos);
}

// The pool's placement rule (docs/threading.md): with one thread per CPU this process may use,
// each worker owns one of those CPUs, so the chunks of a region run on distinct CPUs at once;
// the calling thread only waits (no chunk runs on it) and keeps its own affinity.
TEST(Threading, WorkersOwnOneCpuEachAndTheCallerIsNotPinned)
{
    cpu_set_t before;
    CPU_ZERO(&before);
    ASSERT_EQ(sched_getaffinity(0, sizeof(before), &before), 0);
    std::set<int> allowed;
    for(int cpu = 0; cpu < CPU_SETSIZE; ++cpu)
        if(CPU_ISSET(cpu, &before))
            allowed.insert(cpu);
    const std::size_t t = miopen::threadCount();
    const bool pinned   = t >= 2 && allowed.size() == t && miopen::env::boolean("MIOPEN_PIN_THREADS", true);
    const std::string summary = miopen::threadingSummary();
    EXPECT_NE(summary.find(pinned ? "workers pinned to CPUs" : "workers unpinned"), std::string::npos) << summary;
    if(t < 2)
        GTEST_SKIP() << "one thread: regions run inline (" << summary << ")";

    // Every chunk waits (bounded) until all have started, so they are on their CPUs together.
    std::vector<int> cpuOf(t, -1);
    std::atomic<std::size_t> started{0};
    std::atomic<int> onCaller{0};
    const auto caller = std::this_thread::get_id();
    const std::size_t chunks = miopen::parallelForIndexed(
        t,
        [&](std::size_t c, std::size_t, std::size_t) {
            onCaller += std::this_thread::get_id() == caller ? 1 : 0;
            started.fetch_add(1);
            const auto giveUp = std::chrono::steady_clock::now() + std::chrono::seconds(10);
            while(started.load() < t && std::chrono::steady_clock::now() < giveUp)
                std::this_thread::yield();
            cpuOf[c] = sched_getcpu();
        },
        1);
    ASSERT_EQ(chunks, t);
    EXPECT_EQ(started.load(), t);
    EXPECT_EQ(onCaller.load(), 0);
    if(pinned)
    {
        EXPECT_EQ(std::set<int>(cpuOf.begin(), cpuOf.end()), allowed) << summary;
    }
    cpu_set_t after;
    CPU_ZERO(&after);
    ASSERT_EQ(sched_getaffinity(0, sizeof(after), &after), 0);
    EXPECT_TRUE(CPU_EQUAL(&before, &after));
}

TEST(Env, BooleansInMiopenSpelling)
{
    for(const char* t : {"1", "on", "YES", "true", "Enable", "enabled"})
    {
        setenv("MIOPEN_TEST_BOOL", t, 1);
        EXPECT_TRUE(miopen::env::boolean("MIOPEN_TEST_BOOL", false)) << t;
    }
    for(const char* f : {"0", "off", "no", "FALSE", "disable", "disabled"})
    {
        setenv("MIOPEN_TEST_BOOL", f, 1);
        EXPECT_FALSE(miopen::env::boolean("MIOPEN_TEST_BOOL", true)) << f;
    }
    setenv("MIOPEN_TEST_BOOL", "maybe", 1);
    EXPECT_TRUE(miopen::env::boolean("MIOPEN_TEST_BOOL", true));
    unsetenv("MIOPEN_TEST_BOOL");
    EXPECT_FALSE(miopen::env::boolean("MIOPEN_TEST_BOOL", false));
    setenv("MIOPEN_TEST_INT", "12x", 1);
    EXPECT_EQ(miopen::env::integer("MIOPEN_TEST_INT", 5), 5);
    setenv("MIOPEN_TEST_INT", "12", 1);
    EXPECT_EQ(miopen::env::integer("MIOPEN_TEST_INT", 5), 12);
}

TEST(Errors, TryCatchMapsExceptionsAndRecordsTheMessage)
{
    EXPECT_EQ(miopen::tryCatch("f", [] {}), miopenStatusSuccess);
    EXPECT_EQ(miopen::tryCatch("f", [] { miopen::fail(miopenStatusNotImplemented, "nope"); }),
              miopenStatusNotImplemented);
    EXPECT_STREQ(miopen::lastErrorMessage(), "f: nope");
    EXPECT_EQ(miopen::tryCatch("g", [] { throw std::bad_alloc(); }), miopenStatusAllocFailed);
    EXPECT_EQ(miopen::tryCatch("h", [] { throw 42; }), miopenStatusUnknownError);
    const std::string longMsg(5000, 'x');
    EXPECT_EQ(miopen::tryCatch("i", [&] { miopen::fail(miopenStatusBadParm, longMsg); }), miopenStatusBadParm);
    EXPECT_LT(std::strlen(miopen::lastErrorMessage()), 600u); // bounded
}

} // namespace
