# Device step `try` (issue 18; sourced by scripts/device/session.sh on the GPU host; budget 5 minutes,
# expected about 3: 2 for the reduce ladder, 1 for the abc471g-direct ladder). Uses $B $J $W $SAN and step/run from session.sh. Each part has a time limit and
# runs whatever the others did. History of every try: $W/try_history/reduce/*.json.
#   1. the CLI tests of `joseki try` with the GPU (good/naive/warp exact and ranked; wrong_oob caught
#      naming the excess words; hang killed; --sanitize memcheck names wrong_oob.cu:LINE; history)
#   2. each example with the default rule beside every rung, CUB and the ceiling -> $W/try_<name>.{md,json};
#      good.cu is r10's code: goal within 2 % of r10 in the same run; file-to-ranked-table time at 2^24
#      (goal < 5 s; compile time reported apart)
#   3. the wrong examples: wrong_oob (mismatch message), hang (--kill-after 10), broken (exit 2 + NVRTC
#      log), --sanitize on wrong_oob (memcheck: Invalid __global__ read at wrong_oob.cu:LINE, no API
#      errors of joseki's) and wrong_race (racecheck hazard at wrong_race.cu:LINE), each < 60 s
#   4. the abc471g-direct ladder (the count kernel, examples/try/abc471g-direct): good.cu (g02's chunks
#      with atomics) exact and ranked beside g01 ... g15 on the max case; naive.cu (g01's code) exact and
#      slow (~g01); wrong.cu (no look back at a[begin - 1]) caught naming the first differing shifts
#   5. the history tables and a compact summary with the goals

try_status=()   # "name|exit code|seconds"
try_part() {    # try_part NAME LIMIT_S OUT_FILE CMD...
  local name=$1 limit=$2 out=$3
  shift 3
  local t0 rc
  t0=$(date +%s.%N)
  echo "\$ $* > ${out#$W/}"
  timeout "$limit" "$@" >"$out" 2>&1
  rc=$?
  try_status+=("$name|$rc|$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.2f", b - a }')")
  echo "[exit $rc]"
  return 0
}
TH=$W/try_history
EXR=examples/try/reduce
export JOSEKI_SANITIZER=$(command -v "$SAN" || echo /usr/local/cuda/bin/compute-sanitizer)

step "try: CLI tests with the GPU"
try_part cli_tests 300 "$W/try_cli_tests.log" python3 tests/cli/test_try.py "$J"
grep -E '^(PASS|FAIL|SKIP)|passed' "$W/try_cli_tests.log" | tail -n 22

step "try: each example beside the whole ladder (default rule, 2^24 cold)"
for ex in good naive warp; do
  ncu_flag=()
  [[ $ex == good ]] && ncu_flag=(--no-ncu)  # the timing goal; naive and warp get the ncu diagnosis
  try_part "$ex" 90 "$W/try_$ex.md" "$J" --json "$W/try_$ex.json" try "$EXR/$ex.cu" --ladder reduce \
    --history-dir "$TH" "${ncu_flag[@]}"
  grep -E '\*\*try_|^yours:|^file to ranked|^compiled|^loaded|^registers|\*\*yes\*\*|skipped' "$W/try_$ex.md"
done
# The same good kernel in hot mode (the 2 % goal, second view).
try_part good_hot 40 "$W/try_good_hot.md" "$J" --json "$W/try_good_hot.json" try "$EXR/good.cu" --ladder reduce \
  --mode hot --rungs r10,r05,cub --history-dir "$TH" --no-ncu
grep -E '^yours:' "$W/try_good_hot.md"

