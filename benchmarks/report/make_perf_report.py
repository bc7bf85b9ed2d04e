#!/usr/bin/env python3
"""Performance report (issue 9, Phase 4): forwarding disabled vs enabled on one build, one run.

Runs, on the build given by --build-dir, each in fresh processes with the variants interleaved:
  engines   benchmarks/engines/engines_bench: ResNet-50 convolutions F/B/W, pass-through
            (forwarding disabled), forwarded with each engine pinned, forwarded with hipDNN's
            default engine order (engines_bench itself interleaves the four child processes per case)
  cnn       examples/cnn --json: inference and one training step, per layer and direction,
            disabled vs enabled (default engine order), alternating which goes first; one untimed
            traced run (MIOPEN_LOG_LEVEL=6 --mark-calls --check) names the route of every call
  wrapper   benchmarks/wrapper/wrapper_report.py (sections hop, forwarding, coldstart): the hop,
            steady state with MIOPEN_ENGINE pinned, per-call translation / plan-cache hit, cold
            graph builds, cold start; its Markdown is parsed for the summary and kept verbatim
  families  every forwarded family other than convolution, per call and shape, disabled vs enabled
            (default engine order): wrapper_families_bench (activation, tensor ops, batchnorm,
            fusion plans; Google Benchmark) and wrapper_pooling_softmax_bench (pooling, softmax),
            each run as child processes by this script, the two modes alternating which goes first,
            --families-runs rounds; one untimed traced run names each case's route and engine.
            Convolution's table in that section is (a)'s rows (pass-through vs default order)
The machine's load is recorded for the whole run and for each section: the load average, and the
CPU time other processes took (/proc/stat's busy time minus this script's and its children's).
Then it writes, under --out-dir (default docs/perf): README.md (machine, tables with ratios, the
indicators for the default flip), PNG plots (needs python3-matplotlib; /usr/bin/python3 on
Debian) and raw/ (every program's output the tables were built from, and report.json).

A Markdown block between the lines "<!-- notes:begin -->" and "<!-- notes:end -->" in an
existing README.md is kept when the report is regenerated (hand-written reading of the data).

  make_perf_report.py --quick          # minutes: 2 layers at batch 2, a small CNN, few runs, families at N=2
  make_perf_report.py                  # the moderate run: 8 layers at batch 8, CNN batch 8
  make_perf_report.py --full           # 22 layers at batch 32, CNN batch 32, more runs (long)
"""
import argparse
import datetime
import json
import math
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.path.abspath(os.path.join(HERE, "..", ".."))
NOTES_BEGIN = "<!-- notes:begin -->"
NOTES_END = "<!-- notes:end -->"

# Presets: moderate (default), quick, full. Each value can be overridden by its option.
PRESETS = {
    "quick": dict(engines_filter="c4_1x1_1024_256,c4_3x3_256_s2", engines_batch=2, engines_repeats=1,
                  engines_reps=2, cnn_batch=2, cnn_image=32, cnn_width=8, cnn_blocks=2, cnn_runs=3,
                  cnn_iterations=2, wrapper_runs=5, wrapper_batch=2, wrapper_iters=3, cold_batches="1",
                  hop_calls=2000000, families_batch=2, families_runs=3, families_min_time=0.02, families_iters=5),
    "moderate": dict(engines_filter="c2_3x3_64,c2_1x1_256_64,c3_3x3_128_s2,c3_1x1_128_512,c4_1x1_1024_256,"
                                    "c4_1x1_512_1024_s2,c5_3x3_512",
                     engines_batch=8, engines_repeats=3, engines_reps=3, cnn_batch=8, cnn_image=64, cnn_width=16,
                     cnn_blocks=3, cnn_runs=7, cnn_iterations=3, wrapper_runs=5, wrapper_batch=8, wrapper_iters=5,
                     cold_batches="1,8", hop_calls=20000000, families_batch=8, families_runs=5, families_min_time=0.05,
                     families_iters=10),
    "full": dict(engines_filter="", engines_batch=32, engines_repeats=3, engines_reps=3, cnn_batch=32, cnn_image=64,
                 cnn_width=16, cnn_blocks=4, cnn_runs=11, cnn_iterations=5, wrapper_runs=9, wrapper_batch=8,
                 wrapper_iters=5, cold_batches="1,8", hop_calls=20000000, families_batch=32, families_runs=7,
                 families_min_time=0.1, families_iters=10),
}
CONFIGS = ("pass", "miopen", "dnnl", "default")
POLICY = os.path.join(SOURCE, "projects", "miopen", "wrapper", "generator", "policy.txt")


def forwarding_set():
    """The forwarded families in the order policy.txt declares them, and {entry point: family}: the forwarding set
    is declared once, in the generator's policy file ('family <name> <record>' then its 'forward <entry> ...')."""
    families, family_of_entry, current = [], {}, None
    with open(POLICY) as f:
        for line in f:
            w = line.split()
            if len(w) >= 2 and w[0] == "family":
                current = w[1]
                families.append(current)
            elif len(w) >= 2 and w[0] == "forward" and current:
                family_of_entry[w[1]] = current
    if not families:
        sys.exit("make_perf_report: error: no 'family' line in %s" % POLICY)
    return tuple(families), family_of_entry


FAMILIES, FAMILY_OF_ENTRY = forwarding_set()
DIRS = {"F": "forward", "B": "backward data", "W": "backward weights"}


def die(msg):
    sys.exit("make_perf_report: error: " + msg)


def loadavg():
    with open("/proc/loadavg") as f:
        return " ".join(f.read().split()[:3])


class CpuMeter:
    """The CPU time other processes took between start and stop, in cores: /proc/stat's busy time (all but idle,
    iowait and steal) minus this process's and its finished children's (getrusage), over the wall time; and the
    hypervisor's steal. /proc/stat counts 10 ms ticks, so a short interval reads within a few ticks."""

    def __init__(self):
        self.t0, self.stat0, self.ours0, self.load0 = time.monotonic(), self._stat(), self._ours(), loadavg()

    @staticmethod
    def _stat():
        try:
            with open("/proc/stat") as f:
                return [int(x) for x in f.readline().split()[1:]] + [0] * 8
        except (OSError, ValueError):
            return None

    @staticmethod
    def _ours():
        a, b = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
        return a.ru_utime + a.ru_stime + b.ru_utime + b.ru_stime

    def stop(self):
        wall = time.monotonic() - self.t0
        stat, r = self._stat(), dict(wall_s=wall, load_start=self.load0, load_end=loadavg())
        if stat and self.stat0 and wall > 0:
            d = [b - a for a, b in zip(self.stat0, stat)]
            tick = os.sysconf("SC_CLK_TCK")
            busy = (sum(d[:8]) - d[3] - d[4] - d[7]) / tick
            r["other_cores"] = max(0.0, busy - (self._ours() - self.ours0)) / wall
            r["steal_cores"] = d[7] / tick / wall
        return r


def cores():
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)


def fmt_load(m):
    """'load average A at start, B at end; other processes took X of N cores' for a CpuMeter result."""
    if not m:
        return "load not recorded"
    t = "load average %s at start, %s at end" % (m["load_start"], m["load_end"])
    if "other_cores" in m:
        t += "; other processes took %.2f of %d cores%s" % (
            m["other_cores"], cores(), ", the hypervisor %.2f (steal)" % m["steal_cores"] if m["steal_cores"] >= 0.01 else "")
    return t


def med(v):
    return statistics.median(v) if v else float("nan")


def geomean(v):
    v = [x for x in v if x > 0 and math.isfinite(x)]
    return math.exp(sum(math.log(x) for x in v) / len(v)) if v else float("nan")


def fmt_ratio(r):
    return "-" if not math.isfinite(r) else "%.3f" % r


