#!/usr/bin/env bash
# There (the GPU host): run the named steps with the staged binaries and write logs and
# records under $OUT (folded into results.tar.gz, since only 8 files come back).
#   bash scripts/device/session.sh foundation reduce ...
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
: "${OUT:=/tmp/joseki-out}"
W=$OUT/work
mkdir -p "$W"
B=$PWD/.device/bin
J=$B/joseki
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
SAN="compute-sanitizer"
command -v $SAN >/dev/null || SAN=/usr/local/cuda/bin/compute-sanitizer
step() { echo; echo "======== $* ($(date -u +%H:%M:%S))"; }
pack() { tar -C "$OUT" -czf "$OUT/results.tar.gz" work 2>/dev/null && rm -rf "$W"; ls -la "$OUT"; }
# If the call's time limit strikes, still bring back what was measured.
trap 'echo "session: interrupted, packing"; pack; exit 124' TERM INT
run() { echo "\$ $*"; "$@"; echo "[exit $?]"; }

step "host"
echo "commit $(cat .device/commit | tr '\n' ' ')"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,temperature.gpu,power.draw \
  --format=csv | tee "$W/nvidia-smi.csv"
nproc; uname -r

for s in "$@"; do
  case $s in
    foundation)
      step "gpu tests"
      run "$B/joseki_gpu_tests" --gtest_brief=1 2>&1 | tee "$W/gpu_tests.log" | tail -15
      step "cli tests"
      run python3 tests/cli/test_basics.py "$J" > "$W/cli_tests.log" 2>&1; tail -4 "$W/cli_tests.log"
      step "device"
      run "$J" --json "$W/device.json" device
      step "check"
      run "$J" --json "$W/check.json" check
      step "sanitizer: check"
      run $SAN --tool memcheck --error-exitcode 9 "$J" check 2>&1 | tail -4
      ;;
    *)
      if [[ -f scripts/device/steps/$s.sh ]]; then
        step "$s"
        source "scripts/device/steps/$s.sh"
      else
        echo "unknown step $s"
      fi
      ;;
  esac
done

step "pack"
pack
