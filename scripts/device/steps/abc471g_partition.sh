# abc471g_partition: the partition count (gpu-pairs rung r03) on one H200: its GPU tests and
# sanitizers, the ladder at the max case, N = 10^8 .. 10^10 side by side with the atomic count,
# and an Nsight Compute profile of one chunk's two kernels at N = 10^9.
# Sourced by scripts/device/session.sh from the repo root ($B $J $W $SAN, step, run).
AQ=$W/abc471g_partition
mkdir -p "$AQ"
step "abc471g_partition: GPU tests"
run timeout 150 "$B/joseki_gpu_tests" --gtest_filter='Abc471gPairs*' --gtest_brief=1 2>&1 | tee "$AQ/gpu_tests.log" | tail -8
step "abc471g_partition: ladder at the max case"
run timeout 120 "$J" --json "$AQ/ladder_max.json" abc471g scale ladder 2>&1 | tee "$AQ/ladder_max.log" | tail -12
step "abc471g_partition: sizes 10^8, 10^9, 10^10 (both counters, in process)"
run timeout 150 "$J" --json "$AQ/sizes.json" abc471g scale sizes --n 1e8,1e9,1e10 --no-external --runs 3 2>&1 | tee "$AQ/sizes.log" | tail -12
step "abc471g_partition: compute-sanitizer"
run timeout 120 $SAN --tool memcheck --error-exitcode 9 "$B/joseki_gpu_tests" \
  --gtest_filter='Abc471gPairsGpu.SmallRaceShapes:Abc471gPairsGpu.SmallPartitionFallsBackAboveItsK:Abc471gPairsGpu.SmallHeavyCellThreePlanes' --gtest_brief=1 2>&1 | tee "$AQ/memcheck.log" | tail -4
run timeout 120 $SAN --tool racecheck --error-exitcode 9 "$B/joseki_gpu_tests" \
  --gtest_filter='Abc471gPairsGpu.SmallRaceShapes' --gtest_brief=1 2>&1 | tee "$AQ/racecheck.log" | tail -4
step "abc471g_partition: ncu, one chunk at N = 10^9"
NCU=ncu; command -v ncu >/dev/null || NCU=/usr/local/cuda/bin/ncu
run timeout 60 "$J" abc471g gen --n 1000000000 --k 2300 --m 100000 --seed 7 -o "$AQ/n1e9.in"
run timeout 150 $NCU --clock-control none --kernel-name regex:'partition_kernel|bucket_hist_kernel' --launch-skip 2 --launch-count 2 \
  --section SpeedOfLight --section ComputeWorkloadAnalysis --section MemoryWorkloadAnalysis --section WarpStateStats \
  --section LaunchStats --section Occupancy "$J" abc471g solve --solver gpu-pairs "$AQ/n1e9.in" > "$AQ/ncu_1e9.txt" 2>&1
grep -E "Duration|Throughput|Registers|Achieved Occupancy|Theoretical Occupancy|Issue Slots|Executed Ipc|partition_kernel|bucket_hist" "$AQ/ncu_1e9.txt" | head -60
run timeout 100 $NCU --clock-control none --kernel-name regex:'partition_kernel' --launch-skip 1 --launch-count 1 \
  --metrics 'regex:smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio' \
  "$J" abc471g solve --solver gpu-pairs "$AQ/n1e9.in" > "$AQ/ncu_stalls_1e9.txt" 2>&1
grep -E "stalled" "$AQ/ncu_stalls_1e9.txt" | sort -k3 -g -r | head -12
rm -f "$AQ/n1e9.in"
step "abc471g_partition: ncu, the max case (where the 0.17 ms go: count kernels, slicing, tensor-core product)"
run timeout 30 "$J" abc471g gen -o "$AQ/max.in"
run timeout 120 $NCU --clock-control none --kernel-name regex:'partition_kernel|bucket_hist_kernel|slice_table_kernel|tc_combine_kernel' \
  --launch-count 4 --section SpeedOfLight --section ComputeWorkloadAnalysis --section Occupancy --section LaunchStats \
  "$J" abc471g solve --solver gpu-pairs "$AQ/max.in" > "$AQ/ncu_max.txt" 2>&1
grep -E "^  [a-z_:<>]*(partition_kernel|bucket_hist_kernel|slice_table_kernel|tc_combine_kernel)|Duration|Compute \(SM\) Throughput|Memory Throughput|Issue Slots|Achieved Occupancy|Registers Per" "$AQ/ncu_max.txt" | head -48
rm -f "$AQ/max.in"
