# MIOPEN_ENABLE_LOGGING_CMD and MIOPEN_ENABLE_LOGGING for the activation, batchnorm, pooling,
# softmax, LRN and fusion families: captured stderr against the exact expected lines. Both
# variables are read once per process; every test case runs in its own process with them set.
miopen_add_test(miopen_logging_test SOURCES api/logging_api_test.cpp LIBS MIOpen)
target_include_directories(miopen_logging_test PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/common)
