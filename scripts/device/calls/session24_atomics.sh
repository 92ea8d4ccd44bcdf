#!/usr/bin/env bash
# Session 24 (written without a device; for the next session that is lent one): the same-address atomics across the
# two APIs on the one H200. Carry .device (the staged binaries) and .gl (the Vulkan loader .debs, as for the step
# `vulkan`).
#   1. GPU tests: every reduce rung exact at edge sizes and offsets (r01c, new, among them), the Vulkan ladder and
#      probes (the lone-atomic probe, new, among them); stop if any fails
#   2. compute-sanitizer memcheck, racecheck and synccheck (the warp intrinsics) of r01c (validation only, small sizes)
#   3. r01, r01b, r01c at 2^20, 2^24, 2^28 cold, three processes (r01c's prediction: r01's time within ~10 %)
#   4. the Vulkan probes at 2^24, three processes (the lone atomic's prediction: ~0.75-0.8 ns, and v2's model
#      ~100 us against 95.30 us measured in device call 1 of 2026-12-01)
#   5. the README row "the same ladder through a second API" in three processes each: the Vulkan ladder and CUDA's
#      bandwidth rungs at 2^28 cold (best Vulkan rung against best CUDA rung; device call 1 of 2026-12-01: 95.3 %,
#      one run)
#   6. joseki rankings: H200 Vulkan (these probes, a 2^24 cold Vulkan ladder) against H200 CUDA (3.'s records)
source scripts/device/calls/lib.sh
source scripts/device/parts.sh
if ls .gl/*.deb >/dev/null 2>&1; then for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig; fi
vulkan_driver
"$J" vulkan devices > "$W/vk_devices.txt" 2>&1; head -3 "$W/vk_devices.txt" | cut -c1-200
timeout 300 "$B/joseki_gpu_tests" --gtest_filter='ReduceGpu.*:Vulkan*' --gtest_brief=1 > "$W/gpu_tests.log" 2>&1
rc=$?; tail -3 "$W/gpu_tests.log"; grep -E "Failure|Expected|Which is|SKIPPED" "$W/gpu_tests.log" | head -20
if [[ $rc != 0 ]]; then echo "GPU tests failed (rc $rc)"; exit 1; fi
stamp
for tool in memcheck racecheck synccheck; do
  timeout 120 $SAN --tool $tool --log-file "$W/san_${tool}_r01c.log" "$J" reduce --rungs r01c --validate-only \
    > "$W/san_${tool}_r01c.out" 2>&1
  echo "== $tool r01c rc $?"; grep -E "ERROR SUMMARY|RACECHECK SUMMARY|exact|wrong" "$W/san_${tool}_r01c.log" "$W/san_${tool}_r01c.out" | head -5
done
stamp
for i in 1 2 3; do
  for n in 2^20 2^24 2^28; do
    t=${n/^/p}
    timeout 90 "$J" --json "$W/cuda_${t}_$i.json" reduce --n $n --rungs r01,r01b,r01c --max-samples 30 --timeout 1 \
      > "$W/cuda_${t}_$i.md" 2>&1
    echo "== cuda $n ($i) rc $?"; grep -E '^\| r01' "$W/cuda_${t}_$i.md" | cut -c1-160
  done
done
stamp
for i in 1 2 3; do
  timeout 120 "$J" --json "$W/vk_probes_$i.json" vulkan probes --n 2^24 --max-samples 100 --timeout 0.5 \
    > "$W/vk_probes_$i.md" 2>&1
  echo "== vulkan probes ($i) rc $?"; grep -E 'atomic|predicted_v2|ranking|verdict' "$W/vk_probes_$i.md" | cut -c1-200
done
timeout 60 "$J" --json "$W/vulkan_2p24_cold.json" reduce --backend vulkan --n 2^24 --max-samples 100 --timeout 0.5 \
  > "$W/vulkan_2p24_cold.md" 2>&1
echo "== vulkan 2^24 rc $?"
for i in 1 2 3; do
  timeout 60 "$J" --json "$W/vulkan_2p28_$i.json" reduce --backend vulkan --n 2^28 --max-samples 100 --timeout 0.5 \
    > "$W/vulkan_2p28_$i.md" 2>&1
  echo "== vulkan 2^28 ($i) rc $?"; grep -E '^\| (\(ceiling\)|vk_v5|vk_v6)' "$W/vulkan_2p28_$i.md" | cut -c1-160
  timeout 60 "$J" --json "$W/cuda_bw_2p28_$i.json" reduce --n 2^28 --rungs r05,r06,r07,r08,r09,r10,r11 \
    --max-samples 100 --timeout 0.5 > "$W/cuda_bw_2p28_$i.md" 2>&1
  echo "== cuda 2^28 ($i) rc $?"; grep -E '^\| (\(ceiling\)|r10|r05)' "$W/cuda_bw_2p28_$i.md" | cut -c1-160
done
stamp
mkdir -p "$W/sets/h200_vulkan" "$W/sets/h200_cuda"
cp "$W/vk_probes_1.json" "$W/vulkan_2p24_cold.json" "$W/sets/h200_vulkan/"; cp "$W/cuda_2p24_1.json" "$W/sets/h200_cuda/"
"$J" rankings --no-seed "$W/sets/h200_vulkan" "$W/sets/h200_cuda" --n 2^24 > "$W/rankings_2p24.md" 2>&1
grep -E 'opaque|lone|rule' "$W/rankings_2p24.md" | cut -c1-220
stamp
