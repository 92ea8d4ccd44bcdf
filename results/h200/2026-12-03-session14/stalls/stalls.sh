#!/usr/bin/env bash
# Warp-state (stall) and scheduler statistics of r35's and r15's combine kernels at the max case (ncu, third launch).
set -uo pipefail
W=$OUT/work; mkdir -p "$W"
J=$PWD/.device/bin/joseki
NCU=ncu; command -v ncu >/dev/null || NCU=/usr/local/cuda/bin/ncu
echo "commit $(cat .device/commit | tr '\n' ' ')"; date -u +%H:%M:%S
for k in 'wgmma_combine_tma_kernelILj4ELj64ELj8ELb0ELb1E' 'wgmma_combine_tma_kernelILj4ELj64ELj8ELb0ELb0E'; do
  timeout 60 $NCU --clock-control none --kernel-name-base mangled --kernel-name regex:"$k" --launch-skip 2 --launch-count 1 \
    --section WarpStateStats --section SchedulerStats --section ComputeWorkloadAnalysis --csv --page details \
    "$J" abc471g scale hopper --n 7e6 --min-samples 1 --max-samples 1 --min-time 0 > "$W/stalls_$k.csv" 2>&1
  echo "== $k rc $?"; grep -E 'Stall|Warp Cycles|Issued|Eligible|Active Warps|No Eligible|Pipe' "$W/stalls_$k.csv" | cut -d, -f12- | head -40
done
date -u +%H:%M:%S
tar -C "$OUT" -czf "$OUT/results.tar.gz" work && rm -rf "$W"
