#!/usr/bin/env bash
# Simulation speed on the GPU machine's host CPU, whose other cores are idle during the run
# (unlike a small shared development machine): the CPU, then three rounds of `warpsim bench`
# (functional; timing on 1, 2 and 4 threads), each the best of 5 runs per workload.
#   validation/h200/speed.sh BUNDLE OUTDIR      (BUNDLE from bundle.sh)
set -euo pipefail
source "$(dirname "$0")/bundle_env.sh"
{ lscpu; echo; nproc; } > "$out/cpu.txt"
for round in 1 2 3; do
  {
    "$ws" bench --repeat 5
    for threads in 1 2 4; do
      "$ws" bench --mode timing --threads "$threads" --repeat 5
    done
  } > "$out/bench_round$round.txt"
done
