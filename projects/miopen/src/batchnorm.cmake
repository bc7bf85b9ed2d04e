# Batch normalization: spatial and per-activation, training, inference, backward.
miopen_internal_library(MIOpen_batchnorm batchnorm.cpp)
target_link_libraries(MIOpen_batchnorm PUBLIC MIOpen_base)
list(APPEND MIOPEN_FAMILY_LIBS MIOpen_batchnorm)
list(APPEND MIOPEN_API_SOURCES batchnorm_api.cpp)
