# MIOpen client programs written as the public MIOpen examples are (<hip/hip_runtime.h>,
# <miopen/miopen.h>, hipMalloc'd buffers, Find or immediate mode, results checked on the CPU),
# built against the host HIP runtime (projects/hip-host) with no change to their sources: only
# include directories and libraries are added. Each runs with forwarding disabled and enabled; the
# enabled run requires its convolution calls to have been forwarded to hipDNN (run_program.cmake).
# Included from projects/miopen/test/CMakeLists.txt after api.cmake (_fwd_env, _fwd_deps).
set(_hip_dir ${CMAKE_CURRENT_SOURCE_DIR}/hip_programs)
foreach(_case "conv_forward_find|miopenConvolutionForward"
              "conv_backward_find|miopenConvolutionBackwardData,miopenConvolutionBackwardWeights"
              "conv_immediate|miopenConvolutionForwardImmediate")
  string(REPLACE "|" ";" _parts "${_case}")
  list(GET _parts 0 _program)
  list(GET _parts 1 _entries)
  set(_exe miopen_example_${_program})
  add_executable(${_exe} ${_hip_dir}/${_program}.cpp)
  target_link_libraries(${_exe} PRIVATE MIOpen hip_host::hip_host)
  project_set_warnings(${_exe})
  add_dependencies(${_exe} ${_fwd_deps})
  foreach(_mode disabled enabled)
    set(_name ${_exe})
    set(_env "MIOPEN_HIPDNN_COUNTERS_FILE=${CMAKE_CURRENT_BINARY_DIR}/hip_programs/${_program}.${_mode}.counters")
    if(_mode STREQUAL "enabled")
      set(_name ${_exe}.hipdnn_forwarding)
      list(APPEND _env ${_fwd_env})
    endif()
    add_test(NAME ${_name}
      COMMAND ${CMAKE_COMMAND} -DEXE=$<TARGET_FILE:${_exe}> -DEXPECT=${_entries} -P ${_hip_dir}/run_program.cmake)
    set_tests_properties(${_name} PROPERTIES ENVIRONMENT "${_env}")
  endforeach()
endforeach()
file(MAKE_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR}/hip_programs)

# <hip/hip_runtime_api.h> and <miopen/miopen.h> in either order, as C11 and as C++17: one
# hipStream_t (built as part of the build: a gate).
foreach(_order hip_first miopen_first)
  add_library(miopen_hip_header_order_${_order} OBJECT ${_hip_dir}/header_order_${_order}.c
                                                       ${_hip_dir}/header_order_${_order}.cpp)
  target_include_directories(miopen_hip_header_order_${_order} PRIVATE
    $<TARGET_PROPERTY:hip_host::hip_host,INTERFACE_INCLUDE_DIRECTORIES> ${MIOPEN_STAGED_INCLUDE})
  set_target_properties(miopen_hip_header_order_${_order} PROPERTIES C_STANDARD 11 C_STANDARD_REQUIRED ON C_EXTENSIONS OFF)
  project_set_warnings(miopen_hip_header_order_${_order})
endforeach()

# PyTorch's call sequences (miopen-facts §3.1) through the public API and hip_host; registered for
# the forwarding runs in api.cmake (miopen_register_forwarding_run).
miopen_add_test(miopen_pytorch_sequence_test
  SOURCES api/pytorch_sequence_test.cpp common/forwarding_route.cpp
  LIBS MIOpen hip_host::hip_host hipdnn_test_sdk)
target_include_directories(miopen_pytorch_sequence_test PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/common)

# The installed tree: find_package(hip_host) and find_package(miopen), an example program built
# and run against the prefix.
add_test(NAME miopen_hip_host_install_consumer
  COMMAND ${CMAKE_COMMAND} -DBUILD=${PROJECT_BINARY_DIR} -DSRC=${_hip_dir}/install_consumer
          -DWORK=${CMAKE_CURRENT_BINARY_DIR}/hip_host_install_consumer -DPROGRAM=${_hip_dir}/conv_forward_find.cpp
          -P ${_hip_dir}/install_consumer/run.cmake)
