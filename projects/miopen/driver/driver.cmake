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

# miopen_driver_test_pair(<name> ARGS <command line> EXPECT <regex>... FORWARDED <regex>...)
# A case of a forwarded family, -V 1, in both forwarding configurations: miopen_driver_<name>
# with forwarding disabled, and miopen_driver_<name>.hipdnn_forwarding with it enabled, -t 1
# appended (miopenGetKernelTime reports forwarded calls) and the wrapper's trace on
# (MIOPEN_LOG_LEVEL=6); the twin must also match every FORWARDED regex: the kernel-time line and,
# per forwarded call, `route <entry> mode=enabled route=hipdnn`.
function(miopen_driver_test_pair name)
  cmake_parse_arguments(ARG "" "ARGS" "EXPECT;FORWARDED" ${ARGN})
  miopen_driver_test(miopen_driver_${name} ARGS "${ARG_ARGS}" EXPECT ${ARG_EXPECT}
    ENV "MIOPEN_HIPDNN_FORWARDING=disabled")
  miopen_driver_test(miopen_driver_${name}.hipdnn_forwarding ARGS "${ARG_ARGS} -t 1"
    EXPECT ${ARG_EXPECT} ${ARG_FORWARDED}
    ENV "MIOPEN_HIPDNN_FORWARDING=enabled"
        "HIPDNN_ENGINE_RANKING_DB=${_drv_dir}/miopen_driver_${name}.hipdnn_forwarding/engine_ranking.txt"
        "MIOPEN_LOG_LEVEL=6")
endfunction()

# One case per line: "<name>|<command line>|<expected output>|<regex the twin adds>|<forwarded
# entry point>[,<entry point>...]". Each entry point must show route=hipdnn in the twin's trace.
function(miopen_driver_test_pairs)
  foreach(_case IN LISTS ARGN)
    string(REPLACE "|" ";" _parts "${_case}")
    list(GET _parts 0 _name)
    list(GET _parts 1 _args)
    list(GET _parts 2 _ok)
    list(GET _parts 3 _timing)
    list(GET _parts 4 _entries)
    string(REPLACE "," ";" _entries "${_entries}")
    set(_routes "")
    foreach(_entry IN LISTS _entries)
      list(APPEND _routes "route ${_entry} mode=enabled route=hipdnn")
    endforeach()
    miopen_driver_test_pair(${_name} ARGS "${_args}" EXPECT "${_ok}" FORWARDED "${_timing}" ${_routes})
  endforeach()
endfunction()

# Convolution: the twin also checks upstream's stats line.
set(_conv "-n 4 -c 16 -H 14 -W 14 -k 16 -y 3 -x 3 -p 1 -q 1 -i 2 -V 1")
set(_conv_time "GPU Kernel Time [A-Za-z ]+Conv. Elapsed: [0-9.]+ ms")
foreach(_case
    "conv_fwd|conv ${_conv} -F 1|Forward Convolution Verifies OK on CPU reference|miopenConvolutionForward"
    "conv_bwd_data|conv ${_conv} -F 2|Backward Convolution Data Verifies OK on CPU reference|miopenConvolutionBackwardData"
    "conv_bwd_weights|conv ${_conv} -F 4|Backward Convolution Weights Verifies OK on CPU reference|miopenConvolutionBackwardWeights"
    "conv_grouped|conv -n 2 -c 16 -H 12 -W 12 -k 32 -y 3 -x 3 -p 1 -q 1 -u 2 -v 2 -g 4 -i 2 -V 1 -F 0|Backward Convolution Weights Verifies OK|miopenConvolutionForward"
    "conv_immediate|conv -n 2 -c 8 -H 12 -W 12 -k 16 -y 1 -x 1 -i 2 -V 1 -F 0 -S 0|Backward Convolution Weights Verifies OK|miopenConvolutionBackwardWeightsImmediate"
    "convfp16|convfp16 -n 2 -c 16 -H 12 -W 12 -k 16 -y 3 -x 3 -p 1 -q 1 -i 2 -V 1 -F 0|Backward Convolution Weights Verifies OK|miopenConvolutionBackwardData"
    "convbfp16|convbfp16 -n 2 -c 16 -H 12 -W 12 -k 16 -y 3 -x 3 -p 1 -q 1 -i 2 -V 1 -F 0|Backward Convolution Weights Verifies OK|miopenConvolutionBackwardWeights")
  string(REPLACE "|" ";" _parts "${_case}")
  list(GET _parts 0 _name)
  list(GET _parts 1 _args)
  list(GET _parts 2 _ok)
  list(GET _parts 3 _entry)
  miopen_driver_test_pair(${_name} ARGS "${_args}" EXPECT "${_ok}"
    FORWARDED "${_conv_time}" "stats: [a-z]+-conv" "route ${_entry} mode=enabled route=hipdnn")
