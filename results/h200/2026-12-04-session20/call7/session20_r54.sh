#!/usr/bin/env bash
# Session 20, call 7: r54 (r53 with the combine's split found once a block in 32-bit arithmetic). GPU tests (r39-r54, the
# sanitizer shapes, the trace, the Hopper probes; stop if any fails); the max case with one rung a process, r49, r53,
# r54 in turn, four rounds (cold, marked traces); 10^8 and 10^9 once; memcheck and racecheck of SanitizerShapes.
source scripts/device/calls/lib.sh
timeout 150 "$B/joseki_gpu_tests" --gtest_filter='Abc471gHopperGpu.DependentCombineRungsAreExact:Abc471gHopperGpu.SanitizerShapes:Abc471gHopperGpu.CombineTraceIsConsistent:Hopper/HopperProbeRuns.*' --gtest_brief=1 > "$W/gpu_tests.log" 2>&1
rc=$?; tail -3 "$W/gpu_tests.log"; grep -E "Failure|Expected|Which is|variant [0-9]|shape [0-9]" "$W/gpu_tests.log" | head -20
if [[ $rc != 0 ]]; then echo "GPU tests failed (rc $rc)"; exit 1; fi
stamp
show() { grep -E "^  (r4|r5)" "$1"; grep -E "trace:" "$1" | sed -E 's/.*(last release[^;]*);.*(ends [^;]*);.*(from the solve.*)/    \1; \2; \3/'; }
for i in 1 2 3 4; do
  for r in p49 p53 p54; do
    timeout 60 "$J" --json "$W/max_${r}_$i.json" abc471g scale hopper --n 7e6 --rungs $r --trace-csv "$W/trace_max_${r}_$i.csv" > "$W/max_${r}_$i.log" 2>&1
    echo "== max $r ($i) rc $?"; show "$W/max_${r}_$i.log"
  done
done
stamp
for c in 1e8 1e9; do
  timeout 90 "$J" --json "$W/${c}_1.json" abc471g scale hopper --n "$c" --rungs p32,p53,p54 > "$W/${c}_1.log" 2>&1
  echo "== $c rc $?"; grep -E "^  (floor|r3|r4|r5)" "$W/${c}_1.log"
done
stamp
timeout 100 $SAN --tool memcheck --error-exitcode 9 "$B/joseki_gpu_tests" --gtest_filter='Abc471gHopperGpu.SanitizerShapes' --gtest_brief=1 > "$W/memcheck.log" 2>&1; echo "memcheck rc $?"; grep -E "ERROR SUMMARY" "$W/memcheck.log"
stamp
timeout 200 $SAN --tool racecheck --error-exitcode 9 --log-file "$W/racecheck_san.log" "$B/joseki_gpu_tests" --gtest_filter='Abc471gHopperGpu.SanitizerShapes' --gtest_brief=1 > "$W/racecheck.log" 2>&1; echo "racecheck rc $?"; grep -E "RACECHECK SUMMARY" "$W/racecheck_san.log" | tail -1; tail -1 "$W/racecheck.log"
stamp
