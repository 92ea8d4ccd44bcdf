#!/usr/bin/env bash
# Session 21, call 5 (call 3's binaries, d8f728c): where a stage of the combine goes after r57. ncu (clocks left alone)
# of one launch of r54's kernel (the LEAN instantiation) inside `scale hopper --rungs p54` and of r57's: the sections
# SpeedOfLight, ComputeWorkloadAnalysis, WarpStateStats (the warps' stall reasons per issued instruction) as raw CSV.
source scripts/device/calls/lib.sh
for r in p54 p57; do
  timeout 150 $NCU --clock-control none --kernel-name-base mangled --kernel-name regex:'wgmma_combine_tma_kernelILj4ELj64ELj8ELb1ELb0ELb0ELb1E' \
    --launch-skip 2 --launch-count 1 --section SpeedOfLight --section ComputeWorkloadAnalysis --section WarpStateStats \
    --csv --page raw "$J" abc471g scale hopper --n 7e6 --rungs $r --min-samples 1 --max-samples 1 --min-time 0 > "$W/ncu_$r.csv" 2> "$W/ncu_$r.err"
  echo "== ncu $r rc $?"
  grep -E '^"ID"|^"[0-9]' "$W/ncu_$r.csv" | python3 -c '
import csv, sys
r = list(csv.reader(sys.stdin))
if len(r) < 2: print("no rows"); sys.exit()
for a, b in zip(r[0], r[-1]):
    if any(k in a for k in ("gpu__time_duration.sum", "issue_stalled", "pipe_tensor", "issue_active", "inst_executed.sum", "warps_active")):
        print(a, b)' | sort | head -60
done
stamp
