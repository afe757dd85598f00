#!/usr/bin/env bash
# One-off: per-instruction counts of three random shapes and the fast forms' differing words.
set -u
source validation/h200/bundle_env.sh build/bundle "$1"
NCU=$(command -v ncu || ls /usr/local/cuda*/bin/ncu | head -1)
for s in 1024 1017 1029; do
  "$NCU" --kernel-name regex:random_shape_$s --launch-count 1 --section SourceCounters --page source \
      --print-source sass --csv "$ws" validate validation/h200/probes/rs/rs$s.cu \
      --launch-file validation/h200/probes/rs/rs$s.launch --frontend sass > "$out/ncu_$s.csv" 2> "$out/ncu_$s.err"
done
"$ws" validate kernels_cuda/coverage/library_fast_forms.cu --launch-file kernels_cuda/coverage/library_fast_forms.launch \
  --frontend sass --save-differing /tmp/lff > "$out/lff.txt" 2>&1
for f in /tmp/lff/*; do echo "=== $f" >> "$out/lff.txt"; od -A d -t x4 "$f" >> "$out/lff.txt"; done
