#!/usr/bin/env bash
# On the GPU machine: warpsim validate on the kernels written to find where a new user's CUDA
# broke the simulator (2026-12-07): a register-capped kernel that spills, warps and blocks that
# spin on each other's flags, and a 16-bit compare-and-swap, on both frontends (where the IR does
# not import a kernel, its IR run is the refusal, kept as it came).
#   validation/h200/robustness.sh WARPSIM_BUNDLE OUTDIR
set -euo pipefail
source "$(dirname "$0")/bundle_env.sh" "$1" "$2"
validate_both_frontends kernels_cuda/coverage/register_spills kernels_cuda/coverage/spin_handshakes \
  kernels_cuda/sass_only/short_cas
