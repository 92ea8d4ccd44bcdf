# Device step `tour` (sourced by scripts/device/session.sh on the GPU host; budget about 3 minutes).
# Uses $B $J $W $SAN and the functions step/run from session.sh. Each part runs whatever the others did.
#   1. joseki run --quick, timed (goal: under 60 s), records + report into $W/tour_quick
#   2. joseki report on that folder again (the standalone command; says whether matplotlib is there)
#   3. compare on the GPU: r04_warp_shuffle slowed 3x must be SLOWER (exit 3); an unchanged re-run SAME
#   4. the compare CLI tests (fixtures + the CPU end-to-end case)
# The full tour instead (goal under 15 minutes; one device command may last 10 minutes at most, so a
# tour that needs longer is split with JOSEKI_TOUR_ONLY over two calls and merged here afterwards with
# `joseki report run1/records.json run2/records.json --out DIR`):
#   JOSEKI_TOUR_FULL=1 [JOSEKI_TOUR_ONLY=check,device,reduce] bash scripts/device/session.sh tour

if [[ -n ${JOSEKI_TOUR_FULL:-} ]]; then
  tour_dir="$W/tour_full${JOSEKI_TOUR_ONLY:+_${JOSEKI_TOUR_ONLY//,/_}}"
  step "tour: joseki run (full${JOSEKI_TOUR_ONLY:+, only $JOSEKI_TOUR_ONLY})"
  tour_t0=$(date +%s.%N)
  timeout 570 "$J" run --progress lines --out "$tour_dir" ${JOSEKI_TOUR_ONLY:+--only "$JOSEKI_TOUR_ONLY"} \
    >"$tour_dir.stdout" 2>"$tour_dir.stderr"
  tour_rc=$?
  tour_secs=$(awk -v a="$tour_t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
  grep -E '^\[[0-9]+/[0-9]+\] ' "$tour_dir.stderr" | tail -n 30
  sed -n '/^## Summary/,$p' "$tour_dir.stdout" | head -n 60
  echo "| joseki run (full) | exit $tour_rc, $tour_secs s (goal < 900 s) |"
  return 0
fi

tour_dir="$W/tour_quick"
tour_rc=na tour_secs=na report_rc=na slow_rc=na same_rc=na ctest_rc=na

step "tour: joseki run --quick (goal < 60 s)"
tour_t0=$(date +%s.%N)
timeout 170 "$J" run --quick --progress lines --out "$tour_dir" >"$W/tour_quick.stdout" 2>"$W/tour_quick.stderr"
tour_rc=$?
tour_secs=$(awk -v a="$tour_t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
echo "joseki run --quick: exit $tour_rc in $tour_secs s"
grep -E '^\[[0-9]+/[0-9]+\] .*\((elapsed|[0-9.]+ s\))' "$W/tour_quick.stderr" | tail -n 24
tail -n 3 "$W/tour_quick.stderr"

step "tour: joseki report"
run "$J" report "$tour_dir" 2>&1 | tail -n 4
report_rc=${PIPESTATUS[0]}
ls -la "$tour_dir" "$tour_dir/report-plots" 2>/dev/null | head -n 40
du -sh "$tour_dir"

step "tour: compare a slowed GPU rung (JOSEKI_SLOW_VARIANT=r04_warp_shuffle:3)"
tour_args=(reduce --rungs r00_cub,r04_warp_shuffle --n 16777216 --mode cold)
"$J" --quiet --json "$W/cmp_a.json" "${tour_args[@]}" >"$W/cmp_a.log" 2>&1 || echo "reduce run A failed: $(tail -n 2 "$W/cmp_a.log")"
JOSEKI_SLOW_VARIANT=r04_warp_shuffle:3 "$J" --quiet --json "$W/cmp_b.json" "${tour_args[@]}" >"$W/cmp_b.log" 2>&1 \
  || echo "reduce run B failed: $(tail -n 2 "$W/cmp_b.log")"
"$J" --quiet --json "$W/cmp_c.json" "${tour_args[@]}" >"$W/cmp_c.log" 2>&1 || echo "reduce run C failed: $(tail -n 2 "$W/cmp_c.log")"
"$J" compare "$W/cmp_a.json" "$W/cmp_b.json" >"$W/compare_slowed.md" 2>&1
slow_rc=$?
"$J" compare "$W/cmp_a.json" "$W/cmp_c.json" >"$W/compare_rerun.md" 2>&1
same_rc=$?
echo "slowed run (want exit 3):"; grep -E '^\| reduce|^Summary' "$W/compare_slowed.md"
echo "unchanged re-run (want exit 0, SAME):"; grep -E '^\| reduce|^Summary' "$W/compare_rerun.md"

step "tour: compare CLI tests"
python3 tests/cli/test_compare.py "$J" >"$W/test_compare.log" 2>&1
ctest_rc=$?
tail -n 3 "$W/test_compare.log"

step "tour: summary"
sed -n '/^## Summary/,$p' "$W/tour_quick.stdout" | head -n 45
echo
echo "| tour check | result |"
echo "|---|---|"
echo "| joseki run --quick | exit $tour_rc, $tour_secs s with the report; steps alone: $(grep -o 'done in [0-9.]* s' "$W/tour_quick.stderr" | tail -n 1) (goal < 60 s) |"
echo "| records | $(python3 -c "import json,sys; print(len(json.load(open(sys.argv[1]))['records']))" "$tour_dir/records.json" 2>/dev/null || echo none) in $tour_dir/records.json |"
echo "| report | exit $report_rc; $(ls "$tour_dir"/report-plots/*.png 2>/dev/null | wc -l) plots; report.html $([[ -f $tour_dir/report.html ]] && echo present || echo absent) |"
echo "| compare, r04 slowed 3x | exit $slow_rc (want 3) |"
echo "| compare, unchanged re-run | exit $same_rc (want 0) |"
echo "| tests/cli/test_compare.py | exit $ctest_rc; $(tail -n 1 "$W/test_compare.log") |"
