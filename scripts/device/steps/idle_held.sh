# idle_held: EXTERNAL as a user's shell sees it, idle vs held (issue 17, item 1). The launcher,
# scripts/device/idle_held.py, is a Python process that never loads libcuda; "held" runs while a helper
# process (idle_held.py --hold) keeps a CUDA context on GPU 0, as joseki's own parent does today when it
# measures EXTERNAL after creating its context. 5 runs per case and state, posix_spawn .. waitpid.
# Cases: context only (scale child --phase context), joseki check, gpu-direct / gpu-pairs / cpu-direct
# solves of the max case and of N = 10^9, auto at N = 10^9.
# Records: $W/idle_held/idle_held.json (experiment external.device_state, axes.device_state idle|held,
# extra.nvml: persistence mode and the number of compute processes NVML saw in each state).
# Budget: about 1.5 minutes (16 cases x 2 states x 5 runs, ~0.2-0.4 s each, plus the 10^9 inputs).
# Expected: idle - held ≈ +100..130 ms for every CUDA case (issue 17 saw gpu-pairs 287-317 ms idle vs
# 176-203 ms held), ≈ 0 for cpu-direct; if so, every program time in README/docs must quote idle.
# Sourced by scripts/device/session.sh from the repo root ($B $J $W, step, run).
IH=$W/idle_held
mkdir -p "$IH"
step "idle_held: inputs and facts"
run timeout 30 "$J" abc471g gen -o "$IH/max.in"
run timeout 30 "$J" abc471g gen --n 1000000000 -o "$IH/n1e9.in"
run timeout 30 "$J" --quiet --json "$IH/facts.json" check > /dev/null
nvidia-smi --query-gpu=persistence_mode,clocks.sm,clocks.mem,power.draw,temperature.gpu --format=csv | tee "$IH/nvidia-smi.csv"
nvidia-smi --query-compute-apps=pid,process_name,used_memory --format=csv | tee -a "$IH/nvidia-smi.csv"
step "idle_held: 5 runs per case, idle then held"
run timeout 170 python3 scripts/device/idle_held.py --joseki "$J" --facts "$IH/facts.json" --out "$IH/idle_held.json" --runs 5 \
  "context-only=J abc471g scale child --phase context" \
  "check=J check --quiet" \
  "gpu-direct-max=J abc471g solve --solver gpu-direct <$IH/max.in" \
  "gpu-pairs-max=J abc471g solve --solver gpu-pairs <$IH/max.in" \
  "cpu-direct-max=J abc471g solve --solver cpu-direct <$IH/max.in" \
  "gpu-direct-1e9=J abc471g solve --solver gpu-direct <$IH/n1e9.in" \
  "gpu-pairs-1e9=J abc471g solve --solver gpu-pairs <$IH/n1e9.in" \
  "cpu-direct-1e9=J abc471g solve --solver cpu-direct <$IH/n1e9.in" \
  "auto-1e9=J abc471g solve --solver auto <$IH/n1e9.in" 2>&1 | tee "$IH/summary.md"
rm -f "$IH/max.in" "$IH/n1e9.in"
