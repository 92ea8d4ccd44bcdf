#!/usr/bin/env bash
# Session 17, call 2: r45 (r44 with a segment's rows loaded before they are needed) beside r41, r43 and r44 in the same
# runs. GPU tests (stop if any fails), scale hopper --rungs at the max case three times, ncu of the skewed combine kernel
# of r43 and r45 (time, instructions, issue), memcheck, 10^8 and 10^9 once each, racecheck last. Everything under
# $OUT/work, packed into one tar at the end.
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
for i in 1 2 3; do
  timeout 90 "$J" --json "$W/max_$i.json" abc471g scale hopper --n 7e6 --rungs p41,p43,p44,p45 > "$W/max_$i.log" 2>&1
  echo "== max ($i) rc $?"; grep -E "^  (floor|r3|r4|hopper\.(count|combine))" "$W/max_$i.log"
done
date -u +%H:%M:%S
K='wgmma_combine_tma_kernelILj4ELj64ELj8ELb1ELb0E'
M='gpu__time_duration.sum,smsp__inst_executed.sum,smsp__inst_executed.max,smsp__issue_active.avg.pct_of_peak_sustained_active,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom.sum'
for r in p43 p45; do
  timeout 90 $NCU --clock-control none --kernel-name-base mangled --kernel-name regex:"$K" --launch-skip 2 --launch-count 1 --metrics "$M" --csv --page raw \
    "$J" abc471g scale hopper --n 7e6 --rungs $r --min-samples 1 --max-samples 1 --min-time 0 > "$W/ncu_combine_${r}.csv" 2>&1
  echo "== ncu combine $r"; grep -E '^"ID"|^"[0-9]' "$W/ncu_combine_${r}.csv" | python3 -c '
import csv,sys
r=list(csv.reader(sys.stdin))
want=set(sys.argv[1].split(","))
if len(r)>1:
  for a,b in zip(r[0],r[-1]):
    if a in want: print(a, b)
else: print("no rows")' "$M"
done
date -u +%H:%M:%S
timeout 60 $SAN --tool memcheck --error-exitcode 9 "$B/joseki_gpu_tests" --gtest_filter='Abc471gHopperGpu.SanitizerShapes' --gtest_brief=1 > "$W/memcheck.log" 2>&1; echo "memcheck rc $?"; grep -E "ERROR SUMMARY" "$W/memcheck.log"
for c in 1e8 1e9; do
  timeout 90 "$J" --json "$W/${c}_1.json" abc471g scale hopper --n "$c" --rungs p32,p40,p41,p43,p45 > "$W/${c}_1.log" 2>&1
  echo "== $c rc $?"; grep -E "^  (floor|r3|r4)" "$W/${c}_1.log"
done
date -u +%H:%M:%S
timeout 220 $SAN --tool racecheck --error-exitcode 9 "$B/joseki_gpu_tests" --gtest_filter='Abc471gHopperGpu.SanitizerShapes' --gtest_brief=1 > "$W/racecheck.log" 2>&1; echo "racecheck rc $?"; grep -E "RACECHECK SUMMARY" "$W/racecheck.log"
date -u +%H:%M:%S
