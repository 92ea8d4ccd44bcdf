# Device step abc471g_gpu (sourced by scripts/device/session.sh on the GPU host, from the repo root):
# the ABC471G direct ladder on the GPU. Budget: 4 minutes (expected ~1.5).
#   1. the ladder on the max case: validation suite, the sweeps (g02's and g08's choices are their
#      rows' geometry), every rung, the four scopes
#      -> $W/abc471g_ladder.json (records), abc471g_ladder.md (tables), abc471g_ladder.err (progress)
#   2. the GPU tests of the ladder (every rung on every test vector, edge cases, random vs brute)
#      and the GPU CLI tests (tests/cli/test_abc471g_gpu.py: the quick tour step, --validate-only)
#   3. compute-sanitizer memcheck and racecheck on the validation of a small case (all rungs, every
#      validation configuration)
#   4. `joseki compare` of the ladder's records with the last full H200 tour (SAME expected per rung)
# ABC_SKIP_LADDER=1 skips part 1 (when the full tour runs it in the same call).
# Each part has its own time limit and is skipped (said so) when the step's budget is spent; one
# failing part does not stop the others. Full logs in $W; a summary table at the end.
export JOSEKI_TESTDATA=$PWD/.device/testdata/abc471g
abc_t0=$(date +%s)
abc_left() { echo $(( 235 - ($(date +%s) - abc_t0) )); }
abc_rc_ladder=- abc_rc_tests=- abc_rc_cli=- abc_rc_mem=- abc_rc_race=-

if [[ -n ${ABC_SKIP_LADDER:-} ]]; then
  echo "abc471g_gpu: ladder skipped (ABC_SKIP_LADDER: the full tour's abc471g-gpu step runs it)"
else
step "abc471g_gpu: the ladder on the max case (all rungs, sweeps, four scopes)"
timeout 150 "$J" --json "$W/abc471g_ladder.json" abc471g ladder --sweep \
  > "$W/abc471g_ladder.md" 2> "$W/abc471g_ladder.err"
abc_rc_ladder=$?
tail -3 "$W/abc471g_ladder.err"
echo "[exit $abc_rc_ladder]"
fi

step "abc471g_gpu: GPU tests (Abc471gGpu*)"
if (( $(abc_left) > 30 )); then
  timeout $(( $(abc_left) < 60 ? $(abc_left) : 60 )) "$B/joseki_gpu_tests" --gtest_filter='Abc471gGpu*' \
    --gtest_brief=1 > "$W/abc471g_gpu_tests.log" 2>&1
  abc_rc_tests=$?
  tail -6 "$W/abc471g_gpu_tests.log"
  echo "[exit $abc_rc_tests]"
else
  echo "skipped: step budget spent"
fi

step "abc471g_gpu: GPU CLI tests (tests/cli/test_abc471g_gpu.py)"
if (( $(abc_left) > 40 )); then
  timeout 60 python3 tests/cli/test_abc471g_gpu.py "$J" > "$W/abc471g_gpu_cli.log" 2>&1
  abc_rc_cli=$?
  tail -3 "$W/abc471g_gpu_cli.log"
  echo "[exit $abc_rc_cli]"
else
  echo "skipped: step budget spent"
fi

step "abc471g_gpu: compute-sanitizer memcheck, validation of the small case (all rungs)"
if (( $(abc_left) > 20 )); then
  timeout $(( $(abc_left) < 60 ? $(abc_left) : 60 )) $SAN --tool memcheck --error-exitcode 9 \
    "$J" -q abc471g ladder --validate-only --case small > "$W/abc471g_memcheck.log" 2>&1
  abc_rc_mem=$?
  tail -4 "$W/abc471g_memcheck.log"
  echo "[exit $abc_rc_mem]"
else
  echo "skipped: step budget spent"
fi

step "abc471g_gpu: compute-sanitizer racecheck, validation of the small case (all rungs)"
if (( $(abc_left) > 20 )); then
  timeout $(abc_left) $SAN --tool racecheck --racecheck-report hazard --error-exitcode 9 \
    "$J" -q abc471g ladder --validate-only --case small > "$W/abc471g_racecheck.log" 2>&1
  abc_rc_race=$?
  tail -4 "$W/abc471g_racecheck.log"
  echo "[exit $abc_rc_race]"
else
  echo "skipped: step budget spent"
fi

step "abc471g_gpu: compare the ladder with the last full H200 tour (results/h200/2026-11-30-tour-final)"
abc_rc_cmp=-
if [[ -s $W/abc471g_ladder.json ]] && gunzip -c results/h200/2026-11-30-tour-final/records.json.gz > "$W/abc471g_ref_tour_final.json" 2>/dev/null; then
  "$J" compare "$W/abc471g_ref_tour_final.json" "$W/abc471g_ladder.json" > "$W/abc471g_compare.md" 2>&1
  abc_rc_cmp=$?
  grep -E "abc471g" "$W/abc471g_compare.md" | grep -E "GPU_COMPUTE" | head -60
  echo "[exit $abc_rc_cmp]"
else
  echo "skipped: no ladder records or no tour-final records"
fi

step "abc471g_gpu: summary ($(( $(date +%s) - abc_t0 )) s)"
echo "| part | exit (124: timed out) |"
echo "|---|---|"
echo "| ladder --sweep (abc471g_ladder.md, .json, .err) | $abc_rc_ladder |"
echo "| GPU tests (abc471g_gpu_tests.log) | $abc_rc_tests |"
echo "| GPU CLI tests (abc471g_gpu_cli.log) | $abc_rc_cli |"
echo "| memcheck (abc471g_memcheck.log) | $abc_rc_mem |"
echo "| racecheck (abc471g_racecheck.log) | $abc_rc_race |"
echo "| compare vs tour-final (abc471g_compare.md) | ${abc_rc_cmp:--} |"
echo
grep -h "^## ABC471G on the GPU: validation" "$W/abc471g_ladder.md" || true
awk '/^## ABC471G direct ladder/{p=1} /^(## )?(Sweep|## Four scopes)/{p=0} p' "$W/abc471g_ladder.md"
grep -h -E "^(## )?Sweep|\*\*chosen\*\*|\| yes +\|$|^Tie rule" "$W/abc471g_ladder.md" || true
awk '/^## Four scopes/{p=1} p' "$W/abc471g_ladder.md"
