# Device step abc471g_cpu (sourced by scripts/device/session.sh from the repository root; uses
# $B $J $W $SAN, step, run). The ABC471G CPU solvers on the 16-core GPU host: tests, the max case
# with every CPU solver and the editorial baseline side by side, thread and SIMD scaling, and
# N = 1e8 / 1e9 (two solvers cross-checked by the bench) and 1e10. Budget: about 2 minutes
# (estimated 60-80 s on 16 cores).
# Records: $W/abc471g_cpu_*.json; logs: $W/abc471g_cpu_*.log; a summary table at the end.
export JOSEKI_ABC471G_TESTDATA="$PWD/.device/testdata/abc471g"
ABC_T0=$(date +%s)

step "abc471g_cpu: unit tests (the CPU solvers' suites) and CLI tests"
run "$B/joseki_unit_tests" --gtest_filter='Abc471gGenerator.*:Abc471gRegistry.*:Abc471gIo.*:Abc471gSolvers.*:Abc471gFftCombine.*:Abc471gAuto.*:Abc471gBench.*' --gtest_brief=1 > "$W/abc471g_cpu_unit.log" 2>&1
tail -4 "$W/abc471g_cpu_unit.log"
run python3 tests/cli/test_abc471g.py "$J" > "$W/abc471g_cpu_cli.log" 2>&1
tail -2 "$W/abc471g_cpu_cli.log"

abc_bench() {  # name, then bench arguments
  local name=$1
  shift
  # run's own lines (the command and its exit code) go to the log too: show them from there.
  run "$J" --json "$W/abc471g_cpu_$name.json" abc471g bench "$@" > "$W/abc471g_cpu_$name.log" 2>&1
  grep -E '^\[exit|error' "$W/abc471g_cpu_$name.log" | head -3
}

step "abc471g_cpu: max case (N=7e6, K=2300, M=1e5), all CPU solvers + editorial"
abc_bench max --case max --solvers cpu-direct,cpu-pairs,editorial,auto --runs 7

step "abc471g_cpu: max case, cpu-direct by threads and SIMD level"
for t in 1 4 8; do
  abc_bench "threads$t" --case max --solvers cpu-direct --threads "$t" --runs 5
done
JOSEKI_SIMD=avx2 abc_bench simd_avx2 --case max --solvers cpu-direct --runs 5
JOSEKI_SIMD=scalar abc_bench simd_scalar --case max --solvers cpu-direct --runs 5

step "abc471g_cpu: N=1e8, K=2300 (cpu-direct and cpu-pairs cross-checked)"
abc_bench n1e8 --case N=1e8,K=2300 --solvers cpu-direct,cpu-pairs,auto --runs 5

step "abc471g_cpu: N=1e9, K=2300 (cpu-direct and cpu-pairs cross-checked)"
abc_bench n1e9 --case N=1e9,K=2300 --solvers cpu-direct,cpu-pairs --runs 3

step "abc471g_cpu: N=1e10, K=2300 (beyond the contest; cpu-direct, one timed run)"
abc_bench n1e10 --case N=1e10,K=2300 --solvers cpu-direct --runs 1

step "abc471g_cpu: summary ($(( $(date +%s) - ABC_T0 )) s)"
python3 - "$W" <<'PY'
import glob, json, os, sys
rows = []
order = ["max", "threads1", "threads4", "threads8", "simd_avx2", "simd_scalar", "n1e8", "n1e9", "n1e10"]
for tag in order:
    path = os.path.join(sys.argv[1], f"abc471g_cpu_{tag}.json")
    if not os.path.exists(path):
        rows.append((tag, "-", "-", "no records (the run failed: see its log)", "", "", ""))
        continue
    try:
        recs = json.load(open(path))["records"]
    except Exception as e:
        rows.append((tag, "?", "?", f"unreadable: {e}", "", "", ""))
        continue
    for r in recs:
        if r["scope"] not in ("EXTERNAL", "PROGRAM"):
            continue
        med = f"{r['summary']['median'] * 1e3:.2f} ms" if r.get("summary") else (r.get("skipped") or r["validation"])
        x = (r.get("ladder") or r["extra"]).get("x_baseline")
        ph = r["extra"].get("phases_s", {})
        phs = " ".join(f"{k[:3]}={v * 1e3:.1f}" for k, v in ph.items() if k in ("parse", "generate", "count", "combine")) \
            if r["scope"] == "PROGRAM" else ""
        rows.append((tag, r["variant"], r["scope"], med, f"{x:.1f}x" if x else "-", phs, r["validation"]))
print("| case | solver | scope | median | x editorial | phases (ms) | check |")
print("|---|---|---|---|---|---|---|")
for row in rows:
    print("| " + " | ".join(str(c) for c in row) + " |")
PY
