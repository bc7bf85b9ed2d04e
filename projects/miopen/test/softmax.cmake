# Softmax through the public API: reference comparisons, bad input.
miopen_add_test(miopen_softmax_test
  SOURCES api/softmax_api_test.cpp api/softmax_bad_input_test.cpp
  LIBS MIOpen)
