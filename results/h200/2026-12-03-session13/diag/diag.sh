#!/usr/bin/env bash
# diagnostic call: r31 vs r33/r34 at the max case, split and ncu of both combine kernels
set -uo pipefail
J=$PWD/.device/bin/joseki
NCU=ncu; command -v ncu >/dev/null || NCU=/usr/local/cuda/bin/ncu
echo "commit $(cat .device/commit)"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,temperature.gpu --format=csv,noheader
for i in 1 2; do
  timeout 60 "$J" --json "$OUT/max_$i.json" abc471g scale hopper --n 7e6 > "$OUT/max_$i.log" 2>&1
  grep -E "floor|r3[0-4]|count_r3|combine_r3" "$OUT/max_$i.log"
done
M='regex:^(smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio|smsp__inst_executed\.sum|smsp__issue_active\.avg\.pct_of_peak_sustained_active|sm__pipe_.*_cycles_active\.avg\.pct_of_peak_sustained_active|l1tex__data_bank_conflicts_pipe_lsu_mem_shared.*\.sum|l1tex__data_pipe_lsu_wavefronts_mem_shared.*\.sum|gpu__time_duration\.sum|launch__grid_size|launch__registers_per_thread|smsp__sass_inst_executed_op_shared_atom.*\.sum)$'
for k in 'wgmma_combine_tma_kernelILj4ELj64ELj8ELb1E' 'wgmma_combine_tma_kernelILj4ELj64ELj8ELb0E' 'wgmma_combine_tma_kernelILj2ELj64ELj8ELb1E'; do
  timeout 120 $NCU --clock-control none --kernel-name-base mangled --kernel-name regex:"$k" --launch-skip 2 --launch-count 1 \
    --metrics "$M" --csv --page raw "$J" abc471g scale hopper --n 7e6 --min-samples 1 --max-samples 1 --min-time 0 2>/dev/null \
    | grep -vE "^(gpu-pairs|  )" > "$OUT/ncu_${k: -6}.csv"
  echo "== $k"  # (a python summary of the CSV followed here; its output is diag.log)
done
