#!/usr/bin/env bash
# On the GPU machine: validate of coverage kernels named on the command line, on the SASS
# frontend and (for those the IR imports) on the IR, into one text report and one CSV each
# (at most eight files come back); and the mbarrier probe's differing words, as hex, if any.
#   validation/h200/coverage_kernels.sh WARPSIM_BUNDLE OUTDIR "SASS KERNELS" "IR KERNELS"
set -euo pipefail
bundle="$1" outdir="$2"
tmp="$(mktemp -d)"
run_set() {  # FRONTEND KERNELS
  local folder="$tmp/$1-kernels"
  mkdir -p "$folder"
  for k in $2; do cp "kernels_cuda/coverage/$k.cu" "kernels_cuda/coverage/$k.launch" "$folder/"; done
  "$(dirname "$0")/import.sh" "$bundle" "$tmp/$1" "$1" "$folder" || true
  cp "$tmp/$1/validate.txt" "$outdir/validate_$1.txt"
  [[ -f "$tmp/$1/validate.csv" ]] && cp "$tmp/$1/validate.csv" "$outdir/validate_$1.csv"
  cp "$tmp/$1/gpu.txt" "$outdir/gpu.txt"
}
mkdir -p "$outdir"
run_set sass "$3"
[[ -n "${4:-}" ]] && run_set ir "$4"
source "$(dirname "$0")/bundle_env.sh" "$bundle" "$tmp/probe-env"
if [[ " $3 " == *" mbarrier_probe "* ]]; then
  "$ws" validate kernels_cuda/coverage/mbarrier_probe.cu \
    --launch-file kernels_cuda/coverage/mbarrier_probe.launch --frontend sass \
    --save-differing "$tmp/probe" > "$outdir/probe.txt" 2>&1 || true
  # The differing words, as hex (files beyond eight do not come back).
  for f in "$tmp"/probe/*; do
    [[ -f "$f" ]] || continue
    echo "=== $(basename "$f")" >> "$outdir/probe.txt"
    od -A d -t x8 "$f" >> "$outdir/probe.txt"
  done
fi
