#!/usr/bin/env bash
# Nsight Compute's per-instruction counts (its Source page, SASS) of the kernels whose lanes
# return apart from calls: function_pointers (recursion through a direct call, three targets
# through pointers) and recursive_fib, each into a file of its own in $1.
set -u
source validation/h200/bundle_env.sh build/bundle "$1"
NCU=$(command -v ncu || ls /usr/local/cuda*/bin/ncu | head -1)
for k in kernels_cuda/sass_only/function_pointers kernels_cuda/sass_only/recursive_fib; do
  name="$(basename "$k")"
  "$NCU" --launch-count 1 --section SourceCounters --page source --print-source sass --csv \
      "$ws" validate "$k.cu" --launch-file "$k.launch" --frontend sass \
      > "$out/ncu_$name.csv" 2> "$out/ncu_$name.err"
  gzip -f "$out/ncu_$name.csv"
done
