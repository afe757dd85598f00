#!/usr/bin/env bash
# On the H200 machine: the probes behind the accuracy findings in docs/timing.md (what a block
# of 1,024 threads pays for its loads and stores at every row pitch, what the first global
# accesses of a kernel cost on 1, 16 and 132 SMs, what special-register reads cost, the seed
# transposes at 4 MB, and at 16 MB with one block per SM, the transposes' addresses without
# their shared-memory stage in l2_loss.kir), each run twice; and each warp's start
# and end on its SM's clock (warp_clocks.cu: how blocks reach an SM, when the naive transpose's
# warps finish); how fast SMs are refilled with blocks when some or all of them ask
# (launch_rate.cu).
#   validation/h200/timing/probes/run.sh WARPSIM_BUNDLE OUTDIR
set -euo pipefail
here="$(dirname "$0")"
source "$here/../../bundle_env.sh" "$1" "$2"
scaled="$(mktemp -d)"
"$here/transposes_4mb.sh" "$scaled"
"$here/transposes_one_block.sh" "$scaled"
for run in 1 2; do
  for probe in "$here"/*.kir "$scaled"/*.kir; do
    name="$(basename "$probe" .kir)"
    # The L2 as the host's copies leave it, the state these results were measured in.
    "$ws" validate "$probe" --cache-control none --csv "$out/${name}_$run.csv" \
      > "$out/${name}_$run.txt" 2>&1 || true
  done
done
nvcc="$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)"
"$nvcc" -O3 -arch=sm_90 "$here/warp_clocks.cu" -o "$scaled/warp_clocks"
"$scaled/warp_clocks" | gzip > "$out/warp_clocks.csv.gz"
"$nvcc" -O3 -arch=sm_90 "$here/launch_rate.cu" -o "$scaled/launch_rate"
"$scaled/launch_rate" 2> "$out/launch_rate.txt" | gzip > "$out/launch_rate.csv.gz"
