# Device step `reduce` (issue 3, second round; sourced by scripts/device/session.sh on the GPU host;
# budget 3 minutes, expected about 2.5). Uses $B $J $W $SAN and the functions step/run from session.sh.
# Every part runs whatever the others did; each has a time limit so that the step ends in time.
#   1. GPU tests of the ladder (every rung exact at edge sizes and offsets, every sweep point exact,
#      the stateful rungs exact over odd and even launch counts)
#   2. SASS: r01/r01b (warp aggregation) -> $W/r01_sass.txt; the finishes of r06/r09/r10 and r07's
#      hinted loads -> $W/reduce_finish_sass.txt
#   3. compute-sanitizer memcheck and racecheck, each once over every rung (validate-only, small sizes)
#   4. benchmarks -> $W/reduce_*.json (+ .md tables): 2^20, 2^24, 2^28 cold with every sweep (the
#      ladder then uses the tie rule's choices), 2^24 hot, 2^24 cold at offset 1 (not 16-byte
#      aligned). This exploration run caps samples at 500 per point (--max-samples 500 --min-time
#      0.01) to fit the budget; the final records come from `joseki run` with the default rule.
#   5. the tour step itself, quick mode (`joseki run --only reduce --quick`), to check it end to end
#   6. a compact summary: the ladders at 2^20/2^24/2^28 side by side, the finishes compared, each
#      sweep's fastest and chosen point, and the issue's goals, from the JSON

source scripts/device/parts.sh  # part NAME LIMIT_S OUT_FILE CMD..., part_table

step "reduce: GPU tests"
part gpu_tests 120 "$W/reduce_gpu_tests.log" "$B/joseki_gpu_tests" --gtest_filter='Reduce*' --gtest_brief=1
tail -n 6 "$W/reduce_gpu_tests.log"

step "reduce: SASS of r01 / r01b, the finishes of r06 / r09 / r10, r07's loads"
CUOBJDUMP=$(command -v cuobjdump || ls /usr/local/cuda/bin/cuobjdump 2>/dev/null || true)
if [[ -n $CUOBJDUMP ]]; then
  "$CUOBJDUMP" -sass "$J" >"$W/reduce_all_sass.tmp" 2>&1
  # Every r01* kernel, encodings and NOPs dropped.
  awk '/Function : /{p = ($0 ~ /r01b?_atomic/)} /\.\.\.\.\.\.\.\.\.\./{p=0} p' "$W/reduce_all_sass.tmp" |
    sed -E 's@ */\* 0x[0-9a-f]+ \*/@@; s@[[:space:]]+$@@' | grep -vE '^\s*$|NOP' >"$W/r01_sass.txt"
  grep -E 'Function|VOTEU|UFLO|REDUX|REDG|ATOMG' "$W/r01_sass.txt"
  # The unroll-4 instances: loads, atomics, fences and stores only.
  awk '/Function : /{p = ($0 ~ /(r06_single_pass|r09_packed_ticket|r10_two_slot)_kernelILi4E|r07_load_hints_kernelILi4ELi[012]E/); if (p) print}
       p && /LDG|ATOMG|REDG|STG|MEMBAR|CCTL|EXIT/' "$W/reduce_all_sass.tmp" |
    sed -E 's@ */\* 0x[0-9a-f]+ \*/@@; s@[[:space:]]+$@@' >"$W/reduce_finish_sass.txt"
  rm -f "$W/reduce_all_sass.tmp"
  grep -cE 'MEMBAR' "$W/reduce_finish_sass.txt" | sed 's/^/MEMBAR lines (r06 and r07 only expected): /'
else
  echo "cuobjdump not found on this host" | tee "$W/r01_sass.txt"
fi

step "reduce: compute-sanitizer memcheck + racecheck (every rung, validate-only)"
part memcheck 100 "$W/reduce_memcheck.log" $SAN --tool memcheck --error-exitcode 9 \
  "$J" reduce --validate-only --n 255,1048579 --offset 0,3
