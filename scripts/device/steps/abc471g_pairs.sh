# abc471g_pairs: ABC471G at scale on one H200 (issue 6): gpu-pairs tests, compute-sanitizer,
# the ladder at the max case, N = 10^8 .. 10^11, the start-up split, calibration and the auto sweep.
# Sourced by scripts/device/session.sh from the repo root ($B $J $W $SAN, step, run).
# Budget: about 5 minutes. Every part has its own time limit and log; a failing part does not
# stop the others. Records (JSON) and logs go to $W/abc471g_pairs/; the last lines are a summary.
AP=$W/abc471g_pairs
mkdir -p "$AP"
export JOSEKI_COSTS=$AP/abc471g_costs.json   # the calibration this step writes and the auto sweep reads
export NCCL_NVLS_ENABLE=0
AP_SUMMARY=()
AP_T0=$SECONDS
AP_BUDGET=${AP_BUDGET:-330}  # seconds for the whole step: later parts are skipped once it is spent
ap_part() {  # ap_part NAME LIMIT_S CMD...: run with a time limit, log to $AP/NAME.log, keep exit + seconds
  local name=$1 limit=$2 t0=$SECONDS rc
  shift 2
  if (( SECONDS - AP_T0 >= AP_BUDGET )); then
    echo "--- $name: skipped (step budget of ${AP_BUDGET} s spent)"
    AP_SUMMARY+=("$name|skipped|0")
    return
  fi
  (( limit > AP_BUDGET - (SECONDS - AP_T0) + 30 )) && limit=$(( AP_BUDGET - (SECONDS - AP_T0) + 30 ))
  echo "--- $name (limit ${limit}s): $*"
  timeout --kill-after=10 "$limit" "$@" > "$AP/$name.log" 2>&1
  rc=$?
  tail -n 12 "$AP/$name.log"
  echo "[$name: exit $rc, $((SECONDS - t0)) s]"
  AP_SUMMARY+=("$name|$rc|$((SECONDS - t0))")
}

step "abc471g_pairs: GPU tests"
ap_part gpu_tests 120 "$B/joseki_gpu_tests" --gtest_filter='Abc471gPairs*' --gtest_brief=1
ap_part unit_tests 60 "$B/joseki_unit_tests" --gtest_filter='Abc471gPairs*' --gtest_brief=1

step "abc471g_pairs: ladder at the max case (N = 7e6, K = 2300, M = 1e5)"
ap_part ladder_max 60 "$J" --json "$AP/ladder_max.json" abc471g scale ladder

step "abc471g_pairs: N = 10^8, 10^9, 10^10 (GPU_COMPUTE, EXTERNAL, CPU cross-check up to 10^9)"
ap_part sizes 120 "$J" --json "$AP/sizes.json" abc471g scale sizes --n 1e8,1e9,1e10 --runs 3

step "abc471g_pairs: compute-sanitizer (small cases)"
# --report-api-errors no: the multi-rank test goes through NCCL, whose failing-by-design API calls
# memcheck would report (see abc471g_multi.sh).
ap_part memcheck 100 $SAN --tool memcheck --report-api-errors no --error-exitcode 9 "$B/joseki_gpu_tests" \
  --gtest_filter='Abc471gPairsGpu.Small*:-Abc471gPairsGpu.SmallSharedVectors' --gtest_brief=1
ap_part racecheck 60 $SAN --tool racecheck --error-exitcode 9 "$B/joseki_gpu_tests" \
  --gtest_filter='Abc471gPairsGpu.SmallRaceShapes' --gtest_brief=1

step "abc471g_pairs: start-up split and cuts"
ap_part startup 60 "$J" --json "$AP/startup.json" abc471g scale startup --runs 4

step "abc471g_pairs: calibration, then auto against the better EXTERNAL (N = 10^3 .. 10^9)"
ap_part calibrate 75 "$J" --json "$AP/calibrate.json" abc471g calibrate --solvers cpu-direct,cpu-pairs,gpu-pairs,gpu-direct
cp "$JOSEKI_COSTS" "$AP/" 2>/dev/null || true
AP_AUTO=$(( AP_BUDGET - (SECONDS - AP_T0) - 30 ))  # the sweep's own budget: it writes its records before the limit
(( AP_AUTO > 70 )) && AP_AUTO=70
(( AP_AUTO < 10 )) && AP_AUTO=10
ap_part auto_sweep 100 "$J" --json "$AP/auto.json" abc471g scale auto --runs 2 --budget $AP_AUTO

