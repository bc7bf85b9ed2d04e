// Device 0 is this CPU: its model name, hardware threads, clock, L2 cache and physical memory.
#include "HostRuntime.hpp"

#include <algorithm>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <thread>

#include <sys/utsname.h>
#include <unistd.h>

namespace hip_host {

namespace {

// The value of the first "key : value" line of /proc/cpuinfo whose key is `key` ("" when none).
std::string cpuinfoField(const std::string& key)
{
    std::ifstream in("/proc/cpuinfo");
    std::string line;
    while(std::getline(in, line))
    {
        const auto colon = line.find(':');
        if(colon == std::string::npos)
            continue;
        std::string k = line.substr(0, colon);
        k.erase(k.find_last_not_of(" \t") + 1);
        if(k != key)
            continue;
        std::string v = line.substr(colon + 1);
        const auto first = v.find_first_not_of(" \t");
        return first == std::string::npos ? std::string() : v.substr(first);
    }
    return {};
}

void copyName(char (&dst)[256], const std::string& src)
{
    const std::size_t n = std::min(src.size(), sizeof(dst) - 1);
    std::memcpy(dst, src.data(), n);
    dst[n] = '\0';
}

std::size_t pages(int which)
{
    const long n = ::sysconf(which), size = ::sysconf(_SC_PAGESIZE);
    return n > 0 && size > 0 ? static_cast<std::size_t>(n) * static_cast<std::size_t>(size) : 0;
}

hipDeviceProp_t describeCpu()
{
    hipDeviceProp_t p;
    std::memset(&p, 0, sizeof(p));
    struct utsname u;
    const std::string machine = ::uname(&u) == 0 ? std::string(u.machine) : std::string("unknown");
    std::string model = cpuinfoField("model name");
    if(model.empty())
        model = "Host CPU (" + machine + ")";
    copyName(p.name, model);
    copyName(p.gcnArchName, "cpu-" + machine);
    p.totalGlobalMem = pages(_SC_PHYS_PAGES);
    // No kernels run here: one "thread" per block, compute capability 0.0.
    p.warpSize           = 1;
    p.maxThreadsPerBlock = 1;
    for(int i = 0; i < 3; ++i)
    {
        p.maxThreadsDim[i] = 1;
        p.maxGridSize[i]   = 1;
    }
    p.maxThreadsPerMultiProcessor = 1;
    p.memPitch = static_cast<std::size_t>(INT_MAX);
    const double mhz = std::strtod(cpuinfoField("cpu MHz").c_str(), nullptr);
    p.clockRate           = mhz > 0 ? static_cast<int>(mhz * 1000.0) : 0;
    p.multiProcessorCount = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
#ifdef _SC_LEVEL2_CACHE_SIZE
    const long l2 = ::sysconf(_SC_LEVEL2_CACHE_SIZE);
    p.l2CacheSize = l2 > 0 && l2 < INT_MAX ? static_cast<int>(l2) : 0;
#endif
    p.textureAlignment        = 256;
    p.integrated              = 1;
    p.canMapHostMemory        = 1;
    p.managedMemory           = 1;
    p.concurrentManagedAccess = 1;
    p.pageableMemoryAccess    = 1;
    p.unifiedAddressing       = 1;
    p.isLargeBar              = 1;
    return p;
}

} // namespace

const hipDeviceProp_t& deviceProperties()
{
    static const hipDeviceProp_t props = describeCpu();
    return props;
}

std::size_t availableMemory() { return pages(_SC_AVPHYS_PAGES); }

} // namespace hip_host
