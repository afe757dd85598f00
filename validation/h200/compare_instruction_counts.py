#!/usr/bin/env python3
"""Per SASS instruction, how many times a warp executed it: the GPU's count (Nsight Compute's
Source page, exported as CSV) against warpsim's (`warpsim sass FILE --counts`). Prints each
instruction whose counts differ; nothing when all agree.

On the GPU machine (the first launch of the kernel that `warpsim validate` runs):
  ncu --kernel-name regex:KERNEL --launch-count 1 --section SourceCounters --page source \
      --print-source sass --csv warpsim validate FILE.cu --launch-file FILE.launch > ncu.csv
Here:
  validation/h200/compare_instruction_counts.py ncu.csv FILE.cu FILE.launch [WARPSIM]
"""
import csv
import re
import subprocess
import sys


def gpu_counts(path):
    rows = list(csv.reader(open(path)))
    start = next(i for i, r in enumerate(rows) if r and r[0] == "Address")
    executed = rows[start].index("Instructions Executed")
    counts = [(int(r[0], 16), r[1].strip(), int(r[executed]))
              for r in rows[start + 1:] if len(r) > executed and r[0].startswith("0x")]
    base = counts[0][0]
    return [(address - base, text, n) for address, text, n in counts]


def simulated_counts(warpsim, cu, launch):
    out = subprocess.run([warpsim, "sass", cu, "--launch-file", launch, "--counts"],
                         capture_output=True, text=True, check=True).stdout
    counts = {}
    for line in out.split("\n"):
        m = re.match(r"\s+([0-9a-f]{5})\s+(\d+)\s+", line)
        if m:
            counts[int(m.group(1), 16)] = int(m.group(2))
    return counts


def main(ncu_csv, cu, launch, warpsim="build/release/warpsim"):
    simulated = simulated_counts(warpsim, cu, launch)
    for address, text, n in gpu_counts(ncu_csv):
        if simulated.get(address) != n:
            print(f"{address:05x}  {text[:56]:<56}  gpu {n:>8}  warpsim {simulated.get(address)}")


if __name__ == "__main__":
    main(*sys.argv[1:])
