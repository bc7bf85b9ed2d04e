#include "Driver.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>

namespace miopen_driver
{

void checkStatus(miopenStatus_t status, const char* call)
{
    if(status != miopenStatusSuccess)
        throw DriverError(std::string(call) + " failed: " + miopenGetErrorString(status) + " (" +
                          std::to_string(static_cast<int>(status)) + ")");
}

Handle::Handle() { MIOPEN_DRIVER_CHECK(miopenCreate(&_handle)); }
Handle::~Handle() { miopenDestroy(_handle); }
float Handle::kernelTime() const
{
    float ms = 0.f;
    MIOPEN_DRIVER_CHECK(miopenGetKernelTime(_handle, &ms));
    return ms;
}

TensorDesc::TensorDesc() { MIOPEN_DRIVER_CHECK(miopenCreateTensorDescriptor(&_desc)); }
TensorDesc::~TensorDesc() { miopenDestroyTensorDescriptor(_desc); }
void TensorDesc::set(miopenDataType_t type, const std::vector<int64_t>& dims, const std::vector<int64_t>& strides)
{
    std::vector<int> d(dims.begin(), dims.end()), s(strides.begin(), strides.end());
    MIOPEN_DRIVER_CHECK(miopenSetTensorDescriptor(_desc, type, static_cast<int>(d.size()), d.data(), s.data()));
}

std::string upper(std::string s)
{
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
    return s;
}

std::vector<int64_t> layoutStrides(const std::vector<int64_t>& dims, const std::string& layoutIn)
{
    const std::string layout = upper(layoutIn);
    const std::size_t rank   = dims.size();
    static const char* const kPacked[]      = {"NCW", "NCHW", "NCDHW"};
    static const char* const kChannelLast[] = {"NWC", "NHWC", "NDHWC"};
    const bool known = rank >= 3 && rank <= 5;
    if(layout.empty() || (known && layout == kPacked[rank - 3]))
        return hipdnn_data_sdk::utilities::packedStrides(dims);
    if(!known || layout != kChannelLast[rank - 3])
        throw DriverError("layout " + layout + " does not fit a tensor of rank " + std::to_string(rank) +
                          " (NCHW, NHWC, NCDHW, NDHWC)");
    std::vector<int64_t> strides(rank);
    int64_t running = 1;
    strides[1]      = running;
    running *= dims[1];
    for(std::size_t i = rank; i-- > 2;)
    {
        strides[i] = running;
        running *= dims[i];
    }
    strides[0] = running;
    return strides;
}

float TimingResult::kernelAverageMs() const
{
    return iters > 1 ? (kernelTotalMs - kernelFirstMs) / static_cast<float>(iters - 1) : kernelTotalMs;
}
double TimingResult::wallAverageMs() const
{
    return iters > 1 ? (wallTotalMs - wallFirstMs) / static_cast<double>(iters - 1) : wallTotalMs;
}

TimingResult timeLoop(const Handle& handle, int iters, bool profiling, const std::function<miopenStatus_t()>& call,
                      const char* what)
{
    TimingResult r;
    r.iters = std::max(iters, 1);
    for(int i = 0; i < r.iters; ++i)
    {
        const auto t0             = std::chrono::steady_clock::now();
        const miopenStatus_t status = call();
        const auto t1             = std::chrono::steady_clock::now();
        checkStatus(status, what);
        const double wall = std::chrono::duration<double, std::milli>(t1 - t0).count();
        r.wallTotalMs += wall;
        if(i == 0)
            r.wallFirstMs = wall;
        if(profiling)
        {
            const float k = handle.kernelTime();
            r.kernelTotalMs += k;
            if(i == 0)
            {
                r.kernelFirstMs = k;
                r.kernelMinMs   = k;
            }
            r.kernelMinMs = std::min(r.kernelMinMs, k);
        }
    }
    return r;
}

bool corruptOutputRequested()
{
    const char* v = std::getenv("MIOPEN_DRIVER_TEST_CORRUPT_OUTPUT");
    return v != nullptr && std::strcmp(v, "1") == 0;
}

int reportVerdict(const char* what, const Verdict& v, int failCode)
{
    if(!v.ok)
    {
        std::cout << what << " FAILED: " << v.maxError << " > " << v.tolerance << std::endl;
        std::cout << "  " << v.why << std::endl;
        return failCode;
    }
    std::cout << what << " Verifies OK on CPU reference (" << v.maxError << " < " << v.tolerance << ')'
              << std::endl;
    return 0;
}

void printTensorCheck(const std::string& prefix, const char* name, const Verdict& v)
{
    if(v.ok)
        std::cout << prefix << " verification passed on " << name << " (" << v.maxError << ')' << std::endl;
    else
        std::cout << prefix << " verification FAILED on " << name << ": " << v.maxError << " > " << v.tolerance << "\n  "
                  << v.why << std::endl;
}

void echoCommand(int argc, char** argv)
{
    std::cout << "MIOpenDriver";
    for(int i = 1; i < argc; ++i)
        std::cout << ' ' << argv[i];
    std::cout << std::endl;
}

} // namespace miopen_driver
