#!/usr/bin/env bash
# Session 23, call 2: r69 (r65 with the combine released by a count of the histograms' ended blocks instead of
# griddepcontrol.wait). GPU tests (r69's own, r39-r69 whole solves, the sanitizer shapes; stop if any fails); the max
# case with one rung a process, r65 and r69 in turn, five rounds, and one traced process of each; 10^8 with r65 and r69
# in turn, three rounds; memcheck of FlagReleaseSolvesAreExact and SanitizerShapes, racecheck of SanitizerShapes.
source scripts/device/calls/lib.sh
timeout 400 "$B/joseki_gpu_tests" --gtest_filter='Abc471gHopperGpu.FlagReleaseSolvesAreExact:Abc471gHopperGpu.DependentCombineRungsAreExact:Abc471gHopperGpu.SanitizerShapes' --gtest_brief=1 > "$W/gpu_tests.log" 2>&1
rc=$?; tail -3 "$W/gpu_tests.log"; grep -E "Failure|Expected|Which is|variant [0-9]|solve [0-9]" "$W/gpu_tests.log" | head -20
if [[ $rc != 0 ]]; then echo "GPU tests failed (rc $rc)"; exit 1; fi
stamp
show() { grep -E "^  (r6|hopper.count)|trace:" "$1" | cut -c1-700; }
for i in 1 2 3 4 5; do
  for r in p65 p69; do
    timeout 60 "$J" --json "$W/max_${r}_$i.json" abc471g scale hopper --n 7e6 --rungs $r > "$W/max_${r}_$i.log" 2>&1
    echo "== max $r ($i) rc $?"; show "$W/max_${r}_$i.log"
  done
done
for r in p65 p69; do
  timeout 60 "$J" --json "$W/tmax_${r}.json" abc471g scale hopper --n 7e6 --rungs $r --trace-csv "$W/trace_max_${r}.csv" > "$W/tmax_${r}.log" 2>&1
  echo "== traced max $r rc $?"; show "$W/tmax_${r}.log"
done
stamp
for i in 1 2 3; do
  for r in p65 p69; do
    timeout 90 "$J" --json "$W/1e8_${r}_$i.json" abc471g scale hopper --n 1e8 --rungs $r > "$W/1e8_${r}_$i.log" 2>&1
    echo "== 1e8 $r ($i) rc $?"; show "$W/1e8_${r}_$i.log"
  done
done
stamp
timeout 200 $SAN --tool memcheck --error-exitcode 9 "$B/joseki_gpu_tests" --gtest_filter='Abc471gHopperGpu.FlagReleaseSolvesAreExact:Abc471gHopperGpu.SanitizerShapes' --gtest_brief=1 > "$W/memcheck.log" 2>&1; echo "memcheck rc $?"; grep -E "ERROR SUMMARY" "$W/memcheck.log"; tail -2 "$W/memcheck.log"
stamp
timeout 240 $SAN --tool racecheck --error-exitcode 9 --log-file "$W/racecheck_san.log" "$B/joseki_gpu_tests" --gtest_filter='Abc471gHopperGpu.SanitizerShapes' --gtest_brief=1 > "$W/racecheck.log" 2>&1; echo "racecheck rc $?"; grep -E "RACECHECK SUMMARY" "$W/racecheck_san.log" | tail -1; tail -1 "$W/racecheck.log"
stamp
