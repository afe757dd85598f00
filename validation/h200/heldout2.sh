#!/usr/bin/env bash
# On the H200 machine: the second held-out CUDA set (kernels_cuda/heldout2/, written to measure
# the model on code it was not fitted to, and measured before anything was changed for it)
# through warpsim validate with one frontend, together with the textbook kernels named after the
# bundle and the output folder (each .cu beside its .launch in kernels_cuda/textbook/).
#   validation/h200/heldout2.sh WARPSIM_BUNDLE OUTDIR sass|ir [TEXTBOOK_NAME...]
set -euo pipefail
here="$(dirname "$0")"
bundle="$1" out="$2" frontend="$3"
shift 3
folders=(kernels_cuda/heldout2)
if (($#)); then
  extra="$(mktemp -d)/textbook"
  mkdir -p "$extra"
  for name in "$@"; do cp "kernels_cuda/textbook/$name.cu" "kernels_cuda/textbook/$name.launch" "$extra/"; done
  folders+=("$extra")
fi
"$here/import.sh" "$bundle" "$out" "$frontend" "${folders[@]}"
