# Public-API tests: they link the exported libMIOpen.so only and use <miopen/miopen.h>.
# Built as miopen_add_test() does, but discovered with the run's output directory: the
# convolution cases keep their results (common/run_outputs.hpp) for miopen_compare_run_outputs
# (below), and assert each call's route (common/forwarding_route.hpp).
set(_run_outputs ${CMAKE_CURRENT_BINARY_DIR}/run_outputs)
add_executable(miopen_api_test
  api/handle_api_test.cpp
  api/tensor_api_test.cpp
  api/conv_api_test.cpp
  api/conv_descriptor_test.cpp
  api/bad_input_test.cpp
  api/abi_layout_test.cpp
  common/forwarding_route.cpp)
target_link_libraries(miopen_api_test PRIVATE MIOpen miopen_test_user_db GTest::gtest GTest::gtest_main Threads::Threads)
target_include_directories(miopen_api_test PRIVATE ${CMAKE_CURRENT_SOURCE_DIR} ${CMAKE_CURRENT_SOURCE_DIR}/common)
target_compile_definitions(miopen_api_test PRIVATE MIOPEN_BETA_API=1)
project_set_warnings(miopen_api_test)
gtest_discover_tests(miopen_api_test DISCOVERY_TIMEOUT 60
  PROPERTIES ENVIRONMENT "MIOPEN_TEST_RUN_OUTPUT_DIR=${_run_outputs}/disabled"
             FIXTURES_SETUP miopen_run_outputs_disabled FIXTURES_REQUIRED miopen_run_outputs_clean)

# The runs' outputs: emptied before the runs, compared after them (disabled against each
# forwarding configuration, case by case, tolerances per type in compare_run_outputs.cpp).
add_test(NAME miopen_run_outputs_clean COMMAND ${CMAKE_COMMAND} -E rm -rf ${_run_outputs})
set_tests_properties(miopen_run_outputs_clean PROPERTIES FIXTURES_SETUP miopen_run_outputs_clean)
add_executable(miopen_compare_run_outputs common/compare_run_outputs.cpp)
project_set_warnings(miopen_compare_run_outputs)
add_test(NAME miopen_compare_run_outputs
  COMMAND miopen_compare_run_outputs ${_run_outputs}/disabled ${_run_outputs}/enabled ${_run_outputs}/miopen_engine)
set_tests_properties(miopen_compare_run_outputs PROPERTIES
  FIXTURES_REQUIRED "miopen_run_outputs_disabled;miopen_run_outputs_enabled;miopen_run_outputs_miopen_engine")

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
add_executable(miopen_find_mode_env_test unit/find_mode_env_test.cpp)
target_link_libraries(miopen_find_mode_env_test PRIVATE MIOpen_internal miopen_test_user_db GTest::gtest GTest::gtest_main)
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
# The default-order run ranks engines by measurement (projects/hipdnn/README.md, "Engine order"):
# its ranking file lives in the build tree, not in the user's ~/.cache.
set(_fwd_env "MIOPEN_HIPDNN_FORWARDING=enabled;HIPDNN_ENGINE_RANKING_DB=${CMAKE_CURRENT_BINARY_DIR}/hipdnn_forwarding/engine_ranking.txt")

