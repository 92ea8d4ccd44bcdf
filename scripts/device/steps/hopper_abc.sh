# Device step `hopper_abc` (issue 19, deliverables 2-3 on ABC471G's pair-count path; sourced by
# scripts/device/session.sh on the GPU host; budget 3.5 minutes, expected ~2.5). Uses $B $J $W $SAN and
# the functions step/run from session.sh.
#   1. the GPU tests of issue 19's pieces (Abc471gHopperGpu.*: the floor's sum, r05 exact over replays,
#      r08's DSMEM count table by table and whole solves, the test vectors, the max case)
#   2. `abc471g scale hopper` (the generation floor, r04's count and combine alone, r04 .. r08; each
#      validated against cpu-direct, then timed cold): the max case, N = 10^8 and N = 10^9 three times
#      each (three processes: the goals are medians of three separate runs) -> $W/hopper_abc/<case>_<i>.json / .log
#   3. compute-sanitizer memcheck and racecheck of the small tests (r05-r07's, the floor's and r08's;
#      before the timings, so the budget never drops them)
#   4. the tma probe, quick (issue 19 item 1), if >= 25 s of the budget are left
#   5. a summary: variant | case | median of the runs | x floor | validation | notes; then r08 beside
#      r04, r07 and the floor per case (the issue's goals: max case <= 40 us, 10^9 <= 3.0 ms)
HA=$W/hopper_abc
mkdir -p "$HA"
HA_T0=$(date +%s)
step "hopper_abc: GPU tests (Abc471gHopperGpu.*)"
run timeout 100 "$B/joseki_gpu_tests" --gtest_filter='Abc471gHopperGpu.*' --gtest_brief=1 2>&1 | tee "$HA/gpu_tests.log" | tail -8

step "hopper_abc: compute-sanitizer on the small tests (r05-r07's shapes, the floor, r08's DSMEM count)"
# (debug call 2: adding SmallDsmemKernelVariantsAreExact made racecheck run past 50 s: it stays out)
HA_SAN='Abc471gHopperGpu.SanitizerShapes:Abc471gHopperGpu.SmallFloorSum*:Abc471gHopperGpu.DsmemSanitizerShapes'
run timeout 45 $SAN --tool memcheck --error-exitcode 9 "$B/joseki_gpu_tests" \
  --gtest_filter="$HA_SAN" --gtest_brief=1 2>&1 | tee "$HA/memcheck.log" | grep -E 'ERROR SUMMARY|Invalid|PASSED|FAILED' | head -5
run timeout 70 $SAN --tool racecheck --error-exitcode 9 "$B/joseki_gpu_tests" \
  --gtest_filter="$HA_SAN" --gtest_brief=1 2>&1 | tee "$HA/racecheck.log" | grep -E 'RACECHECK SUMMARY|ERROR SUMMARY|hazard|PASSED|FAILED' | head -5

HA_CASES="max_1 1e8_1 1e9_1 max_2 1e8_2 1e9_2 max_3 1e8_3 1e9_3"  # interleaved: a slow drift hits every case alike
for c in $HA_CASES; do
  step "hopper_abc: scale hopper $c"
  case $c in max_*) n=7e6 lim=45 ;; 1e8_*) n=1e8 lim=60 ;; *) n=1e9 lim=90 ;; esac
  run timeout $lim "$J" --json "$HA/$c.json" abc471g scale hopper --n "$n" 2>&1 | tee "$HA/$c.log" | tail -9
done

left=$(( 200 - ($(date +%s) - HA_T0) ))
if [[ ${HA_TMA_PROBE:-1} == 0 ]]; then
  echo "tma probe skipped: HA_TMA_PROBE=0 (a call that re-measures the rungs only)"
elif (( left > 25 )); then
  step "hopper_abc: probe tma --quick (bulk and tensor-map copies vs plain loads)"
  run timeout $(( left < 40 ? left : 40 )) "$J" --json "$HA/tma_quick.json" probe tma --quick > "$HA/tma_quick.md" 2> "$HA/tma_quick.err"
  grep -E 'tensor_copy|bulk_vs_loads|tensor_vs_loads|stream_read_ceiling|vector_loads_x4' "$HA/tma_quick.md" | cut -c1-220 | head -8
else
  echo "tma probe skipped: only $left s of the step's budget left"
fi

