# Activation: every mode forward and backward through the public API, against the hipDNN test
# SDK's pointwise reference; each call asserts its route (forwarding runs registered in api.cmake).
miopen_add_test(miopen_activation_test SOURCES api/activation_api_test.cpp common/forwarding_route.cpp
  LIBS MIOpen hipdnn_test_sdk)
target_include_directories(miopen_activation_test PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/common)
