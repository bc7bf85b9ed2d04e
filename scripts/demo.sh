#!/usr/bin/env bash
# The main job: build what the demo needs, then run, through the public libMIOpen.so,
#   - the CNN example (examples/cnn: a small ResNet-style network; inference and one training
#     step, checked against its plain-loop reference, a finite-difference gradient check and a
#     loss that must decrease), and
#   - MIOpenDriver conv (forward, backward data, backward weights; -V 1 checks each against the
#     CPU reference) on three ResNet-50 layers,
# first with forwarding disabled (every call in MIOpen Private), then with forwarding to hipDNN
# enabled (default engine order), and print one table (what, route, engine, time, verified)
# and the routing trace of one forwarded call. Exits non-zero when anything fails.
#
# Environment: BUILD_DIR (default ./build), JOBS (default nproc).
set -euo pipefail
cd "$(dirname "$0")/.."
build=${BUILD_DIR:-build}
jobs=${JOBS:-$(nproc)}
mkdir -p "$build"
build=$(realpath "$build")
out="$build/demo"
log="$out/build.log"
rm -rf "$out"
mkdir -p "$out"

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

# --- runs ----------------------------------------------------------------------------------
# hipDNN's measured engine ranking (docs/wrapper.md) is kept with the demo's outputs, not in ~/.cache.
export HIPDNN_ENGINE_RANKING_DB="$out/engine_ranking.txt"
cnn_args=(--batch 16 --image 64 --width 32 --blocks 4 --warmup 1 --iterations 3 --check --grad-check --json
          --mark-calls)
# name | MIOpenDriver conv flags: three ResNet-50 layers at batch 2 (-V 1 checks every direction
# against a plain CPU reference, which dominates the run time: about 0.2-0.5 GFLOP per direction).
layers=(
  "res2 1x1 64->256 56x56|-n 2 -c 64 -H 56 -W 56 -k 256 -y 1 -x 1 -p 0 -q 0 -u 1 -v 1"
  "res3 3x3 128->128 28x28|-n 2 -c 128 -H 28 -W 28 -k 128 -y 3 -x 3 -p 1 -q 1 -u 1 -v 1"
  "res4 3x3/2 256->256 28x28|-n 2 -c 256 -H 28 -W 28 -k 256 -y 3 -x 3 -p 1 -q 1 -u 2 -v 2"
)

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

