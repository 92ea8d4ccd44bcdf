# Helpers for device steps (sourced by a step, which session.sh sources on the GPU host; uses $J $W).
#   part NAME LIMIT_S OUT_FILE CMD...  runs CMD with a time limit, stdout+stderr to OUT_FILE, prints the
#                                      command, its exit code and seconds, and never fails the step
#   part_table HEADER                  the closing table of the parts run since the last table
#   vulkan_driver                      points the Vulkan loader at NVIDIA's driver when it finds no device
PART_STATUS=()  # "name|exit code|seconds" per part
part() {
  local name=$1 limit=$2 out=$3
  shift 3
  local t0 rc
  t0=$(date +%s)
  echo "\$ $* > ${out#$W/}"
  timeout "$limit" "$@" >"$out" 2>&1
  rc=$?
  PART_STATUS+=("$name|$rc|$(($(date +%s) - t0))")
  echo "[exit $rc, $(($(date +%s) - t0)) s]"
  return 0
}
part_table() {
  local s a b c
  echo "| $1 | exit | seconds |"
  echo "|---|---|---|"
  for s in "${PART_STATUS[@]}"; do IFS='|' read -r a b c <<<"$s"; echo "| $a | $b | $c |"; done
  PART_STATUS=()
}
vulkan_driver() {
  if ! "$J" vulkan devices 2>/dev/null | grep -q '^device '; then
    export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
    export VK_ICD_FILENAMES=$VK_DRIVER_FILES  # the older name, for loaders before 1.3.207
    echo "no Vulkan driver found by the loader; VK_DRIVER_FILES=$VK_DRIVER_FILES"
  fi
}
