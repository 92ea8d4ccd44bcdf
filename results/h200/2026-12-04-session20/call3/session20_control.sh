#!/usr/bin/env bash
# Session 20, call 3 (call 1's binaries, e33418c): a control for r51's -2.0 us at the max case (calls 1 and 2), whose
# trace showed no shorter combine. At K = 2400 (V drawn as at the max case: 1229 rows x with V[x] = 0, the last row
# tile's four warpgroups all have rows) r51 runs exactly r49's work and split: it must tie r49. At K = 2250 (1148 rows,
# two warpgroups idle) the skip saves twice the max case's tensor work. Each process times one rung alone, alternating.
source scripts/device/calls/lib.sh
for k in 2400 2250 2300; do
  for i in 1 2 3; do
    for r in p49 p51; do
      timeout 60 "$J" --json "$W/k${k}_${r}_$i.json" abc471g scale hopper --n 7e6 --k $k --rungs $r --trace-csv "$W/trace_k${k}_${r}_$i.csv" > "$W/k${k}_${r}_$i.log" 2>&1
      echo "== K $k $r ($i) rc $?"; grep -E "^  (r4|r5|hopper\.co)|trace:" "$W/k${k}_${r}_$i.log" | cut -c1-150
    done
  done
done
stamp