endforeach()

# Batchnorm (spatial mode; per-activation is declined, below).
set(_bn_time "GPU Kernel Min Time [A-Za-z ]+Batch Normalization Elapsed: [0-9.]+ ms")
miopen_driver_test_pairs(
  "bnorm_train|bnorm -n 4 -c 8 -H 8 -W 8 -m 1 --forw 1 -s 1 -r 1 -V 1|Forward Batch Norm Verifies on CPU and GPU|${_bn_time}|miopenBatchNormalizationForwardTraining(_V2)?"
  "bnorm_inference_spatial|bnorm -n 4 -c 8 -H 8 -W 8 -m 1 --forw 2 -r 1 -V 1|Forward Batch Norm Verifies on CPU and GPU|${_bn_time}|miopenBatchNormalizationForwardInference(_V2)?"
  "bnorm_backward|bnorm -n 4 -c 8 -H 8 -W 8 -m 1 -b 1 -s 1 -V 1|Backwards Prop Batch Norm Verifies on CPU and GPU|${_bn_time}|miopenBatchNormalizationBackward(_V2)?"
  "bnormfp16_train|bnormfp16 -n 4 -c 8 -H 8 -W 8 -m 1 --forw 1 -s 1 -r 1 -V 1|Forward Batch Norm Verifies on CPU and GPU|${_bn_time}|miopenBatchNormalizationForwardTraining(_V2)?")

# Pooling. Max pooling forward with do_backward (-F 0: the driver's forward saves indices for its
# backward) is declined by the wrapper (workspace-indices: MIOpen's index workspace has no graph
# form), so the max cases check the backward route with -F 0 and the forward route with -F 1.
set(_pool_time "GPU Kernel Time [A-Za-z]+ Pooling Elapsed: [0-9.]+ ms")
set(_pool "-y 3 -x 3 -p 1 -q 1 -v 2 -u 2 -i 2 -V 1")
miopen_driver_test_pairs(
  "pool_max|pool --input 2x4x9x9,NCHW ${_pool} -m max -F 0|Backward Pooling Verifies OK on CPU reference|${_pool_time}|miopenPoolingBackward"
  "pool_max_fwd|pool --input 2x4x9x9,NCHW ${_pool} -m max -F 1|Forward Pooling Verifies OK on CPU reference|${_pool_time}|miopenPoolingForward"
  "pool_avg|pool --input 2x4x9x9 ${_pool} -m avg -F 0|Backward Pooling Verifies OK on CPU reference|${_pool_time}|miopenPoolingForward,miopenPoolingBackward"
  "pool3d_avg_in|pool --input 1x2x5x6x6 -Z 2 -y 2 -x 2 -s 2 -v 2 -u 2 -m avg_in -F 0 -i 2 -V 1|Backward Pooling Verifies OK on CPU reference|${_pool_time}|miopenPoolingForward,miopenPoolingBackward"
  "poolfp16_avg|poolfp16 --input 2x4x9x9 ${_pool} -m avg -F 0|Backward Pooling Verifies OK on CPU reference|${_pool_time}|miopenPoolingForward,miopenPoolingBackward"
  "poolbfp16_max_fwd|poolbfp16 --input 2x4x9x9,NHWC ${_pool} -m max -F 1|Forward Pooling Verifies OK on CPU reference|${_pool_time}|miopenPoolingForward")

