#!/usr/bin/env bash
# Session 22, call 7: after the review fixes (each chunk's layout set afresh, chunk_layout / thread_run / layout_threads,
# plan_runs capped at the tile its run ends in, the count's trace stamped at the block's end). GPU tests (r60-r67's own,
# with r64 and r65 in chunks of 2^20 where the first chunk's plan fits and the second's does not; r39-r67 whole solves;
# the sanitizer shapes); the max case with r65 three times, 10^9 with r66 once (no regression against call 5);
# memcheck of SanitizerShapes.
source scripts/device/calls/lib.sh
timeout 200 "$B/joseki_gpu_tests" --gtest_filter='Abc471gHopperGpu.SpreadGivenRunsAreExact:Abc471gHopperGpu.DependentCombineRungsAreExact:Abc471gHopperGpu.SanitizerShapes' --gtest_brief=1 > "$W/gpu_tests.log" 2>&1
rc=$?; tail -3 "$W/gpu_tests.log"; grep -E "Failure|Expected|Which is|variant [0-9]|chunks of" "$W/gpu_tests.log" | head -20
if [[ $rc != 0 ]]; then echo "GPU tests failed (rc $rc)"; exit 1; fi
stamp
for i in 1 2 3; do
  timeout 60 "$J" --json "$W/max_p65_$i.json" abc471g scale hopper --n 7e6 --rungs p65 > "$W/max_p65_$i.log" 2>&1
  echo "== max p65 ($i) rc $?"; grep -E "^  (r6|hopper.count)" "$W/max_p65_$i.log"
done
timeout 60 "$J" --json "$W/1e9_p66.json" abc471g scale hopper --n 1e9 --rungs p66 > "$W/1e9_p66.log" 2>&1
echo "== 1e9 p66 rc $?"; grep -E "^  (r6|hopper.count)" "$W/1e9_p66.log"
stamp
timeout 60 $SAN --tool memcheck --error-exitcode 9 "$B/joseki_gpu_tests" --gtest_filter='Abc471gHopperGpu.SanitizerShapes' --gtest_brief=1 > "$W/memcheck.log" 2>&1; echo "memcheck rc $?"; grep -E "ERROR SUMMARY" "$W/memcheck.log"
stamp
