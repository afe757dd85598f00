#!/usr/bin/env python3
"""A held-out set's measurement against the model as it is now, without a GPU: each launch of a
validate CSV taken on the GPU (validation/h200/heldout.sh) is simulated again with the given
warpsim (timing, --cache-control none as heldout.sh measures, the frontend named), and its
cycles and achieved occupancy replace the CSV's simulated ones. The GPU's numbers are kept as
taken; the CSV goes to standard output, for heldout_summary.py.

  validation/h200/heldout_replay.py WARPSIM CSV [sass|ir] > replayed.csv
"""
import csv
import json
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

REPLACED = ("gpc__cycles_elapsed.max", "sm__warps_active.avg.pct_of_peak_sustained_active")
FOLDER = "kernels_cuda/heldout"


def simulate(warpsim, frontend, kernel):
    source = f"{FOLDER}/{kernel}.cu"
    out = subprocess.run([warpsim, "run", source, "--launch-file", f"{FOLDER}/{kernel}.launch",
                          "--mode", "timing", "--frontend", frontend, "--cache-control", "none",
                          "--threads", "1", "--json", "-"],
                         capture_output=True, text=True, check=True).stdout
    return json.loads(out)["metrics"]


def main(warpsim, path, frontend="sass"):
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    kernels = sorted({r["kernel"] for r in rows})
    with ThreadPoolExecutor(2) as pool:
        metrics = dict(zip(kernels, pool.map(lambda k: simulate(warpsim, frontend, k), kernels)))
    writer = csv.DictWriter(sys.stdout, fieldnames=list(rows[0].keys()), lineterminator="\n")
    writer.writeheader()
    for r in rows:
        if r["metric"] in REPLACED:
            r["simulated"] = str(metrics[r["kernel"]][r["metric"]])
        writer.writerow(r)


if __name__ == "__main__":
    if len(sys.argv) not in (3, 4):
        sys.exit(__doc__)
    main(*sys.argv[1:])
