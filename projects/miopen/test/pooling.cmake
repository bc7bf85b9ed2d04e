# Pooling through the public API: reference comparisons, descriptors, bad input; each call of the
# random suite asserts its route (common/forwarding_route.hpp; forwarding runs registered in api.cmake).
miopen_add_test(miopen_pooling_test
  SOURCES api/pooling_api_test.cpp api/pooling_bad_input_test.cpp common/forwarding_route.cpp
  LIBS MIOpen)
target_include_directories(miopen_pooling_test PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/common)

# The opt-out mix (issue 11): forwarding on with one direction opted out, so a forwarded forward
# feeds a backward on Private and the reverse; the reference comparisons of the random suite check
# the numbers, its route checks that the opted-out direction was routed to Private.
foreach(_dir Forward Backward)
  add_test(NAME miopen_pooling_test.opt_out_${_dir}
           COMMAND miopen_pooling_test --gtest_filter=Seeds/PoolingRandom.*:PoolingLarge.*)
  set_tests_properties(miopen_pooling_test.opt_out_${_dir} PROPERTIES ENVIRONMENT
    "MIOPEN_HIPDNN_FORWARDING=enabled;MIOPEN_DISABLE_HIPDNN_FOR=miopenPooling${_dir};HIPDNN_ENGINE_RANKING_DB=${CMAKE_CURRENT_BINARY_DIR}/hipdnn_forwarding/engine_ranking.txt")
endforeach()
