#!/usr/bin/env bash
# On the H200 machine: stores with a stride repeated over a buffer the L2 holds
# (kernels_ir/calibration/strided_store_rounds.kir) through warpsim validate on the SASS
# frontend, and the same launches (probes/strided_store_probe.cu, built beside the bundle as
# strided_store_probe) under Nsight Compute for the L2's own write counters.
#   validation/h200/store_rounds.sh WARPSIM_BUNDLE PROBE_BINARY OUTDIR
set -euo pipefail
source "$(dirname "$0")/bundle_env.sh" "$1" "$3"
probe="$2"
status=0
"$ws" validate kernels_ir/calibration/strided_store_rounds.kir --cache-control none \
  --frontend sass --csv "$out/validate.csv" > "$out/validate.txt" 2>&1 || status=$?
echo "exit status: $status" >> "$out/validate.txt"
ncu="$(command -v ncu || find /usr/local/cuda*/bin /opt -name ncu -type f 2>/dev/null | head -1)"
"$ncu" --query-metrics --chip gh100 > "$out/ncu_metrics.txt" 2>&1 || true
wanted=(gpc__cycles_elapsed.max sm__cycles_active.avg
  lts__t_requests_srcunit_tex_op_write.sum lts__t_sectors_srcunit_tex_op_write.sum
  lts__t_sectors_srcunit_tex_op_read.sum lts__t_requests_srcunit_tex_op_read.sum
  lts__t_sectors_op_write.sum lts__t_requests_op_write.sum lts__t_sectors_op_read.sum
  lts__t_sectors_srcunit_tex_op_write_lookup_hit.sum lts__t_sectors_srcunit_tex_op_write_lookup_miss.sum
  lts__d_sectors_fill_device.sum lts__t_sectors_srcunit_ltcfabric.sum
  dram__bytes_read.sum dram__bytes_write.sum l1tex__m_l1tex2xbar_write_bytes.sum
  l1tex__m_l1tex2xbar_req.sum)
metrics=()
for m in "${wanted[@]}"; do
  grep -q "^${m%.*}\b" "$out/ncu_metrics.txt" && metrics+=("$m")
done
[[ ${#metrics[@]} -gt 0 ]] || metrics=("${wanted[@]}")
status=0
"$ncu" --cache-control none --replay-mode application --csv \
  --metrics "$(IFS=,; echo "${metrics[*]}")" "$probe" > "$out/ncu.csv" 2> "$out/ncu.err" || status=$?
echo "exit status: $status" >> "$out/ncu.err"
