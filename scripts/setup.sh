#!/usr/bin/env bash
# Installs what joseki needs (Debian/Ubuntu packages) and builds it from nothing.
# Sourced by scripts/run.sh and scripts/test.sh; safe to run again (skips what is there).
#   JOSEKI_PRESET=release|cpu|debug   (default: release, which uses CUDA when nvcc is found)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

PACKAGES=(cmake ninja-build g++ git pkg-config libcli11-dev nlohmann-json3-dev libfmt-dev libfftw3-dev
          libgtest-dev python3 python3-jsonschema python3-matplotlib python3-numpy
          # Vulkan backend (issue 16): headers, volk (loads the loader at run time), glslc, and
          # lavapipe (Mesa's CPU Vulkan device: what CI runs the Vulkan ladder on), vulkaninfo.
          libvulkan-dev libvulkan-volk-dev glslc mesa-vulkan-drivers vulkan-tools)
# `scripts/setup.sh test` also installs what only the tests need: headless Chromium renders the report;
# clang with its libFuzzer runtime builds the fuzz targets (tests/fuzz/README.md).
if [[ ${1:-} == test ]]; then PACKAGES+=(chromium clang); fi
missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "joseki setup: installing ${missing[*]}"
  if [[ $(id -u) -eq 0 ]]; then SUDO=""; elif command -v sudo >/dev/null; then SUDO="sudo"; else
    echo "joseki setup: need root (or sudo) to install: ${missing[*]}" >&2; exit 2; fi
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -q >/dev/null
  $SUDO apt-get install -y -q --no-install-recommends "${missing[@]}" >/dev/null
fi

# libFuzzer's runtime is a package of its own on Debian 12 (libclang-rt-14-dev), not always pulled in by clang.
if [[ ${1:-} == test ]] && command -v clang++ >/dev/null; then
  if [[ ! -e "$(clang++ -print-runtime-dir 2>/dev/null)/libclang_rt.fuzzer-x86_64.a" && \
        ! -e "$(clang++ -print-resource-dir 2>/dev/null)/lib/linux/libclang_rt.fuzzer-x86_64.a" ]]; then
    ver=$(clang++ -dumpversion | cut -d. -f1)
    echo "joseki setup: installing libclang-rt-$ver-dev (libFuzzer)"
    if [[ $(id -u) -eq 0 ]]; then SUDO=""; else SUDO="sudo"; fi
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q --no-install-recommends "libclang-rt-$ver-dev" >/dev/null
  fi
fi

# The CUDA toolkit is optional: use nvcc when it is installed but not on PATH.
if ! command -v nvcc >/dev/null && [[ -x /usr/local/cuda/bin/nvcc ]]; then
  export PATH="/usr/local/cuda/bin:$PATH"
fi
if command -v nvcc >/dev/null; then
  echo "joseki setup: CUDA compiler $(nvcc --version | sed -n 's/.*release \([0-9.]*\).*/\1/p')"
else
  echo "joseki setup: no nvcc found; building the CPU paths only"
fi

PRESET="${JOSEKI_PRESET:-release}"
cmake --preset "$PRESET" >/dev/null
cmake --build --preset "$PRESET" -j "$(nproc)"
