# MIOpenDriver tests (ctest -R miopen_driver). Each runs the driver from the build tree through
# run_driver_test.cmake (exit status + expected output) or replay_logged_commands.cmake
# (MIOPEN_ENABLE_LOGGING_CMD round trip). Shapes are small (<= ~4 MFLOP per call).
set(_drv_dir ${CMAKE_CURRENT_BINARY_DIR}/driver_tests)
set(_drv_run ${CMAKE_CURRENT_SOURCE_DIR}/run_driver_test.cmake)
set(_drv_replay ${CMAKE_CURRENT_SOURCE_DIR}/replay_logged_commands.cmake)

# Forwarded runs need the backend next to libMIOpen.so and engines in its plugin directory (the
# targets are defined later in the build: add_dependencies resolves them at generate time).
set(_drv_fwd_deps hipdnn_backend miopen_provider_plugin dnnl_provider_plugin hipdnn_example_engine_plugin)
add_custom_target(miopen_driver_test_deps ALL)
add_dependencies(miopen_driver_test_deps MIOpenDriver ${_drv_fwd_deps})

# miopen_driver_test(<name> ARGS <command line> [EXPECT <regex>...] [ENV <var=value>...] [WILL_FAIL])
function(miopen_driver_test name)
  cmake_parse_arguments(ARG "WILL_FAIL" "ARGS" "EXPECT;ENV" ${ARGN})
  list(JOIN ARG_EXPECT "|" _expect)
  add_test(NAME ${name}
    COMMAND ${CMAKE_COMMAND} -DDRIVER=$<TARGET_FILE:MIOpenDriver> "-DARGS=${ARG_ARGS}" "-DEXPECT=${_expect}"
            -DEXPECT_FAIL=$<BOOL:${ARG_WILL_FAIL}> -P ${_drv_run})
  # Each test its own find-db (and engine ranking file when forwarding), so `ctest -j` runs never
  # share one.
  set_tests_properties(${name} PROPERTIES
    ENVIRONMENT "MIOPEN_USER_DB_PATH=${_drv_dir}/${name}/db;${ARG_ENV}" TIMEOUT 300)
endfunction()

# Forwarded ops (the convolution family), -V 1, in both forwarding configurations. The enabled run
# adds -t 1 (miopenGetKernelTime reports forwarded calls) and checks each call's route in the
# wrapper's trace (MIOPEN_LOG_LEVEL=6).
set(_conv "-n 4 -c 16 -H 14 -W 14 -k 16 -y 3 -x 3 -p 1 -q 1 -i 2 -V 1")
foreach(_case
    "conv_fwd|conv ${_conv} -F 1|Forward Convolution Verifies OK on CPU reference|miopenConvolutionForward "
    "conv_bwd_data|conv ${_conv} -F 2|Backward Convolution Data Verifies OK on CPU reference|miopenConvolutionBackwardData "
    "conv_bwd_weights|conv ${_conv} -F 4|Backward Convolution Weights Verifies OK on CPU reference|miopenConvolutionBackwardWeights "
    "conv_grouped|conv -n 2 -c 16 -H 12 -W 12 -k 32 -y 3 -x 3 -p 1 -q 1 -u 2 -v 2 -g 4 -i 2 -V 1 -F 0|Backward Convolution Weights Verifies OK|miopenConvolutionForward "
    "conv_immediate|conv -n 2 -c 8 -H 12 -W 12 -k 16 -y 1 -x 1 -i 2 -V 1 -F 0 -S 0|Backward Convolution Weights Verifies OK|miopenConvolutionBackwardWeightsImmediate "
    "convfp16|convfp16 -n 2 -c 16 -H 12 -W 12 -k 16 -y 3 -x 3 -p 1 -q 1 -i 2 -V 1 -F 0|Backward Convolution Weights Verifies OK|miopenConvolutionBackwardData "
    "convbfp16|convbfp16 -n 2 -c 16 -H 12 -W 12 -k 16 -y 3 -x 3 -p 1 -q 1 -i 2 -V 1 -F 0|Backward Convolution Weights Verifies OK|miopenConvolutionBackwardWeights ")
  string(REPLACE "|" ";" _parts "${_case}")
  list(GET _parts 0 _name)
  list(GET _parts 1 _args)
  list(GET _parts 2 _ok)
  list(GET _parts 3 _entry)
  miopen_driver_test(miopen_driver_${_name} ARGS "${_args}" EXPECT "${_ok}"
    ENV "MIOPEN_HIPDNN_FORWARDING=disabled")
  miopen_driver_test(miopen_driver_${_name}.hipdnn_forwarding ARGS "${_args} -t 1"
    EXPECT "${_ok}" "GPU Kernel Time [A-Za-z ]+Conv. Elapsed: [0-9.]+ ms" "stats: [a-z]+-conv"
           "route ${_entry}mode=enabled route=hipdnn"
    ENV "MIOPEN_HIPDNN_FORWARDING=enabled"
        "HIPDNN_ENGINE_RANKING_DB=${_drv_dir}/miopen_driver_${_name}.hipdnn_forwarding/engine_ranking.txt"
        "MIOPEN_LOG_LEVEL=6")