def child_env(extra, threads):
    """The environment of a measured child: no MIOPEN_/HIPDNN_ settings inherited from the caller."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("MIOPEN_", "HIPDNN_"))}
    if threads:
        env["MIOPEN_NUM_THREADS"] = threads
        env["OMP_NUM_THREADS"] = threads
    env.update(extra)
    return env


def run(cmd, env, what, check=True):
    t0 = time.perf_counter()
    p = subprocess.run(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    wall = time.perf_counter() - t0
    if check and p.returncode != 0:
        die("%s failed (exit %d): %s\n%s%s" % (what, p.returncode, " ".join(cmd), p.stdout[-4000:], p.stderr[-4000:]))
    return p, wall


# ---- machine ----------------------------------------------------------------------------------

def machine_info(build_dir):
    info = {"date_utc": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")}
    try:
        out = subprocess.run(["lscpu"], stdout=subprocess.PIPE, text=True, env=dict(os.environ, LC_ALL="C")).stdout
        fields = dict(l.split(":", 1) for l in out.splitlines() if ":" in l)
        fields = {k.strip(): v.strip() for k, v in fields.items()}
        info["cpu_model"] = fields.get("Model name", "?")
        info["cpus"] = fields.get("CPU(s)", str(os.cpu_count()))
        info["threads_per_core"] = fields.get("Thread(s) per core", "?")
        info["hypervisor"] = fields.get("Hypervisor vendor", "")
        flags = fields.get("Flags", "").split()
        info["isa"] = ", ".join(f for f in ("avx2", "avx512f", "avx512_bf16", "amx_bf16") if f in flags)
        info["lscpu"] = out
    except OSError:
        info.update(cpu_model="?", cpus=str(os.cpu_count()), threads_per_core="?", hypervisor="", isa="", lscpu="")
    with open("/proc/meminfo") as f:
        info["mem_gib"] = "%.1f" % (int(f.readline().split()[1]) / 2**20)

    def git(*a):
        p = subprocess.run(["git", "-C", SOURCE] + list(a), stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        return p.stdout.strip() if p.returncode == 0 else ""

    info["commit"] = git("rev-parse", "--short=12", "HEAD") or "?"
    info["commit_subject"] = git("log", "-1", "--format=%s")[:100]
    dirty = [l for l in git("status", "--porcelain", "--untracked-files=no").splitlines() if l.strip()]
    info["uncommitted_files"] = len(dirty)
    cache = os.path.join(build_dir, "CMakeCache.txt")
    info["build_type"] = "?"
    if os.path.exists(cache):
        with open(cache) as f:
            m = re.search(r"^CMAKE_BUILD_TYPE:STRING=(.*)$", f.read(), re.M)
            info["build_type"] = (m.group(1) if m else "") or "(none)"
    return info


# ---- (a) engines_bench ------------------------------------------------------------------------

ENG_ROW = re.compile(r"^(\S+)\s+([FBW])\s+(fp32|bf16)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)\s+(\S+)\s+([\d.]+)\s+"
                     r"[\d.]+\s+[\d.]+\s+[\d.]+\s+[\d.]+\s+(\S+)\s+([\d.]+)\s+([\d.]+)\s+(\S+)\s*$", re.M)
# ratio, then rmin, mio/p, dnnl/p, def/p (not used), beats_pass, ...


def section_engines(args, raw):
    exe = os.path.join(args.bin, "engines_bench")
    cmd = [exe, "--types=fp32", "--batch=%d" % args.engines_batch, "--repeats=%d" % args.engines_repeats,
           "--reps=%d" % args.engines_reps, "--warmup=1", "--dirs=" + args.engines_dirs]
    if args.engines_filter:
        cmd.append("--filter=" + args.engines_filter)
    la0 = loadavg()
    print("engines: %s (load average %s)" % (" ".join(cmd[1:]), la0), flush=True)
    p, wall = run(cmd, child_env({}, args.threads), "engines_bench", check=False)
    la1 = loadavg()
    with open(os.path.join(raw, "engines_bench.txt"), "w") as f:
        f.write("$ %s\n%s" % (" ".join(["engines_bench"] + cmd[1:]), p.stdout))
        if p.stderr:
            f.write("\n--- stderr ---\n" + p.stderr)
    rows = []
    for m in ENG_ROW.finditer(p.stdout):
        g = m.groups()
        rows.append(dict(layer=g[0], dir=g[1], type=g[2], pass_ms=float(g[3]), miopen_ms=float(g[4]),
                         dnnl_ms=float(g[5]), default_ms=float(g[6]), default_engine=g[7], check=g[12],
                         cold1_ms=float(g[10]), coldN_ms=float(g[11])))
    if p.returncode != 0 or not rows:
        die("engines_bench failed (exit %d) or printed no table; output in %s" % (p.returncode, raw))
    bad = [r for r in rows if r["check"] != "ok"]
    if bad:
        die("engines_bench checks failed: %s" % ", ".join("%s %s %s" % (r["layer"], r["dir"], r["check"]) for r in bad))
    for r in rows:
        for c in ("miopen", "dnnl", "default"):
            r[c + "_ratio"] = r[c + "_ms"] / r["pass_ms"] if r["pass_ms"] > 0 else float("nan")
    m = re.search(r"^summary: .*$", p.stdout, re.M)
    return dict(cmd=" ".join(["engines_bench"] + cmd[1:]), rows=rows, wall_s=wall, load_start=la0, load_end=la1,
                summary=m.group(0) if m else "")


# ---- (b) the CNN example ----------------------------------------------------------------------

ROUTE = re.compile(r"\[wrapper\] route (\w+) mode=\w+ route=(\w+) reason=(\S+)(?: engine=(\S+))?")


def cnn_routes(trace):
    """Per timed call (in order): (family, route). family: the forwarded family of the call's forwarding-set entry
    point (named in its route line: convolution, batchnorm, pooling, ...), else 'other'; route: the engine that ran
    it, 'private:<reason>' when declined, '' when the call made no forwarding-set entry (Private in either mode)."""
    routes, current = [], None
    for line in trace.splitlines():
        if line.startswith("cnn-call "):
            current = []
            continue
        if line.startswith("cnn-call-end"):
            fwd = [r for r in (current or []) if r[1] == "hipdnn" or r[2] != "not-in-forwarding-set"]
            if not fwd:
                routes.append(("other", ""))
            else:
                family = family_of(fwd[0][0])
                routes.append((family, (fwd[0][3] or "hipDNN") if fwd[0][1] == "hipdnn" else "private:" + fwd[0][2]))
            current = None
            continue
        m = ROUTE.search(line)
        if m and current is not None:
            current.append(m.groups())
    return routes


def call_keys(calls):
    """(phase, layer, direction, n): n counts repeats of the same triple within one iteration."""
    seen, keys = {}, []
    for c in calls:
        base = (c["phase"], c["layer"], c["direction"])
        keys.append(base + (seen.get(base, 0),))
        seen[base] = seen.get(base, 0) + 1
    return keys


def enabled_setup(args, work):
    """The environment of hipDNN's default engine order as the report measures it: the measured ranking in a file
    of this run, over the MIOpen and oneDNN providers (a private plugin directory, as engines_bench uses: the
    build's also holds the example plugin, whose naive engine never wins and costs seconds in every ranking)."""
    engines = os.path.join(work, "engines")
    if not os.path.isdir(engines):
        os.makedirs(engines)
        for lib in ("libhipdnn_dnnl_provider_plugin.so", "libhipdnn_miopen_provider_plugin.so"):
            src = os.path.join(args.lib, "hipdnn_plugins", "engines", lib)
            if not os.path.exists(src):
                die("%s not built" % src)
            os.symlink(src, os.path.join(engines, lib))
    return {"HIPDNN_ENGINE_RANKING_DB": os.path.join(work, "engine_ranking.txt"), "HIPDNN_PLUGIN_DIR": engines}


def section_cnn(args, raw, work):
    exe = os.path.join(args.bin, "cnn")
    net = ["--batch", str(args.cnn_batch), "--image", str(args.cnn_image), "--width", str(args.cnn_width),
           "--blocks", str(args.cnn_blocks)]
    # Enabled = hipDNN's default engine order (the measured ranking, in a private file) over the MIOpen and oneDNN
    # providers (a private plugin directory, as engines_bench uses); both variants share one user find-db.
    common = dict(enabled_setup(args, work), MIOPEN_USER_DB_PATH=os.path.join(work, "userdb"))
    variants = [("disabled", child_env(dict(common, MIOPEN_HIPDNN_FORWARDING="disabled"), args.threads)),
                ("enabled", child_env(dict(common, MIOPEN_HIPDNN_FORWARDING="enabled"), args.threads))]
    # Untimed: one disabled run fills the shared find-db (Find benchmarks MIOpen's solvers once). Then each variant
    # once with the reference check and the routing trace; the enabled one starts with an empty ranking file, so its
    # wall clock minus the disabled one's is what a first run on a machine pays (engine ranking measured for every
    # problem, plugins loaded, plans built); one sample each. These runs also warm the ranking file and page cache.
    run([exe] + net + ["--warmup", "0", "--iterations", "1"], variants[0][1], "cnn (disabled, find-db warm-up)")
    routes = None
    checks = {}
    first_wall = {}
    for name, env in variants:
        e = dict(env, MIOPEN_LOG_LEVEL="6")
        p, first_wall[name] = run([exe] + net + ["--warmup", "0", "--iterations", "1", "--check", "--json",
                                                 "--mark-calls"], e, "cnn (%s, checked run)" % name)
        res = json.loads(p.stdout)
        checks[name] = res["reference_check"]
        if name == "enabled":
            routes = cnn_routes(p.stderr)
            keys = call_keys(res["calls"])
            if len(routes) != len(keys):
                die("cnn trace: %d marked calls, %d timed calls" % (len(routes), len(keys)))
            route_of = dict(zip(keys, routes))
            with open(os.path.join(raw, "cnn_routes.txt"), "w") as f:
                f.write("# phase layer direction n family route (enabled run; '-': no forwarding-set entry)\n")
                for k, (fam, r) in zip(keys, routes):
                    f.write("%s %s %s %d %s %s\n" % (k + (fam, r or "-")))
    timed = net + ["--warmup", "1", "--iterations", str(args.cnn_iterations), "--json"]
    la0 = loadavg()
    print("cnn: %s, %d runs per variant (load average %s)" % (" ".join(timed), args.cnn_runs, la0), flush=True)
    results = {name: [] for name, _ in variants}
    for i in range(args.cnn_runs):
        order = variants if i % 2 == 0 else list(reversed(variants))
        for name, env in order:
            p, wall = run([exe] + timed, env, "cnn (%s)" % name)
            res = json.loads(p.stdout)
            if not res.get("ok"):
                die("cnn (%s) reported ok=false" % name)
            res["process_wall_s"] = wall
            results[name].append(res)
    la1 = loadavg()
    with open(os.path.join(raw, "cnn_runs.json"), "w") as f:
        json.dump({"command": "cnn " + " ".join(timed), "runs": results}, f, indent=1)
    # Per call: median over processes of each process's median over its timed iterations.
    keys = call_keys(results["disabled"][0]["calls"])
    rows = []
    for idx, key in enumerate(keys):
        ms = {}
        for name in results:
            vals = []
            for res in results[name]:
                k2 = call_keys(res["calls"])
                if k2 != keys:
                    die("cnn: the call sequence differs between runs")
                vals.append(res["calls"][idx]["ms"])
            ms[name] = med(vals)
        family, route = route_of[key]
        rows.append(dict(phase=key[0], layer=key[1], direction=key[2], n=key[3], disabled_ms=ms["disabled"],
                         enabled_ms=ms["enabled"], route=route, family=family,
                         ratio=ms["enabled"] / ms["disabled"] if ms["disabled"] > 0 else float("nan")))
    totals = {}
    for name in results:
        totals[name] = dict(inference=med([r["inference_ms"] for r in results[name]]),
                            training=med([r["training_step_ms"] for r in results[name]]),
                            wall=med([r["process_wall_s"] for r in results[name]]))
    return dict(cmd="cnn " + " ".join(timed), rows=rows, totals=totals, checks=checks, load_start=la0, load_end=la1,
                runs=args.cnn_runs, first_wall=first_wall)


def cnn_family(row):
    return row["family"]


# ---- (d) every forwarded family other than convolution -----------------------------------------

def family_of(entry):
    """The forwarded family of an entry point (policy.txt), 'other' outside the forwarding set."""
    return FAMILY_OF_ENTRY.get(entry, "other")


def parse_families_csv(text):
    """wrapper_families_bench's Google Benchmark CSV: {case: ms per call (real time)}, in order."""
    res, header = {}, False
    for line in text.splitlines():
        if line.startswith("name,"):
            header = True
            continue
        m = re.match(r'^"([^"]+)",(\d+),([\d.e+-]+),([\d.e+-]+),(\w+),', line) if header else None
        if m:
            scale = {"ns": 1e-6, "us": 1e-3, "ms": 1.0, "s": 1e3}[m.group(5)]
            name = m.group(1)[:-len("/real_time")] if m.group(1).endswith("/real_time") else m.group(1)  # UseRealTime()
            res[name] = float(m.group(3)) * scale
    return res


def parse_pooling_softmax(text):
    """wrapper_pooling_softmax_bench --child: '<case> <direction> <ms>' lines."""
    return {"%s %s" % (m.group(1), m.group(2)): float(m.group(3))
            for m in re.finditer(r"^(\S+) (forward|backward) ([\d.]+)$", text, re.M)}


def case_routes(trace):
    """{case: (entry point, route)} from a traced child (FAMILIES_BENCH_MARK=1, MIOPEN_LOG_LEVEL=6): the first route
    line of the case's entry point after its marker; route: the engine that ran it, 'private:<reason>' when
    declined or not forwarded."""
    res, case, entry = {}, None, None
    for line in trace.splitlines():
        if line.startswith("families-case "):
            parts = line.split()
            case, entry = " ".join(parts[1:-1]), parts[-1]
            continue
        m = ROUTE.search(line)
        if m and case is not None and m.group(1) == entry and case not in res:
            res[case] = (entry, (m.group(4) or "hipDNN") if m.group(2) == "hipdnn" else "private:" + m.group(3))
    return res


def section_families(args, raw, work):
    fam_exe = os.path.join(args.bin, "wrapper_families_bench")
    ps_exe = os.path.join(args.bin, "wrapper_pooling_softmax_bench")
    fam_args = ["--smoke"] if args.families_smoke else ["--batch=%d" % args.families_batch]
    fam_args += ["--benchmark_format=csv"]
    ps_args = ["--child", "--batch=%d" % (1 if args.families_smoke else args.families_batch),
               "--iters=%d" % args.families_iters]
    # name, command, extra environment, parser (pooling_softmax_bench's cases are named without their batch)
    n = 1 if args.families_smoke else args.families_batch
    programs = [("families_bench", [fam_exe] + fam_args + ["--benchmark_min_time=%g" % args.families_min_time],
                 {"FAMILIES_BENCH_CHILD": "1"}, parse_families_csv),
                ("pooling_softmax_bench", [ps_exe] + ps_args, {},
                 lambda text: {"%s, N=%d" % (k, n): v for k, v in parse_pooling_softmax(text).items()})]
    timed_cmds = [" ".join([os.path.basename(c[0])] + c[1:]) for _, c, _, _ in programs]
    common = enabled_setup(args, work)
    modes = ("disabled", "enabled")
    env_of = {m: child_env(dict(common, MIOPEN_HIPDNN_FORWARDING=m), args.threads) for m in modes}
    meter = CpuMeter()
    print("families: %s; %s; %d rounds (load average %s)"
          % (" ".join(["wrapper_families_bench"] + fam_args + ["--benchmark_min_time=%g" % args.families_min_time]),
             " ".join(["wrapper_pooling_softmax_bench"] + ps_args), args.families_runs, meter.load0), flush=True)
    # Untimed: one traced enabled run of each program names the route of every case; it also measures hipDNN's
    # engine ranking of every graph (in this run's ranking file), which the timed enabled runs then read.
    routes, traced = {}, []
    for name, cmd, extra, _ in programs:
        c = list(cmd)
        if name == "families_bench":
            c = [a for a in c if not a.startswith("--benchmark_min_time")] + ["--benchmark_min_time=0.000001"]
        p, _ = run(c, dict(env_of["enabled"], MIOPEN_LOG_LEVEL="6", FAMILIES_BENCH_MARK="1", **extra),
                   "%s (enabled, traced)" % name)
        found = case_routes(p.stderr)
        if name == "pooling_softmax_bench":
            found = {"%s, N=%d" % (k, n): v for k, v in found.items()}
        routes.update(found)
        traced.append(" ".join([os.path.basename(c[0])] + c[1:]))
    # Timed: rounds of fresh processes, each program once per mode, the order alternating between programs and
    # rounds (disabled first, then enabled first, ...), so that a slow minute of the machine hits both modes alike.
    samples, order, runs_log = {}, [], []
    for r in range(args.families_runs):
        for pi, (name, cmd, extra, parse) in enumerate(programs):
            for mode in (modes if (r + pi) % 2 == 0 else tuple(reversed(modes))):
                m = CpuMeter()
                p, wall = run(cmd, dict(env_of[mode], **extra), "%s (%s)" % (name, mode))
                load = m.stop()
                res = parse(p.stdout)
                if not res:
                    die("%s (%s) printed no timings:\n%s%s" % (name, mode, p.stdout[-3000:], p.stderr[-3000:]))
                for case, ms in res.items():
                    if case not in order:
                        order.append(case)
                    samples.setdefault(case, {m_: [] for m_ in modes})[mode].append(ms)
                runs_log.append(dict(round=r + 1, program=name, mode=mode, wall_s=wall, results=res,
                                     other_cores=load.get("other_cores"), steal_cores=load.get("steal_cores")))
    load = meter.stop()
    limit = 0.25 * cores()
    disturbed = sum(1 for x in runs_log if (x["other_cores"] or 0) + (x["steal_cores"] or 0) > limit)
    with open(os.path.join(raw, "families_runs.json"), "w") as f:
        json.dump({"traced": traced, "runs": runs_log}, f, indent=1)
    rows = []
    with open(os.path.join(raw, "families_routes.txt"), "w") as f:
        f.write("# case entry-point route (the traced enabled run)\n")
        for case in order:
            entry, route = routes.get(case, ("?", "?"))
            f.write("%s %s %s\n" % (case.replace(" ", "_"), entry, route))
            d, e = samples[case]["disabled"], samples[case]["enabled"]
            if len(d) != len(e) or not d:
                die("families: %s has %d disabled and %d enabled timings" % (case, len(d), len(e)))
            rows.append(dict(case=case, entry=entry, family=family_of(entry), route=route, disabled_ms=med(d),
                             enabled_ms=med(e), disabled_min=min(d), disabled_max=max(d), enabled_min=min(e),
                             enabled_max=max(e), ratio=med(e) / med(d) if med(d) > 0 else float("nan")))
    missing = [r["case"] for r in rows if r["family"] == "other"]
    if missing:
        die("families: no route found in the traced run for %s" % ", ".join(missing))
    return dict(cmd=timed_cmds, traced=traced, rows=rows, runs=args.families_runs, load=load, disturbed=disturbed,
                processes=len(runs_log), batch=1 if args.families_smoke else args.families_batch,
                min_time=args.families_min_time, iters=args.families_iters, smoke=args.families_smoke)


def family_rows(eng, fam):
    """{family: [row]} over the seven forwarded families: convolution from (a) (pass-through vs default order),
    the others from (d). A row: case, entry, disabled_ms, enabled_ms, ratio, route (+ min/max when known)."""
    out = {f: [] for f in FAMILIES}
    if eng:
        entry = {"F": "miopenConvolutionForward", "B": "miopenConvolutionBackwardData",
                 "W": "miopenConvolutionBackwardWeights"}
        for r in eng["rows"]:
            out["convolution"].append(dict(case="%s %s N=%d %s" % (r["layer"], DIRS[r["dir"]], eng["batch"], r["type"]),
                                           entry=entry[r["dir"]], disabled_ms=r["pass_ms"], enabled_ms=r["default_ms"],
                                           ratio=r["default_ratio"], route=r["default_engine"]))
    if fam:
        for r in fam["rows"]:
            out.setdefault(r["family"], []).append(r)
    return out


# ---- (c) wrapper_report.py --------------------------------------------------------------------

def section_wrapper(args, raw):
    cmd = [sys.executable, os.path.join(SOURCE, "benchmarks", "wrapper", "wrapper_report.py"),
           "--build-dir", args.build_dir, "--sections", args.wrapper_sections, "--runs", str(args.wrapper_runs),
           "--batch", str(args.wrapper_batch), "--iters", str(args.wrapper_iters), "--cold-batches", args.cold_batches,
           "--hop-calls", str(args.hop_calls)]
    if args.threads:
        cmd += ["--threads", args.threads]
    la0 = loadavg()
    print("wrapper: %s (load average %s)" % (" ".join(cmd[2:]), la0), flush=True)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("MIOPEN_", "HIPDNN_"))}
    p, wall = run(cmd, env, "wrapper_report.py")
    md = p.stdout
    with open(os.path.join(raw, "wrapper_report.md"), "w") as f:
        f.write(md)
    s = {"load_start": la0, "load_end": loadavg(), "markdown": md, "cmd": " ".join(["wrapper_report.py"] + cmd[2:])}
    m = re.search(r"^hop: \+([\d.-]+) ns/call .* ratio public/direct ([\d.]+)", md, re.M)
    if m:
        s["hop_ns"], s["hop_ratio"] = float(m.group(1)), float(m.group(2))
    m = re.search(r"^hop: \+([\d.-]+) instructions/call", md, re.M)
    if m:
        s["hop_instructions"] = float(m.group(1))
    m = re.search(r"^\| \*\*all \(timed section, s\)\*\* \| \| \| ([\d.]+) \| ([\d.]+) \| \*\*([\d.]+)\*\* \|", md, re.M)
    if m:
        s["steady_pass_s"], s["steady_fwd_s"], s["steady_ratio"] = (float(x) for x in m.groups())
    per_layer = re.findall(r"^\| (\S+) \| ([FBW]) \| [\d /]+ \| ([\d.]+) \| ([\d.]+) \| ([\d.]+) \|$", md, re.M)
    if per_layer:
        ratios = [float(x[4]) for x in per_layer]
        s["steady_layer_min"], s["steady_layer_max"] = min(ratios), max(ratios)
    m = re.search(r"^\| pass-through \| ([\d.]+) \|\n\| forwarded \| ([\d.]+) \|", md, re.M)
    if m:
        s["call_pass_us"], s["call_fwd_us"] = float(m.group(1)), float(m.group(2))
    m = re.search(r"^- forwarded: first-call extra min ([\d.-]+) ms, median ([\d.-]+) ms, max ([\d.-]+) ms", md, re.M)
    if m:
        s["build_min_ms"], s["build_med_ms"], s["build_max_ms"] = (float(x) for x in m.groups())
    s["coldstart"] = []
    for block in re.split(r"^### batch ", md, flags=re.M)[1:]:
        batch = int(block.split()[0])
        for m in re.finditer(r"^- (enabled(?:-eager)?) / disabled: wall ([\d.]+)x \(min ([\d.]+)x\), CPU ([\d.]+)x", block, re.M):
            s["coldstart"].append(dict(batch=batch, variant=m.group(1), wall=float(m.group(2)), wall_min=float(m.group(3)),
                                       cpu=float(m.group(4))))
        m = re.search(r"^\| disabled \| ([\d.]+) \|", block, re.M)
        if m:
            s["coldstart"].append(dict(batch=batch, variant="disabled-wall-s", wall=float(m.group(1))))
    return s


