#!/usr/bin/env python3
"""Median and spread of README's headline figures over independent runs (issue 17, item 4).

Usage: headline_summary.py RUN_DIR RUN_DIR [RUN_DIR...]
Each RUN_DIR holds the records of one run of scripts/device/steps/headline.sh (reduce.json, g15.json,
pairs.json, sizes.json; any *.json / *.json.gz records file is read). Prints a markdown table: each
figure per run, then the median [min .. max] over the runs. Ratios are computed within each run and
then summarised the same way. A figure missing from a run is shown as "-" and left out of its median.
Exit 0; 2 on bad usage (fewer than two folders, a folder without records).
"""
import gzip
import json
import os
import statistics
import sys


def records(folder):
    out = []
    for name in sorted(os.listdir(folder)):
        if name.endswith((".json", ".json.gz")):
            opener = gzip.open if name.endswith(".gz") else open
            try:
                with opener(os.path.join(folder, name), "rt") as f:
                    doc = json.load(f)
            except (OSError, ValueError):
                continue
            if isinstance(doc, dict) and isinstance(doc.get("records"), list):
                out += doc["records"]
    return out


def med(r):
    s = r.get("summary") or {}
    return s.get("median")


def ladder(recs, experiment, n=None, variant=None, scope="GPU_COMPUTE"):
    """Ladder records (not sweep points) that ran."""
    out = []
    for r in recs:
        if r.get("experiment") != experiment or r.get("scope") != scope or med(r) is None or r.get("skipped"):
            continue
        if "sweep" in (r.get("extra") or {}):
            continue
        axes = r.get("axes") or {}
        if n is not None and axes.get("n") != n:
            continue
        if experiment == "reduce" and (r.get("mode") != "cold" or axes.get("offset", 0) != 0):
            continue
        if variant is not None and r.get("variant") != variant:
            continue
        out.append(r)
    return out


def one(recs, **kw):
    rs = ladder(recs, **kw)
    return med(rs[0]) if rs else None


def figures(recs):
    f = {}
    for n, label in ((1 << 28, "2^28"), (1 << 24, "2^24"), (1 << 20, "2^20")):
        rungs = [r for r in ladder(recs, "reduce", n=n) if r["variant"] not in ("stream_read",) and r.get("backend") == "cuda"
                 and r["variant"] != "r00_cub"]
        cub = one(recs, experiment="reduce", n=n, variant="r00_cub")
        if rungs:
            best = min(rungs, key=med)
            f[f"reduce {label} best rung µs"] = med(best) * 1e6
            f.setdefault("_best", []).append(f"{label} {best['variant']}")
            tp = (best.get("throughput") or {}).get("bytes_per_s")
            if tp:
                f[f"reduce {label} best rung TB/s"] = tp / 1e12
            if cub:
                f[f"reduce {label} CUB µs"] = cub * 1e6
                f[f"reduce {label} x CUB (same run)"] = cub / med(best)
    big = 1 << 28
    for v, label, scale in (("r01_atomic", "r01 one atomic per element ms", 1e3), ("r01b_atomic_opaque", "r01b opaque address ms", 1e3),
                            ("r02_shared_tree", "r02 tree ms", 1e3), ("r03_coarsen", "r03 coarsened µs", 1e6),
                            ("r05_vector_loads", "r05 vector loads µs", 1e6)):
        x = one(recs, experiment="reduce", n=big, variant=v)
        if x:
            f[f"2^28 {label}"] = x * scale
    a, b = one(recs, experiment="reduce", n=big, variant="r01b_atomic_opaque"), one(recs, experiment="reduce", n=big, variant="r01_atomic")
    if a and b:
        f["2^28 r01b / r01 (same run)"] = a / b
    g01 = [r for r in ladder(recs, "abc471g") if r["variant"].startswith("g01")]
    g15 = [r for r in ladder(recs, "abc471g") if r["variant"].startswith("g15")]
    if g01:
        f["ABC471G max g01 ms"] = min(map(med, g01)) * 1e3
    if g15:
        f["ABC471G max g15 µs"] = min(map(med, g15)) * 1e6
    if g01 and g15:
        f["ABC471G g01 / g15 (same run)"] = min(map(med, g01)) / min(map(med, g15))
    for v, label in (("pairs.r03_partition_tc", "max case r03 µs"), ("pairs.r04_partition_gemm", "max case r04 µs")):
        rs = [r for r in ladder(recs, "abc471g") if r["variant"] == v and (r.get("axes") or {}).get("case") == "max"]
        if rs:
            f[f"gpu-pairs {label}"] = med(rs[0]) * 1e6
    for v, label in (("pairs.r02_atomic_tc_int8", "r02 ms"), ("pairs.r03_partition_tc", "r03 ms")):
        rs = [r for r in ladder(recs, "abc471g") if r["variant"] == v and (r.get("axes") or {}).get("n") == 10**9]
        if rs:
            f[f"N = 10^9 {label}"] = med(rs[0]) * 1e3
    rs = [r for r in ladder(recs, "abc471g", scope="EXTERNAL") if r["variant"] == "pairs.external.solve"
          and (r.get("axes") or {}).get("n") == 10**9]
    if rs:
        f["N = 10^9 gpu-pairs EXTERNAL (held) ms"] = med(rs[0]) * 1e3
    return f


def fmt(x):
    if x is None:
        return "-"
    return f"{x:.4g}" if abs(x) < 1000 else f"{x:.1f}"


def main():
    dirs = sys.argv[1:]
    if len(dirs) < 2 or any(not os.path.isdir(d) for d in dirs):
        print("usage: headline_summary.py RUN_DIR RUN_DIR [RUN_DIR...] (folders of records, one per run)", file=sys.stderr)
        return 2
    runs, bests = [], []
    for d in dirs:
        recs = records(d)
        if not recs:
            print(f"error: {d}: no records files", file=sys.stderr)
            return 2
        figs = figures(recs)
        bests.append(", ".join(figs.pop("_best", [])) or "-")
        runs.append(figs)
    names = []
    for r in runs:
        names += [k for k in r if k not in names]
    print("| figure | " + " | ".join(f"run {i + 1}" for i in range(len(runs))) + " | median [min .. max] | runs |")
    print("|---|" + "---|" * len(runs) + "---|---|")
    for k in names:
        vals = [r.get(k) for r in runs]
        got = [v for v in vals if v is not None]
        summary = f"**{fmt(statistics.median(got))}** [{fmt(min(got))} .. {fmt(max(got))}]" if got else "-"
        print(f"| {k} | " + " | ".join(fmt(v) for v in vals) + f" | {summary} | {len(got)} |")
    print()
    for i, b in enumerate(bests):
        print(f"run {i + 1} best rungs: {b}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
