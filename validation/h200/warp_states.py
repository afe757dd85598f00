#!/usr/bin/env python3
"""Where the warps' time goes, simulated against measured: for each launch of validate CSVs
that hold the warp-state counters (smsp__average_warps_issue_stalled_*_per_issue_active.ratio,
Nsight Compute's Warp State Statistics), each state's warp cycles per issued instruction as
simulated/measured, then each state's mean and median over the launches. A state the model lacks shows 0
simulated; the launches' totals (the warp cycles an instruction costs) are the last column.

  validation/h200/warp_states.py VALIDATE.csv [...] > summary.txt
"""
import csv
import statistics
import sys

PREFIX, SUFFIX = "smsp__average_warps_issue_stalled_", "_per_issue_active.ratio"
STATES = ["selected", "not_selected", "long_scoreboard", "short_scoreboard", "wait",
          "math_pipe_throttle", "mio_throttle", "lg_throttle", "branch_resolving", "barrier",
          "drain", "no_instruction", "dispatch_stall", "imc_miss", "misc", "membar", "sleeping",
          "tex_throttle"]
CYCLES = "gpc__cycles_elapsed.max"


def launches(paths):
    found = {}
    for path in paths:
        with open(path, newline="") as f:
            for r in csv.DictReader(f):
                try:
                    pair = (float(r["simulated"]), float(r["measured"]))
                except ValueError:
                    continue
                found.setdefault((r["kernel"], r["launch"]), {})[r["metric"]] = pair
    return {k: v for k, v in found.items() if PREFIX + "wait" + SUFFIX in v}


def main(paths):
    runs = launches(paths)
    if not runs:
        sys.exit("no launch with warp-state counters in " + ", ".join(paths))
    shown = [s for s in STATES if any(PREFIX + s + SUFFIX in v for v in runs.values())]
    print(f"{'launch':24} {'cycles':>7} " + " ".join(f"{s[:11]:>11}" for s in shown) +
          f" {'total':>13}")
    values = {s: ([], []) for s in shown + ["total"]}
    for (_, launch), v in runs.items():
        sim_c, gpu_c = v.get(CYCLES, (0.0, 0.0))
        error = f"{100 * (sim_c - gpu_c) / gpu_c:+6.1f}%" if gpu_c else "      -"
        cells, total = [], [0.0, 0.0]
        for s in shown:
            sim, gpu = v.get(PREFIX + s + SUFFIX, (0.0, 0.0))
            cells.append(f"{sim:5.2f}/{gpu:<5.2f}")
            for i, x in enumerate((sim, gpu)):
                values[s][i].append(x)
                total[i] += x
        for i in range(2):
            values["total"][i].append(total[i])
        print(f"{launch[:24]:24} {error:>7} " + " ".join(cells) +
              f" {total[0]:6.1f}/{total[1]:<6.1f}")
    print(f"\n{len(runs)} launches, warp cycles per issued instruction:")
    print(f"  {'state':20} {'mean sim':>9} {'measured':>9} {'median sim':>11} {'measured':>9}")
    for s in shown + ["total"]:
        sim, gpu = values[s]
        print(f"  {s:20} {statistics.mean(sim):9.2f} {statistics.mean(gpu):9.2f} "
              f"{statistics.median(sim):11.2f} {statistics.median(gpu):9.2f}")


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    main(sys.argv[1:])
