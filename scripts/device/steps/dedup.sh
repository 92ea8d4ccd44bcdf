# Device step `dedup` (issue 14, branch dedup; sourced by scripts/device/session.sh on the GPU host).
# Budget about 3 minutes expected (probe tests ~1-2 min, ten compiles ~10 s, tries ~1 min, check ~20 s);
# each part has a time limit (they add up to 560 s, reached only if something hangs). Uses $B $J $W and
# step from session.sh, part/part_table from scripts/device/parts.sh. What the dedup branch changed on
# GPU paths, re-run:
#   1. every probe in quick mode through the GPU tests (*ProbeRuns*, ProbeKernels.*: 32 tests): the probes now
#      open their GPU with GpuProbeRun, caches' chases go through one checked_chase, the launch
#      latencies through cuda::launch_latencies, dsmem/mma/tma register their Needs with the GPU macro;
#   2. the --compile-only flake: 5 compiles in a row of the same file for each ladder; every one must
#      report ptxas registers (before the fix a compile served from NVRTC 12.9+'s cache printed
#      "PTX only"); the count of reports is printed, 5/5 expected;
#   3. `joseki try` through the shared child driver (try/child.hpp): the reduce ladder's good.cu exact
#      and ranked; the direct ladder's good.cu validated (--validate-only) and wrong.cu caught (exit 1, "your kernel is wrong");
#   4. `joseki check` (its launch latencies now come from cuda::launch_latencies), compared with the
#      tour-final records (launch_* rows SAME or within noise).
source scripts/device/parts.sh
dd=$W/dedup
mkdir -p "$dd"

step "dedup: every probe, quick, through the GPU tests"
part probe_tests 150 "$dd/probe_tests.log" "$B/joseki_gpu_tests" --gtest_filter='*ProbeRuns*:ProbeKernels.*' \
  --gtest_brief=1
tail -n 4 "$dd/probe_tests.log"

step "dedup: --compile-only five times in a row per ladder (ptxas report every time)"
for l in reduce abc471g-direct; do
  for i in 1 2 3 4 5; do
    part "compile_${l}_$i" 20 "$dd/compile_${l}_$i.txt" "$J" try "examples/try/$l/good.cu" --ladder "$l" --compile-only
  done
  echo "$l: ptxas reports $(grep -l '^registers ' "$dd"/compile_"${l}"_*.txt | wc -l)/5, \"PTX only\" $(grep -l 'PTX only' "$dd"/compile_"${l}"_*.txt | wc -l), \"no ptxas report\" $(grep -l 'no ptxas report' "$dd"/compile_"${l}"_*.txt | wc -l)"
done

step "dedup: joseki try through the shared child driver"
part try_reduce_good 60 "$dd/try_reduce_good.md" "$J" try examples/try/reduce/good.cu --ladder reduce --no-ncu \
  --history-dir "$dd/history"
grep -E '^yours|validated' "$dd/try_reduce_good.md" | head -n 3
part try_direct_good 60 "$dd/try_direct_good.md" "$J" try examples/try/abc471g-direct/good.cu --ladder abc471g-direct \
  --validate-only --no-ncu --history-dir "$dd/history"
grep -E 'validated|exact|wrong' "$dd/try_direct_good.md" | head -n 3
part try_direct_wrong 40 "$dd/try_direct_wrong.md" "$J" try examples/try/abc471g-direct/wrong.cu --ladder abc471g-direct \
  --validate-only --no-ncu --history-dir "$dd/history"
grep -E 'wrong|differ' "$dd/try_direct_wrong.md" | head -n 3

step "dedup: joseki check (launch latencies), compared with tour-final"
part check 30 "$dd/check.md" "$J" --json "$dd/check.json" check
if [[ -f results/h200/2026-11-30-tour-final/records.json.gz ]]; then
  gunzip -c results/h200/2026-11-30-tour-final/records.json.gz >"$dd/tour_final.json"
  part compare_check 20 "$dd/compare_check.md" "$J" compare "$dd/tour_final.json" "$dd/check.json"
  grep -E '^Summary|launch_' "$dd/compare_check.md" | head -n 8
fi

step "dedup: summary"
part_table "dedup part"
