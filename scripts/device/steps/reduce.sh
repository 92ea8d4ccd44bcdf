# Device step `reduce` (issue 3; sourced by scripts/device/session.sh on the GPU host; budget 4 minutes,
# expected about 3). Uses $B $J $W $SAN and the functions step/run from session.sh. Every part runs
# whatever the others did; each has a time limit so that the step ends in time.
#   1. GPU tests of the ladder (every rung exact at edge sizes and offsets, every sweep point exact)
#   2. SASS of r01/r01b (the compiler's warp aggregation of same-address atomics) -> $W/r01_sass.txt
#   3. compute-sanitizer memcheck and racecheck, each once over every rung (validate-only, small sizes)
#   4. benchmarks -> $W/reduce_*.json (+ .md tables): 2^20, 2^24, 2^28 cold with the sweeps (the ladder
#      then uses the tie rule's choice), 2^24 hot, 2^30 cold (default knobs)
#   5. a compact summary: the 2^28 and 2^24 ladders and the issue's goals, from the JSON

red_status=()   # "name|exit code|seconds" per part, for the closing table
red_part() {    # red_part NAME LIMIT_S OUT_FILE CMD...: runs CMD with a time limit, stdout+stderr to OUT_FILE
  local name=$1 limit=$2 out=$3
  shift 3
  local t0 rc
  t0=$(date +%s)
  echo "\$ $* > ${out#$W/}"
  timeout "$limit" "$@" >"$out" 2>&1
  rc=$?
  red_status+=("$name|$rc|$(($(date +%s) - t0))")
  echo "[exit $rc, $(($(date +%s) - t0)) s]"
  return 0
}

step "reduce: GPU tests"
red_part gpu_tests 90 "$W/reduce_gpu_tests.log" "$B/joseki_gpu_tests" --gtest_filter='Reduce*' --gtest_brief=1
tail -n 6 "$W/reduce_gpu_tests.log"

step "reduce: SASS of r01 / r01b"
CUOBJDUMP=$(command -v cuobjdump || ls /usr/local/cuda/bin/cuobjdump 2>/dev/null || true)
if [[ -n $CUOBJDUMP ]]; then
  # Every r01* kernel, encodings and NOPs dropped.
  "$CUOBJDUMP" -sass "$J" 2>&1 |
    awk '/Function : /{p = ($0 ~ /r01b?_atomic/)} /\.\.\.\.\.\.\.\.\.\./{p=0} p' |
    sed -E 's@ */\* 0x[0-9a-f]+ \*/@@; s@[[:space:]]+$@@' | grep -vE '^\s*$|NOP' >"$W/r01_sass.txt"
  grep -E 'Function|VOTEU|UFLO|REDUX|REDG|ATOMG' "$W/r01_sass.txt"
else
  echo "cuobjdump not found on this host" | tee "$W/r01_sass.txt"
fi

step "reduce: compute-sanitizer memcheck + racecheck (every rung, validate-only)"
red_part memcheck 100 "$W/reduce_memcheck.log" $SAN --tool memcheck --error-exitcode 9 \
  "$J" reduce --validate-only --n 255,1048579 --offset 0,3
grep -E 'ERROR SUMMARY|FAILED|error' "$W/reduce_memcheck.log" | tail -n 4
red_part racecheck 100 "$W/reduce_racecheck.log" $SAN --tool racecheck --error-exitcode 9 \
  "$J" reduce --validate-only --n 255,1048579 --offset 0,3
grep -E 'RACECHECK SUMMARY|ERROR SUMMARY|FAILED|error' "$W/reduce_racecheck.log" | tail -n 4

step "reduce: benchmarks"
red_bench() {  # red_bench TAG LIMIT_S ARGS...
  local tag=$1 limit=$2
  shift 2
  red_part "$tag" "$limit" "$W/reduce_$tag.md" "$J" --json "$W/reduce_$tag.json" reduce "$@"
}
red_bench 2p20_cold_sweep 40 --n 2^20 --sweep --min-time 0.01
red_bench 2p24_cold_sweep 50 --n 2^24 --sweep --min-time 0.01
red_bench 2p28_cold_sweep 70 --n 2^28 --sweep --min-time 0.02
red_bench 2p24_hot 30 --n 2^24 --mode hot --min-time 0.01
red_bench 2p30_cold 60 --n 2^30 --min-time 0.05

