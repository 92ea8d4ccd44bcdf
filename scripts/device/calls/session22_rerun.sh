#!/usr/bin/env bash
# Session 22, call 8 (call 7's binaries, f28d601): N = 10^9 with one rung a process, r32, r61, r66 in turn, two rounds:
# did call 7's r66 (2633.06 us against call 5's 2563.33) move alone, or every rung with it?
source scripts/device/calls/lib.sh
for i in 1 2; do
  for r in p32 p61 p66; do
    timeout 60 "$J" --json "$W/1e9_${r}_$i.json" abc471g scale hopper --n 1e9 --rungs $r > "$W/1e9_${r}_$i.log" 2>&1
    echo "== 1e9 $r ($i) rc $?"; grep -E "^  (r3|r6|hopper.count)" "$W/1e9_${r}_$i.log"
  done
done
stamp
