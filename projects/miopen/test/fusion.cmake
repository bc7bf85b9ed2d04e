# Fusion plans and the fused conv + bias + activation call, against the unfused public calls.
miopen_add_test(miopen_fusion_test SOURCES api/fusion_api_test.cpp LIBS MIOpen)
target_include_directories(miopen_fusion_test PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/common)

# Bad input for every activation, batchnorm and fusion entry point.
miopen_add_test(miopen_act_bn_fusion_bad_input_test SOURCES api/act_bn_fusion_bad_input_test.cpp LIBS MIOpen)
target_include_directories(miopen_act_bn_fusion_bad_input_test PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/common)
