# Binary gates on libhip_host.so.1 (cmake -DLIB=<path> -P library_gates.cmake).
cmake_minimum_required(VERSION 3.25)
execute_process(COMMAND readelf -d ${LIB} OUTPUT_VARIABLE dyn RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "readelf failed on ${LIB}")
endif()
if(NOT dyn MATCHES "Library soname: \\[libhip_host\\.so\\.1\\]")
  message(FATAL_ERROR "SONAME is not libhip_host.so.1:\n${dyn}")
endif()
if(dyn MATCHES "amdhip64|hsa-runtime|MIOpen|hipdnn")
  message(FATAL_ERROR "libhip_host needs a library it must not:\n${dyn}")
endif()
execute_process(COMMAND nm -D --defined-only ${LIB} OUTPUT_VARIABLE syms RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "nm failed on ${LIB}")
endif()
string(REPLACE "\n" ";" lines "${syms}")
set(exported "")
foreach(line IN LISTS lines)
  if(line MATCHES "^[0-9a-f]+ ([A-Za-z]) (.+)$")
    set(kind ${CMAKE_MATCH_1})
    set(name ${CMAKE_MATCH_2})
    # Section bounds the toolchain adds in a coverage-instrumented (fuzzer) build, not API.
    if(name MATCHES "^__(start|stop)___sancov_")
      continue()
    endif()
    if(NOT kind STREQUAL "T")
      message(FATAL_ERROR "exported non-function symbol: ${line}")
    endif()
    if(NOT name MATCHES "^hip[A-Z][A-Za-z0-9]*$") # digits: HIP 6's versioned names (...R0600)
      message(FATAL_ERROR "exported symbol outside the HIP C API: ${name}")
    endif()
    list(APPEND exported ${name})
  endif()
endforeach()
foreach(required hipMalloc hipFree hipMallocManaged hipHostMalloc hipHostFree hipMallocHost hipFreeHost
                 hipMemcpy hipMemcpyAsync hipMemset hipMemsetAsync hipDeviceSynchronize hipDeviceReset
                 hipGetDeviceCount hipGetDevice hipSetDevice hipGetDeviceProperties hipDeviceGetAttribute
                 hipStreamCreate hipStreamCreateWithFlags hipStreamDestroy hipStreamSynchronize hipStreamQuery
                 hipEventCreate hipEventCreateWithFlags hipEventRecord hipEventSynchronize hipEventQuery
                 hipEventDestroy hipEventElapsedTime hipGetErrorString hipGetErrorName hipGetLastError
                 hipPeekAtLastError hipRuntimeGetVersion hipDriverGetVersion hipMemGetInfo hipPointerGetAttributes
                 # HIP 6 names the device-properties query and struct ...R0600; the plain symbol stays
                 # for programs built against the earlier header.
                 hipGetDevicePropertiesR0600 hipChooseDeviceR0600
                 hipMemcpyHtoD hipMemcpyDtoH hipMemcpyDtoD hipMemcpyHtoDAsync hipMemcpyDtoHAsync hipMemcpyDtoDAsync
                 hipMemcpyWithStream hipMemcpy2D hipMemcpy2DAsync hipMemcpyPeer hipMemcpyPeerAsync
                 hipMemsetD8 hipMemsetD8Async hipMemsetD16 hipMemsetD16Async hipMemsetD32 hipMemsetD32Async
                 hipStreamCreateWithPriority hipDeviceGetStreamPriorityRange hipStreamGetFlags hipStreamGetPriority
                 hipStreamWaitEvent hipStreamAddCallback hipLaunchHostFunc
                 hipMallocAsync hipFreeAsync hipMemPtrGetInfo hipHostRegister hipHostUnregister hipHostGetDevicePointer
                 hipDeviceGetName hipDeviceGetPCIBusId hipDeviceGetByPCIBusId hipSetDeviceFlags hipGetDeviceFlags
                 hipDeviceGetLimit hipDeviceComputeCapability hipDeviceTotalMem)
  if(NOT required IN_LIST exported)
    message(FATAL_ERROR "${required} is not exported")
  endif()
endforeach()
list(LENGTH exported n)
message(STATUS "libhip_host.so.1 exports ${n} hip* functions")
