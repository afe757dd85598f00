#!/usr/bin/env bash
# On the H200 machine: stores with a stride (kernels_ir/calibration/strided_stores.kir), the
# pattern the second held-out set found the model slowest on, through warpsim validate with
# each frontend named (default: sass, ir, and sass again, which shows how much the GPU's cycles
# move between runs), from the L2 the host's copies leave; and tile_reduce_cg, whose one-byte
# module variable validate refused before.
#   validation/h200/store_probes.sh WARPSIM_BUNDLE OUTDIR [sass|ir|sass_again ...]
set -euo pipefail
source "$(dirname "$0")/bundle_env.sh" "$1" "$2"
runs=("${@:3}")
[[ ${#runs[@]} -gt 0 ]] || runs=(sass ir sass_again)
for run in "${runs[@]}"; do
  status=0
  "$ws" validate kernels_ir/calibration/strided_stores.kir --cache-control none \
    --frontend "${run%_again}" --csv "$out/$run.csv" > "$out/$run.txt" 2>&1 || status=$?
  echo "exit status: $status" >> "$out/$run.txt"
done
status=0
"$ws" validate kernels_cuda/textbook/tile_reduce_cg.cu --launch-file \
  kernels_cuda/textbook/tile_reduce_cg.launch --cache-control none --frontend sass \
  > "$out/tile_reduce_cg.txt" 2>&1 || status=$?
echo "exit status: $status" >> "$out/tile_reduce_cg.txt"
