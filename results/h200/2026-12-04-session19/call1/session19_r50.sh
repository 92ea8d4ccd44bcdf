#!/usr/bin/env bash
# Session 19, call 1: r50 (r49 with a segment weighed as 6 stages) and a re-run of the headline on a new day. GPU tests
# (the dependent-combine rungs, the sanitizer shapes, the trace, the Hopper probes with the mma probe's shapes in one
# list; stop if any fails), scale hopper --rungs at the max case five times with the combine's trace (r43, r46, r49,
# r50), 10^8 and 10^9 once each, memcheck of SanitizerShapes (r50 included). No racecheck: the session had ~500 s of
# device time left, and r50 runs r49's kernel (race-checked clean in session 18) with another split of the units.
source scripts/device/calls/lib.sh
timeout 150 "$B/joseki_gpu_tests" --gtest_filter='Abc471gHopperGpu.DependentCombineRungsAreExact:Abc471gHopperGpu.SanitizerShapes:Abc471gHopperGpu.CombineTraceIsConsistent:Hopper/HopperProbeRuns.*' --gtest_brief=1 > "$W/gpu_tests.log" 2>&1
rc=$?; tail -3 "$W/gpu_tests.log"; grep -E "Failure|Expected|Which is|variant [0-9]|shape [0-9]" "$W/gpu_tests.log" | head -20
if [[ $rc != 0 ]]; then echo "GPU tests failed (rc $rc)"; exit 1; fi
stamp
for i in 1 2 3 4 5; do
  timeout 90 "$J" --json "$W/max_$i.json" abc471g scale hopper --n 7e6 --rungs p43,p46,p49,p50 --trace-csv "$W/trace_max_$i.csv" > "$W/max_$i.log" 2>&1
  echo "== max ($i) rc $?"; grep -E "^  (r4|r5|hopper\.combine)|trace:" "$W/max_$i.log" | cut -c1-200
done
stamp
for c in 1e8 1e9; do
  timeout 90 "$J" --json "$W/${c}_1.json" abc471g scale hopper --n "$c" --rungs p32,p40,p49,p50 > "$W/${c}_1.log" 2>&1
  echo "== $c rc $?"; grep -E "^  (floor|r3|r4|r5)" "$W/${c}_1.log"
done
stamp
timeout 100 $SAN --tool memcheck --error-exitcode 9 "$B/joseki_gpu_tests" --gtest_filter='Abc471gHopperGpu.SanitizerShapes' --gtest_brief=1 > "$W/memcheck.log" 2>&1; echo "memcheck rc $?"; grep -E "ERROR SUMMARY" "$W/memcheck.log"
stamp
