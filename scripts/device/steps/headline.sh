# headline: README's headline figures measured again, three times, each run in its own processes
# (issue 17, item 4), so the table can quote a median of three independent runs with its spread.
# Per run r1..r3 (records under $W/headline/rN/):
#   reduce.json   joseki reduce at 2^28, 2^24, 2^20, cold: CUB, r01, r01b (the atomic rows), r02, r03,
#                 r05 (the tree row), r07 and r10 swept (the best rungs; HEADLINE_SWEEP=0: default knobs)
#   g15.json      joseki abc471g ladder --rungs g01,g15 --no-scopes (max case, GPU_COMPUTE)
#   pairs.json    joseki abc471g scale ladder (r03, r04 at the max case, GPU_COMPUTE)
#   sizes.json    joseki abc471g scale sizes --n 1e9 --runs 3 (gpu-pairs GPU_COMPUTE and EXTERNAL; this
#                 EXTERNAL is the held figure: the parent holds a context. idle_held.sh measures idle)
# Budget: about 3.5 minutes (reduce ~40 s, ladders ~25 s, sizes ~10 s per run; each command has a timeout).
# Then scripts/headline_summary.py prints median [min..max] per figure over the three runs
# (headline/summary.md): the numbers README's table should quote.
# Sourced by scripts/device/session.sh from the repo root ($B $J $W, step, run).
HL=$W/headline
mkdir -p "$HL"
SW=(--sweep --sweep-rungs r07,r10)
[[ "${HEADLINE_SWEEP:-1}" == 0 ]] && SW=()
for r in 1 2 3; do
  D=$HL/r$r; mkdir -p "$D"
  step "headline run $r of 3: reduce 2^28, 2^24, 2^20 cold"
  run timeout 100 "$J" --quiet --json "$D/reduce.json" reduce --n 2^28,2^24,2^20 --mode cold \
    --rungs r00,r01,r01b,r02,r03,r05,r07,r10 "${SW[@]}" > "$D/reduce.log" 2>&1; tail -3 "$D/reduce.log"
  step "headline run $r of 3: ABC471G g01, g15 (max case)"
  run timeout 40 "$J" --quiet --json "$D/g15.json" abc471g ladder --rungs g01,g15 --no-scopes > "$D/g15.log" 2>&1; tail -3 "$D/g15.log"
  step "headline run $r of 3: gpu-pairs r03, r04 (max case)"
  run timeout 60 "$J" --quiet --json "$D/pairs.json" abc471g scale ladder > "$D/pairs.log" 2>&1; tail -3 "$D/pairs.log"
  step "headline run $r of 3: N = 10^9"
  run timeout 40 "$J" --quiet --json "$D/sizes.json" abc471g scale sizes --n 1e9 --runs 3 > "$D/sizes.log" 2>&1; tail -3 "$D/sizes.log"
done
step "headline: median and spread of the three runs"
python3 scripts/headline_summary.py "$HL"/r1 "$HL"/r2 "$HL"/r3 | tee "$HL/summary.md"
