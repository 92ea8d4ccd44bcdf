# Device step `tour_vulkan` (issue 16; sourced by scripts/device/session.sh on the GPU host).
# Budget: about 1 minute (time limit 75 s on the tour; expected 20-40 s). Uses $B $J $W and step from session.sh.
# Checks that one `joseki run` measures CUDA and Vulkan side by side and that its report gets the
# "Rankings across devices and APIs" section and plot from the records alone:
#   1. the Vulkan loader: unpack .gl (the loader and libglvnd .debs, as for steps/vulkan.sh) and
#      point the loader at NVIDIA's ICD when it finds no driver
#   2. joseki run --quick --only check,device,reduce,vulkan -> $W/tour_vulkan (records, report)
#   3. a compact table: CUDA and Vulkan rungs at 2^24 cold with the Vulkan/CUDA time ratio, the
#      report's rankings section (flips), and whether rankings.png was drawn
# Run after (or instead of) steps/vulkan.sh: the .gl unpacking is idempotent.

step "tour_vulkan: the Vulkan loader"
if ls .gl/*.deb >/dev/null 2>&1; then
  for f in .gl/*.deb; do dpkg -x "$f" /; done
  ldconfig
else
  echo "no .gl/*.deb carried: the Vulkan loader may be missing (the tour's vulkan step then says skipped, with the reason)"
fi
if ! "$J" vulkan devices 2>/dev/null | grep -q '^device '; then
  export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
  export VK_ICD_FILENAMES=$VK_DRIVER_FILES
  echo "no Vulkan driver found by the loader; VK_DRIVER_FILES=$VK_DRIVER_FILES"
fi
"$J" vulkan devices 2>&1 | cut -c1-200 | head -n 4

step "tour_vulkan: joseki run --quick --only check,device,reduce,vulkan (limit 75 s)"
tv_dir="$W/tour_vulkan"
tv_t0=$(date +%s.%N)
timeout 75 "$J" run --quick --progress lines --only check,device,reduce,vulkan --out "$tv_dir" \
  >"$tv_dir.stdout" 2>"$tv_dir.stderr"
tv_rc=$?
tv_secs=$(awk -v a="$tv_t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
grep -E '^\[[0-9]+/[0-9]+\] .*\([0-9.]+ s\)|skipped \(' "$tv_dir.stderr" | tail -n 8
tail -n 2 "$tv_dir.stderr"

step "tour_vulkan: summary"
python3 - "$tv_dir" <<'PY'
import json, os, sys
d = sys.argv[1]
try:
    recs = json.load(open(os.path.join(d, "records.json")))["records"]
except Exception as e:  # noqa: BLE001
    sys.exit(f"no records: {e}")
pair = {"r01_atomic": "vk_v1_atomic", "r02_shared_tree": "vk_v2_tree", "r03_coarsen": "vk_v3_coarsen",
        "r04_warp_shuffle": "vk_v4_subgroup", "r05_vector_loads": "vk_v5_vec4", "r06_single_pass": "vk_v6_single_pass",
        "stream_read": "vk_stream_read"}
t = {}
for r in recs:
    if r["experiment"] == "reduce" and r["mode"] == "cold" and r["summary"] and not r["skipped"] \
            and r["axes"].get("n") == 2**24 and not r["axes"].get("offset") and "sweep" not in r["extra"]:
        t[(r["backend"], r["variant"])] = r["summary"]["median"]
print("| rung (2^24 cold) | CUDA | Vulkan | Vulkan / CUDA |\n|---|---|---|---|")
for c, v in pair.items():
    a, b = t.get(("cuda", c)), t.get(("vulkan", v))
    f = lambda x: f"{x * 1e6:.2f} us" if x else "-"
    print(f"| {c} / {v} | {f(a)} | {f(b)} | {b / a:.3f} |" if a and b else f"| {c} / {v} | {f(a)} | {f(b)} | - |")
vk = [r for r in recs if r["backend"] == "vulkan"]
print(f"\nvulkan records: {len(vk)}; skipped: {sorted({r['skipped'] for r in vk if r['skipped']})[:3]}")
print("not exact:", [r["variant"] for r in vk if r["experiment"] == "reduce" and r["rung"] >= 1 and not r["skipped"]
                     and r["validation"] != "exact"] or "none")
PY
sed -n '/^## Rankings across devices and APIs/,/^## All records/p' "$tv_dir/report.md" | grep -E '^The table|ranking|rule:' \
  | cut -c1-400 | head -n 12
echo
echo "| tour_vulkan check | result |"
echo "|---|---|"
echo "| joseki run --quick (check, device, reduce, vulkan) | exit $tv_rc, $tv_secs s (limit 75 s) |"
echo "| rankings section in report.md | $(grep -c '^## Rankings across devices and APIs' "$tv_dir/report.md" 2>/dev/null || echo 0) (want 1) |"
echo "| rankings plot | $([[ -s $tv_dir/report-plots/rankings.png ]] && echo "drawn ($(stat -c %s "$tv_dir/report-plots/rankings.png") bytes)" || echo "absent (see report.md's Plots)") |"
echo "| columns | $(grep -m1 '^| row' "$tv_dir/report.md" | tr '|' '\n' | grep -cE 'cuda|vulkan') measured (want 2: H200 cuda and H200 vulkan at 2^24 cold) |"
