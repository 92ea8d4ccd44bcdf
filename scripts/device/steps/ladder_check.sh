# Device step `ladder_check` (sourced by scripts/device/session.sh on the GPU host; budget about
# 4 minutes: quick tour ~60 s, reduce ~115 s, abc471g-gpu ~15 s, abc471g-pairs ~10 s, scale ladder
# ~15 s, the compares a few seconds). Uses $B $J $W and step/run from session.sh.
# Issue 14 (one ladder protocol): behaviour must be unchanged. This re-runs
#   1. the quick tour (joseki run --quick), which must still finish with exit 0;
#   2. the three ladders as the full tour runs them (joseki run --only reduce,abc471g-gpu,abc471g-pairs:
#      the reduce ladder with its sweeps, the ABC471G direct ladder g01..g15, the gpu-pairs ladder);
#   3. the gpu-pairs scale ladder at the max case (joseki abc471g scale ladder, with r04's GEMM);
# and compares their records with the last full tour on the H200 (results/h200/2026-11-30-tour-final)
# and the scale ladder with results/h200/2026-11-30-gemm/final/abc471g_gemm/ladder_max.json.gz.
# The result per rung is compare's status (SAME / FASTER / SLOWER / ...); the summary table counts
# them per ladder. Expected: SAME for every rung present in both; SLOWER/FASTER only where noise or
# the tour-to-tour memory-system difference (NOTE.md of the tour: stream read 4.48 vs 4.57 TB/s)
# explains it. Records written by this code are joseki.record/2; the references are /1 (read both).

lc_dir="$W/ladder_check"
mkdir -p "$lc_dir"
lc_ref_tour="$lc_dir/ref_tour_final.json"
lc_ref_gemm="$lc_dir/ref_gemm_ladder_max.json"
gunzip -c results/h200/2026-11-30-tour-final/records.json.gz >"$lc_ref_tour" 2>/dev/null || echo "no tour-final records"
gunzip -c results/h200/2026-11-30-gemm/final/abc471g_gemm/ladder_max.json.gz >"$lc_ref_gemm" 2>/dev/null \
  || echo "no gemm ladder records"
lc_quick_rc=na lc_ladders_rc=na lc_scale_rc=na

step "ladder_check: joseki run --quick"
timeout 120 "$J" run --quick --progress lines --out "$lc_dir/quick" >"$lc_dir/quick.stdout" 2>"$lc_dir/quick.stderr"
lc_quick_rc=$?
tail -n 2 "$lc_dir/quick.stderr"

step "ladder_check: the three ladders as the full tour runs them"
timeout 200 "$J" run --only reduce,abc471g-gpu,abc471g-pairs --progress lines --out "$lc_dir/ladders" \
  >"$lc_dir/ladders.stdout" 2>"$lc_dir/ladders.stderr"
lc_ladders_rc=$?
tail -n 2 "$lc_dir/ladders.stderr"

step "ladder_check: the gpu-pairs scale ladder (max case)"
timeout 90 "$J" --quiet --json "$lc_dir/scale_ladder.json" abc471g scale ladder >"$lc_dir/scale_ladder.md" 2>&1
lc_scale_rc=$?
tail -n 2 "$lc_dir/scale_ladder.md"

step "ladder_check: compare with the H200 references"
lc_compare() {  # A B OUT
  "$J" compare --changed-only "$1" "$2" >"$3" 2>&1
  local rc=$?
  "$J" compare "$1" "$2" >"${3%.md}_all.md" 2>&1
  echo "$rc"
}
lc_rc_tour=$(lc_compare "$lc_ref_tour" "$lc_dir/ladders/records.json" "$lc_dir/compare_tour.md")
lc_rc_quick=$(lc_compare "$lc_ref_tour" "$lc_dir/quick/records.json" "$lc_dir/compare_quick.md")
lc_rc_gemm=$(lc_compare "$lc_ref_gemm" "$lc_dir/scale_ladder.json" "$lc_dir/compare_gemm.md")

# One line per rung of the three ladders: its GPU_COMPUTE / CPU_COMPUTE / EXTERNAL status per axes.
python3 - "$lc_dir" <<'EOF'
import collections, re, sys
d = sys.argv[1]
rows = collections.OrderedDict()
for name, f in (("tour", "compare_tour_all.md"), ("quick", "compare_quick_all.md"), ("gemm", "compare_gemm_all.md")):
    try:
        lines = open(f"{d}/{f}").read().splitlines()
    except OSError:
        print(f"{f}: missing"); continue
    for ln in lines:
        c = [x.strip() for x in ln.strip().strip("|").split("|")]
        if len(c) != 11 or c[0] in ("Experiment", "") or set(c[0]) <= set("-: "):
            continue
        exp, var, axes, scope, mode, a, b, chg, na, nb, st = c
        if exp not in ("reduce", "abc471g"):
            continue
        word = st.split(" ")[0]
        rows.setdefault((name, exp, var), collections.Counter())[word] += 1
    summ = [l for l in lines if l.startswith("Summary:")]
    print(f"{name}: {summ[0] if summ else 'no summary'}")
print()
print("| against | experiment | rung | statuses (count of axes x scope x mode) |")
print("|---|---|---|---|")
for (name, exp, var), c in rows.items():
    print(f"| {name} | {exp} | {var} | " + ", ".join(f"{k} {v}" for k, v in c.most_common()) + " |")
EOF
echo
echo "SLOWER / FASTER / FAILED rows (tour-final vs this run):"
grep -E '\| (SLOWER|FASTER|FAILED|DIFFERENT)' "$lc_dir/compare_tour.md" | head -n 40
grep -E '\| (SLOWER|FASTER|FAILED|DIFFERENT)' "$lc_dir/compare_gemm.md" | head -n 20

step "ladder_check: summary"
echo "| check | result |"
echo "|---|---|"
echo "| joseki run --quick | exit $lc_quick_rc (want 0) |"
echo "| joseki run --only reduce,abc471g-gpu,abc471g-pairs | exit $lc_ladders_rc (want 0) |"
echo "| joseki abc471g scale ladder | exit $lc_scale_rc (want 0) |"
echo "| compare tour-final -> ladders | exit $lc_rc_tour (0: no regression beyond 5%); $(grep -h '^Summary' "$lc_dir/compare_tour.md") |"
echo "| compare tour-final -> quick | exit $lc_rc_quick; $(grep -h '^Summary' "$lc_dir/compare_quick.md") |"
echo "| compare gemm ladder_max -> scale ladder | exit $lc_rc_gemm; $(grep -h '^Summary' "$lc_dir/compare_gemm.md") |"
echo "| schema of the new records | $(python3 -c "import json,sys; print(sorted({r['schema'] for r in json.load(open(sys.argv[1]))['records']}))" "$lc_dir/ladders/records.json" 2>/dev/null) |"
