# auto_states: `--solver auto` in both device states (issue 17, item 2). First `abc471g calibrate`
# writes a cost file of its own ($W/auto_states/costs.json, schema /2, no fit points since truth3: the
# file every auto run parses): the GPU's fixed cost idle (children spawned before the calibrating
# process touches CUDA) and held (while it holds a context).
# Then scripts/device/auto_states.py (a Python launcher that never loads libcuda; held = idle_held.py's
# helper holds a context) times cpu-direct, cpu-pairs, gpu-pairs, gpu-direct and auto at
# N = 10^3 .. 10^9 (K = 2300), idle then held: per N one --explain run of auto (its choice, the state it
# found or why it asked nothing, its own decision time), a pilot run of each (a candidate over 3x the
# best pilot stops there), then auto and the remaining candidates INTERLEAVED run by run (order rotated
# each round): 61 rounds where processes are under 20 ms (session7: at 10^3 the runs fall into a fast and a
# slow group ~1 ms apart, so a median of 21 lands in either), 21 under 100 ms, 9 above. Verdict on medians,
# spread printed; a third table compares the fast and the slow half (wait4's CPU time, faults, switches).
# Records: $W/auto_states/calibrate.json (VALUE records calibration.gpu_fixed_external.{idle,held}),
# $W/auto_states/auto_states.json (EXTERNAL per state/N/solver; auto.verdict per state with the
# crossover N in extra.crossover_n and every row in extra.per_n).
# Budget: about 2.5 minutes, at most 3.5 (calibrate ~5 s on the H200 host in the last call; the sweep
# per state ~6 s for N <= 10^7, ~5 s at 10^8, ~20 s at 10^9 (9 rounds of ~2 s); two states ~65 s).
# Expected: calibrate "GPU fixed costs ... idle ~300-330 ms (calibrated) / held ~180-200 ms
# (calibrated)"; the table's "auto chose (state found)": "GPU not asked" up to ~10^7 (the best CPU
# estimate is below the GPU's smallest fixed cost: nothing GPU-related is touched), "idle, not asked"
# where both states choose the same, "held, NVML" only where the state decides; "auto's decision" is
# the auto phase: the decision made from the header before the parse (~0.1 ms); auto / best near 1.00
# at every N with the paired ratio beside it (final-b, blocked runs: 1.11 at 10^4 and 10^6 idle,
# 1.10-1.26 held; truth3 call 1, interleaved, decision on a second thread: 1.23 at 10^4 idle, else
# 0.96-1.02; held 1.11 at 10^6); "idle: ... within 10 % ... yes" is issue 17's criterion; crossover N
# between 10^8 and 10^9 in both states. A second table splits auto - best into pre-main, PROGRAM
# (parse, auto's decision) and post-main (medians of each run's JOSEKI_SCOPE_REPORT).
# Sourced by scripts/device/session.sh from the repo root ($B $J $W, step, run).
AS=$W/auto_states
mkdir -p "$AS"
export JOSEKI_COSTS=$AS/costs.json
step "auto_states: calibrate both device states (cost file $JOSEKI_COSTS)"
run timeout 150 "$J" --json "$AS/calibrate.json" abc471g calibrate 2>&1 | tail -14
run timeout 30 "$J" --quiet --json "$AS/facts.json" check > /dev/null
step "auto_states: auto vs every candidate interleaved, N = 1e3 .. 1e9, idle then held"
run timeout 200 python3 scripts/device/auto_states.py --joseki "$J" --facts "$AS/facts.json" --out "$AS/auto_states.json" \
  --runs-tiny 61 --runs-short 21 --runs-long 9 2>&1 | tee "$AS/summary.md"
unset JOSEKI_COSTS