# The public-API suite runs in three configurations, all required green (issue 7):
#   <name>                                    forwarding disabled (miopen_add_test / above)
#   <name>.hipdnn_forwarding                  enabled, hipDNN's default engine order
#   <name>.hipdnn_forwarding_miopen_engine    enabled, MIOPEN_ENGINE pinned through hipDNN's
#                                             HIPDNN_HEUR_FALLBACK_ENGINE_ORDER; the route checks
#                                             (MIOPEN_TEST_EXPECT_ENGINE) require every forwarded
#                                             call to run on it
#   <name>.hipdnn_verify                      MIOPEN_HIPDNN_FORWARDING=verify (api and fusion
#                                             suites): every forwarded call is also checked
#                                             against Private; any mismatch fails the run
# The pinned run covers only the families that call the forwarding set (an engine order cannot
# change the others). miopen_api_test's runs keep their convolution outputs for the comparison.
# Environments of several variables are set by a ctest include script over each discovery's
# TEST_LIST (gtest_discover_tests splits a list-valued property into separate arguments).
# Registered at the end of the directory, once every fragment has defined its target.
set(_fwd_pinned_env "MIOPEN_HIPDNN_FORWARDING=enabled;HIPDNN_HEUR_FALLBACK_ENGINE_ORDER=MIOPEN_ENGINE;MIOPEN_TEST_EXPECT_ENGINE=MIOPEN_ENGINE")
set(_fwd_verify_env "MIOPEN_HIPDNN_FORWARDING=verify;HIPDNN_ENGINE_RANKING_DB=${CMAKE_CURRENT_BINARY_DIR}/hipdnn_forwarding/engine_ranking.txt")
function(miopen_register_forwarding_run)
  set(_script "# Generated by projects/miopen/test/api.cmake: environments of the forwarding runs.\n")
  foreach(_t miopen_api_test miopen_activation_test miopen_batchnorm_test miopen_fusion_test
             miopen_act_bn_fusion_bad_input_test miopen_pooling_test miopen_softmax_test miopen_lrn_test miopen_pytorch_sequence_test)
    if(NOT TARGET ${_t})
      continue()
    endif()
    add_dependencies(${_t} ${_fwd_deps})
    set(_env "${_fwd_env}")
    set(_pinned_env "${_fwd_pinned_env}")
    set(_props "")
    set(_pinned_props "")
    if(_t STREQUAL "miopen_api_test")
      list(APPEND _env "MIOPEN_TEST_RUN_OUTPUT_DIR=${_run_outputs}/enabled")
      list(APPEND _pinned_env "MIOPEN_TEST_RUN_OUTPUT_DIR=${_run_outputs}/miopen_engine")
      set(_props PROPERTIES FIXTURES_SETUP miopen_run_outputs_enabled FIXTURES_REQUIRED miopen_run_outputs_clean)
      set(_pinned_props PROPERTIES FIXTURES_SETUP miopen_run_outputs_miopen_engine
                                   FIXTURES_REQUIRED miopen_run_outputs_clean)
    endif()
    gtest_discover_tests(${_t} TEST_SUFFIX .hipdnn_forwarding DISCOVERY_TIMEOUT 60
      TEST_LIST ${_t}_FORWARDING_TESTS ${_props})
    string(APPEND _script "foreach(_t IN LISTS ${_t}_FORWARDING_TESTS)\n"
                          "  set_tests_properties(\"\${_t}\" PROPERTIES ENVIRONMENT \"${_env}\")\nendforeach()\n")
    if(_t MATCHES "^miopen_(api|fusion|act_bn_fusion_bad_input|batchnorm|pooling|softmax|activation)_test$")
      add_dependencies(${_t} miopen_provider_plugin)
      gtest_discover_tests(${_t} TEST_SUFFIX .hipdnn_forwarding_miopen_engine DISCOVERY_TIMEOUT 60
        TEST_LIST ${_t}_PINNED_TESTS ${_pinned_props})
      string(APPEND _script "foreach(_t IN LISTS ${_t}_PINNED_TESTS)\n"
                            "  set_tests_properties(\"\${_t}\" PROPERTIES ENVIRONMENT \"${_pinned_env}\")\nendforeach()\n")
    endif()
    # Shadow verification (MIOPEN_HIPDNN_FORWARDING=verify) over the suites with forwarded calls:
    # every forwarded call is also run on Private and compared; a mismatch fails the run
    # (common/forwarding_route.cpp).
    if(_t MATCHES "^miopen_(api|fusion|batchnorm|pooling|softmax|activation)_test$")
      gtest_discover_tests(${_t} TEST_SUFFIX .hipdnn_verify DISCOVERY_TIMEOUT 60 TEST_LIST ${_t}_VERIFY_TESTS)
      string(APPEND _script "foreach(_t IN LISTS ${_t}_VERIFY_TESTS)\n"
                            "  set_tests_properties(\"\${_t}\" PROPERTIES ENVIRONMENT \"${_fwd_verify_env}\")\nendforeach()\n")
    endif()
  endforeach()
  file(WRITE ${CMAKE_CURRENT_BINARY_DIR}/miopen_forwarding_runs_env.cmake "${_script}")
  set_property(DIRECTORY APPEND PROPERTY TEST_INCLUDE_FILES ${CMAKE_CURRENT_BINARY_DIR}/miopen_forwarding_runs_env.cmake)
endfunction()
cmake_language(DEFER CALL miopen_register_forwarding_run)

