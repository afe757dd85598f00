#!/usr/bin/env python3
"""compute-sanitizer's findings on the buggy kernels beside `warpsim check`'s.

  summarise.py RAW_DIR [WARPSIM]

RAW_DIR holds KERNEL.TOOL.txt from run.sh. With WARPSIM (a built warpsim), each kernel of
tests/check/ is also checked there and its hazards listed. Prints a Markdown table."""
import collections
import json
import os
import re
import subprocess
import sys
import tempfile

TOOLS = ("racecheck", "synccheck", "initcheck", "memcheck")


def sanitizer_cell(text, tool):
    if tool == "racecheck":
        m = re.search(r"RACECHECK SUMMARY: \d+ hazards displayed \((\d+) errors, (\d+) warnings\)", text)
        kinds = collections.Counter(
            re.findall(r"(Error|Warning): (\(Warp Level Programming\) )?Potential (\w+) hazard", text))
        named = ", ".join(sorted({k + (" warp level" if warp else "") for _, warp, k in kinds}))
        if not m:
            return "?"
        errors, warnings = int(m.group(1)), int(m.group(2))
        if errors == 0 and warnings == 0:
            return "none"
        return f"{named} (of the first 20 shown): {errors} errors, {warnings} warnings"
    m = re.search(r"ERROR SUMMARY: (\d+) error", text)
    count = int(m.group(1)) if m else None
    kinds = collections.Counter()
    for line in text.splitlines():
        e = re.match(r"========= (Invalid .*?|Uninitialized .*?|Barrier error.*?)( at | in |$)", line)
        if e:
            kinds[e.group(1).strip().rstrip(".")] += 1
    if count is None:
        return "?"
    if count == 0:
        return "none"
    return "; ".join(kinds) + f": {count} errors"


def warpsim_cell(warpsim, source, kernel):
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "check.json")
        subprocess.run([warpsim, "check", os.path.join(source, "tests", "check", kernel + ".kir"),
                        "--json", out], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        hazards = json.load(open(out))["hazards"]
    if not hazards:
        return "none"
    parts = []
    for h in hazards:
        what = h["kind"] if h["category"] != "race" else f"{h['kind']} {h['scope']}"
        if h["severity"] == "warning":
            what += " (warning)"
        parts.append(f"{h['category']}: {what} x{h['count']}")
    return "; ".join(parts)


def main():
    raw = sys.argv[1]
    warpsim = sys.argv[2] if len(sys.argv) > 2 else None
    source = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
    found = collections.OrderedDict()
    for name in sorted(os.listdir(raw)):
        m = re.match(r"(.+)\.(" + "|".join(TOOLS) + r")\.txt$", name)
        if m:
            found.setdefault(m.group(1), {})[m.group(2)] = open(os.path.join(raw, name), errors="replace").read()
    header = "| kernel | " + " | ".join(TOOLS) + (" | warpsim check |" if warpsim else " |")
    print(header)
    print("|" + "---|" * (len(TOOLS) + 1 + (1 if warpsim else 0)))
    for kernel, texts in found.items():
        cells = [sanitizer_cell(texts.get(t, ""), t) for t in TOOLS]
        if warpsim:
            cells.append(warpsim_cell(warpsim, source, kernel))
        print(f"| {kernel} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
