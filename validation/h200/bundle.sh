#!/usr/bin/env bash
# Puts the release warpsim and the shared libraries it needs beyond the C library into one
# folder, so it runs on a machine where those packages are not installed.
#   validation/h200/bundle.sh OUTDIR
set -euo pipefail
out="$1"
cd "$(dirname "$0")/../.."
tools/setup.sh release > /dev/null
mkdir -p "$out"
cp build/release/warpsim "$out/"
ldd build/release/warpsim | awk '/=>/ {print $3}' |
  grep -vE 'libc\.so|libm\.so|ld-linux|libdl|libpthread|librt' | xargs -I{} cp -L {} "$out/"
ls "$out"
