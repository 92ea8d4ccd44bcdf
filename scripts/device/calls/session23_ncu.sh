#!/usr/bin/env bash
# Session 23, call 3: where the max case's count spends its shared-memory pipe. ncu (clocks left alone) of r65's
# partition kernel and fused histogram kernel, one launch each (the third), with the shared-memory atomics' instructions,
# wavefronts and bank conflicts, all shared wavefronts, the SMs' active cycles and the kernel's duration.
source scripts/device/calls/lib.sh
M=gpu__time_duration.sum,sm__cycles_active.avg,sm__cycles_active.max,smsp__inst_executed.sum,smsp__inst_executed_op_shared_atom.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_atom.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum
ARGS=(abc471g scale hopper --n 7e6 --rungs p65 --min-samples 1 --max-samples 1 --min-time 0)
ncu_kernel part_p65 'lean_partition_kernelILi26ELi13ELi256ELi4E' "$M" -- "$J" "${ARGS[@]}"
ncu_kernel hist_p65 'fused_hist_kernelILi1024ELi1E' "$M" -- "$J" "${ARGS[@]}"
stamp