step "hopper_abc: summary"
python3 - "$HA" $HA_CASES <<'PY' || echo "summary failed (the records are in $HA/*.json)"
import json, os, statistics, sys
d = sys.argv[1]
rows = {}
for c in sys.argv[2:]:
    try:
        recs = json.load(open(os.path.join(d, c + ".json")))["records"]
    except Exception as e:
        print(f"{c}: no records ({e})")
        continue
    case = c.split("_")[0]
    for r in recs:
        v = r.get("variant", "?")
        ax = r.get("axes") or {}
        if isinstance(ax, dict) and "gemm_panels" in ax:
            v += f" [P={ax['gemm_panels']}]"
        if isinstance(ax, dict) and "partition_lean" in ax:
            v += f" [lean={ax['partition_lean']}]"
        if isinstance(ax, dict) and "partition_tile" in ax:
            v += f" [tile={ax['partition_tile']}]"
        if isinstance(ax, dict) and "chunk_pairs" in ax:
            v += f" [chunk={ax['chunk_pairs']}]"
        if isinstance(ax, dict) and "dsmem_cluster" in ax:
            v += f" [cluster={ax['dsmem_cluster']}" + (f", {ax['dsmem_add']}]" if "dsmem_add" in ax else "]")
        key = (case, v)
        e = rows.setdefault(key, {"med": [], "fx": [], "val": set(), "notes": ""})
        s = r.get("summary") or {}
        if s.get("median") is not None:
            e["med"].append(s["median"])
        x = r.get("extra", {})
        if "floor_x" in x:
            e["fx"].append(x["floor_x"])
        e["val"].add(("skipped: " + r["skipped"]) [:80] if r.get("skipped") else r.get("validation", "?")[:60])
        if "graph_kernel_nodes" in x:
            e["notes"] = f"graph {x['graph_kernel_nodes']} kernels / {x['graph_nodes']} nodes"
        if "remote_adds_per_s" in x:
            e["notes"] = f"{x['remote_adds_per_s']:.3g} remote adds/s"
        elif "dsmem_ranges" in x:
            e["notes"] = (f"clusters of {x.get('dsmem_cluster')}, {x['dsmem_ranges']} ranges of "
                          f"{x.get('dsmem_rows')} rows a block ({x.get('dsmem_block_bytes')} B)")
print("| case | variant | GPU_COMPUTE (median of runs) | runs | x floor | validation | notes |")
print("|---|---|---|---|---|---|---|")
for (case, v), e in rows.items():
    m = f"{statistics.median(e['med'])*1e6:.2f} us" if e["med"] else "-"
    fx = f"{statistics.median(e['fx']):.2f}" if e["fx"] else "-"
    print(f"| {case} | {v} | {m} | {len(e['med'])} | {fx} | {', '.join(sorted(e['val']))} | {e['notes']} |")
print()
print("the floor, r04, r07, r08 (DSMEM count) and the best rungs (medians of the runs; goals: max <= 40 us, 1e9 <= 3.0 ms):")
print("| case | floor | lean floor | r04 | r07 | r08 | r08 / r04 | r15 | r16 | r17 | r17 x floor |")
print("|---|---|---|---|---|---|---|---|---|---|---|")
def med(case, prefix):
    for (c, v), e in rows.items():
        if c == case and v.startswith(prefix) and "[" not in v and e["med"]:
            return statistics.median(e["med"]), len(e["med"])
    return None, 0
def med_exact(case, variant):
    e = rows.get((case, variant))
    return statistics.median(e["med"]) if e and e["med"] else None
for case in ("max", "1e8", "1e9"):
    f = med_exact(case, "pairs.floor.generate")
    fl = med_exact(case, "pairs.floor.generate_lean")
    r4, _ = med(case, "pairs.r04_partition_gemm")
    r7, _ = med(case, "pairs.r07_wide_tiles")
    r8, n8 = med(case, "pairs.r08_dsmem_count")
    r15, _ = med(case, "pairs.r15_tma_eight_slots")
    r16, _ = med(case, "pairs.r16_lean_count")
    r17, _ = med(case, "pairs.r17_lean_wide_tiles")
    us = lambda x: f"{x*1e6:.2f} us" if x is not None else "-"
    ratio = lambda a, b: f"{a/b:.2f}" if a is not None and b else "-"
    print(f"| {case} | {us(f)} | {us(fl)} | {us(r4)} | {us(r7)} | {us(r8)} | {ratio(r8, r4)} | {us(r15)} | {us(r16)} | {us(r17)} | {ratio(r17, f)} |")
PY
