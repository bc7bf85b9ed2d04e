#!/usr/bin/env bash
# The main job: build what the demo needs, then run, through the public libMIOpen.so,
#   - the CNN example (examples/cnn: a small ResNet-style network; inference and one training
#     step, checked against its plain-loop reference, a finite-difference gradient check and a
#     loss that must decrease), and
#   - MIOpenDriver conv (forward, backward data, backward weights; -V 1 checks each against the
#     CPU reference) on three ResNet-50 layers,
# with forwarding disabled (every call in MIOpen Private) and with forwarding to hipDNN enabled
# (hipDNN's default, measured engine order), and print one table (what, route, engine, time with
# its spread, verified), the machine's load with a plain verdict on whether the times mean
# anything, and the routing trace of one forwarded call. Exits non-zero when anything fails.
#
# Two phases:
#   1. checks: each program once per mode with its verification on (cnn --check --grad-check,
#      MIOpenDriver -V 1), disabled then enabled. These runs also fill MIOpen's find-db and measure
#      hipDNN's engine ranking; they are not timed.
#   2. timed runs: DEMO_REPEATS rounds (default 7); in each, every program runs once per mode in
#      a fresh process (libMIOpen.so reads MIOPEN_HIPDNN_FORWARDING once per process), the order
#      alternating (disabled first, then enabled first, ...) between programs and rounds, so that a
#      slow minute of the machine hits both modes alike. A row's time is the median over the
#      rounds; its spread is their min-max. /proc/stat and the load average are read before and
#      after, and the demo's own CPU time is subtracted, giving the CPU time other processes took.
#
# Environment: BUILD_DIR (default ./build), JOBS (default nproc), DEMO_REPEATS (default 7, >= 3).
set -euo pipefail
cd "$(dirname "$0")/.."
build=${BUILD_DIR:-build}
jobs=${JOBS:-$(nproc)}
repeats=${DEMO_REPEATS:-7}
case "$repeats" in '' | *[!0-9]*) echo "DEMO_REPEATS must be a number" >&2; exit 2 ;; esac
[ "$repeats" -ge 3 ] || { echo "DEMO_REPEATS must be at least 3 (a median and a spread)" >&2; exit 2; }
mkdir -p "$build"
build=$(realpath "$build")
out="$build/demo"
log="$out/build.log"
rm -rf "$out"
mkdir -p "$out"
demo_start=$SECONDS

progress() { printf '[demo %s] %s\n' "$(date +%H:%M:%S)" "$*"; }
fail_with_log() {
  progress "$1; the last 60 lines of $2:"
  tail -n 60 "$2"
  exit 1
}

# --- build (output in $log; shown only on failure) -----------------------------------------
progress "configuring $build (log: $log)"
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release >"$log" 2>&1 || fail_with_log "configure FAILED" "$log"
targets=(cnn MIOpenDriver hipdnn_backend miopen_provider_plugin dnnl_provider_plugin)
progress "building ${targets[*]} with $jobs jobs (on a fresh machine this takes a while)"
cmake --build "$build" -j "$jobs" --target "${targets[@]}" >>"$log" 2>&1 &
builder=$!
next=$((SECONDS + 15))
while kill -0 "$builder" 2>/dev/null; do
  sleep 1
  if [ "$SECONDS" -ge "$next" ]; then
    step=$(grep -o '^\[[0-9]*/[0-9]*\]' "$log" | tail -n 1 || true)
    progress "  building: step ${step:-(starting)}"
    next=$((SECONDS + 15))
  fi
done
wait "$builder" || fail_with_log "build FAILED" "$log"
progress "build done"
build_s=$((SECONDS - demo_start))

# --- runs ----------------------------------------------------------------------------------
# hipDNN's measured engine ranking (docs/wrapper.md) is kept with the demo's outputs, not in
# ~/.cache, so every demo run starts from the same state. The enabled runs see the two real
# engines, MIOPEN_ENGINE and DNNL_ENGINE, as the performance report does (docs/perf): the build's
# plugin directory also holds the example plugin, whose naive engine never wins but costs seconds
# per layer every time the ranking is measured.
export HIPDNN_ENGINE_RANKING_DB="$out/engine_ranking.txt"
plugins="$out/plugins"
mkdir -p "$plugins"
for p in libhipdnn_miopen_provider_plugin.so libhipdnn_dnnl_provider_plugin.so; do
  [ -e "$build/lib/hipdnn_plugins/engines/$p" ] || { progress "$p was not built"; exit 1; }
  ln -s "$build/lib/hipdnn_plugins/engines/$p" "$plugins/$p"