# ---- plots ------------------------------------------------------------------------------------

def make_plots(out, eng, cnn, fam=None):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("make_perf_report: python3-matplotlib not found (use /usr/bin/python3 on Debian); no plots",
              file=sys.stderr)
        return []
    from matplotlib.ticker import NullFormatter

    def log_ticks(axis, values):
        vals = [v for v in values if v > 0 and math.isfinite(v)] + [1.0]
        lo, hi = min(vals) / 1.2, max(vals) * 1.2
        ticks = [t for t in (0.0625, 0.125, 0.25, 0.5, 1, 2, 4, 8, 16, 32) if lo <= t <= hi]
        axis.set_ticks(ticks)
        axis.set_ticklabels(["%g" % t for t in ticks])
        axis.set_minor_formatter(NullFormatter())

    made = []
    colors = {"pass": "#7f7f7f", "miopen": "#1f77b4", "dnnl": "#ff7f0e", "default": "#2ca02c"}
    if eng:
        rows = eng["rows"]
        dirs = [d for d in "FBW" if any(r["dir"] == d for r in rows)]
        layers = list(dict.fromkeys(r["layer"] for r in rows))
        by = {(r["layer"], r["dir"]): r for r in rows}
        # Forwarded / pass-through per layer, one panel per direction.
        fig, axes = plt.subplots(len(dirs), 1, figsize=(max(8, 1.1 * len(layers)), 3.2 * len(dirs)), squeeze=False)
        w = 0.27
        for ax, d in zip(axes[:, 0], dirs):
            for j, c in enumerate(("default", "miopen", "dnnl")):
                xs = [i + (j - 1) * w for i in range(len(layers))]
                ys = [by[(l, d)][c + "_ratio"] if (l, d) in by else 1 for l in layers]
                ax.bar(xs, [y - 1 for y in ys], w, bottom=1,
                       label={"default": "enabled, default order", "miopen": "enabled, MIOPEN_ENGINE pinned",
                              "dnnl": "enabled, DNNL_ENGINE pinned"}[c], color=colors[c])
            ax.axhline(1.0, color="black", lw=0.8)
            ax.set_yscale("log")
            log_ticks(ax.yaxis, [r[c + "_ratio"] for r in rows if r["dir"] == d for c in ("default", "miopen", "dnnl")])
            ax.set_xticks(range(len(layers)))
            ax.set_xticklabels(layers, rotation=20, ha="right", fontsize=8)
            ax.set_ylabel("time / pass-through (log)")
            ax.set_title("%s (%s): forwarded / pass-through (< 1: forwarded faster)" % (d, DIRS[d]), fontsize=10)
        handles, labels = axes[0, 0].get_legend_handles_labels()
        fig.legend(handles, labels, loc="upper center", ncol=3, fontsize=8)
        fig.tight_layout(rect=(0, 0, 1, 0.96))
        fig.savefig(os.path.join(out, "engines_ratio.png"), dpi=90)
        plt.close(fig)
        made.append("engines_ratio.png")
        # Engines per layer, ms.
        fig, axes = plt.subplots(len(dirs), 1, figsize=(max(8, 1.1 * len(layers)), 3.2 * len(dirs)), squeeze=False)
        w = 0.2
        for ax, d in zip(axes[:, 0], dirs):
            for j, c in enumerate(CONFIGS):
                xs = [i + (j - 1.5) * w for i in range(len(layers))]
                ys = [by[(l, d)][c + "_ms"] if (l, d) in by else 0 for l in layers]
                ax.bar(xs, ys, w, label={"pass": "pass-through (disabled)", "miopen": "MIOPEN_ENGINE",
                                         "dnnl": "DNNL_ENGINE", "default": "default order"}[c], color=colors[c])
            ax.set_xticks(range(len(layers)))
            ax.set_xticklabels(layers, rotation=20, ha="right", fontsize=8)
            ax.set_ylabel("ms per call (median)")
            ax.set_title("%s (%s), N=%d" % (d, DIRS[d], eng["batch"]), fontsize=10)
        handles, labels = axes[0, 0].get_legend_handles_labels()
        fig.legend(handles, labels, loc="upper center", ncol=4, fontsize=8)
        fig.tight_layout(rect=(0, 0, 1, 0.96))
        fig.savefig(os.path.join(out, "engines_ms.png"), dpi=90)
        plt.close(fig)
        made.append("engines_ms.png")
    if cnn:
        rows = [r for r in cnn["rows"] if cnn_family(r) in ("convolution", "batchnorm")]
        labels = ["%s %s %s" % (r["phase"][:5], r["layer"], r["direction"]) for r in rows]
        fig, (a1, a2) = plt.subplots(1, 2, figsize=(13, max(5, 0.19 * len(rows) + 1.5)), sharey=True,
                                     gridspec_kw={"width_ratios": [3, 2]})
        ys = list(range(len(rows)))
        a1.barh([y - 0.2 for y in ys], [r["disabled_ms"] for r in rows], 0.4, label="disabled", color=colors["pass"])
        a1.barh([y + 0.2 for y in ys], [r["enabled_ms"] for r in rows], 0.4, label="enabled", color=colors["default"])
        a1.set_yticks(ys)
        a1.set_yticklabels(labels, fontsize=6)
        a1.invert_yaxis()
        a1.set_xlabel("ms per call (median)")
        a1.legend(fontsize=8)
        cols = [colors["miopen"] if r["route"] == "MIOPEN_ENGINE" else colors["dnnl"] if r["route"] == "DNNL_ENGINE"
                else colors["pass"] for r in rows]
        a2.barh(ys, [r["ratio"] - 1 for r in rows], 0.6, left=1, color=cols)
        a2.axvline(1.0, color="black", lw=0.8)
        a2.set_xscale("log")
        log_ticks(a2.xaxis, [r["ratio"] for r in rows])
        a2.set_xlabel("enabled / disabled (log)")
        a2.set_title("colour: engine that ran (blue MIOPEN, orange DNNL, grey Private)", fontsize=8)
        fig.suptitle("CNN example, batch %d: convolution and batchnorm calls, per layer and direction" % cnn["batch"],
                     fontsize=10)
        fig.tight_layout()
        fig.savefig(os.path.join(out, "cnn_layers.png"), dpi=90)
        plt.close(fig)
        made.append("cnn_layers.png")
    if fam or eng:
        byfam = family_rows(eng, fam)
        rows = [(f, r) for f in FAMILIES for r in byfam.get(f, [])]
        if rows:
            fig, ax = plt.subplots(figsize=(9, max(4, 0.2 * len(rows) + 1.5)))
            ys = list(range(len(rows)))
            cols = [colors["miopen"] if r["route"] == "MIOPEN_ENGINE" else colors["dnnl"] if r["route"] == "DNNL_ENGINE"
                    else colors["pass"] for _, r in rows]
            ax.barh(ys, [r["ratio"] - 1 for _, r in rows], 0.6, left=1, color=cols)
            ax.axvline(1.0, color="black", lw=0.8)
            ax.set_xscale("log")
            log_ticks(ax.xaxis, [r["ratio"] for _, r in rows])
            ax.set_yticks(ys)
            ax.set_yticklabels(["%s: %s" % (f, r["case"]) for f, r in rows], fontsize=6)
            ax.invert_yaxis()
            ax.set_xlabel("enabled (default order) / disabled, per call (log; < 1: forwarded faster)")
            ax.set_title("every forwarded family; colour: engine that ran (blue MIOPEN, orange DNNL, grey Private)",
                         fontsize=9)
            fig.tight_layout()
            fig.savefig(os.path.join(out, "families_ratio.png"), dpi=90)
            plt.close(fig)
            made.append("families_ratio.png")
    return made


