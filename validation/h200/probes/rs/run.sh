#!/usr/bin/env bash
# Nsight Compute's per-instruction counts (its Source page) of three of random_shapes' kernels,
# each taken into a file of its own, and library_fast_forms' differing words, into $1
# (results in validation/h200/results/h100_2026_12_07e/).
set -u
source validation/h200/bundle_env.sh build/bundle "$1"
NCU=$(command -v ncu || ls /usr/local/cuda*/bin/ncu | head -1)
shapes=kernels_cuda/coverage/random_shapes
work="$(mktemp -d)"
for s in 1024 1017 1029; do
  # The includes, then the one kernel; its launch block.
  { sed -n '/^#include/p; /^namespace cg/p' "$shapes.cu"
    awk "/random_shape_$s\\(/,/^}/" "$shapes.cu"; } > "$work/rs$s.cu"
  awk "/^launch random_shape_$s /,/^}/" "$shapes.launch" > "$work/rs$s.launch"
  "$NCU" --kernel-name regex:random_shape_$s --launch-count 1 --section SourceCounters --page source \
      --print-source sass --csv "$ws" validate "$work/rs$s.cu" \
      --launch-file "$work/rs$s.launch" --frontend sass > "$out/ncu_$s.csv" 2> "$out/ncu_$s.err"
done
"$ws" validate kernels_cuda/coverage/library_fast_forms.cu --launch-file kernels_cuda/coverage/library_fast_forms.launch \
  --frontend sass --save-differing "$work/lff" > "$out/lff.txt" 2>&1
for f in "$work"/lff/*; do echo "=== $f" >> "$out/lff.txt"; od -A d -t x4 "$f" >> "$out/lff.txt"; done
