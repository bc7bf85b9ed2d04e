# Runs COMMAND (a ;-list) with ENV (a ;-list of VAR=value) and checks MIOpen Public's configuration
# banner on stderr: present when EXPECT_BANNER is true, absent otherwise (no "[wrapper]" line).
execute_process(COMMAND ${CMAKE_COMMAND} -E env --unset=MIOPEN_HIPDNN_FORWARDING --unset=MIOPEN_LOG_LEVEL
                        --unset=MIOPEN_ENABLE_LOGGING ${ENV} ${COMMAND}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "the command failed (${rc}):\n${out}\n${err}")
endif()
string(REGEX MATCH "MIOpen\\(HIP\\): Info \\[wrapper\\] hipDNN forwarding [^\n]*" banner "${err}")
if(EXPECT_BANNER)
  if(NOT banner)
    message(FATAL_ERROR "no configuration banner on stderr:\n${err}")
  endif()
  if(BANNER_REGEX AND NOT banner MATCHES "${BANNER_REGEX}")
    message(FATAL_ERROR "the banner '${banner}' does not match '${BANNER_REGEX}'")
  endif()
  message(STATUS "banner: ${banner}")
elseif(err MATCHES "\\[wrapper\\]")
  message(FATAL_ERROR "MIOpen Public printed on stderr although forwarding was not requested and logging is off:\n${err}")
else()
  message(STATUS "no banner, as expected")
endif()