# Activation (the twins avoid what the wrapper declines: POWER, scaled TANH, ABS and clipped-ReLU
# backward).
set(_activ_time "GPU Kernel Min Time [A-Za-z]+ Activation Elapsed: [0-9.]+ ms")
miopen_driver_test_pairs(
  "activ_relu|activ -n 2 -c 4 -H 8 -W 8 -m 3 -F 0 -i 2 -V 1|Backward Activation Verifies OK on CPU reference|${_activ_time}|miopenActivationForward,miopenActivationBackward"
  "activ_elu|activ -n 2 -c 4 -H 8 -W 8 -m 9 -A 0.5 -F 0 -i 2 -V 1|Backward Activation Verifies OK on CPU reference|${_activ_time}|miopenActivationForward,miopenActivationBackward"
  "activfp16_logistic|activfp16 -n 2 -c 4 -H 8 -W 8 -m 1 -F 0 -i 2 -V 1|Backward Activation Verifies OK on CPU reference|${_activ_time}|miopenActivationForward,miopenActivationBackward"
  "activbfp16_leaky|activbfp16 -n 2 -c 4 -H 8 -W 8 -m 8 -A 0.25 -F 0 -i 2 -V 1|Backward Activation Verifies OK on CPU reference|${_activ_time}|miopenActivationForward,miopenActivationBackward")

# Softmax (the driver calls the _V2 entry points).
set(_softmax_time "GPU Kernel Time [A-Za-z]+ Softmax Elapsed: [0-9.]+ ms")
miopen_driver_test_pairs(
  "softmax|softmax -n 2 -c 8 -H 4 -W 4 -F 0 -i 2 -V 1|Backward Softmax Verifies OK on CPU reference|${_softmax_time}|miopenSoftmaxForward_V2,miopenSoftmaxBackward_V2"
  "softmax_log|softmax -n 2 -c 8 -H 4 -W 4 -a 2 -m 0 -F 0 -i 2 -V 1|Backward Softmax Verifies OK on CPU reference|${_softmax_time}|miopenSoftmaxForward_V2,miopenSoftmaxBackward_V2"
  "softmaxfp16_fast|softmaxfp16 -n 2 -c 8 -H 4 -W 4 -a 0 -m 1 -F 0 -i 2 -V 1|Backward Softmax Verifies OK on CPU reference|${_softmax_time}|miopenSoftmaxForward_V2,miopenSoftmaxBackward_V2"
  "softmaxbfp16|softmaxbfp16 -n 2 -c 8 -H 4 -W 4 -F 0 -i 2 -V 1|Backward Softmax Verifies OK on CPU reference|${_softmax_time}|miopenSoftmaxForward_V2,miopenSoftmaxBackward_V2")

# Fusion plans (CBAInfer, one miopenExecuteFusionPlan per iteration). Plans with a convolution
# followed by batchnorm (-J 0, 1, 3) and per-activation batchnorm are declined by the wrapper:
# forwarding disabled only, below.
set(_cba "-n 2 -c 8 -H 10 -W 10 -k 8 -y 3 -x 3 -p 1 -q 1 -i 2 -V 1")
set(_cba_ok "Forward Fusion Verifies OK on CPU reference")
set(_cba_time "GPU Fused Kernel Min Time Elapsed: [0-9.]+ ms")
miopen_driver_test_pairs(
  "cbainfer|CBAInfer ${_cba} -J 4 -m 3|${_cba_ok}|${_cba_time}|miopenExecuteFusionPlan"
  "cbainfer_ca_grouped|CBAInfer ${_cba} -g 2 -u 2 -v 2 -J 5 -m 8 -A 0.1|${_cba_ok}|${_cba_time}|miopenExecuteFusionPlan"
  "cbainfer_cb|CBAInfer ${_cba} -J 6|${_cba_ok}|${_cba_time}|miopenExecuteFusionPlan"
  "cbainfer_na|CBAInfer -n 2 -c 8 -H 6 -W 6 -i 2 -V 1 -J 2 -M 1 -m 3|${_cba_ok}|${_cba_time}|miopenExecuteFusionPlan"
  "cbainfer3d|CBAInfer ${_cba} --spatial_dim 3 --in_d 4 --fil_d 3 --pad_d 1 -J 4 -m 9 -A 0.5|${_cba_ok}|${_cba_time}|miopenExecuteFusionPlan"
  "cbainferfp16|CBAInferfp16 ${_cba} -J 4|${_cba_ok}|${_cba_time}|miopenExecuteFusionPlan"
  "cbainferbfp16|CBAInferbfp16 ${_cba} -J 4|${_cba_ok}|${_cba_time}|miopenExecuteFusionPlan")

