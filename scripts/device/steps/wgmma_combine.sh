# Device step `wgmma_combine` (issue 19, r09: ABC471G's combine on wgmma with the masked column sum in
# its epilogue; sourced by scripts/device/session.sh on the GPU host; budget 4 minutes, expected ~2: the
# first call's run took 14 s without ncu).
# Uses $B $J $W $SAN and the functions step/run from session.sh.
#   1. the GPU tests Abc471gWgmmaGpu.* (r09 exact against the CPU on random tables, K = 1 .. 2301,
#      one to three planes, garbage padding, both operand variants, the max case's table)
#   2. `abc471g scale wgmma` at the max case: r09 alone (rs/ss x 2/4 warpgroups x 64/128-byte stages; with
#      its first terms, and the kernel alone) on the max case's pair table and on a random three-plane
#      table, each validated first (a failure says whether exchanging the descriptors' LBO/SBO fixes it)
#   3. `abc471g scale hopper` at the max case once: "r04's combine alone" measured in the same session (on
#      branch wgmma-int also r09_wgmma_combine, the whole solve with r09 in r05's graph)
#   4. ncu --set full of one launch of r10 and r11 (where the time goes; r10 = r09 with
#      one wgmma group in flight, shapes *.if1; r11 = r10 with padded fragment copies, *.pad); compute-sanitizer memcheck and
#      racecheck of Abc471gWgmmaGpu.SanitizerShapes
#   5. a summary: variant | table | planes | median | int8 TOPS | validation, and r04's combine alone
WC=$W/wgmma_combine
mkdir -p "$WC"
WC_T0=$(date +%s)
step "wgmma_combine: GPU tests (Abc471gWgmmaGpu.*)"
run timeout 60 "$B/joseki_gpu_tests" --gtest_filter='Abc471gWgmmaGpu.*' --gtest_brief=1 2>&1 | tee "$WC/gpu_tests.log" | tail -12

step "wgmma_combine: scale wgmma (max case)"
echo "\$ $J --json $WC/wgmma_max.json abc471g scale wgmma --timeout 1"
timeout 90 "$J" --json "$WC/wgmma_max.json" abc471g scale wgmma --timeout 1 2>&1 | tee "$WC/wgmma_max.log" | tail -30
wc_rc=${PIPESTATUS[0]}
echo "[exit $wc_rc]"
if (( wc_rc != 0 )); then  # a fault ends the process: each shape on its own, to see which ones run
  step "wgmma_combine: scale wgmma, one process per shape (the run above exited $wc_rc)"
  for sh in rs.wg2.bk64 rs.wg4.bk64 ss.wg2.bk64 ss.wg4.bk64 rs.wg2.bk128 rs.wg4.bk128 ss.wg2.bk128 ss.wg4.bk128 \
            rs.wg2.bk64.if1 rs.wg4.bk64.if1 ss.wg2.bk64.if1 ss.wg4.bk64.if1 rs.wg2.bk128.if1 rs.wg4.bk128.if1 \
            ss.wg2.bk128.if1 ss.wg4.bk128.if1 rs.wg2.bk64.pad rs.wg4.bk64.pad rs.wg2.bk64.if1.pad rs.wg4.bk64.if1.pad \
            rs.wg2.bk128.if1.pad rs.wg4.bk128.if1.pad rs.wg2.bk64.if1.pad.st6 rs.wg4.bk64.if1.pad.st6 rs.wg4.bk128.if1.pad.st6 rs.wg2.bk64.if1.pad.st6.tma rs.wg4.bk64.if1.pad.st6.tma rs.wg4.bk64.if1.pad.st8.tma; do
    timeout 15 "$J" --json "$WC/wgmma_$sh.json" abc471g scale wgmma --timeout 0.3 --shapes "$sh" > "$WC/wgmma_$sh.log" 2>&1
    echo "$sh: exit $? | $(grep -E "^\| pairs.r09" "$WC/wgmma_$sh.log" | head -1 | cut -c1-200) $(grep -iE "error|what\(\)" "$WC/wgmma_$sh.log" | head -1 | cut -c1-160)"
  done
fi

step "wgmma_combine: scale hopper (max case; r04's combine alone, same session)"
run timeout 75 "$J" --json "$WC/hopper_max.json" abc471g scale hopper 2>&1 | tee "$WC/hopper_max.log" | tail -16

