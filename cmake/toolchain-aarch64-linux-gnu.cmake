# Cross-compiling joseki's CPU paths for arm64 (Grace next to an H200, Graviton, Linux on Apple
# silicon) on a Debian x86-64 machine: Debian's cross compiler and the arm64 -dev packages
# (dpkg --add-architecture arm64; scripts/setup_arm64.sh installs them). Used by the `cpu-arm64`
# preset (CPU only: nvcc does not cross-compile here). Tests run under qemu-user.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
set(CMAKE_CXX_COMPILER aarch64-linux-gnu-g++)
# Multiarch: the arm64 libraries (libfftw3.a, libgtest.a, fmt) are in /usr/lib/aarch64-linux-gnu and
# their CMake packages in /usr/lib/aarch64-linux-gnu/cmake; header-only packages (CLI11,
# nlohmann_json) in /usr/share are the same for every architecture.
set(CMAKE_LIBRARY_ARCHITECTURE aarch64-linux-gnu)
set(CMAKE_FIND_ROOT_PATH /usr/aarch64-linux-gnu)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY BOTH)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE BOTH)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE BOTH)
# ctest (and gtest_discover_tests at build time) run the arm64 binaries through qemu-user, with the
# arm64 C library of the multiarch package libc6:arm64 (/lib/ld-linux-aarch64.so.1, what binfmt_misc
# and a real arm64 host use too). NOT `-L /usr/aarch64-linux-gnu`: that cross-toolchain sysroot's
# libc (libc6-arm64-cross, for linking) spins in the first pthread_create under qemu 7.2 (strace: it
# stops after glibc's SIGCANCEL setup and never reaches clone; perf: all of qemu's time in translated
# guest code), so every test that starts a thread (an OpenMP team, a progress thread) hung or took
# many minutes; measured 2026-12-01: LimbSplitKeepsHugeCountsExact > 10 min with it, 0.5 s without.
set(CMAKE_CROSSCOMPILING_EMULATOR qemu-aarch64)
