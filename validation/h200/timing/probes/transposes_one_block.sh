#!/usr/bin/env bash
# Writes the three seed transposes (16 MB) with 120 KB of dynamic shared memory each block does
# not use into folder $1: one block per SM instead of two, so no block's memory phase can hide
# another's conflicts. Against the seeds, this shows how much the GPU overlaps an SM's two blocks.
set -euo pipefail
for f in cuda_transpose smem_transpose smem_transpose_padded; do
  sed -e 's/block(32, 32) {/block(32, 32) dynamic_smem(122880) {/' \
    "kernels_ir/$f.kir" > "$1/${f}_one_block.kir"
done
