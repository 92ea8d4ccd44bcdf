# Device step "probes" (issue 7): the memory-model probes on the GPU host, everything in one
# go (< 4 minutes): the probe GPU tests, `joseki probe all` with the ncu diagnosis, memcheck
# on the diagnose kernels if time is left, then a summary. Sourced by scripts/device/session.sh
# from the repo root, with $B (staged binaries), $J ($B/joseki), $W (output folder), $SAN
# (compute-sanitizer), and the functions step / run. Every part is time-boxed and independent:
# one failing part does not stop the others. Full outputs go to $W/probes_*.
#   probes_gpu_tests.log   the probe GPU tests
#   probes_all.json / .md / .err   records, tables, progress and errors of `probe all`
#   probes_ncu_raw/        ncu's own CSV and stderr of each profile the diagnose probe ran
#   probes_memcheck.log    compute-sanitizer memcheck of `probe diagnose --run-kernels`

P_NCU=$(command -v ncu || ls -1 /usr/local/cuda/bin/ncu /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | tail -1)
export JOSEKI_NCU=${P_NCU:-}
mkdir -p "$W/probes_ncu_raw"
export JOSEKI_NCU_LOG_DIR="$W/probes_ncu_raw"
P_T0=$(date +%s)
p_left() { echo $(( 235 - ($(date +%s) - P_T0) )); }

step "probes: GPU tests (kernels vs CPU mirrors, shared-memory limits, every probe returns its records)"
timeout 45 "$B/joseki_gpu_tests" --gtest_filter='Probe*:*/ProbeRuns.*' --gtest_brief=1 > "$W/probes_gpu_tests.log" 2>&1
P_TESTS_RC=$?
echo "[exit $P_TESTS_RC] $(( $(date +%s) - P_T0 )) s"
grep -E '^\[  (FAILED|PASSED|SKIPPED)|Failure|Expected|Actual|Which is' "$W/probes_gpu_tests.log" | head -16

step "probes: joseki probe all (ncu: ${P_NCU:-not found})"
P_T1=$(date +%s)
timeout 190 "$J" --json "$W/probes_all.json" probe all > "$W/probes_all.md" 2> "$W/probes_all.err"
P_RC=$?
P_ALL_S=$(( $(date +%s) - P_T1 ))
echo "[exit $P_RC] probe all took $P_ALL_S s; tables in probes_all.md, log in probes_all.err"
grep -E 'error|FAILED|failed' "$W/probes_all.err" | cut -c1-400 | head -8
ls "$W/probes_ncu_raw" 2>/dev/null | tr '\n' ' '; echo

step "probes: memcheck on the diagnose kernels (if time is left)"
P_LEFT=$(p_left)
if (( P_LEFT >= 20 )); then
  timeout "$P_LEFT" $SAN --tool memcheck --error-exitcode 9 "$J" probe diagnose --run-kernels \
    > "$W/probes_memcheck.log" 2>&1
  echo "[exit $?] $(grep -E 'ERROR SUMMARY' "$W/probes_memcheck.log" | tail -1)"
else
  echo "skipped: only $P_LEFT s of the step's 4 minutes left"
fi

step "probes: summary"
python3 - "$W/probes_all.json" "$P_TESTS_RC" "$P_RC" "$P_ALL_S" <<'PY' || sed -n '/^## Verdicts/,$p' "$W/probes_all.md" | cut -c1-220
import json, sys
recs = json.load(open(sys.argv[1]))["records"]
tests_rc, all_rc, all_s = sys.argv[2], sys.argv[3], sys.argv[4]
def med(r):
    return r["summary"]["median"] if r.get("summary") else None