# Tensor operations: miopenOpTensor (-o 2..5) and miopenScaleTensor (-o 1).
set(_top "-n 2 -c 4 -H 8 -W 8 -i 3 -V 1")
set(_top_ok "Tensor Op Verifies OK on CPU reference")
set(_top_time "GPU Kernel Min Time Tensor Op Elapsed: [0-9.]+ ms")
miopen_driver_test_pairs(
  "tensorop_add|tensorop ${_top} -o 2 -A 0.5 -B 2 -G 0.25|${_top_ok}|${_top_time}|miopenOpTensor"
  "tensorop_max|tensorop ${_top} -o 5 -A 1.5 -B -1|${_top_ok}|${_top_time}|miopenOpTensor"
  "tensorop_scale|tensorop ${_top} -o 1 -v 0.5|${_top_ok}|${_top_time}|miopenScaleTensor"
  "tensoropfp16_mul|tensoropfp16 ${_top} -o 3 -A 0.5 -G 1|${_top_ok}|${_top_time}|miopenOpTensor"
  "tensoropfp16_scale|tensoropfp16 ${_top} -o 1 -v 2|${_top_ok}|${_top_time}|miopenScaleTensor"
  "tensoropbfp16_min|tensoropbfp16 ${_top} -o 4 -B 0.5|${_top_ok}|${_top_time}|miopenOpTensor")

# Cases the wrapper does not forward (per-activation batchnorm, fusion plans of a convolution
# followed by batchnorm, miopenSetTensor): forwarding disabled only.
foreach(_case
    "bnorm_inference|bnorm -n 4 -c 8 -H 8 -W 8 -m 0 --forw 2 -r 1 -V 1|Forward Batch Norm Verifies on CPU and GPU"
    "cbainfer_cbna|CBAInfer ${_cba} -J 0|${_cba_ok}"
    "cbainfer_cn_spatial|CBAInfer ${_cba} -J 3 -M 1|${_cba_ok}"
    "tensorop_set|tensorop ${_top} -o 0 -v 3|${_top_ok}")
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
    "softmax|softmax -n 2 -c 8 -H 4 -W 4 -F 0 -a 2 -m 0 -i 1 -t 1"
    "cbainfer|CBAInfer -n 2 -c 8 -H 10 -W 10 -k 8 -y 3 -x 3 -p 1 -q 1 -u 2 -v 2 -J 4 -i 1 -t 1")
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
miopen_driver_test(miopen_driver_corrupt_output_fails_cbainfer ARGS "CBAInfer ${_cba} -J 4" WILL_FAIL
  EXPECT "Forward Fusion FAILED: [0-9.e+-]+ > [0-9.e+-]+"
  ENV "MIOPEN_DRIVER_TEST_CORRUPT_OUTPUT=1")
miopen_driver_test(miopen_driver_corrupt_output_fails_tensorop ARGS "tensorop ${_top} -o 2 -G 1" WILL_FAIL
  EXPECT "Tensor Op FAILED: [0-9.e+-]+ > [0-9.e+-]+"
  ENV "MIOPEN_DRIVER_TEST_CORRUPT_OUTPUT=1")
miopen_driver_test(miopen_driver_unknown_flag ARGS "conv -n 2 --no_such_flag 1" WILL_FAIL
  EXPECT "Long Name: no_such_flag Not Found" "MIOpen Driver Input Flags")
