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
grep -E "Duration|Throughput|Registers|Achieved Occupancy|Theoretical Occupancy|Stall|Issue Slots|Executed Ipc|partition_kernel|bucket_hist" "$AQ/ncu_1e9.txt" | head -60
rm -f "$AQ/n1e9.in"
