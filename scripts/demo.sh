#!/usr/bin/env bash
# The main job: build, then run the demo of MIOpen convolution calls (forward, backward data,
# backward weights; Find, execute, immediate mode) through the public libMIOpen.so
#   1. pass-through (MIOPEN_HIPDNN_FORWARDING unset: every call runs in MIOpen Private),
#   2. forwarded to hipDNN with the default engine order,
#   3. forwarded with each installed engine ranked first (MIOpen, oneDNN),
# each checked against MIOpen's naive solvers; the routing trace shows where each call went.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${BUILD_DIR:-build}
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$build" -j "$(nproc)" --target miopen_demo hipdnn_backend hipdnn_example_engine_plugin \
  dnnl_provider_plugin miopen_provider_plugin >/dev/null
demo="$build/bin/miopen_demo"
routes='route miopenConvolution(Forward|BackwardData|BackwardWeights) '

echo "== 1. pass-through (MIOPEN_HIPDNN_FORWARDING unset)"
"$demo" "$@"

run_forwarded() {
  local title=$1; shift
  echo
  echo "== $title"
  env MIOPEN_HIPDNN_FORWARDING=enabled MIOPEN_LOG_LEVEL=6 "$@" "$demo" 2>"$build/demo_trace.txt" | sed -n '/^results/,$p'
  grep -E "$routes" "$build/demo_trace.txt" | sed 's/^MIOpen(HIP): Info2 \[wrapper\] /  trace: /'
}
run_forwarded "2. forwarded to hipDNN, default engine order"
run_forwarded "3a. forwarded, MIOPEN_ENGINE first" MIOPEN_HIPDNN_PREFERRED_ENGINE=MIOPEN_ENGINE
run_forwarded "3b. forwarded, DNNL_ENGINE first" MIOPEN_HIPDNN_PREFERRED_ENGINE=DNNL_ENGINE
