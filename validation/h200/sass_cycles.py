#!/usr/bin/env python3
"""Cycles of the timing model on the SASS frontend against the H200's and the IR frontend's.

For each launch whose gpc__cycles_elapsed.max the H200 measured, simulated there by the IR
frontend, runs `warpsim run --mode timing --frontend sass` and prints the three. The sets:
  seeds        results/metric_table/validate.csv: the seeds (the IR timing's calibration)
  import       results/import/validate.csv: the CUDA kernels as nvcc builds them
  calibration  timing/derivation/app_replay_calibration.csv: the microbenchmarks of
               kernels_ir/calibration/ (the SASS frontend's calibration)
  PATH.csv     a validate CSV of kernels_ir/calibration/ launches measured from the L2 the
               host's copies leave (results/store_probes/sass.csv, results/store_rounds/...)

  validation/h200/sass_cycles.py [WARPSIM] [seeds|import|calibration] [RUN OPTIONS] > results/...
"""
import glob
import re
import tempfile
import csv
import json
import os
import subprocess
import sys

WARPSIM = sys.argv[1] if len(sys.argv) > 1 else "build/release/warpsim"
SET = sys.argv[2] if len(sys.argv) > 2 else "seeds"
# The L2 as the H200 runs started from: the seeds flushed (validate's default), the others as the
# host's copies leave it (validate --cache-control none).
CACHE = "all" if SET == "seeds" else "none"
EXTRA = sys.argv[3:]  # further options for warpsim run (--set KEY=VALUE, to fit a value)
IMPORT = SET == "import"
CSV = SET if SET.endswith(".csv") else os.path.join(os.path.dirname(__file__), *{
    "seeds": ("results", "metric_table", "validate.csv"),
    "import": ("results", "import", "validate.csv"),
    "calibration": ("timing", "derivation", "app_replay_calibration.csv")}[SET])
SCRATCH = tempfile.mkdtemp()


def cuda_args(kernel, launch, kir):
    """A textbook kernel under its launch file; a seed (`kir`) under its IR file's launches."""
    if os.path.exists(f"kernels_cuda/textbook/{kernel}.cu"):
        return [f"kernels_cuda/textbook/{kernel}.cu", "--launch-file",
                f"kernels_cuda/textbook/{kernel}.launch", "--launch", launch]
    stem = os.path.splitext(os.path.basename(kir))[0]
    launch_file = os.path.join(SCRATCH, stem + ".launch")
    text = open(kir).read()
    open(launch_file, "w").write("\n".join(re.findall(r"^launch .*?^}", text, re.M | re.S)))
    return [f"kernels_cuda/{stem}.cu", "--launch-file", launch_file, "--launch", launch]


# The CSV names a kernel and a launch; two files hold a kernel named smem_transpose.
FILES = {"smem_transpose": ["kernels_ir/smem_transpose.kir", "kernels_ir/smem_transpose_padded.kir"]}
if SET == "calibration" or SET.endswith(".csv"):
    for path in sorted(glob.glob("kernels_ir/calibration/*.kir")):
        for name in re.findall(r"^kernel (\w+)\(", open(path).read(), re.M):
            FILES[name] = [path]

rows = [r for r in csv.DictReader(open(CSV)) if r["metric"] == "gpc__cycles_elapsed.max"]
seen = {}
errors = []
for r in rows:
    files = FILES.get(r["kernel"], [f"kernels_ir/{r['kernel']}.kir"])
    k = seen.get((r["kernel"], r["launch"]), 0)
    seen[(r["kernel"], r["launch"])] = k + 1
    path = files[min(k, len(files) - 1)]
    args = cuda_args(r["kernel"], r["launch"], path) if IMPORT else [path, "--launch", r["launch"]]
    path = args[0]
    p = subprocess.run([WARPSIM, "run", *args, "--mode", "timing", "--frontend", "sass",
                        "--cache-control", CACHE, "--json", "-", *EXTRA], capture_output=True, text=True)
    gpu, ir = float(r["measured"]), float(r["simulated"])
    if p.returncode != 0:
        print(f"{path:40s} {r['launch']:22s} not run: {p.stderr.strip().splitlines()[-1][:90]}")
        continue
    sass = json.loads(p.stdout)["metrics"]["gpc__cycles_elapsed.max"]
    e_sass, e_ir = 100 * (sass - gpu) / gpu, 100 * (ir - gpu) / gpu
    errors.append((abs(e_sass), abs(e_ir)))
    print(f"{path:40s} {r['launch']:22s} H200 {gpu:>9.0f}  sass {sass:>9.0f} ({e_sass:+6.1f} %)"
          f"  ir {ir:>9.0f} ({e_ir:+6.1f} %)")
n = len(errors)
print(f"mean |error| over {n} launches: sass {sum(e[0] for e in errors) / n:.1f} %, "
      f"ir {sum(e[1] for e in errors) / n:.1f} %")
