# Batch normalization through the public API against the hipDNN test SDK's CPU reference.
miopen_add_test(miopen_batchnorm_test SOURCES api/batchnorm_api_test.cpp LIBS MIOpen hipdnn_test_sdk)
target_include_directories(miopen_batchnorm_test PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/common)
