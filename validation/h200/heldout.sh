#!/usr/bin/env bash
# On the H200 machine: the held-out CUDA kernels (kernels_cuda/heldout/, written to measure the
# model on code it was not fitted to) through warpsim validate, once with each frontend, from
# the L2 the host's copies leave (as the CUDA set is measured); and the names of the per-class
# SASS instruction counters this GPU's profiler offers.
#   validation/h200/heldout.sh WARPSIM_BUNDLE OUTDIR
set -euo pipefail
here="$(dirname "$0")"
"$here/import.sh" "$1" "$2/sass" sass kernels_cuda/heldout
"$here/import.sh" "$1" "$2/ir" ir kernels_cuda/heldout
if command -v ncu > /dev/null; then
  ncu --query-metrics --chip gh100 2>&1 |
    grep -E '^(smsp__sass_inst_executed_op_|smsp__inst_executed_pipe_|sm__sass_inst_executed_op_)' \
    > "$2/instruction_class_metrics.txt" || true
fi
