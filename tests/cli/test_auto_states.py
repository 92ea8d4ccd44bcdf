"""scripts/device/auto_states.py (issue 17, item 2): its pure parts (the round order, which candidates
stay after the pilot, the paired ratio, the verdict, reading auto's --explain) and one small sweep with
the CPU solvers only (idle state; no GPU needed): every record validates, auto and the candidates that
stay get the same number of interleaved runs, the dropped ones one run marked a lower bound."""
import json
import os
import subprocess
import sys

from harness import ROOT, Suite, expect, validate_records

sys.path.insert(0, os.path.join(ROOT, "scripts", "device"))
import auto_states  # noqa: E402

suite = Suite()
SCRIPT = os.path.join(ROOT, "scripts", "device", "auto_states.py")


@suite.test
def every_candidate_goes_first_equally_often(s):
    items = ["cpu-direct", "gpu-pairs", "auto"]
    firsts = [auto_states.rotated(items, i)[0] for i in range(9)]
    expect(all(firsts.count(x) == 3 for x in items), f"rotation: {firsts}")
    expect(all(sorted(auto_states.rotated(items, i)) == sorted(items) for i in range(5)), "every round runs all")
    expect(auto_states.rotated([], 3) == [], "no contenders: no round")


@suite.test
def the_pilot_drops_only_candidates_over_three_times_the_best(s):
    pilot = {"cpu-direct": 0.004, "cpu-pairs": 0.0119, "gpu-pairs": 0.31, "auto": 0.0041}
    keep = auto_states.contenders(pilot, ["cpu-direct", "cpu-pairs", "gpu-pairs"])
    expect(keep == ["cpu-direct", "cpu-pairs"], f"kept {keep}")
    expect(auto_states.contenders({"auto": 1.0}, ["cpu-direct"]) == [], "no candidate ran: none kept")


@suite.test
def paired_ratio_and_verdict(s):
    expect(abs(auto_states.paired_ratio([1.1, 2.0, 3.3], [1.0, 2.0, 3.0]) - 1.1) < 1e-12, "median of round ratios")
    expect(auto_states.paired_ratio([1.0], []) is None, "no common round")
    rows = {("idle", 10): {"ratio_process": 1.05, "ratio": 1.0, "gpu_wins": False},
            ("idle", 100): {"ratio_process": 1.12, "ratio": 1.0, "gpu_wins": True}}
    v = auto_states.verdict_for(rows, [10, 100], "idle")
    expect(not v["within_10pct_everywhere"] and v["choice_within_10pct"] and v["crossover_n"] == 100, str(v))
    rows[("idle", 100)]["ratio_process"] = 1.10
    expect(auto_states.verdict_for(rows, [10, 100], "idle")["within_10pct_everywhere"], "1.10 is within 10 %")
    expect(not auto_states.verdict_for(rows, [10, 100, 1000], "idle")["within_10pct_everywhere"], "a missing N fails")


@suite.test
def reads_autos_explain(s):
    err = ("solver: cpu-direct\n"
           "auto decided from the input's header on a second thread beside the parse (0.2 ms there; ...)\n"
           "auto: N = 1000, K = 2300, 16 threads, SIMD avx512: chose cpu-direct\n"
           "  device state idle (not asked: no GPU solver can win); GPU fixed cost ...\n"
           "  GPU not asked: the best CPU estimate ...\n"
           "phases: parse 0.5 ms; auto 0.011 ms; combine 0.001 ms\n")
    chose, found, early, phase = auto_states.parse_explain(err)
    expect((chose, found, early) == ("cpu-direct", "GPU not asked", True), f"{chose!r} {found!r} {early!r}")
    expect(abs(phase - 11e-6) < 1e-12, f"auto phase {phase}")
    chose, found, early, phase = auto_states.parse_explain(
        "solver: gpu-pairs\nauto decided after the parse (...)\n  device state held (NVML: ...)\nphases: parse 1 ms\n")
    expect((chose, found, early, phase) == ("gpu-pairs", "held, NVML", False, None), f"{chose} {found} {early} {phase}")


@suite.test
def a_small_cpu_sweep_interleaves_and_records(s):
    facts = os.path.join(s.tmp, "facts.json")
    # Records stamped with this host and build (the step uses `check`, which has none without a GPU).
    p = s.run("--quiet", "--json", facts, "abc471g", "bench", "--solvers", "cpu-direct", "--case", "N=100,K=5", "--runs", "1")
    expect(p.returncode == 0 and os.path.exists(facts), p.stderr)
    empty = os.path.join(s.tmp, "empty.json")
    with open(empty, "w") as f:
        json.dump({"schema": "joseki.records/1", "records": []}, f)
    p = subprocess.run([sys.executable, SCRIPT, "--joseki", s.exe, "--facts", empty, "--out", os.path.join(s.tmp, "x.json")],
                       capture_output=True, text=True, timeout=60, env=s.env())
    expect(p.returncode == 2 and "error" in p.stderr, f"facts without records: exit 2, got {p.returncode}: {p.stderr}")
    out = os.path.join(s.tmp, "auto_states.json")
    # The same number of rounds in every bucket (pilot under 20 ms, under 100 ms, above): how long a pilot
    # takes depends on the machine (under qemu-user at 2*10^4 it can pass 100 ms), the count asserted must not.
    p = subprocess.run([sys.executable, SCRIPT, "--joseki", s.exe, "--facts", facts, "--out", out, "--states", "idle",
                        "--ns", "1e3,2e4", "--solvers", "cpu-direct,editorial", "--runs-tiny", "4", "--runs-short", "4", "--runs-long", "4"],
                       capture_output=True, text=True, timeout=600, env=s.env())
    expect(p.returncode in (0, 1), f"exit {p.returncode}: {p.stderr}")
    expect("| idle | 1e+03 |" in p.stdout and "idle: auto's EXTERNAL within 10 %" in p.stdout, p.stdout + p.stderr)
    expect("fast half: auto's share / best's" in p.stdout, "the fast/slow half table: " + p.stdout)
    with open(out) as f:
        doc = json.load(f)
    recs = doc["records"]
    ext = [r for r in recs if r["scope"] == "EXTERNAL"]
    for n in (1000, 20000):
        at = {r["variant"]: r for r in ext if r["axes"]["n"] == n}
        expect(len(at["auto"]["samples"]) == 4 and not at["auto"]["extra"]["lower_bound"], f"auto at {n}: 4 rounds")
        expect(len(at["cpu-direct"]["samples"]) == 4, f"cpu-direct at {n}: 4 rounds, interleaved with auto")
        if at["editorial"]["extra"]["lower_bound"]:
            expect(len(at["editorial"]["samples"]) == 1, "a dropped candidate keeps its one pilot run")
    verdict = [r for r in recs if r["variant"] == "auto.verdict"]
    expect(len(verdict) == 1 and "per_n" in verdict[0]["extra"], "one verdict record for idle")
    row = verdict[0]["extra"]["per_n"]["1000"]
    expect(len(row["runs_auto"]) == 4 and all(sp.get("cpu_time", -1) > 0 and sp.get("minor_faults", 0) > 0
                                              for _, sp in row["runs_auto"]),
           f"each of auto's runs keeps its time and wait4's resource use: {row['runs_auto']}")
    expect(row["chose"] == "cpu-direct" and row["decided_from_header"], f"auto's plan at 1e3: {row}")
    validate_records(out)


suite.main()
