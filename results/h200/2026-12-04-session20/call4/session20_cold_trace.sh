#!/usr/bin/env bash
# Session 20, call 4: the combine's trace taken on a cold solve (the L2 flushed first, as the timed solves are) with a
# mark on the global timer just before it, so that the count's part (to the combine's first entry) and the last
# block's end are timed from the solve's start. Calls 1-3 found r51 2.0 us under r49 at K = 2300 but not at K = 2400
# (the same work: +0.6 us) or K = 2250 (a tie), and hot traces with no shorter combine at K = 2300. Each process times
# one rung alone: K = 2300 three each, K = 2400 and 2250 two each, alternating.
source scripts/device/calls/lib.sh
for k in 2300 2400 2250; do
  n=2; [[ $k == 2300 ]] && n=3
  for i in $(seq 1 $n); do
    for r in p49 p51; do
      timeout 60 "$J" --json "$W/k${k}_${r}_$i.json" abc471g scale hopper --n 7e6 --k $k --rungs $r --trace-csv "$W/trace_k${k}_${r}_$i.csv" > "$W/k${k}_${r}_$i.log" 2>&1
      echo "== K $k $r ($i) rc $?"; grep -E "^  (r4|r5)" "$W/k${k}_${r}_$i.log"; grep -E "trace:" "$W/k${k}_${r}_$i.log" | sed -E 's/.*(last release[^;]*);.*(ends [^;]*);.*(from the solve.*)/    \1; \2; \3/'
    done
  done
done
stamp
