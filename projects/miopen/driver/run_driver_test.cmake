# Runs one MIOpenDriver command for ctest and checks it.
#   cmake -DDRIVER=<MIOpenDriver> -DARGS="<command line>" [-DEXPECT="<regex>|<regex>..."]
#         [-DEXPECT_FAIL=1] -P run_driver_test.cmake
# The command must exit 0 (with EXPECT_FAIL=1: exit non-zero), and its stdout + stderr must match
# every EXPECT regex. The environment (forwarding configuration, find-db directory) comes from the
# test's ENVIRONMENT property.
cmake_minimum_required(VERSION 3.25)
separate_arguments(_args UNIX_COMMAND "${ARGS}")
execute_process(COMMAND ${DRIVER} ${_args} OUTPUT_VARIABLE _out ERROR_VARIABLE _err RESULT_VARIABLE _rc)
message("${_out}")
if(NOT _err STREQUAL "")
  message("stderr:\n${_err}")
endif()
if(EXPECT_FAIL)
  if(_rc EQUAL 0)
    message(FATAL_ERROR "MIOpenDriver ${ARGS}: exited 0, expected a failure")
  endif()
elseif(NOT _rc EQUAL 0)
  message(FATAL_ERROR "MIOpenDriver ${ARGS}: exit status ${_rc}")
endif()
if(DEFINED EXPECT AND NOT EXPECT STREQUAL "")
  string(REPLACE "|" ";" _expect "${EXPECT}")
  foreach(_re IN LISTS _expect)
    if(NOT "${_out}${_err}" MATCHES "${_re}")
      message(FATAL_ERROR "MIOpenDriver ${ARGS}: output does not match '${_re}'")
    endif()
  endforeach()
endif()