endforeach()

# Forwarded batchnorm (spatial mode), -V 1, in both configurations; the enabled run adds -t 1 and
# checks the route of the call in the trace.
foreach(_case
    "bnorm_train|bnorm -n 4 -c 8 -H 8 -W 8 -m 1 --forw 1 -s 1 -r 1 -V 1|Forward Batch Norm Verifies on CPU and GPU|ForwardTraining"
    "bnorm_inference_spatial|bnorm -n 4 -c 8 -H 8 -W 8 -m 1 --forw 2 -r 1 -V 1|Forward Batch Norm Verifies on CPU and GPU|ForwardInference"
    "bnorm_backward|bnorm -n 4 -c 8 -H 8 -W 8 -m 1 -b 1 -s 1 -V 1|Backwards Prop Batch Norm Verifies on CPU and GPU|Backward"
    "bnormfp16_train|bnormfp16 -n 4 -c 8 -H 8 -W 8 -m 1 --forw 1 -s 1 -r 1 -V 1|Forward Batch Norm Verifies on CPU and GPU|ForwardTraining")
  string(REPLACE "|" ";" _parts "${_case}")
  list(GET _parts 0 _name)
  list(GET _parts 1 _args)
  list(GET _parts 2 _ok)
  list(GET _parts 3 _entry)
  miopen_driver_test(miopen_driver_${_name} ARGS "${_args}" EXPECT "${_ok}" ENV "MIOPEN_HIPDNN_FORWARDING=disabled")
  miopen_driver_test(miopen_driver_${_name}.hipdnn_forwarding ARGS "${_args} -t 1"
    EXPECT "${_ok}" "GPU Kernel Min Time [A-Za-z ]+Batch Normalization Elapsed: [0-9.]+ ms"
           "route miopenBatchNormalization${_entry}(_V2)? mode=enabled route=hipdnn"
    ENV "MIOPEN_HIPDNN_FORWARDING=enabled"
        "HIPDNN_ENGINE_RANKING_DB=${_drv_dir}/miopen_driver_${_name}.hipdnn_forwarding/engine_ranking.txt"
        "MIOPEN_LOG_LEVEL=6")
endforeach()

# The other families (not forwarded; per-activation batchnorm is declined): forwarding disabled.
foreach(_case
    "bnorm_inference|bnorm -n 4 -c 8 -H 8 -W 8 -m 0 --forw 2 -r 1 -V 1|Forward Batch Norm Verifies on CPU and GPU"
    "pool_max|pool --input 2x4x9x9,NCHW -y 3 -x 3 -p 1 -q 1 -v 2 -u 2 -m max -F 0 -i 2 -V 1|Backward Pooling Verifies OK on CPU reference"
    "pool_avg|pool --input 2x4x9x9 -y 3 -x 3 -p 1 -q 1 -v 2 -u 2 -m avg -F 0 -i 2 -V 1|Backward Pooling Verifies OK on CPU reference"
    "activ_relu|activ -n 2 -c 4 -H 8 -W 8 -m 3 -F 0 -i 2 -V 1|Backward Activation Verifies OK on CPU reference"
    "activ_elu|activ -n 2 -c 4 -H 8 -W 8 -m 9 -A 0.5 -F 0 -i 2 -V 1|Backward Activation Verifies OK on CPU reference"
    "softmax|softmax -n 2 -c 8 -H 4 -W 4 -F 0 -i 2 -V 1|Backward Softmax Verifies OK on CPU reference"
    "softmax_log|softmax -n 2 -c 8 -H 4 -W 4 -a 2 -m 0 -F 0 -i 2 -V 1|Backward Softmax Verifies OK on CPU reference")
  string(REPLACE "|" ";" _parts "${_case}")
  list(GET _parts 0 _name)
  list(GET _parts 1 _args)
  list(GET _parts 2 _ok)
  miopen_driver_test(miopen_driver_${_name} ARGS "${_args}" EXPECT "${_ok}" ENV "MIOPEN_HIPDNN_FORWARDING=disabled")
