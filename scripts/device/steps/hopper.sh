# Device step `hopper` (issue 19, deliverable 1: Hopper's own moves measured; sourced by
# scripts/device/session.sh on the GPU host; budget 3 minutes, expected about 1.5). Uses $B $J $W
# $SAN and the functions step/run from session.sh. Every part has its own time limit and runs
# whatever the others did (a probe that fails or hangs does not stop the next one).
#   1. GPU tests of the four probes (HopperProbeRuns.*, ProbeRuns.launch, ProbeReferences.*)
#   2. each probe in full mode, one process each: dsmem, tma, mma, launch -> $W/hopper_<probe>.json/.md/.err
#   3. compute-sanitizer memcheck on a quick run of each probe, one process and time limit each
#      (exit 9 = memcheck found errors; 124 = out of time)
#   4. the summary table: quantity | joseki | published | ratio | verdict, from the JSON records
hop_status=()
hop_part() {  # hop_part NAME LIMIT_S OUT_FILE CMD...
  local name=$1 limit=$2 out=$3 t0 rc
  shift 3
  t0=$(date +%s)
  echo "\$ $* > ${out#$W/}"
  timeout "$limit" "$@" >"$out" 2>&1
  rc=$?
  hop_status+=("$name|$rc|$(($(date +%s) - t0))")
  echo "[exit $rc, $(($(date +%s) - t0)) s]"
  return 0
}
HOP_T0=$(date +%s)

step "hopper: GPU tests of the Hopper probes"
hop_part gpu_tests 60 "$W/hopper_gpu_tests.log" "$B/joseki_gpu_tests" \
  --gtest_filter='Hopper/HopperProbeRuns.*:All/ProbeRuns.*/launch:ProbeReferences.*' --gtest_brief=1
grep -E '^\[  (FAILED|PASSED|SKIPPED)|Failure|Expected|Actual|Which is' "$W/hopper_gpu_tests.log" | head -12

for p in dsmem tma mma launch; do
  step "hopper: joseki probe $p"
  lim=30; [[ $p == tma ]] && lim=45
  timeout "$lim" "$J" --json "$W/hopper_$p.json" probe "$p" >"$W/hopper_$p.md" 2>"$W/hopper_$p.err"
  rc=$?
  hop_status+=("probe $p|$rc|-")
  echo "[exit $rc]"
  grep -E '\| (holds|does not hold|depends) \||failed|FAILED|error' "$W/hopper_$p.md" "$W/hopper_$p.err" | cut -c1-300 | head -6
done

step "hopper: SASS of the tensor-core and bulk-copy kernels (wgmma must show as IGMMA/HGMMA)"
HOP_OBJDUMP=$(command -v cuobjdump || ls /usr/local/cuda/bin/cuobjdump 2>/dev/null)
if [[ -n $HOP_OBJDUMP ]]; then
  timeout 30 "$HOP_OBJDUMP" --dump-sass "$J" 2>/dev/null | awk '/Function : .*(wgmma_kernel|mma_sync_kernel|tma_stream_kernel|dsmem_read_kernel)/{f=$0} f && /[IHQ]GMMA|IMMA|HMMA|UBLKCP|SYNCS|WARPGROUP/{print f; print; f=""}' \
    > "$W/hopper_sass.txt"
  for k in wgmma_kernel mma_sync_kernel tma_stream_kernel; do
    echo "$k: $(grep -A1 "$k" "$W/hopper_sass.txt" | grep -oE '[IHQ]GMMA|IMMA|HMMA|UBLKCP|SYNCS' | sort -u | tr '\n' ' ')"
  done
else
  echo "no cuobjdump on this host"
fi

step "hopper: compute-sanitizer memcheck, quick run of each probe (one process each)"
for p in dsmem mma launch tma; do
  left=$(( 175 - ($(date +%s) - HOP_T0) ))
  lim=30; [[ $p == tma ]] && lim=50
  (( lim > left )) && lim=$left
  if (( lim >= 10 )); then
    hop_part "memcheck $p" "$lim" "$W/hopper_memcheck_$p.log" $SAN --tool memcheck --error-exitcode 9 "$J" probe "$p" --quick
    grep -E 'ERROR SUMMARY|Invalid|Program hit' "$W/hopper_memcheck_$p.log" | head -4
  else
    echo "memcheck $p skipped: only $left s of the step's 3 minutes left"
    hop_status+=("memcheck $p|skipped|0")
  fi
done

step "hopper: summary"
python3 - "$W" <<'PY' || echo "summary failed (the records are in $W/hopper_*.json)"
import json, os, sys
w = sys.argv[1]
recs = []
for p in ("dsmem", "tma", "mma", "launch"):
    f = os.path.join(w, f"hopper_{p}.json")
    try:
        recs += json.load(open(f))["records"]
    except Exception as e:
        print(f"{p}: no records ({e})")
print("| probe | rule | verdict | quantity | joseki | published | ratio | comparison |")
print("|---|---|---|---|---|---|---|---|")
for r in recs:
    x = r.get("extra", {})
    if "verdict" not in x:
        continue
    ref = x.get("reference")
    if ref:
        print(f"| {r['experiment'][6:]} | {r['variant'][8:]} | {x['verdict']} | {ref['quantity']} | {x['joseki']:.4g} {ref['unit']} | "
              f"{ref['value']:.4g} {ref['unit']} | {x['ratio']:.2f} | {x['comparison'][:120]} |")
    else:
        print(f"| {r['experiment'][6:]} | {r['variant'][8:]} | {x['verdict']} | - | {r['summary']['median']:.4g} {r['unit']} | - | - | - |")
    for k in ("l2_comparison", "wgmma_comparison"):
        if k in x:
            print(f"|   | {k} |  |  |  |  |  | {x[k][:120]} |")
print()
for r in recs:
    x = r.get("extra", {})
    if "verdict" in x:
        print(f"{r['experiment'][6:]}/{r['variant'][8:]}: {x['figure'][:600]}")
skipped = [r for r in recs if r.get("skipped")]
failed = [r for r in recs if r.get("validation", "").startswith("failed")]
print(f"\n{len(recs)} records, {len(skipped)} skipped, {len(failed)} failed validation")
for r in skipped[:8]:
    print("  skipped:", r["experiment"], r["variant"], json.dumps(r.get("axes", {})), r["skipped"][:160])
for r in failed[:8]:
    print("  FAILED:", r["experiment"], r["variant"], r["validation"][:300])
PY
echo
echo "| hopper part | exit | s |"
echo "|---|---|---|"
for s in "${hop_status[@]}"; do IFS='|' read -r n c t <<<"$s"; echo "| $n | $c | $t |"; done
echo "hopper step: $(( $(date +%s) - HOP_T0 )) s in all"