rows = [r for r in recs if "verdict" in r["extra"]]
skipped_rules = [r for r in recs if r["variant"].startswith("verdict:") and r["skipped"]]
failed = [r for r in recs if r["validation"].startswith("failed")]
broken = [r for r in recs if r["skipped"] and r["skipped"].startswith("failed")]
count = lambda v: sum(r["extra"]["verdict"] == v for r in rows)
print(f"gpu tests exit {tests_rc}; probe all exit {all_rc} in {all_s} s; {len(recs)} records; "
      f"{len(rows)} verdicts: {count('holds')} hold, {count('does not hold')} do not hold, {count('depends')} depend; "
      f"{len(skipped_rules)} rules skipped; {len(failed)} failed validations; {len(broken)} probes failed")
print("| probe | rule | verdict | figure |")
for r in rows:
    print(f"| {r['experiment'][6:]} | {r['variant'][8:]} | {r['extra']['verdict']} | {r['extra']['figure'][:200]} |")
for r in skipped_rules:
    print(f"| {r['experiment'][6:]} | {r['variant'][8:]} | SKIPPED | {r['skipped'][:200]} |")
for r in broken + failed:
    print("FAILED", r["experiment"], r["variant"], (r["skipped"] or r["validation"])[:300])
# The parts the first run could not show.
print("\nocc sweep points (chosen = smallest occupancy within 10 % of the best):")
for r in recs:
    if r["experiment"] == "probe.occupancy" and (r.get("ladder") or r["extra"]).get("chosen"):
        print(f"  {(r.get('ladder') or r['extra'])['sweep']}: occupancy {r['axes'].get('occupancy_pct', 0):.1f} % "
              f"({r['axes'].get('blocks_per_sm')} blocks/SM, {r['axes'].get('smem_bytes')} B): {r['extra'].get('display', '')}")
occ_skipped = [r for r in recs if r["experiment"] == "probe.occupancy" and r["skipped"]]
for r in occ_skipped[:4]:
    print("  skipped:", r["variant"], r["axes"].get("smem_bytes"), r["skipped"][:200])
print("diagnose (time bad/fix, ncu):")
for r in recs:
    if r["experiment"] != "probe.diagnose":
        continue
    if r["variant"] == "ncu":
        x = r["extra"]
        print(f"  ncu: {'SKIPPED ' + r['skipped'][:300] if r['skipped'] else str(med(r)) + ' rows'} in {x.get('seconds', 0):.0f} s; "
              f"dropped {x.get('dropped_metrics')}; warning {x.get('warning', '-')}"[:700])
    elif r["variant"] == "ncu_sectors_per_request":
        print(f"  sectors/request stride {r['axes'].get('stride_words')}: {r['extra'].get('display')}")
    elif r["variant"].startswith("ncu_"):
        m = r["extra"].get("metrics", {})
        print(f"  {r['variant']}: {r['extra'].get('display', '')[:120]} | " +
              ", ".join(f"{k.split('.')[0][-34:]}={v:.4g}" for k, v in m.items())[:330])
    elif r["scope"] == "GPU_COMPUTE":
        print(f"  {r['variant']}: {'skipped ' + r['skipped'][:200] if r['skipped'] else f'{med(r) * 1e6:.2f} us'} "
              f"({r['extra'].get('blocks_per_sm')} blocks/SM, {r['extra'].get('theoretical_occupancy_pct', 0):.1f} % occupancy)")
lat = [(r["axes"]["working_set_bytes"], med(r)) for r in recs if r["variant"] == "chase_latency" and med(r)]
if lat:
    print("chase latency (cycles): " + ", ".join(f"{w / 2**20:.3g}M:{c:.0f}" for w, c in lat))
for r in recs:
    if r["experiment"] == "probe.coalescing" and r["variant"] == "stride_1" and r.get("throughput"):
        print(f"coalescing stride 1: {r['throughput']['bytes_per_s'] / 1e12:.3f} TB/s over n = {r['axes']['n']}")
PY
echo "probes step: $(( $(date +%s) - P_T0 )) s in all"
unset JOSEKI_NCU_LOG_DIR
