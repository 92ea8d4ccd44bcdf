#!/usr/bin/env bash
# Session 22, call 2: r61 (r32 with r60's spread of the given values' pairs). GPU test of r60 and r61 (stop if it
# fails); N = 10^9 with one rung a process, r32, r60 and r61 in turn, three rounds; 10^8 the same with r57 in place of
# r60 ... r61 and r28; ncu of the max case's partition kernel (r57): blocks a SM and the SMs' active cycles (why the
# busiest SM runs ~17 % longer than the mean, M = 1 too).
source scripts/device/calls/lib.sh
timeout 200 "$B/joseki_gpu_tests" --gtest_filter='Abc471gHopperGpu.SpreadGivenRunsAreExact' --gtest_brief=1 > "$W/gpu_tests.log" 2>&1
rc=$?; tail -3 "$W/gpu_tests.log"; grep -E "Failure|Expected|Which is|variant [0-9]" "$W/gpu_tests.log" | head -20
if [[ $rc != 0 ]]; then echo "GPU tests failed (rc $rc)"; exit 1; fi
stamp
for i in 1 2 3; do
  for r in p32 p60 p61; do
    timeout 90 "$J" --json "$W/1e9_${r}_$i.json" abc471g scale hopper --n 1e9 --rungs $r > "$W/1e9_${r}_$i.log" 2>&1
    echo "== 1e9 $r ($i) rc $?"; grep -E "^  (r3|r6|hopper.(combine|count))" "$W/1e9_${r}_$i.log"
  done
done
stamp
for i in 1 2 3; do
  for r in p28 p32 p57 p60 p61; do
    timeout 60 "$J" --json "$W/1e8_${r}_$i.json" abc471g scale hopper --n 1e8 --rungs $r > "$W/1e8_${r}_$i.log" 2>&1
    echo "== 1e8 $r ($i) rc $?"; grep -E "^  (r2|r3|r5|r6|hopper.(combine|count))" "$W/1e8_${r}_$i.log"
  done
done
stamp
M=gpu__time_duration.sum,sm__ctas_launched.max,sm__ctas_launched.min,sm__ctas_launched.avg,sm__cycles_active.max,sm__cycles_active.min,sm__cycles_active.avg,sm__warps_active.avg.pct_of_peak_sustained_active,launch__waves_per_multiprocessor,launch__occupancy_limit_registers,launch__occupancy_limit_shared_mem
ncu_kernel part_p57 'lean_partition_kernelILi26ELi13ELi256ELi4E' "$M" -- "$J" abc471g scale hopper --n 7e6 --rungs p57 --min-samples 1 --max-samples 1 --min-time 0
ncu_kernel part_m1_p57 'lean_partition_kernelILi26ELi13ELi256ELi4E' "$M" -- "$J" abc471g scale hopper --n 7e6 --m 1 --rungs p57 --min-samples 1 --max-samples 1 --min-time 0
stamp
