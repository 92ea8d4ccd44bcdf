#!/usr/bin/env python3
"""auto in both device states (issue 17, item 2): is `--solver auto` within 10 % of the best EXTERNAL
at every N = 10^3 .. 10^9 when the GPU is idle (a user's shell), and where is the CPU/GPU crossover in
each state?

The launcher is this Python process (it never loads libcuda; idle_held.py's helper holds the context in
the held state). For each state and N:
  1. one `--explain` run of auto (untimed): the solver it chose, the device state it found (or why it
     did not ask), whether it decided from the header before the parse, and its own decision time
     (the `auto` phase, measured inside the process);
  2. a pilot: one run of every candidate and of auto (posix_spawn .. waitpid). A candidate whose pilot
     is over 3x the best pilot stops there (its one run is a lower bound that ranks it); for the others
     the pilot is a warm-up and is not kept;
  3. rounds: auto and every remaining candidate run once per round, interleaved, the order rotated by
     one each round (so drift, and whatever the previous process left behind, falls on all alike):
     --runs-tiny rounds where the best pilot is under 20 ms, --runs-short where it is under 100 ms
     (processes of a few ms: their spread is large, and they are cheap; at N = 10^3 the H200 host's runs
     fall into a fast (~2.8 ms) and a slow (~3.8 ms) group, so a median of 21 can land in either),
     --runs-long rounds above. Each run's resource use (wait4: CPU time, page faults, context switches)
     is kept beside its split, and a third table compares the fast and the slow half of the runs.
The verdict is on medians: auto's median EXTERNAL <= 1.10 x the best candidate's median, at every N.
Beside it: the paired ratio (the median over rounds of auto / the best candidate in the same round),
the spread of each (min..max), and whether the solver auto chose is within 10 % as measured among the
candidates (the choice, apart from auto's own overhead). Crossover N: the smallest N of the sweep
from which on the best GPU candidate beats the best CPU candidate.

Usage:
  auto_states.py --joseki J --facts FACTS.json --out RECORDS.json [--runs-tiny 61] [--runs-short 21] [--runs-long 9]
                 [--states idle,held] [--solvers cpu-direct,cpu-pairs,gpu-pairs,gpu-direct]
                 [--ns 1e3,...,1e9] [--k 2300]
auto reads the cost file named by $JOSEKI_COSTS (the step calibrates first).
Exit 0 the idle verdict holds (or idle was not asked for); 1 it fails or a run failed; 2 bad usage.
"""
import argparse
import datetime
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import idle_held  # noqa: E402  (hold, spawn_time, summary, nvml_facts)

GPU = ("gpu-",)
TINY_S = 0.020   # a best pilot under this: --runs-tiny rounds
SHORT_S = 0.100  # a best pilot under this (and not under TINY_S): --runs-short rounds
DROP = 3.0       # a candidate whose pilot is over DROP x the best pilot runs no more


def spawn_split(argv, stdin_path, report):
    """One timed run, as idle_held.spawn_time (posix_spawn .. waitpid), with JOSEKI_SCOPE_REPORT set: returns
    (EXTERNAL s, exit code, split) where split = {pre_main, PROGRAM, post_main, <phases>} in seconds from
    the child's CLOCK_MONOTONIC timestamps (this launcher reads the same clock), or {} without a report."""
    env = dict(os.environ, JOSEKI_SCOPE_REPORT=report)
    if os.path.exists(report):
        os.remove(report)
    fd = os.open(stdin_path, os.O_RDONLY)
    null = os.open(os.devnull, os.O_WRONLY)
    try:
        t0 = time.perf_counter()
        m0 = time.clock_gettime_ns(time.CLOCK_MONOTONIC)
        pid = os.posix_spawn(argv[0], argv, env, file_actions=[(os.POSIX_SPAWN_DUP2, fd, 0), (os.POSIX_SPAWN_DUP2, null, 1)])
        _, status, ru = os.wait4(pid, 0)
        m1 = time.clock_gettime_ns(time.CLOCK_MONOTONIC)
        t1 = time.perf_counter()
    finally:
        os.close(fd)
        os.close(null)
    # The child's resource use (wait4): CPU time, page faults and context switches, to explain where
    # runs of the same program fall into a fast and a slow group (seen at N = 10^3 on the H200 host).
    split = {"cpu_time": ru.ru_utime + ru.ru_stime, "minor_faults": ru.ru_minflt,
             "ctx_voluntary": ru.ru_nvcsw, "ctx_involuntary": ru.ru_nivcsw}
    try:
        with open(report) as f:
            r = json.load(f)
        split.update({k: v for k, v in r.items() if not k.endswith("_ns")})
        split["pre_main"] = (r["main_entry_ns"] - m0) * 1e-9
        split["post_main"] = (m1 - r["main_end_ns"]) * 1e-9
    except (OSError, ValueError, KeyError):
        pass
    return t1 - t0, os.waitstatus_to_exitcode(status), split


