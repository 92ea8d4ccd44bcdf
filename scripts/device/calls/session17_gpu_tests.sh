#!/usr/bin/env bash
# Session 17, call 3: every ABC471G GPU test (the partition-tile refusal reaches every configuration they build) with
# the binaries of call 2 (6accd65; the code of main is unchanged since). No records.
set -uo pipefail
W=$OUT/work; mkdir -p "$W"
pack() { (cd "$OUT" && tar cJf call.tar.xz work && rm -rf work); }
trap pack EXIT
B=$PWD/.device/bin
echo "commit $(cat .device/commit | tr '\n' ' ')"; date -u +%H:%M:%S
timeout 540 "$B/joseki_gpu_tests" --gtest_filter='Abc471g*' --gtest_brief=1 > "$W/gpu_tests_abc471g.log" 2>&1
echo "rc $?"; tail -4 "$W/gpu_tests_abc471g.log"; grep -E "^\[  FAILED|Failure" "$W/gpu_tests_abc471g.log" | head -20
date -u +%H:%M:%S
