#!/usr/bin/env bash
# Session 23, call 1: r68 (r65 launched kernel by kernel, no CUDA graph) and the launch probe's cold head (one tiny
# kernel timed as every cold figure, a stream launch against a one-node graph). GPU tests (r39-r68 whole solves; stop if
# any fails); the launch probe; the max case with one rung a process, r65 and r68 in turn, five rounds, and one traced
# process of each; 10^8 with r65 and r68 in turn, three rounds.
source scripts/device/calls/lib.sh
timeout 300 "$B/joseki_gpu_tests" --gtest_filter='Abc471gHopperGpu.DependentCombineRungsAreExact' --gtest_brief=1 > "$W/gpu_tests.log" 2>&1
rc=$?; tail -3 "$W/gpu_tests.log"; grep -E "Failure|Expected|Which is|variant [0-9]" "$W/gpu_tests.log" | head -20
if [[ $rc != 0 ]]; then echo "GPU tests failed (rc $rc)"; exit 1; fi
stamp
timeout 120 "$J" --json "$W/probe_launch.json" probe launch > "$W/probe_launch.log" 2>&1
echo "== probe launch rc $?"; grep -E "head|graph_head|graphs|chain" "$W/probe_launch.log" | cut -c1-300
stamp
show() { grep -E "^  (r6|hopper.count)|trace:" "$1" | cut -c1-700; }
for i in 1 2 3 4 5; do
  for r in p65 p68; do
    timeout 60 "$J" --json "$W/max_${r}_$i.json" abc471g scale hopper --n 7e6 --rungs $r > "$W/max_${r}_$i.log" 2>&1
    echo "== max $r ($i) rc $?"; show "$W/max_${r}_$i.log"
  done
done
for r in p65 p68; do
  timeout 60 "$J" --json "$W/tmax_${r}.json" abc471g scale hopper --n 7e6 --rungs $r --trace-csv "$W/trace_max_${r}.csv" > "$W/tmax_${r}.log" 2>&1
  echo "== traced max $r rc $?"; show "$W/tmax_${r}.log"
done
stamp
for i in 1 2 3; do
  for r in p65 p68; do
    timeout 90 "$J" --json "$W/1e8_${r}_$i.json" abc471g scale hopper --n 1e8 --rungs $r > "$W/1e8_${r}_$i.log" 2>&1
    echo "== 1e8 $r ($i) rc $?"; show "$W/1e8_${r}_$i.log"
  done
done
stamp