# Forwarding-specific cases: route per case and numerics; failure modes, each in its environment.
# Test doubles: the execute-fails plugin; the latch plugin (its plan build of one problem blocks
# until the test releases it: the plan-cache concurrency case); a backend library reporting the
# next major version (fakes/wrong_major_backend.cpp), in its own directory under the real soname.
add_executable(miopen_hipdnn_forwarding_test api/hipdnn_forwarding_test.cpp)
target_link_libraries(miopen_hipdnn_forwarding_test PRIVATE MIOpen miopen_test_user_db GTest::gtest GTest::gtest_main Threads::Threads
  hipdnn_backend_headers ${CMAKE_DL_LIBS})
target_include_directories(miopen_hipdnn_forwarding_test PRIVATE ${CMAKE_CURRENT_SOURCE_DIR})
target_compile_definitions(miopen_hipdnn_forwarding_test PRIVATE MIOPEN_BETA_API=1)
project_set_warnings(miopen_hipdnn_forwarding_test)
set(_fwd_dirs ${CMAKE_CURRENT_BINARY_DIR}/hipdnn_forwarding)
add_library(miopen_test_wrong_major_backend SHARED fakes/wrong_major_backend.cpp)
target_link_libraries(miopen_test_wrong_major_backend PRIVATE hipdnn_backend_headers)
project_set_warnings(miopen_test_wrong_major_backend)
set_target_properties(miopen_test_wrong_major_backend PROPERTIES
  OUTPUT_NAME hipdnn_backend SUFFIX ".so.1" LIBRARY_OUTPUT_DIRECTORY ${_fwd_dirs}/wrong_major
  CXX_VISIBILITY_PRESET hidden VISIBILITY_INLINES_HIDDEN ON)
add_dependencies(miopen_hipdnn_forwarding_test ${_fwd_deps} hipdnn_test_execute_fails_plugin
  hipdnn_test_latch_plugin hipdnn_test_wrong_numbers_plugin miopen_test_wrong_major_backend)
file(MAKE_DIRECTORY ${_fwd_dirs}/empty ${_fwd_dirs}/execute_fails)
file(CREATE_LINK ${PROJECT_BINARY_DIR}/lib/test_plugins/libhipdnn_test_execute_fails_plugin.so
     ${_fwd_dirs}/execute_fails/libhipdnn_test_execute_fails_plugin.so SYMBOLIC)
# "<ctest name>|<gtest suite>|<environment>"
foreach(_case
    "HipdnnForwarding|HipdnnForwarding|MIOPEN_HIPDNN_FORWARDING=enabled;MIOPEN_HIPDNN_PREFERRED_ENGINE=EXAMPLE_NAIVE_ENGINE"
    "HipdnnForwardingUnavailable|HipdnnForwardingUnavailable|MIOPEN_HIPDNN_FORWARDING=enabled;HIPDNN_BACKEND_LIBRARY_PATH=${_fwd_dirs}/empty;MIOPEN_HIPDNN_TEST_NO_DEFAULT_SEARCH=1"
    "HipdnnForwardingRelativePath|HipdnnForwardingRelativePath|MIOPEN_HIPDNN_FORWARDING=enabled;HIPDNN_BACKEND_LIBRARY_PATH=lib;MIOPEN_HIPDNN_TEST_NO_DEFAULT_SEARCH=1"
    "HipdnnForwardingWrongMajor|HipdnnForwardingWrongMajor|MIOPEN_HIPDNN_FORWARDING=enabled;HIPDNN_BACKEND_LIBRARY_PATH=${_fwd_dirs}/wrong_major;MIOPEN_HIPDNN_TEST_NO_DEFAULT_SEARCH=1"
    "HipdnnForwardingNoEngine|HipdnnForwardingNoEngine|MIOPEN_HIPDNN_FORWARDING=enabled;HIPDNN_PLUGIN_DIR=${_fwd_dirs}/empty"
    "HipdnnForwardingExecuteFails|HipdnnForwardingExecuteFails|MIOPEN_HIPDNN_FORWARDING=enabled;HIPDNN_PLUGIN_DIR=${_fwd_dirs}/execute_fails"
    "HipdnnForwardingPlanCache|HipdnnForwardingPlanCache|MIOPEN_HIPDNN_FORWARDING=enabled;HIPDNN_PLUGIN_DIR=${PROJECT_BINARY_DIR}/lib/test_plugins/latch"
    "HipdnnForwardingVerify|HipdnnForwardingVerify|MIOPEN_HIPDNN_FORWARDING=verify;HIPDNN_PLUGIN_DIR=${PROJECT_BINARY_DIR}/lib/test_plugins/wrong_numbers;HIPDNN_ENGINE_RANKING_DB=${_fwd_dirs}/verify_wrong_ranking.txt"
    "HipdnnForwardingVerifyAgrees|HipdnnForwardingVerifyAgrees|MIOPEN_HIPDNN_FORWARDING=verify;HIPDNN_ENGINE_RANKING_DB=${_fwd_dirs}/verify_ranking.txt"
    "HipdnnPassThrough|HipdnnPassThrough|HIPDNN_BACKEND_LIBRARY_PATH=${_fwd_dirs}/empty;MIOPEN_HIPDNN_TEST_NO_DEFAULT_SEARCH=1"
    "HipdnnPassThroughWrongMajor|HipdnnPassThrough|HIPDNN_BACKEND_LIBRARY_PATH=${_fwd_dirs}/wrong_major;MIOPEN_HIPDNN_TEST_NO_DEFAULT_SEARCH=1")
  string(FIND "${_case}" "|" _bar)
  string(SUBSTRING "${_case}" 0 ${_bar} _name)
  math(EXPR _bar "${_bar} + 1")
  string(SUBSTRING "${_case}" ${_bar} -1 _rest)
  string(FIND "${_rest}" "|" _bar)
  string(SUBSTRING "${_rest}" 0 ${_bar} _suite)
  math(EXPR _bar "${_bar} + 1")
  string(SUBSTRING "${_rest}" ${_bar} -1 _env)
  add_test(NAME miopen_${_name} COMMAND miopen_hipdnn_forwarding_test --gtest_filter=${_suite}.*
           WORKING_DIRECTORY ${PROJECT_BINARY_DIR})
  # TIMEOUT: a deadlock in the plan-cache case fails it (its own waits fail it sooner, with a message).
  set_tests_properties(miopen_${_name} PROPERTIES ENVIRONMENT "${_env}" TIMEOUT 300
    FAIL_REGULAR_EXPRESSION "Running 0 tests")
