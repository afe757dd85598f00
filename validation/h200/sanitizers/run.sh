#!/usr/bin/env bash
# The buggy kernels of tests/check/ under compute-sanitizer's four tools on the GPU, each output
# kept, and a table of what each tool reported (summarise.py).
#   validation/h200/sanitizers/run.sh OUT
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
out="${1:?usage: run.sh OUT}"
mkdir -p "$out/raw"
nvcc -arch=sm_90 -lineinfo -o "$out/buggy_kernels" "$here/buggy_kernels.cu" || exit 1
for k in sum_reduce_nosync transpose_nosync matmul_tile_reuse global_race partial_shuffle \
         uninit_shared uninit_global divergent_barrier warp_synchronous; do
  for tool in racecheck synccheck initcheck memcheck; do
    extra=()
    [[ $tool == racecheck ]] && extra=(--racecheck-report hazard)
    timeout 120 compute-sanitizer --tool "$tool" "${extra[@]}" --print-limit 20 \
      "$out/buggy_kernels" "$k" > "$out/raw/$k.$tool.txt" 2>&1
    echo "$k $tool exit $?" >> "$out/raw/exits.txt"
  done
done
python3 "$here/summarise.py" "$out/raw" > "$out/compute_sanitizer.md"
cat "$out/compute_sanitizer.md"