# ---- README -----------------------------------------------------------------------------------

def write_families(p, eng, fam, plots):
    p("## (d) Every forwarded family: per call and shape, disabled vs enabled\n")
    if fam:
        m = fam["load"]
        p("`%s` and `%s`: %d round(s) of fresh processes; in each round both programs run once per mode, the order "
          "alternating (disabled first, then enabled first) between programs and rounds. Enabled = "
          "`MIOPEN_HIPDNN_FORWARDING=enabled` with hipDNN's default engine order (measured ranking, from one untimed "
          "traced enabled run of each program, which also names each case's route) over the MIOpen and oneDNN "
          "providers. Per case: median over the rounds of each process's time per call (wrapper_families_bench: "
          "Google Benchmark's mean real time per iteration, `--benchmark_min_time=%g`; wrapper_pooling_softmax_bench: "
          "the median of %d calls after a warm-up call); min-max over the rounds. wrapper_families_bench checks every "
          "case's output against plain loops in both modes before timing it (a wrong result aborts the run); "
          "wrapper_pooling_softmax_bench does not check (the pooling and softmax ctests do). %.0f s; %s; %d of %d "
          "timed processes ran while other processes took more than a quarter of the cores (per process: "
          "`raw/families_runs.json`).\n"
          % (fam["cmd"][0], fam["cmd"][1], fam["runs"], fam["min_time"], fam["iters"], m["wall_s"], fmt_load(m),
             fam["disturbed"], fam["processes"]))
    byfam = family_rows(eng, fam)
    for f in FAMILIES:
        rs = byfam.get(f, [])
        entries = [e for e, g in FAMILY_OF_ENTRY.items() if g == f]
        timed = sorted({r["entry"] for r in rs})
        p("### %s\n" % f)
        p("Forwarded entry points (policy.txt): %s; timed here: %s.\n"
          % (", ".join("`%s`" % e for e in entries), ", ".join("`%s`" % e for e in timed) or "none"))
        if not rs:
            p("Not measured in this run (section `%s` not run).\n" % ("engines" if f == "convolution" else "families"))
            continue
        if f == "convolution":
            p("From (a): pass-through against the default engine order, engines_bench's medians (its own "
              "interleaving; no min-max).\n")
        p("| call | case | disabled ms | enabled ms | enabled / disabled | disabled min-max | enabled min-max "
          "| route (enabled) |")
        p("|---|---|---:|---:|---:|---:|---:|---|")
        for r in rs:
            mm = lambda k: "%.4f-%.4f" % (r[k + "_min"], r[k + "_max"]) if k + "_min" in r else "-"
            p("| `%s` | %s | %.4f | %.4f | **%s** | %s | %s | %s |"
              % (r["entry"], r["case"], r["disabled_ms"], r["enabled_ms"], fmt_ratio(r["ratio"]), mm("disabled"),
                 mm("enabled"), r["route"]))
        ratios = [r["ratio"] for r in rs]
        p("\nGeometric mean %.3f over %d cases.\n" % (geomean(ratios), len(rs)))
    if "families_ratio.png" in plots:
        p("![enabled / disabled per case, every family](families_ratio.png)\n")