step "try: wrong kernels"
try_part wrong_oob 60 "$W/try_wrong_oob.log" "$J" try "$EXR/wrong_oob.cu" --ladder reduce --history-dir "$TH"
grep -E 'wrong|failing' "$W/try_wrong_oob.log" | head -n 4
try_part hang 40 "$W/try_hang.log" "$J" try "$EXR/hang.cu" --ladder reduce --kill-after 10 --history-dir "$TH"
grep -E 'did not finish' "$W/try_hang.log"
try_part signature 20 "$W/try_signature.log" "$J" try "$EXR/wrong_signature.cu" --ladder reduce --history-dir "$TH"
grep -E 'parameter' "$W/try_signature.log" | head -n 2
try_part broken 20 "$W/try_broken.log" "$J" try "$EXR/broken.cu" --ladder reduce
grep -E 'error' "$W/try_broken.log" | head -n 3
# --sanitize checks n = 1, 5, 4099, 65537 at offset 0 in exact-size buffers (racecheck ~100x slower);
# each tool is stopped after --kill-after 40 s, so a part takes at most ~85 s (expected: a few s).
try_part sanitize_oob 90 "$W/try_sanitize_oob.log" "$J" try "$EXR/wrong_oob.cu" --ladder reduce --sanitize \
  --kill-after 40 --history-dir "$TH"
cat "$W/try_sanitize_oob.log" | tail -n 14
try_part sanitize_race 90 "$W/try_sanitize_race.log" "$J" try "$EXR/wrong_race.cu" --ladder reduce --sanitize \
  --kill-after 40 --history-dir "$TH"
cat "$W/try_sanitize_race.log" | tail -n 14

step "try: the abc471g-direct ladder (the count kernel, max case, cold)"
EXD=examples/try/abc471g-direct
for ex in good naive; do
  try_part "direct_$ex" 120 "$W/try_direct_$ex.md" "$J" --json "$W/try_direct_$ex.json" try "$EXD/$ex.cu" \
    --ladder abc471g-direct --history-dir "$TH"
  grep -E '\*\*try_|^yours:|^file to ranked|^compiled|^loaded|^validated' "$W/try_direct_$ex.md"
done
try_part direct_wrong 90 "$W/try_direct_wrong.log" "$J" try "$EXD/wrong.cu" --ladder abc471g-direct --history-dir "$TH"
grep -E 'wrong|differ' "$W/try_direct_wrong.log" | head -n 4

step "try: history"
try_part history_direct 20 "$W/try_history_direct.md" "$J" try --history --ladder abc471g-direct --history-dir "$TH"
cat "$W/try_history_direct.md"
try_part history 20 "$W/try_history.md" "$J" try --history --ladder reduce --history-dir "$TH"
cat "$W/try_history.md"

step "try: summary"
TRY_STATUS=$(IFS=';'; echo "${try_status[*]}") python3 - "$W" <<'PY' || echo "(summary failed; see $W/try_*.md)"
import json, os, re, sys
W = sys.argv[1]
def recs(tag):
    try:
        return json.load(open(os.path.join(W, f"try_{tag}.json")))["records"]
    except Exception as e:
        print(f"({tag}: {e})"); return []
def med(rs, v, mode):
    m = [r for r in rs if r["variant"] == v and r["mode"] == mode and r.get("summary") and "sweep" not in (r.get("ladder") or r["extra"])]
    return m[0]["summary"]["median"] if m else None
print("| goal | figure | met |")
print("|---|---|---|")
for tag, mode in (("good", "cold"), ("good_hot", "hot")):
    rs = recs(tag)
    a, b = med(rs, "try_good", mode), med(rs, "r10_two_slot", mode)
    if a and b:
        d = a / b - 1
        print(f"| good.cu within 2 % of r10, same run ({mode}) | {a*1e6:.2f} us vs {b*1e6:.2f} us: {d*100:+.2f} % | {'yes' if abs(d) <= 0.02 else 'NO'} |")
    else:
        print(f"| good.cu within 2 % of r10 ({mode}) | no records | NO |")
md = open(os.path.join(W, "try_good.md")).read() if os.path.exists(os.path.join(W, "try_good.md")) else ""
m = re.search(r"file to ranked table: ([0-9.]+) s \(compiling: ([0-9.]+) s", md)
if m:
    print(f"| file to ranked table < 5 s at 2^24 | {m.group(1)} s (compile {m.group(2)} s) | {'yes' if float(m.group(1)) < 5 else 'NO'} |")
