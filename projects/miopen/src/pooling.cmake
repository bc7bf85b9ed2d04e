# Pooling: descriptor, forward and backward (max, average, average inclusive; 2-D and 3-D).
miopen_internal_library(MIOpen_pooling pooling.cpp)
target_link_libraries(MIOpen_pooling PUBLIC MIOpen_base)
list(APPEND MIOPEN_FAMILY_LIBS MIOpen_pooling)
list(APPEND MIOPEN_API_SOURCES pooling_api.cpp)
