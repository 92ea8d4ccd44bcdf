#!/usr/bin/env bash
# Session 17, call 1: r43 (the skewed combine's window copies padded apart) and r44 (r43 + the next segment's copies
# before the epilogue), the partition-tile refusal, and where the skewed combine's time goes. GPU tests (stop if any
# fails), scale hopper --rungs at the max case three times, ncu of the skewed combine kernel (r41, r43, r44: time,
# instructions, shared atomics and their wavefronts, tensor pipe), a PC-sampling source page of r41's combine kernel,
# the mma probe's shape ladder (which of the combine's wgmma choices costs the tensor pipe its rate),
# memcheck, 10^8 and 10^9 once each, racecheck last (SanitizerShapes: r42, r43, r44 included). Everything under
# $OUT/work, packed into one tar at the end (the device returns at most eight files).
set -uo pipefail
W=$OUT/work; mkdir -p "$W"
pack() { (cd "$OUT" && tar cJf call.tar.xz work && rm -rf work); }
trap pack EXIT
B=$PWD/.device/bin; J=$B/joseki
NCU=ncu; command -v ncu >/dev/null || NCU=/usr/local/cuda/bin/ncu
SAN=compute-sanitizer; command -v $SAN >/dev/null || SAN=/usr/local/cuda/bin/compute-sanitizer
echo "commit $(cat .device/commit | tr '\n' ' ')"; date -u +%H:%M:%S
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,temperature.gpu,power.draw --format=csv | tee "$W/nvidia-smi.csv"
timeout 200 "$B/joseki_gpu_tests" --gtest_filter='Abc471gHopperGpu.DependentCombineRungsAreExact:Abc471gHopperGpu.SkewedCombineSolvesAreExact:Abc471gHopperGpu.SanitizerShapes' --gtest_brief=1 > "$W/gpu_tests.log" 2>&1
rc=$?; tail -3 "$W/gpu_tests.log"; grep -E "Failure|Expected|Which is|variant [0-9]|shape [0-9]" "$W/gpu_tests.log" | head -20
if [[ $rc != 0 ]]; then echo "GPU tests failed (rc $rc)"; exit 1; fi
date -u +%H:%M:%S
# The mma probe's shape ladder (session 17): the probe's wgmma shape changed one choice at a time toward the combine's.
timeout 90 "$B/joseki_gpu_tests" --gtest_filter='Hopper/HopperProbeRuns.MeasureOnHopperOrSkipWithTheReason/mma' --gtest_brief=1 > "$W/probe_test.log" 2>&1
echo "probe test rc $?"; tail -2 "$W/probe_test.log"
timeout 120 "$J" --json "$W/probe_mma.json" probe mma > "$W/probe_mma.log" 2>&1
echo "probe mma rc $?"; grep -E "wgmma|mma_sync|shape" "$W/probe_mma.log" | head -30
date -u +%H:%M:%S
R=p31,p38,p41,p42,p43,p44
for i in 1 2 3; do
  timeout 90 "$J" --json "$W/max_$i.json" abc471g scale hopper --n 7e6 --rungs $R > "$W/max_$i.log" 2>&1
  echo "== max ($i) rc $?"; grep -E "^  (floor|r3|r4|hopper\.(count|combine))" "$W/max_$i.log"
done
date -u +%H:%M:%S
K='wgmma_combine_tma_kernelILj4ELj64ELj8ELb1ELb0E'
M='gpu__time_duration.sum,smsp__inst_executed.sum,smsp__issue_active.avg.pct_of_peak_sustained_active,launch__registers_per_thread,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom.sum,l1tex__t_requests_pipe_lsu_mem_shared_op_atom.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_atom.sum,sm__pipe_tensor_op_gmma_cycles_active.avg.pct_of_peak_sustained_active,smsp__inst_executed.max,smsp__inst_executed.avg'
for r in p41 p43 p44; do
  timeout 90 $NCU --clock-control none --kernel-name-base mangled --kernel-name regex:"$K" --launch-skip 2 --launch-count 1 --metrics "$M" --csv --page raw \
    "$J" abc471g scale hopper --n 7e6 --rungs $r --min-samples 1 --max-samples 1 --min-time 0 > "$W/ncu_combine_${r}.csv" 2>&1
  echo "== ncu combine $r"; grep -E '^"ID"|^"[0-9]' "$W/ncu_combine_${r}.csv" | python3 -c '
import csv,sys
r=list(csv.reader(sys.stdin))
if len(r)>1:
  for a,b in zip(r[0],r[-1]):
    if "__" in a: print(a, b)
else: print("no rows")'
done
date -u +%H:%M:%S
# Where r41's combine kernel spends its warps' time: PC sampling, the SASS source page (stall samples per instruction).
timeout 120 $NCU --clock-control none --kernel-name-base mangled --kernel-name regex:"$K" --launch-skip 2 --launch-count 1 \
  --section SourceCounters --section WarpStateStats --import-source no -f -o "$W/combine_r41" \
  "$J" abc471g scale hopper --n 7e6 --rungs p41 --min-samples 1 --max-samples 1 --min-time 0 > "$W/ncu_source_r41.log" 2>&1
echo "ncu source rc $?"
timeout 60 $NCU -i "$W/combine_r41.ncu-rep" --page source --csv --print-source sass > "$W/sass_r41.csv" 2> "$W/sass_r41.err"
echo "sass page rc $? lines $(wc -l < "$W/sass_r41.csv")"; head -c 600 "$W/sass_r41.csv"; echo
timeout 60 $NCU -i "$W/combine_r41.ncu-rep" --page details --print-details all > "$W/details_r41.txt" 2>&1
grep -E "Warp Cycles Per Issued|Stall|stall" "$W/details_r41.txt" | head -20
date -u +%H:%M:%S
timeout 60 $SAN --tool memcheck --error-exitcode 9 "$B/joseki_gpu_tests" --gtest_filter='Abc471gHopperGpu.SanitizerShapes' --gtest_brief=1 > "$W/memcheck.log" 2>&1; echo "memcheck rc $?"; grep -E "ERROR SUMMARY" "$W/memcheck.log"
for c in 1e8 1e9; do
  timeout 90 "$J" --json "$W/${c}_1.json" abc471g scale hopper --n "$c" --rungs p31,p32,p38,p40,p41,p43,p44 > "$W/${c}_1.log" 2>&1
  echo "== $c rc $?"; grep -E "^  (floor|r3|r4)" "$W/${c}_1.log"
done
date -u +%H:%M:%S
timeout 220 $SAN --tool racecheck --error-exitcode 9 "$B/joseki_gpu_tests" --gtest_filter='Abc471gHopperGpu.SanitizerShapes' --gtest_brief=1 > "$W/racecheck.log" 2>&1; echo "racecheck rc $?"; grep -E "RACECHECK SUMMARY" "$W/racecheck.log"
date -u +%H:%M:%S
