# Local response normalization: descriptor, forward and backward (within and across channels).
miopen_internal_library(MIOpen_lrn lrn.cpp)
target_link_libraries(MIOpen_lrn PUBLIC MIOpen_base)
list(APPEND MIOPEN_FAMILY_LIBS MIOpen_lrn)
list(APPEND MIOPEN_API_SOURCES lrn_api.cpp)
