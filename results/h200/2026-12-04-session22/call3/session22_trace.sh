#!/usr/bin/env bash
# Session 22, call 3: where the max case's partition ends, SM by SM. The count's trace (the lean partition kernel's and
# the fused histograms' blocks: entry, end, SM on the global timer, from the solve's start) beside the combine's, one
# rung a process: r57 four rounds, r60 two; M = 1 (no given value) twice for r57. GPU test of the combine's trace first.
source scripts/device/calls/lib.sh
timeout 120 "$B/joseki_gpu_tests" --gtest_filter='Abc471gHopperGpu.CombineTraceIsConsistent' --gtest_brief=1 > "$W/gpu_tests.log" 2>&1
rc=$?; tail -2 "$W/gpu_tests.log"
if [[ $rc != 0 ]]; then echo "GPU test failed (rc $rc)"; exit 1; fi
stamp
show() { grep -E "^  (r5|r6|hopper.count)|trace:" "$1" | cut -c1-900; }
for i in 1 2 3 4; do
  for r in p57 p60; do
    [[ $r == p60 && $i -gt 2 ]] && continue
    timeout 60 "$J" --json "$W/max_${r}_$i.json" abc471g scale hopper --n 7e6 --rungs $r --trace-csv "$W/trace_max_${r}_$i.csv" > "$W/max_${r}_$i.log" 2>&1
    echo "== max $r ($i) rc $?"; show "$W/max_${r}_$i.log"
  done
done
for i in 1 2; do
  timeout 60 "$J" --json "$W/m1_p57_$i.json" abc471g scale hopper --n 7e6 --m 1 --rungs p57 --trace-csv "$W/trace_m1_p57_$i.csv" > "$W/m1_p57_$i.log" 2>&1
  echo "== max, M = 1, p57 ($i) rc $?"; show "$W/m1_p57_$i.log"
done
stamp
