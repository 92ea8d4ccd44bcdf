#!/usr/bin/env bash
# r35, r36 (the Hankel operand, groups of four stages): GPU tests (stop if any fails, after a kernel-alone diagnosis), sanitizers, scale wgmma
# (every shape alone at the max case), scale hopper at the max case, 1e8, 1e9 three times each interleaved, ncu of
# r35's and r15's combine kernels at the max case.
set -uo pipefail
W=$OUT/work; mkdir -p "$W"
B=$PWD/.device/bin; J=$B/joseki
NCU=ncu; command -v ncu >/dev/null || NCU=/usr/local/cuda/bin/ncu
SAN=compute-sanitizer; command -v $SAN >/dev/null || SAN=/usr/local/cuda/bin/compute-sanitizer
pack() { tar -C "$OUT" -czf "$OUT/results.tar.gz" work && rm -rf "$W"; ls -la "$OUT"; }
trap 'echo interrupted; pack; exit 124' TERM INT
echo "commit $(cat .device/commit | tr '\n' ' ')"; date -u +%H:%M:%S
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,temperature.gpu,power.draw --format=csv | tee "$W/nvidia-smi.csv"
timeout 240 "$B/joseki_gpu_tests" --gtest_filter='Abc471gWgmmaGpu.*:Abc471gHopperGpu.HankelCombineSolvesAreExact:Abc471gHopperGpu.SanitizerShapes' --gtest_brief=1 > "$W/gpu_tests.log" 2>&1
rc=$?; tail -4 "$W/gpu_tests.log"; grep -E "Failure|Expected|Which is|solve [0-9]|first wrong" "$W/gpu_tests.log" | head -20
if [[ $rc != 0 ]]; then
  echo "GPU tests failed (rc $rc): kernel alone per shape for the diagnosis"
  timeout 120 "$J" --json "$W/wgmma.json" abc471g scale wgmma --n 7e6 > "$W/wgmma.log" 2>&1; grep -E "ss\.|rs\.wg4\.bk64\.if1\.pad\.st8" "$W/wgmma.log" | head -20
  pack; exit 1
fi
timeout 150 $SAN --tool memcheck --error-exitcode 9 "$B/joseki_gpu_tests" --gtest_filter='Abc471gHopperGpu.SanitizerShapes:Abc471gWgmmaGpu.SanitizerShapes' --gtest_brief=1 > "$W/memcheck.log" 2>&1; echo "memcheck rc $?"; grep -E "ERROR SUMMARY" "$W/memcheck.log"
timeout 240 $SAN --tool racecheck --error-exitcode 9 "$B/joseki_gpu_tests" --gtest_filter='Abc471gHopperGpu.SanitizerShapes:Abc471gWgmmaGpu.SanitizerShapes' --gtest_brief=1 > "$W/racecheck.log" 2>&1; echo "racecheck rc $?"; grep -E "RACECHECK SUMMARY" "$W/racecheck.log"
date -u +%H:%M:%S
timeout 120 "$J" --json "$W/wgmma.json" abc471g scale wgmma --n 7e6 > "$W/wgmma.log" 2>&1; echo "== wgmma rc $?"; grep -E "ss\.wg4.*tma|rs.wg4.bk64.if1.pad.st8.tma" "$W/wgmma.log" | head -24
date -u +%H:%M:%S
for i in 1 2 3; do
  for c in max 1e8 1e9; do
    case $c in max) n=7e6 lim=50 ;; 1e8) n=1e8 lim=70 ;; *) n=1e9 lim=160 ;; esac
    timeout $lim "$J" --json "$W/${c}_$i.json" abc471g scale hopper --n "$n" > "$W/${c}_$i.log" 2>&1
    echo "== $c ($i) rc $?"; grep -E "^  (floor|r31|r35|r36|hopper\.(count|combine)_r3[156])" "$W/${c}_$i.log"
  done
done
date -u +%H:%M:%S
M='gpu__time_duration.sum,smsp__inst_executed.sum,smsp__issue_active.avg.pct_of_peak_sustained_active,sm__pipe_tensor_cycles_active.avg.pct_of_peak_sustained_active,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,sm__warps_active.avg.pct_of_peak_sustained_active,smsp__average_warp_latency_issue_stalled_long_scoreboard.ratio,l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum'
for k in 'wgmma_combine_tma_kernelILj4ELj64ELj14ELb0ELb1E' 'wgmma_combine_tma_kernelILj4ELj64ELj8ELb0ELb1E' 'wgmma_combine_tma_kernelILj4ELj64ELj8ELb0ELb0E'; do
  timeout 90 $NCU --clock-control none --kernel-name-base mangled --kernel-name regex:"$k" --launch-skip 2 --launch-count 1 --metrics "$M" --csv --page raw \
    "$J" abc471g scale hopper --n 7e6 --min-samples 1 --max-samples 1 --min-time 0 > "$W/ncu_$k.csv" 2>&1
  echo "== ncu $k"; grep -E '^"ID"|^"[0-9]' "$W/ncu_$k.csv" | python3 -c '
import csv,sys
r=list(csv.reader(sys.stdin))
if len(r)>1:
  h=r[0]; v=r[-1]
  for a,b in zip(h,v):
    if ("__" in a and a.split("__")[0] in ("gpu","sm","smsp","l1tex")) or a=="launch__registers_per_thread": print(a, b)
else: print("no rows")'
done
date -u +%H:%M:%S
pack