grep -E 'ERROR SUMMARY|FAILED|error' "$W/reduce_memcheck.log" | tail -n 4
part racecheck 100 "$W/reduce_racecheck.log" $SAN --tool racecheck --error-exitcode 9 \
  "$J" reduce --validate-only --n 255,1048579 --offset 0,3
grep -E 'RACECHECK SUMMARY|ERROR SUMMARY|FAILED|error' "$W/reduce_racecheck.log" | tail -n 4

step "reduce: benchmarks"
red_bench() {  # red_bench TAG LIMIT_S ARGS...
  local tag=$1 limit=$2
  shift 2
  part "$tag" "$limit" "$W/reduce_$tag.md" "$J" --json "$W/reduce_$tag.json" reduce "$@" \
    --max-samples 500 --min-time 0.01
}
red_bench 2p20_cold_sweep 45 --n 2^20 --sweep
red_bench 2p24_cold_sweep 60 --n 2^24 --sweep
red_bench 2p28_cold_sweep 60 --n 2^28 --sweep
red_bench 2p24_hot 20 --n 2^24 --mode hot
red_bench 2p24_offset1 20 --n 2^24 --offset 1

step "reduce: the tour step, quick"
part tour_quick 30 "$W/reduce_tour_quick.log" "$J" run --only reduce --quick --out "$W/reduce_tour_quick"
tail -n 3 "$W/reduce_tour_quick.log"

step "reduce: summary"
python3 - "$W" <<'PY' || echo "(summary failed; see $W/reduce_*.md)"
import json, os, sys
W = sys.argv[1]
def load(tag):
    p = os.path.join(W, f"reduce_{tag}.json")
    try:
        return json.load(open(p))["records"]
    except Exception as e:
        print(f"({tag}: {e})"); return []
R = {t: load(t) for t in ("2p20_cold_sweep", "2p24_cold_sweep", "2p28_cold_sweep", "2p24_hot", "2p24_offset1")}
COLD = ("2p20_cold_sweep", "2p24_cold_sweep", "2p28_cold_sweep")
def ladder(recs, mode="cold"):
    return [r for r in recs if r["rung"] >= 0 and r["mode"] == mode and "sweep" not in (r.get("ladder") or r["extra"])]
def ceiling(recs):
    c = [r for r in recs if r["variant"] == "stream_read" and r["summary"]]
    return c[0] if c else None
def t(s): return f"{s * 1e6:.2f}" if s < 1e-3 else f"{s * 1e6:.0f}"
def x(v): return f"{v:.3f}" if isinstance(v, (int, float)) else "-"
def cell(r):
    if not r: return "-"
    if not r["summary"]: return (r["skipped"] or r["validation"])[:24]
    return f"{t(r['summary']['median'])} ({x((r.get('ladder') or r['extra']).get('x_baseline'))})"
def knobs(r):
    return " ".join(f"{k}={v}" for k, v in r["axes"].items() if k in ("hint", "unroll", "block", "blocks_per_sm", "stages", "chunk_kib", "grid"))
# 1. The ladders side by side: median in us (x CUB).
rows = {}
for tag in COLD:
    for r in ladder(R[tag]):
        rows.setdefault(r["variant"], {})[tag] = r
print("\nCold ladders, median us (x CUB); stream-read ceiling in the same run:")
print("| rung | 2^20 | 2^24 | 2^28 | 2^28 TB/s | 2^28 knobs |")
print("|---|---|---|---|---|---|")
for v, d in rows.items():
    r28 = d.get("2p28_cold_sweep")
    tbs = f"{r28['throughput']['bytes_per_s'] / 1e12:.3f}" if r28 and r28.get("throughput") else "-"
    print(f"| {v} | {cell(d.get('2p20_cold_sweep'))} | {cell(d.get('2p24_cold_sweep'))} | {cell(r28)} | {tbs} | {knobs(r28) if r28 else ''} |")
