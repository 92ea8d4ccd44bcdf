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
# gtest_discover_tests runs the test binary at build time: through qemu-user (binfmt_misc, when
# registered, makes this unnecessary, and lets joseki start its own child processes).
set(CMAKE_CROSSCOMPILING_EMULATOR qemu-aarch64 -L /usr/aarch64-linux-gnu)
