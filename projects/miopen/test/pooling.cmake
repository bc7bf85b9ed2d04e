# Pooling through the public API: reference comparisons, descriptors, bad input.
miopen_add_test(miopen_pooling_test
  SOURCES api/pooling_api_test.cpp api/pooling_bad_input_test.cpp
  LIBS MIOpen)
