# Device step `lean_count` (issue 19, rungs r16-r29: the lean partition kernel, one slice a SM, blocks of 256; sourced by
# scripts/device/session.sh; ~2.5 minutes). Uses $B $J $W $SAN and step/run from session.sh.
#   1. the GPU tests of the partition kernels and r16's whole solves; compute-sanitizer memcheck and racecheck
#      of the sanitizer shapes (r16's kernel among them) unless LC_SANITIZERS=0
#   2. `abc471g scale hopper` at the max case, 10^8 and 10^9 (LC_RUNS times each, interleaved)
#   3. Nsight Compute on partition kernels (LC_NCU: "mangled-name-regex@N ..."), each at its first launch in
#      `scale hopper --n N`: the same metrics and SASS-level source page as count_anatomy
#   4. LC_NCU_TIMES: each launch's duration (caches left alone), to time a solve's chunks one by one
LC=$W/lean_count
mkdir -p "$LC"
step "lean_count: GPU tests"
run timeout 200 "$B/joseki_gpu_tests" --gtest_filter='Abc471gHopperGpu.SmallPartitionWideTilesAreExact:Abc471gHopperGpu.LeanCountSolvesAreExact:Abc471gHopperGpu.SliceSpreadsAreExact:Abc471gHopperGpu.SanitizerShapes:Abc471gHopperGpu.SkewedCombineSolvesAreExact:Abc471gHopperGpu.MaxCaseWholeGraphExact' \
  --gtest_brief=1 2>&1 | tee "$LC/gpu_tests.log" | tail -8
if [[ ${LC_SANITIZERS:-1} != 0 ]]; then
  step "lean_count: compute-sanitizer (SanitizerShapes: r05, r06+r07+r16)"
  run timeout 90 $SAN --tool memcheck --error-exitcode 9 "$B/joseki_gpu_tests" \
    --gtest_filter='Abc471gHopperGpu.SanitizerShapes' --gtest_brief=1 2>&1 | tee "$LC/memcheck.log" | grep -E 'ERROR SUMMARY|Invalid|PASSED|FAILED' | head -5
  run timeout 150 $SAN --tool racecheck --error-exitcode 9 "$B/joseki_gpu_tests" \
    --gtest_filter='Abc471gHopperGpu.SanitizerShapes' --gtest_brief=1 2>&1 | tee "$LC/racecheck.log" | grep -E 'RACECHECK SUMMARY|ERROR SUMMARY|hazard|PASSED|FAILED' | head -5
fi
for i in $(seq 1 "${LC_RUNS:-1}"); do
  for c in max 1e8 1e9; do
    step "lean_count: scale hopper $c ($i)"
    case $c in max) n=7e6 lim=45 ;; 1e8) n=1e8 lim=60 ;; *) n=1e9 lim=150 ;; esac
    run timeout $lim "$J" --json "$LC/${c}_$i.json" abc471g scale hopper --n "$n" 2>&1 | tee "$LC/${c}_$i.log" | grep -E "floor|r04|r07|r1[3-9]|r2[0-9]|r3[0-9]|count_r04|slices a SM|hist loads" | head -40
  done
done
# LC_NCU: "kernel-regex@N ..." (mangled names), each profiled at its first launch in `scale hopper --n N`
for spec in ${LC_NCU:-lean_partition_kernel@1e8}; do
  kre=${spec%@*}; n=${spec#*@}; tag=$(echo "$kre" | tr -c 'A-Za-z0-9_\n' '_')_$n
  step "lean_count: ncu, $kre at N = $n"
  NCU=ncu; command -v ncu >/dev/null || NCU=/usr/local/cuda/bin/ncu
  run timeout 150 $NCU --clock-control none --kernel-name-base mangled --kernel-name regex:"$kre" --launch-count 1 \
    --set full --import-source yes -o "$LC/$tag" \
    "$J" abc471g scale hopper --n "$n" --min-samples 1 --max-samples 1 --min-time 0 > "$LC/ncu_run_$tag.log" 2>&1
  tail -2 "$LC/ncu_run_$tag.log"
  run timeout 60 $NCU -i "$LC/$tag.ncu-rep" --page raw --csv \
    --metrics 'regex:^(smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio|sm__inst_executed\.sum|smsp__issue_active\.avg\.pct_of_peak_sustained_active|sm__pipe_.*_cycles_active\.avg\.pct_of_peak_sustained_active|l1tex__data_bank_conflicts_pipe_lsu_mem_shared.*\.sum|gpu__time_duration\.sum|sm__warps_active\.avg\.pct_of_peak_sustained_active|launch__occupancy_limit_.*|launch__waves_per_multiprocessor|launch__registers_per_thread|launch__grid_size|launch__block_size|smsp__inst_executed\.sum)$' \
    > "$LC/pipes_$tag.csv" 2>&1
  run timeout 60 $NCU -i "$LC/$tag.ncu-rep" --page source --csv --print-source sass > "$LC/source_$tag.csv" 2>&1
  xz -T4 "$LC/source_$tag.csv"; rm -f "$LC/$tag.ncu-rep"
done
# LC_NCU_TIMES: "kernel-regex@N@COUNT ..." (mangled names): the duration of each of the first COUNT launches in
# `scale hopper --n N`, caches and clocks left alone (the kernels between them run as in a solve)
for spec in ${LC_NCU_TIMES:-}; do
  IFS=@ read -r kre n cnt <<<"$spec"
  tag=times_$(echo "$kre" | tr -c 'A-Za-z0-9_\n' '_')_$n
  step "lean_count: ncu launch times, $kre at N = $n ($cnt launches)"
  NCU=ncu; command -v ncu >/dev/null || NCU=/usr/local/cuda/bin/ncu
  run timeout 200 $NCU --clock-control none --cache-control none --kernel-name-base mangled --kernel-name regex:"$kre" \
    --launch-count "$cnt" --metrics gpu__time_duration.sum,launch__grid_size -o "$LC/$tag" \
    "$J" abc471g scale hopper --n "$n" --min-samples 1 --max-samples 1 --min-time 0 > "$LC/ncu_run_$tag.log" 2>&1
  tail -2 "$LC/ncu_run_$tag.log"
  run timeout 60 $NCU -i "$LC/$tag.ncu-rep" --page raw --csv --metrics gpu__time_duration.sum,launch__grid_size \
    > "$LC/$tag.csv" 2>&1
  rm -f "$LC/$tag.ncu-rep"
done
