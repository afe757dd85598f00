#!/usr/bin/env bash
# Two builds' timing-model speed on the GPU machine's host, interleaved so that both see the
# same moments of a shared host: three rounds, each running the earlier build then this one,
# `warpsim bench --mode timing --frontend sass --threads 1 --repeat 3` (the best of 3 per
# workload). Also checks that both builds report the same statistics for both workloads.
#   validation/h200/speed_ab.sh OLD_BUNDLE NEW_BUNDLE OUTDIR     (bundles from bundle.sh)
set -euo pipefail
old="$(cd "$1" && pwd)"
source "$(dirname "$0")/bundle_env.sh" "$2" "$3"
{ lscpu; echo; nproc; } > "$out/cpu.txt"
bench() {  # BUNDLE
  LD_LIBRARY_PATH="$1" "$1/warpsim" bench --mode timing --frontend sass --threads 1 --repeat 3 2>&1
}
{
  echo "# warpsim bench --mode timing --frontend sass --threads 1 --repeat 3; rounds alternate the builds"
  for round in 1 2 3; do
    for b in "$old" "$bundle"; do
      bench "$b" | grep -E '^(smem_transpose|vecAdd)' | sed "s|^|round $round $(basename "$b") |"
    done
  done
} > "$out/speed_ab.txt"
# The same statistics from both builds: the timing report of each workload's seed kernel (its
# own launch), less the line that says how fast the host simulated it.
for b in "$old" "$bundle"; do
  for k in smem_transpose vecAdd; do
    LD_LIBRARY_PATH="$b" "$b/warpsim" run "kernels_ir/$k.kir" --mode timing --frontend sass \
      --threads 1 2>&1 | grep -v 'wall time' > "$out/report_$(basename "$b")_$k.txt" || true
  done
done
for k in smem_transpose vecAdd; do
  if cmp -s "$out/report_$(basename "$old")_$k.txt" "$out/report_$(basename "$bundle")_$k.txt"; then
    echo "$k: identical reports" >> "$out/speed_ab.txt"
  else
    echo "$k: reports differ" >> "$out/speed_ab.txt"
  fi
done