endforeach()

# Debian packages (CPack): libmiopen depends on exactly its libmiopen-private; consumers build
# and run against the unpacked packages.
add_test(NAME miopen_debian_packages
  COMMAND ${CMAKE_COMMAND} -DBUILD=${PROJECT_BINARY_DIR} -DSRC=${CMAKE_CURRENT_SOURCE_DIR}/install_consumer
          -DWORK=${CMAKE_CURRENT_BINARY_DIR}/debian_packages -DVERSION=${MIOPEN_PACKAGE_VERSION}
          -P ${CMAKE_CURRENT_SOURCE_DIR}/install_consumer/packages.cmake)

# Version skew between MIOpen Public and Private (RFC 4.7): a Private of the same SOVERSION
# reporting another version (fakes/private_version.cpp, preloaded) makes libMIOpen.so print one
# Error line at load and refuse every call with miopenStatusVersionMismatch; the plain run is the
# control. The provider's own check reuses the same stand-in (dnn-providers/miopen-provider/tests).
add_library(miopen_test_fake_private_version SHARED fakes/private_version.cpp)
project_set_warnings(miopen_test_fake_private_version)
add_executable(miopen_version_skew_test api/version_skew_test.cpp)
target_link_libraries(miopen_version_skew_test PRIVATE MIOpen GTest::gtest GTest::gtest_main)
target_include_directories(miopen_version_skew_test PRIVATE ${CMAKE_CURRENT_SOURCE_DIR})
project_set_warnings(miopen_version_skew_test)
add_dependencies(miopen_version_skew_test miopen_test_fake_private_version)
add_test(NAME miopen_version_skew.control COMMAND miopen_version_skew_test)
set_tests_properties(miopen_version_skew.control PROPERTIES FAIL_REGULAR_EXPRESSION "Running 0 tests|is paired with")
foreach(_mode disabled enabled)
  add_test(NAME miopen_version_skew.other_private_version.${_mode}
    COMMAND ${CMAKE_COMMAND} -E env MIOPEN_TEST_VERSION_SKEW=1 MIOPEN_HIPDNN_FORWARDING=${_mode}
            LD_PRELOAD=$<TARGET_FILE:miopen_test_fake_private_version> $<TARGET_FILE:miopen_version_skew_test>)
  # The load-time line (before main) and the test's own result.
  set_tests_properties(miopen_version_skew.other_private_version.${_mode} PROPERTIES
    PASS_REGULAR_EXPRESSION "MIOpen\\(HIP\\): Error \\[wrapper\\] libMIOpen.so [0-9.]+ is paired with libMIOpen_private.so.1 9.9.9: .*\\[  PASSED  \\] 1 test")
endforeach()
