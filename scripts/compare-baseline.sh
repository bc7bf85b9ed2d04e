#!/usr/bin/env bash
# One-time comparisons of MIOpen Public (forwarding disabled) against the pre-split baseline
# library (issue 5, "Before the split"; RFC 8.1 stage 1, RFC 4.8):
#   - outputs: every convolution solver, Find + the plain calls, bitwise (ctest baseline_outputs);
#   - find-db: a find-db written by the baseline is read by the current library (baseline_find_db);
#   - the split commit's own library (default 9c4a536) against the baseline
#     (baseline_outputs_split, no difference allowed), to tell "the split changed outputs" (must
#     never happen) from "later solver work changed outputs";
#   - with --bench: the end-to-end workload and cold-load comparison (wrapper_report.py).
#
#   scripts/compare-baseline.sh [--split=COMMIT | --no-split] [--bench] [BASELINE_COMMIT]
#
# BASELINE_COMMIT defaults to b2b0e5d (the last commit before the split 9c4a536). It is exported
# with `git archive` (never a worktree) into $BASELINE_WORK/<commit>/src and only its libMIOpen.so
# is built (Release; tests, benchmarks and hipDNN off); a finished build is reused. The current
# build is $BUILD_DIR (default ./build, configured here if missing); this script sets
# MIOPEN_BASELINE_LIBRARY_DIR in its cache, builds the comparison programs and runs
# `ctest -L baseline`, then prints a verdict table.
#
# Environment: BUILD_DIR, BASELINE_WORK (default $BUILD_DIR/baseline), JOBS (default nproc),
# BASELINE_ALLOW_DIFF (solver ids whose outputs may differ between the baseline and the current
# build because their code changed after the split; default 1001: 5e6efca rewrote the Winograd
# F(4x4,3x3) filter transform and gathers, which changes rounding; set it empty to see every
# difference fail). The split commit's comparison never allows a difference.
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build_dir=${BUILD_DIR:-$repo/build}
work=${BASELINE_WORK:-$build_dir/baseline}
jobs=${JOBS:-$(nproc)}
baseline_commit=b2b0e5d
split_commit=9c4a536
bench=0
for arg in "$@"; do
  case $arg in
    --no-split) split_commit="" ;;
    --split=*) split_commit=${arg#--split=} ;;
    --bench) bench=1 ;;
    -h|--help) sed -n '2,28p' "$0"; exit 0 ;;
    -*) echo "compare-baseline: unknown option $arg" >&2; exit 2 ;;
    *) baseline_commit=$arg ;;
  esac
done
generator=()
command -v ninja >/dev/null && generator=(-G Ninja)

# Builds libMIOpen.so of one commit; prints its lib directory.
build_commit_library() {
  local commit sha dir
  commit=$1
  sha=$(git -C "$repo" rev-parse --verify "$commit^{commit}")
  dir=$work/${sha:0:12}
  if [ -f "$dir/build/lib/libMIOpen.so.1" ] && [ -f "$dir/built.stamp" ]; then
    echo "compare-baseline: reusing the build of $commit in $dir" >&2
    echo "$dir/build/lib"
    return
  fi
  echo "compare-baseline: exporting $commit (${sha:0:12}) into $dir/src" >&2
  rm -rf "$dir"
  mkdir -p "$dir/src"
  git -C "$repo" archive "$sha" | tar -x -C "$dir/src"
  # b2b0e5d deleted projects/miopen/src/libMIOpen.map while its CMakeLists.txt still links with it
  # (the commit was verified together with the next one): take the file from the last commit
  # that had it. The map only says which symbols are exported; it compiles nothing.
  local map=projects/miopen/src/libMIOpen.map
  if grep -q 'libMIOpen.map' "$dir/src/projects/miopen/src/CMakeLists.txt" 2>/dev/null && [ ! -f "$dir/src/$map" ]; then
    local deleter
    deleter=$(git -C "$repo" rev-list -1 "$sha" -- "$map")
    if [ -n "$deleter" ]; then
      git -C "$repo" show "$deleter^:$map" >"$dir/src/$map"
      echo "compare-baseline: $map is missing in $commit; restored from ${deleter:0:12}^" >&2
    fi
  fi
  cmake -S "$dir/src" -B "$dir/build" "${generator[@]}" -DCMAKE_BUILD_TYPE=Release -DBUILD_TESTING=OFF \
    -DPROJECT_BUILD_BENCHMARKS=OFF -DPROJECT_BUILD_HIPDNN=OFF >"$dir/configure.log" 2>&1 ||
    { tail -30 "$dir/configure.log" >&2; exit 1; }
  cmake --build "$dir/build" -j "$jobs" --target MIOpen >"$dir/build.log" 2>&1 ||
    { tail -30 "$dir/build.log" >&2; exit 1; }
  echo "$sha" >"$dir/built.stamp"
  echo "$dir/build/lib"
}

base_lib=$(build_commit_library "$baseline_commit")
split_lib=""
[ -n "$split_commit" ] && split_lib=$(build_commit_library "$split_commit")

if [ ! -f "$build_dir/CMakeCache.txt" ]; then
  cmake -S "$repo" -B "$build_dir" "${generator[@]}" -DCMAKE_BUILD_TYPE=Release
fi
cmake -S "$repo" -B "$build_dir" -DMIOPEN_BASELINE_LIBRARY_DIR="$base_lib" -DMIOPEN_BASELINE_INCLUDE_DIR= \
  -DMIOPEN_SPLIT_LIBRARY_DIR="$split_lib" -DMIOPEN_BASELINE_ALLOW_DIFF="${BASELINE_ALLOW_DIFF-1001}" >/dev/null
targets=(MIOpen wrapper_conv_dump wrapper_conv_dump_baseline)
[ "$bench" -eq 1 ] && targets+=(wrapper_conv_workload)
cmake --build "$build_dir" -j "$jobs" --target "${targets[@]}"

set +e
ctest --test-dir "$build_dir" -L baseline --output-on-failure >"$build_dir/baseline-ctest.log" 2>&1
ctest_rc=$?
set -e
cat "$build_dir/baseline-ctest.log"

results=$build_dir/benchmarks/wrapper/baseline
echo
echo "## Pre-split baseline comparison"
echo
echo "baseline: $baseline_commit ($base_lib)${split_lib:+; split: $split_commit ($split_lib)}; current: $build_dir/lib"
echo
echo "| check | verdict | summary |"
echo "|---|---|---|"
row() { # test name, results subdirectory
  local verdict summary
  verdict=$(grep -E "^ *[0-9]+/[0-9]+ Test +#[0-9]+: $1 " "$build_dir/baseline-ctest.log" | grep -q Passed && echo PASS || echo FAIL)
  summary=$(grep -h '^summary:' "$results/$2/compare.txt" 2>/dev/null | sed 's/^summary: //' || true)
  echo "| $1 | $verdict | ${summary:-see the ctest log} |"
}
row baseline_outputs outputs
row baseline_find_db find_db
[ -n "$split_lib" ] && row baseline_outputs_split outputs_split

if [ "$bench" -eq 1 ]; then
  echo
  python3 "$repo/benchmarks/wrapper/wrapper_report.py" --build-dir "$build_dir" --baseline-lib-dir "$base_lib" \
    --sections baseline
fi
exit $ctest_rc
