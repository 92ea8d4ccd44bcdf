#!/usr/bin/env bash
# Session 22, call 4: r62 (the histograms launched as the partition's blocks start), r63 (r62 with the bucket cursors one
# a 128-byte line), r64 (r60 with the partition's runs in whole warps). GPU tests (r60-r64's own, r39-r64 whole solves,
# the sanitizer shapes; stop if any fails); the max case with one rung a process, r57, r60, r62, r63, r64 in turn, four
# rounds, then one traced process each of r62, r63 and r64 (the count's and the combine's traces); 10^8 and 10^9 once
# with r60, r61, r62, r64; memcheck and racecheck of SanitizerShapes.
source scripts/device/calls/lib.sh
timeout 300 "$B/joseki_gpu_tests" --gtest_filter='Abc471gHopperGpu.SpreadGivenRunsAreExact:Abc471gHopperGpu.DependentCombineRungsAreExact:Abc471gHopperGpu.SanitizerShapes' --gtest_brief=1 > "$W/gpu_tests.log" 2>&1
rc=$?; tail -3 "$W/gpu_tests.log"; grep -E "Failure|Expected|Which is|variant [0-9]|shape [0-9]" "$W/gpu_tests.log" | head -20
if [[ $rc != 0 ]]; then echo "GPU tests failed (rc $rc)"; exit 1; fi
stamp
show() { grep -E "^  (r5|r6|hopper.count)|trace:" "$1" | cut -c1-700; }
for i in 1 2 3 4; do
  for r in p57 p60 p62 p63 p64; do
    timeout 60 "$J" --json "$W/max_${r}_$i.json" abc471g scale hopper --n 7e6 --rungs $r > "$W/max_${r}_$i.log" 2>&1
    echo "== max $r ($i) rc $?"; show "$W/max_${r}_$i.log"
  done
done
stamp
for r in p62 p63 p64; do
  timeout 60 "$J" --json "$W/tmax_${r}.json" abc471g scale hopper --n 7e6 --rungs $r --trace-csv "$W/trace_max_${r}.csv" > "$W/tmax_${r}.log" 2>&1
  echo "== traced max $r rc $?"; show "$W/tmax_${r}.log"
done
stamp
for c in 1e8 1e9; do
  timeout 120 "$J" --json "$W/${c}_1.json" abc471g scale hopper --n "$c" --rungs p60,p61,p62,p64 > "$W/${c}_1.log" 2>&1
  echo "== $c rc $?"; grep -E "^  (floor|r3|r5|r6)" "$W/${c}_1.log"
done
stamp
timeout 120 $SAN --tool memcheck --error-exitcode 9 "$B/joseki_gpu_tests" --gtest_filter='Abc471gHopperGpu.SanitizerShapes' --gtest_brief=1 > "$W/memcheck.log" 2>&1; echo "memcheck rc $?"; grep -E "ERROR SUMMARY" "$W/memcheck.log"
stamp
timeout 240 $SAN --tool racecheck --error-exitcode 9 --log-file "$W/racecheck_san.log" "$B/joseki_gpu_tests" --gtest_filter='Abc471gHopperGpu.SanitizerShapes' --gtest_brief=1 > "$W/racecheck.log" 2>&1; echo "racecheck rc $?"; grep -E "RACECHECK SUMMARY" "$W/racecheck_san.log" | tail -1; tail -1 "$W/racecheck.log"
stamp
