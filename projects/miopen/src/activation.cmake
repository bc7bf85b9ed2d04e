# Activation: descriptor, the ten modes forward and backward.
miopen_internal_library(MIOpen_activation activation.cpp)
target_link_libraries(MIOpen_activation PUBLIC MIOpen_base)
list(APPEND MIOPEN_FAMILY_LIBS MIOpen_activation)
list(APPEND MIOPEN_API_SOURCES activation_api.cpp)
