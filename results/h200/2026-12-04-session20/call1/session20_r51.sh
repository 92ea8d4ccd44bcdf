#!/usr/bin/env bash
# Session 20, call 1: r51 and r52 (r49 with the skewed combine's idle warpgroups skipping their stages, the split
# weighing those stages 1/8 or 2/8 lighter per idle warpgroup). GPU tests (the dependent-combine rungs with r51 and r52,
# the sanitizer shapes, the trace, the Hopper probes; stop if any fails), scale hopper --rungs at the max case five
# times with the combine's trace (r49, r51, r52), 10^8 and 10^9 once each, memcheck and racecheck of SanitizerShapes.
source scripts/device/calls/lib.sh
timeout 150 "$B/joseki_gpu_tests" --gtest_filter='Abc471gHopperGpu.DependentCombineRungsAreExact:Abc471gHopperGpu.SanitizerShapes:Abc471gHopperGpu.CombineTraceIsConsistent:Hopper/HopperProbeRuns.*' --gtest_brief=1 > "$W/gpu_tests.log" 2>&1
rc=$?; tail -3 "$W/gpu_tests.log"; grep -E "Failure|Expected|Which is|variant [0-9]|shape [0-9]" "$W/gpu_tests.log" | head -20
if [[ $rc != 0 ]]; then echo "GPU tests failed (rc $rc)"; exit 1; fi
stamp
for i in 1 2 3 4 5; do
  timeout 90 "$J" --json "$W/max_$i.json" abc471g scale hopper --n 7e6 --rungs p49,p51,p52 --trace-csv "$W/trace_max_$i.csv" > "$W/max_$i.log" 2>&1
  echo "== max ($i) rc $?"; grep -E "^  (r4|r5|hopper\.combine)|trace:" "$W/max_$i.log" | cut -c1-200
done
stamp
for c in 1e8 1e9; do
  timeout 90 "$J" --json "$W/${c}_1.json" abc471g scale hopper --n "$c" --rungs p32,p49,p51,p52 > "$W/${c}_1.log" 2>&1
  echo "== $c rc $?"; grep -E "^  (floor|r3|r4|r5)" "$W/${c}_1.log"
done
stamp
timeout 100 $SAN --tool memcheck --error-exitcode 9 "$B/joseki_gpu_tests" --gtest_filter='Abc471gHopperGpu.SanitizerShapes' --gtest_brief=1 > "$W/memcheck.log" 2>&1; echo "memcheck rc $?"; grep -E "ERROR SUMMARY" "$W/memcheck.log"
stamp
timeout 200 $SAN --tool racecheck --error-exitcode 9 --log-file "$W/racecheck_san.log" "$B/joseki_gpu_tests" --gtest_filter='Abc471gHopperGpu.SanitizerShapes' --gtest_brief=1 > "$W/racecheck.log" 2>&1; echo "racecheck rc $?"; grep -E "RACECHECK SUMMARY|hazard" "$W/racecheck_san.log" | tail -3; tail -2 "$W/racecheck.log"
stamp
