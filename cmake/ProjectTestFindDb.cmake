# Every test gets a find-db of its own, so that `ctest -j` runs never share one and no test reads
# or writes the user's (MIOPEN_USER_DB_PATH, default under ~/.config/miopen).
#
# - GoogleTest binaries that run MIOpen link `miopen_test_user_db` (projects/miopen/test/common/
#   test_env.cpp): before any test, the process points MIOPEN_USER_DB_PATH at a fresh temporary
#   directory of its own and removes it at exit. Discovered tests are one process each.
# - Every other test (samples, examples, the driver, script gates) gets, through
#   project_isolate_find_db(), MIOPEN_USER_DB_PATH=<build>/test-find-db/<test name>, a directory
#   the fixture test `project_test_find_db_reset` empties before the run, so each run starts from
#   an empty find-db as the GoogleTest binaries do.

set(PROJECT_TEST_FIND_DB_ROOT ${CMAKE_BINARY_DIR}/test-find-db)

if(BUILD_TESTING)
  add_test(NAME project_test_find_db_reset COMMAND ${CMAKE_COMMAND} -E rm -rf ${PROJECT_TEST_FIND_DB_ROOT})
  set_tests_properties(project_test_find_db_reset PROPERTIES FIXTURES_SETUP project_test_find_db)
endif()

# project_isolate_find_db(): call once in a directory that adds tests with add_test(). At the end of
# the directory, each of its tests that does not choose a find-db itself (MIOPEN_USER_DB_PATH or
# MIOPEN_TEST_KEEP_DB_PATH in its ENVIRONMENT) gets its own, as above.
function(project_isolate_find_db)
  if(BUILD_TESTING)
    cmake_language(DEFER CALL _project_isolate_find_db_now)
  endif()
endfunction()

function(_project_isolate_find_db_now)
  get_property(_tests DIRECTORY PROPERTY TESTS)
  foreach(_t IN LISTS _tests)
    get_test_property(${_t} ENVIRONMENT _env)
    if(_env MATCHES "(^|;)(MIOPEN_USER_DB_PATH|MIOPEN_TEST_KEEP_DB_PATH)=")
      continue()
    endif()
    set_property(TEST ${_t} APPEND PROPERTY ENVIRONMENT "MIOPEN_USER_DB_PATH=${PROJECT_TEST_FIND_DB_ROOT}/${_t}")
    set_property(TEST ${_t} APPEND PROPERTY FIXTURES_REQUIRED project_test_find_db)
  endforeach()
endfunction()
