#!/usr/bin/env bash
# Session 21, call 3: r58, r59 (r54 with two and one stages copied ahead; r57 three), the bracket r56, r57 opened (more slack for warpgroup 0,
# whose thread 0 issues the copies, against the slowest warpgroup). GPU tests (r39-r59, the sanitizer shapes, the trace,
# the Hopper probes; stop if any fails); the max case with one rung a process, r54, r57, r58, r59 in turn, four rounds (cold,
# marked traces); 10^8 and 10^9 once; memcheck and racecheck of SanitizerShapes.
source scripts/device/calls/lib.sh
timeout 150 "$B/joseki_gpu_tests" --gtest_filter='Abc471gHopperGpu.DependentCombineRungsAreExact:Abc471gHopperGpu.SanitizerShapes:Abc471gHopperGpu.CombineTraceIsConsistent:Hopper/HopperProbeRuns.*' --gtest_brief=1 > "$W/gpu_tests.log" 2>&1
rc=$?; tail -3 "$W/gpu_tests.log"; grep -E "Failure|Expected|Which is|variant [0-9]|shape [0-9]" "$W/gpu_tests.log" | head -20
if [[ $rc != 0 ]]; then echo "GPU tests failed (rc $rc)"; exit 1; fi
stamp
show() { grep -E "^  (r5|hopper.combine)" "$1"; grep -E "trace:" "$1" | sed -E 's/.*(last release[^;]*);.*(ends [^;]*);.*(a stage [^,]*),.*(from the solve.*)/    \1; \2; \3; \4/'; }
for i in 1 2 3 4; do
  for r in p54 p57 p58 p59; do
    timeout 60 "$J" --json "$W/max_${r}_$i.json" abc471g scale hopper --n 7e6 --rungs $r --trace-csv "$W/trace_max_${r}_$i.csv" > "$W/max_${r}_$i.log" 2>&1
    echo "== max $r ($i) rc $?"; show "$W/max_${r}_$i.log"
  done
done
stamp
for c in 1e8 1e9; do
  timeout 90 "$J" --json "$W/${c}_1.json" abc471g scale hopper --n "$c" --rungs p32,p54,p57,p58,p59 > "$W/${c}_1.log" 2>&1
  echo "== $c rc $?"; grep -E "^  (floor|r3|r5)" "$W/${c}_1.log"
done
stamp
timeout 100 $SAN --tool memcheck --error-exitcode 9 "$B/joseki_gpu_tests" --gtest_filter='Abc471gHopperGpu.SanitizerShapes' --gtest_brief=1 > "$W/memcheck.log" 2>&1; echo "memcheck rc $?"; grep -E "ERROR SUMMARY" "$W/memcheck.log"
stamp
timeout 200 $SAN --tool racecheck --error-exitcode 9 --log-file "$W/racecheck_san.log" "$B/joseki_gpu_tests" --gtest_filter='Abc471gHopperGpu.SanitizerShapes' --gtest_brief=1 > "$W/racecheck.log" 2>&1; echo "racecheck rc $?"; grep -E "RACECHECK SUMMARY" "$W/racecheck_san.log" | tail -1; tail -1 "$W/racecheck.log"
stamp
