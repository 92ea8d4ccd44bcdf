#!/usr/bin/env bash
# Session 22, call 5: r65 (r64 with r62's trigger) and r66 (r61 with r64's whole-warp runs; plan_runs now lengthens the
# runs by up to 1/64 where the wave has too few free warps). GPU tests (r60-r66's own, r39-r65 whole solves, the
# sanitizer shapes; stop if any fails); the max case with one rung a process, r60, r62, r64, r65 in turn, five rounds;
# one traced process of r65; 10^8 with r60, r64, r65 in turn, three rounds; 10^9 with r61, r66 in turn, three rounds, and
# r64, r65 once; memcheck and racecheck of SanitizerShapes.
source scripts/device/calls/lib.sh
timeout 330 "$B/joseki_gpu_tests" --gtest_filter='Abc471gHopperGpu.SpreadGivenRunsAreExact:Abc471gHopperGpu.DependentCombineRungsAreExact:Abc471gHopperGpu.SanitizerShapes' --gtest_brief=1 > "$W/gpu_tests.log" 2>&1
rc=$?; tail -3 "$W/gpu_tests.log"; grep -E "Failure|Expected|Which is|variant [0-9]|shape [0-9]" "$W/gpu_tests.log" | head -20
if [[ $rc != 0 ]]; then echo "GPU tests failed (rc $rc)"; exit 1; fi
stamp
show() { grep -E "^  (r3|r5|r6|hopper.count)|trace:" "$1" | cut -c1-700; }
for i in 1 2 3 4 5; do
  for r in p60 p62 p64 p65; do
    timeout 60 "$J" --json "$W/max_${r}_$i.json" abc471g scale hopper --n 7e6 --rungs $r > "$W/max_${r}_$i.log" 2>&1
    echo "== max $r ($i) rc $?"; show "$W/max_${r}_$i.log"
  done
done
timeout 60 "$J" --json "$W/tmax_p65.json" abc471g scale hopper --n 7e6 --rungs p65 --trace-csv "$W/trace_max_p65.csv" > "$W/tmax_p65.log" 2>&1
echo "== traced max p65 rc $?"; show "$W/tmax_p65.log"
stamp
for i in 1 2 3; do
  for r in p60 p64 p65; do
    timeout 60 "$J" --json "$W/1e8_${r}_$i.json" abc471g scale hopper --n 1e8 --rungs $r > "$W/1e8_${r}_$i.log" 2>&1
    echo "== 1e8 $r ($i) rc $?"; show "$W/1e8_${r}_$i.log"
  done
done
stamp
for i in 1 2 3; do
  for r in p61 p66; do
    timeout 90 "$J" --json "$W/1e9_${r}_$i.json" abc471g scale hopper --n 1e9 --rungs $r > "$W/1e9_${r}_$i.log" 2>&1
    echo "== 1e9 $r ($i) rc $?"; show "$W/1e9_${r}_$i.log"
  done
done
timeout 90 "$J" --json "$W/1e9_p64_p65.json" abc471g scale hopper --n 1e9 --rungs p64,p65 > "$W/1e9_p64_p65.log" 2>&1
echo "== 1e9 p64, p65 rc $?"; show "$W/1e9_p64_p65.log"
stamp
timeout 120 $SAN --tool memcheck --error-exitcode 9 "$B/joseki_gpu_tests" --gtest_filter='Abc471gHopperGpu.SanitizerShapes' --gtest_brief=1 > "$W/memcheck.log" 2>&1; echo "memcheck rc $?"; grep -E "ERROR SUMMARY" "$W/memcheck.log"
stamp
timeout 240 $SAN --tool racecheck --error-exitcode 9 --log-file "$W/racecheck_san.log" "$B/joseki_gpu_tests" --gtest_filter='Abc471gHopperGpu.SanitizerShapes' --gtest_brief=1 > "$W/racecheck.log" 2>&1; echo "racecheck rc $?"; grep -E "RACECHECK SUMMARY" "$W/racecheck_san.log" | tail -1; tail -1 "$W/racecheck.log"
stamp
