#!/usr/bin/env bash
# On the GPU machine: one-lane atomics on one word from every warp of the GPU, and a CAS loop on
# one float (held-out block_max). probes/one_word_probe.cu and probes/cas_probe.cu, built beside
# the bundle with `nvcc -O3 -arch=sm_90`: CUDA events (one_word.txt, cas_probe.txt), then
# Nsight Compute's elapsed cycles and atomic counts (one_word_ncu.txt, cas_ncu.txt).
#   validation/h200/one_word_atomics.sh BUNDLE OUTDIR
set -euo pipefail
bundle=$1 out=$2
mkdir -p "$out"
nvidia-smi --query-gpu=name --format=csv,noheader > "$out/gpu.txt" || true
"$bundle/one_word_probe" > "$out/one_word.txt" 2>&1 || echo "exit status $?" >> "$out/one_word.txt"
ncu --cache-control none --metrics gpc__cycles_elapsed.max --launch-count 9 \
  "$bundle/one_word_probe" > "$out/one_word_ncu.txt" 2>&1 || true
"$bundle/cas_probe" > "$out/cas_probe.txt" 2>&1 || echo "exit status $?" >> "$out/cas_probe.txt"
ncu --cache-control none --kernel-name regex:block_max --launch-count 4 --metrics \
  smsp__sass_inst_executed_op_global_atom.sum,l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum,gpc__cycles_elapsed.max,smsp__inst_executed.sum \
  "$bundle/cas_probe" > "$out/cas_ncu.txt" 2>&1 || true
