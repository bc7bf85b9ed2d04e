# The bad-input corpus of the public C API (issue 10, "Bad input"): generated from miopen.h at build
# time (bad_input/gen_bad_input_cases.py, libclang through the wrapper generator's parser) plus
# hand-written cases, one gtest binary linked to the exported libMIOpen.so only. It runs with
# forwarding disabled and enabled (api.cmake's _fwd_env). The count is printed by
# BadInputCorpus.CaseCount ("bad-input cases: N (generated G, hand-written H)") and checked against
# the pointer parameters of the header and the floor below.
set(MIOPEN_BAD_INPUT_MIN_CASES 1250 CACHE STRING "Fewest bad-input cases the MIOpen corpus may hold")
set(_bi_dir ${CMAKE_CURRENT_SOURCE_DIR}/bad_input)
set(_bi_gen ${CMAKE_CURRENT_BINARY_DIR}/bad_input_generated)
set(_bi_outputs ${_bi_gen}/bad_input_generated_cases.inc ${_bi_gen}/bad_input_generated_counts.hpp
                ${_bi_gen}/bad_input_generated_baselines.inc)
add_custom_command(
  OUTPUT ${_bi_outputs}
  COMMAND ${MIOPEN_GENERATOR_PYTHON} ${_bi_dir}/gen_bad_input_cases.py
          --header ${MIOPEN_SOURCE_INCLUDE}/miopen/miopen.h --include-dir ${MIOPEN_STAGED_INCLUDE}
          --wrapper-gen ${MIOPEN_SOURCE_DIR}/wrapper/generator/miopen_wrapper_gen.py
          --policy ${_bi_dir}/policy.txt --output-dir ${_bi_gen}
  COMMAND ${CMAKE_COMMAND} -E touch ${_bi_outputs}
  DEPENDS ${_bi_dir}/gen_bad_input_cases.py ${_bi_dir}/policy.txt ${MIOPEN_SOURCE_INCLUDE}/miopen/miopen.h
          ${MIOPEN_SOURCE_DIR}/wrapper/generator/miopen_wrapper_gen.py ${MIOPEN_STAGED_INCLUDE}/miopen/config.h
  COMMENT "Generating the MIOpen bad-input corpus from miopen.h"
  VERBATIM)
add_executable(miopen_bad_input_test ${_bi_dir}/bad_input_test.cpp ${_bi_dir}/bad_input_handwritten.cpp
  ${_bi_outputs})
target_link_libraries(miopen_bad_input_test PRIVATE MIOpen miopen_test_user_db GTest::gtest GTest::gtest_main Threads::Threads)
target_include_directories(miopen_bad_input_test PRIVATE ${CMAKE_CURRENT_SOURCE_DIR} ${_bi_dir} ${_bi_gen})
target_compile_definitions(miopen_bad_input_test PRIVATE MIOPEN_BETA_API=1
  MIOPEN_BAD_INPUT_MIN_CASES=${MIOPEN_BAD_INPUT_MIN_CASES}
  MIOPEN_BAD_INPUT_SIGNATURES="${MIOPEN_GENERATED_DIR}/signatures.txt")
project_set_warnings(miopen_bad_input_test)
add_dependencies(miopen_bad_input_test miopen_wrapper_generated ${_fwd_deps})
# One ctest test per configuration (the corpus is one process: ~1300 cases of a few calls each).
add_test(NAME miopen_bad_input COMMAND miopen_bad_input_test)
add_test(NAME miopen_bad_input.hipdnn_forwarding COMMAND miopen_bad_input_test)
set_tests_properties(miopen_bad_input PROPERTIES FAIL_REGULAR_EXPRESSION "Running 0 tests")
set_tests_properties(miopen_bad_input.hipdnn_forwarding PROPERTIES ENVIRONMENT "${_fwd_env}"
  FAIL_REGULAR_EXPRESSION "Running 0 tests")
