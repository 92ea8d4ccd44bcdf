#!/usr/bin/env bash
# Installs what the arm64 cross build of joseki's CPU paths needs on a Debian x86-64 machine, and
# lets the kernel run arm64 binaries through qemu-user (binfmt_misc), so that joseki's own child
# processes (scope children, `joseki device --context-child`) start under it too.
# Called by scripts/test_arm64.sh; safe to run again (skips what is there). Needs root (or sudo).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

if [[ $(id -u) -eq 0 ]]; then SUDO=""; elif command -v sudo >/dev/null; then SUDO="sudo"; else
  echo "joseki setup-arm64: need root (or sudo)" >&2; exit 2; fi
export DEBIAN_FRONTEND=noninteractive
if ! dpkg --print-foreign-architectures | grep -qx arm64; then
  $SUDO dpkg --add-architecture arm64
  $SUDO apt-get update -q >/dev/null
fi
# libc6:arm64: the C library the tests run with under qemu-user (cmake/toolchain-aarch64-linux-gnu.cmake
# says why not the cross toolchain's own copy).
PACKAGES=(g++-aarch64-linux-gnu qemu-user qemu-user-binfmt libc6:arm64 libfftw3-dev:arm64 libgtest-dev:arm64
          libfmt-dev:arm64)
missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "joseki setup-arm64: installing ${missing[*]}"
  $SUDO apt-get update -q >/dev/null
  $SUDO apt-get install -y -q --no-install-recommends "${missing[@]}" >/dev/null
fi

# binfmt_misc: mounted and the aarch64 handler registered (a container may not allow it: then the
# tests that start child processes fail, and this says why).
BINFMT=/proc/sys/fs/binfmt_misc
if [[ ! -e $BINFMT/register ]]; then
  $SUDO mount -t binfmt_misc binfmt_misc "$BINFMT" 2>/dev/null ||
    echo "joseki setup-arm64: cannot mount binfmt_misc (a container?): arm64 binaries run only through qemu-aarch64" >&2
fi
if [[ -e $BINFMT/register && ! -e $BINFMT/qemu-aarch64 ]]; then
  conf=/usr/lib/binfmt.d/qemu-aarch64.conf
  if [[ -r $conf ]]; then
    $SUDO sh -c "cat $conf > $BINFMT/register" ||
      echo "joseki setup-arm64: cannot register the qemu-aarch64 binfmt handler" >&2
  fi
fi
if [[ -e $BINFMT/qemu-aarch64 ]]; then echo "joseki setup-arm64: arm64 binaries run through qemu-user (binfmt_misc)"; fi
