#!/usr/bin/env bash
# Session 20, call 8 (call 7's binaries, 89f2a9d): r53 and r54 again, one rung a process, three rounds (cold traces).
source scripts/device/calls/lib.sh
show() { grep -E "^  (r4|r5)" "$1"; grep -E "trace:" "$1" | sed -E 's/.*(last release[^;]*);.*(ends [^;]*);.*(from the solve.*)/    \1; \2; \3/'; }
for i in 1 2 3; do
  for r in p53 p54; do
    timeout 60 "$J" --json "$W/max_${r}_$i.json" abc471g scale hopper --n 7e6 --rungs $r --trace-csv "$W/trace_max_${r}_$i.csv" > "$W/max_${r}_$i.log" 2>&1
    echo "== max $r ($i) rc $?"; show "$W/max_${r}_$i.log"
  done
done
stamp
