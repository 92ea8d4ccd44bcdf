#!/usr/bin/env bash
# Session 16, call 4: r41 (r38 in tiles of 26) beside r38-r40. GPU tests (r41's whole solves and r37's table in tiles
# of 26, the sanitizer shapes; stop if any fails), memcheck and racecheck of the sanitizer shapes, scale hopper at the
# max case, 1e8 and 1e9 three times each interleaved, then ncu at the max case of the partition kernel alone in tiles
# of 28 (r38) and of 26 (r41).
set -uo pipefail
W=$OUT/work; mkdir -p "$W"
B=$PWD/.device/bin; J=$B/joseki
NCU=ncu; command -v ncu >/dev/null || NCU=/usr/local/cuda/bin/ncu
SAN=compute-sanitizer; command -v $SAN >/dev/null || SAN=/usr/local/cuda/bin/compute-sanitizer
pack() { tar -C "$OUT" -czf "$OUT/results.tar.gz" work && rm -rf "$W"; ls -la "$OUT"; }
trap 'echo interrupted; pack; exit 124' TERM INT
echo "commit $(cat .device/commit | tr '\n' ' ')"; date -u +%H:%M:%S
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,temperature.gpu,power.draw --format=csv | tee "$W/nvidia-smi.csv"
timeout 240 "$B/joseki_gpu_tests" --gtest_filter='Abc471gHopperGpu.DependentCombineRungsAreExact:Abc471gHopperGpu.SkewedCombineSolvesAreExact:Abc471gHopperGpu.SanitizerShapes' --gtest_brief=1 > "$W/gpu_tests.log" 2>&1
rc=$?; tail -4 "$W/gpu_tests.log"; grep -E "Failure|Expected|Which is|solve [0-9]|variant [0-9]" "$W/gpu_tests.log" | head -20
if [[ $rc != 0 ]]; then echo "GPU tests failed (rc $rc)"; pack; exit 1; fi
date -u +%H:%M:%S
timeout 200 $SAN --tool memcheck --error-exitcode 9 "$B/joseki_gpu_tests" --gtest_filter='Abc471gHopperGpu.SanitizerShapes' --gtest_brief=1 > "$W/memcheck.log" 2>&1; echo "memcheck rc $?"; grep -E "ERROR SUMMARY" "$W/memcheck.log"
timeout 300 $SAN --tool racecheck --error-exitcode 9 "$B/joseki_gpu_tests" --gtest_filter='Abc471gHopperGpu.SanitizerShapes' --gtest_brief=1 > "$W/racecheck.log" 2>&1; echo "racecheck rc $?"; grep -E "RACECHECK SUMMARY" "$W/racecheck.log"
date -u +%H:%M:%S
for i in 1 2 3; do
  for c in max 1e8 1e9; do
    case $c in max) n=7e6 lim=60 ;; 1e8) n=1e8 lim=80 ;; *) n=1e9 lim=170 ;; esac
    timeout $lim "$J" --json "$W/${c}_$i.json" abc471g scale hopper --n "$n" > "$W/${c}_$i.log" 2>&1
    echo "== $c ($i) rc $?"; grep -E "^  (floor|r31|r32|r38|r39|r40|r41|hopper\.(count|combine)_r(31|38|40|41))" "$W/${c}_$i.log"
  done
done
date -u +%H:%M:%S
M='gpu__time_duration.sum,smsp__inst_executed.sum,smsp__issue_active.avg.pct_of_peak_sustained_active,launch__grid_size,launch__registers_per_thread'
for k in 'lean_partition_kernelILi28ELi13ELi256ELi4E' 'lean_partition_kernelILi26ELi13ELi256ELi4E'; do
  timeout 90 $NCU --clock-control none --kernel-name-base mangled --kernel-name regex:"$k" --launch-skip 2 --launch-count 1 --metrics "$M" --csv --page raw \
    "$J" abc471g scale hopper --n 7e6 --min-samples 1 --max-samples 1 --min-time 0 > "$W/ncu_${k}_7e6.csv" 2>&1
  echo "== ncu $k n=7e6"; grep -E '^"ID"|^"[0-9]' "$W/ncu_${k}_7e6.csv" | python3 -c '
import csv,sys
r=list(csv.reader(sys.stdin))
if len(r)>1:
  h=r[0]; v=r[-1]
  for a,b in zip(h,v):
    if a.split(".")[0] in ("gpu__time_duration","smsp__inst_executed","smsp__issue_active","launch__grid_size","launch__registers_per_thread") or a=="Kernel Name": print(a, b[:90])
else: print("no rows")'
done
date -u +%H:%M:%S
pack
