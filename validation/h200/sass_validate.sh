#!/usr/bin/env bash
# On the H200 machine: warpsim validate with the SASS frontend (--frontend sass) on the seeds
# (from a flushed L2, validate's default), the calibration microbenchmarks and the CUDA kernels
# (from the L2 the host's copies leave, as configs/h200.ini was derived): outputs, instruction
# counts and memory counters of the SASS run against the GPU's, and its cycles.
#   validation/h200/sass_validate.sh WARPSIM_BUNDLE OUTDIR
set -euo pipefail
source "$(dirname "$0")/bundle_env.sh" "$1" "$2"
{ command -v ptxas; command -v nvdisasm; } > "$out/tools.txt" 2>&1 || true

status=0
"$ws" validate --all --frontend sass --csv "$out/seeds.csv" > "$out/seeds.txt" 2>&1 || status=$?
echo "exit status: $status" >> "$out/seeds.txt"
status=0
"$ws" validate kernels_ir/calibration/*.kir --cache-control none --frontend sass \
  --csv "$out/calibration.csv" > "$out/calibration.txt" 2>&1 || status=$?
echo "exit status: $status" >> "$out/calibration.txt"
"$(dirname "$0")/import.sh" "$1" "$out/import" sass
