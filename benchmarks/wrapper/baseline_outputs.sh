#!/usr/bin/env bash
# ctest baseline_outputs (label baseline): the same convolution problems, inputs and solvers
# through the pre-split baseline libMIOpen.so and through the current Public library (forwarding
# disabled); every output must be bitwise identical (conv_dump compare).
#
#   baseline_outputs.sh BASE_EXE BASE_LIBDIR CUR_EXE CUR_LIBDIR WORKDIR [ALLOW_DIFF_IDS]
# BASE_EXE is conv_dump built against the baseline's miopen.h; each run checks (/proc/self/maps)
# that the intended library was loaded. The find-db is off (MIOPEN_DEBUG_DISABLE_FIND_DB), so the
# plain calls pick the registry's first solver of each algorithm, not a timing-dependent one.
set -euo pipefail
base_exe=$1 base_lib=$2 cur_exe=$3 cur_lib=$4 work=$5 allow=${6:-}
rm -rf "$work" && mkdir -p "$work"
unset MIOPEN_FIND_MODE MIOPEN_FIND_ENFORCE MIOPEN_USER_DB_PATH MIOPEN_LOG_LEVEL MIOPEN_ENABLE_LOGGING \
      MIOPEN_ENABLE_LOGGING_CMD MIOPEN_DISABLE_HIPDNN_FOR
export MIOPEN_NUM_THREADS=${MIOPEN_NUM_THREADS:-2} MIOPEN_DEBUG_DISABLE_FIND_DB=1 MIOPEN_HIPDNN_FORWARDING=disabled
LD_LIBRARY_PATH="$base_lib" "$base_exe" dump "$work/baseline.bin" --expect-lib-dir="$base_lib"
LD_LIBRARY_PATH="$cur_lib" "$cur_exe" dump "$work/current.bin" --expect-lib-dir="$cur_lib"
"$cur_exe" compare "$work/baseline.bin" "$work/current.bin" ${allow:+--allow-diff="$allow"} | tee "$work/compare.txt"
