# Sourced by the scripts that run on the GPU machine: given the bundle folder ($1) and the
# output folder ($2), sets `ws` (the bundled warpsim) and `out`, puts the bundle's libraries on
# the loader path, finds CUPTI for the counters warpsim validate reads in-process, and records
# the GPU and the date in $out/gpu.txt.
bundle="$(cd "$1" && pwd)"
out="$2"
mkdir -p "$out"
export LD_LIBRARY_PATH="$bundle${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
ws="$bundle/warpsim"
if [[ -z "${WARPSIM_CUPTI:-}" ]]; then
  WARPSIM_CUPTI="$(find /usr/local/cuda* -name 'libcupti.so' 2>/dev/null | head -1)"
  export WARPSIM_CUPTI
fi
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader > "$out/gpu.txt"
date -u +%Y-%m-%d >> "$out/gpu.txt"

# validate_both_frontends KERNEL...: warpsim validate on each kernels_cuda/.../NAME (its .cu under
# its .launch) with each frontend, from the L2 the host's copies leave; each run's CSV and report
# as NAME_FRONTEND.{csv,txt} in $out, its exit status in $out/status.txt.
validate_both_frontends() {
  local kernel name frontend status
  for kernel in "$@"; do
    name="$(basename "$kernel")"
    for frontend in sass ir; do
      status=0
      "$ws" validate "$kernel.cu" --launch-file "$kernel.launch" --cache-control none \
        --frontend "$frontend" --csv "$out/${name}_$frontend.csv" \
        > "$out/${name}_$frontend.txt" 2>&1 || status=$?
      echo "$name $frontend exit status: $status" >> "$out/status.txt"
    done
  done
}
