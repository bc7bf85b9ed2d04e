# Batch normalization through the public API against the hipDNN test SDK's CPU reference; each
# call asserts its route (common/forwarding_route.hpp; forwarding runs registered in api.cmake).
miopen_add_test(miopen_batchnorm_test SOURCES api/batchnorm_api_test.cpp common/forwarding_route.cpp
  LIBS MIOpen hipdnn_test_sdk)
target_include_directories(miopen_batchnorm_test PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/common)

# Forwarding cases of the batchnorm family the public-API suite does not reach (declines, in-place
# running statistics, MIOPEN_ENABLE_LOGGING_CMD, the opt-out, failure modes, verify mode), each
# suite in its environment (api/hipdnn_batchnorm_forwarding_test.cpp).
add_executable(miopen_hipdnn_batchnorm_forwarding_test api/hipdnn_batchnorm_forwarding_test.cpp
  common/forwarding_route.cpp)
target_link_libraries(miopen_hipdnn_batchnorm_forwarding_test PRIVATE MIOpen hipdnn_test_sdk miopen_test_user_db GTest::gtest
  GTest::gtest_main Threads::Threads)
target_include_directories(miopen_hipdnn_batchnorm_forwarding_test PRIVATE ${CMAKE_CURRENT_SOURCE_DIR})
target_compile_definitions(miopen_hipdnn_batchnorm_forwarding_test PRIVATE MIOPEN_BETA_API=1)
project_set_warnings(miopen_hipdnn_batchnorm_forwarding_test)
add_dependencies(miopen_hipdnn_batchnorm_forwarding_test hipdnn_backend hipdnn_example_engine_plugin
  hipdnn_test_execute_fails_plugin hipdnn_test_wrong_numbers_plugin)
set(_bn_fwd ${CMAKE_CURRENT_BINARY_DIR}/hipdnn_forwarding) # api.cmake makes empty/ and execute_fails/
set(_bn_rank "HIPDNN_ENGINE_RANKING_DB=${_bn_fwd}/bn_engine_ranking.txt")
# "<ctest name>|<gtest suite>|<environment>"
foreach(_case
    "BnForwarding|BnForwarding|MIOPEN_HIPDNN_FORWARDING=enabled;${_bn_rank}"
    "BnForwardingCmd|BnForwardingCmd|MIOPEN_HIPDNN_FORWARDING=enabled;MIOPEN_ENABLE_LOGGING_CMD=1;${_bn_rank}"
    "BnForwardingOptOut|BnForwardingOptOut|MIOPEN_HIPDNN_FORWARDING=enabled;MIOPEN_DISABLE_HIPDNN_FOR=batchnorm"
    "BnForwardingUnavailable|BnForwardingUnavailable|MIOPEN_HIPDNN_FORWARDING=enabled;HIPDNN_BACKEND_LIBRARY_PATH=${_bn_fwd}/empty;MIOPEN_HIPDNN_TEST_NO_DEFAULT_SEARCH=1"
    "BnForwardingNoEngine|BnForwardingNoEngine|MIOPEN_HIPDNN_FORWARDING=enabled;HIPDNN_PLUGIN_DIR=${_bn_fwd}/empty"
    "BnForwardingExecuteFails|BnForwardingExecuteFails|MIOPEN_HIPDNN_FORWARDING=enabled;HIPDNN_PLUGIN_DIR=${_bn_fwd}/execute_fails"
    "BnForwardingVerify|BnForwardingVerify|MIOPEN_HIPDNN_FORWARDING=verify;HIPDNN_PLUGIN_DIR=${PROJECT_BINARY_DIR}/lib/test_plugins/wrong_numbers;HIPDNN_ENGINE_RANKING_DB=${_bn_fwd}/bn_verify_wrong_ranking.txt")
  string(REPLACE "|" ";" _parts "${_case}")
  list(GET _parts 0 _name)
  list(GET _parts 1 _suite)
  string(FIND "${_case}" "|" _bar)
  string(SUBSTRING "${_case}" ${_bar} -1 _rest)
  string(SUBSTRING "${_rest}" 1 -1 _rest)
  string(FIND "${_rest}" "|" _bar)
  math(EXPR _bar "${_bar} + 1")
  string(SUBSTRING "${_rest}" ${_bar} -1 _env)
  add_test(NAME miopen_${_name} COMMAND miopen_hipdnn_batchnorm_forwarding_test --gtest_filter=${_suite}.*
           WORKING_DIRECTORY ${PROJECT_BINARY_DIR})
  set_tests_properties(miopen_${_name} PROPERTIES ENVIRONMENT "${_env}" TIMEOUT 300
    FAIL_REGULAR_EXPRESSION "Running 0 tests")
endforeach()
