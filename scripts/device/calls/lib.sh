# Sourced by a device call's script (scripts/device/calls/session*.sh) on the GPU host, in the repository root: the
# preamble every call shares. Sets W (the call's files: $OUT/work, packed into $OUT/call.tar.xz when the script exits:
# the device returns at most 8 files), B and J (the staged binaries), NCU and SAN (ncu, compute-sanitizer: on PATH or
# the toolkit's), prints the commit the binaries were built from and the GPU's clocks (work/nvidia-smi.csv).
# Functions: stamp (the time, UTC), ncu_kernel NAME REGEX METRICS -- COMMAND... (ncu of one launch of the kernels
# matching REGEX, the third of them, into work/ncu_NAME.csv, then the metrics printed as "metric value").
set -uo pipefail
W=$OUT/work
mkdir -p "$W"
pack() { (cd "$OUT" && tar cJf call.tar.xz work && rm -rf work); }
trap pack EXIT
B=$PWD/.device/bin
J=$B/joseki
NCU=ncu; command -v ncu >/dev/null || NCU=/usr/local/cuda/bin/ncu
SAN=compute-sanitizer; command -v $SAN >/dev/null || SAN=/usr/local/cuda/bin/compute-sanitizer
stamp() { date -u +%H:%M:%S; }
echo "commit $(tr '\n' ' ' < .device/commit)"; stamp
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,temperature.gpu,power.draw --format=csv | tee "$W/nvidia-smi.csv"

ncu_kernel() {
  local name=$1 regex=$2 metrics=$3
  shift 4  # NAME REGEX METRICS --
  timeout 90 $NCU --clock-control none --kernel-name-base mangled --kernel-name regex:"$regex" --launch-skip 2 --launch-count 1 \
    --metrics "$metrics" --csv --page raw "$@" > "$W/ncu_${name}.csv" 2>&1
  echo "== ncu $name"
  grep -E '^"ID"|^"[0-9]' "$W/ncu_${name}.csv" | python3 -c '
import csv, sys
r = list(csv.reader(sys.stdin))
want = set(sys.argv[1].split(","))
if len(r) > 1:
    for a, b in zip(r[0], r[-1]):
        if a in want: print(a, b)
else: print("no rows")' "$metrics"
}