step "abc471g_pairs: N = 10^11: GPU_COMPUTE, and through the CLI (progress bar), tensor cores vs NTT"
ap_part size_1e11 60 "$J" --json "$AP/size_1e11.json" abc471g scale sizes --n 1e11 --validate-max 1 --no-external --min-samples 2
ap_part cli_1e11 40 bash -c "
  '$J' abc471g gen --n 100000000000 --k 2300 --m 100000 --seed 11 -o '$AP/n1e11.in' &&
  JOSEKI_PROGRESS=1 '$J' abc471g solve --solver gpu-pairs --explain '$AP/n1e11.in' > '$AP/n1e11.tc.out' &&
  '$J' abc471g solve --solver gpu-pairs-ntt '$AP/n1e11.in' > '$AP/n1e11.ntt.out' &&
  cmp '$AP/n1e11.tc.out' '$AP/n1e11.ntt.out' && echo 'N = 10^11: tensor-core and NTT answers identical' &&
  head -3 '$AP/n1e11.tc.out'"

step "abc471g_pairs: summary"
python3 - "$AP" "${AP_SUMMARY[@]}" <<'PY' 2>&1 | tee "$AP/summary.txt"
import json, os, sys
d = sys.argv[1]
def recs(name):
    try:
        return json.load(open(os.path.join(d, name)))["records"]
    except Exception:
        return []
def med(r):
    return r["summary"]["median"] if r.get("summary") else None
def ms(x):
    return "-" if x is None else (f"{x*1e3:.3f} ms" if x < 1 else f"{x:.3f} s")
print("| part | exit | s |\n|---|---|---|")
for p in sys.argv[2:]:
    n, rc, s = p.split("|"); print(f"| {n} | {rc} | {s} |")
print("\n| figure | value | goal |\n|---|---|---|")
for r in recs("ladder_max.json"):
    if r["variant"].startswith("pairs.r0") or r["variant"].startswith("pairs.phase") or r["variant"] == "pairs.ceiling.l2_atomics":
        x = r.get("extra", {})
        goal = "<= 0.08 ms" if r["variant"] in ("pairs.r02_atomic_tc_int8", "pairs.r03_partition_tc") else ""
        extra = f" ({x['atomics_per_s']:.3g} atomics/s)" if "atomics_per_s" in x else (f" ({x['pairs_per_s']:.3g} pairs/s)" if "pairs_per_s" in x else "")
        print(f"| max {r['variant']} {r['scope']} | {ms(med(r))}{extra} {r['validation'] if r['validation'] != 'exact' else ''} {r.get('skipped') or ''} | {goal} |")
for r in recs("sizes.json") + recs("size_1e11.json"):
    n = r["axes"].get("n")
    if r["scope"] in ("GPU_COMPUTE", "EXTERNAL") and (r["variant"] in ("pairs.r02_atomic_tc_int8", "pairs.r03_partition_tc") or r["scope"] == "EXTERNAL"):
        goal = {("GPU_COMPUTE", 10**9): "<= 5 ms", ("EXTERNAL", 10**9): "<= 0.5 s"}.get((r["scope"], n), "") if r["variant"] != "pairs.external.fast" else ""
        print(f"| N={n:.0e} {r['variant']} {r['scope']} | {ms(med(r))} {r['validation']} | {goal} |")
for r in recs("startup.json"):
    if r["scope"] == "VALUE":
        print(f"| {r['variant']} | {ms(med(r))} | |")
for r in recs("auto.json"):
    if r["variant"] == "auto.verdict":
        print(f"| auto within 10% | {r['extra'].get('figure')}: {r['extra'].get('verdict')} | every N |")
    elif r["variant"].startswith("auto.") and r["scope"] == "EXTERNAL" and "ratio_to_best" in r.get("extra", {}):
        x = r["extra"]
        print(f"| N={r['axes']['n']:.0e} {r['variant']} -> {x['choice']} | {ms(med(r))} (best {x['best']} {ms(x['best_s'])}, x{x['ratio_to_best']:.3f}) | <= 1.10 |")
PY
