// A host program written as HIP programs are: HIP_CHECK, device buffers, driver-style copies, a
// stream with a host callback, event timing. Prints PASSED when every result is right.
#include <hip/hip_runtime.h>

#include <iostream>
#include <vector>

#define HIP_CHECK(expr)                                                                        \
    do                                                                                         \
    {                                                                                          \
        const hipError_t status_ = (expr);                                                     \
        if(status_ != hipSuccess)                                                              \
        {                                                                                      \
            std::cerr << #expr << ": " << hipGetErrorName(status_) << " (" << hipGetErrorString(status_) \
                      << ")\n";                                                                \
            return EXIT_FAILURE;                                                               \
        }                                                                                      \
    } while(0)

static void onStreamDone(hipStream_t, hipError_t status, void* userData)
{
    *static_cast<int*>(userData) = status == hipSuccess ? 1 : -1;
}

int main()
{
    int count = 0;
    HIP_CHECK(hipGetDeviceCount(&count));
    hipDeviceProp_t props;
    HIP_CHECK(hipGetDeviceProperties(&props, 0));
    std::cout << "device 0: " << props.name << " (" << props.gcnArchName << "), " << count << " device(s)\n";

    constexpr size_t n = 1024;
    std::vector<float> in(n), out(n, 0.0f);
    for(size_t i = 0; i < n; ++i)
        in[i] = static_cast<float>(i) * 0.25f;

    hipStream_t stream;
    HIP_CHECK(hipStreamCreateWithFlags(&stream, hipStreamNonBlocking));
    hipEvent_t start, stop;
    HIP_CHECK(hipEventCreate(&start));
    HIP_CHECK(hipEventCreate(&stop));

    float* a = nullptr;
    float* b = nullptr;
    HIP_CHECK(hipMalloc(&a, n * sizeof(float)));
    HIP_CHECK(hipMallocAsync(&b, n * sizeof(float), stream));
    HIP_CHECK(hipEventRecord(start, stream));
    HIP_CHECK(hipMemcpyHtoDAsync(a, in.data(), n * sizeof(float), stream));
    HIP_CHECK(hipMemcpyDtoDAsync(b, a, n * sizeof(float), stream));
    int callbackRan = 0;
    HIP_CHECK(hipStreamAddCallback(stream, onStreamDone, &callbackRan, 0));
    HIP_CHECK(hipEventRecord(stop, stream));
    HIP_CHECK(hipStreamSynchronize(stream));
    HIP_CHECK(hipMemcpyDtoH(out.data(), b, n * sizeof(float)));
    float ms = -1.0f;
    HIP_CHECK(hipEventElapsedTime(&ms, start, stop));

    bool ok = callbackRan == 1 && ms >= 0.0f;
    for(size_t i = 0; i < n; ++i)
        ok = ok && out[i] == in[i];

    HIP_CHECK(hipFreeAsync(b, stream));
    HIP_CHECK(hipFree(a));
    HIP_CHECK(hipEventDestroy(start));
    HIP_CHECK(hipEventDestroy(stop));
    HIP_CHECK(hipStreamDestroy(stream));
    std::cout << (ok ? "PASSED" : "FAILED") << std::endl;
    return ok ? EXIT_SUCCESS : EXIT_FAILURE;
}
