# Device step "probes" (issue 7): the memory-model probes on the GPU host. Budget: 6 minutes.
# Sourced by scripts/device/session.sh from the repo root, with $B (staged binaries), $J
# ($B/joseki), $W (output folder), $SAN (compute-sanitizer), and the functions step / run.
# Every part is time-boxed and independent: one failing part does not stop the others.
# Full outputs go to $W/probes_*; stdout gets short tails and the verdict table.

P_NCU=$(command -v ncu || ls -1 /usr/local/cuda/bin/ncu /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | tail -1)
export JOSEKI_NCU=${P_NCU:-}
P_T0=$(date +%s)

step "probes: GPU tests (kernels vs CPU mirrors, every probe returns its records)"
timeout 100 "$B/joseki_gpu_tests" --gtest_filter='Probe*:*/ProbeRuns.*' --gtest_brief=1 > "$W/probes_gpu_tests.log" 2>&1
echo "[exit $?] $(grep -cE '^\[       OK \]' "$W/probes_gpu_tests.log") ok lines"
grep -E '^\[  (FAILED|PASSED|SKIPPED)' "$W/probes_gpu_tests.log" | tail -12

step "probes: ncu metric names (for the diagnose probe)"
if [[ -n $P_NCU ]]; then
  "$P_NCU" --version 2>&1 | tail -1 | tee "$W/probes_ncu_version.txt"
  timeout 30 "$P_NCU" --query-metrics > "$W/probes_ncu_query_metrics.txt" 2>&1
  echo "[exit $?] $(wc -l < "$W/probes_ncu_query_metrics.txt") lines in probes_ncu_query_metrics.txt"
  for m in dram__throughput l1tex__t_sectors_pipe_lsu_mem_global_op_ld l1tex__t_requests_pipe_lsu_mem_global_op_ld \
           l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld \
           smsp__warp_issue_stalled_barrier_per_warp_active smsp__warp_issue_stalled_lg_throttle_per_warp_active \
           smsp__warp_issue_stalled_mio_throttle_per_warp_active smsp__warp_issue_stalled_short_scoreboard_per_warp_active \
           lts__t_sectors_op_red lts__t_sectors_op_atom sm__warps_active sm__maximum_warps_per_active_cycle_pct \
           launch__occupancy_limit_shared_mem launch__registers_per_thread gpu__time_duration; do
    grep -qE "^[[:space:]\"]*$m([[:space:]\",]|$)" "$W/probes_ncu_query_metrics.txt" && echo "  have $m" || echo "  MISSING $m"
  done | tee "$W/probes_ncu_metric_check.txt" | grep -c have | sed 's/^/  metrics offered: /'
  grep MISSING "$W/probes_ncu_metric_check.txt" || true
else
  echo "ncu not found: the diagnose probe records its ncu part as skipped"
fi

step "probes: joseki probe all (must finish in < 5 min)"
P_T1=$(date +%s)
timeout 330 "$J" --json "$W/probes_all.json" probe all > "$W/probes_all.md" 2> "$W/probes_all.err"
P_RC=$?
echo "[exit $P_RC] probe all took $(( $(date +%s) - P_T1 )) s; tables in probes_all.md, log in probes_all.err"
grep -E 'error|FAILED|failed' "$W/probes_all.err" | head -8

step "probes: sanitizer (memcheck) on the cheap probes"
if (( $(date +%s) - P_T0 < 300 )); then
  timeout 45 $SAN --tool memcheck --error-exitcode 9 "$J" probe exec fences barriers --quick \
    > "$W/probes_memcheck.log" 2>&1
  echo "[exit $?] $(grep -E 'ERROR SUMMARY' "$W/probes_memcheck.log" | tail -1)"
else
  echo "skipped: the step's 6-minute budget is nearly spent"
fi

step "probes: verdicts"
python3 - "$W/probes_all.json" <<'PY' || sed -n '/^## Verdicts/,$p' "$W/probes_all.md" | cut -c1-200
import json, sys
recs = json.load(open(sys.argv[1]))["records"]
rows, skipped = [], []
for r in recs:
    if "verdict" in r["extra"]:
        rows.append((r["experiment"][6:], r["variant"][8:], r["extra"]["verdict"], r["extra"]["figure"]))
    elif r["variant"].startswith("verdict:") and r["skipped"]:
        skipped.append((r["experiment"][6:], r["variant"][8:], r["skipped"]))
fails = [r for r in recs if r["validation"].startswith("failed")]
print(f"{len(rows)} verdicts: {sum(v == 'holds' for _, _, v, _ in rows)} hold, "
      f"{sum(v == 'does not hold' for _, _, v, _ in rows)} do not hold, {sum(v == 'depends' for _, _, v, _ in rows)} depend; "
      f"{len(skipped)} rules skipped; {len(fails)} failed validations; {len(recs)} records")
for p, rule, v, fig in rows:
    print(f"| {p:10} | {rule:11} | {v:13} | {fig[:150]}")
for p, rule, why in skipped:
    print(f"| {p:10} | {rule:11} | SKIPPED       | {why[:150]}")
for r in fails[:5]:
    print("FAILED", r["experiment"], r["variant"], r["validation"][:150])
PY
echo "probes step: $(( $(date +%s) - P_T0 )) s in all"
