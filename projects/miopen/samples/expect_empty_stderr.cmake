# Runs ${EXE} with a small problem and fails if it writes anything to stderr.
execute_process(COMMAND ${EXE} 1 4 8 8 4 3 RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "demo failed (${rc}):\n${out}\n${err}")
endif()
if(NOT err STREQUAL "")
  message(FATAL_ERROR "stderr is not empty without logging:\n${err}")
endif()
