// The device queries (name, PCI bus id, flags, limits, compute capability, total memory), the
// audit of hipDeviceProp_t / hipDeviceAttribute_t against HIP 6, every status's name and text,
// the last-error rules, and the earlier hipGetDeviceProperties symbol.
#include "HipHostTest.hpp"

#include "LegacyDeviceProp.hpp"

#include <dlfcn.h>

#include <algorithm>
#include <climits>
#include <cstring>
#include <iterator>
#include <utility>
#include <set>
#include <string>
#include <thread>
#include <vector>

namespace {

TEST_F(HipHost, DeviceNameIsThePropertiesName)
{
    hipDeviceProp_t p;
    ASSERT_HIP_OK(hipGetDeviceProperties(&p, 0));
    char name[256];
    ASSERT_HIP_OK(hipDeviceGetName(name, sizeof name, 0));
    EXPECT_STREQ(p.name, name);
    // Truncated to len - 1 characters.
    char shortName[4] = {'x', 'x', 'x', 'x'};
    ASSERT_HIP_OK(hipDeviceGetName(shortName, 4, 0));
    EXPECT_EQ(std::string(p.name).substr(0, 3), std::string(shortName));
    char one[1] = {'x'};
    ASSERT_HIP_OK(hipDeviceGetName(one, 1, 0));
    EXPECT_EQ('\0', one[0]);
    EXPECT_TRUE(fails(hipDeviceGetName(name, 0, 0), hipErrorInvalidValue));
    EXPECT_TRUE(fails(hipDeviceGetName(nullptr, 16, 0), hipErrorInvalidValue));
    EXPECT_TRUE(fails(hipDeviceGetName(name, sizeof name, 1), hipErrorInvalidDevice));
}

TEST_F(HipHost, PciBusIdRoundTrips)
{
    char id[32];
    ASSERT_HIP_OK(hipDeviceGetPCIBusId(id, sizeof id, 0));
    EXPECT_STREQ("0000:00:00.0", id);
    hipDeviceProp_t p;
    ASSERT_HIP_OK(hipGetDeviceProperties(&p, 0));
    int v = -1;
    ASSERT_HIP_OK(hipDeviceGetAttribute(&v, hipDeviceAttributePciBusId, 0));
    EXPECT_EQ(p.pciBusID, v);
    int dev = -1;
    ASSERT_HIP_OK(hipDeviceGetByPCIBusId(&dev, id));
    EXPECT_EQ(0, dev);
    ASSERT_HIP_OK(hipDeviceGetByPCIBusId(&dev, "0:0:0.0")); // the numbers, not the spelling
    // 13 bytes are needed; fewer: written truncated, hipErrorInvalidValue (as HIP).
    char exact[13];
    ASSERT_HIP_OK(hipDeviceGetPCIBusId(exact, sizeof exact, 0));
    char small[8];
    EXPECT_TRUE(fails(hipDeviceGetPCIBusId(small, sizeof small, 0), hipErrorInvalidValue));
    EXPECT_STREQ("0000:00", small);
    EXPECT_TRUE(fails(hipDeviceGetPCIBusId(nullptr, 16, 0), hipErrorInvalidValue));
    EXPECT_TRUE(fails(hipDeviceGetPCIBusId(id, sizeof id, 1), hipErrorInvalidDevice));
    EXPECT_TRUE(fails(hipDeviceGetByPCIBusId(&dev, "0000:01:00.0"), hipErrorInvalidValue)); // no such device
    EXPECT_TRUE(fails(hipDeviceGetByPCIBusId(&dev, "not a bus id"), hipErrorInvalidValue));
    EXPECT_TRUE(fails(hipDeviceGetByPCIBusId(nullptr, id), hipErrorInvalidValue));
    EXPECT_TRUE(fails(hipDeviceGetByPCIBusId(&dev, nullptr), hipErrorInvalidValue));
}

TEST_F(HipHost, DeviceFlags)
{
    unsigned flags = 42;
    ASSERT_HIP_OK(hipGetDeviceFlags(&flags));
    EXPECT_EQ(static_cast<unsigned>(hipDeviceScheduleAuto), flags);
    ASSERT_HIP_OK(hipSetDeviceFlags(hipDeviceScheduleBlockingSync | hipDeviceMapHost));
    ASSERT_HIP_OK(hipGetDeviceFlags(&flags));
    EXPECT_EQ(static_cast<unsigned>(hipDeviceScheduleBlockingSync | hipDeviceMapHost), flags);
    ASSERT_HIP_OK(hipSetDeviceFlags(hipDeviceScheduleSpin | hipDeviceLmemResizeToMax));
    ASSERT_HIP_OK(hipGetDeviceFlags(&flags));
    EXPECT_EQ(static_cast<unsigned>(hipDeviceScheduleSpin | hipDeviceLmemResizeToMax), flags);
    // Two scheduling flags, unknown bits, null.
    EXPECT_TRUE(fails(hipSetDeviceFlags(hipDeviceScheduleSpin | hipDeviceScheduleYield), hipErrorInvalidValue));
    EXPECT_TRUE(fails(hipSetDeviceFlags(0x100), hipErrorInvalidValue));
    EXPECT_TRUE(fails(hipGetDeviceFlags(nullptr), hipErrorInvalidValue));
    ASSERT_HIP_OK(hipGetDeviceFlags(&flags));
    EXPECT_EQ(static_cast<unsigned>(hipDeviceScheduleSpin | hipDeviceLmemResizeToMax), flags) << "unchanged by failures";
    ASSERT_HIP_OK(hipSetDeviceFlags(hipDeviceScheduleAuto));
}

TEST_F(HipHost, DeviceLimits)
{
    std::size_t v = 0;
    ASSERT_HIP_OK(hipDeviceGetLimit(&v, hipLimitStackSize));
    EXPECT_GT(v, 0u);
    ASSERT_HIP_OK(hipDeviceGetLimit(&v, hipLimitMallocHeapSize));
    EXPECT_EQ(0u, v);
    ASSERT_HIP_OK(hipDeviceSetLimit(hipLimitMallocHeapSize, 1 << 20));
    ASSERT_HIP_OK(hipDeviceGetLimit(&v, hipLimitMallocHeapSize));
    EXPECT_EQ(std::size_t{1} << 20, v);
    ASSERT_HIP_OK(hipDeviceSetLimit(hipLimitStackSize, 4096));
    ASSERT_HIP_OK(hipDeviceGetLimit(&v, hipLimitStackSize));
    EXPECT_EQ(4096u, v);
    // Unsupported and unknown limits, null.
    EXPECT_TRUE(fails(hipDeviceGetLimit(&v, hipLimitPrintfFifoSize), hipErrorUnsupportedLimit));
    EXPECT_TRUE(fails(hipDeviceSetLimit(hipLimitPrintfFifoSize, 1), hipErrorUnsupportedLimit));
    EXPECT_TRUE(fails(hipDeviceGetLimit(&v, hipLimitRange), hipErrorInvalidValue));
    EXPECT_TRUE(fails(hipDeviceSetLimit(hipLimitRange, 1), hipErrorInvalidValue));
    EXPECT_TRUE(fails(hipDeviceGetLimit(nullptr, hipLimitStackSize), hipErrorInvalidValue));
    // hipDeviceReset restores the defaults.
    ASSERT_HIP_OK(hipDeviceReset());
    ASSERT_HIP_OK(hipDeviceGetLimit(&v, hipLimitMallocHeapSize));
    EXPECT_EQ(0u, v);
}

TEST_F(HipHost, ComputeCapabilityTotalMemAndDeviceHandles)
{
    hipDeviceProp_t p;
    ASSERT_HIP_OK(hipGetDeviceProperties(&p, 0));
    int major = -1, minor = -1;
    ASSERT_HIP_OK(hipDeviceComputeCapability(&major, &minor, 0));
    EXPECT_EQ(p.major, major);
    EXPECT_EQ(p.minor, minor);
    std::size_t total = 0;
    ASSERT_HIP_OK(hipDeviceTotalMem(&total, 0));
    EXPECT_EQ(p.totalGlobalMem, total);
    hipDevice_t dev = -1;
    ASSERT_HIP_OK(hipDeviceGet(&dev, 0));
    EXPECT_EQ(0, dev);
    EXPECT_HIP_OK(hipInit(0));
    int chosen = -1;
    ASSERT_HIP_OK(hipChooseDevice(&chosen, &p));
    EXPECT_EQ(0, chosen);
    int can = -1;
    ASSERT_HIP_OK(hipDeviceCanAccessPeer(&can, 0, 0));
    EXPECT_EQ(0, can) << "a device is not a peer of itself";

    EXPECT_TRUE(fails(hipDeviceComputeCapability(&major, &minor, 1), hipErrorInvalidDevice));
    EXPECT_TRUE(fails(hipDeviceComputeCapability(nullptr, &minor, 0), hipErrorInvalidValue));
    EXPECT_TRUE(fails(hipDeviceComputeCapability(&major, nullptr, 0), hipErrorInvalidValue));
    EXPECT_TRUE(fails(hipDeviceTotalMem(&total, -1), hipErrorInvalidDevice));
    EXPECT_TRUE(fails(hipDeviceTotalMem(nullptr, 0), hipErrorInvalidValue));
    EXPECT_TRUE(fails(hipDeviceGet(&dev, 1), hipErrorInvalidDevice));
    EXPECT_TRUE(fails(hipDeviceGet(nullptr, 0), hipErrorInvalidValue));
    EXPECT_TRUE(fails(hipInit(1), hipErrorInvalidValue));
    EXPECT_TRUE(fails(hipChooseDevice(nullptr, &p), hipErrorInvalidValue));
    EXPECT_TRUE(fails(hipChooseDevice(&chosen, nullptr), hipErrorInvalidValue));
    EXPECT_TRUE(fails(hipDeviceCanAccessPeer(&can, 0, 1), hipErrorInvalidDevice));
    EXPECT_TRUE(fails(hipDeviceCanAccessPeer(nullptr, 0, 0), hipErrorInvalidValue));
}

TEST_F(HipHost, PropertiesAreHip6sStructDescribingTheCpu)
{
    hipDeviceProp_t p;
    std::memset(&p, 0xab, sizeof p);
    ASSERT_HIP_OK(hipGetDeviceProperties(&p, 0));
    // Every byte written: the padding and reserved words too (no 0xab pattern left in them).
    for(int r : p.reserved)
        EXPECT_EQ(0, r);
    for(int r : p.hipReserved)
        EXPECT_EQ(0, r);
    EXPECT_EQ(0, std::strncmp(p.gcnArchName, "cpu-", 4));
    EXPECT_EQ(std::max(1u, std::thread::hardware_concurrency()), static_cast<unsigned>(p.multiProcessorCount));
    EXPECT_EQ(0, p.major);
    EXPECT_EQ(0, p.minor);
    EXPECT_EQ(1, p.warpSize);
    EXPECT_EQ(1, p.maxThreadsPerBlock);
    EXPECT_EQ(1, p.integrated);
    EXPECT_EQ(1, p.unifiedAddressing);
    EXPECT_EQ(1, p.managedMemory);
    EXPECT_EQ(1, p.canMapHostMemory);
    EXPECT_EQ(1, p.hostRegisterSupported);
    EXPECT_EQ(1, p.canUseHostPointerForRegisteredMem);
    EXPECT_EQ(1, p.streamPrioritiesSupported);
    EXPECT_EQ(0, p.memoryPoolsSupported);
    EXPECT_EQ(0, p.concurrentKernels);
    EXPECT_EQ(0, p.asyncEngineCount);
    EXPECT_EQ(0, p.cooperativeLaunch);
    EXPECT_EQ(nullptr, p.hdpMemFlushCntl);
    EXPECT_EQ(0u, p.arch.hasDoubles) << "no device code";
    EXPECT_EQ(0, p.luid[0]);
    EXPECT_GT(p.totalGlobalMem, std::size_t{1} << 20);
}

TEST_F(HipHost, EveryAttributeHipAnswersAgreesWithTheProperties)
{
    hipDeviceProp_t p;
    ASSERT_HIP_OK(hipGetDeviceProperties(&p, 0));
    struct Expect
    {
        hipDeviceAttribute_t attr;
        long long value;
    };
    const Expect expected[] = {
        {hipDeviceAttributeEccEnabled, p.ECCEnabled},
        {hipDeviceAttributeAccessPolicyMaxWindowSize, p.accessPolicyMaxWindowSize},
        {hipDeviceAttributeAsyncEngineCount, p.asyncEngineCount},
        {hipDeviceAttributeCanMapHostMemory, p.canMapHostMemory},
        {hipDeviceAttributeCanUseHostPointerForRegisteredMem, p.canUseHostPointerForRegisteredMem},
        {hipDeviceAttributeClockRate, p.clockRate},
        {hipDeviceAttributeComputeMode, p.computeMode},
        {hipDeviceAttributeComputePreemptionSupported, p.computePreemptionSupported},
        {hipDeviceAttributeConcurrentKernels, p.concurrentKernels},
        {hipDeviceAttributeConcurrentManagedAccess, p.concurrentManagedAccess},
        {hipDeviceAttributeCooperativeLaunch, p.cooperativeLaunch},
        {hipDeviceAttributeCooperativeMultiDeviceLaunch, p.cooperativeMultiDeviceLaunch},
        {hipDeviceAttributeDeviceOverlap, p.asyncEngineCount > 0 ? 1 : 0},
        {hipDeviceAttributeDirectManagedMemAccessFromHost, p.directManagedMemAccessFromHost},
        {hipDeviceAttributeGlobalL1CacheSupported, p.globalL1CacheSupported},
        {hipDeviceAttributeHostNativeAtomicSupported, p.hostNativeAtomicSupported},
        {hipDeviceAttributeIntegrated, p.integrated},
        {hipDeviceAttributeIsMultiGpuBoard, p.isMultiGpuBoard},
        {hipDeviceAttributeKernelExecTimeout, p.kernelExecTimeoutEnabled},
        {hipDeviceAttributeL2CacheSize, p.l2CacheSize},
        {hipDeviceAttributeLocalL1CacheSupported, p.localL1CacheSupported},
        {hipDeviceAttributeLuidDeviceNodeMask, p.luidDeviceNodeMask},
        {hipDeviceAttributeComputeCapabilityMajor, p.major},
        {hipDeviceAttributeManagedMemory, p.managedMemory},
        {hipDeviceAttributeMaxBlocksPerMultiProcessor, p.maxBlocksPerMultiProcessor},
        {hipDeviceAttributeMaxBlockDimX, p.maxThreadsDim[0]},
        {hipDeviceAttributeMaxBlockDimY, p.maxThreadsDim[1]},
        {hipDeviceAttributeMaxBlockDimZ, p.maxThreadsDim[2]},
        {hipDeviceAttributeMaxGridDimX, p.maxGridSize[0]},
        {hipDeviceAttributeMaxGridDimY, p.maxGridSize[1]},
        {hipDeviceAttributeMaxGridDimZ, p.maxGridSize[2]},
        {hipDeviceAttributeMaxSurface1D, p.maxSurface1D},
        {hipDeviceAttributeMaxTexture1DWidth, p.maxTexture1D},
        {hipDeviceAttributeMaxTexture1DLinear, p.maxTexture1DLinear},
        {hipDeviceAttributeMaxTexture1DMipmap, p.maxTexture1DMipmap},
        {hipDeviceAttributeMaxTexture2DWidth, p.maxTexture2D[0]},
        {hipDeviceAttributeMaxTexture2DHeight, p.maxTexture2D[1]},
        {hipDeviceAttributeMaxTexture3DWidth, p.maxTexture3D[0]},
        {hipDeviceAttributeMaxTexture3DHeight, p.maxTexture3D[1]},
        {hipDeviceAttributeMaxTexture3DDepth, p.maxTexture3D[2]},
        {hipDeviceAttributeMaxTextureCubemap, p.maxTextureCubemap},
        {hipDeviceAttributeMaxThreadsPerBlock, p.maxThreadsPerBlock},
        {hipDeviceAttributeMaxThreadsPerMultiProcessor, p.maxThreadsPerMultiProcessor},
        {hipDeviceAttributeMaxPitch, std::min<long long>(static_cast<long long>(p.memPitch), INT_MAX)},
        {hipDeviceAttributeMemoryBusWidth, p.memoryBusWidth},
        {hipDeviceAttributeMemoryClockRate, p.memoryClockRate},
        {hipDeviceAttributeComputeCapabilityMinor, p.minor},
        {hipDeviceAttributeMultiGpuBoardGroupID, p.multiGpuBoardGroupID},
        {hipDeviceAttributeMultiprocessorCount, p.multiProcessorCount},
        {hipDeviceAttributePageableMemoryAccess, p.pageableMemoryAccess},
        {hipDeviceAttributePageableMemoryAccessUsesHostPageTables, p.pageableMemoryAccessUsesHostPageTables},
        {hipDeviceAttributePciBusId, p.pciBusID},
        {hipDeviceAttributePciDeviceId, p.pciDeviceID},
        {hipDeviceAttributePciDomainID, p.pciDomainID},
        {hipDeviceAttributePersistingL2CacheMaxSize, p.persistingL2CacheMaxSize},
        {hipDeviceAttributeMaxRegistersPerBlock, p.regsPerBlock},
        {hipDeviceAttributeMaxRegistersPerMultiprocessor, p.regsPerMultiprocessor},
        {hipDeviceAttributeReservedSharedMemPerBlock, static_cast<long long>(p.reservedSharedMemPerBlock)},
        {hipDeviceAttributeMaxSharedMemoryPerBlock, static_cast<long long>(p.sharedMemPerBlock)},
        {hipDeviceAttributeSharedMemPerBlockOptin, static_cast<long long>(p.sharedMemPerBlockOptin)},
        {hipDeviceAttributeSharedMemPerMultiprocessor, static_cast<long long>(p.sharedMemPerMultiprocessor)},
        {hipDeviceAttributeStreamPrioritiesSupported, p.streamPrioritiesSupported},
        {hipDeviceAttributeSurfaceAlignment, static_cast<long long>(p.surfaceAlignment)},
        {hipDeviceAttributeTextureAlignment, static_cast<long long>(p.textureAlignment)},
        {hipDeviceAttributeTexturePitchAlignment, static_cast<long long>(p.texturePitchAlignment)},
        {hipDeviceAttributeTotalConstantMemory, static_cast<long long>(p.totalConstMem)},
        {hipDeviceAttributeTotalGlobalMem, std::min<long long>(static_cast<long long>(p.totalGlobalMem), INT_MAX)},
        {hipDeviceAttributeUnifiedAddressing, p.unifiedAddressing},
        {hipDeviceAttributeWarpSize, p.warpSize},
        {hipDeviceAttributeMemoryPoolsSupported, p.memoryPoolsSupported},
        {hipDeviceAttributeVirtualMemoryManagementSupported, 0},
        {hipDeviceAttributeHostRegisterSupported, p.hostRegisterSupported},
        {hipDeviceAttributeMemoryPoolSupportedHandleTypes, p.memoryPoolSupportedHandleTypes},
        {hipDeviceAttributeClockInstructionRate, p.clockInstructionRate},
        {hipDeviceAttributeMaxSharedMemoryPerMultiprocessor, static_cast<long long>(p.maxSharedMemoryPerMultiProcessor)},
        {hipDeviceAttributeCooperativeMultiDeviceUnmatchedFunc, p.cooperativeMultiDeviceUnmatchedFunc},
        {hipDeviceAttributeCooperativeMultiDeviceUnmatchedGridDim, p.cooperativeMultiDeviceUnmatchedGridDim},
        {hipDeviceAttributeCooperativeMultiDeviceUnmatchedBlockDim, p.cooperativeMultiDeviceUnmatchedBlockDim},
        {hipDeviceAttributeCooperativeMultiDeviceUnmatchedSharedMem, p.cooperativeMultiDeviceUnmatchedSharedMem},
        {hipDeviceAttributeIsLargeBar, p.isLargeBar},
        {hipDeviceAttributeAsicRevision, p.asicRevision},
        {hipDeviceAttributeCanUseStreamWaitValue, 0},
        {hipDeviceAttributeImageSupport, 0},
        {hipDeviceAttributePhysicalMultiProcessorCount, p.multiProcessorCount},
        {hipDeviceAttributeFineGrainSupport, 1},
    };
    std::set<int> answered;
    for(const auto& e : expected)
    {
        int v = -12345;
        ASSERT_HIP_OK(hipDeviceGetAttribute(&v, e.attr, 0)) << static_cast<int>(e.attr);
        EXPECT_EQ(e.value, v) << static_cast<int>(e.attr);
        answered.insert(static_cast<int>(e.attr));
    }
    int wallClock = 0;
    ASSERT_HIP_OK(hipDeviceGetAttribute(&wallClock, hipDeviceAttributeWallClockRate, 0));
    EXPECT_GT(wallClock, 0); // kHz of the clock events read
    answered.insert(hipDeviceAttributeWallClockRate);
    // The rest of HIP's values are not described (as HIP's runtime: invalid value), and reading
    // them leaves the output alone.
    for(int a = 0; a <= hipDeviceAttributeMemoryPoolSupportedHandleTypes + 2; ++a)
    {
        if(answered.count(a) != 0)
            continue;
        int v = 7;
        EXPECT_TRUE(fails(hipDeviceGetAttribute(&v, static_cast<hipDeviceAttribute_t>(a), 0), hipErrorInvalidValue)) << a;
        EXPECT_EQ(7, v);
    }
    for(int a = hipDeviceAttributeAmdSpecificBegin; a <= hipDeviceAttributeWallClockRate + 1; ++a)
    {
        if(answered.count(a) != 0)
            continue;
        int v = 7;
        EXPECT_TRUE(fails(hipDeviceGetAttribute(&v, static_cast<hipDeviceAttribute_t>(a), 0), hipErrorInvalidValue)) << a;
    }
    // The earlier spelling of PciDomainID.
    EXPECT_EQ(69, hipDeviceAttributePciDomainId);
}

TEST_F(HipHost, EveryStatusHasHipsNameAndAText)
{
    const std::pair<hipError_t, const char*> all[] = {
        {hipSuccess, "hipSuccess"}, {hipErrorInvalidValue, "hipErrorInvalidValue"},
        {hipErrorOutOfMemory, "hipErrorOutOfMemory"}, {hipErrorNotInitialized, "hipErrorNotInitialized"},
        {hipErrorDeinitialized, "hipErrorDeinitialized"}, {hipErrorProfilerDisabled, "hipErrorProfilerDisabled"},
        {hipErrorProfilerNotInitialized, "hipErrorProfilerNotInitialized"},
        {hipErrorProfilerAlreadyStarted, "hipErrorProfilerAlreadyStarted"},
        {hipErrorProfilerAlreadyStopped, "hipErrorProfilerAlreadyStopped"},
        {hipErrorInvalidConfiguration, "hipErrorInvalidConfiguration"},
        {hipErrorInvalidPitchValue, "hipErrorInvalidPitchValue"}, {hipErrorInvalidSymbol, "hipErrorInvalidSymbol"},
        {hipErrorInvalidDevicePointer, "hipErrorInvalidDevicePointer"},
        {hipErrorInvalidMemcpyDirection, "hipErrorInvalidMemcpyDirection"},
        {hipErrorInsufficientDriver, "hipErrorInsufficientDriver"},
        {hipErrorMissingConfiguration, "hipErrorMissingConfiguration"},
        {hipErrorPriorLaunchFailure, "hipErrorPriorLaunchFailure"},
        {hipErrorInvalidDeviceFunction, "hipErrorInvalidDeviceFunction"}, {hipErrorNoDevice, "hipErrorNoDevice"},
        {hipErrorInvalidDevice, "hipErrorInvalidDevice"}, {hipErrorInvalidImage, "hipErrorInvalidImage"},
        {hipErrorInvalidContext, "hipErrorInvalidContext"},
        {hipErrorContextAlreadyCurrent, "hipErrorContextAlreadyCurrent"}, {hipErrorMapFailed, "hipErrorMapFailed"},
        {hipErrorUnmapFailed, "hipErrorUnmapFailed"}, {hipErrorArrayIsMapped, "hipErrorArrayIsMapped"},
        {hipErrorAlreadyMapped, "hipErrorAlreadyMapped"}, {hipErrorNoBinaryForGpu, "hipErrorNoBinaryForGpu"},
        {hipErrorAlreadyAcquired, "hipErrorAlreadyAcquired"}, {hipErrorNotMapped, "hipErrorNotMapped"},
        {hipErrorNotMappedAsArray, "hipErrorNotMappedAsArray"},
        {hipErrorNotMappedAsPointer, "hipErrorNotMappedAsPointer"},
        {hipErrorECCNotCorrectable, "hipErrorECCNotCorrectable"},
        {hipErrorUnsupportedLimit, "hipErrorUnsupportedLimit"},
        {hipErrorContextAlreadyInUse, "hipErrorContextAlreadyInUse"},
        {hipErrorPeerAccessUnsupported, "hipErrorPeerAccessUnsupported"},
        {hipErrorInvalidKernelFile, "hipErrorInvalidKernelFile"},
        {hipErrorInvalidGraphicsContext, "hipErrorInvalidGraphicsContext"},
        {hipErrorInvalidSource, "hipErrorInvalidSource"}, {hipErrorFileNotFound, "hipErrorFileNotFound"},
        {hipErrorSharedObjectSymbolNotFound, "hipErrorSharedObjectSymbolNotFound"},
        {hipErrorSharedObjectInitFailed, "hipErrorSharedObjectInitFailed"},
        {hipErrorOperatingSystem, "hipErrorOperatingSystem"}, {hipErrorInvalidHandle, "hipErrorInvalidHandle"},
        {hipErrorIllegalState, "hipErrorIllegalState"}, {hipErrorNotFound, "hipErrorNotFound"},
        {hipErrorNotReady, "hipErrorNotReady"}, {hipErrorIllegalAddress, "hipErrorIllegalAddress"},
        {hipErrorLaunchOutOfResources, "hipErrorLaunchOutOfResources"},
        {hipErrorLaunchTimeOut, "hipErrorLaunchTimeOut"},
        {hipErrorPeerAccessAlreadyEnabled, "hipErrorPeerAccessAlreadyEnabled"},
        {hipErrorPeerAccessNotEnabled, "hipErrorPeerAccessNotEnabled"},
        {hipErrorSetOnActiveProcess, "hipErrorSetOnActiveProcess"},
        {hipErrorContextIsDestroyed, "hipErrorContextIsDestroyed"}, {hipErrorAssert, "hipErrorAssert"},
        {hipErrorHostMemoryAlreadyRegistered, "hipErrorHostMemoryAlreadyRegistered"},
        {hipErrorHostMemoryNotRegistered, "hipErrorHostMemoryNotRegistered"},
        {hipErrorLaunchFailure, "hipErrorLaunchFailure"},
        {hipErrorCooperativeLaunchTooLarge, "hipErrorCooperativeLaunchTooLarge"},
        {hipErrorNotSupported, "hipErrorNotSupported"},
        {hipErrorStreamCaptureUnsupported, "hipErrorStreamCaptureUnsupported"},
        {hipErrorStreamCaptureInvalidated, "hipErrorStreamCaptureInvalidated"},
        {hipErrorStreamCaptureMerge, "hipErrorStreamCaptureMerge"},
        {hipErrorStreamCaptureUnmatched, "hipErrorStreamCaptureUnmatched"},
        {hipErrorStreamCaptureUnjoined, "hipErrorStreamCaptureUnjoined"},
        {hipErrorStreamCaptureIsolation, "hipErrorStreamCaptureIsolation"},
        {hipErrorStreamCaptureImplicit, "hipErrorStreamCaptureImplicit"},
        {hipErrorCapturedEvent, "hipErrorCapturedEvent"},
        {hipErrorStreamCaptureWrongThread, "hipErrorStreamCaptureWrongThread"},
        {hipErrorGraphExecUpdateFailure, "hipErrorGraphExecUpdateFailure"},
        {hipErrorInvalidChannelDescriptor, "hipErrorInvalidChannelDescriptor"},
        {hipErrorInvalidTexture, "hipErrorInvalidTexture"}, {hipErrorUnknown, "hipErrorUnknown"},
        {hipErrorRuntimeMemory, "hipErrorRuntimeMemory"}, {hipErrorRuntimeOther, "hipErrorRuntimeOther"},
        {hipErrorTbd, "hipErrorTbd"},
    };
    std::set<std::string> texts;
    for(const auto& [value, name] : all)
    {
        EXPECT_STREQ(name, hipGetErrorName(value)) << static_cast<int>(value);
        const std::string text = hipGetErrorString(value);
        EXPECT_FALSE(text.empty()) << name;
        if(value != hipErrorUnknown)
        {
            EXPECT_NE("unknown error", text) << name;
        }
        texts.insert(text);
    }
    EXPECT_GE(texts.size(), std::size(all) - 2) << "texts tell the statuses apart"; // two shared: the image ones
    // The aliases name their primary value.
    EXPECT_STREQ("hipErrorMapFailed", hipGetErrorName(hipErrorMapBufferObjectFailed));
    EXPECT_STREQ("hipErrorNotInitialized", hipGetErrorName(hipErrorInitializationError));
    EXPECT_STREQ("hipErrorInvalidHandle", hipGetErrorName(hipErrorInvalidResourceHandle));
    EXPECT_EQ(713, hipErrorHostMemoryNotRegistered);
    EXPECT_EQ(215, hipErrorUnsupportedLimit);
    EXPECT_EQ(912, hipErrorInvalidTexture);
}

TEST_F(HipHost, LastErrorIsTheLastFailureUntilRead)
{
    // hipGetLastError returns and resets; hipPeekAtLastError returns; successes leave it.
    int n = 0;
    EXPECT_TRUE(fails(hipSetDevice(1), hipErrorInvalidDevice)); // (fails() reads and resets it)
    EXPECT_EQ(hipSuccess, hipPeekAtLastError());
    EXPECT_EQ(hipErrorInvalidValue, hipMemsetD8(nullptr, 0, 1));
    EXPECT_EQ(hipErrorInvalidHandle, hipStreamQuery(reinterpret_cast<hipStream_t>(&n)));
    EXPECT_HIP_OK(hipGetDeviceCount(&n));
    EXPECT_EQ(hipErrorInvalidHandle, hipPeekAtLastError()) << "the latest failure, a success does not clear it";
    EXPECT_EQ(hipErrorInvalidHandle, hipPeekAtLastError());
    EXPECT_EQ(hipErrorInvalidHandle, hipGetLastError());
    EXPECT_EQ(hipSuccess, hipGetLastError());
    EXPECT_EQ(hipSuccess, hipPeekAtLastError());
    // Failures inside a host callback are the calling thread's (the callback runs on it).
    int* d = nullptr;
    ASSERT_HIP_OK(hipMalloc(&d, 4));
    ASSERT_HIP_OK(hipLaunchHostFunc(nullptr, [](void*) { (void)hipSetDevice(9); }, nullptr));
    EXPECT_EQ(hipErrorInvalidDevice, hipGetLastError());
    EXPECT_HIP_OK(hipFree(d));
}

TEST_F(HipHost, TheEarlierDevicePropertiesSymbolFillsTheEarlierStruct)
{
    // A program built against the earlier header calls the plain symbol with the shorter struct.
    using Legacy = hipError_t (*)(hip_host::LegacyDeviceProp*, int);
    const auto legacy = reinterpret_cast<Legacy>(dlsym(RTLD_DEFAULT, "hipGetDeviceProperties"));
    ASSERT_NE(nullptr, legacy);
    EXPECT_NE(reinterpret_cast<void*>(legacy), dlsym(RTLD_DEFAULT, "hipGetDevicePropertiesR0600"));
    struct
    {
        hip_host::LegacyDeviceProp prop;
        unsigned char guard[64];
    } buffer;
    std::memset(&buffer, 0x5a, sizeof buffer);
    ASSERT_HIP_OK(legacy(&buffer.prop, 0));
    for(unsigned char g : buffer.guard)
        ASSERT_EQ(0x5a, g) << "nothing written past the earlier struct";
    hipDeviceProp_t p;
    ASSERT_HIP_OK(hipGetDeviceProperties(&p, 0));
    EXPECT_STREQ(p.name, buffer.prop.name);
    EXPECT_STREQ(p.gcnArchName, buffer.prop.gcnArchName);
    EXPECT_EQ(p.totalGlobalMem, buffer.prop.totalGlobalMem);
    EXPECT_EQ(p.multiProcessorCount, buffer.prop.multiProcessorCount);
    EXPECT_EQ(p.l2CacheSize, buffer.prop.l2CacheSize);
    EXPECT_EQ(p.isLargeBar, buffer.prop.isLargeBar);
    EXPECT_TRUE(fails(legacy(nullptr, 0), hipErrorInvalidValue));
    EXPECT_TRUE(fails(legacy(&buffer.prop, 1), hipErrorInvalidDevice));
}

} // namespace
