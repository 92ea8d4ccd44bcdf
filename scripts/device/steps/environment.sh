# environment: NVML in the records (issue 17, item 3). The GPU tests of it, then a short reduce run
# whose records must carry an `environment` object (clocks, power, temperature, throttle reasons
# before and after each timed block; flagged samples) and device.nvml (persistence / ECC mode, power
# limit, other compute processes). Budget: about 40 s.
# Expected: tests pass (or skip naming a missing libnvidia-ml.so.1); the table shows SM clock ~1980 MHz
# before and after, no flags on an idle machine; persistence_mode 1 on the lab's host.
# Sourced by scripts/device/session.sh from the repo root ($B $J $W, step, run).
EV=$W/environment
mkdir -p "$EV"
step "environment: GPU tests (NVML facts, environment in reduce records)"
run timeout 120 "$B/joseki_gpu_tests" --gtest_filter='GpuDevice.Nvml*:ReduceGpu.TimedRecordsCarryTheirEnvironment' \
  --gtest_brief=1 2>&1 | tee "$EV/gpu_tests.log" | tail -6
step "environment: reduce 2^24 cold and hot, r00 r05 r10"
run timeout 90 "$J" --quiet --json "$EV/reduce.json" reduce --n 2^24 --mode both --rungs r00,r05,r10 > "$EV/reduce.log" 2>&1
python3 - "$EV/reduce.json" <<'PY' | tee "$EV/summary.md"
import json, sys
recs = json.load(open(sys.argv[1]))["records"]
print("| variant | mode | samples | SM MHz before/after | power W before/after | temp C | throttle after | flagged samples |")
print("|---|---|---|---|---|---|---|---|")
for r in recs:
    e = r.get("environment")
    if not e:
        continue
    b, a = e.get("before") or {}, e.get("after") or {}
    print(f"| {r['variant']} | {r['mode']} | {len(r['samples'])} | {b.get('sm_clock_mhz')}/{a.get('sm_clock_mhz')} | "
          f"{b.get('power_w', -1):.0f}/{a.get('power_w', -1):.0f} | {b.get('temperature_c')}/{a.get('temperature_c')} | "
          f"{','.join(a.get('throttle_reasons', [])) or '-'} | {len(e['flagged_samples'])} ({e['source']}) |")
nv = (recs[0].get("device") or {}).get("nvml")
print("device.nvml:", json.dumps(nv))
PY
