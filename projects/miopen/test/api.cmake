# Public-API tests: they link the exported libMIOpen.so only and use <miopen/miopen.h>.
miopen_add_test(miopen_api_test
  SOURCES
    api/handle_api_test.cpp
    api/tensor_api_test.cpp
    api/conv_api_test.cpp
    api/conv_descriptor_test.cpp
    api/bad_input_test.cpp
    api/abi_layout_test.cpp
  LIBS MIOpen)
target_include_directories(miopen_api_test PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/common)

# Internal unit tests of the base library and the convolution operations.
miopen_add_test(miopen_base_test
  SOURCES unit/base_test.cpp unit/conv_operations_test.cpp
  LIBS MIOpen_internal)

# The public header compiles as C11 and as C++17 (built as part of the build: a gate).
add_library(miopen_header_c11 OBJECT api/header_c11.c)
target_include_directories(miopen_header_c11 PRIVATE ${MIOPEN_STAGED_INCLUDE})
set_target_properties(miopen_header_c11 PROPERTIES C_STANDARD 11 C_STANDARD_REQUIRED ON C_EXTENSIONS OFF)
target_compile_options(miopen_header_c11 PRIVATE -Wall -Wextra -Werror)
add_library(miopen_header_cxx17 OBJECT api/header_cxx17.cpp)
target_include_directories(miopen_header_cxx17 PRIVATE ${MIOPEN_STAGED_INCLUDE})
project_set_warnings(miopen_header_cxx17)

# The installed tree is usable: headers, library, CMake package; a consumer builds and runs.
add_test(NAME miopen_install_consumer
  COMMAND ${CMAKE_COMMAND} -DBUILD=${PROJECT_BINARY_DIR} -DSRC=${CMAKE_CURRENT_SOURCE_DIR}/install_consumer
          -DWORK=${CMAKE_CURRENT_BINARY_DIR}/install_consumer -P ${CMAKE_CURRENT_SOURCE_DIR}/install_consumer/run.cmake)

# Binary gates on libMIOpen.so: SONAME, exported symbols are exactly C entry points named miopen*.
add_test(NAME miopen_library_gates
  COMMAND ${CMAKE_COMMAND} -DLIB=$<TARGET_FILE:MIOpen> -P ${CMAKE_CURRENT_SOURCE_DIR}/library_gates.cmake)

# Find controls from the environment: one process per setting (they are read once per process).
add_executable(miopen_find_mode_env_test unit/find_mode_env_test.cpp common/test_env.cpp)
target_link_libraries(miopen_find_mode_env_test PRIVATE MIOpen_internal GTest::gtest GTest::gtest_main)
project_set_warnings(miopen_find_mode_env_test)
foreach(_case "FastMissIsNotBenchmarkedNorRecorded|MIOPEN_FIND_MODE=FAST"
              "NormalAlwaysBenchmarks|MIOPEN_FIND_MODE=NORMAL"
              "InvalidModeFallsBackToTheDescriptorMode|MIOPEN_FIND_MODE=bogus"
              "EnforceDbCleanRemovesTheRecordFirst|MIOPEN_FIND_ENFORCE=DB_CLEAN"
              "EnforceDbUpdateRewritesTheRecord|MIOPEN_FIND_ENFORCE=DB_UPDATE"
              "DisabledFindDbIsNeitherReadNorWritten|MIOPEN_DEBUG_DISABLE_FIND_DB=1")
  string(REPLACE "|" ";" _parts "${_case}")
  list(GET _parts 0 _test)
  list(GET _parts 1 _env)
  add_test(NAME FindModeEnv.${_test} COMMAND miopen_find_mode_env_test --gtest_filter=FindModeEnv.${_test})
  set_tests_properties(FindModeEnv.${_test} PROPERTIES ENVIRONMENT "${_env}" FAIL_REGULAR_EXPRESSION "0 tests, listed below|Running 0 tests")
endforeach()

# ---- hipDNN forwarding (MIOpen Public, docs/wrapper.md) -------------------------------------------
# Forwarded calls need the backend next to libMIOpen.so and an engine in its default plugin
# directory: the example engine (EXAMPLE_NAIVE_ENGINE). The execute-fails test plugin serves the
# failure-mode test.
set(_fwd_deps hipdnn_backend hipdnn_example_engine_plugin)
set(_fwd_env "MIOPEN_HIPDNN_FORWARDING=enabled")

