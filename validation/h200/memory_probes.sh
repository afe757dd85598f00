#!/usr/bin/env bash
# On the H200 machine: the memory-side microbenchmarks that isolate what the held-out set found
# off (kernels_ir/calibration/l2_writes.kir: stores and copies through the L2; atomic_scatter.kir:
# reductions of few lanes spread over lines; l1_hits.kir: the L1 tag stage on hits; l2_load.kir:
# the L2's latency under load; bandwidth.kir: reads through the L2), through warpsim validate
# with each frontend named (default: sass, ir, and sass again, which shows how much the GPU's
# cycles move between runs), from the L2 the host's copies leave.
#   validation/h200/memory_probes.sh WARPSIM_BUNDLE OUTDIR [sass|ir|sass_again ...]
set -euo pipefail
source "$(dirname "$0")/bundle_env.sh" "$1" "$2"
probes=(kernels_ir/calibration/l2_writes.kir kernels_ir/calibration/atomic_scatter.kir
  kernels_ir/calibration/l1_hits.kir kernels_ir/calibration/l2_load.kir
  kernels_ir/calibration/bandwidth.kir)
runs=("${@:3}")
[[ ${#runs[@]} -gt 0 ]] || runs=(sass ir sass_again)
for run in "${runs[@]}"; do
  status=0
  "$ws" validate "${probes[@]}" --cache-control none --frontend "${run%_again}" \
    --csv "$out/$run.csv" > "$out/$run.txt" 2>&1 || status=$?
  echo "exit status: $status" >> "$out/$run.txt"
done
