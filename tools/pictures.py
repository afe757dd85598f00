#!/usr/bin/env python3
"""Draws one picture of each kind warpsim makes and renders it in headless Chromium.

  tools/pictures.py WARPSIM OUTDIR [--check]

Writes OUTDIR/NAME.svg (or .html) and OUTDIR/NAME.png for: a timeline (smem_transpose), the
same as HTML, the timeline of an SM that ran no block, a bank map (the transpose's column
read) and an occupancy sweep. With --check (the test suite's mode) it fails unless every render
finished, each picture is small and renders quickly, and its PNG is not blank and shows the
colours its SVG draws. Exits 77 (a skip, for ctest) where Chromium is absent.
"""
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import time
import zlib

MAX_BYTES = 1_000_000  # a picture a browser opens at once
MAX_RENDER_SECONDS = 20  # Chromium's start included; a render of the old 9 MB timeline took minutes


def small_sweep(out):
    """A sweep spec of two small kernels, for checking the sweep plot quickly."""
    kernels = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "kernels_ir")
    path = os.path.join(out, "small_sweep.ini")
    with open(path, "w") as f:
        f.write(f"[sweep]\nmode = timing\nkernels = {kernels}/warp_divergence.kir, "
                f"{kernels}/example_syncthreads.kir\n[axes]\ntiming.scheduler = lrr, gto, two_level\n")
    return path


def pictures(source, out, checking):
    kernels = os.path.join(source, "kernels_ir")
    transpose = os.path.join(kernels, "smem_transpose.kir")
    # The README's sweep plot is the worked example's; the check draws a small sweep's.
    spec = small_sweep(out) if checking else os.path.join(source, "sweeps", "scheduler_l2.ini")
    return [
        ("timeline", ["run", transpose, "--mode", "timing", "--timeline", "{out}"], ".svg"),
        ("timeline_page", ["run", transpose, "--mode", "timing", "--timeline", "{out}"], ".html"),
        ("timeline_idle_sm", ["run", os.path.join(kernels, "warp_divergence.kir"), "--mode",
                              "timing", "--timeline", "{out}", "--timeline-sm", "5"], ".svg"),
        ("banks", ["banks", "--array", "f32[32][32]", "--index", "[lane][0]", "--svg", "{out}"],
         ".svg"),
        ("occupancy", ["occupancy", "--sweep", "--regs", "64", "--smem", "20000", "--svg",
                       "{out}"], ".svg"),
        # A sweep writes its plots into its folder: {sweep} is that folder.
        ("sweep_scheduler", ["sweep", spec, "--jobs", "2", "--out", "{sweep}"], ".svg"),
    ]


def find_chromium():
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    return None


def png_pixels(path):
    """(width, height, rows of RGB tuples) of an 8-bit RGB or RGBA PNG."""
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError(f"{path}: not a PNG")
    pos, idat, header = 8, b"", None
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    width, height, depth, colour = header[:4]
    if depth != 8 or colour not in (2, 6):
        raise ValueError(f"{path}: expected 8-bit RGB or RGBA, got depth {depth} type {colour}")
    channels = 3 if colour == 2 else 4
    raw = zlib.decompress(idat)
    stride = width * channels
    rows, previous = [], bytearray(stride)
    for y in range(height):
        kind = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            left = line[i - channels] if i >= channels else 0
            up = previous[i]
            corner = previous[i - channels] if i >= channels else 0
            if kind == 1:
                line[i] = (line[i] + left) & 255
            elif kind == 2:
                line[i] = (line[i] + up) & 255
            elif kind == 3:
                line[i] = (line[i] + (left + up) // 2) & 255
            elif kind == 4:
                p = left + up - corner
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
                line[i] = (line[i] + (left if pa <= pb and pa <= pc else up if pb <= pc else corner)) & 255
        rows.append([tuple(line[x * channels:x * channels + 3]) for x in range(width)])
        previous = line
    return width, height, rows


def svg_size(text):
    m = re.search(r'<svg[^>]*width="([\d.]+)"[^>]*height="([\d.]+)"', text)
    return (int(float(m.group(1))), int(float(m.group(2)))) if m else (1400, 1000)


def render(chromium, source_file, png, size, profile):
    command = [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
               f"--user-data-dir={profile}", f"--window-size={size[0]},{size[1]}",
               f"--screenshot={png}", "file://" + os.path.abspath(source_file)]
    started = time.monotonic()
    done = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                          timeout=120, text=True)
    return done.returncode, time.monotonic() - started, done.stderr


def check(name, text, png):
    """Problems with one rendered picture (empty when it is fine)."""
    problems = []
    if len(text.encode()) > MAX_BYTES:
        problems.append(f"{name}: {len(text.encode())} bytes, over {MAX_BYTES}")
    width, height, rows = png_pixels(png)
    pixels = [p for row in rows for p in row]
    drawn = sum(1 for p in pixels if p != (255, 255, 255))
    if drawn < len(pixels) // 100:
        problems.append(f"{name}: blank ({drawn} of {len(pixels)} pixels drawn)")
    # The fills the SVG names must show: at least three of them, or all when fewer.
    fills = {tuple(int(c[i:i + 2], 16) for i in (0, 2, 4))
             for c in re.findall(r'fill="#([0-9A-Fa-f]{6})"', text)} - {(255, 255, 255)}
    shown = fills & set(pixels)
    if len(shown) < min(3, len(fills)):
        problems.append(f"{name}: {len(shown)} of its {len(fills)} fill colours show")
    return problems


def main():
    args = [a for a in sys.argv[1:] if a != "--check"]
    checking = "--check" in sys.argv[1:]
    if len(args) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    warpsim, out = args
    chromium = find_chromium()
    if chromium is None:
        print("pictures: skipped: no Chromium on PATH (Debian: apt-get install chromium)")
        return 77
    source = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    os.makedirs(out, exist_ok=True)
    problems = []
    with tempfile.TemporaryDirectory() as profile:
        for name, command, extension in pictures(source, out, checking):
            picture = os.path.join(out, name + extension)
            sweep = os.path.join(out, name + ".sweep")
            shutil.rmtree(sweep, ignore_errors=True)
            args = [a.replace("{out}", picture).replace("{sweep}", sweep) for a in command]
            run = subprocess.run([warpsim] + args, stdout=subprocess.DEVNULL,
                                 stderr=subprocess.PIPE, text=True)
            if run.returncode != 0:
                problems.append(f"{name}: warpsim exited {run.returncode}: {run.stderr.strip()}")
                continue
            if "{sweep}" in command:
                shutil.copy(os.path.join(sweep, "plot_timing_scheduler.svg"), picture)
            text = open(picture).read()
            width, height = svg_size(text)
            if extension == ".html":
                height += 900  # the tables below the picture
            png = os.path.join(out, name + ".png")
            code, seconds, log = render(chromium, picture, png, (width, height), profile)
            print(f"pictures: {name}: {len(text.encode())} bytes, rendered in {seconds:.1f} s")
            if code != 0 or not os.path.exists(png):
                problems.append(f"{name}: Chromium exited {code}: {log.strip()[-400:]}")
                continue
            if seconds > MAX_RENDER_SECONDS:
                problems.append(f"{name}: rendering took {seconds:.1f} s")
            if checking:
                problems += check(name, text, png)
    for p in problems:
        print("pictures: " + p, file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
