# LRN through the public API: reference comparisons, descriptors, bad input.
miopen_add_test(miopen_lrn_test
  SOURCES api/lrn_api_test.cpp api/lrn_bad_input_test.cpp
  LIBS MIOpen)
