#!/usr/bin/env bash
# On the H200 machine: launches measured with `warpsim validate --cache-control all`, every
# profiled pass (and the model's launch) starting from a flushed L2 with the buffers in DRAM.
#   validation/h200/timing/flushed/run.sh WARPSIM_BUNDLE OUTDIR [PART...]
# PARTs (default: all of them, in this order):
#   seeds        validate --all, run NAME (validate_NAME.csv)
#   alone        each transpose alone in its own process after the other two (alone_*.csv), to
#                show the flushed measurement does not depend on what ran before
#   calibration  the calibration microbenchmarks (calibration.csv)
#   cold_start   cold_start.kir flushed and not, three times each (cold_start_{all,none}_N.csv)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
source "$here/../../bundle_env.sh" "$1" "$2"
shift 2
parts=("$@")
[[ ${#parts[@]} -gt 0 ]] || parts=(seeds:1 alone seeds:2 calibration cold_start)
cd "$here/../../../.."
flushed=(--cache-control all)
for part in "${parts[@]}"; do
  case "$part" in
    seeds:*)
      "$ws" validate --all "${flushed[@]}" --csv "$out/validate_${part#seeds:}.csv" \
        > /dev/null 2>&1 || true ;;
    alone)
      for k in cuda_transpose smem_transpose smem_transpose_padded; do
        "$ws" validate "kernels_ir/$k.kir" "${flushed[@]}" --csv "$out/alone_$k.csv" \
          > /dev/null 2>&1 || true
      done ;;
    calibration)
      "$ws" validate kernels_ir/calibration/*.kir "${flushed[@]}" --csv "$out/calibration.csv" \
        > /dev/null 2>&1 || true ;;
    cold_start)
      for run in 1 2 3; do
        for mode in all none; do
          "$ws" validate "$here/cold_start.kir" --cache-control "$mode" \
            --csv "$out/cold_start_${mode}_$run.csv" > /dev/null 2>&1 || true
        done
      done ;;
    *) echo "unknown part '$part'" >&2; exit 2 ;;
  esac
done
