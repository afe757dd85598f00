#!/usr/bin/env python3
"""A set's validate CSV summed up: per launch the cycles (simulated, measured, error), achieved
occupancy (points apart), whether the instruction count and the exact memory counters agree and
whether the output buffers do; then the mean and worst cycle errors and the shares within the
bars (20 % cycles, 10 points occupancy).

  validation/h200/heldout_summary.py results/heldout/sass/validate.csv > results/heldout/sass/summary.txt
"""
import csv
import sys
from collections import OrderedDict

CYCLES = "gpc__cycles_elapsed.max"
OCCUPANCY = "sm__warps_active.avg.pct_of_peak_sustained_active"
INSTRUCTIONS = "smsp__inst_executed.sum"


def main(path):
    launches = OrderedDict()
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            launches.setdefault((row["kernel"], row["launch"]), []).append(row)
    print(f"{'launch':32} {'simulated':>10} {'measured':>10} {'error':>8} {'occ pts':>8}"
          "  instructions  exact counters  buffers")
    errors, occupancy_gaps, not_run = [], [], []
    for (kernel, launch), rows in launches.items():
        by_metric = {r["metric"]: r for r in rows}
        name = kernel if kernel == launch else f"{kernel}/{launch}"
        if CYCLES not in by_metric:
            not_run.append(name)
            print(f"{name:32} not simulated or not measured: "
                  f"{rows[0]['verdict'][:90]}")
            continue
        sim, meas = float(by_metric[CYCLES]["simulated"]), float(by_metric[CYCLES]["measured"])
        error = 100.0 * (sim - meas) / meas
        gap = float(by_metric[OCCUPANCY]["simulated"]) - float(by_metric[OCCUPANCY]["measured"])
        errors.append(error)
        occupancy_gaps.append(gap)
        inst = by_metric[INSTRUCTIONS]["verdict"]
        inst = "exact" if inst == "exact" else (
            "MISMATCH" if inst.startswith("MISMATCH") else "not compared")
        exact_rows = [r for r in rows if r["verdict"] in ("exact", "MISMATCH") and
                      r["metric"] not in (INSTRUCTIONS,) and not r["metric"].startswith("buffer")]
        exact = sum(r["verdict"] == "exact" for r in exact_rows)
        buffers = [r for r in rows if r["metric"].startswith("buffer")]
        same = sum(not r["verdict"].startswith("MISMATCH") for r in buffers)
        print(f"{name:32} {sim:10.0f} {meas:10.0f} {error:+7.1f}% {gap:+8.1f}  {inst:12}"
              f"  {exact:3} of {len(exact_rows):3}      {same} of {len(buffers)}")
    if not errors:
        return
    n = len(errors)
    mean = sum(abs(e) for e in errors) / n
    worst = max(errors, key=abs)
    within20 = sum(abs(e) <= 20 for e in errors)
    occ10 = sum(abs(g) <= 10 for g in occupancy_gaps)
    print(f"\n{n} launches compared ({len(not_run)} not): mean |cycle error| {mean:.1f} %, "
          f"worst {worst:+.1f} %, {within20} of {n} within 20 %; achieved occupancy within "
          f"10 points on {occ10} of {n} ({100.0 * occ10 / n:.0f} %)")


if __name__ == "__main__":
    main(sys.argv[1])
