#!/usr/bin/env python3
"""The SASS frontend's instruction classes against the H200's, without a GPU: for every launch
in a results folder (results/sass_classes/, measured by sass_classes.sh, on which the pipe table
was fitted; results/sass_classes_check/, by sass_classes_check.sh, on which it was not; or the
held-out sets' results/heldout*/, from .cu files), runs
`warpsim run --frontend sass --json`
and compares its smsp__inst_executed.sum, smsp__inst_executed_pipe_* and
smsp__sass_inst_executed_op_* with the GPU's values in the CSVs; prints, per counter, how many
launches agree, and each launch that does not.

  validation/h200/sass_classes.py [WARPSIM [FOLDER]] > FOLDER/summary.txt
"""
import collections
import csv
import glob
import json
import os
import subprocess
import sys
import tempfile

WARPSIM = sys.argv[1] if len(sys.argv) > 1 else "build/release/warpsim"
HERE = sys.argv[2] if len(sys.argv) > 2 else os.path.join(os.path.dirname(__file__), "results",
                                                           "sass_classes")
SCRATCH = tempfile.mkdtemp()


def compared(metric):
    return metric == "smsp__inst_executed.sum" or metric.startswith(
        ("smsp__inst_executed_pipe_", "smsp__sass_inst_executed_op_"))


def run_args(kernel, launch, cuda):
    """The file and launch options of a launch as validate ran it: `cuda`, from a .cu file
    (import.sh's runs), else from a .kir file."""
    if cuda:
        for folder in ["kernels_cuda/textbook", "kernels_cuda/heldout", "kernels_cuda/heldout2"]:
            if os.path.exists(f"{folder}/{kernel}.cu"):
                return [f"{folder}/{kernel}.cu", "--launch-file", f"{folder}/{kernel}.launch",
                        "--launch", launch]
            # A file named otherwise: the launch file that launches the kernel.
            for path in sorted(glob.glob(f"{folder}/*.launch")):
                if f"launch {kernel} " in open(path).read():
                    return [path[:-len(".launch")] + ".cu", "--launch-file", path,
                            "--launch", launch]
        if os.path.exists(f"kernels_cuda/{kernel}.cu"):
            # A seed in CUDA, under its .kir twin's launch blocks (as import.sh runs it).
            blocks, inside = [], False
            for line in open(f"kernels_ir/{kernel}.kir"):
                inside = inside or line.startswith("launch ")
                if inside:
                    blocks.append(line)
                inside = inside and line.rstrip() != "}"
            path = os.path.join(SCRATCH, f"{kernel}.launch")
            with open(path, "w") as f:
                f.writelines(blocks)
            return [f"kernels_cuda/{kernel}.cu", "--launch-file", path, "--launch", launch]
        return None
    if os.path.exists(f"kernels_ir/{kernel}.kir"):
        return [f"kernels_ir/{kernel}.kir", "--launch", launch]
    for path in sorted(glob.glob("kernels_ir/calibration/*.kir")):
        text = open(path).read()
        if f" as {launch} " in text or (kernel == launch and f"launch {kernel} grid" in text):
            return [path, "--launch", launch]
    return None


def main():
    launches = collections.OrderedDict()
    for name in sorted(glob.glob(os.path.join(HERE, "**", "*.csv"), recursive=True)):
        with open(name, newline="") as f:
            for row in csv.DictReader(f):
                if compared(row["metric"]):
                    from_cuda = (os.sep + "cuda" + os.sep in name or "heldout" in name or
                                 "import" in name)
                    key = (row["kernel"], row["launch"], from_cuda)
                    launches.setdefault(key, {})[row["metric"]] = float(row["measured"])
    agree, total, misses = collections.Counter(), collections.Counter(), []
    for (kernel, launch, cuda), measured in launches.items():
        args = run_args(kernel, launch, cuda)
        if args is None or "smsp__inst_executed_pipe_alu.sum" not in measured:
            continue
        p = subprocess.run([WARPSIM, "run", *args, "--frontend", "sass", "--json", "-"],
                           capture_output=True, text=True)
        if p.returncode != 0:
            print(f"{kernel}/{launch}: not run: {p.stderr.strip()[:160]}")
            continue
        simulated = json.loads(p.stdout)["metrics"]
        for metric, value in measured.items():
            total[metric] += 1
            if simulated.get(metric) == value:
                agree[metric] += 1
            else:
                misses.append(f"  {kernel}/{launch} {metric}: simulated "
                              f"{simulated.get(metric)}, H200 {value:.0f}")
    for metric in sorted(total):
        print(f"{metric:50} {agree[metric]:3} of {total[metric]} exact")
    print("\n".join(["", "not exact:"] + misses) if misses else "\nevery count exact")


if __name__ == "__main__":
    main()
