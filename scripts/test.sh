#!/usr/bin/env bash
# The tests: install, build, and run every test through CTest (unit, cli, gpu).
# GPU tests report themselves skipped, with the reason, on a machine without a GPU.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
bash scripts/setup.sh test
ctest --preset "${JOSEKI_PRESET:-release}" -j "$(nproc)" "$@"
# The CPU paths on arm64 too: cross-compiled, unit and CLI tests under qemu-user (JOSEKI_ARM64=0 skips).
if [[ ${JOSEKI_ARM64:-1} != 0 ]]; then bash scripts/test_arm64.sh; fi
