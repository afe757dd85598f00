#!/usr/bin/env bash
# On the H200 machine: local memory (kernels_ir/calibration/local_memory.kir) through warpsim
# validate on the SASS frontend from the L2 the host's copies leave, twice (how much the GPU's
# cycles move between runs).
#   validation/h200/local_probes.sh WARPSIM_BUNDLE OUTDIR
set -euo pipefail
source "$(dirname "$0")/bundle_env.sh" "$1" "$2"
for run in sass sass_again; do
  status=0
  "$ws" validate kernels_ir/calibration/local_memory.kir --cache-control none --frontend sass \
    --csv "$out/$run.csv" > "$out/$run.txt" 2>&1 || status=$?
  echo "exit status: $status" >> "$out/$run.txt"
done
# The CUDA twin (probes/local_memory_probe.cu, built beside the bundle) under Nsight Compute.
ncu="$(command -v ncu || find /usr/local/cuda*/bin /opt -name ncu -type f 2>/dev/null | head -1)"
metrics=gpc__cycles_elapsed.max,l1tex__t_sectors_pipe_lsu_mem_local_op_ld.sum
metrics+=,l1tex__t_sectors_pipe_lsu_mem_local_op_ld_lookup_hit.sum
metrics+=,l1tex__t_sectors_pipe_lsu_mem_local_op_ld_lookup_miss.sum
metrics+=,l1tex__t_sectors_pipe_lsu_mem_local_op_st.sum,l1tex__t_requests_pipe_lsu_mem_local_op_ld.sum
metrics+=,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_write.sum
metrics+=,smsp__inst_executed_op_local_ld.sum,smsp__inst_executed_op_local_st.sum
status=0
"$ncu" --cache-control none --replay-mode application --csv --metrics "$metrics" \
  "$1/local_memory_probe" > "$out/ncu.csv" 2> "$out/ncu.err" || status=$?
echo "exit status: $status" >> "$out/ncu.err"