step "reduce: summary"
python3 - "$W" <<'PY' || echo "(summary failed; see $W/reduce_*.md)"
import json, os, sys
W = sys.argv[1]
def load(tag):
    p = os.path.join(W, f"reduce_{tag}.json")
    return json.load(open(p))["records"] if os.path.exists(p) else []
def ladder(recs, mode="cold"):
    return [r for r in recs if r["rung"] >= 0 and r["mode"] == mode and "sweep" not in r["extra"]
            and r["axes"].get("offset", 0) == 0]
def ceiling(recs, mode="cold"):
    c = [r for r in recs if r["variant"] == "stream_read" and r["mode"] == mode and r["summary"]]
    return c[0]["throughput"]["bytes_per_s"] if c else 0
def us(s): return f"{s * 1e6:.1f} us" if s < 1e-3 else f"{s * 1e3:.3f} ms"
def x(v): return f"{v:.2f}x" if isinstance(v, (int, float)) else "-"
def table(title, recs, mode="cold"):
    rows = ladder(recs, mode)
    if not rows:
        print(f"\n{title}: no records"); return
    print(f"\n{title} (stream-read ceiling {ceiling(recs, mode) / 1e12:.3f} TB/s in the same run)")
    print("| rung | median | GB/s | %DS | %ceil | x prev | x CUB | knobs |")
    print("|---|---|---|---|---|---|---|---|")
    for r in rows:
        if not r["summary"]:
            print(f"| {r['variant']} | {(r['skipped'] or r['validation'])[:60]} |||||||"); continue
        t = r["throughput"] or {}
        knobs = " ".join(f"{k}={v}" for k, v in r["axes"].items() if k in ("block", "blocks_per_sm", "unroll", "grid", "stages", "chunk_kib"))
        print(f"| {r['variant']} | {us(r['summary']['median'])} | {t.get('bytes_per_s', 0) / 1e9:.1f} | "
              f"{t.get('pct_datasheet', 0):.1f} | {t.get('pct_ceiling', 0):.1f} | {x(r['extra'].get('x_previous'))} | "
              f"{x(r['extra'].get('x_baseline'))} | {knobs} |")
def best(recs, mode="cold"):
    g = [r for r in ladder(recs, mode) if r["backend"] == "cuda" and r["summary"] and r["variant"] != "r00_cub"]
    return min(g, key=lambda r: r["summary"]["median"]) if g else None
r20, r24, r28, h24, r30 = (load(t) for t in ("2p20_cold_sweep", "2p24_cold_sweep", "2p28_cold_sweep", "2p24_hot", "2p30_cold"))
table("2^24 cold", r24)
table("2^28 cold", r28)
print("\n| goal | best rung | figure | met |")
print("|---|---|---|---|")
def goal(name, recs, need_x, need_tbs=None):
    b = best(recs)
    if not b:
        print(f"| {name} | - | no records | no |"); return
    xc = b["extra"].get("x_baseline", 0); tbs = b["throughput"]["bytes_per_s"] / 1e12
    ok = xc >= need_x and (need_tbs is None or tbs >= need_tbs)
    print(f"| {name} | {b['variant']} | {tbs:.3f} TB/s, {x(xc)} CUB | {'yes' if ok else 'NO'} |")
goal("2^28 cold: >= 4.56 TB/s and >= 1.02x CUB", r28, 1.02, 4.56)
goal("2^24 cold: >= 1.10x CUB", r24, 1.10)
goal("2^20 cold: >= 1.3x CUB", r20, 1.3)
for tag, recs, mode in (("2^24 hot", h24, "hot"), ("2^30 cold", r30, "cold")):
    b = best(recs, mode)
    if b: print(f"| {tag} (no goal) | {b['variant']} | {b['throughput']['bytes_per_s'] / 1e12:.3f} TB/s, {x(b['extra'].get('x_baseline'))} CUB | - |")
bad = [r for t in (r20, r24, r28, h24, r30) for r in t if r["validation"].startswith("failed")]
print(f"\nvalidation failures in the benchmark records: {len(bad)}")
PY
echo
echo "| reduce part | exit | seconds |"
echo "|---|---|---|"
for s in "${red_status[@]}"; do IFS='|' read -r a b c <<<"$s"; echo "| $a | $b | $c |"; done
