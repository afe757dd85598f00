#!/usr/bin/env bash
# On the GPU machine: validate one kernel whose output buffer holds kSlots values per thread
# (a coverage kernel writing OUT(k, expression)), and for each slot k that differs from the GPU,
# how many threads differ and the first of them (simulated and GPU words, hex) beside the slot's
# expression.
#   validation/h200/output_slots.sh WARPSIM_BUNDLE OUTDIR KERNEL FRONTEND BUFFER SLOTS
set -euo pipefail
bundle="$1" outdir="$2" kernel="$3" frontend="$4" buffer="$5" slots="$6"
source "$(dirname "$0")/bundle_env.sh" "$bundle" "$outdir"
tmp="$(mktemp -d)"
cu="kernels_cuda/coverage/$kernel.cu"
"$ws" validate "$cu" --launch-file "${cu%.cu}.launch" --frontend "$frontend" \
  --save-differing "$tmp" > "$outdir/${kernel}_$frontend.txt" 2>&1 || true
report="$outdir/${kernel}_${frontend}_slots.txt"
base="$tmp/$kernel.$buffer"
if [[ ! -f "$base.gpu" ]]; then
  echo "no differing $buffer" > "$report"
  exit 0
fi
od -A n -t x8 -v -w8 "$base.simulated" | tr -d ' ' > "$tmp/sim.hex"
od -A n -t x8 -v -w8 "$base.gpu" | tr -d ' ' > "$tmp/gpu.hex"
grep -oE 'OUT\([0-9]+, .*\);' "$cu" | sed -E 's/^OUT\(([0-9]+), (.*)\);$/\1\t\2/' > "$tmp/exprs.tsv"
paste "$tmp/sim.hex" "$tmp/gpu.hex" |
  awk -v slots="$slots" -v exprs="$tmp/exprs.tsv" '
    BEGIN { FS = "\t"; while ((getline line < exprs) > 0) { split(line, p, "\t"); name[p[1]] = p[2] } }
    { k = (NR - 1) % slots; lane = int((NR - 1) / slots)
      if ($1 != $2) { n[k]++; if (!(k in first)) first[k] = "thread " lane ": " $1 " vs " $2 } }
    END { for (k = 0; k < slots; k++) if (k in n)
            printf "slot %d  %s  %d threads differ (first %s)\n", k, name[k], n[k], first[k] }
  ' > "$report"
