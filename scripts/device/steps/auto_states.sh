# auto_states: `--solver auto` in both device states (issue 17, item 2). First `abc471g calibrate`
# writes a cost file of its own ($W/auto_states/costs.json, schema /2): the GPU's fixed cost idle
# (children spawned before the calibrating process touches CUDA) and held (while it holds a context).
# Then scripts/device/auto_states.py (a Python launcher that never loads libcuda; held = idle_held.py's
# helper holds a context) times cpu-direct, cpu-pairs, gpu-pairs, gpu-direct and auto at
# N = 10^3 .. 10^9 (K = 2300), 5 runs each, idle then held, and asks auto (--explain) what it chose
# and which state it found.
# Records: $W/auto_states/calibrate.json (VALUE records calibration.gpu_fixed_external.{idle,held}),
# $W/auto_states/auto_states.json (EXTERNAL per state/N/solver; auto.verdict per state with the
# crossover N in extra.crossover_n).
# Budget: about 3 minutes (calibrate ~40-60 s; sweep 2 states x 7 N x 5 solvers x 3 runs).
# Expected: calibrate prints "GPU fixed costs ... idle ~310-330 ms (calibrated) / held ~180-200 ms
# (calibrated)"; the table's "auto chose (state it found)" says idle in the idle rows and held in the
# held rows where the state decides the choice (near the crossover; elsewhere "idle, not asked":
# auto asks NVML only when idle and held would choose differently); "idle: auto's EXTERNAL within 10 % of the best at every N" (call 2, 3 runs: NO at 1e3, 1e4, 1e7 —
# 1.17-1.28 on 3-13 ms processes, while its choice was the best at every N: auto's own overhead of
# ~0.5 ms plus noise); crossover N larger idle than held (issue 17: at
# 10^9 gpu-pairs and cpu-direct tie idle, ≈ 330 ms each; held the GPU wins from ~10^8).
# Sourced by scripts/device/session.sh from the repo root ($B $J $W, step, run).
AS=$W/auto_states
mkdir -p "$AS"
export JOSEKI_COSTS=$AS/costs.json
step "auto_states: calibrate both device states (cost file $JOSEKI_COSTS)"
run timeout 150 "$J" --json "$AS/calibrate.json" abc471g calibrate 2>&1 | tail -14
run timeout 30 "$J" --quiet --json "$AS/facts.json" check > /dev/null
step "auto_states: auto vs every candidate, N = 1e3 .. 1e9, idle then held"
run timeout 200 python3 scripts/device/auto_states.py --joseki "$J" --facts "$AS/facts.json" --out "$AS/auto_states.json" \
  --runs 5 2>&1 | tee "$AS/summary.md"
unset JOSEKI_COSTS
