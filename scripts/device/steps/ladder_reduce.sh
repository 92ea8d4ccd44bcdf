# Device step `ladder_reduce` (issue 14, branch lreduce; sourced by scripts/device/session.sh on the GPU
# host; budget about 3 minutes: GPU tests ~60 s, memcheck ~30 s, CUDA and Vulkan ladders ~50 s, try ~20 s,
# compares a few seconds). Uses $B $J $W $SAN, step/run from session.sh and part/part_table/vulkan_driver
# from scripts/device/parts.sh. Each part has a time limit.
# The CUDA and Vulkan reduce ladders now run through measure::run_ladder (CudaRunner, VkRunner). What must
# hold on the H200 (ladder_check.sh compares the tour's reduce ladder with tour-final; this step checks
# what it does not):
#   1. the GPU tests of both ladders: every rung exact at edge sizes and offsets, every sweep point exact
#      with one tie-rule choice per swept rung, stateful rungs (r06, r09, r10, r11) exact over odd and even
#      launch counts, ratios / ceiling / datasheet on the timed ladder, environment on the records; the
#      Vulkan ladder exact and timed (ReduceGpu.*, VulkanLadder.*);
#   2. compute-sanitizer memcheck over every CUDA rung (validate-only, sizes 1, 255, 2^20+3, offsets 0 and 3);
#   3. the CUDA ladder r00..r06 at 2^24 cold with the sweep and the Vulkan ladder at 2^24 cold with the
#      sweep, as scripts/device/steps/vulkan.sh ran them in device call 1, compared with those records
#      (results/h200/2026-12-01-device-call-1/{cuda,vk_sets/h200_vulkan/vulkan}_2p24_cold.json.gz);
#   4. `joseki try examples/try/reduce/good.cu --ladder reduce` (the user's kernel as one more rung).
# Expected: every part exit 0 (compare exits 3 on a regression beyond 5 %: read the rows), GPU tests all
# pass, memcheck "ERROR SUMMARY: 0 errors", compare SAME for every ladder row present in both (sweep points
# may differ by noise; skipped points now carry all their axes, so a few keys are "only in" one side).

lr_dir="$W/ladder_reduce"
mkdir -p "$lr_dir"
source scripts/device/parts.sh
lr_ref=results/h200/2026-12-01-device-call-1
vulkan_driver
LR_VKDEV=$("$J" vulkan devices 2>/dev/null | grep -m1 -E '^device [0-9]+: .*NVIDIA' | sed -E 's/^device ([0-9]+):.*/\1/')
LR_VKDEV=${LR_VKDEV:-0}

step "ladder_reduce: GPU tests of the CUDA and Vulkan reduce ladders"
part gpu_tests 100 "$lr_dir/gpu_tests.log" "$B/joseki_gpu_tests" --gtest_filter='ReduceGpu.*:VulkanLadder.*' \
  --gtest_brief=1
tail -n 5 "$lr_dir/gpu_tests.log"

step "ladder_reduce: memcheck over every CUDA rung (validate-only)"
part memcheck 70 "$lr_dir/memcheck.log" "$SAN" --tool memcheck --error-exitcode 9 "$J" reduce --validate-only \
  --n 1,255,1048579 --offset 0,3
grep -E 'ERROR SUMMARY|failed' "$lr_dir/memcheck.log" | tail -n 3

step "ladder_reduce: the CUDA and Vulkan ladders at 2^24 cold, compared with device call 1"
part cuda_2p24 25 "$lr_dir/cuda_2p24_cold.md" "$J" --json "$lr_dir/cuda_2p24_cold.json" reduce --backend cuda \
  --n 2^24 --sweep --rungs r00,r01,r02,r03,r04,r05,r06 --max-samples 100 --min-time 0.01 --timeout 0.5
part vulkan_2p24 30 "$lr_dir/vulkan_2p24_cold.md" "$J" --device "$LR_VKDEV" --json "$lr_dir/vulkan_2p24_cold.json" \
  reduce --backend vulkan --n 2^24 --sweep --max-samples 100 --min-time 0.01 --timeout 0.5
for b in cuda vulkan; do
  ref=$lr_ref/${b}_2p24_cold.json.gz
  [[ $b == vulkan ]] && ref=$lr_ref/vk_sets/h200_vulkan/vulkan_2p24_cold.json.gz
  if [[ -f $ref ]]; then
    gunzip -c "$ref" >"$lr_dir/ref_${b}.json"
    part "compare_$b" 20 "$lr_dir/compare_${b}.md" "$J" compare "$lr_dir/ref_${b}.json" "$lr_dir/${b}_2p24_cold.json"
    grep -E '^Summary' "$lr_dir/compare_${b}.md"
  else
    echo "no reference $ref"
  fi
done

step "ladder_reduce: joseki try (a user's kernel as one more rung)"
part try_good 60 "$lr_dir/try_good.md" "$J" --json "$lr_dir/try_good.json" try examples/try/reduce/good.cu \
  --ladder reduce --no-ncu
grep -E 'try_good|status|exact|wrong' "$lr_dir/try_good.md" | head -n 8

step "ladder_reduce: summary"
python3 - "$lr_dir" <<'EOF'
import json, re, sys
d = sys.argv[1]
print("| ladder row (2^24 cold) | compare status | config |")
print("|---|---|---|")
for b in ("cuda", "vulkan"):
    try:
        text = open(f"{d}/compare_{b}.md").read()
        recs = json.load(open(f"{d}/{b}_2p24_cold.json"))
    except (OSError, ValueError) as e:
        print(f"| {b} | unavailable ({e.__class__.__name__}) | |")
        continue
    recs = recs["records"] if isinstance(recs, dict) else recs
    for r in recs:
        if (r.get("ladder") or {}).get("sweep") or r.get("rung", -1) < 0 or r.get("skipped"):
            continue
        status = "not in the compare"
        axes = " ".join(f"{k}={v}" for k, v in sorted(r["axes"].items()))
        for line in text.splitlines():
            cells = [c.strip() for c in line.split("|")]
            if len(cells) > 6 and cells[2] == r["variant"] and cells[3] == axes and cells[5] == r["mode"]:
                status = f"{cells[-2]} ({cells[8]})"
        print(f"| {b} {r['variant']} {r['mode']} offset={r['axes'].get('offset')} | {status} | {(r.get('extra') or {}).get('config', '')} {r.get('validation')} |")
EOF
part_table part