else:
    print("| file to ranked table < 5 s | not found | NO |")
def has(f, *needles):
    p = os.path.join(W, f)
    t = open(p).read() if os.path.exists(p) else ""
    ok = all(n in t for n in needles)
    return f"{f}: " + ("found" if ok else "missing") + f" | {'yes' if ok else 'NO'}"
print(f"| wrong_oob caught naming the excess words | {has('try_wrong_oob.log', 'your kernel is wrong', 'reads past the end')} |")
print(f"| hang killed with a clear message | {has('try_hang.log', 'did not finish', 'killed after 10 s')} |")
print(f"| wrong_signature: exit 2 naming the signature | {has('try_signature.log', '5 parameters of 8, 8, 8, 4, 8 bytes')} |")
print(f"| broken: exit 2 + NVRTC log with file and line | {has('try_broken.log', 'broken.cu(9): error')} |")
print(f"| --sanitize wrong_oob: memcheck out-of-bounds with file:line | {has('try_sanitize_oob.log', 'Invalid __global__ read', 'wrong_oob.cu:')} |")
def lacks(f, *needles):
    p = os.path.join(W, f)
    t = open(p).read() if os.path.exists(p) else None
    ok = t is not None and not any(n in t for n in needles)
    return f"{f}: " + ("none" if ok else "missing file" if t is None else "present") + f" | {'yes' if ok else 'NO'}"
print(f"| --sanitize: no API error of joseki's own in the report | {lacks('try_sanitize_oob.log', 'Program hit', 'cudaFuncGetParamInfo')} |")
print(f"| --sanitize wrong_race: racecheck hazard with file:line | {has('try_sanitize_race.log', 'racecheck', 'hazard(s)', 'wrong_race.cu:')} |")
secs = {}
for line in os.environ.get("TRY_STATUS", "").split(";"):
    if line.count("|") == 2:
        a, b, c = line.split("|"); secs[a] = (b, float(c))
def direct_row(tag, v):
    try:
        rs = json.load(open(os.path.join(W, f"try_direct_{tag}.json")))["records"]
    except Exception as e:
        return None, None, None
    rows = [r for r in rs if r["mode"] == "cold" and r.get("summary") and "sweep" not in (r.get("ladder") or {})]
    rows.sort(key=lambda r: r["summary"]["median"])
    mine = [i for i, r in enumerate(rows) if r["variant"] == v]
    g01 = [r for r in rows if r["variant"] == "g01_lane_per_thread"]
    if not mine:
        return None, len(rows), None
    m = rows[mine[0]]
    return (mine[0] + 1, m["summary"]["median"], m["validation"]), len(rows), (g01[0]["summary"]["median"] if g01 else None)
for tag in ("good", "naive"):
    mine, total, g01 = direct_row(tag, f"try_{tag}")
    if mine:
        rank, med_s, val = mine
        extra = f", {g01 / med_s:.1f}x g01" if g01 else ""
        print(f"| abc471g-direct {tag}.cu exact and ranked | rank {rank} of {total}, {med_s*1e3:.3f} ms{extra}, {val} | {'yes' if val == 'exact' else 'NO'} |")
    else:
        print(f"| abc471g-direct {tag}.cu exact and ranked | no row (see try_direct_{tag}.md) | NO |")
print(f"| abc471g-direct wrong.cu caught naming the first differing shifts | {has('try_direct_wrong.log', 'your kernel is wrong', 'shifts differ')} |")
for part in ("sanitize_oob", "sanitize_race"):
    if part in secs:
        rc, t = secs[part]
        print(f"| --sanitize {part[9:]} finishes in < 60 s | {t:.1f} s (exit {rc}) | {'yes' if t < 60 and rc not in ('124', '137') else 'NO'} |")
PY
echo
echo "| try part | exit | seconds |"
echo "|---|---|---|"
for s in "${try_status[@]}"; do IFS='|' read -r a b c <<<"$s"; echo "| $a | $b | $c |"; done
