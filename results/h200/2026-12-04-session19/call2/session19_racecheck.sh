#!/usr/bin/env bash
# Session 19, call 2: racecheck of SanitizerShapes (r50 included) with call 1's binaries (7fbe02d); call 1 left it out
# to fit the session's device time.
source scripts/device/calls/lib.sh
timeout 200 $SAN --tool racecheck --error-exitcode 9 "$B/joseki_gpu_tests" --gtest_filter='Abc471gHopperGpu.SanitizerShapes' --gtest_brief=1 > "$W/racecheck.log" 2>&1; echo "racecheck rc $?"; grep -E "RACECHECK SUMMARY|PASSED|FAILED|SKIPPED" "$W/racecheck.log"
stamp