cs = [ceiling(R[tag]) for tag in COLD]
c28 = f"{cs[2]['throughput']['bytes_per_s'] / 1e12:.3f}" if cs[2] else "-"
print("| (stream read) | " + " | ".join(t(c["summary"]["median"]) if c else "-" for c in cs) + f" | {c28} |  |")
# 2. The finishes side by side (same loads and knobs: r06's sweep choice), and the hot / unaligned runs.
print("\nFinishes (same loads, r06's knobs), median us: memset+RED (r05) | fence ticket (r06) | packed ticket (r09) | two-slot (r10)")
for tag in COLD + ("2p24_hot", "2p24_offset1"):
    mode = "hot" if "hot" in tag else "cold"
    d = {r["variant"]: r for r in ladder(R[tag], mode)}
    f = [d.get(v) for v in ("r05_vector_loads", "r06_single_pass", "r09_packed_ticket", "r10_two_slot", "r00_cub")]
    print(f"  {tag:16s} " + " | ".join(t(r["summary"]["median"]) if r and r["summary"] else "-" for r in f) + "  (CUB last)")
# 3. Each sweep: fastest point and the tie rule's choice.
print("\nSweeps: fastest point / chosen point (median us)")
for tag in COLD:
    sw = {}
    for r in R[tag]:
        if "sweep" in (r.get("ladder") or r["extra"]) and r["summary"]:
            sw.setdefault(r["variant"], []).append(r)
    for v, pts in sw.items():
        f = min(pts, key=lambda r: r["summary"]["median"])
        c = [r for r in pts if (r.get("ladder") or r["extra"]).get("chosen")]
        cc = f"{t(c[0]['summary']['median'])} {knobs(c[0])}" if c else "-"
        print(f"  {tag[:4]} {v:18s} fastest {t(f['summary']['median'])} {knobs(f)} | chosen {cc}")
    h = {}
    for r in sw.get("r07_load_hints", []):
        k = r["axes"].get("hint")
        if k not in h or r["summary"]["median"] < h[k]: h[k] = r["summary"]["median"]
    if h: print(f"  {tag[:4]} r07 best per hint: " + ", ".join(f"hint {k}: {t(v)}" for k, v in sorted(h.items())))
# 4. The goals.
def best(recs):
    g = [r for r in ladder(recs) if r["backend"] == "cuda" and r["summary"] and r["variant"] != "r00_cub"]
    return min(g, key=lambda r: r["summary"]["median"]) if g else None
def best_word(recs):  # the best rung with CUB's output contract (r10's result alternates between two words)
    g = [r for r in ladder(recs) if r["backend"] == "cuda" and r["summary"] and r["variant"] not in ("r00_cub", "r10_two_slot")]
    return min(g, key=lambda r: r["summary"]["median"]) if g else None
print("\n| goal | best rung | figure | met | best with CUB's output contract |")
print("|---|---|---|---|---|")
def goal(name, recs, need_x, need_tbs=None):
    out = []
    for b in (best(recs), best_word(recs)):
        if not b:
            out.append(("-", "no records", "no")); continue
        xc = (b.get("ladder") or b["extra"]).get("x_baseline", 0); tbs = b["throughput"]["bytes_per_s"] / 1e12
        ok = xc >= need_x and (need_tbs is None or tbs >= need_tbs)
        out.append((b["variant"], f"{t(b['summary']['median'])} us, {tbs:.3f} TB/s, {x(xc)}x CUB", "yes" if ok else "NO"))
    (v, f, m), (v2, f2, m2) = out
    print(f"| {name} | {v} | {f} | {m} | {v2}: {f2}, {m2} |")
goal("2^28 cold: >= 4.56 TB/s and >= 1.02x CUB", R["2p28_cold_sweep"], 1.02, 4.56)
goal("2^24 cold: >= 1.10x CUB", R["2p24_cold_sweep"], 1.10)
goal("2^20 cold: >= 1.3x CUB", R["2p20_cold_sweep"], 1.3)
bad = [r for recs in R.values() for r in recs if r["validation"].startswith("failed")]
print(f"\nvalidation failures in the benchmark records: {len(bad)}" + (f" (first: {bad[0]['validation'][:150]})" if bad else ""))
PY
echo
part_table "reduce part"
