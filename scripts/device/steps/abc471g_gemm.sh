# abc471g_gemm: rung r04 (cuBLASLt GEMM combine, fused count) on one H200: the gpu-pairs GPU
# tests, the ladder at the max case (r00..r04 side by side, each phase alone), N = 10^8 and 10^9
# (r02, r03, r04 in one process), compute-sanitizer, one CLI solve with --explain, and an Nsight
# Compute pass over one max-case solve (every kernel, cuBLASLt's included).
# Sourced by scripts/device/session.sh from the repo root ($B $J $W $SAN, step, run).
AG=$W/abc471g_gemm
mkdir -p "$AG"
step "abc471g_gemm: GPU tests"
run timeout 180 "$B/joseki_gpu_tests" --gtest_filter='Abc471gPairs*' --gtest_brief=1 2>&1 | tee "$AG/gpu_tests.log" | tail -12
step "abc471g_gemm: ladder at the max case"
run timeout 150 "$J" --json "$AG/ladder_max.json" abc471g scale ladder 2>&1 | tee "$AG/ladder_max.log" | tail -14
step "abc471g_gemm: sizes 10^8, 10^9 (r02, r03, r04 in process)"
run timeout 150 "$J" --json "$AG/sizes.json" abc471g scale sizes --n 1e8,1e9 --no-external --runs 3 2>&1 | tee "$AG/sizes.log" | tail -12
step "abc471g_gemm: the CLI at the max case, gpu-pairs and gpu-pairs-gemm (cuBLASLt's load included)"
run timeout 30 "$J" abc471g gen -o "$AG/max.in"
for sv in gpu-pairs gpu-pairs-gemm; do
  for i in 1 2 3; do
    /usr/bin/time -f "wall %e s" "$J" abc471g solve --solver $sv --explain "$AG/max.in" > "$AG/cli_max_${sv}_$i.out" 2> "$AG/cli_max_${sv}_$i.err"
    tail -2 "$AG/cli_max_${sv}_$i.err"
  done
done
md5sum "$AG"/cli_max_*.out
step "abc471g_gemm: compute-sanitizer"
run timeout 150 $SAN --tool memcheck --error-exitcode 9 "$B/joseki_gpu_tests" \
  --gtest_filter='Abc471gPairsGpu.SmallGemmRepeatedSolvesStayExact:Abc471gPairsGpu.SmallRaceShapes:Abc471gPairsGpu.SmallHeavyCellThreePlanes' \
  --gtest_brief=1 2>&1 | tee "$AG/memcheck.log" | tail -4
run timeout 150 $SAN --tool racecheck --error-exitcode 9 "$B/joseki_gpu_tests" \
  --gtest_filter='Abc471gPairsGpu.SmallGemmRepeatedSolvesStayExact' --gtest_brief=1 2>&1 | tee "$AG/racecheck.log" | tail -4
step "abc471g_gemm: ncu, one max-case solve, every kernel"
NCU=ncu; command -v ncu >/dev/null || NCU=/usr/local/cuda/bin/ncu
run timeout 150 $NCU --clock-control none --launch-count 12 --section SpeedOfLight --section LaunchStats --section Occupancy \
  "$J" abc471g solve --solver gpu-pairs-gemm "$AG/max.in" > "$AG/ncu_max.txt" 2>&1
grep -E "^  [A-Za-z_].*\(|Duration|Registers Per|Achieved Occupancy|Compute \(SM\) Throughput|Memory Throughput" "$AG/ncu_max.txt" | head -80
# Without the cache flush between kernels: each kernel finds the L2 as the previous one left it (as in a solve).
run timeout 100 $NCU --clock-control none --cache-control none --launch-count 12 --section SpeedOfLight \
  "$J" abc471g solve --solver gpu-pairs-gemm "$AG/max.in" > "$AG/ncu_max_warm_l2.txt" 2>&1
grep -E "^  [A-Za-z_].*\(|Duration" "$AG/ncu_max_warm_l2.txt" | head -40
rm -f "$AG/max.in"
