# Convolution solver tests (test/unit/solver_test.cpp): every registered solver against the
# double-precision reference in common/conv_reference.hpp.
miopen_add_test(solver_test SOURCES unit/solver_test.cpp LIBS MIOpen_solvers)

# The same tests with an odd thread count, so the static work partitions (pixel ranges, channel
# blocks, partial sums) are exercised with uneven splits.
gtest_discover_tests(solver_test
  TEST_PREFIX "threads3."
  TEST_LIST solver_test_threads3
  PROPERTIES ENVIRONMENT "MIOPEN_NUM_THREADS=3"
  DISCOVERY_TIMEOUT 60)
