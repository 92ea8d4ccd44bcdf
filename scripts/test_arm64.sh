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
# Under qemu-user every test runs 10-30x slower than natively, so CI runs the unit tests of the CPU
# paths and the CLI tests of the solver's input handling; left out here (each already run natively on
# x86-64 by scripts/test.sh, and minutes each under qemu): the GPU ladders' host-side checks
# (Abc471gGpuEmu: GPU kernel code run as fibers; Abc471gGpuRegistry, Abc471gPairsReference: the GPU
# rungs' CPU references against brute force), the four long randomized cross-checks of the CPU solvers
# (Abc471gSolvers.{RandomSmallCasesAgainstBrute,SharedVectorsForEveryCpuSolver,
# OwnGeneratedCasesForEveryCpuSolver,EdgeCases}: the same code paths as DirectAtEverySimdLevelAndThreadCount,
# which runs) and the CLI suites that drive whole tours, reports, plots and the big solver cases (the
# solver's CLI input handling runs: cli.test_hardening_solve, cli.test_hardening).
ctest --preset "$PRESET" -j "$(nproc)" --timeout 900 -L "unit|cli" \
  -E "^(Abc471gGpuEmu|Abc471gGpuRegistry|Abc471gPairsReference)\\.|^AllRungs/Abc471gGpuEmuRung|^Abc471gSolvers\\.(RandomSmallCasesAgainstBrute|SharedVectorsForEveryCpuSolver|OwnGeneratedCasesForEveryCpuSolver|EdgeCases)$|^cli\\.(test_basics|test_abc471g|test_figures|test_report|test_run|test_compare|test_reduce|test_reduce_vulkan|test_try|test_probe|test_abc471g_scale)$" "$@"
