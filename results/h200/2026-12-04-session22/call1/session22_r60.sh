#!/usr/bin/env bash
# Session 22, call 1: r60 (r57 with the partition's given pairs in shorter runs over the wave's free threads). GPU tests
# (r60's own, r39-r60 whole solves, the sanitizer shapes; stop if any fails); the max case with one rung a process, r57
# and r60 in turn, five rounds; the same with M = 1 (no given value: what the spread can at most recover), two rounds;
# ncu launch times of the partition kernel (tiles of 26, variant 13) with the SMs' busiest and mean active cycles;
# 10^8 and 10^9 once; memcheck and racecheck of SanitizerShapes.
source scripts/device/calls/lib.sh
timeout 300 "$B/joseki_gpu_tests" --gtest_filter='Abc471gHopperGpu.SpreadGivenRunsAreExact:Abc471gHopperGpu.DependentCombineRungsAreExact:Abc471gHopperGpu.SanitizerShapes' --gtest_brief=1 > "$W/gpu_tests.log" 2>&1
rc=$?; tail -3 "$W/gpu_tests.log"; grep -E "Failure|Expected|Which is|variant [0-9]|shape [0-9]" "$W/gpu_tests.log" | head -20
if [[ $rc != 0 ]]; then echo "GPU tests failed (rc $rc)"; exit 1; fi
stamp
show() { grep -E "^  (r5|r6|hopper.(combine|count))" "$1"; }
for i in 1 2 3 4 5; do
  for r in p57 p60; do
    timeout 60 "$J" --json "$W/max_${r}_$i.json" abc471g scale hopper --n 7e6 --rungs $r > "$W/max_${r}_$i.log" 2>&1
    echo "== max $r ($i) rc $?"; show "$W/max_${r}_$i.log"
  done
done
stamp
for i in 1 2; do
  for r in p57 p60; do
    timeout 60 "$J" --json "$W/m1_${r}_$i.json" abc471g scale hopper --n 7e6 --m 1 --rungs $r > "$W/m1_${r}_$i.log" 2>&1
    echo "== max, M = 1, $r ($i) rc $?"; show "$W/m1_${r}_$i.log"
  done
done
stamp
M=gpu__time_duration.sum,sm__cycles_active.max,sm__cycles_active.avg,smsp__inst_executed.max,smsp__inst_executed.avg,smsp__inst_executed.sum
for r in p57 p60; do
  ncu_kernel "part_$r" 'lean_partition_kernelILi26ELi13ELi256ELi4E' "$M" -- "$J" abc471g scale hopper --n 7e6 --rungs $r --min-samples 1 --max-samples 1 --min-time 0
  ncu_kernel "part_m1_$r" 'lean_partition_kernelILi26ELi13ELi256ELi4E' "$M" -- "$J" abc471g scale hopper --n 7e6 --m 1 --rungs $r --min-samples 1 --max-samples 1 --min-time 0
done
stamp
for c in 1e8 1e9; do
  timeout 90 "$J" --json "$W/${c}_1.json" abc471g scale hopper --n "$c" --rungs p32,p57,p60 > "$W/${c}_1.log" 2>&1
  echo "== $c rc $?"; grep -E "^  (floor|r3|r5|r6)" "$W/${c}_1.log"
done
stamp
timeout 120 $SAN --tool memcheck --error-exitcode 9 "$B/joseki_gpu_tests" --gtest_filter='Abc471gHopperGpu.SanitizerShapes' --gtest_brief=1 > "$W/memcheck.log" 2>&1; echo "memcheck rc $?"; grep -E "ERROR SUMMARY" "$W/memcheck.log"
stamp
timeout 220 $SAN --tool racecheck --error-exitcode 9 --log-file "$W/racecheck_san.log" "$B/joseki_gpu_tests" --gtest_filter='Abc471gHopperGpu.SanitizerShapes' --gtest_brief=1 > "$W/racecheck.log" 2>&1; echo "racecheck rc $?"; grep -E "RACECHECK SUMMARY" "$W/racecheck_san.log" | tail -1; tail -1 "$W/racecheck.log"
stamp
