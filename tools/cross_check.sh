#!/usr/bin/env bash
# Cross-checks warpsim's frontends on random CUDA kernels (tools/random_cuda_kernel.py): each
# kernel runs on the IR and on the SASS (functional), and on the SASS in timing mode; every
# buffer must come out the same, bit for bit, and no run may fail. Prints one line per kernel
# that differs or fails, and the seeds run.
#   tools/cross_check.sh FIRST_SEED LAST_SEED [WARPSIM]     (EXACT=1: no approximations)
# Needs nvcc, ptxas and nvdisasm. Kernels and logs go to ${CROSS_CHECK_DIR:-/tmp/warpsim_cross_check}.
set -uo pipefail
first="$1" last="$2"
root="$(cd "$(dirname "$0")/.." && pwd)"
ws="${3:-$root/build/release/warpsim}"
dir="${CROSS_CHECK_DIR:-/tmp/warpsim_cross_check}"
buffers=(out fout gbits shared_out gwide)
one() {
  local s="$1" d="$dir/$1"
  mkdir -p "$d"
  python3 "$root/tools/random_cuda_kernel.py" "$s" "$d/k"
  local run dumps args b
  for run in ir sass timing; do
    dumps=()
    for b in "${buffers[@]}"; do dumps+=(--dump "$b=$d/$run.$b"); done
    case $run in
      ir) args=(--frontend ir) ;;
      sass) args=(--frontend sass) ;;
      timing) args=(--frontend sass --mode timing --threads 1) ;;
    esac
    if ! "$ws" run "$d/k.cu" --launch-file "$d/k.launch" "${args[@]}" "${dumps[@]}" > "$d/$run.log" 2>&1; then
      echo "seed $s: the $run run failed: $(grep -m1 -i 'error\|fault' "$d/$run.log")"
    fi
  done
  for b in "${buffers[@]}"; do
    for run in ir timing; do
      if [[ -f "$d/$run.$b" && -f "$d/sass.$b" ]] && ! cmp -s "$d/$run.$b" "$d/sass.$b"; then
        echo "seed $s: buffer $b differs between the $run run and the SASS run"
      fi
    done
  done
}
for s in $(seq "$first" "$last"); do one "$s"; done
echo "cross_check: seeds $first to $last run (kernels in $dir)"
