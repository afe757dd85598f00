#!/usr/bin/env bash
# On the GPU machine: warpsim validate on the kernels with narrow launch buffers and calls
# through function pointers, on both frontends (the IR does not import the function pointers'
# kernel, so its IR run is the refusal, kept as it came), and the SASS run's output buffers
# against the GPU's.
#   validation/h200/narrow_calls.sh WARPSIM_BUNDLE OUTDIR
set -euo pipefail
source "$(dirname "$0")/bundle_env.sh" "$1" "$2"
for kernel in kernels_cuda/coverage/narrow_buffers kernels_cuda/sass_only/function_pointers; do
  name="$(basename "$kernel")"
  for frontend in sass ir; do
    status=0
    "$ws" validate "$kernel.cu" --launch-file "$kernel.launch" --cache-control none \
      --frontend "$frontend" --csv "$out/${name}_$frontend.csv" \
      > "$out/${name}_$frontend.txt" 2>&1 || status=$?
    echo "$name $frontend exit status: $status" >> "$out/status.txt"
  done
done