def median_split(splits):
    """Per key, the median over the runs that have it."""
    keys = sorted({k for sp in splits for k in sp})
    return {k: statistics.median([sp[k] for sp in splits if k in sp]) for k in keys}


def parse_explain(stderr):
    """From auto's --explain: (chose, found, planned_early, auto_phase_s)."""
    chose = found = ""
    early = False
    phase = None
    for line in stderr.splitlines():
        t = line.strip()
        if line.startswith("solver: "):
            chose = line.split(": ", 1)[1].strip()
        elif t.startswith("device state "):
            rest = t[len("device state "):]
            found = rest.split(" ", 1)[0] + (", not asked" if "not asked" in rest else ", NVML")
        elif t.startswith("GPU not asked"):
            found = "GPU not asked"
        elif t.startswith("auto decided from the input's header"):
            early = True
        elif line.startswith("phases:"):
            m = re.search(r"\bauto ([0-9.]+) ms", line)
            if m:
                phase = float(m.group(1)) * 1e-3
    return chose, found, early, phase


def explain(joseki, stdin_path):
    with open(stdin_path) as f:
        p = subprocess.run([joseki, "abc471g", "solve", "--solver", "auto", "--explain"], stdin=f,
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, timeout=120)
    return parse_explain(p.stderr) + (p.returncode,)


def rotated(items, i):
    """The round-i order: items rotated left by i (every item goes first equally often)."""
    k = i % len(items) if items else 0
    return items[k:] + items[:k]


def contenders(pilot, solvers):
    """Candidates that stay after the pilot: within DROP x the best candidate's pilot."""
    cands = {s: t for s, t in pilot.items() if s in solvers}
    if not cands:
        return []
    best = min(cands.values())
    return [s for s in solvers if s in cands and cands[s] <= DROP * best]


def paired_ratio(auto_xs, best_xs):
    """Median over rounds of auto / best in the same round (None without common rounds)."""
    rs = [a / b for a, b in zip(auto_xs, best_xs) if b > 0]
    return statistics.median(rs) if rs else None


