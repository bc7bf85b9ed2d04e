// Device 0 is this CPU: its model name, hardware threads, clock, L2 cache and physical memory,
// as HIP 6's hipDeviceProp_t and hipDeviceAttribute_t describe a device.
#include "HostRuntime.hpp"
#include "LegacyDeviceProp.hpp"

#include <algorithm>
#include <climits>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <limits>
#include <string>
#include <thread>

#include <sys/resource.h>
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

// The frequency of the clock hipEventElapsedTime reads (std::chrono::steady_clock), in kHz.
constexpr int kSteadyClockKhz = static_cast<int>(
    std::min<std::intmax_t>(std::chrono::steady_clock::period::den / std::chrono::steady_clock::period::num / 1000, INT_MAX));

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
    p.textureAlignment = 256;
    // Device memory is host memory: one address space, mapped and registered host memory at the
    // same address, managed memory coherent with the host, host atomics native.
    p.integrated                             = 1;
    p.canMapHostMemory                       = 1;
    p.unifiedAddressing                      = 1;
    p.managedMemory                          = 1;
    p.concurrentManagedAccess                = 1;
    p.directManagedMemAccessFromHost         = 1;
    p.pageableMemoryAccess                   = 1;
    p.pageableMemoryAccessUsesHostPageTables = 1;
    p.hostNativeAtomicSupported              = 1;
    p.canUseHostPointerForRegisteredMem      = 1;
    p.hostRegisterSupported                  = 1;
    p.hostRegisterReadOnlySupported          = 1;
    p.globalL1CacheSupported                 = 1;
    p.localL1CacheSupported                  = 1;
    // Streams take priorities (hipStreamCreateWithPriority), with nothing to reorder.
    p.streamPrioritiesSupported = 1;
    p.maxBlocksPerMultiProcessor = 1;
    p.isLargeBar                 = 1;
    return p;
}

// A size_t property as hipDeviceGetAttribute's int (HIP clamps the same way).
int clampToInt(std::size_t v) { return static_cast<int>(std::min<std::size_t>(v, INT_MAX)); }

} // namespace

const hipDeviceProp_t& deviceProperties()
{
    static const hipDeviceProp_t props = describeCpu();
    return props;
}

std::size_t availableMemory() { return pages(_SC_AVPHYS_PAGES); }

const char* pciBusId()
{
    // Domain, bus, device and function of device 0: the CPU has none, all 0.
    return "0000:00:00.0";
}