done
export HIPDNN_PLUGIN_DIR="$plugins"

cnn_iterations=3
cnn_net=(--batch 16 --image 64 --width 32 --blocks 4 --warmup 1 --iterations "$cnn_iterations" --json --mark-calls)
# name | MIOpenDriver conv flags: three ResNet-50 layers at batch 2 (-V 1 checks every direction
# against a plain CPU reference, which dominates the run time: about 0.2-0.5 GFLOP per direction).
layers=(
  "res2 1x1 64->256 56x56|-n 2 -c 64 -H 56 -W 56 -k 256 -y 1 -x 1 -p 0 -q 0 -u 1 -v 1"
  "res3 3x3 128->128 28x28|-n 2 -c 128 -H 28 -W 28 -k 128 -y 3 -x 3 -p 1 -q 1 -u 1 -v 1"
  "res4 3x3/2 256->256 28x28|-n 2 -c 256 -H 28 -W 28 -k 256 -y 3 -x 3 -p 1 -q 1 -u 2 -v 2"
)
driver_check=(-F 0 -V 1 -t 1 -i 3) # the check run: every direction verified
driver_timed=(-F 0 -V 0 -t 1 -i 5) # a timed run: 'GPU Kernel Time' averages iterations 2..5

run() { # run <tag> <env...> -- <command...>: stdout to $out/<tag>.out, stderr (trace) to .trace
  local tag=$1; shift
  local envs=()
  while [ "$1" != "--" ]; do envs+=("$1"); shift; done
  shift
  local rc=0
  env MIOPEN_LOG_LEVEL=6 "${envs[@]}" "$@" >"$out/$tag.out" 2>"$out/$tag.trace" || rc=$?
  echo "$rc" >"$out/$tag.rc"
  if [ "$rc" -ne 0 ]; then
    progress "  $tag exited with status $rc; the end of its output and of its non-trace stderr:"
    tail -n 15 "$out/$tag.out"
    grep -v -E 'Info2|\[hipDNN\]\[info\]|^cnn-call' "$out/$tag.trace" | tail -n 15 || true
  fi
}