step "wgmma_combine: ncu --set full of one launch of r12 (rs.wg4.bk64.if1.pad.st6) and of r13 (rs.wg4.bk64.if1.pad.st6.tma)"
NCU=ncu; command -v ncu >/dev/null || NCU=/usr/local/cuda/bin/ncu
for sh in rs.wg4.bk64.if1.pad.st6 rs.wg4.bk64.if1.pad.st6.tma; do
  timeout 120 $NCU --clock-control none --set full -k regex:wgmma_combine_ -c 1 \
    "$J" abc471g scale wgmma --shapes "$sh" --timeout 0.2 > "$WC/ncu_$sh.txt" 2>&1
  echo "ncu $sh: exit $?"
  grep -E "Duration|Compute \(SM\) Throughput|Memory Throughput|L2 Hit Rate|L1/TEX Hit|Achieved Occupancy|Registers Per|Issue Slots Busy|Warp Cycles Per Issued|No Eligible|Shared Memory|Bank|Stall|stall|Tensor|tensor" "$WC/ncu_$sh.txt" | cut -c1-200 | head -40
done

step "wgmma_combine: ncu stall reasons of r13's kernel (rs.wg4.bk64.if1.pad.st6.tma): where its warps wait"
timeout 90 $NCU --clock-control none --section WarpStateStats --section SchedulerStats --page raw \
  -k regex:wgmma_combine_ -c 1 "$J" abc471g scale wgmma --shapes rs.wg4.bk64.if1.pad.st6.tma --timeout 0.2 \
  > "$WC/ncu_stalls_r13.txt" 2>&1
echo "ncu stalls: exit $?"
grep -E "issue_stalled_[a-z_]+_per_warp_active.pct|warps_issue_stalled_[a-z_]+_per_issue_active" "$WC/ncu_stalls_r13.txt" \
  | awk '{ v = $NF; if (v + 0 > 0.05) print }' | sort -k3 -g -r | head -14 | cut -c1-160

step "wgmma_combine: compute-sanitizer on the small shapes"
left=$(( 420 - ($(date +%s) - WC_T0) ))
if [[ ${WC_SANITIZERS:-1} == 0 ]]; then
  echo "sanitizers skipped: WC_SANITIZERS=0 (a development call)"
elif (( left > 20 )); then
  run timeout $(( left / 2 )) $SAN --tool memcheck --error-exitcode 9 "$B/joseki_gpu_tests" \
    --gtest_filter='Abc471gWgmmaGpu.SanitizerShapes' --gtest_brief=1 2>&1 | tee "$WC/memcheck.log" | grep -E 'ERROR SUMMARY|Invalid|PASSED|FAILED|SKIPPED' | head -5
  left=$(( 420 - ($(date +%s) - WC_T0) ))
  run timeout $(( left > 10 ? left : 10 )) $SAN --tool racecheck --error-exitcode 9 "$B/joseki_gpu_tests" \
    --gtest_filter='Abc471gWgmmaGpu.SanitizerShapes' --gtest_brief=1 2>&1 | tee "$WC/racecheck.log" | grep -E 'RACECHECK SUMMARY|ERROR SUMMARY|hazard|PASSED|FAILED|SKIPPED' | head -5
else
  echo "sanitizers skipped: only $left s of the step's budget left"
fi

step "wgmma_combine: summary"
python3 - "$WC" <<'PY' || echo "summary failed (the records are in $WC/*.json)"
import json, os, sys
d = sys.argv[1]
print("| variant | table | planes | GPU_COMPUTE median | int8 TOPS | validation |")
print("|---|---|---|---|---|---|")
import glob
files = ["wgmma_max.json"] + sorted(os.path.basename(f) for f in glob.glob(os.path.join(d, "wgmma_*.*.json")))
for f, keep in [(f, lambda r: True) for f in files] + [
                ("hopper_max.json", lambda r: "alone" in r.get("technique", "") or r.get("variant", "").startswith("pairs.floor"))]:
    try:
        recs = json.load(open(os.path.join(d, f)))["records"]
    except Exception as e:
        print(f"| {f}: no records ({e}) | | | | | |")
        continue
    for r in recs:
        if not keep(r) and not r.get("variant", "").startswith(("pairs.r04", "pairs.r05", "pairs.r09")):
            continue
        s = r.get("summary") or {}
        x = r.get("extra", {})
        ax = r.get("axes") or {}
        med = f"{s['median']*1e6:.2f} us" if s.get("median") is not None else "-"
        tops = f"{x['int8_tops']:.0f}" if "int8_tops" in x else "-"
        val = ("skipped: " + r["skipped"])[:90] if r.get("skipped") else r.get("validation", "?")[:90]
        v = r.get("variant", "?")
        name = v if f.startswith("wgmma") or v.startswith("pairs.r") else r.get("technique", "?")[:60]
        table = ax.get("table", "-") if isinstance(ax, dict) else "-"
        print(f"| {name} | {table} | {x.get('planes', '-')} | {med} | {tops} | {val} |")
PY
