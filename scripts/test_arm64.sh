#!/usr/bin/env bash
# The CPU paths on arm64: cross-compiled with Debian's aarch64-linux-gnu g++ (preset cpu-arm64,
# cmake/toolchain-aarch64-linux-gnu.cmake: NEON kernels, no x86 code) and their unit and CLI tests
# run under qemu-user. Part of CI (scripts/test.sh); alone: bash scripts/test_arm64.sh
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
bash scripts/setup_arm64.sh
PRESET=cpu-arm64
cmake --preset "$PRESET" >/dev/null
# Only what the unit and CLI tests run (the GPU tests would only report themselves skipped).
cmake --build --preset "$PRESET" -j "$(nproc)" --target joseki joseki_unit_tests scope_child joseki_probe_plain
file build/cpu-arm64/joseki 2>/dev/null | sed 's/^/joseki test-arm64: /' || true
# Left out here: the GPU ladders' host-side checks (Abc471gGpuEmu: GPU kernel code run as fibers;
# Abc471gGpuRegistry, Abc471gPairsReference: the GPU rungs' CPU references against brute force),
# minutes each under qemu and already run natively on x86-64; they test GPU paths, not CPU ones.
ctest --preset "$PRESET" -j "$(nproc)" -L "unit|cli" -E "^(Abc471gGpuEmu|Abc471gGpuRegistry|Abc471gPairsReference)\\." "$@"
