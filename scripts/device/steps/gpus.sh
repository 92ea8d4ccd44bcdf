# Device step `gpus` (issue 15; sourced by scripts/device/session.sh on the GPU host).
# Budget: at most 5 minutes (the two PTX builds run side by side, each part under a timeout).
# Needs, staged here (scripts/device/stage.sh, then scripts/device/stage_ptx.sh):
#   .device/bin/          the default fat binary (SASS sm_75..sm_120 + compute_120 PTX)
#   .device/bin-ptx80/    a build whose only device code is compute_80 PTX (preset ptx80)
#   .device/bin-ptx75/    a build whose only device code is compute_75 PTX (preset ptx75)
# The driver compiles the PTX for the H200 at load time, so the kernels run as sm_80 / sm_75 code:
# what needs Hopper (r08/r11 cp.async.bulk) or Ampere (r04b redux.sync, r07 L2 cache hints, the
# gpu-pairs tensor-core combiners on mma.sync m16n8k32; compute_75 only) must be skipped with its
# reason, everything else exact. Per PTX build: `joseki device --facts-only` (says PTX compiled by
# the driver), the GPU tests, `joseki reduce --validate-only` (the skips and their reasons), and
# `joseki run --quick` (records with the archs in their build facts). For the default binary:
# `joseki device --facts-only` (native SASS) and cuobjdump --list-elf / --list-ptx.
# Uses $B $J $W and step/run from session.sh. Output: $W/gpus/<build>/..., a table at the end.

G=$W/gpus
mkdir -p "$G"

gpus_one() {  # build-name bin-dir: everything for one PTX build, logs under $G/<build>
  local name=$1 dir=$2 out=$G/$1
  mkdir -p "$out"
  "$dir/joseki" --json "$out/device.json" device --facts-only >"$out/device.md" 2>&1
  echo $? >"$out/device.rc"
  timeout 110 "$dir/joseki_gpu_tests" --gtest_brief=1 >"$out/gpu_tests.log" 2>&1
  echo $? >"$out/gpu_tests.rc"
  timeout 30 "$dir/joseki" --quiet reduce --validate-only --n 4099 --offset 0,1 >"$out/reduce_validate.md" 2>&1
  echo $? >"$out/reduce_validate.rc"
  timeout 120 "$dir/joseki" run --quick --progress lines --out "$out/tour" >"$out/tour.stdout" 2>"$out/tour.stderr"
  echo $? >"$out/tour.rc"
}

step "gpus: the default binary"
"$J" --json "$G/default_device.json" device --facts-only 2>&1 | grep -E 'name|compute capability|device code'
CUOBJDUMP=$(command -v cuobjdump || echo /usr/local/cuda/bin/cuobjdump)
if [[ -x $CUOBJDUMP ]]; then
  "$CUOBJDUMP" --list-elf "$J" >"$G/default_list_elf.txt" 2>&1
  "$CUOBJDUMP" --list-ptx "$J" >"$G/default_list_ptx.txt" 2>&1
  echo "cuobjdump --list-elf: SASS per architecture (files of the joseki binary):"
  grep -o 'sm_[0-9]*[af]*' "$G/default_list_elf.txt" | sort | uniq -c
  echo "cuobjdump --list-ptx: PTX per architecture:"
  grep -o 'sm_[0-9]*[af]*\|compute_[0-9]*[af]*' "$G/default_list_ptx.txt" | sort | uniq -c
else
  echo "cuobjdump not found on this host (looked on PATH and in /usr/local/cuda/bin)"
fi

step "gpus: compute_80 and compute_75 PTX builds, side by side"
gpus_pids=()
for b in ptx80 ptx75; do
  if [[ -x $PWD/.device/bin-$b/joseki ]]; then
    gpus_one "$b" "$PWD/.device/bin-$b" &
    gpus_pids+=($!)
  else
    echo "$b: not staged (.device/bin-$b; scripts/device/stage_ptx.sh)"
  fi
done
for p in "${gpus_pids[@]}"; do wait "$p"; done

step "gpus: summary"
gpus_count() {  # log: "passed failed skipped" from gtest's closing lines
  local log=$1
  local p f s
  p=$(grep -oE '^\[  PASSED  \] [0-9]+' "$log" | grep -oE '[0-9]+$' | tail -n 1)
  f=$(grep -oE '^\[  FAILED  \] [0-9]+ test' "$log" | grep -oE '[0-9]+' | tail -n 1)
  s=$(grep -oE '^\[  SKIPPED \] [0-9]+ test' "$log" | grep -oE '[0-9]+' | tail -n 1)
  echo "${p:-0} ${f:-0} ${s:-0}"
}
echo "| build | device code (joseki device) | GPU tests passed / failed / skipped (exit) | reduce rungs skipped | quick tour exit | records |"
echo "|---|---|---|---|---|---|"
for b in ptx80 ptx75; do
  o=$G/$b
  [[ -d $o ]] || { echo "| $b | not staged | | | | |"; continue; }
  read -r tp tf ts <<<"$(gpus_count "$o/gpu_tests.log")"
  code=$(grep -E '^\| device code' "$o/device.md" | cut -d'|' -f3 | sed 's/^ *//; s/ *$//' | cut -c1-60)
  skipped=$(grep -c 'skipped: needs' "$o/reduce_validate.md" 2>/dev/null)
  recs=$(python3 -c "import json,sys; print(len(json.load(open(sys.argv[1]))['records']))" "$o/tour/records.json" 2>/dev/null || echo none)
  echo "| $b | $code | $tp / $tf / $ts (exit $(cat "$o/gpu_tests.rc")) | $skipped rows (exit $(cat "$o/reduce_validate.rc")) | $(cat "$o/tour.rc") | $recs |"
done
for b in ptx80 ptx75; do
  o=$G/$b
  [[ -d $o ]] || continue
  echo
  echo "$b: rungs and tests skipped, with the reasons:"
  grep -hoE '(skipped: needs [^|]*|rung [a-z0-9_]+: needs [^|]*)' "$o/reduce_validate.md" "$o/gpu_tests.log" | sort -u | head -n 12
  grep -E 'FAILED|Failure' "$o/gpu_tests.log" | head -n 8
  echo "$b build facts: $(python3 -c "import json,sys; r=json.load(open(sys.argv[1]))['records'][0]; print(r['build'].get('cuda_architectures'), '|', r['device'].get('code'), r['device'].get('code_arch'))" "$o/tour/records.json" 2>/dev/null || echo 'no records')"
  tail -n 2 "$o/tour.stderr"
done
