#!/usr/bin/env bash
# Session 22, call 6: r67 (r65 with each histogram block's previous maximum read as it starts). GPU tests (r39-r67 whole
# solves, the sanitizer shapes; stop if any fails); the max case with one rung a process, r65 and r67 in turn, five
# rounds, and one traced r67; memcheck and racecheck of SanitizerShapes.
source scripts/device/calls/lib.sh
timeout 240 "$B/joseki_gpu_tests" --gtest_filter='Abc471gHopperGpu.DependentCombineRungsAreExact:Abc471gHopperGpu.SanitizerShapes' --gtest_brief=1 > "$W/gpu_tests.log" 2>&1
rc=$?; tail -3 "$W/gpu_tests.log"; grep -E "Failure|Expected|Which is|variant [0-9]|shape [0-9]" "$W/gpu_tests.log" | head -20
if [[ $rc != 0 ]]; then echo "GPU tests failed (rc $rc)"; exit 1; fi
stamp
show() { grep -E "^  (r6|hopper.count)|trace:" "$1" | cut -c1-700; }
for i in 1 2 3 4 5; do
  for r in p65 p67; do
    timeout 60 "$J" --json "$W/max_${r}_$i.json" abc471g scale hopper --n 7e6 --rungs $r > "$W/max_${r}_$i.log" 2>&1
    echo "== max $r ($i) rc $?"; show "$W/max_${r}_$i.log"
  done
done
timeout 60 "$J" --json "$W/tmax_p67.json" abc471g scale hopper --n 7e6 --rungs p67 --trace-csv "$W/trace_max_p67.csv" > "$W/tmax_p67.log" 2>&1
echo "== traced max p67 rc $?"; show "$W/tmax_p67.log"
stamp
timeout 120 $SAN --tool memcheck --error-exitcode 9 "$B/joseki_gpu_tests" --gtest_filter='Abc471gHopperGpu.SanitizerShapes' --gtest_brief=1 > "$W/memcheck.log" 2>&1; echo "memcheck rc $?"; grep -E "ERROR SUMMARY" "$W/memcheck.log"
stamp
timeout 240 $SAN --tool racecheck --error-exitcode 9 --log-file "$W/racecheck_san.log" "$B/joseki_gpu_tests" --gtest_filter='Abc471gHopperGpu.SanitizerShapes' --gtest_brief=1 > "$W/racecheck.log" 2>&1; echo "racecheck rc $?"; grep -E "RACECHECK SUMMARY" "$W/racecheck_san.log" | tail -1; tail -1 "$W/racecheck.log"
stamp
