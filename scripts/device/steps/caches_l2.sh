# Device step `caches_l2` (issue 17, item 6 leftovers): near and far L2 side latency and bandwidth
# per SM, HBM latency at 1 and 4 GiB, the TLB sweep 64 MiB .. 64 GiB (src/experiments/probes/caches_l2.cpp).
# Sourced by scripts/device/session.sh; uses $J $W and step. Budget 60 s (expected 10-20 s).
#   caches_l2.json / .md / .err   the records, tables and progress of `joseki probe caches_l2`
# Expected: l2_near_latency ≈ 260-300 and l2_far_latency ≈ 450-550 cycles (Luo et al., H800: 264 / 502),
# the l2_sides verdict "holds" with two SM groups of ~66 SMs with complementary far lines; near
# bandwidth per SM above far; hbm_latency at 1 GiB ≈ 700-900 cycles; tlb_latency flat at small
# footprints then rising (the verdict names the footprint); every validation "exact"; 64 GiB runs on
# the H200 (≈ 139 GiB), a smaller device skips the sizes it cannot hold, with the reason.
# Since the final call of 2026-12-01 (near = far = 280.4 cycles: the self loop's warm loads leave a near
# copy), truth3 adds the FIRST TOUCH: l2_first_touch_near / _far / l2_second_touch and the verdict
# l2_first_touch_sides. Each SM loads 512 lines of its own once, just rewritten, each load timed alone
# (two clock reads and a shared store included: compare far with l2_second_touch, not with 280).
# Expected if the far partition shows on a first touch: far / near ~1.8 on most SMs (verdict "holds"),
# far share ~50 %, second touch ≈ near; if far = near again, the rewrite did not drop the near copies
# or the split is not per line (the verdict's figure says how many SMs split).
step "caches_l2: joseki probe caches_l2 (near/far L2, HBM at >= 1 GiB, TLB to 64 GiB)"
timeout 60 "$J" --json "$W/caches_l2.json" probe caches_l2 >"$W/caches_l2.md" 2>"$W/caches_l2.err"
echo "[exit $?]"
python3 - "$W/caches_l2.json" <<'PY' || echo "caches_l2 summary failed (records in $W/caches_l2.json)"
import json, sys
recs = json.load(open(sys.argv[1]))
recs = recs["records"] if isinstance(recs, dict) else recs
print("| variant | axes | median | unit | validation | published | comparison / figure |")
print("|---|---|---|---|---|---|---|")
for r in recs:
    v, e = r.get("variant", ""), r.get("extra", {})
    ax = {k: x for k, x in r.get("axes", {}).items() if k in ("footprint_bytes", "lines", "lines_per_sm")}
    if r.get("skipped"):
        print(f"| {v} | {ax} | skipped: {r['skipped']} | | {r.get('validation')} | | |")
        continue
    med = r["summary"]["median"] if r.get("summary") else (r.get("samples") or [""])[0]
    ref = e.get("reference", {})
    print(f"| {v} | {ax} | {med:.4g} | {r.get('unit')} | {r.get('validation')} | {ref.get('value', '')} | "
          f"{e.get('comparison', '') or e.get('figure', '') or e.get('display', '')} |")
PY
