# MIOpen's environment variables as they bear on forwarded calls (docs/environment-mapping.md):
# one process per setting (the wrapper and Private read the environment once per process), each
# in the disabled and the enabled forwarding configuration where both mean something.
add_executable(miopen_env_mapping_test api/env_mapping_test.cpp common/forwarding_route.cpp)
target_link_libraries(miopen_env_mapping_test PRIVATE MIOpen GTest::gtest GTest::gtest_main Threads::Threads)
target_include_directories(miopen_env_mapping_test PRIVATE ${CMAKE_CURRENT_SOURCE_DIR})
target_compile_definitions(miopen_env_mapping_test PRIVATE MIOPEN_BETA_API=1)
project_set_warnings(miopen_env_mapping_test)
foreach(_dep hipdnn_backend hipdnn_example_engine_plugin miopen_provider_plugin dnnl_provider_plugin)
  if(TARGET ${_dep})
    add_dependencies(miopen_env_mapping_test ${_dep})
  endif()
endforeach()

set(_em ${CMAKE_CURRENT_BINARY_DIR}/env_mapping)
set(_em_common "HIPDNN_ENGINE_RANKING_DB=${_em}/engine_ranking.txt")
set(_em_on "MIOPEN_HIPDNN_FORWARDING=enabled")
# "<ctest name>|<gtest filter>|<environment>"
foreach(_case
    "Cmd|EnvMappingCmd.*|MIOPEN_ENABLE_LOGGING_CMD=1"
    "Cmd.hipdnn_forwarding|EnvMappingCmd.*|MIOPEN_ENABLE_LOGGING_CMD=1;${_em_on}"
    "WinogradOff|EnvMappingSwitch.*|MIOPEN_DEBUG_CONV_WINOGRAD=0"
    "WinogradOff.hipdnn_forwarding|EnvMappingSwitch.*|MIOPEN_DEBUG_CONV_WINOGRAD=0;${_em_on}"
    "GemmOff|EnvMappingSwitch.*|MIOPEN_DEBUG_CONV_GEMM=0"
    "GemmOff.hipdnn_forwarding|EnvMappingSwitch.*|MIOPEN_DEBUG_CONV_GEMM=0;${_em_on}"
    "FindOnlySolver|EnvMappingSwitch.*|MIOPEN_DEBUG_FIND_ONLY_SOLVER=ConvDirectNaiveConvFwd"
    "FindOnlySolver.hipdnn_forwarding|EnvMappingSwitch.*|MIOPEN_DEBUG_FIND_ONLY_SOLVER=ConvDirectNaiveConvFwd;${_em_on}"
    "Deterministic|EnvMappingSwitch.*|MIOPEN_DEBUG_CONVOLUTION_DETERMINISTIC=1"
    "Deterministic.hipdnn_forwarding|EnvMappingSwitch.*|MIOPEN_DEBUG_CONVOLUTION_DETERMINISTIC=1;${_em_on}"
    "LogTrace.hipdnn_forwarding|EnvMappingLog.MiopenTraceLevelLogsHipdnnAsMiopenLines|MIOPEN_LOG_LEVEL=7;${_em_on}"
    "LogWarning.hipdnn_forwarding|EnvMappingLog.MiopenWarningLevelDropsHipdnnInfo|MIOPEN_LOG_LEVEL=4;${_em_on}"
    "LogHipdnnOwn.hipdnn_forwarding|EnvMappingLog.HipdnnLogLevelKeepsHipdnnsOwnLogging|MIOPEN_LOG_LEVEL=7;HIPDNN_LOG_LEVEL=info;${_em_on}"
    "WarnCpuIsa|EnvMappingWarn.*|MIOPEN_DEBUG_CONV_CPU_ISA=generic"
    "WarnCpuIsa.hipdnn_forwarding|EnvMappingWarn.*|MIOPEN_DEBUG_CONV_CPU_ISA=generic;${_em_on}"
    "WarnEnableLogging|EnvMappingWarn.*|MIOPEN_ENABLE_LOGGING=1"
    "WarnEnableLogging.hipdnn_forwarding|EnvMappingWarn.*|MIOPEN_ENABLE_LOGGING=1;${_em_on}"
    "WarnGpuSwitch|EnvMappingWarn.*|MIOPEN_DEBUG_CONV_DIRECT_ASM_3X3U=0"
    "WarnGpuSwitch.hipdnn_forwarding|EnvMappingWarn.*|MIOPEN_DEBUG_CONV_DIRECT_ASM_3X3U=0;${_em_on}"
    "DbUntouched|EnvMappingDb.*|MIOPEN_CUSTOM_CACHE_DIR=${_em}/cache_disabled;MIOPEN_USER_DB_PATH=${_em}/db_disabled"
    "DbUntouched.hipdnn_forwarding|EnvMappingDb.*|MIOPEN_CUSTOM_CACHE_DIR=${_em}/cache_enabled;MIOPEN_USER_DB_PATH=${_em}/db_enabled;${_em_on}")
  string(REPLACE "|" ";" _parts "${_case}")
  list(GET _parts 0 _name)
  list(GET _parts 1 _filter)
  list(SUBLIST _parts 2 -1 _env)
  if(NOT _env MATCHES "MIOPEN_USER_DB_PATH")
    list(APPEND _env "MIOPEN_USER_DB_PATH=${_em}/db") # Find's records stay in the build tree
  endif()
  add_test(NAME miopen_env_mapping.${_name} COMMAND miopen_env_mapping_test --gtest_filter=${_filter})
  set_tests_properties(miopen_env_mapping.${_name} PROPERTIES ENVIRONMENT "${_em_common};${_env}"
    FAIL_REGULAR_EXPRESSION "Running 0 tests")
endforeach()
