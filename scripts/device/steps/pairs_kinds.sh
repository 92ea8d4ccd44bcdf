# Device step `pairs_kinds` (branch pairskind: the gpu-pairs ladder's pluggable count and combine kinds;
# sourced by scripts/device/session.sh on the GPU host; budget 3 minutes, expected ~2). Uses $B $J $W $SAN
# and step/run from session.sh.
# r08's DSMEM count and r09's wgmma combine moved out of pipeline.cpp's branches into their rung files as
# registered kinds (kinds.hpp); behaviour must be unchanged, and the test-only rung t01 (pt01, count kind
# "warp_atomic", tests/rungs/pairs_t01_warp_atomic.cu) must be exact and timed. This runs
#   1. the GPU tests Abc471gPairsKindsGpu.* (t01's tables exact vs the CPU on random inputs, sizes not
#      multiples of the block; t01 through measure::run_ladder: exact, timed, x previous = r02, listed),
#      Abc471gHopperGpu.* (r05-r08, the DSMEM count through its kind), Abc471gWgmmaGpu.* (r09 in the
#      pipeline through its kind) and Abc471gPairsGpu.* (r01-r04);
#   2. compute-sanitizer memcheck of t01's table test and r08's sanitizer shapes;
#   3. `abc471g scale hopper` at the max case and at N = 10^9 (r04 .. r09, the floor), each compared
#      (joseki compare) with the same run of results/h200/2026-12-01-session6/final-a/hopper_abc (_1);
#   4. `abc471g scale ladder` at the max case (r00 .. r09 through measure::run_ladder and the GPU runner);
#   5. a summary: variant | median | validation | counter / combine from the records.
# Expected: tests PASSED (t01's two tests not skipped), memcheck 0 errors, every compare row SAME (or a
# small FASTER/SLOWER within noise), r08's records say counter "dsmem", r09's combine "joseki's wgmma kernel".
PK=$W/pairs_kinds
mkdir -p "$PK"
PK_REF=results/h200/2026-12-01-session6/final-a/hopper_abc
step "pairs_kinds: GPU tests (t01's kind, r05-r09 through their kinds, r01-r04)"
run timeout 60 "$B/joseki_gpu_tests" --gtest_filter='Abc471gPairsKindsGpu.*' 2>&1 | tee "$PK/gpu_tests_kinds.log" \
  | grep -E "^\[ +(OK|FAILED|SKIPPED|PASSED) |tests ran|Failure|error|^\[exit" | head -9
run timeout 110 "$B/joseki_gpu_tests" --gtest_filter='Abc471gHopperGpu.*:Abc471gWgmmaGpu.*:Abc471gPairsGpu.*' \
  --gtest_brief=1 2>&1 | tee "$PK/gpu_tests.log" | tail -8

step "pairs_kinds: memcheck of t01's tables and r08's sanitizer shapes"
run timeout 40 $SAN --tool memcheck --error-exitcode 9 "$B/joseki_gpu_tests" \
  --gtest_filter='Abc471gPairsKindsGpu.TestOnlyCountKindTablesAreExact:Abc471gHopperGpu.DsmemSanitizerShapes' \
  --gtest_brief=1 2>&1 | tee "$PK/memcheck.log" | grep -E 'ERROR SUMMARY|Invalid|PASSED|FAILED|SKIPPED' | head -5

for c in max 1e9; do
  step "pairs_kinds: scale hopper $c, compared with session6 final-a ${c}_1"
  case $c in max) n=7e6 lim=45 ;; *) n=1e9 lim=90 ;; esac
  run timeout $lim "$J" --json "$PK/hopper_$c.json" abc471g scale hopper --n "$n" > "$PK/hopper_$c.log" 2>&1
  gunzip -c "$PK_REF/${c}_1.json.gz" > "$PK/ref_hopper_$c.json" 2>/dev/null || echo "no reference $PK_REF/${c}_1.json.gz"
  "$J" compare "$PK/ref_hopper_$c.json" "$PK/hopper_$c.json" > "$PK/compare_hopper_$c.md" 2>&1
  echo "[compare exit $?]"
  grep -E "^\| abc471g .*pairs\.(r0|floor)" "$PK/compare_hopper_$c.md" | awk -F'|' '{print $3 "|" $7 "|" $8 "|" $9 "|" $12}' | head -10
  grep -E "^Summary" "$PK/compare_hopper_$c.md"
done

step "pairs_kinds: scale ladder (max case; r00 .. r09 through measure::run_ladder)"
run timeout 60 "$J" --json "$PK/ladder_max.json" abc471g scale ladder > "$PK/ladder_max.log" 2>&1
grep -E "^  pairs\.r0" "$PK/ladder_max.log" | head -12

step "pairs_kinds: summary"
python3 - "$PK" <<'PY' || echo "summary failed (the records are in $PK/*.json)"
import json, os, sys
d = sys.argv[1]
print("| run | variant | GPU_COMPUTE median | validation | counter | combine |")
print("|---|---|---|---|---|---|")
for f in ("hopper_max.json", "hopper_1e9.json", "ladder_max.json"):
    try:
        recs = json.load(open(os.path.join(d, f)))["records"]
    except Exception as e:
        print(f"| {f} | no records ({e}) | | | | |")
        continue
    for r in recs:
        v = r.get("variant", "?")
        if not v.startswith(("pairs.r0", "pairs.floor")):
            continue
        s = r.get("summary") or {}
        x = r.get("extra", {})
        med = f"{s['median']*1e6:.2f} us" if s.get("median") is not None else "-"
        val = ("skipped: " + r["skipped"])[:70] if r.get("skipped") else r.get("validation", "?")[:70]
        print(f"| {f[:-5]} | {v} | {med} | {val} | {x.get('counter', '-')} | {str(x.get('combine', '-'))[:50]} |")
PY
