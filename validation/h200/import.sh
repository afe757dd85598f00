#!/usr/bin/env bash
# On the H200 machine: warpsim validate on the CUDA kernels (kernels_cuda/), each run on the GPU
# as nvcc compiled it and in the simulator as imported: the seed kernels under their .kir twins'
# launches, the textbook kernels under their own launch files. Also each kernel's SASS memory
# instructions against its PTX ones (where ptxas merged or split accesses, the counters of the
# two need not match).
#   validation/h200/import.sh WARPSIM_BUNDLE OUTDIR [ir|sass [FOLDER...]]
# (the simulator's frontend; the folders of .cu files, each beside its .launch file, default
# kernels_cuda and kernels_cuda/textbook; kernels_cuda's own .cu files are the seeds, run under
# their .kir twins' launches).
set -euo pipefail
frontend="${3:-ir}"
folders=("${@:4}")
((${#folders[@]})) || folders=(kernels_cuda kernels_cuda/textbook)
source "$(dirname "$0")/bundle_env.sh" "$1" "$2"
nvcc --version | tail -2 > "$out/nvcc-version.txt"
tmp="$(mktemp -d)"

# One text report and one CSV for all of them (their header once), and each run's exit status.
validate() {  # FILE LAUNCHFILE NAME
  local status=0
  echo "=== $3: $1" >> "$out/validate.txt"
  "$ws" validate "$1" --launch-file "$2" --cache-control none --frontend "$frontend" \
    --csv "$tmp/$3.csv" \
    >> "$out/validate.txt" 2>&1 || status=$?
  echo "exit status: $status" >> "$out/validate.txt"
  echo "$3 $status" >> "$out/status.txt"
  if [[ -f "$tmp/$3.csv" ]]; then
    if [[ -f "$out/validate.csv" ]]; then tail -n +2 "$tmp/$3.csv" >> "$out/validate.csv"
    else cp "$tmp/$3.csv" "$out/validate.csv"; fi
  fi
}

sources=()
for folder in "${folders[@]}"; do
  for cu in "$folder"/*.cu; do
    name="$(basename "$cu" .cu)"
    sources+=("$cu")
    if [[ "$folder" == kernels_cuda ]]; then
      awk '/^launch /,/^}/' "kernels_ir/$name.kir" > "$tmp/$name.launch"
      validate "$cu" "$tmp/$name.launch" "seed_$name"
    else
      validate "$cu" "${cu%.cu}.launch" "$(basename "$folder")_$name"
    fi
  done
done

# PTX and SASS memory instructions per kernel, from nvcc's own build (at most eight files come
# back, so everything goes into these few). A kernel without one kind of access matches nothing.
set +e
for cu in "${sources[@]}"; do
  name="$(basename "$cu" .cu)"
  nvcc -arch=sm_90 -O3 -lineinfo -ptx -o "$tmp/$name.ptx" "$cu"
  ptxas -arch=sm_90 -o "$tmp/$name.cubin" "$tmp/$name.ptx"
  printf '%s ptx: ' "$name"
  grep -oE '^\s+(ld|st|atom|red)\.(global|shared|local|const)[.a-z0-9:_]*' "$tmp/$name.ptx" |
    awk '{print $1}' | sed -E 's/\.(nc|ca|cg|cs|lu|cv|v2|v4|u32|s32|b32|f32|u64|s64|b64|f64|add|min|max|exch|cas)//g' |
    sort | uniq -c | tr '\n' ' ' | tr -s ' '
  printf '| sass: '
  cuobjdump -sass "$tmp/$name.cubin" |
    grep -oE '\b(LDG|STG|LDS|STS|LDC|LDL|STL|ATOMG|ATOMS|ATOM|REDG|RED)(\.[A-Z0-9_.]+)?' |
    sort | uniq -c | tr '\n' ' ' | tr -s ' '
  echo
done > "$out/memory_instructions.txt"
exit 0
