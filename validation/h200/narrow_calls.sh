#!/usr/bin/env bash
# On the GPU machine: warpsim validate on the kernels with narrow launch buffers and calls
# through function pointers, on both frontends (the IR does not import the function pointers'
# kernel, so its IR run is the refusal, kept as it came), and the SASS run's output buffers
# against the GPU's.
#   validation/h200/narrow_calls.sh WARPSIM_BUNDLE OUTDIR
set -euo pipefail
source "$(dirname "$0")/bundle_env.sh" "$1" "$2"
validate_both_frontends kernels_cuda/coverage/narrow_buffers kernels_cuda/sass_only/function_pointers
