# Fusion plans and the fused conv + bias + activation call, against the unfused public calls.
# Each miopenConvolutionBiasActivationForward call asserts its route (common/forwarding_route.hpp).
miopen_add_test(miopen_fusion_test SOURCES api/fusion_api_test.cpp common/forwarding_route.cpp LIBS MIOpen)
target_include_directories(miopen_fusion_test PRIVATE ${CMAKE_CURRENT_SOURCE_DIR} ${CMAKE_CURRENT_SOURCE_DIR}/common)

# Bad input for every activation, batchnorm and fusion entry point.
miopen_add_test(miopen_act_bn_fusion_bad_input_test SOURCES api/act_bn_fusion_bad_input_test.cpp LIBS MIOpen)
target_include_directories(miopen_act_bn_fusion_bad_input_test PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/common)

# The fused epilogue run chunk by chunk of the batch (shapes that split into several chunks),
# against the unfused public calls; fp32, fp16, bf16.
miopen_add_test(miopen_fused_epilogue_test SOURCES api/fused_epilogue_test.cpp LIBS MIOpen)
target_include_directories(miopen_fused_epilogue_test PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/common)

# miopenConvolutionForwardBias (the bias step of the unfused conv + bias + activation sequence) on
# random shapes, every data type and layout class, against a plain reference.
miopen_add_test(miopen_conv_bias_test SOURCES api/conv_bias_test.cpp LIBS MIOpen)
target_include_directories(miopen_conv_bias_test PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/common)
# The fusion forwarding cases run one plan from several threads.
find_package(Threads REQUIRED)
target_link_libraries(miopen_fusion_test PRIVATE Threads::Threads)
