# Device step `vulkan` (issue 16; sourced by scripts/device/session.sh on the GPU host).
# Budget: at most 4 minutes (the parts' time limits add up to 223 s; expected about 2.5). Uses $B $J $W, step/run from session.sh and part/part_table/vulkan_driver from scripts/device/parts.sh.
# The device call must carry `.gl`: the Vulkan loader (libvulkan1) and libglvnd .debs, which the
# lead prepares; they are unpacked here (the H200 host is another distribution and has no
# loader). joseki itself does not link libvulkan: volk opens libvulkan.so.1 at run time.
#   1. unpack .gl, find the NVIDIA Vulkan driver (VK_DRIVER_FILES if the loader finds none)
#   2. joseki vulkan devices; the Vulkan GPU tests (every rung exact at odd sizes and offsets)
#   3. CUDA and Vulkan reduce ladders side by side: 2^28 cold (both with their sweeps; CUDA all
#      rungs, so "the best CUDA rung" is the tour's), 2^24 cold (CUDA r00..r06), Vulkan also 2^20
#      cold and 2^24 hot -> $W/vulkan_*.json, $W/cuda_*.json (+ .md tables)
#   4. the Vulkan cost probes (2^24) -> $W/vk_probes.json
#   5. the cross-device table: the lavapipe records from the repo (results/dev-2core/*vulkan*)
#      vs H200 Vulkan vs H200 CUDA (joseki rankings), at 2^24 and 2^28 cold
#   6. the goals: best Vulkan rung vs best CUDA rung at 2^28 cold (>= 95 %), Vulkan vs CUDA
#      stream-read ceiling (within 5 %); per rung the Vulkan/CUDA time ratio

source scripts/device/parts.sh

step "vulkan: loader and driver"
if ls .gl/*.deb >/dev/null 2>&1; then
  for f in .gl/*.deb; do dpkg -x "$f" /; done
  ldconfig
else
  echo "no .gl/*.deb carried: the Vulkan loader may be missing (the step then records every rung skipped)"
fi
vulkan_driver
"$J" vulkan devices | tee "$W/vk_devices.txt" | cut -c1-400
VKDEV=$(grep -m1 -E '^device [0-9]+: .*NVIDIA' "$W/vk_devices.txt" | sed -E 's/^device ([0-9]+):.*/\1/')
VKDEV=${VKDEV:-0}
echo "Vulkan device used: $VKDEV"

step "vulkan: GPU tests (Vulkan ladder exact, probes exact)"
part gpu_tests 30 "$W/vk_gpu_tests.log" "$B/joseki_gpu_tests" --gtest_filter='Vulkan*' --gtest_brief=1
tail -n 4 "$W/vk_gpu_tests.log"

step "vulkan: CUDA and Vulkan ladders side by side"
vk_bench() {  # vk_bench TAG LIMIT_S BACKEND ARGS...
  local tag=$1 limit=$2 be=$3
  shift 3
  local dev=0
  [[ $be == vulkan ]] && dev=$VKDEV
  part "${be}_$tag" "$limit" "$W/${be}_$tag.md" "$J" --device "$dev" --json "$W/${be}_$tag.json" reduce \
    --backend "$be" "$@" --max-samples 100 --min-time 0.01 --timeout 0.5
}
vk_bench 2p28_cold 45 vulkan --n 2^28 --sweep
vk_bench 2p28_cold 50 cuda --n 2^28 --sweep
vk_bench 2p24_cold 20 vulkan --n 2^24 --sweep
vk_bench 2p24_cold 15 cuda --n 2^24 --sweep --rungs r00,r01,r02,r03,r04,r05,r06
vk_bench 2p20_cold 12 vulkan --n 2^20 --sweep
vk_bench 2p24_hot 10 vulkan --n 2^24 --mode hot

step "vulkan: cost probes"
part probes 25 "$W/vk_probes.md" "$J" --device "$VKDEV" --json "$W/vk_probes.json" vulkan probes --n 2^24 \
  --sweep --max-samples 100 --timeout 0.5
sed -n '/cost-ratio profile/,$p' "$W/vk_probes.md" | head -30

