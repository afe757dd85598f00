#!/usr/bin/env bash
# On the H200 machine: how much of the 16 MB transposes' input the L2 loses to DRAM, and their
# cycles, against what ran before them on the GPU. Each transpose alone in its own process,
# three rounds in the order naive, 32 x 32, padded (`alone_*`); the padded one after the probes
# of probes/l2_loss.kir, twice (`padded_after_l2_loss_*`); and the 32 x 32 and the padded one
# launched three times in one process, twice (`repeated_*`: the launches of one file, in order);
# and staged.kir's tile moves, twice (`staged_*`).
#   validation/h200/timing/derivation/l2_history/run.sh WARPSIM_BUNDLE OUTDIR
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
source "$here/../../../bundle_env.sh" "$1" "$2"
cd "$here/../../../../.."
copied=(--cache-control none)  # the L2 as the host's copies leave it, as measured
for run in 1 2 3; do
  for k in cuda_transpose smem_transpose smem_transpose_padded; do
    "$ws" validate "kernels_ir/$k.kir" "${copied[@]}" --csv "$out/alone_${k}_$run.csv" \
      > /dev/null 2>&1 || true
  done
done
for run in 1 2; do
  "$ws" validate validation/h200/timing/probes/l2_loss.kir "${copied[@]}" > /dev/null 2>&1 || true
  "$ws" validate kernels_ir/smem_transpose_padded.kir "${copied[@]}" \
    --csv "$out/padded_after_l2_loss_$run.csv" > /dev/null 2>&1 || true
done
three="$(mktemp -d)"
for k in smem_transpose smem_transpose_padded; do
  # The seed's kernel, then its launch block three times under three names.
  awk '/^launch /{exit} {print}' "kernels_ir/$k.kir" > "$three/$k.kir"
  for i in 1 2 3; do
    sed -n '/^launch /,$p' "kernels_ir/$k.kir" |
      sed "1s/^launch smem_transpose /launch smem_transpose as ${k}_$i /" >> "$three/$k.kir"
  done
done
for run in 1 2; do
  for k in smem_transpose_padded smem_transpose; do
    "$ws" validate "$three/$k.kir" "${copied[@]}" --csv "$out/repeated_${k}_$run.csv" \
      > /dev/null 2>&1 || true
  done
done
for run in 1 2; do
  "$ws" validate "$here/staged.kir" "${copied[@]}" --csv "$out/staged_$run.csv" \
    > /dev/null 2>&1 || true
done
