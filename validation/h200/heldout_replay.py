#!/usr/bin/env python3
"""A held-out set's measurement against the model as it is now, without a GPU: each launch of a
validate CSV taken on the GPU (validation/h200/heldout.sh) is simulated again with the given
warpsim (timing, --cache-control none as heldout.sh measures, the frontend named), and its
cycles, achieved occupancy and warp states replace the CSV's simulated ones. The GPU's numbers are kept as
taken; the CSV goes to standard output, for heldout_summary.py. Each kernel is found by its
launch block in FOLDER's launch files (default kernels_cuda/heldout), else the textbook's.

  validation/h200/heldout_replay.py WARPSIM CSV [sass|ir] [FOLDER] [--set KEY=VALUE ...] > replayed.csv

(--set: a config value for every run, to see what a change of the model would do.)
"""
import csv
import glob
import json
import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

REPLACED = ("gpc__cycles_elapsed.max", "sm__warps_active.avg.pct_of_peak_sustained_active")
STATES = "smsp__average_warps_issue_stalled_"  # the warp states, where the CSV has them
FOLDERS = ["kernels_cuda/heldout", "kernels_cuda/textbook"]
SETTINGS = []  # --set KEY=VALUE pairs, passed on to warpsim run


def launch_file(kernel):
    for folder in FOLDERS:
        for path in sorted(glob.glob(f"{folder}/*.launch")):
            if re.search(rf"^launch {re.escape(kernel)}\b", open(path).read(), re.M):
                return path
    sys.exit(f"no launch file names kernel {kernel} in {', '.join(FOLDERS)}")


def simulate(warpsim, frontend, kernel):
    launches = launch_file(kernel)
    source = launches[:-len(".launch")] + ".cu"
    out = subprocess.run([warpsim, "run", source, "--launch-file", launches,
                          "--mode", "timing", "--frontend", frontend, "--cache-control", "none",
                          "--threads", "1", "--json", "-", *SETTINGS],
                         capture_output=True, text=True, check=True).stdout
    return json.loads(out)["metrics"]


def main(warpsim, path, frontend="sass", folder=None):
    if folder:
        FOLDERS[0] = folder
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    kernels = sorted({r["kernel"] for r in rows})
    with ThreadPoolExecutor(2) as pool:
        metrics = dict(zip(kernels, pool.map(lambda k: simulate(warpsim, frontend, k), kernels)))
    writer = csv.DictWriter(sys.stdout, fieldnames=list(rows[0].keys()), lineterminator="\n")
    writer.writeheader()
    for r in rows:
        if r["metric"] in REPLACED or r["metric"].startswith(STATES):
            r["simulated"] = str(metrics[r["kernel"]][r["metric"]])
        writer.writerow(r)


if __name__ == "__main__":
    args = sys.argv[1:]
    while "--set" in args:
        at = args.index("--set")
        if at + 1 >= len(args):
            sys.exit(__doc__)
        SETTINGS += ["--set", args[at + 1]]
        del args[at:at + 2]
    if len(args) not in (2, 3, 4):
        sys.exit(__doc__)
    main(*args)
