#!/usr/bin/env bash
# Session 21, call 4 (call 3's binaries, d8f728c): r54, r57, r58 again at the max case, one rung a process, six rounds
# (no trace): whether fewer stages copied ahead beat r54 by more than the noise between processes.
source scripts/device/calls/lib.sh
for i in 1 2 3 4 5 6; do
  for r in p54 p57 p58; do
    timeout 60 "$J" --json "$W/max_${r}_$i.json" abc471g scale hopper --n 7e6 --rungs $r > "$W/max_${r}_$i.log" 2>&1
    echo "== max $r ($i) rc $?"; grep -E "^  (r5|hopper.combine)" "$W/max_${r}_$i.log" | tr '\n' ' '; echo
  done
done
stamp
