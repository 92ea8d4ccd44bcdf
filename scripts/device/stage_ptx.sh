#!/usr/bin/env bash
# Here (the build machine), after scripts/device/stage.sh: builds (unless JOSEKI_NO_BUILD=1) and
# stages the two proof binaries of issue 15 for the device step `gpus`: builds whose only device
# code is compute_80 PTX (preset ptx80) and compute_75 PTX (preset ptx75), which the driver compiles
# for the H200 at load time. Staged as .device/bin-ptx80/ and .device/bin-ptx75/ (joseki, the GPU
# tests, scope_child), stripped. Each build compiles every .cu once (one virtual architecture):
# about as long as the `dev` preset.
#   bash scripts/device/stage.sh && bash scripts/device/stage_ptx.sh
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
[[ -d .device/bin ]] || { echo "stage_ptx: run scripts/device/stage.sh first (it empties .device)" >&2; exit 2; }
for arch in 80 75; do
  preset=ptx$arch
  if [[ ${JOSEKI_NO_BUILD:-0} != 1 ]]; then
    cmake --preset "$preset" >/dev/null
    cmake --build --preset "$preset" -j "$(nproc)" --target joseki joseki_gpu_tests scope_child joseki_probe_plain joseki_probe_context joseki_probe_cuda_link joseki_probe_cuda_touch
  fi
  dst=.device/bin-$preset
  rm -rf "$dst" && mkdir -p "$dst"
  for f in build/$preset/joseki build/$preset/tests/joseki_gpu_tests build/$preset/tests/scope_child build/$preset/probes/joseki_probe_*; do
    [[ -x $f ]] || { echo "stage_ptx: $f missing (build the $preset preset)" >&2; exit 1; }
    cp "$f" "$dst/"
  done
  strip "$dst"/* 2>/dev/null || true
done
du -sh .device .device/bin*
