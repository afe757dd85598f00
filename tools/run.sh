#!/usr/bin/env bash
# Sets up and builds warpsim (release), then runs it. With no arguments it runs the main job on
# the embedded default: the seed's vecAdd (N = 1,000,000, 256 threads per block), functionally.
#   tools/run.sh [warpsim arguments...]
set -euo pipefail
cd "$(dirname "$0")/.."
# Quiet when the build succeeds; everything it printed when it does not.
if ! build_log=$(tools/setup.sh release 2>&1); then
  echo "$build_log" >&2
  exit 1
fi
if (($# == 0)); then
  set -- run
fi
exec build/release/warpsim "$@"
