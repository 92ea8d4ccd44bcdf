#!/usr/bin/env bash
# Session 18, call 5: a re-run of the max case (r43, r46, r49; three processes, no trace) with call 4's binaries, to see
# whether r49's figure survives a fresh machine.
source scripts/device/calls/lib.sh
for i in 1 2 3; do
  timeout 90 "$J" --json "$W/max_$i.json" abc471g scale hopper --n 7e6 --rungs p43,p46,p49 > "$W/max_$i.log" 2>&1
  echo "== max ($i) rc $?"; grep -E "^  (floor|r4)" "$W/max_$i.log"
done
stamp
