#!/usr/bin/env python3
"""Wrapper overhead report (issues 5 and 6): runs the programs of benchmarks/wrapper in fresh
processes, interleaving the variants it compares, and prints Markdown tables with ratios.

Sections (--sections, comma list; default: hop,forwarding, plus baseline when
--baseline-lib-dir is given):
  hop         wrapper_hop_bench (ns/call, same process) and hop_callgrind.sh (instructions/call)
  baseline    conv_workload through the pre-split baseline libMIOpen.so vs the current Public
              library (forwarding disabled): steady state, and cold load (faults, max RSS)
  forwarding  forwarded to hipDNN (MIOPEN_ENGINE pinned) vs pass-through: steady state per layer,
              per-call cost on a tiny convolution, cold graph builds, cold start of a process

Standard library only. See README.md, "Wrapper overhead and the pre-split baseline".
"""
import argparse
import os
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

    # Cold start: process wall clock, a few layers fwd+bwd once.
    cmd = [workload, "--cold", "--batch=%d" % args.cold_batch]
    res = interleave([("disabled", off), ("enabled", on)], args.runs, lambda v: run(cmd, v[0], v[1]))
    print("### Cold start: fresh process, every layer F+B+W once (`%s`)\n" % " ".join([os.path.basename(cmd[0])] + cmd[1:]))
    print("| variant | process wall s (median of %d) | first pass s | max RSS KiB | minor faults |" % args.runs)
    print("|---|---:|---:|---:|---:|")
    meds = {}
    for name in ("disabled", "enabled"):
        walls = [w for _, w in res[name]]
        us = [parse_usage(o) for o, _ in res[name]]
        meds[name] = med(walls)
        print("| %s | %.4f | %.4f | %d | %d |" % (name, med(walls), med([u["first_pass_s"] for u in us]),
                                                med([u["first-pass"][2] for u in us]), med([u["first-pass"][0] for u in us])))
        print("|  (runs) | %s | | | |" % ", ".join("%.3f" % w for w in walls))
    ratio = meds["enabled"] / meds["disabled"]
    print("\nenabled / disabled: %.3fx; target <= 1.10x: %s\n" % (ratio, "met" if ratio <= 1.10 else "MISSED"))


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
    ap.add_argument("--tiny-calls", type=int, default=2000)
    ap.add_argument("--hop-calls", type=int, default=20000000)
    ap.add_argument("--threads", default="", help="MIOPEN_NUM_THREADS for every run (default: the library's)")
    args = ap.parse_args()
    args.build_dir = os.path.abspath(args.build_dir)
    args.bin = os.path.join(args.build_dir, "bin")
    args.lib = os.path.join(args.build_dir, "lib")
    args.extra = []
    BASE_LIB[0] = args.lib
    if args.baseline_lib_dir:
        args.baseline_lib_dir = os.path.abspath(args.baseline_lib_dir)
    sections = args.sections.split(",") if args.sections else (
        ["hop", "forwarding"] + (["baseline"] if args.baseline_lib_dir else []))
    db = tempfile.mkdtemp(prefix="wrapper_report_db_")
    # A private, empty find-db: GetSolution's times then never come from an old user db.
    BASE_ENV.update({"MIOPEN_USER_DB_PATH": db, "MIOPEN_DEBUG_DISABLE_FIND_DB": "1"})
    if args.threads:
        BASE_ENV["MIOPEN_NUM_THREADS"] = args.threads
    print("# Wrapper overhead report\n")
    print("%s, %d CPUs, load average %s, build %s\n" % (time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime()),
                                                       os.cpu_count(), loadavg(), args.build_dir))
    for s in sections:
        {"hop": section_hop, "baseline": section_baseline, "forwarding": section_forwarding}[s](args)


if __name__ == "__main__":
    main()