# program <index> <mode> <check|timed> <tag>: one run of program 0 (the CNN) or 1..3 (a layer).
program() {
  local i=$1 mode=$2 kind=$3 tag=$4
  if [ "$i" -eq 0 ]; then
    local extra=()
    [ "$kind" = check ] && extra=(--check --grad-check)
    run "$tag" "MIOPEN_HIPDNN_FORWARDING=$mode" -- "$build/bin/cnn" "${cnn_net[@]}" "${extra[@]}"
  else
    local entry=${layers[$((i - 1))]} flags
    if [ "$kind" = check ]; then flags=("${driver_check[@]}"); else flags=("${driver_timed[@]}"); fi
    # shellcheck disable=SC2086 # the layer's flags are words
    run "$tag" "MIOPEN_HIPDNN_FORWARDING=$mode" -- "$build/bin/MIOpenDriver" conv ${entry#*|} "${flags[@]}"
  fi
}

# One line per snapshot: label, wall clock (s), /proc/stat's cpu line, the user and system CPU time
# of this shell's finished children (bash's `times`), the load average. Builtins only: a snapshot
# forks nothing, so it costs no CPU time of its own to account for.
snapshot() {
  local stat="none" load="? ? ?" t
  { read -r stat </proc/stat; } 2>/dev/null || true
  { read -r load </proc/loadavg; } 2>/dev/null || true
  times >"$out/times.tmp" # in this shell: a subshell's `times` would not count this shell's children
  mapfile -t t <"$out/times.tmp"
  printf '%s|%s|%s|%s|%s\n' "$1" "$EPOCHREALTIME" "$stat" "${t[1]}" "$load" >>"$out/load.txt"
}

check_start=$SECONDS
progress "checks: the CNN (${cnn_net[*]:0:8} --check --grad-check), disabled then enabled"
program 0 disabled check "check-0-disabled"
program 0 enabled check "check-0-enabled"
for i in 1 2 3; do
  progress "checks: MIOpenDriver conv ${layers[$((i - 1))]#*|} ${driver_check[*]}, disabled then enabled"
  program "$i" disabled check "check-$i-disabled"
  program "$i" enabled check "check-$i-enabled"
done
check_s=$((SECONDS - check_start))

timed_start=$SECONDS
snapshot before
for ((r = 1; r <= repeats; r++)); do
  progress "timed round $r of $repeats: the CNN and the 3 layers (${driver_timed[*]}), each disabled and enabled, alternating which goes first"
  for i in 0 1 2 3; do
    if [ $(((r + i) % 2)) -eq 1 ]; then order=(disabled enabled); else order=(enabled disabled); fi
    for mode in "${order[@]}"; do
      snapshot "start timed-$i-$mode-$r"
      program "$i" "$mode" timed "timed-$i-$mode-$r"
      snapshot "end timed-$i-$mode-$r"
    done
  done
done
snapshot after
timed_s=$((SECONDS - timed_start))

# The routing trace of one forwarded call, with hipDNN's own log: the second layer's forward once
# more (its plan and engine ranking are known by now, as in any later call of a program).
progress "forwarding enabled: one traced call (MIOPEN_LOG_LEVEL=6, HIPDNN_LOG_LEVEL=info)"
l2=${layers[1]}
# shellcheck disable=SC2086
run "trace-call" MIOPEN_HIPDNN_FORWARDING=enabled HIPDNN_LOG_LEVEL=info -- \
  "$build/bin/MIOpenDriver" conv ${l2#*|} -F 1 -V 0 -i 1

# --- report --------------------------------------------------------------------------------
printf '%s\n' "${layers[@]}" >"$out/layers.txt"
status=0
/usr/bin/python3 - "$out" "$repeats" "${driver_timed[*]}" "$cnn_iterations" <<'PY' || status=$?
import json, os, re, statistics, sys, textwrap
from collections import Counter
out, repeats, driver_timed, ITERATIONS = sys.argv[1], int(sys.argv[2]), sys.argv[3], int(sys.argv[4])
route_re = re.compile(r"\[wrapper\] route (\w+) mode=\w+ route=(\w+) reason=(\S+)(?: engine=(\S+))?")
MODES = ("disabled", "enabled")

def read(name):
    with open(f"{out}/{name}") as f:
        return f.read()

def rc_of(tag):
    try:
        return int(read(f"{tag}.rc"))
    except (OSError, ValueError):
        return -1

def classify(m):
    if m.group(2) == "hipdnn":
        return "forwarded", m.group(4) or "?"
    return ("declined" if m.group(3).startswith("declined") else "pass-through"), "MIOpen Private"

def counted(counter):  # most frequent first
    return ", ".join(f"{k} x{n}" for k, n in sorted(counter.items(), key=lambda kv: (-kv[1], kv[0])))

def say(text):  # a paragraph under the table, wrapped
    print(textwrap.fill(text, width=120, break_on_hyphens=False))

failed = False
notes = []

# ---- the CNN: one row per phase ------------------------------------------------------------
PHASES = (("inference", "cnn inference (N={batch} {image}x{image})"), ("forward", "cnn training: forward + loss"),
          ("backward", "cnn training: backward"), ("update", "cnn training: SGD update"))

def cnn_json(tag):
    if rc_of(tag) != 0:
        return None
    try:
        return json.loads(read(f"{tag}.out"))
    except ValueError:
        return None

_cnn_routes = {}
def cnn_routes(tag):
    if tag not in _cnn_routes:
        _cnn_routes[tag] = parse_cnn_routes(tag)
    return _cnn_routes[tag]

def parse_cnn_routes(tag):
    """Per phase: the routes and engines of its marked calls, from the first route line of a
    forwarding-set entry point inside each call ('outside the set' when the call made none)."""
    per_phase, current, phase = {}, None, None
    for line in read(f"{tag}.trace").splitlines():
        if line.startswith("cnn-call "):
            phase, current = line.split()[1], []
            continue
        if line.startswith("cnn-call-end"):
            fwd = [m for m in current or [] if m.group(2) == "hipdnn" or m.group(3) != "not-in-forwarding-set"]
            route, engine = classify(fwd[0]) if fwd else ("outside the set", "MIOpen Private")
            r, e = per_phase.setdefault(phase, (Counter(), Counter()))
            r[route] += 1
            if route == "forwarded":
                e[engine] += 1
            current = None
            continue
        m = route_re.search(line)
        if m and current is not None:
            current.append(m)
    # Every timed iteration makes the same calls: counts per iteration.
    per_iteration = lambda c: Counter({k: -(-n // ITERATIONS) for k, n in c.items()})
    return {p: (counted(per_iteration(r)), counted(per_iteration(e)) or "MIOpen Private")
            for p, (r, e) in per_phase.items()}

def route_of(tags, get):
    """The route and engine of the last timed run; '*' when an earlier run had another."""
    seen = [get(t) for t in tags]
    seen = [s for s in seen if s is not None]
    if not seen:
        return ("-", "-")
    last = seen[-1]
    if any(s != last for s in seen):
        notes.append("*")
        return (last[0], last[1] + " *")
    return last

rows = []  # (mode, what, route, engine, samples, verified)
checked = {m: cnn_json(f"check-0-{m}") for m in MODES}
for mode in MODES:
    res = checked[mode]
    timed = [f"timed-0-{mode}-{r}" for r in range(1, repeats + 1)]
    runs = [cnn_json(t) for t in timed]
    if res is None or any(r is None or not r.get("ok") for r in runs):
        rows.append((mode, "cnn (did not complete)", "-", "-", [], False))
        continue
    ref, grad = res["reference_check"], res["grad_check"]
    ok = {"inference": ref["inference_max_diff"] <= ref["tolerance"],
          "forward": ref["training_max_diff"] <= ref["tolerance"],
          "backward": grad["failed"] == 0, "update": res["loss_decreased"]}
    for phase, label in PHASES:
        samples = [sum(c["ms"] for c in r["calls"] if c["phase"] == phase) for r in runs]
        route, engine = route_of(timed, lambda t: cnn_routes(t).get(phase))
        rows.append((mode, label.format(**res), route, engine, samples, ok[phase] and res["ok"]))

# ---- MIOpenDriver conv: one row per layer and direction ---------------------------------------
DIRS = (("miopenConvolutionForward", "Forward Conv", "Forward Convolution", "fwd"),
        ("miopenConvolutionBackwardData", "Backward Data Conv", "Backward Convolution Data", "bwd-data"),
        ("miopenConvolutionBackwardWeights", "Backward Weights Conv", "Backward Convolution Weights", "bwd-weights"))
layers = read("layers.txt").splitlines()
for mode in MODES:
    for i, entry in enumerate(layers, 1):
        name = entry.split("|")[0]
        check_tag = f"check-{i}-{mode}"
        check_text = read(f"{check_tag}.out")
        timed = [f"timed-{i}-{mode}-{r}" for r in range(1, repeats + 1)]
        for entry_point, label, verify, direction in DIRS:
            ok = rc_of(check_tag) == 0 and re.search(verify + r" Verifies OK", check_text) is not None
            samples = []
            for t in timed:
                m = re.search(r"GPU Kernel Time " + label + r"\. Elapsed: ([0-9.]+) ms", read(f"{t}.out"))
                if rc_of(t) != 0 or not m:
                    ok = False
                else:
                    samples.append(float(m.group(1)))

            def first_route(t, entry_point=entry_point):
                for m in route_re.finditer(read(f"{t}.trace")):
                    if m.group(1) == entry_point:
                        return classify(m)
                return None
            route, engine = route_of(timed, first_route)
            rows.append((mode, f"MIOpenDriver {name} {direction}", route, engine, samples, ok))

# ---- the machine's load: the whole timed phase and each timed run -------------------------------
def parse_snapshot(line):
    label, wall, stat, children, load = line.rstrip("\n").split("|")
    cpu = [int(x) for x in stat.split()[1:]] if stat.startswith("cpu ") else None
    secs = [int(m) * 60 + float(s) for m, s in re.findall(r"(\d+)m([\d.,]+)s", children.replace(",", "."))]
    return dict(label=label, wall=float(wall.replace(",", ".")), cpu=cpu,
                children=sum(secs) if len(secs) == 2 else None, load=" ".join(load.split()[:3]))

cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
tick = os.sysconf("SC_CLK_TCK")

def other_load(b, a):
    """(other processes' CPU, the hypervisor's steal), in cores, between two snapshots: /proc/stat's
    busy time (all but idle, iowait and steal) minus the CPU time of the demo's own processes."""
    if not (b and a and b["cpu"] and a["cpu"]) or b["children"] is None or a["children"] is None:
        return None
    wall = a["wall"] - b["wall"]
    if wall <= 0:
        return None
    d = [y - x for x, y in zip(b["cpu"], a["cpu"])] + [0] * 8
    busy = (sum(d[:8]) - d[3] - d[4] - d[7]) / tick  # user nice system idle iowait irq softirq steal
    return max(0.0, busy - (a["children"] - b["children"])) / wall, d[7] / tick / wall

snaps = {s["label"]: s for s in (parse_snapshot(l) for l in read("load.txt").splitlines() if l.strip())}
before, after = snaps.get("before"), snaps.get("after")
phase_load = other_load(before, after)
DISTURBED = 0.25 * cores  # a run during which other processes took more than a quarter of the cores
run_load = {}
for label, snap in snaps.items():
    if label.startswith("start "):
        tag = label[6:]
        run_load[tag] = other_load(snap, snaps.get("end " + tag))
disturbed = [t for t, l in run_load.items() if l is not None and sum(l) > DISTURBED]
with open(f"{out}/load_per_run.txt", "w") as f:
    f.write("# timed run, cores other processes took during it, cores the hypervisor took (steal)\n")
    for t, l in run_load.items():
        f.write(f"{t} {'%.3f %.3f' % l if l else '? ?'}\n")

# ---- the table ---------------------------------------------------------------------------------
NOISY = 0.2  # a row whose interquartile range is wider than a fifth of its median is noisy
def stats(samples):
    if not samples:
        return None
    v = sorted(samples)
    q1, _, q3 = statistics.quantiles(v, n=4, method="inclusive") if len(v) > 1 else (v[0], v[0], v[0])
    med = statistics.median(v)
    return dict(med=med, q1=q1, q3=q3, lo=v[0], hi=v[-1], rel=(q3 - q1) / med if med > 0 else float("inf"))

disabled_stats = {what: stats(s) for mode, what, _, _, s, _ in rows if mode == "disabled"}
table, noisy, timed_rows = [], 0, 0
for mode, what, route, engine, samples, ok in rows:
    failed = failed or not ok
    st = stats(samples)
    if st is None:
        table.append((mode, what, route, engine, "-", "-", "-", "", "yes" if ok else "NO"))
        continue
    timed_rows += 1
    flag = " !" if st["rel"] > NOISY else ""
    noisy += st["rel"] > NOISY
    ratio = ""
    base = disabled_stats.get(what)
    if mode == "enabled" and base:
        overlap = st["q1"] <= base["q3"] and base["q1"] <= st["q3"]
        ratio = f"{'~' if overlap else ''}{st['med'] / base['med']:.2f}x"
    table.append((mode, what, route, engine, f"{st['med']:.3f}", f"{st['q1']:.3f}-{st['q3']:.3f}{flag}",
                  f"{st['lo']:.3f}-{st['hi']:.3f}", ratio, "yes" if ok else "NO"))

head = ("forwarding", "layer or call", "route", "engine", "median ms", "IQR ms", "min-max ms", "vs disabled",
        "verified")
widths = [max(len(str(r[i])) for r in table + [head]) for i in range(len(head))]
right = {4, 5, 6, 7}
fmt = "  ".join(f"{{:{'>' if i in right else '<'}{w}}}" for i, w in enumerate(widths))
print()
print(fmt.format(*head))
print(fmt.format(*("-" * w for w in widths)))
for r in table:
    print(fmt.format(*r))

print()
say(f"(time: {repeats} timed runs per mode, each a fresh process, disabled and enabled alternating which runs "
      "first; median, interquartile range ('!' when wider than a fifth of the median) and min-max over them. CNN "
      f"rows: the sum over the phase's calls of each call's median hipEvent time over {ITERATIONS} iterations; MIOpenDriver "
      f"rows: its 'GPU Kernel Time' average over iterations 2..5 ({driver_timed}). vs disabled: enabled median / "
      "disabled median, '~' when the two interquartile ranges overlap (a difference within the noise). verified: "
      "the check runs (cnn --check --grad-check, MIOpenDriver -V 1), one per mode, not timed. route and engine: "
      "from the trace (MIOPEN_LOG_LEVEL=6) of the last timed run; the CNN rows count one iteration's calls of the "
      "phase by the route of their forwarding-set entry point ('outside the set': no such entry, e.g. the "
      "convolution's bias). Enabled: hipDNN's default engine order, measured, over MIOPEN_ENGINE and DNNL_ENGINE.)")
if notes:
    say("(*: an earlier timed run ran on another route or engine: the engine ranking was still provisional "
          "and was measured again, docs/wrapper.md)")

# ---- the verdict -------------------------------------------------------------------------------
print()
say(f"Machine: {cores} cores; load average (1/5/15 min) {before['load'] if before else '?'} before the "
      f"timed runs, {after['load'] if after else '?'} after (the demo's own processes count in it).")
if phase_load is not None:
    other, steal = phase_load
    say(f"Other processes took {other:.2f} of the {cores} cores over the timed runs "
          f"({after['wall'] - before['wall']:.0f} s; /proc/stat's busy time minus the demo's own CPU time)"
          f"{f', the hypervisor {steal:.2f} (steal)' if steal >= 0.01 else ''}; {len(disturbed)} of "
          f"{len(run_load)} timed runs were disturbed (others took more than {DISTURBED:.2f} cores during them; "
          "per run: load_per_run.txt).")
else:
    say("(/proc/stat could not be read: the verdict rests on the spread alone)")
limit = 0.25 * cores
reasons = []
if phase_load is not None and sum(phase_load) > limit:
    reasons.append(f"other processes took {sum(phase_load):.2f} cores over the timed runs, more than a quarter "
                   f"of the machine ({limit:.2f})")
if run_load and len(disturbed) > len(run_load) / 4:
    reasons.append(f"{len(disturbed)} of {len(run_load)} timed runs were disturbed")
if timed_rows and noisy > timed_rows / 4:
    reasons.append(f"{noisy} of {timed_rows} rows have an interquartile range wider than a fifth of their median")
if reasons:
    say("VERDICT: the machine was TOO BUSY for these times to mean anything (" + "; ".join(reasons) + "). "
          "The load does not change the checks, routes and engines above; rerun on a quiet machine to compare times.")
else:
    say(f"VERDICT: quiet enough for the medians: {noisy} of {timed_rows} rows noisy"
          f"{' (marked !: read them as unreliable)' if noisy else ''}; ratios marked '~' are within the noise.")
say("(rule: too busy when, over the timed runs, other processes and the hypervisor took more than a quarter "
      "of the cores, or more than a quarter of the runs were disturbed, or more than a quarter of the rows are "
      "noisy; the load average is shown but not used, since it counts the demo's own processes.)")

# ---- the routing trace of one forwarded call ---------------------------------------------------
# The lines its forward call wrote, from the route line of the call before it (Find's own
# benchmark and find-db lines left out) to its own route line.
trace = read("trace-call.trace").splitlines()
banner = [l for l in trace if "[wrapper]" in l and " route " not in l][:1]
idx = next((i for i, l in enumerate(trace) if "route miopenConvolutionForward " in l and "route=hipdnn" in l), None)
call = None
if idx is not None and rc_of("trace-call") == 0:
    start = max((i for i in range(idx) if "[wrapper] route " in trace[i]), default=-1) + 1
    call = [l for l in trace[start:idx + 1] if not re.search(r"\[(benchmark|find|applicableSolvers)\]", l)]
print(f"\nRouting trace of one forwarded call (MIOpenDriver conv {layers[1].split('|')[1]} -F 1; "
      "MIOPEN_LOG_LEVEL=6, HIPDNN_LOG_LEVEL=info):")
lines = []
for l in banner + (call or ["(no forwarded call found)"]):
    # Consecutive "API called" lines of hipDNN's log are joined into one.
    m = re.match(r"(\[hipDNN\]\[info\] API called: )(\w+)$", l)
    if m and lines and lines[-1].startswith(m.group(1)):
        lines[-1] += ", " + m.group(2)
    else:
        lines.append(l)
for l in lines:
    print("  " + l)
failed = failed or call is None
sys.exit(1 if failed else 0)
PY
total_s=$((SECONDS - demo_start))
progress "took ${total_s} s: build ${build_s} s, checks ${check_s} s, timed runs ${timed_s} s ($repeats rounds), the rest $((total_s - build_s - check_s - timed_s)) s"
if [ "$status" -ne 0 ]; then
  progress "demo FAILED (outputs and traces in $out)"
  exit "$status"
fi
progress "demo passed (outputs and traces in $out)"
