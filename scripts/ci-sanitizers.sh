#!/usr/bin/env bash
# CI sanitizer stages (issue 10; docs/sanitizers.md), called by .ci/run after the test command:
#
#   asan  one clang-14 tree with -fsanitize=address,undefined (-O1, line tables) of the whole
#         project; every ctest test of it except the explicit list below. Budget: 20 min from
#         scratch on the 2-core CI machine. The tree is kept for the fuzzers (clang, ASan).
#   tsan  one clang-14 tree with -fsanitize=thread: the libraries, the plugins and the
#         concurrency tests only (list below), with the reviewed suppressions
#         (cmake/sanitizers/tsan.supp) and the canary that proves they hide none of our races.
#         Budget: 8 min from scratch.
#   fuzz  the libFuzzer targets of fuzz/, built in the ASan tree (configured with
#         PROJECT_BUILD_FUZZERS=ON by both stages, so the asan stage has already built them), each
#         run from its committed seed corpus for an equal share of FUZZ_BUDGET_S (90 s; the
#         stage's budget is 2 min). A target fails the stage when it finds a crash, a sanitizer
#         report, a leak or a timeout (the input is kept under <tree>/fuzz-artifacts/), or when
#         it ran fewer than FUZZ_MIN_EXECS (10000) inputs: a fuzzer that barely runs tests nothing.
#
# Environment: SANITIZER_STAGES ("asan tsan fuzz" by default; any of them to run those),
# ASAN_BUILD_DIR (build-asan), TSAN_BUILD_DIR (build-tsan), JOBS (nproc), FUZZ_BUDGET_S,
# FUZZ_MIN_EXECS.
# The runtime options of each tree come from <tree>/sanitizer_env.sh (cmake/ProjectSanitizers.cmake).
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=${JOBS:-$(nproc)}
stages=${SANITIZER_STAGES:-asan tsan fuzz}
asan_build=${ASAN_BUILD_DIR:-build-asan}
tsan_build=${TSAN_BUILD_DIR:-build-tsan}
fuzz_budget=${FUZZ_BUDGET_S:-90}
fuzz_min_execs=${FUZZ_MIN_EXECS:-10000}

# -O1 with line tables: symbolized reports at a fraction of -O2 -g's compile time.
clang_args=(-G Ninja -DCMAKE_C_COMPILER=clang-14 -DCMAKE_CXX_COMPILER=clang++-14
  -DCMAKE_BUILD_TYPE=RelWithDebInfo
  "-DCMAKE_C_FLAGS_RELWITHDEBINFO=-O1 -gline-tables-only -DNDEBUG"
  "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -gline-tables-only -DNDEBUG")

# Tests the ASan/UBSan stage does not run, each with its reason (a ctest -E alternation). Every
# other test of the tree runs, the timing-only benchmark smokes included (they are short).
asan_excluded=(
  # Counts instructions per wrapper hop under valgrind: valgrind cannot run an ASan executable
  # (ASan's shadow memory), and the count is a measurement. benchmarks/wrapper/CMakeLists.txt
  # already leaves it out of sanitizer trees; listed so that every exclusion is seen here.
  'wrapper_hop_callgrind'
)

# The TSan stage: the targets it builds and the tests it runs (the concurrency tests).
tsan_targets=(
  MIOpen MIOpen_private hipdnn_backend                         # the libraries
  hipdnn_example_engine_plugin miopen_provider_plugin dnnl_provider_plugin   # the engines
  miopen_conv_concurrency_test miopen_tsan_canary              # this stage's own tests
  miopen_find_db_test                                          # find_db_concurrency_test (threads, forks)
  miopen_hipdnn_forwarding_test                                # the plan-cache latch case
  hipdnn_engine_ranking_tests                                  # threads ranking one graph
  dnnl_runtime_tests                                           # oneDNN's workers pinned per calling thread
)
tsan_tests='^(miopen_conv_concurrency|miopen_conv_concurrency\.hipdnn_forwarding|miopen_tsan_canary'
tsan_tests+='|miopen_HipdnnForwardingPlanCache'
tsan_tests+='|FindDbTest\.(ConcurrentProcessesKeepEveryRecord|ConcurrentThreadsKeepEveryRecord|WriterKilledWhileHoldingTheLockDoesNotWedgeOthers)'
tsan_tests+='|hipdnn_engine_ranking_tests\..*|dnnl_provider\.DnnlRuntimePlacement\..*)$'

# The ASan/UBSan tree, shared by the asan and fuzz stages: the fuzzers need clang and ASan, and
# PROJECT_BUILD_FUZZERS=ON compiles every target with -fsanitize=fuzzer-no-link (coverage for
# libFuzzer; the ordinary tests run unchanged), so either stage configures it the same way.
asan_args=("${clang_args[@]}" -DPROJECT_SANITIZE="address;undefined" -DPROJECT_BUILD_FUZZERS=ON)

summary=()

# run_ctest <tree> <label> <ctest filter args...>: prints how many tests ran.
run_ctest() {
  local tree=$1 label=$2
  shift 2
  local listed
  listed=$(ctest --test-dir "$tree" -N "$@" | sed -n 's/^Total Tests: //p')
  echo "ci-sanitizers: $label: running $listed tests"
  local rc=0
  ctest --test-dir "$tree" -j "$jobs" --output-on-failure --timeout 900 "$@" || rc=$?
  echo "ci-sanitizers: $label: $listed tests ran, ctest exit status $rc"
  return $rc
}