# The public-API suite a second time with forwarding enabled (both runs required green): the
# families that link libMIOpen.so. Registered at the end of the directory, once every fragment has
# defined its target.
function(miopen_register_forwarding_run)
  foreach(_t miopen_api_test miopen_activation_test miopen_batchnorm_test miopen_fusion_test
             miopen_act_bn_fusion_bad_input_test miopen_pooling_test miopen_softmax_test miopen_lrn_test)
    if(TARGET ${_t})
      add_dependencies(${_t} ${_fwd_deps})
      gtest_discover_tests(${_t} TEST_SUFFIX .hipdnn_forwarding DISCOVERY_TIMEOUT 60
        PROPERTIES ENVIRONMENT "${_fwd_env}")
    endif()
  endforeach()
endfunction()
cmake_language(DEFER CALL miopen_register_forwarding_run)

# Forwarding-specific cases: route per case and numerics; failure modes, each in its environment.
add_executable(miopen_hipdnn_forwarding_test api/hipdnn_forwarding_test.cpp common/test_env.cpp)
target_link_libraries(miopen_hipdnn_forwarding_test PRIVATE MIOpen GTest::gtest GTest::gtest_main Threads::Threads)
target_include_directories(miopen_hipdnn_forwarding_test PRIVATE ${CMAKE_CURRENT_SOURCE_DIR})
target_compile_definitions(miopen_hipdnn_forwarding_test PRIVATE MIOPEN_BETA_API=1)
project_set_warnings(miopen_hipdnn_forwarding_test)
add_dependencies(miopen_hipdnn_forwarding_test ${_fwd_deps} hipdnn_test_execute_fails_plugin)
set(_fwd_dirs ${CMAKE_CURRENT_BINARY_DIR}/hipdnn_forwarding)
file(MAKE_DIRECTORY ${_fwd_dirs}/empty ${_fwd_dirs}/execute_fails)
file(CREATE_LINK ${PROJECT_BINARY_DIR}/lib/test_plugins/libhipdnn_test_execute_fails_plugin.so
     ${_fwd_dirs}/execute_fails/libhipdnn_test_execute_fails_plugin.so SYMBOLIC)
foreach(_case
    "HipdnnForwarding|MIOPEN_HIPDNN_FORWARDING=enabled;MIOPEN_HIPDNN_PREFERRED_ENGINE=EXAMPLE_NAIVE_ENGINE"
    "HipdnnForwardingUnavailable|MIOPEN_HIPDNN_FORWARDING=enabled;HIPDNN_BACKEND_LIBRARY_PATH=${_fwd_dirs}/empty;MIOPEN_HIPDNN_TEST_NO_DEFAULT_SEARCH=1"
    "HipdnnForwardingNoEngine|MIOPEN_HIPDNN_FORWARDING=enabled;HIPDNN_PLUGIN_DIR=${_fwd_dirs}/empty"
    "HipdnnForwardingExecuteFails|MIOPEN_HIPDNN_FORWARDING=enabled;HIPDNN_PLUGIN_DIR=${_fwd_dirs}/execute_fails"
    "HipdnnPassThrough|HIPDNN_BACKEND_LIBRARY_PATH=${_fwd_dirs}/empty;MIOPEN_HIPDNN_TEST_NO_DEFAULT_SEARCH=1")
  string(FIND "${_case}" "|" _bar)
  string(SUBSTRING "${_case}" 0 ${_bar} _suite)
  math(EXPR _bar "${_bar} + 1")
  string(SUBSTRING "${_case}" ${_bar} -1 _env)
  add_test(NAME miopen_${_suite} COMMAND miopen_hipdnn_forwarding_test --gtest_filter=${_suite}.*)
  set_tests_properties(miopen_${_suite} PROPERTIES ENVIRONMENT "${_env}"
    FAIL_REGULAR_EXPRESSION "Running 0 tests")
endforeach()

# Debian packages (CPack): libmiopen depends on exactly its libmiopen-private; consumers build
# and run against the unpacked packages.
add_test(NAME miopen_debian_packages
  COMMAND ${CMAKE_COMMAND} -DBUILD=${PROJECT_BINARY_DIR} -DSRC=${CMAKE_CURRENT_SOURCE_DIR}/install_consumer
          -DWORK=${CMAKE_CURRENT_BINARY_DIR}/debian_packages -DVERSION=${MIOPEN_PACKAGE_VERSION}
          -P ${CMAKE_CURRENT_SOURCE_DIR}/install_consumer/packages.cmake)
