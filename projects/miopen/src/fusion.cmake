# Fusion plans and the fused convolution + bias + activation call.
miopen_internal_library(MIOpen_fusion fusion.cpp)
target_link_libraries(MIOpen_fusion PUBLIC MIOpen_activation MIOpen_batchnorm MIOpen_conv MIOpen_tensor_ops MIOpen_base)
list(APPEND MIOPEN_FAMILY_LIBS MIOpen_fusion)
list(APPEND MIOPEN_API_SOURCES fusion_api.cpp)
