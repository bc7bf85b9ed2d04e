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
