#!/usr/bin/env bash
# Session 18, call 1: r46 and r47 (r43 with the combine's units split by a segment's weight, 8 and 12 stages) beside r41
# and r43 in the same runs. GPU tests (stop if any fails), scale hopper --rungs at the max case three times, ncu of the
# skewed combine kernel of r43, r46 and r47 alone, memcheck, 10^8 and 10^9 once each, racecheck last.
source scripts/device/calls/lib.sh
timeout 240 "$B/joseki_gpu_tests" --gtest_filter='Abc471gHopperGpu.DependentCombineRungsAreExact:Abc471gHopperGpu.SanitizerShapes' --gtest_brief=1 > "$W/gpu_tests.log" 2>&1
rc=$?; tail -3 "$W/gpu_tests.log"; grep -E "Failure|Expected|Which is|variant [0-9]|shape [0-9]" "$W/gpu_tests.log" | head -20
if [[ $rc != 0 ]]; then echo "GPU tests failed (rc $rc)"; exit 1; fi
stamp
for i in 1 2 3; do
  timeout 90 "$J" --json "$W/max_$i.json" abc471g scale hopper --n 7e6 --rungs p41,p43,p46,p47 > "$W/max_$i.log" 2>&1
  echo "== max ($i) rc $?"; grep -E "^  (floor|r3|r4|hopper\.(count|combine))" "$W/max_$i.log"
done
stamp
M='gpu__time_duration.sum,smsp__inst_executed.sum,smsp__inst_executed.max,smsp__issue_active.avg.pct_of_peak_sustained_active,sm__cycles_active.max,sm__cycles_active.min'
for r in p43 p46 p47; do
  ncu_kernel "combine_$r" 'wgmma_combine_tma_kernelILj4ELj64ELj8ELb1ELb0E' "$M" -- \
    "$J" abc471g scale hopper --n 7e6 --rungs $r --min-samples 1 --max-samples 1 --min-time 0
done
stamp
timeout 150 $SAN --tool memcheck --error-exitcode 9 "$B/joseki_gpu_tests" --gtest_filter='Abc471gHopperGpu.SanitizerShapes' --gtest_brief=1 > "$W/memcheck.log" 2>&1; echo "memcheck rc $?"; grep -E "ERROR SUMMARY" "$W/memcheck.log"
for c in 1e8 1e9; do
  timeout 90 "$J" --json "$W/${c}_1.json" abc471g scale hopper --n "$c" --rungs p32,p40,p43,p46,p47 > "$W/${c}_1.log" 2>&1
  echo "== $c rc $?"; grep -E "^  (floor|r3|r4)" "$W/${c}_1.log"
done
stamp
timeout 250 $SAN --tool racecheck --error-exitcode 9 "$B/joseki_gpu_tests" --gtest_filter='Abc471gHopperGpu.SanitizerShapes' --gtest_brief=1 > "$W/racecheck.log" 2>&1; echo "racecheck rc $?"; grep -E "RACECHECK SUMMARY" "$W/racecheck.log"
stamp
