# Concurrency (issue 10): many threads, each with its own handle, on the shared caches. Run with
# forwarding disabled and enabled (hipDNN's default engine order, ranking file in the build
# tree: api.cmake's _fwd_env), and under ThreadSanitizer by scripts/ci-sanitizers.sh.
add_executable(miopen_conv_concurrency_test
  concurrency/conv_concurrency_test.cpp common/forwarding_route.cpp)
target_link_libraries(miopen_conv_concurrency_test PRIVATE MIOpen miopen_test_user_db GTest::gtest GTest::gtest_main Threads::Threads)
target_include_directories(miopen_conv_concurrency_test PRIVATE ${CMAKE_CURRENT_SOURCE_DIR})
target_compile_definitions(miopen_conv_concurrency_test PRIVATE MIOPEN_BETA_API=1)
project_set_warnings(miopen_conv_concurrency_test)
add_dependencies(miopen_conv_concurrency_test ${_fwd_deps})
# TIMEOUT: the test's own bounded wait (240 s) fails a deadlock first, naming each blocked thread.
add_test(NAME miopen_conv_concurrency COMMAND miopen_conv_concurrency_test)
add_test(NAME miopen_conv_concurrency.hipdnn_forwarding COMMAND miopen_conv_concurrency_test)
set_tests_properties(miopen_conv_concurrency miopen_conv_concurrency.hipdnn_forwarding PROPERTIES
  TIMEOUT 400 FAIL_REGULAR_EXPRESSION "Running 0 tests")
set_tests_properties(miopen_conv_concurrency.hipdnn_forwarding PROPERTIES ENVIRONMENT "${_fwd_env}")

# The ThreadSanitizer canary (TSan trees only): passes only when TSan reports its race, with the
# tree's TSAN_OPTIONS (cmake/ProjectSanitizers.cmake) and so the reviewed suppressions in effect.
if("thread" IN_LIST PROJECT_SANITIZE)
  add_executable(miopen_tsan_canary concurrency/tsan_canary.cpp)
  target_link_libraries(miopen_tsan_canary PRIVATE Threads::Threads)
  project_set_warnings(miopen_tsan_canary)
  add_test(NAME miopen_tsan_canary COMMAND miopen_tsan_canary)
  set_tests_properties(miopen_tsan_canary PROPERTIES
    ENVIRONMENT "TSAN_OPTIONS=${PROJECT_TSAN_OPTIONS}"
    PASS_REGULAR_EXPRESSION "WARNING: ThreadSanitizer: data race[^\n]*\n([^\n]*\n)*[^\n]*tsanCanaryIncrement")
endif()
