# Device step `count_anatomy` (issue 19: where the count's time goes at N = 10^8; sourced by
# scripts/device/session.sh; ~2 minutes). Uses $B $J $W and step/run from session.sh.
#   1. the SASS of the count's kernels and the generation floor's (cuobjdump), so instructions per pair
#      can be read off the inner loops here
#   2. Nsight Compute on one solve at N = 10^8 (one chunk): the partition kernel, the histogram kernel and
#      the floor kernel; the full set of sections, the instruction mix by pipe, and the SASS-level source
#      page (instructions executed and stall samples per SASS line)
CA=$W/count_anatomy
mkdir -p "$CA"
NCU=ncu; command -v ncu >/dev/null || NCU=/usr/local/cuda/bin/ncu
CUOBJ=cuobjdump; command -v cuobjdump >/dev/null || CUOBJ=/usr/local/cuda/bin/cuobjdump
step "count_anatomy: SASS of partition/hist/floor kernels"
run timeout 60 $CUOBJ -sass "$J" > "$CA/all.sass" 2> "$CA/cuobjdump.err"
python3 - "$CA/all.sass" "$CA/count.sass" <<'PY'
import re, sys
src, dst = sys.argv[1], sys.argv[2]
keep, out = False, []
for line in open(src, errors="replace"):
    if line.lstrip().startswith("Function :"):
        keep = re.search(r"partition_kernel|hist_kernel|generate_floor|route_kernel", line) is not None
    if keep:
        out.append(line)
open(dst, "w").writelines(out)
print(f"{len(out)} SASS lines kept")
PY
xz -T2 "$CA/count.sass"; rm -f "$CA/all.sass"
step "count_anatomy: ncu at N = 10^8 (gpu-pairs-gemm: r04's count, one chunk)"
run timeout 60 "$J" abc471g gen --n 100000000 --k 2300 --m 100000 --seed 7 -o "$CA/n1e8.in"
run timeout 200 $NCU --clock-control none --kernel-name regex:'partition_kernel|hist_kernel' --launch-count 2 \
  --set full --import-source yes -o "$CA/count_1e8" \
  "$J" abc471g solve --solver gpu-pairs-gemm "$CA/n1e8.in" > "$CA/ncu_run.log" 2>&1
tail -3 "$CA/ncu_run.log"
run timeout 60 $NCU -i "$CA/count_1e8.ncu-rep" --print-details all > "$CA/details.txt" 2>&1
grep -E "^  [a-z_:<>0-9, ]*(partition_kernel|hist_kernel)|Duration|Executed Ipc A|Issue Slots Busy|Registers Per|Achieved Occ|No Eligible" "$CA/details.txt" | head -40
run timeout 60 $NCU -i "$CA/count_1e8.ncu-rep" --page raw --csv \
  --metrics 'regex:^(smsp__inst_executed_pipe_.*\.sum|smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio|sm__inst_executed\.sum|smsp__issue_active\.avg\.pct_of_peak_sustained_active|sm__pipe_.*_cycles_active\.avg\.pct_of_peak_sustained_active|l1tex__data_bank_conflicts_pipe_lsu_mem_shared.*\.sum|smsp__inst_executed_op_shared.*\.sum|gpu__time_duration\.sum)$' \
  > "$CA/pipes.csv" 2>&1
for k in 0 1; do
  run timeout 60 $NCU -i "$CA/count_1e8.ncu-rep" --page source --csv --print-source sass --launch-skip $k --launch-count 1 \
    > "$CA/source_$k.csv" 2>&1
  head -c 300 "$CA/source_$k.csv"; echo
done
xz -T4 "$CA"/source_*.csv "$CA/details.txt"
rm -f "$CA/n1e8.in"
step "count_anatomy: ncu, the generation floor at N = 10^8"
run timeout 120 $NCU --clock-control none --kernel-name regex:'generate_floor' --launch-count 1 \
  --section SpeedOfLight --section InstructionStats --section ComputeWorkloadAnalysis --section WarpStateStats \
  --metrics 'regex:^(smsp__inst_executed_pipe_.*\.sum|sm__inst_executed\.sum)$' \
  "$J" abc471g scale hopper --n 1e8 --min-samples 1 --max-samples 1 --min-time 0 > "$CA/ncu_floor.txt" 2>&1
grep -E "Duration|Executed Ipc A|Issue Slots Busy|inst_executed" "$CA/ncu_floor.txt" | head -30
