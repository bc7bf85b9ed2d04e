# Runs the generator on the fixture header and compares its parsed signatures with expected.txt
# (or ${EXPECTED} when given).
file(REMOVE_RECURSE ${OUT})
execute_process(COMMAND ${PY} ${GEN} --header ${FIXTURE_DIR}/fixture.h --stand-ins
                        --policy ${FIXTURE_DIR}/policy.txt --output-dir ${OUT}
                RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "generator failed: ${err}")
endif()
if(NOT EXPECTED)
  set(EXPECTED ${FIXTURE_DIR}/expected.txt)
endif()
execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files ${OUT}/signatures.txt ${EXPECTED}
                RESULT_VARIABLE same)
if(NOT same EQUAL 0)
  file(READ ${OUT}/signatures.txt got)
  message(FATAL_ERROR "parsed signatures differ from the expected table:\n${got}")
endif()
foreach(f miopen/miopen_impl.h wrapper_stubs_x86_64.S wrapper_slow_paths.cpp public_exports.txt private_exports.txt libMIOpen.map libMIOpen_private.map)
  if(NOT EXISTS ${OUT}/${f})
    message(FATAL_ERROR "generator did not write ${f}")
  endif()
endforeach()
file(READ ${OUT}/wrapper_stubs_x86_64.S stubs)
if(stubs MATCHES "miopenFixtureString:")
  message(FATAL_ERROR "a custom entry point got a generated stub")
endif()
# A wrapper-only entry point: exported by Public, hand-written (no generated stub), no _impl.
file(READ ${OUT}/public_exports.txt pub)
file(READ ${OUT}/private_exports.txt priv)
file(READ ${OUT}/miopen/miopen_impl.h impl)
file(READ ${OUT}/custom_entries.txt custom)
file(READ ${OUT}/wrapper_only.txt only)
if(NOT pub MATCHES "miopenFixtureBreakAfterParen\n" OR priv MATCHES "miopenFixtureBreakAfterParen"
   OR impl MATCHES "miopenFixtureBreakAfterParen" OR stubs MATCHES "miopenFixtureBreakAfterParen:"
   OR NOT custom MATCHES "miopenFixtureBreakAfterParen" OR NOT only STREQUAL "miopenFixtureBreakAfterParen\n")
  message(FATAL_ERROR "the wrapper-only entry point is not handled as such")
endif()
# A forwarded entry point: no assembly stub; a C++ stub whose helper packs the call record as the
# policy says (a field from the parameter of its name, from another parameter, or an expression).
file(READ ${OUT}/forwarding_stubs.cpp fwd)
file(READ ${OUT}/forwarding_set.txt fwdset)
if(stubs MATCHES "miopenFixtureDefaults:" OR NOT fwdset STREQUAL "fixture miopenFixtureDefaults\n"
   OR NOT fwd MATCHES "bool miopen_wrapper_forward_miopenFixtureDefaults\\(" OR NOT fwd MATCHES "FixtureCall c;"
   OR NOT fwd MATCHES "c\\.k = k;" OR NOT fwd MATCHES "c\\.dimension = dim;"
   OR NOT fwd MATCHES "c\\.mode = FixtureMode::Any;" OR NOT fwd MATCHES "return miopenFixtureDefaults_impl\\(")
  message(FATAL_ERROR "the forwarded entry point is not generated as the policy declares it:\n${fwd}")
endif()
message(STATUS "fixture signatures match")