def verdict_for(rows, ns, state):
    ok = all((state, n) in rows and rows[(state, n)]["ratio_process"] <= 1.10 for n in ns)
    right = all((state, n) in rows and rows[(state, n)]["ratio"] <= 1.10 for n in ns)
    cross = None
    for n in ns:
        if (state, n) in rows and all(rows[(state, m)]["gpu_wins"] for m in ns if m >= n and (state, m) in rows):
            cross = n
            break
    return {"within_10pct_everywhere": ok, "choice_within_10pct": right, "crossover_n": cross}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--joseki", required=True)
    ap.add_argument("--facts", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--runs-tiny", type=int, default=61, help="rounds where the best pilot is under 20 ms")
    ap.add_argument("--runs-short", type=int, default=21, help="rounds where the best pilot is 20 .. 100 ms")
    ap.add_argument("--runs-long", type=int, default=9, help="rounds where it is 100 ms or more")
    ap.add_argument("--states", default="idle,held")
    ap.add_argument("--solvers", default="cpu-direct,cpu-pairs,gpu-pairs,gpu-direct")
    ap.add_argument("--ns", default="1e3,1e4,1e5,1e6,1e7,1e8,1e9")
    ap.add_argument("--k", type=int, default=2300)
    a = ap.parse_args()
    states = a.states.split(",")
    if a.runs_tiny < 1 or a.runs_short < 1 or a.runs_long < 1 or not states or any(s not in ("idle", "held") for s in states):
        print(f"error: --runs-short {a.runs_short} / --runs-long {a.runs_long} / --states {a.states}: want runs >= 1 "
              "and idle and/or held", file=sys.stderr)
        return 2
    try:
        ns = [int(float(x)) for x in a.ns.split(",")]
        with open(a.facts) as f:
            recs0 = json.load(f)["records"]
        first = recs0[0]  # its device/host/build are copied into every record written here
        if not all(first.get(k) for k in ("host", "build")):
            raise ValueError(f"--facts {a.facts}: its first record has no host/build facts to copy")
    except (ValueError, OSError, KeyError, IndexError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    solvers = a.solvers.split(",")
    tmp = tempfile.mkdtemp(prefix="auto_states.")
    inputs = {}
    for n in ns:
        inputs[n] = os.path.join(tmp, f"n{n}.in")
        subprocess.run([a.joseki, "abc471g", "gen", "--n", str(n), "--k", str(a.k), "--m", str(min(n, 100000)), "-o", inputs[n]],
                       check=True, timeout=60)
    idle_held.spawn_time([a.joseki, "check", "--quiet"], None)  # page cache; untimed

    now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    recs, rows, failed = [], {}, False

    def record(variant, state, n, xs, extra):
        recs.append({"schema": "joseki.record/1", "experiment": "abc471g.auto_states", "variant": variant, "rung": -1,
                     "technique": "EXTERNAL from a launcher that never touched CUDA (posix_spawn .. waitpid); auto and "
                                  "the candidates interleaved run by run",
                     "backend": "process", "axes": {"device_state": state, "n": n, "k": a.k}, "scope": "EXTERNAL",
                     "mode": "", "unit": "s", "samples": xs, "summary": idle_held.summary(xs), "stop_reason": "single",
                     "warmup_runs": 0 if extra.get("lower_bound") else 1, "throughput": None,
                     "validation": "not-checked", "skipped": None, "extra": extra, "device": first.get("device"),
                     "host": first.get("host"), "build": first.get("build"), "timestamp": now})

    for state in states:
        holder = None
        if state == "held":
            holder = subprocess.Popen([sys.executable, idle_held.__file__, "--hold"], stdin=subprocess.PIPE,
                                      stdout=subprocess.PIPE, text=True)
            line = holder.stdout.readline().strip()
            if line != "ready":
                print(f"error: the context holder said {line!r}", file=sys.stderr)
                return 1
        nv = idle_held.nvml_facts()
        for n in ns:
            chose, found, early, phase, rc = explain(a.joseki, inputs[n])
            if rc != 0:
                print(f"note: auto --explain at N = {n} ({state}) exited {rc}", file=sys.stderr)
                failed = True
                continue
            argv = {s: [a.joseki, "abc471g", "solve", "--solver", s] for s in solvers + ["auto"]}
            report = os.path.join(tmp, "scope.json")
            pilot, bad, splits = {}, set(), {}
            for s in solvers + ["auto"]:
                t, rc, _ = spawn_split(argv[s], inputs[n], report)
                if rc != 0:
                    print(f"note: {s} at N = {n} ({state}) exited {rc}: left out", file=sys.stderr)
                    bad.add(s)
                    continue
                pilot[s] = t
            if "auto" in bad:
                failed = True
                continue
            keep = contenders(pilot, solvers)
            best_pilot = min((pilot[s] for s in keep), default=1.0)
            runs = a.runs_tiny if best_pilot < TINY_S else a.runs_short if best_pilot < SHORT_S else a.runs_long
            xs = {s: [] for s in keep + ["auto"]}
            for i in range(runs):
                for s in rotated(keep + ["auto"], i):
                    if s in bad:
                        continue
                    t, rc, sp = spawn_split(argv[s], inputs[n], report)
                    if rc != 0:
                        print(f"note: {s} at N = {n} ({state}) exited {rc} in round {i}: left out", file=sys.stderr)
                        bad.add(s)
                        if s == "auto":
                            failed = True
                        continue
                    xs[s].append(t)
                    splits.setdefault(s, []).append(sp)
            if os.path.exists(report):
                os.remove(report)
            if "auto" in bad:
                continue
            med = {}
            for s in solvers + ["auto"]:
                if s in bad or s not in pilot:
                    continue
                lower = s not in xs
                samples = [pilot[s]] if lower else xs[s]
                med[s] = idle_held.summary(samples)["median"]
                record(s, state, n, samples, {"launcher": "scripts/device/auto_states.py", "nvml": nv,
                                              "lower_bound": lower, "rounds": 0 if lower else len(samples),
                                              "pilot_s": pilot[s],
                                              "split_median_s": median_split(splits.get(s, []))})
            cands = {s: v for s, v in med.items() if s != "auto"}
            if not cands:
                failed = True
                continue
            best = min(cands, key=cands.get)
            cpu = [v for s, v in cands.items() if not s.startswith(GPU)]
            gpu = [v for s, v in cands.items() if s.startswith(GPU)]
            chosen_s = cands.get(chose)
            rows[(state, n)] = {
                "best": best, "best_s": cands[best], "auto_s": med["auto"], "chose": chose, "found": found,
                "decided_from_header": early, "auto_phase_s": phase, "rounds": runs,
                "best_spread_s": [min(xs[best]), max(xs[best])] if best in xs and xs[best] else None,
                "auto_spread_s": [min(xs["auto"]), max(xs["auto"])] if xs["auto"] else None,
                "ratio": (chosen_s / cands[best]) if chosen_s else float("inf"),
                "ratio_process": med["auto"] / cands[best],
                "ratio_paired": paired_ratio(xs["auto"], xs.get(best, [])),
                "gpu_wins": bool(cpu and gpu and min(gpu) < min(cpu)), "medians": med,
                "split_auto_s": median_split(splits.get("auto", [])), "split_best_s": median_split(splits.get(best, [])),
                "runs_auto": list(zip(xs["auto"], splits.get("auto", []))),
                "runs_best": list(zip(xs.get(best, []), splits.get(best, [])))}
        if holder:
            holder.stdin.close()
            holder.wait(timeout=30)

    verdict = {}
    for state in states:
        verdict[state] = v = verdict_for(rows, ns, state)
        recs.append({"schema": "joseki.record/1", "experiment": "abc471g.auto_states", "variant": "auto.verdict",
                     "rung": -1, "technique": "auto's median EXTERNAL / the best candidate's, every N (interleaved runs)",
                     "backend": "process", "axes": {"device_state": state, "k": a.k}, "scope": "VALUE", "mode": "",
                     "unit": "ratio",
                     "samples": [max((rows[(state, n)]["ratio_process"] for n in ns if (state, n) in rows), default=0.0)],
                     "stop_reason": "single", "warmup_runs": 0, "throughput": None,
                     "validation": "not-applicable", "skipped": None,  # a verdict, not a correctness check
                     "extra": {"within_10pct_everywhere": v["within_10pct_everywhere"], "crossover_n": v["crossover_n"],
                               "choice_within_10pct": v["choice_within_10pct"],
                               "per_n": {str(n): rows.get((state, n)) for n in ns},
                               "runs_tiny": a.runs_tiny, "runs_short": a.runs_short, "runs_long": a.runs_long,
                               "cost_file": os.environ.get("JOSEKI_COSTS", "")},
                     "device": first.get("device"), "host": first.get("host"), "build": first.get("build"),
                     "timestamp": now})
    for r in recs:  # the schema wants a summary wherever there are samples (the verdicts' one ratio too)
        if r.get("summary") is None and r.get("samples"):
            r["summary"] = idle_held.summary(r["samples"])
    with open(a.out, "w") as f:
        json.dump({"schema": "joseki.records/1", "command": " ".join(sys.argv), "created": now, "records": recs}, f, indent=1)

    def spread(sp):
        return f" ({sp[0] * 1e3:.1f}..{sp[1] * 1e3:.1f})" if sp else ""

    print("| state | N | runs | best candidate: median (min..max) | auto chose (state found) | chosen / best | "
          "auto: median (min..max) | auto's decision | auto / best (paired) |")
    print("|---|---|---|---|---|---|---|---|---|")
    for state in states:
        for n in ns:
            r = rows.get((state, n))
            if not r:
                continue
            dec = (f"{r['auto_phase_s'] * 1e3:.2f} ms" if r["auto_phase_s"] is not None else "?") + \
                  (", from the header" if r["decided_from_header"] else "")
            paired = f"{r['ratio_paired']:.2f}" if r["ratio_paired"] is not None else "-"
            print(f"| {state} | {n:.0e} | {r['rounds']} | {r['best']} {r['best_s'] * 1e3:.1f} ms{spread(r['best_spread_s'])} | "
                  f"{r['chose']} ({r['found']}) | {r['ratio']:.2f} | {r['auto_s'] * 1e3:.1f} ms{spread(r['auto_spread_s'])} | "
                  f"{dec} | {r['ratio_process']:.2f}{'' if r['ratio_process'] <= 1.10 else ' OVER'} ({paired}) |")
    # Where auto's time differs from the best candidate's (medians of the runs' own reports): before
    # main (exec, loading), inside main (PROGRAM, and of it parse and auto's decision), after it (exit).
    print()
    print("| state | N | auto - best: pre-main | PROGRAM | post-main | of PROGRAM: parse | auto's decision | "
          "CPU time | minor faults | involuntary switches |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for state in states:
        for n in ns:
            r = rows.get((state, n))
            if not r or not r["split_auto_s"] or not r["split_best_s"]:
                continue
            A, B = r["split_auto_s"], r["split_best_s"]

            def d(k):
                return f"{(A.get(k, 0.0) - B.get(k, 0.0)) * 1e3:+.2f} ms" if k in A or k in B else "-"
            def c(k):
                return f"{A.get(k, 0.0) - B.get(k, 0.0):+.1f}" if k in A or k in B else "-"
            print(f"| {state} | {n:.0e} | {d('pre_main')} | {d('PROGRAM')} | {d('post_main')} | {d('parse')} | "
                  f"{A.get('auto', 0.0) * 1e3:.2f} ms | {d('cpu_time')} | {c('minor_faults')} | {c('ctx_involuntary')} |")
    # The fast and the slow half: auto's and the best candidate's runs pooled, split at the pooled
    # median EXTERNAL. If auto's runs fall into the slow half more often than the best candidate's,
    # its median moves by the gap between the groups, not by its own overhead; the groups' medians of
    # each part of the run say where the gap lies.
    print()
    print("| state | N | fast half: auto's share / best's | slow - fast: EXTERNAL | pre-main | PROGRAM | post-main | "
          "CPU time | minor faults | involuntary switches |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for state in states:
        for n in ns:
            r = rows.get((state, n))
            if not r or not r.get("runs_auto") or not r.get("runs_best"):
                continue
            pooled = [(t, sp, "auto") for t, sp in r["runs_auto"]] + [(t, sp, "best") for t, sp in r["runs_best"]]
            cut = statistics.median([t for t, _, _ in pooled])
            fast = [p for p in pooled if p[0] <= cut]
            slow = [p for p in pooled if p[0] > cut]
            if not fast or not slow:
                continue

            def share(who):
                mine = [p for p in pooled if p[2] == who]
                return sum(1 for p in mine if p[0] <= cut) / len(mine)

            def gap(k, scale=1.0, fmt="{:+.2f} ms"):
                f = [p[1][k] for p in fast if k in p[1]]
                sl = [p[1][k] for p in slow if k in p[1]]
                return fmt.format((statistics.median(sl) - statistics.median(f)) * scale) if f and sl else "-"
            ext = (statistics.median([p[0] for p in slow]) - statistics.median([p[0] for p in fast])) * 1e3
            print(f"| {state} | {n:.0e} | {share('auto'):.2f} / {share('best'):.2f} | {ext:+.2f} ms | "
                  f"{gap('pre_main', 1e3)} | {gap('PROGRAM', 1e3)} | {gap('post_main', 1e3)} | {gap('cpu_time', 1e3)} | "
                  f"{gap('minor_faults', 1, '{:+.0f}')} | {gap('ctx_involuntary', 1, '{:+.1f}')} |")
    for state in states:
        v = verdict[state]
        cross = f"{v['crossover_n']:.0e}" if v["crossover_n"] else "none in the sweep"
        print(f"{state}: auto's EXTERNAL within 10 % of the best at every N (medians): "
              f"{'yes' if v['within_10pct_everywhere'] else 'NO'}; its choice within 10 % at every N: "
              f"{'yes' if v['choice_within_10pct'] else 'NO'}; GPU beats CPU from N = {cross}")
    for n in ns:
        os.remove(inputs[n])
    os.rmdir(tmp)
    return 1 if failed or ("idle" in verdict and not verdict["idle"]["within_10pct_everywhere"]) else 0


if __name__ == "__main__":
    sys.exit(main())
