#!/usr/bin/env python3
"""Wrapper overhead report (issues 5 and 6): runs the programs of benchmarks/wrapper in fresh
processes, interleaving the variants it compares, and prints Markdown tables with ratios.

Sections (--sections, comma list; default: hop,forwarding,coldstart, plus baseline when
--baseline-lib-dir is given):
  hop         wrapper_hop_bench (ns/call, same process) and hop_callgrind.sh (instructions/call)
  baseline    conv_workload through the pre-split baseline libMIOpen.so vs the current Public
              library (forwarding disabled): steady state, and cold load (faults, max RSS)
  forwarding  forwarded to hipDNN (MIOPEN_ENGINE pinned) vs pass-through: steady state per layer,
              per-call cost on a tiny convolution, cold graph builds
  coldstart   cold start of a fresh process (every layer F+B+W once) at each --cold-batches:
              disabled vs enabled (MIOPEN_ENGINE pinned, plugins loaded lazily through the plugin
              manifest) vs enabled with HIPDNN_PLUGIN_LOADING=eager, interleaved, >= 10 runs each;
              process wall clock and CPU time (user + system), medians and ratios

Standard library only. See README.md, "Wrapper overhead and the pre-split baseline".
"""
import argparse
import os
import shutil
import re
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))


def run(cmd, env_extra=None, lib_dir=None):
    env = dict(os.environ)
    for k in list(env):
        if k.startswith("MIOPEN_") and k not in ("MIOPEN_NUM_THREADS",):
            del env[k]
    env.update(BASE_ENV)
    # Always explicit: the variant's library directory, else the current build's.
    env["LD_LIBRARY_PATH"] = lib_dir or BASE_LIB[0]
    env.update(env_extra or {})
    t0 = time.perf_counter()
    p = subprocess.run(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    wall = time.perf_counter() - t0
    if p.returncode != 0:
        sys.exit("error: %s failed (%d):\n%s%s" % (" ".join(cmd), p.returncode, p.stdout, p.stderr))
    return p.stdout, wall


def loadavg():
    with open("/proc/loadavg") as f:
        return f.read().split()[0]


def med(v):
    return statistics.median(v) if v else float("nan")


def parse_layers(out):
    res = {}
    for m in re.finditer(r"^layer (\S+) dir (\S) solution (\d+) median_ms ([\d.]+)$", out, re.M):
        res[(m.group(1), m.group(2))] = (int(m.group(3)), float(m.group(4)))
    total = float(re.search(r"^total .* seconds ([\d.]+)$", out, re.M).group(1))
    return res, total


def parse_usage(out):
    u = {}
    for m in re.finditer(r"^usage at=(\S+) minflt (\d+) majflt (\d+) maxrss_kb (\d+)$", out, re.M):
        u[m.group(1)] = tuple(int(m.group(i)) for i in (2, 3, 4))
    u["first_pass_s"] = float(re.search(r"^cold first_pass_s ([\d.]+)$", out, re.M).group(1))
    return u


def interleave(variants, runs, fn):
    """Calls fn(variant) runs times per variant, alternating which variant goes first."""
    results = {name: [] for name, _ in variants}
    for i in range(runs):
        order = variants if i % 2 == 0 else list(reversed(variants))
        for name, v in order:
            results[name].append(fn(v))
    return results


def steady_table(title, variants, runs, workload, args, ratio_label):
    """variants: [(name, (env, lib_dir))], two of them; ratio = second / first."""
    cmd = [workload, "--batch=%d" % args.batch, "--iters=%d" % args.iters, "--warmup=1"] + args.extra
    la0 = loadavg()
    res = interleave(variants, runs, lambda v: parse_layers(run(cmd, v[0], v[1])[0]))
    la1 = loadavg()
    (a, _), (b, _) = variants
    print("### %s\n" % title)
    print("`%s`, %d fresh processes per variant, interleaved; load average %s at start, %s at end.\n"
          % (" ".join(os.path.basename(c) if i == 0 else c for i, c in enumerate(cmd)), runs, la0, la1))
    print("| layer | dir | solution | %s ms | %s ms | %s |" % (a, b, ratio_label))
    print("|---|---|---:|---:|---:|---:|")
    keys = list(res[a][0][0].keys())
    for key in keys:
        sa = [r[0][key][1] for r in res[a]]
        sb = [r[0][key][1] for r in res[b]]
        sol = res[a][0][0][key][0]
        solb = res[b][0][0][key][0]
        sol_text = str(sol) if sol == solb else "%d / %d" % (sol, solb)
        print("| %s | %s | %s | %.3f | %.3f | %.4f |" % (key[0], key[1], sol_text, med(sa), med(sb), med(sb) / med(sa)))
    ta = [r[1] for r in res[a]]
    tb = [r[1] for r in res[b]]
    print("| **all (timed section, s)** | | | %.4f | %.4f | **%.4f** |" % (med(ta), med(tb), med(tb) / med(ta)))
    print("\nper-process totals (s): %s: %s; %s: %s\n" % (a, ", ".join("%.3f" % t for t in ta), b,
                                                          ", ".join("%.3f" % t for t in tb)))
    return med(tb) / med(ta)


def section_hop(args):
    print("## Wrapper hop: miopenGetVersion through libMIOpen.so vs miopenGetVersion_impl directly\n")
    out, _ = run([os.path.join(args.bin, "wrapper_hop_bench"), "--calls=%d" % args.hop_calls, "--repeats=15"])
    print("load average %s\n" % loadavg())
    print("\n".join(l for l in out.splitlines() if not l.startswith("# library")))
    print()
    p = subprocess.run([os.path.join(HERE, "hop_callgrind.sh"), os.path.join(args.bin, "wrapper_hop_bench"), "100000", "4"],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    print(p.stdout)


def section_baseline(args):
    if not args.baseline_lib_dir:
        sys.exit("error: the baseline section needs --baseline-lib-dir")
    workload = os.path.join(args.bin, "wrapper_conv_workload")
    cur = ({"MIOPEN_HIPDNN_FORWARDING": "disabled"}, args.lib)
    base = ({}, args.baseline_lib_dir)
    print("## Public (forwarding disabled) vs the pre-split baseline library\n")
    for lib in (args.baseline_lib_dir, args.lib):  # which library each variant really loads
        out, _ = run([workload, "--tiny=1", "--repeats=1", "--expect-lib-dir=" + lib], lib_dir=lib)
        print(out.splitlines()[0].lstrip("# "))
    print()
    saved = args.extra
    args.extra = ["--solver=gemm"]
    r = steady_table("Steady state, GEMM solvers (code unchanged since the baseline)",
                     [("baseline", base), ("Public", cur)], args.runs, workload, args, "Public / baseline")
    print("target < 1%% slower: %s (%+.2f%%)\n" % ("met" if r < 1.01 else "MISSED", (r - 1) * 100))
    args.extra = ["--solver=provider"]
    steady_table("Steady state, the provider's solver choice (Winograd changed after the split, 5e6efca)",
                 [("baseline", base), ("Public", cur)], args.runs, workload, args, "Public / baseline")
    args.extra = saved
    cold_table("Cold load: fresh process, libraries loaded (at main) and after one pass over the layers",
               [("baseline", base), ("Public", cur)], args, workload)


def cold_table(title, variants, args, workload):
    cmd = [workload, "--cold", "--batch=%d" % args.cold_batch]
    la0 = loadavg()
    res = interleave(variants, args.runs, lambda v: parse_usage(run(cmd, v[0], v[1])[0]))
    print("### %s\n" % title)
    print("`%s`, %d fresh processes each, interleaved; load average %s. Medians.\n"
          % (" ".join([os.path.basename(cmd[0])] + cmd[1:]), args.runs, la0))
    (a, _), (b, _) = variants
    print("| metric | %s | %s | %s / %s |" % (a, b, b, a))
    print("|---|---:|---:|---:|")
    for at in ("main", "first-pass"):
        for i, name in enumerate(("minor faults", "major faults", "max RSS (KiB)")):
            va = med([r[at][i] for r in res[a]])
            vb = med([r[at][i] for r in res[b]])
            print("| %s at %s | %d | %d | %s |" % (name, at, va, vb, "%.3f" % (vb / va) if va else "-"))
    fa = med([r["first_pass_s"] for r in res[a]])
    fb = med([r["first_pass_s"] for r in res[b]])
    print("| first pass (s) | %.4f | %.4f | %.3f |\n" % (fa, fb, fb / fa))


def section_forwarding(args):
    workload = os.path.join(args.bin, "wrapper_conv_workload")
    off = ({"MIOPEN_HIPDNN_FORWARDING": "disabled"}, args.lib)
    on = ({"MIOPEN_HIPDNN_FORWARDING": "enabled", "MIOPEN_HIPDNN_PREFERRED_ENGINE": "MIOPEN_ENGINE"}, args.lib)
    print("## Forwarding to hipDNN (MIOPEN_ENGINE pinned) vs pass-through\n")
    # Route check (not timed): every call of an enabled run is forwarded to MIOPEN_ENGINE.
    with tempfile.TemporaryDirectory() as d:
        counters = os.path.join(d, "counters.txt")
        env = dict(on[0], MIOPEN_HIPDNN_COUNTERS_FILE=counters)
        run([workload, "--tiny=5", "--repeats=1"], env, args.lib)
        with open(counters) as f:
            line = [l for l in f if l.startswith("miopenConvolutionForwardImmediate ")][0].strip()
        print("route check (tiny run, counters file): `%s`\n" % line)
        if "forwarded=0" in line or "declined=0" not in line:
            sys.exit("error: the enabled run was not forwarded")
    args.extra = ["--solver=provider"]
    r = steady_table("Steady state per layer", [("pass-through", off), ("forwarded", on)], args.runs, workload, args,
                     "forwarded / pass-through")
    print("target <= 1%% slower: %s (%+.2f%%)\n" % ("met" if r <= 1.01 else "MISSED", (r - 1) * 100))

    # Per-call cost: tiny 1x1 convolution, compute negligible.
    cmd = [workload, "--tiny=%d" % args.tiny_calls, "--repeats=9"]
    res = interleave([("pass-through", off), ("forwarded", on)], args.runs,
                     lambda v: float(re.search(r"us_per_call ([\d.]+)", run(cmd, v[0], v[1])[0]).group(1)))
    a, b = med(res["pass-through"]), med(res["forwarded"])
    print("### Per-call translation + plan-cache hit (tiny 1x1 convolution, N=1, C=K=4, 4x4)\n")
    print("| variant | us/call (median of %d processes, each the median of 9 x %d calls) |" % (args.runs, args.tiny_calls))
    print("|---|---:|")
    print("| pass-through | %.3f |\n| forwarded | %.3f |" % (a, b))
    print("\nforwarded - pass-through: %.3f us/call; target <= 2 us: %s\n" % (b - a, "met" if b - a <= 2 else "MISSED"))

    # Cold graph builds.
    print("### Cold graph build (first forwarded call minus a cached call; 10 distinct problems, N=%d)\n" % args.cold_batch)
    for name, v in (("forwarded", on), ("pass-through", off)):
        out, _ = run([workload, "--builds", "--batch=%d" % args.cold_batch], v[0], v[1])
        m = re.search(r"^builds min_ms ([-\d.]+) median_ms ([-\d.]+) max_ms ([-\d.]+)$", out, re.M)
        print("- %s: first-call extra min %s ms, median %s ms, max %s ms" % (name, m.group(1), m.group(2), m.group(3)))
        if name == "forwarded":
            print("\n| problem | solution | first ms | cached ms | build ms |\n|---|---:|---:|---:|---:|")
            for mm in re.finditer(r"^build problem (\S+) solution (\d+) first_ms ([\d.]+) cached_ms ([\d.]+) build_ms ([\d.-]+)$",
                                  out, re.M):
                print("| %s | %s | %s | %s | %s |" % mm.groups())
            print()
    print()
    # The cold start of a whole process is the section "coldstart".


def section_coldstart(args):
    workload = os.path.join(args.bin, "wrapper_conv_workload")
    runs = max(args.runs, 10)
    # A private ranking file: the plugin manifest lives next to it. One untimed run of each variant
    # first, so the ranking file, the manifest and the page cache are warm, as on a machine that
    # ran the program before (the situation the target is about).
    d = tempfile.mkdtemp(prefix="wrapper_report_cold_")
    common = {"HIPDNN_ENGINE_RANKING_DB": os.path.join(d, "engine_ranking.txt")}
    off = (dict(common, MIOPEN_HIPDNN_FORWARDING="disabled"), args.lib)
    on = (dict(common, MIOPEN_HIPDNN_FORWARDING="enabled", MIOPEN_HIPDNN_PREFERRED_ENGINE="MIOPEN_ENGINE"), args.lib)
    eager = (dict(on[0], HIPDNN_PLUGIN_LOADING="eager"), args.lib)
    variants = [("disabled", off), ("enabled", on), ("enabled-eager", eager)]
    print("## Cold start: fresh process, every layer F+B+W once, forwarding disabled vs enabled\n")
    print("Enabled = MIOPEN_ENGINE pinned (as in the forwarding section), plugins loaded lazily through the "
          "plugin manifest (the default); enabled-eager = the same with HIPDNN_PLUGIN_LOADING=eager (every "
          "plugin opened at hipdnnCreate). %d fresh processes per variant and batch, interleaved (the order "
          "alternates), after one untimed run of each. CPU = user + system time of the process. On a loaded "
          "machine the minimum is the steadier estimate of a fixed cost; the target is judged on the wall "
          "median.\n" % runs)
    for batch in args.cold_batches:
        cmd = [workload, "--cold", "--batch=%d" % batch]
        for _, v in variants:
            run(cmd, v[0], v[1])
        # Which plugins an enabled process opens (not timed).
        env = {k: v for k, v in os.environ.items() if not k.startswith("MIOPEN_") or k == "MIOPEN_NUM_THREADS"}
        env.update(BASE_ENV)
        env.update(on[0], LD_LIBRARY_PATH=args.lib, HIPDNN_LOG_LEVEL="info")
        out = subprocess.run(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True).stdout
        opened = sorted(set(re.findall(r"loaded plugin (\S+)", out)))
        la0 = loadavg()
        res = interleave(variants, runs, lambda v: run_cpu(cmd, v[0], v[1]))
        print("### batch %d (`%s`), load average %s at the start\n" % (batch, " ".join([os.path.basename(cmd[0])] + cmd[1:]), la0))
        print("plugins an enabled process opened: %s\n" % (", ".join(opened) or "none"))
        print("| variant | wall s median | wall s min | CPU s median | CPU s min | first pass s median |")
        print("|---|---:|---:|---:|---:|---:|")
        meds = {}
        for name, _ in variants:
            walls = [r[1] for r in res[name]]
            cpus = [r[2] for r in res[name]]
            firsts = [parse_usage(r[0])["first_pass_s"] for r in res[name]]
            meds[name] = (med(walls), med(cpus), min(walls), min(cpus))
            print("| %s | %.4f | %.4f | %.4f | %.4f | %.4f |" % (name, med(walls), min(walls), med(cpus), min(cpus),
                                                               med(firsts)))
        print()
        for name in ("enabled", "enabled-eager"):
            r = [meds[name][i] / meds["disabled"][i] for i in range(4)]
            print("- %s / disabled: wall %.3fx (min %.3fx), CPU %.3fx (min %.3fx); target <= 1.10x (wall median): %s"
                  % (name, r[0], r[2], r[1], r[3], "met" if r[0] <= 1.10 else "MISSED"))
        print()
    shutil.rmtree(d, ignore_errors=True)


def run_cpu(cmd, env_extra, lib_dir):
    """Runs cmd like run(); returns (stdout, wall s, CPU s = the child's user + system time)."""
    env = dict(os.environ)
    for k in list(env):
        if k.startswith("MIOPEN_") and k not in ("MIOPEN_NUM_THREADS",):
            del env[k]
    env.update(BASE_ENV)
    env["LD_LIBRARY_PATH"] = lib_dir or BASE_LIB[0]
    env.update(env_extra or {})
    with tempfile.TemporaryFile(mode="w+") as out, tempfile.TemporaryFile(mode="w+") as err:
        t0 = time.perf_counter()
        p = subprocess.Popen(cmd, env=env, stdout=out, stderr=err)
        _, status, usage = os.wait4(p.pid, 0)
        wall = time.perf_counter() - t0
        p.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        text = out.read()
        if p.returncode != 0:
            sys.exit("error: %s failed (%d):\n%s%s" % (" ".join(cmd), p.returncode, text, err.read()))
    return text, wall, usage.ru_utime + usage.ru_stime


BASE_ENV = {}
BASE_LIB = [""]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build-dir", default=os.path.join(HERE, "..", "..", "build"))
    ap.add_argument("--baseline-lib-dir", default="")
    ap.add_argument("--sections", default="")
    ap.add_argument("--runs", type=int, default=5, help="fresh processes per variant (>= 5)")
    ap.add_argument("--batch", type=int, default=4)
    ap.add_argument("--iters", type=int, default=5)
    ap.add_argument("--cold-batch", type=int, default=1)
    ap.add_argument("--cold-batches", default="1,8", help="batches of the coldstart section (comma list)")
    ap.add_argument("--tiny-calls", type=int, default=2000)
    ap.add_argument("--hop-calls", type=int, default=20000000)
    ap.add_argument("--threads", default="", help="MIOPEN_NUM_THREADS for every run (default: the library's)")
    args = ap.parse_args()
    args.build_dir = os.path.abspath(args.build_dir)
    args.bin = os.path.join(args.build_dir, "bin")
    args.lib = os.path.join(args.build_dir, "lib")
    args.extra = []
    args.cold_batches = [int(b) for b in args.cold_batches.split(",") if b]
    BASE_LIB[0] = args.lib
    if args.baseline_lib_dir:
        args.baseline_lib_dir = os.path.abspath(args.baseline_lib_dir)
    sections = args.sections.split(",") if args.sections else (
        ["hop", "forwarding", "coldstart"] + (["baseline"] if args.baseline_lib_dir else []))
    db = tempfile.mkdtemp(prefix="wrapper_report_db_")
    # A private, empty find-db: GetSolution's times then never come from an old user db.
    BASE_ENV.update({"MIOPEN_USER_DB_PATH": db, "MIOPEN_DEBUG_DISABLE_FIND_DB": "1"})
    if args.threads:
        BASE_ENV["MIOPEN_NUM_THREADS"] = args.threads
    print("# Wrapper overhead report\n")
    print("%s, %d CPUs, load average %s, build %s\n" % (time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime()),
                                                       os.cpu_count(), loadavg(), args.build_dir))
    for s in sections:
        {"hop": section_hop, "baseline": section_baseline, "forwarding": section_forwarding,
         "coldstart": section_coldstart}[s](args)


if __name__ == "__main__":
    main()
