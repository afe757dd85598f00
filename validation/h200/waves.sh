#!/usr/bin/env bash
# On the H200 machine: the block copies and the empty launches (kernels_ir/calibration/), which
# include the same kernel in 1, 2, 4 and 8 full waves, through warpsim validate with the SASS
# frontend, from a warm L2 (--cache-control none, as the held-out kernels are measured) and from
# a flushed one. Cycles against waves separate what a launch costs once from what each wave
# costs; the warp states say where the difference sits. Then the branch loops (branches.kir),
# whose warp states show what a branch and a split warp cost.
#   validation/h200/waves.sh WARPSIM_BUNDLE OUTDIR
set -euo pipefail
source "$(dirname "$0")/bundle_env.sh" "$1" "$2"
for cache in none all; do
  for file in kernels_ir/calibration/block_copy.kir kernels_ir/calibration/launch_overhead.kir \
    kernels_ir/calibration/branches.kir; do
    name="$(basename "$file" .kir)_$cache"
    status=0
    "$ws" validate "$file" --cache-control "$cache" --frontend sass --csv "$out/$name.csv" \
      > "$out/$name.txt" 2>&1 || status=$?
    echo "$name $status" >> "$out/status.txt"
  done
done
