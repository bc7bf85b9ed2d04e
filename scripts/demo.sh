#!/usr/bin/env bash
# The main job: build, then run the demo of MIOpen calls.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${BUILD_DIR:-build}
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$build" -j "$(nproc)" --target miopen_demo
"$build/bin/miopen_demo" "$@"
