#!/usr/bin/env bash
# The test command: configure, build and run every test from scratch in ./build (or $BUILD_DIR).
set -euo pipefail
cd "$(dirname "$0")/.."
build=${BUILD_DIR:-build}
jobs=${JOBS:-$(nproc)}
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release
cmake --build "$build" -j "$jobs"
# hipDNN's measured engine ranking (projects/hipdnn/README.md) is kept in the build tree, not in
# the user's ~/.cache, while the tests run.
export HIPDNN_ENGINE_RANKING_DB="${HIPDNN_ENGINE_RANKING_DB:-$(realpath "$build")/hipdnn_engine_ranking.txt}"
ctest --test-dir "$build" -j "$jobs" --output-on-failure --timeout 600
