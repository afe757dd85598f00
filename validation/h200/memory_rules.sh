#!/usr/bin/env bash
# On the H200 machine: the memory-rule microbenchmarks (kernels_ir/calibration/memory_rules.kir:
# 64- and 128-bit shared loads, shared atomics and global atomics whose lanes share addresses)
# through warpsim validate, and the SASS they compile to (one memory instruction per IR one).
#   validation/h200/memory_rules.sh WARPSIM_BUNDLE OUTDIR
set -euo pipefail
source "$(dirname "$0")/bundle_env.sh" "$1" "$2"
kir=kernels_ir/calibration/memory_rules.kir
status=0
"$ws" validate "$kir" --cache-control none --csv "$out/memory_rules.csv" \
  > "$out/memory_rules.txt" 2>&1 || status=$?
echo "exit status: $status" >> "$out/memory_rules.txt"
tmp="$(mktemp -d)"
"$ws" ptx "$kir" > "$tmp/memory_rules.ptx"
ptxas -arch=sm_90 -o "$tmp/memory_rules.cubin" "$tmp/memory_rules.ptx"
cuobjdump -sass "$tmp/memory_rules.cubin" |
  grep -E 'Function :|\b(LDS|STS|ATOMS|ATOMG|REDG|RED|ATOM|LDG|STG)\b' > "$out/memory_rules_sass.txt"
