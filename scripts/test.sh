#!/usr/bin/env bash
# The tests: install, build, and run every test through CTest (unit, cli, gpu).
# GPU tests report themselves skipped, with the reason, on a machine without a GPU.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
bash scripts/setup.sh test
ctest --preset "${JOSEKI_PRESET:-release}" -j "$(nproc)" "$@"

# Fuzzing (tests/fuzz/README.md): the libFuzzer targets, built with clang, ASan and UBSan, each run
# for JOSEKI_FUZZ_SECONDS (default 50 s; three targets two at a time: about 2 minutes on 2 cores)
# from their checked-in corpora. JOSEKI_FUZZ=0 skips it.
if [[ ${JOSEKI_FUZZ:-1} != 0 ]]; then
  cmake --preset fuzz -DJOSEKI_FUZZ_SECONDS="${JOSEKI_FUZZ_SECONDS:-50}" >/dev/null
  cmake --build --preset fuzz -j "$(nproc)" --target fuzz_abc471g_parser fuzz_records fuzz_cli
  ctest --preset fuzz -j 2
fi
# The CPU paths on arm64 (cross-compiled with Debian's aarch64 g++, unit and CLI tests under
# qemu-user; scripts/test_arm64.sh lists what runs and what is left out, with the reasons). It prints
# its own time; JOSEKI_ARM64=0 leaves it out.
if [[ ${JOSEKI_ARM64:-1} != 0 ]]; then bash scripts/test_arm64.sh; fi
