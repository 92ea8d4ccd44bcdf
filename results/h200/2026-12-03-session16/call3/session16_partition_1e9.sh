#!/usr/bin/env bash
# Session 16, call 3: why the rotated-cell partition kernel (variant 13) costs +8 % of the count at 10^9 and +4 % at
# the max case. ncu of the partition kernel alone at N = 10^9 (one chunk) in r31's form (variant 12, tiles of 28),
# r38's (variant 13, tiles of 28) and r40's (variant 13, tiles of 24): time, instructions, issue activity, local
# (spill) traffic and the stall reasons per issued instruction.
set -uo pipefail
W=$OUT/work; mkdir -p "$W"
B=$PWD/.device/bin; J=$B/joseki
NCU=ncu; command -v ncu >/dev/null || NCU=/usr/local/cuda/bin/ncu
pack() { tar -C "$OUT" -czf "$OUT/results.tar.gz" work && rm -rf "$W"; ls -la "$OUT"; }
trap 'echo interrupted; pack; exit 124' TERM INT
echo "commit $(cat .device/commit | tr '\n' ' ')"; date -u +%H:%M:%S
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,temperature.gpu,power.draw --format=csv | tee "$W/nvidia-smi.csv"
M='gpu__time_duration.sum,smsp__inst_executed.sum,smsp__issue_active.avg.pct_of_peak_sustained_active,launch__registers_per_thread,launch__grid_size,l1tex__t_sectors_pipe_lsu_mem_local_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_local_op_st.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum,regex:smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio'
for k in 'lean_partition_kernelILi28ELi12ELi256ELi4E' 'lean_partition_kernelILi28ELi13ELi256ELi4E' 'lean_partition_kernelILi24ELi13ELi256ELi4E'; do
  timeout 150 $NCU --clock-control none --kernel-name-base mangled --kernel-name regex:"$k" --launch-skip 1 --launch-count 1 --metrics "$M" --csv --page raw \
    "$J" abc471g scale hopper --n 1e9 --min-samples 1 --max-samples 1 --min-time 0 > "$W/ncu_${k}_1e9.csv" 2>&1
  echo "== ncu $k n=1e9 rc $?"; grep -E '^"ID"|^"[0-9]' "$W/ncu_${k}_1e9.csv" | python3 -c '
import csv,sys
r=list(csv.reader(sys.stdin))
if len(r)>1:
  h=r[0]; v=r[-1]
  for a,b in zip(h,v):
    if a.endswith(".sum") or a.endswith(".pct_of_peak_sustained_active") or a.startswith("launch__registers") or a.startswith("launch__grid_size") or (a.endswith(".ratio") and b not in ("0","0.00")) or a=="Kernel Name": print(a, b[:90])
else: print("no rows")'
  date -u +%H:%M:%S
done
pack