def other_note(section):
    """' Other processes took X of N cores meanwhile.' when the section's CpuMeter recorded it."""
    m = section.get("meter") or {}
    if "other_cores" not in m:
        return ""
    return " Other processes took %.2f of %d cores meanwhile%s." % (
        m["other_cores"], cores(), " (the hypervisor %.2f)" % m["steal_cores"] if m["steal_cores"] >= 0.01 else "")


def old_notes(path):
    if not os.path.exists(path):
        return None
    with open(path) as f:
        text = f.read()
    i, j = text.find(NOTES_BEGIN), text.find(NOTES_END)
    return text[i:j + len(NOTES_END)] if 0 <= i < j else None


def write_readme(args, out, mach, eng, cnn, wr, fam, plots, la_start, la_end, t_total, run_load=None):
    L = []
    p = L.append
    p("# Performance: MIOpen forwarding disabled vs enabled (issue 9, Phase 4)\n")
    p("Generated by `benchmarks/report/make_perf_report.py` (%s preset%s); every table below comes from one "
      "invocation on one build, the variants measured side by side in fresh processes, interleaved. Raw "
      "outputs: `raw/`. Regenerate: `cmake --build <build> --target perf_report` (moderate run) or "
      "`/usr/bin/python3 benchmarks/report/make_perf_report.py --build-dir <build> [--quick|--full]`.\n"
      % (args.preset, ", options " + " ".join(args.overrides) if args.overrides else ""))
    if args.note:
        p("**%s**\n" % args.note)
    p("## Machine and run\n")
    p("| item | value |\n|---|---|")
    p("| date | %s |" % mach["date_utc"])
    p("| CPU | %s%s |" % (mach["cpu_model"], " (%s VM)" % mach["hypervisor"] if mach["hypervisor"] else ""))
    p("| cores | %s logical CPUs, %s thread(s) per core; %s GiB memory |" % (mach["cpus"], mach["threads_per_core"],
                                                                       mach["mem_gib"]))
    p("| ISA flags | %s |" % (mach["isa"] or "-"))
    p("| threads | %s |" % ("MIOPEN_NUM_THREADS=OMP_NUM_THREADS=%s" % args.threads if args.threads
                            else "library defaults (MIOpen: hardware concurrency)"))
    p("| commit | %s (%s)%s |" % (mach["commit"], mach["commit_subject"].replace("|", "/"),
                                 "; working tree with %d uncommitted tracked file(s)" % mach["uncommitted_files"]
                                 if mach["uncommitted_files"] else ""))
    p("| build | %s, `%s` |" % (mach["build_type"], args.build_dir))
    p("| load average (1/5/15 min) | %s at start, %s at end |" % (la_start, la_end))
    if run_load and "other_cores" in run_load:
        p("| other processes | took %.2f of %d cores on average over the run%s (/proc/stat's busy time minus this "
          "run's own processes); per section below |" % (run_load["other_cores"], cores(),
                                                          ", the hypervisor %.2f (steal)" % run_load["steal_cores"]
                                                          if run_load["steal_cores"] >= 0.01 else ""))
    p("| duration | %.0f s |\n" % t_total)

    p("## Summary: the indicators for flipping the default\n")
    p("Ratios are enabled / disabled (> 1: forwarding is slower). Geometric means over the cases.\n")
    p("| measure | figure | where |\n|---|---|---|")
    if eng:
        rows = eng["rows"]
        for c, label in (("default", "default engine order"), ("miopen", "MIOPEN_ENGINE pinned"),
                         ("dnnl", "DNNL_ENGINE pinned")):
            per_dir = ", ".join("%s %.3f" % (d, geomean([r[c + "_ratio"] for r in rows if r["dir"] == d]))
                                for d in "FBW" if any(r["dir"] == d for r in rows))
            allr = [r[c + "_ratio"] for r in rows]
            p("| ResNet-50 convolutions, %s / pass-through | %.3f (%s; range %.3f-%.3f over %d cases) | (a) |"
              % (label, geomean(allr), per_dir, min(allr), max(allr), len(allr)))
        slower = [r for r in rows if r["default_ratio"] > 1.05]
        p("| cases where the default order is > 5%% slower than pass-through | %d of %d%s | (a) |"
          % (len(slower), len(rows), (": " + ", ".join("%s %s %.2f" % (r["layer"], r["dir"], r["default_ratio"])
                                                         for r in slower)) if slower else ""))
        p("| first call of a problem (plan build + ranking measured / ranking known), median | %.1f ms / %.1f ms "
          "(pass-through steady call: %.1f ms) | (a) |"
          % (med([r["cold1_ms"] for r in rows]), med([r["coldN_ms"] for r in rows]), med([r["pass_ms"] for r in rows])))
    if cnn:
        t = cnn["totals"]
        p("| CNN inference (sum of calls), enabled / disabled | %.3f (%.3f vs %.3f ms) | (b) |"
          % (t["enabled"]["inference"] / t["disabled"]["inference"], t["enabled"]["inference"],
             t["disabled"]["inference"]))
        p("| CNN training step (sum of calls), enabled / disabled | %.3f (%.3f vs %.3f ms) | (b) |"
          % (t["enabled"]["training"] / t["disabled"]["training"], t["enabled"]["training"], t["disabled"]["training"]))
        for family in FAMILIES + ("other",):
            rs = [r for r in cnn["rows"] if cnn_family(r) == family]
            if rs:
                se, sd = sum(r["enabled_ms"] for r in rs), sum(r["disabled_ms"] for r in rs)
                label = {"other": "calls outside the forwarding set (bias, ...)"}.get(family, family + " calls")
                p("| CNN %s, sum enabled / disabled | %.3f (%.3f vs %.3f ms, %d calls) | (b) |"
                  % (label, se / sd, se, sd, len(rs)))
        fw = cnn.get("first_wall")
        if fw:
            p("| CNN process with an empty engine-ranking file (first run on a machine; 1 sample each, with --check) "
              "| %.3f s vs %.3f s disabled (+%.3f s) | (b) |" % (fw["enabled"], fw["disabled"], fw["enabled"] - fw["disabled"]))
    if wr:
        if "hop_ns" in wr:
            p("| wrapper hop (every public call, either mode) | +%.3f ns/call%s | (c) |"
              % (wr["hop_ns"], ", +%.0f instructions" % wr["hop_instructions"] if "hop_instructions" in wr else ""))
        if "steady_ratio" in wr:
            p("| steady state, 4 layers F/B/W, MIOPEN_ENGINE pinned, same solver | %.4f (per layer %.3f-%.3f) | (c) |"
              % (wr["steady_ratio"], wr.get("steady_layer_min", float("nan")), wr.get("steady_layer_max", float("nan"))))
        if "call_fwd_us" in wr:
            p("| per call: translation + plan-cache hit | +%.3f us (%.3f vs %.3f us/call) | (c) |"
              % (wr["call_fwd_us"] - wr["call_pass_us"], wr["call_fwd_us"], wr["call_pass_us"]))
        if "build_med_ms" in wr:
            p("| cold graph build per new problem (first call - cached) | median %.3f ms (min %.3f, max %.3f) | (c) |"
              % (wr["build_med_ms"], wr["build_min_ms"], wr["build_max_ms"]))
        for c in wr["coldstart"]:
            if c["variant"] == "enabled":
                p("| cold start of a process, batch %d, enabled / disabled | wall %.3fx (min %.3fx), CPU %.3fx | (c) |"
                  % (c["batch"], c["wall"], c["wall_min"], c["cpu"]))
    if eng or fam:
        byfam = family_rows(eng, fam)
        for f in FAMILIES:
            rs = byfam.get(f, [])
            where = "(a), (d)" if f == "convolution" else "(d)"
            if not rs:
                p("| family %s, enabled (default order) / disabled per call | not measured in this run (section %s not "
                  "run) | %s |" % (f, "engines" if f == "convolution" else "families", where))
                continue
            ratios = [r["ratio"] for r in rs]
            engines = Counter(r["route"] for r in rs)
            p("| family %s, enabled (default order) / disabled per call | %.3f (range %.3f-%.3f over %d cases; %s) | %s |"
              % (f, geomean(ratios), min(ratios), max(ratios), len(rs),
                 ", ".join("%s x%d" % kv for kv in sorted(engines.items())), where))
    p("")
    p(NOTES_BEGIN)
    notes = old_notes(os.path.join(out, "README.md"))
    if notes:
        L[-1] = notes
    else:
        p("## Could the default flip to enabled? (reading of the data)\n")
        p("_Not written yet for this run._\n")
        p(NOTES_END)
    p("")

    if eng:
        p("## (a) ResNet-50 convolutions: pass-through, each engine pinned, default order\n")
        p("`%s`; load average %s at start, %s at end; %.0f s. Median ms per call (median over repeats of each "
          "child's median over its interleaved rounds of timed calls); ratios are to pass-through (forwarding disabled). `default engine`: "
          "the engine the default order ran; cold1 / coldN: the default child's first call of the problem in its "
          "first repeat (plan build + ranking measured) and in its last (ranking read from the file). Every "
          "forwarded output agreed with pass-through and every pinned child ran on its engine (engines_bench's "
          "checks).%s\n" % (eng["cmd"], eng["load_start"], eng["load_end"], eng["wall_s"], other_note(eng)))
        p("| layer | dir | pass ms | MIOPEN ms | DNNL ms | default ms | default engine | MIOPEN / pass | DNNL / pass "
          "| default / pass | cold1 ms | coldN ms |")
        p("|---|---|---:|---:|---:|---:|---|---:|---:|---:|---:|---:|")
        for r in eng["rows"]:
            p("| %s | %s | %.3f | %.3f | %.3f | %.3f | %s | %s | %s | **%s** | %.1f | %.1f |"
              % (r["layer"], r["dir"], r["pass_ms"], r["miopen_ms"], r["dnnl_ms"], r["default_ms"], r["default_engine"],
                 fmt_ratio(r["miopen_ratio"]), fmt_ratio(r["dnnl_ratio"]), fmt_ratio(r["default_ratio"]),
                 r["cold1_ms"], r["coldN_ms"]))
        p("\nengines_bench's own summary: `%s`\n" % eng["summary"])
        if "engines_ratio.png" in plots:
            p("![forwarded / pass-through per layer](engines_ratio.png)\n")
            p("![engines per layer, ms](engines_ms.png)\n")
    if cnn:
        t = cnn["totals"]
        p("## (b) The CNN example: inference and a training step, per layer and direction\n")
        p("`%s`, %d fresh processes per variant, alternating which goes first, after one untimed disabled run "
          "(fills the shared find-db) and one untimed checked, traced run of each (`--check`: logits against the "
          "double-precision reference; max |diff| disabled %.2e, enabled %.2e, "
          "tolerance %.2e); load average %s at start, %s at end. Enabled = `MIOPEN_HIPDNN_FORWARDING=enabled` with "
          "hipDNN's default engine order (measured ranking, warm from the checked run) over the MIOpen and oneDNN "
          "providers. Per call: median over processes of each process's median over its timed iterations. `route`: "
          "from the enabled checked run's trace (`MIOPEN_LOG_LEVEL=6 --mark-calls`): the engine that ran it, "
          "`private:<reason>` when declined, `-` when the call is not in the forwarding set (served by Private in "
          "both modes: its ratio shows the noise).%s\n"
          % (cnn["cmd"], cnn["runs"], cnn["checks"]["disabled"]["inference_max_diff"],
             cnn["checks"]["enabled"]["inference_max_diff"], cnn["checks"]["enabled"]["tolerance"], cnn["load_start"],
             cnn["load_end"], other_note(cnn)))
        p("| total | disabled | enabled | enabled / disabled |\n|---|---:|---:|---:|")
        for k, label in (("inference", "inference, sum of calls (ms)"), ("training", "training step, sum of calls (ms)"),
                         ("wall", "process wall clock: start-up, warm-up iteration (plan builds), timed iterations (s)")):
            p("| %s | %.3f | %.3f | %.3f |" % (label, t["disabled"][k], t["enabled"][k], t["enabled"][k] / t["disabled"][k]))
        fw = cnn.get("first_wall")
        if fw:
            p("| checked run, empty ranking file in the enabled one (s, one process each) | %.3f | %.3f | %.3f |"
              % (fw["disabled"], fw["enabled"], fw["enabled"] / fw["disabled"]))
        p("")
        p("| phase | layer | direction | route (enabled) | disabled ms | enabled ms | enabled / disabled |")
        p("|---|---|---|---|---:|---:|---:|")
        other = {}
        for r in cnn["rows"]:
            if cnn_family(r) != "other":
                p("| %s | %s | %s | %s | %.4f | %.4f | %s |" % (r["phase"], r["layer"], r["direction"], r["route"] or "-",
                                                              r["disabled_ms"], r["enabled_ms"], fmt_ratio(r["ratio"])))
            else:
                o = other.setdefault(r["phase"], [0, 0.0, 0.0])
                o[0] += 1
                o[1] += r["disabled_ms"]
                o[2] += r["enabled_ms"]
        for ph, (n, d, e) in other.items():
            p("| %s | %d calls outside the forwarding set (e.g. the convolution's bias; Private in both modes) | | - | %.4f "
              "| %.4f | %s |" % (ph, n, d, e, fmt_ratio(e / d if d else float("nan"))))
        p("")
        if "cnn_layers.png" in plots:
            p("![CNN per layer](cnn_layers.png)\n")
    if wr:
        p("## (c) Wrapper hop, per-call cost, cold graph builds, cold start\n")
        p("`%s`; load average %s at start, %s at end.%s Its report, verbatim (headings moved down one level):\n"
          % (wr["cmd"], wr["load_start"], wr["load_end"], other_note(wr)))
        body = wr["markdown"].split("\n", 1)[1] if wr["markdown"].startswith("# ") else wr["markdown"]
        p(re.sub(r"^(#+) ", lambda m: "#" + m.group(1) + " ", body.strip(), flags=re.M))
        p("")
    if fam or eng:
        write_families(p, eng, fam, plots)
    with open(os.path.join(out, "README.md"), "w") as f:
        f.write("\n".join(L).rstrip() + "\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build-dir", default=os.path.join(SOURCE, "build"))
    ap.add_argument("--out-dir", default=os.path.join(SOURCE, "docs", "perf"))
    ap.add_argument("--sections", default="engines,cnn,families,wrapper",
                    help="comma list of engines, cnn, families, wrapper")
    g = ap.add_mutually_exclusive_group()
    g.add_argument("--quick", action="store_true", help="a few minutes: small layers and batches, few runs")
    g.add_argument("--full", action="store_true", help="every ResNet-50 layer at batch 32 (long: > 20 minutes)")
    ap.add_argument("--threads", default="", help="MIOPEN_NUM_THREADS and OMP_NUM_THREADS of every child")
    ap.add_argument("--note", default="", help="a sentence printed in bold under the title")
    ap.add_argument("--render-only", action="store_true",
                    help="measure nothing: rewrite README.md and the plots from OUT_DIR/raw/report.json")
    ap.add_argument("--engines-dirs", default="FBW")
    ap.add_argument("--wrapper-sections", default="hop,forwarding,coldstart")
    ap.add_argument("--families-smoke", action="store_true",
                    help="families: the programs' tiny smoke shapes (the ctest), not --families-batch")
    for k, v in PRESETS["moderate"].items():
        ap.add_argument("--" + k.replace("_", "-"), type=type(v), default=None, help="preset: moderate %s" % v)
    args = ap.parse_args()
    args.preset = "quick" if args.quick else "full" if args.full else "moderate"
    args.overrides = []
    for k, v in PRESETS[args.preset].items():
        if getattr(args, k) is None:
            setattr(args, k, v)
        else:
            args.overrides.append("--%s=%s" % (k.replace("_", "-"), getattr(args, k)))
    args.build_dir = os.path.abspath(args.build_dir)
    args.bin = os.path.join(args.build_dir, "bin")
    args.lib = os.path.join(args.build_dir, "lib")
    sections = [s for s in args.sections.split(",") if s]
    need = {"engines": ["engines_bench"], "cnn": ["cnn"], "wrapper": ["wrapper_hop_bench", "wrapper_conv_workload"],
            "families": ["wrapper_families_bench", "wrapper_pooling_softmax_bench"]}
    for s in ([] if args.render_only else sections):
        if s not in need:
            die("unknown section %s" % s)
        for exe in need[s]:
            if not os.access(os.path.join(args.bin, exe), os.X_OK):
                die("%s not built in %s (cmake --build %s --target perf_report builds them; wrapper_families_bench "
                    "needs Google Benchmark, libbenchmark-dev in scripts/install-deps.sh)" % (exe, args.bin, args.build_dir))
    out = os.path.abspath(args.out_dir)
    raw = os.path.join(out, "raw")
    if args.render_only:
        with open(os.path.join(raw, "report.json")) as f:
            rep = json.load(f)
        wr = rep["wrapper"]
        if wr:
            with open(os.path.join(raw, "wrapper_report.md")) as f:
                wr["markdown"] = f.read()
        with open(os.path.join(raw, "machine.txt")) as f:
            rep["machine"]["lscpu"] = f.read()
        args.preset, args.overrides, args.threads = rep["preset"], rep["overrides"], rep.get("threads", args.threads)
        args.note = args.note or rep.get("note", "")
        args.build_dir = rep.get("build_dir", args.build_dir)
        plots = make_plots(out, rep["engines"], rep["cnn"], rep.get("families"))
        write_readme(args, out, rep["machine"], rep["engines"], rep["cnn"], wr, rep.get("families"), plots,
                     rep["load_start"], rep["load_end"], rep.get("duration_s", float("nan")), rep.get("load"))
        print("make_perf_report: rewrote %s from raw/report.json" % os.path.join(out, "README.md"))
        return
    os.makedirs(raw, exist_ok=True)
    t0 = time.perf_counter()
    mach = machine_info(args.build_dir)
    la_start = loadavg()
    with open(os.path.join(raw, "machine.txt"), "w") as f:
        f.write("date %s\nload average at start %s\ncommit %s\n\n%s" % (mach["date_utc"], la_start, mach["commit"],
                                                                        mach["lscpu"]))
    work = tempfile.mkdtemp(prefix="perf_report_")
    run_meter = CpuMeter()

    def measured(name, fn):
        """Runs a section when asked for, with its machine load (CpuMeter) recorded in it."""
        if name not in sections:
            return None
        m = CpuMeter()
        res = fn()
        res["meter"] = m.stop()
        return res
    try:
        eng = measured("engines", lambda: section_engines(args, raw))
        if eng:
            eng["batch"] = args.engines_batch
        cnn = measured("cnn", lambda: section_cnn(args, raw, work))
        if cnn:
            cnn["batch"] = args.cnn_batch
        fam = measured("families", lambda: section_families(args, raw, work))
        wr = measured("wrapper", lambda: section_wrapper(args, raw))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    run_load = run_meter.stop()
    la_end = loadavg()
    with open(os.path.join(raw, "machine.txt"), "a") as f:
        f.write("\nload average at end %s\n" % la_end)
        if "other_cores" in run_load:
            f.write("other processes took %.3f cores on average (steal %.3f) over %.0f s\n"
                    % (run_load["other_cores"], run_load["steal_cores"], run_load["wall_s"]))
    stale = {"engines": ["engines_bench.txt", "engines_ratio.png", "engines_ms.png"],
             "cnn": ["cnn_runs.json", "cnn_routes.txt", "cnn_layers.png"], "wrapper": ["wrapper_report.md"],
             "families": ["families_runs.json", "families_routes.txt", "families_ratio.png"]}
    for s, files in stale.items():  # a section not run leaves no file of an earlier run behind
        if s not in sections:
            for name in files:
                for d in (out, raw):
                    if os.path.exists(os.path.join(d, name)):
                        os.remove(os.path.join(d, name))
    plots = make_plots(out, eng, cnn, fam)
    with open(os.path.join(raw, "report.json"), "w") as f:
        json.dump({"machine": {k: v for k, v in mach.items() if k != "lscpu"}, "load_start": la_start,
                   "load_end": la_end, "preset": args.preset, "overrides": args.overrides, "threads": args.threads,
                   "note": args.note, "build_dir": args.build_dir, "duration_s": time.perf_counter() - t0,
                   "load": run_load, "engines": eng, "cnn": cnn, "families": fam,
                   "wrapper": {k: v for k, v in wr.items() if k != "markdown"} if wr else None}, f, indent=1)
    write_readme(args, out, mach, eng, cnn, wr, fam, plots, la_start, la_end, time.perf_counter() - t0, run_load)
    print("make_perf_report: wrote %s (plots: %s)" % (os.path.join(out, "README.md"), ", ".join(plots) or "none"))


if __name__ == "__main__":
    main()
