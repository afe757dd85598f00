#!/usr/bin/env bash
# On the H200 machine: warpsim validate --all, the SASS memory instructions of every seed kernel,
# and Nsight Compute's memory counters for the same launches.
#   validation/h200/validate.sh WARPSIM_BUNDLE OUTDIR
# WARPSIM_BUNDLE holds a release warpsim and the shared libraries it needs (bundle.sh makes it).
set -euo pipefail
source "$(dirname "$0")/bundle_env.sh" "$1" "$2"

status=0
# The L2 as the host's copies leave it (the memory counters compared here do not depend on it).
"$ws" validate --all --cache-control none --csv "$out/validate.csv" > "$out/validate.txt" 2>&1 ||
  status=$?
echo "warpsim validate --all exit status: $status" >> "$out/validate.txt"

# One SASS memory instruction per IR memory instruction: count them in the cubins.
tmp="$(mktemp -d)"
for kir in kernels_ir/*.kir; do
  name="$(basename "$kir" .kir)"
  "$ws" ptx "$kir" > "$tmp/$name.ptx"
  ptxas -arch=sm_90 -o "$tmp/$name.cubin" "$tmp/$name.ptx"
  printf '%s ' "$name"
  cuobjdump -sass "$tmp/$name.cubin" |
    grep -oE '\b(LDG|STG|LDS|STS|LDC|LDL|STL|ATOMG|ATOMS|ATOM|REDG|RED|LD|ST)(\.[A-Z0-9_.]+)?' |
    sed 's/\..*//' | sort | uniq -c | tr '\n' ' '
  echo
done > "$out/sass_memory.txt"

# The counters the GPU is asked for that the executor counts (warpsim counters), and the
# compiled kernel's registers.
metrics="$("$ws" counters --measured functional | paste -sd, -),launch__registers_per_thread"
ncu --clock-control none --metrics "$metrics" --csv "$ws" validate --all --cache-control none \
  > "$out/ncu.csv" 2> "$out/ncu.err" || true
exit 0
