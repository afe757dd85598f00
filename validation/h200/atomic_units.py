#!/usr/bin/env python3
"""What atomic_units_probe.cu measured (results/atomic_units/atomic_units.csv), summarised.

  validation/h200/atomic_units.py [CSV] > results/atomic_units/summary.txt

- pairs: the lines b that take one line's time when paired with line a (share a's unit);
- classes: how many units the lines of each classified range fall into, and how many groups each;
- lines64 and scatter64: how many lines the L2 serves side by side (one line's time over the
  launch's), beside what the classes predict for lines64 (lines over the most lines on one unit).
"""
import collections
import csv
import sys

path = sys.argv[1] if len(sys.argv) > 1 else "validation/h200/results/atomic_units/atomic_units.csv"
rows = list(csv.DictReader(line for line in open(path) if not line.startswith("#")))


def ms(pattern, first, n, second="-1"):
    return next(float(r["ms"]) for r in rows if (r["pattern"], r["first"], r["n"], r["second"])
                == (pattern, str(first), str(n), second))


one_line = ms("lines", 0, 1)
print("pairs: lines sharing line a's unit (a pair's time over one line's at least 0.75)")
for a in sorted({int(r["first"]) for r in rows if r["pattern"] == "pair"}):
    pairs = [(int(r["second"]), float(r["ms"]) / one_line) for r in rows
             if r["pattern"] == "pair" and r["first"] == str(a)]
    shared = [b for b, ratio in pairs if ratio >= 0.75]
    between = sum(1 for _, ratio in pairs if 0.65 < ratio < 0.85)
    print(f"  a={a}: {len(shared)} of {len(pairs)} lines below {max(b for b, _ in pairs) + 1}"
          f" ({between} between 0.65 and 0.85): {shared[:16]}{' ...' if len(shared) > 16 else ''}")

unit = {}
for first in sorted({r["first"] for r in rows if r["pattern"] == "class"}, key=int):
    classes = collections.defaultdict(list)
    for r in rows:
        if r["pattern"] == "class" and r["first"] == first:
            classes[int(r["second"])].append(int(r["n"]))
    sizes = collections.Counter(len(v) for v in classes.values())
    print(f"classes from line {first}: {sum(len(v) for v in classes.values())} groups of 4 lines"
          f" in {len(classes)} units, groups a unit: {dict(sorted(sizes.items()))}")
    if first == "0":
        for representative, members in classes.items():
            for line in members:
                for d in (0, 1, 4, 5):
                    unit[line + d] = representative

for pattern in ("lines64", "scatter64"):
    base = ms(pattern, 0, 1)
    cells = []
    for r in rows:
        if r["pattern"] != pattern:
            continue
        n = int(r["n"])
        cell = f"{n}: {base / float(r['ms']):.1f}"
        if pattern == "lines64" and n <= 4096 and all(line in unit for line in range(n)):
            most = max(collections.Counter(unit[line] for line in range(n)).values())
            cell += f" ({n / most:.1f})"
        cells.append(cell)
    print(f"{pattern}: lines served side by side" +
          (" (predicted by the classes)" if pattern == "lines64" else ""))
    for i in range(0, len(cells), 8):
        print("  " + ", ".join(cells[i:i + 8]))
