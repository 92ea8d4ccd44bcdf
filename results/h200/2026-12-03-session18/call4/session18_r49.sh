#!/usr/bin/env bash
# Session 18, call 4: r49 (r46 with V's copies made on the host). GPU tests (stop if any fails), scale hopper --rungs at the max
# case three times with the combine's trace (r43, r46, r49), 10^8 and 10^9 once each, memcheck and racecheck of
# SanitizerShapes (r48 included).
source scripts/device/calls/lib.sh
timeout 240 "$B/joseki_gpu_tests" --gtest_filter='Abc471gHopperGpu.DependentCombineRungsAreExact:Abc471gHopperGpu.SanitizerShapes:Abc471gHopperGpu.CombineTraceIsConsistent' --gtest_brief=1 > "$W/gpu_tests.log" 2>&1
rc=$?; tail -3 "$W/gpu_tests.log"; grep -E "Failure|Expected|Which is|variant [0-9]|shape [0-9]" "$W/gpu_tests.log" | head -20
if [[ $rc != 0 ]]; then echo "GPU tests failed (rc $rc)"; exit 1; fi
stamp
for i in 1 2 3; do
  timeout 90 "$J" --json "$W/max_$i.json" abc471g scale hopper --n 7e6 --rungs p41,p43,p46,p49 --trace-csv "$W/trace_max_$i.csv" > "$W/max_$i.log" 2>&1
  echo "== max ($i) rc $?"; grep -E "^  (r4|hopper\.combine)|trace:" "$W/max_$i.log" | cut -c1-200
done
stamp
for c in 1e8 1e9; do
  timeout 90 "$J" --json "$W/${c}_1.json" abc471g scale hopper --n "$c" --rungs p32,p40,p43,p46,p49 > "$W/${c}_1.log" 2>&1
  echo "== $c rc $?"; grep -E "^  (floor|r3|r4)" "$W/${c}_1.log"
done
stamp
timeout 150 $SAN --tool memcheck --error-exitcode 9 "$B/joseki_gpu_tests" --gtest_filter='Abc471gHopperGpu.SanitizerShapes' --gtest_brief=1 > "$W/memcheck.log" 2>&1; echo "memcheck rc $?"; grep -E "ERROR SUMMARY" "$W/memcheck.log"
timeout 250 $SAN --tool racecheck --error-exitcode 9 "$B/joseki_gpu_tests" --gtest_filter='Abc471gHopperGpu.SanitizerShapes' --gtest_brief=1 > "$W/racecheck.log" 2>&1; echo "racecheck rc $?"; grep -E "RACECHECK SUMMARY" "$W/racecheck.log"
stamp