stage_asan() {
  local t0 t1 t2
  t0=$(date +%s)
  cmake -S . -B "$asan_build" "${asan_args[@]}" || return 1
  cmake --build "$asan_build" -j "$jobs" || return 1
  t1=$(date +%s)
  echo "ci-sanitizers: asan: configure + build $((t1 - t0)) s"
  local rc=0
  (
    # shellcheck disable=SC1091
    source "$asan_build/sanitizer_env.sh"
    export HIPDNN_ENGINE_RANKING_DB="$(realpath "$asan_build")/hipdnn_engine_ranking.txt"
    local exclude
    exclude=$(IFS='|'; echo "^(${asan_excluded[*]})\$")
    run_ctest "$asan_build" asan -E "$exclude"
  ) || rc=$?
  t2=$(date +%s)
  echo "ci-sanitizers: asan: tests $((t2 - t1)) s; stage $((t2 - t0)) s (budget 1200 s)"
  summary+=("asan/ubsan: build $((t1 - t0)) s, tests $((t2 - t1)) s, total $((t2 - t0)) s of 1200 s, ctest status $rc")
  return $rc
}

stage_tsan() {
  local t0 t1 t2
  t0=$(date +%s)
  cmake -S . -B "$tsan_build" "${clang_args[@]}" -DPROJECT_SANITIZE=thread -DPROJECT_BUILD_BENCHMARKS=OFF || return 1
  cmake --build "$tsan_build" -j "$jobs" --target "${tsan_targets[@]}" || return 1
  t1=$(date +%s)
  echo "ci-sanitizers: tsan: configure + build $((t1 - t0)) s"
  local rc=0
  (
    # shellcheck disable=SC1091
    source "$tsan_build/sanitizer_env.sh"
    export HIPDNN_ENGINE_RANKING_DB="$(realpath "$tsan_build")/hipdnn_engine_ranking.txt"
    run_ctest "$tsan_build" tsan -R "$tsan_tests"
  ) || rc=$?
  t2=$(date +%s)
  echo "ci-sanitizers: tsan: tests $((t2 - t1)) s; stage $((t2 - t0)) s (budget 480 s)"
  summary+=("tsan: build $((t1 - t0)) s, tests $((t2 - t1)) s, total $((t2 - t0)) s of 480 s, ctest status $rc")
  return $rc
}

stage_fuzz() {
  local t0 t1 t2
  t0=$(date +%s)
  cmake -S . -B "$asan_build" "${asan_args[@]}" || return 1
  cmake --build "$asan_build" -j "$jobs" --target fuzzers || return 1
  t1=$(date +%s)
  echo "ci-sanitizers: fuzz: configure + build $((t1 - t0)) s"
  local list="$asan_build/fuzz_targets.txt"
  local count
  count=$(wc -l < "$list")
  if [ "$count" -eq 0 ]; then
    echo "ci-sanitizers: fuzz: no fuzz targets in $list" >&2
    return 1
  fi
  local seconds=$((fuzz_budget / count))
  [ "$seconds" -ge 1 ] || seconds=1
  local rc=0 results=()
  local name seeds
  while read -r name seeds; do
    local work="$asan_build/fuzz-work/$name" artifacts="$asan_build/fuzz-artifacts/$name"
    rm -rf "$work"
    mkdir -p "$work" "$artifacts"
    local log="$asan_build/fuzz-work/$name.log" frc=0
    # New inputs go to the scratch corpus (first directory); the committed seeds stay read-only.
    # -timeout: one input running 10 s is a finding; -rss_limit_mb: so is 2 GiB of memory.
    (
      # shellcheck disable=SC1091
      source "$asan_build/sanitizer_env.sh"
      exec "$asan_build/bin/$name" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
        -print_final_stats=1 -artifact_prefix="$artifacts/" "$work" "$seeds"
    ) > "$log" 2>&1 < /dev/null || frc=$?
    local execs
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    execs=${execs:-0}
    local verdict=ok
    if [ "$frc" -ne 0 ]; then
      verdict="FAILED (exit status $frc; input in $artifacts)"
      rc=1
      tail -n 60 "$log"
    elif [ "$execs" -lt "$fuzz_min_execs" ]; then
      verdict="FAILED (fewer than $fuzz_min_execs executions)"
      rc=1
      tail -n 20 "$log"
    fi
    echo "ci-sanitizers: fuzz: $name: $execs executions in $seconds s: $verdict"
    results+=("$name $execs")
  done < "$list"
  t2=$(date +%s)
  echo "ci-sanitizers: fuzz: run $((t2 - t1)) s; stage $((t2 - t0)) s (budget 120 s for the runs)"
  summary+=("fuzz: build $((t1 - t0)) s, $count targets x $seconds s = $((t2 - t1)) s of 120 s, executions: ${results[*]}, status $rc")
  return $rc
}

status=0
for s in $stages; do
  case "$s" in
    asan) stage_asan || status=1 ;;
    tsan) stage_tsan || status=1 ;;
    fuzz) stage_fuzz || status=1 ;;
    *) echo "ci-sanitizers: unknown stage '$s'" >&2; exit 2 ;;
  esac
done
for line in "${summary[@]}"; do echo "ci-sanitizers: $line"; done
echo "ci-sanitizers: done (status $status)"
exit $status
