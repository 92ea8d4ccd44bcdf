# Device step `refs` (issue 17, item 6: the L1 by a pure pointer chase and shared-memory latency,
# held against published Hopper figures). Sourced by scripts/device/session.sh; uses $J $W and
# step. Budget 20 s (expected about 5): one quick `probe caches` (a few seconds), then a summary.
#   refs_caches.json / .md / .err   the records, tables and progress of `joseki probe caches --quick`
# Expected: pure_chase_latency 16 / 64 / 128 KiB a few cycles below the index chase's ~40 at the
# same sizes (the index arithmetic the issue names; published 32-34 cycles), shared_chase_latency
# near 29 cycles; every record's validation "exact" (the chase ends at the node the host expects).
step "refs: joseki probe caches --quick (pure pointer chase, shared-memory chase)"
timeout 20 "$J" --json "$W/refs_caches.json" probe caches --quick >"$W/refs_caches.md" 2>"$W/refs_caches.err"
echo "[exit $?]"
python3 - "$W/refs_caches.json" <<'PY' || echo "refs summary failed (records in $W/refs_caches.json)"
import json, sys
recs = json.load(open(sys.argv[1]))
recs = recs["records"] if isinstance(recs, dict) else recs
print("| variant | axes | median cycles | validation | published | ratio | comparison |")
print("|---|---|---|---|---|---|---|")
for r in recs:
    v = r.get("variant", "")
    if v not in ("pure_chase_latency", "shared_chase_latency") and not (
            v == "chase_latency" and r.get("axes", {}).get("working_set_bytes") in (16384, 65536, 131072)):
        continue
    if r.get("skipped"):
        print(f"| {v} | {r.get('axes')} | skipped: {r['skipped']} | {r.get('validation')} | | | |")
        continue
    e = r.get("extra", {})
    ref = e.get("reference", {})
    print(f"| {v} | {r.get('axes')} | {r['summary']['median']:.1f} | {r.get('validation')} | "
          f"{ref.get('value', '')} | {e.get('ratio', '') if not isinstance(e.get('ratio'), float) else round(e['ratio'], 2)} | "
          f"{e.get('comparison', '')} |")
PY