for mode in disabled enabled; do
  fwd_env=("MIOPEN_HIPDNN_FORWARDING=$mode")
  progress "forwarding $mode: CNN (${cnn_args[*]:0:8})"
  run "cnn-$mode" "${fwd_env[@]}" -- "$build/bin/cnn" "${cnn_args[@]}"
  i=0
  for entry in "${layers[@]}"; do
    i=$((i + 1))
    progress "forwarding $mode: MIOpenDriver conv ${entry#*|} -F 0 -V 1 -t 1 -i 3"
    # shellcheck disable=SC2086 # the flags are words
    run "driver$i-$mode" "${fwd_env[@]}" -- "$build/bin/MIOpenDriver" conv ${entry#*|} -F 0 -V 1 -t 1 -i 3
  done
done

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
/usr/bin/python3 - "$out" <<'PY' || status=$?
import json, re, sys
from collections import Counter
out = sys.argv[1]
conv_entries = ("miopenConvolutionForward", "miopenConvolutionBackwardData", "miopenConvolutionBackwardWeights")
route_re = re.compile(r"\[wrapper\] route (\w+) mode=\w+ route=(\w+) reason=(\S+)(?: engine=(\S+))?")

def classify(m):
    if m.group(2) == "hipdnn":
        return "forwarded", m.group(4) or "?"
    return ("declined" if m.group(3).startswith("declined") else "pass-through"), "MIOpen Private"

def read(name):
    with open(f"{out}/{name}") as f:
        return f.read()

rows, failed = [], False
def row(config, what, route, engine, ms, ok):
    global failed
    failed = failed or not ok
    rows.append((config, what, route, engine, "-" if ms is None else f"{ms:.3f}", "yes" if ok else "NO"))

def summary(items):  # items: list of (route, engine) of the convolution calls
    routes, engines = Counter(r for r, _ in items), Counter(e for r, e in items if r == "forwarded")
    route = ", ".join(f"{r} x{n}" for r, n in sorted(routes.items()))
    engine = ", ".join(f"{e} x{n}" for e, n in sorted(engines.items())) or "MIOpen Private"
    return route or "-", engine

for mode in ("disabled", "enabled"):
    # The CNN: one row per phase; route and engine of its convolution calls, from the trace.
    rc = int(read(f"cnn-{mode}.rc"))
    try:
        res = json.loads(read(f"cnn-{mode}.out"))
    except ValueError:
        res = None
    if rc != 0 or res is None:
        row(mode, "cnn (did not complete)", "-", "-", None, False)
    else:
        per_call, current = {}, None
        for line in read(f"cnn-{mode}.trace").splitlines():
            if line.startswith("cnn-call "):
                current = tuple(line.split()[1:4])
                continue
            if line.startswith("cnn-call-end"):
                current = None
                continue
            m = route_re.search(line)
            if m and current and current not in per_call and m.group(1) in conv_entries:
                per_call[current] = classify(m)
        ms = Counter()
        for c in res["calls"]:
            ms[c["phase"]] += c["ms"]
        ref, grad = res["reference_check"], res["grad_check"]
        size = f'N={res["batch"]} {res["image"]}x{res["image"]}'
        checks = {
            "inference": ("inference", f"cnn inference ({size})", ref["inference_max_diff"] <= ref["tolerance"]),
            "forward": ("forward", "cnn training: forward + loss", ref["training_max_diff"] <= ref["tolerance"]),
            "backward": ("backward", "cnn training: backward", grad["failed"] == 0),
            "update": ("update", "cnn training: SGD update", res["loss_decreased"]),
        }
        for phase, what, ok in checks.values():
            route, engine = summary([v for k, v in per_call.items() if k[0] == phase])
            if phase == "update":
                route = "pass-through (miopenOpTensor)"
            row(mode, what, route, engine, ms[phase], ok and res["ok"])
    # MIOpenDriver conv: one row per direction.
    for i, entry in enumerate(read("layers.txt").splitlines(), 1):
        name = entry.split("|")[0]
        text, trace, rc = read(f"driver{i}-{mode}.out"), read(f"driver{i}-{mode}.trace"), int(read(f"driver{i}-{mode}.rc"))
        first = {}
        for m in route_re.finditer(trace):
            first.setdefault(m.group(1), classify(m))
        for entry_point, label, verify in (
                ("miopenConvolutionForward", "Forward Conv", "Forward Convolution"),
                ("miopenConvolutionBackwardData", "Backward Data Conv", "Backward Convolution Data"),
                ("miopenConvolutionBackwardWeights", "Backward Weights Conv", "Backward Convolution Weights")):
            t = re.search(r"GPU Kernel Time " + label + r"\. Elapsed: ([0-9.]+) ms", text)
            ok = rc == 0 and re.search(verify + r" Verifies OK", text) is not None
            route, engine = first.get(entry_point, ("-", "-"))
            direction = {"Forward Conv": "fwd", "Backward Data Conv": "bwd-data", "Backward Weights Conv": "bwd-weights"}[label]
            row(mode, f"MIOpenDriver {name} {direction}", route, engine, float(t.group(1)) if t else None, ok)

head = ("forwarding", "layer or call", "route", "engine", "time (ms)", "verified")
widths = [max(len(str(r[i])) for r in rows + [head]) for i in range(len(head))]
fmt = "  ".join(f"{{:{'>' if i == 4 else '<'}{w}}}" for i, w in enumerate(widths))
print()
print(fmt.format(*head))
print(fmt.format(*("-" * w for w in widths)))
for r in rows:
    print(fmt.format(*r))
print("\n(time: CNN rows sum the median per-call hipEvent times of 3 iterations; MIOpenDriver rows are its "
      "'GPU Kernel Time' averages, -i 3; CNN routes count its convolution calls; BN, ReLU, pooling, "
      "softmax and add always run in MIOpen; every run traced at MIOPEN_LOG_LEVEL=6)")

# The routing trace of one forwarded call: the lines its forward call wrote, from the route line
# of the call before it (Find's own benchmark and find-db lines left out) to its own route line.
trace = read("trace-call.trace").splitlines()
banner = [l for l in trace if "[wrapper]" in l and " route " not in l][:1]
idx = next((i for i, l in enumerate(trace) if "route miopenConvolutionForward " in l and "route=hipdnn" in l), None)
call = None
if idx is not None and int(read("trace-call.rc")) == 0:
    start = max((i for i in range(idx) if "[wrapper] route " in trace[i]), default=-1) + 1
    call = [l for l in trace[start:idx + 1] if not re.search(r"\[(benchmark|find|applicableSolvers)\]", l)]
print(f"\nRouting trace of one forwarded call (MIOpenDriver conv {read('layers.txt').splitlines()[1].split('|')[1]} -F 1; "
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
if [ "$status" -ne 0 ]; then
  progress "demo FAILED (outputs and traces in $out)"
  exit "$status"
fi
progress "demo passed (outputs and traces in $out)"
