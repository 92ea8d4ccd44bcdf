# abc471g_multi: gpu-pairs on several GPUs of one host (issue 6, item 5), for the 2-GPU machine.
# Sourced by scripts/device/session.sh from the repo root ($B $J $W $SAN, step, run).
# Budget: about 4 minutes. NVLink multicast stays off (NCCL_NVLS_ENABLE=0, also set by the code
# before any communicator exists). Records and logs go to $W/abc471g_multi/; a summary ends it.
AM=$W/abc471g_multi
mkdir -p "$AM"
export NCCL_NVLS_ENABLE=0
AM_SUMMARY=()
AM_T0=$SECONDS
AM_BUDGET=${AM_BUDGET:-250}  # seconds for the whole step: later parts are skipped once it is spent
am_part() {  # am_part NAME LIMIT_S CMD...
  local name=$1 limit=$2 t0=$SECONDS rc
  shift 2
  if (( SECONDS - AM_T0 >= AM_BUDGET )); then
    echo "--- $name: skipped (step budget of ${AM_BUDGET} s spent)"
    AM_SUMMARY+=("$name|skipped|0")
    return
  fi
  (( limit > AM_BUDGET - (SECONDS - AM_T0) + 30 )) && limit=$(( AM_BUDGET - (SECONDS - AM_T0) + 30 ))
  echo "--- $name (limit ${limit}s): $*"
  timeout --kill-after=10 "$limit" "$@" > "$AM/$name.log" 2>&1
  rc=$?
  tail -n 12 "$AM/$name.log"
  echo "[$name: exit $rc, $((SECONDS - t0)) s]"
  AM_SUMMARY+=("$name|$rc|$((SECONDS - t0))")
}

step "abc471g_multi: the GPUs and their links"
nvidia-smi topo -m 2>&1 | tee "$AM/topo.txt" | head -12
nvidia-smi --query-gpu=index,name,pci.bus_id,clocks.sm,memory.used --format=csv 2>&1 | tee "$AM/gpus.csv"

step "abc471g_multi: 1 GPU vs 2 GPUs at N = 10^10 (the goal: >= 1.8x, identical answers)"
am_part multi_1e10 60 "$J" --json "$AM/multi_1e10.json" abc471g scale multi --n 1e10

step "abc471g_multi: GPU tests (the split on one GPU, NCCL and peer copies across GPUs)"
am_part gpu_tests 120 "$B/joseki_gpu_tests" --gtest_filter='Abc471gPairsGpu.*Multi*:Abc471gPairsGpu.SmallSharedVectors' --gtest_brief=1

step "abc471g_multi: 1 GPU vs 2 GPUs at N = 10^9 (answers cross-checked with a CPU solver)"
am_part multi_1e9 60 "$J" --json "$AM/multi_1e9.json" abc471g scale multi --n 1e9

step "abc471g_multi: the gpu-multi solver through the CLI, against gpu-pairs on one GPU"
am_part cli_1e10 60 bash -c "
  '$J' abc471g gen --n 10000000000 --k 2300 --m 100000 --seed 10 -o '$AM/n1e10.in' &&
  '$J' abc471g solve --solver gpu-multi --explain '$AM/n1e10.in' > '$AM/n1e10.multi.out' &&
  '$J' abc471g solve --solver gpu-pairs '$AM/n1e10.in' > '$AM/n1e10.one.out' &&
  cmp '$AM/n1e10.multi.out' '$AM/n1e10.one.out' && echo 'N = 10^10: gpu-multi and gpu-pairs identical'"

step "abc471g_multi: compute-sanitizer memcheck on the split (small)"
# --report-api-errors no: NCCL makes CUDA API calls that fail by design and handles them (peer access
# already enabled, no kernel image for its probes): 313 such reports, no memory error (2026-11-30).
am_part memcheck 90 $SAN --tool memcheck --report-api-errors no --error-exitcode 9 "$B/joseki_gpu_tests" \
  --gtest_filter='Abc471gPairsGpu.SmallMultiRanksAgree' --gtest_brief=1

step "abc471g_multi: summary"
python3 - "$AM" "${AM_SUMMARY[@]}" <<'PY' 2>&1 | tee "$AM/summary.txt"
import json, os, sys
d = sys.argv[1]
print("| part | exit | s |\n|---|---|---|")
for p in sys.argv[2:]:
    n, rc, s = p.split("|"); print(f"| {n} | {rc} | {s} |")
print("\n| N | configuration | GPU_COMPUTE | x one GPU | validation | reduction |\n|---|---|---|---|---|---|")
for f in ("multi_1e9.json", "multi_1e10.json"):
    try:
        rs = json.load(open(os.path.join(d, f)))["records"]
    except Exception as e:
        print(f"| {f} | no records ({e}) | | | | |"); continue
    for r in rs:
        m = r["summary"]["median"] * 1e3 if r.get("summary") else None
        x = r.get("extra", {})
        xo = x.get("x_one_gpu")
        xs = f"{xo:.2f}" if isinstance(xo, (int, float)) else ""
        ms = "-" if m is None else f"{m:.3f} ms"
        print(f"| {r['axes'].get('n'):.0e} | {r['variant']} | {ms} | {xs} | "
              f"{r['validation']} | {x.get('reduction', '')} |")
print("\ngoal: N = 10^10 on 2 GPUs >= 1.8x one GPU, identical answers")
PY