step "vulkan: across devices (lavapipe from the repo, H200 Vulkan, H200 CUDA)"
mkdir -p "$W/vk_sets/h200_vulkan" "$W/vk_sets/h200_cuda"
cp "$W"/vulkan_*.json "$W/vk_probes.json" "$W/vk_sets/h200_vulkan/" 2>/dev/null
cp "$W"/cuda_*.json "$W/vk_sets/h200_cuda/" 2>/dev/null
LAVA=$(ls -d results/dev-2core/*vulkan* 2>/dev/null | tail -1)
for n in 2^24 2^28; do
  part "rankings_$n" 8 "$W/vk_rankings_${n/^/p}.md" "$J" rankings ${LAVA:+"$LAVA"} "$W/vk_sets/h200_vulkan" \
    "$W/vk_sets/h200_cuda" --n "$n"
  cat "$W/vk_rankings_${n/^/p}.md"
done

step "vulkan: goals"
python3 - "$W" <<'PY' || echo "(goals failed; see $W/*_2p28_cold.md)"
import json, os, sys
W = sys.argv[1]
def load(name):
    try:
        return json.load(open(os.path.join(W, name)))["records"]
    except Exception as e:
        print(f"({name}: {e})"); return []
ALIAS = {"r01_atomic": "v1", "vk_v1_atomic": "v1", "r02_shared_tree": "v2", "vk_v2_tree": "v2", "r03_coarsen": "v3",
         "vk_v3_coarsen": "v3", "r04_warp_shuffle": "v4", "vk_v4_subgroup": "v4", "r05_vector_loads": "v5",
         "vk_v5_vec4": "v5", "r06_single_pass": "v6", "vk_v6_single_pass": "v6"}
for tag in ("2p28_cold", "2p24_cold"):
    vk, cu = load(f"vulkan_{tag}.json"), load(f"cuda_{tag}.json")
    lad = lambda R: {ALIAS[r["variant"]]: r for r in R if r["variant"] in ALIAS and r["summary"] and not r.get("skipped") and "sweep" not in r["extra"]}
    ceil = lambda R, v: next((r for r in R if r["variant"] == v and r["summary"]), None)
    V, C = lad(vk), lad(cu)
    print(f"\n{tag}: per rung, median us (Vulkan / CUDA)")
    print("| rung | Vulkan | CUDA | Vulkan/CUDA time |")
    print("|---|---|---|---|")
    for k in ("v1", "v2", "v3", "v4", "v5", "v6"):
        a, b = V.get(k), C.get(k)
        f = lambda r: f"{r['summary']['median'] * 1e6:.1f} ({r['variant']})" if r else "-"
        ratio = f"{a['summary']['median'] / b['summary']['median']:.3f}" if a and b else "-"
        print(f"| {k} | {f(a)} | {f(b)} | {ratio} |")
    if V and C:
        bv = min(V.values(), key=lambda r: r["summary"]["median"])
        cuda_all = [r for r in cu if r["rung"] >= 1 and r["summary"] and not r.get("skipped") and "sweep" not in r["extra"]]
        bc = min(cuda_all, key=lambda r: r["summary"]["median"])
        pct = 100 * bc["summary"]["median"] / bv["summary"]["median"]
        print(f"goal (best Vulkan rung >= 95 % of the best CUDA rung): Vulkan {bv['variant']} {bv['summary']['median']*1e6:.1f} us vs CUDA {bc['variant']} {bc['summary']['median']*1e6:.1f} us = {pct:.1f} % -> {'met' if pct >= 95 else 'NOT met'}")
    cv, cc = ceil(vk, "vk_stream_read"), ceil(cu, "stream_read")
    if cv and cc:
        a, b = cv["extra"]["value"], cc["extra"]["value"]
        d = 100 * (a / b - 1)
        print(f"goal (stream-read ceiling within 5 %): Vulkan {a/1e12:.3f} TB/s vs CUDA {b/1e12:.3f} TB/s = {d:+.1f} % -> {'met' if abs(d) <= 5 else 'NOT met'}")
bad = [r for f in os.listdir(W) if f.endswith(".json") and (f.startswith("vulkan_") or f.startswith("vk_")) for r in load(f) if r["validation"].startswith("failed")]
print(f"\nVulkan validation failures: {len(bad)}")
PY
echo
part_table "vulkan part"
