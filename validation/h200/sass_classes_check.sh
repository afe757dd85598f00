#!/usr/bin/env bash
# On the H200 machine: the SASS instruction classes on launches the pipe table was not fitted on
# (sass_classes.sh measured those): the seeds as nvcc compiles them (kernels_cuda/*.cu) and the
# calibration files sass_classes.sh left out, each through validate --frontend sass into its
# own CSV, starting no new file after DEADLINE seconds (default 420); one tar file back.
#   validation/h200/sass_classes_check.sh WARPSIM_BUNDLE OUTDIR [DEADLINE]
set -euo pipefail
here="$(dirname "$0")"
source "$here/bundle_env.sh" "$1" "$2"
deadline="${3:-420}"
work="$(mktemp -d)"
trap 'tar -C "$work" -cf "$out/sass_classes_check.tar" .' EXIT
"$here/import.sh" "$1" "$work/cuda" sass kernels_cuda
for kir in kernels_ir/calibration/*.kir; do
  name="$(basename "$kir" .kir)"
  case "$name" in alu_chains | atomics | constant_cache | shared_conflicts | clusters) continue ;; esac
  ((SECONDS < deadline)) || { echo "$name: not run (deadline)" >> "$work/skipped.txt"; continue; }
  status=0
  "$ws" validate "$kir" --cache-control none --frontend sass --csv "$work/$name.csv" \
    > "$work/$name.txt" 2>&1 || status=$?
  echo "exit status: $status" >> "$work/$name.txt"
done
