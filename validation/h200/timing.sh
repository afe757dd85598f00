#!/usr/bin/env bash
# On the H200 machine: the calibration microbenchmarks and the seed kernels through
# warpsim validate (outputs, memory counters, and the timing model against the GPU's cycles,
# achieved occupancy, L2 hit rate and DRAM bytes), plus the SASS of each kernel. The
# microbenchmarks start from the L2 the host's copies leave (--cache-control none, the state
# configs/h200.ini was derived in); the seeds from a flushed L2 (the default, validate.csv) and
# from the host's copies (validate_copied.csv).
#   validation/h200/timing.sh WARPSIM_BUNDLE OUTDIR
set -euo pipefail
source "$(dirname "$0")/bundle_env.sh" "$1" "$2"
mkdir -p "$out/sass"

status=0
"$ws" validate kernels_ir/calibration/*.kir --cache-control none --csv "$out/calibration.csv" \
  > "$out/calibration.txt" 2>&1 || status=$?
echo "exit status: $status" >> "$out/calibration.txt"
status=0
"$ws" validate --all --csv "$out/validate.csv" > "$out/validate.txt" 2>&1 || status=$?
echo "exit status: $status" >> "$out/validate.txt"
status=0
"$ws" validate --all --cache-control none --csv "$out/validate_copied.csv" \
  > "$out/validate_copied.txt" 2>&1 || status=$?
echo "exit status: $status" >> "$out/validate_copied.txt"

for kir in kernels_ir/*.kir kernels_ir/calibration/*.kir; do
  name="$(basename "$kir" .kir)"
  "$ws" ptx "$kir" > "$out/sass/$name.ptx"
  ptxas -arch=sm_90 -o "$out/sass/$name.cubin" "$out/sass/$name.ptx"
  cuobjdump -sass "$out/sass/$name.cubin" > "$out/sass/$name.sass"
  rm "$out/sass/$name.cubin" "$out/sass/$name.ptx"
done
tar -C "$out" -czf "$out/sass.tar.gz" sass && rm -r "$out/sass"
