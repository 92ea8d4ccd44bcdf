# Device step `labc` (sourced by scripts/device/session.sh on the GPU host; budget about 3 minutes:
# the direct ladder with its sweeps ~25 s, the gpu-pairs scale ladder ~15 s, the ABC471G GPU tests
# ~60 s, the compares a few seconds). Uses $B $J $W and step from session.sh.
# Issue 14 (branch labc): the ABC471G direct ladder and the gpu-pairs ladder now run through the
# measurement core's one protocol (measure::run_ladder with a CUDA Runner each). Behaviour must be
# unchanged: `joseki compare` of their records with the last H200 references should say SAME for
# every rung present in both (SLOWER/FASTER only where noise or the tour-to-tour memory-system
# difference explains it). The GPU tests include the test-only rung t01 added with one line
# (Abc471gGpu.ATestOnlyRungAddedWithOneLineIsValidatedTimedAndListed) and the ladder through the
# core protocol (Abc471gGpu.TheLadderRunsThroughTheCoreProtocol).
export JOSEKI_TESTDATA=$PWD/.device/testdata/abc471g
lb="$W/labc"
mkdir -p "$lb"
gunzip -c results/h200/2026-11-30-tour-final/records.json.gz >"$lb/ref_tour_final.json" 2>/dev/null || echo "no tour-final records"
gunzip -c results/h200/2026-11-30-gemm/final/abc471g_gemm/ladder_max.json.gz >"$lb/ref_gemm.json" 2>/dev/null \
  || echo "no gemm ladder records"
lb_rc_direct=- lb_rc_pairs=- lb_rc_tests=-

step "labc: the direct ladder on the max case, with its sweeps (abc471g ladder --sweep --no-scopes)"
timeout 120 "$J" --json "$lb/direct.json" abc471g ladder --sweep --no-scopes >"$lb/direct.md" 2>"$lb/direct.err"
lb_rc_direct=$?
tail -n 2 "$lb/direct.err"

step "labc: the gpu-pairs ladder at the max case (abc471g scale ladder)"
timeout 90 "$J" --quiet --json "$lb/pairs.json" abc471g scale ladder >"$lb/pairs.md" 2>&1
lb_rc_pairs=$?
tail -n 2 "$lb/pairs.md"

step "labc: ABC471G GPU tests (Abc471gGpu*)"
timeout 100 "$B/joseki_gpu_tests" --gtest_filter='Abc471gGpu*' --gtest_brief=1 >"$lb/gpu_tests.log" 2>&1
lb_rc_tests=$?
tail -n 8 "$lb/gpu_tests.log"

step "labc: compare with the H200 references"
"$J" compare "$lb/ref_tour_final.json" "$lb/direct.json" >"$lb/compare_direct.md" 2>&1
lb_rc_cd=$?
"$J" compare "$lb/ref_gemm.json" "$lb/pairs.json" >"$lb/compare_pairs.md" 2>&1
lb_rc_cp=$?
for f in compare_direct compare_pairs; do
  echo "$f: $(grep -h '^Summary' "$lb/$f.md")"
  grep -E '\| (SLOWER|FASTER|FAILED|DIFFERENT)' "$lb/$f.md" | head -n 20
done

step "labc: summary"
echo "| part | result |"
echo "|---|---|"
echo "| abc471g ladder --sweep (labc/direct.md) | exit $lb_rc_direct (want 0) |"
echo "| abc471g scale ladder (labc/pairs.md) | exit $lb_rc_pairs (want 0) |"
echo "| GPU tests Abc471gGpu* (labc/gpu_tests.log) | exit $lb_rc_tests (want 0) |"
echo "| compare tour-final -> direct | exit $lb_rc_cd; $(grep -h '^Summary' "$lb/compare_direct.md") |"
echo "| compare gemm ladder_max -> pairs | exit $lb_rc_cp; $(grep -h '^Summary' "$lb/compare_pairs.md") |"
echo
awk '/^## ABC471G direct ladder/{p=1} /^Sweep /{p=0} p' "$lb/direct.md"
awk '/^## gpu-pairs ladder/{p=1} /^Sweep /{p=0} p' "$lb/pairs.md" | head -n 30
