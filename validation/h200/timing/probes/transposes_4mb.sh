#!/usr/bin/env bash
# Writes the three seed transposes at m = 1024 (4 MB, all of it in the L2) into folder $1: the
# seed files with their launch scaled, nothing else changed.
set -euo pipefail
for f in cuda_transpose smem_transpose smem_transpose_padded; do
  sed -e 's/m = 2048/m = 1024/' -e 's/2048 \* 2048/1024 * 1024/g' -e 's/grid(64, 64)/grid(32, 32)/' \
    "kernels_ir/$f.kir" > "$1/${f}_4mb.kir"
done
