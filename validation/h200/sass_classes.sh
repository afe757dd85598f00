#!/usr/bin/env bash
# On the H200 machine: the SASS frontend's instruction classes (smsp__sass_inst_executed_op_*,
# smsp__inst_executed_pipe_*) and counts against the GPU's, through validate --frontend sass on
# the seeds, some calibration microbenchmarks (each a different mix of pipes) and every CUDA
# kernel with a launch file; everything in one tar file (few files come back).
#   validation/h200/sass_classes.sh WARPSIM_BUNDLE OUTDIR
set -euo pipefail
here="$(dirname "$0")"
source "$here/bundle_env.sh" "$1" "$2"
work="$(mktemp -d)"
status=0
"$ws" validate --all --frontend sass --csv "$work/seeds.csv" > "$work/seeds.txt" 2>&1 || status=$?
echo "exit status: $status" >> "$work/seeds.txt"
status=0
"$ws" validate kernels_ir/calibration/{alu_chains,atomics,constant_cache,shared_conflicts}.kir \
  --cache-control none --frontend sass --csv "$work/calibration.csv" \
  > "$work/calibration.txt" 2>&1 || status=$?
echo "exit status: $status" >> "$work/calibration.txt"
"$here/import.sh" "$1" "$work/cuda" sass kernels_cuda/textbook kernels_cuda/heldout
tar -C "$work" -cf "$out/sass_classes.tar" .