std::size_t defaultStackSize()
{
    struct rlimit limit;
    constexpr std::size_t kDefault = std::size_t{8} << 20; // glibc's default when unlimited
    if(::getrlimit(RLIMIT_STACK, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY)
        return kDefault;
    return static_cast<std::size_t>(limit.rlim_cur);
}

// The attributes HIP's runtime answers, each from the hipDeviceProp_t field of the same meaning.
hipError_t deviceAttribute(hipDeviceAttribute_t attr, int* value)
{
    static_assert(sizeof(hipDeviceAttribute_t) == sizeof(int), "hipDeviceAttribute_t is an int-sized enum");
    int a = 0;
    std::memcpy(&a, &attr, sizeof a); // any int a C caller passes, read as an int
    const hipDeviceProp_t& p = deviceProperties();
    int v = 0;
    switch(a)
    {
    case hipDeviceAttributeEccEnabled: v = p.ECCEnabled; break;
    case hipDeviceAttributeAccessPolicyMaxWindowSize: v = p.accessPolicyMaxWindowSize; break;
    case hipDeviceAttributeAsyncEngineCount: v = p.asyncEngineCount; break;
    case hipDeviceAttributeCanMapHostMemory: v = p.canMapHostMemory; break;
    case hipDeviceAttributeCanUseHostPointerForRegisteredMem: v = p.canUseHostPointerForRegisteredMem; break;
    case hipDeviceAttributeClockRate: v = p.clockRate; break;
    case hipDeviceAttributeComputeMode: v = p.computeMode; break;
    case hipDeviceAttributeComputePreemptionSupported: v = p.computePreemptionSupported; break;
    case hipDeviceAttributeConcurrentKernels: v = p.concurrentKernels; break;
    case hipDeviceAttributeConcurrentManagedAccess: v = p.concurrentManagedAccess; break;
    case hipDeviceAttributeCooperativeLaunch: v = p.cooperativeLaunch; break;
    case hipDeviceAttributeCooperativeMultiDeviceLaunch: v = p.cooperativeMultiDeviceLaunch; break;
    case hipDeviceAttributeDeviceOverlap: v = p.asyncEngineCount > 0 ? 1 : 0; break;
    case hipDeviceAttributeDirectManagedMemAccessFromHost: v = p.directManagedMemAccessFromHost; break;
    case hipDeviceAttributeGlobalL1CacheSupported: v = p.globalL1CacheSupported; break;
    case hipDeviceAttributeHostNativeAtomicSupported: v = p.hostNativeAtomicSupported; break;
    case hipDeviceAttributeIntegrated: v = p.integrated; break;
    case hipDeviceAttributeIsMultiGpuBoard: v = p.isMultiGpuBoard; break;
    case hipDeviceAttributeKernelExecTimeout: v = p.kernelExecTimeoutEnabled; break;
    case hipDeviceAttributeL2CacheSize: v = p.l2CacheSize; break;
    case hipDeviceAttributeLocalL1CacheSupported: v = p.localL1CacheSupported; break;
    case hipDeviceAttributeLuidDeviceNodeMask: v = static_cast<int>(p.luidDeviceNodeMask); break;
    case hipDeviceAttributeComputeCapabilityMajor: v = p.major; break;
    case hipDeviceAttributeManagedMemory: v = p.managedMemory; break;
    case hipDeviceAttributeMaxBlocksPerMultiProcessor: v = p.maxBlocksPerMultiProcessor; break;
    case hipDeviceAttributeMaxBlockDimX: v = p.maxThreadsDim[0]; break;
    case hipDeviceAttributeMaxBlockDimY: v = p.maxThreadsDim[1]; break;
    case hipDeviceAttributeMaxBlockDimZ: v = p.maxThreadsDim[2]; break;
    case hipDeviceAttributeMaxGridDimX: v = p.maxGridSize[0]; break;
    case hipDeviceAttributeMaxGridDimY: v = p.maxGridSize[1]; break;
    case hipDeviceAttributeMaxGridDimZ: v = p.maxGridSize[2]; break;
    case hipDeviceAttributeMaxSurface1D: v = p.maxSurface1D; break;
    case hipDeviceAttributeMaxTexture1DWidth: v = p.maxTexture1D; break;
    case hipDeviceAttributeMaxTexture1DLinear: v = p.maxTexture1DLinear; break;
    case hipDeviceAttributeMaxTexture1DMipmap: v = p.maxTexture1DMipmap; break;
    case hipDeviceAttributeMaxTexture2DWidth: v = p.maxTexture2D[0]; break;
    case hipDeviceAttributeMaxTexture2DHeight: v = p.maxTexture2D[1]; break;
    case hipDeviceAttributeMaxTexture3DWidth: v = p.maxTexture3D[0]; break;
    case hipDeviceAttributeMaxTexture3DHeight: v = p.maxTexture3D[1]; break;
    case hipDeviceAttributeMaxTexture3DDepth: v = p.maxTexture3D[2]; break;
    case hipDeviceAttributeMaxTextureCubemap: v = p.maxTextureCubemap; break;
    case hipDeviceAttributeMaxThreadsPerBlock: v = p.maxThreadsPerBlock; break;
    case hipDeviceAttributeMaxThreadsPerMultiProcessor: v = p.maxThreadsPerMultiProcessor; break;
    case hipDeviceAttributeMaxPitch: v = clampToInt(p.memPitch); break;
    case hipDeviceAttributeMemoryBusWidth: v = p.memoryBusWidth; break;
    case hipDeviceAttributeMemoryClockRate: v = p.memoryClockRate; break;
    case hipDeviceAttributeComputeCapabilityMinor: v = p.minor; break;
    case hipDeviceAttributeMultiGpuBoardGroupID: v = p.multiGpuBoardGroupID; break;
    case hipDeviceAttributeMultiprocessorCount: v = p.multiProcessorCount; break;
    case hipDeviceAttributePageableMemoryAccess: v = p.pageableMemoryAccess; break;
    case hipDeviceAttributePageableMemoryAccessUsesHostPageTables: v = p.pageableMemoryAccessUsesHostPageTables; break;
    case hipDeviceAttributePciBusId: v = p.pciBusID; break;
    case hipDeviceAttributePciDeviceId: v = p.pciDeviceID; break;
    case hipDeviceAttributePciDomainID: v = p.pciDomainID; break;
    case hipDeviceAttributePersistingL2CacheMaxSize: v = p.persistingL2CacheMaxSize; break;
    case hipDeviceAttributeMaxRegistersPerBlock: v = p.regsPerBlock; break;
    case hipDeviceAttributeMaxRegistersPerMultiprocessor: v = p.regsPerMultiprocessor; break;
    case hipDeviceAttributeReservedSharedMemPerBlock: v = clampToInt(p.reservedSharedMemPerBlock); break;
    case hipDeviceAttributeMaxSharedMemoryPerBlock: v = clampToInt(p.sharedMemPerBlock); break;
    case hipDeviceAttributeSharedMemPerBlockOptin: v = clampToInt(p.sharedMemPerBlockOptin); break;
    case hipDeviceAttributeSharedMemPerMultiprocessor: v = clampToInt(p.sharedMemPerMultiprocessor); break;
    case hipDeviceAttributeStreamPrioritiesSupported: v = p.streamPrioritiesSupported; break;
    case hipDeviceAttributeSurfaceAlignment: v = clampToInt(p.surfaceAlignment); break;
    case hipDeviceAttributeTextureAlignment: v = clampToInt(p.textureAlignment); break;
    case hipDeviceAttributeTexturePitchAlignment: v = clampToInt(p.texturePitchAlignment); break;
    case hipDeviceAttributeTotalConstantMemory: v = clampToInt(p.totalConstMem); break;
    case hipDeviceAttributeTotalGlobalMem: v = clampToInt(p.totalGlobalMem); break;
    case hipDeviceAttributeUnifiedAddressing: v = p.unifiedAddressing; break;
    case hipDeviceAttributeWarpSize: v = p.warpSize; break;
    case hipDeviceAttributeMemoryPoolsSupported: v = p.memoryPoolsSupported; break;
    case hipDeviceAttributeVirtualMemoryManagementSupported: v = 0; break;
    case hipDeviceAttributeHostRegisterSupported: v = p.hostRegisterSupported; break;
    case hipDeviceAttributeMemoryPoolSupportedHandleTypes: v = static_cast<int>(p.memoryPoolSupportedHandleTypes); break;
    case hipDeviceAttributeClockInstructionRate: v = p.clockInstructionRate; break;
    case hipDeviceAttributeMaxSharedMemoryPerMultiprocessor: v = clampToInt(p.maxSharedMemoryPerMultiProcessor); break;
    case hipDeviceAttributeCooperativeMultiDeviceUnmatchedFunc: v = p.cooperativeMultiDeviceUnmatchedFunc; break;
    case hipDeviceAttributeCooperativeMultiDeviceUnmatchedGridDim: v = p.cooperativeMultiDeviceUnmatchedGridDim; break;
    case hipDeviceAttributeCooperativeMultiDeviceUnmatchedBlockDim: v = p.cooperativeMultiDeviceUnmatchedBlockDim; break;
    case hipDeviceAttributeCooperativeMultiDeviceUnmatchedSharedMem: v = p.cooperativeMultiDeviceUnmatchedSharedMem; break;
    case hipDeviceAttributeIsLargeBar: v = p.isLargeBar; break;
    case hipDeviceAttributeAsicRevision: v = p.asicRevision; break;
    case hipDeviceAttributeCanUseStreamWaitValue: v = 0; break;
    case hipDeviceAttributeImageSupport: v = 0; break;
    case hipDeviceAttributePhysicalMultiProcessorCount: v = p.multiProcessorCount; break;
    case hipDeviceAttributeFineGrainSupport: v = 1; break;
    case hipDeviceAttributeWallClockRate: v = kSteadyClockKhz; break;
    default: return hipErrorInvalidValue;
    }
    *value = v;
    return hipSuccess;
}

void legacyDeviceProperties(LegacyDeviceProp* out)
{
    const hipDeviceProp_t& p = deviceProperties();
    LegacyDeviceProp l;
    std::memset(&l, 0, sizeof(l));
    std::memcpy(l.name, p.name, sizeof(l.name));
    l.uuid                             = p.uuid;
    l.totalGlobalMem                   = p.totalGlobalMem;
    l.sharedMemPerBlock                = p.sharedMemPerBlock;
    l.regsPerBlock                     = p.regsPerBlock;
    l.warpSize                         = p.warpSize;
    l.memPitch                         = p.memPitch;
    l.maxThreadsPerBlock               = p.maxThreadsPerBlock;
    std::memcpy(l.maxThreadsDim, p.maxThreadsDim, sizeof(l.maxThreadsDim));
    std::memcpy(l.maxGridSize, p.maxGridSize, sizeof(l.maxGridSize));
    l.clockRate                        = p.clockRate;
    l.totalConstMem                    = p.totalConstMem;
    l.major                            = p.major;
    l.minor                            = p.minor;
    l.textureAlignment                 = p.textureAlignment;
    l.deviceOverlap                    = p.deviceOverlap;
    l.multiProcessorCount              = p.multiProcessorCount;
    l.kernelExecTimeoutEnabled         = p.kernelExecTimeoutEnabled;
    l.integrated                       = p.integrated;
    l.canMapHostMemory                 = p.canMapHostMemory;
    l.computeMode                      = p.computeMode;
    l.concurrentKernels                = p.concurrentKernels;
    l.pciDomainID                      = p.pciDomainID;
    l.pciBusID                         = p.pciBusID;
    l.pciDeviceID                      = p.pciDeviceID;
    l.memoryClockRate                  = p.memoryClockRate;
    l.memoryBusWidth                   = p.memoryBusWidth;
    l.l2CacheSize                      = p.l2CacheSize;
    l.maxThreadsPerMultiProcessor      = p.maxThreadsPerMultiProcessor;
    l.isMultiGpuBoard                  = p.isMultiGpuBoard;
    l.managedMemory                    = p.managedMemory;
    l.concurrentManagedAccess          = p.concurrentManagedAccess;
    l.pageableMemoryAccess             = p.pageableMemoryAccess;
    l.unifiedAddressing                = p.unifiedAddressing;
    l.sharedMemPerMultiprocessor       = p.sharedMemPerMultiprocessor;
    l.maxSharedMemoryPerMultiProcessor = p.maxSharedMemoryPerMultiProcessor;
    std::memcpy(l.gcnArchName, p.gcnArchName, sizeof(l.gcnArchName));
    l.isLargeBar                       = p.isLargeBar;
    l.asicRevision                     = p.asicRevision;
    *out = l;
}

} // namespace hip_host
