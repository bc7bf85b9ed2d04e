# Softmax forward and backward (accurate, fast, log; instance and channel modes).
miopen_internal_library(MIOpen_softmax softmax.cpp)
target_link_libraries(MIOpen_softmax PUBLIC MIOpen_base)
list(APPEND MIOPEN_FAMILY_LIBS MIOpen_softmax)
list(APPEND MIOPEN_API_SOURCES softmax_api.cpp)
