# Softmax through the public API: reference comparisons, bad input; the calls of the random suite
# assert their route (common/forwarding_route.hpp; forwarding runs registered in api.cmake).
miopen_add_test(miopen_softmax_test
  SOURCES api/softmax_api_test.cpp api/softmax_bad_input_test.cpp common/forwarding_route.cpp
  LIBS MIOpen)
target_include_directories(miopen_softmax_test PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/common)
