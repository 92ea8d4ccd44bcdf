#!/usr/bin/env bash
# Session 16, call 5 (the session's last ~215 s of device time): r42 (r41 with the given values' tiles on the full
# path). GPU tests (stop if any fails), scale hopper at the max case three times, ncu at the max case of the partition
# kernel alone in r41's form (<26, 13>) and r42's (<26, 14>), memcheck, 10^8 and 10^9 once each, racecheck last (it may
# be cut by the session's device time; the files written so far come back).
set -uo pipefail
W=$OUT/work; mkdir -p "$W"
B=$PWD/.device/bin; J=$B/joseki
NCU=ncu; command -v ncu >/dev/null || NCU=/usr/local/cuda/bin/ncu
SAN=compute-sanitizer; command -v $SAN >/dev/null || SAN=/usr/local/cuda/bin/compute-sanitizer
echo "commit $(cat .device/commit | tr '\n' ' ')"; date -u +%H:%M:%S
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,temperature.gpu,power.draw --format=csv | tee "$W/nvidia-smi.csv"
timeout 150 "$B/joseki_gpu_tests" --gtest_filter='Abc471gHopperGpu.DependentCombineRungsAreExact:Abc471gHopperGpu.SkewedCombineSolvesAreExact:Abc471gHopperGpu.SanitizerShapes' --gtest_brief=1 > "$W/gpu_tests.log" 2>&1
rc=$?; tail -3 "$W/gpu_tests.log"; grep -E "Failure|Expected|Which is|variant [0-9]|shape [0-9]" "$W/gpu_tests.log" | head -20
if [[ $rc != 0 ]]; then echo "GPU tests failed (rc $rc)"; exit 1; fi
date -u +%H:%M:%S
for i in 1 2 3; do
  timeout 60 "$J" --json "$W/max_$i.json" abc471g scale hopper --n 7e6 > "$W/max_$i.log" 2>&1
  echo "== max ($i) rc $?"; grep -E "^  (floor|r31|r38|r41|r42|hopper\.(count|combine)_r(31|41|42))" "$W/max_$i.log"
done
date -u +%H:%M:%S
M='gpu__time_duration.sum,smsp__inst_executed.sum,smsp__issue_active.avg.pct_of_peak_sustained_active,launch__registers_per_thread'
for k in 'lean_partition_kernelILi26ELi13ELi256ELi4E' 'lean_partition_kernelILi26ELi14ELi256ELi4E'; do
  timeout 60 $NCU --clock-control none --kernel-name-base mangled --kernel-name regex:"$k" --launch-skip 2 --launch-count 1 --metrics "$M" --csv --page raw \
    "$J" abc471g scale hopper --n 7e6 --min-samples 1 --max-samples 1 --min-time 0 > "$W/ncu_${k}_7e6.csv" 2>&1
  echo "== ncu $k"; grep -E '^"ID"|^"[0-9]' "$W/ncu_${k}_7e6.csv" | python3 -c '
import csv,sys
r=list(csv.reader(sys.stdin))
if len(r)>1:
  for a,b in zip(r[0],r[-1]):
    if a in ("gpu__time_duration.sum","smsp__inst_executed.sum","smsp__inst_executed.max","smsp__inst_executed.avg","smsp__issue_active.avg.pct_of_peak_sustained_active","launch__registers_per_thread"): print(a, b)
else: print("no rows")'
done
date -u +%H:%M:%S
timeout 60 $SAN --tool memcheck --error-exitcode 9 "$B/joseki_gpu_tests" --gtest_filter='Abc471gHopperGpu.SanitizerShapes' --gtest_brief=1 > "$W/memcheck.log" 2>&1; echo "memcheck rc $?"; grep -E "ERROR SUMMARY" "$W/memcheck.log"
for c in 1e8 1e9; do
  timeout 60 "$J" --json "$W/${c}_1.json" abc471g scale hopper --n "$c" > "$W/${c}_1.log" 2>&1
  echo "== $c rc $?"; grep -E "^  (floor|r31|r32|r38|r40|r41|r42)" "$W/${c}_1.log"
done
date -u +%H:%M:%S
timeout 150 $SAN --tool racecheck --error-exitcode 9 "$B/joseki_gpu_tests" --gtest_filter='Abc471gHopperGpu.SanitizerShapes' --gtest_brief=1 > "$W/racecheck.log" 2>&1; echo "racecheck rc $?"; grep -E "RACECHECK SUMMARY" "$W/racecheck.log"
date -u +%H:%M:%S
