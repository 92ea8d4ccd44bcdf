#!/usr/bin/env bash
# Stall reasons per issued instruction of r35's and r15's combine kernels at the max case (ncu, third launch).
set -uo pipefail
W=$OUT/work; mkdir -p "$W"
J=$PWD/.device/bin/joseki
NCU=ncu; command -v ncu >/dev/null || NCU=/usr/local/cuda/bin/ncu
for k in 'wgmma_combine_tma_kernelILj4ELj64ELj8ELb0ELb1E' 'wgmma_combine_tma_kernelILj4ELj64ELj8ELb0ELb0E'; do
  timeout 50 $NCU --clock-control none --kernel-name-base mangled --kernel-name regex:"$k" --launch-skip 2 --launch-count 1 \
    --metrics 'regex:smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio' --csv --page raw \
    "$J" abc471g scale hopper --n 7e6 --min-samples 1 --max-samples 1 --min-time 0 > "$W/stallreasons_$k.csv" 2>&1
  echo "== $k rc $?"; grep -E '^"ID"|^"[0-9]' "$W/stallreasons_$k.csv" | python3 -c '
import csv,sys
r=list(csv.reader(sys.stdin))
h=r[0]; v=r[-1]
out=[(a.replace("smsp__average_warps_issue_stalled_","").replace("_per_issue_active.ratio",""),b) for a,b in zip(h,v) if a.startswith("smsp__average_warps_issue_stalled")]
def f(x):
  try: return float(x.replace(",",""))
  except: return 0
for a,b in sorted(out,key=lambda t:-f(t[1]))[:14]: print(a,b)'
done
tar -C "$OUT" -czf "$OUT/results.tar.gz" work && rm -rf "$W"
