# PROJECT_BUILD_FUZZERS=ON: the libFuzzer targets of fuzz/ (docs/sanitizers.md, "Fuzzing").
# clang only, in the ASan/UBSan tree (PROJECT_SANITIZE="address;undefined"): every target of the
# project is compiled with -fsanitize=fuzzer-no-link (coverage counters and comparison hooks, no
# libFuzzer main), so that libFuzzer is guided by the library code it drives and not only by the
# harness; the fuzzer executables themselves add -fsanitize=fuzzer,address,undefined (fuzz/).
# The sanitizer runtime of an executable provides weak no-op coverage callbacks, so the ordinary
# tests of such a tree run as before. scripts/ci-sanitizers.sh configures its ASan tree so.
if(PROJECT_BUILD_FUZZERS)
  if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    message(FATAL_ERROR "PROJECT_BUILD_FUZZERS needs clang (libFuzzer); the compiler is ${CMAKE_CXX_COMPILER_ID}")
  endif()
  if(NOT "address" IN_LIST PROJECT_SANITIZE OR NOT "undefined" IN_LIST PROJECT_SANITIZE)
    message(FATAL_ERROR "PROJECT_BUILD_FUZZERS needs PROJECT_SANITIZE=\"address;undefined\" (the ASan tree)")
  endif()
  add_compile_options(-fsanitize=fuzzer-no-link)
  message(STATUS "Fuzzers: on (libraries with -fsanitize=fuzzer-no-link)")
endif()
