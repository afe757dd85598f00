#!/usr/bin/env python3
"""SASS instruction counts of `warpsim run --frontend sass` against the H200's.

For every launch whose smsp__inst_executed.sum the H200 measured (the validate CSVs under
results/: metric_table/ for the IR kernels lowered to PTX, import/ for the CUDA kernels as nvcc
builds them), runs the same launch on its SASS and prints both counts.

  validation/h200/sass_counts.py [WARPSIM] > validation/h200/results/sass_counts.txt
"""
import csv
import json
import os
import re
import subprocess
import sys
import tempfile

WARPSIM = sys.argv[1] if len(sys.argv) > 1 else "build/release/warpsim"
RESULTS = os.path.join(os.path.dirname(__file__), "results")


def measured(csv_path):
    seen = {}
    for row in csv.DictReader(open(csv_path)):
        if row["metric"] == "smsp__inst_executed.sum":
            seen.setdefault((row["kernel"], row["launch"]), row["measured"])
    return seen


def run(args):
    p = subprocess.run([WARPSIM, "run", *args, "--frontend", "sass", "--json", "-"],
                       capture_output=True, text=True)
    if p.returncode != 0:
        return None, p.stderr.strip().splitlines()[-1][:100]
    return json.loads(p.stdout)["metrics"]["smsp__inst_executed.sum"], ""


def main():
    exact = total = 0
    scratch = tempfile.mkdtemp()
    sets = [("IR kernels (lowered PTX)", "metric_table/validate.csv", False),
            ("CUDA kernels (nvcc's build)", "import/validate.csv", True)]
    for title, path, cuda in sets:
        print(f"== {title}: {path}")
        for (kernel, launch), gpu in measured(os.path.join(RESULTS, path)).items():
            if not cuda:
                args = [f"kernels_ir/{kernel}.kir", "--launch", launch]
            elif os.path.exists(f"kernels_cuda/textbook/{kernel}.cu"):
                args = [f"kernels_cuda/textbook/{kernel}.cu", "--launch-file",
                        f"kernels_cuda/textbook/{kernel}.launch", "--launch", launch]
            else:  # a seed: its launch blocks from the IR file
                text = open(f"kernels_ir/{kernel}.kir").read()
                launch_file = os.path.join(scratch, kernel + ".launch")
                open(launch_file, "w").write("\n".join(re.findall(r"^launch .*?^}", text, re.M | re.S)))
                args = [f"kernels_cuda/{kernel}.cu", "--launch-file", launch_file, "--launch", launch]
            got, why = run(args)
            total += 1
            if got is None:
                print(f"  {kernel:28s} {launch:24s} not run: {why}")
                continue
            verdict = "exact" if str(got) == gpu else f"{100 * (got - int(gpu)) / int(gpu):+.2f} %"
            exact += str(got) == gpu
            print(f"  {kernel:28s} {launch:24s} sass {got:>10}  H200 {gpu:>10}  {verdict}")
    print(f"exact: {exact} of {total} launches")


main()
