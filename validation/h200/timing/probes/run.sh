#!/usr/bin/env bash
# On the H200 machine: the probes behind the accuracy findings in docs/timing.md (what a block
# of 1,024 threads pays for its loads and stores at every row pitch, what the first global
# accesses of a kernel cost on 1, 16 and 132 SMs, what special-register reads cost, the seed
# transposes at 4 MB, and at 16 MB with one block per SM), each run twice.
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
    "$ws" validate "$probe" --csv "$out/${name}_$run.csv" > "$out/${name}_$run.txt" 2>&1 || true
  done
done
