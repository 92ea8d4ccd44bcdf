# Device step `abc471g_solvers` (sourced by scripts/device/session.sh on the GPU host; ~20 s):
# every GPU solver (and auto) as shipped — `joseki abc471g solve`, which creates the CUDA context on
# a second thread and exits without the CUDA teardown — on every staged test vector, its output
# compared byte for byte with the cross-checked .out file.
step "abc471g_solvers: solve on every test vector (gpu-direct, gpu-pairs, auto)"
abc_sol_fail=0 abc_sol_n=0
for in_file in .device/testdata/abc471g/*.in; do
  want=${in_file%.in}.out
  [[ -f $want ]] || continue
  for solver in gpu-direct gpu-pairs auto; do
    abc_sol_n=$((abc_sol_n + 1))
    t0=$(date +%s.%N)
    if timeout 120 "$J" abc471g solve --solver "$solver" "$in_file" > "$W/solve.out" 2> "$W/solve.err" \
        && cmp -s "$W/solve.out" "$want"; then
      printf '%-28s %-10s exact  %.1f ms\n' "$(basename "$in_file")" "$solver" \
        "$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { print (b - a) * 1000 }')"
    else
      abc_sol_fail=$((abc_sol_fail + 1))
      echo "$(basename "$in_file") $solver: WRONG or failed: $(tail -n 2 "$W/solve.err")"
    fi
  done
done
echo "| abc471g solve on the test vectors | $abc_sol_n runs, $abc_sol_fail wrong or failed |"
