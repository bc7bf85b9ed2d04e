// Streams: priorities and flags, HIP's ordering (the work of one stream in order, a host callback
// after the work enqueued before it, hipStreamWaitEvent), host callbacks and their error paths,
// and event timing on streams.
#include "HipHostTest.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

namespace {

TEST_F(HipHost, StreamPriorities)
{
    int least = 99, greatest = 99;
    ASSERT_HIP_OK(hipDeviceGetStreamPriorityRange(&least, &greatest));
    EXPECT_EQ(1, least); // HIP's range on AMD: lower is higher priority
    EXPECT_EQ(-1, greatest);
    EXPECT_HIP_OK(hipDeviceGetStreamPriorityRange(nullptr, &greatest)); // either may be null
    EXPECT_HIP_OK(hipDeviceGetStreamPriorityRange(&least, nullptr));

    hipStream_t high = nullptr, low = nullptr, normal = nullptr, clamped = nullptr;
    ASSERT_HIP_OK(hipStreamCreateWithPriority(&high, hipStreamDefault, greatest));
    ASSERT_HIP_OK(hipStreamCreateWithPriority(&low, hipStreamNonBlocking, least));
    ASSERT_HIP_OK(hipStreamCreate(&normal));
    ASSERT_HIP_OK(hipStreamCreateWithPriority(&clamped, hipStreamDefault, -100));
    int p = 42;
    ASSERT_HIP_OK(hipStreamGetPriority(high, &p));
    EXPECT_EQ(-1, p);
    ASSERT_HIP_OK(hipStreamGetPriority(low, &p));
    EXPECT_EQ(1, p);
    ASSERT_HIP_OK(hipStreamGetPriority(normal, &p));
    EXPECT_EQ(0, p);
    ASSERT_HIP_OK(hipStreamGetPriority(clamped, &p));
    EXPECT_EQ(-1, p) << "clamped to the range";
    ASSERT_HIP_OK(hipStreamDestroy(clamped));
    ASSERT_HIP_OK(hipStreamCreateWithPriority(&clamped, hipStreamDefault, 7));
    ASSERT_HIP_OK(hipStreamGetPriority(clamped, &p));
    EXPECT_EQ(1, p);
    p = 42;
    ASSERT_HIP_OK(hipStreamGetPriority(nullptr, &p)); // the default stream: normal priority
    EXPECT_EQ(0, p);

    unsigned flags = 42;
    ASSERT_HIP_OK(hipStreamGetFlags(low, &flags));
    EXPECT_EQ(static_cast<unsigned>(hipStreamNonBlocking), flags);
    ASSERT_HIP_OK(hipStreamGetFlags(high, &flags));
    EXPECT_EQ(static_cast<unsigned>(hipStreamDefault), flags);
    ASSERT_HIP_OK(hipStreamGetFlags(hipStreamPerThread, &flags));
    EXPECT_EQ(static_cast<unsigned>(hipStreamDefault), flags);

    // Errors.
    hipStream_t bad = nullptr;
    EXPECT_TRUE(fails(hipStreamCreateWithPriority(nullptr, 0, 0), hipErrorInvalidValue));
    EXPECT_TRUE(fails(hipStreamCreateWithPriority(&bad, 0x4, 0), hipErrorInvalidValue));
    EXPECT_TRUE(fails(hipStreamGetPriority(high, nullptr), hipErrorInvalidValue));
    EXPECT_TRUE(fails(hipStreamGetFlags(high, nullptr), hipErrorInvalidValue));
    EXPECT_TRUE(fails(hipStreamGetFlags(nullptr, &flags), hipErrorInvalidValue)); // as HIP
    for(hipStream_t s : {high, low, normal, clamped})
        ASSERT_HIP_OK(hipStreamDestroy(s));
    EXPECT_TRUE(fails(hipStreamGetPriority(high, &p), hipErrorInvalidHandle));
    EXPECT_TRUE(fails(hipStreamGetFlags(low, &flags), hipErrorInvalidHandle));
}

TEST_F(HipHost, DefaultStreamNamesAreValidStreams)
{
    for(hipStream_t s : {static_cast<hipStream_t>(nullptr), hipStreamLegacy, hipStreamPerThread})
    {
        EXPECT_HIP_OK(hipStreamSynchronize(s));
        EXPECT_HIP_OK(hipStreamQuery(s));
        int p = 5;
        EXPECT_HIP_OK(hipStreamGetPriority(s, &p));
        EXPECT_EQ(0, p);
    }
    EXPECT_TRUE(fails(hipStreamDestroy(hipStreamPerThread), hipErrorInvalidHandle));
    EXPECT_TRUE(fails(hipStreamDestroy(hipStreamLegacy), hipErrorInvalidHandle));
}

struct CallbackLog
{
    std::vector<int> seen; // what the callback read from device memory
    hipStream_t stream = nullptr;
    hipError_t status  = hipErrorUnknown;
    int* device        = nullptr;
    std::thread::id thread;
    int calls = 0;
};

void readDevice(hipStream_t stream, hipError_t status, void* userData)
{
    auto* log = static_cast<CallbackLog*>(userData);
    log->stream = stream;
    log->status = status;
    log->thread = std::this_thread::get_id();
    ++log->calls;
    int v = -1;
    // Callbacks may read device memory the stream wrote (here through the runtime itself).
    if(hipMemcpy(&v, log->device, sizeof v, hipMemcpyDeviceToHost) == hipSuccess)
        log->seen.push_back(v);
}

void countCall(void* userData) { ++*static_cast<int*>(userData); }

TEST_F(HipHost, CallbackRunsAfterTheWorkBeforeItAndBeforeTheWorkAfterIt)
{
    hipStream_t s = nullptr;
    ASSERT_HIP_OK(hipStreamCreate(&s));
    int* d = nullptr;
    ASSERT_HIP_OK(hipMalloc(&d, sizeof(int)));
    CallbackLog log;
    log.device = d;
    const int one = 1, two = 2;
    ASSERT_HIP_OK(hipMemcpyAsync(d, &one, sizeof one, hipMemcpyHostToDevice, s));
    ASSERT_HIP_OK(hipStreamAddCallback(s, readDevice, &log, 0));
    ASSERT_HIP_OK(hipMemcpyAsync(d, &two, sizeof two, hipMemcpyHostToDevice, s));
    ASSERT_HIP_OK(hipStreamAddCallback(s, readDevice, &log, 0));
    ASSERT_HIP_OK(hipStreamSynchronize(s));
    // Exactly once each, in stream order, with the stream and hipSuccess.
    EXPECT_EQ(2, log.calls);
    EXPECT_EQ((std::vector<int>{1, 2}), log.seen);
    EXPECT_EQ(s, log.stream);
    EXPECT_EQ(hipSuccess, log.status);

    // hipLaunchHostFunc: the same ordering, the plain host function signature.
    int calls = 0;
    ASSERT_HIP_OK(hipLaunchHostFunc(s, countCall, &calls));
    ASSERT_HIP_OK(hipLaunchHostFunc(nullptr, countCall, &calls));
    ASSERT_HIP_OK(hipLaunchHostFunc(hipStreamPerThread, countCall, &calls));
    ASSERT_HIP_OK(hipStreamSynchronize(s));
    EXPECT_EQ(3, calls);
    // Callbacks on the default stream.
    ASSERT_HIP_OK(hipStreamAddCallback(nullptr, readDevice, &log, 0));
    EXPECT_EQ(3, log.calls);
    EXPECT_EQ(nullptr, log.stream);

    // Errors: no callback, flags, streams; nothing is called.
    EXPECT_TRUE(fails(hipStreamAddCallback(s, nullptr, &log, 0), hipErrorInvalidValue));
    EXPECT_TRUE(fails(hipStreamAddCallback(s, readDevice, &log, 1), hipErrorInvalidValue));
    EXPECT_TRUE(fails(hipLaunchHostFunc(s, nullptr, &calls), hipErrorInvalidValue));
    ASSERT_HIP_OK(hipStreamDestroy(s));
    EXPECT_TRUE(fails(hipStreamAddCallback(s, readDevice, &log, 0), hipErrorInvalidHandle));
    EXPECT_TRUE(fails(hipLaunchHostFunc(s, countCall, &calls), hipErrorInvalidHandle));
    EXPECT_EQ(3, log.calls);
    EXPECT_EQ(3, calls);
    EXPECT_HIP_OK(hipFree(d));
}

// A callback that enqueues more work on its own stream: the work runs after the callback's
// predecessors, and the callback's failure does not become the stream's.
void enqueueFromCallback(hipStream_t stream, hipError_t, void* userData)
{
    auto* d = static_cast<int*>(userData);
    const int three = 3;
    (void)hipMemcpyAsync(d, &three, sizeof three, hipMemcpyHostToDevice, stream);
}

TEST_F(HipHost, CallbackMayEnqueueOnItsStream)
{
    hipStream_t s = nullptr;
    ASSERT_HIP_OK(hipStreamCreate(&s));
    int* d = nullptr;
    ASSERT_HIP_OK(hipMalloc(&d, sizeof(int)));
    ASSERT_HIP_OK(hipMemsetAsync(d, 0, sizeof(int), s));
    ASSERT_HIP_OK(hipStreamAddCallback(s, enqueueFromCallback, d, 0));
    ASSERT_HIP_OK(hipStreamSynchronize(s));
    int v = 0;
    ASSERT_HIP_OK(hipMemcpyDtoH(&v, d, sizeof v));
    EXPECT_EQ(3, v);
    ASSERT_HIP_OK(hipStreamDestroy(s));
    EXPECT_HIP_OK(hipFree(d));
}

TEST_F(HipHost, StreamWaitEventOrdersWorkAcrossStreams)
{
    hipStream_t producer = nullptr, consumer = nullptr;
    ASSERT_HIP_OK(hipStreamCreateWithFlags(&producer, hipStreamNonBlocking));
    ASSERT_HIP_OK(hipStreamCreateWithFlags(&consumer, hipStreamNonBlocking));
    hipEvent_t ready = nullptr, never = nullptr;
    ASSERT_HIP_OK(hipEventCreateWithFlags(&ready, hipEventDisableTiming));
    ASSERT_HIP_OK(hipEventCreate(&never));
    int* d = nullptr;
    ASSERT_HIP_OK(hipMalloc(&d, 16 * sizeof(int)));
    ASSERT_HIP_OK(hipMemsetD32Async(d, 42, 16, producer));
    ASSERT_HIP_OK(hipEventRecord(ready, producer));
    ASSERT_HIP_OK(hipStreamWaitEvent(consumer, ready, 0));
    std::vector<int> back(16, 0);
    ASSERT_HIP_OK(hipMemcpyDtoHAsync(back.data(), d, 16 * sizeof(int), consumer));
    ASSERT_HIP_OK(hipStreamSynchronize(consumer));
    EXPECT_EQ(std::vector<int>(16, 42), back);
    EXPECT_HIP_OK(hipEventQuery(ready)); // complete
    // A never-recorded event is nothing to wait for; the default stream may wait; flags default 0.
    EXPECT_HIP_OK(hipStreamWaitEvent(consumer, never, 0));
    EXPECT_HIP_OK(hipStreamWaitEvent(nullptr, ready));
    EXPECT_HIP_OK(hipStreamWaitEvent(hipStreamPerThread, ready));

    // Errors.
    EXPECT_TRUE(fails(hipStreamWaitEvent(consumer, ready, 1), hipErrorInvalidValue));
    EXPECT_TRUE(fails(hipStreamWaitEvent(consumer, nullptr, 0), hipErrorInvalidHandle));
    ASSERT_HIP_OK(hipEventDestroy(never));
    EXPECT_TRUE(fails(hipStreamWaitEvent(consumer, never, 0), hipErrorInvalidHandle));
    ASSERT_HIP_OK(hipStreamDestroy(producer));
    EXPECT_TRUE(fails(hipStreamWaitEvent(producer, ready, 0), hipErrorInvalidHandle));
    ASSERT_HIP_OK(hipStreamDestroy(consumer));
    ASSERT_HIP_OK(hipEventDestroy(ready));
    EXPECT_HIP_OK(hipFree(d));
}

TEST_F(HipHost, EventsTimeTheWorkBetweenThemOnAStream)
{
    hipStream_t s = nullptr;
    ASSERT_HIP_OK(hipStreamCreate(&s));
    hipEvent_t start = nullptr, stop = nullptr;
    ASSERT_HIP_OK(hipEventCreate(&start));
    ASSERT_HIP_OK(hipEventCreate(&stop));
    // A host function that takes 20 ms, between the two records on the stream.
    const auto outerStart = std::chrono::steady_clock::now();
    ASSERT_HIP_OK(hipEventRecord(start, s));
    ASSERT_HIP_OK(hipLaunchHostFunc(
        s, [](void*) { std::this_thread::sleep_for(std::chrono::milliseconds(20)); }, nullptr));
    ASSERT_HIP_OK(hipEventRecord(stop, s));
    ASSERT_HIP_OK(hipEventSynchronize(stop));
    const auto outerStop = std::chrono::steady_clock::now();
    float ms = -1.0f;
    ASSERT_HIP_OK(hipEventElapsedTime(&ms, start, stop));
    EXPECT_GE(ms, 20.0f * 0.999f);
    using Millis = std::chrono::duration<float, std::milli>;
    EXPECT_LE(ms, Millis(outerStop - outerStart).count() * 1.001f);
    // Events of different streams compare on the same clock.
    hipStream_t other = nullptr;
    ASSERT_HIP_OK(hipStreamCreate(&other));
    hipEvent_t later = nullptr;
    ASSERT_HIP_OK(hipEventCreate(&later));
    ASSERT_HIP_OK(hipEventRecord(later, other));
    float sinceStart = -1.0f;
    ASSERT_HIP_OK(hipEventElapsedTime(&sinceStart, start, later));
    EXPECT_GE(sinceStart, ms);
    // Re-recording moves the event.
    ASSERT_HIP_OK(hipEventRecord(start, other));
    float again = -1.0f;
    ASSERT_HIP_OK(hipEventElapsedTime(&again, start, later));
    EXPECT_LE(again, 0.0f);
    for(hipEvent_t e : {start, stop, later})
        ASSERT_HIP_OK(hipEventDestroy(e));
    ASSERT_HIP_OK(hipStreamDestroy(s));
    ASSERT_HIP_OK(hipStreamDestroy(other));
}

TEST_F(HipHost, EventFlagsAsHip)
{
    hipEvent_t e = nullptr;
    const unsigned kAccepted[] = {hipEventDisableSystemFence, hipEventReleaseToDevice, hipEventReleaseToSystem,
                                  hipEventBlockingSync | hipEventReleaseToSystem, hipEventInterprocess | hipEventDisableTiming};
    for(unsigned flags : kAccepted)
    {
        ASSERT_HIP_OK(hipEventCreateWithFlags(&e, flags)) << flags;
        ASSERT_HIP_OK(hipEventDestroy(e));
    }
    // At most one release/fence flag.
    EXPECT_TRUE(fails(hipEventCreateWithFlags(&e, hipEventReleaseToDevice | hipEventReleaseToSystem), hipErrorInvalidValue));
    EXPECT_TRUE(fails(hipEventCreateWithFlags(&e, hipEventDisableSystemFence | hipEventReleaseToSystem), hipErrorInvalidValue));
    EXPECT_TRUE(fails(hipEventCreateWithFlags(&e, 0x8), hipErrorInvalidValue));
}

TEST_F(HipHost, CallbacksFromManyThreads)
{
    std::atomic<int> calls{0};
    std::vector<std::thread> threads;
    std::atomic<int> failures{0};
    for(int t = 0; t < 4; ++t)
        threads.emplace_back([&] {
            hipStream_t s = nullptr;
            if(hipStreamCreate(&s) != hipSuccess)
            {
                ++failures;
                return;
            }
            for(int i = 0; i < 100; ++i)
                if(hipLaunchHostFunc(s, [](void* c) { ++*static_cast<std::atomic<int>*>(c); }, &calls) != hipSuccess)
                    ++failures;
            if(hipStreamDestroy(s) != hipSuccess)
                ++failures;
        });
    for(auto& th : threads)
        th.join();
    EXPECT_EQ(0, failures.load());
    EXPECT_EQ(400, calls.load());
}

} // namespace
