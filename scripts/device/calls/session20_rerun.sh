#!/usr/bin/env bash
# Session 20, call 6 (call 5's binaries, 563f280): the headline again on a freshly started machine: the max case with
# one rung a process, r49 and r53 in turn, three rounds, each with the cold, marked trace.
source scripts/device/calls/lib.sh
show() { grep -E "^  (r4|r5)" "$1"; grep -E "trace:" "$1" | sed -E 's/.*(last release[^;]*);.*(ends [^;]*);.*(from the solve.*)/    \1; \2; \3/'; }
for i in 1 2 3; do
  for r in p49 p53; do
    timeout 60 "$J" --json "$W/max_${r}_$i.json" abc471g scale hopper --n 7e6 --rungs $r --trace-csv "$W/trace_max_${r}_$i.csv" > "$W/max_${r}_$i.log" 2>&1
    echo "== max $r ($i) rc $?"; show "$W/max_${r}_$i.log"
  done
done
stamp
