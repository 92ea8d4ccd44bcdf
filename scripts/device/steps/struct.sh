# Device step `struct` (issue 14, branch struct; sourced by scripts/device/session.sh on the GPU host).
# Budget: about 3 minutes (every part under its own timeout). Needs the dev build's joseki and
# joseki_gpu_tests staged in $B. What it checks after the branch's refactors (RAII buffers/events/
# streams on one Owned<> template, device facts' attribute helper, dlopen'd NVRTC/cuBLASLt through
# dynlib::load_once, scope names through measure::Scope, Checker::stamp in the probes):
#   1. every GPU test (buffers, device facts, NVRTC, cuBLASLt, probes, ladders)
#   2. `joseki check` under compute-sanitizer memcheck (buffers and streams freed once, no leaks)
#   3. `joseki device --no-calibrate` (the ceilings, records written with typed scopes)
#   4. `joseki probe exec divergence coalescing banks atomics fences barriers occupancy startup --quick`
#   5. the records of 3 and 4 against results/h200/2026-11-30-tour-final: every (experiment, variant,
#      scope, backend, validation) written now was written then (the scope/backend of a record unchanged)
# Output: $W/struct/ (logs, device.json, probes.json, keys.txt) and a summary table at the end.

S=$W/struct
mkdir -p "$S"
st_tests=na st_check=na st_device=na st_probes=na st_keys=na

step "struct: GPU tests"
timeout 150 "$B/joseki_gpu_tests" --gtest_brief=1 >"$S/gpu_tests.log" 2>&1
st_tests=$?
grep -E '^\[  (PASSED|FAILED|SKIPPED) |tests ran' "$S/gpu_tests.log" | head -12

step "struct: joseki check under memcheck"
timeout 60 $SAN --tool memcheck --leak-check full --error-exitcode 9 "$J" check >"$S/check_memcheck.log" 2>&1
st_check=$?
grep -E 'ERROR SUMMARY|LEAK SUMMARY|verify' "$S/check_memcheck.log" | head -4

step "struct: joseki device --no-calibrate"
timeout 90 "$J" --json "$S/device.json" device --no-calibrate >"$S/device.md" 2>"$S/device.err"
st_device=$?
tail -n 14 "$S/device.md"

step "struct: probes (quick)"
timeout 100 "$J" --json "$S/probes.json" probe exec divergence coalescing banks atomics fences barriers occupancy startup \
  --quick >"$S/probes.md" 2>"$S/probes.err"
st_probes=$?
grep -E 'verdict|holds' "$S/probes.md" | head -12

step "struct: record keys against tour-final"
python3 - "$S" >"$S/keys.txt" 2>&1 <<'EOF'
import gzip, json, sys
S = sys.argv[1]
ref = json.load(gzip.open("results/h200/2026-11-30-tour-final/records.json.gz"))["records"]
def key(r):
    return (r["experiment"], r["variant"], r["scope"], r["backend"], r["validation"].split(":")[0])
old = {key(r) for r in ref}
new = []
for f in ("device.json", "probes.json"):
    try:
        new += json.load(open(f"{S}/{f}"))["records"]
    except Exception as e:
        print(f"{f}: {e}")
missing = sorted({key(r) for r in new} - old)
print(f"{len(new)} records now; {len(missing)} keys not in tour-final")
for k in missing[:40]:
    print("  new:", k)
sys.exit(0 if new and not missing else 1)
EOF
st_keys=$?
head -n 20 "$S/keys.txt"

echo
echo "| struct part | exit | expected |"
echo "|---|---|---|"
echo "| GPU tests | $st_tests | 0 (all pass; none skipped on the H200 but the multi-GPU ones) |"
echo "| check under memcheck | $st_check | 0 (ERROR SUMMARY: 0 errors) |"
echo "| device --no-calibrate | $st_device | 0 |"
echo "| probes --quick | $st_probes | 0 |"
echo "| record keys vs tour-final | $st_keys | 0 (every scope/backend/validation as before) |"
