#!/usr/bin/env bash
# On a machine with the H200: build the occupancy sweep for sm_90, run it, keep the results.
#   validation/h200/run.sh OUTDIR
set -euo pipefail
out="${1:?usage: run.sh OUTDIR}"
mkdir -p "$out"
here="$(cd "$(dirname "$0")" && pwd)"
nvcc -O2 -arch=sm_90 -o "$out/occupancy_sweep" "$here/occupancy_sweep.cu"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv > "$out/nvidia-smi.csv"
nvcc --version | tail -2 > "$out/nvcc-version.txt"
"$out/occupancy_sweep" "$out"
rm -f "$out/occupancy_sweep"
