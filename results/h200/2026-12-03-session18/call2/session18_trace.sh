#!/usr/bin/env bash
# Session 18, call 2: the skewed combine's per-block trace (scale hopper --trace-csv) at the max case for r41, r43, r46
# and r47 (three processes), the trace's GPU test first (stop if it fails), then memcheck of it; racecheck of nothing new.
source scripts/device/calls/lib.sh
timeout 120 "$B/joseki_gpu_tests" --gtest_filter='Abc471gHopperGpu.CombineTraceIsConsistent' --gtest_brief=1 > "$W/gpu_tests.log" 2>&1
rc=$?; tail -3 "$W/gpu_tests.log"; grep -E "Failure|Expected|Which is" "$W/gpu_tests.log" | head -20
if [[ $rc != 0 ]]; then echo "GPU test failed (rc $rc)"; exit 1; fi
stamp
for i in 1 2 3; do
  timeout 90 "$J" --json "$W/trace_max_$i.json" abc471g scale hopper --n 7e6 --rungs p41,p43,p46,p47 --trace-csv "$W/trace_max_$i.csv" > "$W/trace_max_$i.log" 2>&1
  echo "== max ($i) rc $?"; grep -E "^  (r4|    trace)" "$W/trace_max_$i.log"
done
stamp
timeout 120 $SAN --tool memcheck --error-exitcode 9 "$B/joseki_gpu_tests" --gtest_filter='Abc471gHopperGpu.CombineTraceIsConsistent' --gtest_brief=1 > "$W/memcheck.log" 2>&1; echo "memcheck rc $?"; grep -E "ERROR SUMMARY" "$W/memcheck.log"
stamp
