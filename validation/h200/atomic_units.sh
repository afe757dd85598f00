#!/usr/bin/env bash
# On the GPU machine: which lines share an L2 atomic unit and how fast few units apply a
# histogram's atomics. probes/atomic_units_probe.cu (built beside the bundle with
# `nvcc -O3 -arch=sm_90`), timed with CUDA events: every launch (atomic_units.csv), then the
# histogram and same-word launches alone (atomic_bins.csv); and its IR twin
# kernels_ir/calibration/atomic_units.kir through warpsim validate --frontend sass from the L2
# the host's copies leave (validate.csv, validate.txt).
#   validation/h200/atomic_units.sh WARPSIM_BUNDLE OUTDIR [bins]   (bins: the probe's bins only)
set -euo pipefail
source "$(dirname "$0")/bundle_env.sh" "$1" "$2"
status=0
if [[ "${3:-}" != bins ]]; then
  "$1/atomic_units_probe" > "$out/atomic_units.csv" 2> "$out/probe.err" || status=$?
fi
"$1/atomic_units_probe" bins > "$out/atomic_bins.csv" 2>> "$out/probe.err" || status=$?
echo "probe exit status: $status" >> "$out/probe.err"
status=0
timeout 420 "$ws" validate kernels_ir/calibration/atomic_units.kir --frontend sass \
  --cache-control none --csv "$out/validate.csv" > "$out/validate.txt" 2>&1 || status=$?
echo "validate exit status: $status" >> "$out/validate.txt"
