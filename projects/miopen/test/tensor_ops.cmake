# Element-wise tensor operations (OpTensor, SetTensor, ScaleTensor, TransformTensor) against an
# independent double-precision reference; links the static library, not the exported surface.
miopen_add_test(tensor_ops_test
  SOURCES unit/tensor_ops_test.cpp
  LIBS MIOpen_tensor_ops)

# The tests that take the parallel path, again with an odd thread count: chunk boundaries then
# fall inside rows (with the default count they may not).
add_test(NAME tensor_ops_test.parallel_5_threads
  COMMAND tensor_ops_test --gtest_filter=*Large*)
set_tests_properties(tensor_ops_test.parallel_5_threads PROPERTIES ENVIRONMENT MIOPEN_NUM_THREADS=5)