endforeach()

# MIOPEN_ENABLE_LOGGING_CMD: every logged command is accepted by the driver and reproduces the same
# `stats:` dimensions with -V 1 (forwarding disabled: forwarded calls never reach the logger).
foreach(_case
    "conv|conv -n 2 -c 8 -H 10 -W 10 -k 8 -y 3 -x 3 -p 1 -q 1 -u 2 -v 2 -g 2 -F 0 -i 1 -t 1"
    "conv_immediate|conv -n 2 -c 8 -H 10 -W 10 -k 8 -y 3 -x 3 -p 1 -q 1 -F 0 -i 1 -t 1 -S 0"
    "conv3d_trans|conv -n 1 -c 4 --in_d 6 -H 6 -W 6 -k 4 --fil_d 3 -y 3 -x 3 --pad_d 1 -p 1 -q 1 --spatial_dim 3 -m trans -g 2 -i 1 -t 1"
    "convfp16_nhwc|convfp16 -n 2 -c 8 -H 10 -W 10 -k 8 -y 3 -x 3 -p 1 -q 1 -F 0 -i 1 -t 1 --in_layout NHWC --out_layout NHWC --fil_layout NHWC"
    "bnorm_train|bnorm -n 4 -c 8 -H 8 -W 8 -m 1 --forw 1 -s 1 -r 1 -t 1"
    "bnorm_backward|bnorm -n 4 -c 8 -H 8 -W 8 -m 0 -b 1 -s 1 -t 1"
    "pool|pool --input 2x4x9x9 -y 3 -x 3 -p 1 -q 1 -v 2 -u 2 -m max -F 0 -i 1 -t 1 -I miopenIndexUint32"
    "activ|activ -n 2 -c 4 -H 8 -W 8 -m 8 -A 0.25 -F 0 -i 1 -t 1"
    "softmax|softmax -n 2 -c 8 -H 4 -W 4 -F 0 -a 2 -m 0 -i 1 -t 1")
  string(REPLACE "|" ";" _parts "${_case}")
  list(GET _parts 0 _name)
  list(GET _parts 1 _args)
  add_test(NAME miopen_driver_logging_cmd_replay_${_name}
    COMMAND ${CMAKE_COMMAND} -DDRIVER=$<TARGET_FILE:MIOpenDriver> "-DARGS=${_args}" -P ${_drv_replay})
  set_tests_properties(miopen_driver_logging_cmd_replay_${_name} PROPERTIES
    ENVIRONMENT "MIOPEN_USER_DB_PATH=${_drv_dir}/miopen_driver_logging_cmd_replay_${_name}/db;MIOPEN_HIPDNN_FORWARDING=disabled"
    TIMEOUT 300)
endforeach()

# Negative tests: a verification failure and an unknown flag exit non-zero.
miopen_driver_test(miopen_driver_corrupt_output_fails ARGS "conv ${_conv} -F 1" WILL_FAIL
  EXPECT "Forward Convolution FAILED: [0-9.e+-]+ > [0-9.e+-]+"
  ENV "MIOPEN_DRIVER_TEST_CORRUPT_OUTPUT=1")
miopen_driver_test(miopen_driver_corrupt_output_fails_bnorm ARGS "bnorm -n 4 -c 8 -H 8 -W 8 -m 1 -b 1 -V 1" WILL_FAIL
  EXPECT "Backwards prop batch norm verification FAILED on dx"
  ENV "MIOPEN_DRIVER_TEST_CORRUPT_OUTPUT=1")
miopen_driver_test(miopen_driver_unknown_flag ARGS "conv -n 2 --no_such_flag 1" WILL_FAIL
  EXPECT "Long Name: no_such_flag Not Found" "MIOpen Driver Input Flags")
