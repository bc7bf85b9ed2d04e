// The hipDeviceProp_t of libhip_host.so.1 before it followed HIP 6's R0600 layout: the struct that
// programs built against the earlier header pass to the plain hipGetDeviceProperties symbol,
// which stays exported for them (new builds call hipGetDevicePropertiesR0600, as with HIP 6).
#pragma once

#include <hip/hip_runtime_api.h>

#include <cstddef>

namespace hip_host {

struct LegacyDeviceProp
{
    char name[256];
    hipUUID uuid;
    std::size_t totalGlobalMem;
    std::size_t sharedMemPerBlock;
    int regsPerBlock;
    int warpSize;
    std::size_t memPitch;
    int maxThreadsPerBlock;
    int maxThreadsDim[3];
    int maxGridSize[3];
    int clockRate;
    std::size_t totalConstMem;
    int major;
    int minor;
    std::size_t textureAlignment;
    int deviceOverlap;
    int multiProcessorCount;
    int kernelExecTimeoutEnabled;
    int integrated;
    int canMapHostMemory;
    int computeMode;
    int concurrentKernels;
    int pciDomainID;
    int pciBusID;
    int pciDeviceID;
    int memoryClockRate;
    int memoryBusWidth;
    int l2CacheSize;
    int maxThreadsPerMultiProcessor;
    int isMultiGpuBoard;
    int managedMemory;
    int concurrentManagedAccess;
    int pageableMemoryAccess;
    int unifiedAddressing;
    std::size_t sharedMemPerMultiprocessor;
    std::size_t maxSharedMemoryPerMultiProcessor;
    char gcnArchName[256];
    int isLargeBar;
    int asicRevision;
};

/// The same description of device 0 in the earlier layout.
void legacyDeviceProperties(LegacyDeviceProp* out);

} // namespace hip_host
