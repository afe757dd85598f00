#!/usr/bin/env bash
# On the H200 machine: constant_operands.kir (kernels_ir/calibration/) through warpsim validate
# with the SASS frontend, from a warm L2 and from a flushed one: what a constant operand's line
# costs one warp, and warps that start together (imc_miss).
#   validation/h200/constant_operands.sh WARPSIM_BUNDLE OUTDIR
set -euo pipefail
source "$(dirname "$0")/bundle_env.sh" "$1" "$2"
for cache in none all; do
  status=0
  "$ws" validate kernels_ir/calibration/constant_operands.kir --cache-control "$cache" \
    --frontend sass --csv "$out/constant_operands_$cache.csv" \
    > "$out/constant_operands_$cache.txt" 2>&1 || status=$?
  echo "constant_operands_$cache $status" >> "$out/status.txt"
done
